"""The group-wise abs-max weight observer (``paddle.quantization.observers.groupwise``)."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie.quantization.factory import ObserverFactory
from pagaie.quantization.observers.abs_max import _MaxScaleObserverLayer

__all__ = ["GroupWiseWeightObserver", "GroupWiseWeightObserverLayer"]


class GroupWiseWeightObserver(ObserverFactory):
    """Factory of observers computing group-wise abs-max scales of 2-D weights.

    As in Paddle 3.3.1, only ``quant_bits`` is handed to the observer layer, which
    always uses groups of 128 rows.

    Args:
        quant_bits (int, optional): bits of a quantized value. Default 8.
        group_size (int, optional): accepted for compatibility (see above).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.observers import GroupWiseWeightObserver
        >>> ob = GroupWiseWeightObserver()._instance(None)
        >>> w = paddle.arange(256 * 2, dtype="float32").reshape([256, 2])
        >>> _ = ob(w)
        >>> ob.scales().tolist()
        [[254.0, 255.0], [510.0, 511.0]]
    """

    def __init__(self, quant_bits: int = 8, group_size: int = 128) -> None:
        super().__init__(quant_bits=quant_bits)

    def _get_class(self) -> type:
        return GroupWiseWeightObserverLayer


class GroupWiseWeightObserverLayer(_MaxScaleObserverLayer):
    """Group-wise abs-max observer of 2-D weights (built by :class:`GroupWiseWeightObserver`).

    Args:
        layer (Layer): the observed layer.
        quant_bits (int): bits of a quantized value.
        group_size (int): rows per group, 64 or 128.
    """

    def __init__(self, layer: Any, quant_bits: int = 8, group_size: int = 128) -> None:
        super().__init__(quant_bits)
        self.group_size = group_size
        self._layer = layer

    def forward(self, inputs: Any) -> Any:
        """Record the group-wise abs-max of ``inputs`` and return them unchanged."""
        self._max = self._cal_abs_max(inputs)
        return inputs

    def _cal_abs_max(self, inputs: Any) -> Any:
        rows, cols = (list(inputs.shape) + [0, 0])[:2]
        assert self.group_size in (64, 128), "group_size only support 64 or 128"
        assert rows % self.group_size == 0, "group_size must be a factor of input channels"
        assert len(inputs.shape) == 2, "Currently only support 2D tensor"
        grouped = inputs.detach().transpose([1, 0]).reshape(
            [cols, rows // self.group_size, self.group_size])
        m = pagaie.max(pagaie.abs(grouped), axis=2).cast("float32")
        m = pagaie.where(m == 0, pagaie.full_like(m, 1e-8), m)
        return m.transpose([1, 0])

    def min_value(self) -> float:
        """0.0 (symmetric quantization)."""
        return 0.0

    def max_value(self) -> Any:
        """The recorded group-wise maxima."""
        return self._max

    def zero_points(self) -> Any:
        """Zeros shaped like the scales."""
        if self._zero_point is None:
            self.cal_thresholds()
        return self._zero_point
