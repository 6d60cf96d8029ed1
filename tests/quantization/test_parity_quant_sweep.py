"""Differential sweep of ``paddle.quantization`` against real Paddle 3.3.1.

Small models are quantized in both frameworks with the same weights under several
``QuantConfig`` set-ups (global, weight- or activation-only, per type, per layer, per name,
customized leaves); the printed models, outputs, quanter statistics and state dicts must
agree. PTQ calibrates and converts; observers, quanters, ``LinearQuanter`` /
``LinearDequanter`` and the module paths of Paddle's quantization package are compared too.

Deliberate differences (not compared): Paddle's fake quanter flips its statistics to
``stop_gradient=False`` on the first training step (a side effect of ``assign_out_``), and
Paddle 3.3.1 cannot ``convert`` a QAT model (its quanters have no zero points).
"""
from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def Q(fw, sub):
    return import_module(f"{fw.__name__}.quantization.{sub}")


def fake(fw, **kw):
    return Q(fw, "quanters").FakeQuanterWithAbsMaxObserver(**kw)


def absmax(fw, **kw):
    return Q(fw, "observers").AbsmaxObserver(**kw)


def fmt(fw):
    return import_module(f"{fw.__name__}.nn.quant.format")


def values(v, check_grad_flag=True):
    """Tensors as (dtype, shape, rounded values[, stop_gradient]); recursive."""
    if isinstance(v, (list, tuple)):
        return [values(e, check_grad_flag) for e in v]
    if isinstance(v, dict):
        return sorted((k, values(e, check_grad_flag)) for k, e in v.items())
    if hasattr(v, "numpy") and not isinstance(v, np.ndarray):
        out = (str(v.dtype).split(".")[-1], list(v.shape),
               np.asarray(v.numpy(), dtype="float64").round(4).tolist())
        return out + (v.stop_gradient,) if check_grad_flag else out
    if isinstance(v, str):
        return v.replace("pagaie", "paddle")
    return v


def within_guard(fn):
    """Run ``fn(fw)`` under a fresh unique-name scope, so generated names can be compared."""
    def run(fw):
        with fw.utils.unique_name.guard():
            return fn(fw)
    return run


def net(fw):
    class Inner(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(4, 4)
            self.relu = fw.nn.ReLU()

        def forward(self, x):
            return self.relu(self.fc(x))

    m = fw.nn.Sequential(fw.nn.Linear(4, 4), Inner(),
                         fw.nn.Sequential(fw.nn.Linear(4, 2), fw.nn.Tanh()))
    for i, p in enumerate(m.parameters()):
        p.set_value(np.random.RandomState(i).standard_normal(p.shape).astype("float32"))
    return m


X = [np.random.RandomState(5 + i).standard_normal((3, 4)).astype("float32") * s
     for i, s in enumerate((1.0, 2.0, 0.5))]


def global_cfg(fw, m):
    return fw.quantization.QuantConfig(activation=fake(fw), weight=fake(fw))


def weight_only(fw, m):
    return fw.quantization.QuantConfig(activation=None, weight=fake(fw))


def act_only(fw, m):
    return fw.quantization.QuantConfig(activation=fake(fw, moving_rate=0.5), weight=None)


def by_type(fw, m):
    c = fw.quantization.QuantConfig(activation=None, weight=None)
    c.add_type_config(fw.nn.Linear, activation=fake(fw), weight=fake(fw, bit_length=4))
    return c


def by_layer(fw, m):
    c = fw.quantization.QuantConfig(activation=None, weight=None)
    c.add_layer_config([m[1].fc, m[2][0]], activation=fake(fw, name="aa"), weight=fake(fw))
    return c


def parent_name_none(fw, m):
    c = fw.quantization.QuantConfig(activation=fake(fw), weight=fake(fw))
    c.add_name_config(m[1].full_name(), activation=None, weight=None)
    return c


def customized_leaf(fw, m):
    c = fw.quantization.QuantConfig(activation=None, weight=None)
    c.add_name_config([m[1].full_name()], activation=fake(fw), weight=fake(fw))
    c.add_customized_leaf(type(m[1]))
    return c


def type_list(fw, m):
    c = fw.quantization.QuantConfig(activation=fake(fw), weight=fake(fw))
    c.add_type_config([fw.nn.Tanh, fw.nn.Sequential], activation=absmax(fw), weight=None)
    return c


CONFIGS = [global_cfg, weight_only, act_only, by_type, by_layer, parent_name_none,
           customized_leaf, type_list]


@pytest.mark.parametrize("build", CONFIGS, ids=[c.__name__ for c in CONFIGS])
def test_qat_configs_match_paddle(build):
    def run(fw):
        m = net(fw)
        cfg = build(fw, m)
        qat = fw.quantization.QAT(cfg)
        q = qat.quantize(m)
        printed = [repr(q), str(qat), str(cfg).split("{")[0]]
        outs = []
        for x in X:
            xt = fw.to_tensor(x, stop_gradient=False)
            y = q(xt)
            (y * y).sum().backward()
            outs.append((y, xt.grad))
        q.eval()
        outs.append(q(fw.to_tensor(X[0] * 3)))
        names = [p.name for p in q.parameters()]
        return printed, names, values(outs), values(q.state_dict(), check_grad_flag=False)

    ours, theirs = both(within_guard(run))
    assert values(ours[0]) == theirs[0]
    assert ours[1] == theirs[1]
    _close(ours[2], theirs[2])
    _close(ours[3], theirs[3])


def _close(a, b, path="out"):
    if isinstance(b, list):
        assert isinstance(a, list) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{path}[{i}]")
    elif isinstance(b, float):
        assert abs(a - b) <= 1e-3 * max(1.0, abs(b)), f"{path}: {a} vs {b}"
    else:
        assert a == b, f"{path}: {a} vs {b}"


def test_quantize_details_and_reprs_match_paddle():
    def run(fw):
        c = fw.quantization.QuantConfig(activation=fake(fw), weight=fake(fw))
        qat = fw.quantization.QAT(c)
        before = [str(qat), repr(qat)]
        qat.quantize(net(fw))
        return before + [qat._config.details(), c.details(),
                         str(fw.quantization.QuantConfig(absmax(fw, quant_bits=4),
                                                         fake(fw, name="w", dtype="float64"))),
                         [repr(fake(fw)), str(absmax(fw)),
                          repr(Q(fw, "observers").GroupWiseWeightObserver(quant_bits=4,
                                                                          group_size=64)),
                          repr(fake(fw)._instance(None)), repr(absmax(fw)._instance(None))]]

    ours, theirs = both(run)
    assert values(ours) == theirs


def ptq_model(fw):
    fw.seed(0)
    m = fw.nn.Sequential(fw.nn.Conv2D(1, 2, 3, padding=1), fw.nn.ReLU(), fw.nn.Flatten(),
                         fw.nn.Linear(32, 3), fw.nn.Sigmoid())
    for i, p in enumerate(m.parameters()):
        p.set_value(np.random.RandomState(i).standard_normal(p.shape).astype("float32"))
    m.eval()
    return m


XI = [np.random.RandomState(9 + i).standard_normal((2, 1, 4, 4)).astype("float32") * s
      for i, s in enumerate((1.0, 3.0))]


@pytest.mark.parametrize("remain_weight", [False, True])
@pytest.mark.parametrize("inplace", [False, True])
def test_ptq_calibrate_and_convert_match_paddle(remain_weight, inplace):
    def run(fw):
        m = ptq_model(fw)
        ptq = fw.quantization.PTQ(fw.quantization.QuantConfig(absmax(fw), absmax(fw)))
        q = ptq.quantize(m, inplace=inplace)
        calib = [q(fw.to_tensor(x)) for x in XI]
        scales = [q[0].activation_quanter.scales(), q[0].weight_quanter.scales(),
                  q[0].activation_quanter.zero_points(), q[1]._observer.scales()]
        c = ptq.convert(q, inplace=inplace, remain_weight=remain_weight)
        x = fw.to_tensor(XI[1], stop_gradient=False)
        y = c(x)
        # (the names of deep-copied parameters carry a counter that real Paddle also bumps for
        # plain tensors, so they are compared on the in-place path only)
        names = [p.name for p in c.parameters()] if inplace else None
        return ([repr(q), repr(c), q is m, c is q, names],
                values(calib), values(scales, check_grad_flag=False), values(y),
                values(c.state_dict()))

    ours, theirs = both(within_guard(run))
    assert values(ours[0]) == theirs[0]
    for a, b in zip(ours[1:], theirs[1:]):
        _close(a, b)


def test_converted_steps_carry_no_gradient_like_paddle():
    # Paddle's quantize_linear / dequantize_linear kernels have no gradient: their outputs
    # have stop_gradient=True even for an input that requires gradients.
    def run(fw):
        x = fw.to_tensor([[0.5, -1.3, 2.2]], stop_gradient=False)
        q = fmt(fw).LinearQuanter(2.0, zero_point=0.0)(x)
        d = fmt(fw).LinearDequanter(2.0, zero_point=0.0)(x)
        return q, d

    ours, theirs = both(run)
    assert_same(ours, theirs)
    assert [t.stop_gradient for t in ours] == [t.stop_gradient for t in theirs] == [True, True]


X4 = np.array([[0.5, -1.3, 2.2, 0.01], [3.3, -0.2, 0.7, -2.9]], "float32")
STEPS = {
    "bits4": lambda fw: fmt(fw).LinearQuanter(2.0, zero_point=0.0, bit_length=4)(
        fw.to_tensor(X4)),
    "per_channel": lambda fw: fmt(fw).LinearQuanter(fw.to_tensor([1.0, 2.0, 3.0, 4.0]),
                                                   zero_point=fw.zeros([4]), quant_axis=1)(
        fw.to_tensor(X4)),
    "dequant_axis0": lambda fw: fmt(fw).LinearDequanter([1.0, 4.0], zero_point=[0.0, 0.0],
                                                       quant_axis=0)(fw.to_tensor(X4 * 40)),
    "fp8_e4m3": lambda fw: fmt(fw).LinearQuanter(2.0, zero_point=0.0, bit_length=(4, 3))(
        fw.to_tensor(X4)),
    "fp8_e5m2": lambda fw: fmt(fw).LinearQuanter(2.0, zero_point=0.0, bit_length=(5, 2))(
        fw.to_tensor(X4)),
    "fp8_dequant": lambda fw: fmt(fw).LinearDequanter(2.0, zero_point=0.0, bit_length=(4, 3))(
        fw.to_tensor(X4 * 100)),
    "float64_input": lambda fw: fmt(fw).LinearQuanter(2.0, zero_point=0.0)(
        fw.to_tensor(X4).astype("float64")),
    "fp8_functions": lambda fw: [
        fmt(fw).fake_fp8_quant(fw.to_tensor(X4), fw.to_tensor([1.0, 2.0, 3.0, 4.0]), axis=1),
        fmt(fw).fake_fp8_dequant(fw.to_tensor(X4), fw.to_tensor(2.0), type="e5m2")],
}


@pytest.mark.parametrize("name", sorted(STEPS))
def test_linear_quant_steps_match_paddle(name):
    ours, theirs = both(STEPS[name])
    assert_same(ours, theirs)


@pytest.mark.parametrize("zero_point", [0.0, 1.0])
def test_group_wise_steps_match_paddle(zero_point):
    w = np.random.RandomState(0).standard_normal((128, 3)).astype("float32")
    s = np.abs(w).max(0, keepdims=True)

    def run(fw):
        z = np.full_like(s, zero_point)
        q = fmt(fw).LinearQuanter(s, zero_point=z, group_size=128)(fw.to_tensor(w))
        return q, fmt(fw).LinearDequanter(s, zero_point=z, group_size=128)(q)

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_linear_quanter_attributes_match_paddle():
    def run(fw):
        a = fmt(fw).LinearQuanter(2.0, zero_point=0.0, bit_length=(4, 3))
        b = fmt(fw).LinearQuanter([2.0], zero_point=[0.0], bit_length=6, quant_axis=None)
        return ([a._qmin, a._qmax, a._bit_length, a._quant_axis, a._group_size,
                 [p.name for p in a.parameters()]], [b._qmin, b._qmax, b._bit_length,
                                                      b._quant_axis],
                values([a._scales, a._zero_point, a.in_accum]))

    ours, theirs = both(within_guard(run))
    assert ours == theirs


def observe(batches, dtype="float32", bits=8):
    def run(fw):
        ob = absmax(fw, quant_bits=bits)._instance(None)
        outs = [ob(fw.to_tensor(np.asarray(b, dtype))) for b in batches]
        return (values(outs), values([ob.scales(), ob.zero_points()], check_grad_flag=False),
                ob.bit_length(), ob.quant_axis(), values(ob.abs_max_val), ob._min,
                list(ob.parameters()))
    return run


@pytest.mark.parametrize("batches, dtype, bits", [
    ([[1.0, -3.0], [2.0], [[5.0, -0.5]]], "float32", 8),
    ([[1.0, -3.0]], "float64", 4),
    ([2.5], "float32", 8),
], ids=["batches", "float64", "zero_d"])
def test_absmax_observer_matches_paddle(batches, dtype, bits):
    ours, theirs = both(observe(batches, dtype, bits))
    assert ours == theirs


def test_absmax_observer_scale_is_fixed_on_first_read_like_paddle():
    def run(fw):
        ob = absmax(fw)._instance(None)
        ob(fw.to_tensor([2.0]))
        first = ob.scales()
        ob(fw.to_tensor([5.0]))
        return values([first, ob.scales(), ob._max], check_grad_flag=False)

    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("shape, dtype", [((256, 3), "float32"), ((128, 2), "float64")])
def test_group_wise_observer_matches_paddle(shape, dtype):
    def run(fw):
        ob = Q(fw, "observers").GroupWiseWeightObserver(quant_bits=4)._instance(None)
        w = np.random.RandomState(1).standard_normal(shape).astype(dtype)
        w[:128, 0] = 0
        ob(fw.to_tensor(w))
        return (values([ob.scales(), ob.zero_points(), ob.max_value()], check_grad_flag=False),
                ob.bit_length(), ob.quant_axis(), ob.group_size, ob.min_value())

    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("shape", [(100, 2), (128, 2, 2), (128,)])
def test_group_wise_observer_errors_match_paddle(shape):
    same_exception(lambda fw: Q(fw, "observers").GroupWiseWeightObserver()._instance(None)(
        fw.ones(list(shape))))


@pytest.mark.parametrize("kw", [{}, {"bit_length": 4, "moving_rate": 0.5}, {"name": "myq"}],
                         ids=["default", "bits4", "named"])
@pytest.mark.parametrize("train", [True, False])
def test_fake_quanter_layer_matches_paddle(kw, train):
    def run(fw):
        q = fake(fw, **kw)._instance(None)
        if not train:
            q.eval()
        res = []
        for xv in ([0.3, -1.7, 0.9], [2.5, -0.1], [[0.01, 0.02]]):
            x = fw.to_tensor(xv, stop_gradient=False)
            y = q(x)
            y.sum().backward()
            res.append(values([y, x.grad]) + values([q.scales(), q._state, q._accum],
                                                      check_grad_flag=False))
        return (res, q.bit_length(), q.quant_axis(), q.zero_points(),
                [p.name for p in q.parameters()], [str(p.dtype) for p in q.parameters()])

    ours, theirs = both(within_guard(run))
    assert values(ours) == values(theirs)


@pytest.mark.parametrize("x", [[1, 2], [17]], ids=["int_input", "bits17"])
def test_fake_quanter_errors_match_paddle(x):
    if x == [17]:
        same_exception(lambda fw: fake(fw, bit_length=17)._instance(None)(fw.to_tensor([1.0])))
    else:
        same_exception(lambda fw: fake(fw)._instance(None)(fw.to_tensor(x)))


def test_observe_wrapper_on_output_matches_paddle():
    def run(fw):
        relu = fw.nn.ReLU()
        w = Q(fw, "wrapper").ObserveWrapper(absmax(fw)._instance(relu), relu, observe_input=False)
        y = w(fw.to_tensor([-3.0, 2.0]))
        return values([y, w._observer.scales()], check_grad_flag=False), repr(w)

    ours, theirs = both(run)
    assert ours == theirs


def test_stubs_match_paddle():
    def run(fw):
        class M(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.s1 = fw.nn.quant.Stub(absmax(fw, quant_bits=4))
                self.s2 = fw.nn.quant.Stub()
                self.fc = fw.nn.Linear(2, 2)

            def forward(self, x):
                return self.fc(self.s2(self.s1(x)))

        m = M()
        m.eval()
        ptq = fw.quantization.PTQ(fw.quantization.QuantConfig(absmax(fw), None))
        q = ptq.quantize(m)
        q(fw.to_tensor([[1.0, -4.0]]))
        return (repr(q), q.s1._observer.bit_length(),
                values(q.s2._observer.scales(), check_grad_flag=False), repr(ptq.convert(q)))

    ours, theirs = both(run)
    assert ours == theirs


def test_customized_mapping_matches_paddle():
    def run(fw):
        class MyLin(fw.nn.Layer):
            def __init__(self, layer, cfg):
                super().__init__()
                self.inner = layer
                self.cfg = str(cfg)

            def forward(self, x):
                return self.inner(x) * 2

        c = fw.quantization.QuantConfig(fake(fw), fake(fw))
        c.add_qat_layer_mapping(fw.nn.Linear, MyLin)
        q = fw.quantization.QAT(c).quantize(fw.nn.Sequential(fw.nn.Linear(2, 2), fw.nn.ReLU()))
        return repr(q), q[0].cfg, len(c.qat_layer_mappings), len(c.default_qat_layer_mapping)

    ours, theirs = both(run)
    assert ours == theirs


def train_net(fw):
    return net(fw)


def eval_net(fw):
    m = net(fw)
    m.eval()
    return m


QUANT_ERRORS = {
    "qat_on_eval_model": lambda fw: fw.quantization.QAT(
        fw.quantization.QuantConfig(fake(fw), fake(fw))).quantize(eval_net(fw)),
    "ptq_on_train_model": lambda fw: fw.quantization.PTQ(
        fw.quantization.QuantConfig(absmax(fw), absmax(fw))).quantize(train_net(fw)),
    "ptq_inplace_on_train_model": lambda fw: fw.quantization.PTQ(
        fw.quantization.QuantConfig(absmax(fw), absmax(fw))).quantize(train_net(fw),
                                                                      inplace=True),
    "mapping_source": lambda fw: fw.quantization.QuantConfig(None, None).add_qat_layer_mapping(
        int, fw.nn.Linear),
    "mapping_target": lambda fw: fw.quantization.QuantConfig(None, None).add_qat_layer_mapping(
        fw.nn.Linear, "x"),
    "mapping_instance": lambda fw: fw.quantization.QuantConfig(None, None).add_qat_layer_mapping(
        fw.nn.Linear(2, 2), fw.nn.Linear),
    "layer_config_str": lambda fw: fw.quantization.QuantConfig(None, None).add_layer_config(
        "x", activation=absmax(fw)),
    "base_quanter": lambda fw: fw.quantization.BaseQuanter(),
    "base_observer": lambda fw: fw.quantization.BaseObserver(),
    "fp8_bits": lambda fw: fmt(fw).LinearQuanter(2.0, zero_point=0.0, bit_length=(3, 3)),
    "fp8_type": lambda fw: fmt(fw).fake_fp8_quant(fw.to_tensor(X4), fw.to_tensor(2.0), type="x"),
    "from_none": lambda fw: fmt(fw).LinearQuanterDequanter.from_quanter(None),
    "observer_scales_unseen": lambda fw: absmax(fw)._instance(None).scales(),
    "convert_uncalibrated_layer": lambda fw: fw.quantization.PTQ(fw.quantization.QuantConfig(
        absmax(fw), absmax(fw))).quantize(eval_net(fw))[0]._convert(),
}


@pytest.mark.parametrize("name", sorted(QUANT_ERRORS))
def test_quantization_errors_match_paddle(name):
    same_exception(QUANT_ERRORS[name])


def test_convert_twice_and_uncalibrated_weight_match_paddle():
    def run(fw):
        m = eval_net(fw)
        ptq = fw.quantization.PTQ(fw.quantization.QuantConfig(absmax(fw), absmax(fw)))
        q = ptq.quantize(m)
        q(fw.to_tensor(X[0]))
        layer = q[0]
        layer._convert()
        try:
            layer._convert()
        except AssertionError as exc:
            twice = type(exc).__name__
        c = ptq.convert(q, inplace=True)
        return twice, repr(ptq.convert(c)), c is q

    ours, theirs = both(run)
    assert ours == theirs


MODULES = ["observers.abs_max", "observers.groupwise", "quanters.abs_max", "base_quanter",
           "base_observer", "config", "factory", "qat", "ptq", "quantize", "wrapper"]


@pytest.mark.parametrize("path", MODULES)
def test_module_paths_exist_like_paddle(path):
    paddle_ref()
    ours = import_module(f"pagaie.quantization.{path}")
    theirs = import_module(f"paddle.quantization.{path}")
    public = [n for n, v in vars(theirs).items() if not n.startswith("_")
              and isinstance(v, type) and v.__module__ == theirs.__name__]
    for name in public:
        assert hasattr(ours, name), f"pagaie.quantization.{path} lacks {name}"
    top = pagaie.quantization
    for attr in path.split("."):
        top = getattr(top, attr)  # reachable as attributes, as in Paddle
