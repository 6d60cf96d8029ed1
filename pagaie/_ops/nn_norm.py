"""Normalisation ops: batch, layer, group, instance, local-response and RMS norms.

Paddle's ``momentum`` weights the *old* running statistic:
``running = momentum * running + (1 - momentum) * batch``, and the running
variance takes the biased (divide-by-N) batch variance. Running statistics are
updated in place on the tensors passed in.

Not a top-level family: ``pagaie.nn.functional`` re-exports ``__all__``.
"""
from __future__ import annotations


import inspect
import math
import numbers

import torch
import torch.nn.functional as F

from pagaie._core.registry import defop
from pagaie._ops._helpers import (BF16_F32_F64, F32_F64, FLOAT_OR_COMPLEX, dtype_name,
                                  float_kernel, kernel_dtypes, same_dtype_args, scalar_of)
from pagaie._ops._nn_helpers import float_attr
from pagaie._ops._random_mask import as_scalar

__all__ = ["batch_norm", "instance_norm", "layer_norm", "rms_norm", "group_norm",
           "local_response_norm"]

_F32 = frozenset({torch.float32})
_CHANNEL_LAST = ("NLC", "NHWC", "NDHWC")
_FORMATS = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")


def _check_format(data_format: str, api: str, allowed=_FORMATS) -> bool:
    if data_format not in allowed:
        raise ValueError(f"paddle.{api}: data_format must be one of {', '.join(allowed)}, but "
                         f"received {data_format}")
    return data_format in _CHANNEL_LAST


@defop(program_dtypes={"x": FLOAT_OR_COMPLEX},
       method=False, paddle_types=("batch_norm", "pd_op.batch_norm", "pd_op.batch_norm_"),
       amp_inputs=("x",))
def batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9,
               epsilon=1e-05, data_format="NCHW", use_global_stats=None, name=None):
    """Batch normalisation over every axis but the channel axis.

    With batch statistics (training, unless ``use_global_stats``), the running
    statistics are updated in place: ``running = momentum * running + (1 - momentum) * batch``
    (biased batch variance).

    Args:
        x (Tensor): the input, 2-D to 5-D.
        running_mean (Tensor): the running mean, ``[C]``.
        running_var (Tensor): the running variance, ``[C]``.
        weight (Tensor, optional): the scale, ``[C]``.
        bias (Tensor, optional): the shift, ``[C]``.
        training (bool): use batch statistics (and update the running ones).
        momentum (float): the weight of the old running statistics.
        epsilon (float): added to the variance.
        data_format (str): ``'NC'``, ``'NCL'``, ``'NCHW'``, ``'NCDHW'``, ``'NLC'``, ``'NHWC'``
            or ``'NDHWC'``.
        use_global_stats (bool, optional): force running (True) or batch (False) statistics;
            None follows ``training``.
        name (str, optional): unused.

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0], [3.0]])
        >>> mean, var = paddle.zeros([1]), paddle.ones([1])
        >>> paddle.nn.functional.batch_norm(x, mean, var, training=True).round(3).tolist()
        [[-1.0], [1.0]]
        >>> mean.tolist()
        [0.20000004768371582]
    """
    api = "nn.functional.batch_norm"
    if x.dim() < 2:
        raise AssertionError(f"paddle.{api}: the input must have more than 1 dimension, but "
                             f"received a {x.dim()}-D tensor")
    if x.dim() > 5:
        raise ValueError(f"paddle.{api}: the input must have at most 5 dimensions, but received "
                         f"a {x.dim()}-D tensor of shape {list(x.shape)}")
    last = _check_format(data_format, api)
    if last:
        x = x.movedim(-1, 1)
    c = x.shape[1]
    for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is None:   # Paddle's kernel needs both running statistics
            raise ValueError(f"paddle.{api}: {arg} must be a Tensor, but received None")
    for arg, t in (("running_mean", running_mean), ("running_var", running_var),
                   ("weight", weight), ("bias", bias)):
        if t is None:
            continue
        if arg in ("weight", "bias") and t.dim() != 1:
            raise ValueError(f"paddle.{api}: {arg} must be 1-D, but received shape "
                             f"{list(t.shape)}")
        if t.numel() != c:
            raise ValueError(f"paddle.{api}: {arg} must have one value per channel ({c} "
                             f"channels, data_format={data_format}), but received shape "
                             f"{list(t.shape)}")
    # is_test with batch statistics: Paddle's backward reads the just-updated running statistics
    test_batch_stats = use_global_stats is False and not training
    if use_global_stats is None:
        use_global_stats = not training
    if use_global_stats:   # Paddle's kernel reads global statistics only from 1-D tensors
        for arg, t in (("running_mean", running_mean), ("running_var", running_var)):
            if t.dim() != 1:
                raise ValueError(f"paddle.{api}: {arg} must be 1-D to be used as the global "
                                 f"statistics, but received shape {list(t.shape)}")
    if x.dtype not in F32_F64:
        kernel_dtypes(api, x, F32_F64)   # Paddle's CPU kernel
    weight, bias = _affine_grads_in_pairs(weight, bias)
    # Paddle's momentum and epsilon attributes are float32s
    m = as_scalar(float(scalar_of(momentum)), torch.float32)
    epsilon = as_scalar(float(epsilon), torch.float32)
    try:
        if epsilon <= 0 and x.numel() != 0 and (use_global_stats or x.numel() != c):
            # torch refuses a negative epsilon and makes 1/sqrt(0) a 0 for a zero one: the same
            # arithmetic by hand (NaN where var + eps <= 0, as in Paddle)
            out = _batch_norm_by_hand(x, running_mean, running_var, weight, bias,
                                      bool(use_global_stats), m, epsilon)
        elif x.numel() == 0:
            # an empty batch: an empty result, running statistics left alone (as in Paddle)
            out = x.clone()
            for t in (weight, bias):
                if t is not None and t.requires_grad:
                    out = out + 0 * t.reshape([1, -1] + [1] * (x.dim() - 2))
        elif use_global_stats:
            out = F.batch_norm(x, running_mean.detach().reshape(-1), running_var.detach().reshape(-1),
                               weight, bias, False, 0.0, epsilon)
        elif x.numel() == x.shape[1]:
            # one value per channel: Paddle passes the input through unchanged (the scale and shift
            # get zero gradients) and leaves the running statistics alone
            out = x.clone()
            for t in (weight, bias):
                if t is not None and t.requires_grad:
                    out = out + 0 * t.reshape([1, -1] + [1] * (x.dim() - 2))
        else:
            # One pass: the kernel also returns the batch mean and 1/sqrt(biased var + eps),
            # from which Paddle's running statistics (biased variance) follow.
            out, mean, invstd = torch.native_batch_norm(x, weight, bias, None, None, True, 0.0, epsilon)
            with torch.no_grad():
                var = invstd.double().pow(-2).sub_(epsilon)
                _update_running(running_mean, running_var, mean, var, m)
            if test_batch_stats and out.requires_grad:
                stats = [t.detach().reshape(-1).to(x.dtype) for t in (running_mean, running_var)]
                g = F.batch_norm(x, *stats, weight, bias, False, 0.0, epsilon)
                out = out.detach() + (g - g.detach())
    except RuntimeError:   # torch's refusal of mixed dtypes, in Paddle's words
        stats = {"running_mean": running_mean, "running_var": running_var} if use_global_stats else {}
        same_dtype_args(api, x, weight=weight, bias=bias, **stats)
        raise
    return out.movedim(1, -1) if last else out


def _affine_grads_in_pairs(weight, bias):
    """Paddle's batch and instance norm kernels give the scale and shift gradients only when
    both need one: with one of them None or not requiring a gradient (a frozen scale, say),
    the other gets no gradient either."""
    if weight is None or bias is None or weight.requires_grad != bias.requires_grad:
        return (None if weight is None else weight.detach(),
                None if bias is None else bias.detach())
    return weight, bias


def _update_running(running_mean, running_var, mean, var, m) -> None:
    # the statistics may have any shape with one value per channel ([C], [C, 1], ...)
    for stat, batch in ((running_mean, mean), (running_var, var)):
        flat = stat.view(-1) if stat.is_contiguous() else stat.reshape(-1).clone()
        flat.mul_(m).add_(batch.to(stat.dtype), alpha=1 - m)
        if not stat.is_contiguous():
            stat.copy_(flat.reshape(stat.shape))


def _batch_norm_by_hand(x, running_mean, running_var, weight, bias, use_global_stats, m, eps):
    # Paddle's form: y = x * scale + (bias - mean * scale), scale = weight / sqrt(var + eps)
    shape = [1, -1] + [1] * (x.dim() - 2)
    if use_global_stats:
        mean, var = running_mean.detach().reshape(-1), running_var.detach().reshape(-1)
    else:
        var, mean = torch.var_mean(x, [0] + list(range(2, x.dim())), correction=0)
        with torch.no_grad():
            _update_running(running_mean, running_var, mean, var, m)
    scale = torch.rsqrt(var + eps)
    if weight is not None:
        scale = scale * weight
    shift = -mean * scale
    if bias is not None:
        shift = shift + bias
    return x * scale.reshape(shape) + shift.reshape(shape)


def _channel_affine(out, weight, bias):
    """``out * weight + bias`` with both (either may be None) over the channels of axis 1."""
    shape = [1, -1] + [1] * (out.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    return out if bias is None else out + bias.reshape(shape)


@defop(amp="black", method=False, paddle_types=("instance_norm", "pd_op.instance_norm"))
def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW", name=None):
    """Instance normalisation: each sample and channel normalised over its spatial axes.

    Args:
        x (Tensor): the input, 2-D to 5-D.
        running_mean (Tensor, optional): obsolete and ignored, as in Paddle.
        running_var (Tensor, optional): obsolete and ignored, as in Paddle.
        weight (Tensor, optional): the scale, ``[C]``.
        bias (Tensor, optional): the shift, ``[C]``.
        use_input_stats (bool): obsolete and ignored: like Paddle, the statistics of the
            input itself are always used.
        momentum (float): unused (kept for compatibility).
        eps (float): added to the variance.
        data_format (str): unused: like Paddle's dynamic mode, channels are taken from axis 1
            whatever the format.
        name (str, optional): unused.

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[1.0, 3.0]]])
        >>> paddle.nn.functional.instance_norm(x, data_format='NCL').round(3).tolist()
        [[[-1.0, 1.0]]]
    """
    # Paddle's dygraph kernel reads neither data_format (channels are on axis 1 whatever it
    # says, and it is not validated) nor running_mean / running_var / use_input_stats.
    if not 2 <= x.dim() <= 5:
        raise ValueError(f"paddle.nn.functional.instance_norm: the input must be 2-D to 5-D, but "
                         f"received a {x.dim()}-D tensor of shape {list(x.shape)}")
    if x.dtype not in F32_F64:
        kernel_dtypes("nn.functional.instance_norm", x, F32_F64)   # Paddle's CPU kernel
    weight, bias = _affine_grads_in_pairs(weight, bias)
    if x.dim() <= 2 or math.prod(x.shape[2:]) == 1 or x.numel() == 0:
        # one spatial element: the centred input is 0, so only the shift remains
        return _channel_affine((x - x.detach()) * 0 if x.requires_grad else torch.zeros_like(x),
                               weight, bias)
    eps = as_scalar(float(eps), torch.float32)   # Paddle's epsilon attribute is a float32
    if eps <= 0:
        # torch refuses a negative epsilon and makes 1/sqrt(0) a 0 for a zero one: the same
        # arithmetic by hand (NaN where var + eps <= 0, as in Paddle)
        same_dtype_args("nn.functional.instance_norm", x, weight=weight, bias=bias)
        var, mean = torch.var_mean(x, list(range(2, x.dim())), correction=0, keepdim=True)
        return _channel_affine((x - mean) * torch.rsqrt(var + eps), weight, bias)
    try:
        return F.instance_norm(x, None, None, weight, bias, True, 0.0, eps)
    except RuntimeError:   # torch's refusal of mixed dtypes, in Paddle's words
        same_dtype_args("nn.functional.instance_norm", x, weight=weight, bias=bias)
        raise


def _shape_list(normalized_shape) -> list[int]:
    if isinstance(normalized_shape, torch.Tensor):
        return [int(v) for v in normalized_shape.reshape(-1).tolist()]
    if isinstance(normalized_shape, (list, tuple)):
        return [int(v) for v in normalized_shape]
    return [int(normalized_shape)]


def _layer_norm_static_shape(x, normalized_shape, *args, **kwargs) -> list[int] | None:
    """Static rule: x's shape, where Paddle lets an unknown (-1) size of x stand for any size of
    ``normalized_shape`` (None, declining, when a known size differs)."""
    dims = x._known_dims() if hasattr(x, "_known_dims") else list(x.shape)
    try:
        shape = _shape_list(normalized_shape)
    except Exception:  # noqa: BLE001 - the kernel's own check reports it
        return None
    if not 0 < len(shape) < len(dims) or any(
            d not in (-1, s) for d, s in zip(dims[len(dims) - len(shape):], shape)):
        return None
    return dims


@defop(amp="black", method=False, paddle_types=("layer_norm", "pd_op.layer_norm"), amp_inputs=("x",),
       static_shape=_layer_norm_static_shape)
def layer_norm(x, normalized_shape, weight=None, bias=None, epsilon=1e-05, name=None):
    """Layer normalisation over the trailing ``normalized_shape`` axes.

    Args:
        x (Tensor): the input.
        normalized_shape (int|list): the trailing shape to normalise over.
        weight (Tensor, optional): the scale, 1-D with ``prod(normalized_shape)`` elements.
        bias (Tensor, optional): the shift, like ``weight``.
        epsilon (float): added to the variance.
        name (str, optional): unused.

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 3.0]])
        >>> paddle.nn.functional.layer_norm(x, 2).round(3).tolist()
        [[-1.0, 1.0]]
    """
    api = "paddle.nn.functional.layer_norm"
    # as Paddle: an int or a list/tuple of ints (a Tensor is refused)
    if isinstance(normalized_shape, numbers.Integral) and not isinstance(normalized_shape, bool):
        shape = [int(normalized_shape)]
    elif isinstance(normalized_shape, (list, tuple)):
        shape = [int(v) for v in normalized_shape]
    else:
        raise ValueError(f"{api}: normalized_shape should be an int, a list of ints or a tuple "
                         f"of ints, but received {type(normalized_shape).__name__}")
    begin = x.dim() - len(shape)
    if begin < 0 or list(x.shape[begin:]) != shape:
        raise ValueError(f"{api}: normalized_shape {shape} does not "
                         f"match the trailing dimensions of the input of shape {list(x.shape)}")
    if begin == 0:
        raise ValueError(f"{api}: normalized_shape {shape} covers every axis of the input of "
                         f"shape {list(x.shape)}; at least the first axis must be left out")
    if not shape:
        raise ValueError(f"{api}: normalized_shape must not be empty (received [] for an input "
                         f"of shape {list(x.shape)})")
    if type(epsilon) is not float and type(epsilon) is not int:   # Paddle's double attribute
        epsilon = float_attr(epsilon, "layer_norm", "epsilon")
    if not 0.0 <= as_scalar(float(epsilon), torch.float32) <= as_scalar(0.001, torch.float32):
        raise ValueError(f"{api}: epsilon should be between 0.0 and 0.001, but received "
                         f"{epsilon}")
    for arg, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.dim() != 1:
            raise ValueError(f"paddle.nn.functional.layer_norm: the dimensions of '{arg}' must be "
                             f"1, but received {t.dim()} (shape {list(t.shape)})")
    float_kernel(api, x)
    # Paddle's CPU kernel (its static API's check also passes bfloat16)
    if x.dtype not in F32_F64:
        kernel_dtypes("nn.functional.layer_norm", x, F32_F64, static=BF16_F32_F64)
    w = None if weight is None else weight.reshape(shape)
    b = None if bias is None else bias.reshape(shape)
    try:
        return F.layer_norm(x, shape, w, b, epsilon)
    except RuntimeError:   # torch's refusal of mixed dtypes, in Paddle's words
        same_dtype_args("nn.functional.layer_norm", x, weight=weight, bias=bias)
        raise


@defop(amp="black", method=False, paddle_types=("rms_norm", "pd_op.rms_norm"))
def rms_norm(input, normalized_shape, weight=None, eps=1e-05, name=None):
    """Root-mean-square normalisation: ``x / sqrt(mean(x ** 2) + eps) * weight`` over the
    trailing ``normalized_shape`` axes.

    Args:
        input (Tensor): the input.
        normalized_shape (int|list): the trailing shape to normalise over.
        weight (Tensor, optional): the scale, of shape ``normalized_shape``.
        eps (float): added to the mean square.
        name (str, optional): unused.

    Returns:
        tuple: ``(out, invvar)``, as Paddle's: the normalised input, and the inverse root mean
        square of each normalised slice (shape ``input.shape[:-len(normalized_shape)]``,
        float32 for float16/bfloat16/float32 inputs, float64 for float64).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[3.0, 4.0]])
        >>> out, invvar = paddle.nn.functional.rms_norm(x, [2], eps=0.0)
        >>> [round(v, 3) for v in out.tolist()[0]], invvar.shape
        ([0.849, 1.131], paddle.Size([1]))
    """
    shape = _shape_list(normalized_shape)
    w = None if weight is None else weight.reshape(shape)
    out = F.rms_norm(input, shape, w, eps)
    # the saved statistic Paddle also returns; it carries no gradient
    acc = torch.float64 if input.dtype == torch.float64 else torch.float32
    dims = tuple(range(input.dim() - len(shape), input.dim()))
    with torch.no_grad():
        invvar = torch.rsqrt(input.to(acc).square().mean(dims) + eps) if dims else \
            torch.rsqrt(input.to(acc).square() + eps)
    return out, invvar


@defop("group_norm", amp="black", method=False, paddle_types=("group_norm", "pd_op.group_norm"))
def _group_norm(x, num_groups, epsilon=1e-05, weight=None, bias=None, data_format="NCHW",
                name=None):
    """Group normalisation: channels split into ``num_groups`` groups, each normalised.

    Args:
        x (Tensor): the input, ``[N, C, *]`` (or channels last).
        num_groups (int): the number of groups; must divide ``C``.
        epsilon (float): added to the variance.
        weight (Tensor, optional): the scale, ``[C]``.
        bias (Tensor, optional): the shift, ``[C]``.
        data_format (str): ``'NCL'``, ``'NCHW'``, ``'NCDHW'`` or their channel-last forms.
        name (str, optional): unused.

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[1.0], [3.0]]])
        >>> paddle.nn.functional.group_norm(x, 1, data_format='NCL').round(3).tolist()
        [[[-1.0], [1.0]]]
    """
    api = "nn.functional.group_norm"
    # like Paddle, the format is checked first, and 'NC' is not one
    last = _check_format(data_format, api, ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"))
    if x.dim() < 2:
        raise ValueError(f"paddle.{api}: the input must have more than 1 dimension, but received "
                         f"a {x.dim()}-D tensor")
    if last:
        x = x.movedim(-1, 1)
    c = x.shape[1]
    if not isinstance(num_groups, (numbers.Integral, torch.Tensor)):   # Paddle's int attribute
        raise TypeError(f"paddle.{api}: 'num_groups' must be an int, but received "
                        f"{type(num_groups).__name__} {num_groups!r}")
    if num_groups <= 0 or c % num_groups:
        raise ValueError(f"paddle.{api}: the number of channels ({c}) must be divisible by "
                         f"num_groups ({num_groups})")
    key = bias if bias is not None else weight
    if key is not None and key.dtype is not x.dtype:
        # Paddle's kernel runs in the dtype of its last tensor argument: one without a CPU
        # kernel is its NotFound, an input of another dtype its InvalidArgument
        if key.dtype not in F32_F64:
            kernel_dtypes(api, key, F32_F64, "bias" if bias is not None else "weight")
        same_dtype_args(api, x, weight=weight, bias=bias)
    if x.dtype not in F32_F64:
        kernel_dtypes(api, x, F32_F64)   # Paddle's CPU kernel
    try:
        if weight is None and x.requires_grad:
            out = _GroupNormNoScale.apply(x, int(num_groups), bias, float(epsilon))
        else:
            out = F.group_norm(x, num_groups, weight, bias, epsilon)
    except RuntimeError:   # torch's refusal of mixed dtypes, in Paddle's words
        same_dtype_args(api, x, weight=weight, bias=bias)
        raise
    return out.movedim(1, -1) if last else out


class _GroupNormNoScale(torch.autograd.Function):
    """Group norm without a scale, with the gradient of Paddle's CPU kernel: lacking a scale
    it leaves out the mean of the output gradient, ``dx = (dy - mean(dy * xhat) * xhat) /
    std`` per group (the bias, if any, gets the summed output gradient)."""

    @staticmethod
    def forward(ctx, x, groups, bias, eps):  # type: ignore[override]
        ctx.groups, ctx.eps = groups, eps
        ctx.save_for_backward(x)
        return F.group_norm(x, groups, None, bias, eps)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (x,) = ctx.saved_tensors
        n = x.shape[0]
        xg = x.reshape(n, ctx.groups, -1)
        var, mean = torch.var_mean(xg, -1, correction=0, keepdim=True)
        inv = torch.rsqrt(var + ctx.eps)
        xhat = (xg - mean) * inv
        gg = g.reshape(n, ctx.groups, -1)
        dx = (gg - (gg * xhat).mean(-1, keepdim=True) * xhat) * inv
        dbias = g.sum([d for d in range(g.dim()) if d != 1]) if ctx.needs_input_grad[2] else None
        return dx.reshape(x.shape), None, dbias, None


def group_norm(*args, **kwargs):
    # Paddle also takes torch's order, group_norm(x, num_groups, weight, bias, eps): a third
    # positional argument that is not a float starts weight, bias, epsilon; 'input' and
    # 'eps' name x and epsilon
    def put(key, value):
        if key in kwargs:
            raise TypeError(f"paddle.nn.functional.group_norm: got multiple values for argument "
                            f"'{key}'")
        kwargs[key] = value
    if "input" in kwargs:
        put("x", kwargs.pop("input"))
    if "eps" in kwargs:
        put("epsilon", kwargs.pop("eps"))
    if len(args) >= 3 and not isinstance(args[2], float):
        for key, value in zip(("weight", "bias", "epsilon"), args[2:5]):
            put(key, value)
        args = args[:2] + args[5:]
    return _group_norm(*args, **kwargs)


group_norm.__signature__ = inspect.signature(_group_norm)
group_norm.__doc__, group_norm.__name__ = _group_norm.__doc__, "group_norm"
group_norm.op_record = getattr(_group_norm, "op_record", None)
group_norm.accepts_aliases = getattr(_group_norm, "accepts_aliases", ())


def _lrn_static_check(x, *args, **kwargs) -> None:
    """Paddle's static local_response_norm wants every size but the first known (ValueError)."""
    dims = x._known_dims() if hasattr(x, "_known_dims") else []
    if -1 in dims[1:]:
        raise ValueError(f"paddle.nn.functional.local_response_norm: Expected every dim's size to "
                         f"be larger than 0, but the size of the {dims.index(-1, 1)}-th dim is -1 "
                         f"(a static program needs every size of 'x' but the first, got {dims})")


@defop(amp="black", method=False, paddle_types=("lrn", "pd_op.lrn"), static_check=_lrn_static_check)
def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
    """Local response normalisation across channels:
    ``x / (k + alpha / size * sum of x ** 2 over size neighbouring channels) ** beta``.

    Args:
        x (Tensor): the input, 3-D to 5-D.
        size (int): the number of neighbouring channels summed.
        alpha (float): the scale.
        beta (float): the exponent.
        k (float): the additive constant.
        data_format (str): ``'NCL'``, ``'NCHW'``, ``'NCDHW'`` or their channel-last forms.
        name (str, optional): unused.

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.local_response_norm(paddle.ones([1, 3, 2, 2]), 3).shape
        paddle.Size([1, 3, 2, 2])
    """
    api = "nn.functional.local_response_norm"
    if x.dim() < 3:
        raise ValueError(f"paddle.{api}: the input must be 3-D or more, but received a "
                         f"{x.dim()}-D tensor")
    last = _check_format(data_format, api, ("NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"))
    if 0 in x.shape[1:]:   # Paddle checks every axis but the first
        raise ValueError(f"paddle.{api}: Expected every dim's size to be larger than 0, but the "
                         f"size of the {list(x.shape[1:]).index(0) + 1}-th dim is 0")
    if not isinstance(size, numbers.Integral) or isinstance(size, bool):   # Paddle's pooling op
        shown = (f"Tensor(shape={list(size.shape)}, dtype={dtype_name(size)})"
                 if isinstance(size, torch.Tensor) else f"{type(size).__name__} {size!r}")
        raise TypeError(f"paddle.{api}: 'size' must be an int, but received {shown}")
    float_kernel(f"paddle.{api}", x)   # Paddle's pooling kernels
    # float32/float64 on the CPU; its static API takes float32 only (float16 fails its multiply)
    kernel_dtypes(api, x, F32_F64, static=_F32)
    if last:
        x = x.movedim(-1, 1)
    # Paddle raises to beta with its pow op, whose exponent is a float32 attribute
    out = F.local_response_norm(x, size, alpha, as_scalar(float(beta), torch.float32), k)
    return out.movedim(1, -1) if last else out




@defop(amp="black", method=False, paddle_types=("spectral_norm", "pd_op.spectral_norm"))
def spectral_norm(weight, weight_u, weight_v, dim=0, power_iters=1, eps=1e-12, name=None):
    """``weight / sigma``: ``sigma`` is the largest singular value of ``weight`` seen as a
    ``[shape[dim], -1]`` matrix, estimated by ``power_iters`` power-iteration steps from
    ``weight_u`` / ``weight_v`` (which are left unchanged). Used by ``paddle.nn.SpectralNorm``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.nn_norm import spectral_norm
        >>> w = paddle.to_tensor([[2.0, 0.0], [0.0, 1.0]])
        >>> spectral_norm(w, paddle.ones([2]), paddle.ones([2]), power_iters=20).round(3).tolist()
        [[1.0, 0.0], [0.0, 0.5]]
    """
    api = "paddle.nn.SpectralNorm"
    if weight.dtype not in F32_F64:   # Paddle selects the kernel before it checks the shapes
        kernel_dtypes("nn.SpectralNorm", weight, F32_F64, "weight")   # Paddle's CPU kernel
    if weight.dim() < 2:
        raise ValueError(f"{api}: the weight must be at least 2-D, but received a "
                         f"{weight.dim()}-D tensor of shape {list(weight.shape)}")
    if dim not in (0, 1):
        raise ValueError(f"{api}: dim can only be 0 or 1, but received {dim}")
    if power_iters < 0:
        raise ValueError(f"{api}: power_iters should be >= 0, but received {power_iters}")
    mat = weight.movedim(dim, 0).reshape(weight.shape[dim], -1)
    h, w = mat.shape
    if weight_u.numel() != h:
        raise ValueError(f"{api}: Input(U) dimension[0] should be equal to Input(Weight) "
                         f"dimension[Attr(dim)], but received U dimension[0]({weight_u.numel()}) "
                         f"!= Weight dimension[{dim}]({h})")
    if weight_v.numel() != w:
        raise ValueError(f"{api}: Input(V) dimension[0] should be equal to the product of "
                         f"Input(Weight) dimension except dimension[Attr(dim)], but received V "
                         f"dimension[0]({weight_v.numel()}) != product of Input(Weight) dimension({w})")
    with torch.no_grad():
        u, v = weight_u, weight_v
        for _ in range(power_iters):
            v = mat.t() @ u
            v = v / (v.norm() + eps)
            u = mat @ v
            u = u / (u.norm() + eps)
    out = _SpectralNormDivide.apply(mat, u, v)
    return out.reshape([h] + [d for i, d in enumerate(weight.shape) if i != dim]).movedim(0, dim)


class _SpectralNormDivide(torch.autograd.Function):
    """``mat / sigma`` (``sigma = u^T mat v``) with the gradient of Paddle's
    ``spectral_norm_grad`` kernel, ``g * (1 - u v^T * sum(mat / sigma)) / sigma``: an
    element-wise form, not the derivative of the forward."""

    @staticmethod
    def forward(ctx, mat, u, v):  # type: ignore[override]
        sigma = u @ mat @ v
        out = mat / sigma
        ctx.save_for_backward(out, u, v, sigma)
        return out

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        out, u, v, sigma = ctx.saved_tensors
        return g * (1 - torch.outer(u, v) * out.sum()) / sigma, None, None
