"""Session-22: numerical outputs and gradients of ``paddle.nn.functional`` ops named a..l (and
their layers) against real Paddle 3.3.1, with non-default arguments: class axes other than the
last, label smoothing and weights in cross_entropy, data formats, padding forms, pooling and
interpolation options, reductions, float64, 0-size and 0-D inputs."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, output_and_grads, same_exception

pytest.importorskip("paddle")

RNG = np.random.default_rng(22)


def _rn(*shape, dtype="float64"):
    return RNG.standard_normal(shape).astype(dtype)


# -- cross_entropy: a class axis other than the last ---------------------------------------------

_C = 4
_X3 = _rn(2, _C, _C)                       # classes on axis 1, and as many positions as classes
_SOFT3 = np.abs(_rn(2, _C, _C))
_SOFT3 /= _SOFT3.sum(1, keepdims=True)
_W = np.abs(_rn(_C)) + 0.1
_LAB3 = RNG.integers(0, _C, (2, _C))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_soft_label_weight_axis1_uses_the_last_axis_for_weights(reduction):
    # Paddle gathers the sample weights as label @ weight over the label's last axis
    ours, theirs = both(lambda P: output_and_grads(P, [_X3, _SOFT3, _W], lambda P, x, s, w:
                        P.nn.functional.cross_entropy(x, s, weight=w, soft_label=True, axis=1,
                                                      reduction=reduction)))
    assert_same(ours, theirs, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_label_smoothing_axis1_one_hots_on_the_last_axis(reduction, weighted):
    def fn(P, x, w):
        return P.nn.functional.cross_entropy(x, P.to_tensor(_LAB3), axis=1, reduction=reduction,
                                             weight=w if weighted else None, label_smoothing=0.2)
    ours, theirs = both(lambda P: output_and_grads(P, [_X3, _W], fn))
    assert_same(ours, theirs, rtol=1e-6, atol=1e-8)


def test_cross_entropy_axis1_shape_mismatch_raises():
    x = _rn(2, 5, 6)
    same_exception(lambda P: P.nn.functional.cross_entropy(
        P.to_tensor(x), P.to_tensor(RNG.integers(0, 5, (2, 6))), axis=1, label_smoothing=0.1))
    s = np.abs(_rn(2, 5, 6))
    same_exception(lambda P: P.nn.functional.cross_entropy(
        P.to_tensor(x), P.to_tensor(s), axis=1, soft_label=True,
        weight=P.to_tensor(np.ones(5))))


# -- conv*_transpose: an empty spatial output ----------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3])
def test_conv_transpose_empty_output_channel_last_raises_channel_first_does_not(n):
    fn = ["conv1d_transpose", "conv2d_transpose", "conv3d_transpose"][n - 1]
    last = ["NLC", "NHWC", "NDHWC"][n - 1]
    x, w = _rn(1, 2, *[2] * n), _rn(2, 2, *[2] * n)
    pad = [0] * (2 * n - 1) + [3]     # the last spatial size: 1 + 2 - 3 = 0

    def run(P, data_format):
        xx = x if data_format != last else np.moveaxis(x, 1, -1).copy()
        return getattr(P.nn.functional, fn)(P.to_tensor(xx), P.to_tensor(w), padding=pad,
                                            data_format=data_format)
    assert_same(*both(lambda P: run(P, ["NCL", "NCHW", "NCDHW"][n - 1])))
    same_exception(lambda P: run(P, last))


# -- interpolate: Paddle's float32 ratio and coordinates, also for float64 inputs -----------------

_IMG = _rn(2, 3, 5, 7)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("align_corners,align_mode", [(False, 0), (False, 1), (True, 0)])
@pytest.mark.parametrize("kw", [{"size": [8, 11]}, {"size": [3, 4]}, {"scale_factor": [1.5, 2.3]},
                                {"scale_factor": 0.6}, {"size": [1, 9]}])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_interpolate_2d_float64_values(mode, align_corners, align_mode, kw, data_format):
    x = _IMG if data_format == "NCHW" else np.moveaxis(_IMG, 1, -1).copy()
    ours, theirs = both(lambda P: P.nn.functional.interpolate(
        P.to_tensor(x), mode=mode, align_corners=align_corners, align_mode=align_mode,
        data_format=data_format, **kw))
    assert_same(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("align_corners,align_mode", [(False, 0), (False, 1), (True, 0)])
@pytest.mark.parametrize("kw", [{"size": [9]}, {"scale_factor": 1.7}, {"scale_factor": [0.6]}])
def test_interpolate_linear_float64_values(align_corners, align_mode, kw):
    ours, theirs = both(lambda P: P.nn.functional.interpolate(
        P.to_tensor(_IMG[0]), mode="linear", align_corners=align_corners, align_mode=align_mode,
        **kw))
    assert_same(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("align_corners,align_mode", [(False, 0), (False, 1), (True, 0)])
@pytest.mark.parametrize("kw", [{"size": [5, 6, 4]}, {"scale_factor": [1.5, 0.5, 2.3]}])
def test_interpolate_trilinear_float64_values(align_corners, align_mode, kw):
    x = _IMG[:, :, :4, :6].reshape(1, 2, 3, 4, 6)
    ours, theirs = both(lambda P: P.nn.functional.interpolate(
        P.to_tensor(x), mode="trilinear", align_corners=align_corners, align_mode=align_mode,
        **kw))
    assert_same(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_interpolate_float32_values_and_float64_gradients(mode):
    assert_same(*both(lambda P: P.nn.functional.interpolate(
        P.to_tensor(_IMG.astype("float32")), scale_factor=[1.5, 2.3], mode=mode)), rtol=1e-6,
        atol=1e-6)
    # (Paddle's backward kernels round their coordinates differently from its forward ones)
    ours, theirs = both(lambda P: output_and_grads(P, [_IMG], lambda P, x: P.nn.functional.interpolate(
        x, size=[8, 11], mode=mode, align_mode=1)))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


# -- affine_grid: a size-1 axis with align_corners ------------------------------------------------

@pytest.mark.parametrize("shape", [[2, 1, 1, 3], [2, 1, 3, 1], [2, 1, 1, 1], [2, 1, 2, 1, 3]])
@pytest.mark.parametrize("align_corners", [True, False])
def test_affine_grid_size_one_axis(shape, align_corners):
    theta = _rn(2, 2, 3) if len(shape) == 4 else _rn(2, 3, 4)
    ours, theirs = both(lambda P: output_and_grads(P, [theta], lambda P, t: P.nn.functional.affine_grid(
        t, shape, align_corners=align_corners)))
    assert_same(ours, theirs)


# -- norms: Paddle's float32 attributes applied to float64 inputs ---------------------------------

_X4 = _rn(3, 4, 5, 6)


@pytest.mark.parametrize("size,data_format", [(3, "NCHW"), (5, "NHWC"), (2, "NCL")])
def test_local_response_norm_beta_is_a_float32(size, data_format):
    x = _X4 if data_format != "NCL" else _X4[0]
    if data_format == "NHWC":
        x = np.moveaxis(x, 1, -1).copy()
    ours, theirs = both(lambda P: output_and_grads(P, [x], lambda P, a: P.nn.functional.local_response_norm(
        a, size, alpha=0.01, beta=0.6, k=2.0, data_format=data_format)))
    assert_same(ours[0], theirs[0], rtol=1e-12, atol=1e-12)
    # (Paddle's average pooling scales the gradient by a float32 1 / size)
    assert_same(ours[1], theirs[1], rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("training,use_global_stats", [(True, None), (False, None), (False, False),
                                                       (True, True)])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_batch_norm_float64_epsilon_and_momentum_are_float32s(training, use_global_stats, data_format):
    x = _X4 if data_format == "NCHW" else np.moveaxis(_X4, 1, -1).copy()
    mean, var, w, b = _rn(4), np.abs(_rn(4)), _rn(4), _rn(4)

    def fn(P):
        rm, rv = P.to_tensor(mean), P.to_tensor(var)
        out = P.nn.functional.batch_norm(
            P.to_tensor(x), rm, rv, P.to_tensor(w), P.to_tensor(b), training=training, momentum=0.8,
            epsilon=0.01, data_format=data_format, use_global_stats=use_global_stats)
        return [out, rm, rv]
    assert_same(*both(fn), rtol=1e-12, atol=1e-12)


def test_batch_norm_layer_running_statistics_float64():
    def fn(P):
        P.seed(0)
        layer = P.nn.BatchNorm2D(4, momentum=0.7, epsilon=0.01)
        layer.to(dtype="float64")
        out = layer(P.to_tensor(_X4))
        return [out, layer._mean, layer._variance]
    assert_same(*both(fn), rtol=1e-12, atol=1e-12)


def test_instance_norm_float64_epsilon_is_a_float32():
    w, b = _rn(4), _rn(4)
    ours, theirs = both(lambda P: output_and_grads(P, [_X4, w, b], lambda P, a, w, b:
                        P.nn.functional.instance_norm(a, weight=w, bias=b, eps=0.01)))
    assert_same(ours, theirs, rtol=1e-10, atol=1e-10)


# -- indexed and adaptive max pools: NaN and -inf are never picked --------------------------------

_NAN_MAP = np.array([[[[1.0, np.nan, np.nan, np.nan, 3.0, -np.inf],
                       [0.0, 2.0, np.nan, np.nan, -np.inf, -np.inf]]]])


@pytest.mark.parametrize("fn", [
    lambda P, x: P.nn.functional.max_pool2d(x, 2, return_mask=True),
    lambda P, x: P.nn.functional.max_pool2d(x, 2, padding=1, return_mask=True),
    lambda P, x: P.nn.functional.max_pool1d(x[:, :, 0], 2, return_mask=True),
    lambda P, x: P.nn.functional.max_pool3d(x.reshape([1, 1, 2, 2, 3]), 2, return_mask=True),
    lambda P, x: P.nn.functional.adaptive_max_pool2d(x, [1, 3], return_mask=True),
    lambda P, x: P.nn.functional.adaptive_max_pool2d(x.astype("float32"), [1, 3]),
    lambda P, x: P.nn.functional.adaptive_max_pool1d(x[:, :, 1], 3, return_mask=True),
    lambda P, x: P.nn.functional.adaptive_max_pool3d(x.reshape([1, 1, 2, 2, 3]), [1, 1, 3]),
])
def test_max_pool_with_mask_skips_nan(fn):
    # a window without a pickable value gives float32's lowest value and index -1 (Paddle's
    # backward then writes out of bounds: forward only)
    assert_same(*both(lambda P: fn(P, P.to_tensor(_NAN_MAP))))


def test_max_pool_with_mask_skips_nan_gradient():
    x = _NAN_MAP.copy()
    x[0, 0, 0, 3], x[0, 0, 1, 5] = 5.0, 7.0     # every window has a value
    ours, theirs = both(lambda P: output_and_grads(P, [x], lambda P, a: P.nn.functional.max_pool2d(
        a, 2, return_mask=True)))
    assert_same(ours, theirs)


# -- label smoothing: Paddle's float32 coefficients, also for float64 labels ----------------------

@pytest.mark.parametrize("eps", [0.1, 0.37])
def test_label_smooth_float64_uses_float32_coefficients(eps):
    onehot = np.eye(4)[RNG.integers(0, 4, (5,))]
    prior = np.array([[0.1, 0.2, 0.3, 0.4]])
    assert_same(*both(lambda P: P.nn.functional.label_smooth(P.to_tensor(onehot), epsilon=eps)),
                rtol=1e-13, atol=1e-13)
    assert_same(*both(lambda P: P.nn.functional.label_smooth(
        P.to_tensor(onehot), prior_dist=P.to_tensor(prior), epsilon=eps)), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("soft", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_cross_entropy_label_smoothing_float64(soft, reduction):
    x = _rn(6, 5)
    if soft:
        label = np.abs(_rn(6, 5))
        label /= label.sum(-1, keepdims=True)
    else:
        label = RNG.integers(0, 5, (6,))
    ours, theirs = both(lambda P: output_and_grads(P, [x], lambda P, a: P.nn.functional.cross_entropy(
        a, P.to_tensor(label), soft_label=soft, label_smoothing=0.1, reduction=reduction)))
    assert_same(ours, theirs, rtol=1e-12, atol=1e-12)
