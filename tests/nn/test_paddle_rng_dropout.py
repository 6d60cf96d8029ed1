"""The dropout family and the other random nn ops draw Paddle's CPU stream (real Paddle 3.3.1).

Each test seeds both frameworks, runs the same calls and compares the values exactly
(sign of zero included), then checks that the engine stands where Paddle's does: the next
64-bit word, drawn with ``Generator.random``, is the same.
"""
import warnings

import numpy as np
import pytest
import torch

import pagaie
from tests.reference import paddle_ref


def _next_word(fw):
    if fw is pagaie:
        return pagaie.Generator("cpu").random()
    return fw.base.core.default_cpu_generator().random()


def _assert_exact(ours, theirs, what, zero_signs=True):
    a, b = np.asarray(ours), np.asarray(theirs)
    assert a.dtype == b.dtype and a.shape == b.shape, f"{what}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
    np.testing.assert_array_equal(a, b, err_msg=what)
    if zero_signs and a.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(a) & (a == 0), np.signbit(b) & (b == 0),
                                      err_msg=f"{what}: signs of zeros")


def _numpy(t):
    # bfloat16 has no numpy type: compare its bits
    return t.astype("float32").numpy() if "bfloat16" in str(t.dtype) else t.numpy()


_X = np.random.default_rng(0).standard_normal((4, 6, 5, 3)).astype("float32")
_X[0, 0, 0, :2] = [-0.0, np.nan]


def _t(fw, dtype="float32", x=_X):
    t = fw.to_tensor(x)
    return t if dtype == "float32" else t.astype(dtype)


def _f(fw):
    return fw.nn.functional


CASES = {
    "dropout": lambda fw: _f(fw).dropout(_t(fw), 0.3),
    "dropout_float64": lambda fw: _f(fw).dropout(_t(fw, "float64"), 0.3),
    "dropout_bfloat16": lambda fw: _f(fw).dropout(_t(fw, "bfloat16"), 0.3),
    "dropout_float16": lambda fw: _f(fw).dropout(_t(fw, "float16"), 0.7),
    "dropout_downscale": lambda fw: _f(fw).dropout(_t(fw), 0.3, mode="downscale_in_infer"),
    "dropout_downscale_eval": lambda fw: _f(fw).dropout(_t(fw), 0.3, training=False,
                                                        mode="downscale_in_infer"),
    "dropout_p1": lambda fw: _f(fw).dropout(_t(fw), 1.0),
    "dropout_axis": lambda fw: _f(fw).dropout(_t(fw), 0.3, axis=1),
    "dropout_axes": lambda fw: _f(fw).dropout(_t(fw), 0.6, axis=[0, 2]),
    "dropout_axes_bfloat16": lambda fw: _f(fw).dropout(_t(fw, "bfloat16"), 0.6, axis=[0, 2]),
    "dropout_axes_float64_downscale": lambda fw: _f(fw).dropout(
        _t(fw, "float64"), 0.6, axis=[0, 2], mode="downscale_in_infer"),
    "dropout_axis_downscale_eval": lambda fw: _f(fw).dropout(_t(fw), 0.37, axis=1, training=False,
                                                             mode="downscale_in_infer"),
    "dropout_axis_p1": lambda fw: _f(fw).dropout(_t(fw), 1.0, axis=1),
    "dropout1d": lambda fw: _f(fw).dropout1d(_t(fw, x=_X[..., 0]), 0.4),
    "dropout1d_unbatched": lambda fw: _f(fw).dropout1d(_t(fw, x=_X[0, ..., 0]), 0.4),
    "dropout2d": lambda fw: _f(fw).dropout2d(_t(fw), 0.4),
    "dropout2d_nhwc": lambda fw: _f(fw).dropout2d(_t(fw), 0.4, data_format="NHWC"),
    "dropout3d": lambda fw: _f(fw).dropout3d(_t(fw, x=_X[..., None]), 0.4),
    "alpha_dropout": lambda fw: _f(fw).alpha_dropout(_t(fw), 0.3),
    "alpha_dropout_p0": lambda fw: _f(fw).alpha_dropout(_t(fw), 0.0),
    "alpha_dropout_float64": lambda fw: _f(fw).alpha_dropout(_t(fw, "float64"), 0.3),
    "feature_alpha_dropout": lambda fw: _f(fw).feature_alpha_dropout(_t(fw), 0.3),
    "rrelu": lambda fw: _f(fw).rrelu(_t(fw), 0.1, 0.3),
    "rrelu_float64": lambda fw: _f(fw).rrelu(_t(fw, "float64"), 0.1, 0.3),
    "rrelu_eval": lambda fw: _f(fw).rrelu(_t(fw), 0.1, 0.3, training=False),
    "Dropout": lambda fw: fw.nn.Dropout(0.2)(_t(fw)),
    "Dropout_axis": lambda fw: fw.nn.Dropout(0.2, axis=[1, 3])(_t(fw)),
    "Dropout2D": lambda fw: fw.nn.Dropout2D(0.5)(_t(fw)),
    "Dropout3D": lambda fw: fw.nn.Dropout3D(0.5)(_t(fw, x=_X[None])),
    "AlphaDropout": lambda fw: fw.nn.AlphaDropout(0.2)(_t(fw)),
    "FeatureAlphaDropout": lambda fw: fw.nn.FeatureAlphaDropout(0.2)(_t(fw)),
    "RReLU": lambda fw: fw.nn.RReLU(0.1, 0.3)(_t(fw)),
}


def _run(fw, calls, seed=11):
    fw.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outs = [_numpy(c(fw)) for c in calls]
    return outs, _next_word(fw)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_and_stream_match_paddle(name):
    ref = paddle_ref()
    ours, ours_next = _run(pagaie, [CASES[name]])
    theirs, theirs_next = _run(ref, [CASES[name]])
    _assert_exact(ours[0], theirs[0], name)
    assert ours_next == theirs_next, f"{name}: the engine is not where Paddle's is"


def test_a_sequence_of_calls_matches_paddle():
    ref = paddle_ref()
    names = ["dropout", "rrelu", "dropout_axes", "alpha_dropout", "Dropout2D", "dropout_float64"]
    ours, ours_next = _run(pagaie, [CASES[n] for n in names], seed=2024)
    theirs, theirs_next = _run(ref, [CASES[n] for n in names], seed=2024)
    for n, a, b in zip(names, ours, theirs):
        _assert_exact(a, b, n)
    assert ours_next == theirs_next


GRADS = {
    "dropout": lambda fw, x: _f(fw).dropout(x, 0.3),
    "dropout_downscale": lambda fw, x: _f(fw).dropout(x, 0.3, mode="downscale_in_infer"),
    "dropout_axis": lambda fw, x: _f(fw).dropout(x, 0.4, axis=[0, 1]),
    "alpha_dropout": lambda fw, x: _f(fw).alpha_dropout(x, 0.3),
    "rrelu": lambda fw, x: _f(fw).rrelu(x, 0.1, 0.3),
}


@pytest.mark.parametrize("name", sorted(GRADS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gradients_match_paddle(name, dtype):
    ref = paddle_ref()
    x = np.random.default_rng(1).standard_normal((3, 4, 5)).astype(dtype)
    w = np.random.default_rng(2).standard_normal((3, 4, 5)).astype(dtype)
    res = []
    for fw in (pagaie, ref):
        fw.seed(5)
        xt = fw.to_tensor(x, stop_gradient=False)
        y = GRADS[name](fw, xt)
        (y * fw.to_tensor(w)).sum().backward()
        res.append((y.numpy(), xt.grad.numpy()))
    _assert_exact(res[0][0], res[1][0], f"{name} output")
    # equal values; a zero gradient may differ in sign (Paddle multiplies by the mask)
    _assert_exact(res[0][1], res[1][1], f"{name} gradient", zero_signs=False)


def _static_dropouts(fw, x):
    fw.enable_static()
    try:
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            xv = fw.static.data("x", list(x.shape), "float32")
            y = fw.nn.functional.dropout(xv, 0.3)
            z = fw.nn.functional.rrelu(y - 1.0, 0.1, 0.3)
            w = fw.nn.functional.dropout(z, 0.4, axis=1)
        exe = fw.static.Executor(fw.CPUPlace())
        fw.seed(9)
        out = exe.run(main, feed={"x": x}, fetch_list=[y, z, w])
        return [np.asarray(o) for o in out], _next_word(fw)
    finally:
        fw.disable_static()


def test_static_programs_draw_as_paddle_does():
    ref = paddle_ref()
    x = np.random.default_rng(3).standard_normal((4, 5)).astype("float32")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (ours, a), (theirs, b) = _static_dropouts(pagaie, x), _static_dropouts(ref, x)
    for o, t in zip(ours, theirs):
        _assert_exact(o, t, "static")
    assert a == b


def test_the_compiled_executor_draws_the_interpreters_masks():
    from pagaie._static.compiled import CompiledPlan
    from tests.static_passes.helpers import run, static_program
    with static_program() as main:
        x = pagaie.static.data("x", [6, 7], "float32")
        y = pagaie.nn.functional.dropout(x * 2.0, 0.3)
        z = pagaie.nn.functional.dropout(pagaie.tanh(y), 0.5, axis=1)
        a = pagaie.nn.functional.alpha_dropout(z, 0.2)
    feed = {"x": torch.randn(6, 7)}
    pagaie.seed(4)
    ref = run(main, feed, [y, z, a])
    word = _next_word(pagaie)
    plan = CompiledPlan(main, ["x"], [y, z, a], backend="eager")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pagaie.seed(4)
        got = plan.run(feed)
    assert plan.segments[0].compiled
    assert all(torch.equal(g, r) for g, r in zip(got, ref))
    assert _next_word(pagaie) == word


def _copy_weights(ours, theirs):
    ours.set_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})


def test_transformer_encoder_layer_draws_paddles_masks():
    ref = paddle_ref()
    ref.seed(0)
    theirs = ref.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.3, activation="gelu")
    ours = pagaie.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.3, activation="gelu")
    _copy_weights(ours, theirs)
    src = np.random.default_rng(4).standard_normal((2, 5, 8)).astype("float32")
    res = []
    for fw, layer in ((pagaie, ours), (ref, theirs)):
        fw.seed(21)
        res.append((layer(fw.to_tensor(src)).numpy(), _next_word(fw)))
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-5, atol=1e-5)
    assert res[0][1] == res[1][1]


def test_multi_head_attention_weights_are_dropped_as_paddle_drops_them():
    ref = paddle_ref()
    ref.seed(0)
    theirs = ref.nn.MultiHeadAttention(8, 2, dropout=0.5, need_weights=True)
    ours = pagaie.nn.MultiHeadAttention(8, 2, dropout=0.5, need_weights=True)
    _copy_weights(ours, theirs)
    q = np.random.default_rng(5).standard_normal((2, 4, 8)).astype("float32")
    res = []
    for fw, layer in ((pagaie, ours), (ref, theirs)):
        fw.seed(8)
        out, w = layer(fw.to_tensor(q))
        res.append((out.numpy(), w.numpy(), _next_word(fw)))
    np.testing.assert_array_equal(res[0][1] == 0, res[1][1] == 0)
    np.testing.assert_allclose(res[0][1], res[1][1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-5, atol=1e-5)
    assert res[0][2] == res[1][2]


def test_attention_dropout_draws_paddles_mask():
    ref = paddle_ref()
    q = np.random.default_rng(6).standard_normal((2, 5, 3, 4)).astype("float32")
    res = []
    for fw in (pagaie, ref):
        fw.seed(5)
        qkv = fw.to_tensor(np.stack([q, q, q], axis=2))
        out, w = fw.nn.functional.flash_attn_qkvpacked(qkv, dropout=0.4, return_softmax=True)
        res.append((out.numpy(), w.numpy(), _next_word(fw)))
    np.testing.assert_array_equal(res[0][1] == 0, res[1][1] == 0)
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-5, atol=1e-6)
    assert res[0][2] == res[1][2]


@pytest.mark.parametrize("act", ["relu", "gelu"])
def test_fused_feedforward_matches_paddles_unfused_ops(act):
    from pagaie._ops.fused_ffn import fused_feedforward_dropout
    ref = paddle_ref()
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 4, 6)).astype("float32")
    w1, b1 = rng.standard_normal((6, 10)).astype("float32"), rng.standard_normal(10).astype("float32")
    w2, b2 = rng.standard_normal((10, 5)).astype("float32"), rng.standard_normal(5).astype("float32")
    res = []
    for fw in (pagaie, ref):
        fw.seed(13)
        xt = fw.to_tensor(x, stop_gradient=False)
        ws = [fw.to_tensor(a, stop_gradient=False) for a in (w1, b1, w2, b2)]
        if fw is pagaie:
            y = fused_feedforward_dropout(xt, *ws, p=0.35, act=act)
        else:
            F = fw.nn.functional
            h = getattr(F, act)(F.linear(xt, ws[0], ws[1]))
            y = F.linear(F.dropout(h, 0.35), ws[2], ws[3])
        word = _next_word(fw)
        y.sum().backward()
        res.append((y.numpy(), xt.grad.numpy(), ws[0].grad.numpy(), word))
    for a, b in zip(res[0][:3], res[1][:3]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    assert res[0][3] == res[1][3]


def test_eager_dropout_reads_the_main_program_seed():
    """Paddle's eager dropout takes default_main_program().random_seed: the same mask on
    every call, Paddle's mask."""
    P = paddle_ref()
    outs = []
    for fw in (P, pagaie):
        prog = fw.static.default_main_program()
        prog.random_seed = 5
        try:
            x = fw.ones([4, 8])
            outs.append([fw.nn.functional.dropout(x, 0.5).numpy(), fw.nn.Dropout(0.3)(x).numpy()])
        finally:
            prog.random_seed = 0
    np.testing.assert_array_equal(outs[1][0], outs[0][0])
    np.testing.assert_array_equal(outs[1][1], outs[0][1])
