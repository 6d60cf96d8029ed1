"""``paddle.quantization.qat``: quantization-aware training (kept in ``quantize.py``)."""
from pagaie.quantization.quantize import QAT

__all__ = ["QAT"]
