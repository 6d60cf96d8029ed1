"""paddle.linalg: linear algebra (norms, solvers, decompositions, matrix functions).

    >>> import pagaie as paddle
    >>> paddle.linalg.det(paddle.to_tensor([[2.0, 0.0], [0.0, 3.0]])).item()
    6.0...
"""
from __future__ import annotations

from typing import Any

from pagaie._ops.linalg import (  # noqa: F401
    cholesky, cholesky_inverse, cholesky_solve, cond, det, fp8_fp8_half_gemm_fused, inv, lstsq,
    matrix_exp, matrix_norm, matrix_power, matrix_rank, multi_dot, norm, pinv, slogdet, solve,
    triangular_solve, vector_norm,
)
from pagaie._ops.linalg_basic import cross, matmul, vecdot  # noqa: F401
from pagaie._ops.linalg_decomp import (  # noqa: F401
    eig, eigh, eigvals, eigvalsh, householder_product, lu, lu_solve, lu_unpack, ormqr, pca_lowrank,
    qr, svd, svd_lowrank, svdvals,
)

# Declared by other op families (statistics, manipulation); looked up when first used.
_ELSEWHERE = ("corrcoef", "cov", "diagonal", "matrix_transpose")

__all__ = ["cholesky", "cholesky_inverse", "cholesky_solve", "cond", "corrcoef", "cov", "cross", "det",
           "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "fp8_fp8_half_gemm_fused",
           "householder_product", "inv", "lstsq", "lu", "lu_solve", "lu_unpack", "matmul", "matrix_exp",
           "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot", "norm", "ormqr",
           "pca_lowrank", "pinv", "qr", "slogdet", "solve", "svd", "svd_lowrank", "svdvals",
           "triangular_solve", "vecdot", "vector_norm"]


def __getattr__(name: str) -> Any:
    if name in _ELSEWHERE:
        from pagaie._core.registry import REGISTRY
        from pagaie._ops import PUBLIC

        fn = PUBLIC.get(name)
        if fn is None and name in REGISTRY:
            from pagaie._core.tensor import Tensor
            fn = getattr(Tensor, name, None)
        if fn is not None:
            globals()[name] = fn
            return fn
    raise AttributeError(f"module 'pagaie.linalg' has no attribute '{name}'")
