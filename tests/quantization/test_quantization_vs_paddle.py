"""paddle.quantization (QAT, PTQ, QuantConfig, quanters, observers) against real Paddle 3.3.1.

The same small Conv2D + ReLU + Flatten + Linear net is built in both frameworks with
Paddle's weights; QAT runs forward/backward on the same batches, PTQ calibrates on the
same batches, and outputs, gradients, quanter statistics, observer scales, converted
weights and printed models must agree.
"""
from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest

import pagaie
from tests.nn.helpers import copy_params
from tests.reference import assert_same, paddle_ref, same_exception


def assert_quantized_close(ours, theirs, what: str) -> None:
    """Outputs of fake-quantised layers: a one-ulp difference in a convolution can move an
    activation across a rounding boundary of the 8-bit grid, so allow a few quantisation
    steps of the output's range."""
    tol = 0.01 * float(np.abs(np.asarray(theirs.numpy())).max())
    assert_same(ours, theirs, rtol=1e-5, atol=max(tol, 1e-6), what=what)

RNG = np.random.default_rng(7)
BATCHES = [RNG.standard_normal((2, 2, 5, 5)).astype("float32") * s for s in (1.0, 3.0, 0.5)]


def quanters(fw):
    return import_module(f"{fw.__name__}.quantization.quanters")


def observers(fw):
    return import_module(f"{fw.__name__}.quantization.observers")


def make_net(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = fw.nn.Conv2D(2, 3, 3, padding=1)
            self.relu = fw.nn.ReLU()
            self.flat = fw.nn.Flatten()
            self.fc = fw.nn.Linear(3 * 5 * 5, 4)

        def forward(self, x):
            return self.fc(self.flat(self.relu(self.conv(x))))

    return Net()


def twin_nets():
    paddle = paddle_ref()
    theirs, ours = make_net(paddle), make_net(pagaie)
    copy_params(theirs, ours)
    return ours, theirs


def qat_pair(fw, net, **factory_kw):
    q = quanters(fw).FakeQuanterWithAbsMaxObserver(**factory_kw)
    qat = fw.quantization.QAT(fw.quantization.QuantConfig(activation=q, weight=q))
    return qat, qat.quantize(net)


def ptq_pair(fw, net):
    o = observers(fw).AbsmaxObserver()
    ptq = fw.quantization.PTQ(fw.quantization.QuantConfig(activation=o, weight=o))
    net.eval()
    return ptq, ptq.quantize(net)


def state(layer):
    return {k: v.numpy() for k, v in layer.state_dict().items()}


def assert_states(ours, theirs, what):
    a, b = state(ours), state(theirs)
    assert list(a) == list(b), f"{what}: state_dict keys {list(a)} vs Paddle's {list(b)}"
    for k in b:
        np.testing.assert_allclose(a[k], b[k], rtol=1e-6, atol=1e-7, err_msg=f"{what}: {k}")


def test_qat_forward_backward_and_statistics_match_paddle():
    paddle = paddle_ref()
    ours_net, theirs_net = twin_nets()
    _, ours = qat_pair(pagaie, ours_net, moving_rate=0.9)
    _, theirs = qat_pair(paddle, theirs_net, moving_rate=0.9)
    assert repr(ours) == repr(theirs)
    for step, x in enumerate(BATCHES):
        xo = pagaie.to_tensor(x, stop_gradient=False)
        xt = paddle.to_tensor(x, stop_gradient=False)
        yo, yt = ours(xo), theirs(xt)
        assert_quantized_close(yo, yt, f"step {step} output")
        (yo * yo).sum().backward()
        (yt * yt).sum().backward()
        # (gradients sum over the batch: float32 summation order differs between backends)
        assert_same(xo.grad, xt.grad, rtol=1e-4, atol=1e-5, what=f"step {step} input grad")
        for (n, po), (_, pt) in zip(ours.named_parameters(), theirs.named_parameters()):
            if pt.grad is not None:
                assert_same(po.grad, pt.grad, rtol=1e-4, atol=1e-5, what=f"step {step} grad {n}")
        assert_states(ours, theirs, f"step {step}")
    ours.eval()
    theirs.eval()
    x = BATCHES[1] * 2
    assert_same(ours(pagaie.to_tensor(x)), theirs(paddle.to_tensor(x)), what="eval output")
    assert_states(ours, theirs, "after eval")  # statistics frozen in eval mode


def test_qat_convert_matches_paddle(monkeypatch):
    # Paddle 3.3.1's convert fails on its own fake quanters (zero_points() is None and
    # cannot become a tensor); pagaie reads None as zeros. Compare against Paddle with
    # that one gap filled in.
    paddle = paddle_ref()
    from paddle.quantization.quanters.abs_max import FakeQuanterWithAbsMaxObserverLayer as PQ
    monkeypatch.setattr(PQ, "zero_points", lambda self: paddle.zeros_like(self._scale))
    ours_net, theirs_net = twin_nets()
    qat_o, ours = qat_pair(pagaie, ours_net)
    qat_t, theirs = qat_pair(paddle, theirs_net)
    for x in BATCHES:
        ours(pagaie.to_tensor(x))
        theirs(paddle.to_tensor(x))
    co, ct = qat_o.convert(ours), qat_t.convert(theirs)
    assert repr(co) == repr(ct)
    assert_states(co, ct, "converted")
    co.eval()
    ct.eval()
    for x in BATCHES:
        assert_quantized_close(co(pagaie.to_tensor(x)), ct(paddle.to_tensor(x)), "converted output")
    # the quantized model itself was not changed (inplace=False)
    assert type(ours.fc.weight_quanter).__name__ == "FakeQuanterWithAbsMaxObserverLayer"


def test_ptq_calibration_scales_and_convert_match_paddle():
    paddle = paddle_ref()
    ours_net, theirs_net = twin_nets()
    ptq_o, ours = ptq_pair(pagaie, ours_net)
    ptq_t, theirs = ptq_pair(paddle, theirs_net)
    assert repr(ours) == repr(theirs)
    assert not ours.training
    for x in BATCHES:  # observers pass values through unchanged
        assert_same(ours(pagaie.to_tensor(x)), theirs(paddle.to_tensor(x)), what="calibration")
    for path in ("conv.weight_quanter", "conv.activation_quanter", "relu._observer",
                 "flat._observer", "fc.weight_quanter", "fc.activation_quanter"):
        so = ours
        st = theirs
        for part in path.split("."):
            so, st = getattr(so, part), getattr(st, part)
        assert_same(so.scales(), st.scales(), rtol=1e-6, atol=0, what=f"{path} scale")
        assert_same(so.zero_points(), st.zero_points(), what=f"{path} zero point")
        assert so.bit_length() == st.bit_length() and so.quant_axis() == st.quant_axis()
    co, ct = ptq_o.convert(ours), ptq_t.convert(theirs)
    assert repr(co) == repr(ct)
    assert_states(co, ct, "converted")
    for x in BATCHES + [BATCHES[0] * 10]:
        assert_quantized_close(co(pagaie.to_tensor(x)), ct(paddle.to_tensor(x)), "converted output")
    keep_o = ptq_o.convert(ours, remain_weight=True)
    keep_t = ptq_t.convert(theirs, remain_weight=True)
    assert_states(keep_o, keep_t, "remain_weight")
    assert_same(keep_o(pagaie.to_tensor(BATCHES[0])), keep_t(paddle.to_tensor(BATCHES[0])),
                what="remain_weight output")


def test_config_selection_and_printing_match_paddle():
    paddle = paddle_ref()

    def run(fw):
        net = make_net(fw)
        obs = observers(fw).AbsmaxObserver(quant_bits=4)
        fake = quanters(fw).FakeQuanterWithAbsMaxObserver(moving_rate=0.5)
        cfg = fw.quantization.QuantConfig(activation=None, weight=None)
        cfg.add_type_config(fw.nn.Linear, activation=fake, weight=fake)
        cfg.add_type_config("not a type", activation=fake)  # ignored
        cfg.add_name_config([net.conv.full_name()], weight=obs)
        cfg.add_layer_config(net.relu, activation=obs)
        text = str(cfg).split("Layer type config")[0]
        qat = fw.quantization.QAT(cfg)
        model = qat.quantize(net, inplace=True)
        return text, repr(model), str(qat), model is net, model.conv.activation_quanter

    (t_o, r_o, d_o, same_o, aq_o), (t_t, r_t, d_t, same_t, aq_t) = run(pagaie), run(paddle)
    assert (t_o, r_o, d_o, same_o) == (t_t, r_t, d_t, same_t)
    assert aq_o is None and aq_t is None
    q = quanters(pagaie).FakeQuanterWithAbsMaxObserver(moving_rate=0.5)
    qt = quanters(paddle).FakeQuanterWithAbsMaxObserver(moving_rate=0.5)
    assert str(pagaie.quantization.QuantConfig(q, None)) == str(paddle.quantization.QuantConfig(qt, None))


def test_stub_and_customized_mapping_and_leaf():
    paddle = paddle_ref()

    def run(fw):
        stub_cls = (pagaie.quantization.layers.Stub if fw is pagaie
                    else import_module("paddle.nn.quant").Stub)

        class Block(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.a = fw.nn.Linear(4, 4)
                self.b = fw.nn.Linear(4, 4)

            def forward(self, x):
                return self.b(self.a(x))

        class Net(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.block = Block()
                self.stub = stub_cls()
                self.act = fw.nn.Sigmoid()

            def forward(self, x):
                return self.act(self.stub(self.block(x)))

        class MyQuanted(fw.nn.Layer):
            def __init__(self, layer, q_config):
                super().__init__()
                self.inner = layer

            def forward(self, x):
                return self.inner(x) * 2

        fake = quanters(fw).FakeQuanterWithAbsMaxObserver()
        cfg = fw.quantization.QuantConfig(activation=fake, weight=fake)
        cfg.add_customized_leaf(Block)
        cfg.add_qat_layer_mapping(fw.nn.Sigmoid, MyQuanted)
        return repr(fw.quantization.QAT(cfg).quantize(Net()))

    assert run(pagaie) == run(paddle)


@pytest.mark.parametrize("case", ["source", "target", "qat_eval", "ptq_train", "abstract",
                                  "observer_unused"])
def test_errors_match_paddle(case):
    def fn(fw):
        q = fw.quantization
        cfg = q.QuantConfig(activation=None, weight=None)
        if case == "source":
            cfg.add_qat_layer_mapping(int, fw.nn.Linear)
        elif case == "target":
            cfg.add_qat_layer_mapping(fw.nn.Linear, "QuantedLinear")
        elif case == "qat_eval":
            net = fw.nn.Linear(2, 2)
            net.eval()
            q.QAT(cfg).quantize(net)
        elif case == "ptq_train":
            q.PTQ(cfg).quantize(fw.nn.Linear(2, 2), inplace=True)
        elif case == "abstract":
            q.BaseObserver()
        else:
            observers(fw).AbsmaxObserver()._instance(None).scales()

    same_exception(fn)


def test_quanter_decorator_declares_a_factory(tmp_path, monkeypatch):
    paddle_ref()
    src = (
        "from {fw}.quantization import BaseQuanter, quanter\n"
        "__all__ = []\n"
        "@quanter('ScaleBy')\n"
        "class ScaleByLayer(BaseQuanter):\n"
        "    def __init__(self, layer, factor=2.0):\n"
        "        super().__init__()\n"
        "        self.factor = factor\n"
        "    def forward(self, x):\n"
        "        return x * self.factor\n"
        "    def scales(self): return None\n"
        "    def zero_points(self): return None\n"
        "    def quant_axis(self): return -1\n"
        "    def bit_length(self): return 8\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    results = []
    for fw in ("pagaie", "paddle"):
        (tmp_path / f"user_quanter_{fw}.py").write_text(src.format(fw=fw))
        user = import_module(f"user_quanter_{fw}")
        factory = user.ScaleBy(factor=3.0)
        mod = import_module(fw)
        cfg = mod.quantization.QuantConfig(activation=factory, weight=None)
        qnet = mod.quantization.QAT(cfg).quantize(mod.nn.Sequential(mod.nn.Linear(2, 2)))
        aq = qnet[0].activation_quanter
        results.append((str(factory), user.__all__, type(aq).__name__, aq.factor,
                        float(aq(mod.to_tensor([1.5])).item())))
    assert results[0] == results[1]


def test_fake_quant_op_rounding_and_gradient_match_paddle():
    paddle = paddle_ref()
    from paddle import _C_ops
    from pagaie._ops.quant_ops import fake_quantize_dequantize_moving_average_abs_max as fq
    rng = np.random.default_rng(3)
    for round_type in (0, 1):
        for bits in (4, 8):
            for s in (np.float32(0.0), np.float32(2.3)):
                x = rng.standard_normal(400).astype("float32") * 2
                x[:60] = (np.arange(60) - 30 + 0.5).astype("float32") * np.float32(2.3) / 127
                xt = paddle.to_tensor(x, stop_gradient=False)
                xo = pagaie.to_tensor(x, stop_gradient=False)
                t = _C_ops.fake_quantize_dequantize_moving_average_abs_max(
                    xt, paddle.to_tensor([s]), None, None, 0.9, bits, True, round_type)[0]
                o = fq(xo, pagaie.to_tensor([s]), None, None, 0.9, bits, True, round_type)[0]
                np.testing.assert_array_equal(o.numpy(), t.numpy())
                (t * t).sum().backward()
                (o * o).sum().backward()
                np.testing.assert_array_equal(xo.grad.numpy(), xt.grad.numpy())


def test_linear_quant_ops_match_paddle():
    paddle = paddle_ref()
    from paddle import _legacy_C_ops as L
    from pagaie._ops.quant_ops import dequantize_linear, quantize_linear
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 8)).astype("float32")
    for axis, s in ((-1, np.float32(1.7)), (0, np.abs(x).max(1).astype("float32") * 0.8),
                    (1, np.abs(x).max(0).astype("float32"))):
        for bits, qmax in ((8, 127), (4, 7)):
            attrs = ("quant_axis", axis, "bit_length", bits, "qmin", -qmax - 1, "qmax", qmax)
            zp = np.zeros_like(s)
            qt = L.quantize_linear(paddle.to_tensor(x), paddle.to_tensor(s), paddle.to_tensor(zp),
                                   *attrs)
            qo = quantize_linear(pagaie.to_tensor(x), pagaie.to_tensor(s), pagaie.to_tensor(zp),
                                 axis, bits, -qmax - 1, qmax)
            np.testing.assert_array_equal(qo.numpy(), qt.numpy())
            dt = L.dequantize_linear(qt, paddle.to_tensor(s), paddle.to_tensor(zp), *attrs)
            do = dequantize_linear(qo, pagaie.to_tensor(s), pagaie.to_tensor(zp), axis, bits,
                                   -qmax - 1, qmax)
            np.testing.assert_array_equal(do.numpy(), dt.numpy())


def test_groupwise_observer_and_linear_quanter_match_paddle():
    paddle = paddle_ref()
    from paddle.nn.quant.format import LinearQuanterDequanter as PQDQ
    from pagaie.quantization.format import LinearQuanterDequanter as OQDQ
    w = np.random.default_rng(9).standard_normal((256, 3)).astype("float32")
    ob_t = observers(paddle).GroupWiseWeightObserver(group_size=64)
    ob_o = observers(pagaie).GroupWiseWeightObserver(group_size=64)
    assert str(ob_o) == str(ob_t)
    lt, lo = ob_t._instance(None), ob_o._instance(None)
    lt(paddle.to_tensor(w))
    lo(pagaie.to_tensor(w))
    assert_same(lo.scales(), lt.scales(), rtol=0, atol=0, what="group scales")
    assert_same(lo.zero_points(), lt.zero_points(), what="group zero points")
    qt, qo = PQDQ.from_quanter(lt), OQDQ.from_quanter(lo)
    assert_same(qo._quanter(pagaie.to_tensor(w)), qt._quanter(paddle.to_tensor(w)), what="levels")
    assert_same(qo(pagaie.to_tensor(w)), qt(paddle.to_tensor(w)), what="group qdq")
