"""Paddle's torch proxy switches (``enable_torch_proxy`` and friends).

In Paddle they make ``import torch`` load Paddle. pagaie runs *on* torch, so a proxy
would hide the backend its own kernels call: :func:`enable_torch_proxy` raises
``NotImplementedError`` with an explanation. What does not need a proxy keeps Paddle's
documented effect: :func:`disable_torch_proxy` warns that no proxy is installed,
``use_torch_proxy_guard(enable=False)`` is a region without the proxy (always true here),
and :func:`extend_torch_proxy_blocked_modules` records the modules a proxy must never touch.
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Iterable, Iterator

__all__ = ["enable_torch_proxy", "disable_torch_proxy", "use_torch_proxy_guard",
           "extend_torch_proxy_blocked_modules", "blocked_modules"]

_BLOCKED: set[str] = {"tvm_ffi"}


def _check_names(value: str | Iterable[str] | None, api: str, arg: str) -> None:
    if value is None or isinstance(value, str):
        return
    try:
        names = list(value)
    except TypeError:
        raise TypeError(f"{api}: '{arg}' must be a module name or an iterable of module names, "
                        f"but received {type(value).__name__}") from None
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"{api}: '{arg}' must hold module names (str), but received "
                            f"{type(n).__name__}")


def enable_torch_proxy(*, scope: str | Iterable[str] | None = None,
                       blocked_modules: str | Iterable[str] | None = None,
                       backend: str = "torch", silent: bool = False) -> None:
    """Paddle's switch that makes ``import torch`` load Paddle (also ``paddle.enable_compat``).
    Not available in pagaie.

    pagaie *is* built on torch: answering ``import torch`` with pagaie would hide the
    backend that pagaie's own kernels call. Import torch directly instead; to run
    Paddle code unchanged, use :func:`pagaie.compat.install` or ``pagaie run script.py``.

    Args:
        scope (str|Iterable[str], optional): modules in which the proxy would apply.
        blocked_modules (str|Iterable[str], optional): modules excluded from the proxy.
        backend (str, optional): only ``'torch'`` exists.
        silent (bool, optional): silence scope warnings.

    Raises:
        NotImplementedError: always (``ValueError`` first for another ``backend``).

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.compat.enable_torch_proxy()
        ... except NotImplementedError:
        ...     print('not available')
        not available
    """
    if backend != "torch":
        raise ValueError(f"paddle.enable_compat: unsupported backend {backend!r}; only 'torch' "
                         "exists")
    raise NotImplementedError(
        "paddle.enable_compat / paddle.compat.enable_torch_proxy: making 'import torch' load "
        "this library is not available in pagaie, because pagaie runs on PyTorch itself and "
        "needs the real 'torch' module. Use PyTorch directly, or run Paddle code unchanged with "
        "pagaie.compat.install() / 'pagaie run script.py'.")


def disable_torch_proxy() -> None:
    """Undo :func:`enable_torch_proxy` (also ``paddle.disable_compat``). Since the proxy can
    never be on in pagaie, this only warns, as Paddle does when no proxy is installed.

    Examples:
        >>> import warnings
        >>> import pagaie as paddle
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter('always')
        ...     paddle.compat.disable_torch_proxy()
        >>> str(w[0].message)
        'torch compat is not installed.'
    """
    warnings.warn("torch compat is not installed.", stacklevel=2)


@contextlib.contextmanager
def use_torch_proxy_guard(*, enable: bool = True, scope: str | Iterable[str] | None = None,
                          silent: bool = False) -> Iterator[None]:
    """A region with the torch proxy on (``enable=True``) or off (``enable=False``).

    The proxy is never on in pagaie, so ``enable=False`` is a region where ``import torch``
    gives the real torch, as Paddle documents, and ``enable=True`` raises like
    :func:`enable_torch_proxy`.

    Args:
        enable (bool, optional): turn the proxy on (True) or off (False) inside the region.
        scope (str|Iterable[str], optional): modules in which the proxy would apply.
        silent (bool, optional): silence scope warnings.

    Raises:
        NotImplementedError: when ``enable`` is True.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.compat.use_torch_proxy_guard(enable=False):
        ...     import torch
        >>> torch.__name__
        'torch'
    """
    _check_names(scope, "paddle.compat.use_torch_proxy_guard", "scope")
    if enable:
        enable_torch_proxy(scope=scope, silent=silent)
    yield


def extend_torch_proxy_blocked_modules(modules: Iterable[str]) -> None:
    """Add modules that a torch proxy must leave alone (their ``import torch`` stays torch).

    pagaie never proxies torch, so every module already behaves this way; the names are
    kept (see :func:`blocked_modules`) so code that registers them runs unchanged.

    Args:
        modules (Iterable[str]): module names.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.extend_torch_proxy_blocked_modules(['my_kernels'])
        >>> 'my_kernels' in paddle.compat.proxy.blocked_modules()
        True
    """
    if isinstance(modules, str):
        # Paddle updates a set with the iterable, so a str adds its characters; a module
        # name is what the caller means.
        modules = [modules]
    _check_names(modules, "paddle.compat.extend_torch_proxy_blocked_modules", "modules")
    _BLOCKED.update(modules)


def blocked_modules() -> frozenset[str]:
    """The module names registered with :func:`extend_torch_proxy_blocked_modules`.

    Examples:
        >>> import pagaie as paddle
        >>> 'tvm_ffi' in paddle.compat.proxy.blocked_modules()
        True
    """
    return frozenset(_BLOCKED)
