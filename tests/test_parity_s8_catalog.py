"""Session-8 catalog sweep: ordinary calls of paddle.* / Tensor.* / paddle.linalg.* against Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

A = np.array([[-1.5, 0.3, 2.2], [-0.7, 1.1, 3.4]], "float32")
B = np.array([[True, False, True], [False, True, True]])


def _t(P, a, grad=False):
    t = P.to_tensor(a)
    if grad:
        t.stop_gradient = False
    return t


# -- logic: Paddle's float == is |a - b| < 1e-15 (nan never, inf exactly) -----------------

@pytest.mark.parametrize("op", ["equal", "not_equal"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_float_equality_tolerance(op, dt):
    a = np.array([1.0, 0.0, 5e-9, 1.0, np.inf, np.nan, -np.inf, 1e-16], dt)
    b = np.array([1.0 + 1e-9, 5e-17, 0.0, 1.0 + 1e-7, np.inf, np.nan, np.inf, 0.0], dt)
    ours, theirs = both(lambda P: getattr(P, op)(P.to_tensor(a), P.to_tensor(b)))
    assert_same(ours, theirs)
    ours, theirs = both(lambda P: P.to_tensor(a) == 5e-17 if op == "equal" else P.to_tensor(a) != 5e-17)
    assert_same(ours, theirs)


@pytest.mark.parametrize("b", [[5e-17, 1.0], [1e-9, 1.0], [np.nan, 1.0]])
def test_equal_all_float_tolerance(b):
    a = np.array([0.0, 1.0]) if not np.isnan(b[0]) else np.array([np.nan, 1.0])
    assert_same(*both(lambda P: P.equal_all(P.to_tensor(a), P.to_tensor(np.array(b)))))


@pytest.mark.parametrize("op", ["equal_", "less_than_", "logical_not_", "logical_and_"])
def test_inplace_compare_on_tensor_requiring_grad(op):
    def f(P):
        x = _t(P, A, grad=True)
        args = () if op == "logical_not_" else (_t(P, A * 0 + 0.3),)
        r = getattr(x, op)(*args)
        assert r is x
        return r, r.stop_gradient
    ours, theirs = both(f)
    assert_same(ours, theirs)


# -- math: bool scale / neg_, float gcd / lcm, gammainc domain ------------------------

@pytest.mark.parametrize("args", [(1.0, 0.0), (2.0, 1.0), (-1.0, 0.0), (0.5, 0.0), (1.0, -1.0), (0.0, 0.0)])
@pytest.mark.parametrize("after", [True, False])
def test_scale_bool(args, after):
    ours, theirs = both(lambda P: P.scale(_t(P, B), *args, bias_after_scale=after))
    assert_same(ours, theirs)


def test_neg_inplace_bool():
    def f(P):
        x = _t(P, B)
        r = x.neg_()
        assert r is x
        return r
    assert_same(*both(f))


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("op", ["gcd", "lcm"])
def test_float_gcd_lcm(op, dt):
    x = np.array([0.3, 0.45, 6.0, 0.0, -4.0], dt)
    y = np.array([0.2, 0.8, 4.0, 0.0, 6.0], dt)
    assert_same(*both(lambda P: getattr(P, op)(P.to_tensor(x), P.to_tensor(y))))


@pytest.mark.parametrize("op", ["gammainc", "gammaincc"])
@pytest.mark.parametrize("neg", ["x", "y"])
def test_gammainc_negative_raises(op, neg):
    pos = np.ones([2, 3], "float32")
    same_exception(lambda P: getattr(P, op)(P.to_tensor(A if neg == "x" else pos),
                                            P.to_tensor(pos if neg == "x" else A)))


# -- linalg ------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_matrix_exp_0d(dt):
    assert_same(*both(lambda P: P.linalg.matrix_exp(P.to_tensor(np.array(0.5, dt)))))


@pytest.mark.parametrize("axis", [-1, None])
def test_matrix_norm_int_axis_type_error(axis):
    same_exception(lambda P: P.linalg.matrix_norm(P.to_tensor(A), axis=axis))


@pytest.mark.parametrize("call", [
    lambda P: P.mv(P.to_tensor(np.float32(1)), P.to_tensor(np.float32(1))),
    lambda P: P.mv(P.to_tensor(A[0]), P.to_tensor(A[0])),
    lambda P: P.baddbmm_(P.to_tensor(np.float32(1)), P.to_tensor(np.float32(1)), P.to_tensor(np.float32(1))),
    lambda P: P.to_tensor(np.float32(1)).baddbmm_(P.to_tensor(np.float32(1)), P.to_tensor(np.float32(1))),
    lambda P: P.pdist(P.to_tensor(np.float32(1))),
    lambda P: P.pdist(P.to_tensor(A[0])),
    lambda P: P.cartesian_prod(P.to_tensor(np.float32(1))),
    lambda P: P.multinomial(P.to_tensor(np.float32(1))),
    lambda P: P.to_tensor(B).random_(),
    lambda P: P.block_diag(P.to_tensor(np.float32(1))),
    lambda P: P.to_tensor(np.float32(1)).fill_diagonal_tensor(P.to_tensor(np.float32(1))),
    lambda P: P.to_tensor(np.ones([2, 2])).fill_diagonal_tensor_(P.to_tensor(np.ones(2)), dim2=-3),
], ids=["mv0d", "mv1d", "baddbmm_0d", "Tensor.baddbmm_0d", "pdist0d", "pdist1d", "cartesian_prod0d",
        "multinomial0d", "random_bool", "block_diag0d", "fill_diagonal_tensor0d", "fill_diagonal_tensor_dim2"])
def test_bad_rank_exception_types(call):
    same_exception(call)


@pytest.mark.parametrize("op", ["gammainc", "gammaincc", "gammainc_", "gammaincc_"])
def test_gammainc_kernel_edges(op):
    """Paddle's kernel: Q = 1 and P = 0 where x <= 0 or y < 0; the in-place forms do not check."""
    x = np.array([0.0, 0.0, 1.0, 2.0, -1.0])
    y = np.array([1.0, 0.0, 0.0, 1.0, 1.0])
    n = 5 if op.endswith("_") else 4

    def f(P):
        a, b = P.to_tensor(x[:n]), P.to_tensor(y[:n])
        return getattr(a, op)(b) if op.endswith("_") else getattr(P, op)(a, b)
    assert_same(*both(f))


# -- histogram: Paddle's kernel bins in the input dtype, min/max held as float32 ----------

@pytest.mark.parametrize("dt", ["float32", "float64", "int64"])
def test_histogram_bins_like_paddle_kernel(dt):
    rng = np.random.default_rng(1)
    for trial in range(40):
        x = np.round(rng.uniform(-3, 3, int(rng.integers(2, 30))), int(rng.integers(1, 4)))
        x = np.round(x * 3).astype(dt) if dt == "int64" else x.astype(dt)
        bins = int(rng.integers(1, 120))
        lim = {} if trial % 2 else dict(min=float(np.round(rng.uniform(-3, 0), 2)),
                                        max=float(np.round(rng.uniform(0.1, 3), 2)))
        assert_same(*both(lambda P: P.histogram(P.to_tensor(x), bins=bins, **lim)), what=f"{x} {bins} {lim}")


def test_histogram_equal_bounds_use_data_range():
    x = np.array([0.5, 1.0, 2.0, 3.0])
    assert_same(*both(lambda P: P.histogram(P.to_tensor(x), bins=4, min=1.0, max=1.0)))
    assert_same(*both(lambda P: P.histogram(P.to_tensor(np.array([0.1, 0.3, 0.45, 0.6, 0.75, 0.9])))))


# -- in-place forms ------------------------------------------------------------------------

def test_expm1_inplace_int_becomes_float():
    def f(P):
        x = P.to_tensor(np.array([[1, 2], [3, 4]]))
        r = P.expm1_(x)
        assert r is x
        return r
    assert_same(*both(f))


def test_exponential_inplace_on_leaf_requiring_grad():
    def f(P):
        x = P.to_tensor(np.array([0.5, 0.3], "float32"))
        x.stop_gradient = False
        P.seed(7)
        r = x.exponential_()
        assert r is x
        return r, r.stop_gradient
    assert_same(*both(f))


@pytest.mark.parametrize("api", ["svd_lowrank", "pca_lowrank"])
def test_lowrank_int_input_clean_error(api):
    exc = same_exception(lambda P: getattr(P.linalg, api)(P.to_tensor(np.array([[1, 2, 3], [4, 5, 6]]))))
    assert api in str(exc)


# ---- follow-ups in files the sweep did not own ---------------------------------------------

@pytest.mark.parametrize("api", ["vstack", "hstack", "dstack", "row_stack", "column_stack"])
def test_stack_joins_take_one_tensor_as_its_rows(api):
    ours, theirs = both(lambda P: getattr(P, api)(P.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))))
    assert_same(ours, theirs)
    same_exception(lambda P: getattr(P, api)(P.to_tensor(1.0)))


@pytest.mark.parametrize("make", [
    lambda P: P.broadcast_tensors(P.ones([2, 3])),
    lambda P: P.flatten_(P.to_tensor(1.0)),
    lambda P: P.crop(P.to_tensor(1.0)),
    lambda P: P.to_tensor([True, False]).where_(),
], ids=["broadcast_tensors_one", "flatten__0d", "crop_0d", "where__no_xy"])
def test_manipulation_errors(make):
    same_exception(make)


def test_stride_takes_dim_by_keyword():
    ours, theirs = both(lambda P: P.to_tensor(np.zeros([2, 3])).stride(dim=0))
    assert ours == theirs == 3


@pytest.mark.parametrize("vals", [[-1.5, 0.3], [-1.5, -2.0, 0.3, 2.0], [-0.7, 1.2]])
def test_standard_gamma_below_minus_two_thirds_gives_tiny_and_keeps_the_stream(vals):
    def run(P):
        P.seed(1)
        return P.standard_gamma(P.to_tensor(vals)), P.rand([2])
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_inplace_leaf_rules_of_lcm_and_multigammaln():
    def lcm(P):
        x = P.to_tensor([4, 6])
        x.stop_gradient = False
        x.lcm_(P.to_tensor([1, 2]))
    same_exception(lcm)

    def mgl(P):
        x = P.to_tensor([2.5, 3.0])
        x.stop_gradient = False
        r = x.multigammaln_(2)
        assert r is x
        return x
    ours, theirs = both(mgl)
    assert_same(ours, theirs)


@pytest.mark.parametrize("shape,q,center", [((5, 5), None, True), ((6, 4), 2, True), ((8, 3), 3, True)])
def test_lowrank_svd_draws_paddles_random_start(shape, q, center):
    # the random start comes from Paddle's stream: a seeded call gives Paddle's factors (the
    # singular values always; the vectors where the small SVD's signs agree, as in these cases)
    x = np.random.default_rng(0).standard_normal(shape)

    def run(P):
        t = P.to_tensor(x)
        P.seed(2024)
        svd = P.linalg.svd_lowrank(t, q=q)
        P.seed(2024)
        return svd + P.linalg.pca_lowrank(t, q=q, center=center)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("perm", [[1, 0], (0, 1), [-2, -3]])
def test_transpose_permutes_leading_axes(perm):
    ours, theirs = both(lambda P: (P.transpose(P.rand([3, 4, 5]), list(perm)).shape,
                                   P.permute(P.rand([3, 4, 5]), list(perm)).shape))
    assert [list(s) for s in ours] == [list(s) for s in theirs]


@pytest.mark.parametrize("make", [
    lambda P, x: -x, lambda P, x: P.neg(x), lambda P, x: P.scale(x, 0.0),
    lambda P, x: P.scale(x, -1.0), lambda P, x: x.clone().neg_(),
], ids=["unary_minus", "neg", "scale0", "scale_neg", "neg_"])
def test_negation_and_scale_give_positive_zero(make):
    # Paddle computes these as x * s + 0: a zero result is +0.0 (the printed sign shows it)
    ours, theirs = both(lambda P: make(P, P.to_tensor([-1.0, 2.0, -0.0, 0.0])))
    assert np.signbit(ours.numpy()).tolist() == np.signbit(theirs.numpy()).tolist()
    assert str(ours) == str(theirs)


@pytest.mark.parametrize("a,b", [([2, 3], [2, 2]), ([3], [2]), ([2, 2, 3], [3, 3, 4]), ([4, 3], [2])])
def test_matmul_shape_errors(a, b):
    err = same_exception(lambda P: P.matmul(P.ones(a), P.ones(b)))
    assert "mat1" not in str(err) and "paddle.matmul" in str(err)
