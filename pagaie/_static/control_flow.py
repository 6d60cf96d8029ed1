"""Control flow in static programs: ``pagaie.cond``, ``pagaie.while`` and ``pagaie.pylayer`` ops.

Each branch or loop body is recorded into a child block (``Recorder.sub_block``).
The graph op that owns the block lists, as its inputs, every value the block reads
from outside (the *captured* values), so pruning and slot allocation in the
interpreter see them like any other input. Its runner executes the chosen block's
ops eagerly on torch tensors (:func:`run_block`); because the interpreter runs
under torch.autograd whenever a backward op follows, gradients flow through the
branch taken (or the unrolled loop) with no extra rule.

Attributes of the ops hold only block indices and value names (JSON-safe), so a
program with control flow survives ``to_json`` / ``from_json``.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

import torch

from pagaie._static.interpreter import GRAPH_OPS, op_kernel, register_graph_op
from pagaie._static.ir import Block, Operator, Value, map_values

__all__ = ["captured_values", "run_block", "current_recorder", "merge_shape"]


def current_recorder() -> Any:
    """The innermost active recorder (``to_static`` tracing or static mode), or None."""
    from pagaie._static.recorder import active_recorder
    r = active_recorder()
    if r is not None:
        return r
    from pagaie.static.framework import current_recorder as static_recorder
    return static_recorder()


def captured_values(block: Block, exclude: set[str] = frozenset()) -> list[Value]:
    """Values read by ``block``'s ops (nested blocks included) but defined outside it."""
    seen: dict[str, Value] = {}
    for op in block.ops:
        for v in op.input_values():
            if v.name not in block.vars and v.name not in exclude:
                seen.setdefault(v.name, v)
    return list(seen.values())


def _store(outs: Any, result: Any, env: dict) -> None:
    if isinstance(outs, Value):
        env[outs.name] = result
    elif type(outs) in (list, tuple):
        for o, r in zip(outs, result):
            _store(o, r, env)


def run_block(block: Block, env: dict, plan: Any = None) -> dict:
    """Run every op of ``block`` in order; ``env`` maps value names to torch tensors (updated)."""
    for op in block.ops:
        a = map_values(op.args, lambda v: env[v.name])
        k = map_values(op.kwargs, lambda v: env[v.name])
        graph = GRAPH_OPS.get(op.type)
        result = graph(op, a, k, plan) if graph is not None else op_kernel(op)(*a, **k)
        _store(op.outputs, result, env)
    return env


def merge_shape(a: list[int], b: list[int]) -> list[int]:
    """The shape both branches agree on: differing dimensions become -1."""
    if len(a) != len(b):
        return [-1] * len(a)
    return [x if x == y else -1 for x, y in zip(a, b)]


def _truth(t: torch.Tensor, api: str) -> bool:
    if t.numel() != 1:
        raise ValueError(f"paddle.static.nn.{api}: the condition must hold exactly one element, but it "
                         f"has shape {list(t.shape)}")
    return bool(t.reshape(()).item())


def _env_of(op: Operator, captured: list) -> dict:
    return {v.name: t for v, t in zip(op.args[-1], captured)}


@register_graph_op("pagaie.cond", side_effect=False)
def _run_cond(op: Operator, args: list, kwargs: dict, plan: Any) -> list:
    pred, captured = args[0], args[-1]
    taken = "true" if _truth(pred, "cond") else "false"
    block = op.block.program.blocks[op.attrs[f"{taken}_block"]]
    env = run_block(block, _env_of(op, captured), plan)
    return [env[n] for n in op.attrs[f"{taken}_outputs"]]


@register_graph_op("pagaie.while", side_effect=False)
def _run_while(op: Operator, args: list, kwargs: dict, plan: Any) -> list:
    pred, values, captured = args
    block = op.block.program.blocks[op.attrs["body_block"]]
    inner, outs, cond_name = op.attrs["loop_vars"], op.attrs["body_outputs"], op.attrs["cond_output"]
    base = _env_of(op, captured)
    values = list(values)
    limit = op.attrs.get("max_iterations", -1)
    n = 0
    while _truth(pred, "while_loop"):
        env = dict(base)
        env.update(zip(inner, values))
        run_block(block, env, plan)
        values = [env[o] for o in outs]
        pred = env[cond_name]
        n += 1
        if 0 <= limit <= n:
            break
    return values


class _PyLayerFunction(torch.autograd.Function):
    """Runs a recorded forward block; its backward runs the recorded backward block."""

    @staticmethod
    def forward(ctx, op, plan, n_in, *tensors):  # noqa: ANN001 - torch's own protocol
        inputs, captured = tensors[:n_in], tensors[n_in:]
        env = _env_of_names(op.attrs["captured"], captured)
        env.update(zip(op.attrs["forward_inputs"], inputs))
        with torch.no_grad():
            run_block(op.block.program.blocks[op.attrs["forward_block"]], env, plan)
        outs = tuple(env[n] for n in op.attrs["forward_outputs"])
        ctx.op, ctx.plan, ctx.n_in, ctx.captured = op, plan, n_in, captured
        return outs

    @staticmethod
    def backward(ctx, *grads):  # noqa: ANN001
        op = ctx.op
        if op.attrs.get("backward_block") is None:
            raise NotImplementedError("paddle.static.nn.static_pylayer: no backward_fn was given, so "
                                      "gradients cannot flow through this layer")
        env = _env_of_names(op.attrs["captured"], ctx.captured)
        env.update(zip(op.attrs["backward_inputs"], grads))
        with torch.no_grad():
            run_block(op.block.program.blocks[op.attrs["backward_block"]], env, ctx.plan)
        ins = tuple(env.get(n) if n is not None else None for n in op.attrs["backward_outputs"])
        return (None, None, None) + ins + (None,) * len(ctx.captured)


def _env_of_names(names: list, tensors: Any) -> dict:
    return dict(zip(names, tensors))


@register_graph_op("pagaie.pylayer", side_effect=False)
def _run_pylayer(op: Operator, args: list, kwargs: dict, plan: Any) -> list:
    inputs, captured = args
    if op.attrs.get("backward_block") is None:  # no gradient rule: no gradient flows
        env = _env_of_names(op.attrs["captured"], captured)
        env.update(zip(op.attrs["forward_inputs"], inputs))
        with torch.no_grad():
            run_block(op.block.program.blocks[op.attrs["forward_block"]], env, plan)
        return [env[n] for n in op.attrs["forward_outputs"]]
    outs = _PyLayerFunction.apply(op, plan, len(inputs), *inputs, *captured)
    return list(outs)


@register_graph_op("pagaie.print", side_effect=True)
def _run_print(op: Operator, args: list, kwargs: dict, plan: Any) -> torch.Tensor:
    x = args[0]
    counter = op.__dict__.setdefault("_printed", [0])
    first_n = op.attrs.get("first_n", -1)
    if first_n < 0 or counter[0] < first_n:
        counter[0] += 1
        # Paddle's PIR executor names every printed value ``var``
        print(format_print(x, op.attrs, "var"))
    return x


@register_graph_op("pagaie.print_args", side_effect=True)
def _run_print_args(op: Operator, args: list, kwargs: dict, plan: Any) -> list:
    """``print(...)`` of ``to_static``'s default mode: tensors printed as eager tensors."""
    from pagaie._core.tensor import wrap
    values = iter(args[0])
    params = iter(op.attrs.get("parameters") or [False] * len(args[0]))
    shown = []
    for part in op.attrs["parts"]:
        if part is not None:
            shown.append(part)
            continue
        t = next(values)
        w = wrap(t.detach())
        w.stop_gradient = not t.requires_grad
        shown.append(("Parameter containing:\n" if next(params) else "") + repr(w))
    print(*shown, sep=op.attrs.get("sep", " "), end=op.attrs.get("end", "\n"))
    return []


@register_graph_op("pagaie.assert", side_effect=True)
def _run_assert(op: Operator, args: list, kwargs: dict, plan: Any) -> list:
    """``assert`` on a symbolic condition (``to_static``): raises when the program runs."""
    if not _truth(args[0], "Assert"):
        msg = op.attrs.get("message")
        if op.attrs.get("error") == "ValueError":
            raise ValueError("paddle.jit.to_static: an 'assert' of the converted function failed"
                             + (f": {msg}" if msg is not None else ""))
        raise AssertionError(msg) if msg is not None else AssertionError()
    return []


def format_print(t: torch.Tensor, attrs: dict, name: str) -> str:
    """Paddle's ``Print`` layout: the name, message, shape, dtype and the first elements."""
    from pagaie._core import dtype as _dt
    lines = []
    if attrs.get("print_tensor_name", True):
        lines.append(f"Variable: {name}")
    if attrs.get("message"):
        lines.append(f"  - message: {attrs['message']}")
    if attrs.get("print_tensor_lod", True):
        lines.append("  - lod: {}")
    lines.append(f"  - place: Place({'cpu' if t.device.type == 'cpu' else f'gpu:{t.device.index or 0}'})")
    if attrs.get("print_tensor_shape", True):
        lines.append(f"  - shape: {list(t.shape)}")
    if attrs.get("print_tensor_layout", True):
        lines.append("  - layout: NCHW")
    if attrs.get("print_tensor_type", True):
        lines.append(f"  - dtype: {_dt.from_torch_dtype(t.dtype).name}")
    flat = t.detach().reshape(-1)
    n = attrs.get("summarize", 20)
    shown = flat if n is None or n < 0 else flat[:n]
    # every element as a float with six decimals, whatever the dtype (as Paddle prints)
    lines.append("  - data: [" + " ".join(f"{float(v):.6f}" for v in shown.tolist()) + "]")
    return "\n".join(lines)


def walk_blocks(block: Block) -> Iterator[Block]:
    """``block`` and every block nested below it."""
    yield block
    for b in block.program.blocks:
        if b.parent_idx == block.idx and b is not block:
            yield from walk_blocks(b)


def record_block(fn: Callable, recorder: Any, args: tuple = ()) -> tuple[Block, Any]:
    """Call ``fn(*args)`` while recording into a new child block; returns (block, result)."""
    with recorder.sub_block() as b:
        out = fn(*args)
    return b, out
