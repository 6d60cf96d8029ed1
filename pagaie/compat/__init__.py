"""Run unmodified Paddle code: make ``import paddle`` give pagaie.

:func:`install` puts a finder first on ``sys.meta_path`` that answers every import
of ``paddle`` or ``paddle.<sub>`` with the already-imported ``pagaie`` /
``pagaie.<sub>`` module object itself (so ``paddle.nn is pagaie.nn``). Paddle
modules imported before (a real Paddle installation) are set aside and put back by
:func:`uninstall`.

It is also Paddle's ``paddle.compat``: PyTorch-style functions (``split``, ``sort``,
``min``/``max``, ``median``, ``unique``... in :mod:`.tensor_ops` and :mod:`.reduce`), their
named-tuple results (:mod:`.results`), the torch-proxy switches (:mod:`.proxy`; Paddle's
``enable_compat`` is ``enable_torch_proxy``, which raises ``NotImplementedError`` since
pagaie runs on torch) and, loaded on first use, ``paddle.compat.nn``.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any, Sequence

from pagaie.compat import proxy
from pagaie.compat.proxy import (disable_torch_proxy, enable_torch_proxy,
                                 extend_torch_proxy_blocked_modules, use_torch_proxy_guard)
from pagaie.compat.reduce import max, median, min, nanmedian
from pagaie.compat.results import MedianRetType, MinMaxRetType, SlogdetResult, SortRetType
from pagaie.compat.tensor_ops import equal, seed, slogdet, sort, split, unique

__all__ = ["equal", "slogdet", "sort", "split", "min", "max", "unique", "median", "nanmedian",
           "seed"]

# Paddle's ``paddle.enable_compat`` / ``disable_compat`` / ``use_compat_guard`` are these
# very functions.
enable_compat = enable_torch_proxy
disable_compat = disable_torch_proxy
use_compat_guard = use_torch_proxy_guard

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


def __getattr__(name: str) -> Any:
    # ``paddle.compat.nn`` (the torch-style layers and functions) needs ``paddle.nn``, which
    # itself imports this module: load it on first use.
    if name == "nn":
        return importlib.import_module("pagaie.compat.nn")
    raise AttributeError(f"module 'paddle.compat' has no attribute '{name}'")
