"""Differential tests against real Paddle: creation, search and manipulation ops (argument
types, non-Tensor arguments, kernel dtypes, index_fill's data values)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _run(mod, fn):
    try:
        return "ok", fn(mod)
    except Exception as e:  # noqa: BLE001 - the exception type is what is compared
        return "err", type(e)


def _flat(r):
    """The tensors of a (nested) result, in order."""
    if isinstance(r, (list, tuple)):
        return [t for e in r for t in _flat(e)]
    return [r]


def _same(fn):
    """Run ``fn`` with real Paddle and pagaie: the same exception type, or equal results."""
    kp, rp = _run(paddle, fn)
    kg, rg = _run(pagaie, fn)
    assert kp == kg, (rp, rg)
    if kp == "err":
        assert issubclass(rg, rp) or rp is rg, (rp, rg)
        return
    rp, rg = _flat(rp), _flat(rg)
    assert len(rp) == len(rg)
    for a, b in zip(rp, rg):
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        assert list(a.shape) == list(b.shape)
        assert a.stop_gradient == b.stop_gradient
        np.testing.assert_allclose(a.numpy(), b.numpy())


def _ones(m):
    return m.ones([2, 2])


# ---- non-Tensor arguments: Paddle's exception types ---------------------------------------
BAD_ARGS = {
    "expand_as y": lambda m, v: m.expand_as(m.ones([1, 2]), v),
    "index_add value": lambda m, v: m.index_add(_ones(m), m.to_tensor([0]), 0, v),
    "histogram weight": lambda m, v: m.histogram(m.ones([4]), weight=v),
    "bincount weights": lambda m, v: m.bincount(m.to_tensor([0, 1, 0, 1]), v),
    "shard_index input": lambda m, v: m.shard_index(v, 20, 2, 0),
    "gather_nd index": lambda m, v: m.gather_nd(_ones(m), v),
    "scatter_nd index": lambda m, v: m.scatter_nd(v, _ones(m), [3, 2]),
    "scatter_nd_add index": lambda m, v: m.scatter_nd_add(m.ones([3, 2]), v, _ones(m)),
    "reshape x": lambda m, v: m.reshape(v, [4]),
    "slice_scatter x": lambda m, v: m.slice_scatter(v, m.ones([1, 2]), [0], [0], [1], [1]),
    "masked_fill value": lambda m, v: m.masked_fill(_ones(m), _ones(m) > 0, v),
    "diag_embed input": lambda m, v: m.diag_embed(v),
}
VALUES = {
    "float": lambda k: 1.5,
    "int": lambda k: 1,
    "list": lambda k: [[1.0, 2.0], [3.0, 4.0]],
    "none": lambda k: None,
    "numpy": lambda k: np.zeros((2, 1), "int64") if k.endswith(("index", "input")) else np.ones((2, 2), "float32"),
}


@pytest.mark.parametrize("value", sorted(VALUES))
@pytest.mark.parametrize("case", sorted(BAD_ARGS))
def test_non_tensor_argument(case, value):
    if case == "masked_fill value" and value in ("float", "int"):
        pytest.skip("a number is a valid fill value")
    if case == "diag_embed input" and value in ("list", "numpy", "float", "int"):
        pytest.skip("diag_embed assigns data first")
    _same(lambda m: BAD_ARGS[case](m, VALUES[value](case)))


@pytest.mark.parametrize("case", ["empty broadcast_tensors", "column_stack 2-D arrays",
                                  "cartesian_prod 2-D array", "gather int", "index_select int",
                                  "gather torch form", "index_select torch form"])
def test_argument_forms(case):
    fn = {
        "empty broadcast_tensors": lambda m: m.broadcast_tensors([]),
        "column_stack 2-D arrays": lambda m: m.column_stack([np.ones((2, 2)), np.ones((2, 2))]),
        "cartesian_prod 2-D array": lambda m: m.cartesian_prod([m.ones([2]), np.ones((2, 2), "float32")]),
        "gather int": lambda m: m.gather(_ones(m), 1),
        "index_select int": lambda m: m.index_select(_ones(m), 1),
        "gather torch form": lambda m: m.gather(_ones(m), 1, m.to_tensor([[0], [1]])),
        "index_select torch form": lambda m: m.index_select(_ones(m), 1, m.to_tensor([1])),
    }[case]
    _same(fn)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int8", "int16", "uint8", "complex64",
                                   "bool", "float32", "int64"])
def test_bincount_weight_dtypes(dtype):
    _same(lambda m: m.bincount(m.to_tensor([1, 2, 1]), m.to_tensor([1, 2, 3], dtype)))


# ---- index_fill with data values ------------------------------------------------------------
FILL_VALUES = [[5.0], [], np.array([5.0]), np.array(5.0), 1 + 1j, [1.0, 2.0, 3.0, 4.0],
               [[1.0], [2.0]], None, "a"]


@pytest.mark.parametrize("k", range(len(FILL_VALUES)))
@pytest.mark.parametrize("axis", [0, 2])
def test_index_fill_data_value(k, axis):
    v = FILL_VALUES[k]

    def fn(m):
        x = m.to_tensor(np.arange(24.0).reshape(2, 3, 4).astype("float32"))
        return m.index_fill(x, m.to_tensor([1, 0]), axis, v)
    _same(fn)


def test_index_fill_data_value_inplace_and_grad():
    def fn(m):
        x = m.to_tensor(np.ones((2, 3), "float32"), stop_gradient=False)
        y = m.index_fill(x, m.to_tensor([0]), 1, [1.0, 2.0])
        (y * 2).sum().backward()
        z = m.zeros([2, 3])
        z.index_fill_(m.to_tensor([2]), 1, np.array([7.0, 8.0]))
        return [y, x.grad, z]
    _same(fn)


# ---- scalar arguments read by Paddle's C++ argument parser --------------------------------
def _x(m):
    return m.to_tensor(np.arange(12.0).reshape(3, 4).astype("float32"))


SCALAR_ARGS = {
    "kthvalue k": lambda m, v: m.kthvalue(_x(m), v),
    "diagonal offset": lambda m, v: m.diagonal(_x(m), v),
    "shard_index index_num": lambda m, v: m.shard_index(m.to_tensor([[1]]), v, 2, 0),
    "shard_index nshards": lambda m, v: m.shard_index(m.to_tensor([[1]]), 20, v, 0),
    "shard_index shard_id": lambda m, v: m.shard_index(m.to_tensor([[1]]), 20, 2, v),
    "put_along_axis reduce": lambda m, v: m.put_along_axis(_x(m), m.to_tensor([[0]]), 1.0, 1, v),
    "index_put accumulate": lambda m, v: m.index_put(_x(m), (m.to_tensor([0]),), m.to_tensor(1.0), v),
    "narrow start": lambda m, v: m.narrow(_x(m), 0, v, 1),
    "narrow length": lambda m, v: m.narrow(_x(m), 0, 0, v),
}
SCALARS = [1, 1.0, np.int64(1), np.float32(1), True, "a"]


@pytest.mark.parametrize("k", range(len(SCALARS)))
@pytest.mark.parametrize("case", sorted(SCALAR_ARGS))
def test_parser_scalar_argument(case, k):
    _same(lambda m: SCALAR_ARGS[case](m, SCALARS[k]))


MORE_ARGS = {
    "vander bool n": lambda m: m.vander(m.to_tensor([1.0, 2.0]), True),
    "histogram str min": lambda m: m.histogram(_x(m), 4, "a", 5),
    "histogram str max": lambda m: m.histogram(_x(m), 4, 0, "a"),
    "arange list end": lambda m: m.arange([3]),
    "arange tuple step": lambda m: m.arange(0, 5, (1,)),
    "tile bool": lambda m: m.tile(_x(m), True),
    "expand bool": lambda m: m.expand(_x(m)[0, :1], True),
    "broadcast_to bool": lambda m: m.broadcast_to(_x(m)[0, :1], True),
    "reshape bool": lambda m: m.reshape(_x(m), True),
    "crop bool offsets": lambda m: m.crop(_x(m)[0], [2], True),
    "moveaxis bool source": lambda m: m.moveaxis(_x(m), True, 0),
    "moveaxis bool destination": lambda m: m.moveaxis(_x(m), 0, True),
    "as_strided float shape": lambda m: m.as_strided(_x(m), 1.5, [1]),
    "as_strided str shape": lambda m: m.as_strided(_x(m), "a", [1]),
    "as_strided float entry": lambda m: m.as_strided(_x(m), [2.0], [1]),
    "as_strided bool stride": lambda m: m.as_strided(_x(m), [2], [True]),
    "as_strided int shape": lambda m: m.as_strided(_x(m), 2, [1]),
}


@pytest.mark.parametrize("case", sorted(MORE_ARGS))
def test_argument_types(case):
    _same(MORE_ARGS[case])


SLICE_ARGS = {
    "strided_slice str strides": lambda m: m.strided_slice(_x(m), [0], [0], [1], "a"),
    "strided_slice str axes": lambda m: m.strided_slice(_x(m), ["a"], [0], [1], [1]),
    "strided_slice float axes": lambda m: m.strided_slice(_x(m), [1.5], [0], [1], [1]),
    "strided_slice bool axes": lambda m: m.strided_slice(_x(m), True, [0], [1], [1]),
    "strided_slice None strides": lambda m: m.strided_slice(_x(m), [0], [0], [1], None),
    "strided_slice None starts": lambda m: m.strided_slice(_x(m), [0], None, [1], [1]),
    "slice None ends": lambda m: m.slice(_x(m), [0], [0], None),
    "rot90 str k": lambda m: m.rot90(_x(m), "a"),
    "index_fill bool axis": lambda m: m.index_fill(_x(m), m.to_tensor([0]), True, 1.0),
    "histogramdd float bins": lambda m: m.histogramdd(_x(m)[:, :2], 2.0),
    "histogramdd str bins": lambda m: m.histogramdd(_x(m)[:, :2], "a"),
    "histogramdd bool bins": lambda m: m.histogramdd(_x(m)[:, :2], True),
}

BOOL_ARGS = {
    "median keepdim": lambda m, v: m.median(_x(m), 1, v),
    "nanmedian keepdim": lambda m, v: m.nanmedian(_x(m), 1, v),
    "kthvalue keepdim": lambda m, v: m.kthvalue(_x(m), 1, 1, v),
    "mode keepdim": lambda m, v: m.mode(_x(m), 1, v),
    "histogram density": lambda m, v: m.histogram(_x(m), 3, density=v),
    "put_along_axis include_self": lambda m, v: m.put_along_axis(_x(m), m.to_tensor([[0]]), 1.0, 1, "add", v),
}


@pytest.mark.parametrize("value", [True, 1, None, "a", np.bool_(True)])
@pytest.mark.parametrize("case", sorted(BOOL_ARGS))
def test_parser_bool_argument(case, value):
    _same(lambda m: BOOL_ARGS[case](m, value))


@pytest.mark.parametrize("case", sorted(SLICE_ARGS))
def test_slice_argument_types(case):
    _same(SLICE_ARGS[case])
