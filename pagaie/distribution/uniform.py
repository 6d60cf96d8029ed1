"""``paddle.distribution.uniform``: Paddle's module path of :class:`paddle.distribution.Uniform`."""
from pagaie.distribution import Uniform

__all__ = ["Uniform"]
