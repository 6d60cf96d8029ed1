"""``paddle.nn.quant``: weight-only / LLM.int8 quantized linear algebra and quantization layers.

- :mod:`.quantized_linear`: ``weight_quantize``, ``weight_dequantize``,
  ``weight_only_linear``, ``llm_int8_linear``, ``apply_per_channel_scale`` (op records in
  ``pagaie/_ops/quant_weight_ops.py``);
- :mod:`.functional_layers`: functional ops as Layers, so quantization can wrap them;
- :mod:`.stub`, :mod:`.format`, :mod:`.qat`: the layers :mod:`pagaie.quantization` uses;
- :mod:`.quant_layers`, :mod:`.lsq`: the fake-quantize layers of the older imperative API.
"""
from pagaie.nn.quant import format, lsq, qat, quant_layers, quantized_linear, stub  # noqa: F401,A004
from pagaie.nn.quant.functional_layers import (  # noqa: F401
    FloatFunctionalLayer, add, concat, divide, flatten, matmul, multiply, reshape, subtract, transpose,
)
from pagaie.nn.quant.quant_layers import QuantStub  # noqa: F401
from pagaie.nn.quant.quantized_linear import (  # noqa: F401
    apply_per_channel_scale, llm_int8_linear, weight_dequantize, weight_only_linear, weight_quantize,
)
from pagaie.nn.quant.stub import Stub

__all__ = ["Stub", "weight_only_linear", "llm_int8_linear", "weight_quantize", "weight_dequantize"]
