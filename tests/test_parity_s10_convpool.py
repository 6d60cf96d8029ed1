"""Session-10 sweep of paddle.nn.functional's convolutions, pools, interpolate and pad against
real Paddle 3.3.1: argument validation of the convolutions (padding / stride / dilation /
groups forms), biases that broadcast or promote, single-output bilinear / bicubic resizing,
area-mode sizes, adaptive pools to empty sizes and their output_size forms, unpooling and
fractional pooling limits.

Each test compares values, dtypes, shapes and gradients, or the exception type raised for bad
input (whose message must name the API, never torch)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, output_and_grads, paddle_ref, same_exception

RNG = np.random.default_rng(10)
X4 = RNG.standard_normal((2, 4, 5, 6)).astype("float32")
W4 = RNG.standard_normal((6, 4, 3, 3)).astype("float32")
WT4 = RNG.standard_normal((4, 2, 3, 3)).astype("float32")


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


def _F(fw):
    return fw.nn.functional


def _same(fn, rtol=1e-5, atol=1e-5):
    ours, theirs = both(fn)
    assert_same(ours, theirs, rtol=rtol, atol=atol)


def _refused(fn):
    exc = same_exception(fn)
    assert "paddle." in str(exc), str(exc)


def _type_errors(fn):
    """Both raise a TypeError (Paddle's NotSupportedTensorArgumentError is one, and pagaie's is
    its own class of that name)."""
    import pagaie
    ref = paddle_ref()
    for fw in (ref, pagaie):
        with pytest.raises(TypeError) as info:
            fn(fw)
        assert "torch" not in str(info.value)


def _conv_call(api, n, **kw):
    """``api`` ('conv' or 'conv_t') of rank ``n`` on fixed inputs, with ``kw``."""
    x = X4[:, :, None] if n == 3 else (X4[..., 0] if n == 1 else X4)
    w = W4 if api == "conv" else WT4
    w = w[:, :, None] if n == 3 else (w[..., 0] if n == 1 else w)
    name = f"conv{n}d" if api == "conv" else f"conv{n}d_transpose"
    return lambda fw: getattr(_F(fw), name)(fw.to_tensor(x), fw.to_tensor(w), **kw)


# ---------------------------------------------------------------- convolution arguments

@pytest.mark.parametrize("api", ["conv", "conv_t"])
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("padding", [[1], [1.0, 1], 1.5, None, [1, 2, 1, -1][:4],
                                     [[0, 0], [0, 0], [1, -1], [0, 0], [0, 0]]])
def test_conv_padding_forms_paddle_refuses(api, n, padding):
    if isinstance(padding, list) and len(padding) == 4 and n == 3:
        padding = padding + [0, 0]
    if isinstance(padding, list) and len(padding) == 5 and n == 2:
        padding = padding[:4]
    _refused(_conv_call(api, n, padding=padding))


@pytest.mark.parametrize("api", ["conv", "conv_t"])
def test_conv_padding_as_tensor_or_bool_is_a_type_error(api):
    _type_errors(lambda fw: _conv_call(api, 2, padding=fw.to_tensor([1, 1]))(fw))
    _refused(_conv_call(api, 2, padding=True))


@pytest.mark.parametrize("api", ["conv", "conv_t"])
@pytest.mark.parametrize("kw", [dict(stride=[2]), dict(dilation=[2]), dict(stride=2.0),
                                dict(stride=None), dict(dilation=None), dict(stride=[2.0, 1]),
                                dict(groups=2.0)])
def test_conv_stride_dilation_groups_forms_paddle_refuses(api, kw):
    _refused(_conv_call(api, 2, **kw))


@pytest.mark.parametrize("api", ["conv", "conv_t"])
def test_conv_stride_as_tensor_is_a_type_error(api):
    _type_errors(lambda fw: _conv_call(api, 2, stride=fw.to_tensor([2, 2]))(fw))
    _type_errors(lambda fw: _conv_call(api, 1, stride=fw.to_tensor([2]))(fw))


@pytest.mark.parametrize("api", ["conv", "conv_t"])
def test_conv1d_keeps_a_one_element_padding_list(api):
    _same(_conv_call(api, 1, padding=[1], stride=2), 1e-4, 1e-4)


@pytest.mark.parametrize("api", ["conv", "conv_t"])
@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("bias", [np.float32(0.5), np.array([0.25], "float32"),
                                  np.arange(6, dtype="float64")])
def test_conv_bias_broadcasts_and_promotes(api, n, bias):
    if api == "conv_t" and bias.size == 6:
        bias = bias[:2]
    x = X4[:, :, None] if n == 3 else (X4[..., 0] if n == 1 else X4)
    w = W4 if api == "conv" else WT4
    w = w[:, :, None] if n == 3 else (w[..., 0] if n == 1 else w)
    name = f"conv{n}d" if api == "conv" else f"conv{n}d_transpose"
    _same(lambda fw: output_and_grads(fw, [x, w, bias], lambda fw, a, b, c: getattr(_F(fw), name)(
        a, b, c, stride=2)), 1e-4, 1e-4)


def test_conv_bias_channels_last_and_depthwise():
    xl = X4.transpose(0, 2, 3, 1).copy()
    wd = RNG.standard_normal((8, 1, 3, 3)).astype("float32")
    b = np.array([1.5], "float32")
    _same(lambda fw: _F(fw).conv2d(fw.to_tensor(xl), fw.to_tensor(W4), fw.to_tensor(b),
                                   padding=1, data_format="NHWC"), 1e-4, 1e-4)
    _same(lambda fw: _F(fw).conv2d(fw.to_tensor(X4), fw.to_tensor(wd), fw.to_tensor(b), groups=4),
          1e-4, 1e-4)


def test_conv_bias_of_a_wrong_length_is_refused():
    _refused(lambda fw: _F(fw).conv2d(fw.to_tensor(X4), fw.to_tensor(W4),
                                      fw.to_tensor(np.ones(4, "float32"))))


# ---------------------------------------------------------------- pools

@pytest.mark.parametrize("name", ["max_pool2d", "avg_pool2d", "max_pool3d", "avg_pool3d",
                                  "lp_pool2d"])
def test_nd_pools_refuse_a_one_element_padding_list(name):
    x = X4[:, :, None] if name.endswith("3d") else X4
    args = (2.0, 2) if name.startswith("lp") else (2,)
    _refused(lambda fw: getattr(_F(fw), name)(fw.to_tensor(x), *args, padding=[1]))


def test_1d_pools_keep_a_one_element_padding_list():
    x = X4[..., 0]
    _same(lambda fw: [_F(fw).max_pool1d(fw.to_tensor(x), 2, padding=[1]),
                      _F(fw).avg_pool1d(fw.to_tensor(x), 2, padding=[1], exclusive=False)])


@pytest.mark.parametrize("kind", ["avg", "max"])
@pytest.mark.parametrize("n,size", [(1, 0), (2, [0, 2]), (3, 0)])
def test_adaptive_pool_to_an_empty_size_has_zero_gradients(kind, n, size):
    x = X4[:, :, None] if n == 3 else (X4[..., 0] if n == 1 else X4)
    name = f"adaptive_{kind}_pool{n}d"
    _same(lambda fw: output_and_grads(fw, [x], lambda fw, a: getattr(_F(fw), name)(a, size)))


@pytest.mark.parametrize("kind", ["avg", "max"])
@pytest.mark.parametrize("size", [None, 2.5, [None]])
def test_adaptive_pool1d_takes_ints_only(kind, size):
    _refused(lambda fw: getattr(_F(fw), f"adaptive_{kind}_pool1d")(fw.to_tensor(X4[..., 0]), size))


@pytest.mark.parametrize("kind", ["avg", "max"])
def test_adaptive_pool1d_refuses_a_tensor_size(kind):
    _type_errors(lambda fw: getattr(_F(fw), f"adaptive_{kind}_pool1d")(fw.to_tensor(X4[..., 0]),
                                                                     fw.to_tensor([2])))


@pytest.mark.parametrize("n", [2, 3])
def test_adaptive_pool_nd_refuses_a_float_size(n):
    x = X4[:, :, None] if n == 3 else X4
    _refused(lambda fw: getattr(_F(fw), f"adaptive_avg_pool{n}d")(fw.to_tensor(x), 2.5))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_max_unpool_refuses_a_tensor_output_size(n):
    x = X4[:, :, None] if n == 3 else (X4[..., 0] if n == 1 else X4)

    def call(fw):
        out, mask = getattr(_F(fw), f"max_pool{n}d")(fw.to_tensor(x), 2, return_mask=True)
        size = [2 * v for v in out.shape[2:]]
        return getattr(_F(fw), f"max_unpool{n}d")(out, mask, 2, output_size=fw.to_tensor(size))
    _refused(call)


@pytest.mark.parametrize("n", [2, 3])
def test_fractional_pool_output_larger_than_input_is_refused(n):
    x = X4[:, :, None] if n == 3 else X4
    _refused(lambda fw: getattr(_F(fw), f"fractional_max_pool{n}d")(fw.to_tensor(x), 9,
                                                                      random_u=0.5))


# ---------------------------------------------------------------- interpolate

@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("size", [[1, 1], [1, 7], [3, 1]])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_interpolate_to_a_single_output_reads_paddles_source(mode, size, data_format):
    x = X4 if data_format == "NCHW" else X4.transpose(0, 2, 3, 1).copy()
    _same(lambda fw: output_and_grads(fw, [x], lambda fw, a: _F(fw).interpolate(
        a, size=size, mode=mode, data_format=data_format)), 1e-4, 1e-4)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
def test_interpolate_single_output_from_a_scale_factor(mode):
    _same(lambda fw: output_and_grads(fw, [X4.astype("float64")], lambda fw, a: _F(fw).interpolate(
        a, scale_factor=[0.2, 1.5], mode=mode)), 1e-5, 1e-6)


def test_interpolate_recompute_scale_factor_with_size_is_refused():
    _refused(lambda fw: _F(fw).interpolate(fw.to_tensor(X4), size=[3, 3],
                                           recompute_scale_factor=True))


@pytest.mark.parametrize("size", [3, [None, 4], (2, None)])
def test_interpolate_area_takes_adaptive_pool_sizes(size):
    _same(lambda fw: output_and_grads(fw, [X4], lambda fw, a: _F(fw).interpolate(
        a, size=size, mode="area")))


# ---------------------------------------------------------------- pad

def test_pad_refuses_a_scalar_pad():
    _refused(lambda fw: _F(fw).pad(fw.to_tensor(X4), 1))
