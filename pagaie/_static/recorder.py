"""Recording op calls into a Program: the static-mode dispatcher handler.

While a recorder is active (``paddle.enable_static()``, or ``to_static`` tracing),
every op call is appended to the current block instead of being computed. Output
shapes and dtypes come from running the op's own kernel on ``meta`` tensors; when
a kernel needs data (``.item()``, data-dependent output sizes) it runs on zero
tensors instead and the output dimensions are marked unknown (-1).

Eager tensors passed to an op (parameters, constants) are captured into the
program as values that read the eager tensor when the program runs, so Paddle's
``nn`` layers work inside ``program_guard`` unchanged.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import torch

from pagaie._core.parameter import Parameter
from pagaie._core.registry import OpRecord, pop_handler, push_handler
from pagaie._core.tensor import Tensor
from pagaie._static.ir import Block, Program, Value, _shape_out

__all__ = ["Recorder", "capture", "recording"]

_MAX_FALLBACK_ELEMENTS = 50_000_000


def capture(block: Block, t: Tensor) -> Value:
    """The program value standing for eager tensor ``t`` (created once per tensor)."""
    prog = block.program
    cache = prog.__dict__.setdefault("_captured", {})
    hit = cache.get(id(t))
    if hit is not None and hit.source is t:
        return hit
    gb = prog.global_block()
    is_param = isinstance(t, Parameter)
    base = t.name if t._name is not None else ("param" if is_param else "constant")
    name = base if not any(base in b.vars for b in prog.blocks) else prog.unique_name(base)
    v = gb.create_var(name, list(t._t.shape), t.dtype, stop_gradient=t.stop_gradient,
                      persistable=is_param or bool(t.persistable))
    v.source = t
    cache[id(t)] = v
    if is_param:
        _declare_in_startup(prog, t, v)
    return v


def _declare_in_startup(prog: Program, t: Tensor, v: Value) -> None:
    """A parameter captured into the static-mode main program is also declared in the startup
    program (as Paddle's startup program creates it), so that running the startup program
    publishes it to the scope (``global_scope().find_var(name)``)."""
    from pagaie.static import framework as _fw
    st = _fw._S
    if not st.enabled or prog is not st.main or st.startup is prog:
        return
    sb = st.startup.global_block()
    if v.name in sb.vars:
        return
    sv = sb.create_var(v.name, list(t._t.shape), t.dtype, stop_gradient=t.stop_gradient,
                       persistable=True)
    sv.source = t


def _to_values(block: Block, v: Any) -> Any:
    if isinstance(v, Value):
        return v
    if isinstance(v, Tensor):
        return capture(block, v)
    if type(v) in (list, tuple):
        conv = [_to_values(block, e) for e in v]
        return type(v)(conv)
    return v


def _meta(v: Any) -> Any:
    if isinstance(v, Tensor):  # Values too: their _t is already a meta tensor
        return v._t if v._t.device.type == "meta" else v._t.detach().to("meta")
    if type(v) in (list, tuple):
        return type(v)(_meta(e) for e in v)
    return v


def _zeros(v: Any, fill: int = 0) -> Any:
    if isinstance(v, Tensor):
        t = v._t
        if t.numel() > _MAX_FALLBACK_ELEMENTS:
            raise ValueError("paddle.static: cannot infer the output shape of this op symbolically, "
                             "and the input is too large to probe")
        return torch.full(t.shape, fill, dtype=t.dtype) if t.device.type == "meta" else t.detach()
    if type(v) in (list, tuple):
        return type(v)(_zeros(e, fill) for e in v)
    return v


def _any_requires_grad(values: list) -> bool:
    return any(not v.stop_gradient for v in values if isinstance(v, Value))


def _make_outputs(block: Block, out: Any, prefix: str, stop: bool, unknown: bool) -> Any:
    if isinstance(out, torch.Tensor):
        shape = [-1] * out.dim() if unknown else _shape_out(out.shape)
        v = block.create_var(block.program.unique_name(prefix), shape, out.dtype,
                             stop_gradient=stop or not (out.is_floating_point() or out.is_complex()))
        return v
    if isinstance(out, (tuple, list)):
        # plain tuple/list (torch's named result tuples are not structures the IR walks)
        kind = list if isinstance(out, list) else tuple
        return kind(_make_outputs(block, o, prefix, stop, unknown) for o in out)
    return out


class Recorder:
    """Appends op calls to ``program``'s current block while it is installed."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.block_stack: list[Block] = [program.global_block()]

    @property
    def block(self) -> Block:
        return self.block_stack[-1]

    def handler(self, rec: OpRecord, args: tuple, kwargs: dict, proceed: Any) -> Any:
        return self.record(rec, args, kwargs)

    def record(self, rec: OpRecord, args: tuple, kwargs: dict) -> Any:
        block = self.block
        vargs = [_to_values(block, a) for a in args]
        vkwargs = {k: _to_values(block, v) for k, v in kwargs.items()}
        unknown = False
        try:
            out = rec.kernel(*_meta(vargs), **_meta(vkwargs))
        except Exception:  # noqa: BLE001 - the meta run failing only means "needs data"
            try:
                out = rec.kernel(*_zeros(vargs), **_zeros(vkwargs))
            except Exception as exc:  # noqa: BLE001
                try:  # zeros can be invalid data (integer division, normalising weights...)
                    out = rec.kernel(*_zeros(vargs, 1), **_zeros(vkwargs, 1))
                except Exception:  # noqa: BLE001
                    raise type(exc)(f"paddle.static: recording paddle.{rec.name} failed: {exc}") from None
            unknown = True
        inputs = list(vargs) + list(vkwargs.values())
        flat = [x for a in inputs for x in (a if isinstance(a, (list, tuple)) else [a])]
        stop = not rec.differentiable or not _any_requires_grad(flat)
        base = rec.inplace_of or rec.name
        if rec.inplace_of is not None:
            # In-place calls re-define their first input (the program stays in call order).
            target = vargs[0] if vargs else next(iter(vkwargs.values()))
            block.append_op(base, vargs, vkwargs, target)
            return target
        outputs = _make_outputs(block, out, base, stop, unknown)
        block.append_op(base, vargs, vkwargs, outputs)
        return outputs

    @contextmanager
    def sub_block(self) -> Iterator[Block]:
        """Record into a new child block of the current one (for control flow)."""
        b = self.program.create_block(self.block.idx)
        self.block_stack.append(b)
        try:
            yield b
        finally:
            self.block_stack.pop()


_ACTIVE: list[Recorder] = []


def active_recorder() -> Recorder | None:
    return _ACTIVE[-1] if _ACTIVE else None


@contextmanager
def recording(program: Program) -> Iterator[Recorder]:
    """Record every op call into ``program`` inside the ``with`` block."""
    r = Recorder(program)
    _ACTIVE.append(r)
    push_handler(r.handler)
    try:
        yield r
    finally:
        pop_handler(r.handler)
        _ACTIVE.remove(r)

