"""``paddle.save`` / ``paddle.load`` in Paddle's own pickle layout.

Files move both ways between pagaie and real Paddle:

- a *state dict* (a dict whose values are tensors, as ``Layer.state_dict()`` or
  ``Optimizer.state_dict()`` give) is stored as ``{key: numpy array}`` plus Paddle's
  ``'StructuredToParameterName@@'`` name table; an optimizer's ``'LR_Scheduler'`` and
  ``'master_weights'`` entries ride along;
- anything else (a lone tensor, nested lists and dicts) stores each tensor as the
  tuple ``(name, numpy array)``, which is what Paddle writes and recognises.

bfloat16 values are stored as their uint16 bit patterns, as Paddle does.

Writes are atomic: the object is pickled into a temporary file next to the target,
flushed to disk, then renamed over it, so a crash never leaves a half-written file.
Loading uses a restricted unpickler that admits only numpy arrays, numbers, strings
and containers; ``allow_pickle=True`` opts into unrestricted unpickling for trusted files.
"""
from __future__ import annotations

import _compat_pickle
import io
import os
import pickle
import tempfile
from typing import Any, BinaryIO

import numpy as np
import torch

from pagaie._core.place import default_device
from pagaie._core.tensor import Tensor, wrap

__all__ = ["save", "load"]

_NAME_TABLE = "StructuredToParameterName@@"
_SIDE_ENTRIES = ("LR_Scheduler", "master_weights")


def _to_array(t: Tensor) -> np.ndarray:
    tt = t._t.detach().cpu()
    if tt.dtype is torch.bfloat16:
        return tt.view(torch.int16).numpy().view(np.uint16)
    return tt.numpy()


def _from_array(a: np.ndarray, bf16_bits: bool = False) -> Tensor:
    # Loaded tensors land on the current device, as Paddle's load gives them (to_tensor).
    dev = default_device()
    if bf16_bits and a.dtype == np.uint16:
        return wrap(torch.from_numpy(np.array(a.view(np.int16))).view(torch.bfloat16).to(dev))
    t = torch.from_numpy(np.array(a, copy=True))
    return wrap(t if dev.type == "cpu" else t.to(dev))


def _scope_tensor_type() -> type:
    from pagaie.static.framework import _ScopeTensor
    return _ScopeTensor


def _is_state_dict(obj: Any) -> bool:
    if not isinstance(obj, dict) or not obj:
        return False
    for k, v in obj.items():
        if k in _SIDE_ENTRIES and isinstance(v, dict):
            continue
        if not isinstance(v, Tensor):
            return False
    return True


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
    return obj


def _pack(obj: Any) -> Any:
    if _is_state_dict(obj):
        out: dict = {}
        names: dict = {}
        for k, v in obj.items():
            if isinstance(v, Tensor):
                out[k] = _to_array(v)
                names[k] = v.name
            elif k == "master_weights":
                out[k] = {mk: _to_array(mv) if isinstance(mv, Tensor) else mv for mk, mv in v.items()}
            else:
                out[k] = v
        out[_NAME_TABLE] = names
        return out
    return _pack_nested(obj)


def save(obj: Any, path: str | os.PathLike | BinaryIO, protocol: int = 4, **configs: Any) -> None:
    """Save a tensor, a state dict or a nested container of them in Paddle's format.

    Args:
        obj: what to save (Tensor, ``state_dict()`` of a Layer or Optimizer, a static
            ``Program`` (its structure, as JSON), or lists/tuples/dicts holding tensors,
            numbers and strings).
        path (str|file): the file path (``.pdparams`` for layers, ``.pdopt`` for
            optimizers by convention) or a writable binary file object.
        protocol (int, optional): pickle protocol, 2 to 5. Default 4.
        **configs: accepted for compatibility (``use_binary_format`` is not supported).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'w.pdparams')
        >>> paddle.save({'w': paddle.ones([2])}, path)
        >>> paddle.load(path)['w'].tolist()
        [1.0, 1.0]
    """
    if "pickle_protocol" in configs:  # Paddle's deprecated spelling of ``protocol``
        protocol = configs["pickle_protocol"]
    if not isinstance(protocol, int) or not 2 <= protocol <= 5:
        raise ValueError(f"paddle.save: 'protocol' must be an int in [2, 5], but received {protocol!r}")
    unknown = set(configs) - {"use_binary_format", "pickle_protocol"}
    if unknown:
        raise ValueError(f"paddle.save: the configs {sorted(unknown)} are not supported; supported "
                         "are use_binary_format, pickle_protocol")
    if not (hasattr(path, "write") or isinstance(path, (str, os.PathLike))):
        raise ValueError("paddle.save: 'path' must be a file path or a writable binary file object "
                         f"such as io.BytesIO, but received {type(path).__name__}")
    from pagaie.nn.layer.layers import Layer
    if isinstance(obj, Layer):
        raise ValueError("paddle.save: saving a paddle.nn.Layer object is not supported; "
                         "save its state_dict() instead")
    if configs.get("use_binary_format"):
        raise NotImplementedError("paddle.save: use_binary_format=True (Paddle's LoDTensor binary "
                                  "stream) is not supported; save without it")
    from pagaie._static.ir import Program
    if isinstance(obj, Program):   # the program's JSON (parameter values are saved separately)
        text = obj.to_json().encode("utf-8")

        def dump(f: Any) -> None:
            f.write(text)
    else:
        payload = _pack(obj)

        def dump(f: Any) -> None:
            pickle.dump(payload, f, protocol=protocol)
    if hasattr(path, "write"):
        dump(path)
        return
    path = os.fspath(path)
    if path.endswith(os.sep) or os.path.isdir(path):
        raise ValueError(f"paddle.save: the path {path!r} is a directory; give a file name "
                         "such as 'model.pdparams'")
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-" + os.path.basename(path) + "-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            dump(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


_SAFE_GLOBALS = {
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
    ("numpy", "float64"), ("numpy", "float32"), ("numpy", "int64"), ("numpy", "int32"),
    ("builtins", "tuple"), ("builtins", "list"), ("builtins", "dict"), ("builtins", "set"),
    ("builtins", "frozenset"), ("builtins", "complex"), ("builtins", "slice"),
    ("builtins", "bytearray"), ("collections", "OrderedDict"),
    ("_codecs", "encode"),  # how pickle protocol 2 stores bytes (a numpy array's buffer)
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
        t.name = obj[0]
        return t
    if isinstance(obj, np.ndarray):
        return obj if return_numpy or not arrays_too else _from_array(obj)
    if isinstance(obj, dict):
        return type(obj)((k, _unpack_nested(v, return_numpy, arrays_too)) for k, v in obj.items())
    if isinstance(obj, list):
        return [_unpack_nested(v, return_numpy, arrays_too) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_unpack_nested(v, return_numpy, arrays_too) for v in obj)
    return obj


def _unpack(obj: Any, return_numpy: bool, keep_name_table: bool) -> Any:
    if isinstance(obj, dict) and (_NAME_TABLE in obj or (obj and all(
            isinstance(v, np.ndarray) or (k in _SIDE_ENTRIES and isinstance(v, dict))
            for k, v in obj.items()))):
        names = obj.get(_NAME_TABLE, {})
        out: dict = {}
        for k, v in obj.items():
            if k == _NAME_TABLE:
                if keep_name_table:
                    out[k] = v
                continue
            if isinstance(v, np.ndarray):
                if return_numpy:
                    out[k] = v
                else:
                    t = _from_array(v, bf16_bits=True)
                    if k in names:
                        t.name = names[k]
                    out[k] = t
            elif k == "master_weights" and isinstance(v, dict):
                out[k] = {mk: (mv if return_numpy else _from_array(mv)) if isinstance(mv, np.ndarray)
                          else mv for mk, mv in v.items()}
            else:
                out[k] = v
        return out
    return _unpack_nested(obj, return_numpy, not _has_packed_tensor(obj))


class _TruncatedFileError(ValueError, EOFError):
    """An empty or truncated file: an EOFError as in Paddle, and a ValueError like every
    other unreadable file."""


def load(path: str | os.PathLike | BinaryIO, **configs: Any) -> Any:
    """Load what :func:`save` (pagaie's or real Paddle's) wrote.

    Args:
        path (str|file): the file path or a readable binary file object.
        **configs: ``return_numpy`` (bool, return numpy arrays instead of Tensors),
            ``keep_name_table`` (keep Paddle's structured-name table), ``allow_pickle``
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
                              "params_filename"}
    if unknown:
        raise ValueError(f"paddle.load: unsupported configs {sorted(unknown)}; supported are "
                         "return_numpy, keep_name_table, allow_pickle")
    return_numpy = bool(configs.get("return_numpy", False))
    allow = bool(configs.get("allow_pickle", False))
    if hasattr(path, "read"):
        data = path.read()
        where = "<file object>"
    else:
        where = os.fspath(path)
        if not os.path.exists(where):
            raise ValueError(f"paddle.load: the file {where!r} does not exist")
        if os.path.isdir(where):
            raise ValueError(f"paddle.load: {where!r} is a directory; give the path of a file "
                             "written by paddle.save (for inference models use paddle.jit.load)")
        with open(where, "rb") as f:
            data = f.read()
    if data[:1] == b"{" and b'"pagaie.program"' in data[:200]:   # paddle.save(program, path)
        from pagaie._static.ir import Program
        return Program.from_json(data.decode("utf-8"))
    try:
        buf = io.BytesIO(data)
        obj = pickle.load(buf) if allow else _RestrictedUnpickler(buf).load()
    except pickle.UnpicklingError as exc:
        if "allow_pickle" in str(exc):
            raise
        raise ValueError(f"paddle.load: {where} is not a file written by paddle.save "
                         f"(corrupt or truncated): {exc}") from None
    except EOFError as exc:  # Paddle lets EOFError through for an empty or cut-short file
        raise _TruncatedFileError(f"paddle.load: {where} is not a file written by paddle.save "
                                  f"(empty or truncated): {exc}") from None
    except (ValueError, TypeError, AttributeError, IndexError) as exc:
        raise ValueError(f"paddle.load: {where} is not a file written by paddle.save "
                         f"(corrupt or truncated): {exc}") from None
    return _unpack(obj, return_numpy, bool(configs.get("keep_name_table", False)))

