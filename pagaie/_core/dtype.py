"""Paddle's data types and their mapping onto torch dtypes.

A :class:`DType` is what ``Tensor.dtype`` returns and what ``pagaie.float32``
and friends are. Every API that takes a dtype accepts a ``DType``, a string
(``'float32'``), a numpy dtype or a torch dtype; :func:`to_torch_dtype` is the
one place that normalises them.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import torch

__all__ = [
    "DType", "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
    "float32", "float64", "complex64", "complex128", "float8_e4m3fn", "float8_e5m2",
    "uint16", "uint32", "uint64", "pstring", "raw",
    "to_torch_dtype", "from_torch_dtype", "get_default_dtype", "set_default_dtype",
    "iinfo", "finfo", "is_floating_dtype",
]


class _DTypeType(type):
    """The type of :class:`DType`: ``print(type(paddle.float32))`` shows Paddle's
    ``<class 'paddle.dtype'>``, as scripts print it."""

    def __repr__(cls) -> str:
        return "<class 'paddle.dtype'>"


class DType(metaclass=_DTypeType):
    """A Paddle data type (``pagaie.float32`` ...). Compares equal only to itself.

    Args:
        name: Paddle's name of the type, e.g. ``'float32'``.
        torch_dtype: the torch dtype that stores it.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([1.0]).dtype == paddle.float32
        True
    """

    __slots__ = ("name", "torch_dtype", "value")

    def __init__(self, name: str, torch_dtype: torch.dtype, value: int) -> None:
        self.name = name
        self.torch_dtype = torch_dtype
        self.value = value

    def __repr__(self) -> str:
        # Paddle 3's dtypes are its DataType enum: repr names the enum member, str the API
        return f"<DataType.{self.name.upper()}: {self.value}>"

    def __str__(self) -> str:
        # Paddle's str() keeps its legacy name for uint16 (once bfloat16's storage type)
        return "paddle.bfloat16" if self.name == "uint16" else f"paddle.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def is_floating_point(self) -> builtins_bool:
        return self.torch_dtype.is_floating_point

    @property
    def itemsize(self) -> int:
        return self.torch_dtype.itemsize


builtins_bool = type(True)
DType.__name__ = "DataType"  # Paddle's class name (``type(paddle.float32).__name__``)


def _by_name(name: str) -> DType:
    return _BY_NAME[name]


_TABLE = [
    ("bool", torch.bool, 1), ("uint8", torch.uint8, 2), ("int8", torch.int8, 3),
    ("int16", torch.int16, 5), ("int32", torch.int32, 7), ("int64", torch.int64, 9),
    ("float32", torch.float32, 10), ("float64", torch.float64, 11),
    ("complex64", torch.complex64, 12), ("complex128", torch.complex128, 13),
    ("float16", torch.float16, 15), ("bfloat16", torch.bfloat16, 16),
    ("float8_e4m3fn", torch.float8_e4m3fn, 17), ("float8_e5m2", torch.float8_e5m2, 18),
    ("uint16", torch.uint16, 4), ("uint32", torch.uint32, 6), ("uint64", torch.uint64, 8),
]
_BY_NAME: dict[str, DType] = {}
_BY_TORCH: dict[torch.dtype, DType] = {}
for _name, _tdt, _val in _TABLE:
    _d = DType(_name, _tdt, _val)
    _BY_NAME[_name] = _d
    _BY_TORCH[_tdt] = _d
    globals()[_name] = _d
del _name, _tdt, _val, _d



class _OpaqueDType(DType):
    """A Paddle data type with no tensor storage here: ``paddle.pstring`` (string tensors)
    and ``paddle.raw`` (Paddle's ``UNDEFINED``, the type of vocabulary holders).

    They exist so code can name and compare them; every API that needs a storage type
    rejects them with TypeError, as Paddle's creation and cast APIs do.

    Examples:
        >>> import pagaie as paddle
        >>> str(paddle.pstring), paddle.pstring == paddle.raw
        ('DataType.PSTRING', False)
    """

    __slots__ = ("_label",)

    def __init__(self, name: str, label: str, value: int) -> None:
        super().__init__(name, None, value)  # type: ignore[arg-type]
        self._label = label

    def __repr__(self) -> str:
        return f"<DataType.{self._label}: {self.value}>"

    def __str__(self) -> str:
        return f"DataType.{self._label}"

    def __reduce__(self):
        return (_opaque_by_name, (self.name,))

    @property
    def is_floating_point(self) -> builtins_bool:
        return False

    @property
    def itemsize(self) -> int:
        raise TypeError(f"paddle.{self.name} has no fixed element size")


def _opaque_by_name(name: str) -> DType:
    return globals()[name]


_OpaqueDType.__name__ = "DataType"  # one class to Paddle
pstring = _OpaqueDType("pstring", "PSTRING", 14)
raw = _OpaqueDType("raw", "UNDEFINED", 0)

# Paddle's own dtype names (``convert_np_dtype_to_dtype_``): matched after lower() and strip(),
# so 'Float32' and ' int64 ' work. The name 'uint16' (and numpy's uint16) means bfloat16 there,
# its storage type; only the object ``paddle.uint16`` is the unsigned integer type.
_PADDLE_NAMES = {"float32": "float32", "float64": "float64", "float16": "float16",
                 "int32": "int32", "int16": "int16", "int64": "int64", "bool": "bool",
                 "bool_": "bool", "uint16": "bfloat16", "uint8": "uint8", "int8": "int8",
                 "complex64": "complex64", "complex128": "complex128", "bfloat16": "bfloat16",
                 "float8_e4m3fn": "float8_e4m3fn", "float8_e5m2": "float8_e5m2"}
# Any other spelling goes through ``np.dtype`` ('float', 'int', 'f4', np.float32, Python's
# float ...) and must land on one of these numpy types; others (uint32, '>f4', str) are a
# ValueError, as in Paddle.
_NUMPY_TYPES = {np.dtype(n): n for n in ("float32", "float64", "float16", "int32", "int16", "int64",
                                          "bool", "uint8", "int8", "complex64", "complex128")}
_NUMPY_TYPES[np.dtype("uint16")] = "bfloat16"
# The numpy types a tensor can be made from (numpy's uint16 holds bfloat16 bit patterns).
NUMPY_DATA_TYPES = frozenset(_NUMPY_TYPES)
FLOAT8 = (torch.float8_e4m3fn, torch.float8_e5m2)

_default_float = torch.float32


def to_torch_dtype(dtype: Any, api: str = "paddle") -> torch.dtype:
    """Normalise any accepted dtype spelling to a torch dtype, as Paddle's
    ``convert_np_dtype_to_dtype_`` does: a pagaie (or torch) dtype, one of Paddle's names
    (any case, surrounding blanks ignored), or anything ``np.dtype`` maps onto a supported
    numpy type (numpy aliases such as 'float', 'int', 'f4', numpy and Python scalar types).

    Raises TypeError naming ``api`` for what numpy does not understand, ValueError for a
    numpy type Paddle does not support (uint32, big-endian, strings).

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.ones([1]).astype('Float64 ').dtype, paddle.ones([1]).astype(np.intc).dtype
        (<DataType.FLOAT64: 11>, <DataType.INT32: 7>)
    """
    if type(dtype) is DType:
        return dtype.torch_dtype
    if isinstance(dtype, torch.dtype):
        return dtype
    legacy = getattr(dtype, "__paddle_dtype__", None)   # paddle.base.core.VarDesc.VarType
    if legacy is not None:
        return to_torch_dtype(legacy, api)
    if isinstance(dtype, str):
        name = _PADDLE_NAMES.get(dtype.lower().strip())
        if name is not None:
            return _BY_NAME[name].torch_dtype
        if dtype.startswith("paddle.") and dtype[7:] in _BY_NAME:  # str() of a dtype (a
            return _BY_NAME[dtype[7:]].torch_dtype                   # pagaie extension)
    if isinstance(dtype, DType):  # pstring / raw: no storage type
        raise TypeError(f"{api}: dtype {dtype} has no tensor storage type here")
    try:
        npd = np.dtype(dtype)
    except Exception as exc:  # noqa: BLE001 (numpy raises TypeError, sometimes others)
        if isinstance(exc, ValueError):   # an object with a .dtype (a Tensor): numpy's ValueError
            raise ValueError(f"{api}: unsupported dtype {dtype!r}; expected a paddle dtype such as "
                             "paddle.float32, one of its names or a numpy dtype") from None
        raise TypeError(f"{api}: unsupported dtype {dtype!r}; expected a paddle dtype such as "
                        "paddle.float32, one of its names ('float32', 'int64', ...) or a numpy "
                        "dtype") from None
    name = _NUMPY_TYPES.get(npd)
    if name is None:
        raise ValueError(f"{api}: numpy dtype {npd} (from {dtype!r}) is not supported; use bool, "
                         "uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, "
                         "complex64 or complex128")
    return _BY_NAME[name].torch_dtype


# What Paddle's strict dtype check (``convert_dtype``, used by to_tensor, as_tensor, asarray,
# empty and empty_like) lets through: canonical names only, no numpy aliases such as 'float'.
_STRICT_NAMES = frozenset({"bool", "float16", "uint16", "uint32", "uint64", "float32", "float64",
                           "int8", "int16", "int32", "int64", "uint8", "complex64", "complex128",
                           "float8_e4m3fn", "float8_e5m2", "bfloat16"})
_STRICT_TYPES = (builtins_bool, np.float16, np.uint16, np.uint32, np.uint64, np.float32,
                 np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.complex64,
                 np.complex128)


def checked_dtype(dtype: Any, api: str) -> torch.dtype:
    """:func:`to_torch_dtype` for the APIs whose dtype Paddle checks strictly (to_tensor, empty,
    ...): a pagaie/torch dtype, a numpy dtype or scalar type, or a canonical name; numpy's
    aliases ('float', 'int', 'double', Python's ``float``) are a TypeError there.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.to_tensor([1.0], dtype='float')
        ... except TypeError as e:
        ...     print(str(e)[:44])
        paddle.to_tensor: dtype must be any of [bool
    """
    dtype = getattr(dtype, "__paddle_dtype__", None) or dtype   # paddle.base.core.VarDesc.VarType
    if isinstance(dtype, (DType, torch.dtype)):
        ok = True
    elif isinstance(dtype, type):
        ok = dtype in _STRICT_TYPES
    elif isinstance(dtype, (str, np.dtype)):
        ok = str(dtype) in _STRICT_NAMES
    else:
        ok = False
    if not ok:
        raise TypeError(f"{api}: dtype must be any of [bool, float16, uint16, float32, float64, "
                        "int8, int16, int32, int64, uint8, complex64, complex128, bfloat16], but "
                        f"received {dtype!r}")
    return to_torch_dtype(dtype, api)


_BF16_NAN = 0x7FFF  # Paddle's bfloat16 NaN (its conversions make every NaN this one)


def to_bfloat16(t: torch.Tensor) -> torch.Tensor:
    """``t`` converted to bfloat16 as Paddle converts: rounding to nearest even, and every NaN
    becoming Paddle's NaN bit pattern 0x7FFF (torch keeps signs and payloads), which
    ``Tensor.numpy()`` shows since it gives bfloat16 as bit patterns.

    Examples:
        >>> import torch
        >>> from pagaie._core.dtype import to_bfloat16
        >>> to_bfloat16(torch.tensor([float('nan'), 1.0])).view(torch.int16).tolist()
        [32767, 16256]
    """
    if t.is_complex():
        t = t.real
    r = t.to(torch.bfloat16)
    if t.is_floating_point():
        nan = torch.isnan(r)
        if builtins_bool(nan.any()):
            r = r.view(torch.int16).masked_fill(nan, _BF16_NAN).view(torch.bfloat16)
    return r


def from_torch_dtype(dtype: torch.dtype) -> DType:
    """The Paddle dtype of a torch dtype."""
    return _BY_TORCH[dtype]


def to_dtype(dtype: Any) -> DType:
    """Normalise any accepted dtype spelling to a :class:`DType`."""
    return _BY_TORCH[to_torch_dtype(dtype)]


def is_floating_dtype(dtype: Any) -> builtins_bool:
    return to_torch_dtype(dtype).is_floating_point


def get_default_dtype() -> str:
    """Return the default floating dtype name used by creation APIs (``'float32'``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.get_default_dtype()
        'float32'
    """
    return _BY_TORCH[_default_float].name


def set_default_dtype(d: Any) -> None:
    """Set the default floating dtype: ``'float16'``, ``'bfloat16'``, ``'float32'`` or ``'float64'``.

    Args:
        d: the dtype, as a string, a pagaie dtype or a numpy dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.set_default_dtype('float64'); paddle.set_default_dtype('float32')
    """
    global _default_float
    # As Paddle: the numpy types float16/32/64, a pagaie dtype, or one of four names; not
    # numpy's aliases ('float', 'uint16'), nor None.
    if isinstance(d, type):
        ok = d in (np.float16, np.float32, np.float64)
    elif isinstance(d, DType):
        ok = d.name in ("float16", "float32", "float64", "bfloat16")
    else:
        ok = isinstance(d, (str, np.dtype)) and str(d) in ("float16", "float32", "float64", "bfloat16")
    if not ok:
        seen = getattr(d, "name", None) if isinstance(d, DType) else getattr(d, "__name__", d)
        raise TypeError("paddle.set_default_dtype: set_default_dtype only supports "
                        f"[float16, bfloat16, float32, float64], but received {seen}")
    # torch's own default stays float32: Paddle's kernels promote integers to float32 whatever
    # the default dtype (``int_tensor * 1.5`` is float32), only creation APIs follow it.
    _default_float = to_torch_dtype(d, "paddle.set_default_dtype")


def default_float() -> torch.dtype:
    return _default_float


def python_number(v: Any) -> Any:
    """A numpy number (bool, int, float or complex) as its Python number, as Paddle's Tensor
    operators read it (torch would drop the imaginary part of a ``np.complex64``); anything
    else unchanged.

    Examples:
        >>> import numpy as np
        >>> from pagaie._core.dtype import python_number
        >>> python_number(np.complex64(1 + 2j)), python_number('a')
        ((1+2j), 'a')
    """
    if isinstance(v, np.generic) and v.dtype.kind in "biufc":
        return v.item()
    return v


class iinfo:
    """Machine limits of an integer dtype, as ``paddle.iinfo``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.iinfo(paddle.int8).max
        127
    """

    def __init__(self, dtype: Any) -> None:
        tdt = to_torch_dtype(dtype, "paddle.iinfo")
        # the objects paddle.uint16/uint32/uint64 too (the names 'uint16'... mean other types)
        if tdt not in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
                       torch.uint16, torch.uint32, torch.uint64):
            raise ValueError("paddle.iinfo: the argument can only be paddle.int8, paddle.int16, "
                             "paddle.int32, paddle.int64 or paddle.uint8, but received "
                             f"{_BY_TORCH[tdt].name}")
        info = torch.iinfo(tdt)
        self.bits, self.min, self.max = info.bits, int(info.min), int(info.max)
        self.dtype = _BY_TORCH[tdt].name

    def __repr__(self) -> str:
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


_MISSING: Any = object()  # finfo's "no argument given", apart from an explicit None


class _DtypeGivenTwice(ValueError, TypeError):
    """``finfo`` given both ``dtype`` and ``type``: a ValueError as Paddle's alias check
    raises for two keywords, and a TypeError as Python raises for a positional one and
    ``type=``."""


class finfo:
    """Machine limits of a floating dtype, as ``paddle.finfo``.

    Args:
        dtype (str|paddle.dtype|np.dtype): a floating or complex dtype (a complex one gives
            its real part's limits); None means float64.
        type: Paddle's alias of ``dtype``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.finfo(paddle.float32).bits
        32
    """

    def __init__(self, dtype: Any = _MISSING, *, type: Any = _MISSING) -> None:  # noqa: A002
        if type is not _MISSING:  # Paddle's alias of ``dtype``
            if dtype is not _MISSING:
                raise _DtypeGivenTwice("paddle.finfo: cannot specify both 'dtype' and its alias "
                                       "'type'")
            dtype = type
        elif dtype is _MISSING:
            raise TypeError("paddle.finfo: missing the required argument 'dtype'")
        # None means float64, as numpy's dtype(None) (and Paddle's finfo) reads it
        tdt = torch.float64 if dtype is None else to_torch_dtype(dtype, "paddle.finfo")
        if not (tdt.is_floating_point or tdt.is_complex):
            raise ValueError("paddle.finfo: the argument can only be paddle.float32, "
                             "paddle.float64, paddle.float16, paddle.bfloat16, "
                             "paddle.float8_e4m3fn, paddle.float8_e5m2, paddle.complex64 or "
                             f"paddle.complex128, but received {_BY_TORCH[tdt].name}")
        tdt = tdt.to_real()  # a complex type's limits (and dtype field) are its parts'
        info = torch.finfo(tdt)
        self.bits, self.eps, self.min, self.max = info.bits, info.eps, info.min, info.max
        self.tiny = self.smallest_normal = info.smallest_normal
        self.resolution = info.resolution
        self.dtype = _BY_TORCH[tdt].name

    def __repr__(self) -> str:
        # Paddle prints the limits with C++'s default stream format (6 significant digits)
        return (f"paddle.finfo(min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"resolution={self.resolution:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, bits={self.bits}, dtype={self.dtype})")
