"""Torch's Python meta kernels, run without importing ``torch._dynamo``.

Recording a program infers every output's shape and dtype by running the op's kernel on
meta tensors. Many of torch's meta kernels are Python functions (``torch._refs``,
``torch._decomp``, ``torch._meta_registrations``) wrapped in ``torch._disable_dynamo``, whose
first call imports ``torch._dynamo`` to mark the function as not traceable. That import
costs about 70 MB of resident memory and over a second, and a process that only builds and
runs programs never uses the compiler.

Marking a function as not traceable matters only while the compiler runs, which needs
``torch._dynamo`` imported. :func:`defer_dynamo_import` therefore gives each wrapped
function a stand-in for the cached "disabled" form that calls the function directly while
``torch._dynamo`` is not imported and, once it is, builds and caches the real form (so
``torch.compile`` sees exactly what it would have seen). When torch's wrapper is not the
one this module knows, nothing is changed and the import happens as before.
"""
from __future__ import annotations

import importlib
import sys
from typing import Any, Callable

import torch

__all__ = ["defer_dynamo_import"]

# Where torch keeps its Python meta kernels and the references they call.
_MODULE_PREFIXES = ("torch._refs", "torch._prims", "torch._decomp", "torch._meta_registrations")
_CACHE_ATTR = "__dynamo_disable"
_done = False


def _wrapper_code() -> Any:
    """The code object of ``torch._disable_dynamo``'s wrapper, when it has the shape this
    module relies on (the wrapped ``fn`` and ``recursive`` in its closure, its cache read
    with ``getattr(fn, "__dynamo_disable", None)``); None otherwise."""
    disable = getattr(torch, "_disable_dynamo", None)
    if disable is None:
        return None
    code = disable(lambda: None).__code__
    if set(code.co_freevars) != {"fn", "recursive"} or _CACHE_ATTR not in code.co_consts:
        return None
    return code


def _deferred(fn: Callable, recursive: bool) -> Callable:
    def call(*args: Any, **kwargs: Any) -> Any:
        if "torch._dynamo" not in sys.modules:
            return fn(*args, **kwargs)
        import torch._dynamo
        real = torch._dynamo.disable(fn, recursive, wrapping=False)
        setattr(fn, _CACHE_ATTR, real)
        return real(*args, **kwargs)
    return call


def _closure(f: Any) -> dict[str, Any]:
    cells = getattr(f, "__closure__", None) or ()
    names = getattr(getattr(f, "__code__", None), "co_freevars", ())
    out = {}
    for name, cell in zip(names, cells):
        try:
            out[name] = cell.cell_contents
        except ValueError:   # an empty cell
            pass
    return out


def defer_dynamo_import() -> int:
    """Give torch's dynamo-disabled meta kernels a stand-in that imports nothing until
    ``torch._dynamo`` is imported by someone else; returns how many were given one (0 on
    later calls, or when torch's wrapper has another shape).

    Examples:
        >>> from pagaie._static.meta_kernels import defer_dynamo_import
        >>> n = defer_dynamo_import()
        >>> defer_dynamo_import()
        0
    """
    global _done
    if _done:
        return 0
    _done = True
    code = _wrapper_code()
    if code is None:
        return 0
    for name in ("torch._refs", "torch._prims", "torch._meta_registrations", "torch._decomp.decompositions"):
        importlib.import_module(name)
    seen: set[int] = set()
    count = 0

    def visit(f: Any) -> None:
        nonlocal count
        while callable(f) and id(f) not in seen:
            seen.add(id(f))
            cells = _closure(f)
            if getattr(f, "__code__", None) is code:
                fn = cells.get("fn")
                if fn is not None and getattr(fn, _CACHE_ATTR, None) is None:
                    setattr(fn, _CACHE_ATTR, _deferred(fn, cells.get("recursive", True)))
                    count += 1
            for v in cells.values():
                if hasattr(v, "__code__"):
                    visit(v)
            f = getattr(f, "__wrapped__", None)

    from torch._decomp import global_decomposition_table
    for table in global_decomposition_table.values():
        for f in list(table.values()):
            visit(f)
    for name, module in list(sys.modules.items()):
        if module is not None and name.startswith(_MODULE_PREFIXES):
            for v in list(vars(module).values()):
                visit(v)
    return count
