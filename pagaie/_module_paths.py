"""Paddle's implementation module paths (``import paddle.nn.functional.activation``).

Unmodified Paddle scripts import public objects from the modules that define them in
Paddle (``from paddle.nn.initializer.xavier import XavierUniform``). pagaie keeps its own
module layout, so a :class:`ModulePathFinder` at the end of ``sys.meta_path`` answers the
imports of ``pagaie.<path>`` that no real module answers, for the paths listed in
:mod:`pagaie._module_paths_table`: it makes a module whose attributes resolve, on first
use, to pagaie's public objects (``pagaie.nn.functional.activation.relu is
pagaie.nn.functional.relu``). Through the ``paddle`` alias (:func:`pagaie.compat.install`)
the same modules answer ``import paddle.<path>``.

Real modules always win: the finder runs after the normal path finders, and it never
replaces a non-module attribute of the parent package (``paddle.onnx.export`` stays the
function). pagaie's own modules at a table path (``pagaie.framework``,
``pagaie.io.dataloader``) get the table's names they lack through a module ``__getattr__``
(``from paddle.framework import seed``), so the table is read when pagaie is imported
(a few milliseconds).

    >>> import pagaie
    >>> from pagaie.nn.initializer.xavier import XavierUniform
    >>> XavierUniform is pagaie.nn.initializer.XavierUniform
    True
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any, Sequence

from pagaie.compat import _AliasLoader   # hands back a module that exists already

__all__ = ["ModulePathFinder", "install", "uninstall"]

_ROOT = "pagaie"
_tables: tuple[dict[str, dict[str, str]], set[str]] | None = None


def _load_tables() -> tuple[dict[str, dict[str, str]], set[str]]:
    """``({module: {name: public dotted path}}, {package paths})``, keys without the root."""
    global _tables
    if _tables is None:
        from pagaie._module_paths_table import TABLE
        modules: dict[str, dict[str, str]] = {}
        for mod, groups in TABLE.items():
            names = modules.setdefault(mod, {})
            for public_mod, tokens in groups.items():
                for tok in tokens.split():
                    local, _, public = tok.partition(":")
                    public = public or local
                    names[local] = f"{public_mod}.{public}" if public_mod else public
        packages = {mod.rsplit(".", i)[0] for mod in modules for i in range(1, mod.count(".") + 1)}
        for pkg in packages:
            modules.setdefault(pkg, {})
        _tables = modules, packages
    return _tables


def _resolve(dotted: str) -> Any:
    obj: Any = sys.modules[_ROOT]
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _module_getattr(module: ModuleType, names: dict[str, str], sub: str):
    """The ``__getattr__`` of a made module: public names first, then submodules."""
    def __getattr__(name: str) -> Any:
        path = names.get(name)
        if path is not None:
            try:
                value = _resolve(path)
            except AttributeError:
                raise AttributeError(
                    f"module {module.__name__!r} has no attribute {name!r}: pagaie has no "
                    f"counterpart of paddle.{path}") from None
            module.__dict__[name] = value
            return value
        child = f"{sub}.{name}"
        if child in _load_tables()[0] and not name.startswith("__"):
            return importlib.import_module(f"{module.__name__}.{name}")
        raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")
    return __getattr__


class _TableLoader(importlib.abc.Loader):
    """Makes the module of one table entry (its attributes resolve lazily)."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        sub = module.__name__[len(_ROOT) + 1:]
        names = _load_tables()[0][sub]
        module.__doc__ = (f"Paddle's ``paddle.{sub}``: its public names, resolved to pagaie's "
                          "public objects.")
        module.__all__ = sorted(names)
        module.__getattr__ = _module_getattr(module, names, sub)
        module.__dir__ = lambda: sorted(set(module.__dict__) | set(names))


class ModulePathFinder(importlib.abc.MetaPathFinder):
    """Answers ``pagaie.<path>`` for Paddle's module paths that pagaie has no module for."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(_ROOT + "."):
            return None
        sub = fullname[len(_ROOT) + 1:]
        modules, packages = _load_tables()
        if sub not in modules:
            return None
        parent_name, _, leaf = fullname.rpartition(".")
        parent = sys.modules.get(parent_name)
        existing = parent.__dict__.get(leaf) if parent is not None else None
        if isinstance(existing, ModuleType):
            return importlib.machinery.ModuleSpec(fullname, _AliasLoader(existing),
                                                  is_package=hasattr(existing, "__path__"))
        if existing is not None:
            return None   # pagaie's own object of that name stays reachable
        return importlib.machinery.ModuleSpec(fullname, _TableLoader(), is_package=sub in packages)


_finder = ModulePathFinder()


def install() -> None:
    """Put the finder at the end of ``sys.meta_path`` (done when pagaie is imported).

    Examples:
        >>> from pagaie import _module_paths
        >>> _module_paths.install()
        >>> _module_paths._finder in sys.meta_path
        True
    """
    if _finder not in sys.meta_path:
        sys.meta_path.append(_finder)
    _complete_real_modules()


def _complete_real_modules() -> None:
    """pagaie's own modules at a table path (``pagaie.framework``, ``pagaie.io.dataloader``...)
    get the table's names they lack through a module ``__getattr__``, consulted after theirs."""
    for sub, names in _load_tables()[0].items():
        module = sys.modules.get(f"{_ROOT}.{sub}")
        if module is None or isinstance(getattr(module.__spec__, "loader", None), _TableLoader) \
                or getattr(module, "__getattr__", None) is not None and \
                getattr(module.__getattr__, "_table", False):
            continue
        fallback = _module_getattr(module, names, sub)
        own = module.__dict__.get("__getattr__")
        if own is not None:
            def chained(name: str, own=own, fallback=fallback) -> Any:
                try:
                    return own(name)
                except AttributeError:
                    return fallback(name)
            fallback = chained
        fallback._table = True
        module.__getattr__ = fallback


def uninstall() -> None:
    """Take the finder off ``sys.meta_path`` (modules already made stay importable).

    Examples:
        >>> from pagaie import _module_paths
        >>> _module_paths.uninstall()
        >>> _module_paths._finder in sys.meta_path
        False
        >>> _module_paths.install()
    """
    while _finder in sys.meta_path:
        sys.meta_path.remove(_finder)


install()
