"""``paddle.distribution.lkj_cholesky``: Paddle's module path of :class:`paddle.distribution.LKJCholesky`."""
from pagaie.distribution import LKJCholesky
from pagaie.distribution.multivariate import tril_matrix_to_vec, vec_to_tril_matrix  # noqa: F401

__all__ = ["LKJCholesky"]
