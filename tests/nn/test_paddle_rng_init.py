"""Initializers and layers' default parameters draw Paddle's CPU random numbers.

After ``paddle.seed(s)``, creating the same layers (or running the same initializers) in
pagaie and in real Paddle gives the same parameters, bit for bit, and leaves the CPU
engine at the same place: the next words drawn agree too (checked on the engine itself,
so these tests do not depend on which samplers already follow Paddle).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import platform

import numpy as np
import pytest

import pagaie
from pagaie._core.random import cpu_engine
from pagaie._ops import _std_dists_init as dists
from pagaie._ops._libm import logf
from pagaie._ops._std_dists import canonical
from tests.reference import paddle_ref


@pytest.fixture(scope="module")
def real():
    p = paddle_ref()
    p.set_device("cpu")
    return p


@pytest.fixture(autouse=True)
def _cpu():
    pagaie.set_device("cpu")
    yield
    pagaie.nn.initializer.set_global_initializer(None, None)


def _values(params):
    out = []
    for name, p in params:
        a = p.astype("float32").numpy() if str(p.dtype).endswith(("float16", "bfloat16")) else p.numpy()
        out.append((name, a))
    return out


def _both(real, build, seed=5):
    """(Paddle's, pagaie's) named parameter values and the next 4 uniforms of each engine."""
    real.seed(seed)
    m = build(real)
    theirs = _values(m.named_parameters() if hasattr(m, "named_parameters") else m)
    their_next = real.rand([4]).numpy()
    pagaie.seed(seed)
    m = build(pagaie)
    ours = _values(m.named_parameters() if hasattr(m, "named_parameters") else m)
    our_next = canonical(cpu_engine(), 4)
    return theirs, their_next, ours, our_next


def _check(real, build, seed=5, exact=True):
    theirs, their_next, ours, our_next = _both(real, build, seed)
    assert [n for n, _ in ours] == [n for n, _ in theirs]
    for (name, a), (_, b) in zip(theirs, ours):
        assert a.shape == b.shape, name
        if exact:
            np.testing.assert_array_equal(b, a, err_msg=name)
        else:   # float64 normals: numpy's double log is not glibc's in the last bit
            np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12, err_msg=name)
    np.testing.assert_array_equal(our_next, their_next, err_msg="the draw after")


LAYERS = {
    "linear": lambda L: L.nn.Linear(5, 7),
    "linear_attrs": lambda L: L.nn.Linear(
        5, 7, weight_attr=L.ParamAttr(initializer=L.nn.initializer.KaimingNormal()),
        bias_attr=L.ParamAttr(initializer=L.nn.initializer.Normal(0.0, 0.1))),
    "conv1d": lambda L: L.nn.Conv1D(3, 4, 3),
    "conv2d_groups": lambda L: L.nn.Conv2D(4, 6, (3, 2), groups=2),
    "conv3d": lambda L: L.nn.Conv3D(2, 3, 2),
    "conv1d_t": lambda L: L.nn.Conv1DTranspose(3, 4, 3),
    "conv2d_t": lambda L: L.nn.Conv2DTranspose(3, 4, 3),
    "conv3d_t": lambda L: L.nn.Conv3DTranspose(2, 3, 2),
    "embedding": lambda L: L.nn.Embedding(10, 4, padding_idx=2),
    "norms": lambda L: L.nn.Sequential(L.nn.BatchNorm2D(4), L.nn.LayerNorm(4), L.nn.BatchNorm1D(3),
                                       L.nn.GroupNorm(2, 4), L.nn.InstanceNorm2D(3)),
    "lstm": lambda L: L.nn.LSTM(4, 5, num_layers=2, direction="bidirect"),
    "gru": lambda L: L.nn.GRU(4, 5),
    "simple_rnn": lambda L: L.nn.SimpleRNN(4, 5),
    "cells": lambda L: L.nn.Sequential(L.nn.LSTMCell(4, 5), L.nn.GRUCell(4, 5), L.nn.SimpleRNNCell(4, 5)),
    "birnn": lambda L: L.nn.BiRNN(L.nn.LSTMCell(3, 4), L.nn.GRUCell(3, 4)),
    "mha": lambda L: L.nn.MultiHeadAttention(8, 2, kdim=6, vdim=5),
    "encoder_layer": lambda L: L.nn.TransformerEncoderLayer(8, 2, 16),
    "decoder_layer": lambda L: L.nn.TransformerDecoderLayer(8, 2, 16),
    "bilinear": lambda L: L.nn.Bilinear(3, 4, 5),
    "prelu": lambda L: L.nn.Sequential(L.nn.PReLU(), L.nn.PReLU(3)),
    "spectral_norm": lambda L: L.nn.SpectralNorm([4, 6], dim=0),
    "mlp": lambda L: L.nn.Sequential(L.nn.Linear(6, 16), L.nn.ReLU(), L.nn.Linear(16, 16), L.nn.ReLU(),
                                     L.nn.Linear(16, 2)),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_parameters_match_paddle(real, name):
    _check(real, LAYERS[name])


def test_resnet18_parameters_match_paddle(real):
    _check(real, lambda L: L.vision.models.resnet18(num_classes=10), seed=2024)


def test_layers_in_sequence_continue_the_stream(real):
    # several layers one after the other, with a re-seed in the middle
    def build(L):
        a = L.nn.Linear(3, 4)
        b = L.nn.Conv2D(2, 3, 3)
        L.seed(9)
        c = L.nn.LSTM(3, 2)
        return list(a.named_parameters()) + list(b.named_parameters()) + list(c.named_parameters())
    _check(real, build)


def test_rng_state_round_trip_around_layers(real):
    def build(L):
        st = L.get_rng_state()
        a = L.nn.Linear(4, 4)
        L.set_rng_state(st)
        b = L.nn.Linear(4, 4)
        return [("a", a.weight), ("b", b.weight)]
    theirs, _, ours, _ = _both(real, build)
    np.testing.assert_array_equal(ours[0][1], ours[1][1])
    np.testing.assert_array_equal(ours[0][1], theirs[0][1])


INITS = [
    ("Uniform", (), {}), ("Uniform", (-0.3, 0.7), {}),
    ("Normal", (), {}), ("Normal", (0.5, 0.02), {}),
    ("TruncatedNormal", (), {}), ("TruncatedNormal", (0.0, 0.02), {}),
    ("TruncatedNormal", (1.0, 3.0, -2.0, 5.0), {}),
    ("XavierUniform", (), {}), ("XavierNormal", (), {}),
    ("XavierUniform", (), {"gain": 2.0, "fan_in": 3}), ("XavierNormal", (), {"fan_out": 0}),
    ("KaimingUniform", (), {}), ("KaimingNormal", (), {}),
    ("KaimingUniform", (), {"nonlinearity": "leaky_relu", "negative_slope": 0.1, "mode": "fan_out"}),
    ("KaimingNormal", (), {"fan_in": 7}),
    ("Constant", (0.3,), {}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16"])
@pytest.mark.parametrize("shape", [[40, 60], [6, 4, 3, 3], [7]], ids=["2d", "4d", "1d"])
@pytest.mark.parametrize("init", INITS, ids=lambda c: f"{c[0]}{c[1]}{c[2]}")
def test_initializer_matches_paddle(real, init, shape, dtype):
    name, args, kwargs = init
    if name == "TruncatedNormal" and dtype == "float16":
        pytest.skip("Paddle has no float16 truncated_gaussian_random CPU kernel (pagaie fills it)")
    exact = not (dtype == "float64" and "Normal" in name and "Truncated" not in name)
    _check(real, lambda L: [("w", L.create_parameter(
        shape, dtype, default_initializer=getattr(L.nn.initializer, name)(*args, **kwargs)))],
        seed=21, exact=exact)


@pytest.mark.parametrize("shape", [[4, 6], [6, 4, 3], [3, 2, 3, 3]])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_orthogonal_matches_paddle(real, shape, dtype):
    # the same gaussian draw; the QR factorisations may differ in the last bits
    theirs, their_next, ours, our_next = _both(real, lambda L: [("w", L.create_parameter(
        shape, dtype, default_initializer=L.nn.initializer.Orthogonal(gain=0.5)))], seed=3)
    np.testing.assert_allclose(ours[0][1], theirs[0][1], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(our_next, their_next)


def test_structured_initializers_draw_nothing(real):
    def build(L):
        I = L.nn.initializer
        return [("d", L.create_parameter([4, 2, 3, 3], "float32", default_initializer=I.Dirac(2))),
                ("b", L.create_parameter([2, 2, 4, 4], "float32", default_initializer=I.Bilinear())),
                ("a", L.create_parameter([2, 2], "float32", default_initializer=I.Assign([[1., 2.], [3., 4.]]))),
                ("c", L.create_parameter([3], "float32", default_initializer=I.Constant(2.5)))]
    _check(real, build)


def test_global_initializer_matches_paddle(real):
    def build(L):
        I = L.nn.initializer
        I.set_global_initializer(I.TruncatedNormal(0.0, 0.5), I.Uniform(-0.1, 0.1))
        try:
            return L.nn.Sequential(L.nn.Linear(5, 6), L.nn.Conv2D(2, 3, 3))
        finally:
            I.set_global_initializer(None)
    _check(real, build)


@pytest.mark.parametrize("fn, kwargs", [
    ("kaiming_uniform_", {}), ("kaiming_normal_", {"mode": "fan_out"}), ("xavier_uniform_", {"gain": 1.5}),
    ("xavier_normal_", {}), ("uniform_", {"a": -2.0, "b": 3.0}), ("normal_", {"mean": 1.0, "std": 0.5}),
    ("trunc_normal_", {"std": 0.02, "a": -0.04, "b": 0.04}), ("orthogonal_", {})])
def test_nn_init_functions_match_paddle(real, fn, kwargs):
    def build(L):
        t = L.zeros([12, 8])
        getattr(L.nn.init, fn)(t, **kwargs)
        return [("t", t)]
    if fn == "orthogonal_":
        theirs, their_next, ours, our_next = _both(real, build)
        np.testing.assert_allclose(ours[0][1], theirs[0][1], rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(our_next, their_next)
    else:
        _check(real, build)


def test_truncated_normal_large_matches_paddle(real):
    # many values reach the erfinv tails; float64 and wide bounds (p reaching 1) too
    for dtype, (m, s, a, b) in [("float32", (0.0, 1.0, -2.0, 2.0)), ("float32", (0.0, 1.0, -10.0, 10.0)),
                                ("float64", (0.0, 0.02, -0.04, 0.04))]:
        _check(real, lambda L: [("w", L.create_parameter(
            [20000], dtype, default_initializer=L.nn.initializer.TruncatedNormal(m, s, a, b)))], seed=11)


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc"
                    or tuple(int(v) for v in platform.libc_ver()[1].split(".")[:2]) < (2, 27),
                    reason="needs glibc 2.27+ (its logf is the one reproduced)")
def test_libm_logf_is_glibcs():
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libm.logf.restype, libm.logf.argtypes = ctypes.c_float, [ctypes.c_float]
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.random(20000, dtype=np.float32), rng.random(5000, dtype=np.float32) ** 8,
                        np.array([1.0, 0.5, 2.0, 3.4e38, 1.2e-38], dtype=np.float32)])
    x = x[x > 0]
    want = np.array([libm.logf(float(v)) for v in x], dtype=np.float32)
    np.testing.assert_array_equal(logf(x), want)


def test_op_seed_engine_repeats():
    # an initializer with its own seed draws from a fresh engine each time, as Paddle's ops do
    init = pagaie.nn.initializer.Uniform(-1.0, 1.0)
    init._seed = 17
    a = pagaie.create_parameter([5], "float32", default_initializer=init)
    b = pagaie.create_parameter([5], "float32", default_initializer=init)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
