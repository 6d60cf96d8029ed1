"""``paddle.distribution.dirichlet``: Paddle's module path of :class:`paddle.distribution.Dirichlet`."""
from pagaie.distribution import Dirichlet

__all__ = ["Dirichlet"]
