"""``paddle.incubate.nn`` (the fused ops Paddle runs on CPU) and ``paddle.incubate.autograd``
against real Paddle 3.3.1."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

warnings.filterwarnings("ignore", module="paddle")
warnings.filterwarnings("ignore", message=".*deprecated.*")
RNG = np.random.default_rng(3)
XA = RNG.standard_normal((2, 3, 8)).astype("float32")
WA = RNG.standard_normal(8).astype("float32")
BA = RNG.standard_normal(8).astype("float32")


def _t(fw, a, sg=True):
    return fw.to_tensor(a, stop_gradient=sg)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("two", [False, True])
def test_swiglu(dtype, two):
    def fn(fw):
        x = _t(fw, XA.astype(dtype), False)
        out = fw.incubate.nn.functional.swiglu(x, x * 2 if two else None)
        out.sum().backward()
        return [out, x.grad]
    assert_same(*both(fn), rtol=1e-5, atol=1e-5)
    same_exception(lambda fw: fw.incubate.nn.functional.swiglu(fw.ones([2, 3])))


@pytest.mark.parametrize("kw", [{}, {"axis": -1}, {"nb": True}, {"res": True},
                                {"res": True, "bias": True}])
def test_fused_rms_norm(kw):
    def fn(fw):
        x, w, b = _t(fw, XA), _t(fw, WA), _t(fw, BA)
        out = fw.incubate.nn.functional.fused_rms_norm(
            x, w, b if kw.get("nb") else None, 1e-5, kw.get("axis", 2),
            bias=b if kw.get("bias") else None, residual=_t(fw, XA * 0.5) if kw.get("res") else None)
        return [out[0], out[1]]
    assert_same(*both(fn), rtol=1e-5, atol=1e-5)


def test_fused_rms_norm_errors():
    same_exception(lambda fw: fw.incubate.nn.functional.fused_rms_norm(
        _t(fw, XA), None, None, 1e-5, 2))
    same_exception(lambda fw: fw.incubate.nn.functional.fused_rms_norm(
        _t(fw, XA), _t(fw, WA), None, 1e-5, 1))


@pytest.mark.parametrize("kw", [{"axis": 1, "flat": True}, {"axis": 2},
                                {"axis": 2, "res": True, "alpha": 2.0},
                                {"axis": 2, "res": True, "bias": True}])
def test_fused_layer_norm(kw):
    def fn(fw):
        x = _t(fw, XA.reshape(6, 8) if kw.get("flat") else XA)
        w, b = _t(fw, WA), _t(fw, BA)
        res = _t(fw, XA * 0.5) if kw.get("res") else None
        out = fw.incubate.nn.functional.fused_layer_norm(
            x, w, b, 1e-5, residual_alpha=kw.get("alpha", 1.0), begin_norm_axis=kw["axis"],
            bias=b if kw.get("bias") else None, residual=res)
        return [out[0], out[2], out[3]] + ([out[1]] if res is not None else [])
    assert_same(*both(fn), rtol=1e-5, atol=1e-5)


def test_fused_linear_without_bias_and_dropout_add():
    w = RNG.standard_normal((8, 5)).astype("float32")
    assert_same(*both(lambda fw: fn_w(fw, w)), rtol=1e-5, atol=1e-5)


def fn_w(fw, w_arr):
    x = _t(fw, XA)
    f = fw.incubate.nn.functional
    return [f.fused_linear(x, _t(fw, w_arr)), f.fused_dropout_add(x, x, p=0.0),
            f.fused_dropout_add(x, x, p=0.5, training=False),
            f.fused_dropout_add(x, x * 3, p=1.0),
            f.fused_dropout_add(x, x, p=0.5, training=False, mode="downscale_in_infer")]


@pytest.mark.parametrize("kw", [{"p": 1.5}, {"p": -0.1}, {"mode": "bad"}])
def test_fused_dropout_add_errors(kw):
    same_exception(lambda fw: fw.incubate.nn.functional.fused_dropout_add(
        _t(fw, XA), _t(fw, XA), **kw))


def test_fused_dropout_add_layer():
    def fn(fw):
        layer = fw.incubate.nn.FusedDropoutAdd(p=0.3)
        layer.eval()
        return [layer(_t(fw, XA), _t(fw, XA)), repr(layer)]
    assert_same(*both(fn))


A_X = np.array([1.0, 2.0, 3.0], dtype="float32")
AUTOGRAD_CASES = {
    "vjp": lambda fw, x: fw.incubate.autograd.vjp(lambda a: a * a, x),
    "vjp_v": lambda fw, x: fw.incubate.autograd.vjp(lambda a: a * a, x, fw.ones([3]) * 2),
    "vjp_multi": lambda fw, x: fw.incubate.autograd.vjp(lambda a, b: (a * b, a + b), [x, x * 2]),
    "jvp": lambda fw, x: fw.incubate.autograd.jvp(lambda a: a.exp(), x),
    "jvp_v": lambda fw, x: fw.incubate.autograd.jvp(lambda a: a * a, x,
                                                    fw.to_tensor([1.0, 0.0, 2.0])),
    "jvp_multi": lambda fw, x: fw.incubate.autograd.jvp(
        lambda a, b: (a * b, a + b), [x, x * 2], [fw.ones([3]), fw.ones([3])]),
    "jacobian": lambda fw, x: fw.incubate.autograd.Jacobian(lambda a: a * a, x)[:],
    "jacobian_row": lambda fw, x: fw.incubate.autograd.Jacobian(lambda a: a * a, x)[0],
    "jacobian_multi": lambda fw, x: fw.incubate.autograd.Jacobian(lambda a, b: a * b, [x, x])[:],
    "jacobian_batched": lambda fw, x: fw.incubate.autograd.Jacobian(
        lambda a: a * a, fw.stack([x, x * 2]), is_batched=True)[:],
    "hessian": lambda fw, x: fw.incubate.autograd.Hessian(lambda a: (a * a * a).sum(), x)[:],
    "hessian_multi": lambda fw, x: fw.incubate.autograd.Hessian(
        lambda a, b: (a * a * b).sum(), [x, x * 2])[:],
    "hessian_batched": lambda fw, x: fw.incubate.autograd.Hessian(
        lambda a: (a * a * a).sum(axis=1, keepdim=True), fw.stack([x, x]), is_batched=True)[:],
}


@pytest.mark.parametrize("case", sorted(AUTOGRAD_CASES))
def test_incubate_autograd(case):
    def fn(fw):
        x = _t(fw, A_X, False)
        out = AUTOGRAD_CASES[case](fw, x)
        flat = out if isinstance(out, (list, tuple)) else [out]
        flat = [t for o in flat for t in (o if isinstance(o, (list, tuple)) else [o])]
        return [t for t in flat] + [[t.stop_gradient for t in flat], x.grad is None]
    assert_same(*both(fn), rtol=1e-5, atol=1e-5)


def test_incubate_autograd_errors():
    same_exception(lambda fw: fw.incubate.autograd.vjp(lambda a: a, [1.0]))
    same_exception(lambda fw: fw.incubate.autograd.vjp(
        lambda a: a, _t(fw, A_X, False), fw.ones([2])))
    same_exception(lambda fw: fw.incubate.autograd.prim_enabled())


@pytest.mark.parametrize("make", [
    lambda fw: fw.incubate.nn.FusedLinear(8, 5),
    lambda fw: fw.incubate.nn.FusedDropout(0.2),
    lambda fw: fw.incubate.nn.FusedFeedForward(8, 16),
    lambda fw: fw.incubate.nn.FusedFeedForward(8, 16, normalize_before=True, activation="gelu"),
    lambda fw: fw.incubate.nn.FusedMultiHeadAttention(8, 2),
    lambda fw: fw.incubate.nn.FusedMultiHeadAttention(8, 2, normalize_before=True),
    lambda fw: fw.incubate.nn.FusedBiasDropoutResidualLayerNorm(8),
    lambda fw: fw.incubate.nn.FusedTransformerEncoderLayer(8, 2, 16),
])
def test_fused_layer_structure(make):
    def fn(fw):
        layer = make(fw)
        params = [(n, list(p.shape), str(p.dtype).replace("paddle.", ""))
                  for n, p in layer.named_parameters()]
        text = repr(layer) if not isinstance(layer, fw.incubate.nn.FusedBiasDropoutResidualLayerNorm) else ""
        return [str(params), text]
    assert_same(*both(fn))
