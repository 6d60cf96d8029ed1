"""``paddle.sparse``: sparse COO / CSR tensors and the ops over them.

The op records live in ``pagaie/_ops/sparse*.py``; this package gives them Paddle's names.
"""
from pagaie._ops import sparse as _c, sparse_linalg as _l, sparse_math as _m
from pagaie.sparse import nn  # noqa: F401

sparse_coo_tensor = _c.sparse_coo_tensor
sparse_csr_tensor = _c.sparse_csr_tensor
coalesce = _c.sparse_coalesce

abs = _m.sparse_abs
sin = _m.sparse_sin
tan = _m.sparse_tan
asin = _m.sparse_asin
atan = _m.sparse_atan
sinh = _m.sparse_sinh
tanh = _m.sparse_tanh
asinh = _m.sparse_asinh
atanh = _m.sparse_atanh
sqrt = _m.sparse_sqrt
square = _m.sparse_square
log1p = _m.sparse_log1p
expm1 = _m.sparse_expm1
neg = _m.sparse_neg
deg2rad = _m.sparse_deg2rad
rad2deg = _m.sparse_rad2deg
isnan = _m.sparse_isnan
pow = _m.sparse_pow
cast = _m.sparse_cast
add = _m.sparse_add
subtract = _m.sparse_subtract
multiply = _m.sparse_multiply
divide = _m.sparse_divide

matmul = _l.sparse_matmul
masked_matmul = _l.sparse_masked_matmul
addmm = _l.sparse_addmm
mv = _l.sparse_mv
transpose = _l.sparse_transpose
reshape = _l.sparse_reshape
sum = _l.sparse_sum
slice = _l.sparse_slice
mask_as = _l.sparse_mask_as
is_same_shape = _l.is_same_shape
pca_lowrank = _l.pca_lowrank

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor", "sin", "tan", "asin", "atan", "sinh", "tanh",
           "asinh", "atanh", "sqrt", "square", "log1p", "abs", "pow", "pca_lowrank", "cast", "neg",
           "deg2rad", "rad2deg", "expm1", "mv", "matmul", "mask_as", "masked_matmul", "addmm",
           "add", "subtract", "transpose", "sum", "multiply", "divide", "coalesce",
           "is_same_shape", "reshape", "isnan", "slice"]
