"""``paddle.nn.quant.qat``: quantization-aware ``Linear`` and ``Conv2D`` (from :mod:`pagaie.quantization.layers`)."""
from pagaie.quantization.layers import QuantedConv2D, QuantedLinear  # noqa: F401

__all__ = ["QuantedConv2D", "QuantedLinear"]
