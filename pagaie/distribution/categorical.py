"""``paddle.distribution.categorical``: Paddle's module path of :class:`paddle.distribution.Categorical`."""
from pagaie.distribution import Categorical

__all__ = ["Categorical"]
