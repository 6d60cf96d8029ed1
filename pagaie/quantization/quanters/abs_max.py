"""Built-in quanters for quantization-aware training.

``FakeQuanterWithAbsMaxObserver`` keeps a moving average of the input's largest
absolute value as its scale and fake-quantizes the input with it (symmetric, zero point
0)::

    state = rate * state + 1            (state starts at 1)
    accum = rate * accum + max(|x|)     (accum starts at 1)
    scale = accum / state
    out   = round(clip(x, -scale, scale) * bin / scale) * scale / bin,  bin = 2**(bits-1) - 1

(rounding half away from zero). The statistics advance only in training mode; in
evaluation mode the last scale is used. The gradient passes straight through.
"""
from __future__ import annotations

from typing import Any

from pagaie._ops.quant_ops import fake_quantize_dequantize_moving_average_abs_max as _fake_qdq
from pagaie.quantization.base import BaseQuanter
from pagaie.quantization.factory import QuanterFactory

__all__ = ["FakeQuanterWithAbsMaxObserver", "FakeQuanterWithAbsMaxObserverLayer"]


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    """Factory of quanters that fake-quantize with a moving-average abs-max scale.

    Args:
        moving_rate (float, optional): the decay rate of the moving average. Default 0.9.
        bit_length (int, optional): bits of a quantized value. Default 8.
        dtype (str, optional): dtype of the quanter's statistics. Default ``'float32'``.
        name (str, optional): prefix of the statistics' parameter names.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import QuantConfig
        >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        >>> q_config = QuantConfig(activation=quanter, weight=quanter)
        >>> layer = quanter._instance(None)
        >>> out = layer(paddle.to_tensor([0.5, -1.0]))
        >>> round(layer.scales().item(), 6)   # (0.9 * 1 + 1.0) / (0.9 * 1 + 1)
        1.0
        >>> [round(v, 4) for v in out.tolist()]
        [0.5039, -1.0]
    """

    def __init__(self, moving_rate: float = 0.9, bit_length: int = 8, dtype: str = "float32",
                 name: str | None = None) -> None:
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length, dtype=dtype)

    def _get_class(self) -> type:
        return FakeQuanterWithAbsMaxObserverLayer


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    """The quanter layer built by :class:`FakeQuanterWithAbsMaxObserver`.

    It holds three non-trainable parameters of shape ``[1]``: ``_scale`` (starts at
    0.001), ``_state`` and ``_accum`` (start at 1).

    Args:
        layer (Layer): the layer being quantized (unused).
        name (str, optional): prefix of the parameter names.
        moving_rate (float): the decay rate of the moving average.
        bit_length (int): bits of a quantized value.
        dtype (str): dtype of the statistics.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserverLayer
        >>> q = FakeQuanterWithAbsMaxObserverLayer(None)
        >>> [list(p.shape) for p in q.parameters()]
        [[1], [1], [1]]
        >>> _ = q.eval()
        >>> [round(v, 7) for v in q(paddle.to_tensor([0.0005, 0.01])).tolist()]  # scale 0.001
        [0.0005039, 0.001]
    """

    def __init__(self, layer: Any, name: str | None = None, moving_rate: float = 0.9,
                 bit_length: int = 8, dtype: str = "float32") -> None:
        super().__init__()
        self._moving_rate = moving_rate
        self._bit_length = bit_length
        self._scale = self._statistic(name, "scale", 0.001, dtype)
        self._state = self._statistic(name, "state", 1.0, dtype)
        self._accum = self._statistic(name, "accum", 1.0, dtype)

    def _statistic(self, name: str | None, what: str, value: float, dtype: str) -> Any:
        from pagaie.framework import ParamAttr
        from pagaie.nn.initializer import Constant
        from pagaie.utils import unique_name
        prefix = f"{name}.{what}" if name else f"quant_dequant.{what}"
        attr = ParamAttr(name=unique_name.generate(prefix), initializer=Constant(value),
                         trainable=False)
        p = self.create_parameter(shape=[1], attr=attr, dtype=dtype)
        p.stop_gradient = True
        return p

    def forward(self, input: Any) -> Any:
        """Fake-quantize ``input``; in training, advance the statistics first."""
        if self.training:
            out = _fake_qdq(input, self._scale, self._accum, self._state, self._moving_rate,
                            self._bit_length, False, 1)
        else:
            out = _fake_qdq(input, self._scale, None, None, self._moving_rate, self._bit_length,
                            True, 1)
        return out[0]

    def bit_length(self) -> int:
        """Bits of a quantized value."""
        return self._bit_length

    def quant_axis(self) -> int:
        """-1: one scale for the whole tensor."""
        return -1

    def scales(self) -> Any:
        """The current scale parameter (shape ``[1]``)."""
        return self._scale

    def zero_points(self) -> None:
        """None: the quantization is symmetric."""
        return None
