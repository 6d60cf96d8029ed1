"""Session-8 sweep of paddle.nn.functional across data formats, dtypes and degenerate shapes,
against real Paddle 3.3.1: convolutions, pools, interpolate, the shuffles, grid_sample /
affine_grid, scaled_dot_product_attention and the recurrent layers.

Each test compares values, dtypes, shapes and input/weight gradients, or the exception type
raised for bad input (whose message must name the API, never torch)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, both_same, output_and_grads, paddle_ref, same_exception

RNG = np.random.default_rng(8)


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


def _F(fw):
    return fw.nn.functional


_same = both_same


def _no_leak(exc):
    assert "paddle." in str(exc) and "torch" not in str(exc)


# ---------------------------------------------------------------- convolution

X4 = RNG.standard_normal((2, 4, 7, 8))
W4 = RNG.standard_normal((6, 2, 3, 3))
WT4 = RNG.standard_normal((4, 3, 3, 3))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("padding", [1, "SAME", "VALID", [1, 2, 0, 1]])
def test_conv2d_and_transpose_formats(dtype, data_format, padding):
    x = X4.astype(dtype)
    if data_format == "NHWC":
        x = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    w, wt = W4.astype(dtype), WT4.astype(dtype)
    kw = dict(stride=2, padding=padding, groups=2, data_format=data_format)
    _same(lambda fw: output_and_grads(fw, [x, w], lambda fw, a, b: _F(fw).conv2d(a, b, dilation=1, **kw)),
          1e-4, 1e-4)
    _same(lambda fw: output_and_grads(fw, [x, wt], lambda fw, a, b: _F(fw).conv2d_transpose(a, b, **kw)),
          1e-4, 1e-4)


@pytest.mark.parametrize("n,x_shape,w_shape,stride", [
    (2, (2, 4, 2, 2), (3, 4, 3, 3), 1),     # kernel one larger than the input
    (2, (2, 4, 2, 8), (3, 4, 3, 3), 1),     # only one axis empty
    (2, (2, 4, 2, 2), (3, 4, 4, 4), 2),
    (1, (2, 4, 2), (3, 4, 3), 1),
    (3, (1, 2, 2, 3, 3), (3, 2, 3, 3, 3), 1),
])
def test_conv_whose_output_is_empty_gives_paddles_empty_map(n, x_shape, w_shape, stride):
    def run(fw):
        x = fw.ones(x_shape)
        x.stop_gradient = False
        out = getattr(_F(fw), f"conv{n}d")(x, fw.ones(w_shape), stride=stride)
        return out.shape, out.dtype
    (s1, d1), (s2, d2) = both(run)
    assert list(s1) == list(s2) and str(d1) == str(d2)


def test_conv_whose_output_is_empty_channels_last():
    # real Paddle dies of SIGFPE here; the shape is the channels-first one moved
    out = pagaie.nn.functional.conv2d(pagaie.ones([2, 2, 8, 4]), pagaie.ones([3, 4, 3, 3]),
                                      data_format="NHWC")
    assert list(out.shape) == [2, 0, 6, 3]


def test_conv_mixed_and_integer_dtypes_raise_as_paddle():
    w = W4[:, :1].astype("float64")
    same_exception(lambda fw: _F(fw).conv2d(fw.to_tensor(X4[:, :2].astype("float32")),
                                            fw.to_tensor(w)))
    _no_leak(same_exception(lambda fw: _F(fw).conv2d(fw.ones([1, 2, 4, 4], "int32"),
                                                     fw.ones([3, 2, 3, 3], "int32"))))


def test_conv_batch_zero_and_depthwise():
    x0 = np.zeros((0, 4, 5, 5), "float32")
    w0 = RNG.standard_normal((3, 4, 3, 3)).astype("float32")
    _same(lambda fw: _F(fw).conv2d(fw.to_tensor(x0), fw.to_tensor(w0)))
    wd = RNG.standard_normal((8, 1, 3, 3)).astype("float32")
    x = X4.astype("float32")
    _same(lambda fw: output_and_grads(fw, [x, wd], lambda fw, a, b: _F(fw).conv2d(a, b, groups=4)),
          1e-4, 1e-4)


# ---------------------------------------------------------------- pooling

POOLS = [
    ("max_pool1d", 3, lambda f, x: f.max_pool1d(x, 2)),
    ("max_pool2d", 4, lambda f, x: f.max_pool2d(x, 2)),
    ("max_pool3d", 5, lambda f, x: f.max_pool3d(x, 2)),
    ("avg_pool1d", 3, lambda f, x: f.avg_pool1d(x, 2)),
    ("avg_pool2d", 4, lambda f, x: f.avg_pool2d(x, 2)),
    ("avg_pool3d", 5, lambda f, x: f.avg_pool3d(x, 2)),
    ("lp_pool1d", 3, lambda f, x: f.lp_pool1d(x, 2.0, 2)),
    ("lp_pool2d", 4, lambda f, x: f.lp_pool2d(x, 2.0, 2)),
    ("adaptive_avg_pool2d", 4, lambda f, x: f.adaptive_avg_pool2d(x, 2)),
    ("adaptive_max_pool2d", 4, lambda f, x: f.adaptive_max_pool2d(x, 2)),
    ("fractional_max_pool2d", 4, lambda f, x: f.fractional_max_pool2d(x, 2, random_u=0.3)),
    ("fractional_max_pool3d", 5, lambda f, x: f.fractional_max_pool3d(x, 2, random_u=0.3)),
]


@pytest.mark.parametrize("name,rank,call", POOLS, ids=[p[0] for p in POOLS])
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
def test_pools_refuse_integer_inputs(name, rank, call, dtype):
    shape = [1, 2] + [4] * (rank - 2)
    exc = same_exception(lambda fw: call(_F(fw), fw.ones(shape, dtype)))
    _no_leak(exc)


@pytest.mark.parametrize("name,rank,call", POOLS, ids=[p[0] for p in POOLS])
def test_pools_float64(name, rank, call):
    x = RNG.standard_normal([2, 3] + [5] * (rank - 2))
    _same(lambda fw: output_and_grads(fw, [x], lambda fw, t: call(_F(fw), t)))


@pytest.mark.parametrize("n,rank", [(1, 2), (2, 3), (2, 5), (3, 4), (3, 6)])
def test_adaptive_avg_pool_wrong_rank(n, rank):
    _no_leak(same_exception(
        lambda fw: getattr(_F(fw), f"adaptive_avg_pool{n}d")(fw.ones([1] * rank), 1)))


@pytest.mark.parametrize("rank", [0, 1, 3])
def test_max_unpool2d_wrong_rank(rank):
    _no_leak(same_exception(lambda fw: _F(fw).max_unpool2d(
        fw.ones([1] * rank), fw.zeros([1] * rank, "int64"), 1)))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_max_unpool_int64_input(n):
    x = np.arange(2 * 3 * 16, dtype="float32").reshape({1: (2, 3, 16), 2: (2, 3, 4, 4),
                                                         3: (2, 3, 1, 4, 4)}[n])
    k = [1, 2, 2] if n == 3 else 2

    def run(fw):
        out, mask = getattr(_F(fw), f"max_pool{n}d")(fw.to_tensor(x), k, return_mask=True)
        return getattr(_F(fw), f"max_unpool{n}d")(out.astype("int64"), mask, k)
    _same(run)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool"])
def test_max_unpool_other_integer_inputs(dtype):
    _no_leak(same_exception(lambda fw: _F(fw).max_unpool2d(fw.ones([1, 1, 2, 2], dtype),
                                                           fw.zeros([1, 1, 2, 2], "int64"), 2)))


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
@pytest.mark.parametrize("ceil_mode", [False, True])
def test_pools_channels_last_with_padding(data_format, ceil_mode):
    x = RNG.standard_normal((2, 3, 7, 8))
    if data_format == "NHWC":
        x = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    kw = dict(stride=2, padding=[1, 0, 0, 1], ceil_mode=ceil_mode, data_format=data_format)
    _same(lambda fw: output_and_grads(fw, [x], lambda fw, t: [
        _F(fw).avg_pool2d(t, 3, exclusive=False, **kw), _F(fw).max_pool2d(t, 3, **kw)]))


# ---------------------------------------------------------------- interpolate

@pytest.mark.parametrize("mode,n", [("linear", 1), ("bilinear", 2), ("trilinear", 3),
                                    ("bicubic", 2), ("nearest", 2), ("nearest", 3)])
@pytest.mark.parametrize("align_corners,align_mode", [(False, 0), (False, 1), (True, 0)])
def test_interpolate_channels_last_float64(mode, n, align_corners, align_mode):
    if mode == "nearest" and align_corners:
        pytest.skip("nearest takes no align_corners")
    x = RNG.standard_normal([2] + [4, 5, 3][:n] + [3])
    fmt = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
    _same(lambda fw: output_and_grads(fw, [x], lambda fw, t: _F(fw).interpolate(
        t, scale_factor=[1.5] * n, mode=mode, align_corners=align_corners, align_mode=align_mode,
        data_format=fmt)), 1e-5, 2e-6)  # Paddle's float64 kernels place samples in float32


def test_interpolate_scale_factor_as_0d_tensor():
    x = RNG.standard_normal((2, 3, 4, 5)).astype("float32")
    _same(lambda fw: _F(fw).interpolate(fw.to_tensor(x), scale_factor=fw.to_tensor(1.5),
                                        mode="bilinear"))


@pytest.mark.parametrize("size", [6, 6.0])
def test_interpolate_size_must_be_a_sequence(size):
    _no_leak(same_exception(lambda fw: _F(fw).interpolate(fw.ones([1, 1, 3, 3]), size=size,
                                                          mode="bilinear")))


def test_interpolate_scale_factor_of_a_wrong_type():
    same_exception(lambda fw: _F(fw).interpolate(fw.ones([1, 1, 3, 3]), scale_factor="2"))


@pytest.mark.parametrize("dtype,mode", [("int32", "bilinear"), ("int64", "bilinear"),
                                        ("int32", "bicubic"), ("uint8", "bicubic"),
                                        ("int64", "area"), ("bool", "nearest"),
                                        ("int16", "nearest")])
def test_interpolate_modes_without_integer_kernels(dtype, mode):
    _no_leak(same_exception(lambda fw: _F(fw).interpolate(fw.ones([1, 2, 3, 3], dtype),
                                                          size=[5, 4], mode=mode)))


@pytest.mark.parametrize("dtype", ["uint8", "int32", "int64"])
def test_interpolate_nearest_keeps_integer_dtypes(dtype):
    x = (RNG.random((2, 3, 4, 5)) * 100).astype(dtype)
    _same(lambda fw: _F(fw).interpolate(fw.to_tensor(x), size=[7, 3], mode="nearest"))


@pytest.mark.parametrize("mode,shape", [("bilinear", (2, 3, 4, 5)), ("trilinear", (1, 2, 3, 4, 5))])
def test_interpolate_uint8_linear_modes(mode, shape):
    x = (RNG.random(shape) * 255).astype("uint8")
    size = [5, 7, 6][:len(shape) - 2]
    ours, theirs = both(lambda fw: _F(fw).interpolate(fw.to_tensor(x), size=size, mode=mode))
    assert str(ours.dtype) == str(theirs.dtype) == "paddle.uint8"
    # computed in float and truncated, as Paddle; its float rounding can differ by one unit
    diff = np.abs(ours.numpy().astype(int) - theirs.numpy().astype(int))
    assert diff.max() <= 1 and (diff == 0).mean() > 0.95


# ---------------------------------------------------------------- shuffles, grids

@pytest.mark.parametrize("api,arg,shape", [("pixel_shuffle", 2, [1, 4, 2, 2]),
                                           ("pixel_unshuffle", 2, [1, 1, 4, 4]),
                                           ("channel_shuffle", 2, [1, 4, 2, 2])])
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool", "uint8"])
def test_shuffles_refuse_non_float_inputs(api, arg, shape, dtype):
    _no_leak(same_exception(lambda fw: getattr(_F(fw), api)(fw.ones(shape, dtype), arg)))


@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_shuffles_float64_channels_last(data_format):
    x = RNG.standard_normal((2, 8, 4, 6))
    if data_format == "NHWC":
        x = np.ascontiguousarray(np.moveaxis(x, 1, -1))
    _same(lambda fw: output_and_grads(fw, [x], lambda fw, t: [
        _F(fw).pixel_shuffle(t, 2, data_format), _F(fw).pixel_unshuffle(t, 2, data_format),
        _F(fw).channel_shuffle(t, 4, data_format)]))


def test_affine_grid_integer_theta_and_empty_batch():
    _no_leak(same_exception(lambda fw: _F(fw).affine_grid(fw.ones([2, 2, 3], "int32"),
                                                          [2, 3, 4, 5])))
    _same(lambda fw: _F(fw).affine_grid(fw.ones([0, 2, 3]), [0, 3, 4, 5]))
    _same(lambda fw: _F(fw).affine_grid(fw.ones([0, 3, 4], "float64"), [0, 3, 4, 5, 6]))


def test_grid_sample_dtypes():
    x = RNG.standard_normal((2, 3, 4, 5))
    g = np.zeros((2, 3, 3, 2))
    _no_leak(same_exception(lambda fw: _F(fw).grid_sample(
        fw.to_tensor(x.astype("float32")), fw.to_tensor(g))))            # mixed float dtypes
    _no_leak(same_exception(lambda fw: _F(fw).grid_sample(
        fw.to_tensor(x.astype("int32")), fw.to_tensor(g.astype("float32")))))


@pytest.mark.parametrize("grid_shape", [(1, 3, 3, 2), (2, 3, 3, 3), (2, 3, 3)])
def test_grid_sample_grid_shape_is_checked(grid_shape):
    _no_leak(same_exception(lambda fw: _F(fw).grid_sample(fw.ones([2, 3, 4, 5]),
                                                          fw.zeros(grid_shape))))


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [True, False])
def test_grid_sample_float64(mode, padding_mode, align_corners):
    x = RNG.standard_normal((2, 3, 5, 6))
    grid = RNG.random((2, 4, 7, 2)) * 2.4 - 1.2
    _same(lambda fw: output_and_grads(fw, [x, grid], lambda fw, a, g: _F(fw).grid_sample(
        a, g, mode, padding_mode, align_corners)), 1e-6, 1e-8)


# ---------------------------------------------------------------- attention

Q = RNG.standard_normal((2, 5, 4, 8)).astype("float32")
K = RNG.standard_normal((2, 6, 4, 8)).astype("float32")


@pytest.mark.parametrize("mask", ["bool_full", "bool_2d", "bool_b11k", "float_2d", "float_b1s1"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sdpa_mask_kinds_and_broadcasts(mask, dtype):
    shapes = {"bool_full": (2, 4, 5, 6), "bool_2d": (5, 6), "bool_b11k": (2, 1, 1, 6),
              "float_2d": (5, 6), "float_b1s1": (2, 1, 5, 1)}
    m = RNG.random(shapes[mask]) > 0.3 if mask.startswith("bool") else \
        RNG.standard_normal(shapes[mask]).astype(dtype)
    m[..., 0] = True if m.dtype == bool else m[..., 0]
    q, k = Q.astype(dtype), K.astype(dtype)
    _same(lambda fw: output_and_grads(fw, [q, k, k], lambda fw, a, b, c: _F(fw).scaled_dot_product_attention(
        a, b, c, fw.to_tensor(m), training=False)), 1e-4, 1e-5)


def test_sdpa_float_mask_of_another_dtype():
    _no_leak(same_exception(lambda fw: _F(fw).scaled_dot_product_attention(
        fw.to_tensor(Q), fw.to_tensor(K), fw.to_tensor(K), fw.ones([5, 6], "float64"))))


# ---------------------------------------------------------------- recurrent layers

@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("time_major", [False, True])
def test_rnn_bidirectional_sequence_length(cls, time_major):
    ref = paddle_ref()
    ref.seed(3)
    weights = {k: v.numpy() for k, v in
               getattr(ref.nn, cls)(4, 5, num_layers=2, direction="bidirect").state_dict().items()}
    x = RNG.standard_normal((6, 3, 4) if time_major else (3, 6, 4)).astype("float32")
    lengths = np.array([6, 2, 4], "int64")

    def run(fw):
        m = getattr(fw.nn, cls)(4, 5, num_layers=2, direction="bidirect", time_major=time_major)
        m.set_state_dict({k: fw.to_tensor(v) for k, v in weights.items()})
        xt = fw.to_tensor(x)
        xt.stop_gradient = False
        out, states = m(xt, sequence_length=fw.to_tensor(lengths))
        flat = list(states) if isinstance(states, (list, tuple)) else [states]
        loss = (out * out).sum() + sum((s * s).sum() for s in flat)
        return [out, flat, list(fw.grad(loss, [xt] + list(m.parameters())))]
    _same(run, 1e-4, 1e-5)


# ---- linear / embedding_renorm_ argument errors (pagaie/_ops/nn_common.py) -------------------

@pytest.mark.parametrize("make", [
    lambda P: P.nn.functional.linear(P.ones([1, 256]), P.ones([9216, 4])),
    lambda P: P.nn.functional.linear(P.ones([256]), P.ones([9216, 4])),
    lambda P: P.nn.functional.linear(P.ones([2, 256]), P.ones([256, 4]), P.ones([3])),
    lambda P: P.nn.functional.embedding_renorm_(P.to_tensor([1.0]), P.randn([5, 3]), 0.5),
    lambda P: P.nn.functional.embedding_renorm_(P.to_tensor([1, 9]), P.randn([5, 3]), 0.5),
    lambda P: P.nn.functional.embedding_renorm_(P.to_tensor([-6]), P.randn([5, 3]), 0.5),
], ids=["linear_k", "linear_1d", "linear_bias", "renorm_float_ids", "renorm_high", "renorm_low"])
def test_linear_and_embedding_renorm_errors(make):
    same_exception(make)


def test_embedding_renorm_negative_ids_wrap():
    def run(P):
        w = P.to_tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
        P.nn.functional.embedding_renorm_(P.to_tensor([-1]), w, 1.0)
        return w
    ours, theirs = both(run)
    assert_same(ours, theirs)
