"""Namespaces Paddle's own doc examples use: ``paddle.tensor``, ``paddle.base``, ``paddle.cuda``,
``paddle.nn.loss``, ``paddle.compat.nn``, the ``paddle.distribution.<module>`` and
``paddle.distributed.fleet.base`` module paths, ``Parameter.initialize`` and
``Tensor._is_shared_buffer_with``; compared with real Paddle where it runs on CPU."""
from __future__ import annotations

import importlib
import types

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

TENSOR_SUBMODULES = ("array", "attribute", "creation", "einsum", "linalg", "logic", "manipulation",
                     "math", "ops", "random", "search", "stat", "to_string")


# ----------------------------------------------------------------------------- paddle.tensor
def test_tensor_namespace_is_a_real_callable_package():
    assert isinstance(pagaie.tensor, types.ModuleType)
    for sub in TENSOR_SUBMODULES:
        mod = importlib.import_module(f"pagaie.tensor.{sub}")
        assert getattr(pagaie.tensor, sub) is mod
    assert pagaie.tensor.math.add is pagaie.add
    assert pagaie.tensor.triu is pagaie.triu
    assert pagaie.tensor.linalg.svd is pagaie.linalg.svd


@pytest.mark.parametrize("sub", TENSOR_SUBMODULES)
def test_tensor_submodule_names_exist_in_paddle(sub):
    ref = paddle_ref()
    theirs = importlib.import_module(f"paddle.tensor.{sub}")
    ours = importlib.import_module(f"pagaie.tensor.{sub}")
    assert ours.__all__, sub
    missing = [n for n in ours.__all__ if not hasattr(theirs, n)]
    assert not missing, f"names Paddle's paddle.tensor.{sub} lacks: {missing}"
    assert ref is not None


def test_tensor_namespace_ops_match_paddle():
    def run(p):
        x = p.arange(1, 13, dtype="int64").reshape([3, -1])
        f = p.to_tensor([[1.0, 2.0, 3.0, 4.0]])
        return [p.tensor.triu(x), p.tensor.triu(x, diagonal=-1), p.tensor.search.argwhere(x > 5),
                *p.tensor.math.frexp(f), p.tensor.pow(f, p.to_tensor(2.0)),
                p.tensor.manipulation.flatten(x), p.tensor.stat.mean(f)]
    assert_same(*both(run))


def test_tensor_call_is_as_tensor():
    def run(p):
        a = p.tensor(1, requires_grad=True)
        b = p.tensor([[0.1, 0.2], [0.3, 0.4]], device=p.CPUPlace(), requires_grad=True)
        c = p.tensor([[1 + 1j, 2], [3 + 2j, 4]], dtype="complex64")
        return a, b, c, [a.stop_gradient, b.stop_gradient, c.stop_gradient]
    ours, theirs = both(run)
    assert_same(ours[:3], theirs[:3])
    assert ours[3] == theirs[3]
    assert isinstance(ours[0], pagaie.Tensor)


# ----------------------------------------------------------------------------- paddle.base
def test_base_flags_and_modes():
    def run(p):
        p.base.set_flags({"FLAGS_use_stride_kernel": True})
        return (p.base.get_flags("FLAGS_use_stride_kernel"), p.base.in_dygraph_mode(),
                p.base.framework.in_dygraph_mode(), p.base.dygraph.enabled(),
                p.base.framework.in_pir_mode(), p.base.framework.in_dynamic_or_pir_mode())
    ours, theirs = both(run)
    assert ours == theirs


def test_base_modes_in_static_mode():
    def run(p):
        p.enable_static()
        try:
            out = [p.base.framework.in_dygraph_mode(), p.base.framework.in_pir_mode(),
                   p.base.framework.in_dynamic_or_pir_mode()]
            with p.base.dygraph.guard():
                out.append(p.base.dygraph.enabled())
                out.append(float(p.to_tensor(np.arange(3.0)).sum()))
            out.append(p.in_dynamic_mode())
        finally:
            p.disable_static()
        return out
    ours, theirs = both(run)
    assert ours == theirs


def test_base_dygraph_guard_set_value():
    def run(p):
        data = np.ones([3, 8], dtype="float32")
        with p.base.dygraph.guard():
            p.seed(1)
            linear = p.nn.Linear(8, 2)
            weight = np.arange(16, dtype="float32").reshape([8, 2]) / 10
            linear.weight.set_value(weight)
            linear.bias.set_value(np.zeros([2], "float32"))
            return linear(p.to_tensor(data))
    assert_same(*both(run))


def test_base_aliases():
    b = pagaie.base
    assert b.Program is pagaie.static.Program and b.Executor is pagaie.static.Executor
    assert b.CPUPlace is pagaie.CPUPlace and b.core.eager.Tensor is pagaie.Tensor
    assert b.framework.EagerParamBase is pagaie.Parameter
    with b.unique_name.guard():
        assert b.unique_name.generate("fc") == "fc_0"
    for name in ("is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
                 "is_compiled_with_ipu", "is_compiled_with_cinn", "is_compiled_with_custom_device",
                 "is_compiled_with_distribute"):
        assert getattr(pagaie, name) is getattr(pagaie.device, name)
    ours, theirs = both(lambda p: [p.is_compiled_with_ipu(), p.is_compiled_with_xpu(),
                                   p.is_compiled_with_rocm(), p.base.core.is_compiled_with_ipu()])
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "int64", "bool", "complex64", "uint8",
                                   "np.float32", "np.dtype", "paddle.float64", "paddle.bfloat16",
                                   "paddle.float8_e4m3fn"])
def test_convert_dtype(dtype):
    def run(p):
        from_p = {"np.float32": np.float32, "np.dtype": np.dtype("int16"),
                  "paddle.float64": getattr(p, "float64"), "paddle.bfloat16": p.bfloat16,
                  "paddle.float8_e4m3fn": p.float8_e4m3fn}
        return p.base.data_feeder.convert_dtype(from_p.get(dtype, dtype))
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("bad", ["float", int, "abc"])
def test_convert_dtype_errors(bad):
    exc = same_exception(lambda p: p.base.data_feeder.convert_dtype(bad))
    assert "dtype must be any of" in str(exc)


def test_data_feeder_checks():
    def run(p):
        df = p.base.data_feeder
        out = [df.check_dtype(p.int32, "x", ["float32"], "op"),
               df.check_type(1, "x", str, "op")]  # dynamic mode: no checks
        p.enable_static()
        try:
            x = p.static.data("x_df", [2], "float32")
            df.check_variable_and_dtype(x, "x", ["float32"], "op")
            for fn in (lambda: df.check_dtype(p.int32, "x", ["float32"], "op"),
                       lambda: df.check_type(1, "x", str, "op"),
                       lambda: df.check_variable_and_dtype(x, "x", ["int64"], "op")):
                try:
                    fn()
                    out.append(None)
                except TypeError as e:
                    out.append(str(e).split(" must be ")[0])
        finally:
            p.disable_static()
        return out
    ours, theirs = both(run)
    assert ours == theirs


# ----------------------------------------------------------------------------- paddle.nn.loss
def test_nn_loss_module():
    def run(p):
        p.seed(3)
        x = p.to_tensor([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
        label = p.to_tensor([2, 0])
        return [p.nn.loss.MSELoss()(p.to_tensor([1.5]), p.to_tensor([1.7])),
                p.nn.loss.CrossEntropyLoss()(x, label),
                p.nn.loss.NLLLoss()(p.nn.functional.log_softmax(x), label)]
    assert_same(*both(run))
    assert pagaie.nn.loss is pagaie.nn.layer.loss


# ----------------------------------------------------------------------------- paddle.cuda
def test_cuda_module():
    def run(p):
        out = [p.cuda.device is p.device.device, isinstance(p.cuda.is_bf16_supported(), bool)]
        p.cuda.manual_seed(102)
        a = p.rand([3])
        p.cuda.manual_seed_all(102)
        out += [bool((a == p.rand([3])).all()), p.cuda.current_device(),
                p.cuda.is_available() == p.device.is_available()]
        with p.cuda.device("cpu"):
            out.append(p.device.get_device())
        return out
    ours, theirs = both(run)
    assert ours == theirs
    assert pagaie.cuda.FloatTensor is pagaie.FloatTensor


def test_cuda_errors_on_cpu():
    if pagaie.device.get_device() != "cpu":
        pytest.skip("CPU-only behaviour")
    same_exception(lambda p: p.cuda.set_device(0))
    same_exception(lambda p: p.cuda.set_device(1.5))
    exc = same_exception(lambda p: p.cuda.mem_get_info())
    assert "Expected a cuda device" in str(exc)


# ----------------------------------------------------------------------------- paddle.compat.nn
@pytest.mark.parametrize("shape,dim,dtype", [([2, 3, 4], -1, None), ([2, 3, 4], None, None),
                                             ([2, 3], None, "float64"), ([4], 0, None),
                                             ([], None, None), ([2, 3, 4, 2], None, None)])
def test_compat_softmax(shape, dim, dtype):
    x = np.asarray(np.random.RandomState(0).rand(*shape), dtype="float32")

    def run(p):
        t = p.to_tensor(x, stop_gradient=False)
        y = p.compat.nn.functional.softmax(t, dim, dtype=dtype)
        (y * p.arange(y.size, dtype=y.dtype).reshape(y.shape)).sum().backward()
        return y, t.grad
    assert_same(*both(run), rtol=1e-4, atol=1e-5)


def test_compat_softmax_layer_and_errors():
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], "float32")
    assert_same(*both(lambda p: [p.compat.nn.Softmax(1)(p.to_tensor(x)),
                                 p.compat.nn.Softmax()(p.to_tensor(x))]))
    for kw in ({"axis": 1}, {"name": "s"}):
        exc = same_exception(lambda p: p.compat.nn.functional.softmax(p.to_tensor(x), **kw))
        assert "unexpected keyword argument" in str(exc)
    same_exception(lambda p: p.compat.nn.functional.softmax(p.to_tensor(x), 1, None, 3))


# ----------------------------------------------------------------------------- module paths
DISTRIBUTION_MODULES = {
    "bernoulli": "Bernoulli", "beta": "Beta", "binomial": "Binomial", "categorical": "Categorical",
    "cauchy": "Cauchy", "chi2": "Chi2", "continuous_bernoulli": "ContinuousBernoulli",
    "dirichlet": "Dirichlet", "distribution": "Distribution", "exponential": "Exponential",
    "exponential_family": "ExponentialFamily", "geometric": "Geometric", "gumbel": "Gumbel",
    "independent": "Independent", "laplace": "Laplace", "lkj_cholesky": "LKJCholesky",
    "lognormal": "LogNormal", "multinomial": "Multinomial",
    "multivariate_normal": "MultivariateNormal", "poisson": "Poisson", "student_t": "StudentT",
    "transformed_distribution": "TransformedDistribution", "uniform": "Uniform"}


@pytest.mark.parametrize("mod", sorted(DISTRIBUTION_MODULES))
def test_distribution_module_paths(mod):
    paddle_ref()
    cls = DISTRIBUTION_MODULES[mod]
    ours = importlib.import_module(f"pagaie.distribution.{mod}")
    theirs = importlib.import_module(f"paddle.distribution.{mod}")
    assert getattr(ours, cls) is getattr(pagaie.distribution, cls)
    assert hasattr(theirs, cls)


def test_distribution_independent_example():
    def run(p):
        from importlib import import_module
        independent = import_module(f"{p.__name__}.distribution.independent")
        beta = p.distribution.Beta(p.to_tensor([0.5, 0.5]), p.to_tensor([0.5, 0.5]))
        d = independent.Independent(beta, 1)
        return d.log_prob(p.to_tensor([0.2, 0.2])), list(d.batch_shape), list(d.event_shape)
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


def test_fleet_base_role_maker():
    paddle_ref()
    from paddle.distributed.fleet.base import role_maker as theirs
    from pagaie.distributed.fleet.base import role_maker as ours
    import pagaie.distributed.fleet as fleet
    assert ours.Role is fleet.Role and ours.UserDefinedRoleMaker is fleet.UserDefinedRoleMaker
    assert ours.Role.SERVER == theirs.Role.SERVER and ours.Role.WORKER == theirs.Role.WORKER
    maker = fleet.UserDefinedRoleMaker(current_id=0, role=ours.Role.SERVER, worker_num=2,
                                       server_endpoints=["127.0.0.1:36011", "127.0.0.1:36012"])
    assert type(maker).__module__ == "pagaie.distributed.fleet.base.role_maker"


# ----------------------------------------------------------------------------- methods
def test_parameter_initialize_after_lazy_guard():
    def run(p):
        with p.LazyGuard():
            net = p.nn.Linear(4, 3)
        for param in net.parameters():
            param.initialize()
        return net.bias, list(net.weight.shape), net.weight.dtype == p.float32
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]


def test_parameter_initialize_errors():
    same_exception(lambda p: p.nn.Linear(2, 2).weight.initialize())

    def twice(p):
        with p.LazyGuard():
            net = p.nn.Linear(2, 2)
        net.bias.initialize()
        net.bias.initialize()
    same_exception(twice)


def test_is_shared_buffer_with():
    def run(p):
        a = p.to_tensor([1.0, 2.0, 3.0, 4.0])
        e = p.to_tensor([])
        src = p.to_tensor([[11.0, 22.0, 33.0]])
        x = p.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])
        x.set_(src)
        return [a._is_shared_buffer_with(a), a._is_shared_buffer_with(a.clone()),
                a._is_shared_buffer_with(a[1:]), a._is_shared_buffer_with(a.reshape([2, 2])),
                a._is_shared_buffer_with(a.detach()), e._is_shared_buffer_with(p.to_tensor([])),
                e._is_shared_buffer_with(e), x._is_shared_buffer_with(src)]
    ours, theirs = both(run)
    assert ours == theirs
