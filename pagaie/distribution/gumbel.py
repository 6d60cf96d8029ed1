"""``paddle.distribution.gumbel``: Paddle's module path of :class:`paddle.distribution.Gumbel`."""
from pagaie.distribution import Gumbel

__all__ = ["Gumbel"]
