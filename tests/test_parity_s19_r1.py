"""Session-19 R1: the dtypes Paddle 3.3.1's CPU kernels and static build-time checks take for
pad (every-axis constant form), unfold, fold and empty/empty_like, against real Paddle."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_static, same_exception, same_static_exception

pytest.importorskip("paddle")


def _x(P, shape, dt):
    a = (np.arange(int(np.prod(shape))) % 5).reshape(shape).astype("float32")
    return P.to_tensor(a).astype(dt)


def _static_out(P, shape, dt, fn):
    with P.static.program_guard(P.static.Program(), P.static.Program()):
        return str(fn(P, P.static.data("x", shape, dt)).dtype).replace("paddle.", "")


def _check(shape, dt, fn, eager_ok, static_ok):
    """Eager and static-program outcomes of ``fn(P, x)`` on a ``dt`` input, against Paddle."""
    if eager_ok:
        out = fn(__import__("pagaie"), _x(__import__("pagaie"), shape, dt))
        assert str(out.dtype).endswith(dt)
    else:
        same_exception(lambda P: fn(P, _x(P, shape, dt)))
    if static_ok:
        ours, theirs = both_static(lambda P: _static_out(P, shape, dt, fn))
        assert ours == theirs == dt
    else:
        same_static_exception(lambda P: fn(P, P.static.data("x", shape, dt)))


# -- pad with every axis padded (Paddle's pad op, not pad3d) -----------------------------------

@pytest.mark.parametrize("shape,pad", [([3, 4], [1, 1, 0, 1]), ([2, 3, 4], [1, 1, 0, 0, 1, 0]),
                                       ([1, 2, 3, 2, 2], [1, 1, 0, 0, 1, 0, 0, 0, 0, 0])])
@pytest.mark.parametrize("dt", ["int16", "float16", "bfloat16", "int8"])
def test_pad_every_axis_static_dtypes(shape, pad, dt):
    # its static check is the kernel's set: int16 and bfloat16 record, float16 does not
    ok = dt in ("int16", "bfloat16")
    _check(shape, dt, lambda P, x: P.nn.functional.pad(x, pad), ok, ok)


# -- unfold / fold ----------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float16", "bfloat16", "float64", "complex64", "int32"])
def test_unfold_cpu_kernel_is_float32_float64(dt):
    ok = dt == "float64"
    _check([1, 2, 4, 4], dt, lambda P, x: P.nn.functional.unfold(x, [2, 2]), ok, ok)


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "bool", "int64", "complex64", "float64"])
def test_fold_takes_float32_float64_complex(dt):
    ok = dt in ("complex64", "float64")
    _check([1, 8, 9], dt, lambda P, x: P.nn.functional.fold(x, [4, 4], 2), ok, ok)


@pytest.mark.parametrize("dt", ["float16", "int32"])
def test_unfold_fold_dtype_error_before_shape_error(dt):
    # Paddle looks its kernel up before checking the shapes: NotFound, not InvalidArgument
    same_exception(lambda P: P.nn.functional.unfold(_x(P, [1, 2, 1, 1], dt), [3, 3]))
    same_exception(lambda P: P.nn.functional.fold(_x(P, [1, 8, 7], dt), [4, 4], 2))


# -- empty / empty_like in a static program ----------------------------------------------------

@pytest.mark.parametrize("dt", ["uint8", "int16", "int8"])
def test_empty_static_dtype_check(dt):
    # Paddle's static empty refuses a uint8 dtype (eagerly it makes one)
    def f(P):
        return str(P.empty([2, 3], dtype=dt).dtype).replace("paddle.", "")
    if dt == "uint8":
        same_static_exception(f)
        assert str(__import__("pagaie").empty([2], dtype=dt).dtype).endswith("uint8")
    else:
        assert both_static(f, fresh_programs=True) == [dt, dt]


@pytest.mark.parametrize("dt", ["int16", "uint8", "int8", "bool"])
def test_empty_like_static_input_dtypes(dt):
    # Paddle's static empty_like reads x's shape with paddle.shape, which refuses int16;
    # an int16 dtype argument is fine
    ok = dt != "int16"
    _check([2, 3], dt, lambda P, x: P.empty_like(x), True, ok)
    ours, theirs = both_static(lambda P: _static_out(P, [2, 3], "float32", lambda P, x: P.empty_like(x, dtype=dt)))
    assert ours == theirs == dt


# -- interpolate: integer inputs Paddle's static check records ---------------------------------

@pytest.mark.parametrize("mode,dt,eager_ok,static_ok", [
    ("nearest", "int8", False, True), ("nearest", "int16", False, False),
    ("bilinear", "int32", False, True), ("bilinear", "int64", False, True),
    ("bilinear", "int8", False, False), ("bicubic", "int32", False, False),
    ("area", "uint8", False, True), ("area", "int8", False, True), ("area", "int32", False, False),
])
def test_interpolate_static_integer_inputs(mode, dt, eager_ok, static_ok):
    # they build in Paddle's programs (its CPU kernel then fails when the program runs)
    _check([1, 1, 2, 2], dt, lambda P, x: P.nn.functional.interpolate(x, size=[4, 4], mode=mode),
           eager_ok, static_ok)


# -- pad with a Tensor pad ---------------------------------------------------------------------

def _pad_t(P, shape, n, pdt, xdt="float32", static=False):
    x = P.static.data("x", shape, xdt) if static else _x(P, shape, xdt)
    return P.nn.functional.pad(x, P.to_tensor(np.ones(n, pdt)))


@pytest.mark.parametrize("nd", [3, 4, 5])
@pytest.mark.parametrize("pdt", ["int64", "int16", "bool"])
def test_pad_tensor_pad_dtypes(nd, pdt):
    # Paddle joins the pad tensor of a 3-D/4-D input with int32 zeros: only int32 goes
    shape, n = [1, 2, 3, 3, 3][:nd], 2 * (nd - 2)
    if nd == 5 and pdt != "bool":
        assert list(_pad_t(__import__("pagaie"), shape, n, pdt).shape) == [1, 2, 5, 5, 5]
    else:
        same_exception(lambda P: _pad_t(P, shape, n, pdt))
    if nd != 5:
        same_static_exception(lambda P: _pad_t(P, shape, n, pdt, static=True))


@pytest.mark.parametrize("xdt", ["float16", "bfloat16", "int16"])
def test_pad_tensor_pad_static_x_dtypes(xdt):
    # pad3d's static check takes float16/bfloat16 (its CPU kernel then fails), not int16
    same_exception(lambda P: _pad_t(P, [1, 2, 3, 3], 4, "int32", xdt))
    if xdt == "int16":
        same_static_exception(lambda P: _pad_t(P, [1, 2, 3, 3], 4, "int32", xdt, static=True))
    else:
        ours, theirs = both_static(lambda P: list(_pad_t(P, [1, 2, 3, 3], 4, "int32", xdt, True).shape),
                                   fresh_programs=True)
        assert ours == theirs == [1, 2, -1, -1]


@pytest.mark.parametrize("fmt,n", [("NCL", 4), ("NCHW", 6)])
def test_pad_tensor_pad_error_order(fmt, n):
    # the data_format assertion comes before the kernel's dtype lookup, the padding count after
    same_exception(lambda P: P.nn.functional.pad(_x(P, [1, 2, 3, 3], "float16"),
                                                 P.to_tensor(np.ones(n, "int32")), data_format=fmt))


@pytest.mark.parametrize("pad", [[1, 1, 1, 1], [1, 1, 0, 0, 1, 0, 0, 1]])
def test_pad_tensor_value_in_a_program(pad):
    # pad3d's static API wants a number; the every-axis pad reads a Tensor value
    def f(P):
        return list(P.nn.functional.pad(P.static.data("x", [1, 2, 3, 3], "float32"), pad,
                                        value=P.to_tensor(2.5)).shape)
    if len(pad) == 4:
        same_static_exception(f)
    else:
        ours, theirs = both_static(f, fresh_programs=True)
        assert ours == theirs == [3, 2, 4, 4]
