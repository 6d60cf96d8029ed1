"""Session-19 sweep of nn.functional common/norm/conv/dropout ops and the RNN layers against real
Paddle 3.3.1 on the CPU: the dtypes Paddle's CPU kernels refuse (RuntimeError eagerly, TypeError
while a static program is built), dropout's p=0 and axis paths in a program, layer_norm and
local_response_norm with unknown (-1) sizes in a program."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_static, same_exception, same_static_exception

pytest.importorskip("paddle")


def _x(P, shape, dt):
    a = np.linspace(-2.0, 2.0, int(np.prod(shape))).reshape(shape)
    return P.to_tensor(a.astype("float32")).astype(dt)


def _F(P):
    return P.nn.functional


def _desc(v):
    """A program Value's dtype and shape, read while its program lives."""
    return str(v.dtype).replace("paddle.", ""), list(v.shape)


# name -> (call(P, x), shape of x)
_OPS = {
    "linear": (lambda P, x: _F(P).linear(x, P.ones([4, 3]).astype(x.dtype)), [2, 4]),
    "normalize": (lambda P, x: _F(P).normalize(x), [2, 4]),
    "cosine_similarity": (lambda P, x: _F(P).cosine_similarity(x, x), [2, 4]),
    "layer_norm": (lambda P, x: _F(P).layer_norm(x, [4]), [2, 4]),
    "batch_norm": (lambda P, x: _F(P).batch_norm(x, P.zeros([3]), P.ones([3]), training=True),
                   [2, 3, 4]),
    "instance_norm": (lambda P, x: _F(P).instance_norm(x), [2, 3, 4]),
    "group_norm": (lambda P, x: _F(P).group_norm(x, 1), [2, 3, 4]),
    "local_response_norm": (lambda P, x: _F(P).local_response_norm(x, 3), [2, 3, 4]),
    "conv2d": (lambda P, x: _F(P).conv2d(x, P.ones([2, 3, 2, 2]).astype(x.dtype)), [2, 3, 4, 4]),
    "conv3d": (lambda P, x: _F(P).conv3d(x, P.ones([2, 3, 2, 2, 2]).astype(x.dtype)),
               [1, 3, 3, 3, 3]),
    "conv1d_transpose": (lambda P, x: _F(P).conv1d_transpose(x, P.ones([3, 2, 2]).astype(x.dtype)),
                         [2, 3, 4]),
    "conv3d_transpose": (lambda P, x: _F(P).conv3d_transpose(
        x, P.ones([3, 2, 2, 2, 2]).astype(x.dtype)), [1, 3, 3, 3, 3]),
    "embedding_weight": (lambda P, x: _F(P).embedding(P.to_tensor([[0, 1]]), x), [3, 4]),
    "bilinear": (lambda P, x: _F(P).bilinear(x, x, P.ones([5, 4, 4]).astype(x.dtype)), [2, 4]),
    "label_smooth": (lambda P, x: _F(P).label_smooth(x), [2, 4]),
    "dropout_axis": (lambda P, x: _F(P).dropout(x, 0.5, axis=1), [2, 4]),
    "dropout2d": (lambda P, x: _F(P).dropout2d(x, 0.5), [2, 3, 4, 4]),
    "alpha_dropout": (lambda P, x: _F(P).alpha_dropout(x, 0.5), [2, 4]),
    "feature_alpha_dropout": (lambda P, x: _F(P).feature_alpha_dropout(x, 0.5), [2, 4]),
}

# dtypes Paddle's CPU kernels take eagerly, and its static API (where it differs)
_F32_64 = {"float32", "float64"}
_EAGER = {
    "linear": {"int32", "int64", "float32", "float64", "complex64", "complex128"},
    "embedding_weight": {"int8", "float16", "bfloat16", "float32", "float64", "complex64",
                         "complex128"},
    "dropout_axis": {"bool", "int32", "int64", "bfloat16", "float32", "float64", "complex64",
                     "complex128"},
    "dropout2d": {"bool", "int32", "int64", "bfloat16", "float32", "float64", "complex64",
                  "complex128"},
    "alpha_dropout": {"int32", "int64", "float32", "float64", "complex64", "complex128"},
    "feature_alpha_dropout": {"int32", "int64", "float32", "float64", "complex64", "complex128"},
}
_STATIC = {
    "linear": {"uint8", "int32", "int64", "bfloat16", "float32", "float64", "complex64",
               "complex128"},   # (int8 too, giving int32: not checked here)
    "cosine_similarity": {"bfloat16", "float32", "float64"},
    "layer_norm": {"bfloat16", "float32", "float64"},
    "local_response_norm": {"float32"},
    "conv2d": {"bfloat16", "float32", "float64"},
    "conv1d_transpose": {"bfloat16", "float32", "float64"},
    "embedding_weight": _EAGER["embedding_weight"],
    "dropout_axis": {"bfloat16", "float32", "float64"},
    "dropout2d": {"bfloat16", "float32", "float64"},
    "alpha_dropout": {"bfloat16", "float32", "float64"},
    "feature_alpha_dropout": {"bfloat16", "float32", "float64"},
}
_DTYPES = ["bool", "int16", "int32", "float16", "bfloat16", "float64",
           "complex64"]


@pytest.mark.parametrize("dt", _DTYPES)
@pytest.mark.parametrize("name", list(_OPS))
def test_cpu_kernel_dtypes_eager(name, dt):
    fn, shape = _OPS[name]
    call = lambda P: fn(P, _x(P, shape, dt))   # noqa: E731
    if dt in _EAGER.get(name, _F32_64):
        ours, theirs = both(lambda P: _desc(call(P)))
        assert ours == theirs
    else:
        same_exception(call)


@pytest.mark.parametrize("dt", ["bool", "int32", "float16", "bfloat16", "float64", "complex64"])
@pytest.mark.parametrize("name", list(_OPS))
def test_cpu_kernel_dtypes_static(name, dt):
    fn, shape = _OPS[name]
    call = lambda P: fn(P, P.static.data("x", shape, dt))   # noqa: E731
    if dt in _STATIC.get(name, _EAGER.get(name, _F32_64)):
        ours, theirs = both_static(lambda P: _desc(call(P)), fresh_programs=True)
        assert ours == theirs
    else:
        same_static_exception(call)


@pytest.mark.parametrize("dt", ["bool", "int8", "int64", "complex64"])
def test_dropout_p0_takes_any_dtype_in_a_program(dt):
    ours, theirs = both_static(lambda P: _desc(_F(P).dropout(P.static.data("x", [2, 3], dt), 0.0)),
                               fresh_programs=True)
    assert ours == theirs
    # p > 0: Paddle's static API takes floating x only
    same_static_exception(lambda P: _F(P).dropout(P.static.data("x", [2, 3], dt), 0.5))


@pytest.mark.parametrize("dt", ["int8", "float16"])
def test_dropout_eval_and_p1_paths_take_what_paddle_takes(dt):
    x = lambda P: _x(P, [2, 3], dt)   # noqa: E731
    for f in (lambda P: _F(P).dropout(x(P), 0.5, axis=1, training=False),
              lambda P: _F(P).dropout(x(P), 0.5, axis=1, training=False, mode="downscale_in_infer"),
              lambda P: _F(P).dropout(x(P), 1.0, axis=1),
              lambda P: _F(P).alpha_dropout(x(P), 1.0),
              lambda P: _F(P).alpha_dropout(x(P), 0.5, training=False)):
        assert_same(*both(f))
    same_exception(lambda P: _F(P).alpha_dropout(x(P), 0.0))


@pytest.mark.parametrize("shape,ns", [([2, -1, 4], [3, 4]), ([2, 3, -1], [4]), ([-1, -1], [4]),
                                      ([2, 3, -1], [3, 4])])
def test_layer_norm_unknown_sizes_in_a_program(shape, ns):
    ours, theirs = both_static(
        lambda P: _desc(_F(P).layer_norm(P.static.data("x", shape, "float32"), ns)), fresh_programs=True)
    assert ours == theirs == ("float32", shape)
    same_static_exception(lambda P: _F(P).layer_norm(P.static.data("x", [2, 3, 5], "float32"), [4]))


def test_layer_norm_unknown_size_program_runs():
    a = np.random.default_rng(0).standard_normal((2, 3, 4)).astype("float32")
    res = []
    for P in both(lambda P: P):
        P.enable_static()
        try:
            main = P.static.Program()
            with P.static.program_guard(main, P.static.Program()):
                x = P.static.data("x", [2, 3, -1], "float32")
                y = _F(P).layer_norm(x, [3, 4], P.full([12], 2.0), P.full([12], 1.0))
                assert list(y.shape) == [2, 3, -1]
                res.append(P.static.Executor(P.CPUPlace()).run(main, feed={"x": a}, fetch_list=[y])[0])
        finally:
            P.disable_static()
    np.testing.assert_allclose(res[0], res[1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape,fmt", [([2, -1, 4, 4], "NCHW"), ([2, 3, -1, -1], "NCHW"),
                                       ([2, 4, 4, -1], "NHWC"), ([-1, 3, -1], "NCL")])
def test_local_response_norm_unknown_sizes_in_a_program(shape, fmt):
    same_static_exception(lambda P: _F(P).local_response_norm(
        P.static.data("x", shape, "float32"), 3, data_format=fmt))
    ours, theirs = both_static(lambda P: _desc(_F(P).local_response_norm(
        P.static.data("x", [-1, 3, 4, 4], "float32"), 3)), fresh_programs=True)
    assert ours == theirs == ("float32", [-1, 3, 4, 4])


def _rnn(P, cls, dt):
    P.set_default_dtype(dt)
    try:
        m = getattr(P.nn, cls)(4, 3)
    finally:
        P.set_default_dtype("float32")
    return m(_x(P, [2, 5, 4] if "Cell" not in cls else [2, 4], dt))


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU", "SimpleRNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_rnn_low_precision_on_cpu_is_runtime_error(cls, dt):
    same_exception(lambda P: _rnn(P, cls, dt))


def test_rnn_float16_input_with_float32_weights():
    same_exception(lambda P: P.nn.LSTM(4, 3)(_x(P, [2, 5, 4], "float16")))
    same_exception(lambda P: P.nn.GRUCell(4, 3)(_x(P, [2, 4], "float16")))
    ours, theirs = both(lambda P: _desc(_rnn(P, "GRU", "float64")[0]))
    assert ours == theirs == ("float64", [2, 5, 3])


@pytest.mark.parametrize("kw", [{"p": 0.5, "training": False}, {"p": 1.0}])
def test_feature_alpha_dropout_1d_without_a_mask(kw):
    # Paddle wants 2 dimensions only when it draws a mask
    ours, theirs = both(lambda P: _desc(_F(P).feature_alpha_dropout(_x(P, [3], "float32"), **kw)))
    assert ours == theirs
    same_exception(lambda P: _F(P).feature_alpha_dropout(_x(P, [3], "float32"), 0.5))
    same_exception(lambda P: _F(P).feature_alpha_dropout(_x(P, [3], "float32"), 1.5))


@pytest.mark.parametrize("name,dt", [("pairwise_distance", "float16"), ("temporal_shift", "bfloat16"),
                                     ("affine_grid", "float16"), ("grid_sample", "float16"),
                                     ("embedding_max_norm", "float16"), ("sdpa", "float16"),
                                     ("sdpa", "bool")])
def test_more_cpu_kernel_dtypes(name, dt):
    F = _F
    ops = {
        "pairwise_distance": (lambda P, x: F(P).pairwise_distance(x, x), [2, 4]),
        "temporal_shift": (lambda P, x: F(P).temporal_shift(x, 2), [4, 4, 2, 2]),
        "affine_grid": (lambda P, x: F(P).affine_grid(x, [1, 1, 3, 3]), [1, 2, 3]),
        "grid_sample": (lambda P, x: F(P).grid_sample(x, P.zeros([1, 2, 2, 2]).astype(x.dtype)),
                        [1, 1, 3, 3]),
        "embedding_max_norm": (lambda P, x: F(P).embedding(P.to_tensor([[0, 1]]), x, max_norm=1.0),
                               [3, 4]),
        "sdpa": (lambda P, x: F(P).scaled_dot_product_attention(x, x, x), [1, 3, 2, 4]),
    }
    fn, shape = ops[name]
    same_exception(lambda P: fn(P, _x(P, shape, dt)))
    if name != "embedding_max_norm":   # (Paddle's static max_norm fails on any dtype)
        same_static_exception(lambda P: fn(P, P.static.data("x", shape, dt)))
    ours, theirs = both(lambda P: _desc(fn(P, _x(P, shape, "float64"))))
    assert ours == theirs


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_spectral_norm_layer_low_precision_on_cpu(dt):
    def f(P):
        P.set_default_dtype(dt)
        try:
            m = P.nn.SpectralNorm([3, 4])
        finally:
            P.set_default_dtype("float32")
        return m(_x(P, [3, 4], dt))
    same_exception(f)   # (no torch wording: the message is checked too)


_MIXED = {
    "conv2d": lambda P, a, b: _F(P).conv2d(a([1, 3, 4, 4]), b([2, 3, 2, 2])),
    "conv1d_transpose": lambda P, a, b: _F(P).conv1d_transpose(a([1, 3, 4]), b([3, 2, 2])),
    "layer_norm": lambda P, a, b: _F(P).layer_norm(a([2, 4]), 4, b([4])),
    "batch_norm_eval": lambda P, a, b: _F(P).batch_norm(a([2, 3]), b([3]), b([3]).abs()),
    "batch_norm_weight": lambda P, a, b: _F(P).batch_norm(a([2, 3]), P.zeros([3]), P.ones([3]),
                                                          b([3]), training=True),
    "group_norm": lambda P, a, b: _F(P).group_norm(a([2, 4, 3]), 2, weight=b([4])),
    "instance_norm": lambda P, a, b: _F(P).instance_norm(a([2, 3, 4]), weight=b([3])),
}


@pytest.mark.parametrize("name", list(_MIXED))
def test_parameters_of_another_dtype(name):
    # Paddle's ValueError, with dtypes named as Paddle names them (not torch's "Float"/"Double")
    exc = same_exception(lambda P: _MIXED[name](P, lambda s: _x(P, s, "float32"),
                                                 lambda s: _x(P, s, "float64")))
    assert "float64" in str(exc) and "Double" not in str(exc) and "Float" not in str(exc)


@pytest.mark.parametrize("xd,wd", [("float16", "float32"), ("float32", "float16"), ("int8", "float32"),
                                   ("bfloat16", "float32"), ("float64", "float16")])
def test_linear_kernel_follows_the_weight_dtype(xd, wd):
    # Paddle picks the matmul kernel by the weight: a float16 weight is the CPU's RuntimeError,
    # a float16 x with a float32 weight its dtype-mismatch ValueError
    same_exception(lambda P: _F(P).linear(_x(P, [2, 4], xd), _x(P, [4, 3], wd)))


def _cell(P, cls, dt):
    P.set_default_dtype(dt)
    try:
        return getattr(P.nn, cls)(4, 3)
    finally:
        P.set_default_dtype("float32")


@pytest.mark.parametrize("cell_dt,x_dt", [("float16", "float16"), ("float16", "float32"),
                                          ("float32", "float16"), ("float32", "float64")])
def test_rnn_wrapper_steps_the_cell_kernel_keyed_by_weight(cell_dt, x_dt):
    # Paddle's RNN steps the cell: its matmul is chosen by the weight (RuntimeError for float16),
    # and an input of another dtype is its ValueError
    same_exception(lambda P: P.nn.RNN(_cell(P, "GRUCell", cell_dt))(_x(P, [2, 5, 4], x_dt)))
    same_exception(lambda P: _cell(P, "LSTMCell", cell_dt)(_x(P, [2, 4], x_dt)))
