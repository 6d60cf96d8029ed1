"""Differential checks (session-8 sweep) of parameter naming, unique_name, the legacy
``paddle.nn.initializer.*Initializer`` classes and the weight/spectral-norm utilities against
real Paddle 3.3.1.

Each check runs the same code with ``pagaie`` and with real ``paddle`` inside a fresh
``unique_name.guard()`` (so generated names compare) after ``seed``; where the numbering is
process-wide (``dygraph_tmp_<n>``) the code runs in a fresh interpreter per framework."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception


def _guarded(fn, seed=2024):
    def run(fw):
        with fw.utils.unique_name.guard():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fw.seed(seed)
                return fn(fw)
    return run


def _same(fn, seed=2024):
    ours, theirs = both(_guarded(fn, seed))
    assert ours == theirs, f"\nours:   {ours}\npaddle: {theirs}"
    return ours


def _summary(t) -> list:
    a = np.asarray(t.numpy(), dtype="float64")
    return [str(t.dtype).replace("paddle.", ""), list(t.shape), round(float(a.sum()), 5),
            a.ravel()[:4].round(6).tolist()]


def _sd(layer) -> list:
    return [(k, v.name, list(v.shape), str(v.dtype).replace("paddle.", ""), bool(v.stop_gradient),
             round(float(np.asarray(v.numpy(), dtype="float64").sum()), 5))
            for k, v in layer.state_dict().items()]


# ---- unique_name -------------------------------------------------------------------------------
_FRESH = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
fw = __import__(sys.argv[1])
un = fw.utils.unique_name
out = [un.generate_with_ignorable_key("x"), un.generate_with_ignorable_key("y")]
with un.guard():
    out.append(un.generate_with_ignorable_key("x"))
out.append(fw.to_tensor([1.0]).name)
out.append(un.generate_with_ignorable_key("z"))
print(json.dumps(out))
"""


def _fresh(module: str) -> list:
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    res = subprocess.run([sys.executable, "-c", _FRESH, module], capture_output=True, text=True,
                         timeout=120, env=env, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_generate_with_ignorable_key_is_dygraph_tmp_in_fresh_process():
    paddle_ref()
    theirs = _fresh("paddle")
    assert _fresh("pagaie") == theirs
    assert theirs[0] == "dygraph_tmp_0"


def test_generate_with_ignorable_key_ignores_key_and_guard():
    ref = paddle_ref()
    for fw in (pagaie, ref):
        un = fw.utils.unique_name
        a = un.generate_with_ignorable_key("fc")
        with un.guard("p_"):
            b = un.generate_with_ignorable_key("fc")
        na, nb = (int(x.rsplit("_", 1)[1]) for x in (a, b))
        assert a.startswith("dygraph_tmp_") and b.startswith("dygraph_tmp_") and nb > na, (fw, a, b)


def test_unique_name_generator_methods():
    ref = paddle_ref()

    def get(G):
        g = G("pre_")
        out = [g.generate("a"), g("a"), g.generate("b")]
        c = g.clone()
        out += [c.generate("a"), g.generate("a"), c.prefix, sorted(c.ids.items())]
        out.append(g.generate_with_ignorable_key("k").startswith("dygraph_tmp_"))
        return out
    assert get(pagaie.utils.unique_name.UniqueNameGenerator) == \
        get(ref.base.unique_name.UniqueNameGenerator)


def test_unique_name_switch_returns_generator_and_checker():
    def get(fw):
        un = fw.utils.unique_name
        un.generate("fc")
        old = un.switch()
        a = un.generate("fc")
        back = un.switch(*old)
        return [len(old), a, un.generate("fc"), len(back)]
    _same(get)


def test_generate_non_str_key_raises_type_error():
    same_exception(lambda fw: fw.utils.unique_name.generate(3))


# ---- legacy initializer classes --------------------------------------------------------------
_LEGACY = {
    "ConstantInitializer": lambda I: I.ConstantInitializer(2.5),
    "NormalInitializer": lambda I: I.NormalInitializer(0.5, 2.0),
    "TruncatedNormalInitializer": lambda I: I.TruncatedNormalInitializer(0.0, 2.0, a=-1.0, b=3.0),
    "UniformInitializer": lambda I: I.UniformInitializer(-2.0, 0.5),
    "UniformInitializer_diag": lambda I: I.UniformInitializer(0.0, 0.5, diag_num=3, diag_step=4),
    "XavierInitializer": lambda I: I.XavierInitializer(),
    "XavierInitializer_normal": lambda I: I.XavierInitializer(uniform=False, fan_in=3, gain=2.0),
    "MSRAInitializer": lambda I: I.MSRAInitializer(),
    "MSRAInitializer_normal": lambda I: I.MSRAInitializer(uniform=False, mode="fan_out",
                                                           negative_slope=0.1, nonlinearity="leaky_relu"),
    "NumpyArrayInitializer": lambda I: I.NumpyArrayInitializer(np.arange(12.0).reshape(3, 4)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", sorted(_LEGACY))
def test_legacy_initializer_values(case, dtype):
    def get(fw):
        init = _LEGACY[case](fw.nn.initializer)
        p = fw.create_parameter([4, 4] if case.endswith("diag") else [3, 4], dtype,
                                default_initializer=init)
        return _summary(p) + _summary(fw.rand([2]))   # and the random stream afterwards
    _same(get)


@pytest.mark.parametrize("case", ["NormalInitializer", "TruncatedNormalInitializer",
                                  "UniformInitializer", "XavierInitializer", "MSRAInitializer"])
def test_legacy_initializer_own_seed(case):
    def get(fw):
        init = getattr(fw.nn.initializer, case)(seed=9)
        a = fw.create_parameter([5, 3], "float32", default_initializer=init)
        b = fw.create_parameter([5, 3], "float32", default_initializer=init)
        return _summary(a) + _summary(b) + _summary(fw.rand([2]))
    _same(get, seed=11)


def test_legacy_initializer_via_param_attr():
    def get(fw):
        I = fw.nn.initializer
        fc = fw.nn.Linear(3, 4, weight_attr=fw.ParamAttr(initializer=I.MSRAInitializer(uniform=False)),
                          bias_attr=I.NormalInitializer(1.0, 0.1))
        return _sd(fc)
    _same(get)


def test_initializer_class_hierarchy():
    def get(fw):
        I = fw.nn.initializer
        objs = [I.Constant(), I.Normal(), I.Uniform(), I.TruncatedNormal(), I.XavierNormal(),
                I.XavierUniform(), I.KaimingNormal(), I.KaimingUniform(), I.Assign([1.0]),
                I.Orthogonal(), I.Dirac(), I.Bilinear()]
        legacy = [I.ConstantInitializer, I.NormalInitializer, I.UniformInitializer,
                  I.TruncatedNormalInitializer, I.XavierInitializer, I.MSRAInitializer,
                  I.NumpyArrayInitializer]
        return [[c.__name__ for c in type(o).__mro__[:-1]] for o in objs] + \
            [[isinstance(o, c) for c in legacy] for o in objs]
    _same(get)


@pytest.mark.parametrize("call", [
    lambda I: I.ConstantInitializer(None),
    lambda I: I.NormalInitializer(None),
    lambda I: I.NormalInitializer(0.0, None),
    lambda I: I.TruncatedNormalInitializer(seed=None),
    lambda I: I.UniformInitializer(2.0, 1.0),
    lambda I: I.UniformInitializer(diag_num=1),
    lambda I: I.UniformInitializer(diag_step=2),
    lambda I: I.XavierInitializer(None),
    lambda I: I.MSRAInitializer(mode="fan"),
    lambda I: I.MSRAInitializer(fan_in=3, mode="fan_out"),
    lambda I: I.NumpyArrayInitializer([1.0, 2.0]),
    lambda I: I.Normal(1 + 2j),
])
def test_legacy_initializer_bad_arguments(call):
    same_exception(lambda fw: call(fw.nn.initializer))


def test_normal_complex_mean_with_equal_parts():
    _same(lambda fw: _summary(fw.create_parameter([3], "float32",
                                                  default_initializer=fw.nn.initializer.Normal(1 + 1j))))


# ---- weight_norm / spectral_norm: names, values and the random stream ---------------------------
def test_weight_norm_parameters_are_new_layer_parameters():
    def get(fw):
        fc = fw.nn.utils.weight_norm(fw.nn.Linear(3, 4))
        out = [_sd(fc), _summary(fw.rand([2]))]
        out.append(np.round(fc(fw.ones([2, 3])).numpy(), 5).tolist())
        fw.nn.utils.remove_weight_norm(fc)
        out += [_sd(fc), _summary(fw.rand([2]))]
        return out
    _same(get)


@pytest.mark.parametrize("dim", [None, 1, -1])
def test_weight_norm_conv_dims(dim):
    def get(fw):
        conv = fw.nn.utils.weight_norm(fw.nn.Conv2D(2, 3, 2, bias_attr=False), dim=dim)
        return [_sd(conv), _summary(fw.rand([2]))]
    _same(get)


def test_weight_norm_float64_default_dtype():
    def get(fw):
        fw.set_default_dtype("float64")
        try:
            fc = fw.nn.utils.weight_norm(fw.nn.Linear(3, 4), dim=1)
        finally:
            fw.set_default_dtype("float32")
        return [_sd(fc), _summary(fw.rand([2]))]
    _same(get)


def test_spectral_norm_keeps_the_original_parameter():
    def get(fw):
        fc = fw.nn.Linear(3, 4)
        w = fc.weight
        fw.nn.utils.spectral_norm(fc)
        params = [(k, v.name, v is w) for k, v in fc.named_parameters()]
        y = fc(fw.ones([2, 3]))
        return [params, np.round(y.numpy(), 5).tolist(), list(fc.state_dict())]
    _same(get)


def test_spectral_norm_weight_is_in_the_graph_before_the_first_forward():
    def get(fw):
        fc = fw.nn.utils.spectral_norm(fw.nn.Linear(3, 2))
        w = fc.weight
        return [type(w).__name__ == "Tensor", bool(w.stop_gradient), _summary(w)]
    _same(get)


@pytest.mark.parametrize("call", [
    lambda fw: fw.nn.utils.parameters_to_vector([]),
    lambda fw: fw.nn.utils.parameters_to_vector(fw.ones([2])),
])
def test_parameters_to_vector_bad_input(call):
    same_exception(call)


# ---- integer parameters ------------------------------------------------------------------------
def test_integer_parameter_is_trainable_with_stop_gradient_false():
    def get(fw):
        I = fw.nn.initializer
        p = fw.create_parameter([2], "int32", default_initializer=I.Constant(1))
        b = fw.create_parameter([2], "int8", is_bias=True)
        f = fw.create_parameter([2], "int32", attr=fw.ParamAttr(trainable=False),
                                default_initializer=I.Constant(1))
        out = [(p.trainable, p.stop_gradient), (b.trainable, b.stop_gradient),
               (f.trainable, f.stop_gradient)]
        p.trainable = False
        out.append(p.stop_gradient)
        p.stop_gradient = False
        out.append(p.trainable)
        return out
    _same(get)


# ---- batch norm keeps float32 parameters in float16 models ---------------------------------------
@pytest.mark.parametrize("default", ["float16", "bfloat16", "float64"])
def test_batch_norm_parameter_dtypes_under_default_dtype(default):
    def get(fw):
        fw.set_default_dtype(default)
        try:
            nn = fw.nn
            layers = [nn.BatchNorm1D(2), nn.BatchNorm2D(2), nn.BatchNorm3D(2), nn.SyncBatchNorm(2),
                      nn.BatchNorm(2), nn.InstanceNorm2D(2), nn.GroupNorm(1, 2), nn.LayerNorm(2)]
        finally:
            fw.set_default_dtype("float32")
        return [[str(v.dtype) for v in m.state_dict().values()] for m in layers]
    _same(get)


@pytest.mark.parametrize("dtype", ["float16", "float64", "bfloat16"])
def test_legacy_batch_norm_dtype_argument(dtype):
    _same(lambda fw: [str(v.dtype) for v in fw.nn.BatchNorm(2, dtype=dtype).state_dict().values()])


def test_batch_norm_float16_input_with_float32_statistics():
    fw = pagaie
    fw.set_default_dtype("float16")
    try:
        bn = fw.nn.BatchNorm2D(2)
    finally:
        fw.set_default_dtype("float32")
    x = fw.to_tensor(np.arange(16.0).reshape(2, 2, 2, 2), dtype="float16")
    with pytest.raises(RuntimeError):   # Paddle's CPU batch_norm kernel has no float16
        bn(x)
    from pagaie._ops._helpers import cpu_as_gpu
    with cpu_as_gpu():   # as on a GPU, whose kernel takes float16
        y = bn(x)
    assert str(y.dtype) == "paddle.float16" and str(bn._mean.dtype) == "paddle.float32"
    np.testing.assert_allclose(bn._mean.numpy(), [0.55, 0.95], rtol=1e-6)
