"""Convolutions: ``paddle.nn.functional.conv{1,2,3}d`` and their transposes.

Weights follow Paddle's layouts: ``[out_channels, in_channels / groups, *kernel]``
for a convolution and ``[in_channels, out_channels / groups, *kernel]`` for a
transposed one (both equal to torch's). Asymmetric and ``'SAME'`` paddings are
applied explicitly; ``'SAME'`` resets the dilation to 1, as Paddle does.

Not a top-level family: ``pagaie.nn.functional`` re-exports ``__all__``.
"""
from __future__ import annotations

import numbers

import torch
import torch.nn.functional as F

from pagaie._core.registry import defop
from pagaie._core.registry import NoKernelError
from pagaie._ops._helpers import BF16_F32_F64, F32_F64, kernel_dtypes, same_dtype_args
from pagaie._ops._nn_helpers import (channel_last, conv_padding, ntuple, pad_input, same_pads,
                                     to_first, to_last)

__all__ = ["conv1d", "conv2d", "conv3d", "conv1d_transpose", "conv2d_transpose",
           "conv3d_transpose"]

_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _check_float(x: torch.Tensor, api: str, n: int) -> None:
    if not x.is_floating_point():  # Paddle has no conv kernel for it: NotFound, a RuntimeError
        raise NoKernelError(f"paddle.{api}: the input dtype must be float16, bfloat16, float32 or "
                           f"float64, but received {str(x.dtype).replace('torch.', '')}")
    # Paddle's CPU kernels: float32/float64 (a program's 1-D/2-D ones also pass bfloat16)
    if x.dtype not in F32_F64:
        kernel_dtypes(api, x, F32_F64, static=None if n == 3 else BF16_F32_F64)


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _tensor_refused(api: str, name: str) -> None:
    from pagaie.utils.layers_utils import NotSupportedTensorArgumentError  # a TypeError
    raise NotSupportedTensorArgumentError(f"paddle.{api}: '{name}' must be an int or a list of "
                                          f"ints, but received a Tensor", name)


def _int_arg(value, n: int, api: str, name: str) -> list[int]:
    """``stride`` / ``dilation`` / ``output_padding`` as ``n`` ints, refused as Paddle does: a
    tensor is a TypeError, a float or None a ValueError, a list of another length a ValueError,
    a float element a TypeError."""
    if isinstance(value, torch.Tensor) or (isinstance(value, (list, tuple)) and any(
            isinstance(v, torch.Tensor) for v in value)):
        _tensor_refused(api, name)
    if _is_int(value):
        return [int(value)] * n
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"paddle.{api}: '{name}' must be an int or a list/tuple of {n} ints, "
                         f"but received {value!r}")
    if len(value) != n:
        raise ValueError(f"paddle.{api}: '{name}' must have {n} values, but received {value!r}")
    for v in value:
        if not _is_int(v):
            raise TypeError(f"paddle.{api}: '{name}' must hold ints, but received {value!r}")
    return [int(v) for v in value]


def _check_padding(padding, n: int, api: str) -> None:
    """Paddle's checks of a convolution's padding (strings are checked by ``conv_padding``):
    the list forms are ``n`` or ``2n`` ints or ``n + 2`` pairs (a single int in a list is for
    ``conv1d`` only), no value is negative; a tensor is a TypeError."""
    if isinstance(padding, str):
        return
    if isinstance(padding, bool):
        raise TypeError(f"paddle.{api}: padding must be an int, a list of ints or a string, "
                        f"but received {padding!r}")
    if isinstance(padding, torch.Tensor):
        _tensor_refused(api, "padding")
    if _is_int(padding):
        values = [padding]
    elif isinstance(padding, (list, tuple)):
        if len(padding) == n + 2 and isinstance(padding[0], (list, tuple)):
            values = [v for pair in padding for v in pair]
        elif len(padding) in (n, 2 * n) and _is_int(padding[0]):
            values = list(padding)
        else:
            raise ValueError(f"paddle.{api}: padding should be an int, a list of {n} or {2 * n} "
                             f"ints, or {n + 2} pairs, but received {list(padding)}")
        if not all(_is_int(v) for v in values):
            raise TypeError(f"paddle.{api}: padding must hold ints, but received {padding!r}")
    else:
        raise ValueError(f"paddle.{api}: padding must be an int, a list/tuple or 'SAME'/'VALID', "
                         f"but received {padding!r}")
    if any(v < 0 for v in values):
        raise ValueError(f"paddle.{api}: padding must not be negative, but received {padding!r}")


def _groups(groups, api: str) -> int:
    """``groups`` as an int: a 0-D Tensor is read as its value (as Paddle's kernels take it)."""
    if isinstance(groups, torch.Tensor) and not groups.is_meta:
        if groups.dim() != 0:
            raise ValueError(f"paddle.{api}: a Tensor 'groups' must be 0-D, but received shape "
                             f"{list(groups.shape)}")
        groups = int(groups.item())
    if not _is_int(groups):
        raise TypeError(f"paddle.{api}: 'groups' must be an int, but received {groups!r}")
    return int(groups)


def _split_bias(bias, channels: int, dtype, api: str):
    """(bias for torch's kernel, bias to add afterwards). Paddle adds the bias reshaped to the
    channel axis, so a one-element or 0-D bias broadcasts and another dtype promotes."""
    if bias is None:
        return None, None
    if bias.dim() == 1 and bias.shape[0] == channels and bias.dtype == dtype:
        return bias, None
    if bias.dim() > 1 or bias.numel() not in (1, channels):
        raise ValueError(f"paddle.{api}: the bias must be 0-D or 1-D with 1 or {channels} "
                         f"(output channels) elements, but received shape {list(bias.shape)}")
    return None, bias


def _add_bias(out, bias):
    """``out`` (channels first) plus a bias that broadcasts along the channel axis."""
    if bias is None:
        return out
    return out + bias.reshape([1, -1] + [1] * (out.dim() - 2))


def _link(*tensors) -> torch.Tensor:
    """A zero that keeps the (non-None) ``tensors`` in the autograd graph of an empty result, so
    each gets a zero gradient as in Paddle."""
    return sum(t.flatten()[:0].sum() for t in tensors if t is not None)


def _check_ranks(api: str, n: int, x, weight) -> None:
    """An n-D convolution's input and filter are both (n + 2)-D (ValueError otherwise)."""
    for arg, what, t in (("x", "input", x), ("weight", "filter", weight)):
        if t.dim() != n + 2:
            raise ValueError(f"paddle.{api}: the {what} '{arg}' must be a {n + 2}-D tensor, but "
                             f"received a {t.dim()}-D tensor of shape {list(t.shape)}")


def _conv(api: str, n: int, x, weight, bias, stride, padding, dilation, groups, data_format):
    last = channel_last(data_format, n, api)
    _check_padding(padding, n, api)
    _check_ranks(api, n, x, weight)
    _check_float(x, api, n)
    if weight.dtype is not x.dtype:   # Paddle's kernel reads the filter in x's dtype
        same_dtype_args(api, x, weight=weight)
    groups = _groups(groups, api)
    if last:
        x = to_first(x)
    if x.shape[1] != weight.shape[1] * groups:
        raise ValueError(f"paddle.{api}: the number of input channels ({x.shape[1]}) should equal "
                         f"the filter's channels ({weight.shape[1]}) * groups ({groups}); the "
                         f"filter's shape is {list(weight.shape)}, data_format is {data_format}")
    if groups > 0 and weight.shape[0] % groups:   # (torch's shape inference does not check)
        raise ValueError(f"paddle.{api}: the number of filters must be divisible by groups, but "
                         f"received {weight.shape[0]} filters (the filter's shape is "
                         f"{list(weight.shape)}) and groups {groups}")
    stride = _int_arg(stride, n, api, "stride")
    if min(stride) <= 0:
        raise ValueError(f"paddle.{api}: the stride should be larger than 0, but received "
                         f"stride {list(stride)}")
    dilation = _int_arg(dilation, n, api, "dilation")
    mode, pad = conv_padding(padding, n, last, api)
    if mode == "SAME":
        pairs = same_pads(list(x.shape[2:]), list(weight.shape[2:]), stride)
        dilation = [1] * n
        if all(a == b for a, b in pairs):
            mode, pad = "sym", [a for a, _ in pairs]
        else:
            mode, pad = "asym", pairs
    elif mode == "VALID":
        pad = [0] * n
    if min(dilation) <= 0:
        raise ValueError(f"paddle.{api}: the dilation should be larger than 0, but received "
                         f"dilation {list(dilation)}")
    if mode == "asym":
        x = pad_input(x, pad)
        pad = [0] * n
    padded = [i + 2 * p for i, p in zip(x.shape[2:], pad)]
    reach = [d * (k - 1) + 1 for d, k in zip(dilation, weight.shape[2:])]
    # Paddle sizes the output as C divides (toward zero): a kernel exactly one stride short
    # of fitting gives an empty map there, one less than a stride short a single window
    sizes = [int((i - r) / s) + 1 for i, r, s in zip(padded, reach, stride)]
    if min(sizes) < 0:
        # Paddle fails to allocate the result (or, in some float32 paths, returns a map of
        # negative shape): said plainly here
        raise ValueError(f"paddle.{api}: the (dilated) kernel size {reach} must not exceed the "
                         f"padded input size {padded} by a stride or more; the input's shape is "
                         f"{list(x.shape)} and the filter's shape is {list(weight.shape)}")
    if min(sizes) == 0 or 0 in weight.shape[2:]:
        # An empty output, or an empty kernel: each window then sums nothing, so the output is
        # the bias alone, over the (i + 2p - d*(k-1) - 1) / s + 1 windows Paddle counts
        bias, late_bias = _split_bias(bias, weight.shape[0], x.dtype, api)
        out = x.new_zeros([x.shape[0], weight.shape[0]] + sizes) + _link(x, weight)
        out = _add_bias(out, late_bias if bias is None else bias)
        return to_last(out) if last else out
    # A kernel less than a stride short of fitting still gives an output there, over the
    # part of the window that exists (Paddle's im2col reads zeros past the end)
    short = [max((o - 1) * s + r - i, 0) for o, s, r, i in zip(sizes, stride, reach, padded)]
    if any(short):
        x = pad_input(x, [(p, p + e) for p, e in zip(pad, short)])
        pad = [0] * n
    bias, late_bias = _split_bias(bias, weight.shape[0], x.dtype, api)
    out = _add_bias(_CONV[n](x, weight, bias, stride, pad, dilation, groups), late_bias)
    return to_last(out) if last else out


def _conv_t(api: str, n: int, x, weight, bias, stride, padding, output_padding, dilation, groups,
            output_size, data_format):
    last = channel_last(data_format, n, api)
    _check_padding(padding, n, api)
    _check_ranks(api, n, x, weight)
    _check_float(x, api, n)
    if weight.dtype is not x.dtype:   # Paddle's kernel reads the filter in x's dtype
        same_dtype_args(api, x, weight=weight)
    groups = _groups(groups, api)
    if last:
        x = to_first(x)
    if x.shape[1] != weight.shape[0]:
        raise ValueError(f"paddle.{api}: the number of input channels ({x.shape[1]}) should equal "
                         f"the filter's first dimension; the filter's shape is "
                         f"{list(weight.shape)}, data_format is {data_format}")
    if groups == 0:
        raise ValueError(f"paddle.{api}: groups should not be zero")
    if groups > 0 and x.shape[1] % groups:   # (torch's shape inference does not check)
        raise ValueError(f"paddle.{api}: the number of input channels must be divisible by "
                         f"groups, but received {x.shape[1]} channels and groups {groups}")
    stride = _int_arg(stride, n, api, "stride")
    dilation = _int_arg(dilation, n, api, "dilation")
    if min(dilation) < 0:
        raise ValueError(f"paddle.{api}: the dilation must not be negative, but received "
                         f"dilation {dilation}")
    kernel = list(weight.shape[2:])
    sizes = list(x.shape[2:])
    mode, pad = conv_padding(padding, n, last, api)
    if mode == "SAME":
        pairs = same_pads(sizes, kernel, stride)
        dilation = [1] * n
    elif mode == "VALID":
        pairs = [(0, 0)] * n
    elif mode == "sym":
        pairs = [(p, p) for p in pad]
    else:
        pairs = pad
    for dim in [d for d, v in enumerate(dilation) if v == 0]:
        # every tap of a zero-dilated kernel lands on the same output: one summed tap
        weight = weight.sum(dim=2 + dim, keepdim=True)
        kernel[dim], dilation[dim] = 1, 1
    out_pad = _int_arg(output_padding, n, api, "output_padding")
    if output_size is not None:
        if any(out_pad):
            raise ValueError("output_padding option is mutually exclusive with output_size")
        want = ntuple(output_size, n, api, "output_size")
        infer = [(i - 1) * s - a - b + d * (k - 1) + 1
                 for i, s, (a, b), d, k in zip(sizes, stride, pairs, dilation, kernel)]
        for dim, (w, f, s) in enumerate(zip(want, infer, stride)):
            if w < f:
                raise ValueError(f"paddle.{api}: output_size should not be less than the inferred "
                                 f"output size, but received output_size = {want}, whose dim {dim} "
                                 f"is less than the inferred output size {f}")
            if w >= f + s:
                raise ValueError(f"paddle.{api}: output_size should be less than the inferred size "
                                 f"+ stride, but received output_size = {want}, whose dim {dim} is "
                                 f"not less than the inferred output size ({f}) + stride ({s})")
        out_pad = [w - f for w, f in zip(want, infer)]
    else:
        for dim, (o, s, d) in enumerate(zip(out_pad, stride, dilation)):
            if o >= max(s, d):
                raise ValueError(f"paddle.{api}: output_padding should be less than either stride "
                                 f"or dilation, but received output_padding = {out_pad}, whose dim "
                                 f"{dim} is not less than either stride ({s}) or dilation ({d})")
            if o >= s:
                # Paddle's kernel then takes it as an output size past the stride's reach
                raise ValueError(f"paddle.{api}: output_padding must be less than the stride, but "
                                 f"received output_padding = {out_pad}, whose dim {dim} is not "
                                 f"less than the stride ({s})")
    size_out = [(i - 1) * s - a - b + d * (k - 1) + 1 + o
                for i, s, (a, b), d, k, o in zip(sizes, stride, pairs, dilation, kernel, out_pad)]
    if min(size_out) < 0:
        raise RuntimeError(f"paddle.{api}: the output size {size_out} is negative: the padding "
                           f"{padding} is too large for the input's spatial size {sizes}")
    if min(size_out) > 0 and 0 in kernel:
        # an empty kernel scatters nothing: the output is the bias alone
        bias, late_bias = _split_bias(bias, weight.shape[1] * groups, x.dtype, api)
        out = x.new_zeros([x.shape[0], weight.shape[1] * groups] + size_out) + _link(x, weight)
        out = _add_bias(out, late_bias if bias is None else bias)
        return to_last(out) if last else out
    if min(size_out) == 0:
        if last:
            # Paddle's channel-last kernel cannot lay out an empty output (its InvalidArgument);
            # the channel-first one returns it
            raise ValueError(f"paddle.{api}: the output size {size_out} has a zero dimension, "
                             f"which data_format {data_format} does not support")
        link = _link(x, weight, bias)
        out = x.new_zeros([x.shape[0], weight.shape[1] * groups] + size_out) + link
        return to_last(out) if last else out
    bias, late_bias = _split_bias(bias, weight.shape[1] * groups, x.dtype, api)
    if all(a == b for a, b in pairs):
        out = _CONV_T[n](x, weight, bias, stride, [a for a, _ in pairs], out_pad, groups, dilation)
    else:
        # Full transposed convolution, then crop (before, after - output_padding) per dim.
        full = _CONV_T[n](x, weight, None, stride, 0, 0, groups, dilation)
        extra = [max(o - b, 0) for o, (_, b) in zip(out_pad, pairs)]
        if any(extra):
            full = pad_input(full, [(0, e) for e in extra])
        idx = [slice(None), slice(None)]
        for dim, ((a, b), o) in enumerate(zip(pairs, out_pad)):
            length = full.shape[2 + dim] - extra[dim]
            idx.append(slice(a, length - b + o))
        out = full[tuple(idx)]
        if bias is not None:
            out = out + bias.reshape([1, -1] + [1] * n)
    out = _add_bias(out, late_bias)
    return to_last(out) if last else out


@defop(amp="white", method=False, paddle_types=("conv2d", "pd_op.conv2d"))
def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL",
           name=None):
    """1-D convolution over a ``[N, C, L]`` (or ``[N, L, C]``) input.

    Args:
        x (Tensor): the input, 3-D.
        weight (Tensor): the filter, ``[out_channels, in_channels / groups, kernel]``.
        bias (Tensor, optional): ``[out_channels]``.
        stride (int|list): the stride.
        padding (int|list|str): an int, ``[pad]``, ``[before, after]``, 3 pairs, or
            ``'SAME'`` / ``'VALID'``.
        dilation (int|list): the dilation.
        groups (int): the number of channel groups.
        data_format (str): ``'NCL'`` or ``'NLC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the convolution result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 1, 5])
        >>> w = paddle.ones([1, 1, 3])
        >>> paddle.nn.functional.conv1d(x, w, padding=1).tolist()
        [[[2.0, 3.0, 3.0, 3.0, 2.0]]]
    """
    return _conv("nn.functional.conv1d", 1, x, weight, bias, stride, padding, dilation, groups,
                 data_format)


@defop(amp="white", method=False, paddle_types=("conv2d", "depthwise_conv2d", "pd_op.conv2d",
                                                "pd_op.depthwise_conv2d"))
def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW",
           name=None):
    """2-D convolution over a ``[N, C, H, W]`` (or ``[N, H, W, C]``) input.

    Args:
        x (Tensor): the input, 4-D.
        weight (Tensor): the filter, ``[out_channels, in_channels / groups, kh, kw]``.
        bias (Tensor, optional): ``[out_channels]``.
        stride (int|list): the stride.
        padding (int|list|str): an int, 2 ints, 4 ints ``[top, bottom, left, right]``,
            4 pairs including batch and channel, or ``'SAME'`` / ``'VALID'``.
        dilation (int|list): the dilation.
        groups (int): the number of channel groups.
        data_format (str): ``'NCHW'`` or ``'NHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the convolution result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 2, 4, 4])
        >>> w = paddle.ones([3, 2, 3, 3])
        >>> paddle.nn.functional.conv2d(x, w, padding='SAME').shape
        paddle.Size([1, 3, 4, 4])
    """
    return _conv("nn.functional.conv2d", 2, x, weight, bias, stride, padding, dilation, groups,
                 data_format)


@defop(amp="promote", method=False, paddle_types=("conv3d", "pd_op.conv3d"))
def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCDHW",
           name=None):
    """3-D convolution over a ``[N, C, D, H, W]`` (or ``[N, D, H, W, C]``) input.

    Args:
        x (Tensor): the input, 5-D.
        weight (Tensor): the filter, ``[out_channels, in_channels / groups, kd, kh, kw]``.
        bias (Tensor, optional): ``[out_channels]``.
        stride (int|list): the stride.
        padding (int|list|str): as in :func:`conv2d`, for three spatial dims.
        dilation (int|list): the dilation.
        groups (int): the number of channel groups.
        data_format (str): ``'NCDHW'`` or ``'NDHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the convolution result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 1, 3, 3, 3])
        >>> w = paddle.ones([2, 1, 2, 2, 2])
        >>> paddle.nn.functional.conv3d(x, w).shape
        paddle.Size([1, 2, 2, 2, 2])
    """
    return _conv("nn.functional.conv3d", 3, x, weight, bias, stride, padding, dilation, groups,
                 data_format)


def _conv_nd(x, weight, bias=None, stride=1, padding=0, padding_algorithm=None, dilation=1,
             groups=1, data_format="NCHW", channel_dim=1, op_type="conv2d", use_cudnn=True,
             name=None):
    """Paddle's internal ``paddle.nn.functional.conv._conv_nd``, which the public conv functions
    call once the padding is resolved (programs exported from models call it directly):
    :func:`conv2d` for ``op_type`` ``conv2d`` / ``depthwise_conv2d``, :func:`conv3d` for
    ``conv3d`` / ``depthwise_conv3d``; ``padding_algorithm`` ``'SAME'`` / ``'VALID'`` replaces
    ``padding``. ``channel_dim`` (the bias axis) follows ``data_format``; ``use_cudnn`` is unused.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.nn_conv import _conv_nd
        >>> _conv_nd(paddle.ones([1, 2, 4, 4]), paddle.ones([3, 2, 3, 3]), paddle.ones([3]),
        ...          padding=[1, 1], padding_algorithm="EXPLICIT").shape
        paddle.Size([1, 3, 4, 4])
    """
    if padding_algorithm in ("SAME", "VALID"):
        padding = padding_algorithm
    conv = conv3d if op_type in ("conv3d", "depthwise_conv3d") else conv2d
    return conv(x, weight, bias, stride, padding, dilation, groups, data_format)


@defop(amp="promote", method=False, paddle_types=("conv2d_transpose", "pd_op.conv2d_transpose"))
def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCL", name=None):
    """1-D transposed convolution (the gradient of :func:`conv1d` w.r.t. its input).

    Args:
        x (Tensor): the input, 3-D.
        weight (Tensor): the filter, ``[in_channels, out_channels / groups, kernel]``.
        bias (Tensor, optional): ``[out_channels]``.
        stride (int|list): the stride.
        padding (int|list|str): the padding removed from the output, or ``'SAME'``/``'VALID'``.
        output_padding (int|list): extra size added at the end of the output.
        groups (int): the number of channel groups.
        dilation (int|list): the dilation.
        output_size (int|list, optional): the wanted output length (excludes ``output_padding``).
        data_format (str): ``'NCL'`` or ``'NLC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 1, 3])
        >>> w = paddle.ones([1, 1, 2])
        >>> paddle.nn.functional.conv1d_transpose(x, w).tolist()
        [[[1.0, 2.0, 2.0, 1.0]]]
    """
    return _conv_t("nn.functional.conv1d_transpose", 1, x, weight, bias, stride, padding,
                   output_padding, dilation, groups, output_size, data_format)


@defop(amp="promote", method=False, paddle_types=("conv2d_transpose", "depthwise_conv2d_transpose",
                                                "pd_op.conv2d_transpose"))
def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1,
                     groups=1, output_size=None, data_format="NCHW", name=None):
    """2-D transposed convolution.

    Args:
        x (Tensor): the input, 4-D.
        weight (Tensor): the filter, ``[in_channels, out_channels / groups, kh, kw]``.
        bias (Tensor, optional): ``[out_channels]``.
        stride (int|list): the stride.
        padding (int|list|str): as in :func:`conv2d`.
        output_padding (int|list): extra size added at the end of each spatial dim.
        dilation (int|list): the dilation.
        groups (int): the number of channel groups.
        output_size (int|list, optional): the wanted spatial output size.
        data_format (str): ``'NCHW'`` or ``'NHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 2, 3, 3])
        >>> w = paddle.ones([2, 4, 3, 3])
        >>> paddle.nn.functional.conv2d_transpose(x, w, stride=2).shape
        paddle.Size([1, 4, 7, 7])
    """
    return _conv_t("nn.functional.conv2d_transpose", 2, x, weight, bias, stride, padding,
                   output_padding, dilation, groups, output_size, data_format)


@defop(amp="promote", method=False, paddle_types=("conv3d_transpose", "pd_op.conv3d_transpose"))
def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1, output_size=None, data_format="NCDHW", name=None):
    """3-D transposed convolution.

    Args:
        x (Tensor): the input, 5-D.
        weight (Tensor): the filter, ``[in_channels, out_channels / groups, kd, kh, kw]``.
        bias (Tensor, optional): ``[out_channels]``.
        stride (int|list): the stride.
        padding (int|list|str): as in :func:`conv3d`.
        output_padding (int|list): extra size added at the end of each spatial dim.
        groups (int): the number of channel groups.
        dilation (int|list): the dilation.
        output_size (int|list, optional): the wanted spatial output size.
        data_format (str): ``'NCDHW'`` or ``'NDHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 1, 2, 2, 2])
        >>> w = paddle.ones([1, 1, 2, 2, 2])
        >>> paddle.nn.functional.conv3d_transpose(x, w).shape
        paddle.Size([1, 1, 3, 3, 3])
    """
    return _conv_t("nn.functional.conv3d_transpose", 3, x, weight, bias, stride, padding,
                   output_padding, dilation, groups, output_size, data_format)
