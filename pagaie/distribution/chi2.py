"""``paddle.distribution.chi2``: Paddle's module path of :class:`paddle.distribution.Chi2`."""
from pagaie.distribution import Chi2

__all__ = ["Chi2"]
