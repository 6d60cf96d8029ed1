"""``paddle.distribution.binomial``: Paddle's module path of :class:`paddle.distribution.Binomial`."""
from pagaie.distribution import Binomial

__all__ = ["Binomial"]
