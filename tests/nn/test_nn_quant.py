"""paddle.nn.quant: weight-only / LLM.int8 kernels, functional layers, stubs (vs real Paddle)."""
import numpy as np
import pytest

import pagaie
from pagaie.nn import quant as Q
from tests.reference import assert_same, both, paddle_ref, same_exception

RNG = np.random.default_rng(7)
W = RNG.standard_normal((128, 64)).astype("float32")


@pytest.mark.parametrize("algo,arch,gs,dtype", [
    ("weight_only_int8", 80, -1, "float16"), ("weight_only_int8", 70, 64, "bfloat16"),
    ("weight_only_int8", 90, 128, "float16"), ("weight_only_int4", 80, -1, "bfloat16"),
    ("weight_only_int4", 70, -1, "float16"), ("weight_only_int4", 86, 64, "float16"),
    ("llm.int8", 80, -1, "float16"), ("llm.int8", 75, 64, "bfloat16"),
])
def test_weight_quantize_matches_paddle(algo, arch, gs, dtype):
    ours, theirs = both(lambda p: p.nn.quant.weight_quantize(p.to_tensor(W).astype(dtype), algo=algo,
                                                             arch=arch, group_size=gs))
    assert_same(ours, theirs, rtol=0, atol=0)


@pytest.mark.parametrize("call", [
    lambda p, x: p.nn.quant.weight_quantize(x, algo="int3", arch=80),
    lambda p, x: p.nn.quant.weight_quantize(x, arch=80, group_size=32),
    lambda p, x: p.nn.quant.weight_quantize(x, arch=61),
    lambda p, x: p.nn.quant.weight_quantize(x.reshape([2, 64, 64]), arch=80),
    lambda p, x: p.nn.quant.weight_quantize(x.astype("float32"), arch=80),
])
def test_weight_quantize_errors(call):
    same_exception(lambda p: call(p, p.to_tensor(W).astype("float16")))


def _levels_ref(w, bits, gs):
    bound = 127 if bits == 8 else 7
    a = np.abs(w)
    if gs == -1:
        s = a.max(0, keepdims=True) / bound
        srow = s
    else:
        s = a.reshape(-1, gs, w.shape[1]).max(1) / bound
        srow = np.repeat(s, gs, 0)
    s16 = srow.astype(np.float16).astype(np.float32)
    q = np.clip(np.sign(w / s16) * np.floor(np.abs(w / s16) + 0.5), -bound, bound)
    return q, s16


@pytest.mark.parametrize("algo,gs", [("weight_only_int8", -1), ("weight_only_int4", 64),
                                     ("weight_only_int8", 128)])
def test_weight_dequantize_inverts_quantize(algo, gs):
    w16 = W.astype(np.float16).astype(np.float32)
    q, s = Q.weight_quantize(pagaie.to_tensor(w16).astype("float16"), algo=algo, group_size=gs)
    deq = Q.weight_dequantize(q, s, algo=algo, group_size=gs)
    assert deq.dtype == pagaie.float16 and deq.shape == [128, 64]
    lv, srow = _levels_ref(w16, 4 if "int4" in algo else 8, gs)
    np.testing.assert_allclose(deq.astype("float32").numpy(), (lv * srow).astype(np.float16), rtol=1e-3)


@pytest.mark.parametrize("wdt,arch,gs", [("int8", 80, -1), ("int4", 80, 64), ("int8", 70, 128),
                                         ("int4", 70, -1)])
def test_weight_only_linear_matches_reference(wdt, arch, gs):
    w16 = W.astype(np.float16).astype(np.float32)
    algo = "weight_only_" + wdt
    q, s = Q.weight_quantize(pagaie.to_tensor(w16).astype("float16"), algo=algo, arch=arch, group_size=gs)
    x = RNG.standard_normal((2, 3, 128)).astype(np.float16)
    b = RNG.standard_normal(64).astype(np.float16)
    out = Q.weight_only_linear(pagaie.to_tensor(x), q, bias=pagaie.to_tensor(b), weight_scale=s,
                               weight_dtype=wdt, arch=arch, group_size=gs)
    lv, srow = _levels_ref(w16, 4 if wdt == "int4" else 8, gs)
    ref = x.astype(np.float32) @ (lv * srow) + b.astype(np.float32)
    assert out.dtype == pagaie.float16 and out.shape == [2, 3, 64]
    np.testing.assert_allclose(out.astype("float32").numpy(), ref, rtol=2e-3, atol=2e-2)


def test_llm_int8_linear_matches_reference():
    w16 = W.astype(np.float16)
    q, s = Q.weight_quantize(pagaie.to_tensor(w16), algo="llm.int8")
    x = RNG.standard_normal((4, 128)).astype(np.float32)
    x[1, 5] = 9.0  # an outlier feature: column 5 is computed in float
    x16 = x.astype(np.float16).astype(np.float32)
    out = Q.llm_int8_linear(pagaie.to_tensor(x16).astype("float16"), q, weight_scale=s, threshold=6.0)
    wl = q.numpy().T.astype(np.float32)                       # [k, n] levels
    ws = s.numpy()[None, :]
    reg = x16.copy()
    reg[:, 5] = 0
    rs = np.abs(reg).max(1, keepdims=True) / 127
    xq = np.clip(np.sign(reg / rs) * np.floor(np.abs(reg / rs) + 0.5), -127, 127)
    ref = (xq @ wl) * rs * ws + x16[:, 5:6] @ (wl[5:6] * ws)
    np.testing.assert_allclose(out.astype("float32").numpy(), ref, rtol=2e-3, atol=2e-2)


def test_apply_per_channel_scale():
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    s = RNG.standard_normal(4).astype(np.float32)
    out = Q.apply_per_channel_scale(pagaie.to_tensor(x), pagaie.to_tensor(s))
    np.testing.assert_allclose(out.numpy(), x * s, rtol=1e-6)
    with pytest.raises(ValueError):
        Q.apply_per_channel_scale(pagaie.to_tensor(x), pagaie.to_tensor(s[:3]))


@pytest.mark.parametrize("name,args", [
    ("add", lambda p: (p.to_tensor([1.0, 2.0]), p.to_tensor([3.0, 4.0]))),
    ("subtract", lambda p: (p.to_tensor([1.0, 2.0]), p.to_tensor([3.0, 4.0]))),
    ("multiply", lambda p: (p.to_tensor([1.0, 2.0]), p.to_tensor([3.0, 4.0]))),
    ("divide", lambda p: (p.to_tensor([1.0, 2.0]), p.to_tensor([3.0, 4.0]))),
    ("reshape", lambda p: (p.arange(6, dtype="float32"), [2, 3])),
    ("transpose", lambda p: (p.arange(6, dtype="float32").reshape([2, 3]), [1, 0])),
    ("concat", lambda p: ([p.ones([1, 2]), p.zeros([2, 2])],)),
    ("flatten", lambda p: (p.ones([2, 3, 4]), 1, 2)),
    ("matmul", lambda p: (p.ones([2, 3]), p.ones([4, 3]), False, True)),
])
def test_functional_layers(name, args):
    ours, theirs = both(lambda p: getattr(p.nn.quant, name)()(*args(p)))
    assert_same(ours, theirs)
    assert isinstance(getattr(Q, name)(), Q.FloatFunctionalLayer)


def test_quant_stub_tracks_moving_scale():
    def run(p):
        stub = p.nn.quant.QuantStub()
        outs = [stub(p.to_tensor(v)) for v in ([1.0, -3.0], [2.0, 0.5])]
        stub.eval()
        outs.append(stub(p.to_tensor([10.0])))
        return outs + [stub._scale, stub._state, stub._accum]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_stub_and_submodules():
    paddle = paddle_ref()
    assert set(paddle.nn.quant.__all__) <= set(dir(Q))
    assert set(Q.__all__) == set(paddle.nn.quant.__all__)
    assert Q.Stub()(pagaie.to_tensor([1.0])).tolist() == [1.0]
    for sub, names in (("format", ["LinearQuanter", "LinearDequanter", "LinearQuanterDequanter",
                                   "ConvertibleQuantedLayer"]),
                       ("qat", ["QuantedConv2D", "QuantedLinear"]),
                       ("lsq", ["FakeQuantActLSQPlus", "FakeQuantWeightLSQPlus"])):
        for n in names:
            assert hasattr(getattr(paddle.nn.quant, sub), n) and hasattr(getattr(Q, sub), n)
    assert set(paddle.nn.quant.quant_layers.__all__) == set(Q.quant_layers.__all__)
    with pytest.raises(NotImplementedError, match="QuantizedLinear"):
        Q.quant_layers.QuantizedLinear()
    with pytest.raises(NotImplementedError, match="FakeQuantActLSQPlus"):
        Q.lsq.FakeQuantActLSQPlus()
