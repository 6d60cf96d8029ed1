"""Session-22: gradients of math/manipulation/linalg ops where Paddle's hand-written CPU
gradient kernels differ from the mathematical derivative (torch autograd): maximum/minimum with
NaN, p-norms with p < 1 at zeros (norm, vector_norm, dist, cdist), atan2 at the origin, i0e at
+-0, digamma / polygamma(0) at the poles, erfinv outside [-1, 1], gammainc/gammaincc in y at 0
and inf (and their NaN value at y = inf), det/slogdet with a singular matrix in the batch,
masked_fill's one-element value, and diagonal_scatter's ``y`` (no gradient, stop_gradient from
``x`` only)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both

pytest.importorskip("paddle")

NAN, INF = float("nan"), float("inf")


def _grads(P, fn, arrays, needs=None):
    """``[y, *grads]`` of ``(y * (1, 2, 3...)).sum()``, a non-trivial upstream gradient;
    ``needs[i]`` False keeps input i a constant (stop_gradient)."""
    ts = [P.to_tensor(np.asarray(a, dtype="float32"), stop_gradient=not (needs is None or needs[i]))
          for i, a in enumerate(arrays)]
    y = fn(P, *ts)
    y = y[0] if isinstance(y, (list, tuple)) else y
    w = (P.arange(int(np.prod(y.shape)), dtype=y.dtype) + 1).reshape(y.shape)
    (y * w).sum().backward()
    return [y] + [t.grad for t in ts]


def _same_grads(fn, arrays, needs=None):
    assert_same(*both(lambda P: _grads(P, fn, arrays, needs)))


@pytest.mark.parametrize("api", ["maximum", "minimum"])
@pytest.mark.parametrize("x, y", [
    ([1.0, NAN, 3.0, 2.0], [NAN, 1.0, 3.0, 5.0]),
    ([[1.0, NAN, 3.0], [3.0, 3.0, 4.0]], [3.0]),
])
def test_maximum_minimum_give_no_gradient_at_nan(api, x, y):
    # Paddle's kernel: the winner gets the gradient, a tie splits it, NaN gives neither any
    _same_grads(lambda P, a, b: getattr(P, api)(a, b), [x, y])
    _same_grads(lambda P, a, b: getattr(P, api)(a, b), [x, y], [True, False])


_M = [[0.0, 1.0, -2.0], [1.0, 2.0, 3.0]]


@pytest.mark.parametrize("fn", [
    lambda P, x: P.linalg.norm(x, p=0.5),
    lambda P, x: P.linalg.norm(x, p=-1),
    lambda P, x: P.linalg.vector_norm(x, p=0.5),
    lambda P, x: P.linalg.vector_norm(x, p=0.5, axis=1),
    lambda P, x: P.linalg.vector_norm(x, p=0.5, axis=[0, 1]),   # composite: no NaN
    lambda P, x: P.linalg.vector_norm(x, p=-1, axis=[0, 1], keepdim=True),
    lambda P, x: x.norm(p=0.5),
    lambda P, x: P.dist(x, P.zeros_like(x), p=0.5),
    lambda P, x: P.dist(x, P.ones_like(x), p=-1),
    lambda P, x: P.cdist(x, P.to_tensor([[0.0, 1.0, -2.0], [3.0, 3.0, 3.0]]), p=0.5),
])
def test_pnorm_below_one_is_nan_at_zeros(fn):
    # Paddle's p_norm gradient |x|^(p-1) * sign(x) / ... is 0 * inf there; torch masks it to 0
    _same_grads(fn, [_M])


@pytest.mark.parametrize("x, y, needs", [
    ([0.0, 1.0, -2.0], [0.0, 0.0, 3.0], None),
    ([[0.0, 1.0, -2.0], [1.0, 2.0, 0.0]], [0.0], None),
    ([[0.0, 1.0, -2.0], [1.0, 2.0, 0.0]], [0.0], [True, False]),
])
def test_atan2_gradient_is_nan_at_the_origin(x, y, needs):
    # Paddle: (y, -x) / (x^2 + y^2), 0 / 0 at (0, 0); torch masks it to 0
    _same_grads(lambda P, a, b: P.atan2(a, b), [x, y], needs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_digamma_gradient_is_paddles_trigamma_at_poles_and_infinities(dtype):
    # Paddle: polygamma(1, x), +inf at 0, -1, -2..., -100 and -inf, NaN at +inf
    x = [0.0, -0.0, -1.0, -2.0, -100.0, -0.5, 3.0, NAN, -INF, INF]
    _same_grads(lambda P, t: P.digamma(t.astype(dtype)), [x])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_i0e_gradient_at_signed_zeros(dtype):
    # Paddle: i1e(x) - sign(x) * i0e(x) with the sign bit of a zero: -1 at +0, +1 at -0
    x = [0.0, -0.0, 1e-30, -1e-30, -2.0, 0.5, NAN, INF, -INF]
    _same_grads(lambda P, t: P.i0e(t.astype(dtype)), [x])


@pytest.mark.parametrize("x_needs", [True, False])
def test_diagonal_scatter_gives_y_no_gradient(x_needs):
    # Paddle's fill_diagonal_tensor gradient has no part for y
    def fn(P):
        x = P.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=not x_needs)
        y = P.to_tensor([7.0, 8.0], stop_gradient=False)
        out = P.diagonal_scatter(x, y)
        (out * P.arange(6, dtype="float32").reshape([2, 3])).sum().backward()
        return [out, out.stop_gradient, x.grad, y.grad]
    assert_same(*both(fn))


@pytest.mark.parametrize("x_sg, y_sg", [(False, True), (True, False)])
def test_diagonal_scatter_stop_gradient_follows_x_only(x_sg, y_sg):
    def fn(P):
        x = P.to_tensor([[1, 2, 3], [4, 5, 6]], stop_gradient=x_sg)
        y = P.to_tensor([7, 8], stop_gradient=y_sg)
        return P.diagonal_scatter(x, y).stop_gradient
    assert_same(*both(fn))


@pytest.mark.parametrize("x_needs", [True, False])
@pytest.mark.parametrize("shape", [[], [1]])
def test_masked_fill_one_element_value_gradient(x_needs, shape):
    # with x needing a gradient too, Paddle's kernel leaves the value's ~0 (its int64 count of
    # masked elements read as a float); otherwise the value gets the masked gradients' sum
    def fn(P):
        x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=not x_needs)
        v = P.full(shape, 5.0)
        v.stop_gradient = False
        out = P.masked_fill(x, x > 1, v)
        (out * P.to_tensor([1.0, 2.0, 3.0])).sum().backward()
        return [out, v.grad]
    assert_same(*both(fn))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_erfinv_gradient_outside_the_domain_is_inf(dtype):
    # Paddle: sqrt(pi) / 2 * exp(out^2), +inf where the output is +-inf (|x| >= 1)
    x = [-1.0, 1.0, 2.0, -3.0, 0.0, 0.3, -0.7, NAN]
    _same_grads(lambda P, t: P.erfinv(t.astype(dtype)), [x])


def test_polygamma_order_0_has_digammas_gradient():
    x = [0.0, -1.0, 2.0, INF, -INF]
    _same_grads(lambda P, t: P.polygamma(t, 0), [x])
    _same_grads(lambda P, t: (t * 1).polygamma_(0), [x])


@pytest.mark.parametrize("api", ["gammainc", "gammaincc"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_incomplete_gamma_gradient_at_y_zero_and_inf(api, dtype):
    # Paddle: +-exp(-y) * y^(x-1) / gamma(x) with a power: 1 at (1, 0), 0 at y = inf, where
    # torch's exp-of-log form gives NaN (x gets no gradient)
    x = [1.0, 2.0, 0.5, 0.5, 1.0, 3.0, 0.0, 0.0]
    y = [0.0, 0.0, 0.0, 1.0, INF, 1e-30, 1.0, 0.0]
    _same_grads(lambda P, a, b: getattr(P, api)(a.astype(dtype), b.astype(dtype)), [x, y], [False, True])


@pytest.mark.parametrize("api", ["gammainc", "gammaincc"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_incomplete_gamma_at_y_inf_is_nan(api, dtype):
    def fn(P):
        x = P.to_tensor([1.0, 2.0, 0.5, 0.0], dtype=dtype)
        return getattr(P, api)(x, P.full([4], INF, dtype=dtype))
    assert_same(*both(fn))


@pytest.mark.parametrize("m", [
    [[1.0, 2.0], [2.0, 4.0]],
    [[0.0, 0.0], [0.0, 0.0]],
    [[[1.0, 2.0], [2.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]],   # one singular: the whole batch
    [[[3.0, 2.0], [2.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]],
])
@pytest.mark.parametrize("api", ["det", "slogdet"])
def test_det_slogdet_gradient_with_a_singular_matrix_in_the_batch(api, m):
    # Paddle's kernels: zeros (det) / NaN (slogdet) for the whole batch once one matrix is singular
    _same_grads(lambda P, x: getattr(P.linalg, api)(x), [m])
