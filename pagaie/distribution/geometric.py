"""``paddle.distribution.geometric``: Paddle's module path of :class:`paddle.distribution.Geometric`."""
from pagaie.distribution import Geometric

__all__ = ["Geometric"]
