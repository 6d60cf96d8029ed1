"""Differential checks of paddle.nn and paddle.nn.functional against real Paddle 3.3.1, from
cases of Paddle's own unit tests (pooling, layers, initializers, nn.utils)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, both_static, same_exception, same_static_exception

_RNG = np.random.RandomState(0)
_X5 = _RNG.rand(2, 3, 7, 7, 7)


# ---- pooling ------------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda F, x: F.avg_pool3d(x, 3),
    lambda F, x: F.avg_pool3d(x, 3, padding=1, exclusive=False),
    lambda F, x: F.avg_pool3d(x, 2, ceil_mode=True),
    lambda F, x: F.avg_pool3d(x, 3, divisor_override=5, data_format="NDHWC"),
    lambda F, x: F.adaptive_avg_pool3d(x, 4),
])
def test_float16_3d_average_pools_sum_in_float32(call):
    both_same(lambda P: call(P.nn.functional, P.to_tensor(_X5).astype("float16")), rtol=0, atol=0)


# ---- distances ----------------------------------------------------------------------------------
@pytest.mark.parametrize("p", [-1.0, -0.5, float("-inf")])
def test_pdist_takes_a_negative_order(p):
    x = _RNG.rand(4, 3)
    both_same(lambda P: P.nn.functional.pdist(P.to_tensor(x), p))


# ---- convolutions in a program ------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    # 3 filters in 2 groups
    lambda P, x: P.nn.functional.conv2d(x, P.ones([3, 2, 3, 3]), groups=2),
    lambda P, x: P.nn.functional.conv3d(P.unsqueeze(x, 2), P.ones([3, 2, 1, 3, 3]), groups=2),
    lambda P, x: P.nn.functional.conv1d(x[:, :, 0], P.ones([4, 4, 3]), dilation=0),
    lambda P, x: P.nn.functional.conv2d(x, P.ones([4, 4, 3, 3]), dilation=[1, 0]),
    # 4 input channels in 3 groups, and zero groups
    lambda P, x: P.nn.functional.conv2d_transpose(x, P.ones([4, 1, 3, 3]), groups=3),
    lambda P, x: P.nn.functional.conv1d_transpose(x[:, :, 0], P.ones([4, 1, 3]), groups=0),
])
def test_static_convolutions_check_groups_and_dilation(call):
    same_static_exception(lambda P: call(P, P.static.data("x", [-1, 4, 6, 6], "float32")))


# ---- softmax axes -------------------------------------------------------------------------------
@pytest.mark.parametrize("api", ["softmax", "softmax_", "gumbel_softmax"])
@pytest.mark.parametrize("shape,axis", [([-1, 3], 2), ([-1, 3], -3), ([], 1)])
def test_static_softmax_checks_the_axis(api, shape, axis):
    same_static_exception(
        lambda P: getattr(P.nn.functional, api)(P.static.data("x", shape, "float32"), axis=axis))


# ---- layer construction -------------------------------------------------------------------------
@pytest.mark.parametrize("layer,shape,fmt", [
    ("Conv2D", [1, 3, 5, 5], "NCL"), ("Conv2D", [1, 3, 5, 5], "NCDHW"),
    ("Conv3D", [1, 3, 4, 4, 4], "NCHW"), ("Conv1D", [1, 3, 5], "NCHW"),
    ("Conv2DTranspose", [1, 3, 5, 5], "NCL"), ("Conv2D", [1, 3, 5, 5], None),
])
def test_convolution_layers_take_the_format_of_any_rank(layer, shape, fmt):
    def run(P):
        P.seed(1)
        m = getattr(P.nn, layer)(3, 4, 3, data_format=fmt)
        try:
            return [repr(m), m(P.ones(shape))]
        except ValueError:
            return [repr(m), "ValueError"]
    try:
        both_same(run)
    except ValueError:   # refused when made, by both
        same_exception(lambda P: getattr(P.nn, layer)(3, 4, 3, data_format=fmt))


@pytest.mark.parametrize("margin", [2, -1.5, "1", None])
def test_cosine_embedding_loss_layer_checks_the_margin(margin):
    same_exception(lambda P: P.nn.CosineEmbeddingLoss(margin=margin))


@pytest.mark.parametrize("call", [
    lambda P: P.nn.Conv2D(3, 4, [3.0, 3.0]), lambda P: P.nn.Conv1D(3, 4, [3.0]),
    lambda P: P.nn.Conv3D(3, 4, [True, 3, 3]), lambda P: P.nn.Conv2DTranspose(3, 4, [3, 3.0]),
    lambda P: P.nn.Conv2D(3, 4, 3, padding=1.0), lambda P: P.nn.Conv3D(3, 4, 3, padding=None),
    lambda P: P.nn.Conv2DTranspose(3, 4, 3, padding=1.0),
])
def test_convolution_layers_check_kernel_size_and_padding_types(call):
    same_exception(call)


# ---- interpolate --------------------------------------------------------------------------------
@pytest.mark.parametrize("scale_factor", [(2, "a"), ["2", "2"]])
def test_interpolate_refuses_a_string_scale_factor_entry(scale_factor):
    same_exception(lambda P: P.nn.functional.interpolate(P.ones([1, 1, 2, 2]),
                                                         scale_factor=scale_factor))


# ---- static shapes ------------------------------------------------------------------------------
@pytest.mark.parametrize("xshape,shape", [
    ([-1, 3, 8], [0, 0, 2, 4]), ([-1, 3, 8], [0, -1, 4]), ([2, -1, 8], [0, 0, -1]),
    ([2, -1, 8], [0, -1]), ([-1, 3, 8], [6, -1]),
])
def test_static_reshape_sizes_follow_paddles_rule(xshape, shape):
    ours, theirs = both_static(
        lambda P: list(P.reshape(P.static.data("x", xshape, "float32"), shape).shape),
        fresh_programs=True)
    assert ours == theirs


def test_static_multi_head_attention_keeps_the_sequence_length():
    ours, theirs = both_static(
        lambda P: list(P.nn.MultiHeadAttention(8, 2)(
            P.static.data("x", [-1, 3, 8], "float32")).shape),
        fresh_programs=True)
    assert ours == theirs == [-1, 3, 8]
