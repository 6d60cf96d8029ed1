"""Session-26 sweep of low-precision and mixed dtypes on the CPU against real Paddle 3.3.1.

Paddle's composite losses start with a promoting op (``subtract``), so a float16/bfloat16
input with a float32/float64 label computes in the promoted dtype, and their kernels' dtype
checks apply to that dtype; fused kernels without promotion (``sigmoid_cross_entropy_with_logits``,
``bilinear``, ``group_norm``, ``einsum``, the matmuls of ``scaled_dot_product_attention``) run
in the dtype of one chosen tensor argument: NotFound (RuntimeError) when that dtype has no CPU
kernel, InvalidArgument (ValueError) for the other tensors of another dtype.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")

_RNG = np.random.default_rng(26)
_LOGIT = _RNG.standard_normal((2, 3)).astype(np.float32)
_PROB = (_RNG.random((2, 3)) * 0.8 + 0.1).astype(np.float32)
_Q = _RNG.standard_normal((1, 3, 2, 4)).astype(np.float32)
_IMG = _RNG.standard_normal((1, 4, 3, 3)).astype(np.float32)


def _t(P, a, dtype):
    return P.to_tensor(a).astype(dtype)


def _result(out):
    """The dtype and the float32 values (numpy has no bfloat16)."""
    return [str(out.dtype).replace("paddle.", ""), out.astype("float32")]


_PROMOTING_LOSSES = {
    "mse_loss": lambda F, x, y: F.mse_loss(x, y),
    "l1_loss": lambda F, x, y: F.l1_loss(x, y, reduction="sum"),
    "smooth_l1_loss": lambda F, x, y: F.smooth_l1_loss(x, y, delta=0.3),
    "square_error_cost": lambda F, x, y: F.square_error_cost(x, y),
    "margin_ranking_loss": lambda F, x, y: F.margin_ranking_loss(x, y, y * 0 + 1),
    "poisson_nll_loss": lambda F, x, y: F.poisson_nll_loss(x, y),
    "poisson_nll_loss_log": lambda F, x, y: F.poisson_nll_loss(x, y, log_input=False),
    "triplet_margin_loss": lambda F, x, y: F.triplet_margin_loss(x, y, -y),
    "pairwise_distance": lambda F, x, y: F.pairwise_distance(x, y),
}


@pytest.mark.parametrize("name", sorted(_PROMOTING_LOSSES))
@pytest.mark.parametrize("low, other", [("float16", "float32"), ("bfloat16", "float64"),
                                        ("bfloat16", "float16")])
def test_losses_compute_a_low_precision_input_in_the_promoted_dtype(name, low, other):
    fn = _PROMOTING_LOSSES[name]
    if name == "poisson_nll_loss" and low == "bfloat16":
        # its exp(input) has no bfloat16 CPU kernel
        same_exception(lambda P: fn(P.nn.functional, _t(P, _LOGIT, low), _t(P, _PROB, other)))
        return
    ours, theirs = both(lambda P: _result(fn(P.nn.functional, _t(P, _LOGIT, low), _t(P, _PROB, other))))
    assert_same(ours, theirs, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("name", ["mse_loss", "smooth_l1_loss", "triplet_margin_loss"])
def test_losses_of_two_low_precision_tensors_still_have_no_cpu_kernel(name):
    fn = _PROMOTING_LOSSES[name]
    same_exception(lambda P: fn(P.nn.functional, _t(P, _LOGIT, "float16"), _t(P, _PROB, "float16")))


def test_loss_gradient_reaches_the_low_precision_input_in_its_dtype():
    def run(P):
        x = _t(P, _LOGIT, "float16")
        x.stop_gradient = False
        P.nn.functional.mse_loss(x, _t(P, _PROB, "float32")).backward()
        return _result(x.grad)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-2, atol=1e-3)


@pytest.mark.parametrize("x1, x2", [("bfloat16", "float32"), ("float32", "bfloat16"),
                                    ("float32", "float16"), ("float16", "float32")])
def test_cosine_similarity_of_mixed_dtypes(x1, x2):
    def run(P):
        return _result(P.nn.functional.cosine_similarity(_t(P, _LOGIT, x1), _t(P, _PROB, x2)))
    if "float16" in (x1, x2):   # each operand is squared alone: no float16 CPU multiply
        same_exception(run)
    else:
        ours, theirs = both(run)
        assert_same(ours, theirs, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("logit, label, pos_weight", [
    ("float16", "float32", None), ("float32", "float16", None), ("bfloat16", "float32", None),
    ("float16", "float16", "float32"), ("float32", "float32", "float64")])
def test_bce_with_logits_runs_in_the_label_dtype(logit, label, pos_weight):
    same_exception(lambda P: P.nn.functional.binary_cross_entropy_with_logits(
        _t(P, _LOGIT, logit), _t(P, _PROB, label),
        pos_weight=None if pos_weight is None else _t(P, _PROB[0], pos_weight)))


def test_bce_with_logits_takes_a_narrower_pos_weight():
    ours, theirs = both(lambda P: P.nn.functional.binary_cross_entropy_with_logits(
        _t(P, _LOGIT, "float32"), _t(P, _PROB, "float32"), pos_weight=_t(P, _PROB[0], "bfloat16")))
    assert_same(ours, theirs, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("logit, label", [("float16", "float32"), ("float32", "bfloat16")])
def test_sigmoid_focal_loss_runs_in_the_label_dtype(logit, label):
    same_exception(lambda P: P.nn.functional.sigmoid_focal_loss(
        _t(P, _LOGIT, logit), _t(P, (_LOGIT > 0).astype(np.float32), label)))


@pytest.mark.parametrize("label", ["float16", "bfloat16"])
def test_kl_div_refuses_a_low_precision_label_of_another_dtype(label):
    same_exception(lambda P: P.nn.functional.kl_div(_t(P, _LOGIT, "float32"), _t(P, _PROB, label)))


def test_kl_div_still_promotes_float32_and_float64():
    ours, theirs = both(lambda P: P.nn.functional.kl_div(_t(P, _LOGIT, "float32"),
                                                         _t(P, _PROB, "float64")))
    assert_same(ours, theirs)


def test_cosine_embedding_loss_squares_a_low_precision_input2():
    same_exception(lambda P: P.nn.functional.cosine_embedding_loss(
        _t(P, _LOGIT, "float32"), _t(P, _PROB, "float16"), P.to_tensor([1, -1])))


@pytest.mark.parametrize("dq, dk, dv", [("float16", "float32", "float32"),
                                        ("float32", "float16", "float16"),
                                        ("float32", "float32", "bfloat16"),
                                        ("float32", "float32", "float64")])
def test_sdpa_mixed_dtypes(dq, dk, dv):
    same_exception(lambda P: P.nn.functional.scaled_dot_product_attention(
        _t(P, _Q, dq), _t(P, _Q, dk), _t(P, _Q, dv)))


@pytest.mark.parametrize("d1, d2, dw, db", [("float16", "float32", "float32", None),
                                            ("float32", "float32", "float16", None),
                                            ("float32", "float32", "float32", "float16"),
                                            ("float32", "float32", "float16", "float32"),
                                            ("int32", "float32", "float32", None)])
def test_bilinear_runs_in_its_last_tensor_dtype(d1, d2, dw, db):
    w = _RNG.standard_normal((2, 3, 3)).astype(np.float32)
    same_exception(lambda P: P.nn.functional.bilinear(
        _t(P, _LOGIT, d1), _t(P, _PROB, d2), _t(P, w, dw),
        None if db is None else _t(P, np.ones((1, 2), np.float32), db)))


@pytest.mark.parametrize("dx, dw, db", [("float16", "float32", None), ("float32", "float16", None),
                                        ("float32", "float32", "float16"), ("float16", None, "float32"),
                                        ("float32", "float64", None)])
def test_group_norm_runs_in_its_last_tensor_dtype(dx, dw, db):
    one = np.ones(4, np.float32)
    same_exception(lambda P: P.nn.functional.group_norm(
        _t(P, _IMG, dx), 2, weight=None if dw is None else _t(P, one, dw),
        bias=None if db is None else _t(P, one, db)))


@pytest.mark.parametrize("dtypes", [("float32", "float16"), ("float16", "float32"),
                                    ("float32", "float64"), ("float64", "float32"),
                                    ("float32", "float32", "float16")])
def test_einsum_of_mixed_dtypes(dtypes):
    eq = ",".join(["ij", "jk", "kl"][:len(dtypes)]) + "->i" + "jkl"[len(dtypes) - 1]
    m = _RNG.standard_normal((2, 2)).astype(np.float32)
    same_exception(lambda P: P.einsum(eq, *[_t(P, m, d) for d in dtypes]))


_NO_GRAD_KERNEL = {
    "exp": (lambda P, x: P.exp(x), "float16"),
    "log": (lambda P, x: P.log(x), "bfloat16"),
    "log1p": (lambda P, x: P.log1p(x), "float16"),
    "topk": (lambda P, x: P.topk(x, 1)[0], "float16"),
    "tile": (lambda P, x: P.tile(x, [2]), "float16"),
    "concat": (lambda P, x: P.concat([x, x]), "bfloat16"),
}


@pytest.mark.parametrize("name", sorted(_NO_GRAD_KERNEL))
def test_backward_without_a_cpu_gradient_kernel_raises(name):
    fn, dtype = _NO_GRAD_KERNEL[name]

    def run(P):
        x = _t(P, _PROB[0], dtype)
        x.stop_gradient = False
        y = fn(P, x)
        assert y.dtype == getattr(P, dtype)   # the forward kernel exists
        y.astype("float32").sum().backward()
    same_exception(run)


@pytest.mark.parametrize("fn", [lambda P, x: P.exp(x.astype("float32")),
                                lambda P, x: P.concat([x, x]), lambda P, x: P.expm1(x)])
def test_backward_with_a_cpu_gradient_kernel_runs(fn):
    def run(P):
        x = _t(P, _PROB[0], "float16")
        x.stop_gradient = False
        fn(P, x).astype("float32").sum().backward()
        return _result(x.grad)
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-2, atol=1e-2)


def test_no_gradient_kernel_needed_without_gradients():
    ours, theirs = both(lambda P: _result(P.log(_t(P, _PROB[0], "bfloat16"))))
    assert_same(ours, theirs, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("dx, dy", [("bfloat16", "float16"), ("float16", "bfloat16")])
def test_cdist_of_bfloat16_and_float16_computes_in_float32(dx, dy):
    ours, theirs = both(lambda P: _result(P.cdist(_t(P, _LOGIT.T.copy(), dx), _t(P, _PROB.T.copy(), dy))))
    assert_same(ours, theirs, rtol=2e-2, atol=2e-2)


def test_group_norm_nhwc_with_mixed_parameters():
    one = np.ones(4, np.float32)
    same_exception(lambda P: P.nn.functional.group_norm(
        _t(P, _IMG.transpose(0, 2, 3, 1).copy(), "float32"), 2, weight=_t(P, one, "float16"),
        data_format="NHWC"))
    ours, theirs = both(lambda P: P.nn.functional.group_norm(
        _t(P, _IMG.transpose(0, 2, 3, 1).copy(), "float64"), 2, weight=_t(P, one, "float64"),
        data_format="NHWC"))
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", ["histogramdd", "cov", "trapezoid"])
def test_low_precision_auxiliary_tensors(case):
    fns = {
        "histogramdd": lambda P: P.histogramdd(_t(P, _LOGIT, "float16"), bins=3,
                                               weights=_t(P, _PROB[:, 0], "float32")),
        "cov": lambda P: P.linalg.cov(_t(P, _LOGIT, "float32"), aweights=_t(P, _PROB[0], "bfloat16")),
        "trapezoid": lambda P: P.trapezoid(_t(P, _LOGIT, "float32"), x=_t(P, _PROB, "float16")),
    }
    same_exception(fns[case])


def test_multi_margin_loss_takes_a_bfloat16_weight():
    ours, theirs = both(lambda P: P.nn.functional.multi_margin_loss(
        _t(P, _LOGIT, "float32"), P.to_tensor([0, 2]), weight=_t(P, _PROB[0], "bfloat16")))
    assert_same(ours, theirs, rtol=1e-2, atol=1e-2)
