"""Quantization configuration: which quanters each layer of a model gets.

A :class:`QuantConfig` maps every sublayer of a model to a :class:`SingleLayerConfig`
(an activation factory and a weight factory). The sources, weakest first: the global
config, the parent layer's config, the layer's type (``add_type_config``), its full
name (``add_name_config`` / ``add_layer_config``).
"""
from __future__ import annotations

import copy
from typing import Any

from pagaie import nn
from pagaie.nn import Layer
from pagaie.quantization.base import ObserveWrapper
from pagaie.quantization.layers import QuantedConv2D, QuantedLinear, QuanterStub, Stub

__all__ = ["QuantConfig", "SingleLayerConfig", "DEFAULT_QAT_LAYER_MAPPINGS", "DEFAULT_LEAVES"]

DEFAULT_QAT_LAYER_MAPPINGS: dict = {
    Stub: QuanterStub,
    nn.Linear: QuantedLinear,
    nn.Conv2D: QuantedConv2D,
}

DEFAULT_LEAVES = [nn.ReLU, nn.AvgPool2D]


class SingleLayerConfig:
    """The quanter factories for one layer's activations and weights.

    Args:
        activation (QuanterFactory|None): the activation quanter factory.
        weight (QuanterFactory|None): the weight quanter factory.

    Examples:
        >>> from pagaie.quantization.config import SingleLayerConfig
        >>> from pagaie.quantization.observers import AbsmaxObserver
        >>> print(SingleLayerConfig(AbsmaxObserver(), None))
        activation: AbsmaxObserver(quant_bits=8)
        weight: None
    """

    def __init__(self, activation: Any, weight: Any) -> None:
        self._activation = activation
        self._weight = weight

    @property
    def activation(self) -> Any:
        """The activation quanter factory."""
        return self._activation

    @property
    def weight(self) -> Any:
        """The weight quanter factory."""
        return self._weight

    def __str__(self) -> str:
        return f"activation: {self._activation}\nweight: {self._weight}"


class QuantConfig:
    """How to quantize a model: global, per-type, per-name and per-layer quanters.

    Args:
        activation (QuanterFactory|None): the global quanter of activations.
        weight (QuanterFactory|None): the global quanter of weights.

    Examples:
        >>> from pagaie.quantization import QuantConfig
        >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> print(QuantConfig(activation=quanter, weight=quanter))
        Global config:
        activation: FakeQuanterWithAbsMaxObserver(name=None,moving_rate=0.9,bit_length=8,dtype=float32)
        weight: FakeQuanterWithAbsMaxObserver(name=None,moving_rate=0.9,bit_length=8,dtype=float32)
        <BLANKLINE>
    """

    def __init__(self, activation: Any, weight: Any) -> None:
        both_none = activation is None and weight is None
        self._global_config = None if both_none else SingleLayerConfig(activation, weight)
        self._layer2config: dict = {}
        self._prefix2config: dict = {}
        self._type2config: dict = {}
        self._model = None
        self._qat_layer_mapping = copy.deepcopy(DEFAULT_QAT_LAYER_MAPPINGS)
        self._customized_qat_layer_mapping: dict = {}
        self._customized_leaves: list = []

    def add_layer_config(self, layer: Layer | list, activation: Any = None,
                         weight: Any = None) -> None:
        """Configure one layer (or a list of layers); the strongest setting.

        It is recorded by the layer's full name, so it also applies to copies of the
        model.

        Args:
            layer (Layer|list[Layer]): the layer(s).
            activation (QuanterFactory, optional): quanter of activations.
            weight (QuanterFactory, optional): quanter of weights.

        Examples:
            >>> import pagaie as paddle
            >>> from pagaie.quantization import QuantConfig
            >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
            >>> fc = paddle.nn.Linear(4, 2)
            >>> q_config = QuantConfig(activation=None, weight=None)
            >>> q_config.add_layer_config([fc], activation=FakeQuanterWithAbsMaxObserver())
            >>> list(q_config._prefix2config) == [fc.full_name()]
            True
        """
        if isinstance(layer, list):
            for element in layer:
                self.add_layer_config(element, activation=activation, weight=weight)
        else:
            self.add_name_config(layer.full_name(), activation=activation, weight=weight)

    def add_name_config(self, layer_name: str | list, activation: Any = None,
                        weight: Any = None) -> None:
        """Configure layers by full name (``layer.full_name()``); weaker than per layer.

        Args:
            layer_name (str|list[str]): the full name(s).
            activation (QuanterFactory, optional): quanter of activations.
            weight (QuanterFactory, optional): quanter of weights.

        Examples:
            >>> from pagaie.quantization import QuantConfig
            >>> from pagaie.quantization.observers import AbsmaxObserver
            >>> q_config = QuantConfig(activation=None, weight=None)
            >>> q_config.add_name_config(["linear_7"], weight=AbsmaxObserver())
            >>> print(q_config._prefix2config["linear_7"])
            activation: None
            weight: AbsmaxObserver(quant_bits=8)
        """
        if isinstance(layer_name, str):
            self._prefix2config[layer_name] = SingleLayerConfig(activation, weight)
        if isinstance(layer_name, list):
            for element in layer_name:
                self.add_name_config(element, activation=activation, weight=weight)

    def add_type_config(self, layer_type: type | list, activation: Any = None,
                        weight: Any = None) -> None:
        """Configure every layer of a type (a ``Layer`` subclass); weaker than by name.

        Args:
            layer_type (type|list[type]): the layer class(es).
            activation (QuanterFactory, optional): quanter of activations.
            weight (QuanterFactory, optional): quanter of weights.

        Examples:
            >>> import pagaie as paddle
            >>> from pagaie.quantization import QuantConfig
            >>> from pagaie.quantization.observers import AbsmaxObserver
            >>> q_config = QuantConfig(activation=None, weight=None)
            >>> q_config.add_type_config([paddle.nn.Linear], activation=AbsmaxObserver())
            >>> print(q_config)
            Global config:
            None
            Layer type config:
            {<class 'pagaie.nn.layer.common.Linear'>: <...SingleLayerConfig object at ...>}
            <BLANKLINE>
        """
        if isinstance(layer_type, type) and issubclass(layer_type, Layer):
            self._type2config[layer_type] = SingleLayerConfig(activation, weight)
        if isinstance(layer_type, list):
            for element in layer_type:
                self.add_type_config(element, activation=activation, weight=weight)

    def add_qat_layer_mapping(self, source: type, target: type) -> None:
        """Quantize layers of type ``source`` as ``target(layer, single_layer_config)``.

        Args:
            source (type): a ``Layer`` subclass to replace.
            target (type): the ``Layer`` subclass replacing it.

        Raises:
            AssertionError: when either is not a ``Layer`` subclass.

        Examples:
            >>> import pagaie as paddle
            >>> from pagaie.quantization import QuantConfig
            >>> class MyQuantedConv(paddle.nn.Layer):
            ...     def __init__(self, layer, q_config):
            ...         super().__init__()
            >>> q_config = QuantConfig(activation=None, weight=None)
            >>> q_config.add_qat_layer_mapping(paddle.nn.Conv2D, MyQuantedConv)
            >>> q_config.qat_layer_mappings[paddle.nn.Conv2D] is MyQuantedConv
            True
        """
        assert isinstance(source, type) and issubclass(source, Layer), \
            "The source layer to be placed should be a subclass of paddle.nn.Layer"
        assert isinstance(target, type) and issubclass(target, Layer), \
            "The target layer should be a subclass of paddle.nn.qat.Layer"
        self._qat_layer_mapping[source] = target
        self._customized_qat_layer_mapping[source] = target

    def add_customized_leaf(self, layer_type: type) -> None:
        """Treat layers of ``layer_type`` as leaves: observed as a whole, sublayers untouched.

        Args:
            layer_type (type): the ``Layer`` subclass.

        Examples:
            >>> import pagaie as paddle
            >>> from pagaie.quantization import QuantConfig
            >>> q_config = QuantConfig(activation=None, weight=None)
            >>> q_config.add_customized_leaf(paddle.nn.Sequential)
            >>> q_config.customized_leaves == [paddle.nn.Sequential]
            True
        """
        self._customized_leaves.append(layer_type)

    @property
    def customized_leaves(self) -> list:
        """The layer types declared as leaves."""
        return self._customized_leaves

    @property
    def qat_layer_mappings(self) -> dict:
        """Layer type -> quantized layer type (defaults plus customized)."""
        return self._qat_layer_mapping

    @property
    def default_qat_layer_mapping(self) -> dict:
        """The built-in mapping (Stub, Linear, Conv2D)."""
        return DEFAULT_QAT_LAYER_MAPPINGS

    @property
    def global_config(self) -> SingleLayerConfig | None:
        """The global :class:`SingleLayerConfig` (None when both factories are None)."""
        return self._global_config

    # ---- used by QAT / PTQ ----------------------------------------------------------
    def _need_observe(self, layer: Layer) -> bool:
        return self._is_leaf(layer) and self._has_observer_config(layer)

    def _get_qat_layer(self, layer: Layer) -> Layer:
        target = self._customized_qat_layer_mapping.get(
            type(layer), self.qat_layer_mappings.get(type(layer)))
        return target(layer, self._get_config_by_layer(layer))

    def _has_observer_config(self, layer: Layer) -> bool:
        config = self._get_config_by_layer(layer)
        return config is not None and config.activation is not None

    def _is_leaf(self, layer: Layer) -> bool:
        return (type(layer) in DEFAULT_LEAVES or not layer._sub_layers
                or type(layer) in self._customized_leaves)

    def _get_observer(self, layer: Layer) -> Any:
        config = self._get_config_by_layer(layer)
        factory = None if config is None else config.activation
        return None if factory is None else factory._instance(layer)

    def _get_observe_wrapper(self, layer: Layer) -> ObserveWrapper:
        return ObserveWrapper(self._get_observer(layer), layer)

    def _get_config_by_layer(self, layer: Layer) -> SingleLayerConfig | None:
        return self._layer2config.get(layer)

    def _is_quantifiable(self, layer: Layer) -> bool:
        return layer in self._layer2config

    def _specify(self, model: Layer) -> None:
        """Give each sublayer of ``model`` its config (global < parent < type < name)."""
        self._model = model
        self._specify_helper(model)

    def _specify_helper(self, model: Layer) -> "QuantConfig":
        for child in model.children():
            config = self._layer2config.get(model, self._global_config)
            config = self._type2config.get(type(child), config)
            config = self._prefix2config.get(child.full_name(), config)
            if config is not None:
                self._layer2config[child] = config
            self._specify_helper(child)
        return self

    def details(self) -> str:
        """The model (after quantize) annotated with each configured sublayer's config.

        Examples:
            >>> from pagaie.quantization import QuantConfig
            >>> print(QuantConfig(None, None).details())
            Global config:
            None
            <BLANKLINE>
        """
        if self._model is None:
            return str(self)
        return self._details_helper(self._model)

    def _details_helper(self, layer: Layer) -> str:
        lines = []
        for name, sub in layer.named_children():
            text = _indent(self._details_helper(sub), 2)
            if sub in self._layer2config:
                lines.append(f"({name}): {text}, {self._layer2config[sub]}")
        out = type(layer).__name__ + "("
        if lines:
            out += "\n  " + "\n  ".join(lines) + "\n"
        return out + ")"

    def __str__(self) -> str:
        out = f"Global config:\n{self._global_config}\n"
        if self._type2config:
            out += f"Layer type config:\n{self._type2config}\n"
        if self._prefix2config:
            out += f"Layer prefix config: \n{self._prefix2config}\n"
        return out


def _indent(text: str, n: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * n + line for line in lines[1:])
