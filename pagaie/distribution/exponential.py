"""``paddle.distribution.exponential``: Paddle's module path of :class:`paddle.distribution.Exponential`."""
from pagaie.distribution import Exponential

__all__ = ["Exponential"]
