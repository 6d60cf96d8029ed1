"""Quantization-aware training (QAT) and post-training quantization (PTQ).

Both prepare a model the same way:

1. each sublayer gets its :class:`SingleLayerConfig` from the :class:`QuantConfig`;
2. configured layers with a quantized counterpart (``Linear``, ``Conv2D``, ``Stub``,
   plus customized mappings) are replaced by it (``QuantedLinear``...), which quantizes
   the layer's input and weight;
3. configured leaf layers (no sublayers, ``ReLU``, ``AvgPool2D``, customized leaves)
   are wrapped in an :class:`ObserveWrapper` that observes / quantizes their input.

QAT uses quanters (fake quantization during training); PTQ uses observers (statistics
collected by running calibration data in evaluation mode). ``convert`` then turns every
quanter or observer into explicit quantize / dequantize layers for inference.
"""
from __future__ import annotations

import abc
import copy
from typing import Any, Callable

from pagaie.nn import Layer
from pagaie.quantization.base import BaseQuanter
from pagaie.quantization.config import QuantConfig
from pagaie.quantization.format import LinearQuanterDequanter
from pagaie.quantization.layers import ConvertibleQuantedLayer

__all__ = ["Quantization", "QAT", "PTQ"]


def _rewrite_children(model: Layer, rewrite: Callable[[Layer], Any]) -> None:
    """Replace each direct child of ``model`` by ``rewrite(child)`` where that is not None.

    The swaps are made after the walk, so the children do not change under it.
    """
    replaced = {}
    for name, child in model.named_children():
        new = rewrite(child)
        if new is not None:
            replaced[name] = new
    for name, layer in replaced.items():
        model._sub_layers[name] = layer


class Quantization(metaclass=abc.ABCMeta):
    """Shared machinery of :class:`QAT` and :class:`PTQ` (holds a copy of the config).

    Args:
        config (QuantConfig): the quantization configuration.
    """

    def __init__(self, config: QuantConfig) -> None:
        self._config = copy.deepcopy(config)

    @abc.abstractmethod
    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """Prepare ``model`` for QAT or calibration."""

    def convert(self, model: Layer, inplace: bool = False, remain_weight: bool = False) -> Layer:
        """Turn a quantized model into its inference form.

        Every quanter / observer becomes a :class:`LinearQuanterDequanter` holding its
        scales; weights are replaced by their integer levels (kept as floats) unless
        ``remain_weight``. Quantized layers whose weight quanter has no scales yet are
        left as they are.

        Args:
            model (Layer): a model returned by ``quantize`` (trained or calibrated).
            inplace (bool, optional): change ``model`` itself rather than a copy.
            remain_weight (bool, optional): keep float weights (quantize at run time).

        Returns:
            Layer: the converted model.

        Examples:
            >>> import pagaie as paddle
            >>> from pagaie.quantization import PTQ, QuantConfig
            >>> from pagaie.quantization.observers import AbsmaxObserver
            >>> ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver()))
            >>> model = paddle.nn.Sequential(paddle.nn.Linear(4, 3))
            >>> _ = model.eval()
            >>> observed = ptq.quantize(model)
            >>> _ = observed(paddle.rand([2, 4]))          # calibration
            >>> converted = ptq.convert(observed)
            >>> print(converted)
            Sequential(
              (0): QuantedLinear(
                (weight_quanter): LinearQuanterDequanter(
                  (_quanter): None
                  (_dequanter): LinearDequanter()
                )
                (activation_quanter): LinearQuanterDequanter(
                  (_quanter): LinearQuanter()
                  (_dequanter): LinearDequanter()
                )
              )
            )
            >>> list(converted(paddle.rand([2, 4])).shape)
            [2, 3]
        """
        model = model if inplace else copy.deepcopy(model)

        def rewrite(child: Layer) -> Any:
            if isinstance(child, ConvertibleQuantedLayer):
                if child.converted:
                    return None
                wq = getattr(child, "weight_quanter", False)
                if wq is not False and (wq is None or wq.scales() is None):
                    return None
                child._convert(remain_weight=remain_weight)
            elif isinstance(child, BaseQuanter):
                return LinearQuanterDequanter.from_quanter(child)
            else:
                self.convert(child, inplace=True, remain_weight=remain_weight)
            return None

        _rewrite_children(model, rewrite)
        return model

    def _convert_to_quant_layers(self, model: Layer, config: QuantConfig) -> None:
        def rewrite(child: Layer) -> Any:
            if config._is_quantifiable(child) and type(child) in config.qat_layer_mappings:
                return config._get_qat_layer(child)
            self._convert_to_quant_layers(child, config)
            return None

        _rewrite_children(model, rewrite)

    def _insert_activation_observers(self, model: Layer, config: QuantConfig) -> None:
        quanted_types = set(config._qat_layer_mapping.values()) | set(
            config._customized_qat_layer_mapping.values())

        def rewrite(child: Layer) -> Any:
            if config._need_observe(child):
                return config._get_observe_wrapper(child)
            if type(child) not in quanted_types:
                self._insert_activation_observers(child, config)
            return None

        _rewrite_children(model, rewrite)

    def _prepare(self, model: Layer) -> Layer:
        self._config._specify(model)
        self._convert_to_quant_layers(model, self._config)
        self._insert_activation_observers(model, self._config)
        return model

    def _details(self) -> str:
        return self._config.details()

    def __str__(self) -> str:
        return self._details()

    __repr__ = __str__


class QAT(Quantization):
    """Prepare models for quantization-aware training.

    Args:
        config (QuantConfig): the quantization configuration (copied).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import QAT, QuantConfig
        >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> qat = QAT(QuantConfig(activation=quanter, weight=quanter))
        >>> model = paddle.nn.Sequential(paddle.nn.Conv2D(1, 2, 3), paddle.nn.ReLU())
        >>> print(qat.quantize(model))
        Sequential(
          (0): QuantedConv2D(
            (weight_quanter): FakeQuanterWithAbsMaxObserverLayer()
            (activation_quanter): FakeQuanterWithAbsMaxObserverLayer()
          )
          (1): ObserveWrapper(
            (_observer): FakeQuanterWithAbsMaxObserverLayer()
            (_observed): ReLU()
          )
        )
    """

    def __init__(self, config: QuantConfig) -> None:
        super().__init__(config)

    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """Insert fake quanters into (a copy of) ``model`` for quantization-aware training.

        Args:
            model (Layer): the model, in training mode.
            inplace (bool, optional): change ``model`` itself rather than a copy.

        Returns:
            Layer: the model to train.

        Raises:
            AssertionError: if ``model`` is in evaluation mode.
        """
        assert model.training, ("Quantization-Aware Training should work on training models. "
                                "Please set training mode by model.train().")
        return self._prepare(model if inplace else copy.deepcopy(model))


class PTQ(Quantization):
    """Post-training quantization: insert observers, calibrate, then ``convert``.

    Args:
        config (QuantConfig): the quantization configuration (copied).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import PTQ, QuantConfig
        >>> from pagaie.quantization.observers import AbsmaxObserver
        >>> ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver()))
        >>> model = paddle.nn.Sequential(paddle.nn.Linear(2, 2))
        >>> _ = model.eval()
        >>> observed = ptq.quantize(model)
        >>> _ = observed(paddle.to_tensor([[1.0, -5.0]]))
        >>> observed[0].activation_quanter.scales().item()
        5.0
    """

    def __init__(self, config: QuantConfig) -> None:
        super().__init__(config)

    @staticmethod
    def _is_parallel_training() -> bool:
        try:
            from pagaie.distributed import fleet
            return fleet.worker_num() > 2
        except Exception:  # fleet not initialised
            return False

    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """Insert observers into (a copy of) ``model`` for calibration.

        Run calibration batches through the returned model, then call :meth:`convert`.

        Args:
            model (Layer): the model, in evaluation mode.
            inplace (bool, optional): change ``model`` itself rather than a copy.

        Returns:
            Layer: the model to calibrate.

        Raises:
            AssertionError: if ``model`` is in training mode.
        """
        target = model
        if not inplace:
            assert not self._is_parallel_training(), \
                "'inplace' is not compatible with parallel training."
            target = copy.deepcopy(model)
            target.eval()
        assert not model.training, ("Post-Training Quantization should not work on training "
                                    "models. Please set evaluation mode by model.eval().")
        return self._prepare(target)
