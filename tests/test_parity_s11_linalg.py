"""Session-11 sweep of linalg, products and fft against real Paddle 3.3.1: norm's order and axis
forms, matrix_exp/matrix_power argument types, eigvals' order, eigvalsh's UPLO, lu_solve's trans,
the low-rank checks, dot's dtype rules, baddbmm's 2-D input, the in-place addmm_/baddbmm_ resize,
einsum's assertions, tensordot's size-1 contraction and fftshift/fftfreq argument errors."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_RNG = np.random.default_rng(11)
_A = _RNG.standard_normal((3, 4))
_S = _RNG.standard_normal((3, 3))
_X = _RNG.standard_normal((2, 3))
_Y = _RNG.standard_normal((3, 4))


def _t(P, a, dt="float64"):
    return P.to_tensor(np.array(a, dt))


def _grads(P, arrays, fn):
    ts = []
    for a in arrays:
        t = _t(P, a)
        t.stop_gradient = False
        ts.append(t)
    out = fn(P, *ts)
    w = P.to_tensor(np.arange(1, out.size + 1, dtype="float64").reshape(out.shape))
    return [out, *P.grad((out * w).sum(), ts)]


# -- norms -------------------------------------------------------------------------------------

@pytest.mark.parametrize("p", ["fro", "nuc"])
def test_norm_string_order_over_a_one_tuple_raises(p):
    """Paddle unwraps a one-element list axis but not a tuple: 'fro'/'nuc' over (0,) is a ValueError."""
    same_exception(lambda P: P.linalg.norm(_t(P, _A), p=p, axis=(0,)))
    assert_same(*both(lambda P: P.linalg.norm(_t(P, _A), p="fro", axis=[0])))
    assert_same(*both(lambda P: P.linalg.norm(_t(P, _A), p=2, axis=(1,))))


@pytest.mark.parametrize("api", ["norm", "vector_norm"])
def test_norm_tensor_order_raises(api):
    """Paddle takes only an int or a float (or a string for norm) as p: a Tensor is a ValueError."""
    same_exception(lambda P: getattr(P.linalg, api)(_t(P, _A), p=P.to_tensor(2.0)))


# -- matrix functions --------------------------------------------------------------------------

@pytest.mark.parametrize("data", [[[2.0, 1.0], [1.0, 2.0]], np.array([[0.5, 1.0], [0.0, 0.25]])])
def test_matrix_exp_converts_lists_and_arrays(data):
    """Paddle's matrix_exp runs to_tensor on a non-Tensor input (a list gives float32)."""
    assert_same(*both(lambda P: P.linalg.matrix_exp(data)), rtol=1e-6)


def test_matrix_exp_of_none_raises():
    """to_tensor(None) is Paddle's TypeError."""
    same_exception(lambda P: P.linalg.matrix_exp(None))


@pytest.mark.parametrize("n", [np.int32(2), np.int64(-2)])
def test_matrix_power_numpy_integer_exponent(n):
    """A numpy integer is an int to Paddle's argument parser."""
    assert_same(*both(lambda P: P.linalg.matrix_power(_t(P, _S), n)), rtol=1e-9)


# -- decompositions ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", [0, 1])
def test_eigvals_order_is_paddles(dtype, seed):
    """Paddle's eigvals lists the eigenvalues in the order LAPACK finds them for the transpose."""
    b = np.random.default_rng(seed).standard_normal((3, 5, 5))
    assert_same(*both(lambda P: P.linalg.eigvals(_t(P, b, dtype))), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("uplo", ["U", "u", "l", "X", ""])
def test_eigvalsh_reads_the_upper_triangle_for_any_string_but_L(uplo):
    """Paddle's eigvalsh (unlike eigh) reads the lower triangle for 'L' only, the upper otherwise."""
    assert_same(*both(lambda P: P.linalg.eigvalsh(_t(P, _S), uplo)), rtol=1e-9)
    same_exception(lambda P: P.linalg.eigh(_t(P, _S), uplo if uplo not in ("U",) else "x"))


def test_eigvalsh_uplo_none_is_type_error():
    """Paddle's argument parser wants a str for UPLO."""
    same_exception(lambda P: P.linalg.eigvalsh(_t(P, _S), None))


@pytest.mark.parametrize("trans", ["N", "T", "X", "n"])
def test_lu_solve_any_trans_but_N_transposes(trans):
    """Paddle solves with the transpose for every trans other than 'N'."""
    b = _RNG.standard_normal((3, 2))
    assert_same(*both(lambda P: P.linalg.lu_solve(_t(P, b), *P.linalg.lu(_t(P, _S)), trans=trans)),
                rtol=1e-9)


@pytest.mark.parametrize("api", ["svd_lowrank", "pca_lowrank"])
@pytest.mark.parametrize("kw", [{"q": 4}, {"q": -1}, {"q": 2.0}, {"q": 2, "niter": -1},
                                {"q": 2, "niter": 2.5}, {"q": 2, "niter": None}])
def test_lowrank_checks_q_and_niter(api, kw):
    """Paddle: q out of [0, min(m, n)] or a negative niter is a ValueError, a float one a TypeError."""
    same_exception(lambda P: getattr(P.linalg, api)(_t(P, _A), **kw))


@pytest.mark.parametrize("api", ["svd_lowrank", "pca_lowrank"])
@pytest.mark.parametrize("q", [0, 3, None])
def test_lowrank_valid_q_shapes(api, q):
    """In-range q gives [m, q], [q], [n, q] factors."""
    ours, theirs = both(lambda P: [list(t.shape) for t in getattr(P.linalg, api)(_t(P, _A), q=q)])
    assert ours == theirs


def test_pca_lowrank_checks_q_of_empty_input():
    """pca_lowrank checks q even for an empty matrix (svd_lowrank does not)."""
    same_exception(lambda P: P.linalg.pca_lowrank(_t(P, np.zeros((0, 3))), q=2.0))


# -- products ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dx,dy", [("float32", "float64"), ("int64", "float32"), ("int32", "int64"),
                                   ("float64", "int32"), ("int64", "complex64")])
@pytest.mark.parametrize("shape", [(3,), (2, 3)])
def test_dot_of_mixed_dtypes_raises(dx, dy, shape):
    """Paddle's dot kernel (chosen by x's dtype) refuses y's data of another dtype: ValueError."""
    a = np.arange(np.prod(shape)).reshape(shape)
    same_exception(lambda P: P.dot(_t(P, a, dx), _t(P, a, dy)))


@pytest.mark.parametrize("dy", ["float32", "float64"])
def test_dot_of_complex_with_real(dy):
    """A complex x takes real floating data for y: the result has x's dtype."""
    a = np.arange(6.0).reshape(2, 3)
    assert_same(*both(lambda P: P.dot(_t(P, a + 1j, "complex64"), _t(P, a, dy))))


@pytest.mark.parametrize("ishape", [(2, 4), (2, 1)])
def test_baddbmm_two_d_input_is_one_row_per_batch(ishape):
    """Paddle reads a 2-D input [b, n] as [b, 1, n]."""
    inp = _RNG.standard_normal(ishape)
    assert_same(*both(lambda P: P.baddbmm(_t(P, inp), _t(P, np.stack([_X, -_X])),
                                          _t(P, np.stack([_Y, _Y])), beta=0.5, alpha=2.0)), rtol=1e-9)


@pytest.mark.parametrize("ishape", [(4,), (), (1, 4), (1, 1), (1, 2, 2, 4)])
def test_baddbmm_input_rank_and_batch_checked(ishape):
    """A 0-D, 1-D or 4-D input, or a 2-D one whose rows are not the batch, is Paddle's ValueError."""
    same_exception(lambda P: P.baddbmm(_t(P, np.ones(ishape)), _t(P, np.stack([_X, _X])),
                                       _t(P, np.stack([_Y, _Y]))))


@pytest.mark.parametrize("ishape", [(4,), (1, 4), (2, 1), (1,), (1, 1)])
def test_addmm_inplace_resizes_a_broadcast_input(ishape):
    """Paddle's addmm_ writes the [m, n] result into input, resizing a broadcast input."""
    inp = _RNG.standard_normal(ishape)

    def f(P):
        t = _t(P, inp)
        r = P.addmm_(t, _t(P, _X), _t(P, _Y), beta=0.5, alpha=2.0)
        return [r, t]
    assert_same(*both(f), rtol=1e-9)


@pytest.mark.parametrize("ishape", [(2, 4), (1, 2, 4), (2, 1, 1)])
def test_baddbmm_inplace_resizes_a_broadcast_input(ishape):
    """Paddle's baddbmm_ writes the [b, m, n] result into input, resizing a broadcast input."""
    inp = _RNG.standard_normal(ishape)

    def f(P):
        t = _t(P, inp)
        r = t.baddbmm_(_t(P, np.stack([_X, _X])), _t(P, np.stack([_Y, _Y])))
        return [r, t]
    assert_same(*both(f), rtol=1e-9)


@pytest.mark.parametrize("eq,nops", [("ij,jk->ik", 1), ("ij,jk->ik", 3), ("ij,jk->ik->i", 2),
                                     ("...j,jk->ik", 2), ("ij", 0)])
def test_einsum_equation_assertions(eq, nops):
    """Paddle asserts one term per operand, one '->' at most and a kept ellipsis."""
    same_exception(lambda P: P.einsum(eq, *[_t(P, _X), _t(P, _Y), _t(P, _Y)][:nops]))


@pytest.mark.parametrize("eq", ["ij,jk->ik", "ij->ji"])
def test_einsum_list_of_operands_is_not_unpacked(eq):
    """A list of tensors is one (bad) operand to Paddle's einsum."""
    same_exception(lambda P: P.einsum(eq, [_t(P, _X), _t(P, _Y)][:eq.count(",") + 1]))


@pytest.mark.parametrize("axes", [[[1, 2], [1, 0]], [[1], [1]], 1])
def test_tensordot_contracts_size_one_axes_with_any_size(axes):
    """Paddle sums the other operand over the axis a size-1 axis is contracted with."""
    b1 = _RNG.standard_normal((2, 1, 4))
    c = _RNG.standard_normal((4, 3, 2)) if axes != 1 else _RNG.standard_normal((1, 3))
    assert_same(*both(lambda P: _grads(P, [b1, c], lambda P, x, y: P.tensordot(x, y, axes=axes))),
                rtol=1e-9)


@pytest.mark.parametrize("axes", [-1, 1.0])
def test_tensordot_negative_or_float_axes(axes):
    """A negative int is Paddle's AssertionError, a float its TypeError."""
    same_exception(lambda P: P.tensordot(_t(P, _X), _t(P, _Y), axes=axes))


# -- fft ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("api", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [5, -4, [0, 5], (4,)])
def test_fftshift_out_of_range_axes(api, axes):
    """An int axis indexes the shape (IndexError); a list goes to roll's check (ValueError)."""
    same_exception(lambda P: getattr(P.fft, api)(_t(P, np.zeros((2, 3, 4))), axes=axes))


def test_fftfreq_float_n_and_string_d_are_type_errors():
    """fftfreq rolls by n // 2 (an int only); both divide by d."""
    same_exception(lambda P: P.fft.fftfreq(4.0))
    same_exception(lambda P: P.fft.fftfreq(4, "a"))
    same_exception(lambda P: P.fft.rfftfreq(4, "a"))
    assert_same(*both(lambda P: P.fft.rfftfreq(4.0)))
