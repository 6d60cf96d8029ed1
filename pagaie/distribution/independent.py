"""``paddle.distribution.independent``: Paddle's module path of :class:`paddle.distribution.Independent`."""
from pagaie.distribution import Independent

__all__ = ["Independent"]
