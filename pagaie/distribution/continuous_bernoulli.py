"""``paddle.distribution.continuous_bernoulli``: Paddle's module path of :class:`paddle.distribution.ContinuousBernoulli`."""
from pagaie.distribution import ContinuousBernoulli

__all__ = ["ContinuousBernoulli"]
