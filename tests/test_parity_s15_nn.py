"""Session-15: cases from Paddle's legacy unit tests of ``paddle.nn`` and
``paddle.nn.functional`` that pagaie answered differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, same_static_exception

RNG = np.random.RandomState(0)


@pytest.mark.parametrize("fn", [
    lambda F, x: F.max_pool1d(x, 2, 2),
    lambda F, x: F.avg_pool1d(x, 2, 2),
    lambda F, x: F.lp_pool1d(x, 4, 3, 2, 1),
    lambda F, x: F.max_pool1d(x, 2, 2, return_mask=True),
    lambda F, x: F.avg_pool2d(x.unsqueeze(-1), 1),
])
def test_pooling_a_zero_channel_input_gives_an_empty_result(fn):
    def f(P):
        x = P.to_tensor(np.zeros([2, 0, 5], "float32"), stop_gradient=False)
        out = fn(P.nn.functional, x)
        first = out[0] if isinstance(out, tuple) else out
        first.sum().backward()
        return out, x.grad
    both_same(f)


@pytest.mark.parametrize("fn", [
    lambda F, x: F.log_softmax(x),
    lambda F, x: F.softmax(x),
    lambda F, x: F.relu(x),
    lambda F, x: F.gelu(x),
    lambda F, x: F.celu(x),
    lambda F, x: F.maxout(x, 2),
    lambda F, x: F.pixel_shuffle(x, 2),
    lambda F, x: F.channel_shuffle(x, 2),
])
def test_a_static_int_input_of_a_float_only_op_is_a_type_error(fn):
    same_static_exception(lambda P: fn(P.nn.functional, P.static.data("x", [2, 4, 4, 4], "int32")))


@pytest.mark.parametrize("cls, args, prop, value", [
    ("CosineSimilarity", (), "dim", 0),
    ("GLU", (), "dim", 0),
    ("Softshrink", (0.3,), "lambd", 0.1),
    ("Hardshrink", (0.3,), "lambd", 0.1),
    ("PairwiseDistance", (), "norm", 1.0),
    ("PairwiseDistance", (), "eps", 0.5),
    ("AdaptiveAvgPool2D", (3,), "output_size", 2),
    ("AdaptiveAvgPool3D", (3,), "output_size", 2),
    ("AdaptiveMaxPool1D", (3,), "return_indices", True),
    ("AdaptiveMaxPool2D", (3,), "return_indices", True),
    ("Fold", ([4, 4], [2, 2]), "stride", 2),          # 4 blocks of 2 * 2 * 2 values
    ("Fold", ([4, 4], [2, 2]), "kernel_size", [1, 1]),  # 16 blocks of 8 channels
])
def test_layer_options_have_their_pytorch_named_properties(cls, args, prop, value):
    shapes = {"Fold": [1, 8, 4 if prop == "stride" else 16], "PairwiseDistance": [2, 4], "CosineSimilarity": [4, 4], "GLU": [4, 4],
              "AdaptiveMaxPool1D": [1, 2, 6]}

    def f(P):
        m = getattr(P.nn, cls)(*args)
        before = getattr(m, prop)
        setattr(m, prop, value)     # the layer computes with the new value
        shape = shapes.get(cls, [1, 2, 6, 6, 6] if cls.endswith("3D") else [1, 2, 6, 6])
        x = P.to_tensor(np.linspace(-1, 1, int(np.prod(shape))).reshape(shape).astype("float32"))
        y = m(x, x) if cls in ("CosineSimilarity", "PairwiseDistance") else m(x)
        return before, getattr(m, prop), y
    both_same(f)


def test_normalize_axis_out_of_range_names_the_rank():
    def f(P):
        with pytest.raises(ValueError, match=r"Attr\(axis\) value should be in range \[-R, R-1\]"):
            P.nn.functional.normalize(P.to_tensor([0.0, 0.0]))
        with pytest.raises(ValueError, match=r"Attr\(axis\)"):
            P.nn.functional.normalize(P.ones([2, 3]), axis=-3)
    f(__import__("pagaie"))
    from tests.reference import paddle_ref
    f(paddle_ref())


@pytest.mark.parametrize("fn", [
    lambda F, x, y: F.fold(x, [4.0, 5.0], [2, 2]),
    lambda F, x, y: F.fold(x, [4, 5], [2, 2], strides=[1.0, 1]),
    lambda F, x, y: F.fold(x, [4, 5], [2, 2], paddings=[0.0, 0]),
    lambda F, x, y: F.unfold(y, [2.0, 2]),
    lambda F, x, y: F.unfold(y, [2, 2], dilations=[1, 1.0]),
])
def test_fold_and_unfold_refuse_float_list_items(fn):
    same_exception(lambda P: fn(P.nn.functional, P.ones([2, 12, 12]), P.ones([2, 3, 8, 8])))


@pytest.mark.parametrize("name, extra", [
    ("glu", ()), ("alpha_dropout", ()), ("avg_pool1d", (2,)), ("lp_pool1d", (2, 2)),
    ("fold", ([4, 4], [2, 2])), ("unfold", ([2, 2],)),
])
@pytest.mark.parametrize("value", [1, [1.0, 2.0], None])
def test_static_non_tensor_input_of_python_checked_ops_is_a_type_error(name, extra, value):
    same_static_exception(lambda P: getattr(P.nn.functional, name)(value, *extra))


def test_pixel_shuffle_of_an_empty_batch_has_gradients_of_its_shape():
    def f(P):
        x = P.to_tensor(np.zeros([0, 8, 3, 3], "float32"), stop_gradient=False)
        y = P.nn.functional.pixel_shuffle(x, 2)
        y.sum().backward()
        return y, x.grad
    both_same(f)


def test_clip_grad_modules_have_paddles_names():
    import importlib
    for mod in ("nn.utils.clip_grad_norm_", "nn.utils.clip_grad_value_"):
        ours = importlib.import_module("pagaie." + mod)
        name = mod.rsplit(".", 1)[1]
        assert getattr(ours, name) is getattr(__import__("pagaie").nn.utils, name)


def test_a_program_value_has_no_grad_attribute():
    def f(P):
        x = P.static.data("x", [2], "float32")
        x.grad = P.ones([2])
    same_static_exception(f)
    same_static_exception(lambda P: P.static.data("x", [2], "float32").grad)


@pytest.mark.parametrize("weight_shape, dim, x_shape", [
    ([4, 3], 0, [4, 5]),         # the V vector is shorter than the other dims' product
    ([4, 5], 1, [4, 6]),         # the U vector is not dimension `dim` of the weight
    ([4, 5, 2], 1, [4, 5, 3]),
])
def test_spectral_norm_refuses_a_weight_of_other_sizes(weight_shape, dim, x_shape):
    same_exception(lambda P: P.nn.SpectralNorm(weight_shape, dim=dim)(P.ones(x_shape)))


@pytest.mark.parametrize("init, dtype", [
    ("Normal", "int32"), ("Uniform", "int64"), ("XavierUniform", "bool"), ("KaimingNormal", "uint8"),
    ("TruncatedNormal", "float16"), ("TruncatedNormal", "complex64"), ("Orthogonal", "float16"),
    ("Orthogonal", "int32"),
])
def test_random_initializers_refuse_dtypes_their_kernels_lack(init, dtype):
    same_exception(lambda P: P.create_parameter([4, 6], dtype,
                                                default_initializer=getattr(P.nn.initializer, init)()))


@pytest.mark.parametrize("fn", [
    lambda F, x: F.softplus(x),
    lambda F, x: F.softplus(x, beta=2, threshold=3),
    lambda F, x: F.log_sigmoid(x),
    lambda F, x: F.hardswish(x),
])
def test_softplus_log_sigmoid_and_hardswish_take_complex_inputs(fn):
    v = np.array([-3 + 1j, -0.5 - 2j, 0.3 + 0.2j, 2 + 1j, 25 + 3j, -25 + 1j, 1.5 - 4j], "complex64")
    both_same(lambda P: fn(P.nn.functional, P.to_tensor(v)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda F, d: F.conv2d(d("x", [2, 3, 8, 8]), d("w", [4, 3, 3, 3])),
    lambda F, d: F.max_pool2d(d("x", [2, 3, 8, 8]), 2),
    lambda F, d: F.adaptive_avg_pool1d(d("x", [2, 3, 8]), 2),
    lambda F, d: F.group_norm(d("x", [2, 4, 4, 4]), 2),
    lambda F, d: F.normalize(d("x", [2, 4])),
    lambda F, d: F.grid_sample(d("x", [2, 3, 4, 4]), d("g", [2, 5, 6, 2])),
    lambda F, d: F.cross_entropy(d("x", [2, 3]), d("y", [2], "int64")),
    lambda F, d: F.l1_loss(d("x", [2, 3]), d("y", [2, 3])),
    lambda F, d: F.batch_norm(d("x", [2, 3, 4]), d("m", [3], "float32"), d("v", [3], "float32")),
    lambda F, d: F.dropout(d("x", [2, 4])),
    lambda F, d: F.mse_loss(d("x", [2, 3]), d("y", [2, 3])),
    lambda F, d: F.binary_cross_entropy_with_logits(d("x", [2, 3]), d("y", [2, 3])),
    lambda F, d: F.fold(d("x", [2, 12, 9]), [4, 4], 2),
])
def test_static_int_input_of_nn_functional_ops_is_a_type_error(fn):
    same_static_exception(lambda P: fn(P.nn.functional,
                                       lambda n, s, dt="int32": P.static.data(n, s, dt)))


@pytest.mark.parametrize("dt", ["int32", "int64"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_of_integers_keeps_their_dtype(dt, reduction):
    a, b = np.array([[1, 5, 2], [7, 0, 3]], dt), np.array([[2, 1, 2], [3, 3, 0]], dt)
    both_same(lambda P: P.nn.functional.mse_loss(P.to_tensor(a), P.to_tensor(b), reduction=reduction))


@pytest.mark.parametrize("fn", [
    lambda F, i, f, l: F.hinge_embedding_loss(i, i),
    lambda F, i, f, l: F.multi_margin_loss(i, l),
    lambda F, i, f, l: F.poisson_nll_loss(i, i),
    lambda F, i, f, l: F.poisson_nll_loss(f, i),
])
def test_composed_losses_refuse_integer_operands(fn):
    same_exception(lambda P: fn(P.nn.functional, P.ones([2, 3], "int32"), P.ones([2, 3]),
                                P.ones([2], "int64")))


@pytest.mark.parametrize("dt", ["int32", "int64"])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_soft_margin_loss_of_integers_computes_in_float32(dt, reduction):
    x, y = np.array([[1, -2, 3], [0, 2, -1]], dt), np.array([[1, -1, 1], [-1, 1, 1]], dt)
    both_same(lambda P: P.nn.functional.soft_margin_loss(P.to_tensor(x), P.to_tensor(y), reduction=reduction))
