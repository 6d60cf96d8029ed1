"""ONNX lowerings: attention and recurrent networks."""

from __future__ import annotations

import numpy as np


from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import (
    _cast_to, _dim, _ndim, _need, _range_to, _scalar, _slice, _sq, _unsq, register)


# ---- attention -------------------------------------------------------------------------
@register("scaled_dot_product_attention")
def _sdpa(ctx, a, outs):
    import torch
    q, k, v, mask = a["query"], a["key"], a["value"], a["attn_mask"]
    if a["training"] and float(a["dropout_p"] or 0) > 0:
        raise NotImplementedError("paddle.onnx.export: scaled_dot_product_attention with dropout in "
                                  "training mode cannot be exported")
    batched = _ndim(q) == 4
    qn, kn, vn = ctx.name(q), ctx.name(k), ctx.name(v)
    if not batched:
        qn, kn, vn = (_unsq(ctx, n, [0]) for n in (qn, kn, vn))
    qh, kh, dim = q.shape[-2], k.shape[-2], q.shape[-1]
    qt = ctx.one("Transpose", [qn], perm=[0, 2, 1, 3])   # b h s d
    kt = ctx.one("Transpose", [kn], perm=[0, 2, 3, 1])   # b h d s
    vt = ctx.one("Transpose", [vn], perm=[0, 2, 1, 3])
    if qh != kh:
        if qh < 0 or kh <= 0 or qh % kh:
            raise NotImplementedError("paddle.onnx.export: grouped attention needs known head counts")
        rep = qh // kh

        def repeat(t: str) -> str:  # [b, kh, s, d] -> [b, kh * rep, s, d], each head rep times in turn
            shape = ctx.one("Concat", [_dim(ctx, t, 0), ctx.ints([qh]), _dim(ctx, t, 2), ctx.ints([-1])], axis=0)
            return ctx.one("Reshape", [ctx.one("Expand", [_unsq(ctx, t, [2]), ctx.ints([1, 1, rep, 1, 1])]), shape])
        kt = ctx.one("Transpose", [repeat(ctx.one("Transpose", [kt], perm=[0, 1, 3, 2]))], perm=[0, 1, 3, 2])
        vt = repeat(vt)
    scale = a["scale"]
    if not scale:
        scale = dim ** -0.5 if dim > 0 else 1.0
    s = ctx.one("MatMul", [ctx.one("Mul", [qt, _scalar(ctx, float(scale), q)]), kt])
    neg = _scalar(ctx, float("-inf"), q)
    if a["is_causal"]:
        _need(ctx, 11, "causal attention")
        rows = _range_to(ctx, ctx.one("Reshape", [_dim(ctx, s, 2), ctx.ints([])]))
        cols = _range_to(ctx, ctx.one("Reshape", [_dim(ctx, s, 3), ctx.ints([])]))
        keep = ctx.one("Not", [ctx.one("Greater", [_unsq(ctx, cols, [0]), _unsq(ctx, rows, [1])])])
        s = ctx.one("Where", [keep, s, neg])
    elif mask is not None:
        if mask._t.dtype == torch.bool:
            s = ctx.one("Where", [ctx.name(mask), s, neg])
        else:
            s = ctx.one("Add", [s, _cast_to(ctx, ctx.name(mask), mask._t.dtype, q._t.dtype)])
    w = ctx.one("Softmax", [s], axis=3)  # the last axis: the same in every opset
    o = ctx.one("Transpose", [ctx.one("MatMul", [w, vt])], perm=[0, 2, 1, 3])
    if not batched:
        o = _sq(ctx, o, [0])
    ctx.one("Identity", [o], outs[0])


# ---- recurrent networks ----------------------------------------------------------------
_GATES = {"LSTM": ("LSTM", 4, [0, 3, 1, 2]), "GRU": ("GRU", 3, [1, 0, 2]),
          "RNN_TANH": ("RNN", 1, [0]), "RNN_RELU": ("RNN", 1, [0])}


def _const_of(ctx: LoweringContext, v: Value) -> np.ndarray:
    if not isinstance(v, Value) or v.name not in ctx.consts:
        raise NotImplementedError("paddle.onnx.export: rnn weights must be parameters (constants)")
    return ctx.consts[v.name].detach().cpu().numpy()


def _regate(w: np.ndarray, order: list[int]) -> np.ndarray:
    return np.concatenate([c for c in (np.split(w, len(order), axis=0)[i] for i in order)], axis=0)


@register("rnn")
def _rnn(ctx, a, outs):
    import torch
    mode = a["mode"]
    if mode not in _GATES:
        raise NotImplementedError(f"paddle.onnx.export: rnn mode {mode!r} is not supported")
    if not a["is_test"] and float(a["dropout_prob"] or 0) > 0 and int(a["num_layers"]) > 1:
        raise NotImplementedError("paddle.onnx.export: rnn dropout in training mode cannot be exported")
    op, ngates, order = _GATES[mode]
    x = a["input"]
    nl, dirs = int(a["num_layers"]), 2 if a["is_bidirec"] else 1
    weights = list(a["weight_list"])
    ncell = nl * dirs
    ws, bs = weights[:2 * ncell], weights[2 * ncell:]
    states = list(a["pre_state"])
    hid = _const_of(ctx, ws[1]).shape[-1]
    seq = a["sequence_length"]
    seq_name = _cast_to(ctx, ctx.name(seq), seq._t.dtype, torch.int32) if seq is not None else ""
    attrs: dict = {"hidden_size": hid, "direction": "bidirectional" if dirs == 2 else "forward"}
    if op == "GRU":
        attrs["linear_before_reset"] = 1
    if op == "RNN":
        attrs["activations"] = ["Tanh" if mode == "RNN_TANH" else "Relu"] * dirs
    xn = ctx.name(x)
    finals: list[list[str]] = [[] for _ in states]
    for layer in range(nl):
        cells = [layer * dirs + j for j in range(dirs)]
        W = np.stack([_regate(_const_of(ctx, ws[2 * c]), order) for c in cells])
        R = np.stack([_regate(_const_of(ctx, ws[2 * c + 1]), order) for c in cells])
        if bs:
            B = np.stack([np.concatenate([_regate(_const_of(ctx, bs[2 * c]), order),
                                          _regate(_const_of(ctx, bs[2 * c + 1]), order)]) for c in cells])
        else:
            B = np.zeros((dirs, 2 * ngates * hid), W.dtype)
        init = [_slice(ctx, ctx.name(s), [layer * dirs], [(layer + 1) * dirs], [0]) for s in states]
        ins = [xn, ctx.constant(W), ctx.constant(R), ctx.constant(B), seq_name] + init
        res = ctx.node(op, ins, 1 + len(states), **attrs)
        y = ctx.one("Transpose", [res[0]], perm=[0, 2, 1, 3])   # T, B, D, H
        xn = ctx.one("Reshape", [y, ctx.ints([0, 0, -1])])
        for i, h in enumerate(res[1:]):
            finals[i].append(h)
    ctx.one("Identity", [xn], outs[0])
    for i, parts in enumerate(finals):
        if len(parts) == 1:
            ctx.one("Identity", parts, outs[1 + i])
        else:
            ctx.one("Concat", parts, outs[1 + i], axis=0)
