"""``paddle.distribution.lkj_cholesky``: Paddle's module path of :class:`paddle.distribution.LKJCholesky`."""
from pagaie.distribution import LKJCholesky

__all__ = ["LKJCholesky"]
