"""Paddle's ``.pdiparams`` layout: a sequence of serialized DenseTensors, no names.

Each tensor is written as Paddle's ``SerializeToStream`` does (all little-endian):

- ``uint32`` format version (0),
- ``uint64`` LoD level count; each level follows as ``uint64`` byte size + ``uint64`` offsets,
- ``uint32`` tensor version (0), ``int32`` size of the ``TensorDesc`` protobuf message,
  the message itself (field 1: data type enum, field 2: the dims, one varint each),
- the raw data, C order.

Paddle orders the tensors by parameter name (sorted) in the files it writes; the
readers here return them in file order and the caller pairs them with names.
Anything that does not parse (truncated data, an unknown data type, a version this
reader does not know) raises ``ValueError`` naming the problem and the tensor index.
"""
from __future__ import annotations

import io
import os
import struct
from typing import Any, BinaryIO, Iterable

import numpy as np
import torch

from pagaie._formats.atomic_file import atomic_open

__all__ = ["write_pdiparams", "read_pdiparams", "serialize_tensor", "deserialize_tensors",
           "save_tensors", "load_tensors", "tensors_from_bytes", "tensors_to_bytes",
           "first_tensor"]

# Paddle's VarType enum values of the data types a DenseTensor can hold.
_TO_CODE = {np.dtype("bool"): 0, np.dtype("int16"): 1, np.dtype("int32"): 2, np.dtype("int64"): 3,
            np.dtype("float16"): 4, np.dtype("float32"): 5, np.dtype("float64"): 6,
            np.dtype("uint8"): 20, np.dtype("int8"): 21, np.dtype("complex64"): 23,
            np.dtype("complex128"): 24, np.dtype("uint16"): 36, np.dtype("uint32"): 37,
            np.dtype("uint64"): 38}
_FROM_CODE = {v: k for k, v in _TO_CODE.items()}
_BF16, _FP8_E4M3, _FP8_E5M2 = 22, 32, 33
# Codes whose data numpy cannot hold: stored as raw bits, converted by torch.
_TORCH_ONLY = {_BF16: (np.dtype("uint16"), torch.bfloat16),
               _FP8_E4M3: (np.dtype("uint8"), getattr(torch, "float8_e4m3fn", None)),
               _FP8_E5M2: (np.dtype("uint8"), getattr(torch, "float8_e5m2", None))}
_TORCH_CODE = {torch.bfloat16: _BF16}
for _c, (_, _td) in _TORCH_ONLY.items():
    if _td is not None:
        _TORCH_CODE[_td] = _c
_MAX_LOD_LEVELS = 64
_ERR = "paddle: corrupt .pdiparams file"


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _read_varint(buf: bytes, pos: int, index: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ValueError(f"{_ERR}: tensor {index} has a malformed description")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
    if result >= 1 << 63:
        result -= 1 << 64
    return result, pos


def _record(raw: bytes, code: int, shape: tuple) -> bytes:
    desc = b"\x08" + _varint(code) + b"".join(b"\x10" + _varint(int(d)) for d in shape)
    return struct.pack("<IQI", 0, 0, 0) + struct.pack("<i", len(desc)) + desc + raw


def serialize_tensor(array: Any, bf16: bool = False) -> bytes:
    """One DenseTensor record.

    Args:
        array: a numpy array or a torch tensor (bfloat16 and float8 tensors are kept exact).
        bf16: with a numpy ``uint16`` array, store those bits as bfloat16.
    """
    if isinstance(array, torch.Tensor):
        t = array.detach().cpu().contiguous()
        code = _TORCH_CODE.get(t.dtype)
        if code is not None:
            bits = t.view(torch.uint16 if t.element_size() == 2 else torch.uint8)
            return _record(bits.numpy().astype("<u" + str(t.element_size())).tobytes(), code, tuple(t.shape))
        array = t.numpy()
    a = np.asarray(array, order="C")  # (ascontiguousarray would turn 0-D into shape [1])
    code = _BF16 if bf16 else _TO_CODE.get(a.dtype)
    if code is None:
        raise TypeError(f"paddle: cannot store dtype {a.dtype} in a .pdiparams file")
    return _record(a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes(), code, a.shape)


def tensors_to_bytes(tensors: Iterable[Any]) -> bytes:
    """Serialise torch tensors or numpy arrays (already in the reader's order)."""
    return b"".join(serialize_tensor(t) for t in tensors)


def write_pdiparams(f: BinaryIO | str | os.PathLike, arrays: Iterable[Any]) -> None:
    """Write ``arrays`` (already in the order the reader expects) as a ``.pdiparams`` file."""
    if isinstance(f, (str, os.PathLike)):
        with atomic_open(f) as fh:
            write_pdiparams(fh, arrays)
        return
    for a in arrays:
        f.write(serialize_tensor(a if isinstance(a, torch.Tensor) else np.asarray(a)))


save_tensors = write_pdiparams


def _parse(data: bytes) -> Iterable[tuple[int, list[int], int, int]]:
    """Yield (dtype code, dims, data offset, data byte count) for each record."""
    pos, n, index = 0, len(data), 0
    while pos < n:
        if pos + 12 > n:
            raise ValueError(f"{_ERR}: tensor {index} is truncated (header)")
        version, lod_levels = struct.unpack_from("<IQ", data, pos)
        if version != 0:
            raise ValueError(f"paddle: .pdiparams tensor {index} has format version {version}, but "
                             "this reader knows only version 0 (a newer or foreign file)")
        if lod_levels > _MAX_LOD_LEVELS:
            raise ValueError(f"{_ERR}: tensor {index} claims {lod_levels} LoD levels")
        pos += 12
        for _ in range(lod_levels):
            if pos + 8 > n:
                raise ValueError(f"{_ERR}: tensor {index} is truncated (LoD)")
            (size,) = struct.unpack_from("<Q", data, pos)
            if size % 8 or pos + 8 + size > n:
                raise ValueError(f"{_ERR}: tensor {index} has a malformed LoD level")
            pos += 8 + size
        if pos + 8 > n:
            raise ValueError(f"{_ERR}: tensor {index} is truncated (description)")
        tversion, desc_len = struct.unpack_from("<Ii", data, pos)
        if tversion != 0:
            raise ValueError(f"paddle: .pdiparams tensor {index} has tensor version {tversion}, but "
                             "this reader knows only version 0 (a newer or foreign file)")
        pos += 8
        if desc_len < 0 or pos + desc_len > n:
            raise ValueError(f"{_ERR}: tensor {index} is truncated (description of {desc_len} bytes)")
        desc, pos = data[pos:pos + desc_len], pos + desc_len
        code, dims, p = None, [], 0
        while p < len(desc):
            key, p = _read_varint(desc, p, index)
            if key == 0x08:
                code, p = _read_varint(desc, p, index)
            elif key == 0x10:
                d, p = _read_varint(desc, p, index)
                dims.append(d)
            elif key == 0x12:  # packed dims
                ln, p = _read_varint(desc, p, index)
                end = p + ln
                if ln < 0 or end > len(desc):
                    raise ValueError(f"{_ERR}: tensor {index} has a malformed description")
                while p < end:
                    d, p = _read_varint(desc, p, index)
                    dims.append(d)
            else:
                raise ValueError(f"{_ERR}: tensor {index} has an unknown description field {key}")
        if code is None:
            raise ValueError(f"{_ERR}: tensor {index} has no data type")
        if any(d < 0 for d in dims):
            raise ValueError(f"{_ERR}: tensor {index} has negative dims {dims}")
        if code in _FROM_CODE:
            itemsize = _FROM_CODE[code].itemsize
        elif code in _TORCH_ONLY:
            itemsize = _TORCH_ONLY[code][0].itemsize
        else:
            raise ValueError(f"paddle: .pdiparams tensor {index} has unsupported data type code {code}")
        count = 1
        for d in dims:
            count *= d
        nbytes = count * itemsize
        if pos + nbytes > n:
            raise ValueError(f"{_ERR}: tensor {index} is truncated (needs {nbytes} data bytes, "
                             f"{n - pos} left)")
        yield code, dims, pos, count
        pos += nbytes
        index += 1


def _array(data: bytes, code: int, dims: list[int], pos: int, count: int) -> np.ndarray:
    dt = _FROM_CODE[code] if code in _FROM_CODE else _TORCH_ONLY[code][0]
    arr = np.frombuffer(data, dtype=dt.newbyteorder("<"), count=count, offset=pos).reshape(dims)
    return arr.astype(dt).copy()


def deserialize_tensors(data: bytes) -> list[np.ndarray]:
    """Every DenseTensor record in ``data``, in order, as numpy arrays.

    bfloat16 and float8 records come back as their raw bits (``uint16`` / ``uint8``);
    :func:`tensors_from_bytes` returns them with their real dtype.
    """
    return [_array(data, *rec) for rec in _parse(data)]


def _torch_tensor(data: bytes, code: int, dims: list[int], pos: int, count: int) -> torch.Tensor:
    t = torch.from_numpy(_array(data, code, dims, pos, count))
    if code in _TORCH_ONLY:
        tdt = _TORCH_ONLY[code][1]
        if tdt is None:
            raise ValueError(f"paddle: .pdiparams data type code {code} cannot be represented "
                             "by this installation")
        t = t.view(tdt)
    return t


def tensors_from_bytes(data: bytes) -> list[torch.Tensor]:
    """Every DenseTensor record in ``data``, in order, as torch tensors of the stored dtype."""
    return [_torch_tensor(data, *rec) for rec in _parse(data)]


def first_tensor(data: bytes, raw_bits: bool = False) -> np.ndarray | torch.Tensor:
    """The first DenseTensor record of ``data`` (what Paddle's ``load_dense_tensor`` reads;
    whatever follows it is not looked at): a torch tensor of the stored dtype, or with
    ``raw_bits`` a numpy array (bfloat16 and float8 as their bits).

    Raises:
        ValueError: ``data`` does not start with a whole record.
    """
    rec = next(iter(_parse(data)), None)
    if rec is None:
        raise ValueError(f"{_ERR}: no tensor record")
    return _array(data, *rec) if raw_bits else _torch_tensor(data, *rec)


def _read_bytes(f: BinaryIO | str | os.PathLike) -> bytes:
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return fh.read()
    return f.getvalue() if isinstance(f, io.BytesIO) else f.read()


def read_pdiparams(f: BinaryIO | str | os.PathLike) -> list[np.ndarray]:
    """The arrays of a ``.pdiparams`` file, in file order (see :func:`deserialize_tensors`)."""
    return deserialize_tensors(_read_bytes(f))


def load_tensors(f: BinaryIO | str | os.PathLike) -> list[torch.Tensor]:
    """The tensors of a ``.pdiparams`` file, in file order, with their stored dtypes."""
    return tensors_from_bytes(_read_bytes(f))
