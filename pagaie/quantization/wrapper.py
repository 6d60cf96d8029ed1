"""``paddle.quantization.wrapper``: the wrapper that observes a layer's input (in ``base.py``)."""
from pagaie.quantization.base import ObserveWrapper

__all__ = ["ObserveWrapper"]
