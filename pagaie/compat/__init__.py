"""Run unmodified Paddle code: make ``import paddle`` give pagaie.

:func:`install` puts a finder first on ``sys.meta_path`` that answers every import
of ``paddle`` or ``paddle.<sub>`` with the already-imported ``pagaie`` /
``pagaie.<sub>`` module object itself (so ``paddle.nn is pagaie.nn``). Paddle
modules imported before (a real Paddle installation) are set aside and put back by
:func:`uninstall`.

This module also holds Paddle's own ``enable_compat`` / ``disable_compat``, which in
Paddle make ``import torch`` resolve to Paddle. pagaie runs *on* torch, so a torch
proxy would hide its own backend; ``enable_compat`` therefore raises
``NotImplementedError`` with an explanation.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any, Iterable, Sequence

__all__ = ["install", "uninstall", "is_installed", "enable_compat", "disable_compat"]

_ALIAS = "paddle"
_TARGET = "pagaie"


class _AliasLoader(importlib.abc.Loader):
    """Hands back an existing module instead of executing anything."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self._module

    def exec_module(self, module: ModuleType) -> None:
        pass


class PaddleAliasFinder(importlib.abc.MetaPathFinder):
    """Resolves ``paddle[.sub...]`` to ``pagaie[.sub...]``."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != _ALIAS and not fullname.startswith(_ALIAS + "."):
            return None
        real = _TARGET + fullname[len(_ALIAS):]
        try:
            module = importlib.import_module(real)
        except ModuleNotFoundError as exc:
            if exc.name == real or (exc.name and real.startswith(exc.name + ".")):
                raise ModuleNotFoundError(
                    f"No module named {fullname!r}: pagaie has no counterpart of this Paddle "
                    f"module (looked for {real!r})", name=fullname) from None
            raise
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module),
                                              is_package=hasattr(module, "__path__"))


_finder = PaddleAliasFinder()
_stashed: dict[str, ModuleType] = {}


def is_installed() -> bool:
    """Whether :func:`install` is in effect.

    Examples:
        >>> from pagaie import compat
        >>> isinstance(compat.is_installed(), bool)
        True
    """
    return _finder in sys.meta_path


def install() -> None:
    """Make ``import paddle`` and ``import paddle.<sub>`` import pagaie's modules.

    Examples:
        >>> from pagaie import compat
        >>> compat.install()
        >>> import paddle
        >>> import pagaie
        >>> paddle is pagaie
        True
        >>> compat.uninstall()
    """
    if is_installed():
        return
    importlib.import_module(_TARGET)
    for name in list(sys.modules):
        if name == _ALIAS or name.startswith(_ALIAS + "."):
            mod = sys.modules[name]
            if not _is_ours(mod):
                _stashed[name] = sys.modules.pop(name)
    sys.meta_path.insert(0, _finder)
    importlib.invalidate_caches()


def uninstall() -> None:
    """Undo :func:`install`: ``import paddle`` finds real Paddle (if any) again.

    Examples:
        >>> from pagaie import compat
        >>> compat.uninstall()
        >>> compat.is_installed()
        False
    """
    while _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    for name in list(sys.modules):
        if (name == _ALIAS or name.startswith(_ALIAS + ".")) and _is_ours(sys.modules[name]):
            del sys.modules[name]
    sys.modules.update(_stashed)
    _stashed.clear()
    importlib.invalidate_caches()


def _is_ours(mod: Any) -> bool:
    name = getattr(mod, "__name__", "") or ""
    return name == _TARGET or name.startswith(_TARGET + ".")


def enable_compat(*, scope: str | Iterable[str] | None = None,
                  blocked_modules: str | Iterable[str] | None = None, backend: str = "torch",
                  silent: bool = False) -> None:
    """Paddle's switch that makes ``import torch`` load Paddle. Not available in pagaie.

    pagaie *is* built on torch: answering ``import torch`` with pagaie would hide the
    backend that pagaie's own kernels call. Import torch directly instead; to run
    Paddle code unchanged, use :func:`pagaie.compat.install` or ``pagaie run script.py``.

    Args:
        scope (str|Iterable[str], optional): modules in which the proxy would apply.
        blocked_modules (str|Iterable[str], optional): modules excluded from the proxy.
        backend (str, optional): only ``'torch'`` exists.
        silent (bool, optional): silence scope warnings.

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.enable_compat()
        ... except NotImplementedError:
        ...     print('not available')
        not available
    """
    if backend != "torch":
        raise ValueError(f"paddle.enable_compat: unsupported backend {backend!r}; only 'torch' exists")
    raise NotImplementedError(
        "paddle.enable_compat: making 'import torch' load this library is not available in "
        "pagaie, because pagaie runs on PyTorch itself and needs the real 'torch' module. "
        "Use PyTorch directly, or run Paddle code unchanged with pagaie.compat.install() / "
        "'pagaie run script.py'.")


def disable_compat() -> None:
    """Paddle's switch that undoes :func:`enable_compat`. Since that switch can never be on
    in pagaie, this only warns, as Paddle does when the proxy is not installed.

    Examples:
        >>> import warnings
        >>> import pagaie as paddle
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter('always')
        ...     paddle.disable_compat()
        >>> len(w)
        1
    """
    warnings.warn("torch compat is not installed.", stacklevel=2)


def __getattr__(name: str) -> Any:
    # ``paddle.compat.nn`` (the torch-style layers and functions) needs ``paddle.nn``, which
    # itself imports this module: load it on first use.
    if name == "nn":
        return importlib.import_module("pagaie.compat.nn")
    raise AttributeError(f"module 'paddle.compat' has no attribute '{name}'")
