"""Session-14: losses, optimizers, linalg and fft checked against Paddle 3.3.1 on the argument
combinations of Paddle's API QA cases (values, gradients, errors)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, output_and_grads, same_exception

_RNG = np.random.default_rng(14)
_X = _RNG.standard_normal((3, 4)).astype("float32")
_Y = _RNG.standard_normal((3, 4)).astype("float32")
_VAR = _RNG.random((3, 4)).astype("float32") + 0.1


def test_gaussian_nll_loss_gives_the_variance_no_gradient():
    # Paddle clamps the variance under no_grad: the loss has no gradient for it
    ours, theirs = both(lambda P: output_and_grads(
        P, [_X, _Y, _VAR], lambda P, x, y, v: P.nn.functional.gaussian_nll_loss(x, y, v, full=True)))
    assert ours[3] is None and theirs[3] is None
    assert_same(ours[:3], theirs[:3])


@pytest.mark.parametrize("red", ["x", None, "BatchMean"])
def test_kl_div_with_another_reduction_gives_the_unreduced_loss(red):
    ours, theirs = both(lambda P: P.nn.KLDivLoss(reduction=red)(P.to_tensor(_X), P.to_tensor(_VAR)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("label_shape", [[4], [1, 1], [4, 2]])
def test_log_loss_label_of_another_shape_raises(label_shape):
    same_exception(lambda P: P.nn.functional.log_loss(P.rand([4, 1]), P.rand(label_shape)))


@pytest.mark.parametrize("rcond", [0.5, 0.2])
def test_pinv_gradient_when_rcond_drops_singular_values(rcond):
    # torch's pinv backward differentiates the untruncated pseudo-inverse; Paddle goes through
    # the SVD, whose gradient is the truncated one's (the finite-difference one)
    rng = np.random.default_rng(5)
    a, w = rng.standard_normal((3, 4)), rng.standard_normal((4, 3))  # singular values 2.85, 1.18, 0.45

    def run(P):
        x = P.to_tensor(a)
        x.stop_gradient = False
        out = P.linalg.pinv(x, rcond=rcond)
        return [out, *P.grad((out * P.to_tensor(w)).sum(), x)]
    assert_same(*both(run), rtol=1e-6)


@pytest.mark.parametrize("fn, kwargs", [
    ("fft", lambda P: {"n": P.to_tensor(5)}),
    ("hfft", lambda P: {"n": np.int64(4)}),
    ("fft", lambda P: {"axis": P.to_tensor(0)}),
    ("fft", lambda P: {"n": True}),
    ("fft2", lambda P: {"s": P.to_tensor([3, 3])}),
    ("fftn", lambda P: {"axes": [0, np.int64(1)]}),
    ("irfft2", lambda P: {"s": [3, P.to_tensor(3)]}),
], ids=["n_tensor", "n_numpy", "axis_tensor", "n_bool", "s_tensor", "axes_numpy", "s_tensor_entry"])
def test_fft_sizes_and_axes_must_be_python_ints(fn, kwargs):
    # Paddle checks n/axis/s/axes with isinstance(int): a Tensor or numpy integer is a ValueError
    same_exception(lambda P: getattr(P.fft, fn)(P.rand([4, 4]), **kwargs(P)))


@pytest.mark.parametrize("call", [
    lambda P, a: P.nn.functional.mse_loss(P.rand([4, 3]), a),
    lambda P, a: P.nn.functional.l1_loss(P.rand([4, 3]), a),
    lambda P, a: P.nn.functional.square_error_cost(P.rand([4, 3]), a),
    lambda P, a: P.nn.functional.binary_cross_entropy_with_logits(P.rand([4, 3]), P.rand([4, 3]), pos_weight=a),
    lambda P, a: P.nn.functional.npair_loss(P.rand([4, 3]), P.rand([4, 3]), a.tolist()),
    lambda P, a: P.linalg.eigh(np.eye(3)),
    lambda P, a: P.linalg.ormqr(a, P.rand([3], "float64"), P.rand([4, 3], "float64")),
    lambda P, a: P.linalg.ormqr(P.rand([4, 3], "float64"), P.rand([3], "float64"), a.tolist()),
], ids=["mse_label", "l1_label", "square_error_label", "bce_logits_pos_weight", "npair_labels_list",
        "eigh", "ormqr_x", "ormqr_y_list"])
def test_a_numpy_array_or_list_for_a_tensor_raises_as_paddle(call):
    # numpy labels used to broadcast through torch's arithmetic; the others raised another type
    same_exception(lambda P: call(P, np.random.default_rng(0).random((4, 3)).astype("float32")))


@pytest.mark.parametrize("call", [
    lambda P, v: P.linalg.multi_dot([P.rand([2, 2]), v]),
    lambda P, v: P.fft.hfftn(v),
    lambda P, v: P.fft.ihfftn(v),
    lambda P, v: P.linalg.lu_unpack(P.rand([3, 3]), v),
], ids=["multi_dot", "hfftn", "ihfftn", "lu_unpack_pivots"])
@pytest.mark.parametrize("value", [[[1.0, 2.0], [3.0, 4.0]], None], ids=["list", "none"])
def test_a_non_tensor_argument_raises_as_paddle(call, value):
    same_exception(lambda P: call(P, value))


@pytest.mark.parametrize("call", [
    lambda P: P.nn.functional.hsigmoid_loss(P.rand([4, 3]), P.zeros([4, 1], "int64"), 1, P.rand([4, 3])),
    lambda P: P.nn.functional.softmax_with_cross_entropy(P.rand([4, 5]), P.zeros([4, 1], "int64"), axis=-3),
], ids=["hsigmoid_one_class", "softmax_xent_axis_-3"])
def test_loss_argument_out_of_range_raises(call):
    same_exception(call)


@pytest.mark.parametrize("rcond", [[0.5], np.array([[[0.1]], [[0.9]]])], ids=["list", "array"])
@pytest.mark.parametrize("hermitian", [False, True])
def test_pinv_takes_rcond_as_a_list_or_array(rcond, hermitian):
    a = np.random.default_rng(0).standard_normal((3, 3))
    assert_same(*both(lambda P: P.linalg.pinv(P.to_tensor(a + a.T), rcond=rcond, hermitian=hermitian)))


def test_triangular_solve_with_a_1d_y_raises_in_paddle_words():
    exc = same_exception(lambda P: P.linalg.triangular_solve(P.rand([3, 3]), P.rand([3])))
    assert "paddle.linalg.triangular_solve" in str(exc) and "solve_triangular" not in str(exc)
