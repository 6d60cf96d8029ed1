"""``paddle.distribution.multivariate_normal``: Paddle's module path of :class:`paddle.distribution.MultivariateNormal`."""
from pagaie.distribution import MultivariateNormal

__all__ = ["MultivariateNormal"]
