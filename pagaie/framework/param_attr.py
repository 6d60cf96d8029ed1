"""ParamAttr: how a Layer creates one parameter (name, initializer, learning rate...)."""
from __future__ import annotations

from typing import Any

__all__ = ["ParamAttr", "WeightNormParamAttr"]


class ParamAttr:
    """Attributes of a parameter that a Layer creates.

    Args:
        name (str, optional): the parameter's name; generated (``linear_0.w_0``) when None.
        initializer (Initializer, optional): fills the new parameter; the layer's default
            (Xavier uniform for weights, zeros for biases) when None.
        learning_rate (float): multiplies the optimizer's learning rate for this parameter.
        regularizer (optional): weight decay for this parameter, overriding the optimizer's.
        trainable (bool): whether the parameter is updated (``stop_gradient = not trainable``).
        do_model_average (bool): whether model averaging applies to it.
        need_clip (bool): whether gradient clipping applies to it.

    Examples:
        >>> import pagaie as paddle
        >>> attr = paddle.ParamAttr(name="fc_w", initializer=paddle.nn.initializer.Constant(0.5))
        >>> fc = paddle.nn.Linear(2, 2, weight_attr=attr)
        >>> fc.weight.name, fc.weight.tolist()
        ('fc_w', [[0.5, 0.5], [0.5, 0.5]])
    """

    def __init__(self, name: str | None = None, initializer: Any = None, learning_rate: float = 1.0,
                 regularizer: Any = None, trainable: bool = True, do_model_average: bool = True,
                 need_clip: bool = True) -> None:
        if name == "":
            raise ValueError("paddle.ParamAttr: 'name' can not be an empty string")
        _check_static_types(name, initializer, learning_rate, regularizer, trainable,
                            do_model_average, need_clip)
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    def _set_default_initializer(self, initializer: Any) -> None:
        if self.initializer is None:
            self.initializer = initializer

    @staticmethod
    def _to_attr(arg: Any) -> Any:
        """Normalise a ``weight_attr``/``bias_attr`` argument: None, str, Initializer,
        regularizer, bool (False: no parameter) or ParamAttr; lists elementwise."""
        from pagaie.nn.initializer import Initializer
        if arg is None:
            return ParamAttr()
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, WeightNormParamAttr):
            _check_weight_norm_mode()
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, bool):
            return ParamAttr() if arg else False
        if hasattr(arg, "_regularization_coeff") or type(arg).__name__ in ("L1Decay", "L2Decay"):
            return ParamAttr(regularizer=arg)
        raise TypeError(f"paddle.ParamAttr: {type(arg).__name__} can not be converted to a ParamAttr")

    def _to_kwargs(self, with_initializer: bool = False) -> dict:
        kw = {"name": self.name, "optimize_attr": {"learning_rate": self.learning_rate},
              "regularizer": self.regularizer, "trainable": self.trainable,
              "do_model_average": self.do_model_average, "need_clip": self.need_clip}
        if with_initializer:
            kw["initializer"] = self.initializer
        return kw

    def __repr__(self) -> str:
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
                f"learning_rate={self.learning_rate}, trainable={self.trainable})")


def _check_static_types(name: Any, initializer: Any, learning_rate: Any, regularizer: Any,
                        trainable: Any, do_model_average: Any, need_clip: Any) -> None:
    """As Paddle's ParamAttr, check the argument types in static mode (TypeError); eager
    code takes anything there, in Paddle and here."""
    from pagaie.nn.initializer import Initializer
    from pagaie.regularizer import WeightDecayRegularizer
    from pagaie.static.framework import in_static_mode
    if not in_static_mode():
        return
    for arg, value, kinds, want in (
            ("name", name, (str, type(None)), "a str or None"),
            ("initializer", initializer, (Initializer, type(None)), "an Initializer or None"),
            ("learning_rate", learning_rate, (float, int), "a float or an int"),
            ("regularizer", regularizer, (WeightDecayRegularizer, type(None)),
             "a WeightDecayRegularizer or None"),
            ("trainable", trainable, bool, "a bool"),
            ("do_model_average", do_model_average, bool, "a bool"),
            ("need_clip", need_clip, bool, "a bool")):
        if not isinstance(value, kinds):
            raise TypeError(f"paddle.ParamAttr: '{arg}' must be {want} in static mode, but "
                            f"received {type(value).__name__} {value!r}")


def _check_weight_norm_mode() -> None:
    """Paddle 3's static programs (PIR) cannot create a weight-normalised parameter: every
    layer given a ``WeightNormParamAttr`` while a program is being built raises TypeError."""
    from pagaie.static.framework import in_static_mode
    if in_static_mode():
        raise TypeError("paddle.static.WeightNormParamAttr: a weight-normalised parameter can not "
                        "be created in a static (PIR) program, whose initializers take a Value, "
                        "not the Parameter this attribute asks for; use paddle.nn.utils.weight_norm "
                        "on a layer in dynamic mode")


class WeightNormParamAttr(ParamAttr):
    """A ParamAttr asking for weight normalisation over ``dim``.

    As in Paddle 3.3, using it while a static program is being built raises TypeError; in
    dynamic mode pagaie creates a plain parameter with its other attributes (Paddle's own
    dynamic path fails there), so use :func:`paddle.nn.utils.weight_norm` for the
    normalisation itself.

    Args:
        dim (int, optional): the dimension kept when computing the norm; None normalises
            over all elements.
        name, initializer, learning_rate, regularizer, trainable, do_model_average,
        need_clip: as in :class:`ParamAttr`.

    Examples:
        >>> from pagaie.framework.param_attr import WeightNormParamAttr
        >>> WeightNormParamAttr(dim=1).dim
        1
    """

    params_with_weight_norm: list = []

    def __init__(self, dim: int | None = None, name: str | None = None, initializer: Any = None,
                 learning_rate: float = 1.0, regularizer: Any = None, trainable: bool = True,
                 do_model_average: bool = False, need_clip: bool = True) -> None:
        super().__init__(name=name, initializer=initializer, learning_rate=learning_rate,
                         regularizer=regularizer, trainable=trainable,
                         do_model_average=do_model_average, need_clip=need_clip)
        self.dim = dim
