"""Activation ops of ``paddle.nn.functional``.

Not a top-level family: these records are exported by ``pagaie.nn.functional``.
``sigmoid`` and ``tanh`` are math ops owned by ``pagaie._ops.math*`` (re-exported by
``pagaie.nn.functional``); ``softmax`` is declared here and ``paddle.softmax`` is a
composite over it.
"""
from __future__ import annotations

import inspect
import math
import numbers

import numpy as np
import torch
import torch.nn.functional as F

from pagaie._core.registry import defop
from pagaie._core.bad_input import type_name
from pagaie._core.tensor import Tensor, is_grad_leaf
from pagaie._ops._helpers import F32_F64, compare_mask, float_kernel, kernel_dtypes, write_out
from pagaie._core.random import on_paddle_cpu
from pagaie._ops._nn_helpers import float_attr, scan_max

__all__ = ["relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "prelu", "rrelu", "elu", "elu_",
           "selu", "celu", "gelu", "silu", "swish", "mish", "hardswish", "hardsigmoid", "hardtanh",
           "hardtanh_", "hardshrink", "softshrink", "tanhshrink", "thresholded_relu",
           "thresholded_relu_", "log_sigmoid", "logsigmoid", "softplus", "softsign", "log_softmax",
           "maxout", "glu", "swiglu", "gumbel_softmax", "softmax", "softmax_"]


_REAL_COMPLEX = F32_F64 | {torch.complex64, torch.complex128}
# Paddle's CPU kernels of each activation: op -> (eager dtypes, dtypes a CPU program may be built
# with: its oneDNN bfloat16 kernels run there). Another dtype is Paddle's NotFound eagerly (a
# RuntimeError; integers and bool on any device) and its build-time TypeError in a program.
_DTYPES = {
    **dict.fromkeys(("celu", "glu", "hardshrink", "hardsigmoid", "hardtanh", "hardtanh_", "maxout",
                     "prelu", "selu", "softshrink", "swiglu", "tanhshrink", "thresholded_relu",
                     "thresholded_relu_", "gumbel_softmax"), (F32_F64, None)),
    **dict.fromkeys(("elu", "elu_", "gelu", "leaky_relu", "leaky_relu_", "log_softmax", "mish",
                     "relu", "relu_", "relu6", "softmax", "swish"), (F32_F64, F32_F64 | {torch.bfloat16})),
    **dict.fromkeys(("log_sigmoid", "silu", "softsign"), (_REAL_COMPLEX, None)),
    **dict.fromkeys(("hardswish", "softplus"), (_REAL_COMPLEX, _REAL_COMPLEX | {torch.bfloat16})),
    "rrelu": (F32_F64 | {torch.float16}, None),
}


def _float(x, api):
    """Paddle's NotFound (RuntimeError) for a dtype the CPU kernels of ``api`` lack (see
    ``_DTYPES``; a GPU tensor may be float16/bfloat16, never an integer or bool)."""
    allowed, static = _DTYPES[api]
    if x.dtype not in allowed:
        float_kernel(f"paddle.nn.functional.{api}", x, complex_ok=torch.complex64 in allowed)
        kernel_dtypes(f"nn.functional.{api}", x, allowed, static=static)


def _f32(v, api, arg):
    """A kernel attribute as Paddle stores it: a C++ ``float``, so float64 inputs see the
    float32-rounded value (e.g. ``alpha=0.3`` acts as 0.30000001192...)."""
    import numpy as np
    if type(v) is not float and type(v) is not int:
        v = float_attr(v, api, arg)
    return float(np.float32(v))


class _NaNStopsGradient(torch.autograd.Function):
    """The identity whose gradient is 0 where x is NaN: Paddle's clipping activations
    (relu6, hardtanh, hardsigmoid, leaky_relu) pass the gradient only where a comparison of x
    holds, which a NaN fails."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        ctx.save_for_backward(x)
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (x,) = ctx.saved_tensors
        return g.masked_fill(x.isnan(), 0)


def _nan_stops_grad(x):
    """x, with no gradient through its NaN elements (a no-op outside autograd)."""
    if x.requires_grad and torch.is_grad_enabled() and x.is_floating_point():
        return _NaNStopsGradient.apply(x)
    return x


class _Softsign(torch.autograd.Function):
    """``x / (1 + |x|)`` with Paddle's gradient ``dy / (1 + |x|)^2``: 0 at +-inf, where the
    quotient's derivative is NaN."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        ctx.save_for_backward(x)
        return x / (1 + torch.abs(x))

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (x,) = ctx.saved_tensors
        return g / torch.square(1 + torch.abs(x))


class _HardSwish(torch.autograd.Function):
    """hardswish with the gradient of Paddle's kernel, ``dy * ((x + 3 > 0) * (2x + 3) / 6 *
    (x + 3 < 6) + 1 - (x + 3 < 6))``: as arithmetic on the masks it is NaN at +-inf (inf
    times a zero mask), where torch's piecewise gradient is 0 or dy."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        ctx.save_for_backward(x)
        return F.hardswish(x)

    @staticmethod
    def backward(ctx, dy):  # type: ignore[override]
        (x,) = ctx.saved_tensors
        y = x.detach() + 3
        below = (y < 6).to(x.dtype)
        return dy * ((y > 0).to(x.dtype) * (2 * x + 3) / 6 * below + 1 - below)


class _Selu(torch.autograd.Function):
    """selu with the gradient of Paddle's kernel, taken from the output: ``dy * (out + scale *
    alpha)`` where ``out <= 0``, else ``dy * scale`` (so a NaN gets ``dy * scale``)."""

    @staticmethod
    def forward(ctx, x, scale, alpha, api):  # type: ignore[override]
        out = scale * _elu(x, alpha, api)
        ctx.save_for_backward(out)
        ctx.scale, ctx.alpha = scale, alpha
        return out

    @staticmethod
    def backward(ctx, dy):  # type: ignore[override]
        (out,) = ctx.saved_tensors
        return torch.where(out <= 0, dy * (out + ctx.scale * ctx.alpha), dy * ctx.scale), None, None, None


class _Celu(torch.autograd.Function):
    """celu with the gradient of Paddle's kernel, a sum of masked terms that each multiply
    ``exp(x / alpha)``: where that exponential overflows (x / alpha past ~88 in float32, or
    +-inf) a zero mask times inf makes the gradient NaN. The backward is written with
    differentiable ops, so it is itself differentiated for higher orders."""

    @staticmethod
    def forward(ctx, x, alpha):  # type: ignore[override]
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return torch.ops.aten.elu.default(x, alpha, 1, 1.0 / alpha)

    @staticmethod
    def backward(ctx, dy):  # type: ignore[override]
        (x,) = ctx.saved_tensors
        pos = (x.detach() > 0).to(x.dtype)
        scaled = dy * torch.exp(x / ctx.alpha)
        return dy * pos + scaled * (1 - pos) + scaled * 0, None


def _relu_(x, name=None):
    # One write into x (Paddle counts one inplace_version per call): relu's result, NaN made
    # 0, copied back. (torch's relu_ saves its output for the backward, so fixing NaN up in
    # place after it would also fail the backward's version check.)
    _float(x, "relu_")
    if x.requires_grad and torch.is_grad_enabled():
        return x.copy_(_relu_grad_path(x))
    return x.copy_(_relu_values(x))


@defop(paddle_types=("relu", "pd_op.relu"), method=False, inplace=_relu_)
def relu(x, name=None):
    """Rectified linear unit ``max(x, 0)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.relu(paddle.to_tensor([-1.0, 2.0])).tolist()
        [0.0, 2.0]
    """
    _float(x, "relu")
    if x.requires_grad and torch.is_grad_enabled():
        return _relu_grad_path(x)
    return _relu_values(x)


def _relu_grad_path(x: torch.Tensor) -> torch.Tensor:
    """relu for an input that needs a gradient. Paddle's gradient is a mask held constant: a
    second derivative does not reach x (None under allow_unused), where torch's would be zeros.
    ``threshold_backward`` of x against its detached relu is that masked x."""
    return torch.ops.aten.threshold_backward.default(x, _relu_values(x.detach()), 0)


def _relu_values(x: torch.Tensor) -> torch.Tensor:
    """Paddle's relu kernel, ``max(x, 0)`` ignoring NaN: NaN becomes 0. (torch's relu and a
    NaN fix-up are two vectorised passes; ``fmax`` against a 0-D zero is one, but not
    vectorised: several times slower.)"""
    return torch.relu(x).nan_to_num_(0.0, math.inf)


relu_ = relu.inplace


@defop(paddle_types=("relu6", "pd_op.relu6"), method=False)
def relu6(x, name=None):
    """``min(max(x, 0), 6)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.relu6(paddle.to_tensor([-1.0, 8.0])).tolist()
        [0.0, 6.0]
    """
    _float(x, "relu6")
    return F.relu6(_nan_stops_grad(x))


def _leaky_relu(x, negative_slope):
    """``x`` where ``x >= 0``: as in Paddle, the gradient at 0 is 1 and ``leaky_relu(0)`` is
    ``0`` also for a negative slope; the gradient is a mask held constant, so a second
    derivative does not reach ``x``.

    That is ``torch.where(x >= 0, x, x * negative_slope)``, written as torch's leaky relu
    gradient kernel applied to ``x`` with the mask ``x >= 0`` (0/1 in x's dtype, which a
    comparison writes faster than booleans) in place of its input: vectorised kernels, where
    ``where``'s CPU kernel is not."""
    return torch.ops.aten.leaky_relu_backward.default(_nan_stops_grad(x), compare_mask(torch.ge, x, 0),
                                                      negative_slope, False)


def _leaky_relu_(x, negative_slope=0.01, name=None):
    _float(x, "leaky_relu_")
    if type(negative_slope) is not float and type(negative_slope) is not int:
        negative_slope = float_attr(negative_slope, "leaky_relu_", "negative_slope")
    if x.requires_grad:
        # the out-of-place result is written back: torch's in-place kernel has another
        # gradient at 0 (and none for a negative slope)
        return _leaky_relu(x, negative_slope)
    return F.leaky_relu_(x, negative_slope)


@defop(paddle_types=("leaky_relu", "pd_op.leaky_relu"), method=False, inplace=_leaky_relu_)
def leaky_relu(x, negative_slope=0.01, name=None):
    """``x`` if ``x >= 0`` else ``negative_slope * x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.leaky_relu(paddle.to_tensor([-2.0, 1.0]), 0.5).tolist()
        [-1.0, 1.0]
    """
    _float(x, "leaky_relu")
    if type(negative_slope) is not float and type(negative_slope) is not int:
        negative_slope = float_attr(negative_slope, "leaky_relu", "negative_slope")
    return _leaky_relu(x, negative_slope)


leaky_relu_ = leaky_relu.inplace


@defop(paddle_types=("prelu", "pd_op.prelu"), method=False)
def prelu(x, weight, data_format="NCHW", name=None):
    """Leaky ReLU with a learned slope: one for all channels (``weight`` of size 1) or
    one per channel (size C, channel axis given by ``data_format``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[-1.0, -1.0], [1.0, 1.0]])
        >>> paddle.nn.functional.prelu(x, paddle.to_tensor([0.25, 0.5])).tolist()
        [[-0.25, -0.5], [1.0, 1.0]]
    """
    # Paddle asserts on the shapes (AssertionError) and checks data_format only for a
    # per-channel weight
    _float(x, "prelu")
    if weight.dtype != x.dtype:
        raise ValueError(f"paddle.nn.functional.prelu: the weight must have the dtype of x "
                         f"({str(x.dtype).replace('torch.', '')}), but received "
                         f"{str(weight.dtype).replace('torch.', '')}")
    if weight.dim() > 1:
        raise AssertionError("paddle.nn.functional.prelu: the weight must be 0-D or 1-D, but "
                             f"received a weight of shape {list(weight.shape)}")
    w = weight.reshape(-1)
    if w.numel() != 1:
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError("paddle.nn.functional.prelu: data_format must be one of NC, NCL, NCHW, "
                             f"NCDHW, NLC, NHWC, NDHWC, but received {data_format}")
        if x.dim() < 2:
            raise AssertionError("paddle.nn.functional.prelu: the input must have at least 2 "
                                 "dimensions when the weight has several values, but received "
                                 f"shape {list(x.shape)}")
        caxis = 1 if data_format[1] == "C" else x.dim() - 1
        if w.numel() != x.shape[caxis]:
            raise AssertionError("paddle.nn.functional.prelu: the weight size must be 1 or the "
                                 f"number of channels ({x.shape[caxis]}), but received {w.numel()}")
        shape = [1] * x.dim()
        shape[caxis] = w.numel()
        w = w.reshape(shape)
    else:
        w = w.reshape([])   # a single slope keeps the input's shape, also a 0-D one
    # x > 0, as Paddle's kernels: at 0 the gradient is the slope (torch's prelu kernel: the
    # values and input gradient of ``where(x > 0, x, w * x)``, without torch's slow CPU where)
    return torch._prelu_kernel(x, w)


@defop(paddle_types=("rrelu", "pd_op.rrelu"), method=False)
def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=True, name=None):
    """Randomized leaky ReLU: negative slopes drawn from U(lower, upper) while training,
    ``(lower + upper) / 2`` otherwise.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.rrelu(paddle.to_tensor([-1.0, 2.0]), 0.2, 0.4, training=False).tolist()
        [-0.30000001192092896, 2.0]
    """
    if not isinstance(lower, float) or not isinstance(upper, float):
        raise TypeError(f"paddle.nn.functional.rrelu: 'lower' and 'upper' must be floats, but received "
                        f"lower {lower!r}, upper {upper!r}")
    if not 0 <= lower <= 1:
        raise ValueError(f"paddle.nn.functional.rrelu: lower should be in [0, 1], but received {lower}")
    if not 0 <= upper <= 1:
        raise ValueError(f"paddle.nn.functional.rrelu: upper should be in [0, 1], but received {upper}")
    if upper < lower:
        raise ValueError(f"paddle.nn.functional.rrelu: lower should not be greater than upper, but "
                         f"received lower {lower}, upper {upper}")
    _float(x, "rrelu")
    import numpy as np
    from pagaie._core.random import cpu_engine, on_paddle_cpu
    from pagaie._ops._random_mask import as_scalar
    from pagaie._ops._std_dists import uniform_real
    if not training:  # Paddle's middle slope, (lower + upper) / 2 in float32
        mid = (np.float32(lower) + np.float32(upper)) / np.float32(2)
        # the middle slope applies where x < 0: a NaN keeps slope 1 (its gradient passes)
        keep = torch.logical_not(x.detach() < 0).to(x.dtype)
        return torch.ops.aten.leaky_relu_backward.default(x, keep, as_scalar(float(mid), x.dtype), False)
    neg = x < 0
    if not on_paddle_cpu(x.device):
        slope = torch.empty_like(x).uniform_(lower, upper)
        return torch.where(neg, x * slope, x)
    # Paddle's kernel draws a float32 slope for each negative element (not for NaN), in
    # element order
    slopes = uniform_real(cpu_engine(), int(neg.sum()), lower, upper, np.float32)
    slope = torch.ones_like(x)
    slope[neg] = torch.from_numpy(slopes).to(x.dtype)
    return torch.where(neg, x * slope, x)


def _elu(x, alpha, api):
    alpha = _f32(alpha, api, "alpha")
    if alpha > 0:  # torch's kernel: the same values (its CPU where is many times slower)
        return _exp_linear(x, alpha, 1.0)
    # (the inner where, unlike a clamp, passes a NaN's gradient on: Paddle's is NaN there)
    return torch.where(x > 0, x, alpha * torch.expm1(torch.where(x > 0, 0, x)))


def _exp_linear(x, alpha, beta):
    """``x`` if ``x > 0`` else ``alpha * expm1(beta * x)`` (elu, celu), by torch's kernel."""
    if x.requires_grad and torch.is_grad_enabled():
        return _ExpLinear.apply(x, alpha, beta)
    return torch.ops.aten.elu.default(x, alpha, 1, beta)


class _ExpLinear(torch.autograd.Function):
    """elu / celu with Paddle's derivatives at 0: those of the ``x <= 0`` side at every order
    (torch's second derivative there is the ``x > 0`` side's 0). The backward is written with
    differentiable ops, so it is itself differentiated for higher orders."""

    @staticmethod
    def forward(ctx, x, alpha, beta):
        ctx.save_for_backward(x)
        ctx.alpha, ctx.beta = alpha, beta
        return torch.ops.aten.elu.default(x, alpha, 1, beta)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        slope = (ctx.alpha * ctx.beta) * torch.exp(torch.clamp(x, max=0) * ctx.beta)
        return torch.where(x > 0, dy, dy * slope), None, None


def _elu_(x, alpha=1.0, name=None):
    alpha = _f32(alpha, "elu_", "alpha")
    if alpha < 0:
        raise AssertionError("paddle.nn.functional.elu_: only alpha >= 0 is supported, but received "
                             f"alpha={alpha}; use elu instead")
    _float(x, "elu_")
    return F.elu_(x, alpha)


@defop(paddle_types=("elu", "pd_op.elu"), method=False, inplace=_elu_)
def elu(x, alpha=1.0, name=None):
    """``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.elu(paddle.to_tensor([-1.0, 1.0], 'float64'), 0.2).round(4).tolist()
        [-0.1264, 1.0]
    """
    _float(x, "elu")
    return _elu(x, alpha, "elu")


elu_ = elu.inplace


@defop(paddle_types=("selu", "pd_op.selu"), method=False)
def selu(x, scale=1.0507009873554804934193349852946, alpha=1.6732632423543772848170429916717, name=None):
    """``scale * (x if x > 0 else alpha * (exp(x) - 1))``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.selu(paddle.to_tensor([1.0], 'float64')).round(4).tolist()
        [1.0507]
    """
    if type(scale) is not float and type(scale) is not int:
        scale = float_attr(scale, "selu", "scale")
    if type(alpha) is not float and type(alpha) is not int:
        alpha = float_attr(alpha, "selu", "alpha")
    if scale <= 1.0:
        raise ValueError(f"paddle.nn.functional.selu: The scale must be greater than 1.0. Received: {scale}.")
    if alpha < 0:
        raise ValueError(f"paddle.nn.functional.selu: The alpha must be no less than zero. Received: {alpha}.")
    _float(x, "selu")
    scale = _f32(scale, "selu", "scale")
    if x.requires_grad and torch.is_grad_enabled() and not x.is_complex():
        return _Selu.apply(x, scale, _f32(alpha, "selu", "alpha"), "selu")
    return scale * _elu(x, alpha, "selu")


@defop(paddle_types=("celu", "pd_op.celu"), method=False)
def celu(x, alpha=1.0, name=None):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.celu(paddle.to_tensor([-1.0, 1.0], 'float64'), 0.5).round(4).tolist()
        [-0.4323, 1.0]
    """
    if alpha == 0:
        raise ZeroDivisionError("alpha cannot be 0 for celu")
    _float(x, "celu")
    alpha = _f32(alpha, "celu", "alpha")
    if x.requires_grad and torch.is_grad_enabled() and not x.is_complex():
        return _Celu.apply(x, alpha)
    return _exp_linear(x, alpha, 1.0 / alpha)


@defop(paddle_types=("gelu", "pd_op.gelu"), method=False)
def gelu(x, approximate=False, name=None, *, out=None):
    """Gaussian error linear unit ``x * Phi(x)``; ``approximate=True`` (or 'tanh') uses
    the tanh approximation.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.gelu(paddle.to_tensor([1.0], 'float64')).round(4).tolist()
        [0.8413]
    """
    if isinstance(approximate, str):
        if approximate not in ("tanh", "none"):
            raise ValueError("paddle.nn.functional.gelu: approximate must be True, False, 'tanh' or "
                             f"'none', but received {approximate!r}")
        approximate = approximate == "tanh"
    elif not isinstance(approximate, bool) and approximate is not None:
        raise TypeError("paddle.nn.functional.gelu: approximate must be a bool, 'tanh' or 'none', "
                        f"but received {type(approximate).__name__} {approximate!r}")
    _float(x, "gelu")
    r = F.gelu(x, approximate="tanh" if approximate else "none")
    if not approximate and x.dtype is torch.float32:
        r = torch.where(x == math.inf, x, r)   # torch's vectorised float32 erf path gives NaN at inf
    return r if out is None else write_out(out, r)


@defop("silu", paddle_types=("silu", "pd_op.silu"), method=False)
def _silu(x, inplace=False, name=None):
    """``x * sigmoid(x)``; with ``inplace=True`` the result is written into ``x``.

    Args:
        x (Tensor): a floating-point tensor.
        inplace (bool, optional): overwrite ``x`` with the result and return ``x``. As in
            Paddle, a leaf tensor that needs gradients cannot be overwritten. Default False.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: the activation (``x`` itself when ``inplace``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.silu(paddle.to_tensor([1.0], 'float64')).round(4).tolist()
        [0.7311]
        >>> x = paddle.to_tensor([1.0], 'float64')
        >>> out = paddle.nn.functional.silu(x, inplace=True)
        >>> out is x, x.round(4).tolist()
        (True, [0.7311])
    """
    _float(x, "silu")
    if inplace:
        if is_grad_leaf(x):
            raise ValueError("paddle.nn.functional.silu: a leaf tensor that doesn't stop gradient "
                             "can't use the inplace strategy (set stop_gradient=True or pass "
                             "inplace=False)")
        return F.silu(x, inplace=True)
    if x.is_complex() and x.requires_grad:   # torch's silu has no complex gradient
        return x * torch.sigmoid(x)
    return F.silu(x)


def silu(*args, **kwargs):
    # ``silu(x, inplace=True) is x``, as in Paddle; ``x`` may also come as ``x=`` / ``input=``
    out = _silu(*args, **kwargs)
    x = args[0] if args else kwargs.get("x", kwargs.get("input"))
    return x if isinstance(x, Tensor) and getattr(out, "_t", None) is x._t else out


silu.__signature__ = inspect.signature(_silu)
silu.__doc__, silu.__name__, silu.op_record = _silu.__doc__, "silu", getattr(_silu, "op_record", None)
silu.accepts_aliases = getattr(_silu, "accepts_aliases", ())


@defop(paddle_types=("swish", "pd_op.swish"), method=False)
def swish(x, name=None):
    """``x * sigmoid(x)`` (same as silu).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.swish(paddle.to_tensor([0.0])).tolist()
        [0.0]
    """
    _float(x, "swish")
    return F.silu(x)


@defop(paddle_types=("mish", "pd_op.mish"), method=False)
def mish(x, name=None):
    """``x * tanh(softplus(x))``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.mish(paddle.to_tensor([1.0], 'float64')).round(4).tolist()
        [0.8651]
    """
    _float(x, "mish")
    return F.mish(x)


@defop(paddle_types=("hardswish", "hard_swish", "pd_op.hardswish"), method=False)
def hardswish(x, name=None):
    """``x * relu6(x + 3) / 6``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.hardswish(paddle.to_tensor([-4.0, 1.0, 4.0], 'float64')).round(4).tolist()
        [-0.0, 0.6667, 4.0]
    """
    _float(x, "hardswish")
    if x.is_complex():
        # Paddle's complex kernel, by the real part r of x + 3: x from r >= 6 (gradient 1),
        # 0 below r = 0, x * (x + 3) / 6 between, whose gradient is 0 at r = 0 itself
        y = x + 3
        mid = x * y / 6
        low = torch.where(y.real < 0, torch.zeros_like(mid), mid.detach())
        return torch.where(y.real >= 6, x, torch.where(y.real <= 0, low, mid))
    if x.requires_grad and torch.is_grad_enabled():
        return _HardSwish.apply(x)
    return F.hardswish(x)


@defop(paddle_types=("hardsigmoid", "hard_sigmoid", "pd_op.hardsigmoid"), method=False)
def hardsigmoid(x, slope=0.1666667, offset=0.5, name=None):
    """``clip(slope * x + offset, 0, 1)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.hardsigmoid(paddle.to_tensor([-4.0, 0.0, 4.0])).tolist()
        [0.0, 0.5, 1.0]
    """
    _float(x, "hardsigmoid")
    # hardtanh's gradient vanishes where the output reaches 0 or 1, as Paddle's does
    return F.hardtanh(_nan_stops_grad(x) * _f32(slope, "hardsigmoid", "slope") + _f32(offset, "hardsigmoid", "offset"),
                      0.0, 1.0)


def _hardtanh_(x, min=-1.0, max=1.0, name=None):
    _float(x, "hardtanh_")
    lo, hi = _f32(min, "hardtanh_", "min"), _f32(max, "hardtanh_", "max")
    return F.hardtanh_(x, lo, hi) if lo <= hi else x.clamp_(lo, hi)


@defop(paddle_types=("hardtanh", "brelu", "pd_op.hardtanh"), method=False, inplace=_hardtanh_)
def hardtanh(x, min=-1.0, max=1.0, name=None):
    """``clip(x, min, max)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.hardtanh(paddle.to_tensor([-2.0, 0.5, 2.0])).tolist()
        [-1.0, 0.5, 1.0]
    """
    _float(x, "hardtanh")
    # no gradient at the bounds themselves, as in Paddle (clamp would pass it there);
    # with min > max every value becomes max, as in Paddle
    lo, hi = _f32(min, "hardtanh", "min"), _f32(max, "hardtanh", "max")
    x = _nan_stops_grad(x)
    return F.hardtanh(x, lo, hi) if lo <= hi else torch.clamp(x, lo, hi)


hardtanh_ = hardtanh.inplace


@defop(paddle_types=("hardshrink", "hard_shrink", "pd_op.hardshrink"), method=False)
def hardshrink(x, threshold=0.5, name=None):
    """``x`` where ``|x| >= threshold``, else 0 (signed: ``-0.0`` for a negative ``x``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.hardshrink(paddle.to_tensor([-1.0, 0.3, 0.5])).tolist()
        [-1.0, 0.0, 0.5]
    """
    _float(x, "hardshrink")
    t = _f32(threshold, "hardshrink", "threshold")
    # as Paddle's kernel: x times the mask, so x = +-threshold is kept, a dropped negative
    # value gives -0.0, NaN stays NaN and its gradient is 0
    # (x >= t or x <= -t is |x| >= t, for any t)
    return x * compare_mask(torch.ge, x.detach().abs(), t)


@defop(paddle_types=("softshrink", "pd_op.softshrink"), method=False)
def softshrink(x, threshold=0.5, name=None):
    """``x - threshold`` above ``threshold``, ``x + threshold`` below ``-threshold``, else 0.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.softshrink(paddle.to_tensor([-1.0, 0.3, 1.0])).tolist()
        [-0.5, 0.0, 0.5]
    """
    if threshold < 0:
        raise ValueError("paddle.nn.functional.softshrink: The threshold must be no less than zero. "
                         f"Received: {threshold}.")
    _float(x, "softshrink")
    t = _f32(threshold, "softshrink", "threshold")
    # Paddle's kernel: (x > t) * (x - t) + (x < -t) * (x + t) with 0/1 masks, so +-inf and NaN
    # give NaN, the band gives +0, and the gradient is the masks' sum (0 at NaN)
    above, below = compare_mask(torch.gt, x, t), compare_mask(torch.lt, x, -t)
    return above * (x - t) + below * (x + t)


@defop(amp="black", paddle_types=("tanh_shrink", "tanhshrink", "pd_op.tanh_shrink"), method=False)
def tanhshrink(x, name=None):
    """``x - tanh(x)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.tanhshrink(paddle.to_tensor([1.0], 'float64')).round(4).tolist()
        [0.2384]
    """
    _float(x, "tanhshrink")
    return x - torch.tanh(x)


def _thresholded_relu_(x, threshold=1.0, value=0.0, name=None):
    _float(x, "thresholded_relu_")
    return x.masked_fill_(x <= _f32(threshold, "thresholded_relu_", "threshold"),
                          _f32(value, "thresholded_relu_", "value"))


@defop(paddle_types=("thresholded_relu", "pd_op.thresholded_relu"), method=False,
       inplace=_thresholded_relu_)
def thresholded_relu(x, threshold=1.0, value=0.0, name=None):
    """``x`` where ``x > threshold``, else ``value``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.thresholded_relu(paddle.to_tensor([0.5, 2.0])).tolist()
        [0.0, 2.0]
    """
    _float(x, "thresholded_relu")
    # Paddle's kernel: (x > t) * x + (x <= t) * value with 0/1 masks: -inf and NaN give NaN
    t = _f32(threshold, "thresholded_relu", "threshold")
    v = _f32(value, "thresholded_relu", "value")
    return compare_mask(torch.gt, x, t) * x + compare_mask(torch.le, x, t) * v


thresholded_relu_ = thresholded_relu.inplace


@defop(amp="promote", paddle_types=("logsigmoid", "pd_op.logsigmoid"), method=False)
def log_sigmoid(x, name=None):
    """``log(sigmoid(x))``, computed stably.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.log_sigmoid(paddle.to_tensor([0.0], 'float64')).round(4).tolist()
        [-0.6931]
    """
    _float(x, "log_sigmoid")
    if x.is_complex():   # -log(1 + exp(-x)), which is x where the real part is very negative
        return torch.where(x.real < -20, x, -torch.log1p(torch.exp(-x)))
    # Paddle's kernel subtracts max(-x, 0) from -x, inf - inf at x = -inf: its value and
    # gradient are NaN there; 0 * max(-x, 0) is NaN at -inf only, 0 elsewhere
    return F.logsigmoid(x) * (1 + 0 * torch.clamp_min(-x, 0))


logsigmoid = log_sigmoid


@defop(amp="black", paddle_types=("softplus", "pd_op.softplus"), method=False)
def softplus(x, beta=1, threshold=20, name=None, *, out=None):
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.softplus(paddle.to_tensor([0.0], 'float64')).round(4).tolist()
        [0.6931]
    """
    _float(x, "softplus")
    if type(beta) is not float and type(beta) is not int:
        beta = float_attr(beta, "softplus", "beta")
    if type(threshold) is not float and type(threshold) is not int:
        threshold = float_attr(threshold, "softplus", "threshold")
    if x.is_complex():   # Paddle's complex kernel compares the real part with the threshold
        xb = x * beta
        r = torch.where(xb.real > threshold, x, torch.log1p(torch.exp(xb)) / beta)
    else:
        r = F.softplus(x, beta, threshold)
    return r if out is None else write_out(out, r)


@defop(paddle_types=("softsign", "pd_op.softsign"), method=False)
def softsign(x, name=None):
    """``x / (1 + |x|)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.softsign(paddle.to_tensor([1.0, -3.0])).tolist()
        [0.5, -0.75]
    """
    _float(x, "softsign")
    if x.is_complex():   # the complex kernel's gradient is the conjugate derivative torch takes
        return x / (1 + torch.abs(x))
    return _Softsign.apply(x)


def _cast_for_softmax(x, dtype, api):
    from pagaie._ops._helpers import torch_dtype
    if dtype is not None:
        x = x.to(torch_dtype(dtype, f"nn.functional.{api}"))
    _float(x, api)
    return x


def _softmax_axis(x, axis, api):
    """Paddle's InvalidArgument (ValueError) for an int axis outside ``[-rank, rank)`` (a 0-D
    input takes -1 and 0); torch's shape inference for a program's placeholders lets it by."""
    n = x.dim() or 1
    if type(axis) is int and not -n <= axis < n:
        raise ValueError(f"paddle.nn.functional.{api}: 'axis' must be in the range [{-n}, {n}), "
                         f"but received {axis} (input has {x.dim()} dimension(s))")


@defop(amp="black", paddle_types=("log_softmax", "pd_op.log_softmax"), method=False)
def log_softmax(x, axis=-1, dtype=None, name=None):
    """``log(softmax(x))`` along ``axis``, computed stably (``dtype``: cast first).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.log_softmax(paddle.to_tensor([0.0, 0.0], 'float64')).round(4).tolist()
        [-0.6931, -0.6931]
    """
    x = _cast_for_softmax(x, dtype, "log_softmax")
    out = torch.log_softmax(x, dim=axis)
    if out.numel() and on_paddle_cpu(out.device) and bool((out < -64).any()):
        # Paddle's CPU kernel clips the shifted logits ``x - max`` at -64: a masked (-inf)
        # logit gives about -64 - logsumexp, not -inf
        return _ClippedLogSoftmax.apply(x, axis)
    return out


class _ClippedLogSoftmax(torch.autograd.Function):
    """Paddle's CPU log_softmax: ``s - log(sum(exp(s)))`` with ``s = max(x - max(x), -64)``;
    its gradient is ``dy - exp(out) * sum(dy)`` whatever the clip."""

    @staticmethod
    def forward(ctx, x, axis):
        s = (x - x.amax(axis, keepdim=True)).clamp_min(-64.0)
        out = s - s.exp().sum(axis, keepdim=True).log()
        ctx.save_for_backward(out)
        ctx.axis = axis
        return out

    @staticmethod
    def backward(ctx, dy):
        (out,) = ctx.saved_tensors
        return dy - out.exp() * dy.sum(ctx.axis, keepdim=True), None


@defop(amp="black", paddle_types=("softmax", "pd_op.softmax"), method=False, inplace=True)
def softmax(x, axis=-1, dtype=None, name=None, *, out=None):
    """Normalised exponentials along ``axis`` (``dtype``: cast first).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.softmax(paddle.to_tensor([0.0, 0.0])).tolist()
        [0.5, 0.5]
    """
    _softmax_axis(x, axis, "softmax")
    r = torch.softmax(_cast_for_softmax(x, dtype, "softmax"), dim=axis)
    if out is not None:
        with torch.no_grad():
            out.copy_(r)
    return r


_softmax_inplace = softmax.inplace


def softmax_(x, axis=-1, dtype=None, name=None):
    """In-place version of :func:`softmax`: writes the result into ``x`` and returns it.

    With ``dtype``, Paddle casts first (always a copy) and works in place on that copy:
    ``x`` is left as it was and the new tensor is returned.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([0.0, 0.0])
        >>> paddle.nn.functional.softmax_(x) is x, x.tolist()
        (True, [0.5, 0.5])
        >>> y = paddle.to_tensor([0.0, 0.0])
        >>> out = paddle.nn.functional.softmax_(y, dtype='float64')
        >>> out is y, str(out.dtype), y.tolist()
        (False, 'paddle.float64', [0.0, 0.0])
    """
    if dtype is not None:
        return softmax(x, axis, dtype)
    return _softmax_inplace(x, axis)


softmax_.op_record = _softmax_inplace.op_record


@defop(paddle_types=("maxout", "pd_op.maxout"), method=False)
def maxout(x, groups, axis=1, name=None):
    """Max over consecutive groups of ``groups`` channels along ``axis`` (1 or -1/3).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[[[1.0]], [[5.0]], [[2.0]], [[3.0]]]])
        >>> paddle.nn.functional.maxout(x, 2).tolist()
        [[[[5.0]], [[3.0]]]]
    """
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):   # Paddle's int attribute
        raise TypeError(f"paddle.nn.functional.maxout: 'axis' must be an int, but received "
                        f"{type(axis).__name__} {axis!r}")
    if axis not in (1, -1, 3):
        raise ValueError("paddle.nn.functional.maxout: Attr(axis) should be 1 when data format is NCHW, "
                         f"-1 or 3 when data format is NHWC. Received Attr(axis): {axis}.")
    _float(x, "maxout")
    if x.dim() != 4:
        raise ValueError(f"paddle.nn.functional.maxout: the input must be 4-D, but received {x.dim()}-D")
    if isinstance(groups, (bool, np.bool_, np.ndarray)):   # Paddle's int attribute refuses them
        raise TypeError(f"paddle.nn.functional.maxout: 'groups' must be an int, but received "
                        f"{type(groups).__name__} {groups!r}")
    ax = axis % 4
    c = x.shape[ax]
    if groups <= 1:
        raise ValueError("paddle.nn.functional.maxout: Attr(groups) of Op(maxout) should be larger "
                         f"than 1. But received {groups}.")
    if c % groups != 0:
        raise ValueError(f"paddle.nn.functional.maxout: the number of channels ({c}) must be divisible "
                         f"by groups ({groups})")
    shape = list(x.shape[:ax]) + [c // groups, groups] + list(x.shape[ax + 1:])
    if x.device.type != "meta" and not torch.compiler.is_compiling() and bool(torch.isnan(x).any()):
        # Paddle's kernel scans each group as its max pools do: NaN is not simply propagated
        return scan_max(x.reshape(shape).movedim(ax + 1, -1))
    # max (not amax): as in Paddle, a tie sends the whole gradient to the first maximum;
    # its running maximum starts at float32's lowest value, which a group of -inf keeps
    out = x.reshape(shape).max(dim=ax + 1).values
    return out.clamp_min(torch.finfo(torch.float32).min) if out.dtype in (torch.float32, torch.float64) else out


def _glu_program_check(x, axis=-1, name=None):
    """Paddle's glu compares its axis with the rank in Python: a program's Tensor axis has no
    value to compare while the program is built (TypeError)."""
    if hasattr(axis, "_t"):
        raise TypeError("paddle.nn.functional.glu: a Tensor axis has no value while a static "
                        "program is built; pass an int")


@defop(paddle_types=("glu",), method=False, static_check=_glu_program_check)
def glu(x, axis=-1, name=None):
    """Gated linear unit: split ``x`` in halves ``a, b`` along ``axis``; ``a * sigmoid(b)``.

    Args:
        x (Tensor): the input; its size along ``axis`` must be even.
        axis (int|Tensor): the axis to split (a one-element Tensor is read as its value).
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.glu(paddle.to_tensor([[2.0, 0.0]])).tolist()
        [[1.0]]
    """
    # Paddle's order: the axis against the rank, its split (no int16 or complex kernel, then a
    # float axis, then an odd size), then sigmoid (no bool, float16 or bfloat16 kernel on the
    # CPU) and the float/int product (TypeError for the other integers)
    if isinstance(axis, torch.Tensor):   # a Tensor axis is read as its one value
        if axis.numel() != 1:
            raise AssertionError(f"paddle.nn.functional.glu: a Tensor axis must hold one element, "
                                 f"but received shape {list(axis.shape)}")
        axis = axis.item()
    if not isinstance(axis, numbers.Real):
        raise TypeError(f"paddle.nn.functional.glu: axis must be an int, but received "
                        f"{type(axis).__name__} {axis!r}")
    if not -x.dim() <= axis < x.dim():
        raise ValueError(f"paddle.nn.functional.glu: axis must be in [{-x.dim()}, {x.dim()}), but "
                         f"received {axis}")
    if x.is_complex() or x.dtype is torch.int16:
        _float(x, "glu")
    if not isinstance(axis, numbers.Integral):
        raise ValueError(f"paddle.nn.functional.glu: axis must be an int, but received "
                         f"{type(axis).__name__} {axis!r}")
    axis = int(axis)
    if x.shape[axis] % 2 != 0:
        raise ValueError(f"paddle.nn.functional.glu: the size of axis {axis} ({x.shape[axis]}) must be even")
    if not x.is_floating_point() and x.dtype is not torch.bool:
        raise TypeError("paddle.nn.functional.glu: x must be a floating-point tensor, but received "
                        f"{str(x.dtype).replace('torch.', '')}")
    _float(x, "glu")
    a, b = torch.chunk(x, 2, dim=axis)
    return a * torch.sigmoid(b)


@defop(paddle_types=("swiglu", "pd_op.swiglu"), method=False)
def swiglu(x, y=None, name=None):
    """``silu(x) * y``; with ``y`` None, ``x`` is split in halves along the last axis.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.swiglu(paddle.to_tensor([0.0]), paddle.to_tensor([3.0])).tolist()
        [0.0]
    """
    if y is not None and not isinstance(y, torch.Tensor):   # Paddle's argument parser
        raise ValueError("paddle.nn.functional.swiglu: argument 'y' (position 1) must be Tensor, "
                         f"but got {type_name(y)}")
    # Paddle's kernel is chosen by the dtype of y (of x without y)
    _float(x if y is None else y, "swiglu")
    if y is None:
        if x.dim() == 0 or x.shape[-1] % 2:
            raise ValueError(f"paddle.nn.functional.swiglu: with y None, the last axis of x must have an "
                             f"even size, but received x of shape {list(x.shape)}")
        x, y = torch.chunk(x, 2, dim=-1)
    elif y.dtype is not x.dtype:
        raise ValueError(f"paddle.nn.functional.swiglu: y must have the dtype of x "
                         f"({str(x.dtype).replace('torch.', '')}), but received "
                         f"{str(y.dtype).replace('torch.', '')}")
    elif y.shape != x.shape:   # Paddle's kernel does not broadcast
        raise ValueError(f"paddle.nn.functional.swiglu: y must have the shape of x "
                         f"{list(x.shape)}, but received {list(y.shape)}")
    return F.silu(x) * y


def _gumbel_noise(x: torch.Tensor) -> torch.Tensor:
    """Gumbel noise shaped like ``x``. On the CPU it is what Paddle's kernel draws: one
    ``uniform_real_distribution(1e-5, 1)`` value per element from Paddle's engine, in
    float32 (float64 for float64 input), then ``-log(-log(u))``."""
    import numpy as np
    from pagaie._core.random import cpu_engine, on_paddle_cpu
    from pagaie._ops import _std_dists_misc as _sdm
    if on_paddle_cpu(x.device) and x.is_floating_point():
        work = np.float64 if x.dtype == torch.float64 else np.float32
        g = _sdm.gumbel(cpu_engine(), x.numel(), work)
        return torch.from_numpy(g).reshape(x.shape).to(x.dtype)
    return -torch.log(torch.empty_like(x).exponential_())


@defop(paddle_types=("gumbel_softmax", "pd_op.gumbel_softmax"), method=False)
def gumbel_softmax(x, temperature=1.0, hard=False, axis=-1, name=None):
    """Sample from the Gumbel-softmax distribution over ``axis``: ``softmax((x + g) /
    temperature)`` with Gumbel noise ``g``; ``hard`` returns the one-hot of its argmax.

    The gradient is Paddle's kernel's: the softmax's gradient with respect to its input,
    taken through the output, so it omits the ``1 / temperature`` factor, and it is zero
    for ``hard`` samples (the softmax gradient through a one-hot vanishes).

    Examples:
        >>> import pagaie as paddle
        >>> y = paddle.nn.functional.gumbel_softmax(paddle.zeros([2, 3]), hard=True)
        >>> y.sum(axis=-1).tolist()
        [1.0, 1.0]
    """
    if temperature <= 0:
        raise ValueError(f"paddle.nn.functional.gumbel_softmax: temperature must be positive, but "
                         f"received {temperature}")
    if hard is not None and not isinstance(hard, bool):   # Paddle's parser wants a bool
        raise TypeError("paddle.nn.functional.gumbel_softmax: 'hard' must be a bool, but received "
                        f"{type(hard).__name__} {hard!r}")
    _float(x, "gumbel_softmax")
    _softmax_axis(x, axis, "gumbel_softmax")
    if x.numel() == 0:
        return x.clone()
    y = torch.softmax((x + _gumbel_noise(x)) / temperature, dim=axis)
    delta = y - y.detach()      # zero, carrying the softmax's gradient
    if not hard:
        return y.detach() + delta * temperature
    idx = y.argmax(dim=axis, keepdim=True)
    onehot = torch.zeros_like(y).scatter_(axis, idx, 1.0)
    return onehot + delta * 0.0

