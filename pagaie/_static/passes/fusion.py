"""Fusion passes: conv + batch norm folding, conv/bn/act, linear/act, elementwise chains.

Every rule matches at the *consumer* op and pulls its producer in when
:meth:`PassContext.fusable_producer` allows it (a single definition, read only by
the consumer, not fetched, no barrier in between); the fused op takes the
consumer's place and keeps its output values, so nothing downstream changes.
Chains grow one op at a time as the engine iterates to a fixed point.
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.registry import REGISTRY
from pagaie._static.ir import Operator, Value
from pagaie._static.passes.engine import Pass, PassContext, Rule, bound, register_pass

__all__ = ["ACTIVATIONS", "ELEMENTWISE", "FoldConvBN", "FuseConvBNAct", "FuseLinearAct",
           "FuseFeedForward", "FuseElementwise"]

# Activations a conv or linear op may absorb (unary in tensors; literal extra arguments).
ACTIVATIONS = frozenset({
    "relu", "relu6", "sigmoid", "tanh", "gelu", "silu", "swish", "leaky_relu", "hardswish",
    "hardsigmoid", "elu", "mish", "softplus", "selu", "celu", "hardtanh",
})

# Elementwise ops a chain may hold: the output has the broadcast shape of the inputs.
ELEMENTWISE = ACTIVATIONS | frozenset({
    "exp", "log", "sqrt", "rsqrt", "abs", "neg", "square", "sin", "cos", "erf", "reciprocal",
    "floor", "ceil", "sign", "expm1", "log1p", "log2", "log10", "sinh", "cosh", "atan", "asin",
    "acos", "trunc", "frac", "softsign", "log_sigmoid", "tanhshrink", "scale", "clip", "cast",
    "add", "subtract", "multiply", "divide", "maximum", "minimum", "pow", "floor_divide",
    "remainder",
})


def _no_out(op: Operator) -> bool:
    return op.kwargs.get("out") is None


def _call_parts(op: Operator) -> tuple[list, dict] | None:
    """The op's call as (args, kwargs) in canonical form (defaults applied)."""
    rec = REGISTRY.get(op.type)
    try:
        ba = rec.bind(op.args, op.kwargs)
    except TypeError:
        return None
    return list(ba.args), dict(ba.kwargs)


def _act_of(op: Operator, v: Value) -> dict | None:
    """``{'act', 'act_kwargs'}`` when ``op`` is an activation of ``v`` alone."""
    if op.type not in ACTIVATIONS or not _no_out(op):
        return None
    b = bound(op)
    if not b:
        return None
    names = list(REGISTRY[op.type].signature.parameters)
    if b[names[0]] is not v or any(isinstance(x, Value) for x in list(b.values())[1:]):
        return None
    if op.type == "silu" and b.get("inplace"):
        return None
    kw = {k: b[k] for k in names[1:] if k != "name" and not (k == "out" and b[k] is None)}
    return {"act": op.type, "act_kwargs": kw or None}


def _first_arg(op: Operator) -> Any:
    b = bound(op)
    return next(iter(b.values())) if b else None


def _absorb_act(op: Operator, ctx: PassContext, form_of: Any) -> Any:
    """Match activation ``op`` on the single output of a fusable producer whose ``form_of``
    form has no activation yet: ``(producer, form with the activation)``, or False."""
    x = _first_arg(op)
    act = _act_of(op, x) if isinstance(x, Value) else None
    p = ctx.fusable_producer(x, op) if act else None
    if p is None or p.outputs is not x:
        return False
    form = form_of(p)
    if form is None or form.get("act") is not None:
        return False
    form.update(act)
    return p, form


def _same_shape(a: Value, b: Value) -> bool:
    return list(a.shape) == list(b.shape) and a.dtype == b.dtype


# ---- conv + batch norm folding (inference) -----------------------------------------------

def _inference_bn(b: dict) -> bool:
    ugs = b.get("use_global_stats")
    return bool(ugs) if ugs is not None else not b.get("training", False)


class FoldConvBN(Rule):
    """``batch_norm(conv2d(x, w, b))`` with running statistics -> ``conv2d(x, w', b')``.

    ``w' = w * s`` and ``b' = (b - mean) * s + beta`` with ``s = gamma / sqrt(var + eps)``
    per output channel, computed once from the current values (new captured constants).
    Only in programs that do not train (no backward op), as the statistics are frozen.
    """

    name = "fold_conv_bn"

    def match(self, op: Operator, ctx: PassContext) -> Any:
        if op.type != "batch_norm" or ctx.analysis.has_training:
            return False
        b = bound(op)
        if not b or not _inference_bn(b) or not isinstance(b["x"], Value):
            return False
        conv = ctx.fusable_producer(b["x"], op)
        if conv is None or conv.type != "conv2d":
            return False
        c = bound(conv)
        if not c or c["data_format"] != b["data_format"] or b["x"] is not conv.outputs:
            return False
        if not ctx.is_frozen(c["weight"]) or (c["bias"] is not None and not ctx.is_frozen(c["bias"])):
            return False
        for k in ("running_mean", "running_var", "weight", "bias"):
            if b[k] is not None and not ctx.is_frozen(b[k]):
                return False
        if b["running_mean"] is None or b["running_var"] is None:
            return False
        if not c["weight"]._t.is_floating_point():
            return False
        return conv, c, b

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:
        conv, c, b = m
        w = c["weight"].source._t.detach()
        dt = w.dtype
        w64 = w.double()
        cout = w64.shape[0]

        def vec(v: Any, default: float) -> torch.Tensor:
            if v is None:
                return torch.full((cout,), default, dtype=torch.float64, device=w.device)
            return v.source._t.detach().double().reshape(-1)

        mean, var = vec(b["running_mean"], 0.0), vec(b["running_var"], 1.0)
        gamma, beta = vec(b["weight"], 1.0), vec(b["bias"], 0.0)
        bias = vec(c["bias"], 0.0)
        from pagaie._ops._helpers import scalar_of
        s = gamma / torch.sqrt(var + float(scalar_of(b["epsilon"])))
        w2 = (w64 * s.reshape(-1, *([1] * (w64.dim() - 1)))).to(dt)
        b2 = ((bias - mean) * s + beta).to(dt)
        wv = ctx.new_constant(w2, c["weight"].name + ".bn_folded", persistable=True)
        bv = ctx.new_constant(b2, (c["bias"].name if c["bias"] is not None else "conv_bias") +
                              ".bn_folded", persistable=True)
        args, kwargs = _call_parts(conv)
        args, kwargs = _rebind("conv2d", args, kwargs, weight=wv, bias=bv)
        ctx.replace_op(op, "conv2d", args, kwargs, remove=[conv])


def _rebind(op_type: str, args: list, kwargs: dict, **changes: Any) -> tuple[list, dict]:
    from pagaie._static.passes.engine import rebind
    return rebind(op_type, args, kwargs, **changes)


# ---- conv / batch norm / residual / activation -------------------------------------------

_FUSED_CONV = "fused_conv2d_bn_act"


def _conv_form(op: Operator) -> dict | None:
    """The producer as ``fused_conv2d_bn_act`` arguments, or None if it cannot start a fusion."""
    b = bound(op)
    if not b:
        return None
    if op.type == "conv2d":
        if not isinstance(b["x"], Value) or len(b["x"].shape) != 4:
            return None
        return {"x": b["x"], "weight": b["weight"], "bias": b["bias"], "stride": b["stride"],
                "padding": b["padding"], "dilation": b["dilation"], "groups": b["groups"],
                "data_format": b["data_format"], "use_bn": False}
    if op.type == "batch_norm":
        return dict(_bn_part(b), x=b["x"], weight=None, bias=None, data_format=b["data_format"])
    if op.type == _FUSED_CONV:
        return {k: v for k, v in b.items() if k != "name"}
    return None


def _bn_part(b: dict) -> dict:
    return {"running_mean": b["running_mean"], "running_var": b["running_var"],
            "bn_weight": b["weight"], "bn_bias": b["bias"], "training": b["training"],
            "momentum": b["momentum"], "epsilon": b["epsilon"],
            "use_global_stats": b["use_global_stats"], "use_bn": True}


class FuseConvBNAct(Rule):
    """conv2d -> batch_norm -> (+ residual) -> activation, any two or more, into one
    ``fused_conv2d_bn_act`` op."""

    name = "fuse_conv_bn_act"

    def __init__(self, residual: bool = True) -> None:
        self.residual = residual

    def match(self, op: Operator, ctx: PassContext) -> Any:
        if op.type == "batch_norm":
            b = bound(op)
            x = b.get("x")
            if not isinstance(x, Value):
                return False
            p = ctx.fusable_producer(x, op)
            if p is None or p.type != "conv2d":
                return False
            form = _conv_form(p)
            if form is None or form["data_format"] != b["data_format"] or p.outputs is not x:
                return False
            form.update(_bn_part(b))
            return p, form
        if op.type == "add" and self.residual and _no_out(op):
            b = bound(op)
            if b.get("alpha", 1) != 1:
                return False
            for v, r in ((b["x"], b["y"]), (b["y"], b["x"])):
                if not isinstance(v, Value) or not isinstance(r, Value) or v is r:
                    continue
                if not _same_shape(v, r) or not _same_shape(v, op.outputs):
                    continue
                p = ctx.fusable_producer(v, op)
                form = _conv_form(p) if p is not None and p.outputs is v else None
                if form is None or form.get("residual") is not None or form.get("act") is not None:
                    continue
                form["residual"] = r
                return p, form
            return False
        if op.type in ACTIVATIONS:
            return _absorb_act(op, ctx, _conv_form)
        return False

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:
        p, form = m
        x = form.pop("x")
        ctx.replace_op(op, _FUSED_CONV, [x], form, remove=[p])


# ---- linear / matmul + bias + activation ----------------------------------------------

_FUSED_LINEAR = "fused_linear_act"


def _linear_form(op: Operator) -> dict | None:
    b = bound(op)
    if not b or not _no_out(op):
        return None
    if op.type == "linear":
        return {"x": b["x"], "weight": b["weight"], "bias": b["bias"]}
    if op.type == "matmul":
        y = b["y"]
        if b["transpose_x"] or b["transpose_y"] or not isinstance(y, Value) or len(y.shape) != 2:
            return None
        return {"x": b["x"], "weight": y, "bias": None}
    if op.type == _FUSED_LINEAR:
        return {k: v for k, v in b.items() if k != "name"}
    return None


class FuseLinearAct(Rule):
    """matmul/linear (+ 1-D bias) (+ activation) into one ``fused_linear_act`` op."""

    name = "fuse_linear_act"

    def match(self, op: Operator, ctx: PassContext) -> Any:
        if op.type == "add" and _no_out(op):
            b = bound(op)
            if b.get("alpha", 1) != 1:
                return False
            for v, bias in ((b["x"], b["y"]), (b["y"], b["x"])):
                if not isinstance(v, Value) or not isinstance(bias, Value) or v is bias:
                    continue
                p = ctx.fusable_producer(v, op)
                form = _linear_form(p) if p is not None and p.outputs is v else None
                if form is None or form.get("bias") is not None or form.get("act") is not None:
                    continue
                w = form["weight"]
                if list(bias.shape) != [w.shape[-1]] or w.shape[-1] < 0 or bias.dtype != v.dtype:
                    continue
                if v is b["y"] and list(op.outputs.shape) != list(v.shape):
                    continue
                form["bias"] = bias
                return p, form
            return False
        if op.type in ACTIVATIONS:
            return _absorb_act(op, ctx, _linear_form)
        return False

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:
        p, form = m
        x, w = form.pop("x"), form.pop("weight")
        ctx.replace_op(op, _FUSED_LINEAR, [x, w], form, remove=[p])


# ---- feed-forward: linear -> activation -> dropout -> linear ------------------------------

_FUSED_FFN = "fused_feedforward_dropout"


def _training_dropout_p(op: Operator) -> float | None:
    """``p`` of a training-mode, element-wise, upscaling dropout with a literal ``0 < p < 1``."""
    if op.type != "dropout" or op.attrs.get("seed"):   # a seeded mask stays Paddle's
        return None
    b = bound(op)
    p = b.get("p")
    if type(p) not in (float, int) or not 0 < p < 1 or b.get("axis") is not None:
        return None
    if b.get("training") is not True or b.get("mode") != "upscale_in_train":
        return None
    return float(p)


def _first_linear(v: Value, consumer: Operator, ctx: PassContext) -> tuple[list, dict] | None:
    """``(ops, form)`` when ``v`` is ``act(x @ w1 + b1)`` made by ops only ``consumer``'s
    chain reads: a ``linear`` or ``fused_linear_act``, or an activation of a ``linear``."""
    p = ctx.fusable_producer(v, consumer)
    if p is None or p.outputs is not v:
        return None
    ops = [p]
    act = None
    if p.type in ACTIVATIONS:
        act = _act_of(p, _first_arg(p))
        x = _first_arg(p)
        q = ctx.fusable_producer(x, p) if act and isinstance(x, Value) else None
        if q is None or q.outputs is not x or q.type != "linear":
            return None
        ops.append(q)
        p = q
    form = _linear_form(p)
    if form is None or p.type not in ("linear", _FUSED_LINEAR) or form.get("act_args"):
        return None
    if act is not None:
        form.update(act)
    return ops, form


class FuseFeedForward(Rule):
    """``linear(dropout(act(linear(x))))`` in training into one ``fused_feedforward_dropout``.

    The activation is optional (any of :data:`ACTIVATIONS`); the dropout is Paddle's
    default training dropout. The wide intermediate is then updated in place and saved
    once for the backward (see :mod:`pagaie._ops.fused_ffn`).
    """

    name = "fuse_feedforward"

    def match(self, op: Operator, ctx: PassContext) -> Any:
        second = _linear_form(op) if op.type in ("linear", _FUSED_LINEAR) else None
        if second is None or second.get("act") is not None or not isinstance(second["x"], Value):
            return False
        w2 = second["weight"]
        if not isinstance(w2, Value) or len(w2.shape) != 2:
            return False
        drop = ctx.fusable_producer(second["x"], op)
        p = _training_dropout_p(drop) if drop is not None and drop.outputs is second["x"] else None
        d_in = _first_arg(drop) if p is not None else None
        if not isinstance(d_in, Value) or not d_in.dtype.is_floating_point:
            return False
        first = _first_linear(d_in, drop, ctx)
        if first is None:
            return False
        ops, form = first
        w1 = form["weight"]
        if not isinstance(w1, Value) or len(w1.shape) != 2 or not isinstance(form["x"], Value):
            return False
        if len(form["x"].shape) < 2 or w1.shape[1] != w2.shape[0]:
            return False
        return [drop] + ops, dict(x=form["x"], weight1=w1, bias1=form.get("bias"), weight2=w2,
                                  bias2=second.get("bias"), p=p, act=form.get("act"),
                                  act_kwargs=form.get("act_kwargs"))

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:
        ops, form = m
        x = form.pop("x")
        ctx.replace_op(op, _FUSED_FFN, [x], form, remove=ops)


# ---- elementwise chains ----------------------------------------------------------------

_FUSED_EW = "fused_elementwise"


def _chain_of(op: Operator) -> tuple[list, list] | None:
    """(inputs, steps) describing ``op`` as a chain (see ``pagaie._ops.fused``)."""
    if op.type == _FUSED_EW:
        b = bound(op)
        return list(b["inputs"]), list(b["steps"])
    if op.type not in ELEMENTWISE or not _no_out(op):
        return None
    parts = _call_parts(op)
    if parts is None:
        return None
    inputs: list[Value] = []

    def ref(x: Any) -> Any:
        if isinstance(x, Value):
            for k, v in enumerate(inputs):
                if v is x:
                    return {"$ref": k}
            inputs.append(x)
            return {"$ref": len(inputs) - 1}
        if type(x) in (list, tuple):
            return type(x)(ref(e) for e in x)
        return x

    args, kwargs = parts
    kwargs.pop("out", None)
    step = [op.type, [ref(a) for a in args], {k: ref(v) for k, v in kwargs.items()}]
    return inputs, [step]


def _renumber(x: Any, f: Any) -> Any:
    if type(x) is dict and len(x) == 1 and "$ref" in x:
        return {"$ref": f(x["$ref"])}
    if type(x) in (list, tuple):
        return type(x)(_renumber(e, f) for e in x)
    if type(x) is dict:
        return {k: _renumber(e, f) for k, e in x.items()}
    return x


def merge_chains(head: tuple[list, list], v: Value, tail: tuple[list, list]) -> tuple[list, list]:
    """One chain computing ``tail`` where ``head`` computes its input ``v``."""
    in_h, st_h = head
    in_t, st_t = tail
    inputs = list(in_h)
    for x in in_t:
        if x is not v and not any(x is y for y in inputs):
            inputs.append(x)
    n = len(inputs)
    nh, nt = len(in_h), len(in_t)

    def index(x: Value) -> int:
        return next(i for i, y in enumerate(inputs) if y is x)

    def f_head(k: int) -> int:
        return k if k < nh else n + (k - nh)

    def f_tail(k: int) -> int:
        if k < nt:
            return n + len(st_h) - 1 if in_t[k] is v else index(in_t[k])
        return n + len(st_h) + (k - nt)

    steps = [_renumber(s, f_head) for s in st_h] + [_renumber(s, f_tail) for s in st_t]
    return inputs, steps


class FuseElementwise(Rule):
    """Two elementwise ops (or chains) where the first's result feeds only the second, on the
    same shape, into one ``fused_elementwise`` op."""

    name = "fuse_elementwise"

    def match(self, op: Operator, ctx: PassContext) -> Any:
        if not isinstance(op.outputs, Value):
            return False
        tail = _chain_of(op)
        if tail is None:
            return False
        for v in tail[0]:
            if list(v.shape) != list(op.outputs.shape):
                continue
            p = ctx.fusable_producer(v, op)
            if p is None or p.outputs is not v:
                continue
            head = _chain_of(p)
            if head is not None:
                return p, merge_chains(head, v, tail)
        return False

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:
        p, (inputs, steps) = m
        ctx.replace_op(op, _FUSED_EW, [inputs, steps], {}, remove=[p])


def _inference(ctx: PassContext) -> bool:
    return not ctx.analysis.has_training


register_pass(Pass("fold_conv_bn", [FoldConvBN()], applies=_inference,
                   doc="Fold inference batch norms into the preceding convolution's weights."))
register_pass(Pass("fuse_conv_bn_act", [FuseConvBNAct(residual=False)],
                   doc="conv2d + batch_norm + activation into fused_conv2d_bn_act."))
register_pass(Pass("fuse_conv_bn_add_act", [FuseConvBNAct(residual=True)],
                   doc="conv2d + batch_norm + residual add + activation into fused_conv2d_bn_act."))
register_pass(Pass("fuse_linear_act", [FuseLinearAct()],
                   doc="matmul/linear + bias + activation into fused_linear_act."))
register_pass(Pass("fuse_feedforward", [FuseFeedForward()],
                   doc="linear + activation + dropout + linear (training) into "
                       "fused_feedforward_dropout."))
register_pass(Pass("fuse_elementwise", [FuseElementwise()],
                   doc="Chains of elementwise ops into fused_elementwise."))
