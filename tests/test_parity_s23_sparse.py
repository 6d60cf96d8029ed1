"""Session-23: ``paddle.sparse`` against real Paddle 3.3.1: which value dtypes Paddle's CPU
sparse kernels take (another dtype is its NotFound, a RuntimeError), the checks of
``sparse_coo_tensor`` / ``sparse_csr_tensor`` on their indices and values, and the dtypes of
the results."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception
from tests.sparse.helpers import assert_sparse_same

pytest.importorskip("paddle")
warnings.filterwarnings("ignore", module="paddle")

_DENSE = np.array([[0, 1, 0], [-2, 0, 3], [0, 1, 0]])


def _sparse(fw, dtype, layout):
    x = fw.to_tensor(_DENSE).astype(dtype)
    return x.to_sparse_coo(2) if layout == "coo" else x.to_sparse_csr()


_OPS = {
    "abs": lambda fw, x: fw.sparse.abs(x),
    "sqrt": lambda fw, x: fw.sparse.sqrt(x),
    "square": lambda fw, x: fw.sparse.square(x),
    "log1p": lambda fw, x: fw.sparse.log1p(x),
    "neg": lambda fw, x: fw.sparse.neg(x),
    "deg2rad": lambda fw, x: fw.sparse.deg2rad(x),
    "pow": lambda fw, x: fw.sparse.pow(x, 2),
    "isnan": lambda fw, x: fw.sparse.isnan(x),
    "scale": lambda fw, x: fw.sparse.multiply(x, 2.0),
    "divide_scalar": lambda fw, x: fw.sparse.divide(x, 2.0),
    "add": lambda fw, x: fw.sparse.add(x, x),
    "multiply": lambda fw, x: fw.sparse.multiply(x, x),
    "sum": lambda fw, x: fw.sparse.sum(x),
    "transpose": lambda fw, x: fw.sparse.transpose(x, [1, 0]),
    "relu": lambda fw, x: fw.sparse.nn.functional.relu(x),
    "softmax": lambda fw, x: fw.sparse.nn.functional.softmax(x),
    "cast": lambda fw, x: fw.sparse.cast(x, value_dtype="float64"),
}


@pytest.mark.parametrize("op,dtype,layout", [
    ("abs", "int32", "coo"), ("abs", "float16", "csr"), ("sqrt", "complex64", "coo"),
    ("square", "int64", "csr"), ("log1p", "int32", "coo"), ("neg", "int64", "coo"),
    ("neg", "complex64", "csr"), ("deg2rad", "int32", "coo"), ("pow", "int64", "csr"),
    ("isnan", "int16", "coo"), ("isnan", "complex64", "csr"), ("scale", "int64", "coo"),
    ("divide_scalar", "int32", "csr"), ("add", "uint8", "coo"), ("multiply", "float16", "csr"),
    ("sum", "complex64", "coo"), ("sum", "uint8", "csr"), ("transpose", "complex64", "coo"),
    ("relu", "int64", "coo"), ("softmax", "int32", "csr"), ("cast", "complex64", "coo"),
])
def test_value_dtype_without_kernel_is_runtime_error(op, dtype, layout):
    assert isinstance(same_exception(lambda fw: _OPS[op](fw, _sparse(fw, dtype, layout))),
                      RuntimeError)


@pytest.mark.parametrize("op,dtype,layout", [
    ("abs", "complex64", "coo"), ("sqrt", "int32", "csr"), ("square", "complex128", "coo"),
    ("isnan", "float16", "coo"), ("add", "int16", "csr"), ("sum", "int16", "coo"),
    ("sum", "int16", "csr"), ("transpose", "uint8", "csr"),
])
def test_value_dtype_with_kernel(op, dtype, layout):
    ours, theirs = both(lambda fw: _OPS[op](fw, _sparse(fw, dtype, layout)))
    assert_sparse_same(ours, theirs)


@pytest.mark.parametrize("op", ["sin", "abs", "add", "sum", "transpose", "cast"])
def test_bool_values(op):
    # a bool sparse tensor (what isnan gives): the trigonometric and arithmetic kernels refuse
    # it, the sum, shape and cast kernels take it
    def run(fw):
        x = fw.to_tensor([[0, 1.0, 0], [float("nan"), 0, 3], [0, 1, 0]]).to_sparse_coo(2)
        b = fw.sparse.isnan(x)
        return {"sin": lambda: fw.sparse.sin(b), "abs": lambda: fw.sparse.abs(b),
                "add": lambda: fw.sparse.add(b, b), "sum": lambda: fw.sparse.sum(b),
                "transpose": lambda: fw.sparse.transpose(b, [1, 0]),
                "cast": lambda: fw.sparse.cast(b, value_dtype="float32")}[op]()

    if op in ("sin", "abs", "add"):
        assert isinstance(same_exception(run), RuntimeError)
    else:
        assert_sparse_same(*both(run))


@pytest.mark.parametrize("dtype", ["bool", "bfloat16"])
@pytest.mark.parametrize("to", ["coo", "csr"])
def test_dense_to_sparse_refuses_bool_and_bfloat16(dtype, to):
    assert isinstance(same_exception(lambda fw: _sparse(fw, dtype, to)), RuntimeError)


def test_coalesce_int8_is_runtime_error():
    same_exception(lambda fw: fw.sparse.coalesce(_sparse(fw, "int8", "coo")))


# -- sparse_coo_tensor's checks ---------------------------------------------------------------

_IDX = [[0, 1, 1, 2], [1, 0, 2, 1]]
_VAL = [1.0, -2.0, 3.0, 4.0]


@pytest.mark.parametrize("make", [
    lambda fw: fw.sparse.sparse_coo_tensor(fw.to_tensor(_IDX, "uint8"), _VAL, [3, 3]),
    lambda fw: fw.sparse.sparse_coo_tensor(np.array(_IDX, "int16"), _VAL, [3, 3]),
    lambda fw: fw.sparse.sparse_coo_tensor(fw.to_tensor(_IDX, "int8"), _VAL),
    lambda fw: fw.sparse.sparse_coo_tensor(_IDX, fw.to_tensor(_VAL).astype("bool"), [3, 3]),
    lambda fw: fw.sparse.sparse_coo_tensor(_IDX, _VAL, [3, 3], dtype="int8"),
    lambda fw: fw.sparse.sparse_coo_tensor(_IDX, fw.to_tensor(_VAL).astype("bfloat16")),
    lambda fw: fw.sparse.sparse_coo_tensor(np.zeros((2, 0), "int64"), np.zeros(0, "float32"),
                                           [3, 3]),
    lambda fw: fw.sparse.sparse_coo_tensor(np.zeros((2, 0), "int64"), np.zeros(0, "float32")),
], ids=["uint8 indices", "int16 indices", "int8 indices", "bool values", "int8 dtype",
        "bfloat16 values", "empty with shape", "empty"])
def test_sparse_coo_tensor_refusals(make):
    same_exception(make)


@pytest.mark.parametrize("make", [
    lambda fw: fw.sparse.sparse_coo_tensor(fw.to_tensor(_IDX, "int32"), _VAL, [3, 3]),
    lambda fw: fw.sparse.sparse_coo_tensor(_IDX, fw.to_tensor(_VAL).astype("uint8"), [3, 3]),
    lambda fw: fw.sparse.sparse_coo_tensor(_IDX, _VAL, [3, 3], dtype="int16"),
    lambda fw: fw.sparse.sparse_coo_tensor(_IDX, fw.to_tensor(_VAL).astype("float16")),
], ids=["int32 indices", "uint8 values", "int16 dtype", "float16 values"])
def test_sparse_coo_tensor_accepts(make):
    ours, theirs = both(make)
    assert_sparse_same(ours, theirs)
    assert_same(ours.indices(), theirs.indices())


def test_sparse_csr_tensor_uint8_indices_is_type_error():
    same_exception(lambda fw: fw.sparse.sparse_csr_tensor(
        fw.to_tensor([0, 1, 3, 4], "uint8"), fw.to_tensor([1, 0, 2, 1], "uint8"), _VAL, [3, 3]))


# -- sparse + dense, mask_as ------------------------------------------------------------------

def _coo3(fw, shape=(3, 3)):
    if len(shape) == 3:
        return fw.sparse.sparse_coo_tensor([[0, 1], [1, 0], [2, 1]], [1.0, 2.0], list(shape))
    return fw.sparse.sparse_coo_tensor([[1, 0, 2], [0, 1, 1]], [1.0, 2.0, 3.0], list(shape))


@pytest.mark.parametrize("x_shape,y_shape", [((3, 3), [1]), ((3, 3), [2, 3]), ((2, 2, 3), [1]),
                                             ((2, 2, 3), [2]), ((2, 2, 3), [3, 3])])
def test_add_dense_y_checks(x_shape, y_shape):
    # Paddle first broadcasts the two shapes (ValueError), then adds only a 1-D y the size of
    # x's last axis (else NotImplementedError)
    same_exception(lambda fw: fw.sparse.add(_coo3(fw, x_shape), fw.ones(y_shape)))


def test_add_dense_bias():
    ours, theirs = both(lambda fw: fw.sparse.add(_coo3(fw), fw.to_tensor([1.0, 2.0, 3.0])))
    assert_sparse_same(ours, theirs)


def test_mask_as_result_is_marked_coalesced():
    # an unsorted mask (no repeated index): Paddle's result is still marked coalesced
    ours, theirs = both(lambda fw: fw.sparse.mask_as(
        fw.arange(9, dtype="float32").reshape([3, 3]), _coo3(fw)).is_coalesced())
    assert ours == theirs


# -- stop_gradient ------------------------------------------------------------------------------

def _leaf_coo(fw):
    v = fw.to_tensor([0.5, -0.2, 0.3, 0.4])
    v.stop_gradient = False
    return fw.sparse.sparse_coo_tensor(_IDX, v, [3, 3], stop_gradient=False)


def test_coalesce_stops_gradient():
    # Paddle's coalesce has no backward: its result says stop_gradient=True
    ours, theirs = both(lambda fw: fw.sparse.coalesce(_leaf_coo(fw)).stop_gradient)
    assert ours == theirs


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_mask_as_ignores_mask_stop_gradient(layout):
    def run(fw):
        # a gradient read first: from then on pagaie also checks results torch does not track
        d = fw.ones([2])
        d.stop_gradient = False
        (d * 2).sum().backward()
        assert d.grad is not None
        mask = _leaf_coo(fw)
        mask = mask if layout == "coo" else mask.to_sparse_csr()
        return fw.sparse.mask_as(fw.ones([3, 3]), mask).stop_gradient

    ours, theirs = both(run)
    assert ours == theirs


# -- sparse.nn.functional -------------------------------------------------------------------------

def _grid(fw, dtype="float32"):
    d = np.zeros((1, 5, 5, 5, 2), "float32")
    d[0, 1, 2, 3] = [1.0, -2.0]
    d[0, 4, 0, 1] = [0.5, 4.0]
    d[0, 0, 0, 0] = [-1.0, 3.0]
    return fw.to_tensor(d).astype(dtype).to_sparse_coo(4)


_W3 = np.random.default_rng(0).standard_normal((3, 3, 3, 2, 3)).astype("float32")


@pytest.mark.parametrize("fn", [
    lambda fw, x: fw.sparse.nn.functional.conv3d(x, fw.to_tensor(_W3).astype(x.dtype)),
    lambda fw, x: fw.sparse.nn.functional.subm_conv3d(x, fw.to_tensor(_W3).astype(x.dtype)),
    lambda fw, x: fw.sparse.nn.functional.max_pool3d(x, 2),
], ids=["conv3d", "subm_conv3d", "max_pool3d"])
def test_conv_and_pool_integer_values_are_runtime_error(fn):
    assert isinstance(same_exception(lambda fw: fn(fw, _grid(fw, "int32"))), RuntimeError)


@pytest.mark.parametrize("kwargs", [dict(kernel_size=2, stride=2, ceil_mode=True),
                                    dict(kernel_size=3, stride=2, ceil_mode=True, padding=1)])
def test_max_pool3d_rounds_down_whatever_ceil_mode(kwargs):
    ours, theirs = both(lambda fw: fw.sparse.nn.functional.max_pool3d(_grid(fw), **kwargs))
    assert_sparse_same(ours, theirs)


def test_max_pool3d_valid_padding_refuses_ceil_mode():
    same_exception(lambda fw: fw.sparse.nn.MaxPool3D(2, padding="VALID", ceil_mode=True)(
        _grid(fw)))


@pytest.mark.parametrize("sort", [True, False])
def test_subm_conv3d_result_is_sorted_and_coalesced(sort):
    def run(fw):
        idx = [[0, 0, 0], [0, 1, 3], [0, 2, 0], [0, 3, 1]] if sort else \
            [[0, 0, 0], [3, 1, 0], [0, 2, 0], [1, 3, 0]]
        x = fw.sparse.sparse_coo_tensor(idx, [[0.5, 4.0], [1.0, -2.0], [-1.0, 3.0]],
                                        [1, 4, 4, 4, 2])
        out = fw.sparse.nn.functional.subm_conv3d(x, fw.to_tensor(_W3), padding=1)
        return out, out.is_coalesced()

    (ours, oflag), (theirs, tflag) = both(run)
    assert_sparse_same(ours, theirs, rtol=1e-4, atol=1e-5)
    assert oflag == tflag


# -- integer values and stop_gradient -------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda fw: fw.sparse.sparse_coo_tensor(_IDX, [1, 2, 3, 4], [3, 3], stop_gradient=False),
    lambda fw: fw.sparse.sparse_csr_tensor([0, 1, 3, 4], [1, 0, 2, 1], [1, 2, 3, 4], [3, 3],
                                           stop_gradient=False),
], ids=["coo", "csr"])
def test_integer_values_keep_stop_gradient_false(make):
    def run(fw):
        x = make(fw)
        # sin runs the float32 kernel on integers, untracked; transpose keeps the flag
        return x.stop_gradient, fw.sparse.sin(x).stop_gradient, \
            fw.sparse.transpose(x, [1, 0]).stop_gradient

    ours, theirs = both(run)
    assert ours == theirs


def test_sparse_csr_tensor_without_entries_needs_shape():
    same_exception(lambda fw: fw.sparse.sparse_csr_tensor([0, 0, 0], np.zeros(0, "int64"),
                                                          np.zeros(0, "float32")))
