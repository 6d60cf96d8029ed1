"""Session-22 sweep of ``paddle.nn.functional`` ops named m..z (losses, pooling, padding,
activations, resampling) and their ``paddle.nn`` layers: numerical outputs, gradients of the
inputs and weights, and argument checks, compared with real Paddle 3.3.1.

Left alone on purpose: Paddle's plain max pool (no mask) keeps a NaN only when it comes last in
its window (a sequential ``a > b ? a : b``); eager sigmoid_focal_loss refuses 1-D inputs (its
``full(shape(x))`` fails) while static programs accept them; the linear modes of interpolate
compute source coordinates with a float32 ratio (float64 values differ around 1e-7);
margin_cross_entropy has no CPU kernel; the indexed max pool backward of a window with mask -1,
nll_loss over 4-D input with ignore_index and weight, and normalize of a 0-D input corrupt
Paddle's memory (crashes, hangs or garbage values)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, output_and_grads, same_exception

pytest.importorskip("paddle")

_RNG = np.random.default_rng(22)


def _rand(*shape, dtype="float64"):
    return _RNG.standard_normal(shape).astype(dtype)


def _same_grads(arrays: list, fn, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """``fn(P, *leaves)`` and the gradients of its squared sum agree with Paddle's."""
    ours, theirs = both(lambda P: output_and_grads(P, arrays, fn))
    assert_same(ours, theirs, rtol=rtol, atol=atol)


# -- softmax_with_cross_entropy ------------------------------------------------------------------

@pytest.mark.parametrize("label_shape,axis", [([3, 1], -1), ([1, 4], 0), ([5, 1], -1)])
def test_softmax_with_cross_entropy_label_shape_off_axis_checked(label_shape, axis):
    logits = _rand(4, 5)
    label = np.zeros(label_shape, dtype="int64")
    same_exception(lambda P: P.nn.functional.softmax_with_cross_entropy(
        P.to_tensor(logits), P.to_tensor(label), axis=axis))


# -- normalize / pairwise_distance: the gradient of Paddle's p_norm kernel ------------------------

@pytest.mark.parametrize("p", [1, 2, 3, 0.5])
@pytest.mark.parametrize("axis", [1, -1])
def test_normalize_gradient_divides_by_norm_plus_epsilon(p, axis):
    _same_grads([_rand(2, 3, 4)], lambda P, a: P.nn.functional.normalize(a, p=p, axis=axis, epsilon=1e-2))


@pytest.mark.parametrize("p", [1, 2])
def test_normalize_gradient_at_a_norm_equal_to_epsilon(p):
    x = np.array([[0.5, 0.0], [0.25, 0.0]])
    _same_grads([x], lambda P, a: P.nn.functional.normalize(a, p=p, epsilon=0.5))


@pytest.mark.parametrize("p", [2.0, 1.0, 0.5, 3.0])
@pytest.mark.parametrize("keepdim", [False, True])
def test_pairwise_distance_gradient_at_a_zero_difference(p, keepdim):
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = np.array([[1.0, 0.0, 3.0], [4.0, 5.0, 6.0]])
    _same_grads([x, y], lambda P, a, b: P.nn.functional.pairwise_distance(a, b, p=p, epsilon=0.0,
                                                                          keepdim=keepdim))


# -- interpolate ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [dict(size=[1]), dict(scale_factor=0.3), dict(scale_factor=0.45)])
@pytest.mark.parametrize("data_format", ["NCW", "NWC"])
def test_linear_interpolate_single_output_gradient_goes_to_the_first_input(kwargs, data_format):
    # the forward samples at the scaled coordinate; Paddle's backward uses a ratio of 0
    x = _rand(2, 3, 4)
    if data_format == "NWC":
        x = x.transpose(0, 2, 1).copy()
    _same_grads([x], lambda P, a: P.nn.functional.interpolate(a, mode="linear", data_format=data_format,
                                                              **kwargs))


def test_upsample_layer_linear_single_output_gradient():
    _same_grads([_rand(1, 2, 4)], lambda P, a: P.nn.Upsample(size=[1], mode="linear")(a))


# -- triplet losses -------------------------------------------------------------------------------

@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_triplet_margin_with_distance_layer_measures_the_default_distance(swap, reduction):
    a, p, n = _rand(4, 5), _rand(4, 5), _rand(4, 5)

    def run(P, x, y, z):
        layer = P.nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: P.abs(u - v).sum(-1),
                                                   margin=2.0, swap=swap, reduction=reduction)
        return layer(x, y, z)
    _same_grads([a, p, n], run)


@pytest.mark.parametrize("p", [2.0, 1.0, float("inf")])
def test_triplet_margin_loss_gradient_where_anchor_and_positive_coincide(p):
    a, n = _rand(4, 5), _rand(4, 5)
    _same_grads([a, a.copy(), n], lambda P, x, y, z: P.nn.functional.triplet_margin_loss(
        x, y, z, p=p, epsilon=0.0, margin=5.0))


def test_triplet_margin_loss_inf_norm_gradient_reaches_every_tie():
    a = np.array([[1.0, -1.0, 0.5], [2.0, 0.0, -2.0]])
    z = np.zeros((2, 3))
    _same_grads([a, z, z + 3.0], lambda P, x, y, w: P.nn.functional.triplet_margin_loss(
        x, y, w, p=float("inf"), epsilon=0.0, margin=5.0, swap=True))


def test_triplet_margin_with_distance_loss_refuses_broadcasting_shapes():
    a, p = _rand(4, 5), _rand(1, 5)
    same_exception(lambda P: P.nn.functional.triplet_margin_with_distance_loss(
        P.to_tensor(a), P.to_tensor(p), P.to_tensor(a)))


def test_triplet_margin_with_distance_loss_refuses_negative_distances():
    a, p, n = _rand(4, 5), _rand(4, 5), _rand(4, 5)
    same_exception(lambda P: P.nn.functional.triplet_margin_with_distance_loss(
        P.to_tensor(a), P.to_tensor(p), P.to_tensor(n), distance_function=lambda u, v: (u - v).sum(-1) - 100))


@pytest.mark.parametrize("fn", ["triplet_margin_loss", "triplet_margin_with_distance_loss"])
def test_triplet_loss_of_exactly_zero_passes_its_gradient(fn):
    # d(a, p) - d(a, n) + margin is exactly 0 in the first row (L1 distances 3 and 4, margin
    # 1): Paddle's clip passes the gradient there, where a relu would not
    a = np.array([[0.0, 0.0], [1.0, 1.0]])
    p = np.array([[1.0, 2.0], [1.5, 1.0]])
    n = np.array([[0.0, 4.0], [5.0, 5.0]])

    def run(P):
        x, y, z = (P.to_tensor(v, stop_gradient=False) for v in (a, p, n))
        if fn == "triplet_margin_loss":
            loss = P.nn.functional.triplet_margin_loss(x, y, z, margin=1.0, p=1, epsilon=0.0,
                                                       reduction="sum")
        else:
            loss = P.nn.functional.triplet_margin_with_distance_loss(
                x, y, z, distance_function=lambda u, v: P.abs(u - v).sum(-1), margin=1.0,
                reduction="sum")
        loss.backward()
        return [loss, x.grad, y.grad, z.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)


# -- max pooling: windows with no element above float32's lowest value ---------------------------

_NEG_INF_MAP = np.array([[[[-np.inf, -np.inf, 1.0], [-np.inf, -np.inf, 2.0], [3.0, -np.inf, 4.0]]]])
_TINY_MAP = np.array([[[[-1e300, -1e300, 1.0], [-1e300, -1e300, 2.0], [3.0, 0.0, 4.0]]]])


def _neg_inf_pools(P, x):
    F = P.nn.functional
    return [F.max_pool2d(x, 2, stride=1), F.max_pool2d(x, 2, stride=1, padding=1),
            F.max_pool1d(x[0], 2, stride=1), F.max_pool3d(x.unsqueeze(2), [1, 2, 2], stride=1),
            F.adaptive_max_pool1d(x[0], 2), F.adaptive_max_pool2d(x, 2),
            F.adaptive_max_pool3d(x.unsqueeze(2), [1, 2, 2])]


@pytest.mark.parametrize("data", [_NEG_INF_MAP, _NEG_INF_MAP.astype("float32"), _TINY_MAP],
                         ids=["neginf64", "neginf32", "tiny64"])
def test_max_pools_start_at_float32_lowest(data):
    ours, theirs = both(lambda P: _neg_inf_pools(P, P.to_tensor(data)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("data", [_NEG_INF_MAP, _TINY_MAP], ids=["neginf", "tiny"])
def test_max_pools_with_mask_mark_windows_below_float32_lowest(data):
    def run(P):
        x = P.to_tensor(data)
        F = P.nn.functional
        return [*F.max_pool2d(x, 2, stride=1, return_mask=True),
                *F.max_pool2d(x, 2, stride=1, padding=1, return_mask=True),
                *F.adaptive_max_pool2d(x, 2, return_mask=True)]
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("data", [_NEG_INF_MAP, _TINY_MAP], ids=["neginf", "tiny"])
def test_max_pool_gradient_skips_windows_below_float32_lowest(data):
    # (only the pool without a mask: Paddle's indexed backward writes through the -1 mask)
    def run(P):
        x = P.to_tensor(data, stop_gradient=False)
        y = P.nn.functional.max_pool2d(x, 2, stride=1)
        y.backward(P.ones_like(y))
        return [y, x.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)


_NAN_MAP = np.array([[[[np.nan, 1.0, 5.0], [2.0, np.nan, 0.5], [3.0, np.nan, 4.0]]]])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_indexed_and_adaptive_max_pools_skip_nan(dtype):
    # (Paddle's plain max pool without a mask keeps a NaN only when it comes last in its
    # window: not copied, see the module docstring)
    data = _NAN_MAP.astype(dtype)

    def run(P):
        x = P.to_tensor(data, stop_gradient=False)
        F = P.nn.functional
        outs = [*F.max_pool2d(x, 2, stride=1, return_mask=True),
                *F.adaptive_max_pool2d(x, 2, return_mask=True),
                F.adaptive_max_pool2d(x, [1, 2]),
                *F.max_pool1d(x[0], 2, stride=1, return_mask=True),
                F.adaptive_max_pool3d(x.unsqueeze(2), [1, 2, 2])]
        total = outs[0].sum() + outs[2].sum() + outs[4].sum() + outs[5].sum() + outs[7].sum()
        total.backward()
        return [*outs, x.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("margin", [0.0, 0.3])
@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_margin_ranking_loss_of_zero_dim_inputs(margin, reduction):
    # a non-zero margin is added as a [1] tensor in Paddle: the 'none' loss of 0-D inputs is [1]
    a, b = np.array(0.4), np.array(0.9)
    _same_grads([a, b], lambda P, x, y: P.nn.functional.margin_ranking_loss(
        x, y, P.to_tensor(-1.0, dtype="float64"), margin=margin, reduction=reduction))
