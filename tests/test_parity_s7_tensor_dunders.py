"""Differential tests (against real Paddle 3.3.1) of the Tensor protocol: operators with
Python scalars and numpy values, conversions (bool/int/float/complex/index), numpy interop
(``__array__``, ``__array_ufunc__``), deepcopy, pickle, DLPack, the printed form of a
distributed tensor, and the cumulative ops' axis/dtype checks."""
from __future__ import annotations

import copy
import operator
import pickle

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _t(fw, v, dtype=None, stop_gradient=True):
    t = fw.to_tensor(v, dtype=dtype)
    t.stop_gradient = stop_gradient
    return t


# ---- operators ---------------------------------------------------------------------------
_OPERATOR_CASES = {
    "abs_int": lambda fw: abs(_t(fw, [-1, 2], "int32")),
    "neg_float": lambda fw: -_t(fw, [-1.0, 2.0]),
    "pos_int": lambda fw: +_t(fw, [-1, 2], "int64"),
    "invert_int": lambda fw: ~_t(fw, [1, 2], "int32"),
    "invert_bool": lambda fw: ~_t(fw, [True, False]),
    "and_int": lambda fw: _t(fw, [1, 3], "int32") & _t(fw, [3, 1], "int32"),
    "or_bool": lambda fw: _t(fw, [True, False]) | _t(fw, [False, False]),
    "xor_uint8": lambda fw: _t(fw, [1, 3], "uint8") ^ _t(fw, [3, 3], "uint8"),
    "rand_int": lambda fw: 1 & _t(fw, [1, 3], "int64"),
    "lshift": lambda fw: _t(fw, [1, 3], "int32") << _t(fw, [1, 2], "int32"),
    "rshift_scalar_left": lambda fw: 8 >> _t(fw, [1, 2], "int64"),
    "mod_float_scalar": lambda fw: _t(fw, [-3.0, 4.0]) % 2.5,
    "rmod_int": lambda fw: 7 % _t(fw, [-3, 4], "int32"),
    "floordiv_int": lambda fw: _t(fw, [-3, 4], "int64") // 2,
    "rfloordiv_float": lambda fw: 2.5 // _t(fw, [-3.0, 4.0]),
    "pow_int_float": lambda fw: _t(fw, [2, 3], "int32") ** 2.5,
    "rpow": lambda fw: 2 ** _t(fw, [2.0, 3.0]),
    "truediv_int": lambda fw: _t(fw, [-3, 4], "int32") / 2,
    "rtruediv_int": lambda fw: 2 / _t(fw, [-3, 4], "int64"),
    "div_method": lambda fw: _t(fw, [1.0, 2.0]).__div__(2),
    "rdiv_method": lambda fw: _t(fw, [1.0, 2.0]).__rdiv__(2),
    "mul_np_scalar": lambda fw: _t(fw, [1, 2], "int32") * np.int32(2),
    "radd_np_float64": lambda fw: np.float64(2) + _t(fw, [1.0, 2.0]),
    "add_np_0d": lambda fw: _t(fw, [1.0, 2.0]) + np.array(2.0, "float32"),
    "matmul": lambda fw: _t(fw, [[1.0, 2.0]]) @ _t(fw, [[1.0], [2.0]]),
    "rmatmul_method": lambda fw: _t(fw, [[1.0], [2.0]]).__rmatmul__(_t(fw, [[1.0, 2.0]])),
    # numpy's operators defer to the Tensor's reflected ones: a Tensor comes back
    "radd_ndarray": lambda fw: np.array([1.0, 2.0], "float32") + _t(fw, [1.0, 2.0]),
    "rmul_ndarray_f64": lambda fw: np.array([1.0, 2.0]) * _t(fw, [1.0, 2.0], "float64"),
    "rgt_ndarray": lambda fw: np.array([1.0, 2.0], "float32") > _t(fw, [1.0, 3.0]),
    "req_ndarray": lambda fw: np.array([1.0, 2.0], "float32") == _t(fw, [1.0, 3.0]),
    "eq_scalar": lambda fw: _t(fw, [1, 3], "int32") == 3,
    "ne_float": lambda fw: _t(fw, [1.0, 3.0]) != 2.5,
    "lt_np_scalar": lambda fw: _t(fw, [1.0, 3.0]) < np.float32(2),
    "ge_bool": lambda fw: _t(fw, [1.0, 3.0]) >= True,
}


@pytest.mark.parametrize("name", sorted(_OPERATOR_CASES))
def test_operator_results_match_paddle(name):
    ours, theirs = both(_OPERATOR_CASES[name])
    assert type(ours) is pagaie.Tensor
    assert_same(ours, theirs)


_OPERATOR_ERRORS = {
    "int32_plus_int64_array": lambda fw: _t(fw, [1, 2], "int32") + np.array([1, 2]),
    "float_times_int_array": lambda fw: _t(fw, [1.0, 2.0]) * np.array([1, 2]),
    "int_array_minus_float": lambda fw: np.array([1, 2]) - _t(fw, [1.0, 2.0]),
    "mod_bool": lambda fw: _t(fw, [True, False]) % _t(fw, [True, True]),
    "floordiv_bool": lambda fw: _t(fw, [True, False]) // True,
    "pos_bool": lambda fw: +_t(fw, [True, False]),
    "invert_float": lambda fw: ~_t(fw, [1.0]),
    "and_float": lambda fw: _t(fw, [1.0]) & _t(fw, [1.0]),
    "ndarray_and_tensor": lambda fw: np.array([1, 2]) & _t(fw, [1, 3], "int64"),
    "mul_none": lambda fw: _t(fw, [1.0]) * None,
    "matmul_bad_shape": lambda fw: _t(fw, [1.0, 2.0]) @ 2,
}


@pytest.mark.parametrize("name", sorted(_OPERATOR_ERRORS))
def test_operator_errors_match_paddle(name):
    same_exception(_OPERATOR_ERRORS[name])


def test_comparison_with_none_is_false_like_paddle():
    ours, theirs = both(lambda fw: (_t(fw, [1.0]) == None, _t(fw, [1.0]) != None))  # noqa: E711
    assert ours == theirs == (False, True)


# ---- conversions -------------------------------------------------------------------------
_CONVERSIONS = {
    "bool_0d": lambda fw: bool(_t(fw, 2.5)),
    "bool_1elem": lambda fw: bool(_t(fw, [0.0])),
    "int_0d": lambda fw: int(_t(fw, 2.7)),
    "complex_0d": lambda fw: complex(_t(fw, 1 + 2j)),
    "complex_of_float": lambda fw: complex(_t(fw, 2.0)),
    "index_0d_int": lambda fw: [1, 2, 3, 4][_t(fw, 2)],
    "nonzero_0d": lambda fw: _t(fw, 2.0).__nonzero__(),
    "long_0d": lambda fw: _t(fw, 2.0).__long__(),
    "len_1d": lambda fw: len(_t(fw, [1.0, 2.0, 3.0])),
    "hash_is_id": lambda fw: (lambda t: hash(t) == hash(id(t)))(_t(fw, [1.0])),
    "format_0d": lambda fw: f"{_t(fw, 2.5):.2f}",
    "format_0d_int": lambda fw: format(_t(fw, 3), ">5"),
    "format_empty_spec": lambda fw: format(_t(fw, [1.0, 2.0]), "") == repr(_t(fw, [1.0, 2.0])),
    "str_is_repr": lambda fw: str(_t(fw, [1.0, 2.0])) == repr(_t(fw, [1.0, 2.0])),
    "contains": lambda fw: (1.0 in _t(fw, [1.0, 2.0]), 5.0 in _t(fw, [1.0, 2.0])),
}


@pytest.mark.parametrize("name", sorted(_CONVERSIONS))
def test_conversions_match_paddle(name):
    ours, theirs = both(_CONVERSIONS[name])
    assert ours == theirs and type(ours) is type(theirs), (ours, theirs)


_CONVERSION_ERRORS = {
    "bool_multi": lambda fw: bool(_t(fw, [1.0, 2.0])),
    "int_2d_1elem": lambda fw: int(_t(fw, [[3]])),   # numpy 2: only 0-D converts
    "float_1elem": lambda fw: float(_t(fw, [2.5])),
    "index_1elem": lambda fw: [1, 2, 3, 4][_t(fw, [2])],
    "bool_empty": lambda fw: bool(_t(fw, np.zeros([0], "float32"))),
    "int_multi": lambda fw: int(_t(fw, [1.0, 2.0])),
    "float_empty": lambda fw: float(_t(fw, np.zeros([0], "float32"))),
    "complex_multi": lambda fw: complex(_t(fw, [1.0, 2.0])),
    "long_multi": lambda fw: _t(fw, [1.0, 2.0]).__long__(),
    "nonzero_multi": lambda fw: _t(fw, [1.0, 2.0]).__nonzero__(),
    "index_multi": lambda fw: operator.index(_t(fw, [1, 2])),
    "index_empty": lambda fw: operator.index(_t(fw, np.zeros([0], "int64"))),
    "len_0d": lambda fw: len(_t(fw, 1.0)),
    "list_0d": lambda fw: list(_t(fw, 1.0)),
    "contains_2d": lambda fw: 1.0 in _t(fw, [[1.0, 2.0]]),
    "format_spec_multi": lambda fw: format(_t(fw, [1.0, 2.0]), ".2f"),
}


@pytest.mark.parametrize("name", sorted(_CONVERSION_ERRORS))
def test_conversion_errors_match_paddle(name):
    same_exception(_CONVERSION_ERRORS[name])


# ---- numpy interop -----------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["plain", "dtype", "dtype_positional", "copy_true", "copy_false",
                                  "np_array_dtype", "np_asarray_0d"])
def test_array_protocol_matches_paddle(kind):
    def fn(fw):
        t = _t(fw, [1.5, 2.0]) if kind != "np_asarray_0d" else _t(fw, 1.5)
        return {"plain": lambda: np.array(t), "dtype": lambda: t.__array__(dtype="float64"),
                "dtype_positional": lambda: t.__array__("float16"),
                "copy_true": lambda: t.__array__(copy=True), "copy_false": lambda: t.__array__(copy=False),
                "np_array_dtype": lambda: np.asarray(t, "int32"),
                "np_asarray_0d": lambda: np.asarray(t)}[kind]()
    ours, theirs = both(fn)
    assert type(ours) is type(theirs) is np.ndarray
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("call", ["np.add(t, a)", "np.add(a, t)", "np.sin(t)", "np.maximum(t, 1.5)"])
def test_numpy_ufuncs_refuse_tensors_like_paddle(call):
    same_exception(lambda fw: eval(call, {"np": np, "t": _t(fw, [1.0, 2.0]),
                                          "a": np.array([1.0, 2.0], "float32")}))


def test_numpy_functions_still_convert_tensors():
    ours, theirs = both(lambda fw: (np.sum(_t(fw, [1.0, 2.0])), np.concatenate([_t(fw, [1.0]), _t(fw, [2.0])]),
                                    np.allclose(_t(fw, [1.0]), _t(fw, [1.0]))))
    assert float(ours[0]) == float(theirs[0])
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert ours[2] == theirs[2]


def test_array_ufunc_attribute_like_paddle():
    ref = paddle_ref()
    assert pagaie.Tensor.__array_ufunc__ is ref.Tensor.__array_ufunc__ is None


# ---- deepcopy, pickle, DLPack ------------------------------------------------------------
def _deepcopied(fw, case):
    x = _t(fw, [1.0, 2.0], stop_gradient=case == "stop")
    x.name = "kept_name"
    if case == "grad":
        (x * x).sum().backward()
    src = x * 2 if case == "nonleaf" else x
    y = copy.deepcopy(src)
    return [y.stop_gradient, y.is_leaf, y.grad is None, y.persistable, y.numpy().tolist(),
            None if y.grad is None else y.grad.numpy().tolist(), y is src]


@pytest.mark.parametrize("case", ["stop", "grad", "nonleaf"])
def test_deepcopy_matches_paddle(case):
    ours, theirs = both(lambda fw: _deepcopied(fw, case))
    assert ours == theirs


def test_deepcopy_name_and_integer_flag():
    ours, theirs = both(lambda fw: (lambda t: (copy.deepcopy(t).stop_gradient,
                                               copy.deepcopy(t).name.startswith("n_deepcopy")))(
        (lambda t: (setattr(t, "name", "n"), setattr(t, "stop_gradient", False), t)[2])(_t(fw, [1, 2]))))
    assert ours == theirs


@pytest.mark.parametrize("dtype,sg", [("float32", True), ("int64", True), ("float32", False),
                                      ("bfloat16", True), ("complex64", True)])
def test_pickle_roundtrip_matches_paddle(dtype, sg):
    def fn(fw):
        t = _t(fw, [1.0, 2.0], dtype, stop_gradient=sg)
        t.name = "pickled_name"
        r = pickle.loads(pickle.dumps(t))
        return r, [r.stop_gradient, r.name == "pickled_name", str(r.place), list(r.shape)]
    (ours, om), (theirs, tm) = both(fn)
    assert om == tm
    assert_same(ours, theirs)


def test_pickle_0d():
    ours, theirs = both(lambda fw: pickle.loads(pickle.dumps(_t(fw, 3.0))))
    assert_same(ours, theirs)


def test_reduce_ex_fields_match_paddle():
    ours, theirs = both(lambda fw: [str(v) for v in _t(fw, [1.0], stop_gradient=False).__reduce_ex__(2)[1][1:]])
    assert ours == theirs


def test_dlpack_matches_paddle():
    ours, theirs = both(lambda fw: np.from_dlpack(_t(fw, [1.0, 2.0])))
    np.testing.assert_array_equal(ours, theirs)
    ours, theirs = both(lambda fw: fw.utils.dlpack.from_dlpack(fw.utils.dlpack.to_dlpack(_t(fw, [1.0, 2.0]))))
    assert_same(ours, theirs)
    assert pagaie.to_tensor([1.0]).__dlpack_device__()[0] == paddle_ref().to_tensor([1.0]).__dlpack_device__()[0]


def test_dlpack_of_tensor_needing_grad_raises_like_paddle():
    same_exception(lambda fw: np.from_dlpack(_t(fw, [1.0, 2.0], stop_gradient=False)))


# ---- distributed tensors -----------------------------------------------------------------
def _shard(fw, value, names, placements, dtype=None):
    dist = fw.distributed
    mesh = dist.ProcessMesh(np.zeros([1] * len(names), "int64").tolist(), dim_names=names)
    return dist.shard_tensor(fw.to_tensor(value, dtype=dtype), mesh, placements(dist))


@pytest.mark.parametrize("case", ["replicate", "shard", "two_dims", "zero_d", "int"])
def test_distributed_tensor_repr_matches_paddle(case):
    def fn(fw):
        if case == "replicate":
            t = _shard(fw, [[1.0, 2.0], [3.0, 4.0]], ["x"], lambda d: [d.Replicate()])
        elif case == "shard":
            t = _shard(fw, [[1.0, 2.0], [3.0, 4.0]], ["x"], lambda d: [d.Shard(0)])
        elif case == "two_dims":
            t = _shard(fw, np.ones([2, 3]), ["x", "y"], lambda d: [d.Shard(1), d.Replicate()])
        elif case == "zero_d":
            t = _shard(fw, 3.0, ["x"], lambda d: [d.Replicate()])
        else:
            t = _shard(fw, [1, 2], ["x"], lambda d: [d.Replicate()])
        return repr(t), str(t)
    ours, theirs = both(fn)
    assert ours == theirs


def test_dense_repr_has_no_distributed_fields():
    assert "process_mesh" not in repr(pagaie.to_tensor([1.0]))


def test_gradient_of_distributed_parameter_is_distributed_like_paddle():
    def fn(fw):
        dist = fw.distributed
        mesh = dist.ProcessMesh([0], dim_names=["x"])
        w = dist.shard_tensor(_t(fw, [[1.0, 2.0], [3.0, 4.0]], stop_gradient=False), mesh, [dist.Replicate()])
        (w * 2).sum().backward()
        g = w.grad
        return g.is_dist(), [repr(p) for p in g.placements], list(g.process_mesh.shape), repr(g)
    ours, theirs = both(fn)
    assert ours == theirs


# ---- bad inputs of nn.functional ops (bad_input tables) ----------------------------------
_BAD_INPUTS = {
    "linear_list_x": lambda fw: fw.nn.functional.linear([[1.0, 2.0]], _t(fw, [[1.0], [2.0]])),
    "linear_list_weight": lambda fw: fw.nn.functional.linear(_t(fw, [[1.0, 2.0]]), [[1.0], [2.0]]),
    "linear_none_x": lambda fw: fw.nn.functional.linear(None, _t(fw, [[1.0], [2.0]])),
    "log_softmax_list": lambda fw: fw.nn.functional.log_softmax([[1.0, 2.0]]),
    "log_softmax_none_axis": lambda fw: fw.nn.functional.log_softmax(None, axis=0),
    "dropout_list": lambda fw: fw.nn.functional.dropout([[1.0, 2.0]]),
    "embedding_list": lambda fw: fw.nn.functional.embedding([1, 0], _t(fw, [[1.0], [2.0]])),
    "alpha_dropout_list": lambda fw: fw.nn.functional.alpha_dropout([[1.0, 2.0]]),
    "alpha_dropout_str": lambda fw: fw.nn.functional.alpha_dropout("abc"),
    "alpha_dropout_ndarray": lambda fw: fw.nn.functional.alpha_dropout(np.ones([2], "float32")),
    "relu_list": lambda fw: fw.nn.functional.relu([1.0, 2.0]),
    "matmul_list": lambda fw: fw.matmul([[1.0, 2.0]], _t(fw, [[1.0], [2.0]])),
    "logcumsumexp_list": lambda fw: fw.logcumsumexp([1.0, 2.0]),
}


@pytest.mark.parametrize("name", sorted(_BAD_INPUTS))
def test_non_tensor_inputs_raise_like_paddle(name):
    exc = same_exception(_BAD_INPUTS[name])
    assert "'list' object" not in str(exc)


# ---- cumulative ops ----------------------------------------------------------------------
_X = [[1.0, -2.0], [3.0, 4.0]]


@pytest.mark.parametrize("axis", [1.0, 0.5, -1.0, 1.5, True, np.float32(1), np.int64(0)])
def test_cumsum_takes_real_axis_like_paddle(axis):
    ours, theirs = both(lambda fw: fw.cumsum(_t(fw, _X), axis))
    assert_same(ours, theirs)
    ours, theirs = both(lambda fw: _t(fw, _X).cumsum(axis=axis))
    assert_same(ours, theirs)


@pytest.mark.parametrize("op", ["cumprod", "logcumsumexp", "cummax", "cummin"])
@pytest.mark.parametrize("axis", [1.0, True, np.float32(1), [0], float("nan")])
def test_cum_ops_reject_non_int_axis_like_paddle(op, axis):
    exc = same_exception(lambda fw: getattr(fw, op)(_t(fw, _X), axis))
    assert f"paddle.{op}" in str(exc)


@pytest.mark.parametrize("axis", [[0], (0,), "a"])
def test_cumsum_bad_axis_message_names_the_api(axis):
    with pytest.raises(TypeError, match=r"paddle\.cumsum: 'axis'"):
        pagaie.cumsum(pagaie.to_tensor(_X), axis)


def test_cumsum_list_axis_raises_like_paddle():
    same_exception(lambda fw: fw.cumsum(_t(fw, _X), [0]))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_logcumsumexp_complex_raises_like_paddle(dtype):
    exc = same_exception(lambda fw: fw.logcumsumexp(_t(fw, [1 + 1j, 2 - 1j], dtype)))
    assert "paddle.logcumsumexp" in str(exc)
    same_exception(lambda fw: fw.logcumsumexp(_t(fw, [1.0, 2.0]), dtype=dtype))


@pytest.mark.parametrize("other", [np.ones((2, 2)), np.ones((2, 2), dtype="int64"), 2.0,
                                   [[1.0, 1.0], [1.0, 1.0]]], ids=["f64", "i64", "float", "list"])
@pytest.mark.parametrize("reflected", [False, True])
def test_matmul_operator_operands(other, reflected):
    """``@`` takes a numpy array or a number as a tensor of the other side's dtype; lists raise."""
    def call(fw):
        t = fw.ones([2, 2])
        return (other @ t) if reflected else (t @ other)
    if isinstance(other, list) or (isinstance(other, float) and not reflected):
        same_exception(call)
        return
    if isinstance(other, float):
        pytest.skip("number @ tensor: Paddle calls the number's own operator")
    ours, theirs = both(call)
    assert_same(ours, theirs)
