"""Creation ops: tensors from data, constants, ``*_like`` and ``Tensor.new_*`` factories,
in-place fills, DLPack, and the legacy ``FloatTensor``-style constructors."""
from __future__ import annotations

import functools
import numbers
from typing import Any, Callable

import numpy as np
import torch
import torch.utils.dlpack

from pagaie._core import dtype as _dt
from pagaie._core.place import to_torch_device
from pagaie._core.registry import NoKernelError, bind_out, defop
from pagaie._core.tensor import Tensor, name_as_data, require_grad
from pagaie._ops._factory import (c_float_to_int, device_of, finish, returns_self, shape_of, size_args,
                                  write_out)
from pagaie._ops._helpers import (ALL_DTYPES, PARSER_NUMPY_INTS, dense_only, device, float_dtype, kernel_dtypes,
                                  numpy_scalar_args, stopped)

__all__ = ["to_tensor", "as_tensor", "asarray", "from_numpy", "assign", "clone",
           "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
           "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor",
           "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"]

_T = torch.Tensor
_FLOAT_KINDS = ("f", "c")


# ---- tensors from data ------------------------------------------------------------

def _numpy_of(v: Any) -> Any:
    """Nested data with torch tensors turned into numpy arrays (for numpy's inference)."""
    if isinstance(v, _T):
        t = v.detach()
        if t.dtype is torch.bfloat16:
            t = t.float()
        return t.cpu().numpy()
    if isinstance(v, (list, tuple)):
        return [_numpy_of(e) for e in v]
    return v


# the numpy type data is converted to for a requested dtype (bfloat16 goes through float32)
_NP_OF = {torch.bool: np.bool_, torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16,
          torch.int32: np.int32, torch.int64: np.int64, torch.float16: np.float16,
          torch.bfloat16: np.float32, torch.float32: np.float32, torch.float64: np.float64,
          torch.complex64: np.complex64, torch.complex128: np.complex128,
          torch.uint16: np.uint16}  # the object paddle.uint16: an unsigned integer tensor


def _numpy_knows(name: str) -> bool:
    try:
        np.dtype(name)
    except TypeError:
        return False
    return True


def _scalar_data(data: Any) -> bool:
    """Whether Paddle takes ``data`` as one scalar: Python and numpy numbers, and (as
    ``np.isscalar`` says) any ``numbers.Number`` (Decimal, Fraction) and bytes, which numpy
    holds as objects or bytes (rejected later); not strings."""
    return isinstance(data, (bool, int, float, complex)) or \
        np.isscalar(data) and not isinstance(data, str)


def _from_data(data: Any, dtype: Any, api: str) -> torch.Tensor:
    """Paddle's conversion of data to a tensor, dtype inference included (a new copy)."""
    want = None if dtype is None else _dt.checked_dtype(dtype, f"paddle.{api}")
    if isinstance(data, _T):
        t = data.detach().clone()
        return t if want is None or t.dtype is want else t.to(want)
    if isinstance(data, np.str_):  # a str to Paddle: not data
        raise TypeError(f"paddle.{api}: can't construct a Tensor from data of type numpy.str_ "
                        f"({data!r}); data must be a scalar, list, tuple, numpy.ndarray or Tensor")
    if isinstance(data, np.ndarray) or isinstance(data, np.generic):
        arr = np.array(data, copy=True)
        keep = True  # numpy data keeps its dtype
    elif isinstance(data, memoryview):  # a buffer: numpy reads it, as Paddle's np.array does
        arr = np.array(data)
        keep = False
    elif _scalar_data(data):
        try:
            arr = np.array(data)
        except OverflowError:
            arr = np.array(data, dtype=object)  # beyond 64 bits: rejected below
        keep = False
    elif isinstance(data, (list, tuple)):
        has_tensor = any(isinstance(e, _T) for e in data)
        if has_tensor and all(isinstance(e, _T) for e in data) and len({(e.dtype, e.shape) for e in data}) == 1:
            t = torch.stack([e.detach() for e in data])  # keeps dtypes numpy lacks (bfloat16)
            return t if want is None or t.dtype is want else t.to(want)
        try:
            arr = np.array(_numpy_of(data) if has_tensor else data)
        except (ValueError, OverflowError) as exc:
            raise ValueError(f"paddle.{api}: failed to convert the input data to a regular array; "
                             f"nested lists usually have different lengths ({exc})") from None
        keep = has_tensor  # with tensors inside, numpy's promoted dtype is kept
    else:
        raise TypeError(f"paddle.{api}: can't construct a Tensor from data of type "
                        f"{type(data).__name__}; data must be a scalar, list, tuple, "
                        "numpy.ndarray or Tensor")
    if arr.dtype.kind not in "biufc":
        # Paddle: ValueError for the data itself; with a dtype given its dtype check fails
        # first, except for Python data numpy could only hold as objects (None, huge ints)
        as_objects = arr.dtype == object and isinstance(data, (list, tuple))
        kind = ValueError if want is None or as_objects else TypeError
        raise kind(f"paddle.{api}: unsupported data element type {arr.dtype}; expected bool, "
                   "integer, floating or complex values")
    if want is not None and want not in _NP_OF:
        # numpy has no such type: Paddle cannot convert data to it (a Tensor it can cast). For
        # float8 Paddle's error is numpy's TypeError, unless a package (ml_dtypes) taught numpy
        # the type: then its tensor setter refuses the array (ValueError)
        kind = TypeError if want in _dt.FLOAT8 \
            and not _numpy_knows(str(want).replace("torch.", "")) else ValueError
        raise kind(f"paddle.{api}: can't make a {_dt.from_torch_dtype(want).name} tensor from "
                   f"{type(data).__name__} data; create it in another dtype and cast it")
    if arr.dtype == np.uint16 and want in (None, torch.bfloat16):  # Paddle's convention:
        # numpy's uint16 holds bfloat16 bit patterns
        return torch.from_numpy(arr.view(np.int16)).view(torch.bfloat16)
    if arr.dtype not in _dt.NUMPY_DATA_TYPES:
        if want is not None and arr.dtype not in (np.uint32, np.uint64):  # Paddle's dtype
            # check of the data fails first
            raise TypeError(f"paddle.{api}: numpy dtype {arr.dtype} is not supported; use bool, "
                            "uint8, int8, int16, int32, int64, float16, float32, float64, "
                            "complex64 or complex128")
        if want is None or want is torch.bfloat16:  # bfloat16: Paddle hands the array
            # itself to its tensor setter, which refuses it
            raise ValueError(f"paddle.{api}: numpy dtype {arr.dtype} is not supported; use bool, "
                             "uint8, int8, int16, int32, int64, float16, float32, float64, "
                             "complex64, complex128 or pass dtype=")
        arr = arr.astype(_NP_OF[want])
    t = torch.from_numpy(arr)
    if want is None and not keep:
        if arr.dtype.kind in _FLOAT_KINDS:
            df = _dt.default_float()
            # Paddle: complex64 under a float16/float32 default, complex128 otherwise
            # (bfloat16 included)
            want = (torch.complex64 if df in (torch.float16, torch.float32) else torch.complex128) \
                if arr.dtype.kind == "c" else df
        elif arr.dtype == np.int32:
            want = torch.int64
    if want is torch.bfloat16:
        return _dt.to_bfloat16(t)
    if want is not None and t.dtype is not want:
        t = t.to(want)
    return t


def _dense_data(held: Tensor | None, dtype: Any) -> torch.Tensor:
    """The data of a ``DenseTensor`` given to to_tensor: its tensor's memory itself, cast
    (a copy) when ``dtype`` differs."""
    if held is None:
        raise ValueError("paddle.to_tensor: the DenseTensor given as data is not initialized; "
                         "set its data first (DenseTensor.set(array, place))")
    t = held._t.detach()
    return t if dtype is None else t.to(_dt.checked_dtype(dtype, "paddle.to_tensor"))


def _place(t: torch.Tensor, place: Any, api: str) -> torch.Tensor:
    dev = device() if place is None else to_torch_device(place, f"paddle.{api}")
    return t if t.device == dev else t.to(dev)


# The numpy dtypes Paddle's static assign takes as data (its to_tensor in programs goes through it)
_PROGRAM_DATA_DTYPES = frozenset(np.dtype(d) for d in ("float32", "float64", "int32", "int64", "bool",
                                                       "complex64", "complex128"))


def _program_data_check(api: str, data: Any) -> None:
    """Paddle's build-time TypeError for numpy data of a dtype its static assign lacks (uint8,
    int8, float16...). to_tensor first turns int16 data into int32, and the float16 numpy makes of
    a list into the default float; assign refuses a numpy scalar outright."""
    if api == "assign" and isinstance(data, np.generic):
        raise TypeError(f"paddle.assign: 'x' must be a Tensor, numpy.ndarray, list, tuple or Python "
                        f"number in a static program, but received numpy.{type(data).__name__}")
    if not isinstance(data, (np.ndarray, np.generic, list, tuple)):
        return
    try:
        dt = np.asarray(data).dtype
    except Exception:  # noqa: BLE001 - Values in the list: stacked, not assigned
        return
    if dt == np.object_ or dt in _PROGRAM_DATA_DTYPES or (api == "to_tensor" and (
            dt == np.int16 or (dt == np.float16 and isinstance(data, (list, tuple))))):
        return
    want = ", ".join(sorted(d.name for d in _PROGRAM_DATA_DTYPES))
    raise TypeError(f"paddle.{api}: numpy data of dtype {dt} is not supported in a static program "
                    f"(Paddle's static assign takes {want})")


@defop(method=False, paddle_types=("assign_value", "pd_op.assign_value_"), differentiable=False,
       static_check=lambda data, *args, **kwargs: _program_data_check("to_tensor", data),
       own_stop_gradient=True)
def to_tensor(data, dtype=None, place=None, stop_gradient=True):
    """Create a Tensor from Python data, a numpy array, a ``DenseTensor`` or another Tensor.

    Dtype inference follows Paddle: Python floats (and lists of them) take the
    default float dtype, ints int64, bools bool, complex numbers the matching
    complex dtype; numpy arrays and numpy scalars keep their dtype; a list holding
    Tensors takes the dtype numpy promotes them to.

    Args:
        data (scalar|list|tuple|numpy.ndarray|Tensor): the values.
        dtype (str|paddle.dtype, optional): the element type; inferred when None.
        place (str|Place, optional): the device; the current default device when None.
        stop_gradient (bool, optional): whether gradients stop here. Default True.

    Returns:
        Tensor: a new tensor holding a copy of ``data`` (a ``DenseTensor``'s memory is
        shared when neither dtype nor place changes, as in Paddle).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1, 2, 3]).dtype
        <DataType.INT64: 9>
        >>> paddle.to_tensor([1.0, 2.0], stop_gradient=False).stop_gradient
        False
    """
    held = getattr(data, "_held_tensor", None)
    if callable(held):   # a DenseTensor (``x.get_tensor()``): shares x's memory, as in Paddle
        t = _dense_data(held(), dtype)
    else:
        t = _from_data(data, dtype, "to_tensor")
    # row-major before the leaf is made (a transposed numpy array comes in strided)
    t = _place(t, place, "to_tensor").contiguous()
    if stop_gradient:
        return t
    # Integer tensors too say stop_gradient=False when asked (no gradient reaches them).
    return require_grad(t)


def _named_as_data(op: Any) -> Any:
    """``op`` (a creation API whose first argument is the data), naming its result as Paddle
    names a tensor made from data, when it is made (see :func:`name_as_data`)."""
    @functools.wraps(op)
    def api(data, *args, **kwargs):
        return name_as_data(op(data, *args, **kwargs), data)
    return api


to_tensor = _named_as_data(to_tensor)


@defop(method=False, differentiable=False)
def as_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Create a Tensor from data (like :func:`to_tensor`, with torch-style keywords).

    Args:
        data (scalar|list|tuple|numpy.ndarray|Tensor): the values.
        dtype (str|paddle.dtype, optional): the element type; inferred when None.
        device (str|Place, optional): where to put it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the new tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.as_tensor([1.0, 2.0]).dtype
        <DataType.FLOAT32: 10>
    """
    t = _place(_from_data(data, dtype, "as_tensor"), device, "as_tensor")
    return finish(t, None, requires_grad, pin_memory, "as_tensor")


as_tensor = _named_as_data(as_tensor)


@defop(method=False, differentiable=False)
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """Convert ``obj`` (data, a numpy array or a Tensor) to a Tensor.

    Args:
        obj (scalar|list|tuple|numpy.ndarray|Tensor): the values.
        dtype (str|paddle.dtype, optional): the element type; inferred when None.
        device (str|Place, optional): where to put it.
        copy (bool, optional): accepted for compatibility; the data is always copied.
        requires_grad (bool, optional): make the result a gradient leaf.

    Returns:
        Tensor: the new tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.asarray([1, 2]).dtype
        <DataType.INT64: 9>
    """
    t = _place(_from_data(obj, dtype, "asarray"), device, "asarray")
    return finish(t, None, requires_grad)


asarray = _named_as_data(asarray)


@defop(method=False, differentiable=False)
def from_numpy(ndarray):
    """Create a Tensor from a numpy array, keeping its dtype (the data is copied).

    Args:
        ndarray (numpy.ndarray): the array.

    Returns:
        Tensor: the new tensor, on the current default device.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.from_numpy(np.arange(3, dtype=np.int32)).dtype
        <DataType.INT32: 7>
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError("paddle.from_numpy: the input must be a numpy.ndarray, but received "
                        f"{type(ndarray).__name__}; use paddle.to_tensor for other data")
    return _place(_from_data(ndarray, None, "from_numpy"), None, "from_numpy")


@defop(method=False, paddle_types=("assign", "pd_op.assign"),
       static_check=lambda x, *args, **kwargs: _program_data_check("assign", x))
def assign(x, output=None):
    """Copy ``x`` (a Tensor, numpy array, list or number) into a new tensor or into ``output``.

    Numbers become 1-element tensors; lists and arrays keep numpy's dtype (so
    ``[1.0]`` gives float64). Gradients flow through a Tensor ``x``.

    Args:
        x (Tensor|numpy.ndarray|list|tuple|scalar): the source.
        output (Tensor, optional): a tensor to write into.

    Returns:
        Tensor: the copy (``output`` when given).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.assign(paddle.to_tensor([1.0, 2.0])).tolist()
        [1.0, 2.0]
    """
    if isinstance(x, _T):
        r = x.clone()
    else:
        # As Paddle's dynamic mode: the data (Tensors in a list too) goes through numpy, so
        # numpy's promotion picks the dtype and the result stops gradients.
        if _scalar_data(x):
            x = np.array([x]) if not isinstance(x, int) or -2**63 <= x < 2**64 else \
                np.array([x], dtype=object)
        elif isinstance(x, (list, tuple)):
            try:
                x = np.array(_numpy_of(x))
            except (ValueError, OverflowError) as exc:
                raise ValueError(f"paddle.assign: failed to convert 'x' to a regular array; nested "
                                 f"lists usually have different lengths ({exc})") from None
        elif not isinstance(x, np.ndarray):
            raise TypeError(f"paddle.assign: 'x' must be a Tensor, numpy.ndarray, list, tuple or "
                            f"number, but received {type(x).__name__}")
        if x.dtype == np.object_:
            raise TypeError("paddle.assign: 'x' holds Python objects (numpy dtype object), which "
                            "can't be converted to a tensor")
        if x.dtype not in _dt.NUMPY_DATA_TYPES:
            raise ValueError(f"paddle.assign: numpy dtype {x.dtype} of 'x' is not supported")
        if x.dtype == np.uint8 or x.dtype == np.int16:   # no assign_value kernel in Paddle
            raise NoKernelError(f"paddle.assign: numpy dtype {x.dtype} of 'x' is not supported (Paddle's "
                                "kernel takes no uint8 or int16 data)")
        if x.dtype == np.uint16:  # Paddle: the name of bfloat16, converted by value
            r = torch.from_numpy(x.astype(np.float32)).to(torch.bfloat16)
        else:
            r = torch.from_numpy(np.array(x, copy=True))
        r = stopped(_place(r, None, "assign"))  # data: no gradient, whatever its Tensors said
        if output is not None and output.shape == r.shape and output.dtype is r.dtype \
                and output.device == r.device:
            # Paddle counts no in-place version for data written into ``output``, nor for the
            # base of a view: ``.data`` shares the storage but not the version counter
            output.data.copy_(r)
            return r
    if output is not None:
        write_out(output, r)
    return r   # with its graph: the public ``assign`` makes ``output`` hold it


_assign_op = assign


@functools.wraps(_assign_op)
def assign(x: Any, output: Any = None) -> Any:
    if output is not None and not isinstance(output, Tensor):
        raise ValueError(f"paddle.assign: argument 'output' (position 1) must be Tensor, but got "
                         f"{type(output).__name__}")
    version = output.inplace_version if isinstance(output, Tensor) else 0
    r = _assign_op(x, output)
    if isinstance(output, Tensor) and r is not output and not r._t.is_meta:
        bind_out(output, r._t)   # as Paddle's eager assign: ``output`` is the result itself
        # Paddle counts one write into ``output`` from a Tensor, none from data
        output._version_bias = version + isinstance(x, Tensor) - output._t._version
        return output
    return r


@defop(method=True, paddle_types=("assign", "pd_op.assign"))
def clone(x, name=None):
    """A copy of ``x`` that stays in the autograd graph (gradients flow back to ``x``).

    Args:
        x (Tensor): the tensor.
        name (str, optional): unused.

    Returns:
        Tensor: the copy.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> y = x.clone()
        >>> y.tolist()
        [1.0, 2.0]
    """
    return x.clone()


# ---- constants ----------------------------------------------------------------------

def _full_shape(shape: Any, api: str) -> list[int]:
    """The shape of the ops over Paddle's ``full`` (zeros, ones, full, new_zeros/ones/full),
    whose C++ parser takes a numpy scalar shape only of the types it reads as an int (others go
    through Python first in Paddle, ``empty`` and the samplers, and are taken). A Tensor shape
    must be int32 or int64: Paddle's IntArray reader raises its data-type error (an OSError)
    for any other dtype, bool and int16 included (a TypeError while a program is built)."""
    if isinstance(shape, np.generic) and not isinstance(shape, PARSER_NUMPY_INTS):
        raise TypeError(f"paddle.{api}: 'shape' must be a list, tuple, int or Tensor, but "
                        f"received numpy.{type(shape).__name__}")
    if isinstance(shape, torch.Tensor) and shape.dtype not in (torch.int32, torch.int64):
        err = OSError(f"paddle.{api}: a Tensor 'shape' must be int32 or int64, but received "
                      f"{_dt.from_torch_dtype(shape.dtype).name}")
        err.static_type = TypeError
        raise err
    return shape_of(shape, api)


def _out_dtype(out: torch.Tensor | None, dt: torch.dtype, api: str) -> torch.dtype:
    """``dt``, the dtype of the result of full, zeros or ones, checked against their ``out``
    tensor's: Paddle refuses another dtype (TypeError) instead of casting."""
    if out is not None and out.dtype is not dt:
        err = TypeError(f"paddle.{api}: 'out' must have the result's dtype "
                        f"{_dt.from_torch_dtype(dt).name}, but it has {_dt.from_torch_dtype(out.dtype).name}")
        err.static_type = TypeError   # (while a program is built too)
        raise err
    return dt


def _result_is_out(api: Callable) -> Callable:
    """full, zeros and ones as Paddle's: an ``out`` tensor is returned itself."""
    @functools.wraps(api)
    def call(*args: Any, **kwargs: Any) -> Any:
        r = api(*args, **kwargs)
        out = kwargs.get("out")
        return out if isinstance(out, Tensor) and isinstance(r, Tensor) and r._t is out._t else r
    return call


def _size_args(shape: Any, dtype: Any, name: Any = None) -> tuple:
    """Paddle accepts ``zeros(2, 3)`` as ``zeros([2, 3])``: ints in the dtype/name slots are dims."""
    if isinstance(shape, int) and isinstance(dtype, int) and not isinstance(dtype, bool):
        dims = [shape, dtype]
        if isinstance(name, int) and not isinstance(name, bool):
            dims.append(name)
        return dims, None
    return shape, dtype


def _fill_value(v: Any, api: str = "full") -> Any:
    """A fill value as a Python number: one-element tensors and numpy numbers are read, and
    numeric strings parsed (Paddle's "string numeric values"); numpy's bool is a TypeError."""
    if isinstance(v, _T):
        return v.reshape(-1)[0].item() if v.numel() == 1 else v.item()
    if isinstance(v, np.bool_):
        raise TypeError(f"paddle.{api}: 'fill_value' must be an int, float, bool, complex, "
                        "numpy number, numeric string or Tensor, but received numpy.bool")
    if isinstance(v, np.generic):
        numpy_scalar_args(api, fill_value=v)
        return v.item()
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            raise ValueError(f"paddle.{api}: 'fill_value' {v!r} is not a numeric string") from None
    return v


def _fill_dtype(value: Any, dtype: Any, api: str) -> torch.dtype:
    if dtype is not None:
        return _dt.to_torch_dtype(dtype, f"paddle.{api}")
    if isinstance(value, bool):
        return torch.bool
    if isinstance(value, complex):
        return torch.complex128  # as Paddle: numpy's complex type
    return _dt.default_float()


def _limits(dt: torch.dtype) -> tuple:
    """The smallest and largest finite values of a real dtype."""
    if dt is torch.bool:
        return 0, 1
    info = torch.finfo(dt) if dt.is_floating_point else torch.iinfo(dt)
    return info.min, info.max


def _fill_scalar(value: Any, dt: torch.dtype, api: str = "full", strict: bool = False) -> Any:
    """A fill value converted to what Paddle stores in a tensor of dtype ``dt``.

    ``strict`` (full_like): the value is a double, checked against ``dt``'s range in single
    precision (a finite value out of range is a ValueError), then converted as C++ does.
    Otherwise (full): integers wrap around, floats overflow to infinity. A complex value keeps
    its real part for a real dtype; a float converts to an integer dtype as C++ does."""
    if isinstance(value, complex) and not dt.is_complex:
        value = value.real
    if strict and isinstance(value, (int, float)):
        if isinstance(value, int) and not -2**63 <= value < 2**63:
            raise ValueError(f"paddle.{api}: 'fill_value' {value} does not fit in a 64-bit integer")
        value = float(value)  # Paddle's full_like takes a double
        if value == value and abs(value) != float("inf") and dt is not torch.float64 \
                and not dt.is_complex:
            lo, hi = _limits(dt)
            with np.errstate(over="ignore"):
                v32, lo32, hi32 = np.float32(value), np.float32(lo), np.float32(hi)
            if not lo32 <= v32 <= hi32:
                raise ValueError(f"paddle.{api}: 'fill_value' {value!r} is out of the range "
                                 f"[{lo}, {hi}] of dtype {_dt.from_torch_dtype(dt).name}")
    elif isinstance(value, (int, float)) and not dt.is_complex:
        lo, hi = _limits(dt)
        if value == value and value not in (float("inf"), float("-inf")) and not lo <= value <= hi:
            if dt.is_floating_point:
                value = float("inf") if value > 0 else float("-inf")
            elif dt is not torch.bool and isinstance(value, int):
                if torch.iinfo(dt).bits == 64:
                    raise ValueError(f"paddle.{api}: 'fill_value' {value!r} does not fit in dtype "
                                     f"{_dt.from_torch_dtype(dt).name}")
                value = (value - lo) % (hi - lo + 1) + lo
    if not (dt.is_floating_point or dt.is_complex) and isinstance(value, float):
        value = value != 0 if dt is torch.bool else c_float_to_int(value, dt)
    elif dt is torch.complex64 and isinstance(value, (int, float, complex)):
        with np.errstate(over="ignore"):   # (single precision: 1e40 is inf, as Paddle stores it)
            value = complex(np.complex64(value))
    return value


def _full(dims: list, value: Any, dt: torch.dtype, dev: torch.device, api: str = "full",
          strict: bool = False) -> torch.Tensor:
    """``torch.full`` with the value converted as Paddle converts it (:func:`_fill_scalar`)."""
    value = _fill_scalar(value, dt, api, strict)
    if dt is torch.bfloat16 and value != value:  # Paddle's bfloat16 NaN bit pattern
        return _dt.to_bfloat16(torch.full(dims, value, device=dev))
    return torch.full(dims, value, dtype=dt, device=dev)


@defop(method=False, differentiable=False, paddle_types=("fill_constant", "pd_op.full"),
       program_no_arrays=("shape",))
def zeros(shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False,
          pin_memory=False):
    """A tensor of zeros.

    Args:
        shape (list|tuple|Tensor|int): the shape (``zeros(2, 3)`` also works).
        dtype (str|paddle.dtype, optional): the default float dtype when None.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the zeros.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros([2]).tolist()
        [0.0, 0.0]
    """
    shape, dtype = _size_args(shape, dtype, name)
    dt = _out_dtype(out, float_dtype(dtype, "zeros"), "zeros")
    dims = _full_shape(shape, "zeros") if shape is not None else []  # None: a 0-D tensor, as in Paddle
    t = torch.zeros(dims, dtype=dt, device=device_of(device, "zeros"))
    return finish(t, out, requires_grad, pin_memory, "zeros")


@defop(method=False, differentiable=False, paddle_types=("fill_constant", "pd_op.full"),
       program_no_arrays=("shape",))
def ones(shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False,
         pin_memory=False):
    """A tensor of ones.

    Args:
        shape (list|tuple|Tensor|int): the shape (``ones(2, 3)`` also works).
        dtype (str|paddle.dtype, optional): the default float dtype when None.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the ones.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2]).tolist()
        [1.0, 1.0]
    """
    shape, dtype = _size_args(shape, dtype, name)
    dt = _out_dtype(out, float_dtype(dtype, "ones"), "ones")
    dims = _full_shape(shape, "ones") if shape is not None else []  # None: a 0-D tensor, as in Paddle
    t = torch.ones(dims, dtype=dt, device=device_of(device, "ones"))
    return finish(t, out, requires_grad, pin_memory, "ones")


def _full_static_check(shape: Any, fill_value: Any, *args: Any, **kwargs: Any) -> None:
    """Paddle's static full wants a list, tuple or Value shape (None builds a 0-D tensor
    eagerly) and a number or Value fill (its eager API reads a string): TypeError."""
    if shape is None:
        raise TypeError("paddle.full: 'shape' must be a list, tuple or Tensor while a program is "
                        "built, but received None")
    _str_fill_in_programs("full", fill_value)


def _str_fill_in_programs(api: str, fill_value: Any) -> None:
    if isinstance(fill_value, str):
        raise TypeError(f"paddle.{api}: 'fill_value' must be a number or a Tensor while a program "
                        f"is built, but received str {fill_value!r}")


@defop(method=False, differentiable=False,
       paddle_types=("fill_constant", "pd_op.full", "pd_op.full_with_tensor", "pd_op.full_batch_size_like"),
       program_no_arrays=("shape",), static_check=_full_static_check)
def full(shape, fill_value, dtype=None, name=None, *, out=None, device=None, requires_grad=False,
         pin_memory=False):
    """A tensor filled with ``fill_value``.

    Args:
        shape (list|tuple|Tensor|int): the shape.
        fill_value (scalar|Tensor): the value (a one-element Tensor works too).
        dtype (str|paddle.dtype, optional): bool for a bool value, else the default
            float dtype, when None.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the filled tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.full([2], 7.0).tolist()
        [7.0, 7.0]
    """
    value = _fill_value(fill_value, "full")
    # a Tensor value takes the default float dtype, as in Paddle (whatever its own dtype)
    dt = _out_dtype(out, _fill_dtype(0.0 if isinstance(fill_value, _T) else value, dtype, "full"), "full")
    dims = _full_shape(shape, "full") if shape is not None else []  # None: 0-D, as in Paddle
    t = _full(dims, value, dt, device_of(device, "full"))
    return finish(t, out, requires_grad, pin_memory, "full")


def _empty_static_check(shape: Any, dtype: Any = None, name: Any = None, *args: Any, **kwargs: Any) -> None:
    """Paddle's static empty checks its dtype against a list without uint8 (eagerly any dtype
    goes), and takes its shape only as a list, a tuple, a Python int or an int32/int64 Value:
    TypeError while a program is built."""
    shape, dtype = _size_args(shape, dtype, name)
    if isinstance(shape, Tensor):
        if shape._t.dtype not in (torch.int32, torch.int64):
            raise TypeError(f"paddle.empty: a Tensor 'shape' must be int32 or int64 in a static "
                            f"program, but received {_dt.from_torch_dtype(shape._t.dtype).name}")
    elif not isinstance(shape, (list, tuple, int, np.ndarray)) or isinstance(shape, bool):
        raise TypeError(f"paddle.empty: 'shape' must be a list, tuple or Tensor in a static program, "
                        f"but received {type(shape).__name__}")
    elif isinstance(shape, (list, tuple)) and not all(isinstance(d, (int, Tensor)) for d in shape):
        raise TypeError(f"paddle.empty: the entries of 'shape' must be Python ints or Tensors in a "
                        f"static program, but received {shape!r}")
    if dtype is None:
        return
    try:
        dt = _dt.checked_dtype(dtype, "paddle.empty")
    except (TypeError, ValueError):
        return   # the kernel reports it
    if dt is torch.uint8:
        raise TypeError("paddle.empty: 'dtype' uint8 is not supported while a program is built")


@defop(method=False, differentiable=False, paddle_types=("empty", "pd_op.empty"),
       static_check=_empty_static_check)
def empty(shape, dtype=None, name=None, *, out=None, device=None, requires_grad=False,
          pin_memory=False):
    """An uninitialised tensor (its values are arbitrary).

    Args:
        shape (list|tuple|Tensor|int): the shape (``empty(2, 3)`` also works).
        dtype (str|paddle.dtype, optional): the default float dtype when None.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.empty([2, 3]).shape
        paddle.Size([2, 3])
    """
    shape, dtype = _size_args(shape, dtype, name)
    dt = _dt.default_float() if dtype is None else _dt.checked_dtype(dtype, "paddle.empty")
    if isinstance(shape, np.ndarray):   # Paddle casts an array to ints (floats truncate)
        shape = shape.astype(np.int64)
    elif isinstance(shape, torch.Tensor) and (shape.is_floating_point() or shape.dtype is torch.bool):
        shape = shape.to(torch.int64)   # and a shape tensor too
    elif not isinstance(shape, (list, tuple, torch.Tensor, numbers.Integral)):
        # Paddle converts any other shape with ``shape.astype(int)``
        err = AttributeError(f"paddle.empty: 'shape' must be a list, tuple, int or Tensor, but "
                             f"received {type(shape).__name__}")
        err.static_type = TypeError   # its static API's shape check
        raise err
    t = torch.empty(shape_of(shape, "empty"), dtype=dt,
                    device=device_of(device, "empty"))
    return finish(t, out, requires_grad, pin_memory, "empty")


def _like(x: torch.Tensor, dtype: Any, dev: Any, api: str) -> tuple:
    if not isinstance(x, torch.Tensor):   # (a numpy array has a shape and a device too)
        raise AttributeError(f"paddle.{api}: 'x' must be a Tensor, but received {type(x).__name__}")
    if api != "empty_like":   # (Paddle's empty_like reads only the shape and dtype)
        dense_only(api, x)
    dt = x.dtype if dtype is None else _dt.to_torch_dtype(dtype, f"paddle.{api}")
    return dt, (x.device if dev is None else device_of(dev, api))


@defop(method=False, differentiable=False)
def zeros_like(x, dtype=None, name=None, *, device=None, requires_grad=False, pin_memory=False):
    """Zeros with ``x``'s shape (and dtype and device unless given).

    Args:
        x (Tensor): the model tensor.
        dtype (str|paddle.dtype, optional): the output dtype; ``x``'s when None.
        name (str, optional): unused.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the zeros.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros_like(paddle.to_tensor([1, 2])).tolist()
        [0, 0]
    """
    dt, dev = _like(x, dtype, device, "zeros_like")
    t = torch.zeros(x.shape, dtype=dt, device=dev)
    kernel_dtypes("zeros_like", t, ALL_DTYPES, "dtype")   # (Paddle's full_like kernel: no float8)
    return finish(t, None, requires_grad, pin_memory, "zeros_like")


@defop(method=False, differentiable=False)
def ones_like(x, dtype=None, name=None, *, device=None, requires_grad=False, pin_memory=False):
    """Ones with ``x``'s shape (and dtype and device unless given).

    Args:
        x (Tensor): the model tensor.
        dtype (str|paddle.dtype, optional): the output dtype; ``x``'s when None.
        name (str, optional): unused.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the ones.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones_like(paddle.to_tensor([1.0, 2.0])).tolist()
        [1.0, 1.0]
    """
    dt, dev = _like(x, dtype, device, "ones_like")
    t = torch.ones(x.shape, dtype=dt, device=dev)
    kernel_dtypes("ones_like", t, ALL_DTYPES, "dtype")
    return finish(t, None, requires_grad, pin_memory, "ones_like")


@defop(method=False, differentiable=False, paddle_types=("fill_any_like", "pd_op.full_like"),
       static_check=lambda x, fill_value, *args, **kwargs: _str_fill_in_programs("full_like", fill_value))
def full_like(x, fill_value, dtype=None, name=None, *, device=None, requires_grad=False,
              pin_memory=False):
    """``fill_value`` everywhere, with ``x``'s shape (and dtype and device unless given).

    Args:
        x (Tensor): the model tensor.
        fill_value (scalar|Tensor): the value (cast to the output dtype).
        dtype (str|paddle.dtype, optional): the output dtype; ``x``'s when None.
        name (str, optional): unused.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the filled tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.full_like(paddle.to_tensor([1, 2]), 2.5).tolist()
        [2, 2]
    """
    dt, dev = _like(x, dtype, device, "full_like")
    t = _full(list(x.shape), _fill_value(fill_value, "full_like"), dt, dev, "full_like",
              strict=True)
    kernel_dtypes("full_like", t, ALL_DTYPES, "dtype")
    return finish(t, None, requires_grad, pin_memory, "full_like")


# Paddle's static empty_like reads x's shape with paddle.shape, whose check refuses int16
@defop(method=False, differentiable=False, program_dtypes={"x": (ALL_DTYPES | set(_dt.FLOAT8)) - {torch.int16}})
def empty_like(x, dtype=None, name=None, *, device=None, requires_grad=False, pin_memory=False):
    """An uninitialised tensor with ``x``'s shape (and dtype and device unless given).

    Args:
        x (Tensor): the model tensor.
        dtype (str|paddle.dtype, optional): the output dtype; ``x``'s when None.
        name (str, optional): unused.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.empty_like(paddle.to_tensor([1, 2])).shape
        paddle.Size([2])
    """
    if dtype is not None:
        _dt.checked_dtype(dtype, "paddle.empty_like")
    dt, dev = _like(x, dtype, device, "empty_like")
    t = torch.empty(x.shape, dtype=dt, device=dev)
    return finish(t, None, requires_grad, pin_memory, "empty_like")


# ---- Tensor.new_* ------------------------------------------------------------------------

def _new_size(size: Any, more: tuple, api: str, parse: Callable = shape_of) -> list[int]:
    return parse([size, *more] if more else size, api)


@defop(method=True, differentiable=False)
def new_zeros(x, size, *args, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Zeros of shape ``size``, with ``x``'s dtype and device unless given.

    Args:
        x (Tensor): the model tensor.
        size (list|tuple|int): the shape (``x.new_zeros(2, 3)`` also works).
        dtype (str|paddle.dtype, optional): the dtype; ``x``'s when None.
        device (str|Place, optional): the device; ``x``'s when None.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the zeros.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1, 2]).new_zeros([3]).tolist()
        [0, 0, 0]
    """
    dt, dev = _like(x, dtype, device, "Tensor.new_zeros")
    t = torch.zeros(_new_size(size, args, "Tensor.new_zeros", _full_shape), dtype=dt, device=dev)
    return finish(t, None, requires_grad, pin_memory, "Tensor.new_zeros")


@defop(method=True, differentiable=False)
def new_ones(x, size, *args, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Ones of shape ``size``, with ``x``'s dtype and device unless given.

    Args:
        x (Tensor): the model tensor.
        size (list|tuple|int): the shape.
        dtype (str|paddle.dtype, optional): the dtype; ``x``'s when None.
        device (str|Place, optional): the device; ``x``'s when None.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the ones.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1.0]).new_ones([2]).tolist()
        [1.0, 1.0]
    """
    dt, dev = _like(x, dtype, device, "Tensor.new_ones")
    t = torch.ones(_new_size(size, args, "Tensor.new_ones", _full_shape), dtype=dt, device=dev)
    return finish(t, None, requires_grad, pin_memory, "Tensor.new_ones")


@defop(method=True, differentiable=False)
def new_empty(x, size, *args, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """An uninitialised tensor of shape ``size``, with ``x``'s dtype and device unless given.

    Args:
        x (Tensor): the model tensor.
        size (list|tuple|int): the shape.
        dtype (str|paddle.dtype, optional): the dtype; ``x``'s when None.
        device (str|Place, optional): the device; ``x``'s when None.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1.0]).new_empty([2, 2]).shape
        paddle.Size([2, 2])
    """
    if dtype is not None:  # Paddle checks it strictly, as for paddle.empty
        _dt.checked_dtype(dtype, "paddle.Tensor.new_empty")
    dt, dev = _like(x, dtype, device, "Tensor.new_empty")
    t = torch.empty(_new_size(size, args, "Tensor.new_empty"), dtype=dt, device=dev)
    return finish(t, None, requires_grad, pin_memory, "Tensor.new_empty")


@defop(method=True, differentiable=False)
def new_full(x, size, fill_value, *, dtype=None, device=None, requires_grad=False,
             pin_memory=False):
    """``fill_value`` everywhere in shape ``size``, with ``x``'s dtype and device unless given.

    Args:
        x (Tensor): the model tensor.
        size (list|tuple|int): the shape.
        fill_value (scalar): the value.
        dtype (str|paddle.dtype, optional): the dtype; ``x``'s when None.
        device (str|Place, optional): the device; ``x``'s when None.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: the filled tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1, 2]).new_full([2], 3.5).tolist()
        [3, 3]
    """
    dt, dev = _like(x, dtype, device, "Tensor.new_full")
    t = _full(_full_shape(size, "Tensor.new_full"), _fill_value(fill_value), dt, dev)
    return finish(t, None, requires_grad, pin_memory, "Tensor.new_full")


# ---- in-place fills (Tensor methods) ----------------------------------------------------

def _fill_(x, value):
    """Fill ``x`` in place with ``value`` and return it.

    Args:
        x (Tensor): the tensor, overwritten.
        value (int|float|bool): the value, cast to ``x``'s dtype.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros([2]).fill_(3.0).tolist()
        [3.0, 3.0]
    """
    if not isinstance(value, (int, float)):  # Paddle: Python numbers only (bools are ints)
        raise TypeError(f"paddle.Tensor.fill_: the type of 'value' must be int or float, but "
                        f"received {type(value).__name__}")
    if value != value:
        raise ValueError(f"paddle.Tensor.fill_: 'value' must not be NaN, but received {value}")
    if isinstance(value, int) and not -2**63 <= value < 2**63:
        raise ValueError(f"paddle.Tensor.fill_: 'value' {value} does not fit in a 64-bit integer")
    v = _fill_scalar(value.item() if isinstance(value, np.generic) else value, x.dtype, "fill_")
    return x.fill_(v)


returns_self(defop("fill_", method=False)(_fill_), "fill_")


def _zero_(x):
    """Set every element of ``x`` to zero in place and return it.

    Args:
        x (Tensor): the tensor, overwritten.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.ones([2]).zero_().tolist()
        [0.0, 0.0]
    """
    return x.zero_()


returns_self(defop("zero_", method=False)(_zero_), "zero_")


# ---- FloatTensor and friends ---------------------------------------------------------------

def _dtype_tensor_class(cls_name: str, dtype: str) -> type:
    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        if not args and not kwargs:
            return empty([0], dtype=dtype)
        if len(args) == 1 and not kwargs and isinstance(args[0], (list, tuple)):
            return to_tensor(args[0], dtype=dtype)
        if args and not kwargs and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return empty(list(args), dtype=dtype)
        kwargs.setdefault("dtype", dtype)
        return Tensor(*args, **kwargs)

    doc = (f"Legacy constructor of {dtype} tensors, as ``paddle.{cls_name}``.\n\n"
           f"``{cls_name}()`` is an empty tensor, ``{cls_name}([1, 2])`` converts data, "
           f"``{cls_name}(2, 3)`` is an uninitialised 2x3 tensor; other arguments go to "
           f"``paddle.Tensor`` (so a numpy array keeps its own dtype, as in Paddle). The "
           "result is a plain Tensor.\n\n"
           "Examples:\n"
           "    >>> import pagaie as paddle\n"
           f"    >>> print(paddle.{cls_name}([1, 0]).dtype)\n"
           f"    paddle.{dtype}\n")
    return type(cls_name, (), {"__new__": __new__, "__doc__": doc, "__module__": __name__})


FloatTensor = _dtype_tensor_class("FloatTensor", "float32")
DoubleTensor = _dtype_tensor_class("DoubleTensor", "float64")
HalfTensor = _dtype_tensor_class("HalfTensor", "float16")
BFloat16Tensor = _dtype_tensor_class("BFloat16Tensor", "bfloat16")
ByteTensor = _dtype_tensor_class("ByteTensor", "uint8")
CharTensor = _dtype_tensor_class("CharTensor", "int8")
ShortTensor = _dtype_tensor_class("ShortTensor", "int16")
IntTensor = _dtype_tensor_class("IntTensor", "int32")
LongTensor = _dtype_tensor_class("LongTensor", "int64")
BoolTensor = _dtype_tensor_class("BoolTensor", "bool")


# Paddle's creation functions take the dims as separate ints too (``paddle.zeros(2, 3)``)
zeros = size_args(_result_is_out(zeros))
ones = size_args(_result_is_out(ones))
full = _result_is_out(full)
empty = size_args(empty)
