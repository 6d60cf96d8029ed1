"""Quantization-aware layers and stubs (Paddle's ``paddle.nn.quant`` counterparts).

:class:`QuantedLinear` and :class:`QuantedConv2D` replace ``Linear`` / ``Conv2D`` when a
model is quantized: they share the original weight and bias and run the original
computation on a quantized input and a quantized weight. :class:`Stub` marks a point in
a forward pass (for example before a functional call) where an observer should be
inserted; quantization replaces it by a :class:`QuanterStub`.
"""
from __future__ import annotations

import abc
from typing import Any

from pagaie.nn import Layer
from pagaie.nn import functional as F
from pagaie.quantization.format import LinearQuanterDequanter

__all__ = ["ConvertibleQuantedLayer", "QuantedLinear", "QuantedConv2D", "Stub", "QuanterStub"]


class ConvertibleQuantedLayer(Layer, metaclass=abc.ABCMeta):
    """A quantized layer that can be converted for inference.

    Subclasses name their quantized weights and the quanters that go with them
    (``weights_to_quanters``) and their activation quanters (``activation_quanters``).
    Conversion replaces every quanter by a :class:`LinearQuanterDequanter`; weights are
    quantized once (unless ``remain_weight``) and keep only the dequantize step.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.layers import ConvertibleQuantedLayer
        >>> from pagaie.quantization.observers import AbsmaxObserver
        >>> class Scale(ConvertibleQuantedLayer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.weight = self.create_parameter([1])
        ...         self.weight.set_value(paddle.to_tensor([0.3]))
        ...         self.weight_quanter = AbsmaxObserver()._instance(self)
        ...     def forward(self, x):
        ...         return x * self.weight_quanter(self.weight)
        ...     def weights_to_quanters(self):
        ...         return [("weight", "weight_quanter")]
        ...     def activation_quanters(self):
        ...         return []
        >>> layer = Scale()
        >>> _ = layer(paddle.ones([1]))
        >>> layer._convert()
        >>> layer.weight.tolist()   # the stored weight is now its integer level
        [127.0]
    """

    def __init__(self) -> None:
        super().__init__()
        self.converted = False

    @abc.abstractmethod
    def weights_to_quanters(self) -> list[tuple[str, str]]:
        """Pairs ``(weight attribute, quanter attribute)``."""

    @abc.abstractmethod
    def activation_quanters(self) -> list[str]:
        """Names of the attributes holding activation quanters."""

    def _convert_quanter_to_qdq(self, quanter_name: str) -> Any:
        quanter = getattr(self, quanter_name, None)
        if quanter is None:
            return None
        qdq = LinearQuanterDequanter.from_quanter(quanter)
        setattr(self, quanter_name, qdq)
        return qdq

    def _quant_weights(self, weight_name: str, quanter: Any) -> None:
        weight = getattr(self, weight_name)
        weight.set_value(quanter(weight))

    def _convert(self, remain_weight: bool = False) -> None:
        """Replace the quanters by quantize/dequantize layers (once)."""
        assert not self.converted, "The model should be converted only once."
        for weight_name, quanter_name in self.weights_to_quanters():
            qdq = self._convert_quanter_to_qdq(quanter_name)
            if qdq is not None and remain_weight is False:
                self._quant_weights(weight_name, qdq._quanter)
                qdq._quanter = None
        for quanter_name in self.activation_quanters():
            self._convert_quanter_to_qdq(quanter_name)
        self.converted = True


class _WeightInputQuantedLayer(ConvertibleQuantedLayer):
    """A quantized layer sharing ``layer``'s weight and bias, with one weight quanter and
    one input (activation) quanter built from ``q_config`` (None where it has none)."""

    def __init__(self, layer: Layer, q_config: Any) -> None:
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        w, a = q_config.weight, q_config.activation
        self.weight_quanter = w._instance(layer) if w is not None else None
        self.activation_quanter = a._instance(layer) if a is not None else None

    def _quantized_operands(self, input: Any) -> tuple:
        """``(quant(input), quant(weight))``, each unchanged where there is no quanter."""
        x = input if self.activation_quanter is None else self.activation_quanter(input)
        w = self.weight if self.weight_quanter is None else self.weight_quanter(self.weight)
        return x, w

    def weights_to_quanters(self) -> list[tuple[str, str]]:
        """``[('weight', 'weight_quanter')]``."""
        return [("weight", "weight_quanter")]

    def activation_quanters(self) -> list[str]:
        """``['activation_quanter']``."""
        return ["activation_quanter"]


class QuantedLinear(_WeightInputQuantedLayer):
    """``Linear`` computed on a quantized input and a quantized weight.

    Args:
        layer (Linear): the layer to quantize (its weight and bias are shared).
        q_config (SingleLayerConfig): the factories of the weight and activation quanters.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.config import SingleLayerConfig
        >>> from pagaie.quantization.layers import QuantedLinear
        >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> fc = paddle.nn.Linear(4, 2)
        >>> q = FakeQuanterWithAbsMaxObserver()
        >>> qfc = QuantedLinear(fc, SingleLayerConfig(activation=q, weight=q))
        >>> list(qfc(paddle.ones([3, 4])).shape)
        [3, 2]
        >>> qfc.weight is fc.weight
        True
    """

    def __init__(self, layer: Layer, q_config: Any) -> None:
        super().__init__(layer, q_config)
        self.name = getattr(layer, "name", None)

    def forward(self, input: Any) -> Any:
        """``linear(quant(input), quant(weight), bias)``."""
        x, w = self._quantized_operands(input)
        return F.linear(x, w, self.bias, name=self.name)


class QuantedConv2D(_WeightInputQuantedLayer):
    """``Conv2D`` computed on a quantized input and a quantized weight.

    Args:
        layer (Conv2D): the layer to quantize (weight, bias and settings are shared).
        q_config (SingleLayerConfig): the factories of the weight and activation quanters.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.config import SingleLayerConfig
        >>> from pagaie.quantization.layers import QuantedConv2D
        >>> from pagaie.quantization.observers import AbsmaxObserver
        >>> conv = paddle.nn.Conv2D(1, 2, 3, padding=1)
        >>> qconv = QuantedConv2D(conv, SingleLayerConfig(activation=AbsmaxObserver(), weight=None))
        >>> x = paddle.rand([1, 1, 4, 4])
        >>> bool((qconv(x) == conv(x)).all())   # an observer does not change values
        True
    """

    def __init__(self, layer: Layer, q_config: Any) -> None:
        super().__init__(layer, q_config)
        self._groups = layer._groups
        self._stride = layer._stride
        self._padding = layer._padding
        self._padding_mode = layer._padding_mode
        self._dilation = layer._dilation
        self._data_format = layer._data_format

    def forward(self, input: Any) -> Any:
        """``conv2d(quant(input), quant(weight), bias)`` with the original settings."""
        return self._conv_forward(*self._quantized_operands(input))

    def _conv_forward(self, inputs: Any, weights: Any) -> Any:
        padding = self._padding
        if self._padding_mode != "zeros":
            inputs = F.pad(inputs, [padding] * 4, mode=self._padding_mode,
                           data_format=self._data_format)
            padding = 0
        return F.conv2d(inputs, weights, bias=self.bias, padding=padding, stride=self._stride,
                        dilation=self._dilation, groups=self._groups,
                        data_format=self._data_format)


class Stub(Layer):
    """An identity placeholder where quantization inserts an observer.

    Call it in ``forward`` before a functional API whose input should be observed. If
    ``observer`` is None, the configuration's activation quanter is used.

    Args:
        observer (QuanterFactory, optional): the observer / quanter to insert.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import QAT, QuantConfig
        >>> from pagaie.quantization.layers import Stub
        >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> class Model(paddle.nn.Layer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.conv = paddle.nn.Conv2D(3, 6, 3, stride=1, padding=1)
        ...         self.quant = Stub(quanter)
        ...     def forward(self, inputs):
        ...         return paddle.nn.functional.relu(self.quant(self.conv(inputs)))
        >>> q_config = QuantConfig(activation=quanter, weight=quanter)
        >>> print(QAT(q_config).quantize(Model()))
        Model(
          (conv): QuantedConv2D(
            (weight_quanter): FakeQuanterWithAbsMaxObserverLayer()
            (activation_quanter): FakeQuanterWithAbsMaxObserverLayer()
          )
          (quant): QuanterStub(
            (_observer): FakeQuanterWithAbsMaxObserverLayer()
          )
        )
    """

    def __init__(self, observer: Any = None) -> None:
        super().__init__()
        self._observer = observer

    def forward(self, input: Any) -> Any:
        """Return ``input`` unchanged."""
        return input


class QuanterStub(Layer):
    """What a :class:`Stub` becomes: an identity layer whose input goes through an observer.

    Args:
        layer (Stub): the stub (its own observer factory is preferred).
        q_config (SingleLayerConfig): the configuration used when the stub has none.
    """

    def __init__(self, layer: Stub, q_config: Any) -> None:
        super().__init__()
        self._observer = None
        if layer._observer is not None:
            self._observer = layer._observer._instance(layer)
        elif q_config.activation is not None:
            self._observer = q_config.activation._instance(layer)

    def forward(self, input: Any) -> Any:
        """The observer's output (or ``input`` when there is no observer)."""
        return self._observer(input) if self._observer is not None else input
