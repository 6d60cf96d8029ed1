"""``paddle.base.core``: the build queries and place classes of Paddle's core module.

Only the part of Paddle's compiled core that user code reaches for is here: the
``is_compiled_with_*`` queries, the place classes, the device count and ``eager.Tensor``.

Examples:
    >>> import pagaie as paddle
    >>> paddle.base.core.is_compiled_with_xpu()
    False
    >>> paddle.base.core.eager.Tensor is paddle.Tensor
    True
    >>> paddle.base.core.VarDesc.VarType.FP32
    <VarType.FP32: 5>
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from pagaie._core import dtype as _dt

from pagaie._core.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, Place  # noqa: F401
from pagaie._core.tensor import Tensor
from pagaie.device import (IPUPlace, XPUPlace, device_count,  # noqa: F401
                           is_compiled_with_cinn, is_compiled_with_cuda,
                           is_compiled_with_custom_device, is_compiled_with_distribute,
                           is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu)

__all__ = ["CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "IPUPlace", "Place", "eager",
           "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_ipu", "is_compiled_with_cinn", "is_compiled_with_custom_device",
           "is_compiled_with_distribute", "get_cuda_device_count", "VarDesc", "DataType",
           "globals", "is_compiled_with_mkldnn", "is_compiled_with_onednn", "is_compiled_with_nccl",
           "is_compiled_with_dist", "is_compiled_with_mpi", "is_float16_supported",
           "is_bfloat16_supported", "supports_bfloat16", "size_of_dtype", "set_num_threads"]

#: ``core.eager.Tensor`` is the dynamic-mode Tensor class.
eager = SimpleNamespace(Tensor=Tensor)


def get_cuda_device_count() -> int:
    """The number of visible CUDA GPUs (0 without CUDA).

    Returns:
        int: the GPU count.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.base.core.get_cuda_device_count(), int)
        True
    """
    import torch
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


class _VarTypeMeta(type):
    """Class-level behaviour of :class:`VarType`: ``VarType(5)``, iteration-free lookups and
    Paddle's printed name of the class."""

    def __call__(cls, value: Any, *args: Any) -> "VarType":
        if args:  # building a member (done once, below)
            return super().__call__(value, *args)
        for member in cls.__members__.values():
            if member.value == value:
                return member
        raise ValueError(f"paddle.base.core.VarDesc.VarType: no member has the value {value!r}")

    def __repr__(cls) -> str:
        return "<class 'paddle.base.libpaddle.VarDesc.VarType'>"


class VarType(metaclass=_VarTypeMeta):
    """Paddle's legacy ``VarDesc.VarType`` enum: variable kinds and the data types of Paddle 2.

    The data-type members (``FP32``, ``INT64``, ``BOOL``, ``BF16`` ...) are accepted wherever a
    dtype is (``dtype=VarType.FP32``); they compare equal to their integer code, not to
    ``paddle.float32``. ``str()`` of a data-type member is the name of its dtype.

    Examples:
        >>> import pagaie as paddle
        >>> VT = paddle.base.core.VarDesc.VarType
        >>> VT.FP32, str(VT.FP32), int(VT.INT64)
        (<VarType.FP32: 5>, 'paddle.float32', 3)
        >>> paddle.zeros([2], dtype=VT.FP64).dtype
        <DataType.FLOAT64: 11>
    """

    __members__: dict[str, "VarType"] = {}
    __slots__ = ("name", "value", "_datatype")

    def __init__(self, name: str, value: int, datatype: Any = None) -> None:
        self.name = name
        self.value = value
        self._datatype = datatype

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype of a data-type member (bfloat16 as its storage type, uint16), so
        that numpy-aware dtype parsing accepts the member; AttributeError for other kinds."""
        dt = self._datatype
        if dt is None or dt.torch_dtype is None or dt.name.startswith("float8"):
            raise AttributeError(f"VarType.{self.name} has no numpy dtype")
        return np.dtype("uint16") if dt.name == "bfloat16" else np.dtype(dt.name)

    @property
    def __paddle_dtype__(self) -> Any:
        """The pagaie dtype of a data-type member (None for the other kinds): the hook the
        dtype parser reads."""
        return self._datatype

    def __repr__(self) -> str:
        return f"<VarType.{self.name}: {self.value}>"

    def __str__(self) -> str:
        dt = self._datatype
        if dt is None:
            return f"VarType.{self.name}"
        return f"paddle.{dt.name}"  # also for pstring/raw, whose own str() is DataType.X

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value

    def __hash__(self) -> int:
        return self.value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, VarType):
            return other.value == self.value
        if isinstance(other, int) and not isinstance(other, bool):
            return other == self.value
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __reduce__(self):
        return (_var_type_by_name, (self.name,))


def _var_type_by_name(name: str) -> VarType:
    return VarType.__members__[name]


_VAR_TYPES = [
    ("BOOL", 0, "bool"), ("UINT8", 20, "uint8"), ("UINT16", 36, None), ("UINT32", 37, None),
    ("UINT64", 38, None), ("INT8", 21, "int8"), ("INT16", 1, "int16"), ("INT32", 2, "int32"),
    ("INT64", 3, "int64"), ("FP16", 4, "float16"), ("FP32", 5, "float32"),
    ("FP64", 6, "float64"), ("BF16", 22, "bfloat16"), ("COMPLEX64", 23, "complex64"),
    ("COMPLEX128", 24, "complex128"), ("FP8_E4M3FN", 32, "float8_e4m3fn"),
    ("FP8_E5M2", 33, "float8_e5m2"), ("DENSE_TENSOR", 7, None), ("SELECTED_ROWS", 8, None),
    ("FEED_MINIBATCH", 9, None), ("FETCH_LIST", 10, None), ("STEP_SCOPES", 11, None),
    ("DENSE_TENSOR_ARRAY", 13, None), ("PLACE_LIST", 14, None), ("READER", 15, None),
    ("RAW", 17, "raw"), ("STRING", 25, "pstring"), ("STRINGS", 26, None), ("VOCAB", 27, None),
    ("SPARSE_COO", 30, None),
]
for _name, _value, _dtname in _VAR_TYPES:
    _member = VarType(_name, _value, None if _dtname is None else getattr(_dt, _dtname))
    VarType.__members__[_name] = _member
    setattr(VarType, _name, _member)
# Paddle's older names of the same members
VarType.LOD_TENSOR = VarType.DENSE_TENSOR
VarType.LOD_TENSOR_ARRAY = VarType.DENSE_TENSOR_ARRAY
del _name, _value, _dtname, _member
VarType.__qualname__ = "VarDesc.VarType"


def legacy_to_dtype(value: Any) -> Any:
    """The pagaie dtype of a ``VarType`` data-type member; anything else is returned as is.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.base.core import legacy_to_dtype
        >>> legacy_to_dtype(paddle.base.core.VarDesc.VarType.INT64)
        <DataType.INT64: 9>
    """
    if isinstance(value, VarType) and value._datatype is not None:
        return value._datatype
    return value


#: ``paddle.base.core.VarDesc``: only its ``VarType`` enum is used by Python code.
VarDesc = SimpleNamespace(VarType=VarType)


class _DataTypeEnum:
    """``paddle.base.core.DataType``: Paddle 3's dtype enum, whose members are the dtypes
    themselves (``DataType.FLOAT32 is paddle.float32``)."""

    UNDEFINED = _dt.raw
    BOOL = _dt.bool
    UINT8 = _dt.uint8
    INT8 = _dt.int8
    UINT16 = _dt.uint16
    INT16 = _dt.int16
    UINT32 = _dt.uint32
    INT32 = _dt.int32
    UINT64 = _dt.uint64
    INT64 = _dt.int64
    FLOAT32 = _dt.float32
    FLOAT64 = _dt.float64
    COMPLEX64 = _dt.complex64
    COMPLEX128 = _dt.complex128
    FLOAT16 = _dt.float16
    BFLOAT16 = _dt.bfloat16
    FLOAT8_E4M3FN = _dt.float8_e4m3fn
    FLOAT8_E5M2 = _dt.float8_e5m2
    PSTRING = _dt.pstring
    ALL_DTYPE = _dt.raw


DataType = _DataTypeEnum


class _GlobalFlags:
    """``paddle.base.core.globals()``: the ``FLAGS_*`` registry as a mapping
    (``globals()['FLAGS_check_nan_inf']``, ``'FLAGS_x' in globals()``, assignment)."""

    def _name(self, name: Any) -> str:
        from pagaie._core import flags as _flags
        if isinstance(name, str) and name.startswith("FLAGS_") and name[6:] in _flags._values:
            return name
        raise RuntimeError(f"paddle.base.core.globals: cannot find global variable {name}")

    def __getitem__(self, name: str) -> Any:
        from pagaie._core.flags import get_flags
        return get_flags(self._name(name))[name]

    def __setitem__(self, name: str, value: Any) -> None:
        from pagaie._core.flags import set_flags
        set_flags({self._name(name): value})

    def __contains__(self, name: object) -> bool:
        from pagaie._core import flags as _flags
        return isinstance(name, str) and name.startswith("FLAGS_") and name[6:] in _flags._values

    def keys(self) -> set[str]:
        from pagaie._core import flags as _flags
        return {"FLAGS_" + k for k in _flags._values}

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default

    def is_public(self, name: str) -> bool:
        self._name(name)
        return True


_GLOBAL_FLAGS = _GlobalFlags()


def globals() -> _GlobalFlags:  # noqa: A001  (Paddle's name)
    """The registry of global flags, readable and writable like a dict.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.core.globals()['FLAGS_check_nan_inf']
        False
    """
    return _GLOBAL_FLAGS


def is_compiled_with_mkldnn() -> bool:
    """Whether the CPU kernels use oneDNN (MKL-DNN).

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.base.core.is_compiled_with_mkldnn(), bool)
        True
    """
    import torch
    return bool(torch.backends.mkldnn.is_available())


is_compiled_with_onednn = is_compiled_with_mkldnn


def is_compiled_with_nccl() -> bool:
    """Whether NCCL collectives are available (a CUDA build with NCCL).

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.base.core.is_compiled_with_nccl(), bool)
        True
    """
    import torch
    import torch.distributed as dist
    return bool(torch.cuda.is_available() and dist.is_available() and dist.is_nccl_available())


def is_compiled_with_dist() -> bool:
    """Whether distributed training is available.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.core.is_compiled_with_dist()
        True
    """
    import torch.distributed as dist
    return bool(dist.is_available())


def is_compiled_with_mpi() -> bool:
    """Whether the MPI backend is available.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.base.core.is_compiled_with_mpi(), bool)
        True
    """
    import torch.distributed as dist
    return bool(dist.is_available() and dist.is_mpi_available())


def is_float16_supported(place: Any) -> bool:
    """Whether ``place`` has fast float16 kernels: True on a GPU, False on the CPU (as in
    Paddle).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.core.is_float16_supported(paddle.CPUPlace())
        False
    """
    return _is_gpu_place(place, "is_float16_supported")


def is_bfloat16_supported(place: Any) -> bool:
    """Whether ``place`` supports bfloat16: True on the CPU, and on GPUs that support it.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.core.is_bfloat16_supported(paddle.CPUPlace())
        True
    """
    if not _is_gpu_place(place, "is_bfloat16_supported"):
        return True
    import torch
    return bool(torch.cuda.is_bf16_supported())


def _is_gpu_place(place: Any, api: str) -> bool:
    if not isinstance(place, Place):
        raise TypeError(f"paddle.base.core.{api}: place should be a Place such as "
                        f"paddle.CPUPlace(), but received {type(place).__name__}")
    return place.is_gpu_place()


def supports_bfloat16() -> bool:
    """Whether the CPU supports bfloat16 kernels (always True here).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.core.supports_bfloat16()
        True
    """
    return True


def size_of_dtype(dtype: Any) -> int:
    """The size in bytes of one element of ``dtype`` (a paddle dtype or a ``VarType`` code).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.core.size_of_dtype(paddle.bfloat16), paddle.base.core.size_of_dtype(VarDesc.VarType.FP64)
        (2, 8)
    """
    dt = legacy_to_dtype(dtype)
    if not isinstance(dt, _dt.DType) or dt.torch_dtype is None:
        raise TypeError("paddle.base.core.size_of_dtype: dtype should be a paddle dtype such as "
                        f"paddle.float32 or a VarDesc.VarType data type, but received {dtype!r}")
    return dt.itemsize


def set_num_threads(num_threads: int) -> None:
    """Set the number of CPU threads used by the kernels.

    Examples:
        >>> import pagaie as paddle
        >>> import torch
        >>> n = torch.get_num_threads()
        >>> paddle.base.core.set_num_threads(1)
        >>> paddle.base.core.set_num_threads(n)
    """
    import torch
    if not isinstance(num_threads, int) or isinstance(num_threads, bool) or num_threads < 1:
        raise ValueError("paddle.base.core.set_num_threads: num_threads should be a positive "
                         f"int, but received {num_threads!r}")
    torch.set_num_threads(num_threads)


def __getattr__(name: str) -> Any:
    # Paddle's C++ tensor class, fed to executors and set from arrays; imported on first use
    # (the static package imports this module)
    if name in ("DenseTensor", "LoDTensor"):
        from pagaie.static.framework import DenseTensor
        return DenseTensor
    raise AttributeError(f"module 'paddle.base.core' has no attribute '{name}'")
