"""``paddle.distribution.multinomial``: Paddle's module path of :class:`paddle.distribution.Multinomial`."""
from pagaie.distribution import Multinomial

__all__ = ["Multinomial"]
