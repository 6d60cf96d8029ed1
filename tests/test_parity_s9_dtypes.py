"""Session-9 parity sweep: dtypes, casts and tensor creation from Python/numpy objects,
compared with real Paddle 3.3.1 (see tests/reference.py)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

_SPECIAL = [float("nan"), float("inf"), -float("inf"), -0.0, 1e10, -1e10, 300.7, -300.7, -1.5, 2.5,
            0.5, -0.5, 127.5, 255.9, 65504.0, 70000.0, 3.4e38, 1e-45]


# ---- dtype spellings (Paddle's convert_np_dtype_to_dtype_) ------------------------------------

@pytest.mark.parametrize("dt", ["Float32", " int64 ", "FLOAT16", "f4", "<f4", "i8", "b", "?", "c8", "e",
                                "single", "intc", "short", "longlong", "complex", "int_", np.intc,
                                np.dtype("<i2"), "bool_"])
def test_numpy_and_case_spellings_accepted(dt):
    for fn in (lambda P: P.to_tensor([1.5, 0.0]).astype(dt), lambda P: P.cast(P.to_tensor([1.5]), dt),
               lambda P: P.zeros([2], dtype=dt), lambda P: P.full([2], 1, dtype=dt),
               lambda P: P.ones_like(P.to_tensor([1, 2]), dtype=dt)):
        assert_same(*both(fn))


@pytest.mark.parametrize("dt", ["uint32", "uint64", np.uint32, np.dtype(">f4"), "str", "object", np.str_,
                                "xx", 5, "paddle_float32"])
def test_unsupported_spellings_error_types(dt):
    same_exception(lambda P: P.to_tensor([1.5]).astype(dt))
    same_exception(lambda P: P.zeros([2], dtype=dt))
    same_exception(lambda P: P.full_like(P.to_tensor([1.5]), 2, dtype=dt))


@pytest.mark.parametrize("dt", ["i8", "short", "longlong", np.dtype("int8")])
def test_iinfo_finfo_take_numpy_spellings(dt):
    ours, theirs = both(lambda P: (P.iinfo(dt).dtype, P.iinfo(dt).max))
    assert ours == theirs
    same_exception(lambda P: P.finfo(dt))


# ---- cast values, bit for bit ------------------------------------------------------------------

@pytest.mark.parametrize("src", ["float32", "float64", "float16"])
def test_cast_special_values_to_integers_bitwise(src):
    def f(P):
        x = P.to_tensor(np.array(_SPECIAL)).astype(src)
        return [x.astype(d).numpy() for d in ("bool", "uint8", "int8", "int16", "int32", "int64")]
    ours, theirs = both(f)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_bfloat16_nan_bit_pattern_from_data_and_full():
    data = np.array([np.nan, -np.nan, 1.0, -0.0], dtype=np.float32)
    for fn in (lambda P: P.to_tensor(data, dtype="bfloat16"),
               lambda P: P.to_tensor(data.astype(np.float64), dtype="bfloat16"),
               lambda P: P.full([2], float("nan"), dtype="bfloat16")):
        ours, theirs = both(fn)
        assert ours.numpy().tolist() == theirs.numpy().tolist()


# ---- to_tensor and friends -------------------------------------------------------------------------

@pytest.mark.parametrize("api", ["to_tensor", "as_tensor", "asarray"])
@pytest.mark.parametrize("make", [lambda: np.array([1, 2], dtype=np.longdouble),
                                  lambda: np.array([1, 2], dtype=np.clongdouble),
                                  lambda: np.array([1, 2], dtype=np.uint64),
                                  lambda: np.array([1, None])])
def test_unsupported_numpy_arrays_value_error(api, make):
    err = same_exception(lambda P: getattr(P, api)(make()))
    assert isinstance(err, ValueError) and api in str(err)


@pytest.mark.parametrize("make", [lambda: np.array([1, 2], dtype=np.longdouble),
                                  lambda: np.array([1, 2], dtype=object), lambda: np.array(["1"])])
def test_unsupported_numpy_arrays_with_dtype_type_error(make):
    assert isinstance(same_exception(lambda P: P.to_tensor(make(), dtype="float32")), TypeError)


def test_uint_arrays_convert_with_dtype():
    assert_same(*both(lambda P: P.to_tensor(np.array([1, 2], dtype=np.uint32), dtype="int64")))
    assert_same(*both(lambda P: P.to_tensor(np.array([1, 2], dtype=np.uint64), dtype="float32")))


def test_numpy_str_scalar_is_type_error():
    assert isinstance(same_exception(lambda P: P.to_tensor(np.str_("1"))), TypeError)
    same_exception(lambda P: P.to_tensor(np.str_("1"), dtype="float32"))


@pytest.mark.parametrize("dt", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_from_data_is_type_error_but_tensor_casts(dt):
    same_exception(lambda P: P.to_tensor([1.0], dtype=dt))
    same_exception(lambda P: P.to_tensor(np.array([1.0]), dtype=getattr(P, dt)))
    ours, theirs = both(lambda P: P.to_tensor(P.to_tensor([1.5]), dtype=dt))
    assert str(ours.dtype) == str(theirs.dtype) and ours.numpy().tolist() == theirs.numpy().tolist()


def test_uint_dtype_objects_from_data():
    same_exception(lambda P: P.to_tensor([1, 2], dtype=P.uint32))
    ours, theirs = both(lambda P: P.to_tensor([1, 2], dtype=P.uint16))  # the integer type
    assert repr(ours.dtype) == repr(theirs.dtype) and ours.numpy().tolist() == theirs.numpy().tolist()


@pytest.mark.parametrize("default", ["bfloat16", "float16", "float64"])
def test_complex_data_under_default_dtypes(default):
    def f(P):
        P.set_default_dtype(default)
        try:
            return P.to_tensor([1j, 2]), P.to_tensor(1 + 1j), P.to_tensor(1.5).dtype
        finally:
            P.set_default_dtype("float32")
    ours, theirs = both(f)
    assert [str(t.dtype) for t in ours[:2]] == [str(t.dtype) for t in theirs[:2]]
    assert str(ours[2]) == str(theirs[2])


def test_big_python_ints():
    same_exception(lambda P: P.to_tensor(2**64))
    same_exception(lambda P: P.to_tensor([2**64]))
    assert_same(*both(lambda P: P.to_tensor([2**63 - 1, -2**63])))


# ---- assign -------------------------------------------------------------------------------------

def test_assign_numpy_uint16_converts_values_to_bfloat16():
    ours, theirs = both(lambda P: P.assign(np.array([1, 0, 3], dtype=np.uint16)))
    assert str(ours.dtype) == str(theirs.dtype) == "paddle.bfloat16"
    assert ours.numpy().tolist() == theirs.numpy().tolist()


@pytest.mark.parametrize("make", [
    lambda P: [P.to_tensor(1), 2.5],
    lambda P: [P.to_tensor(1.5, dtype="float16"), 1],
    lambda P: [P.to_tensor(1.5, stop_gradient=False), 2.0],
    lambda P: [P.to_tensor([1.0, 2.0]), P.to_tensor([3.0, 4.0])],
    lambda P: (P.to_tensor(1, dtype="int32"), np.int64(2)),
])
def test_assign_list_with_tensors_goes_through_numpy(make):
    ours, theirs = both(lambda P: P.assign(make(P)))
    assert_same(ours, theirs)
    assert ours.stop_gradient == theirs.stop_gradient


def test_assign_list_into_output_takes_numpy_dtype():
    assert_same(*both(lambda P: P.assign([P.to_tensor(1.0), 2.0], output=P.zeros([2]))))


@pytest.mark.parametrize("x", [[None], [1, None], 2**64, -2**63 - 1, np.array([1, 2], dtype=object)])
def test_assign_object_data_type_error(x):
    assert isinstance(same_exception(lambda P: P.assign(x)), TypeError)


@pytest.mark.parametrize("x", [np.array([1.0], dtype=np.longdouble), np.array([1], dtype=np.uint32),
                               np.array(["a"])])
def test_assign_unsupported_numpy_value_error(x):
    assert isinstance(same_exception(lambda P: P.assign(x)), ValueError)


# ---- full / full_like fill values ------------------------------------------------------------

@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64", "uint8", "bool"])
def test_full_float_values_convert_as_cpp(dt):
    vals = [300.5, -300.5, 1e10, -1e10, 1e20, 2.0**31, 2.0**63, 40000.0, -1.5, 255.9,
            float("inf"), float("-inf"), float("nan")]
    ours, theirs = both(lambda P: [P.full([1], v, dtype=dt) for v in vals])
    assert_same(ours, theirs)


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64", "float32", "bool"])
def test_full_like_values_are_doubles_checked_in_single_precision(dt):
    vals = [2**53 + 1, 2**31, -2**31 - 1, 2.0**31, 9.223372036854776e18, float("nan"),
            float("inf"), 1.7, -2.7, 300, 1e10, 1e39, True, 1 + 2j]

    def f(P):
        out = []
        for v in vals:
            try:
                out.append(P.full_like(P.to_tensor([1]).astype(dt), v).numpy().tolist())
            except ValueError:
                out.append("ValueError")
        return repr(out)  # (NaN != NaN)
    ours, theirs = both(f)
    assert ours == theirs


def test_full_like_int_beyond_int64_is_value_error():
    ours = None
    with pytest.raises(ValueError):
        ours = pagaie.full_like(pagaie.to_tensor([1]), 2**63)  # Paddle: SystemError (a crash)
    assert ours is None


@pytest.mark.parametrize("dt", [None, "int32", "bool", "float64"])
def test_full_complex_value_keeps_real_part(dt):
    assert_same(*both(lambda P: P.full([2], 2.5 + 1j, dtype=dt)))
    if dt is not None:
        assert_same(*both(lambda P: P.full_like(P.zeros([2], dtype=dt), 0.75 + 2j)))


@pytest.mark.parametrize("v", ["1.5", "3", " 2 ", "1e3", "-inf", "nan", "+3", ".5"])
@pytest.mark.parametrize("dt", [None, "int32", "float64"])
def test_full_numeric_strings(v, dt):
    assert_same(*both(lambda P: P.full([2], v, dtype=dt)))
    assert_same(*both(lambda P: P.full_like(P.to_tensor([1, 2], dtype=dt or "float32"), v)))


def test_full_numpy_bool_is_type_error():
    assert isinstance(same_exception(lambda P: P.full([2], np.bool_(True))), TypeError)
    assert isinstance(same_exception(lambda P: P.full_like(P.ones([2]), np.bool_(True))), TypeError)


@pytest.mark.parametrize("make", [lambda P: P.to_tensor(True), lambda P: P.to_tensor(3),
                                  lambda P: P.to_tensor(2.5, dtype="float64"), lambda P: P.to_tensor([7])])
def test_full_tensor_value_takes_default_float(make):
    assert_same(*both(lambda P: P.full([2], make(P))))


# ---- shapes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [np.int64(2), np.array([2, 3]), np.array([2], dtype=np.int32),
                                   [np.int32(2), np.int64(1)]])
def test_numpy_shapes(shape):
    for fn in (lambda P: P.zeros(shape), lambda P: P.ones(shape, dtype="int32"),
               lambda P: P.full(shape, 2.0)):
        assert_same(*both(fn))
    ours, theirs = both(lambda P: list(P.empty(shape).shape))
    assert ours == theirs


# ---- ranges ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(0, float("inf")), (float("-inf"), 0), (float("inf"),)])
def test_arange_infinite_bounds_value_error(args):
    assert isinstance(same_exception(lambda P: P.arange(*args)), ValueError)


def test_arange_string_bound_and_complex_bounds():
    assert isinstance(same_exception(lambda P: P.arange("5")), TypeError)
    assert_same(*both(lambda P: P.arange(0, 1j)))
    assert_same(*both(lambda P: P.arange(0, 5, 1.5, dtype="int32")))
    assert_same(*both(lambda P: P.arange(0.5, 4.7, 1.2, dtype="int64")))


@pytest.mark.parametrize("num", [3.0, 3.7, np.int32(4), "3", True, False])
def test_linspace_num_as_paddle_fills_it(num):
    assert_same(*both(lambda P: P.linspace(0, 1, num)))


def test_logspace_num_float_and_zero():
    assert_same(*both(lambda P: P.logspace(0, 1, 3.0)))
    assert isinstance(same_exception(lambda P: P.logspace(0, 2, 0)), ValueError)


def test_linspace_complex_bounds_keep_real_part():
    assert_same(*both(lambda P: P.linspace(1j, 2, 3)))
    assert_same(*both(lambda P: P.linspace(0, 2.5 + 1j, 4, dtype="int64")))


@pytest.mark.parametrize("n", [np.int32(2), True, lambda P: P.to_tensor(2.0), lambda P: P.to_tensor(3, dtype="int32")])
def test_eye_sizes(n):
    assert_same(*both(lambda P: P.eye(n(P) if callable(n) else n)))
    assert_same(*both(lambda P: P.eye(2, n(P) if callable(n) else n)))


# ---- diag / polar -----------------------------------------------------------------------------

@pytest.mark.parametrize("dt,pad", [("int64", float("nan")), ("int32", 1e10), ("int64", 1.7),
                                    ("int32", -2.5), ("float32", np.float64(2.5)), ("int64", np.int32(4))])
def test_diag_padding_value_converts_as_cpp(dt, pad):
    assert_same(*both(lambda P: P.diag(P.to_tensor([1, 2], dtype=dt), padding_value=pad)))


def test_diag_complex_padding_is_type_error():
    assert isinstance(same_exception(lambda P: P.diag(P.to_tensor([1.0, 2.0]), padding_value=1j)), TypeError)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_polar_half_precision_is_a_clear_error(dt):
    err = same_exception(lambda P: P.polar(P.to_tensor([1.0], dtype=dt), P.to_tensor([1.0], dtype=dt)))
    assert "polar" in str(err)


# ---- iinfo / finfo --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["uint16", "uint32"])
def test_iinfo_of_unsigned_dtype_objects(name):
    ours, theirs = both(lambda P: P.iinfo(getattr(P, name)))
    assert (ours.bits, ours.min, ours.max, ours.dtype, repr(ours)) == \
        (theirs.bits, theirs.min, theirs.max, theirs.dtype, repr(theirs))


def test_iinfo_uint64_max_is_the_real_limit():
    paddle_ref()
    # Paddle reports max=-1 (its C++ value through a signed type); ours is the true limit
    assert pagaie.iinfo(pagaie.uint64).max == 2**64 - 1


def test_finfo_type_alias():
    ours, theirs = both(lambda P: (P.finfo(type=P.float64).eps, P.finfo(type="float16").bits))
    assert ours == theirs
    same_exception(lambda P: P.finfo(P.float32, type=P.float64))


# ---- Tensor.fill_ / Tensor.new_empty ------------------------------------------------------------

@pytest.mark.parametrize("dt,v", [("int32", 1e10), ("int32", float("inf")), ("uint8", 300), ("int8", -129),
                                  ("int64", 2.7), ("bool", float("-inf")), ("float16", 1e5),
                                  ("float64", np.float64(2.5))])
def test_fill_converts_values_as_paddle(dt, v):
    assert_same(*both(lambda P: P.to_tensor([1, 2]).astype(dt).fill_(v)))


@pytest.mark.parametrize("v", [float("nan"), 1 + 1j, np.float32(2.5), np.int64(2)])
def test_fill_rejects_nan_and_non_python_numbers(v):
    same_exception(lambda P: P.to_tensor([1.0, 2.0]).fill_(v))


@pytest.mark.parametrize("dt", ["i8", "float", "Float32"])
def test_new_empty_checks_dtype_strictly(dt):
    same_exception(lambda P: P.to_tensor([1.0]).new_empty([2], dtype=dt))


def test_dtype_class_prints_as_paddles():
    ours, theirs = both(lambda P: [repr(type(P.float32)), type(P.int8).__name__, repr(type(P.pstring)),
                                   isinstance(P.raw, P.dtype), type(P.ones([1]).dtype) is P.dtype])
    assert ours == theirs
