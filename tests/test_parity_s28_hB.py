"""Differential tests against real Paddle for ``Layer``'s parameter machinery (the Parameter
class, LazyGuard initialisation) and the initializers, with cases taken from the situations
Paddle's own unit tests exercise."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

from tests.reference import both, same_exception  # noqa: E402


def _param_class(P):
    return P.base.framework.EagerParamBase


# ---- Parameter: from_tensor, set_init_func, constructor forms --------------------------------

@pytest.mark.parametrize("kwargs", [{}, {"trainable": False, "name": "s28_w0", "need_clip": False,
                                         "optimize_attr": {"learning_rate": 0.5},
                                         "is_distributed": True, "do_model_average": True}])
def test_from_tensor_shares_data_and_takes_attributes(kwargs):
    def fn(P):
        t = P.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        p = _param_class(P).from_tensor(t, **kwargs)
        before = p.numpy().tolist()
        t[0, 0] = 9.0   # the parameter shares the tensor's storage
        return (isinstance(p, _param_class(P)), list(p.shape), str(p.dtype), p.stop_gradient,
                p.trainable, p.optimize_attr, p.need_clip, p.is_distributed, p.do_model_average,
                p.persistable, p.is_leaf, before, p.numpy().tolist(),
                p.name if kwargs else p.name.rsplit("_", 1)[0])
    ours, theirs = both(fn)
    assert ours == theirs


def test_from_tensor_integer_and_0d():
    def fn(P):
        i = _param_class(P).from_tensor(P.to_tensor([1, 2]))
        z = _param_class(P).from_tensor(P.to_tensor(3.0))
        return str(i.dtype), i.stop_gradient, list(z.shape), z.item()
    ours, theirs = both(fn)
    assert ours == theirs


def test_set_init_func_runs_once_through_initialize():
    def fn(P):
        p = _param_class(P)([2], "float32")
        calls = []

        def init(param, block):
            calls.append((param is p, block))
            param.set_value(P.full([2], 7.0))
        p.set_init_func(init)
        p.initialize()
        out = [calls, p.numpy().tolist(), p._init_func]
        try:
            p.initialize()
        except AssertionError:
            out.append("again")
        return out
    ours, theirs = both(fn)
    assert ours == theirs


def test_lazy_guard_parameter_holds_its_init_func():
    def fn(P):
        with P.LazyGuard():
            lin = P.nn.Linear(2, 3)
        out = [lin.weight._is_initialized(), lin.weight._init_func is not None]
        for p in lin.parameters():
            p.initialize()
        return out + [lin.weight._is_initialized(), lin.bias.numpy().tolist(), lin.weight._init_func]
    ours, theirs = both(fn)
    assert ours == theirs


def test_generated_parameter_names_and_optimizer_keys():
    def fn(P):
        with P.utils.unique_name.guard():
            w = P.nn.Parameter(P.to_tensor([1.0, 2.0]))
            v = _param_class(P)([2], "float32")
            opt = P.optimizer.Adam(parameters=[w])
            (w * w).sum().backward()
            opt.step()
            return w.name, v.name, sorted(opt.state_dict().keys())
    ours, theirs = both(fn)
    assert ours == theirs


@pytest.mark.parametrize("case", ["zero_dim", "requires_grad", "requires_grad_kw"])
def test_parameter_constructor_forms(case):
    def fn(P):
        if case == "zero_dim":
            p = _param_class(P)([2, 0], "float32")
        elif case == "requires_grad":
            p = P.nn.Parameter(P.to_tensor([1.0, 2.0]), False)
        else:
            p = P.nn.Parameter(P.to_tensor([1.0, 2.0]), requires_grad=False)
        return list(p.shape), p.stop_gradient
    ours, theirs = both(fn)
    assert ours == theirs


def test_parameter_copy_to_is_a_parameter_with_the_same_attributes():
    def fn(P):
        p = P.create_parameter([2], "float32", attr=P.ParamAttr(
            name="s28_copy_to_w", trainable=False, learning_rate=0.5, need_clip=False))
        q = p._copy_to(P.CPUPlace(), True)
        return (isinstance(q, _param_class(P)), q is p, q.name, q.stop_gradient, q.trainable,
                q.optimize_attr, q.need_clip, q.persistable, q.is_leaf,
                q.numpy().tolist() == p.numpy().tolist())
    ours, theirs = both(fn)
    assert ours == theirs


def test_parameter_dtype_none_is_a_value_error():
    same_exception(lambda P: _param_class(P)([2], None))


# ---- initializers -------------------------------------------------------------------------

def _filled(P, init, shape=(3, 4), dtype="float32"):
    P.seed(5)
    p = P.create_parameter(list(shape), dtype, default_initializer=init(P))
    return str(p.dtype), np.round(p.numpy().astype("float64"), 4).tolist()


@pytest.mark.parametrize("gain", ["tensor", "string", "int"])
def test_orthogonal_gain_forms(gain):
    def fn(P):
        g = {"tensor": P.to_tensor(2.0), "string": "2", "int": 2}[gain]
        return _filled(P, lambda P: P.nn.initializer.Orthogonal(gain=g))
    ours, theirs = both(fn)
    assert ours == theirs


def test_orthogonal_gain_none():
    same_exception(lambda P: P.nn.initializer.Orthogonal(gain=None))


def test_dirac_tensor_groups_is_an_assertion():
    same_exception(lambda P: P.nn.initializer.Dirac(groups=P.to_tensor(1)))


@pytest.mark.parametrize("init", [
    lambda P: P.nn.initializer.Normal(mean="1"),
    lambda P: P.nn.initializer.Normal(std="2"),
    lambda P: P.nn.initializer.Normal(mean=[1.0]),
    lambda P: P.nn.initializer.NormalInitializer("1", 1.0),
    lambda P: P.nn.initializer.TruncatedNormal(mean="1"),
    lambda P: P.nn.initializer.TruncatedNormal(a="-1"),
], ids=["normal_mean", "normal_std", "normal_list", "normal_init", "trunc_mean", "trunc_a"])
def test_gaussian_initializers_refuse_strings(init):
    same_exception(lambda P: _filled(P, init))


def test_gaussian_initializers_take_tensor_and_numpy_arguments():
    def fn(P):
        return [_filled(P, lambda P: P.nn.initializer.Normal(mean=P.to_tensor(1.0), std=np.float32(2))),
                _filled(P, lambda P: P.nn.initializer.TruncatedNormal(mean=np.float64(0.5)))]
    ours, theirs = both(fn)
    assert ours == theirs


@pytest.mark.parametrize("target", [None, 3.0, [0.0, 0.0]], ids=["none", "float", "list"])
@pytest.mark.parametrize("init", ["Constant", "TruncatedNormal", "KaimingNormal", "Orthogonal",
                                  "Dirac", "Bilinear"])
def test_initializer_on_a_non_tensor(init, target):
    same_exception(lambda P: getattr(P.nn.initializer, init)()(target))


def test_initializer_class_given_as_initializer_is_called_with_param_and_block():
    # Paddle calls ``initializer(param, block)``: a class (not an instance) fails to construct
    same_exception(lambda P: P.nn.Linear(
        2, 3, weight_attr=P.ParamAttr(initializer=P.nn.initializer.Constant)))


# ---- printed layers -----------------------------------------------------------------------

@pytest.mark.parametrize("cls", ["UpsamplingNearest2D", "UpsamplingBilinear2D"])
def test_upsampling_int_size_is_kept_as_a_pair(cls):
    def fn(P):
        layer = getattr(P.nn, cls)(size=3)
        return str(layer), layer.size, list(layer(P.ones([1, 1, 2, 2])).shape)
    ours, theirs = both(fn)
    assert ours == theirs


# ---- containers ---------------------------------------------------------------------------

@pytest.mark.parametrize("second", ["layer", "triple"])
def test_sequential_pairs_with_a_bad_item(second):
    def fn(P):
        bad = P.nn.Tanh() if second == "layer" else ("b", P.nn.Tanh(), 1)
        return P.nn.Sequential(("a", P.nn.ReLU()), bad)
    same_exception(fn)


# ---- argument checks of the Layer parameter API ------------------------------------------

@pytest.mark.parametrize("name", [True, 1.5, 0], ids=["bool", "float", "zero"])
def test_param_attr_name_must_be_a_string(name):
    same_exception(lambda P: P.create_parameter([1], "float32", attr=P.ParamAttr(name=name)))


def test_create_parameter_attr_list_with_a_bad_element():
    same_exception(lambda P: P.nn.Layer().create_parameter([1], attr=[1]))


@pytest.mark.parametrize("kwargs", [{"name": 1}, {"name": [1]}, {"dtype": np.ones(2)}],
                         ids=["int_name", "list_name", "array_dtype"])
def test_create_variable_bad_arguments(kwargs):
    same_exception(lambda P: P.nn.Layer().create_variable(**kwargs))


def test_calculate_gain_unhashable_nonlinearity():
    same_exception(lambda P: P.nn.initializer.calculate_gain(np.ones(2)))


@pytest.mark.parametrize("seed", [1.5, "x", True], ids=["float", "str", "bool"])
@pytest.mark.parametrize("cls", ["UniformInitializer", "NormalInitializer",
                                 "TruncatedNormalInitializer", "XavierInitializer",
                                 "MSRAInitializer"])
def test_random_initializer_seed_must_be_an_int(cls, seed):
    same_exception(lambda P: P.create_parameter(
        [2], "float32", default_initializer=getattr(P.nn.initializer, cls)(seed=seed)))


@pytest.mark.parametrize("make", [lambda P: _param_class(P)(np.ones(2)),
                                  lambda P: _param_class(P)(P.to_tensor([1.0]), True, "w")],
                         ids=["numpy_data", "three_positional"])
def test_parameter_value_form_errors(make):
    same_exception(make)
