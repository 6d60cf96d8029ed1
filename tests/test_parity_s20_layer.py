"""Session-20: the nn.Layer object API, checkpoints and ``nn.utils`` against real Paddle 3.3.1
(parameter creation checks, the flatten/unflatten utilities' bad inputs, weight_norm's dtypes)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception

pytest.importorskip("paddle")


def _fresh_linear(P, dtype="float32"):
    with P.utils.unique_name.guard():
        layer = P.nn.Linear(3, 2)
    return layer.to(dtype=dtype)


# -- paddle.create_parameter: dtype and shape checks --------------------------------------------

@pytest.mark.parametrize("dtype", ["float", "int", None, "str", object])
def test_create_parameter_dtype_is_checked_strictly(dtype):
    # the public API takes no numpy aliases nor None (Layer.create_parameter does)
    same_exception(lambda P: P.create_parameter([2], dtype))


@pytest.mark.parametrize("dtype", ["float", None, "float64", np.dtype("float64")])
def test_layer_create_parameter_takes_aliases(dtype):
    ours, theirs = both(lambda P: str(P.nn.Layer().create_parameter([2], dtype=dtype).dtype))
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", np.float64, np.dtype("float32")])
def test_create_parameter_valid_dtypes(dtype):
    ours, theirs = both(lambda P: str(P.create_parameter([2, 3], dtype).dtype))
    assert ours == theirs


def test_create_parameter_bool_shape_item():
    same_exception(lambda P: P.create_parameter([True], "float32"))


# -- nn.utils.parameters_to_vector / vector_to_parameters on non-Tensors ------------------------

def test_parameters_to_vector_array_item():
    same_exception(lambda P: P.nn.utils.parameters_to_vector([P.ones([2]), np.ones(2, "float32")]))


def test_parameters_to_vector_array():
    same_exception(lambda P: P.nn.utils.parameters_to_vector(np.ones(2, "float32")))


@pytest.mark.parametrize("vec", [np.ones(2, "float32"), [1.0, 2.0]])
def test_vector_to_parameters_non_tensor_vec(vec):
    same_exception(lambda P: P.nn.utils.vector_to_parameters(vec, [P.ones([2])]))


# -- nn.utils.weight_norm: Paddle's norm kernel has no float16/bfloat16 CPU version -------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_weight_norm_low_float(dtype):
    same_exception(lambda P: P.nn.utils.weight_norm(_fresh_linear(P, dtype)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_weight_norm_forward_after_cast(dtype):
    def run(P):
        layer = P.nn.utils.weight_norm(_fresh_linear(P))
        layer.to(dtype=dtype)
        return layer(P.ones([1, 3], dtype))
    same_exception(run)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_remove_weight_norm_after_cast(dtype):
    def run(P):
        layer = P.nn.utils.weight_norm(_fresh_linear(P))
        layer.to(dtype=dtype)
        return P.nn.utils.remove_weight_norm(layer)
    same_exception(run)


def test_weight_norm_float64():
    def run(P):
        layer = _fresh_linear(P, "float64")
        layer.weight.set_value(np.sin(np.arange(6)).reshape(3, 2))
        layer = P.nn.utils.weight_norm(layer)
        out = layer(P.ones([1, 3], "float64"))
        out.sum().backward()
        return [str(out.dtype), out.numpy(), layer.weight_g.grad.numpy()]
    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-10)


@pytest.mark.parametrize("dim", [0.5, "a"])
def test_weight_norm_bad_dim_leaves_layer(dim):
    # Paddle's TypeError; ours comes before the weight is replaced
    same_exception(lambda P: P.nn.utils.weight_norm(_fresh_linear(P), dim=dim))
    layer = _fresh_linear(__import__("pagaie"))
    with pytest.raises(TypeError):
        __import__("pagaie").nn.utils.weight_norm(layer, dim=dim)
    assert [n for n, _ in layer.named_parameters()] == ["weight", "bias"]


@pytest.mark.parametrize("dim", [True, np.int64(1), -1, None])
def test_weight_norm_int_like_dims(dim):
    ours, theirs = both(lambda P: [(n, list(p.shape)) for n, p in
                                   P.nn.utils.weight_norm(_fresh_linear(P), dim=dim).named_parameters()])
    assert ours == theirs


# -- Parameter attributes ------------------------------------------------------------------------

@pytest.mark.parametrize("value", [1, 0, None, "a"])
def test_parameter_trainable_must_be_bool(value):
    same_exception(lambda P: setattr(_fresh_linear(P).weight, "trainable", value))


@pytest.mark.parametrize("value", [True, False])
def test_parameter_trainable_bool(value):
    def run(P):
        w = _fresh_linear(P).weight
        w.trainable = value
        return [w.trainable, w.stop_gradient]
    ours, theirs = both(run)
    assert ours == theirs


def test_detach_keeps_persistable():
    def run(P):
        layer = P.nn.BatchNorm1D(2)
        t = P.ones([1])
        t.persistable = True
        return [layer.weight.detach().persistable, layer._mean.detach().persistable,
                t.detach().persistable, P.ones([1]).detach().persistable,
                layer.weight.detach().stop_gradient]
    ours, theirs = both(run)
    assert ours == theirs


# -- nn.utils in static mode: eager-only APIs -----------------------------------------------------

def _in_program(fn):
    def run(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                return fn(P)
        finally:
            P.disable_static()
    return run


@pytest.mark.parametrize("call", [
    lambda P: P.nn.utils.parameters_to_vector(P.nn.Linear(2, 2).parameters()),
    lambda P: P.nn.utils.vector_to_parameters(P.static.data("v", [6], "float32"),
                                              P.nn.Linear(2, 2).parameters()),
    lambda P: P.nn.utils.clip_grad_norm_(P.nn.Linear(2, 2).parameters(), 1.0),
    lambda P: P.nn.utils.clip_grad_value_(P.nn.Linear(2, 2).parameters(), 1.0),
    lambda P: P.nn.utils.spectral_norm(P.nn.Linear(2, 2)),
], ids=["parameters_to_vector", "vector_to_parameters", "clip_grad_norm_", "clip_grad_value_",
        "spectral_norm"])
def test_nn_utils_eager_only(call):
    same_exception(_in_program(call))


def test_weight_norm_in_program():
    ours, theirs = both(_in_program(
        lambda P: [n for n, _ in P.nn.utils.weight_norm(P.nn.Linear(2, 2)).named_parameters()]))
    assert ours == theirs


# -- nn.SpectralNorm: the kernel's dtypes are checked before the shapes and dim ------------------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int32"])
@pytest.mark.parametrize("shape,kw", [([2, 3, 4], {"dim": 2}), ([4], {}), ([2, 3], {"power_iters": -1})])
def test_spectral_norm_layer_dtype_before_shape_checks(dtype, shape, kw):
    same_exception(lambda P: P.nn.SpectralNorm(shape, **kw)(P.ones(shape, dtype)))


def test_spectral_norm_layer_dim2_float32():
    same_exception(lambda P: P.nn.SpectralNorm([2, 3, 4], dim=2)(P.ones([2, 3, 4])))


# -- clip_grad_value_ clips with Paddle's clip kernel, and so its CPU dtypes ---------------------

def _grads_of(P, dtype):
    # (the loss in float32: Paddle's CPU add has no float16 kernel, the casts' backward has)
    layer = _fresh_linear(P, dtype)
    ((layer.weight.astype("float32") * 4).sum() + (layer.bias.astype("float32") * 3).sum()).backward()
    return layer


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_clip_grad_value_low_float(dtype):
    same_exception(lambda P: P.nn.utils.clip_grad_value_(_grads_of(P, dtype).parameters(), 1.0))


def test_clip_grad_value_complex():
    def run(P):
        p = P.to_tensor(np.array([1 + 1j, 2 - 1j, 0.5j], "complex64"))
        p.stop_gradient = False
        (p * p).sum().real().backward()
        P.nn.utils.clip_grad_value_([p], 1.0)
    same_exception(run)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_clip_grad_value_values(dtype):
    ours, theirs = both(lambda P: [p.grad.numpy() for p in
                                   (lambda layer: (P.nn.utils.clip_grad_value_(layer.parameters(), 1.0),
                                                   layer.parameters())[1])(_grads_of(P, dtype))])
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


# -- clip_grad_norm_: Paddle's p_norm/abs CPU kernels have no float16/bfloat16 version -----------

@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("norm_type", [2, 1, float("inf"), 0])
def test_clip_grad_norm_low_float(dtype, norm_type):
    same_exception(lambda P: P.nn.utils.clip_grad_norm_(_grads_of(P, dtype).parameters(), 1.0,
                                                        norm_type=norm_type))


@pytest.mark.parametrize("norm_type", [2, 1, float("inf"), 0])
def test_clip_grad_norm_float64(norm_type):
    def run(P):
        layer = _grads_of(P, "float64")
        total = P.nn.utils.clip_grad_norm_(layer.parameters(), 1.0, norm_type=norm_type)
        return [str(total.dtype), total.numpy(), *[p.grad.numpy() for p in layer.parameters()]]
    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-6)
