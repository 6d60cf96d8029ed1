"""``paddle.async_save``: :func:`paddle.save` on a background thread.

The tensors are copied to host memory when the call is made, so training that goes on
updating the parameters in place cannot change what is written; the file itself is
written atomically by :func:`paddle.save`.
"""
from __future__ import annotations

import os
import threading
import warnings
from typing import Any, BinaryIO

from pagaie._core.tensor import Tensor, wrap
from pagaie.framework.io import save

__all__ = ["async_save", "clear_async_save_task_queue"]

_pending: list[threading.Thread] = []
_errors: list[BaseException] = []


def _snapshot(obj: Any) -> Any:
    if isinstance(obj, Tensor):
        out = wrap(obj._t.detach().to("cpu", copy=True))
        out.name, out.stop_gradient = obj.name, obj.stop_gradient
        return out
    if isinstance(obj, dict):
        return type(obj)((k, _snapshot(v)) for k, v in obj.items())
    return obj


def async_save(obj: Any, path: str | os.PathLike | BinaryIO, protocol: int = 4,
               sync_other_task: bool = False, **configs: Any) -> None:
    """Start saving ``obj`` as :func:`paddle.save` does, and return at once.

    Args:
        obj (dict|Tensor): a state dict (nested dicts of tensors) or a tensor.
        path (str|file): where to write.
        protocol (int, optional): the pickle protocol. Default 4.
        sync_other_task (bool, optional): first wait for earlier ``async_save`` calls.
        **configs: not used (a warning says so), as in Paddle.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'w.pdparams')
        >>> paddle.async_save({'w': paddle.ones([2])}, path)
        >>> paddle.clear_async_save_task_queue()
        >>> paddle.load(path)['w'].tolist()
        [1.0, 1.0]
    """
    from pagaie.static.framework import in_dynamic_mode
    if not in_dynamic_mode():
        raise ValueError("paddle.async_save: saving asynchronously is not supported in static mode")
    if configs:
        warnings.warn("paddle.async_save: configs are not supported when saving asynchronously; "
                      "the default settings are used", stacklevel=2)
    if not isinstance(obj, (dict, Tensor)):
        raise TypeError(f"paddle.async_save: 'obj' must be a state dict or a Tensor, but received "
                        f"{type(obj).__name__}")
    if sync_other_task:
        clear_async_save_task_queue()
    snapshot = _snapshot(obj)

    def run() -> None:
        try:
            save(snapshot, path, protocol)
        except BaseException as exc:  # reported by clear_async_save_task_queue
            _errors.append(exc)

    t = threading.Thread(target=run, name="pagaie-async-save", daemon=False)
    t.start()
    _pending.append(t)


def clear_async_save_task_queue() -> None:
    """Wait until every :func:`async_save` call has finished writing; an error one of them
    met is raised here.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.clear_async_save_task_queue()
    """
    while _pending:
        _pending.pop().join()
    if _errors:
        err = _errors.pop(0)
        _errors.clear()
        raise err
