"""The per-tensor abs-max observer (``paddle.quantization.observers.abs_max``)."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie.quantization.base import BaseObserver
from pagaie.quantization.factory import ObserverFactory

__all__ = ["AbsmaxObserver", "AbsmaxObserverLayer"]


class _MaxScaleObserverLayer(BaseObserver):
    """Shared state of the abs-max observers: the scale is the recorded maximum.

    Subclasses record ``self._max`` in ``forward``; :meth:`cal_thresholds` fixes the
    scale to it (once) with zero zero points.
    """

    def __init__(self, quant_bits: int) -> None:
        super().__init__()
        self._quant_bits = quant_bits
        self._max = None
        self._scale = None
        self._zero_point = None

    def bit_length(self) -> int:
        """Bits of a quantized value."""
        return self._quant_bits

    def quant_axis(self) -> int:
        """-1: one scale for the whole tensor (or the scale's own layout says how it applies)."""
        return -1

    def cal_thresholds(self) -> None:
        """Fix the scale to the maximum seen so far (once) and set a zero zero point."""
        if self._scale is None:
            self._scale = self._max
        self._zero_point = pagaie.zeros_like(self._scale)

    def scales(self) -> Any:
        """The scale(s) (fixed on first call, so observe the calibration data first)."""
        if self._scale is None:
            self.cal_thresholds()
        return self._scale


class AbsmaxObserver(ObserverFactory):
    """Factory of observers that record the largest absolute value of their input.

    Args:
        quant_bits (int, optional): bits of a quantized value. Default 8.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import QuantConfig
        >>> from pagaie.quantization.observers import AbsmaxObserver
        >>> observer = AbsmaxObserver()
        >>> observer
        AbsmaxObserver(quant_bits=8)
        >>> layer = observer._instance(None)
        >>> _ = layer(paddle.to_tensor([1.0, -3.0]))
        >>> _ = layer(paddle.to_tensor([2.0]))
        >>> layer.scales().item()
        3.0
    """

    def __init__(self, quant_bits: int = 8) -> None:
        super().__init__(quant_bits=quant_bits)

    def _get_class(self) -> type:
        return AbsmaxObserverLayer


class AbsmaxObserverLayer(_MaxScaleObserverLayer):
    """Per-tensor abs-max observer (built by :class:`AbsmaxObserver`).

    Args:
        layer (Layer): the observed layer (unused).
        quant_bits (int): bits of a quantized value.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.observers import AbsmaxObserverLayer
        >>> ob = AbsmaxObserverLayer(None)
        >>> ob(paddle.to_tensor([0.5, -4.0])).tolist()   # passes the input through
        [0.5, -4.0]
        >>> ob.scales().item(), ob.zero_points().item()
        (4.0, 0.0)
    """

    INIT_ABS_MAX = 1e-7

    def __init__(self, layer: Any, quant_bits: int = 8) -> None:
        super().__init__(quant_bits)
        self.abs_max_val = pagaie.to_tensor(AbsmaxObserverLayer.INIT_ABS_MAX)

    def forward(self, input: Any) -> Any:
        """Record ``max(|input|)`` (the running maximum) and return ``input``."""
        self._min, self._max = self.cal_min_max(input)
        return input

    def cal_min_max(self, inputs: Any) -> tuple:
        """``(0, running max of |inputs|)``."""
        abs_max = pagaie.max(pagaie.abs(inputs.detach()))
        if self._max is not None:
            abs_max = pagaie.maximum(abs_max, self._max.cast(inputs.dtype))
        return 0, abs_max

    def zero_points(self) -> Any:
        """The zero point (zeros), set by :meth:`cal_thresholds`."""
        return self._zero_point
