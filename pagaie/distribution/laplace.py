"""``paddle.distribution.laplace``: Paddle's module path of :class:`paddle.distribution.Laplace`."""
from pagaie.distribution import Laplace

__all__ = ["Laplace"]
