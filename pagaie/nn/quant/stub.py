"""``paddle.nn.quant.stub``: the observer placeholder and what quantization turns it into."""
from pagaie.quantization.layers import QuanterStub, Stub  # noqa: F401

__all__ = ["Stub", "QuanterStub"]
