"""``paddle.distribution.distribution``: Paddle's module path of :class:`paddle.distribution.Distribution`."""
from pagaie.distribution import Distribution

__all__ = ["Distribution"]
