"""``paddle.distribution.poisson``: Paddle's module path of :class:`paddle.distribution.Poisson`."""
from pagaie.distribution import Poisson

__all__ = ["Poisson"]
