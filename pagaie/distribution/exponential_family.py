"""``paddle.distribution.exponential_family``: Paddle's module path of :class:`paddle.distribution.ExponentialFamily`."""
from pagaie.distribution import ExponentialFamily

__all__ = ["ExponentialFamily"]
