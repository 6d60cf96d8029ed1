"""paddle.compat (functions, result types, proxy switches, compat.nn), paddle.functional,
paddle.random, paddle.nn.modules, paddle.library and paddle.device.xpu, against Paddle 3.3.1."""
from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

X = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], dtype=np.float32)


def _mod(p, name):
    base = "pagaie" if p is pagaie else "paddle"
    return importlib.import_module(f"{base}.{name}")


# ------------------------------------------------------------------------- paddle.compat
@pytest.mark.parametrize("call", [
    lambda p, x: p.compat.split(x, 2, dim=1),
    lambda p, x: p.compat.split(x, [1, 2], 1),
    lambda p, x: p.compat.split(x, 1),
    lambda p, x: list(p.compat.sort(x, dim=1, descending=True)),
    lambda p, x: list(p.compat.sort(x, 0, stable=True)),
    lambda p, x: p.compat.min(x),
    lambda p, x: list(p.compat.min(x, 1)),
    lambda p, x: list(p.compat.max(x, dim=0, keepdim=True)),
    lambda p, x: list(p.compat.max(x, 1, True)),
    lambda p, x: p.compat.max(x, p.ones([2, 3])),
    lambda p, x: p.compat.min(x, other=p.ones([2, 3])),
    lambda p, x: p.compat.median(x),
    lambda p, x: list(p.compat.median(x, 1)),
    lambda p, x: list(p.compat.nanmedian(x, 0, keepdim=True)),
    lambda p, x: p.compat.median(p.to_tensor([1.0, 2.0, 3.0, 4.0])),
    lambda p, x: p.compat.nanmedian(p.to_tensor([1.0, float("nan"), 3.0, 4.0])),
    lambda p, x: list(p.compat.slogdet(p.to_tensor([[2.0, 0.0], [0.0, -3.0]]))),
    lambda p, x: list(p.compat.slogdet(p.zeros([3, 2, 2]))),
    lambda p, x: p.compat.unique(p.to_tensor([3, 1, 3, 2])),
    lambda p, x: list(p.compat.unique(p.to_tensor([3, 1, 3, 2]), return_inverse=True,
                                      return_counts=True)),
    lambda p, x: list(p.compat.unique(p.to_tensor([[1, 2], [1, 2], [0, 1]]), dim=0,
                                      return_counts=True)),
])
def test_compat_functions(call):
    assert_same(*both(lambda p: call(p, p.to_tensor(X))))


def test_compat_result_types():
    ref = paddle_ref()
    for name in ("MinMaxRetType", "SortRetType", "MedianRetType", "SlogdetResult"):
        ours, theirs = getattr(pagaie.compat, name), getattr(ref.compat, name)
        assert ours._fields == theirs._fields
    r = pagaie.compat.max(pagaie.to_tensor(X), 1)
    assert isinstance(r, pagaie.compat.MinMaxRetType) and r.indices.dtype == pagaie.int64
    assert type(pagaie.compat.sort(pagaie.to_tensor(X))).__name__ == "SortRetType"
    assert sorted(pagaie.compat.__all__) == sorted(ref.compat.__all__)


def test_compat_equal():
    for a, b in [([1, 2], [1.0, 2.0]), ([1, 2], [1, 3]), ([1, 2], [1, 2, 3]), ([True], [1]),
                 ([float("nan")], [float("nan")])]:
        ours, theirs = both(lambda p: p.compat.equal(p.to_tensor(a), p.to_tensor(b)))
        assert ours is theirs


def test_compat_out_arguments():
    x = pagaie.to_tensor(X)
    vals, idx = pagaie.zeros([2]), pagaie.zeros([2], dtype="int64")
    r = pagaie.compat.min(x, 1, out=(vals, idx))
    assert vals.tolist() == [1.0, 0.0] and idx.tolist() == [1, 0] and r.values.tolist() == [1.0, 0.0]
    out = pagaie.zeros([])
    assert pagaie.compat.median(x, out=out) is out and out.item() == 2.0
    sv, si = pagaie.zeros([2, 3]), pagaie.zeros([2, 3], dtype="int64")
    pagaie.compat.sort(x, out=[sv, si])
    assert sv.tolist() == [[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]]


def test_compat_min_max_gradient_goes_to_index():
    x = pagaie.to_tensor([[1.0, 1.0, 3.0]], stop_gradient=False)
    pagaie.compat.min(x, 1).values.sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 0.0]]


@pytest.mark.parametrize("call", [
    lambda p, x: p.compat.split(x, 2, axis=1),
    lambda p, x: p.compat.split(x, 2, dim=5),
    lambda p, x: p.compat.split(x, [-1, 3]),
    lambda p, x: p.compat.split(x, 2.5),
    lambda p, x: p.compat.split(x, 0),
    lambda p, x: p.compat.min(x, axis=1),
    lambda p, x: p.compat.max(x, 1, True, 3),
    lambda p, x: p.compat.max(x, None),
    lambda p, x: p.compat.min(x, 1.5),
    lambda p, x: p.compat.min(x, keepdim=True),
    lambda p, x: p.compat.max(x, other=3),
    lambda p, x: p.compat.max(x, 1, out=p.zeros([2])),
    lambda p, x: p.compat.max([1, 2]),
    lambda p, x: p.compat.sort(x, axis=0),
    lambda p, x: p.compat.sort(x, out=p.zeros([2, 3])),
    lambda p, x: p.compat.median(x, axis=0),
    lambda p, x: p.compat.median(x, 0, out=p.zeros([3])),
    lambda p, x: p.compat.nanmedian(x=x),
    lambda p, x: p.compat.unique(x, axis=0),
    lambda p, x: p.compat.equal(x=x, y=x),
])
def test_compat_errors(call):
    same_exception(lambda p: call(p, p.to_tensor(X)))


def test_compat_integral_input_must_stop_gradient():
    same_exception(lambda p: p.compat.max(p.to_tensor([1, 2], stop_gradient=False), 0))


def test_compat_seed_and_random_initial_seed():
    random = importlib.import_module("pagaie.random")
    s = pagaie.compat.seed()
    assert isinstance(s, int) and random.initial_seed() == s
    a = pagaie.rand([3])
    pagaie.seed(s)
    assert pagaie.rand([3]).tolist() == a.tolist()
    ref = paddle_ref()
    ref.seed(1234)
    pagaie.seed(1234)
    assert random.initial_seed() == importlib.import_module("paddle.random").initial_seed() == 1234


def test_compat_torch_proxy_switches():
    with pytest.raises(NotImplementedError, match="enable_compat"):
        pagaie.compat.enable_torch_proxy()
    with pytest.raises(ValueError):
        pagaie.compat.enable_torch_proxy(backend="jax")
    assert pagaie.compat.enable_compat is pagaie.compat.enable_torch_proxy
    with pytest.warns(UserWarning, match="not installed"):
        pagaie.compat.disable_torch_proxy()
    with pagaie.compat.use_torch_proxy_guard(enable=False):
        import torch
        assert torch.__name__ == "torch"
    with pytest.raises(NotImplementedError):
        with pagaie.compat.use_torch_proxy_guard():
            pass
    pagaie.compat.extend_torch_proxy_blocked_modules(["my_ext", "other_ext"])
    assert {"my_ext", "other_ext", "tvm_ffi"} <= pagaie.compat.proxy.blocked_modules()
    with pytest.raises(TypeError):
        pagaie.compat.extend_torch_proxy_blocked_modules([1])


# ---------------------------------------------------------------------- paddle.compat.nn
def test_compat_nn_names():
    ref = paddle_ref()
    assert sorted(pagaie.compat.nn.__all__) == sorted(ref.compat.nn.__all__)
    assert sorted(pagaie.compat.nn.functional.__all__) == sorted(ref.compat.nn.functional.__all__)
    assert pagaie.compat.nn.AvgPool2d is pagaie.compat.nn.AvgPool2D


@pytest.mark.parametrize("call", [
    lambda p, x: p.compat.nn.functional.pad(x, (1, 1)),
    lambda p, x: p.compat.nn.functional.pad(x.reshape([2, 4]), [1, 2, 0, 1], value=2.0),
    lambda p, x: p.compat.nn.functional.pad(x.reshape([1, 2, 4]), (1, 1, 1, 1, 1, 1)),
    lambda p, x: p.compat.nn.functional.pad(x.reshape([1, 2, 4]), (1, 2), mode="reflect"),
    lambda p, x: p.compat.nn.functional.pad(x.reshape([1, 1, 2, 4]), (1, 1, 1, 0),
                                            mode="replicate"),
    lambda p, x: p.compat.nn.functional.pad(x.reshape([1, 2, 4]), (1, 2), mode="circular"),
    lambda p, x: p.compat.nn.functional.pad(x.reshape([2, 4]), (2, 1), mode="reflect"),
    lambda p, x: p.compat.nn.functional.pad(x.reshape([1, 1, 2, 2, 2]), (1, 0, 0, 1, 1, 1),
                                            mode="replicate"),
    lambda p, x: p.compat.nn.functional.linear(x.reshape([2, 4]), x.reshape([2, 4]),
                                               p.to_tensor([1.0, -1.0])),
    lambda p, x: p.compat.nn.functional.linear(x.reshape([4, 2]), x.reshape([4, 2])),
    lambda p, x: p.compat.nn.functional.unfold(x.reshape([1, 2, 2, 2]), 2, padding=1),
    lambda p, x: p.compat.nn.functional.unfold(x.reshape([1, 1, 2, 4]), [1, 2], stride=[1, 2]),
    lambda p, x: p.compat.nn.functional.scaled_dot_product_attention(
        x.reshape([1, 2, 2, 2]), x.reshape([1, 2, 2, 2]) / 8, x.reshape([1, 2, 2, 2]),
        is_causal=True),
    lambda p, x: p.compat.nn.functional.scaled_dot_product_attention(
        x.reshape([1, 2, 2, 2]), x.reshape([1, 2, 2, 2]) / 8, x.reshape([1, 2, 2, 2]),
        attn_mask=p.to_tensor([[True, False], [True, True]]), scale=0.3),
    lambda p, x: p.compat.nn.AvgPool1D(2)(x.reshape([1, 1, 8])),
    lambda p, x: p.compat.nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False,
                                       ceil_mode=True)(x.reshape([1, 1, 8])),
    lambda p, x: p.compat.nn.AvgPool2D(2, stride=1, padding=1)(x.reshape([1, 2, 2, 2])),
    lambda p, x: p.compat.nn.AvgPool2d(2, divisor_override=3)(x.reshape([1, 1, 2, 4])),
    lambda p, x: p.compat.nn.AvgPool3D(2, padding=1, count_include_pad=False)(
        x.reshape([1, 1, 2, 2, 2])),
    lambda p, x: p.compat.nn.Unfold(2, padding=1)(x.reshape([1, 2, 2, 2])),
])
def test_compat_nn_values(call):
    x = np.arange(8, dtype=np.float32) - 3.0
    assert_same(*both(lambda p: call(p, p.to_tensor(x))))


def test_compat_nn_layer_reprs():
    for make in (lambda p: p.compat.nn.AvgPool1D(3), lambda p: p.compat.nn.AvgPool2D(3, 1),
                 lambda p: p.compat.nn.AvgPool3d(2, stride=1, padding=1),
                 lambda p: p.compat.nn.Unfold(2), lambda p: p.compat.nn.Linear(3, 2)):
        ours, theirs = both(make)
        assert repr(ours) == repr(theirs)


def test_compat_nn_linear():
    layer = pagaie.compat.nn.Linear(50, 4)
    assert layer.weight.shape == [4, 50] and layer.bias.shape == [4]
    bound = 1 / 50 ** 0.5
    assert float(layer.weight.abs().max()) <= bound and float(layer.bias.abs().max()) <= bound
    x = pagaie.randn([3, 50])
    expect = x.numpy() @ layer.weight.numpy().T + layer.bias.numpy()
    np.testing.assert_allclose(layer(x).numpy(), expect, rtol=1e-5, atol=1e-5)
    assert pagaie.compat.nn.Linear(2, 2, bias=False, dtype="float64").weight.dtype == pagaie.float64


@pytest.mark.parametrize("call", [
    lambda p: p.compat.nn.Linear(3, 2, weight_attr=None),
    lambda p: p.compat.nn.Unfold(kernel_sizes=2),
    lambda p: p.compat.nn.AvgPool2D(2, exclusive=True),
    lambda p: p.compat.nn.AvgPool1D(2, name="a"),
    lambda p: p.compat.nn.functional.linear(x=p.ones([2, 3]), weight=p.ones([4, 3])),
    lambda p: p.compat.nn.functional.pad(p.ones([2, 3]), [1, 1], mode="edge"),
    lambda p: p.compat.nn.functional.pad(p.ones([3]), [1, 1], mode="reflect"),
    lambda p: p.compat.nn.functional.pad(p.ones([2, 3]), [1, 1], data_format="NCL"),
    lambda p: p.compat.nn.functional.unfold(p.ones([1, 1, 3, 3]), kernel_sizes=2),
    lambda p: p.compat.nn.functional.scaled_dot_product_attention(
        p.ones([1, 1, 2, 2]), p.ones([1, 1, 2, 2]), p.ones([1, 1, 2, 2]),
        attn_mask=p.ones([2, 2]), is_causal=True),
])
def test_compat_nn_errors(call):
    same_exception(call)


def test_compat_multihead_attention_shapes():
    mha = pagaie.compat.nn.MultiheadAttention(4, 2)
    out, weights = mha(pagaie.rand([3, 2, 4]), pagaie.rand([5, 2, 4]), pagaie.rand([5, 2, 4]))
    assert out.shape == [3, 2, 4] and weights.shape == [2, 3, 5]


# -------------------------------------------------------- functional, random, nn.modules
def test_functional_namespace():
    ref = paddle_ref()
    ours_f, theirs_f = _mod(pagaie, "functional"), _mod(ref, "functional")
    assert sorted(ours_f.__all__) == sorted(theirs_f.__all__)
    for name in ours_f.__all__:
        same_obj_in_paddle = getattr(theirs_f, name) is getattr(ref, name, None)
        assert (getattr(ours_f, name) is getattr(pagaie, name, None)) == same_obj_in_paddle, name
    assert ours_f.split is pagaie.compat.split
    assert_same(*both(lambda p: _mod(p, "functional").split(p.arange(7), 3)))
    assert_same(*both(lambda p: _mod(p, "functional").broadcast_shapes([2, 1], [3])))


def test_nn_modules_namespace():
    modules = importlib.import_module("pagaie.nn.modules")
    container = importlib.import_module("pagaie.nn.modules.container")
    module = importlib.import_module("pagaie.nn.modules.module")
    assert modules.Module is module.Module is pagaie.nn.Layer
    assert container.ModuleList is pagaie.nn.LayerList
    assert container.ModuleDict is pagaie.nn.LayerDict
    ref = paddle_ref()
    theirs = importlib.import_module("paddle.nn.modules")
    assert {n for n in dir(theirs) if not n.startswith("_")} <= set(dir(modules))


# ----------------------------------------------------------------------- paddle.library
def test_library_custom_op_eager_and_static():
    library = importlib.import_module("pagaie.library")

    def scaled_relu(x):
        return pagaie.nn.functional.relu(x) * 3

    op = library.custom_op("s5test::scaled_relu", scaled_relu, mutates_args=())
    assert repr(op) == "<CustomOpDef(s5test::scaled_relu)>" and op._qualname == "s5test::scaled_relu"
    x = pagaie.to_tensor([-1.0, 2.0], stop_gradient=False)
    y = library.ops.s5test.scaled_relu(x)
    assert y.tolist() == [0.0, 6.0]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 3.0]
    assert library.ops.s5test.scaled_relu.default is scaled_relu
    static_fn = pagaie.jit.to_static(lambda t: library.ops.s5test.scaled_relu(t) + 1)
    assert static_fn(pagaie.to_tensor([-2.0, 1.0])).tolist() == [1.0, 4.0]
    with pytest.raises(TypeError):
        op(x)   # a CustomOpDef is not callable, as in Paddle


def test_library_errors_and_warnings():
    library = importlib.import_module("pagaie.library")
    ref = paddle_ref()
    ref_lib = importlib.import_module("paddle.library")

    @library.custom_op("s5test::dup", mutates_args=())
    def dup(x):
        return x
    ref_lib.custom_op("s5test_ref::dup", lambda x: x, mutates_args=())
    with pytest.raises(ValueError):
        library.custom_op("s5test::dup", lambda x: x, mutates_args=())
    with pytest.raises(ValueError):
        ref_lib.custom_op("s5test_ref::dup", lambda x: x, mutates_args=())
    for lib in (library, ref_lib):
        with pytest.raises(AssertionError):
            lib.custom_op("no_namespace", lambda x: x, mutates_args=())
        with pytest.raises(TypeError):
            lib.custom_op("s5test::nomut", lambda x: x)
        with pytest.warns(UserWarning, match="register_fake"):
            assert lib.register_fake("s5test::dup", len) is len
        with pytest.warns(UserWarning, match="schema"):
            lib.custom_op(f"s5test_{lib.__name__[:5]}::sch", lambda x: x, mutates_args=(),
                          schema="(Tensor x) -> Tensor")
    with pytest.raises(RuntimeError):
        library.ops.s5test.missing(pagaie.ones([1]))
    with pytest.raises(RuntimeError):
        ref.ops.s5test_ref.missing(ref.ones([1]))
    with pytest.raises(AttributeError):
        library.ops.s5test.dup.overload_x
    with pytest.raises(NotImplementedError):
        library.ops.load_library("/nonexistent/lib.so")


# -------------------------------------------------------------------- paddle.device.xpu
def test_device_xpu_matches_cpu_build():
    ref = paddle_ref()
    xpu = importlib.import_module("pagaie.device.xpu")
    theirs = importlib.import_module("paddle.device.xpu")
    assert sorted(xpu.__all__) == sorted(theirs.__all__)
    assert xpu.device_count() == theirs.device_count() == 0
    for name in ("set_debug_level", "empty_cache", "max_memory_allocated", "max_memory_reserved",
                 "reset_max_memory_allocated", "reset_max_memory_reserved", "memory_allocated",
                 "memory_reserved", "memory_total", "memory_used", "Stream", "Event",
                 "current_stream", "create_stream", "create_event"):
        same_exception(lambda p, n=name: getattr(_mod(p, "device.xpu"), n)())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_exception(lambda p: _mod(p, "device.xpu").synchronize())
    same_exception(lambda p: _mod(p, "device.xpu").set_rng_state(None, "cpu"))
    xpu.manual_seed(5)
    state = xpu.get_rng_state("cpu")
    a = pagaie.rand([2], dtype="float32")
    xpu.set_rng_state(state, "cpu")
    assert pagaie.rand([2]).tolist() == a.tolist()
