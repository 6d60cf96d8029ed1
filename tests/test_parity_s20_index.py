"""Session-20 sweep of indexing and assignment against real Paddle 3.3.1: ``Tensor.__getitem__``
/ ``__setitem__`` index and value types, numbers that overflow the tensor's dtype, and the index
dtypes and value dtypes of the functional gather/scatter family."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception, same_static_exception

_A = np.arange(24).reshape(2, 3, 4)


def _x(P, dt="float32"):
    return P.to_tensor(_A.astype(dt))


def _set(P, dt, index, value):
    x = _x(P, dt)
    x[index(P) if callable(index) else index] = value(P) if callable(value) else value
    return x


# -- __getitem__: index kinds Paddle refuses ------------------------------------------------

@pytest.mark.parametrize("index", [
    lambda P: np.bool_(True),                              # a numpy bool scalar is no index
    lambda P: (0, np.bool_(False)),
    lambda P: P.to_tensor(1, dtype="int16"),               # 0-D index tensors: int32/int64 only
    lambda P: P.to_tensor(1, dtype="uint8"),
    lambda P: P.to_tensor(1.0),
], ids=["np_bool", "np_bool_in_tuple", "0d_int16", "0d_uint8", "0d_float"])
def test_getitem_refused_index_kinds(index):
    same_exception(lambda P: _x(P)[index(P)])


@pytest.mark.parametrize("index", [
    lambda P: [np.bool_(True), np.bool_(False)],           # a list of numpy bools is a mask
    lambda P: P.to_tensor(1, dtype="int32"),
    lambda P: (np.int64(1), np.int32(0)),
    lambda P: (0, slice(None), [0, 1]),
], ids=["np_bool_list", "0d_int32", "np_ints", "int_slice_list"])
def test_getitem_accepted_index_kinds(index):
    assert_same(*both(lambda P: _x(P)[index(P)]))


def test_setitem_refuses_numpy_bool_index():
    same_exception(lambda P: _set(P, "float32", np.bool_(True), 1.0))


# -- __setitem__: value kinds ---------------------------------------------------------------

@pytest.mark.parametrize("value", [np.float32(1.5), np.int64(3), np.bool_(True), np.int32(4)],
                         ids=["np_float32", "np_int64", "np_bool", "np_int32"])
@pytest.mark.parametrize("index", [0, [0]], ids=["basic", "advanced"])
def test_setitem_refuses_numpy_scalars(value, index):
    same_exception(lambda P: _set(P, "float32", index, value))


@pytest.mark.parametrize("value", [np.float64(2.5), np.array(2.5), np.arange(4.0)],
                         ids=["np_float64", "np_0d", "np_1d"])
def test_setitem_takes_numpy_float64_and_arrays(value):
    assert_same(*both(lambda P: _set(P, "float32", (0, 1), value)))


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "uint8", "int8", "int16"])
def test_setitem_numpy_array_into_dtypes_paddle_refuses(dt):
    same_exception(lambda P: _set(P, dt, (0, 1), np.ones(4, "float32")))


@pytest.mark.parametrize("dt", ["bool", "int32", "int64", "float64", "complex64"])
def test_setitem_numpy_array_into_dtypes_paddle_takes(dt):
    assert_same(*both(lambda P: _set(P, dt, (0, 1), np.ones(4, "float32"))))


def test_setitem_index_error_before_value_error():
    exc = same_exception(lambda P: _set(P, "float32", 5, [1.0, 2.0]))
    assert isinstance(exc, IndexError)


# -- __setitem__ / masked_fill: numbers beyond the dtype's range ----------------------------

_OVERFLOW = [("float32", 1e40), ("float32", 2 ** 70), ("float16", 1e6), ("uint8", 300),
             ("uint8", -1.7), ("int8", 200), ("int16", 40000), ("int32", 2 ** 40),
             ("int32", float("nan")), ("int32", float("-inf")), ("int64", 2 ** 70),
             ("complex64", 1e40), ("bool", 2 ** 70)]


@pytest.mark.parametrize("dt,value", _OVERFLOW, ids=[f"{d}-{v}" for d, v in _OVERFLOW])
def test_setitem_number_overflowing_dtype(dt, value):
    for index in (0, [1], (Ellipsis, slice(None, None, -2))):
        assert_same(*both(lambda P: _set(P, dt, index, value)), what=f"index {index}")


@pytest.mark.parametrize("dt,value", [("int32", float("nan")), ("uint8", 300), ("float32", 1e40)])
def test_masked_fill_number_overflowing_dtype(dt, value):
    assert_same(*both(lambda P: P.masked_fill(_x(P, dt), _x(P) > 5, value)))


# -- index dtypes of the functional forms -----------------------------------------------------

def _i(P, v, dt):
    return P.to_tensor(np.array(v, dtype=dt))


_SMALL_INT_INDEX_CALLS = {
    "index_select": lambda P, dt: P.index_select(_x(P)[0], _i(P, [1, 0], dt), axis=1),
    "gather": lambda P, dt: P.gather(_x(P)[0], _i(P, [1, 0], dt)),
    "gather_nd": lambda P, dt: P.gather_nd(_x(P)[0], _i(P, [[1], [0]], dt)),
    "index_sample": lambda P, dt: P.index_sample(_x(P)[0], _i(P, [[0], [1], [0]], dt)),
    "scatter": lambda P, dt: P.scatter(_x(P)[0], _i(P, [0], dt), P.ones([1, 4])),
    "scatter_nd_add": lambda P, dt: P.scatter_nd_add(_x(P)[0], _i(P, [[0]], dt), P.ones([1, 4])),
    "scatter_nd": lambda P, dt: P.scatter_nd(_i(P, [[0]], dt), P.ones([1, 4]), [3, 4]),
    "index_add": lambda P, dt: P.index_add(_x(P)[0], _i(P, [0], dt), 0, P.ones([1, 4])),
    "index_fill": lambda P, dt: P.index_fill(_x(P)[0], _i(P, [0], dt), 0, 2.0),
    "index_put": lambda P, dt: P.index_put(_x(P)[0], (_i(P, [0], dt),), P.to_tensor(2.0)),
    "scatter_reduce": lambda P, dt: P.scatter_reduce(_x(P)[0], 0, _i(P, [[0]], dt), P.ones([1, 1]),
                                                     "sum"),
    "scatter_add": lambda P, dt: P.scatter_add(_x(P)[0], 0, _i(P, [[0]], dt), P.ones([1, 1])),
}


@pytest.mark.parametrize("dt", ["int8", "int16", "uint8"])
@pytest.mark.parametrize("api", sorted(_SMALL_INT_INDEX_CALLS))
def test_small_int_index_refused(api, dt):
    same_exception(lambda P: _SMALL_INT_INDEX_CALLS[api](P, dt))


@pytest.mark.parametrize("api", sorted(_SMALL_INT_INDEX_CALLS))
def test_int32_index_still_runs(api):
    assert_same(*both(lambda P: _SMALL_INT_INDEX_CALLS[api](P, "int32")))


def test_gather_nd_list_index_is_attribute_error():
    exc = same_exception(lambda P: P.gather_nd(_x(P), [[0, 1]]))
    assert isinstance(exc, AttributeError)


def test_scatter_nd_add_0d_index_refused():
    same_exception(lambda P: P.scatter_nd_add(_x(P)[0], P.to_tensor(1), P.ones([4])))


# -- put_along_axis: data values take to_tensor's dtype, which must be arr's ------------------

_VALUES = [1, 1.5, True, np.float32(2), np.array(2.0), [[2.0], [3.0], [4.0]]]


@pytest.mark.parametrize("dt", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("value", _VALUES, ids=["int", "float", "bool", "np_f32", "np_0d", "list"])
def test_put_along_axis_data_values(dt, value):
    def run(P):
        return P.put_along_axis(_x(P, dt)[0], _i(P, [[0], [1], [2]], "int64"), value, 1,
                                reduce="add")
    try:
        ours, theirs = both(run)
    except Exception:  # noqa: BLE001 - one of them raised: they must raise alike
        same_exception(run)
        return
    assert_same(ours, theirs)


# -- scatter: PyTorch's form by keyword ---------------------------------------------------------

def _scatter_args(P):
    return P.to_tensor(_A[0].astype("float32")), P.to_tensor([[0], [1], [2]]), P.ones([3, 1])


_TORCH_SCATTER = {
    "reduce_kw": lambda P, x, i, s: P.scatter(x, 1, i, s, reduce="add"),
    "reduce_multiply": lambda P, x, i, s: P.scatter(x, 1, i, s * 3, reduce="multiply"),
    "src_kw": lambda P, x, i, s: P.scatter(x, 1, i, src=s),
    "value_kw": lambda P, x, i, s: P.scatter(x, 1, i, value=s),
    "all_kw": lambda P, x, i, s: P.scatter(input=x, dim=1, index=i, src=s),
    "dim_kw": lambda P, x, i, s: P.scatter(x, dim=1, index=i, src=s),
    "method": lambda P, x, i, s: x.scatter(dim=1, index=i, src=s, reduce="add"),
    "inplace_method": lambda P, x, i, s: [x.scatter_(1, i, value=s, reduce="add"), x],
    "inplace_fn": lambda P, x, i, s: [P.scatter_(x, 1, i, s, reduce="add"), x],
    "paddle_kw": lambda P, x, i, s: P.scatter(x=x, index=P.to_tensor([1]), updates=P.ones([1, 4]),
                                              overwrite=False),
}


@pytest.mark.parametrize("form", sorted(_TORCH_SCATTER))
def test_scatter_pytorch_form_keywords(form):
    assert_same(*both(lambda P: _TORCH_SCATTER[form](P, *_scatter_args(P))))


@pytest.mark.parametrize("call", [
    lambda P, x, i, s: P.scatter(x, 1, i),                      # no src
    lambda P, x, i, s: P.scatter(x, 1, i, src=s, value=s),     # both spellings
], ids=["no_src", "src_and_value"])
def test_scatter_pytorch_form_bad_calls(call):
    same_exception(lambda P: call(P, *_scatter_args(P)))


# -- slice axes, 0-D arr of the along-axis ops --------------------------------------------------

@pytest.mark.parametrize("axes", [lambda P: 1, lambda P: P.to_tensor([1]), lambda P: np.array([1])],
                         ids=["int", "tensor", "ndarray"])
def test_slice_axes_must_be_a_list(axes):
    same_exception(lambda P: P.slice(_x(P), axes(P), [1], [3]))


def test_strided_slice_takes_int_axes():
    assert_same(*both(lambda P: P.strided_slice(_x(P), 1, [1], [3], [1])))


@pytest.mark.parametrize("call", [
    lambda P: P.take_along_axis(P.to_tensor(1.0), P.to_tensor(0), 0),
    lambda P: P.take_along_axis(P.to_tensor(1.0), P.to_tensor(0), -1),
    lambda P: P.put_along_axis(P.to_tensor(1.0), P.to_tensor(0), 5.0, 0),
], ids=["take", "take_neg_axis", "put"])
def test_along_axis_0d_arr(call):
    exc = same_exception(call)
    assert isinstance(exc, AssertionError)


# -- index errors while a program is built --------------------------------------------------------

def _data(P):
    return P.static.data("x", [2, 3, 4], "float32")


def _static_set(P, index):
    y = _data(P) * 1
    y[index] = 1.0
    return y


@pytest.mark.parametrize("build", [
    lambda P: _data(P)[1.0],                               # IndexError in a program
    lambda P: _data(P)["a"],
    lambda P: _data(P)[0, np.bool_(True)],
    lambda P: _data(P)[..., ...],
    lambda P: _static_set(P, np.bool_(True)),
    lambda P: _data(P)[[1.0]],                             # TypeError in a program
], ids=["float", "str", "np_bool", "two_ellipses", "set_np_bool", "float_list"])
def test_static_index_errors(build):
    same_static_exception(build)


# -- index_put with only 0-D indices, index_add's float alpha on integers ---------------------

@pytest.mark.parametrize("indices", [
    lambda P: (P.to_tensor(1),), lambda P: (P.to_tensor(1), P.to_tensor(2)),
    lambda P: (P.to_tensor(True),),
], ids=["one_0d", "two_0d", "0d_bool"])
def test_index_put_all_0d_indices_refused(indices):
    same_exception(lambda P: P.index_put(_x(P)[0], indices(P), P.to_tensor(1.0)))


def test_index_put_0d_with_1d_index_runs():
    assert_same(*both(lambda P: P.index_put(_x(P)[0], (P.to_tensor(1), P.to_tensor([2])),
                                            P.to_tensor(1.0))))


@pytest.mark.parametrize("dt,alpha", [("int32", 2.0), ("int64", 1.5), ("float16", 2.5),
                                      ("float32", True), ("int32", 3)])
def test_index_add_alpha_kinds(dt, alpha):
    def run(P):
        return P.index_add(_x(P, dt)[0], P.to_tensor([0]), 0, P.ones([1, 4], dt), alpha=alpha)
    if dt.startswith("int") and isinstance(alpha, float):
        same_exception(run)
    else:
        assert_same(*both(run))


def test_setitem_int_tensor_from_value_needing_gradients():
    def run(P):
        x = _x(P, "int32")
        v = P.ones([3, 4])
        v.stop_gradient = False
        x[0] = v
        with P.no_grad():
            y = _x(P, "int32")
            y[0] = v
        return [x, x.stop_gradient, x.is_leaf, (x + 1).stop_gradient, y.stop_gradient]
    assert_same(*both(run))
