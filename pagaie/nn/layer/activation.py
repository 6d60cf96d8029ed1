"""Activation layers: each holds its settings and calls one functional op."""
from __future__ import annotations

from typing import Any

from pagaie._core import dtype as _dt
from pagaie._ops import nn_activation as _a
from pagaie.nn.layer.layers import Layer, attr_alias, kw_alias

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "PReLU", "RReLU", "ELU", "SELU", "CELU", "GELU", "Silu", "SiLU",
           "Swish", "Mish", "Hardswish", "Hardsigmoid", "Hardtanh", "Hardshrink", "Softshrink",
           "Tanhshrink", "ThresholdedReLU", "Sigmoid", "LogSigmoid", "Tanh", "Softplus", "Softsign",
           "Softmax", "LogSoftmax", "Softmax2D", "Maxout", "GLU"]


def _nm(name: Any, lead: str = ", ") -> str:
    return f"{lead}name={name}" if name else ""


def _functional(name: str) -> Any:
    import pagaie.nn.functional as F
    return getattr(F, name)


class _Plain(Layer):
    """An activation without settings: ``forward`` calls ``_fn(x)``."""

    _fn_name = ""

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._name = name

    def forward(self, x: Any) -> Any:
        return _functional(self._fn_name)(x)

    def extra_repr(self) -> str:
        return _nm(self._name, "")


def _plain(cls_name: str, fn: str, formula: str, sample: str) -> type:
    doc = f"""{formula}

    Args:
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.{cls_name}()(paddle.to_tensor([-1.0, 0.0, 2.0], 'float64')).round(4).tolist()
        {sample}
    """
    return type(cls_name, (_Plain,), {"_fn_name": fn, "__doc__": doc, "__module__": __name__})


ReLU = _plain("ReLU", "relu", "``max(x, 0)``.", "[0.0, 0.0, 2.0]")
ReLU6 = _plain("ReLU6", "relu6", "``min(max(x, 0), 6)``.", "[0.0, 0.0, 2.0]")
Mish = _plain("Mish", "mish", "``x * tanh(softplus(x))``.", "[-0.3034, 0.0, 1.944]")
Hardswish = _plain("Hardswish", "hardswish", "``x * relu6(x + 3) / 6``.", "[-0.3333, 0.0, 1.6667]")
Tanhshrink = _plain("Tanhshrink", "tanhshrink", "``x - tanh(x)``.", "[-0.2384, 0.0, 1.036]")
LogSigmoid = _plain("LogSigmoid", "log_sigmoid", "``log(sigmoid(x))``.", "[-1.3133, -0.6931, -0.1269]")
Tanh = _plain("Tanh", "tanh", "``tanh(x)``.", "[-0.7616, 0.0, 0.964]")
Softsign = _plain("Softsign", "softsign", "``x / (1 + |x|)``.", "[-0.5, 0.0, 0.6667]")
Swish = _plain("Swish", "swish", "``x * sigmoid(x)``.", "[-0.2689, 0.0, 1.7616]")


class Sigmoid(_Plain):
    """``1 / (1 + exp(-x))``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Sigmoid()(paddle.to_tensor([0.0])).tolist()
        [0.5]
    """

    _fn_name = "sigmoid"

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)
        self.name = name

    def extra_repr(self) -> str:
        return _nm(self.name, "")


class Hardsigmoid(Sigmoid):
    """``clip(x / 6 + 0.5, 0, 1)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Hardsigmoid()(paddle.to_tensor([0.0])).tolist()
        [0.5]
    """

    _fn_name = "hardsigmoid"


class Silu(Layer):
    """``x * sigmoid(x)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Silu()(paddle.to_tensor([0.0])).tolist()
        [0.0]
    """

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__()
        self._inplace, self._name = inplace, name

    def forward(self, x: Any) -> Any:
        return _a.silu(x, self._inplace)

    def extra_repr(self) -> str:
        return f"inplace={self._inplace}" + _nm(self._name)


SiLU = Silu


class LeakyReLU(Layer):
    """``x`` if ``x >= 0`` else ``negative_slope * x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.LeakyReLU(0.5)(paddle.to_tensor([-2.0])).tolist()
        [-1.0]
    """

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__()
        self._negative_slope, self._name = negative_slope, name

    def forward(self, x: Any) -> Any:
        return _a.leaky_relu(x, self._negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self._negative_slope}" + _nm(self._name)


class PReLU(Layer):
    """Leaky ReLU with learned slopes (``num_parameters`` = 1 or the channel count).

    Args:
        num_parameters (int): number of slopes. Default 1.
        init (float): initial slope. Default 0.25.
        weight_attr (ParamAttr, optional): slope attributes.
        data_format (str): where the channel axis is. Default 'NCHW'.
        name (str, optional): shown in the repr.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.PReLU()(paddle.to_tensor([-4.0, 1.0])).tolist()
        [-1.0, 1.0]
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, weight_attr: Any = None,
                 data_format: str = "NCHW", name: str | None = None) -> None:
        from pagaie.nn.initializer import Constant
        super().__init__()
        self._num_parameters, self._init, self._weight_attr = num_parameters, init, weight_attr
        self._data_format, self._name = data_format, name
        # the parameter takes the default dtype; ``_dtype`` (shown by repr) stays the Layer's own
        self._weight = self.create_parameter([num_parameters], attr=weight_attr,
                                             dtype=_dt.get_default_dtype(), is_bias=False,
                                             default_initializer=Constant(init))

    def forward(self, x: Any) -> Any:
        return _a.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, "
                f"init={self._init}, dtype={self._dtype}" + _nm(self._name))


class RReLU(Layer):
    """Randomized leaky ReLU (random slopes in training, their mean in evaluation).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.RReLU(0.2, 0.4).eval()(paddle.to_tensor([-1.0], 'float64')).round(4).tolist()
        [-0.3]
    """

    def __init__(self, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, name: str | None = None) -> None:
        super().__init__()
        self._lower, self._upper, self._name = lower, upper, name

    def forward(self, x: Any) -> Any:
        return _a.rrelu(x, self._lower, self._upper, training=self.training)

    def extra_repr(self) -> str:
        return (f"lower={self._lower}, upper={self._upper}, training={self.training}, dtype={self._dtype}"
                + _nm(self._name))


class _Alpha(Layer):
    _fn_name = "elu"

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__()
        self._alpha, self._name = alpha, name

    def forward(self, x: Any) -> Any:
        return _functional(self._fn_name)(x, self._alpha)

    def extra_repr(self) -> str:
        return f"alpha={self._alpha}" + _nm(self._name)


class ELU(_Alpha):
    """``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.ELU(0.2)(paddle.to_tensor([-1.0], 'float64')).round(4).tolist()
        [-0.1264]
    """


class CELU(_Alpha):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.CELU(0.5)(paddle.to_tensor([-1.0], 'float64')).round(4).tolist()
        [-0.4323]
    """

    _fn_name = "celu"


class SELU(Layer):
    """``scale * elu(x, alpha)`` with the self-normalising constants.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.SELU()(paddle.to_tensor([1.0], 'float64')).round(4).tolist()
        [1.0507]
    """

    def __init__(self, scale: float = 1.0507009873554804934193349852946,
                 alpha: float = 1.6732632423543772848170429916717, name: str | None = None) -> None:
        super().__init__()
        self._scale, self._alpha, self._name = scale, alpha, name

    def forward(self, x: Any) -> Any:
        return _a.selu(x, self._scale, self._alpha)

    def extra_repr(self) -> str:
        return f"scale={self._scale:.16f}, alpha={self._alpha:.16f}" + _nm(self._name)


class GELU(Layer):
    """Gaussian error linear unit (``approximate``: tanh approximation).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.GELU()(paddle.to_tensor([1.0], 'float64')).round(4).tolist()
        [0.8413]
    """

    def __init__(self, approximate: Any = False, name: str | None = None) -> None:
        super().__init__()
        self._approximate, self._name = approximate, name

    def forward(self, x: Any) -> Any:
        return _a.gelu(x, self._approximate)

    def extra_repr(self) -> str:
        return f"approximate={self._approximate}" + _nm(self._name)


class _Threshold(Layer):
    _fn_name = "hardshrink"

    lambd = attr_alias("_threshold")

    @kw_alias("threshold", "lambd")
    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self._threshold, self._name = threshold, name

    @kw_alias("x", "input")
    def forward(self, x: Any) -> Any:
        return _functional(self._fn_name)(x, self._threshold)

    def extra_repr(self) -> str:
        return f"threshold={self._threshold}" + _nm(self._name)


class Hardshrink(_Threshold):
    """``x`` where ``|x| > threshold``, else 0.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Hardshrink()(paddle.to_tensor([0.3, 1.0])).tolist()
        [0.0, 1.0]
    """


class Softshrink(_Threshold):
    """Shrink towards zero by ``threshold``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Softshrink()(paddle.to_tensor([0.3, 1.0])).tolist()
        [0.0, 0.5]
    """

    _fn_name = "softshrink"


class Hardtanh(Layer):
    """``clip(x, min, max)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Hardtanh()(paddle.to_tensor([-3.0, 3.0])).tolist()
        [-1.0, 1.0]
    """

    def __init__(self, min: float = -1.0, max: float = 1.0, name: str | None = None) -> None:
        super().__init__()
        self._min, self._max, self._name = min, max, name

    def forward(self, x: Any) -> Any:
        return _a.hardtanh(x, self._min, self._max)

    def extra_repr(self) -> str:
        return f"min={self._min}, max={self._max}" + _nm(self._name)


class ThresholdedReLU(Layer):
    """``x`` where ``x > threshold``, else ``value``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.ThresholdedReLU()(paddle.to_tensor([0.5, 2.0])).tolist()
        [0.0, 2.0]
    """

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__()
        self._threshold, self._value, self._name = threshold, value, name

    def forward(self, x: Any) -> Any:
        return _a.thresholded_relu(x, self._threshold, self._value)

    def extra_repr(self) -> str:
        return f"threshold={self._threshold}, value={self._value}" + _nm(self._name)


class Softplus(Layer):
    """``log(1 + exp(beta * x)) / beta`` (linear above ``threshold``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Softplus()(paddle.to_tensor([0.0], 'float64')).round(4).tolist()
        [0.6931]
    """

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__()
        self._beta, self._threshold, self._name = beta, threshold, name

    def forward(self, x: Any) -> Any:
        return _a.softplus(x, self._beta, self._threshold)

    def extra_repr(self) -> str:
        return f"beta={self._beta}, threshold={self._threshold}" + _nm(self._name)


class Softmax(Layer):
    """Softmax along ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Softmax()(paddle.to_tensor([0.0, 0.0])).tolist()
        [0.5, 0.5]
    """

    _fn_name = "softmax"

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis, self._name, self._dtype = axis, name, None

    def forward(self, x: Any) -> Any:
        return _functional(self._fn_name)(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}" + _nm(self._name)


class LogSoftmax(Softmax):
    """Log-softmax along ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.LogSoftmax()(paddle.to_tensor([0.0, 0.0], 'float64')).round(4).tolist()
        [-0.6931, -0.6931]
    """

    _fn_name = "log_softmax"

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        Layer.__init__(self)   # as Paddle: the Layer's own dtype stays (Softmax clears it)
        self._axis, self._name = axis, name


class Softmax2D(Layer):
    """Softmax over the channel axis of ``[C, H, W]`` or ``[N, C, H, W]`` inputs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Softmax2D()(paddle.zeros([1, 2, 1, 1])).numpy().ravel().tolist()
        [0.5, 0.5]
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self._dtype, self._name = None, name

    def forward(self, x: Any) -> Any:
        if x.ndim not in (3, 4):
            raise AssertionError(f"Softmax2D requires a 3D or 4D tensor as input. Received: {x.ndim}D.")
        return _functional("softmax")(x, -3)

    def extra_repr(self) -> str:
        return _nm(self._name, "")


class Maxout(Layer):
    """Max over groups of ``groups`` channels.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.Maxout(2)(paddle.ones([1, 4, 2, 2])).shape
        paddle.Size([1, 2, 2, 2])
    """

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__()
        self._groups, self._axis, self._name = groups, axis, name

    def forward(self, x: Any) -> Any:
        return _a.maxout(x, self._groups, self._axis)

    def extra_repr(self) -> str:
        return f"groups={self._groups}, axis={self._axis}" + _nm(self._name)


class GLU(Layer):
    """Gated linear unit along ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.GLU()(paddle.ones([2, 4])).shape
        paddle.Size([2, 2])
    """

    dim = attr_alias("_axis")

    @kw_alias("axis", "dim")
    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__()
        self._axis, self._name = axis, name

    @kw_alias("x", "input")
    def forward(self, x: Any) -> Any:
        return _a.glu(x, self._axis)

    def extra_repr(self) -> str:
        return f"axis={self._axis}" + _nm(self._name)
