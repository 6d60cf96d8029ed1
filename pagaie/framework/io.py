"""``paddle.save`` / ``paddle.load`` in Paddle's own pickle layout.

Files move both ways between pagaie and real Paddle:

- a *state dict* (a dict whose values are tensors, or dicts holding no tensor such as an
  optimizer's ``'LR_Scheduler'``) is stored as ``{key: numpy array}`` plus Paddle's
  ``'StructuredToParameterName@@'`` name table; loading turns back into tensors only
  the entries of that table;
- anything else (a lone tensor, nested lists and dicts, an optimizer state with
  ``'master_weights'``) stores each tensor as the tuple ``(name, numpy array)``, which
  is what Paddle writes and recognises; only dict, OrderedDict, list, tuple and set may
  hold other objects (NotImplementedError otherwise, as in Paddle).

``use_binary_format=True`` stores a lone tensor as Paddle's binary DenseTensor stream and
``safetensors=True`` a state dict as a safetensors file; :func:`load` reads both.
Loaded tensors are named as Paddle names them (``generated_tensor_N``, or the saved name).

bfloat16 values are stored as their uint16 bit patterns and float8 values as their int8 ones,
as Paddle does.

Writes are atomic: the object is pickled into a temporary file next to the target,
flushed to disk, then renamed over it, so a crash never leaves a half-written file.
Loading uses a restricted unpickler that admits only numpy arrays, numbers, strings
and containers; ``allow_pickle=True`` opts into unrestricted unpickling for trusted files.
"""
from __future__ import annotations

import _compat_pickle
import io
import math
import os
import pickle
import warnings
from typing import Any, BinaryIO

from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
import torch

from pagaie._core.dtype import FLOAT8
from pagaie._core.place import default_device
from pagaie._core.tensor import Tensor, name_as_data, wrap
from pagaie._formats.atomic_file import atomic_open

__all__ = ["save", "load"]

_NAME_TABLE = "StructuredToParameterName@@"
# Pickle protocols 2 and 3 cannot store an object of 4 GiB or more, so with them a state
# dict's arrays of more than ``_SLICE_BYTES`` bytes are stored flat in slices named
# ``<key>@@.<i>``, listed (with the original shape) under ``_SLICES_TABLE``: Paddle's layout.
_SLICES_TABLE = "UnpackBigParamInfor@@"
_SLICE_BYTES = 2**30 - 1


def _to_array(t: Tensor) -> np.ndarray:
    """The array Paddle stores for ``t`` (its ``numpy()``, sharing memory where it can):
    bfloat16 as uint16 bit patterns, float8 as int8 bit patterns."""
    tt = t._t.detach().cpu()
    if tt.dtype is torch.bfloat16:
        return tt.view(torch.int16).numpy().view(np.uint16)
    if tt.dtype in FLOAT8:
        return tt.view(torch.int8).numpy()
    return tt.resolve_conj().numpy()


# the numpy dtypes a loaded array may have to become a Tensor (what Paddle's tensor.set takes)
_TENSOR_ARRAY_DTYPES = {np.dtype(n) for n in ("bool", "uint8", "int8", "int16", "int32", "int64",
                                              "uint16", "float16", "float32", "float64",
                                              "complex64", "complex128")}


def _from_array(a: np.ndarray) -> Tensor:
    """A loaded array as a tensor on the current device, named as Paddle's ``to_tensor`` names
    it (``generated_tensor_N``); ``uint16`` arrays are bfloat16 bits, as for ``to_tensor``."""
    a = a.astype(a.dtype.newbyteorder("="), copy=False)   # the machine's byte order
    if a.dtype not in _TENSOR_ARRAY_DTYPES:
        raise ValueError(f"paddle.load: the file holds a numpy array of dtype {a.dtype}, which no "
                         "Tensor dtype holds (Paddle's are bool, uint8, int8, int16, int32, int64, "
                         "float16, bfloat16 stored as uint16, float32, float64, complex64 and "
                         "complex128); load it with return_numpy=True")
    dev = default_device()
    if a.dtype == np.uint16:
        t = torch.from_numpy(np.array(a.view(np.int16))).view(torch.bfloat16)
    else:
        t = torch.from_numpy(np.array(a, copy=True))
    return _as_loaded(t if dev.type == "cpu" else t.to(dev))


def _as_loaded(t: torch.Tensor) -> Any:
    """A loaded tensor as Paddle hands it out: a Tensor in dynamic mode, and in static mode
    (where there are no eager tensors) a ``DenseTensor`` holding the data."""
    from pagaie.static.framework import _S, DenseTensor, _ScopeVar
    if _S.enabled:
        return DenseTensor(_ScopeVar("", wrap(t)))
    return name_as_data(wrap(t))


def _scope_tensor_type() -> type:
    from pagaie.static.framework import _ScopeTensor
    return _ScopeTensor


def _holds_tensor_or_layer(obj: Any) -> bool:
    from pagaie.nn.layer.layers import Layer
    if isinstance(obj, (Tensor, Layer, _scope_tensor_type())):
        return True
    if type(obj) in (dict, OrderedDict):
        return any(_holds_tensor_or_layer(v) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_holds_tensor_or_layer(v) for v in obj)
    return False


def _is_state_dict(obj: Any) -> bool:
    """Paddle's rule: a dict whose values are all tensors, or dicts holding no tensor (an
    optimizer's ``LR_Scheduler`` entry); such a dict is saved as ``{key: array}`` plus the
    structured-name table."""
    if not isinstance(obj, dict):
        return False
    for v in obj.values():
        if isinstance(v, dict):
            if any(_holds_tensor_or_layer(x) for x in v.values()):
                return False
        elif not isinstance(v, Tensor):
            return False
    return True


def _check_savable(obj: Any) -> bool:
    """Walk ``obj`` as Paddle does before pickling it: only dict, OrderedDict, list, tuple and
    set may hold other objects (anything else iterable raises NotImplementedError). Returns
    whether a Layer was met (Paddle refuses to pickle one)."""
    from pagaie.nn.layer.layers import Layer
    if isinstance(obj, Layer):
        return True
    t = type(obj)
    if t in (dict, OrderedDict):
        return any([_check_savable(v) for v in obj.values()])
    if t in (list, tuple, set):
        return any([_check_savable(v) for v in obj])
    if isinstance(obj, Iterable) and not isinstance(obj, (str, np.ndarray, Tensor, _scope_tensor_type())):
        raise NotImplementedError(
            "paddle.save: the containers supported are tuple, list, set, dict, OrderedDict and "
            f"str, but received {type(obj).__name__}: {str(obj)[:80]}")
    return False


def _pack_nested(obj: Any) -> Any:
    if isinstance(obj, Tensor):
        return (obj.name, _to_array(obj))
    if isinstance(obj, _scope_tensor_type()):   # a static scope's tensor: stored as its array
        return np.array(obj)
    if isinstance(obj, dict):
        return type(obj)((k, _pack_nested(v)) for k, v in obj.items())
    if isinstance(obj, list):
        return [_pack_nested(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_pack_nested(v) for v in obj)
    if isinstance(obj, set):
        if any(isinstance(v, Tensor) for v in obj):
            # a tensor is stored as (name, array), which a set cannot hold (Paddle writes a
            # file that no loader can read back)
            raise TypeError("paddle.save: a set cannot hold Tensors (a saved tensor is "
                            "unhashable); put them in a list or tuple")
        return {_pack_nested(v) for v in obj}
    return obj


def _split_big_arrays(out: dict) -> None:
    """Store each array of ``out`` larger than ``_SLICE_BYTES`` as flat slices, in place."""
    table: dict = {}
    for key, value in list(out.items()):
        if not isinstance(value, np.ndarray):
            continue
        per_slice = _SLICE_BYTES // value.dtype.itemsize
        if value.size <= per_slice:
            continue
        flat = value.reshape(-1)
        names = [f"{key}@@.{i}" for i in range(math.ceil(value.size / per_slice))]
        del out[key]
        for i, name in enumerate(names):
            out[name] = flat[i * per_slice:(i + 1) * per_slice]
        table[key] = {"OriginShape": value.shape, "slices": names}
    if table:
        out[_SLICES_TABLE] = table


def _join_sliced_arrays(obj: dict) -> dict:
    """The arrays that :func:`_split_big_arrays` (or Paddle) stored in slices, joined back."""
    table = obj.pop(_SLICES_TABLE)
    for key, info in table.items():
        obj[key] = np.concatenate([obj.pop(name) for name in info["slices"]]).reshape(
            info["OriginShape"])
    return obj


def _pack(obj: Any, protocol: int) -> Any:
    if _is_state_dict(obj):
        out: dict = {}
        names: dict = {}
        for k, v in obj.items():
            if isinstance(v, Tensor):
                out[k] = _to_array(v)
                names[k] = v.name
            else:
                out[k] = v
        out[_NAME_TABLE] = names
        if protocol < 4:
            _split_big_arrays(out)
        return out
    if _check_savable(obj):
        raise ValueError("paddle.save: saving a paddle.nn.Layer object (here inside a "
                         f"{type(obj).__name__}) is not supported; save its state_dict() instead")
    return _pack_nested(obj)


class _DirectoryPathError(ValueError, IsADirectoryError):
    """paddle.save onto a directory: an IsADirectoryError as in Paddle, and a ValueError like
    the other bad paths."""


def _save_binary(obj: Any, path: Any) -> None:
    """``use_binary_format=True``: the tensor as one DenseTensor record (Paddle's
    ``save_dense_tensor`` stream), which :func:`load` reads back."""
    from pagaie._formats.pdiparams import serialize_tensor
    if isinstance(obj, _scope_tensor_type()):
        tensor = np.array(obj)
    elif isinstance(obj, Tensor):
        tensor = obj._t
    else:   # a numpy array is refused too, as in Paddle
        raise NotImplementedError("paddle.save: with use_binary_format=True, 'obj' must be a "
                                  f"Tensor, but received {type(obj).__name__}")
    data = serialize_tensor(tensor)
    if hasattr(path, "write"):
        path.write(data)
        return
    with atomic_open(path) as f:
        f.write(data)


def _save_safetensors(obj: dict, path: Any) -> None:
    try:
        from safetensors.torch import save as st_save
    except ImportError:
        raise ImportError("paddle.save: safetensors=True needs the 'safetensors' package "
                          "(pip install safetensors)") from None
    tensors = {}
    for k, v in obj.items():
        if not isinstance(v, Tensor):
            raise TypeError(f"paddle.save: with safetensors=True every value must be a Tensor, "
                            f"but {k!r} is a {type(v).__name__}")
        tensors[k] = v._t.detach().cpu().contiguous()
    path.write(st_save(tensors))   # a file object: save() writes through a temporary file


def _load_safetensors(data: bytes, return_numpy: bool, where: str) -> dict:
    try:
        from safetensors.torch import load as st_load
    except ImportError:
        raise ImportError("paddle.load: safetensors=True needs the 'safetensors' package "
                          "(pip install safetensors)") from None
    try:
        loaded = st_load(data)
    except Exception as exc:  # noqa: BLE001 - the library's own error types
        raise ValueError(f"paddle.load: {where} is not a safetensors file: {exc}") from None
    out = {}
    for k, t in loaded.items():
        if return_numpy:
            out[k] = _to_array(wrap(t))
        else:
            dev = default_device()   # named eager_tmp_N when asked, as Paddle's are
            out[k] = wrap(t if dev.type == "cpu" else t.to(dev))
    return out


def save(obj: Any, path: str | os.PathLike | BinaryIO, protocol: int = 4, **configs: Any) -> None:
    """Save a tensor, a state dict or a nested container of them in Paddle's format.

    Args:
        obj: what to save (Tensor, ``state_dict()`` of a Layer or Optimizer, a static
            ``Program`` (its structure, as JSON), or lists/tuples/dicts holding tensors,
            numbers and strings).
        path (str|file): the file path (``.pdparams`` for layers, ``.pdopt`` for
            optimizers by convention) or a writable binary file object.
        protocol (int, optional): pickle protocol, 2 to 4. Default 4.
        **configs: ``use_binary_format`` (bool: store a lone Tensor as Paddle's binary
            DenseTensor stream), ``safetensors`` (bool: store a state dict in the
            safetensors format, needing the ``safetensors`` package; other objects are
            pickled as without it), ``pickle_protocol``
            (Paddle's deprecated spelling of ``protocol``).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'w.pdparams')
        >>> paddle.save({'w': paddle.ones([2])}, path)
        >>> paddle.load(path)['w'].tolist()
        [1.0, 1.0]
    """
    unknown = set(configs) - {"use_binary_format", "pickle_protocol", "safetensors"}
    if unknown:
        raise ValueError(f"paddle.save: the configs {sorted(unknown)} are not supported; supported "
                         "are use_binary_format, pickle_protocol, safetensors")
    if isinstance(path, io.TextIOBase) or not (hasattr(path, "write") or isinstance(path, (str, os.PathLike))):
        raise ValueError("paddle.save: 'path' must be a file path or a writable binary file object "
                         f"such as io.BytesIO, but received {type(path).__name__}")
    binary = configs.get("use_binary_format", False)
    if not isinstance(binary, bool):
        raise TypeError("paddle.save: config 'use_binary_format' must be a bool, but received "
                        f"{type(binary).__name__} ({binary!r})")
    if not binary and configs.get("pickle_protocol") is not None:
        warnings.warn("paddle.save: 'pickle_protocol' is a deprecated argument; use 'protocol' "
                      "instead", stacklevel=2)
        protocol = configs["pickle_protocol"]
    if not binary and isinstance(obj, dict) and not obj:   # an empty state dict, as Paddle warns
        warnings.warn("paddle.save: the state dict is empty, there is nothing to save",
                      stacklevel=2)
    from pagaie.nn.layer.layers import Layer
    from pagaie._static.ir import Program
    if binary:
        def dump(f: Any) -> None:
            _save_binary(obj, f)
    elif configs.get("safetensors") and _is_state_dict(obj):
        # as in Paddle, only a state dict goes to safetensors; anything else is pickled
        def dump(f: Any) -> None:
            _save_safetensors(obj, f)
    elif isinstance(obj, Program):   # the program's JSON (parameter values are saved separately)
        text = obj.to_json().encode("utf-8")

        def dump(f: Any) -> None:
            f.write(text)
    else:
        if isinstance(obj, Layer):
            raise ValueError("paddle.save: saving a paddle.nn.Layer object is not supported; "
                             "save its state_dict() instead")
        if not isinstance(protocol, int) or isinstance(protocol, bool) or not 2 <= protocol <= 4:
            raise ValueError("paddle.save: 'protocol' must be an int in [2, 4], but received "
                             f"{protocol!r}")
        payload = _pack(obj, protocol)

        def dump(f: Any) -> None:
            pickle.dump(payload, f, protocol=protocol)
    if hasattr(path, "write"):
        dump(path)
        return
    path = os.fspath(path)
    if not path:
        raise ValueError("paddle.save: 'path' is an empty string; give a file name such as "
                         "'model.pdparams'")
    if path.endswith(os.sep) or os.path.isdir(path):
        raise _DirectoryPathError(f"paddle.save: the path {path!r} is a directory; give a file name "
                         "such as 'model.pdparams'")
    folder = os.path.dirname(path) or "."
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(f"paddle.save: the folder {folder!r} of {path!r} is a file, not "
                                 "a directory")
    os.makedirs(folder, exist_ok=True)
    with atomic_open(path) as f:
        dump(f)


_SAFE_GLOBALS = {
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
    ("numpy", "float64"), ("numpy", "float32"), ("numpy", "int64"), ("numpy", "int32"),
    ("builtins", "tuple"), ("builtins", "list"), ("builtins", "dict"), ("builtins", "set"),
    ("builtins", "frozenset"), ("builtins", "complex"), ("builtins", "slice"),
    ("builtins", "bytearray"), ("builtins", "bytes"), ("builtins", "Ellipsis"),
    ("collections", "OrderedDict"),
    ("_codecs", "encode"),  # how pickle protocol 2 stores bytes (a numpy array's buffer)
    ("pagaie._core.dtype", "_by_name"),  # a pagaie dtype (a lookup by name, nothing more)
}
_NUMPY_DTYPE_CLASS = ("numpy.dtypes",)


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        # protocol 2 spells some modules the Python 2 way (``__builtin__``)
        module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        if (module, name) in _SAFE_GLOBALS or module in _NUMPY_DTYPE_CLASS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"paddle.load: the file refers to '{module}.{name}', which is not an array, number, "
            "string or container; loading it could run code from the file. If you trust the "
            "file, pass allow_pickle=True")


def _is_packed_tensor(v: Any) -> bool:
    return isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) and isinstance(v[1], np.ndarray)


def _has_packed_tensor(obj: Any) -> bool:
    if _is_packed_tensor(obj):
        return True
    if isinstance(obj, dict):
        return any(_has_packed_tensor(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_has_packed_tensor(v) for v in obj)
    return False


def _unpack_nested(obj: Any, return_numpy: bool, arrays_too: bool) -> Any:
    """Tensors back from ``(name, array)`` pairs; bare arrays become tensors too only when
    the object holds no such pair (as in Paddle, which then takes them for tensors)."""
    if _is_packed_tensor(obj):
        if return_numpy:
            return obj[1]
        t = _from_array(obj[1])
        if isinstance(t, Tensor):
            t.name = obj[0]
        return t
    if isinstance(obj, np.ndarray):
        return obj if return_numpy or not arrays_too else _from_array(obj)
    if type(obj) in (dict, OrderedDict):
        return type(obj)((k, _unpack_nested(v, return_numpy, arrays_too)) for k, v in obj.items())
    if type(obj) is list:
        return [_unpack_nested(v, return_numpy, arrays_too) for v in obj]
    if type(obj) is tuple:
        return tuple(_unpack_nested(v, return_numpy, arrays_too) for v in obj)
    if type(obj) is set:
        return {_unpack_nested(v, return_numpy, arrays_too) for v in obj}
    if isinstance(obj, Iterable) and not isinstance(obj, str):
        raise NotImplementedError(
            "paddle.load: the containers supported are tuple, list, set, dict, OrderedDict and "
            f"str, but the file holds a {type(obj).__name__}")
    return obj


def _unpack(obj: Any, return_numpy: bool, keep_name_table: bool) -> Any:
    if isinstance(obj, dict) and _SLICES_TABLE in obj:
        obj = _join_sliced_arrays(obj)
    if isinstance(obj, dict) and _NAME_TABLE in obj:
        # a state dict: only the entries of the name table are tensors (the others, such as
        # an optimizer's LR_Scheduler, come back as they were saved)
        names = obj[_NAME_TABLE]
        out = type(obj)(obj)
        for k, name in names.items():
            v = out.get(k)
            if isinstance(v, np.ndarray) and not return_numpy:
                t = _from_array(v)
                if isinstance(t, Tensor):
                    t.name = name
                out[k] = t
        if not keep_name_table:
            del out[_NAME_TABLE]
        return out
    return _unpack_nested(obj, return_numpy, not _has_packed_tensor(obj))


def _binary_tensor(data: bytes, return_numpy: bool) -> Any:
    """The tensor of a ``use_binary_format=True`` file (its first DenseTensor record, as
    Paddle reads it), or None when ``data`` does not start with one."""
    from pagaie._formats import pdiparams
    try:
        t = pdiparams.first_tensor(data, raw_bits=return_numpy)
    except Exception:  # noqa: BLE001 - not a DenseTensor stream: the caller reports the file
        return None
    if return_numpy:
        return t
    dev = default_device()
    return _as_loaded(t if dev.type == "cpu" else t.to(dev))


def _load_tensor_directory(folder: str) -> dict[str, np.ndarray]:
    """A folder of one-tensor files (what ``paddle.static.save_vars`` writes, or
    ``paddle.save(..., use_binary_format=True)`` per variable), as Paddle loads it: every file
    under ``folder`` read as a DenseTensor record, keyed by its path relative to ``folder``
    (with '/' separators), as numpy arrays."""
    from pagaie._formats import pdiparams
    out: dict[str, np.ndarray] = {}
    for root, _, files in os.walk(folder):
        for filename in files:
            file_path = os.path.join(root, filename)
            with open(file_path, "rb") as f:
                data = f.read()
            try:
                out[os.path.relpath(file_path, folder).replace(os.sep, "/")] = \
                    pdiparams.first_tensor(data, raw_bits=True)
            except Exception:  # noqa: BLE001 - reported with the file's name below
                raise ValueError(f"paddle.load: {folder!r} is a directory, which is read as one "
                                 f"tensor per file, but {file_path!r} is not a tensor file "
                                 "(as paddle.static.save_vars or paddle.save(..., "
                                 "use_binary_format=True) writes)") from None
    return out


class _TruncatedFileError(ValueError, EOFError):
    """An empty or truncated file: an EOFError as in Paddle, and a ValueError like every
    other unreadable file."""


def load(path: str | os.PathLike | BinaryIO, **configs: Any) -> Any:
    """Load what :func:`save` (pagaie's or real Paddle's) wrote.

    Args:
        path (str|file): the file path or a readable binary file object. A directory is read
            as Paddle's one-file-per-variable layout (``paddle.static.save_vars``): a dict of
            numpy arrays keyed by the files' relative paths.
        **configs: ``return_numpy`` (bool, return numpy arrays instead of Tensors),
            ``keep_name_table`` (keep Paddle's structured-name table), ``safetensors``
            (bool: read a safetensors file into a dict of Tensors), ``allow_pickle``
            (bool, default False: only arrays, numbers, strings and containers may be
            loaded; True runs the file's pickle unrestricted, for trusted files only).

    Returns:
        The saved object, with tensors as Tensors (or numpy arrays).

    Examples:
        >>> import io
        >>> import pagaie as paddle
        >>> buf = io.BytesIO(); paddle.save(paddle.to_tensor([3, 4]), buf); _ = buf.seek(0)
        >>> paddle.load(buf).tolist()
        [3, 4]
    """
    unknown = set(configs) - {"return_numpy", "keep_name_table", "allow_pickle", "model_filename",
                              "params_filename", "safetensors"}
    if unknown:
        raise ValueError(f"paddle.load: unsupported configs {sorted(unknown)}; supported are "
                         "return_numpy, keep_name_table, allow_pickle, safetensors")
    return_numpy = bool(configs.get("return_numpy", False))
    allow = bool(configs.get("allow_pickle", False))
    start = None
    if hasattr(path, "read"):
        if isinstance(path, io.TextIOBase) or not getattr(path, "readable", lambda: True)():
            raise TypeError("paddle.load: 'path' must be a file path or a readable binary file "
                            f"object such as io.BytesIO, but received {type(path).__name__} "
                            "(open files with mode 'rb')")
        # a buffer may hold several saved objects one after the other (as Paddle's docs
        # show): only the pickle read is consumed, so the next load() reads the next one
        start = path.tell() if getattr(path, "seekable", lambda: False)() else None
        data = path.read()
        where = "<file object>"
    else:
        where = os.fspath(path)
        if not os.path.exists(where):
            hint = ""
            if any(os.path.exists(where + ext) for ext in (".pdparams", ".pdopt")):
                hint = (f"; give the full file name, e.g. paddle.load('{where}.pdparams') "
                        f"instead of paddle.load('{where}')")
            raise ValueError(f"paddle.load: the file {where!r} does not exist{hint}")
        if os.path.isdir(where):
            return _load_tensor_directory(where)
        with open(where, "rb") as f:
            data = f.read()
    if configs.get("safetensors"):
        return _load_safetensors(data, return_numpy, where)
    if data[:1] == b"{" and b'"pagaie.program"' in data[:200]:   # paddle.save(program, path)
        from pagaie._static.ir import Program
        return Program.from_json(data.decode("utf-8"))
    try:
        buf = io.BytesIO(data)
        # latin1: how Python 2 pickles (old Paddle files) hold a numpy array's bytes
        obj = (pickle.load(buf, encoding="latin1") if allow
               else _RestrictedUnpickler(buf, encoding="latin1").load())
    except pickle.UnpicklingError as exc:
        if "allow_pickle" in str(exc):
            raise
        tensor = _binary_tensor(data, return_numpy)   # paddle.save(..., use_binary_format=True)
        if tensor is not None:
            return tensor
        raise ValueError(f"paddle.load: {where} is not a file written by paddle.save "
                         f"(corrupt or truncated): {exc}") from None
    except EOFError as exc:  # Paddle lets EOFError through for an empty or cut-short file
        raise _TruncatedFileError(f"paddle.load: {where} is not a file written by paddle.save "
                                  f"(empty or truncated): {exc}") from None
    except (ValueError, TypeError, AttributeError, IndexError) as exc:
        raise ValueError(f"paddle.load: {where} is not a file written by paddle.save "
                         f"(corrupt or truncated): {exc}") from None
    if start is not None:
        path.seek(start + buf.tell())
    return _unpack(obj, return_numpy, bool(configs.get("keep_name_table", False)))

