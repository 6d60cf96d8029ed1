"""Comparisons, logical and bitwise ops, closeness tests and value-class tests (isnan...),
plus the comparison, bitwise and unary operators of ``Tensor``.

Comparisons return bool tensors that never carry gradients. Two tensors of different
dtypes are compared only when both are floating (Paddle's promotion rule); a Python
number or a 0-D tensor compares by value.
"""
from __future__ import annotations

import math
import numbers

import numpy as np
import torch

from pagaie._core.dtype import python_number
from pagaie._core.registry import NoKernelError, defop, is_numpy_number, number_api, read_numpy_number
from pagaie._core.tensor import Tensor, wrap
from pagaie._ops._helpers import (ALL_DTYPES, check_binary_dtypes, check_same_dtype, dtype_name, kernel_dtypes,
                                  pair_kernel_dtypes, pair_kernel_key, parser_bool, write_out)

_T = torch.Tensor

__all__ = ["equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal", "eq",
           "ne", "lt", "le", "gt", "ge", "less", "greater", "equal_", "not_equal_", "less_than_",
           "less_equal_", "greater_than_", "greater_equal_", "less_", "equal_all", "isclose",
           "allclose", "logical_and", "logical_or", "logical_xor", "logical_not", "logical_and_",
           "logical_or_", "logical_xor_", "logical_not_", "bitwise_and", "bitwise_or", "bitwise_xor",
           "bitwise_not", "bitwise_invert", "bitwise_and_", "bitwise_or_", "bitwise_xor_",
           "bitwise_not_", "bitwise_invert_", "bitwise_left_shift", "bitwise_right_shift",
           "bitwise_left_shift_", "bitwise_right_shift_", "isnan", "isinf", "isfinite", "isneginf",
           "isposinf", "isreal", "isin"]


def _store(x, r):
    """In-place result of an op whose output dtype may differ (bool): rebind ``x``'s data.

    A tensor that requires grad becomes a bool tensor too (Paddle allows it); torch cannot
    keep gradients on bool data, so ``x`` then stops gradient.
    """
    if x.requires_grad and not (r.is_floating_point() or r.is_complex()):
        from pagaie._core.tensor import flag_grad
        if x.is_leaf:
            x.requires_grad_(False)
            x.data = r
            flag_grad(x)  # still says stop_gradient=False, as in Paddle
            return x
        else:
            try:
                x.detach_()
            except RuntimeError:  # a view: leave it as torch's autograd has it
                raise ValueError("paddle: an in-place comparison cannot rebind a view that requires "
                                 "gradients to a bool tensor; use the out-of-place op") from None
            x.data = r
            flag_grad(x)  # says stop_gradient=False still, as in Paddle
            return x
    if r.dtype is x.dtype and r.shape == x.shape:
        x.copy_(r)   # a write: through to the base of a view
    else:
        x.data = r
    return x


def _not_aliased(api, x, y):
    """``x.equal_(x)``: Paddle's kernel writes its bool result over x while reading x as y, a
    ValueError for any x but a bool one (x is left half-written there; here untouched)."""
    if y is x and x.dtype is not torch.bool:
        raise ValueError(f"paddle.{api}: 'y' is 'x' itself, whose {dtype_name(x)} data the bool "
                         "result would overwrite while it is read")
    return y


def _compare(fn, api):
    def check(x, y):
        if type(y) is _T and y.dtype is not x.dtype and y.dim() and x.dim():
            check_binary_dtypes(api, x, y)
        if y is None:
            raise TypeError(f"paddle.{api}: 'y' must be a Tensor or a number, but received None")
    return check


_DOC = '''Elementwise ``{sym}`` with broadcasting; returns a bool tensor.

    Args:
        x (Tensor): the first operand.
        y (Tensor|number): the second operand.
        name (str, optional): unused.
        out (Tensor, optional): also store the result here.

    Returns:
        Tensor: bool, the broadcast shape of ``x`` and ``y``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.{name}(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([2, 2, 2])).tolist()
        {ex}
    '''


_CAST_NUMBERS = (bool, int, float)


def _declare_compare(opname, fn, sym, ex, aliases, cast_scalar=False):
    check = _compare(fn, opname)

    def kernel(x, y, name=None, *, out=None):
        if type(y) is not _T or y.dtype is not x.dtype:
            check(x, y)
            if cast_scalar and type(y) in _CAST_NUMBERS and not (x.is_floating_point() or x.is_complex()):
                # paddle.equal makes a number a 0-D tensor of x's dtype (2.5 -> 2 for ints); a
                # float no integer holds (nan, inf, 1e30) equals nothing (Paddle's cast of it
                # is undefined; int32/int64 give all False)
                if type(y) is float and x.dtype is not torch.bool and not abs(y) < 2.0 ** 63:
                    r = torch.zeros(x.shape, dtype=torch.bool, device=x.device)
                    return r if out is None else write_out(out, r)
                y = bool(y) if x.dtype is torch.bool else int(y)
        r = fn(x, y)
        return r if out is None else write_out(out, r)

    def ikernel(x, y, name=None):
        _not_aliased(opname + "_", x, y)
        if type(y) is not _T or y.dtype is not x.dtype:
            check(x, y)
            if type(y) is _T:  # in place, a 0-D tensor counts as a tensor: no int/float mix
                check_binary_dtypes(opname + "_", x, y)
        return _store(x, fn(x, y))

    kernel.__name__ = kernel.__qualname__ = opname
    kernel.__doc__ = _DOC.format(sym=sym, name=opname, ex=ex)
    # Paddle's functions take only Tensors (equal: a number y too); the operators take numbers
    api = defop(opname, paddle_types=(opname, f"pd_op.{opname}"), method=(opname,) + aliases,
                inplace=ikernel, differentiable=False,
                tensor_args=("x",) if cast_scalar else ("x", "y"))(kernel)
    globals()[opname] = api
    globals()[opname + "_"] = api.inplace
    for a in aliases:
        globals()[a] = api
    return api


def _float_eq(x, y):
    """Paddle's float equality: equal, or closer than 1e-15 (``|x - y| < 1e-15`` in the
    promoted float type; infinities compare exactly, NaN never equal)."""
    if type(y) is bool:
        y = int(y)
    r = torch.eq(x, y)
    d = torch.result_type(x, y)
    if not d.is_floating_point:
        return r
    with torch.no_grad():
        xd = x if x.dtype is d else x.to(d)
        yd = y.to(d) if type(y) is _T and y.dtype is not d else y
        return r.logical_or_(torch.sub(xd, yd).abs_() < 1e-15)


def _float_ne(x, y):
    return ~_float_eq(x, y)


_declare_compare("equal", _float_eq, "x == y", "[False, True, False]", ("eq",), cast_scalar=True)
_declare_compare("not_equal", _float_ne, "x != y", "[True, False, True]", ("ne",))

def _ordered(fn, strict):
    """An ordering comparison; complex operands compare lexicographically (real part first,
    then imaginary part), as Paddle's kernels do."""
    def compare(x, y):
        try:
            return fn(x, y)
        except RuntimeError:
            if not (x.is_complex() or (type(y) is _T and y.is_complex()) or type(y) is complex):
                raise
        y = torch.as_tensor(y, device=x.device)
        xr, xi = (x.real, x.imag) if x.is_complex() else (x, torch.zeros_like(x))
        yr, yi = (y.real, y.imag) if y.is_complex() else (y, torch.zeros_like(y))
        return strict(xr, yr) | ((xr == yr) & fn(xi, yi))
    return compare


_declare_compare("less_than", _ordered(torch.lt, torch.lt), "x < y", "[True, False, False]",
                 ("lt", "less"))
_declare_compare("less_equal", _ordered(torch.le, torch.lt), "x <= y", "[True, True, False]", ("le",))
_declare_compare("greater_than", _ordered(torch.gt, torch.gt), "x > y", "[False, False, True]",
                 ("gt", "greater"))
_declare_compare("greater_equal", _ordered(torch.ge, torch.gt), "x >= y", "[False, True, True]",
                 ("ge",))
less_ = less_than_  # noqa: F821  (declared just above)
Tensor.less_ = less_


_EQUAL_ALL_DTYPES = frozenset((torch.bool, torch.int32, torch.int64, torch.float32, torch.float64))


@defop(paddle_types=("equal_all", "pd_op.equal_all"), differentiable=False)
def equal_all(x, y, name=None):
    """True (a 0-D bool tensor) when ``x`` and ``y`` have the same shape and equal elements.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.equal_all(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2])).item()
        True
    """
    if type(y) is not _T:
        raise ValueError(f"paddle.equal_all: 'y' must be a Tensor, but received {type(y).__name__}")
    pair_kernel_key("equal_all", x, y, _EQUAL_ALL_DTYPES)
    if x.shape != y.shape:
        return torch.tensor(False, device=x.device)
    check_same_dtype("equal_all", x, y)
    if x.is_floating_point():  # Paddle's float == (|x - y| < 1e-15)
        return _float_eq(x, y).all()
    return torch.tensor(torch.equal(x, y), device=x.device)


# The dtypes of Paddle's CPU kernels (isclose has no float16/bfloat16 one, allclose no complex)
_ISCLOSE_DTYPES = frozenset((torch.float32, torch.float64, torch.complex64, torch.complex128))
_ALLCLOSE_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64, torch.bool))


def _close_args(api, x, y, float_only=False):
    if type(y) is not _T:
        raise ValueError(f"paddle.{api}: 'y' must be a Tensor, but received {type(y).__name__}")
    # Paddle's kernel lookup comes before its dtype check of the pair
    kernel_dtypes(api, x, _ISCLOSE_DTYPES if float_only else _ALLCLOSE_DTYPES)
    if x.dtype is not y.dtype:
        err = ValueError(f"paddle.{api}: 'x' and 'y' must have the same dtype, but received "
                         f"{dtype_name(x)} and {dtype_name(y)}")
        if api == "isclose" and not (y.is_floating_point() or y.is_complex()):
            err.static_type = TypeError   # isclose's static check refuses a bool/integer y first
        raise err
    if x.shape != y.shape:   # no broadcasting, as in Paddle
        raise RuntimeError(f"paddle.{api}: 'x' and 'y' must have the same shape, but received "
                           f"{list(x.shape)} and {list(y.shape)}")


def _num(v):
    return v.item() if type(v) is _T else v


def _tolerance(api, arg, v):
    """Paddle's kernels take the tolerances as doubles: an int or bool (number or tensor) is a
    ValueError, and so, for isclose, is a float32 (numpy number or tensor) or a numpy array;
    allclose reads the first value of a numpy array."""
    if type(v) is str:  # Paddle's parser reads a string as a double (NaN when it is not one)
        try:
            return float(v)
        except ValueError:
            return math.nan
    if v is None:
        raise TypeError(f"paddle.{api}: '{arg}' must be a float or a Tensor, but received None")
    if type(v) is np.ndarray and api == "allclose" and v.size:
        return float(v.flat[0])   # Paddle's binding reads a numpy array's first value, any dtype
    if type(v) is _T:
        ok = v.dtype is torch.float64 or (api == "allclose" and v.dtype is torch.float32)
    else:
        ok = isinstance(v, float) or (api == "allclose" and isinstance(v, np.floating))
    if ok:
        return _num(v)
    raise ValueError(f"paddle.{api}: '{arg}' must be a float, but received {type(v).__name__} {v!r}")


def _equal_nan_arg(api, equal_nan):
    if equal_nan is not None and type(equal_nan) is not bool:  # Paddle's parser: bool only
        raise TypeError(f"paddle.{api}: 'equal_nan' must be a bool, but received "
                        f"{type(equal_nan).__name__} {equal_nan!r}")


def _isclose(api, x, y, rtol, atol, equal_nan):
    rtol, atol = _tolerance(api, "rtol", rtol), _tolerance(api, "atol", atol)
    _equal_nan_arg(api, equal_nan)
    if x.is_floating_point():
        # Paddle's kernel, in x's dtype: equal, or |x - y| <= atol + rtol * |y|, or the two
        # sides within 1e-15 of each other. With rtol > 0 an infinite y is close to every
        # non-NaN x (the right side is inf); with rtol == 0 it is close to itself only.
        left = (x - y).abs()
        right = rtol * y.abs() + atol
        r = (x == y) | (left <= right) | ((left - right).abs() <= 1e-15)
        nan = x.isnan() | y.isnan()
        if equal_nan:
            return torch.where(nan, x.isnan() & y.isnan(), r)
        return r & ~nan
    if rtol >= 0 and atol >= 0:
        return torch.isclose(x, y, rtol, atol, equal_nan)
    # negative tolerances are legal in Paddle: equal values stay close, others compare as usual
    r = x == y
    if x.is_floating_point() or x.is_complex():
        fin = torch.isfinite(x) & torch.isfinite(y)
        r = r | (fin & ((x - y).abs() <= atol + rtol * y.abs()))
        if equal_nan:
            r = r | (torch.isnan(x) & torch.isnan(y))
    else:
        xd, yd = x.to(torch.float64), y.to(torch.float64)
        r = r | ((xd - yd).abs() <= atol + rtol * yd.abs())
    return r


@defop(paddle_types=("isclose", "pd_op.isclose"), differentiable=False)
def isclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None, *, out=None):
    """Elementwise ``|x - y| <= atol + rtol * |y|``; returns a bool tensor.

    As Paddle's kernel computes it: with ``rtol > 0`` an infinite ``y`` is close to every
    ``x`` that is not NaN, and values whose two sides differ by at most 1e-15 count as close.

    Args:
        x (Tensor): the first tensor.
        y (Tensor): the second tensor (same dtype).
        rtol (float, optional): relative tolerance. Default 1e-05.
        atol (float, optional): absolute tolerance. Default 1e-08.
        equal_nan (bool, optional): whether NaN equals NaN. Default False.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isclose(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.1])).tolist()
        [True, False]
    """
    _close_args("isclose", x, y, float_only=True)  # allclose's kernel takes integers too
    r = _isclose("isclose", x, y, rtol, atol, equal_nan)
    return r if out is None else write_out(out, r)


def _allclose_static_check(x, y, rtol=1e-05, atol=1e-08, *args, **kwargs) -> None:
    """Paddle's static ``allclose`` takes its tolerances only as Python floats (TypeError)."""
    for arg, v in (("rtol", rtol), ("atol", atol)):
        if not isinstance(v, float):
            raise TypeError(f"paddle.allclose: '{arg}' must be a float while a program is built, "
                            f"but received {type(v).__name__}")


@defop(paddle_types=("allclose", "pd_op.allclose"), differentiable=False,
       program_no_arrays=("x", "y"),   # its static API checks the inputs' type first
       static_check=_allclose_static_check)
def allclose(x, y, rtol=1e-05, atol=1e-08, equal_nan=False, name=None):
    """Whether every element satisfies :func:`isclose`; returns a 0-D bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.allclose(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([1.0, 2.0])).item()
        True
    """
    if type(y) is _T and (x.numel() == 0 or y.numel() == 0):
        # Paddle's kernel answers True for an empty input before it checks anything else
        kernel_dtypes("allclose", x, _ALLCLOSE_DTYPES)
        for arg, v in (("rtol", rtol), ("atol", atol)):
            if v is None:   # (its argument parser's check)
                _tolerance("allclose", arg, v)
        _equal_nan_arg("allclose", equal_nan)
        return torch.ones((), dtype=torch.bool, device=x.device)
    _close_args("allclose", x, y)
    return torch.all(_isclose("allclose", x, y, rtol, atol, equal_nan))


# ---- logical ------------------------------------------------------------------------------
def _not_tensor(api, y):
    """Paddle's binding refuses a ``y`` that is not a Tensor (a number, a numpy array) for the
    logical and bitwise functions, and for ``x & 2``, with ValueError."""
    return ValueError(f"paddle.{api}: argument 'y' (position 1) must be Tensor, but received "
                      f"{type(y).__name__}")


# Paddle's CPU kernels of the logical ops (no uint8, float16 or bfloat16 one)
_LOGICAL_DTYPES = ALL_DTYPES - {torch.uint8, torch.float16, torch.bfloat16}


def _logical_pair(api, x, y):
    if type(y) is not _T:
        raise _not_tensor(api, y)
    if y.dtype is not x.dtype:
        check_binary_dtypes(api, x, y)
        pair_kernel_dtypes(api, x, y, _LOGICAL_DTYPES)
        if x.is_complex() or y.is_complex():  # torch would compute in complex32 with a half x
            return y.bool()
    elif x.dtype not in _LOGICAL_DTYPES:
        kernel_dtypes(api, x, _LOGICAL_DTYPES)
    return y


@defop(paddle_types=("logical_and", "pd_op.logical_and"), differentiable=False,
       inplace=lambda x, y, name=None: _store(x, torch.logical_and(x, _not_aliased("logical_and_", x, _logical_pair("logical_and_", x, y)))))
def logical_and(x, y, name=None, *, out=None):
    """Elementwise logical AND (non-zero is true); returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logical_and(paddle.to_tensor([True, True]), paddle.to_tensor([True, False])).tolist()
        [True, False]
    """
    r = torch.logical_and(x, _logical_pair("logical_and", x, y))
    return r if out is None else write_out(out, r)


@defop(paddle_types=("logical_or", "pd_op.logical_or"), differentiable=False,
       inplace=lambda x, y, name=None: _store(x, torch.logical_or(x, _not_aliased("logical_or_", x, _logical_pair("logical_or_", x, y)))))
def logical_or(x, y, name=None, *, out=None):
    """Elementwise logical OR (non-zero is true); returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logical_or(paddle.to_tensor([True, False]), paddle.to_tensor([False, False])).tolist()
        [True, False]
    """
    r = torch.logical_or(x, _logical_pair("logical_or", x, y))
    return r if out is None else write_out(out, r)


@defop(paddle_types=("logical_xor", "pd_op.logical_xor"), differentiable=False,
       inplace=lambda x, y, name=None: _store(x, torch.logical_xor(x, _not_aliased("logical_xor_", x, _logical_pair("logical_xor_", x, y)))))
def logical_xor(x, y, name=None, *, out=None):
    """Elementwise logical XOR (non-zero is true); returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logical_xor(paddle.to_tensor([True, True]), paddle.to_tensor([True, False])).tolist()
        [False, True]
    """
    r = torch.logical_xor(x, _logical_pair("logical_xor", x, y))
    return r if out is None else write_out(out, r)


def _logical_not_inplace(x, name=None):
    if x.dtype not in _LOGICAL_DTYPES:
        kernel_dtypes("logical_not_", x, _LOGICAL_DTYPES)
    return _store(x, torch.logical_not(x))


@defop(paddle_types=("logical_not", "pd_op.logical_not"), differentiable=False,
       inplace=_logical_not_inplace)
def logical_not(x, name=None, *, out=None):
    """Elementwise logical NOT (zero becomes True); returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logical_not(paddle.to_tensor([True, False])).tolist()
        [False, True]
    """
    if x.dtype not in _LOGICAL_DTYPES:
        kernel_dtypes("logical_not", x, _LOGICAL_DTYPES)
    r = torch.logical_not(x)
    return r if out is None else write_out(out, r)


# ---- bitwise ------------------------------------------------------------------------------
def _bit_pair(api, x, y, check=None):
    """``y`` as a tensor of ``x``'s dtype. Paddle picks the kernel by ``y``'s dtype: a float
    ``y`` finds none (RuntimeError), an integer ``y`` of another dtype than ``x`` does not
    match ``x``'s data (ValueError); ``x`` is checked after (a non-Tensor ``x`` first: the
    parser's ValueError)."""
    if type(x) is not _T:
        raise ValueError(f"paddle.{api}: argument 'x' (position 0) must be Tensor, but got "
                         f"{type(x).__name__}")
    if type(y) is not _T:
        raise _not_tensor(api, y)
    if y.dtype is not x.dtype:
        (check or _bit_check)(api, y)
        if x.is_complex():  # promoted to complex: no kernel either
            (check or _bit_check)(api, x)
        raise ValueError(f"paddle.{api}: 'x' and 'y' must have the same dtype, but received "
                         f"{dtype_name(x)} and {dtype_name(y)}")
    (check or _bit_check)(api, x)
    return y


def _bit_check(api, x):
    # Paddle has no kernel for these dtypes: its eager mode raises RuntimeError (NotFound), its
    # static API the build-time dtype check's TypeError.
    if x.is_floating_point() or x.is_complex():
        raise NoKernelError(f"paddle.{api}: the input must be a bool or integer tensor, but received "
                           f"{dtype_name(x)}")


def _declare_bitwise(opname, fn, ex_x, ex_y, ex):
    def kernel(x, y, out=None, name=None):
        r = fn(x, _bit_pair(opname, x, y))
        return r if out is None else write_out(out, r)

    def ikernel(x, y, name=None):
        return _store(x, fn(x, _bit_pair(opname + "_", x, y)))

    kernel.__name__ = kernel.__qualname__ = opname
    kernel.__doc__ = f'''Elementwise bitwise {opname[8:].upper()} of integer tensors (logical for bool).

    Args:
        x (Tensor): bool or integer tensor.
        y (Tensor): tensor of the same dtype.
        out (Tensor, optional): also store the result here.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.{opname}(paddle.to_tensor({ex_x}), paddle.to_tensor({ex_y})).tolist()
        {ex}
    '''
    api = defop(opname, paddle_types=(opname, f"pd_op.{opname}"), inplace=ikernel,
                differentiable=False)(kernel)
    globals()[opname] = api
    globals()[opname + "_"] = api.inplace


_declare_bitwise("bitwise_and", torch.bitwise_and, "[12, 10]", "[10, 6]", "[8, 2]")
_declare_bitwise("bitwise_or", torch.bitwise_or, "[12, 10]", "[10, 6]", "[14, 14]")
_declare_bitwise("bitwise_xor", torch.bitwise_xor, "[12, 10]", "[10, 6]", "[6, 12]")


def _bitwise_not_inplace(x, name=None):
    _bit_check("bitwise_not_", x)
    return x.bitwise_not_()


@defop(paddle_types=("bitwise_not", "pd_op.bitwise_not"), method=("bitwise_not", "bitwise_invert"),
       inplace=_bitwise_not_inplace, differentiable=False)
def bitwise_not(x, out=None, name=None):
    """Elementwise bitwise NOT (``~x``) of integer tensors; logical NOT for bool.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.bitwise_not(paddle.to_tensor([0, 5])).tolist()
        [-1, -6]
    """
    _bit_check("bitwise_not", x)
    r = torch.bitwise_not(x)
    return r if out is None else write_out(out, r)


bitwise_invert = bitwise_not
bitwise_not_ = bitwise_invert_ = bitwise_not.inplace
Tensor.bitwise_invert_ = bitwise_not_


def _shift_check(api, x):
    # Paddle's shift kernels take integer tensors only (no bool): RuntimeError (NotFound).
    if x.dtype is torch.bool or x.is_floating_point() or x.is_complex():
        raise NoKernelError(f"paddle.{api}: the input must be an integer tensor, but received "
                            f"{dtype_name(x)}")


def _shift_left(x, y, is_arithmetic, api):
    return torch.bitwise_left_shift(x, _bit_pair(api, x, y, _shift_check))


def _shift_right(x, y, is_arithmetic, api):
    y = _bit_pair(api, x, y, _shift_check)
    r = torch.bitwise_right_shift(x, y)
    if is_arithmetic or x.dtype is torch.uint8 or x.dtype is torch.bool:
        return r
    # Logical shift of a signed type: clear the sign-extended high bits; a negative amount
    # keeps none (Paddle's logical shift gives 0 there).
    bits = torch.iinfo(x.dtype).bits
    y = y.to(torch.int64)
    keep = torch.where(y < 0, 0, torch.clamp(bits - y, 0, bits))
    mask = torch.where(keep >= bits, torch.full_like(keep, -1),
                       torch.bitwise_left_shift(torch.ones_like(keep), keep) - 1)
    return torch.bitwise_and(r.to(torch.int64), mask).to(x.dtype)


def _left_shift_inplace(x, y, is_arithmetic=True, out=None, name=None):
    if type(is_arithmetic) is not bool:
        is_arithmetic = parser_bool(is_arithmetic, "bitwise_left_shift_", "is_arithmetic")
    return _store(x, _shift_left(x, y, is_arithmetic, "bitwise_left_shift_"))


def _right_shift_inplace(x, y, is_arithmetic=True, out=None, name=None):
    if type(is_arithmetic) is not bool:
        is_arithmetic = parser_bool(is_arithmetic, "bitwise_right_shift_", "is_arithmetic")
    return _store(x, _shift_right(x, y, is_arithmetic, "bitwise_right_shift_"))


@defop(paddle_types=("bitwise_left_shift", "pd_op.bitwise_left_shift"), inplace=_left_shift_inplace,
       differentiable=False)
def bitwise_left_shift(x, y, is_arithmetic=True, out=None, name=None):
    """Elementwise left shift ``x << y`` of integer tensors.

    Args:
        x (Tensor): integer tensor.
        y (Tensor): shift amounts (same dtype).
        is_arithmetic (bool, optional): arithmetic (True) or logical shift; the same for left shifts.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.bitwise_left_shift(paddle.to_tensor([1, 3]), paddle.to_tensor([2, 1])).tolist()
        [4, 6]
    """
    if type(is_arithmetic) is not bool:   # Paddle's argument parser: a bool (or None) only
        is_arithmetic = parser_bool(is_arithmetic, "bitwise_left_shift", "is_arithmetic")
    r = _shift_left(x, y, is_arithmetic, "bitwise_left_shift")
    return r if out is None else write_out(out, r)


@defop(paddle_types=("bitwise_right_shift", "pd_op.bitwise_right_shift"), inplace=_right_shift_inplace,
       differentiable=False)
def bitwise_right_shift(x, y, is_arithmetic=True, out=None, name=None):
    """Elementwise right shift ``x >> y``: arithmetic (sign-filling) or logical (zero-filling).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([-8], 'int8')
        >>> y = paddle.to_tensor([1], 'int8')
        >>> paddle.bitwise_right_shift(x, y).tolist(), paddle.bitwise_right_shift(x, y, False).tolist()
        ([-4], [124])
    """
    if type(is_arithmetic) is not bool:   # Paddle's argument parser: a bool (or None) only
        is_arithmetic = parser_bool(is_arithmetic, "bitwise_right_shift", "is_arithmetic")
    r = _shift_right(x, y, is_arithmetic, "bitwise_right_shift")
    return r if out is None else write_out(out, r)


bitwise_left_shift_ = bitwise_left_shift.inplace
bitwise_right_shift_ = bitwise_right_shift.inplace


# the dtypes of Paddle's CPU kernel of isnan
_ISNAN_DTYPES = ALL_DTYPES - {torch.bool, torch.int8, torch.int16, torch.uint8}


# ---- value classes ------------------------------------------------------------------------
@defop(paddle_types=("isnan", "isnan_v2", "pd_op.isnan"), differentiable=False)
def isnan(x, name=None, *, out=None):
    """Elementwise test for NaN; returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isnan(paddle.to_tensor([1.0, float('nan')])).tolist()
        [False, True]
    """
    kernel_dtypes("isnan", x, _ISNAN_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    return torch.isnan(x) if out is None else write_out(out, torch.isnan(x))


# the dtypes of Paddle's CPU kernel of isinf
_ISINF_DTYPES = ALL_DTYPES - {torch.bool}


@defop(paddle_types=("isinf", "isinf_v2", "pd_op.isinf"), differentiable=False)
def isinf(x, name=None, *, out=None):
    """Elementwise test for +inf or -inf; returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isinf(paddle.to_tensor([1.0, float('-inf')])).tolist()
        [False, True]
    """
    kernel_dtypes("isinf", x, _ISINF_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    return torch.isinf(x) if out is None else write_out(out, torch.isinf(x))


@defop(paddle_types=("isfinite", "isfinite_v2", "pd_op.isfinite"), differentiable=False)
def isfinite(x, name=None, *, out=None):
    """Elementwise test for finite values (not NaN, not inf); returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isfinite(paddle.to_tensor([1.0, float('inf'), float('nan')])).tolist()
        [True, False, False]
    """
    kernel_dtypes("isfinite", x, _ISNAN_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    return torch.isfinite(x) if out is None else write_out(out, torch.isfinite(x))


# the dtypes of Paddle's CPU kernel of isneginf
_ISNEGINF_DTYPES = ALL_DTYPES - {torch.bool, torch.float16, torch.bfloat16}


@defop(paddle_types=("isneginf",), differentiable=False)
def isneginf(x, name=None):
    """Elementwise test for -inf; returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isneginf(paddle.to_tensor([float('-inf'), float('inf')])).tolist()
        [True, False]
    """
    kernel_dtypes("isneginf", x, _ISNEGINF_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    return torch.isneginf(x)


@defop(paddle_types=("isposinf",), differentiable=False)
def isposinf(x, name=None):
    """Elementwise test for +inf; returns a bool tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isposinf(paddle.to_tensor([float('-inf'), float('inf')])).tolist()
        [False, True]
    """
    kernel_dtypes("isposinf", x, _ISNEGINF_DTYPES, "x")  # the dtypes of Paddle's CPU kernel
    return torch.isposinf(x)


@defop(paddle_types=("isreal",), differentiable=False)
def isreal(x, name=None):
    """Elementwise test for a zero imaginary part (always True for real tensors).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isreal(paddle.to_tensor([1 + 0j, 1 + 1j])).tolist()
        [True, False]
    """
    return torch.isreal(x)


# the dtypes Paddle's static isin takes for both inputs (eagerly any)
_ISIN_PROGRAM_DTYPES = frozenset((torch.bfloat16, torch.float16, torch.float32, torch.float64,
                                  torch.int32, torch.int64))


@defop(paddle_types=("isin",), differentiable=False,
       program_dtypes={"x": _ISIN_PROGRAM_DTYPES, "test_x": _ISIN_PROGRAM_DTYPES})
def isin(x, test_x, assume_unique=False, invert=False, name=None):
    """Elementwise test of membership of ``x``'s elements in ``test_x``.

    Args:
        x (Tensor): the values to look up (bool, integer, floating or complex).
        test_x (Tensor): the set of values (any shape).
        assume_unique (bool, optional): both inputs have unique elements (a speed hint).
        invert (bool, optional): return the negation.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.isin(paddle.to_tensor([1, 2, 3]), paddle.to_tensor([1, 3])).tolist()
        [True, False, True]
    """
    if type(x) is not _T or type(test_x) is not _T:
        raise TypeError("paddle.isin: 'x' and 'test_x' must be Tensors")
    if x.dtype is not test_x.dtype:
        check_binary_dtypes("isin", x, test_x)
    if x.dtype is torch.bool and test_x.dtype is torch.bool:
        # torch.isin has no bool kernel: True is found where test_x has a True, False where
        # it has a False
        found = torch.where(x, test_x.any(), ~test_x.all()) if test_x.numel() else torch.zeros_like(x)
        return found != invert
    if x.is_complex():  # nor a complex one: compare with every element of test_x
        found = (x.unsqueeze(-1) == test_x.reshape(-1)).any(-1)
        return found != invert
    return torch.isin(x, test_x, assume_unique=assume_unique, invert=invert)


# ---- Tensor operators ---------------------------------------------------------------------
_SCALARS = (Tensor, numbers.Number)


def _cmp_operator(fn, arrays=False):
    """``self <op> other`` for Tensors and numbers (and, for comparisons, numpy arrays, which
    become tensors of their own dtype as in Paddle)."""
    fn = number_api(fn)
    api = fn.op_record.name

    def op(self, other):
        if is_numpy_number(other):
            other = read_numpy_number(self, other, api)
            if other is NotImplemented:   # (``x == np.int8(1)``: Python's identity test)
                return other
            return fn(self, other)
        if isinstance(other, _SCALARS):
            return fn(self, python_number(other))
        if arrays and isinstance(other, np.ndarray) and other.dtype.kind in "biufc":
            return fn(self, wrap(torch.from_numpy(other.copy())))
        return NotImplemented
    op.__name__ = f"__{fn.__name__}__"
    return op


def _const_device(t):
    """Where an operator puts a number it turns into a tensor: beside ``t``, but on the CPU for
    a symbolic (meta) ``t``, since the recorded constant must hold its value."""
    return torch.device("cpu") if t.device.type == "meta" else t.device


def _int_operand(self, other, sym):
    """The Python int/bool operand of a shift or reflected bitwise operator as a 0-D tensor of
    ``self``'s dtype, wrapping like a C cast (Paddle's ``to_tensor(y, dtype=x.dtype)``); any
    other number (a float, a complex, a numpy number) is a TypeError."""
    if isinstance(other, int):
        t = self._t
        if not -2 ** 63 <= other < 2 ** 64:   # (numpy holds no wider integer, nor does Paddle)
            raise TypeError(f"unsupported operand for {sym}: the int {other} is out of the int64 "
                            "and uint64 ranges")
        if t.dtype is torch.bool:
            return wrap(torch.tensor(bool(other), device=_const_device(t)))
        v = (int(other) + 2 ** 63) % 2 ** 64 - 2 ** 63
        return wrap(torch.tensor(v, dtype=torch.int64, device=_const_device(t)).to(t.dtype))
    raise TypeError(f"unsupported operand type(s) for {sym}: '{type(other).__name__}' and 'Tensor'")


def _rbit(fn, sym):
    """``y & x`` (``|``, ``^``) for a non-Tensor ``y``: a Python int or bool is a 0-D tensor of
    x's dtype; anything else (numpy numbers included) is Paddle's TypeError."""
    def op(self, other):
        if isinstance(other, numbers.Number):
            return fn(_int_operand(self, other, sym), self)
        return NotImplemented
    op.__name__ = f"__r{fn.__name__}__"
    return op


def _bit_operator(fn):
    """``x & y`` (``|``, ``^``): Paddle hands ``y`` to the op itself, which takes only a Tensor,
    so any other operand (a number, a numpy value, a list) is the op's ValueError."""
    plain = number_api(fn)

    def op(self, other):
        return plain(self, other) if isinstance(other, Tensor) else fn(self, other)
    op.__name__ = f"__{fn.__name__}__"
    return op


def _shift_operator(fn, sym, reflected=False):
    """``x << y`` / ``x >> y`` (and ``y << x`` when ``reflected``): a Python int or bool operand
    is a 0-D tensor of x's dtype and a float is a TypeError, as in Paddle; any other non-Tensor
    (a complex, a numpy value, a list) reaches the op, which refuses it (ValueError)."""
    plain = number_api(fn)

    def op(self, other):
        if isinstance(other, float):
            names = ("float", "Tensor") if reflected else ("Tensor", "float")
            raise TypeError(f"unsupported operand type(s) for {sym}: '{names[0]}' and '{names[1]}'")
        if isinstance(other, int):
            other = _int_operand(self, other, sym)
        elif not isinstance(other, Tensor):
            return fn(other, self) if reflected else fn(self, other)
        return plain(other, self) if reflected else plain(self, other)
    op.__name__ = f"__{'r' if reflected else ''}{fn.__name__}__"
    return op


def _eq_operator(base):
    """``x == number`` compares by value (``int_x == 2.5`` is all False), where
    ``paddle.equal`` first casts the number to x's dtype: such a number goes in as a 0-D tensor."""
    def op(self, other):
        t = self._t
        if isinstance(other, np.generic) and not isinstance(other, (float, complex)):
            return base(self, other)   # (see numpy_operand)
        other = python_number(other)   # (np.float64 is a Python float to Paddle)
        if (type(other) is float or (type(other) is int and t.dtype is torch.bool)) \
                and not (t.is_floating_point() or t.is_complex()):
            other = wrap(torch.tensor(other, dtype=torch.float64 if type(other) is float else torch.int64,
                                      device=_const_device(t)))
        return base(self, other)
    op.__name__ = base.__name__
    return op


Tensor.__eq__ = _eq_operator(_cmp_operator(equal, arrays=True))
Tensor.__ne__ = _cmp_operator(not_equal, arrays=True)
Tensor.__lt__ = _cmp_operator(less_than, arrays=True)
Tensor.__le__ = _cmp_operator(less_equal, arrays=True)
Tensor.__gt__ = _cmp_operator(greater_than, arrays=True)
Tensor.__ge__ = _cmp_operator(greater_equal, arrays=True)
for _op, _fn, _sym in (("and", bitwise_and, "&"), ("or", bitwise_or, "|"), ("xor", bitwise_xor, "^"),
                       ("lshift", bitwise_left_shift, "<<"), ("rshift", bitwise_right_shift, ">>")):
    _shift = _sym in ("<<", ">>")
    setattr(Tensor, f"__{_op}__", _shift_operator(_fn, _sym) if _shift else _bit_operator(_fn))
    setattr(Tensor, f"__r{_op}__", _shift_operator(_fn, _sym, True) if _shift else _rbit(_fn, _sym))
Tensor.__invert__ = bitwise_not

logical_and_ = logical_and.inplace
logical_or_ = logical_or.inplace
logical_xor_ = logical_xor.inplace
logical_not_ = logical_not.inplace
