"""``paddle.distribution.lognormal``: Paddle's module path of :class:`paddle.distribution.LogNormal`."""
from pagaie.distribution import LogNormal

__all__ = ["LogNormal"]
