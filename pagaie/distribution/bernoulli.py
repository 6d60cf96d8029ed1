"""``paddle.distribution.bernoulli``: Paddle's module path of :class:`paddle.distribution.Bernoulli`."""
from pagaie.distribution import Bernoulli

__all__ = ["Bernoulli"]
