"""Differential tests against real Paddle 3.3.1: fft argument checks, the CPU dtypes of the
incubate/geometric graph ops, incubate.autograd's static grad/forward_grad, FusedDropout,
and the non-Tensor arguments of signal.stft/istft."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _raises(fn):
    """The exception type ``fn`` raises (None when it returns)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return next(c for c in type(e).__mro__ if getattr(__import__("builtins"), c.__name__, None) is c)
    return None


def _same_error(call):
    expected = _raises(lambda: call(paddle))
    assert expected is not None
    assert _raises(lambda: call(pagaie)) is expected


X46 = np.arange(24, dtype="float32").reshape(4, 6)


# ---- fft: empty axes / s -----------------------------------------------------------------

@pytest.mark.parametrize("fn", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_fftshift_empty_axes(fn, dtype):
    _same_error(lambda m: getattr(m.fft, fn)(m.to_tensor(X46.astype(dtype)), axes=[]))


# (Paddle crashes the process for fftn/rfftn/ihfftn with s=[] alone: not probed)
@pytest.mark.parametrize("fn,kw", [
    ("fftn", dict(axes=[])), ("ifftn", dict(axes=[])), ("rfftn", dict(axes=[])),
    ("irfftn", dict(axes=[])), ("hfftn", dict(axes=[])), ("ihfftn", dict(axes=[])),
    ("irfftn", dict(s=[])), ("hfftn", dict(s=[])), ("fftn", dict(s=[2], axes=[])),
    ("fftn", dict(s=[], axes=[0])), ("irfftn", dict(s=[], axes=[0])),
])
def test_fftn_empty_axes_or_s(fn, kw):
    _same_error(lambda m: getattr(m.fft, fn)(m.to_tensor(X46), **kw))


# ---- incubate / geometric ops: the CPU kernels' dtypes -----------------------------------

SRC = np.array([0, 1, 2, 0], "int64")
DST = np.array([1, 2, 1, 0], "int64")
SEG = np.array([0, 0, 1, 1], "int64")


def _cast(m, a, dtype):
    return m.cast(m.to_tensor(a), dtype)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", ["graph_send_recv", "send_u_recv", "send_ue_recv", "send_uv"])
def test_send_ops_cpu_dtypes(op, dtype):
    def call(m):
        x = _cast(m, X46[:4, :3], dtype)
        s, d = m.to_tensor(SRC), m.to_tensor(DST)
        if op == "graph_send_recv":
            return m.incubate.graph_send_recv(x, s, d, pool_type="max")
        if op == "send_u_recv":
            return m.geometric.send_u_recv(x, s, d)
        return getattr(m.geometric, op)(x, _cast(m, np.ones((4, 3), "float32"), dtype), s, d)
    _same_error(call)


@pytest.mark.parametrize("op", ["segment_sum", "segment_max"])
def test_segment_ops_cpu_dtypes(op):
    x = X46[:4, :3]
    _same_error(lambda m: getattr(m.incubate, op)(_cast(m, x, "bfloat16"), m.to_tensor(SEG)))
    # float16 has a CPU kernel
    got = getattr(pagaie.incubate, op)(_cast(pagaie, x, "float16"), pagaie.to_tensor(SEG))
    want = getattr(paddle.incubate, op)(_cast(paddle, x, "float16"), paddle.to_tensor(SEG))
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_allclose(got.numpy().astype("float32"), want.numpy().astype("float32"),
                               rtol=1e-3)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", ["identity_loss", "softmax_mask_fuse",
                                "softmax_mask_fuse_upper_triangle"])
def test_float_ops_cpu_dtypes(op, dtype):
    def call(m):
        x = _cast(m, np.zeros((1, 1, 4, 4), "float32"), dtype)
        if op == "identity_loss":
            return m.incubate.identity_loss(x, "sum")
        if op == "softmax_mask_fuse":
            return m.incubate.softmax_mask_fuse(x, x)
        return m.incubate.softmax_mask_fuse_upper_triangle(x)
    _same_error(call)


def test_float_ops_cpu_float64_runs():
    x = np.random.RandomState(0).randn(1, 1, 4, 4)
    got = pagaie.incubate.softmax_mask_fuse(pagaie.to_tensor(x), pagaie.to_tensor(x * 0))
    want = paddle.incubate.softmax_mask_fuse(paddle.to_tensor(x), paddle.to_tensor(x * 0))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


# ---- incubate.autograd in static mode ----------------------------------------------------

def _static_run(m, build):
    """Build a program with ``build(m, x, z)`` (x, z: float32 [2]) and run it."""
    m.enable_static()
    try:
        main, startup = m.static.Program(), m.static.Program()
        with m.static.program_guard(main, startup):
            x = m.static.data("x", [2], "float32")
            z = m.static.data("z", [2], "float32")
            x.stop_gradient = z.stop_gradient = False
            out = build(m, x, z)
        # (the program values themselves are not handed out: Paddle's crash on repr outside
        # static mode)
        kind = f"list of {len(out)}" if isinstance(out, list) else "none" if out is None else "one"
        fetch = [v for v in (out if isinstance(out, list) else [out]) if v is not None]
        exe = m.static.Executor()
        exe.run(startup)
        vals = exe.run(main, feed={"x": np.array([0.5, 1.0], "float32"),
                                   "z": np.array([2.0, 3.0], "float32")}, fetch_list=fetch)
        return kind, vals
    finally:
        m.disable_static()


@pytest.mark.parametrize("case", ["single", "list", "unreachable"])
def test_incubate_grad_structure(case):
    def build(m, x, z):
        y = m.tanh(x) * x
        if case == "single":
            return m.incubate.autograd.grad(y, x)
        if case == "list":
            return m.incubate.autograd.grad([y, x * z], [x, z])
        return m.incubate.autograd.grad(y, z)
    (want, want_vals), (got, got_vals) = _static_run(paddle, build), _static_run(pagaie, build)
    assert got == want
    for g, w in zip(got_vals, want_vals):
        np.testing.assert_allclose(g, w, rtol=1e-5)


def test_forward_grad_needs_prim():
    for m in (paddle, pagaie):
        m.enable_static()
        try:
            with m.static.program_guard(m.static.Program(), m.static.Program()):
                x = m.static.data("x", [2], "float32")
                x.stop_gradient = False
                with pytest.raises(RuntimeError):
                    m.incubate.autograd.forward_grad(m.tanh(x), x)
        finally:
            m.disable_static()


def test_forward_grad_with_prim():
    # Paddle 3.3.1's forward_grad fails on its PIR programs; the values are checked by hand.
    pagaie.enable_static()
    pagaie.incubate.autograd.enable_prim()
    pagaie.disable_static()
    try:
        out, vals = _static_run(pagaie, lambda m, x, z: m.incubate.autograd.forward_grad(
            [m.tanh(x) * x, x * z, z * 2.0], [x], [m.full([2], 3.0, "float32")]))
    finally:
        pagaie.enable_static()
        pagaie.incubate.autograd.disable_prim()
        pagaie.disable_static()
    x, z = np.array([0.5, 1.0]), np.array([2.0, 3.0])
    assert out == "list of 3"
    np.testing.assert_allclose(vals[0], 3 * ((1 - np.tanh(x) ** 2) * x + np.tanh(x)), rtol=1e-5)
    np.testing.assert_allclose(vals[1], 3 * z, rtol=1e-6)
    np.testing.assert_allclose(vals[2], [0.0, 0.0])


# ---- incubate.nn.FusedDropout ------------------------------------------------------------

@pytest.mark.parametrize("axis", [1, (0,), [0, 1], None])
def test_fused_dropout_repr(axis):
    assert repr(pagaie.incubate.nn.FusedDropout(0.3, axis=axis)) == \
        repr(paddle.incubate.nn.FusedDropout(0.3, axis=axis))


@pytest.mark.parametrize("kw", [dict(p="a"), dict(p=np.float32(0.3)), dict(p=1.5),
                                dict(axis="x"), dict(axis=1.5), dict(mode="bad")])
def test_fused_dropout_bad_args(kw):
    _same_error(lambda m: m.incubate.nn.FusedDropout(**kw))


# ---- signal.stft / istft: non-Tensor arguments -------------------------------------------

SIG = np.random.RandomState(0).randn(64).astype("float32")


@pytest.mark.parametrize("api", ["stft", "istft"])
@pytest.mark.parametrize("bad", [None, "a", [1.0, 2.0]])
def test_stft_bad_x(api, bad):
    _same_error(lambda m: getattr(m.signal, api)(bad, 16))


@pytest.mark.parametrize("api", ["stft", "istft"])
@pytest.mark.parametrize("bad", ["list", "str", "ndarray"])
def test_stft_bad_window(api, bad):
    window = {"list": [1.0] * 16, "str": "hann", "ndarray": np.ones(16, "float32")}[bad]

    def call(m):
        x = m.to_tensor(SIG)
        if api == "istft":
            x = m.signal.stft(x, 16)
        return getattr(m.signal, api)(x, 16, window=window)
    _same_error(call)


def test_spectrogram_numpy_input():
    _same_error(lambda m: m.audio.features.Spectrogram(n_fft=16)(SIG))


# ---- incubate.nn.functional fused norms: integer input --------------------------------------

@pytest.mark.parametrize("fn", ["fused_layer_norm", "fused_rms_norm"])
def test_fused_norm_integer_x(fn):
    x, w = np.arange(8, dtype="int32").reshape(2, 4), np.ones(4, "float32")
    _same_error(lambda m: getattr(m.incubate.nn.functional, fn)(
        m.to_tensor(x), m.to_tensor(w), None, 1e-5, begin_norm_axis=1))


# ---- audio windows: half precision has no CPU kernel ------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("window", ["hann", ("kaiser", 5.0), "triang", ("tukey", 0.5)])
def test_get_window_half_precision(window, dtype):
    _same_error(lambda m: m.audio.functional.get_window(window, 8, dtype=dtype))


@pytest.mark.parametrize("fn", ["hann_window", "kaiser_window", "bartlett_window"])
def test_window_creators_half_precision(fn):
    _same_error(lambda m: getattr(m, fn)(8, dtype="float16"))


@pytest.mark.parametrize("stop_gradient", [True, False])
def test_fused_rms_norm_empty_residual_out(stop_gradient):
    x = np.random.RandomState(0).randn(2, 4).astype("float32")

    def outs(m):
        r = m.incubate.nn.functional.fused_rms_norm(
            m.to_tensor(x, stop_gradient=stop_gradient), m.to_tensor(np.ones(4, "float32")),
            None, 1e-5, 1)
        return [(list(t.shape), str(t.dtype), t.stop_gradient) for t in r]
    assert outs(pagaie) == outs(paddle)


# Paddle 3.3.1 has no CPU kernel for these blocks (AttributeError on its missing legacy op):
# pagaie computes them, and reports bad dropout arguments under the block's own name.
@pytest.mark.parametrize("kw,exc", [(dict(dropout_rate=1.5), ValueError),
                                    (dict(attn_dropout_rate=-0.1), ValueError),
                                    (dict(dropout_rate="a"), TypeError),
                                    (dict(mode="foo"), ValueError)])
def test_fused_mha_dropout_args(kw, exc):
    x = pagaie.rand([2, 3, 8])
    with pytest.raises(exc, match="fused_multi_head_attention"):
        pagaie.incubate.nn.functional.fused_multi_head_attention(
            x, pagaie.rand([3, 2, 4, 8]), pagaie.rand([8, 8]), training=False, **kw)


@pytest.mark.parametrize("kw,exc", [(dict(dropout1_rate=2.0), ValueError),
                                    (dict(dropout2_rate="x"), TypeError)])
def test_fused_feedforward_dropout_args(kw, exc):
    with pytest.raises(exc, match="fused_feedforward"):
        pagaie.incubate.nn.functional.fused_feedforward(
            pagaie.rand([2, 3, 8]), pagaie.rand([8, 16]), pagaie.rand([16, 8]), training=False, **kw)
