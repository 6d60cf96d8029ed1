"""``paddle.quantization.base_observer``: the abstract observer (kept in ``base.py``)."""
from pagaie.quantization.base import BaseObserver

__all__ = ["BaseObserver"]
