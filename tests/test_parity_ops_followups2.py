"""Differential tests (pagaie vs real Paddle 3.3.1) for the second round of op follow-ups:
Paddle's ``inplace_version`` counting and ``Tensor._copy_to``, ``x[idx] = v`` with repeated
positions, integer dropouts, the in-place rule for leaves that need gradient, and the
exception types of bad inputs (non-Tensor tensor arguments, too few dimensions, mixed dtypes).
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _arange(P, dtype="float32"):
    return P.to_tensor(np.arange(6, dtype=dtype).reshape(2, 3))


# ---- inplace_version -------------------------------------------------------------------

_VERSION_CASES = {
    "reshape_": lambda P, x: x.reshape_([3, 2]),
    "squeeze_unsqueeze_": lambda P, x: x.unsqueeze_(0).squeeze_(0),
    "flatten_": lambda P, x: x.flatten_(),
    "transpose_": lambda P, x: x.transpose_([1, 0]),
    "cast_": lambda P, x: x.cast_("float64"),
    "set_value": lambda P, x: x.set_value(np.ones((2, 3), "float32")),
    "copy_": lambda P, x: x.copy_(P.ones([2, 3])),
    "_copy_to": lambda P, x: x._copy_to(P.CPUPlace(), True),
    "scale_then_set_value": lambda P, x: (x.scale_(2.0), x.set_value(np.ones((2, 3), "float32"))),
    "setitem": lambda P, x: x.__setitem__(0, 1.0),
    "add_": lambda P, x: x.add_(P.ones([2, 3])),
    "bump": lambda P, x: x._bump_inplace_version(),
}


@pytest.mark.parametrize("case", sorted(_VERSION_CASES))
def test_inplace_version_counts_as_paddle(case):
    def run(P):
        x = _arange(P)
        _VERSION_CASES[case](P, x)
        return x.inplace_version
    ours, theirs = both(run)
    assert ours == theirs


def test_inplace_version_of_a_non_leaf_shape_change():
    def run(P):
        x = _arange(P)
        x.stop_gradient = False
        y = x * 2
        y.unsqueeze_(0)
        y.reshape_([3, 2])
        return y.inplace_version
    ours, theirs = both(run)
    assert ours == theirs == 2


def test_deepcopy_starts_a_new_inplace_version():
    import copy

    def run(P):
        x = _arange(P)
        x.reshape_([3, 2]).scale_(2.0)
        return x.inplace_version, copy.deepcopy(x).inplace_version
    ours, theirs = both(run)
    assert ours == theirs == (2, 0)


def test_copy_to_is_a_detached_copy():
    def run(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        y = (x * 2)._copy_to(P.CPUPlace(), True)
        y.set_value(np.zeros(2, "float32"))  # a copy: x*2 is not touched
        return y, y.stop_gradient, y.is_leaf, str(y.place)
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1:] == theirs[1:]
    same_exception(lambda P: P.ones([2])._copy_to("cpu", True))


# ---- x[idx] = v with repeated positions ------------------------------------------------

@pytest.mark.parametrize("index, vshape, xshape", [
    ("t113", [3], [5]), ("t131", [3], [5]), ("l131", [3], [5]), ("t00", [2, 2], [3, 2]),
    ("pair", [2], [3, 2]), ("t113", [1], [5]),
])
def test_setitem_with_repeated_positions(index, vshape, xshape):
    """Values match Paddle (the last duplicate wins). Paddle sends each repeated cell's
    gradient to the first duplicate, a value that was overwritten; pagaie sends it to the
    value actually written. Either way each written cell counts once, so the gradients'
    total (and the gradient of a broadcast value) agree with Paddle's."""
    def run(P):
        idx = {"t113": lambda: P.to_tensor([1, 1, 3]), "t131": lambda: P.to_tensor([1, 3, 1]),
               "l131": lambda: [1, 3, 1], "t00": lambda: P.to_tensor([0, 0]),
               "pair": lambda: (P.to_tensor([0, 0]), P.to_tensor([1, 1]))}[index]()
        n = int(np.prod(vshape))
        v = P.to_tensor(np.arange(1, n + 1, dtype="float32").reshape(vshape), stop_gradient=False)
        y = P.zeros(xshape) * 1
        y[idx] = v
        w = P.arange(1, int(np.prod(xshape)) + 1, dtype="float32").reshape(xshape)
        (y * w).sum().backward()
        return y, v.grad
    (y, g), (ty, tg) = both(run)
    assert_same(y, ty)
    assert float(g.sum()) == float(tg.sum())
    assert list(g.shape) == list(tg.shape)
    if index in ("t113", "t131", "l131") and vshape == [3]:
        # the written duplicate (the last) carries the cell's gradient
        expected = {"t113": [0.0, 2.0, 4.0], "t131": [0.0, 4.0, 2.0], "l131": [0.0, 4.0, 2.0]}
        assert g.tolist() == expected[index]


# ---- integer dropouts ------------------------------------------------------------------

@pytest.mark.parametrize("api", ["alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d"])
@pytest.mark.parametrize("p", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("training", [True, False])
def test_integer_dropouts_keep_the_dtype(api, p, training):
    def run(P):
        x = P.to_tensor(np.arange(1, 25).reshape(2, 3, 4).astype("int64"))
        if api == "dropout2d":
            x = x.reshape([1, 2, 3, 4])
        P.seed(0)
        return getattr(P.nn.functional, api)(x, p=p, training=training)
    ours, theirs = both(run)
    assert ours.dtype == pagaie.int64 and str(theirs.dtype) == "paddle.int64"
    assert ours.shape == list(theirs.shape)
    if p in (0.0, 1.0) or not training:  # Paddle's random integer values are its own
        assert_same(ours, theirs)


def test_alpha_dropout_p1_drops_everything():
    ours, theirs = both(lambda P: P.nn.functional.alpha_dropout(P.ones([2, 3]), p=1.0))
    assert_same(ours, theirs)


# ---- in-place ops on leaves that need gradient -----------------------------------------

_INPLACE = {
    "fill_": lambda P, x: x.fill_(1), "zero_": lambda P, x: x.zero_(), "tril_": lambda P, x: x.tril_(),
    "fill_diagonal_": lambda P, x: x.fill_diagonal_(5), "add_": lambda P, x: x.add_(P.ones_like(x)),
    "scale_": lambda P, x: x.scale_(2), "setitem": lambda P, x: x.__setitem__(0, 1),
    "reshape_": lambda P, x: x.reshape_([4]), "cast_": lambda P, x: x.cast_("float32"),
    "masked_fill_": lambda P, x: x.masked_fill_(x > 1, 0),
    "put_along_axis_": lambda P, x: x.put_along_axis_(P.to_tensor([[0, 0]]), 1, 0),
    "index_put_": lambda P, x: x.index_put_((P.to_tensor([0]),), P.ones([2], dtype=x.dtype)),
    "where_": lambda P, x: P.where_(x > 1, x, x), "resize_": lambda P, x: x.resize_([4]),
    "apply_": lambda P, x: x.apply_(lambda t: t * 2),
}


@pytest.mark.parametrize("dtype", ["int64", "float32", "bool"])
@pytest.mark.parametrize("op", sorted(_INPLACE))
def test_inplace_on_a_leaf_that_needs_gradient_raises(op, dtype):
    if dtype == "bool" and op in ("add_", "scale_", "cast_", "masked_fill_", "put_along_axis_",
                                  "where_", "index_put_"):
        pytest.skip("Paddle has no bool kernel for some of these")

    def run(P):
        x = P.to_tensor(np.array([[1, 2], [3, 4]]).astype(dtype))
        x.stop_gradient = False
        _INPLACE[op](P, x)
    same_exception(run)


@pytest.mark.parametrize("op", ["set_value", "copy_", "detach_", "floor_divide_", "bitwise_and_"])
def test_writes_paddle_allows_on_an_integer_leaf(op):
    def run(P):
        x = P.to_tensor([[1, 2], [3, 4]])
        x.stop_gradient = False
        {"set_value": lambda: x.set_value(np.ones((2, 2), "int64")),
         "copy_": lambda: x.copy_(P.ones([2, 2], "int64")),
         "detach_": lambda: x.detach_(),
         "floor_divide_": lambda: x.floor_divide_(P.full([2, 2], 2, "int64")),
         "bitwise_and_": lambda: x.bitwise_and_(x)}[op]()
        return x, x.stop_gradient
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1]


def test_integer_results_are_not_leaves():
    def run(P):
        x = P.to_tensor([1, 2, 3])
        x.stop_gradient = False
        y = x + 1
        y.add_(P.ones_like(y))  # not a leaf: allowed
        return y, y.is_leaf, y.stop_gradient, x.is_leaf
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1:] == theirs[1:] == (False, False, True)


def test_gradient_is_a_leaf_that_needs_gradient():
    def run(P):
        x = P.to_tensor([1.0, 2.0], stop_gradient=False)
        (x * x).sum().backward()
        x.grad.zero_()
    same_exception(run)


def test_floor_divide_on_a_float_leaf_is_allowed():
    def run(P):
        x = P.to_tensor([3.0, 5.0], stop_gradient=False)
        x.floor_divide_(P.to_tensor([2.0, 2.0]))
        return x, x.stop_gradient
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert ours[1] == theirs[1] is False


# ---- bad inputs --------------------------------------------------------------------------

def _bad(kind, t):
    return {"list": lambda: t.numpy().tolist(), "none": lambda: None, "np": lambda: t.numpy(),
            "str": lambda: "abc"}[kind]()


_X23 = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
_TENSOR_ARGS = {
    "linear.weight": lambda P, b: P.nn.functional.linear(P.to_tensor(_X23), b(P.ones([3, 2]))),
    "linear.bias": lambda P, b: P.nn.functional.linear(P.to_tensor(_X23), P.ones([3, 2]), b(P.ones([2]))),
    "prelu.weight": lambda P, b: P.nn.functional.prelu(P.ones([2, 3, 4, 4]), b(P.to_tensor([0.25]))),
    "triplet.positive": lambda P, b: P.nn.functional.triplet_margin_loss(
        P.to_tensor(_X23), b(P.to_tensor(_X23)), P.to_tensor(_X23)),
    "affine_grid.theta": lambda P, b: P.nn.functional.affine_grid(b(P.ones([1, 2, 3])), [1, 2, 3, 4]),
    "index_put.value": lambda P, b: P.index_put(P.ones([2, 3]), (P.to_tensor([0]),), b(P.ones([3]))),
    "index_put.indices": lambda P, b: P.index_put(P.ones([2, 3]), b(P.to_tensor([0])), P.ones([3])),
    "einsum.operand": lambda P, b: P.einsum("ij,jk->ik", P.ones([2, 3]), b(P.ones([3, 2]))),
    "bilinear.weight": lambda P, b: P.nn.functional.bilinear(P.ones([2, 3]), P.ones([2, 3]),
                                                             b(P.ones([4, 3, 3]))),
    "batch_norm.mean": lambda P, b: P.nn.functional.batch_norm(P.ones([2, 3, 4]), b(P.zeros([3])),
                                                               P.ones([3])),
    "layer_norm.weight": lambda P, b: P.nn.functional.layer_norm(P.ones([2, 3]), [3], b(P.ones([3]))),
    "cosine_embedding.input2": lambda P, b: P.nn.functional.cosine_embedding_loss(
        P.ones([2, 3]), b(P.ones([2, 3])), P.to_tensor([1, -1])),
    "grid_sample.grid": lambda P, b: P.nn.functional.grid_sample(P.ones([2, 3, 4, 4]),
                                                                 b(P.zeros([2, 4, 4, 2]))),
    "softmax_ce.label": lambda P, b: P.nn.functional.softmax_with_cross_entropy(
        P.ones([2, 3]), b(P.to_tensor([[0], [1]]))),
    "mv.vec": lambda P, b: P.mv(P.ones([2, 3]), b(P.ones([3]))),
    "searchsorted.values": lambda P, b: P.searchsorted(P.to_tensor([1.0, 2.0]), b(P.to_tensor([1.5]))),
    "meshgrid": lambda P, b: P.meshgrid(b(P.ones([2])), P.ones([3])),
    "group_norm.weight": lambda P, b: P.nn.functional.group_norm(P.ones([2, 3, 4]), 3,
                                                                 weight=b(P.ones([3]))),
    "softmax_ce.logits": lambda P, b: P.nn.functional.softmax_with_cross_entropy(
        b(P.ones([2, 3])), P.to_tensor([[0], [1]])),
    "cosine_similarity.x2": lambda P, b: P.nn.functional.cosine_similarity(P.ones([2, 3]),
                                                                           b(P.ones([2, 3]))),
    "npair_loss.anchor": lambda P, b: P.nn.functional.npair_loss(b(P.ones([2, 3])), P.ones([2, 3]),
                                                                 P.to_tensor([1.0, 2.0])),
    "bucketize.sorted_sequence": lambda P, b: P.bucketize(P.to_tensor([1.5]),
                                                          b(P.to_tensor([1.0, 2.0]))),
    "slice_scatter.value": lambda P, b: P.slice_scatter(P.zeros([4, 3]), b(P.ones([2, 3])), [0], [0],
                                                        [2], [1]),
}


@pytest.mark.parametrize("kind", ["list", "none", "np", "str"])
@pytest.mark.parametrize("case", sorted(_TENSOR_ARGS))
def test_non_tensor_in_a_tensor_argument(case, kind):
    if kind == "none" and case in ("linear.bias", "group_norm.weight"):
        pytest.skip("None is the default there")
    ref = paddle_ref()
    try:
        _TENSOR_ARGS[case](ref, lambda t: _bad(kind, t))
    except Exception:  # noqa: BLE001
        pass
    else:
        pytest.skip("Paddle accepts it")
    err = same_exception(lambda P: _TENSOR_ARGS[case](P, lambda t: _bad(kind, t)))
    assert str(err).startswith("paddle.")


_BAD_SHAPES = {
    "take_along_axis_ax99": lambda P: P.take_along_axis(P.ones([3, 4]), P.to_tensor([[0, 1, 2, 0]]), 99),
    "put_along_axis_ax-99": lambda P: P.put_along_axis(P.ones([3, 4]), P.to_tensor([[0, 1, 2, 0]]), 1.0, -99),
    "put_along_axis_1d_input": lambda P: P.put_along_axis(P.ones([12]), P.to_tensor([[0, 1]]), 1.0, 1),
    "bce_logits_complex": lambda P: P.nn.functional.binary_cross_entropy_with_logits(
        P.ones([3], "complex64"), P.ones([3])),
    "adaptive_avg_pool2d_1d": lambda P: P.nn.functional.adaptive_avg_pool2d(P.ones([12]), [None, 2]),
    "adaptive_avg_pool3d_0d": lambda P: P.nn.functional.adaptive_avg_pool3d(P.to_tensor(1.5), [None, 2, 2]),
    "adaptive_max_pool2d_1d": lambda P: P.nn.functional.adaptive_max_pool2d(P.ones([12]), [None, 2]),
    "group_norm_1d": lambda P: P.nn.functional.group_norm(P.ones([12]), 1),
    "grid_sample_0d": lambda P: P.nn.functional.grid_sample(P.to_tensor(1.5), P.zeros([1, 2, 2, 2])),
    "grid_sample_1d": lambda P: P.nn.functional.grid_sample(P.ones([12]), P.zeros([1, 2, 2, 2])),
    "batch_norm_0d": lambda P: P.nn.functional.batch_norm(P.to_tensor(1.5), P.zeros([3]), P.ones([3]),
                                                          training=True),
    "batch_norm_1d_eval": lambda P: P.nn.functional.batch_norm(P.ones([12]), P.zeros([3]), P.ones([3])),
    "cdist_0d": lambda P: P.cdist(P.to_tensor(1.5), P.ones([4, 2])),
    "cdist_1d": lambda P: P.cdist(P.ones([2]), P.ones([4, 2])),
    "cdist_int": lambda P: P.cdist(P.ones([3, 2], "int64"), P.ones([4, 2])),
    "cdist_bool": lambda P: P.cdist(P.ones([3, 2], "bool"), P.ones([4, 2])),
    "cdist_int_int": lambda P: P.cdist(P.ones([3, 2], "int64"), P.ones([4, 2], "int64")),
    "dist_int": lambda P: P.dist(P.ones([3], "int64"), P.ones([3])),
    "dist_bool": lambda P: P.dist(P.ones([3], "bool"), P.ones([3])),
    "dist_int_int": lambda P: P.dist(P.ones([3], "int64"), P.ones([3], "int64")),
    "bce_int_label": lambda P: P.nn.functional.binary_cross_entropy(P.full([3], 0.5), P.ones([3], "int64")),
    "bce_logits_int": lambda P: P.nn.functional.binary_cross_entropy_with_logits(P.ones([3], "int64"),
                                                                                 P.ones([3])),
    "bce_logits_bool": lambda P: P.nn.functional.binary_cross_entropy_with_logits(P.ones([3], "bool"),
                                                                                  P.ones([3])),
    "bce_logits_int_label": lambda P: P.nn.functional.binary_cross_entropy_with_logits(
        P.ones([3]), P.ones([3], "int64")),
    "linear_float64_float32": lambda P: P.nn.functional.linear(P.ones([2, 3], "float64"), P.ones([3, 2])),
    "linear_1d_float64": lambda P: P.nn.functional.linear(P.ones([3], "float64"), P.ones([3, 2])),
}


@pytest.mark.parametrize("case", sorted(_BAD_SHAPES))
def test_bad_input_exception_types(case):
    err = same_exception(_BAD_SHAPES[case])
    assert str(err).startswith("paddle.")


def test_linear_dtype_error_names_the_dtypes():
    err = same_exception(lambda P: P.nn.functional.linear(P.ones([2, 3], "float64"), P.ones([3, 2])))
    assert "float64" in str(err) and "float32" in str(err) and "mat1" not in str(err)


def test_adaptive_pool_none_size_needs_a_batched_input():
    same_exception(lambda P: P.nn.functional.adaptive_avg_pool2d(
        P.to_tensor(np.arange(48, dtype="float32").reshape(3, 4, 4)), [None, 2]))
    ours, theirs = both(lambda P: P.nn.functional.adaptive_avg_pool2d(
        P.to_tensor(np.arange(48, dtype="float32").reshape(1, 3, 4, 4)), [None, 2]))
    assert_same(ours, theirs)


def test_cdist_promotes_mixed_float_dtypes():
    ours, theirs = both(lambda P: P.cdist(P.ones([3, 2], "float64"), P.zeros([4, 2])))
    assert_same(ours, theirs)


# ---- embedding while a static program is recorded -------------------------------------

def test_embedding_kernel_runs_on_meta_ids():
    """The id-range check reads values: it must be skipped for symbolic (meta) ids."""
    kernel = pagaie.nn.functional.embedding.op_record.kernel
    ids = torch.empty(2, 3, dtype=torch.int64, device="meta")
    w = torch.empty(10, 4, device="meta")
    assert list(kernel(ids, w).shape) == [2, 3, 4]
    assert list(kernel(ids, w, max_norm=1.0).shape) == [2, 3, 4]
    with pytest.raises(ValueError):
        kernel(torch.tensor([[0, 12]]), torch.zeros(10, 4))


def test_embedding_records_in_a_static_program():
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            ids = pagaie.static.data("ids", [None, 3], "int64")
            w = pagaie.static.create_parameter([10, 4], "float32")
            out = pagaie.nn.functional.embedding(ids, w)
        assert out.shape == [-1, 3, 4]
    finally:
        pagaie.disable_static()
