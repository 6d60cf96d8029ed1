"""Buffer reuse for the interpreter: elementwise results written into dying inputs.

The interpreter already frees each slot after its last use. On top of that, when an
elementwise op's first input dies at that op, was produced by the plan itself (not
a feed, a captured tensor or a fetch target) and has the result's shape and dtype,
the op can write its result into that input's buffer (torch's ``out=`` or in-place
variant) instead of allocating a new one. Only for plans without a backward op:
autograd may still need the overwritten values.

Whether a buffer is really free is checked when the op runs: the slot must hold the
only reference to the tensor and no view may share its storage (kernels may return
their input itself, or a view of it).
"""
from __future__ import annotations

import sys
from typing import Any, Callable

import torch
import torch.nn.functional as F

from pagaie._core.broadcast import broadcast_shapes
from pagaie._static.interpreter import _fill, _Slot
from pagaie._static.ir import Value

__all__ = ["plan_buffer_reuse", "INPLACE_TABLE"]

_storage_uses = getattr(torch._C, "_storage_Use_Count", None)


def _binary(fn: Callable) -> Callable:
    return lambda x, a: fn(x, a[1], out=x)


def _unary_out(fn: Callable) -> Callable:
    return lambda x, a: fn(x, out=x)


# op name -> (kind, writer(buffer, call args) -> buffer)
INPLACE_TABLE: dict[str, tuple[str, Callable]] = {
    "add": ("binary", _binary(torch.add)),
    "subtract": ("binary", _binary(torch.sub)),
    "multiply": ("binary", _binary(torch.mul)),
    "divide": ("binary_float", _binary(torch.div)),
    "maximum": ("binary", _binary(torch.maximum)),
    "minimum": ("binary", _binary(torch.minimum)),
    "relu": ("unary", lambda x, a: x.relu_()),
    "relu6": ("unary", lambda x, a: F.hardtanh(x, 0.0, 6.0, inplace=True)),
    "sigmoid": ("unary", _unary_out(torch.sigmoid)),
    "tanh": ("unary", _unary_out(torch.tanh)),
    "exp": ("unary", _unary_out(torch.exp)),
    "log": ("unary", _unary_out(torch.log)),
    "sqrt": ("unary", _unary_out(torch.sqrt)),
    "rsqrt": ("unary", _unary_out(torch.rsqrt)),
    "abs": ("unary", _unary_out(torch.abs)),
    "neg": ("unary", _unary_out(torch.neg)),
    "sin": ("unary", _unary_out(torch.sin)),
    "cos": ("unary", _unary_out(torch.cos)),
    "erf": ("unary", _unary_out(torch.erf)),
    "expm1": ("unary", _unary_out(torch.expm1)),
    "log1p": ("unary", _unary_out(torch.log1p)),
    "reciprocal": ("unary", _unary_out(torch.reciprocal)),
    "square": ("unary", _unary_out(torch.square)),
}


def _wrapper(kernel: Callable, write: Callable, check_shape: bool, probe: list | None = None
             ) -> Callable:
    def run(*a: Any, **k: Any) -> Any:
        x = a[0]
        if probe is not None:
            probe.append((sys.getrefcount(x), _storage_uses(x.untyped_storage()._cdata)))
            return None
        if (sys.getrefcount(x) == _RC and _storage_uses(x.untyped_storage()._cdata) == _SC
                and not x.requires_grad
                and (not check_shape or broadcast_shapes(x.shape, a[1].shape) == x.shape)):
            write(x, a)
            return x
        return kernel(*a, **k)
    run.reuses_buffer = True
    return run


def _calibrate() -> tuple[int, int]:
    """The reference counts of a tensor held by one slot only, seen from inside a kernel."""
    seen: list = []
    w = _wrapper(None, None, False, seen)  # type: ignore[arg-type]
    slots: list = [torch.empty(2)]
    a = _fill([_Slot(0)], slots)
    k = _fill({}, slots)
    w(*a, **k)
    return seen[0]


_RC, _SC = _calibrate() if _storage_uses is not None else (-1, -1)


def _literal_ok(y: Any, x: Value) -> bool:
    """A Python scalar operand that leaves ``x``'s dtype unchanged."""
    if isinstance(y, bool):
        return False
    if isinstance(y, int):
        return True
    return isinstance(y, float) and x._t.is_floating_point()


def plan_buffer_reuse(plan: Any) -> int:
    """Rewrite ``plan``'s eligible steps to reuse dying input buffers; returns how many."""
    if plan.has_backward or _storage_uses is None:
        return 0
    external = {s for s, _ in plan.feeds} | {s for s, _ in plan.sources} | set(plan.fetch_slots)
    count = 0
    for step in plan.steps:
        op, kernel, graph, args, kwargs, outs, frees = step
        entry = INPLACE_TABLE.get(op.type)
        if graph is not None or entry is None or not op.args or not args:
            continue
        kind, write = entry
        x, t0 = op.args[0], args[0]
        out = op.outputs
        if not isinstance(x, Value) or type(t0) is not _Slot or not isinstance(out, Value):
            continue
        if t0.i not in frees or t0.i in external or out is x:
            continue
        if op.kwargs.get("out") is not None or op.kwargs.get("alpha", 1) != 1:
            continue
        if op.kwargs.get("rounding_mode") is not None:
            continue
        if x._t.dtype != out._t.dtype or list(x.shape) != list(out.shape):
            continue
        check_shape = False
        if kind == "unary":
            if not x._t.is_floating_point() or any(a is not None for a in op.args[1:]):
                continue
        else:
            if len(op.args) < 2:
                continue
            y = op.args[1]
            if kind == "binary_float" and not x._t.is_floating_point():
                continue
            if isinstance(y, Value):
                if y._t.dtype != x._t.dtype or y is x:
                    continue
                check_shape = -1 in list(x.shape) or len(y.shape) > len(x.shape)
            elif not _literal_ok(y, x):
                continue
            if any(a is not None for a in op.args[2:]):
                continue
        step[1] = _wrapper(kernel, write, check_shape)
        count += 1
    return count
