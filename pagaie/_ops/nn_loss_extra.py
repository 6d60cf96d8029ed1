"""Loss ops of ``paddle.nn.functional``, part 2: margin, embedding, count, focal, dice,
metric-learning, hierarchical and adaptive-softmax losses.

Not a top-level family: ``pagaie.nn.functional`` re-exports ``__all__``.
"""
from __future__ import annotations

from typing import Any, Callable

import torch
import torch.nn.functional as F

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import (BF16_F32_F64, F32_F64, FLOAT_OR_COMPLEX, LOW_FLOATS, NO_SUBTRACT_KERNEL,
                                 REAL_FLOATS, check_binary_dtypes, dtype_name, float_kernel, kernel_dtypes,
                                 float_weight, no_low_float_kernel, promote_operands)
from pagaie._ops._nn_helpers import check_reduction, reduce_loss
from pagaie._ops.nn_loss import sigmoid_ce_with_logits

# Paddle's CPU logsigmoid kernel
_LOGSIGMOID_CPU_DTYPES = F32_F64 | {torch.complex64, torch.complex128}

__all__ = ["margin_ranking_loss", "cosine_embedding_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "hinge_embedding_loss", "soft_margin_loss",
           "multi_label_soft_margin_loss", "multi_label_margin_loss", "multi_margin_loss",
           "poisson_nll_loss", "gaussian_nll_loss", "sigmoid_focal_loss", "dice_loss",
           "npair_loss", "margin_cross_entropy", "hsigmoid_loss",
           "adaptive_log_softmax_with_loss"]


def _float_operands(api: str, *tensors: torch.Tensor) -> None:
    """Paddle composes these losses from float constants and the inputs: its type promotion
    refuses an integer or bool operand (TypeError)."""
    for t in tensors:
        if not (t.is_floating_point() or t.is_complex()):
            raise TypeError(f"{api}: Type promotion only support calculations between "
                            f"floating-point numbers, but received {dtype_name(t)}")


@defop(amp="black", method=False, paddle_types=())
def margin_ranking_loss(input, other, label, margin=0.0, reduction="mean", name=None):
    """Ranking loss ``max(0, -label * (input - other) + margin)``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> F.margin_ranking_loss(paddle.to_tensor([1.0]), paddle.to_tensor([2.0]), paddle.to_tensor([1.0])).item()
        1.0
    """
    api = "nn.functional.margin_ranking_loss"
    check_reduction(reduction, api)
    if margin is None:   # Paddle fills a [1] tensor with it: ValueError
        raise ValueError(f"paddle.{api}: 'margin' must be a number, but received None")
    if isinstance(other, torch.Tensor) and input.dtype != other.dtype:
        check_binary_dtypes(api, input, other, True)   # (Paddle's subtract promotes first)
    no_low_float_kernel(api, input, arg="input", missing=NO_SUBTRACT_KERNEL - LOW_FLOATS)
    input, other = promote_operands(api, input, other)   # (Paddle's subtract comes first)
    no_low_float_kernel(api, input, arg="input", static=BF16_F32_F64)
    label = promote_operands(api, input - other, label)[1]
    float_kernel(f"paddle.{api}", input)   # Paddle's relu kernel
    out = -label * (input - other)
    if margin != 0:
        # Paddle adds a non-zero margin as a [1] tensor: a 0-D loss comes out as [1]
        out = out + torch.full([1] if out.dim() == 0 else [], margin, dtype=out.dtype,
                               device=out.device)
    return reduce_loss(torch.relu(out), reduction)


@defop(amp="black", method=False, paddle_types=())
def cosine_embedding_loss(input1, input2, label, margin=0, reduction="mean", name=None):
    """``1 - cos(x1, x2)`` for label 1, ``max(0, cos(x1, x2) - margin)`` for label -1.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> a = paddle.to_tensor([[1.0, 0.0]])
        >>> F.cosine_embedding_loss(a, a, paddle.to_tensor([1])).item()
        0.0
    """
    api = "paddle.nn.functional.cosine_embedding_loss"
    check_reduction(reduction, api[7:])
    if label.dim() != 1:
        raise ValueError(f"{api}: a 1-D 'label' is expected (multi-target is not supported), but "
                         f"received shape {list(label.shape)}")
    if list(input1.shape) != list(input2.shape):
        raise ValueError(f"{api}: 'input1' and 'input2' must have the same shape, but received "
                         f"{list(input1.shape)} and {list(input2.shape)}")
    if input1.dim() > 2:
        raise ValueError(f"{api}: a 1-D 'label' expects 1-D or 2-D inputs, but received shape "
                         f"{list(input1.shape)}")
    if input1.dtype not in (torch.float32, torch.float64):
        raise ValueError(f"{api}: 'input1' must be a float32 or float64 tensor, but received "
                         f"{dtype_name(input1)}")
    if label.dtype not in (torch.int32, torch.int64, torch.float32, torch.float64):
        raise ValueError(f"{api}: 'label' must be an int32, int64, float32 or float64 tensor, "
                         f"but received {dtype_name(label)}")
    if input1.dim() == 2 and label.shape[0] != input1.shape[0]:
        raise ValueError(f"{api}: 'label' must hold one value per row of the inputs, but "
                         f"received shapes {list(label.shape)} and {list(input1.shape)}")
    no_low_float_kernel(api[7:], input2, arg="input2")   # (Paddle squares it alone first)
    input1, input2 = promote_operands(api[7:], input1, input2)
    # Paddle's formula: squared norms get 1e-11 added, labels other than 1 / -1 give 0
    prod = (input1 * input2).sum(-1)
    mag = ((input1.square().sum(-1) + 1e-11) * (input2.square().sum(-1) + 1e-11)).sqrt()
    cos = prod / mag
    zero = torch.zeros_like(cos)
    loss = torch.where(label == 1, 1 - cos, zero) + \
        torch.where(label == -1, (cos - margin).clamp_min(0), zero)
    return reduce_loss(loss, reduction)


@defop(amp="black", method=False, paddle_types=())
def triplet_margin_loss(input, positive, negative, margin=1.0, p=2, epsilon=1e-06, swap=False,
                        reduction="mean", name=None):
    """Triplet loss ``max(d(a, p) - d(a, n) + margin, 0)`` with ``d(x, y) = ||x - y + eps||_p``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> a = paddle.to_tensor([[0.0, 0.0]])
        >>> F.triplet_margin_loss(a, a, a + 3.0).item()
        0.0
    """
    api = "nn.functional.triplet_margin_loss"
    check_reduction(reduction, api)
    if isinstance(p, str):   # Paddle's p_norm reads p as a double: its parser's TypeError
        raise TypeError(f"paddle.{api}: 'p' must be a number, but received str {p!r}")
    if epsilon is None:   # Paddle's pairwise_distance fills a [1] tensor with it: ValueError
        raise ValueError(f"paddle.{api}: 'epsilon' must be a number, but received None")
    if margin < 0:
        raise ValueError(f"paddle.{api}: 'margin' must not be negative, but received {margin}")
    if not list(input.shape) == list(positive.shape) == list(negative.shape):
        # Paddle wants one shape: no broadcasting between the three
        raise ValueError(f"paddle.{api}: 'input', 'positive' and 'negative' must have the same "
                         f"shape, but received {list(input.shape)}, {list(positive.shape)} and "
                         f"{list(negative.shape)}")
    # Paddle subtracts the operands (its type promotion: floats only) and takes p_norm (a
    # float kernel): the promoted dtype needs the kernels
    input, positive = promote_operands(api, input, positive)
    input, negative = promote_operands(api, input, negative)
    no_low_float_kernel(api, input, arg="input")
    positive = positive.to(input.dtype)
    float_kernel(f"paddle.{api}", input)
    # the distances as Paddle's pairwise_distance takes them (its p_norm gradient: NaN where
    # two samples coincide with epsilon 0, every tied extreme for p = inf)
    from pagaie._ops.linalg import last_axis_pnorm
    p = float(p)
    d_pos = last_axis_pnorm(input - positive + epsilon, p, False)
    d_neg = last_axis_pnorm(input - negative + epsilon, p, False)
    if swap:
        d_neg = torch.minimum(d_neg, last_axis_pnorm(positive - negative + epsilon, p, False))
    return reduce_loss((d_pos - d_neg + margin).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(input: Any, positive: Any, negative: Any,
                                      distance_function: Callable | None = None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean", name: str | None = None) -> Any:
    """Triplet loss with a custom distance: ``max(d(a, p) - d(a, n) + margin, 0)``.

    A composite over public ops, so ``distance_function`` receives and returns Tensors.

    Args:
        input (Tensor): anchors.
        positive (Tensor): positives.
        negative (Tensor): negatives.
        distance_function (callable, optional): ``d(x, y) -> Tensor``; defaults to
            :func:`pairwise_distance`.
        margin (float): the margin.
        swap (bool): use ``min(d(a, n), d(p, n))`` as the negative distance.
        reduction (str): ``'mean'``, ``'sum'`` or ``'none'``.
        name (str, optional): unused.

    Returns:
        Tensor: the loss.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> a = paddle.to_tensor([[0.0, 0.0]])
        >>> F.triplet_margin_with_distance_loss(a, a, a + 3.0).item()
        0.0
    """
    import pagaie
    check_reduction(reduction, "nn.functional.triplet_margin_with_distance_loss")
    if margin < 0:
        raise ValueError("paddle.nn.functional.triplet_margin_with_distance_loss: 'margin' must "
                         f"not be negative, but received {margin}")
    api = "paddle.nn.functional.triplet_margin_with_distance_loss"
    if not list(input.shape) == list(positive.shape) == list(negative.shape):
        # Paddle wants one shape: no broadcasting between the three
        raise ValueError(f"{api}: 'input', 'positive' and 'negative' must have the same shape, but "
                         f"received {list(input.shape)}, {list(positive.shape)} and "
                         f"{list(negative.shape)}")
    dist = distance_function or pagaie.nn.functional.pairwise_distance
    d_pos = dist(input, positive)
    d_neg = dist(input, negative)
    if swap:
        d_neg = pagaie.minimum(d_neg, dist(positive, negative))
    for d in (d_pos, d_neg):
        # Paddle checks the values it has (not those of a static program)
        if not d._t.is_meta and not bool((d._t >= 0).all()):
            raise ValueError(f"{api}: the distances must not be negative: check the "
                             f"distance_function (received a minimum of {float(d._t.min())})")
    # a clip, as Paddle: a loss of exactly 0 still passes its gradient (relu's would not)
    loss = pagaie.clip(d_pos - d_neg + margin, min=0.0)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


@defop(program_dtypes={"input": REAL_FLOATS, "label": F32_F64}, amp="black", method=False,
       paddle_types=())
def hinge_embedding_loss(input, label, margin=1.0, reduction="mean", name=None):
    """``x`` where label is 1, ``max(0, margin - x)`` where label is -1.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> round(F.hinge_embedding_loss(paddle.to_tensor([0.3, 0.2]), paddle.to_tensor([1.0, -1.0])).item(), 4)
        0.55
    """
    check_reduction(reduction, "nn.functional.hinge_embedding_loss")
    # (a bool input meets the promotion check first)
    no_low_float_kernel("nn.functional.hinge_embedding_loss", input, arg="input", missing=NO_SUBTRACT_KERNEL - {torch.bool})
    _float_operands("paddle.nn.functional.hinge_embedding_loss", input)
    zero = input.new_zeros([1])   # Paddle's [1]-shaped zero: 0-D operands give a [1] loss
    loss = torch.where(label == 1.0, input, zero) + \
        torch.where(label == -1.0, torch.relu(margin - input), zero)
    return reduce_loss(loss, reduction)


@defop(program_dtypes={"input": REAL_FLOATS}, amp="black", method=False, paddle_types=())
def soft_margin_loss(input, label, reduction="mean", name=None):
    """Two-class logistic loss ``log(1 + exp(-label * input))``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> round(F.soft_margin_loss(paddle.to_tensor([0.0]), paddle.to_tensor([1.0])).item(), 4)
        0.6931
    """
    check_reduction(reduction, "nn.functional.soft_margin_loss")
    if list(input.shape) != list(label.shape):   # Paddle does not broadcast the label
        raise ValueError("paddle.nn.functional.soft_margin_loss: 'input' and 'label' must have "
                         f"the same shape, but received {list(input.shape)} and {list(label.shape)}")
    no_low_float_kernel("nn.functional.soft_margin_loss", input, arg="input", missing=NO_SUBTRACT_KERNEL)
    z = -label.to(input.dtype) * input
    if not (z.is_floating_point() or z.is_complex()):
        z = z.float()   # Paddle's exp/log run an integer operand through float32
    # Paddle writes log(1 + exp(z)) out, not a stable softplus: exp overflows to an inf loss
    # (NaN gradient) where z passes ~88 in float32
    return reduce_loss(torch.log(1 + torch.exp(z)), reduction)


@defop(program_dtypes={"input": REAL_FLOATS}, amp="black", method=False, paddle_types=())
def multi_label_soft_margin_loss(input, label, weight=None, reduction="mean", name=None):
    """Multi-label one-versus-all logistic loss, averaged over classes: ``[N]`` per sample.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> round(F.multi_label_soft_margin_loss(paddle.zeros([1, 2]), paddle.to_tensor([[1.0, 0.0]])).item(), 4)
        0.6931
    """
    api = "nn.functional.multi_label_soft_margin_loss"
    check_reduction(reduction, api)
    no_low_float_kernel(api, input, arg="input")
    if not (input.is_floating_point() or input.is_complex()):
        # the composite starts with logsigmoid(input), before any promotion with the label
        kernel_dtypes(api, input, _LOGSIGMOID_CPU_DTYPES, "input")
    if list(input.shape) != list(label.shape):
        raise ValueError(f"paddle.{api}: 'input' and 'label' must have the same shape, but "
                         f"received {list(input.shape)} and {list(label.shape)}")
    input, label = promote_operands(api, input, label)
    float_weight(api, input, weight)
    if input.is_complex():   # (torch's logsigmoid is real only; Paddle's has complex kernels)
        loss = label * torch.log1p(torch.exp(-input)) + (1 - label) * torch.log1p(torch.exp(input))
    else:
        loss = -(label * F.logsigmoid(input) + (1 - label) * F.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return reduce_loss(loss.mean(-1), reduction)


@defop(program_dtypes={"input": REAL_FLOATS}, amp="black", method=False, paddle_types=())
def multi_label_margin_loss(input, label, reduction="mean", name=None):
    """Multi-label hinge loss; ``label`` lists target classes, ended by the first -1.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> x = paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(F.multi_label_margin_loss(x, paddle.to_tensor([[3, 0, -1, 1]])).item(), 4)
        0.85
    """
    api = "paddle.nn.functional.multi_label_margin_loss"
    check_reduction(reduction, api[7:])
    if input.dtype in (torch.int32, torch.bool):
        # Paddle's composite meets a dtype clash in its scatter (int32) or promotion (bool)
        raise TypeError(f"{api}: 'input' must be a float32 or float64 tensor, but received "
                        f"{dtype_name(input)}")
    # (the composite's kernels: no float16, bfloat16, small-integer or complex version)
    kernel_dtypes(api[7:], input, F32_F64 | {torch.int64}, arg="input", static=F32_F64)
    if input.dim() != 2:
        raise ValueError(f"{api}: a 2-D 'input' is expected, but received {input.dim()}-D")
    if label.dim() != 2:
        raise ValueError(f"{api}: a 2-D 'label' is expected, but received {label.dim()}-D")
    # Paddle's composite takes the label's min first (no bool or small-integer CPU kernel)
    kernel_dtypes(api[7:], label, F32_F64 | {torch.int32, torch.int64}, arg="label")
    if label.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"{api}: 'label' must be an int32 or int64 tensor, but received "
                         f"{dtype_name(label)}")
    n, c = input.shape
    if label.numel() and not torch.compiler.is_compiling():
        if int(label.min()) < -1:
            raise ValueError(f"{api}: label values should be >= -1, but received {int(label.min())}")
        if int(label.max()) >= c:
            raise ValueError(f"{api}: label values should be < {c}, but received {int(label.max())}")
    # a row's targets are its labels up to the first -1 (any number of columns, as in Paddle)
    valid = (label != -1).long().cumprod(1).bool()
    lab = label.long().clamp_min(0)
    is_target = (F.one_hot(lab, c).bool() & valid[..., None]).any(1)  # [N, C]
    x_t = input.gather(1, lab)
    m = (1 - x_t[:, :, None] + input[:, None, :]).clamp_min(0)  # [N, K, C]
    m = m * ((~is_target)[:, None, :] & valid[:, :, None]).to(m.dtype)
    return reduce_loss(m.sum((1, 2)) / c, reduction)


class _IndexSample(torch.autograd.Function):
    """``x.gather(1, idx)`` whose gradient, like Paddle's ``index_sample_grad``, has no
    derivative: a second-order ``grad`` through it raises RuntimeError."""

    @staticmethod
    def forward(ctx, x, idx):
        ctx.save_for_backward(x, idx)
        return x.gather(1, idx)

    @staticmethod
    def backward(ctx, g):
        x, idx = ctx.saved_tensors
        return _IndexSampleGrad.apply(g, idx, x), None


class _IndexSampleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, g, idx, x):
        return g.new_zeros(x.shape).scatter_add_(1, idx, g)

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("paddle.grad: multi_margin_loss has no second-order gradient (as in "
                           "Paddle, whose index_sample_grad has no grad op); call grad with "
                           "create_graph=False")


@defop(program_dtypes={"input": FLOAT_OR_COMPLEX, "label": frozenset({torch.int32, torch.int64})},
       amp="black", method=False, paddle_types=())
def multi_margin_loss(input, label, p=1, margin=1.0, weight=None, reduction="mean", name=None):
    """Multi-class hinge loss ``sum_{i != y} max(0, margin - x[y] + x[i]) ** p / C``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> x = paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]])
        >>> round(F.multi_margin_loss(x, paddle.to_tensor([3])).item(), 4)
        0.325
    """
    api = "paddle.nn.functional.multi_margin_loss"
    check_reduction(reduction, api[7:])
    no_low_float_kernel(api[7:], input, arg="input", missing=NO_SUBTRACT_KERNEL)
    if input.dim() != 2 or label.dim() == 0 or label.shape[0] != input.shape[0]:
        raise ValueError(f"{api}: 'input' must be [N, C] and label's shape[0] equal to N, but "
                         f"received input shape {list(input.shape)} and label shape "
                         f"{list(label.shape)}")
    if label.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"{api}: 'label' must be an int32 or int64 tensor, but received "
                         f"{dtype_name(label)}")
    _float_operands(api, input)
    c = input.shape[1]
    lab = label.reshape(-1).long()
    if lab.numel() != input.shape[0]:
        raise ValueError(f"{api}: 'label' must hold one class per row of 'input', but received "
                         f"label shape {list(label.shape)} for input shape {list(input.shape)}")
    if lab.numel() and not torch.compiler.is_compiling() and (int(lab.min()) < 0 or int(lab.max()) >= c):
        raise ValueError(f"{api}: 'label' values must be in [0, {c}), but received values in "
                         f"[{int(lab.min())}, {int(lab.max())}]")
    if weight is not None and (weight.dim() != 1 or weight.shape[0] != c):
        raise ValueError(f"{api}: 'weight' must have shape [{c}] (input's shape[1]), but "
                         f"received {list(weight.shape)}")
    if weight is not None:
        float_weight(api[7:], input, weight)
        # (Paddle gathers it: no CPU float16 gather; a bfloat16 one)
        no_low_float_kernel(api[7:], weight, arg="weight", missing=frozenset({torch.float16}))
    # Paddle's formula: the mean over all C classes (the target's own term included) less
    # that term's nominal value margin ** p / C
    t = (margin - _IndexSample.apply(input, lab[:, None]) + input).clamp_min(0) ** p
    if weight is None:
        loss = t.mean(1) - margin ** p / c
    else:
        w = weight[lab][:, None]
        loss = (w * t).mean(1) - (w * (margin ** p / c)).reshape(-1)
    return reduce_loss(loss, reduction)


@defop(program_dtypes={"input": REAL_FLOATS}, amp="black", method=False, paddle_types=())
def poisson_nll_loss(input, label, log_input=True, full=False, epsilon=1e-08, reduction="mean",
                     name=None):
    """Poisson negative log likelihood: ``exp(x) - y x`` (log input) or ``x - y log(x + eps)``,
    plus Stirling's term for ``y > 1`` with ``full``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> F.poisson_nll_loss(paddle.to_tensor([0.0]), paddle.to_tensor([1.0])).item()
        1.0
    """
    check_reduction(reduction, "nn.functional.poisson_nll_loss")
    if epsilon <= 0:
        raise ValueError(f"paddle.nn.functional.poisson_nll_loss: epsilon should be positive, "
                         f"but received {epsilon}")
    api = "nn.functional.poisson_nll_loss"
    no_low_float_kernel(api, input, arg="input", missing=NO_SUBTRACT_KERNEL - LOW_FLOATS)
    if list(input.shape) != list(label.shape):
        raise ValueError(f"paddle.{api}: 'input' and 'label' must have the same shape, but "
                         f"received {list(input.shape)} and {list(label.shape)}")
    _float_operands("paddle." + api, input, label)
    # Paddle's composite: exp(input) (no bfloat16 CPU kernel) or log(input + epsilon), the
    # Stirling term of the label alone when full, then a subtract in the promoted dtype
    if log_input and input.dtype is torch.bfloat16:
        no_low_float_kernel(api, input, arg="input", static=BF16_F32_F64)
    if full:
        no_low_float_kernel(api, label, arg="label", static=BF16_F32_F64)
    input, label = promote_operands(api, input, label)
    no_low_float_kernel(api, input, arg="input", static=BF16_F32_F64)
    return F.poisson_nll_loss(input, label, log_input=bool(log_input), full=bool(full),
                              eps=epsilon, reduction=reduction)


@defop(program_dtypes={"input": F32_F64, "label": F32_F64, "variance": F32_F64}, amp="black",
       method=False, paddle_types=())
def gaussian_nll_loss(input, label, variance, full=False, epsilon=1e-06, reduction="mean",
                      name=None):
    """Gaussian negative log likelihood ``0.5 (log var + (x - y) ** 2 / var)`` (+ const if full).

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> F.gaussian_nll_loss(paddle.to_tensor([1.0]), paddle.to_tensor([3.0]), paddle.to_tensor([1.0])).item()
        2.0
    """
    api = "nn.functional.gaussian_nll_loss"
    if not isinstance(reduction, str):   # Paddle's check fails on a non-str with a TypeError
        raise TypeError(f"paddle.{api}: 'reduction' must be a str ('sum', 'mean' or 'none'), "
                        f"but received {type(reduction).__name__}")
    check_reduction(reduction, api)
    for t, arg in ((input, "input"), (label, "label"), (variance, "variance")):
        if t.dtype not in (torch.float32, torch.float64):
            raise ValueError(f"paddle.{api}: '{arg}' must be a float32 or float64 tensor, but "
                             f"received {dtype_name(t)}")
    xs, vs = list(input.shape), list(variance.shape)
    if not (vs == xs or vs == xs[:-1] or (vs[:-1] == xs[:-1] and vs[-1:] == [1])):
        raise ValueError(f"paddle.{api}: 'variance' must have the input's shape {xs}, that shape "
                         f"without its last axis, or with it as 1, but received {vs}")
    if bool((variance < 0).any()):
        raise ValueError("paddle.nn.functional.gaussian_nll_loss: variance has negative entry/entries")
    # Paddle clamps the variance under no_grad, so no gradient reaches it
    return F.gaussian_nll_loss(input, label, variance.detach(), full=full, eps=epsilon,
                               reduction=reduction)


@defop(amp="black", method=False, paddle_types=("sigmoid_focal_loss",))
def sigmoid_focal_loss(logit, label, normalizer=None, alpha=0.25, gamma=2.0, reduction="sum",
                       name=None):
    """Focal loss on sigmoid probabilities:
    ``alpha_t * (1 - p_t) ** gamma * BCE(logit, label)``, divided by ``normalizer``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> round(F.sigmoid_focal_loss(paddle.to_tensor([0.0]), paddle.to_tensor([1.0])).item(), 4)
        0.0433
    """
    api = "paddle.nn.functional.sigmoid_focal_loss"
    check_reduction(reduction, api[7:])
    # Paddle's sigmoid_cross_entropy_with_logits runs in the label's dtype: a label without a
    # CPU kernel is reported first, then a logit of another dtype, then the logit's own dtype
    if label.is_floating_point():
        no_low_float_kernel(api[7:], label, arg="label")
    if normalizer is not None:
        if normalizer.dim() > 1:
            raise ValueError(f"{api}: 'normalizer' must be 0-D or 1-D, but received shape "
                             f"{list(normalizer.shape)}")
        check_binary_dtypes(api[7:], logit, normalizer)
    if not label.is_floating_point():  # Paddle has no kernel for an integer label: NotFound
        raise NoKernelError(f"{api}: 'label' must be a floating tensor, but received "
                            f"{dtype_name(label)}")
    if logit.is_floating_point() and logit.dtype != label.dtype:  # Paddle: InvalidArgument
        raise ValueError(f"{api}: 'label' must have the dtype of 'logit' ({dtype_name(logit)}), "
                         f"but received {dtype_name(label)}")
    if list(label.shape) != list(logit.shape):   # Paddle: InvalidArgument
        raise ValueError(f"{api}: 'label' must have the shape of 'logit' {list(logit.shape)}, but "
                         f"received {list(label.shape)}")
    no_low_float_kernel(api[7:], logit, arg="logit")
    p = torch.sigmoid(logit)
    # as in Paddle, the label is differentiated through p_t and alpha_t only
    ce = sigmoid_ce_with_logits(logit, label)
    p_t = p * label + (1 - p) * (1 - label)
    loss = (alpha * label + (1 - alpha) * (1 - label)) * ce * (1 - p_t) ** gamma
    if normalizer is not None:
        loss = loss / normalizer
    return reduce_loss(loss, reduction)


@defop(amp="black", method=False, paddle_types=())
def dice_loss(input, label, epsilon=1e-05, name=None):
    """Dice loss ``1 - 2 |X ∩ Y| / (|X| + |Y|)`` of probabilities ``[N, ..., C]`` and int
    labels ``[N, ..., 1]``, averaged over the batch.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> x = paddle.to_tensor([[[0.0, 1.0]]])
        >>> round(F.dice_loss(x, paddle.to_tensor([[[1]]])).item(), 4)
        0.0
    """
    api = "paddle.nn.functional.dice_loss"
    # Paddle asserts all of these
    if input.dtype not in (torch.float32, torch.float64):
        raise AssertionError(f"{api}: 'input' must be float32 or float64, but received "
                             f"{dtype_name(input)}")
    if label.dtype not in (torch.int32, torch.int64):
        raise AssertionError(f"{api}: 'label' must be int32 or int64, but received {dtype_name(label)}")
    if input.dim() < 2:
        raise AssertionError(f"{api}: the rank of 'input' must be at least 2, but received "
                             f"shape {list(input.shape)}")
    if input.dim() != label.dim() or label.shape[-1] != 1 or label.shape[:-1] != input.shape[:-1]:
        raise AssertionError(f"{api}: the label must have the input's shape with last dimension "
                             f"1, but received label shape {list(label.shape)} for input shape "
                             f"{list(input.shape)}")
    onehot = F.one_hot(label.squeeze(-1).long(), input.shape[-1]).to(input.dtype)
    dims = list(range(1, input.dim()))
    inse = (input * onehot).sum(dims)
    denom = input.sum(dims) + onehot.sum(dims)
    return (1 - inse * 2 / (denom + epsilon)).mean()


def _npair_checks(anchor: torch.Tensor, positive: torch.Tensor, labels: torch.Tensor) -> None:
    """npair_loss's inputs as Paddle's composite takes them: non-empty 2-D ``anchor`` and
    ``positive`` of one shape (ValueError), dtypes its kernels have (``square``, then the soft
    cross entropy of ``anchor @ positive.T``: RuntimeError), ``anchor``'s dtype for both (an
    integer ``positive`` is promoted; another mix is its ValueError; a float64 pair, which
    Paddle refuses against its float32 label matrix, is computed) and one label per row."""
    api = "paddle.nn.functional.npair_loss"
    for t, arg in ((anchor, "anchor"), (positive, "positive")):
        if t.numel() == 0:
            raise ValueError(f"{api}: The dims of {arg} should be greater than 0.")
    for t, arg in ((anchor, "anchor"), (positive, "positive")):
        no_low_float_kernel(api[7:], t, arg=arg, missing=NO_SUBTRACT_KERNEL)
    sim = torch.promote_types(anchor.dtype, positive.dtype)
    if sim not in F32_F64:
        raise NoKernelError(f"{api}: 'anchor' ({dtype_name(anchor)}) and 'positive' "
                            f"({dtype_name(positive)}) must give a float32 or float64 similarity, "
                            "the dtypes of Paddle's cross entropy kernel")
    if positive.dtype != anchor.dtype and (positive.is_floating_point() or anchor.dtype != sim):
        raise ValueError(f"{api}: 'positive' ({dtype_name(positive)}) must have the dtype of "
                         f"'anchor' ({dtype_name(anchor)})")
    if anchor.dim() != 2 or positive.shape != anchor.shape:
        raise ValueError(f"{api}: 'anchor' and 'positive' must be 2-D [batch_size, embedding_dims] "
                         f"of one shape, but received {list(anchor.shape)} and {list(positive.shape)}")
    if labels.dim() == 0:   # Paddle reads the batch size as labels.shape[0]
        raise IndexError(f"{api}: 'labels' must be 1-D [batch_size], but received a 0-D tensor")
    if labels.numel() != labels.shape[0] or labels.shape[0] != anchor.shape[0]:
        raise ValueError(f"{api}: 'labels' must hold one label per row of 'anchor' ([{anchor.shape[0]}]),"
                         f" but received shape {list(labels.shape)}")


@defop(program_dtypes={"anchor": REAL_FLOATS, "labels": F32_F64 | {torch.int64}}, amp="black",
       method=False, paddle_types=())
def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """N-pair loss: softmax cross entropy of ``anchor @ positive.T`` against the normalised
    same-label matrix, plus ``l2_reg / 4 * (mean ||a||^2 + mean ||p||^2)``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> a = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> round(F.npair_loss(a, a, paddle.to_tensor([0.0, 1.0]), l2_reg=0.0).item(), 4)
        0.3133
    """
    _npair_checks(anchor, positive, labels)
    norms = positive.square().sum(1)
    # an integer positive's mean squared norm is an integer mean, as in Paddle
    norms = norms.mean() if norms.is_floating_point() else norms.sum() // norms.numel()
    reg = l2_reg * 0.25 * (anchor.square().sum(1).mean() + norms)
    positive = positive.to(anchor.dtype)
    lab = labels.reshape(-1, 1)
    same = (lab == lab.T).to(anchor.dtype)
    same = same / same.sum(1, keepdim=True)
    sim = anchor @ positive.T
    ce = -(same * torch.log_softmax(sim, 1)).sum(1)
    return ce.mean() + reg


@defop(amp="black", method=False, paddle_types=("margin_cross_entropy",
                                                "pd_op.margin_cross_entropy"))
def margin_cross_entropy(logits, label, margin1=1.0, margin2=0.5, margin3=0.0, scale=64.0,
                         group=None, return_softmax=False, reduction="mean"):
    """Additive/multiplicative angular margin softmax loss (ArcFace / CosFace / SphereFace).

    The target logit ``cos(theta)`` becomes ``cos(margin1 * theta + margin2) - margin3``; all
    logits are scaled by ``scale`` before softmax cross entropy. Single-process only.

    Args:
        logits (Tensor): cosine similarities ``[N, C]`` (in [-1, 1]).
        label (Tensor): class indices ``[N]`` or ``[N, 1]``.
        margin1 (float): the multiplicative angular margin.
        margin2 (float): the additive angular margin.
        margin3 (float): the additive cosine margin.
        scale (float): the logit scale.
        group (optional): must be None (model parallelism is not supported).
        return_softmax (bool): also return the softmax of the margin logits.
        reduction (str|None): ``'mean'``, ``'sum'``, or ``None``/``'none'`` for ``[N, 1]``.

    Returns:
        Tensor, or (Tensor, Tensor) with ``return_softmax``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> x = paddle.to_tensor([[0.9, 0.1]])
        >>> F.margin_cross_entropy(x, paddle.to_tensor([0])).shape
        paddle.Size([])
    """
    if group not in (None, False):
        raise NotImplementedError("paddle.nn.functional.margin_cross_entropy: model-parallel "
                                  "groups are not supported; pass group=None")
    api = "paddle.nn.functional.margin_cross_entropy"
    kernel_dtypes(api[7:], logits, F32_F64, "logits")
    if reduction is not None and reduction not in ("none", "mean", "sum"):   # Paddle asserts
        raise AssertionError(f"{api}: the value of 'reduction' should be 'sum', 'mean', 'none' "
                             f"or None, but received {reduction}")
    if logits.dim() != 2:
        raise ValueError(f"{api}: 'logits' must be 2-D [N, C], but received shape "
                         f"{list(logits.shape)}")
    if label.is_floating_point() or label.is_complex() or label.dtype == torch.bool:
        raise TypeError(f"{api}: 'label' must be an int32 or int64 tensor, but received "
                        f"{str(label.dtype).replace('torch.', '')}")
    lab = label.reshape(-1).long()
    if lab.shape[0] != logits.shape[0]:
        raise ValueError(f"{api}: 'label' must hold one class per row of 'logits' ([N] or "
                         f"[N, 1]), but received shapes {list(label.shape)} and "
                         f"{list(logits.shape)}")
    if lab.numel() and not torch.compiler.is_compiling() and (
            int(lab.min()) < 0 or int(lab.max()) >= logits.shape[1]):
        raise ValueError(f"{api}: 'label' values must be in [0, {logits.shape[1]}), but received "
                         f"values in [{int(lab.min())}, {int(lab.max())}]")
    cos_t = logits.gather(1, lab[:, None]).clamp(-1.0, 1.0)
    theta = torch.acos(cos_t)
    target = torch.cos(margin1 * theta + margin2) - margin3
    onehot = F.one_hot(lab, logits.shape[1]).to(torch.bool)
    z = torch.where(onehot, target.expand_as(logits), logits) * scale
    logp = torch.log_softmax(z, 1)
    loss = -logp.gather(1, lab[:, None])
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return (loss, logp.exp()) if return_softmax else loss


def _default_paths(label: torch.Tensor, num_classes: int):
    """Paddle's default complete binary tree: node ids and branch bits per label, padded."""
    code = label.reshape(-1).long() + num_classes
    length = (num_classes - 1).bit_length()
    bits = torch.arange(length, device=label.device)
    node = (code[:, None] >> (bits + 1)) - 1
    bit = ((code[:, None] >> bits) & 1)
    valid = node >= 0
    return torch.where(valid, node, -1), bit, valid


def _hsigmoid_shapes(input: torch.Tensor, label: torch.Tensor, weight: torch.Tensor,
                     bias: torch.Tensor | None) -> None:
    """The documented shapes of hsigmoid_loss: ``input`` [N, D], ``label`` [N] or [N, 1],
    ``weight`` [nodes, D], ``bias`` with one value per node. Paddle checks the rows of
    ``input`` and ``label`` (InvalidArgument, ValueError) and reads the rest as flat buffers
    (past their ends where they are smaller): pagaie refuses all with ValueError."""
    api = "paddle.nn.functional.hsigmoid_loss"
    if input.dim() != 2:
        raise ValueError(f"{api}: 'input' must be 2-D [N, D], but received shape {list(input.shape)}")
    if label.dim() not in (1, 2) or label.shape[0] != input.shape[0] or label.numel() != input.shape[0]:
        raise ValueError(f"{api}: 'label' must be [N] or [N, 1] with N = {input.shape[0]} (the rows of "
                         f"'input'), but received shape {list(label.shape)}")
    if weight.dim() != 2 or weight.shape[1] != input.shape[1]:
        raise ValueError(f"{api}: 'weight' must be 2-D [num_nodes, {input.shape[1]}] (the feature size "
                         f"of 'input'), but received shape {list(weight.shape)}")
    if bias is not None and bias.numel() != weight.shape[0]:
        raise ValueError(f"{api}: 'bias' must hold one value per row of 'weight' ({weight.shape[0]}), "
                         f"but received shape {list(bias.shape)}")


_INT64 = frozenset((torch.int64,))


# (the dtypes its static API checks before building the op)
@defop(amp="black", method=False, paddle_types=("hierarchical_sigmoid", "pd_op.hsigmoid_loss"),
       program_dtypes={"input": F32_F64, "label": _INT64, "weight": F32_F64, "bias": F32_F64,
                       "path_table": _INT64, "path_code": _INT64})
def hsigmoid_loss(input, label, num_classes, weight, bias=None, path_table=None, path_code=None,
                  is_sparse=False, name=None):
    """Hierarchical sigmoid loss: a binary logistic loss at every node on the label's tree path.

    Without ``path_table`` the tree is Paddle's default complete binary tree over
    ``num_classes`` leaves; with it, ``path_table`` ``[N, L]`` gives node ids (-1 pads) and
    ``path_code`` ``[N, L]`` the branch bits. Node logits are clipped to [-40, 40].

    Args:
        input (Tensor): features ``[N, D]``.
        label (Tensor): class indices ``[N]`` or ``[N, 1]`` (int64).
        num_classes (int): the number of classes.
        weight (Tensor): node weights ``[num_classes - 1, D]``.
        bias (Tensor, optional): node biases ``[num_classes - 1, 1]``.
        path_table (Tensor, optional): custom node paths.
        path_code (Tensor, optional): custom branch codes.
        is_sparse (bool): unused (dense gradients).
        name (str, optional): unused.

    Returns:
        Tensor: ``[N, 1]``.

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> out = F.hsigmoid_loss(paddle.ones([2, 3]), paddle.to_tensor([0, 2]), 3, paddle.zeros([2, 3]))
        >>> out.shape
        paddle.Size([2, 1])
    """
    if num_classes < 2:
        raise ValueError("paddle.nn.functional.hsigmoid_loss: expected num_classes >= 2, but "
                         f"received {num_classes}")
    kernel_dtypes("nn.functional.hsigmoid_loss", input, F32_F64)
    for t, arg in ((weight, "weight"), (bias, "bias")):
        if t is not None and t.dtype != input.dtype:   # Paddle's kernel never promotes
            raise ValueError(f"paddle.nn.functional.hsigmoid_loss: '{arg}' must have the dtype of "
                             f"'input' ({dtype_name(input)}), but received {dtype_name(t)}")
    if label.dtype != torch.int64:  # Paddle's kernel reads int64 labels only: InvalidArgument
        raise ValueError(f"paddle.nn.functional.hsigmoid_loss: 'label' must be an int64 tensor, "
                         f"but received {dtype_name(label)}")
    _hsigmoid_shapes(input, label, weight, bias)
    if path_table is None:
        node, bit, valid = _default_paths(label, num_classes)
    else:
        for t, arg in ((path_table, "path_table"), (path_code, "path_code")):
            if t is not None and t.dtype != torch.int64:   # Paddle's kernel reads int64 only
                raise ValueError(f"paddle.nn.functional.hsigmoid_loss: '{arg}' must be an int64 "
                                 f"tensor, but received {dtype_name(t)}")
        # Paddle reads a custom tree's codes from path_code without checking it (a crash when
        # it is missing, out-of-bounds reads when it is smaller): refuse instead
        if path_code is None or path_code.shape != path_table.shape \
                or path_table.dim() != 2 or path_table.shape[0] != input.shape[0]:
            got = None if path_code is None else list(path_code.shape)
            raise ValueError("paddle.nn.functional.hsigmoid_loss: a custom tree needs 'path_table' "
                             f"and 'path_code' of one shape [N, L] with N = {input.shape[0]} (the "
                             f"rows of 'input'), but received {list(path_table.shape)} and {got}")
        node = path_table.long()
        bit = path_code.long()
        valid = node >= 0
    safe = torch.where(valid, node, torch.zeros_like(node))
    # Paddle reads past the weight rows here (undefined results): refuse instead
    if safe.numel() and not torch.compiler.is_compiling() and int(safe.max()) >= weight.shape[0]:
        what = ("'path_table' node ids must be below" if path_table is not None else
                f"'label' values must be in [0, {num_classes}) so that the tree nodes fit")
        raise ValueError(f"paddle.nn.functional.hsigmoid_loss: {what} the {weight.shape[0]} rows of "
                         f"'weight', but a path reaches node {int(safe.max())}")
    pre = (weight[safe] * input[:, None, :]).sum(-1)
    if bias is not None:
        pre = pre + bias.reshape(-1)[safe]
    # Like Paddle, a padding position of a shorter path keeps logit 0 and adds log(2).
    pre = torch.where(valid, pre.clamp(-40.0, 40.0), torch.zeros_like(pre))
    loss = F.softplus(pre) - bit.to(pre.dtype) * pre
    return loss.sum(1, keepdim=True)


@defop(amp="black", method=False, paddle_types=())
def adaptive_log_softmax_with_loss(input, label, head_weight, tail_weights, cutoffs,
                                   head_bias=None, name=None):
    """Adaptive softmax (Grave et al.): frequent classes in a head, rare ones in clusters.

    Weights use Paddle's ``[in, out]`` layout: ``head_weight`` ``[D, shortlist + n_clusters]``,
    ``tail_weights[i]`` = ``[projection [D, h_i], output [h_i, size_i]]``.

    Args:
        input (Tensor): features ``[N, D]``.
        label (Tensor): targets ``[N]``.
        head_weight (Tensor): the head projection.
        tail_weights (list): per-cluster ``[projection, output]`` weight pairs.
        cutoffs (list): increasing class cutoffs, ending with ``n_classes``.
        head_bias (Tensor, optional): the head bias.
        name (str, optional): unused.

    Returns:
        tuple: (output ``[N]``: the target log-probabilities, loss: their negated mean).

    Examples:
        >>> import pagaie as paddle
        >>> F = paddle.nn.functional
        >>> x = paddle.ones([2, 4])
        >>> out, loss = F.adaptive_log_softmax_with_loss(x, paddle.to_tensor([0, 3]),
        ...     paddle.zeros([4, 3]), [[paddle.zeros([4, 2]), paddle.zeros([2, 2])]], [2, 4])
        >>> round(loss.item(), 4)
        1.4452
    """
    api = "paddle.nn.functional.adaptive_log_softmax_with_loss"
    no_low_float_kernel(api[7:], input, arg="input")   # Paddle's CPU matmul
    weights = [(head_weight, "head_weight")] + [
        (w, f"tail_weights[{i}][{j}]") for i, pair in enumerate(tail_weights) for j, w in enumerate(pair)]
    for w, arg in weights:   # Paddle's matmul kernel does not promote
        if isinstance(w, torch.Tensor) and w.dtype != input.dtype:
            raise ValueError(f"{api}: '{arg}' ({dtype_name(w)}) must have the dtype of 'input' "
                             f"({dtype_name(input)})")
    if label.dim() == 1:
        if input.shape[0] != label.shape[0] and label.shape[0] != 0:
            raise ValueError(f"{api}: input and label should have the same size in the batch "
                             f"dimension, but received {list(input.shape)} and {list(label.shape)}")
        if input.dim() != 2:
            raise ValueError(f"{api}: a 1-D label expects a 2-D input, but received an input of "
                             f"shape {list(input.shape)}")
    elif label.dim() == 0:
        if input.dim() != 1:
            raise ValueError(f"{api}: a 0-D label expects a 1-D input, but received an input of "
                             f"shape {list(input.shape)}")
        out, loss = adaptive_log_softmax_with_loss.op_record.kernel(
            input[None], label[None], head_weight, tail_weights, cutoffs, head_bias)
        return out[0], loss
    else:
        raise ValueError(f"{api}: a 0-D or 1-D label is expected (multi-label is not supported), "
                         f"but received a label of shape {list(label.shape)}")
    cutoffs = [int(c) for c in cutoffs]
    shortlist = cutoffs[0]
    lab = label.long()
    if lab.numel() and not torch.compiler.is_compiling() and (
            int(lab.min()) < 0 or int(lab.max()) >= cutoffs[-1]):
        raise ValueError(f"{api}: label values should be in [0, {cutoffs[-1] - 1}], but values in "
                         f"range [{int(lab.min())}, {int(lab.max())}] were found")
    head = input @ head_weight
    if head_bias is not None:
        head = head + head_bias
    head_logp = torch.log_softmax(head, 1)
    out = input.new_zeros(lab.shape[0])
    gather_idx = lab.clone()
    for i in range(len(cutoffs) - 1):
        low, high = cutoffs[i], cutoffs[i + 1]
        mask = (lab >= low) & (lab < high)
        if not bool(mask.any()):
            continue
        rows = mask.nonzero().squeeze(1)
        proj, outw = tail_weights[i]
        clus = torch.log_softmax((input[rows] @ proj) @ outw, 1)
        local = clus.gather(1, (lab[rows] - low)[:, None]).squeeze(1)
        out = out.index_put((rows,), local)
        gather_idx = gather_idx.index_put((rows,), torch.full_like(rows, shortlist + i))
    out = out + head_logp.gather(1, gather_idx[:, None]).squeeze(1)
    return out, (-out).mean()
