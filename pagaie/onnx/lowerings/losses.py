"""ONNX lowerings of the losses: each writes its elementwise loss as ONNX nodes, then the
shared ``reduction`` ('none', 'mean', 'sum'; 'batchmean' for kl_div)."""

from __future__ import annotations

import numpy as np

from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext, onnx_dtype
from pagaie.onnx.lowerings._common import (
    _axis, _cast_to, _dim, _int64, _ndim, _need, _np_dtype, _reduce_to, _scalar, _sq, _unsq, register)


def _reduce(ctx: LoweringContext, loss: str, reduction: str, out: str, ref: Value | None = None) -> None:
    """``loss`` reduced as Paddle's ``reduction`` asks, written to ``out`` ('batchmean': the
    sum over the first axis' size; ``ref`` gives the dtype)."""
    if reduction == "none":
        ctx.one("Identity", [loss], out)
    elif reduction == "sum":
        _reduce_to(ctx, "ReduceSum", loss, None, False, out)
    elif reduction == "mean":
        _reduce_to(ctx, "ReduceMean", loss, None, False, out)
    elif reduction == "batchmean":
        total = _reduce_to(ctx, "ReduceSum", loss, None, False)
        n = ctx.one("Cast", [_dim(ctx, loss, 0)], to=onnx_dtype(ref._t.dtype))
        ctx.one("Div", [total, _sq(ctx, n, [0])], out)
    else:
        raise NotImplementedError(f"paddle.onnx.export: reduction={reduction!r} is not supported")


def _weighted(ctx: LoweringContext, loss: str, weight: Value | None) -> str:
    return loss if weight is None else ctx.one("Mul", [loss, ctx.name(weight)])


def _diff(ctx: LoweringContext, a: dict) -> str:
    return ctx.one("Sub", [ctx.name(a["input"]), ctx.name(a["label"])])


@register("mse_loss")
def _mse(ctx, a, outs):
    d = _diff(ctx, a)
    _reduce(ctx, ctx.one("Mul", [d, d]), a["reduction"], outs[0])


@register("square_error_cost")
def _square_error(ctx, a, outs):
    d = _diff(ctx, a)
    ctx.one("Mul", [d, d], outs[0])


@register("l1_loss")
def _l1(ctx, a, outs):
    _reduce(ctx, ctx.one("Abs", [_diff(ctx, a)]), a["reduction"], outs[0])


@register("smooth_l1_loss")
def _smooth_l1(ctx, a, outs):
    x, delta = a["input"], float(a["delta"])
    d = ctx.one("Abs", [_diff(ctx, a)])
    sq = ctx.one("Mul", [ctx.one("Mul", [d, d]), _scalar(ctx, 0.5, x)])
    if a["is_huber"]:   # 0.5 d^2 inside delta, delta * (|d| - delta / 2) outside
        lin = ctx.one("Mul", [ctx.one("Sub", [d, _scalar(ctx, 0.5 * delta, x)]), _scalar(ctx, delta, x)])
    else:               # 0.5 d^2 / delta inside, |d| - delta / 2 outside
        sq = ctx.one("Div", [sq, _scalar(ctx, delta, x)])
        lin = ctx.one("Sub", [d, _scalar(ctx, 0.5 * delta, x)])
    inside = ctx.one("Less", [d, _scalar(ctx, delta, x)])
    _reduce(ctx, ctx.one("Where", [inside, sq, lin]), a["reduction"], outs[0])


@register("kl_div")
def _kl_div(ctx, a, outs):
    x, label = a["input"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    if a["log_target"]:
        loss = ctx.one("Mul", [ctx.one("Exp", [ln]), ctx.one("Sub", [ln, xn])])
    else:   # label * (log(label) - x), 0 where label <= 0 (Paddle's kernel)
        zero = _scalar(ctx, 0.0, label)
        pos = ctx.one("Greater", [ln, zero])
        safe = ctx.one("Where", [pos, ln, _scalar(ctx, 1.0, label)])
        term = ctx.one("Mul", [ln, ctx.one("Sub", [ctx.one("Log", [safe]), xn])])
        loss = ctx.one("Where", [pos, term, zero])
    _reduce(ctx, loss, a["reduction"], outs[0], x)


def _log_clamped(ctx: LoweringContext, v: str, ref: Value) -> str:
    return ctx.one("Max", [ctx.one("Log", [v]), _scalar(ctx, -100.0, ref)])


@register("binary_cross_entropy")
def _bce(ctx, a, outs):
    x, label = a["input"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    one = _scalar(ctx, 1.0, x)
    pos = ctx.one("Mul", [ln, _log_clamped(ctx, xn, x)])
    neg = ctx.one("Mul", [ctx.one("Sub", [one, ln]), _log_clamped(ctx, ctx.one("Sub", [one, xn]), x)])
    loss = ctx.one("Neg", [ctx.one("Add", [pos, neg])])
    _reduce(ctx, _weighted(ctx, loss, a["weight"]), a["reduction"], outs[0])


def _softplus_neg_abs(ctx: LoweringContext, xn: str, ref: Value) -> str:
    """``log(1 + exp(-|x|))``: the stable part of the logistic losses."""
    return ctx.one("Log", [ctx.one("Add", [_scalar(ctx, 1.0, ref), ctx.one("Exp", [ctx.one("Neg", [ctx.one("Abs", [xn])])])])])


@register("binary_cross_entropy_with_logits")
def _bce_logits(ctx, a, outs):
    x, label = a["logit"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    zero, one = _scalar(ctx, 0.0, x), _scalar(ctx, 1.0, x)
    sp = _softplus_neg_abs(ctx, xn, x)
    if a["pos_weight"] is None:   # max(x, 0) - x * label + log(1 + exp(-|x|))
        loss = ctx.one("Add", [ctx.one("Sub", [ctx.one("Max", [xn, zero]), ctx.one("Mul", [xn, ln])]), sp])
    else:   # (1 - label) * x + (1 + (pw - 1) * label) * (log(1 + exp(-|x|)) + max(-x, 0))
        pw = ctx.name(a["pos_weight"])
        coef = ctx.one("Add", [one, ctx.one("Mul", [ctx.one("Sub", [pw, one]), ln])])
        tail = ctx.one("Add", [sp, ctx.one("Max", [ctx.one("Neg", [xn]), zero])])
        loss = ctx.one("Add", [ctx.one("Mul", [ctx.one("Sub", [one, ln]), xn]), ctx.one("Mul", [coef, tail])])
    _reduce(ctx, _weighted(ctx, loss, a["weight"]), a["reduction"], outs[0])


@register("log_loss")
def _log_loss(ctx, a, outs):
    x, label = a["input"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    eps, one = _scalar(ctx, float(a["epsilon"]), x), _scalar(ctx, 1.0, x)
    pos = ctx.one("Mul", [ln, ctx.one("Log", [ctx.one("Add", [xn, eps])])])
    neg = ctx.one("Mul", [ctx.one("Sub", [one, ln]),
                          ctx.one("Log", [ctx.one("Add", [ctx.one("Sub", [one, xn]), eps])])])
    ctx.one("Neg", [ctx.one("Add", [pos, neg])], outs[0])


@register("soft_margin_loss")
def _soft_margin(ctx, a, outs):
    x = a["input"]
    label = _cast_to(ctx, ctx.name(a["label"]), a["label"]._t.dtype, x._t.dtype)
    z = ctx.one("Neg", [ctx.one("Mul", [label, ctx.name(x)])])
    loss = ctx.one("Log", [ctx.one("Add", [_scalar(ctx, 1.0, x), ctx.one("Exp", [z])])])
    _reduce(ctx, loss, a["reduction"], outs[0])


@register("margin_ranking_loss")
def _margin_ranking(ctx, a, outs):
    x = a["input"]
    d = ctx.one("Sub", [ctx.name(x), ctx.name(a["other"])])
    z = ctx.one("Add", [ctx.one("Neg", [ctx.one("Mul", [ctx.name(a["label"]), d])]), _scalar(ctx, float(a["margin"]), x)])
    _reduce(ctx, ctx.one("Relu", [z]), a["reduction"], outs[0])


@register("hinge_embedding_loss")
def _hinge_embedding(ctx, a, outs):
    x, label = a["input"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    zero = _scalar(ctx, 0.0, x)
    hinge = ctx.one("Relu", [ctx.one("Sub", [_scalar(ctx, float(a["margin"]), x), xn])])
    pos = ctx.one("Where", [ctx.one("Equal", [ln, _scalar(ctx, 1.0, label)]), xn, zero])
    neg = ctx.one("Where", [ctx.one("Equal", [ln, _scalar(ctx, -1.0, label)]), hinge, zero])
    _reduce(ctx, ctx.one("Add", [pos, neg]), a["reduction"], outs[0])


@register("cosine_embedding_loss")
def _cosine_embedding(ctx, a, outs):
    x1, x2, label = a["input1"], a["input2"], a["label"]
    n1, n2 = ctx.name(x1), ctx.name(x2)
    axis = _ndim(x1) - 1
    dot = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [n1, n2]), [axis], False)
    m1 = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [n1, n1]), [axis], False)
    m2 = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [n2, n2]), [axis], False)
    eps = _scalar(ctx, 1e-6, x1)   # Paddle's epsilon in the norms' product
    cos = ctx.one("Div", [dot, ctx.one("Sqrt", [ctx.one("Mul", [ctx.one("Add", [m1, eps]), ctx.one("Add", [m2, eps])])])])
    ln = _cast_to(ctx, ctx.name(label), label._t.dtype, x1._t.dtype)
    zero = _scalar(ctx, 0.0, x1)
    pos = ctx.one("Where", [ctx.one("Equal", [ln, _scalar(ctx, 1.0, x1)]),
                            ctx.one("Sub", [_scalar(ctx, 1.0, x1), cos]), zero])
    neg = ctx.one("Where", [ctx.one("Equal", [ln, _scalar(ctx, -1.0, x1)]),
                            ctx.one("Relu", [ctx.one("Sub", [cos, _scalar(ctx, float(a["margin"]), x1)])]), zero])
    _reduce(ctx, ctx.one("Add", [pos, neg]), a["reduction"], outs[0])


def _picked(ctx: LoweringContext, logp: str, label: str, axis: int) -> str:
    """``logp`` at ``label`` along ``axis`` (``label`` holds one index per position, kept dim)."""
    return ctx.one("GatherElements", [logp, label], axis=axis)


def _hard_label(ctx: LoweringContext, label: Value, nd: int, axis: int) -> tuple[str, bool]:
    """The label as int64 indices with a size-1 ``axis`` (and whether it came without it)."""
    ln = _int64(ctx, label)
    if _ndim(label) == nd:
        return ln, False
    return _unsq(ctx, ln, [axis]), True


def _nll(ctx: LoweringContext, logp: str, ref: Value, label: Value, weight: Value | None,
         ignore_index: int, reduction: str, axis: int, out: str, out_ndim: int) -> None:
    """The negative log-likelihood of hard ``label`` over log-probabilities ``logp``."""
    nd = _ndim(ref)
    ln, added = _hard_label(ctx, label, nd, axis)
    ignored = ctx.one("Equal", [ln, ctx.constant(np.asarray(ignore_index, np.int64))])
    safe = ctx.one("Where", [ignored, ctx.constant(np.asarray(0, np.int64)), ln])
    zero = _scalar(ctx, 0.0, ref)
    loss = ctx.one("Neg", [_picked(ctx, logp, safe, axis)])
    w = ctx.one("Where", [ignored, zero, _scalar(ctx, 1.0, ref)])
    if weight is not None:
        w = ctx.one("Mul", [w, ctx.one("Gather", [ctx.name(weight), safe], axis=0)])
    loss = ctx.one("Mul", [loss, w])
    if reduction == "mean":   # Paddle divides by the weights of the counted labels (0 if none)
        total = _reduce_to(ctx, "ReduceSum", loss, None, False)
        counted = _reduce_to(ctx, "ReduceSum", w, None, False)
        none = ctx.one("Equal", [counted, zero])
        safe = ctx.one("Where", [none, _scalar(ctx, 1.0, ref), counted])
        ctx.one("Where", [none, zero, ctx.one("Div", [total, safe])], out)
        return
    if reduction == "none" and out_ndim < nd:
        loss = _sq(ctx, loss, [axis])
    _reduce(ctx, loss, reduction, out)


@register("nll_loss")
def _nll_loss(ctx, a, outs):
    x = a["input"]
    _nll(ctx, ctx.name(x), x, a["label"], a["weight"], int(a["ignore_index"]), a["reduction"], 1,
         outs[0], _ndim(ctx.out_values[0]))


@register("cross_entropy")
def _cross_entropy(ctx, a, outs):
    x, label = a["input"], a["label"]
    nd = _ndim(x)
    axis = _axis(int(a["axis"]), nd)
    xn = ctx.name(x)
    if a["use_softmax"]:
        _need(ctx, 13, "cross_entropy over an arbitrary axis")
        logp = ctx.one("LogSoftmax", [xn], axis=axis)
    else:
        logp = ctx.one("Log", [xn])
    smoothing = float(a["label_smoothing"] or 0.0)
    if not a["soft_label"] and not smoothing:
        _nll(ctx, logp, x, label, a["weight"], int(a["ignore_index"]), a["reduction"], axis,
             outs[0], _ndim(ctx.out_values[0]))
        return
    if a["weight"] is not None:
        raise NotImplementedError("paddle.onnx.export: cross_entropy with soft labels (or label "
                                  "smoothing) and a weight is not supported")
    if a["soft_label"]:
        probs = ctx.name(label)
    else:
        n = x._known_dims()[axis]
        if n < 0:
            raise NotImplementedError("paddle.onnx.export: label smoothing needs a known class count")
        ln, added = _hard_label(ctx, label, nd, axis)
        onehot = ctx.one("OneHot", [_sq(ctx, ln, [axis]), ctx.ints([n]),
                                    ctx.constant(np.asarray([0, 1], dtype=_np_dtype(x)))], axis=axis)
        probs = onehot
    if smoothing:
        n = x._known_dims()[axis]
        probs = ctx.one("Add", [ctx.one("Mul", [probs, _scalar(ctx, 1.0 - smoothing, x)]),
                                _scalar(ctx, smoothing / n, x)])
    loss = ctx.one("Neg", [_reduce_to(ctx, "ReduceSum", ctx.one("Mul", [probs, logp]), [axis], True)])
    if a["reduction"] == "none" and _ndim(ctx.out_values[0]) < nd:
        loss = _sq(ctx, loss, [axis])
    _reduce(ctx, loss, a["reduction"], outs[0])


@register("softmax_with_cross_entropy")
def _softmax_with_ce(ctx, a, outs):
    logits = a["logits"]
    _cross_entropy(ctx, {"input": logits, "label": a["label"], "weight": None, "ignore_index": a["ignore_index"],
                         "reduction": "none", "soft_label": a["soft_label"], "axis": a["axis"],
                         "use_softmax": True, "label_smoothing": 0.0}, outs[:1])
    if a["return_softmax"]:
        ctx.one("Softmax", [ctx.name(logits)], outs[1], axis=_axis(int(a["axis"]), _ndim(logits)))


def _log_sigmoid(ctx: LoweringContext, xn: str, ref: Value) -> str:
    """``log(sigmoid(x)) = -(max(-x, 0) + log(1 + exp(-|x|)))``, stable for large |x|."""
    return ctx.one("Neg", [ctx.one("Add", [ctx.one("Relu", [ctx.one("Neg", [xn])]), _softplus_neg_abs(ctx, xn, ref)])])


@register("multi_label_soft_margin_loss")
def _multi_label_soft_margin(ctx, a, outs):
    x, label = a["input"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    pos = ctx.one("Mul", [ln, _log_sigmoid(ctx, xn, x)])
    neg = ctx.one("Mul", [ctx.one("Sub", [_scalar(ctx, 1.0, x), ln]), _log_sigmoid(ctx, ctx.one("Neg", [xn]), x)])
    loss = _weighted(ctx, ctx.one("Neg", [ctx.one("Add", [pos, neg])]), a["weight"])
    _reduce(ctx, _reduce_to(ctx, "ReduceMean", loss, [_ndim(x) - 1], False), a["reduction"], outs[0])


@register("multi_margin_loss")
def _multi_margin(ctx, a, outs):
    x, label = a["input"], a["label"]
    c = x._known_dims()[1]
    if c < 0:
        raise NotImplementedError("paddle.onnx.export: multi_margin_loss needs a known class count")
    xn = ctx.name(x)
    lab = ctx.one("Reshape", [_int64(ctx, label), ctx.ints([-1, 1])])
    p, margin = int(a["p"]), float(a["margin"])
    t = ctx.one("Relu", [ctx.one("Add", [ctx.one("Sub", [_scalar(ctx, margin, x), _picked(ctx, xn, lab, 1)]), xn])])
    if p != 1:
        t = ctx.one("Pow", [t, _scalar(ctx, float(p), x)])
    # Paddle's mean runs over all C classes, the target's own term taken out as margin^p / C
    nominal = _scalar(ctx, margin ** p / c, x)
    if a["weight"] is None:
        loss = ctx.one("Sub", [_reduce_to(ctx, "ReduceMean", t, [1], False), nominal])
    else:
        w = ctx.one("Gather", [ctx.name(a["weight"]), lab], axis=0)   # [N, 1]
        loss = ctx.one("Sub", [_reduce_to(ctx, "ReduceMean", ctx.one("Mul", [w, t]), [1], False),
                               ctx.one("Mul", [_sq(ctx, w, [1]), nominal])])
    _reduce(ctx, loss, a["reduction"], outs[0])


@register("poisson_nll_loss")
def _poisson_nll(ctx, a, outs):
    x, label = a["input"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    if a["log_input"]:
        loss = ctx.one("Sub", [ctx.one("Exp", [xn]), ctx.one("Mul", [ln, xn])])
    else:
        loss = ctx.one("Sub", [xn, ctx.one("Mul", [ln, ctx.one("Log", [ctx.one("Add", [xn, _scalar(ctx, float(a["epsilon"]), x)])])])])
    if a["full"]:   # Stirling's term, where the label is above 1
        safe = ctx.one("Max", [ln, _scalar(ctx, 1.0, x)])
        stirling = ctx.one("Add", [ctx.one("Sub", [ctx.one("Mul", [safe, ctx.one("Log", [safe])]), safe]),
                                   ctx.one("Mul", [_scalar(ctx, 0.5, x), ctx.one("Log", [
                                       ctx.one("Mul", [safe, _scalar(ctx, 2 * np.pi, x)])])])])
        above = ctx.one("Greater", [ln, _scalar(ctx, 1.0, x)])
        loss = ctx.one("Add", [loss, ctx.one("Where", [above, stirling, _scalar(ctx, 0.0, x)])])
    _reduce(ctx, loss, a["reduction"], outs[0])


@register("gaussian_nll_loss")
def _gaussian_nll(ctx, a, outs):
    x, var = a["input"], a["variance"]
    vn = ctx.name(var)
    if _ndim(var) == _ndim(x) - 1:
        vn = _unsq(ctx, vn, [_ndim(x) - 1])
    vn = ctx.one("Max", [vn, _scalar(ctx, float(a["epsilon"]), x)])
    d = _diff(ctx, a)
    loss = ctx.one("Mul", [_scalar(ctx, 0.5, x), ctx.one("Add", [ctx.one("Log", [vn]), ctx.one("Div", [ctx.one("Mul", [d, d]), vn])])])
    if a["full"]:
        loss = ctx.one("Add", [loss, _scalar(ctx, 0.5 * float(np.log(2 * np.pi)), x)])
    _reduce(ctx, loss, a["reduction"], outs[0])


@register("sigmoid_focal_loss")
def _sigmoid_focal(ctx, a, outs):
    x, label = a["logit"], a["label"]
    xn, ln = ctx.name(x), ctx.name(label)
    one, zero = _scalar(ctx, 1.0, x), _scalar(ctx, 0.0, x)
    ce = ctx.one("Add", [ctx.one("Sub", [ctx.one("Max", [xn, zero]), ctx.one("Mul", [xn, ln])]),
                         _softplus_neg_abs(ctx, xn, x)])
    p = ctx.one("Sigmoid", [xn])
    not_l = ctx.one("Sub", [one, ln])
    p_t = ctx.one("Add", [ctx.one("Mul", [p, ln]), ctx.one("Mul", [ctx.one("Sub", [one, p]), not_l])])
    alpha = float(a["alpha"])
    a_t = ctx.one("Add", [ctx.one("Mul", [_scalar(ctx, alpha, x), ln]), ctx.one("Mul", [_scalar(ctx, 1 - alpha, x), not_l])])
    focus = ctx.one("Pow", [ctx.one("Sub", [one, p_t]), _scalar(ctx, float(a["gamma"]), x)])
    loss = ctx.one("Mul", [ctx.one("Mul", [a_t, ce]), focus])
    if a["normalizer"] is not None:
        loss = ctx.one("Div", [loss, ctx.name(a["normalizer"])])
    _reduce(ctx, loss, a["reduction"], outs[0])


@register("triplet_margin_loss")
def _triplet_margin(ctx, a, outs):
    from pagaie.onnx.lowerings.reductions import _p_norm
    x = a["input"]
    xn, pn, nn_ = ctx.name(x), ctx.name(a["positive"]), ctx.name(a["negative"])
    last, p = [_ndim(x) - 1], float(a["p"])
    eps = _scalar(ctx, float(a["epsilon"]), x)

    def dist(u: str, v: str) -> str:
        return _p_norm(ctx, x, ctx.one("Add", [ctx.one("Sub", [u, v]), eps]), p, last, False)
    d_pos, d_neg = dist(xn, pn), dist(xn, nn_)
    if a["swap"]:
        d_neg = ctx.one("Min", [d_neg, dist(pn, nn_)])
    loss = ctx.one("Relu", [ctx.one("Add", [ctx.one("Sub", [d_pos, d_neg]), _scalar(ctx, float(a["margin"]), x)])])
    _reduce(ctx, loss, a["reduction"], outs[0])


@register("dice_loss")
def _dice(ctx, a, outs):
    x, label = a["input"], a["label"]
    nd = _ndim(x)
    c = x._known_dims()[-1]
    if c < 0:
        raise NotImplementedError("paddle.onnx.export: dice_loss needs a known class count")
    idx = _sq(ctx, _int64(ctx, label), [nd - 1])
    onehot = ctx.one("OneHot", [idx, ctx.ints([c]), ctx.constant(np.asarray([0, 1], dtype=_np_dtype(x)))], axis=-1)
    dims = list(range(1, nd))
    xn = ctx.name(x)
    inse = _reduce_to(ctx, "ReduceSum", ctx.one("Mul", [xn, onehot]), dims, False)
    denom = ctx.one("Add", [_reduce_to(ctx, "ReduceSum", xn, dims, False), _reduce_to(ctx, "ReduceSum", onehot, dims, False)])
    ratio = ctx.one("Div", [ctx.one("Mul", [inse, _scalar(ctx, 2.0, x)]), ctx.one("Add", [denom, _scalar(ctx, float(a["epsilon"]), x)])])
    _reduce_to(ctx, "ReduceMean", ctx.one("Sub", [_scalar(ctx, 1.0, x), ratio]), None, False, outs[0])
