"""Simplifying passes: dead-code elimination, constant folding, common subexpressions."""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.registry import REGISTRY, suspended
from pagaie._core.tensor import Tensor
from pagaie._static.ir import Operator, Value, declared_size, map_values
from pagaie._static.passes.engine import (GRAPH_SIDE_EFFECTS, Pass, PassContext, Rule, is_barrier,
                                          is_graph_op, is_impure, register_pass)

__all__ = ["DeadCode", "FoldConstant", "CommonSubexpression", "FOLD_LIMIT"]

# Folded results larger than this (elements) are left to run time: a constant is held
# for the program's life, the computation's result only while it is live.
FOLD_LIMIT = 1 << 22


class DeadCode(Rule):
    """Remove an op none of whose outputs is read or observable, and that has no effect."""

    name = "dead_code"

    def match(self, op: Operator, ctx: PassContext) -> Any:
        if is_graph_op(op):
            if GRAPH_SIDE_EFFECTS(op):
                return False
        elif is_barrier(op):
            return False
        outs = op.output_values()
        if not outs:
            return False
        a = ctx.analysis
        return all(not a.users(v) and not ctx.observable(v) for v in outs)

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:
        ctx.remove_op(op)


def _constant(v: Value) -> Any:
    return v.source._t


class FoldConstant(Rule):
    """Evaluate a pure op whose tensor inputs are all constants; its outputs become constants.

    Constants are captured eager tensors that no run changes (not parameters, not
    persistable, stop_gradient) and literal arguments. The outputs keep their names:
    they turn into captured values holding the folded result.
    """

    name = "constant_fold"

    def match(self, op: Operator, ctx: PassContext) -> Any:
        if op.block.idx != 0 or is_graph_op(op) or is_barrier(op) or is_impure(op):
            return False
        if not all(ctx.is_constant(v) for v in op.input_values()):
            return False
        outs = op.output_values()
        a = ctx.analysis
        if not outs or any(a.n_defs(v) != 1 for v in outs):
            return False
        if any(declared_size(v) < 0 or declared_size(v) > FOLD_LIMIT for v in outs):
            return False
        return True

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:
        with suspended(), torch.no_grad():
            result = REGISTRY[op.type].kernel(*map_values(op.args, _constant), **map_values(op.kwargs, _constant))
        _bind_results(op.outputs, result)
        ctx.remove_op(op)


def _bind_results(outs: Any, result: Any) -> None:
    if isinstance(outs, Value):
        t = Tensor(result.detach() if isinstance(result, torch.Tensor) else torch.as_tensor(result))
        t.stop_gradient = True
        outs.source = t
        outs.stop_gradient = True
    elif type(outs) in (list, tuple):
        for o, r in zip(outs, result):
            _bind_results(o, r)


def _key(x: Any) -> Any:
    """A hashable form of an op's arguments, Values by identity; raises TypeError otherwise."""
    if isinstance(x, Value):
        return ("$v", id(x))
    if type(x) in (list, tuple):
        return (type(x).__name__,) + tuple(_key(e) for e in x)
    if type(x) is dict:
        return ("dict",) + tuple(sorted((k, _key(e)) for k, e in x.items()))
    if isinstance(x, float):
        return ("f", x)  # 1 and 1.0 differ in dtype rules
    if isinstance(x, torch.Tensor):
        raise TypeError("tensor literal")
    hash(x)
    return (type(x).__name__, x)


class CommonSubexpression(Rule):
    """Drop an op that repeats an earlier one (same type, same arguments); reuse its results.

    Not for random ops, nor across barriers, nor for values defined more than once.
    """

    name = "cse"

    def match(self, op: Operator, ctx: PassContext) -> Any:
        if is_graph_op(op) or is_barrier(op) or is_impure(op):
            return False
        a = ctx.analysis
        outs = op.output_values()
        if not outs or any(a.n_defs(v) != 1 or ctx.observable(v) for v in outs):
            return False
        try:
            key = (op.type, _key(op.args), _key(op.kwargs))
        except TypeError:
            return False
        table = _table(ctx, op.block)
        first = table.get(key)
        if first is None or first is op or a.position(first) > a.position(op):
            return False
        if a.barrier_between(op.block, first, op, op.input_values()):
            return False
        if any(a.n_defs(v) > 1 for v in op.input_values()):
            return False
        if any(a.n_defs(v) != 1 for v in first.output_values()):
            return False
        return first

    def rewrite(self, op: Operator, first: Operator, ctx: PassContext) -> None:
        for old, new in zip(op.output_values(), first.output_values()):
            ctx.replace_uses(old, new)
        ctx.remove_op(op)


def _table(ctx: PassContext, block: Any) -> dict:
    """First op per key in ``block``, cached with the analysis."""
    a = ctx.analysis
    cache = a.__dict__.setdefault("_cse", {})
    t = cache.get(block.idx)
    if t is None:
        t = cache[block.idx] = {}
        for o in block.ops:
            if is_graph_op(o) or is_barrier(o) or is_impure(o):
                continue
            try:
                t.setdefault((o.type, _key(o.args), _key(o.kwargs)), o)
            except TypeError:
                continue
    return t


register_pass(Pass("dead_code_elimination", [DeadCode()],
                   doc="Remove ops whose results nothing reads (fetch targets stay)."))
register_pass(Pass("constant_folding", [FoldConstant()], blocks="global",
                   doc="Evaluate ops over constants once; their results become captured constants."))
register_pass(Pass("common_subexpression_elimination", [CommonSubexpression()],
                   doc="Merge repeated pure ops with identical arguments."))
