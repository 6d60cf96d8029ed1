"""``paddle.distribution.cauchy``: Paddle's module path of :class:`paddle.distribution.Cauchy`."""
from pagaie.distribution import Cauchy

__all__ = ["Cauchy"]
