"""Session-10 sweep of the common paddle.nn.functional ops and their layers against real
Paddle 3.3.1: linear's bias promotion, embedding's argument checks and the Embedding layer's
``_weight``, one_hot's depth, normalize's ``axis`` and ``out``, gather_tree's and
class_center_sample's dtypes, affine_grid's batch, empty grids and ``align_corners``.

Each test compares values, dtypes, shapes and gradients, or the exception type raised for bad
input (whose message must name the API, never torch)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import both, both_same, output_and_grads, paddle_ref, same_exception

RNG = np.random.default_rng(10)


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


def _F(fw):
    return fw.nn.functional


_same = both_same


def _no_torch(exc):
    assert "paddle" in str(exc) and "torch" not in str(exc), str(exc)


# ---------------------------------------------------------------- linear

@pytest.mark.parametrize("dts", [("int64", "float32"), ("float32", "int32"), ("float32", "bool"),
                                 ("int32", "int64"), ("int64", "bool")])
def test_linear_bias_of_a_non_promotable_dtype(dts):
    x = RNG.standard_normal((4, 3))
    w = RNG.standard_normal((3, 2))

    def call(fw):
        t = fw.to_tensor
        return _F(fw).linear(t(x).astype(dts[0]), t(w).astype(dts[0]), t(np.ones(2)).astype(dts[1]))
    _no_torch(same_exception(call))


@pytest.mark.parametrize("dts", [("float32", "complex64"), ("complex64", "float32"), ("float64", "float32")])
def test_linear_bias_of_a_promotable_dtype(dts):
    x = RNG.standard_normal((4, 3))
    w = RNG.standard_normal((3, 2))
    _same(lambda fw: _F(fw).linear(fw.to_tensor(x).astype(dts[0]), fw.to_tensor(w).astype(dts[0]),
                                   fw.to_tensor(np.ones(2)).astype(dts[1])))


# ---------------------------------------------------------------- embedding

W6 = RNG.standard_normal((6, 3)).astype("float32") * 3


@pytest.mark.parametrize("padding_idx", [2.0, True])
def test_embedding_padding_idx_must_be_an_int(padding_idx):
    _no_torch(same_exception(lambda fw: _F(fw).embedding(fw.to_tensor([2, 1]), fw.to_tensor(W6),
                                                         padding_idx=padding_idx)))


def test_embedding_padding_idx_as_numpy_int_or_tensor():
    _same(lambda fw: _F(fw).embedding(fw.to_tensor([2, 1]), fw.to_tensor(W6), padding_idx=np.int64(2)))
    _same(lambda fw: _F(fw).embedding(fw.to_tensor([2, 1]), fw.to_tensor(W6), padding_idx=fw.to_tensor(2)))


def test_embedding_ids_must_be_a_tensor():
    _no_torch(same_exception(lambda fw: _F(fw).embedding(np.array([1]), fw.to_tensor(W6))))


def test_embedding_scale_grad_by_freq_with_sparse():
    _no_torch(same_exception(lambda fw: _F(fw).embedding(fw.to_tensor([1]), fw.to_tensor(W6), sparse=True,
                                                         scale_grad_by_freq=True)))
    same_exception(lambda fw: fw.nn.Embedding(6, 3, sparse=True, scale_grad_by_freq=True)(fw.to_tensor([1])))


@pytest.mark.parametrize("max_norm", [0, 0.0])
def test_embedding_max_norm_of_zero_renormalises_nothing(max_norm):
    def call(fw):
        w = fw.to_tensor(W6)
        return [_F(fw).embedding(fw.to_tensor([1, 4]), w, max_norm=max_norm), w]
    _same(call)


def test_embedding_layer_padding_idx_float():
    same_exception(lambda fw: fw.nn.Embedding(6, 3, padding_idx=2.0))


def test_embedding_layer_takes_weight_itself():
    for fw in both(lambda fw: fw):
        w = fw.to_tensor(np.ones((2, 3), "float32"))
        layer = fw.nn.Embedding(2, 3, padding_idx=1, _weight=w)
        # Paddle: the tensor itself (its padding row zeroed in place), trainable, no parameter
        assert layer.weight is w
        assert w.numpy()[1].tolist() == [0.0, 0.0, 0.0]
        assert layer.weight.stop_gradient is False
        assert [n for n, _ in layer.named_parameters()] == []
        p = fw.create_parameter([2, 3], "float32")
        frozen = fw.nn.Embedding(2, 3, _weight=p, _freeze=True)
        assert frozen.weight is p and p.stop_gradient is True
        assert [n for n, _ in frozen.named_parameters()] == ["weight"]
    same_exception(lambda fw: fw.nn.Embedding(2, 4, _weight=fw.to_tensor(np.ones((2, 3), "float32"))))


def test_embedding_layer_weight_gradient_through_given_weight():
    def call(fw):
        w = fw.to_tensor(W6)
        w.stop_gradient = False
        layer = fw.nn.Embedding(6, 3, padding_idx=-2, _weight=w)
        out = layer(fw.to_tensor([[0, 4, 2]]))
        return [out, *fw.grad((out * out).sum(), [w])]
    _same(call)


# ---------------------------------------------------------------- one_hot

@pytest.mark.parametrize("num_classes", ["4", np.int64(4)])
def test_one_hot_depth_converted_as_paddle(num_classes):
    _same(lambda fw: _F(fw).one_hot(fw.to_tensor([2, 0]), num_classes))


@pytest.mark.parametrize("num_classes", [None, [4], "abc"])
def test_one_hot_depth_of_a_wrong_type(num_classes):
    _no_torch(same_exception(lambda fw: _F(fw).one_hot(fw.to_tensor([2, 0]), num_classes)))


# ---------------------------------------------------------------- normalize

@pytest.mark.parametrize("axis", [[0], (1,), 1.0])
def test_normalize_axis_must_be_an_int(axis):
    x = RNG.standard_normal((2, 3)).astype("float32")
    _no_torch(same_exception(lambda fw: _F(fw).normalize(fw.to_tensor(x), axis=axis)))


def test_normalize_axis_as_a_tensor():
    x = RNG.standard_normal((2, 3)).astype("float32")
    _same(lambda fw: _F(fw).normalize(fw.to_tensor(x), axis=fw.to_tensor(0)))


@pytest.mark.parametrize("out_shape, out_dtype", [([2, 3], "float32"), ([3, 3], "float32"), ([2, 3], "float64")])
def test_normalize_out_is_returned_and_takes_the_result(out_shape, out_dtype):
    x = RNG.standard_normal((2, 3)).astype("float32")

    def call(fw):
        t = fw.to_tensor(x)
        t.stop_gradient = False
        out = fw.zeros(out_shape, out_dtype)
        r = _F(fw).normalize(t, out=out)
        assert r is out
        assert out.stop_gradient is False
        return [out, *fw.grad((out * out * t).sum(), [t])]
    _same(call)


# ---------------------------------------------------------------- gather_tree / class_center_sample

IDS = np.array([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
PAR = np.array([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])


@pytest.mark.parametrize("dts", [("float32", "float32"), ("float32", "int64"), ("int16", "int16")])
def test_gather_tree_ids_of_a_non_integer_dtype(dts):
    _no_torch(same_exception(lambda fw: _F(fw).gather_tree(fw.to_tensor(IDS).astype(dts[0]),
                                                           fw.to_tensor(PAR).astype(dts[1]))))


@pytest.mark.parametrize("num_samples", [0, -1])
def test_class_center_sample_num_samples_must_be_positive(num_samples):
    _no_torch(same_exception(lambda fw: _F(fw).class_center_sample(fw.to_tensor([3, 1]), 10, num_samples)))


def test_class_center_sample_float_labels():
    _no_torch(same_exception(lambda fw: _F(fw).class_center_sample(fw.to_tensor([3.0, 1.0]), 10, 2)))


# ---------------------------------------------------------------- affine_grid

THETA = RNG.standard_normal((2, 2, 3)).astype("float32")


@pytest.mark.parametrize("out_shape", [[3, 1, 3, 4], [1, 5, 3, 4]])
def test_affine_grid_batch_comes_from_theta(out_shape):
    _same(lambda fw: output_and_grads(fw, [THETA], lambda fw, t: _F(fw).affine_grid(t, out_shape)))


def test_affine_grid_empty_output():
    # (a zero width crashes Paddle's kernel with SIGFPE: pagaie returns the empty grid)
    _same(lambda fw: _F(fw).affine_grid(fw.to_tensor(THETA), [2, 1, 0, 3]))
    assert _F(pagaie).affine_grid(pagaie.to_tensor(THETA), [2, 1, 3, 0]).shape == [2, 3, 0, 2]


def test_affine_grid_5d_empty_output():
    theta = RNG.standard_normal((2, 3, 4)).astype("float32")
    _same(lambda fw: _F(fw).affine_grid(fw.to_tensor(theta), [2, 1, 0, 3, 2]))


@pytest.mark.parametrize("align_corners", [0, 1, "yes"])
def test_affine_grid_align_corners_must_be_a_bool(align_corners):
    _no_torch(same_exception(lambda fw: _F(fw).affine_grid(fw.to_tensor(THETA), [2, 1, 3, 4],
                                                           align_corners=align_corners)))
