"""``paddle.quantization.base_quanter``: the abstract quanter (kept in ``base.py``)."""
from pagaie.quantization.base import BaseQuanter

__all__ = ["BaseQuanter"]
