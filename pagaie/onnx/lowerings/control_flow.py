"""ONNX lowerings of the control-flow graph ops: ``pagaie.cond`` to ``If`` and
``pagaie.while`` to ``Loop``.

Each branch or loop body is lowered into an ONNX sub-graph with
:func:`pagaie.onnx.export.lower_ops`; values the block reads from outside (its captured
values, parameters, constants) are read from the enclosing scope, as ONNX allows. The
lowerings sit on the graph ops' runners (``GRAPH_OPS[name].onnx``) and take the operator
itself, since they read its blocks and attributes.
"""

from __future__ import annotations

from typing import Sequence

import torch

from pagaie._static.interpreter import GRAPH_OPS
from pagaie._static.ir import Block, Operator
from pagaie.onnx.export import LoweringContext, OpsetTooLow, lower_ops, onnx_dtype
from pagaie.onnx.lowerings._common import _cast_to


def _bool_scalar(ctx: LoweringContext, pred: object) -> str:
    """A predicate Value as the 0-D bool tensor ``If`` and ``Loop`` read."""
    name = _cast_to(ctx, ctx.name(pred), pred._t.dtype, torch.bool)
    return ctx.one("Reshape", [name, ctx.ints([])])


def _subgraph(ctx: LoweringContext, block: Block, inputs: list, results: list[str], label: str) -> object:
    """Lower ``block`` into a graph with the formal ``inputs`` (value infos) whose outputs are
    the program values named ``results`` (each routed through a node of the graph)."""
    sub = ctx.sub()
    for info in inputs:
        sub.names[info.name] = info.name
    lower_ops(sub, block.ops)
    outs = []
    for r in results:
        dtype = block.var(r)._t.dtype if block.has_var(r) else sub.consts[r].dtype if r in sub.consts else None
        name = sub.one("Identity", [sub.ref(r)], sub.fresh(f"{label}_out"))
        outs.append(ctx.helper.make_tensor_value_info(
            name, onnx_dtype(dtype) if dtype is not None else 0, None))
    return ctx.helper.make_graph(sub.nodes, ctx.fresh(label), inputs, outs, value_info=sub.value_infos)


def _typed_outputs(infos: Sequence, values: Sequence) -> None:
    """Fill the element types a sub-graph's outputs ``infos`` lack (those that came from outer
    values) from the program ``values`` they stand for."""
    for info, v in zip(infos, values):
        if not info.type.tensor_type.elem_type:
            info.type.tensor_type.elem_type = onnx_dtype(v._t.dtype)


def _dims(ctx: LoweringContext, block: Block, name: str) -> list[int]:
    """The known dims of the value ``name`` a branch returns (its own, an outer or a constant)."""
    return block.var(name)._known_dims() if block.has_var(name) else list(ctx.consts[name].shape)


def _lower_cond(ctx: LoweringContext, op: Operator, outs: list) -> None:
    prog = op.block.program
    if ctx.opset < 11:  # If before opset 11 needs both branches to give equal shapes
        tb, fb = prog.blocks[op.attrs["true_block"]], prog.blocks[op.attrs["false_block"]]
        for t, f in zip(op.attrs["true_outputs"], op.attrs["false_outputs"]):
            if _dims(ctx, tb, t) != _dims(ctx, fb, f):
                raise OpsetTooLow("an if/else whose branches give different shapes "
                                  f"({_dims(ctx, tb, t)} and {_dims(ctx, fb, f)})", 11, ctx.opset)
    branches = {}
    for side in ("true", "false"):
        block = prog.blocks[op.attrs[f"{side}_block"]]
        branches[side] = _subgraph(ctx, block, [], op.attrs[f"{side}_outputs"], f"{side}_branch")
        _typed_outputs(branches[side].output, ctx.out_values)
    ctx.node("If", [_bool_scalar(ctx, op.args[0])], outs, then_branch=branches["true"],
             else_branch=branches["false"])
    _declare(ctx, outs)


def _declare(ctx: LoweringContext, outs: list) -> None:
    """Declare the outputs' types with the program's shapes (unknown dims symbolic), so that
    runtimes do not take one branch's (or the first iteration's) static shape for them."""
    for n, v in zip(outs, ctx.out_values):
        dims = [d if d >= 0 else f"{n}_d{i}" for i, d in enumerate(v._known_dims())]
        ctx.value_infos.append(ctx.helper.make_tensor_value_info(n, onnx_dtype(v._t.dtype), dims))


def _lower_while(ctx: LoweringContext, op: Operator, outs: list) -> None:
    pred, values = op.args[0], op.args[1]
    block = op.block.program.blocks[op.attrs["body_block"]]
    helper = ctx.helper
    inputs = [helper.make_tensor_value_info(ctx.fresh("iter"), 7, []),
              helper.make_tensor_value_info(ctx.fresh("cond_in"), 9, [])]
    inputs += [helper.make_tensor_value_info(n, onnx_dtype(v._t.dtype), None)
               for n, v in zip(op.attrs["loop_vars"], values)]
    sub_ctx_results = [op.attrs["cond_output"]] + list(op.attrs["body_outputs"])
    body = _subgraph(ctx, block, inputs, sub_ctx_results, "loop_body")
    # the condition comes out as a 0-D bool, the loop variables with their input types
    cond_info = body.output[0]
    body.node.append(helper.make_node("Cast", [cond_info.name], [cond_info.name + "_b"], to=9))
    body.node.append(helper.make_node("Reshape", [cond_info.name + "_b", ctx.ints([])],
                                      [cond_info.name + "_c"]))
    body.output[0].CopyFrom(helper.make_tensor_value_info(cond_info.name + "_c", 9, []))
    _typed_outputs(body.output[1:], values)
    limit = op.attrs.get("max_iterations", -1)
    trip = ctx.constant(torch.tensor(limit, dtype=torch.int64)) if limit is not None and limit >= 0 else ""
    ctx.node("Loop", [trip, _bool_scalar(ctx, pred)] + [ctx.name(v) for v in values], outs, body=body)
    _declare(ctx, outs)


GRAPH_OPS["pagaie.cond"].onnx = _lower_cond
GRAPH_OPS["pagaie.while"].onnx = _lower_while
