"""``paddle.distribution.beta``: Paddle's module path of :class:`paddle.distribution.Beta`."""
from pagaie.distribution import Beta

__all__ = ["Beta"]
