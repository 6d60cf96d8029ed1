"""``paddle.quantization.ptq``: post-training quantization (kept in ``quantize.py``)."""
from pagaie.quantization.quantize import PTQ

__all__ = ["PTQ"]
