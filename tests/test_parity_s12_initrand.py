"""Session-12 sweep of initializers, random ops and ``paddle.nn.utils`` against real Paddle
3.3.1: Orthogonal on size-0 parameters, Bilinear/Dirac/calculate_gain argument checks, the
exception types of the random ops' bad shapes and of ``uniform_`` with ``min >= max``,
``parameters_to_vector``/``vector_to_parameters`` (stop_gradient, dtype, iterators), and
``weight_norm``/``spectral_norm`` (eps handling of zero slices, ``dim`` checks).

Seeded cases draw once more after the call (``rand([2])``) so that a wrong number of words
taken from the random stream also fails.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _seeded(call, seed=7):
    def fn(P):
        P.seed(seed)
        out = call(P)
        return out, P.rand([2])
    return fn


def _param(P, shape, init, dtype="float32"):
    return P.create_parameter(shape, dtype, default_initializer=init)


# ---- initializers ----------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [[0, 3], [0, 2, 3, 3], [3, 0]])
def test_orthogonal_size_zero(shape):
    """Paddle fills a parameter with no rows (or columns) without error, drawing nothing."""
    ours, theirs = both(_seeded(lambda P: _param(P, shape, P.nn.initializer.Orthogonal())))
    assert_same(ours, theirs)


@pytest.mark.parametrize("dtype", ["int32", "int64", "complex64"])
def test_bilinear_non_float_raises_type_error(dtype):
    """Bilinear only builds floating kernels: other dtypes raise TypeError."""
    same_exception(lambda P: _param(P, [2, 2, 3, 3], P.nn.initializer.Bilinear(), dtype))


def test_bilinear_float32_values():
    """The float32 kernel itself matches (the shape checks come first)."""
    assert_same(*both(lambda P: _param(P, [2, 3, 4, 4], P.nn.initializer.Bilinear())))
    same_exception(lambda P: _param(P, [2, 3, 4], P.nn.initializer.Bilinear(), "int32"))


@pytest.mark.parametrize("groups", [None, "2"])
def test_dirac_uncomparable_groups_type_error(groups):
    """Paddle compares ``groups > 0`` first: None or a string is a TypeError."""
    same_exception(lambda P: P.nn.initializer.Dirac(groups))


@pytest.mark.parametrize("groups", [0, -1, 2.0, np.int64(2)])
def test_dirac_bad_groups_assertion(groups):
    """A non-positive or non-int ``groups`` fails Paddle's assert."""
    same_exception(lambda P: P.nn.initializer.Dirac(groups))


@pytest.mark.parametrize("name", ["conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                                  "sigmoid", "conv2d"])
def test_calculate_gain_linear_aliases(name):
    """Paddle also knows the conv_transposeNd spellings; the linear gains are the int 1."""
    ours, theirs = both(lambda P: P.nn.initializer.calculate_gain(name))
    assert ours == theirs and type(ours) is type(theirs)


@pytest.mark.parametrize("param", ["0.1", np.float32(0.1), [0.1]])
def test_calculate_gain_param_type_assertion(param):
    """``param`` must be a Python bool/int/float (Paddle asserts: numpy scalars fail too)."""
    same_exception(lambda P: P.nn.initializer.calculate_gain("leaky_relu", param))


@pytest.mark.parametrize("value,dtype", [("2.5", "float32"), (-2.7, "int64"), (1e6, "float16"),
                                         (2, "complex64"), (2, "bool")])
def test_constant_fills_float_of_value(value, dtype):
    """Paddle fills with float(value): numeric strings work, float16 overflows to inf."""
    assert_same(*both(lambda P: _param(P, [3], P.nn.initializer.Constant(value), dtype)))


@pytest.mark.parametrize("value", ["a", 1 + 2j])
def test_constant_value_float_conversion_errors(value):
    """A value float() rejects raises float()'s ValueError / TypeError."""
    same_exception(lambda P: _param(P, [3], P.nn.initializer.Constant(value)))


def test_constant_none_value_error():
    """Constant(None) is a ValueError (the legacy ConstantInitializer asserts instead)."""
    same_exception(lambda P: P.nn.initializer.Constant(None))
    same_exception(lambda P: P.nn.initializer.ConstantInitializer(None))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("init", ["Normal", "Uniform", "XavierNormal", "KaimingUniform",
                                  "Orthogonal"])
def test_random_initializers_complex_parameters(init, dtype):
    """Complex parameters draw Paddle's complex gaussian/uniform values from its stream."""
    def fn(P):
        return _param(P, [2, 3, 3], getattr(P.nn.initializer, init)(), dtype)
    ours, theirs = both(_seeded(fn))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["int64", "int16", "bool", "complex64"])
def test_assign_unsupported_parameter_dtype(dtype):
    """Assign writes float16/bfloat16/float32/float64/int32/int8 parameters only."""
    same_exception(lambda P: _param(P, [2, 2], P.nn.initializer.Assign([[1, 2], [3, 4]]), dtype))


@pytest.mark.parametrize("dtype", ["int32", "int8", "float16"])
def test_assign_supported_parameter_dtype(dtype):
    """The dtypes Assign does take keep the parameter's dtype."""
    assert_same(*both(lambda P: _param(P, [2, 2], P.nn.initializer.Assign([[1, 2], [3, 4]]),
                                       dtype)))


# ---- random ops: shapes and bounds --------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: P.rand([-1, 2]), lambda P: P.randn([2, -3]), lambda P: P.uniform([-1]),
    lambda P: P.standard_normal([-2]), lambda P: P.normal(0.0, 1.0, [-1]),
    lambda P: P.randint(0, 3, [2, -2]), lambda P: P.randperm(-1),
    lambda P: P.log_normal(shape=[-1]),
], ids=["rand", "randn", "uniform", "standard_normal", "normal", "randint", "randperm",
        "log_normal"])
def test_negative_size_runtime_error(call):
    """A negative size fails in Paddle's random kernels with a RuntimeError."""
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda P: P.rand(None), lambda P: P.randn("ab"), lambda P: P.rand(1.5),
    lambda P: P.uniform(3), lambda P: P.standard_normal(3), lambda P: P.randint(0, 4, 3),
    lambda P: P.normal(0.0, 1.0, 3), lambda P: P.normal(0.0, 1.0), lambda P: P.uniform(None),
], ids=["rand-none", "randn-str", "rand-float", "uniform-int", "standard_normal-int",
        "randint-int", "normal-int", "normal-no-shape", "uniform-none"])
def test_shape_not_a_sequence_attribute_error(call):
    """Paddle reads a shape that is not a list/tuple as an array (``astype``): AttributeError
    (rand and randn alone take a plain int)."""
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda P: P.rand(np.array([2.0, 3.0])), lambda P: P.randn(np.array([2, 3])),
    lambda P: P.uniform(np.array([2.7, 1.0]), min=-1.0),
    lambda P: P.randint(0, 5, P.to_tensor([2.0, 2.0])), lambda P: P.rand(3),
    lambda P: P.standard_normal(np.int64(3)),
], ids=["rand-float-array", "randn-int-array", "uniform-float-array", "randint-float-tensor",
        "rand-int", "standard_normal-np-int"])
def test_array_shapes_truncated(call):
    """Arrays and tensors of any numeric dtype are shapes, cast to int (truncating)."""
    ours, theirs = both(_seeded(call))
    assert_same(ours, theirs)


@pytest.mark.parametrize("lo,hi", [(2.0, 1.0), (1.0, 1.0)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_uniform_inplace_min_not_below_max(lo, hi, dtype):
    """Tensor.uniform_ checks min < max (ValueError); paddle.uniform does not."""
    same_exception(lambda P: P.zeros([3], dtype).uniform_(lo, hi))
    same_exception(lambda P: P.tensor.uniform_(P.zeros([3], dtype), min=lo, max=hi))
    ours, theirs = both(_seeded(lambda P: P.uniform([3], min=lo, max=hi)))
    assert_same(ours, theirs)


# ---- parameters_to_vector / vector_to_parameters -----------------------------------------

def test_parameters_to_vector_int_is_not_stop_gradient():
    """The concatenation always comes back with stop_gradient=False, integer ones too."""
    ours, theirs = both(lambda P: P.nn.utils.parameters_to_vector(
        [P.ones([2, 2], "int64"), P.zeros([3], "int64")]))
    assert_same(ours, theirs)
    assert ours.stop_gradient is theirs.stop_gradient is False


def test_parameters_to_vector_iterator_type_error():
    """Paddle indexes ``parameters[0]``: an iterator is a TypeError."""
    same_exception(lambda P: P.nn.utils.parameters_to_vector(iter([P.ones([2]), P.zeros([3])])))


def test_vector_to_parameters_iterator_type_error():
    """Paddle takes ``len(parameters)``: an iterator is a TypeError."""
    same_exception(lambda P: P.nn.utils.vector_to_parameters(
        P.arange(6, dtype="float32"), iter(P.nn.Linear(2, 2).parameters())))


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_vector_to_parameters_takes_vec_dtype(dtype):
    """The parameters share the slices of ``vec``: they take its dtype and stay trainable."""
    def fn(P):
        layer = P.nn.Linear(2, 2)
        P.nn.utils.vector_to_parameters(P.arange(6, dtype=dtype), layer.parameters())
        return layer.weight, layer.bias, layer.weight.stop_gradient
    ours, theirs = both(fn)
    assert_same(ours, theirs)


def test_vector_to_parameters_float64_trains():
    """After taking float64 values, the weight still gets its gradient."""
    def fn(P):
        layer = P.nn.Linear(2, 2)
        P.nn.utils.vector_to_parameters(P.arange(6, dtype="float64"), layer.parameters())
        (layer.weight * 2).sum().backward()
        return layer.weight, layer.weight.grad
    assert_same(*both(fn))


# ---- weight_norm / spectral_norm ---------------------------------------------------------

_X = np.linspace(-1, 1, 6).reshape(2, 3).astype("float32")


@pytest.mark.parametrize("dim", [0, None])
def test_weight_norm_zero_slice(dim):
    """A zero slice (here the zero bias) gets g = sqrt(0 + 1e-12) = 1e-6, a zero weight and a
    finite gradient, not NaN."""
    def fn(P):
        P.seed(3)
        layer = P.nn.utils.weight_norm(P.nn.Linear(3, 4), name="bias", dim=dim)
        y = layer(P.to_tensor(_X))
        y.sum().backward()
        return layer.bias_g, layer.bias, y, layer.bias_g.grad, layer.bias_v.grad
    ours, theirs = both(fn)
    if dim is None:   # Paddle's sqrt has an infinite slope at 0: its v gradient is NaN too
        ours, theirs = ours[:4], theirs[:4]
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dim", [0, 1, -1, None])
def test_weight_norm_values_and_grads(dim):
    """g, the rebuilt weight and the gradients of g and v follow Paddle's formulas."""
    def fn(P):
        P.seed(3)
        layer = P.nn.utils.weight_norm(P.nn.Linear(3, 4), dim=dim)
        y = layer(P.to_tensor(_X))
        (y * y).sum().backward()
        return layer.weight_g, layer.weight, y, layer.weight_g.grad, layer.weight_v.grad
    assert_same(*both(fn), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dim", [-1, 2, -2])
def test_spectral_norm_dim_out_of_range(dim):
    """Paddle moves ``dim`` to the front by a permutation: negative or too large is ValueError."""
    same_exception(lambda P: P.nn.utils.spectral_norm(P.nn.Linear(2, 3), dim=dim))


@pytest.mark.parametrize("dim", [1.0, "1"])
def test_spectral_norm_dim_not_int(dim):
    """A non-int ``dim`` is a TypeError."""
    same_exception(lambda P: P.nn.utils.spectral_norm(P.nn.Linear(2, 3), dim=dim))


def test_spectral_norm_default_dim_of_linear_subclass():
    """The default dim is 1 for Linear and its subclasses (an isinstance test)."""
    def fn(P):
        class MyLinear(P.nn.Linear):
            pass
        P.seed(3)
        layer = P.nn.utils.spectral_norm(MyLinear(2, 3))
        return layer.weight_u, layer.weight_v, P.rand([2])
    assert_same(*both(fn))


def test_rnn_flat_weight_draws_under_global_initializer():
    """Paddle's RNNBase makes a flat copy of its weights with create_parameter: under
    set_global_initializer that copy draws from the stream too."""
    def fn(P):
        init = P.nn.initializer
        P.seed(2)
        init.set_global_initializer(init.Uniform(-0.5, 0.5), init.Normal(1.0, 0.1))
        try:
            P.nn.LSTM(2, 2)
            return P.rand([2])
        finally:
            init.set_global_initializer(None)
    assert_same(*both(fn))
