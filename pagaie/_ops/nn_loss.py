"""Loss ops of ``paddle.nn.functional``, part 1: cross entropy, likelihood, regression,
divergence and sequence (CTC, RNN-T) losses. Part 2 is ``nn_loss_extra``.

Not a top-level family: ``pagaie.nn.functional`` re-exports ``__all__``.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import (ALL_DTYPES, BF16_F32_F64, F32_F64, FLOAT_OR_COMPLEX, LOW_FLOATS,
                                 NO_SUBTRACT_KERNEL, REAL_FLOATS, SMALL_INTS, check_binary_dtypes,
                                 compare_mask, dtype_name,
                                 float_hard_label_grad, float_kernel, float_weight, kernel_dtypes,
                                 no_low_float_kernel, promote_operands, same_dtype_args,
                                 trace_constant, zero_dropped)
from pagaie._ops._nn_helpers import check_reduction, reduce_loss, smoothing_coefficients
from pagaie._ops.math_unary import _abs

# Paddle's one_hot (which encodes a hard label for label_smoothing) has CPU kernels for these
_ONE_HOT_CPU_DTYPES = frozenset({torch.int32, torch.int64})

__all__ = ["cross_entropy", "softmax_with_cross_entropy", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "mse_loss", "l1_loss", "smooth_l1_loss", "nll_loss",
           "kl_div", "square_error_cost", "log_loss", "ctc_loss", "rnnt_loss"]


def _safe_div(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a / torch.where(b == 0, torch.ones_like(b), b)


def kernel_key_dtype(logit: torch.Tensor, label: torch.Tensor,
                     pos_weight: torch.Tensor | None = None) -> torch.dtype | None:
    """The dtype Paddle's ``sigmoid_cross_entropy_with_logits`` kernel runs in: that of its last
    tensor argument, the label, or the pos_weight term Paddle builds from pos_weight, the
    label and a constant of the logit's dtype (their promoted dtype). None where those are not
    all floating (other checks report them)."""
    if not label.is_floating_point():
        return None
    if pos_weight is None:
        return label.dtype
    if not (logit.is_floating_point() and pos_weight.is_floating_point()):
        return None
    return torch.promote_types(torch.promote_types(logit.dtype, label.dtype), pos_weight.dtype)


def _same_float_dtype(api: str, input: torch.Tensor, label: torch.Tensor,
                      names: tuple = ("input", "label")) -> None:
    """Paddle's fused BCE-like kernels never promote: two floating tensors of different
    dtypes are its InvalidArgument (ValueError)."""
    if input.is_floating_point() and label.is_floating_point() and input.dtype != label.dtype:
        raise ValueError(f"paddle.{api}: '{names[1]}' must have the dtype of '{names[0]}' "
                         f"({dtype_name(input)}), but received {dtype_name(label)}")


def _check_index_dtype(api: str, t: torch.Tensor, arg: str, allowed: tuple) -> None:
    """Paddle's kernels read index tensors (labels, lengths) in one integer dtype only and
    report any other as InvalidArgument (ValueError)."""
    if t.dtype not in allowed:
        want = " or ".join(dtype_name(torch.empty(0, dtype=d)) for d in allowed)
        raise ValueError(f"paddle.{api}: '{arg}' must be a {want} tensor, but received "
                         f"{dtype_name(t)}")


def _check_soft_label_shape(api: str, input: torch.Tensor, label: torch.Tensor, ax: int) -> None:
    """Paddle's soft labels have the input's shape exactly (no broadcasting): another rank,
    class size or other size is its InvalidArgument (ValueError)."""
    if label.dim() != input.dim():
        raise ValueError(f"paddle.{api}: a soft label must have the input's rank ({input.dim()}), "
                         f"but received label shape {list(label.shape)} for input shape "
                         f"{list(input.shape)}")
    if label.shape[ax] != input.shape[ax]:
        raise ValueError(f"paddle.{api}: a soft label must have the input's class size "
                         f"({input.shape[ax]}) on axis {ax}, but received label shape "
                         f"{list(label.shape)}")
    if list(label.shape) != list(input.shape):
        raise ValueError(f"paddle.{api}: a soft label must have the input's shape "
                         f"{list(input.shape)}, but received {list(label.shape)}")


@trace_constant
def _smoothing_values(eps: float, c: int, dtype: torch.dtype) -> list:
    """``[1, 0] * (1 - eps) + eps / c`` as Paddle smooths its float32 one-hot labels (in
    float32, on the CPU), then rounded to ``dtype``."""
    keep, uniform = smoothing_coefficients(eps, c)
    return (torch.tensor([1.0, 0.0]) * keep + uniform).to(dtype).tolist()


def _smoothed_one_hot(label: torch.Tensor, c: int, eps: float, ax: int, like: torch.Tensor) -> torch.Tensor:
    """``one_hot(label) * (1 - eps) + eps / c`` in ``like``'s dtype with the class axis at
    ``ax``: each entry rounded as that expression rounds it, written as a fill and a scatter."""
    hi, lo = _smoothing_values(eps, c, like.dtype)
    shape = list(label.shape)
    shape.insert(ax, c)
    out = torch.full(shape, lo, dtype=like.dtype, device=like.device)
    return out.scatter_(ax, label.long().unsqueeze(ax), hi)


class _SoftXent(torch.autograd.Function):
    """``-sum(label * log_softmax(x))`` over ``ax`` with Paddle's fused gradient
    ``softmax(x) - label`` (exact for labels summing to 1; the label gets no gradient).
    Under ``create_graph`` the backward recomputes the softmax from ``x`` so that the
    gradient is itself differentiable (in ``x`` and in the label)."""

    @staticmethod
    def forward(ctx, x, label, ax):
        logp = torch.log_softmax(x, ax)
        ctx.save_for_backward(x, logp, label)
        ctx.ax = ax
        return _neg_label_dot(label, logp, ax)

    @staticmethod
    def backward(ctx, g):
        x, logp, label = ctx.saved_tensors
        p = torch.softmax(x, ctx.ax) if torch.is_grad_enabled() else logp.exp()
        return g * (p - label), None, None


def _neg_label_dot(label: torch.Tensor, logp: torch.Tensor, ax: int) -> torch.Tensor:
    """``-sum(label * logp)`` over ``ax`` where a zero label adds nothing, also where ``logp``
    is ``-inf`` (a logit masked with ``-inf``): Paddle's result there is finite, not NaN."""
    keep = compare_mask(torch.ne, label, 0) if label.is_floating_point() else label.detach() != 0
    return -zero_dropped(label * logp, keep).sum(ax, keepdim=True)


def _soft_xent(x: torch.Tensor, label: torch.Tensor, ax: int) -> torch.Tensor:
    if torch.is_grad_enabled() and x.requires_grad:
        return _SoftXent.apply(x, label.to(x.dtype), ax)
    return _neg_label_dot(label, torch.log_softmax(x, ax), ax)


class _TolerableLog(torch.autograd.Function):
    """``log(p)`` clamped to ``[-1e20, 1e20]``, as Paddle's cross entropy over probabilities
    reads it (``-log(0)`` counts as ``1e20``, not ``inf``), with the plain gradient ``1 / p``."""

    @staticmethod
    def forward(ctx, p):
        ctx.save_for_backward(p)
        return torch.log(p).clamp(-1e20, 1e20)

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        return g / p


def _tolerable_log(p: torch.Tensor) -> torch.Tensor:
    if torch.is_grad_enabled() and p.requires_grad:
        return _TolerableLog.apply(p)
    return torch.log(p).clamp(-1e20, 1e20)


def _cross_entropy_program_check(input, label, weight=None, ignore_index=-100, reduction="mean",
                                 soft_label=False, axis=-1, use_softmax=True, label_smoothing=0.0,
                                 name=None):
    """Float labels where Paddle's static API feeds them to an op whose build-time check takes
    integers (TypeError): ``one_hot`` for a label without the class axis smoothed by
    ``label_smoothing``, ``gather_nd`` of ``weight`` for a hard label."""
    if not label._t.is_floating_point():
        return
    api = "paddle.nn.functional.cross_entropy"
    nd = input._t.dim()
    if label_smoothing and label._t.dim() == nd - 1:
        raise TypeError(f"{api}: with label_smoothing, a label without the class axis must be an "
                        f"integer tensor in a static program, but received {dtype_name(label._t)}")
    # (a label that does not fit the input is its shape ValueError first)
    other = [s for i, s in enumerate(input._t.shape) if i != axis % nd]
    lab = list(label._t.shape)
    fits = lab == other or (len(lab) == nd and lab[axis % nd] == 1
                            and lab[:axis % nd] + lab[axis % nd + 1:] == other)
    if not soft_label and not label_smoothing and weight is not None and fits:
        raise TypeError(f"{api}: with 'weight', a hard label must be an integer tensor in a static "
                        f"program, but received {dtype_name(label._t)}")


@defop(amp="black", method=False, paddle_types=("cross_entropy_with_softmax",
                                                "pd_op.cross_entropy_with_softmax"),
       # the dtypes its static API checks before building the op (TypeError)
       program_dtypes={"label": SMALL_INTS | {torch.int32, torch.int64} | F32_F64,
                       "weight": ALL_DTYPES - {torch.complex64, torch.complex128}},
       static_check=_cross_entropy_program_check)
def cross_entropy(input, label, weight=None, ignore_index=-100, reduction="mean", soft_label=False,
                  axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
    """Cross entropy between ``softmax(input)`` (or ``input`` itself) and the labels.

    Hard labels are class indices shaped like ``input`` without ``axis`` (or with it as
    size 1); soft labels are distributions shaped like ``input``. With ``weight`` the loss of
    a sample is scaled by its class weight (for soft labels by ``sum(label * weight)``) and
    ``'mean'`` divides by the total weight. ``label_smoothing`` turns hard labels into
    ``(1 - eps) * one_hot + eps / C``.

    Args:
        input (Tensor): logits (or probabilities when ``use_softmax`` is False).
        label (Tensor): class indices (int) or distributions (float, ``soft_label=True``).
        weight (Tensor, optional): per-class weights, ``[C]``.
        ignore_index (int): a hard label value that contributes nothing.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        soft_label (bool): whether ``label`` holds distributions.
        axis (int): the class axis.
        use_softmax (bool): apply softmax to ``input`` first.
        label_smoothing (float): the smoothing ``eps`` in [0, 1).
        name (str, optional): unused.

    Returns:
        Tensor: the loss (0-D unless ``reduction='none'``).

    Examples:
        >>> import pagaie as paddle
        >>> logits = paddle.to_tensor([[2.0, 0.0], [0.0, 2.0]])
        >>> label = paddle.to_tensor([0, 1])
        >>> round(paddle.nn.functional.cross_entropy(logits, label).item(), 4)
        0.1269
    """
    api = "nn.functional.cross_entropy"
    check_reduction(reduction, api)
    no_low_float_kernel(api, input, arg="input")
    if ignore_index > 0 and soft_label:
        raise ValueError(f"paddle.{api}: 'ignore_index' must be -100 when soft_label is True, but "
                         f"received {ignore_index}")
    if label_smoothing > 1.0:
        # (Paddle treats a value <= 0 as no smoothing)
        raise ValueError(f"paddle.{api}: 'label_smoothing' must be in [0, 1], but received "
                         f"{label_smoothing}")
    if not (input.is_floating_point() or input.is_complex()):
        raise NoKernelError(f"paddle.{api}: the kernel supports float16, bfloat16, float32 and float64 "
                            f"inputs, but received {dtype_name(input)}")
    nd = input.dim()
    ax = axis + nd if axis < 0 else axis
    if not 0 <= ax < nd:
        raise ValueError(f"paddle.{api}: axis should be in [{-nd}, {nd}), but received {axis}")
    c = input.shape[ax]
    eps = max(float(label_smoothing), 0.0)
    if eps > 0:
        # like Paddle: smoothing makes the label soft; a label without the class axis is
        # one-hot encoded first, a label shaped like the input is smoothed as it is
        if label.dim() == nd - 1:
            # Paddle's one_hot: a CPU kernel for int32 and int64 labels only
            kernel_dtypes(api, label, _ONE_HOT_CPU_DTYPES, "label")
            # Paddle one-hot encodes every label, ignore_index included, with the input's LAST
            # size as the class count and the classes appended last, whatever the axis: out of
            # [0, that size) is its InvalidArgument, and so is a one-hot label that then does
            # not have the input's shape (an axis other than the last one)
            c_last = input.shape[-1]
            if label.numel() and not torch.compiler.is_compiling() and \
                    bool(((label < 0) | (label >= c_last)).any()):
                raise ValueError(f"paddle.{api}: with label_smoothing, every label must be in "
                                 f"[0, {c_last}) (ignore_index is not applied), but received labels "
                                 f"from {int(label.min())} to {int(label.max())}")
            if list(label.shape) + [c_last] != list(input.shape):
                raise ValueError(f"paddle.{api}: with label_smoothing, the one-hot label (shape "
                                 f"{list(label.shape) + [c_last]}, classes last) must have the "
                                 f"input's shape {list(input.shape)}, so axis {axis} must be the "
                                 f"last one")
            label = _smoothed_one_hot(label, c_last, eps, nd - 1, input)
        else:
            if not (label.is_floating_point() or label.is_complex()):
                # Paddle has no integer label_smooth kernel: its eager mode raises RuntimeError
                raise NoKernelError(f"paddle.{api}: with label_smoothing, a label shaped like the "
                                    f"input must be a floating tensor, but received {label.dtype}"
                                    .replace("torch.", ""))
            # Paddle's label_smooth spreads eps over the label's last axis
            keep, uniform = smoothing_coefficients(eps, label.shape[-1])
            label = (label * keep + uniform).to(input.dtype)
        soft_label = True
    elif soft_label and not (label.is_floating_point() or label.is_complex()):
        raise ValueError(f"paddle.{api}: a soft label must have the input's dtype "
                         f"({dtype_name(input)}), but received {dtype_name(label)}")
    elif soft_label and label.dtype != input.dtype and label.is_floating_point():
        raise ValueError(f"paddle.{api}: a soft label must have the input's dtype "
                         f"({str(input.dtype).replace('torch.', '')}), but received "
                         f"{str(label.dtype).replace('torch.', '')}")
    if soft_label:
        _check_soft_label_shape(api, input, label, ax)
        if use_softmax:
            loss = _soft_xent(input, label, ax)
        else:
            loss = _neg_label_dot(label.detach(), _tolerable_log(input), ax)
        wsum = None
        if weight is not None:
            shape = [1] * nd
            shape[ax] = c
            if list(weight.shape) != [c]:
                raise ValueError(f"paddle.{api}: 'weight' must have shape [{c}] (the input's class "
                                 f"axis), but received {list(weight.shape)}")
            # Paddle gathers the sample weights by a matmul in the weight's dtype (no bool,
            # float16 or bfloat16 one on CPU), and the loss takes that dtype
            no_low_float_kernel(api, weight, arg="weight", missing=LOW_FLOATS | {torch.bool})
            if weight.is_floating_point():
                label, loss = label.to(weight.dtype), loss.to(weight.dtype)
            if ax == nd - 1:
                wsum = (label * weight.reshape(shape)).sum(ax, keepdim=True)
            else:
                # Paddle gathers the sample weights as label @ weight over the label's LAST
                # axis whatever the class axis, then reshapes that to the loss's shape
                if label.shape[-1] != c:
                    raise ValueError(f"paddle.{api}: with a soft label and 'weight', the label's "
                                     f"last size ({label.shape[-1]}) must equal the weight's ({c})")
                wsum = torch.matmul(label, weight).reshape(loss.shape)
            loss = loss * wsum
        if reduction == "none":
            return loss
        if reduction == "sum":
            return loss.sum()
        # Paddle's mean with ignore_index >= 0 compares the (soft) label elementwise with
        # ignore_index, so its divisor counts every class entry: copied as it is
        if ignore_index >= 0:
            kept = (label != ignore_index).to(loss.dtype)
            return _safe_div(loss.sum(), (kept if wsum is None else kept * wsum).sum())
        if wsum is not None:
            return _safe_div(loss.sum(), wsum.sum())
        return loss.mean()
    # Paddle masks the ignored labels by a multiply in the label's dtype: no int8, uint8 or
    # int16 kernel
    no_low_float_kernel(api, label, arg="label", missing=SMALL_INTS)
    keep = label.dim() == nd
    if keep and label.shape[ax] != 1:
        raise ValueError(f"paddle.{api}: the hard label must have size 1 on axis {axis} when it "
                         f"has the input's rank, but received label shape {list(label.shape)} for "
                         f"input shape {list(input.shape)}")
    lab = (label.squeeze(ax) if keep else label).long()
    if lab.dim() != nd - 1 or list(lab.shape) != [s for i, s in enumerate(input.shape) if i != ax]:
        raise ValueError(f"paddle.{api}: the label shape {list(label.shape)} does not match the "
                         f"input shape {list(input.shape)} with class axis {axis}")
    if weight is not None and (weight.dim() != 1 or weight.shape[0] != c):
        raise ValueError(f"paddle.{api}: input's class dimension ({c}) must equal the weight's "
                         f"({list(weight.shape)}) when weight is provided")
    if weight is not None:
        float_weight(api, input, weight)
        no_low_float_kernel(api, weight, arg="weight")   # (Paddle gathers it: no CPU float16 gather)
        if label.is_floating_point() or label.is_complex():   # (its gather_nd's index)
            raise ValueError(f"paddle.{api}: with 'weight', the hard label indexes the weight and "
                             f"must be int32 or int64, but received {dtype_name(label)}")
    mask = lab != ignore_index
    safe = torch.where(mask, lab, torch.zeros_like(lab))
    # (a data-dependent check: under torch.compile the compiled gather bounds-checks instead)
    if not torch.compiler.is_compiling() and bool(((safe < 0) | (safe >= c)).any()):
        raise IndexError(f"paddle.{api}: label values must be in [0, {c}) or equal ignore_index "
                         f"({ignore_index})")
    if use_softmax:
        loss = -torch.log_softmax(input, ax).gather(ax, safe.unsqueeze(ax)).squeeze(ax)
    else:
        # the log of the picked probabilities only: a zero elsewhere gets gradient 0, not NaN
        loss = -_tolerable_log(input.gather(ax, safe.unsqueeze(ax)).squeeze(ax))
    loss = float_hard_label_grad(api, loss, label)
    m = mask.to(loss.dtype)
    if weight is not None:
        m = weight[safe] * m   # (Paddle promotes: a float64 weight gives a float64 loss)
    loss = loss * m
    if reduction == "none":
        return loss.unsqueeze(ax) if keep else loss
    if reduction == "sum":
        return loss.sum()
    if not loss.numel():
        return loss.sum() * float("nan")  # Paddle's mean over an empty batch
    if weight is None and ignore_index < 0:
        # Paddle divides by the count of non-ignored samples only for ignore_index >= 0; with a
        # negative one (the default -100) ignored samples count as zeros in the mean
        return loss.mean()
    return _safe_div(loss.sum(), m.sum())


@defop(program_dtypes={"logits": REAL_FLOATS},
       amp="black", method=False, paddle_types=("softmax_with_cross_entropy",
                                                "pd_op.cross_entropy_with_softmax"))
def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """Softmax then cross entropy, per sample (the class axis kept with size 1).

    Args:
        logits (Tensor): the unscaled scores.
        label (Tensor): hard labels with size 1 on ``axis``, or distributions (``soft_label``).
        soft_label (bool): whether ``label`` holds distributions.
        ignore_index (int): a hard label value whose loss is 0.
        numeric_stable_mode (bool): unused (always stable).
        return_softmax (bool): also return the softmax.
        axis (int): the class axis.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_softmax``.

    Examples:
        >>> import pagaie as paddle
        >>> logits = paddle.to_tensor([[2.0, 0.0]])
        >>> loss = paddle.nn.functional.softmax_with_cross_entropy(logits, paddle.to_tensor([[0]]))
        >>> loss.shape, round(loss.item(), 4)
        (paddle.Size([1, 1]), 0.1269)
    """
    api = "nn.functional.softmax_with_cross_entropy"
    no_low_float_kernel(api, logits, arg="logits")
    nd = logits.dim()
    if not -nd <= axis < max(nd, 1):
        raise ValueError(f"paddle.{api}: 'axis' must be in the range [{-nd}, {nd - 1}] (the rank of "
                         f"'logits' is {nd}), but received {axis}")
    ax = axis + nd if axis < 0 else axis
    logp = torch.log_softmax(logits, ax)
    if soft_label:
        if label.dtype != logits.dtype:   # Paddle's kernel reads the label in the logits' dtype
            raise ValueError(f"paddle.{api}: a soft label must have the dtype of 'logits' "
                             f"({dtype_name(logits)}), but received {dtype_name(label)}")
        _check_soft_label_shape(api, logits, label, ax)
        loss = _soft_xent(logits, label, ax)
    else:
        if label.dim() != nd or label.shape[ax] != 1:
            raise ValueError(f"paddle.{api}: the hard label must have the logits' rank with size 1 "
                             f"on axis {axis}, but received label shape {list(label.shape)} for "
                             f"logits shape {list(logits.shape)}")
        if any(a != b for i, (a, b) in enumerate(zip(logits.shape, label.shape)) if i != ax):
            # (torch's gather would read a smaller label as a slice of the logits)
            raise ValueError(f"paddle.{api}: 'logits' and 'label' must have the same shape except "
                             f"on axis {axis}, but received logits shape {list(logits.shape)} and "
                             f"label shape {list(label.shape)}")
        lab = label.long()
        mask = lab != ignore_index
        safe = torch.where(mask, lab, torch.zeros_like(lab))
        loss = float_hard_label_grad(api, -logp.gather(ax, safe) * mask.to(logp.dtype), label)
    if return_softmax:
        # Paddle's backward flows from the loss only; the softmax output carries no gradient.
        return loss, logp.detach().exp()
    return loss


@defop(program_dtypes={"input": REAL_FLOATS},
       amp="promote", method=False, paddle_types=("bce_loss", "pd_op.bce_loss"))
def binary_cross_entropy(input, label, weight=None, reduction="mean", name=None):
    """Binary cross entropy between probabilities ``input`` and targets ``label``.

    Args:
        input (Tensor): probabilities in [0, 1].
        label (Tensor): targets, same shape.
        weight (Tensor, optional): a rescaling weight broadcast to the loss.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        name (str, optional): unused.

    Returns:
        Tensor: the loss.

    Examples:
        >>> import pagaie as paddle
        >>> p = paddle.to_tensor([0.5, 0.5])
        >>> round(paddle.nn.functional.binary_cross_entropy(p, paddle.to_tensor([1.0, 0.0])).item(), 4)
        0.6931
    """
    check_reduction(reduction, "nn.functional.binary_cross_entropy")
    no_low_float_kernel("nn.functional.binary_cross_entropy", input, arg="input")
    if input.is_floating_point() and not label.is_floating_point():
        raise ValueError(f"paddle.nn.functional.binary_cross_entropy: 'label' must have the dtype "
                         f"of 'input' ({str(input.dtype)[6:]}), but received {str(label.dtype)[6:]}")
    _same_float_dtype("nn.functional.binary_cross_entropy", input, label)
    float_weight("nn.functional.binary_cross_entropy", input, weight)
    label = label.detach().to(input.dtype)
    if weight is not None and (weight.requires_grad or weight.dtype != input.dtype):
        # Paddle multiplies by the weight after the elementwise loss: it is differentiated
        # and promotes the result (a float64 weight gives a float64 loss)
        # Paddle differentiates the weight (applied after the elementwise loss), not the label
        return reduce_loss(_bce(input, label, None, "none") * weight, reduction)
    return _bce(input, label, weight, reduction)


def _bce(input: torch.Tensor, label: torch.Tensor, weight, reduction: str) -> torch.Tensor:
    """torch's binary cross entropy, which is Paddle's, except that Paddle's kernel takes a
    label outside [0, 1] (torch's CPU kernel refuses one): that loss is written out, with the
    logs clamped at -100 as both kernels clamp them."""
    try:
        return F.binary_cross_entropy(input, label, weight, reduction=reduction)
    except RuntimeError as exc:
        if "input" in str(exc):   # Paddle's kernel refuses a probability outside [0, 1] (or NaN)
            raise ValueError("paddle.nn.functional.binary_cross_entropy: every element of 'input' "
                             "must be a probability in [0, 1]") from None
        if "target" not in str(exc):
            raise
    loss = (label - 1) * torch.log1p(-input).clamp(min=-100) - label * torch.log(input).clamp(min=-100)
    return reduce_loss(loss if weight is None else loss * weight, reduction)


@defop(program_dtypes={"logit": FLOAT_OR_COMPLEX},
       amp="black", method=False, paddle_types=("sigmoid_cross_entropy_with_logits",
                                                "pd_op.sigmoid_cross_entropy_with_logits"))
def binary_cross_entropy_with_logits(logit, label, weight=None, reduction="mean", pos_weight=None,
                                     name=None):
    """Binary cross entropy on ``sigmoid(logit)``, computed stably from the logits.

    Args:
        logit (Tensor): the logits.
        label (Tensor): targets in [0, 1], same shape.
        weight (Tensor, optional): a rescaling weight broadcast to the loss.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        pos_weight (Tensor, optional): the weight of positive examples, per class.
        name (str, optional): unused.

    Returns:
        Tensor: the loss.

    Examples:
        >>> import pagaie as paddle
        >>> z = paddle.to_tensor([0.0, 0.0])
        >>> round(paddle.nn.functional.binary_cross_entropy_with_logits(z, paddle.to_tensor([1.0, 0.0])).item(), 4)
        0.6931
    """
    api = "nn.functional.binary_cross_entropy_with_logits"
    check_reduction(reduction, api)
    key = kernel_key_dtype(logit, label, pos_weight)
    if key in LOW_FLOATS:   # (the kernel's own dtype: checked before the logit's)
        no_low_float_kernel(api, label if pos_weight is None else pos_weight.to(key),
                            arg="label" if pos_weight is None else "pos_weight")
    if logit.is_floating_point() and key is not None and logit.dtype != key:
        raise ValueError(f"paddle.{api}: 'logit' ({dtype_name(logit)}) must have the dtype its "
                         f"kernel runs in ({str(key)[6:]}), the dtype of 'label'"
                         f"{'' if pos_weight is None else ' and pos_weight promoted'}")
    no_low_float_kernel(api, logit, arg="logit")
    if logit.is_complex():
        raise NoKernelError(f"paddle.{api}: 'logit' must be a real floating tensor, but received "
                            f"{str(logit.dtype)[6:]}")
    if not label.is_floating_point():  # Paddle has no kernel for an integer label: NotFound
        raise NoKernelError(f"paddle.{api}: 'label' must be a floating tensor, but received "
                            f"{str(label.dtype)[6:]}")
    if not logit.is_floating_point():
        raise ValueError(f"paddle.{api}: 'logit' must be a floating tensor of the dtype of 'label', "
                         f"but received {str(logit.dtype)[6:]}")
    _same_float_dtype(api, logit, label, ("logit", "label"))
    label = label.detach().to(logit.dtype)
    float_weight(api, logit, weight)
    if pos_weight is not None:
        float_weight(api, logit, pos_weight, "pos_weight")
        if torch.promote_types(logit.dtype, pos_weight.dtype) != logit.dtype:
            # (a pos_weight of a narrower float dtype is cast to the logit's)
            _same_float_dtype(api, logit, pos_weight, ("logit", "pos_weight"))
        pos_weight = pos_weight.detach().to(logit.dtype)
    # Paddle differentiates the weight (applied after the elementwise loss), not the label,
    # and a weight of another float dtype promotes the result
    loss = sigmoid_ce_with_logits(logit, label, pos_weight)
    return reduce_loss(loss if weight is None else loss * weight, reduction)


_IGNORE_INDEX = -100   # the ignore_index the Python API passes to Paddle's kernel


class _SigmoidCEWithLogits(torch.autograd.Function):
    """Elementwise sigmoid cross entropy with the forward and gradient of Paddle's CPU kernel:
    an element whose label truncates to -100 (the kernel's ignore_index) has loss and gradient
    0, and without a pos_weight the gradient at a logit of exactly 0 is ``-0.5 - label``
    (the kernel takes the sign of |x| there as +1 but the ``x > 0`` indicator as 0)."""

    @staticmethod
    def forward(ctx, logit, label, pos_weight):  # type: ignore[override]
        keep = label.trunc() != _IGNORE_INDEX
        ctx.save_for_backward(logit, label, pos_weight, keep)
        loss = F.binary_cross_entropy_with_logits(logit, label, reduction="none", pos_weight=pos_weight)
        return torch.where(keep, loss, torch.zeros((), dtype=loss.dtype))

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        logit, label, pos_weight, keep = ctx.saved_tensors
        s = torch.sigmoid(logit)
        if pos_weight is None:
            d = torch.where(logit == 0, -0.5 - label, s - label)
        else:
            d = (1 - label) + (1 + (pos_weight - 1) * label) * (s - 1)
        d = torch.where(keep, g * d, torch.zeros((), dtype=d.dtype))
        return d.sum_to_size(logit.shape), None, None


def sigmoid_ce_with_logits(logit: torch.Tensor, label: torch.Tensor,
                           pos_weight: torch.Tensor | None = None) -> torch.Tensor:
    """The unreduced loss of binary_cross_entropy_with_logits as Paddle's kernel computes it
    (``label`` and ``pos_weight`` get no gradient)."""
    return _SigmoidCEWithLogits.apply(logit, label.detach(),
                                      None if pos_weight is None else pos_weight.detach())


def _tensor_label(label) -> None:
    """A numpy ``label`` would broadcast through torch's arithmetic; Paddle's subtract rejects it
    (the registry turns this TypeError into the op's exception, naming the argument)."""
    if not isinstance(label, torch.Tensor):
        raise TypeError(f"label must be a Tensor, but got {type(label).__name__}")


@defop(program_dtypes={"input": F32_F64, "label": F32_F64},
       amp="black", method=False, paddle_types=("mse_loss",))
def mse_loss(input, label, reduction="mean", name=None):
    """Mean squared error ``(input - label) ** 2``, reduced.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.mse_loss(paddle.to_tensor([1.0, 3.0]), paddle.to_tensor([0.0, 0.0])).item()
        5.0
    """
    check_reduction(reduction, "nn.functional.mse_loss")
    if isinstance(label, torch.Tensor) and input.dtype != label.dtype:
        check_binary_dtypes("nn.functional.mse_loss", input, label, True)   # (its subtract promotes first)
    no_low_float_kernel("nn.functional.mse_loss", input, arg="input", missing=NO_SUBTRACT_KERNEL - LOW_FLOATS)
    if input.dtype != label.dtype:  # a numpy label lands here (its dtype is not torch's)
        _tensor_label(label)
        input, label = promote_operands("nn.functional.mse_loss", input, label)
    no_low_float_kernel("nn.functional.mse_loss", input, arg="input")   # (of the promoted dtype)
    if input.is_floating_point() and input.dtype == label.dtype and input.shape == label.shape:
        # torch's kernel: ``(input - label) ** 2`` in one pass, the same gradient
        sq = torch.ops.aten.mse_loss.default(input, label, 0)
    else:
        sq = torch.square(input - label)
    if reduction == "mean" and not (sq.is_floating_point() or sq.is_complex()):
        return torch.div(sq.sum(dtype=sq.dtype), max(sq.numel(), 1), rounding_mode="trunc")  # Paddle's integer mean
    return reduce_loss(sq, reduction)


@defop(amp="black", method=False, paddle_types=("l1_loss",))
def l1_loss(input, label, reduction="mean", name=None):
    """Mean absolute error ``|input - label|``, reduced.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.l1_loss(paddle.to_tensor([1.0, -3.0]), paddle.to_tensor([0.0, 0.0])).item()
        2.0
    """
    check_reduction(reduction, "nn.functional.l1_loss")
    if isinstance(label, torch.Tensor) and input.dtype != label.dtype:
        check_binary_dtypes("nn.functional.l1_loss", input, label, True)   # (its subtract promotes first)
    no_low_float_kernel("nn.functional.l1_loss", input, arg="input", missing=NO_SUBTRACT_KERNEL - LOW_FLOATS)
    if input.dtype != label.dtype:  # a numpy label lands here (its dtype is not torch's)
        _tensor_label(label)
        input, label = promote_operands("nn.functional.l1_loss", input, label)
    no_low_float_kernel("nn.functional.l1_loss", input, arg="input", static=BF16_F32_F64)
    if reduction == "mean":   # Paddle's mean kernel has no integer version (NotFound)
        float_kernel("paddle.nn.functional.l1_loss", input, "inputs with reduction='mean'", complex_ok=True)
    return reduce_loss(_abs(input - label), reduction)


@defop(amp="black", method=False, paddle_types=("huber_loss", "smooth_l1_loss", "pd_op.huber_loss"))
def smooth_l1_loss(input, label, reduction="mean", delta=1.0, is_huber=True, name=None):
    """Smooth L1 loss: quadratic below ``delta``, linear above.

    With ``is_huber`` (the default) it is the Huber loss ``0.5 d ** 2`` / ``delta (|d| - 0.5 delta)``;
    otherwise ``0.5 d ** 2 / delta`` / ``|d| - 0.5 delta``.

    Args:
        input (Tensor): predictions.
        label (Tensor): targets, same shape.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        delta (float): the threshold.
        is_huber (bool): Huber form (True) or smooth-L1 form (False).
        name (str, optional): unused.

    Returns:
        Tensor: the loss.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.smooth_l1_loss(paddle.to_tensor([0.5, 3.0]), paddle.zeros([2])).item()
        1.3125
    """
    api = "nn.functional.smooth_l1_loss"
    check_reduction(reduction, api)
    if delta is None or isinstance(delta, str):   # Paddle's huber_loss reads a double
        raise TypeError(f"paddle.{api}: 'delta' must be a number, but received "
                        f"{type(delta).__name__} {delta!r}")
    if isinstance(label, torch.Tensor) and input.dtype != label.dtype:
        check_binary_dtypes(api, input, label)   # (Paddle promotes before its shape check)
    if list(input.shape) != list(label.shape):  # Paddle's huber_loss does not broadcast
        raise ValueError(f"paddle.{api}: 'input' and 'label' must have the same shape, but "
                         f"received {list(input.shape)} and {list(label.shape)}")
    input, label = promote_operands(api, input, label)   # (the kernel runs in the promoted dtype)
    no_low_float_kernel(api, input, arg="input")
    float_kernel(f"paddle.{api}", input)   # Paddle's huber_loss kernel
    # written out (not torch's kernels, which reject delta <= 0): Paddle's huber_loss takes
    # any delta (delta 0 gives zeros) and the smooth-L1 form divides it by delta
    # (the kernel's delta is a C++ float: float64 inputs see it rounded to float32)
    d = float(np.float32(delta))
    if d > 0:
        # torch's kernel: the same products, and at |r| == delta both branches are 0.5 d^2
        loss = F.huber_loss(input, label, reduction="none", delta=d)
    else:
        # ``torch.where(a <= d, quadratic, linear)`` as two masked terms (torch's CPU where
        # is not vectorised); neither branch can be -0, so the sum is the selected value
        r = input - label
        a = _abs(r)
        quad = a <= d
        loss = zero_dropped(0.5 * r * r, quad) + zero_dropped(d * (a - 0.5 * d), ~quad)
    if not is_huber:
        loss = loss / delta
    return reduce_loss(loss, reduction)


@defop(program_dtypes={"input": REAL_FLOATS},
       amp="black", method=False, paddle_types=("nll_loss", "pd_op.nll_loss"))
def nll_loss(input, label, weight=None, ignore_index=-100, reduction="mean", name=None):
    """Negative log likelihood of log-probabilities ``input`` ``[N, C, *]`` at ``label`` ``[N, *]``.

    Args:
        input (Tensor): log-probabilities, ``[N, C]`` or ``[N, C, d1, ...]``.
        label (Tensor): class indices (int64).
        weight (Tensor, optional): per-class weights, ``[C]``.
        ignore_index (int): a label value that contributes nothing.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        name (str, optional): unused.

    Returns:
        Tensor: the loss.

    Examples:
        >>> import pagaie as paddle
        >>> logp = paddle.to_tensor([[-0.5, -1.0], [-2.0, -0.1]])
        >>> round(paddle.nn.functional.nll_loss(logp, paddle.to_tensor([0, 1])).item(), 4)
        0.3
    """
    check_reduction(reduction, "nn.functional.nll_loss")
    if isinstance(ignore_index, torch.Tensor) and ignore_index.numel() == 1:
        ignore_index = int(ignore_index.item())   # Paddle takes a one-value Tensor here
    no_low_float_kernel("nn.functional.nll_loss", input, arg="input")
    if input.dim() < 2:
        raise ValueError(f"paddle.nn.functional.nll_loss: the input must have 2 or more "
                         f"dimensions, but received shape {list(input.shape)}")
    nd, ld = input.dim(), label.dim()
    if ld != nd - 1 and ld != nd:
        raise ValueError(f"paddle.nn.functional.nll_loss: 'label' must have {nd - 1} or {nd} dimensions "
                         f"for an input of shape {list(input.shape)}, but received shape {list(label.shape)}")
    if nd == 2:
        if ld == 2:  # Paddle accepts a [N, 1] label
            if label.shape[1] != 1:
                raise ValueError(f"paddle.nn.functional.nll_loss: a 2-D 'label' must have shape "
                                 f"[N, 1], but received {list(label.shape)}")
            label = label.reshape(-1)
    elif nd != 4:
        # Paddle flattens the spatial axes of both: any label with N * d1 * ... elements fits
        if label.numel() == input.numel() // max(input.shape[1], 1) and label.shape[:1] == input.shape[:1]:
            label = label.reshape(input.shape[:1] + input.shape[2:])
    _check_index_dtype("nn.functional.nll_loss", label, "label", (torch.int64,))
    if weight is not None and list(weight.shape) != [input.shape[1]]:
        raise ValueError(f"paddle.nn.functional.nll_loss: 'weight' must have shape [{input.shape[1]}] "
                         f"(the input's class axis), but received {list(weight.shape)}")
    if weight is not None:
        # Paddle's kernel reads the weight in the input's dtype: another one is its ValueError
        # when it runs (a program records it)
        if input.device.type != "meta":
            same_dtype_args("nn.functional.nll_loss", input, weight=weight)
        weight = weight.detach()
    lab = label
    # torch's nll_loss2d backward rejects a non-contiguous input
    input = input.contiguous()
    try:
        if reduction != "mean":
            return F.nll_loss(input, lab, weight, ignore_index=ignore_index, reduction=reduction)
        # Paddle's mean: the weighted sum over the total weight of the non-ignored samples,
        # 0 (not nan) when every sample is ignored
        total = F.nll_loss(input, lab, weight, ignore_index=ignore_index, reduction="sum")
        keep = lab != ignore_index
        denom = (weight[torch.where(keep, lab, 0)] * keep).sum() if weight is not None else keep.sum()
        return _safe_div(total, denom.to(total.dtype))
    except IndexError:
        raise ValueError(f"paddle.nn.functional.nll_loss: label values must be in [0, "
                         f"{input.shape[1]}) or equal ignore_index ({ignore_index})") from None


@defop(amp="promote", method=False, paddle_types=("kldiv_loss", "pd_op.kldiv_loss"))
def kl_div(input, label, reduction="mean", log_target=False, name=None):
    """Kullback-Leibler divergence ``label * (log(label) - input)`` with ``input`` as log-probs.

    Args:
        input (Tensor): log-probabilities.
        label (Tensor): probabilities (log-probabilities when ``log_target``).
        reduction (str): ``'mean'`` (over all elements), ``'batchmean'``, ``'sum'`` or ``'none'``
            (as Paddle, any other value also gives the unreduced loss).
        log_target (bool): whether ``label`` is given in log space.
        name (str, optional): unused.

    Returns:
        Tensor: the divergence.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[-1.0, -1.0]])
        >>> round(paddle.nn.functional.kl_div(x, paddle.to_tensor([[0.5, 0.5]]), 'sum').item(), 4)
        0.3069
    """
    if reduction not in ("mean", "sum", "batchmean"):
        reduction = "none"  # Paddle reduces only for these three; any other value gives the loss
    if list(label.shape) != list(input.shape):
        raise ValueError(f"paddle.nn.functional.kl_div: 'input' and 'label' must have the same shape, "
                         f"but received {list(input.shape)} and {list(label.shape)}")
    float_kernel("paddle.nn.functional.kl_div", input)
    no_low_float_kernel("nn.functional.kl_div", input, arg="input")
    if not label.is_floating_point() and input.is_floating_point():  # Paddle: InvalidArgument
        raise ValueError(f"paddle.nn.functional.kl_div: 'label' must be a floating tensor, but "
                         f"received {dtype_name(label)}")
    if label.dtype in LOW_FLOATS and label.dtype != input.dtype:
        # Paddle promotes only float32/float64 pairs; its kernel then reads the label in the
        # input's dtype: InvalidArgument
        raise ValueError(f"paddle.nn.functional.kl_div: 'label' ({dtype_name(label)}) must have "
                         f"the dtype of 'input' ({dtype_name(input)})")
    # Paddle's kl_div gives the label no gradient; a wider label promotes the result
    d = torch.promote_types(input.dtype, label.dtype)
    input, label = input.to(d), label.detach().to(d)
    if log_target is not None and not isinstance(log_target, bool):   # Paddle's bool attribute
        raise TypeError("paddle.nn.functional.kl_div: 'log_target' must be a bool, but received "
                        f"{type(log_target).__name__} {log_target!r}")
    if not log_target:
        # Paddle's elementwise loss is 0 where the label is not positive (no NaN from log)
        pos = label > 0
        safe = torch.where(pos, label, torch.ones_like(label))
        loss = torch.where(pos, label * (torch.log(safe) - input), torch.zeros_like(input))
        if reduction == "batchmean":
            return loss.sum() / input.shape[0] if input.dim() else loss.sum()
        return reduce_loss(loss, reduction)
    return F.kl_div(input, label, reduction=reduction, log_target=log_target)


@defop(amp="black", method=False, paddle_types=())
def square_error_cost(input, label):
    """Elementwise squared error ``(input - label) ** 2`` (no reduction).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.square_error_cost(paddle.to_tensor([3.0]), paddle.to_tensor([1.0])).tolist()
        [4.0]
    """
    if input.dtype != label.dtype:  # a numpy label lands here (its dtype is not torch's)
        _tensor_label(label)
        input, label = promote_operands("nn.functional.square_error_cost", input, label)
    no_low_float_kernel("nn.functional.square_error_cost", input, arg="input", missing=NO_SUBTRACT_KERNEL)
    return torch.square(input - label)


@defop(amp="black", method=False, paddle_types=("log_loss", "pd_op.log_loss"))
def log_loss(input, label, epsilon=0.0001, name=None):
    """Negative log likelihood of probabilities:
    ``-label * log(input + eps) - (1 - label) * log(1 - input + eps)`` (no reduction).

    Examples:
        >>> import pagaie as paddle
        >>> out = paddle.nn.functional.log_loss(paddle.to_tensor([[0.5]]), paddle.to_tensor([[1.0]]))
        >>> round(out.item(), 4)
        0.6929
    """
    # Paddle's kernel is float32 only and takes its dtype from the label (chosen before the
    # shapes are checked)
    if label.dtype != torch.float32:
        raise NoKernelError("paddle.nn.functional.log_loss: the kernel supports float32 only, but "
                            f"received a {dtype_name(label)} label")
    if input.dim() != 2 or input.shape[1] != 1:
        raise ValueError("paddle.nn.functional.log_loss: the input must be [N, 1] (one probability "
                         f"per row), but received shape {list(input.shape)}")
    if input.dtype != label.dtype:
        raise ValueError("paddle.nn.functional.log_loss: 'input' must have the label's dtype "
                         f"(float32), but received {dtype_name(input)}")
    if list(label.shape) != list(input.shape):
        raise ValueError("paddle.nn.functional.log_loss: 'label' must have the shape of 'input' "
                         f"{list(input.shape)}, but received {list(label.shape)}")
    label = label.detach()  # Paddle's log_loss has no gradient for the label
    return -label * torch.log(input + epsilon) - (1 - label) * torch.log(1 - input + epsilon)


def _check_ctc_shapes(api: str, log_probs: torch.Tensor, labels: torch.Tensor,
                      input_lengths: torch.Tensor, label_lengths: torch.Tensor, blank: int) -> None:
    """ctc_loss's shapes and lengths, each an InvalidArgument (ValueError) of Paddle's warp-ctc
    where it checks them; where it does not (lengths past the padded sizes or negative) its
    kernel reads out of bounds and crashes, and pagaie raises the same ValueError."""
    if log_probs.dim() != 3:
        raise ValueError(f"paddle.{api}: 'log_probs' must be 3-D [max_logit_length, batch_size, "
                         f"num_classes + 1], but received shape {list(log_probs.shape)}")
    t, n, c = log_probs.shape
    if not 0 <= blank < c:
        raise ValueError(f"paddle.{api}: 'blank' must be in [0, {c}) (the class axis of "
                         f"'log_probs'), but received {blank}")
    if labels.dim() != 2 or labels.shape[0] != n:
        raise ValueError(f"paddle.{api}: 'labels' must be 2-D [batch_size ({n}), max_label_length], "
                         f"but received shape {list(labels.shape)}")
    for arg, v, top in (("input_lengths", input_lengths, t),
                        ("label_lengths", label_lengths, labels.shape[1])):
        if list(v.shape) != [n]:
            raise ValueError(f"paddle.{api}: '{arg}' must have shape [{n}] (the batch size), but "
                             f"received {list(v.shape)}")
        if v.numel() and v.device.type != "meta" and not torch.compiler.is_compiling() and \
                bool(((v < 0) | (v > top)).any()):
            raise ValueError(f"paddle.{api}: every value of '{arg}' must be in [0, {top}] (the padded "
                             f"length), but received {v.tolist()}")


@defop(amp="black", method=False, paddle_types=("warpctc", "pd_op.warpctc"))
def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean",
             norm_by_times=False, zero_infinity=False):
    """Connectionist temporal classification loss.

    ``log_probs`` are *unnormalised* scores ``[T, N, C]``: a log-softmax over ``C`` is applied
    first, as Paddle's warp-ctc does. ``'mean'`` divides each loss by its label length and
    averages over the batch.

    Args:
        log_probs (Tensor): scores, ``[max_T, N, C]`` (C includes the blank).
        labels (Tensor): padded label sequences, ``[N, max_S]`` (int32).
        input_lengths (Tensor): ``[N]`` (int64).
        label_lengths (Tensor): ``[N]`` (int64).
        blank (int): the blank class.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        norm_by_times (bool): divide each sequence's gradient by its input length; the value
            is unchanged.
        zero_infinity (bool): replace infinite losses (and their gradients) by 0. Like Paddle's
            warp-ctc, an impossible alignment already gives 0.

    Returns:
        Tensor: ``[N]`` with ``'none'``, else 0-D.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([3, 1, 2])
        >>> loss = paddle.nn.functional.ctc_loss(x, paddle.to_tensor([[1]], dtype='int32'),
        ...     paddle.to_tensor([3]), paddle.to_tensor([1]), reduction='sum')
        >>> round(loss.item(), 4)
        0.2877
    """
    if reduction not in ("mean", "sum", "none"):   # Paddle asserts
        raise AssertionError(f"paddle.nn.functional.ctc_loss: the value of 'reduction' should be "
                             f"'sum', 'mean' or 'none', but received {reduction}")
    api = "nn.functional.ctc_loss"
    _check_index_dtype(api, labels, "labels", (torch.int32,))
    _check_index_dtype(api, input_lengths, "input_lengths", (torch.int64,))
    _check_index_dtype(api, label_lengths, "label_lengths", (torch.int64,))
    _check_ctc_shapes(api, log_probs, labels, input_lengths, label_lengths, blank)
    lp = torch.log_softmax(log_probs, -1)
    # warp-ctc gives an impossible alignment (too short an input) a zero loss and gradient
    loss = F.ctc_loss(lp, labels.long(), input_lengths.long(), label_lengths.long(), blank=blank,
                      reduction="none", zero_infinity=True)
    if norm_by_times and loss.requires_grad:
        # value unchanged; each sequence's gradient divided by its number of time steps
        w = 1.0 / input_lengths.to(loss.dtype).clamp(min=1)
        loss = loss * w + (loss * (1 - w)).detach()
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return (loss / label_lengths.to(loss.dtype).clamp(min=1)).mean()
    return loss


def _rnnt_one(acts: torch.Tensor, label: torch.Tensor, t_len: int, u_len: int, blank: int,
              fastemit: float = 0.0):
    """-log P(label | acts) for one sequence; ``acts`` ``[T, U+1, V]`` are log-probabilities.
    ``fastemit`` scales the gradient of the emit transitions by ``1 + fastemit`` (FastEmit),
    leaving the value unchanged."""
    acts = acts[:t_len, :u_len + 1]
    blank_lp = acts[:, :, blank]  # T x (U+1)
    if u_len:
        emit_lp = acts[:, :u_len].gather(-1, label[:u_len].long().view(1, -1, 1).expand(t_len, -1, 1))
        emit_lp = emit_lp.squeeze(-1)  # T x U
        if fastemit:
            emit_lp = emit_lp + fastemit * (emit_lp - emit_lp.detach())
    ninf = acts.new_full((), float("-inf"))
    # alpha over anti-diagonals would be faster; rows are enough for the sizes used here.
    prev = None
    for t in range(t_len):
        row = []
        for u in range(u_len + 1):
            if t == 0 and u == 0:
                row.append(acts.new_zeros(()))
                continue
            a = prev[u] + blank_lp[t - 1, u] if t > 0 else ninf
            b = row[u - 1] + emit_lp[t, u - 1] if u > 0 else ninf
            row.append(torch.logaddexp(a, b))
        prev = row
    return -(prev[u_len] + blank_lp[t_len - 1, u_len])


def _check_rnnt_shapes(api: str, input: torch.Tensor, label: torch.Tensor,
                       input_lengths: torch.Tensor, label_lengths: torch.Tensor, blank: int) -> None:
    """rnnt_loss's shapes, lengths and label values. Paddle checks the rank of ``input`` and
    ``blank`` (InvalidArgument, ValueError); the rest its warp-rnnt reads out of bounds
    (garbage or a crash), and pagaie raises the same ValueError."""
    if input.dim() != 4:
        raise ValueError(f"paddle.{api}: 'input' must be 4-D [batch_size, max_logit_length, "
                         f"max_label_length + 1, num_classes], but received shape {list(input.shape)}")
    b, t, u1, v = input.shape
    if not 0 <= blank < v:
        raise ValueError(f"paddle.{api}: 'blank' must be in [0, {v}) (the class axis of 'input'), "
                         f"but received {blank}")
    if label.dim() != 2 or label.shape[0] != b:
        raise ValueError(f"paddle.{api}: 'label' must be 2-D [batch_size ({b}), max_label_length], "
                         f"but received shape {list(label.shape)}")
    for arg, x in (("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if list(x.shape) != [b]:
            raise ValueError(f"paddle.{api}: '{arg}' must have shape [{b}] (the batch size), but "
                             f"received {list(x.shape)}")
    if torch.compiler.is_compiling() or input.device.type == "meta" or not b:
        return
    u = min(u1 - 1, label.shape[1])
    for arg, x, lo, hi in (("input_lengths", input_lengths, 1, t), ("label_lengths", label_lengths, 0, u)):
        if bool(((x < lo) | (x > hi)).any()):
            raise ValueError(f"paddle.{api}: every value of '{arg}' must be in [{lo}, {hi}] (the "
                             f"padded length), but received {x.tolist()}")
    # (the padding after each label length is not read)
    used = torch.arange(label.shape[1], device=label.device) < label_lengths[:, None]
    bad = used & ((label < 0) | (label >= v))
    if bool(bad.any()):
        raise ValueError(f"paddle.{api}: 'label' values must be in [0, {v}) (the classes of 'input'), "
                         f"but received {label[bad].tolist()}")


@defop(amp="black", method=False, paddle_types=("warprnnt", "pd_op.warprnnt"))
def rnnt_loss(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001,
              reduction="mean", name=None):
    """RNN-Transducer loss.

    ``input`` ``[B, T, U+1, V]`` holds log-probabilities (used as given, like Paddle's
    warp-rnnt). ``fastemit_lambda`` (FastEmit) scales the gradient of the label-emission
    transitions by ``1 + fastemit_lambda`` and does not change the value. ``'mean'`` averages
    over the batch.

    Args:
        input (Tensor): ``[B, max_T, max_U + 1, V]``.
        label (Tensor): ``[B, max_U]`` (int32).
        input_lengths (Tensor): ``[B]`` (int32).
        label_lengths (Tensor): ``[B]`` (int32).
        blank (int): the blank class.
        fastemit_lambda (float): FastEmit regularisation weight (gradient only).
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[B]`` with ``'none'``, else 0-D.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([1, 2, 2, 3])
        >>> loss = paddle.nn.functional.rnnt_loss(x, paddle.to_tensor([[1]], dtype='int32'),
        ...     paddle.to_tensor([2], dtype='int32'), paddle.to_tensor([1], dtype='int32'))
        >>> round(loss.item(), 4)
        -0.6931
    """
    if reduction not in ("mean", "sum", "none"):   # Paddle asserts
        raise AssertionError(f"paddle.nn.functional.rnnt_loss: the value of 'reduction' should be "
                             f"'sum', 'mean' or 'none', but received {reduction}")
    api = "nn.functional.rnnt_loss"
    kernel_dtypes(api, input, F32_F64)   # warprnnt's CPU kernel
    for t, arg in ((label, "label"), (input_lengths, "input_lengths"), (label_lengths, "label_lengths")):
        _check_index_dtype(api, t, arg, (torch.int32,))
    _check_rnnt_shapes(api, input, label, input_lengths, label_lengths, blank)
    losses = torch.stack([_rnnt_one(input[b], label[b], int(input_lengths[b]), int(label_lengths[b]),
                                    blank, float(fastemit_lambda)) for b in range(input.shape[0])])
    return reduce_loss(losses, reduction)
