"""Common nn ops of ``paddle.nn.functional``: linear, bilinear, the dropout family,
embedding, one_hot, distances, normalize, label_smooth.

Not a top-level family: these records are exported by ``pagaie.nn.functional``.
"""
from __future__ import annotations

import functools
import inspect
import numbers
from typing import Any

import torch
import torch.nn.functional as F

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor, check_inplace
from pagaie._ops._helpers import (ALL_DTYPES, BF16_F32_F64, F32_F64, FLOAT_OR_COMPLEX, REAL_FLOATS, SMALL_INTS,
                                  check_binary_dtypes, float_kernel, kernel_dtypes, promote_operands,
                                  write_result_into, zero_dropped)
from pagaie._ops._nn_helpers import smoothing_coefficients
from pagaie._ops._random_mask import as_scalar, dropout_divisor, keep_mask, program_seed, upscale_kept

__all__ = ["linear", "bilinear", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
           "feature_alpha_dropout", "embedding", "one_hot", "cosine_similarity", "pairwise_distance",
           "normalize", "label_smooth", "embedding_renorm_"]


# Paddle's CPU matmul kernel, and its static API's check (which also takes uint8, int8, bfloat16)
_LINEAR_CPU_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64,
                                torch.complex64, torch.complex128})
_LINEAR_STATIC_DTYPES = _LINEAR_CPU_DTYPES | {torch.uint8, torch.int8, torch.bfloat16}


@defop(amp="white", paddle_types=("linear", "fc", "pd_op.linear"), method=False)
def linear(x, weight, bias=None, name=None):
    """Fully connected transform ``x @ weight + bias``.

    Paddle stores the weight as ``[in_features, out_features]`` (the transpose of torch's).

    Args:
        x (Tensor): input ``[..., in_features]``.
        weight (Tensor): ``[in_features, out_features]``.
        bias (Tensor, optional): ``[out_features]``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., out_features]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2, 3])
        >>> w = paddle.full([3, 2], 0.5)
        >>> paddle.nn.functional.linear(x, w, paddle.to_tensor([1.0, 0.0])).tolist()
        [[2.5, 1.5], [2.5, 1.5]]
    """
    try:
        if weight.dtype not in _LINEAR_CPU_DTYPES:   # Paddle's CPU matmul kernel, keyed by the weight
            kernel_dtypes("nn.functional.linear", weight, _LINEAR_CPU_DTYPES, "weight",
                          static=_LINEAR_STATIC_DTYPES)
        if x.dim() >= 2 and weight.dim() == 2 and (bias is None or bias.dtype == x.dtype):
            return F.linear(x, weight.t(), bias)
        out = torch.matmul(x, weight)
    except NoKernelError:
        raise
    except AttributeError:   # a list of Tensors passes the registry's own check
        for i, (arg, v) in enumerate((("x", x), ("weight", weight))):
            if not isinstance(v, torch.Tensor):
                raise ValueError(f"paddle.nn.functional.linear: argument '{arg}' (position {i}) "
                                 f"must be Tensor, but got {type(v).__name__}") from None
        raise
    except RuntimeError:
        # named here, in Paddle's words (the kernel's are torch's)
        api = "paddle.nn.functional.linear"
        if x.dtype != weight.dtype:
            raise ValueError(f"{api}: 'x' ({str(x.dtype)[6:]}) and 'weight' "
                             f"({str(weight.dtype)[6:]}) must have the same dtype") from None
        if x.dim() and weight.dim() and x.shape[-1] != weight.shape[0]:
            raise ValueError(f"{api}: the last dimension of 'x' ({x.shape[-1]}, shape "
                             f"{list(x.shape)}) must equal the first dimension of 'weight' "
                             f"({weight.shape[0]}, shape {list(weight.shape)})") from None
        if bias is not None and not _broadcasts(bias.shape, (*x.shape[:-1], weight.shape[-1])):
            raise ValueError(f"{api}: 'bias' of shape {list(bias.shape)} does not broadcast to the "
                             f"output [..., {weight.shape[-1]}] (x {list(x.shape)}, weight "
                             f"{list(weight.shape)})") from None
        raise
    if bias is None:
        return out
    if not isinstance(bias, torch.Tensor):
        raise ValueError(f"paddle.nn.functional.linear: argument 'bias' (position 2) must be "
                         f"Tensor, but got {type(bias).__name__}")
    if bias.dtype != out.dtype and not (out.is_floating_point() and bias.is_floating_point()
                                        or out.is_complex() or bias.is_complex()):
        # Paddle's add promotes float with float and complex with real only
        raise TypeError(f"paddle.nn.functional.linear: 'bias' ({str(bias.dtype)[6:]}) cannot be "
                        f"added to the {str(out.dtype)[6:]} product of 'x' and 'weight': only "
                        f"floating-point dtypes (or complex with real) are promoted")
    return out + bias


def _broadcasts(shape: torch.Size, to: tuple) -> bool:
    try:
        broadcast_shapes(shape, to)
    except RuntimeError:
        return False
    return True


@defop(program_dtypes={"x1": FLOAT_OR_COMPLEX},
       amp="promote", paddle_types=("bilinear", "bilinear_tensor_product", "pd_op.bilinear"), method=False)
def bilinear(x1, x2, weight, bias=None, name=None):
    """Bilinear transform ``out[:, k] = x1 @ weight[k] @ x2.T + bias[k]``.

    Args:
        x1 (Tensor): ``[batch, in1]``.
        x2 (Tensor): ``[batch, in2]``.
        weight (Tensor): ``[out, in1, in2]``.
        bias (Tensor, optional): ``[1, out]``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[batch, out]``.

    Examples:
        >>> import pagaie as paddle
        >>> out = paddle.nn.functional.bilinear(paddle.ones([2, 3]), paddle.ones([2, 4]), paddle.ones([5, 3, 4]))
        >>> out.shape, float(out.numpy()[0, 0])
        (paddle.Size([2, 5]), 12.0)
    """
    api = "paddle.nn.functional.bilinear"
    for arg, t in (("x1", x1), ("x2", x2)):
        if t.dim() != 2:
            raise ValueError(f"{api}: '{arg}' must be a 2-D tensor, but received shape {list(t.shape)}")
    if weight.dim() != 3:
        raise ValueError(f"{api}: 'weight' must be a 3-D tensor [out, in1, in2], but received shape "
                         f"{list(weight.shape)}")
    if x1.shape[0] != x2.shape[0]:
        raise ValueError(f"{api}: 'x1' and 'x2' must have the same batch size, but received shapes "
                         f"{list(x1.shape)} and {list(x2.shape)}")
    if x1.shape[1] != weight.shape[1] or x2.shape[1] != weight.shape[2]:
        raise ValueError(f"{api}: 'weight' of shape {list(weight.shape)} does not fit 'x1' "
                         f"{list(x1.shape)} and 'x2' {list(x2.shape)} (expected [out, "
                         f"{x1.shape[1]}, {x2.shape[1]}])")
    # Paddle's bilinear kernel (floating inputs, float32/float64 on the CPU) runs in the dtype
    # of its last tensor argument: the bias, else the weight; another dtype elsewhere is the
    # ValueError below
    key, arg = (x1, "x1") if {x2.dtype, weight.dtype} | (set() if bias is None else {bias.dtype}) \
        == {x1.dtype} else ((weight, "weight") if bias is None else (bias, "bias"))
    float_kernel(api, key)
    if key.dtype not in F32_F64:
        kernel_dtypes("nn.functional.bilinear", key, F32_F64, arg)
    if bias is not None and (bias.dim() != 2 or bias.shape[0] != 1 or bias.shape[1] != weight.shape[0]):
        raise ValueError(f"{api}: 'bias' must have shape [1, {weight.shape[0]}], but received "
                         f"{list(bias.shape)}")
    dts = {x1.dtype, x2.dtype, weight.dtype} | ({bias.dtype} if bias is not None else set())
    if len(dts) > 1:
        raise ValueError(f"{api}: 'x1', 'x2', 'weight' and 'bias' must have one dtype, but received "
                         f"{', '.join(str(t.dtype).replace('torch.', '') for t in (x1, x2, weight))}"
                         + (f", {str(bias.dtype).replace('torch.', '')}" if bias is not None else ""))
    b = None if bias is None else bias.reshape(-1)
    return F.bilinear(x1, x2, weight, b)


def _check_p(p, api):
    if isinstance(p, torch.Tensor):
        p = float(p.reshape(-1)[0])
    if not isinstance(p, (float, int)):   # a bool is an int to Paddle's check
        raise TypeError(f"paddle.nn.functional.{api}: 'p' should be a number or Variable, "
                        f"but received {type(p).__name__}")
    if p < 0 or p > 1:
        raise ValueError(f"paddle.nn.functional.{api}: 'p' argument should between 0 and 1, but received {p}")
    return float(p)


# (no program_dtypes: Paddle's static dropout with p=0 returns x of any dtype; its kernel's
# checks below make the others)
@defop(paddle_types=("dropout", "pd_op.dropout"), method=False)
def dropout(x, p=0.5, axis=None, training=True, inplace=False, mode="upscale_in_train", name=None):
    """Randomly zero elements with probability ``p``.

    On the CPU the mask is Paddle's: one draw per element (per mask element with ``axis``)
    from the generator :func:`paddle.seed` seeds, so a seeded run drops what Paddle drops.

    Args:
        x (Tensor): input.
        p (float): drop probability in [0, 1]. Default 0.5.
        axis (int|list, optional): drop whole slices: the mask varies only along these axes.
        training (bool): apply dropout (True) or the inference rule (False).
        inplace (bool): accepted; the result is a new tensor.
        mode (str): 'upscale_in_train' (divide kept values by 1-p while training) or
            'downscale_in_infer' (scale by 1-p at inference).
        name (str, optional): unused.

    Returns:
        Tensor: same shape as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([2, 3])
        >>> paddle.nn.functional.dropout(x, 0.5, training=False).tolist()
        [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
        >>> paddle.nn.functional.dropout(x, 0.5, training=False, mode='downscale_in_infer').tolist()
        [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]
        >>> _ = paddle.seed(1)
        >>> sorted(set(paddle.nn.functional.dropout(x, 0.5).numpy().ravel().tolist()))
        [0.0, 2.0]
    """
    p = _check_p(p, "dropout")
    if p == 0:
        return x
    if mode not in ("downscale_in_infer", "upscale_in_train"):
        raise ValueError("paddle.nn.functional.dropout: mode argument should be 'downscale_in_infer' or "
                         f"'upscale_in_train', but received {mode!r}")
    if axis is not None and not isinstance(axis, (int, list, tuple)):
        raise TypeError("paddle.nn.functional.dropout: datatype of axis argument should be int or list")
    upscale = mode == "upscale_in_train"
    if axis is None:
        return _dropout_elements(x, p, training, upscale)
    axes = [axis] if isinstance(axis, int) else list(axis)
    if not training or p == 1.0:   # Paddle checks the axes only when it draws a mask
        return _dropout_slices(x, p, axes, training, upscale)
    if len(axes) > x.dim():
        raise ValueError(f"paddle.nn.functional.dropout: length of axis should not be greater than "
                         f"dimensions of x:{x.dim()}, but get length of axis: {len(axes)}")
    if min(axes) < 0 or max(axes) > x.dim() - 1:
        raise ValueError("paddle.nn.functional.dropout: axis value should be greater than or equal to 0 "
                         f"and less than dimensions of x:{x.dim()}, but get axis value:{max(axes)} ")
    return _dropout_slices(x, p, axes, training, upscale)


_dropout_op = dropout


@functools.wraps(_dropout_op)
def dropout(*args, **kwargs):
    # ``inplace=True``: as Paddle, the result is written into x and x itself is returned
    inplace = kwargs.get("inplace", args[4] if len(args) > 4 else False)
    x = args[0] if args else kwargs.get("x", kwargs.get("input"))
    if not inplace or not isinstance(x, Tensor) or x._t.is_meta:
        return _dropout_op(*args, **kwargs)
    if kwargs.get("axis", args[2] if len(args) > 2 else None) is not None:
        raise NotImplementedError("paddle.nn.functional.dropout: inplace=True with 'axis' is not "
                                  "supported (as in Paddle)")
    check_inplace(x, "dropout", "dropout with inplace=False")
    r = _dropout_op(*args, **kwargs)
    return x if r is x else write_result_into(x, r)


del dropout.__wrapped__


def _dropout_elements(x, p, training, upscale):
    """Paddle's dropout kernel: a mask element per element of ``x``."""
    if not x.is_floating_point() and x.device.type != "cuda":  # Paddle's CPU kernel: floats only
        float_kernel("paddle.nn.functional.dropout", x)
    if not training:
        return x if upscale else x * dropout_divisor(p, x.dtype)
    if as_scalar(p, torch.float32) == 1:  # the kernel zeroes the output without drawing
        if x.dtype is torch.bool:
            return x & False
        return torch.where(torch.zeros((), dtype=torch.bool, device=x.device), x, 0)
    # Paddle's dropout reads the default main program's random_seed in eager mode too: a
    # non-zero one repeats the mask on every call.
    seed = 0 if torch.compiler.is_compiling() else program_seed()
    if x.is_cuda and upscale and x.is_floating_point() and not seed:
        return F.dropout(x, p, True)  # one fused kernel
    keep = keep_mask(x.shape, p, x.device, seed)
    if upscale:
        return upscale_kept(x, keep, p)
    out = zero_dropped(x, keep)
    return out if out.dtype is x.dtype else out.to(x.dtype)


def _dropout_slices(x, p, axes, training, upscale):
    """Paddle's dropout with ``axis`` (a composite there): a uniform draw per element of the
    mask shape, ``x`` scaled by ``1/(1-p)`` and multiplied by the broadcast mask."""
    # Paddle's static API takes floating x only; drawing a mask, its CPU multiply kernel has
    # neither small integers nor float16 (and a program then refuses float16 too)
    draws = training and p < 1
    kernel_dtypes("nn.functional.dropout", x, _MULTIPLY_CPU_DTYPES if draws else ALL_DTYPES,
                  static=BF16_F32_F64 if draws else REAL_FLOATS)
    if not training:
        if upscale:
            return x
        if x.dtype is torch.bool:   # paddle.scale keeps bool: a value stays True unless scaled by 0
            return x & (p < 1)
        return x * as_scalar(1.0 - p, x.dtype) + 0   # paddle.scale
    if x.dtype is torch.bool:
        return x & keep_mask([x.shape[i] if i in axes else 1 for i in range(x.dim())], p, x.device) \
            if p < 1 else x & False
    if p == 1.0:
        return x * 0 + 0
    keep = keep_mask([x.shape[i] if i in axes else 1 for i in range(x.dim())], p, x.device)
    scaled = x * as_scalar(1.0 / (1.0 - p), x.dtype) + 0 if upscale else x
    out = scaled * keep.to(x.dtype)
    return out if out.dtype is x.dtype else out.to(x.dtype)


_MULTIPLY_CPU_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.float16}


def _channel_dropout(x, p, training, data_format, nd, api):
    p = _check_p(p, api)
    fmts = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}[nd]
    if nd == 1 and x.dim() not in (2, 3):   # dropout1d also takes an unbatched [C, L]
        raise RuntimeError(f"paddle.nn.functional.{api}: expects a 2-D or 3-D input, but received "
                           f"a {x.dim()}-D one")
    if nd > 1 and x.dim() != nd + 2:
        raise ValueError(f"paddle.nn.functional.{api}: dimensions of x should be {nd + 2}, but "
                         f"received {x.dim()}")
    if data_format not in fmts:
        raise ValueError(f"paddle.nn.functional.{api}: Attr(data_format) should be '{fmts[0]}' or "
                         f"'{fmts[1]}'. Received Attr(data_format): {data_format}.")
    batched = x.dim() == nd + 2
    if nd == 1:  # Paddle's dropout1d masks channels only, shared over the batch
        axes = [1] if batched else [0]
    else:
        axes = ([0, 1] if data_format == fmts[0] else [0, nd + 1]) if batched else \
            ([0] if data_format == fmts[0] else [nd])
    return dropout.op_record.kernel(x, p, axes, training, False, "upscale_in_train")


@defop(paddle_types=("dropout1d",), method=False)
def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of ``[N, C, L]`` (or ``[C, L]``) inputs with probability ``p``.

    As in Paddle, a batched input draws one decision per channel, shared by every sample.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.dropout1d(paddle.ones([1, 2, 3]), training=False).shape
        paddle.Size([1, 2, 3])
    """
    return _channel_dropout(input, p, training, "NCL", 1, "dropout1d")


@defop(program_dtypes={"x": FLOAT_OR_COMPLEX}, paddle_types=("dropout2d",), method=False)
def dropout2d(x, p=0.5, training=True, data_format="NCHW", name=None):
    """Zero whole channels of 4-D inputs with probability ``p`` (kept ones scaled by 1/(1-p)).

    Examples:
        >>> import pagaie as paddle
        >>> y = paddle.nn.functional.dropout2d(paddle.ones([2, 3, 4, 4]), 0.5)
        >>> sorted(set(y.numpy().ravel().tolist())) in ([0.0, 2.0], [2.0], [0.0])
        True
    """
    return _channel_dropout(x, p, training, data_format, 2, "dropout2d")


@defop(program_dtypes={"x": FLOAT_OR_COMPLEX}, paddle_types=("dropout3d",), method=False)
def dropout3d(x, p=0.5, training=True, data_format="NCDHW", name=None):
    """Zero whole channels of 5-D inputs with probability ``p`` (kept ones scaled by 1/(1-p)).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.dropout3d(paddle.ones([1, 2, 2, 2, 2]), training=False).shape
        paddle.Size([1, 2, 2, 2, 2])
    """
    return _channel_dropout(x, p, training, data_format, 3, "dropout3d")


_ALPHA_CPU_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64,
                               torch.complex64, torch.complex128})
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _alpha_dropout(x, p, training, mask_shape, api):
    # Paddle's composite: a uniform draw per mask element (also when p is 0), dropped
    # values set to SELU's saturation -alpha*scale, then the affine correction a*y + b
    if isinstance(p, torch.Tensor):   # unlike dropout's, Paddle's alpha dropouts take numbers only
        raise TypeError(f"paddle.nn.functional.{api}: 'p' argument should be a float or int, but "
                        "received a Tensor")
    p = _check_p(p, api)
    if not training:
        return x
    if p < 1:   # Paddle's composite: its CPU add/subtract/multiply kernels (bfloat16 in a program)
        if mask_shape is None:
            raise ValueError(f"paddle.nn.functional.{api}: the input must have at least 2 "
                             f"dimensions, but received {x.dim()}")
        kernel_dtypes(f"nn.functional.{api}", x, _ALPHA_CPU_DTYPES, static=BF16_F32_F64)
    if x.dtype is torch.bool:
        return x & keep_mask(mask_shape, p, x.device) if p < 1 else x & False
    if p == 1:  # every value dropped (the affine correction is undefined there)
        return x * 0 + 0
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p ** 2)) ** -0.5
    b = -a * alpha_p * p
    dt = x.dtype
    keep = keep_mask(mask_shape, p, x.device).to(dt)
    y = x * keep + (1 - keep) * as_scalar(alpha_p, dt)
    out = y * as_scalar(a, dt) + as_scalar(b, dt)
    return out if out.dtype is dt else out.to(dt)  # integer inputs stay integer


# Paddle's alpha dropouts are compositions of random ops: a test-mode program keeps them
# as traced (no test form)
@defop(program_dtypes={"x": REAL_FLOATS},
       paddle_types=("alpha_dropout",), method=False, for_test={"training": None})
def alpha_dropout(x, p=0.5, training=True, name=None):
    """Dropout for SELU networks: dropped values become SELU's negative saturation and
    an affine correction keeps the mean and variance.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.alpha_dropout(paddle.ones([2, 2]), 0.5, training=False).tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """
    return _alpha_dropout(x, p, training, x.shape, "alpha_dropout")


@defop(program_dtypes={"x": REAL_FLOATS},
       paddle_types=("feature_alpha_dropout",), method=False, for_test={"training": None})
def feature_alpha_dropout(x, p=0.5, training=True, name=None):
    """Alpha dropout of whole channels (the mask varies over the first two axes).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.feature_alpha_dropout(paddle.ones([2, 3, 4]), 0.2, training=False).shape
        paddle.Size([2, 3, 4])
    """
    # (a mask needs 2 dimensions: Paddle checks them only when it draws one)
    shape = list(x.shape[:2]) + [1] * (x.dim() - 2) if x.dim() >= 2 else None
    return _alpha_dropout(x, p, training, shape, "feature_alpha_dropout")


_EMBEDDING_CPU_DTYPES = ALL_DTYPES - {torch.bool, torch.uint8, torch.int16, torch.int32, torch.int64}
_UNIQUE_CPU_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64})


@defop(amp="black", paddle_types=("lookup_table_v2", "embedding", "pd_op.embedding"), method=False)
def embedding(x, weight, padding_idx=None, max_norm=None, norm_type=2.0, sparse=False,
              scale_grad_by_freq=False, name=None):
    """Look up rows of ``weight`` by the integer ids in ``x``.

    Args:
        x (Tensor): int32/int64 ids in ``[0, num_embeddings)``.
        weight (Tensor): ``[num_embeddings, embedding_dim]``.
        padding_idx (int, optional): this id outputs zeros and, unless ``sparse``, gets no
            gradient (negative values count from the end).
        max_norm (float, optional): renormalise looked-up rows (in ``weight``, in place)
            whose ``norm_type``-norm exceeds it.
        norm_type (float): the norm for ``max_norm``. Default 2.0.
        sparse (bool): gradients are dense, but as Paddle's sparse gradient the padding
            row's gradient is not zeroed.
        scale_grad_by_freq (bool): scale gradients by the inverse frequency of ids.
        name (str, optional): unused.

    Returns:
        Tensor: ``x.shape + [embedding_dim]``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.to_tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
        >>> paddle.nn.functional.embedding(paddle.to_tensor([2, 0]), w, padding_idx=0).tolist()
        [[4.0, 5.0], [0.0, 0.0]]
    """
    api = "paddle.nn.functional.embedding"
    for i, (arg, v) in enumerate((("x", x), ("weight", weight))):
        if not isinstance(v, torch.Tensor):
            raise ValueError(f"{api}: argument '{arg}' (position {i}) must be Tensor, but got "
                             f"{type(v).__name__}")
    if x.dtype not in (torch.int32, torch.int64):
        if max_norm:
            # Paddle renormalises first: the unique ids (its CPU unique kernel), then the rows
            # they pick (index_select, which wants integer ids)
            kernel_dtypes("nn.functional.embedding", x, _UNIQUE_CPU_DTYPES)
            raise ValueError(f"{api}: with max_norm, the ids must be int32 or int64, but "
                             f"received {str(x.dtype).replace('torch.', '')}")
        raise NotImplementedError(f"{api}: input only support int32 and int64, but get "
                                  f"{str(x.dtype).replace('torch.', '')}")
    if weight.dtype not in _EMBEDDING_CPU_DTYPES:   # Paddle's CPU kernel
        kernel_dtypes("nn.functional.embedding", weight, _EMBEDDING_CPU_DTYPES, "weight")
    if isinstance(padding_idx, torch.Tensor) and padding_idx.numel() == 1 \
            and not padding_idx.is_floating_point():
        padding_idx = int(padding_idx.reshape(-1)[0])
    if padding_idx is not None and (isinstance(padding_idx, bool)
                                    or not isinstance(padding_idx, numbers.Integral)):
        raise TypeError(f"{api}: 'padding_idx' must be an int or None, but received "
                        f"{type(padding_idx).__name__} {padding_idx!r}")
    if scale_grad_by_freq and sparse:
        raise AttributeError(f"{api}: scale_grad_by_freq = True is not supported with sparse update.")
    if weight.dim() != 2:
        raise ValueError("paddle.nn.functional.embedding: 'weight' (the lookup table) must be 2-D, but "
                         f"received shape {list(weight.shape)}")
    n = weight.shape[0]
    # Paddle's rule: a negative padding_idx counts from the end once, None is -1, and the
    # kernel outputs zeros for every id equal to it, so with padding_idx=None (or -n-1)
    # an id of -1 reads as padding and gives a zero row.
    pad = -1 if padding_idx is None else (padding_idx if padding_idx >= 0 else n + padding_idx)
    if n and not -n <= pad < n:
        raise ValueError(f"paddle.nn.functional.embedding: padding_idx must be within [-{n}, {n}), "
                         f"but received {padding_idx}")
    ids = x
    # Symbolic ids (meta tensors while a static program is recorded) have no values to check.
    if x.numel() and not x.is_meta:
        bad_ids = ((x < 0) | (x >= n)) & (x != pad)
        if bool(bad_ids.any()):
            bad = int(x[bad_ids].reshape(-1)[0])
            raise ValueError(f"paddle.nn.functional.embedding: ids of input expected >= 0 and < {n}, "
                             f"but got {bad}. Please check input value.")
        if pad < 0 and bool((x == pad).any()):
            ids = torch.where(x == pad, 0, x)
    if max_norm:   # Paddle's renorm gathers the rows with its CPU index_select kernel
        kernel_dtypes("nn.functional.embedding", weight, F32_F64, "weight")
    if max_norm and weight.numel() and not weight.is_meta:   # Paddle skips a max_norm of 0
        with torch.no_grad():
            # Paddle renormalises through embedding_renorm_, which wraps a negative id
            torch.embedding_renorm_(weight.detach(), x.reshape(-1).long() % max(n, 1), max_norm,
                                    norm_type)
    if sparse and pad >= 0:
        # Paddle's sparse (SelectedRows) gradient has a row for every id, the padding id's
        # too: the padding row reads as zeros but still gets its gradient.
        out = F.embedding(ids.long(), weight)
        return torch.where((x == pad).unsqueeze(-1), out - out.detach(), out)
    out = F.embedding(ids.long(), weight, padding_idx=pad if pad >= 0 else None,
                      scale_grad_by_freq=scale_grad_by_freq)
    if padding_idx is not None or ids is not x:
        out = out * (x != pad).unsqueeze(-1).to(out.dtype)
    return out


@defop(paddle_types=("embedding_renorm",), method=False, differentiable=False)
def _embedding_renorm(x, weight, max_norm, norm_type=2.0):
    api = "paddle.nn.functional.embedding_renorm_"
    if x.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"{api}: 'x' must be int32 or int64, but received "
                         f"{str(x.dtype).replace('torch.', '')}")
    if weight.dim() < 1:
        raise ValueError(f"{api}: 'weight' must have at least 1 dimension, but its shape is "
                         f"{list(weight.shape)}")
    n = weight.shape[0]
    ids = x.reshape(-1).long()
    if ids.numel() and not ids.is_meta:
        lo, hi = int(ids.min()), int(ids.max())
        if lo < -n or hi >= n:   # Paddle looks rows up as index_select does: [-n, n)
            raise ValueError(f"{api}: the ids in 'x' must be in [-{n}, {n}), but received "
                             f"{hi if hi >= n else lo}")
    with torch.no_grad():
        torch.embedding_renorm_(weight.detach(), ids % n if n else ids, float(max_norm), float(norm_type))
    return weight


def embedding_renorm_(x, weight, max_norm, norm_type=2.0):
    """Rescale, in place, the rows of ``weight`` looked up by the ids in ``x`` whose
    ``norm_type``-norm exceeds ``max_norm`` to norm ``max_norm``; returns ``weight``.

    Args:
        x (Tensor): int32/int64 ids in ``[0, weight.shape[0])``.
        weight (Tensor): ``[num_embeddings, embedding_dim]``, updated in place.
        max_norm (float): the largest norm a looked-up row may keep.
        norm_type (float): the p of the p-norm. Default 2.0.

    Returns:
        Tensor: ``weight`` itself.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.to_tensor([[3.0, 4.0], [0.3, 0.4]])
        >>> out = paddle.nn.functional.embedding_renorm_(paddle.to_tensor([0, 1]), w, 1.0)
        >>> out is w, [[round(v, 3) for v in row] for row in w.tolist()]
        (True, [[0.6, 0.8], [0.3, 0.4]])
    """
    out = _embedding_renorm(x, weight, max_norm, norm_type)
    return weight if getattr(out, "_t", None) is getattr(weight, "_t", False) else out


def _one_hot_static_shape(x, num_classes=-1, name=None) -> tuple[list[int], torch.dtype]:
    """Static rule (see ``Recorder``): ``x``'s sizes and the depth, unknown (-1) when a
    symbolic value gives it or it is inferred (-1); the ids are checked when the program runs."""
    dims = x._known_dims() if hasattr(x, "_known_dims") else list(x.shape)
    depth = num_classes
    if isinstance(num_classes, Tensor):
        depth = -1 if num_classes._t.is_meta else int(num_classes._t.reshape(-1)[0])
    return [*dims, int(depth) if int(depth) >= 0 else -1], torch.float32


@defop(paddle_types=("one_hot_v2", "one_hot", "pd_op.one_hot"), method=False, differentiable=False,
       static_shape=_one_hot_static_shape)
def one_hot(x, num_classes=-1, name=None):
    """One-hot float32 encoding of integer class ids.

    Args:
        x (Tensor): int32/int64 ids.
        num_classes (int|Tensor): the depth; ``-1`` infers ``max(x) + 1``.
        name (str, optional): unused.

    Returns:
        Tensor: float32, ``x.shape + [num_classes]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.one_hot(paddle.to_tensor([1, 0]), 3).tolist()
        [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    """
    if isinstance(num_classes, torch.Tensor):
        num_classes = int(num_classes.reshape(-1)[0])
    try:
        num_classes = int(num_classes)   # Paddle truncates a float depth
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"paddle.nn.functional.one_hot: 'num_classes' must be an int or a Tensor, "
                        f"but received {type(num_classes).__name__} {num_classes!r}") from None
    if num_classes < -1:   # Paddle's kernel cannot allocate a negative depth: a RuntimeError
        raise RuntimeError(f"paddle.nn.functional.one_hot: 'num_classes' must be -1 (inferred) or "
                           f"non-negative, but received {num_classes}")
    if x.is_floating_point() or x.dtype not in (torch.int32, torch.int64):
        raise NoKernelError("paddle.nn.functional.one_hot: the input must be int32 or int64, but received "
                         f"{str(x.dtype).replace('torch.', '')}")
    if num_classes != -1 and x.numel():
        hi, lo = int(x.max()), int(x.min())
        if hi >= num_classes or lo < 0:
            bad = hi if hi >= num_classes else lo
            raise ValueError("paddle.nn.functional.one_hot: Illegal index value, Input(input) value "
                             f"should be less than Input(depth), but received input ({bad}) not less "
                             f"than depth ({num_classes})")
    return F.one_hot(x.long(), num_classes).to(torch.float32)


def _check_broadcast(api, an, a, bn, b):
    if not _broadcasts(a.shape, tuple(b.shape)):
        raise ValueError(f"{api}: '{an}' of shape {list(a.shape)} and '{bn}' of shape "
                         f"{list(b.shape)} cannot be broadcast together")


@defop(amp="black", paddle_types=("cosine_similarity",), method=False)
def cosine_similarity(x1, x2, axis=1, eps=1e-8):
    """Cosine similarity along ``axis`` (norms clamped below by ``eps``).

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[1.0, 0.0], [1.0, 1.0]])
        >>> paddle.nn.functional.cosine_similarity(a, paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])).numpy().astype('float64').round(4).tolist()
        [1.0, 0.7071]
    """
    api = "paddle.nn.functional.cosine_similarity"
    if x1.dtype in SMALL_INTS:   # Paddle's CPU multiply kernel fails before its type promotion
        kernel_dtypes("nn.functional.cosine_similarity", x1, F32_F64, "x1")
    if not (x1.is_floating_point() or x1.is_complex()) or not (x2.is_floating_point() or x2.is_complex()):
        # Paddle's composite divides an integer sum by a float norm: its type promotion refuses
        raise TypeError(f"{api}: 'x1' and 'x2' must be floating point, but received "
                        f"{str(x1.dtype).replace('torch.', '')} and {str(x2.dtype).replace('torch.', '')}")
    _check_broadcast(api, "x1", x1, "x2", x2)
    # Paddle's composite squares each operand (its CPU multiply has no float16 kernel), then
    # clips and takes the root in the dtype they promote to (float32/float64 on the CPU); its
    # static API also takes bfloat16
    if x1.dtype not in F32_F64 or x2.dtype not in F32_F64:
        for arg, t in (("x1", x1), ("x2", x2)):
            if t.dtype is torch.float16:
                kernel_dtypes("nn.functional.cosine_similarity", t, F32_F64, arg, static=BF16_F32_F64)
        if torch.promote_types(x1.dtype, x2.dtype) not in F32_F64:
            kernel_dtypes("nn.functional.cosine_similarity", x1, F32_F64, "x1", static=BF16_F32_F64)
    s1, s2 = x1.shape[axis], x2.shape[axis]
    w12 = torch.sum(x1 * x2, dim=axis)
    if s1 == 0 or s2 == 0:
        return w12
    w1 = torch.sum(x1 * x1, dim=axis)
    w2 = torch.sum(x2 * x2, dim=axis)
    # a size-1 axis broadcast against the other counts once per broadcast copy
    if s1 != s2:
        w1 = w1 * (max(s1, s2) / s1) if s1 == 1 else w1
        w2 = w2 * (max(s1, s2) / s2) if s2 == 1 else w2
    return w12 / torch.sqrt(torch.clamp(w1 * w2, min=eps * eps))


@defop(program_dtypes={"x": FLOAT_OR_COMPLEX},
       amp="black", paddle_types=("pairwise_distance", "dist"), method=False)
def pairwise_distance(x, y, p=2.0, epsilon=1e-6, keepdim=False, name=None):
    """The ``p``-norm of ``x - y + epsilon`` along the last axis.

    Args:
        x (Tensor): ``[..., D]``: the distance is taken over the last axis.
        y (Tensor): same shape as ``x`` (broadcastable).
        p (float): the norm order (0, inf and -inf included). Default 2.
        epsilon (float): added to the difference. Default 1e-6.
        keepdim (bool): keep the reduced axis.
        name (str, optional): unused.

    Returns:
        Tensor: the broadcast shape without its last axis (kept as 1 with keepdim).

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.nn.functional.pairwise_distance(paddle.to_tensor([[3.0, 4.0]]), paddle.zeros([1, 2]), epsilon=0.0)
        >>> d.tolist()
        [5.0]
    """
    api = "paddle.nn.functional.pairwise_distance"
    if isinstance(p, torch.Tensor) and p.numel() == 1:
        p = p.item()
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(f"{api}: 'p' must be a number, but received {type(p).__name__}")
    if epsilon is None:   # Paddle builds a full([1], epsilon): ValueError
        raise ValueError(f"{api}: 'epsilon' must be a number, but received None")
    if keepdim is None:   # Paddle's bool attribute reads None as False
        keepdim = False
    _check_broadcast(api, "x", x, "y", y)
    if x.dtype != y.dtype:   # (Paddle's subtract promotes before its p_norm runs)
        check_binary_dtypes("nn.functional.pairwise_distance", x, y, True)
    float_kernel(api, x)   # Paddle's p_norm kernel: floating inputs only
    # (Paddle's subtract promotes: the kernels below see the promoted dtype)
    diff = torch.sub(*promote_operands("nn.functional.pairwise_distance", x, y))
    if diff.dtype not in F32_F64:
        kernel_dtypes("nn.functional.pairwise_distance", diff, F32_F64, "x")   # (float32/float64 on the CPU)
    from pagaie._ops.linalg import last_axis_pnorm
    return last_axis_pnorm(diff + epsilon, float(p), keepdim)


@defop(amp="promote", paddle_types=("p_norm", "normalize"), method=False)
def normalize(x, p=2, axis=1, epsilon=1e-12, out=None, name=None):
    """Divide by the ``p``-norm along ``axis`` (clamped below by ``epsilon``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.normalize(paddle.to_tensor([[3.0, 4.0]])).tolist()
        [[0.6000000238418579, 0.800000011920929]]
    """
    if x.is_complex():   # Paddle's p_norm kernel has no complex types (checked first)
        raise NoKernelError("paddle.nn.functional.normalize: the kernel supports real floating-point "
                            f"inputs only, but received {str(x.dtype).replace('torch.', '')}")
    if isinstance(axis, torch.Tensor) and axis.numel() == 1 and not axis.is_floating_point():
        axis = int(axis.reshape(-1)[0])
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"paddle.nn.functional.normalize: 'axis' must be an int, but received "
                        f"{type(axis).__name__} {axis!r}")
    rank = max(x.dim(), 1)
    if not -rank <= axis < rank:
        raise ValueError(f"paddle.nn.functional.normalize: Attr(axis) value should be in range [-R, R-1], "
                         f"R is the rank of Input(X). But received axis: {axis}, R: {rank}; 'x' has "
                         f"shape {list(x.shape)}")
    if x.dtype not in F32_F64:
        kernel_dtypes("nn.functional.normalize", x, F32_F64)   # Paddle's CPU p_norm kernel
    if x.requires_grad and torch.is_grad_enabled() and x.dim():
        # Paddle's p_norm gradient divides by norm^(p-1) + epsilon (not torch's), and its
        # maximum splits the gradient of a norm equal to epsilon in half (clamp would not)
        from pagaie._ops.linalg import eps_pnorm
        n = eps_pnorm(x, float(p), axis, True, epsilon)
        return x / torch.maximum(n, n.new_tensor(epsilon))
    return F.normalize(x, p=float(p), dim=axis, eps=epsilon)


_normalize_op = normalize


@functools.wraps(_normalize_op)
def normalize(*args: Any, **kwargs: Any) -> Any:
    # ``out``: as Paddle's ``paddle.assign(result, out)``, ``out`` takes the result's values,
    # shape, dtype and place in the graph, and is returned itself. The other arguments (and
    # their PyTorch spellings, ``input=``/``dim=``) go to the op record as given.
    if len(args) > 4:
        out, args = args[4], args[:4] + (None,) + args[5:]
    else:
        out = kwargs.pop("out", None)
    r = _normalize_op(*args, **kwargs)
    if out is None:
        return r
    if not isinstance(out, Tensor):
        raise TypeError(f"paddle.nn.functional.normalize: 'out' must be a Tensor, but received "
                        f"{type(out).__name__}")
    from pagaie._ops.creation import assign
    return assign(r, out)


del normalize.__wrapped__
normalize.__signature__ = inspect.signature(_normalize_op)


@defop(paddle_types=("label_smooth", "pd_op.label_smooth"), method=False)
def label_smooth(label, prior_dist=None, epsilon=0.1, name=None):
    """Label smoothing ``(1 - epsilon) * label + epsilon * prior`` (uniform prior by default).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.label_smooth(paddle.to_tensor([[0.0, 1.0]], 'float64'), epsilon=0.2).tolist()
        [[0.10000000149011612, 0.9000000134110451]]
    """
    if isinstance(epsilon, str):   # Paddle compares it with numbers first
        raise TypeError(f"paddle.nn.functional.label_smooth: 'epsilon' must be a float, but "
                        f"received str {epsilon!r}")
    if not 0.0 <= float(epsilon) <= 1.0:
        raise ValueError("paddle.nn.functional.label_smooth: The value of epsilon must be between 0 and "
                         f"1, but received {epsilon}")
    api = "paddle.nn.functional.label_smooth"
    float_kernel(api, label, "labels")
    if label.dtype not in F32_F64:
        kernel_dtypes("nn.functional.label_smooth", label, F32_F64, "label")   # Paddle's CPU kernel
    if prior_dist is not None:
        if prior_dist.dtype != label.dtype:
            raise ValueError(f"{api}: 'prior_dist' ({str(prior_dist.dtype).replace('torch.', '')}) must "
                             f"have the dtype of 'label' ({str(label.dtype).replace('torch.', '')})")
        classes = label.shape[-1] if label.dim() else 1
        if prior_dist.numel() != classes:
            raise ValueError(f"{api}: 'prior_dist' must hold one value per class ({classes}), but "
                             f"received shape {list(prior_dist.shape)}")
        # Paddle's kernel has no gradient for the prior
        keep, _ = smoothing_coefficients(epsilon, 1)
        return keep * label + as_scalar(float(epsilon), torch.float32) * \
            prior_dist.detach().reshape(label.shape[-1:])
    # (Paddle's kernel computes the coefficients in float32)
    keep, uniform = smoothing_coefficients(epsilon, label.shape[-1] if label.dim() else 1)
    if label.dim() == 0:   # Paddle's kernel adds no uniform part to a 0-D label
        return keep * label
    return keep * label + uniform
