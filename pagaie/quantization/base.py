"""Abstract quanter and observer layers, and the wrapper that observes a layer's input."""
from __future__ import annotations

import abc
from typing import Any

from pagaie.nn import Layer

__all__ = ["BaseQuanter", "BaseObserver", "ObserveWrapper"]


class BaseQuanter(Layer, metaclass=abc.ABCMeta):
    """Base class of quanters: layers that (fake-)quantize the tensor they are given.

    Subclasses implement ``forward``, ``scales``, ``zero_points``, ``quant_axis`` and
    ``bit_length``. ``scales()`` / ``zero_points()`` may return None when the quanter
    holds no such values; ``quant_axis()`` is -1 for one scale per tensor.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import BaseQuanter
        >>> class Identity(BaseQuanter):
        ...     def forward(self, x):
        ...         return x
        ...     def scales(self):
        ...         return None
        ...     def zero_points(self):
        ...         return None
        ...     def quant_axis(self):
        ...         return -1
        ...     def bit_length(self):
        ...         return 8
        >>> Identity()(paddle.to_tensor([1.5])).tolist()
        [1.5]
        >>> BaseQuanter()
        Traceback (most recent call last):
        ...
        TypeError: Can't instantiate abstract class BaseQuanter with abstract methods bit_length, forward, quant_axis, scales, zero_points
    """

    def __init__(self) -> None:
        super().__init__()

    @abc.abstractmethod
    def forward(self, input: Any) -> Any:
        """Quantize (or observe) ``input``."""

    @abc.abstractmethod
    def scales(self) -> Any:
        """The quantization scale(s), or None."""

    @abc.abstractmethod
    def zero_points(self) -> Any:
        """The zero point(s), or None."""

    @abc.abstractmethod
    def quant_axis(self) -> Any:
        """The channel axis of per-channel scales; -1 for one scale per tensor."""

    @abc.abstractmethod
    def bit_length(self) -> Any:
        """The number of bits of a quantized value."""


class BaseObserver(BaseQuanter, metaclass=abc.ABCMeta):
    """Base class of observers: quanters that only collect statistics (for PTQ).

    Besides :class:`BaseQuanter`'s methods, subclasses implement ``cal_thresholds``,
    which turns the collected statistics into scales.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import BaseObserver
        >>> class MaxObserver(BaseObserver):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.seen = 0.0
        ...     def forward(self, x):
        ...         self.seen = max(self.seen, float(x.abs().max()))
        ...         return x
        ...     def cal_thresholds(self):
        ...         pass
        ...     def scales(self):
        ...         return self.seen
        ...     def zero_points(self):
        ...         return None
        ...     def quant_axis(self):
        ...         return -1
        ...     def bit_length(self):
        ...         return 8
        >>> ob = MaxObserver()
        >>> _ = ob(paddle.to_tensor([-3.0, 2.0]))
        >>> ob.scales()
        3.0
    """

    def __init__(self) -> None:
        super().__init__()

    @abc.abstractmethod
    def cal_thresholds(self) -> None:
        """Compute the scales from the statistics collected so far."""


class ObserveWrapper(Layer):
    """Runs an observer on a layer's input (or output) around the layer itself.

    Quantization inserts it around leaf layers (ReLU, pooling...) so that the tensors
    flowing into them are observed or fake-quantized.

    Args:
        observer (BaseQuanter): the observer or quanter.
        observed (Layer): the wrapped layer.
        observe_input (bool): observe the input (True) or the output (False).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.base import ObserveWrapper
        >>> from pagaie.quantization.observers import AbsmaxObserver
        >>> relu = paddle.nn.ReLU()
        >>> w = ObserveWrapper(AbsmaxObserver()._instance(relu), relu)
        >>> w(paddle.to_tensor([-2.0, 1.0])).tolist()
        [0.0, 1.0]
        >>> w._observer.scales().item()
        2.0
    """

    def __init__(self, observer: BaseQuanter, observed: Layer, observe_input: bool = True) -> None:
        super().__init__()
        self._observer = observer
        self._observed = observed
        self._observe_input = observe_input

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        """Observe the input then run the layer (or run the layer then observe its output)."""
        if self._observe_input:
            return self._observed(self._observer(*inputs, **kwargs), **kwargs)
        return self._observer(self._observed(*inputs, **kwargs), **kwargs)
