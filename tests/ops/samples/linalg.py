"""Samples for paddle.linalg (pagaie/_ops/linalg.py, pagaie/_ops/linalg_decomp.py).

Inputs are fixed, well-conditioned matrices; decompositions whose factors are only
unique up to signs are compared through sign-free quantities (``post=``).
"""
import math

import numpy as np
import torch

from tests.ops.samples import OpSample, T

_rng = np.random.default_rng(2024)
_GEN = _rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)            # non-symmetric, well conditioned
_SPD = _GEN @ _GEN.transpose(0, 2, 1) + np.eye(3)                 # symmetric positive definite
_RECT = _rng.standard_normal((2, 4, 3))                            # tall, full column rank
_WIDE = _rng.standard_normal((3, 5))
_UPPER = np.triu(_GEN)
_LOWER = np.tril(_GEN)
_CHOL = np.linalg.cholesky(_SPD)
_LOW_RANK = _rng.standard_normal((4, 2)) @ _rng.standard_normal((2, 5))
_LU, _PIV = (t.numpy() for t in torch.linalg.lu_factor(torch.from_numpy(_GEN)))
_PIV = _PIV.astype("int32")
_QR_X, _QR_TAU = (t.numpy() for t in torch.geqrf(torch.from_numpy(_RECT)))
_QR_SQ, _QR_SQ_TAU = (t.numpy() for t in torch.geqrf(torch.from_numpy(_GEN)))

D = "float64"
DEC = dict(rtol=1e-4, atol=1e-5)


def _svd_parts(fw, out):
    u, s, vh = out
    return fw.einsum("...ij,...j,...jk->...ik", u, s, vh), s


def _svd_full_parts(fw, out):
    u, s, vh = out  # the extra rows of vh span the null space and are not unique
    return fw.einsum("ij,ij->ij", u, u), s, fw.einsum("ij,kj->ik", vh, vh)


def _eigh_parts(fw, out):
    w, v = out
    return w, fw.einsum("...ij,...ij->...ij", v, v)


def _lowrank_parts(fw, out):
    u, s, v = out
    return fw.einsum("...ij,...j,...kj->...ik", u, s, v)


def _first(fw, out):
    return out[0]


def TV(value, dtype=None, grad=True):
    a = np.asarray(value)
    return T(a.shape, value=a, dtype=dtype, grad=grad)


SAMPLES = [
    # norms
    OpSample("linalg.norm", [T((2, 3, 4))], id="norm_default"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": 2}, id="norm_p2_flat"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": 3}, id="norm_p3_flat"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": math.inf}, id="norm_inf_flat"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": "fro", "axis": [1, 2]}, id="norm_fro_axes"),
    OpSample("linalg.norm", [TV(_RECT)], {"p": "nuc", "axis": [1, 2]}, id="norm_nuc_axes", **DEC),
    OpSample("linalg.norm", [TV(_WIDE)], {"p": "nuc"}, id="norm_nuc_2d", **DEC),
    OpSample("linalg.norm", [TV(_RECT)], {"p": 2, "axis": [1, 2]}, id="norm_spectral", **DEC),
    OpSample("linalg.norm", [TV(_RECT)], {"p": -2, "axis": [-1, -2]}, id="norm_minus2", **DEC),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": 1, "axis": [1, 2], "keepdim": True}, id="norm_mat1_keep"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": -math.inf, "axis": [2, 0]}, id="norm_mat_neginf"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": 1, "axis": -1, "keepdim": True}, id="norm_vec1_keep"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"axis": 1}, id="norm_vec_default"),
    OpSample("linalg.norm", [T((2, 3, 4))], {"p": 0, "axis": 1}, id="norm_vec0", grad=False),
    OpSample("linalg.norm", [T((2, 3, 4))], {"keepdim": True}, id="norm_flat_keep"),
    OpSample("linalg.norm", [T((2, 3))], {"dtype": "float64"}, dtypes=("float32",), id="norm_dtype"),
    OpSample("norm", [T((3, 4))], {"p": 1, "axis": 0}, id="norm_toplevel"),
    OpSample("Tensor.norm", [T((3, 4))], {"p": "fro"}, id="method_norm"),
    OpSample("linalg.vector_norm", [T((2, 3, 4))]),
    OpSample("linalg.vector_norm", [T((2, 3, 4))], {"p": 1, "axis": [1, 2], "keepdim": True}, id="vector_norm_axes"),
    OpSample("linalg.vector_norm", [T((2, 3, 4))], {"p": math.inf, "axis": 0}, id="vector_norm_inf"),
    OpSample("linalg.vector_norm", [T((2, 3, 4))], {"p": 0}, id="vector_norm_0", grad=False),
    OpSample("linalg.matrix_norm", [T((2, 3, 4))]),
    OpSample("linalg.matrix_norm", [TV(_RECT)], {"p": 2}, id="matrix_norm_2", **DEC),
    OpSample("linalg.matrix_norm", [TV(_RECT)], {"p": "nuc", "axis": [0, 2], "keepdim": True},
             id="matrix_norm_nuc_keep", **DEC),
    OpSample("linalg.matrix_norm", [T((2, 3, 4))], {"p": -math.inf}, id="matrix_norm_neginf"),
    # condition numbers, ranks, determinants, inverses
    OpSample("linalg.cond", [TV(_GEN)], **DEC),
    OpSample("linalg.cond", [TV(_GEN)], {"p": "fro"}, id="cond_fro", **DEC),
    OpSample("linalg.cond", [TV(_GEN)], {"p": math.inf}, id="cond_inf", **DEC),
    OpSample("linalg.cond", [TV(_GEN)], {"p": -2}, id="cond_minus2", **DEC),
    OpSample("linalg.cond", [TV(_RECT)], id="cond_rect", **DEC),
    OpSample("linalg.matrix_rank", [TV(_LOW_RANK)], grad=False),
    OpSample("linalg.matrix_rank", [TV(_RECT)], {"tol": 0.5}, grad=False, id="matrix_rank_tol"),
    OpSample("linalg.matrix_rank", [TV(_SPD)], {"hermitian": True}, grad=False, id="matrix_rank_herm"),
    OpSample("linalg.matrix_rank", [TV(_RECT)], {"atol": 0.1, "rtol": 0.2}, grad=False, id="matrix_rank_atol"),
    OpSample("linalg.det", [TV(_GEN)], **DEC),
    OpSample("linalg.slogdet", [TV(-_GEN)], **DEC),
    OpSample("linalg.inv", [TV(_GEN)], **DEC),
    OpSample("inverse", [TV(_GEN[0])], id="inverse_toplevel", **DEC),
    OpSample("Tensor.inverse", [TV(_GEN)], id="method_inverse", **DEC),
    OpSample("linalg.pinv", [TV(_RECT)], **DEC),
    OpSample("linalg.pinv", [TV(_SPD[0])], {"hermitian": True}, id="pinv_herm", **DEC),
    OpSample("linalg.pinv", [TV(_SPD)], {"hermitian": True}, id="pinv_herm_batch", grad=False, **DEC),
    OpSample("linalg.matrix_power", [TV(_GEN)], {"n": 3}, **DEC),
    OpSample("linalg.matrix_power", [TV(_GEN)], {"n": -2}, id="matrix_power_neg", **DEC),
    OpSample("linalg.matrix_power", [TV(_GEN)], {"n": 0}, id="matrix_power_zero"),
    OpSample("linalg.matrix_exp", [TV(_GEN / 4)], **DEC),
    OpSample("linalg.multi_dot", [[T((2, 3)), T((3, 4)), T((4, 2))]], **DEC),
    OpSample("linalg.multi_dot", [[T((3,)), T((3, 4)), T((4,))]], id="multi_dot_vectors", **DEC),
    # solvers
    OpSample("linalg.solve", [TV(_GEN), T((2, 3, 2))], **DEC),
    OpSample("linalg.solve", [TV(_GEN), T((2, 3))], id="solve_vector", **DEC),
    OpSample("linalg.solve", [TV(_GEN), T((2, 2, 3))], {"left": False}, id="solve_right", **DEC),
    OpSample("linalg.triangular_solve", [TV(_UPPER), T((2, 3, 2))], **DEC),
    OpSample("linalg.triangular_solve", [TV(_LOWER), T((2, 3, 2))], {"upper": False, "transpose": True},
             id="triangular_solve_lower_t", **DEC),
    OpSample("linalg.triangular_solve", [TV(_UPPER), T((3, 2))], {"unitriangular": True},
             id="triangular_solve_unit", grad=False, **DEC),
    OpSample("linalg.cholesky_solve", [T((2, 3, 2)), TV(_CHOL)], **DEC),
    OpSample("linalg.cholesky_solve", [T((2, 3, 2)), TV(_CHOL.transpose(0, 2, 1))], {"upper": True},
             id="cholesky_solve_upper", **DEC),
    OpSample("linalg.cholesky", [TV(_SPD)], grad=False, **DEC),
    OpSample("linalg.cholesky", [TV(_SPD)], {"upper": True}, grad=False, id="cholesky_upper", **DEC),
    OpSample("linalg.cholesky_inverse", [TV(_CHOL[0])], **DEC),
    OpSample("linalg.cholesky_inverse", [TV(_CHOL[0].T)], {"upper": True}, id="cholesky_inverse_upper", **DEC),
    OpSample("linalg.lstsq", [TV(_RECT), T((2, 4, 2))], grad=False, **DEC),
    OpSample("linalg.lstsq", [TV(_RECT), T((2, 4, 2))], {"driver": "gelsd"}, grad=False, id="lstsq_gelsd", **DEC),
    OpSample("linalg.lstsq", [TV(_RECT), T((2, 4, 2))], {"driver": "gelss"}, grad=False, id="lstsq_gelss", **DEC),
    # decompositions
    OpSample("linalg.svd", [TV(_RECT)], post=_svd_parts, **DEC),
    OpSample("linalg.svd", [TV(_WIDE)], {"full_matrices": True}, post=_svd_full_parts, grad=False,
             id="svd_full", **DEC),
    OpSample("linalg.svdvals", [TV(_RECT)], **DEC),
    OpSample("linalg.qr", [TV(_RECT)], **DEC),
    OpSample("linalg.qr", [TV(_RECT)], {"mode": "complete"}, grad=False, id="qr_complete", **DEC),
    OpSample("linalg.qr", [TV(_RECT)], {"mode": "r"}, id="qr_r", grad=False, **DEC),  # Paddle: no grad for 'r'
    OpSample("linalg.eig", [TV(_SPD)], post=_first, **DEC),
    OpSample("linalg.eigvals", [TV(_SPD)], **DEC),
    # Paddle's backward of batched eigvalsh is wrong, so gradients are compared on single matrices.
    OpSample("linalg.eigh", [TV(_SPD[0])], post=_eigh_parts, **DEC),
    OpSample("linalg.eigh", [TV(_SPD)], {"UPLO": "U"}, post=_eigh_parts, grad=False, id="eigh_upper", **DEC),
    OpSample("linalg.eigvalsh", [TV(_SPD[0])], **DEC),
    OpSample("linalg.eigvalsh", [TV(_SPD)], grad=False, id="eigvalsh_batch", **DEC),
    OpSample("eigvalsh", [TV(_SPD[1])], {"UPLO": "U"}, id="eigvalsh_toplevel", **DEC),
    OpSample("linalg.lu", [TV(_GEN)], **DEC),
    OpSample("linalg.lu", [TV(_GEN)], {"get_infos": True}, id="lu_infos", grad=False, **DEC),
    # Paddle's own backward of lu_unpack / householder_product / ormqr fails (in-place error).
    OpSample("linalg.lu_unpack", [TV(_LU), TV(_PIV, dtype="int32")], grad=False, **DEC),
    OpSample("linalg.lu_solve", [T((2, 3, 2)), TV(_LU), TV(_PIV, dtype="int32")], **DEC),
    # Paddle's gradient w.r.t. the LU data is wrong for trans='T' (checked against finite differences).
    OpSample("linalg.lu_solve", [T((2, 3, 2)), TV(_LU), TV(_PIV, dtype="int32")], {"trans": "T"},
             id="lu_solve_t", grad=False, **DEC),
    OpSample("linalg.householder_product", [TV(_QR_X), TV(_QR_TAU)], grad=False, **DEC),
    OpSample("linalg.ormqr", [TV(_QR_X), TV(_QR_TAU), T((2, 3, 2))], grad=False, **DEC),
    OpSample("linalg.ormqr", [TV(_QR_X), TV(_QR_TAU), T((2, 4, 2))], {"transpose": True}, grad=False,
             id="ormqr_t", **DEC),
    # Paddle checks right-side products against the wrong dimension, so they only work for square x.
    OpSample("linalg.ormqr", [TV(_QR_SQ), TV(_QR_SQ_TAU), T((2, 2, 3))], {"left": False, "transpose": True},
             grad=False, id="ormqr_right_t", **DEC),
    OpSample("linalg.ormqr", [TV(_QR_SQ), TV(_QR_SQ_TAU), T((2, 2, 3))], {"left": False}, grad=False,
             id="ormqr_right", **DEC),
    OpSample("linalg.svd_lowrank", [TV(_LOW_RANK)], {"q": 2}, post=_lowrank_parts, grad=False, **DEC),
    OpSample("linalg.pca_lowrank", [TV(_LOW_RANK)], {"q": 2, "center": False}, post=_lowrank_parts,
             grad=False, **DEC),
]
