"""``paddle.nn.quant.format``: the quantize / dequantize layers of converted models.

The implementations live in :mod:`pagaie.quantization.format` and
:mod:`pagaie.quantization.layers`; Paddle exposes them under this name too.
"""
from pagaie.quantization.format import (  # noqa: F401
    LinearDequanter, LinearQuanter, LinearQuanterDequanter, fake_fp8_dequant, fake_fp8_quant,
)
from pagaie.quantization.layers import ConvertibleQuantedLayer  # noqa: F401

__all__ = ["LinearQuanter", "LinearDequanter", "LinearQuanterDequanter", "ConvertibleQuantedLayer",
           "fake_fp8_quant", "fake_fp8_dequant"]
