"""What runs inside a DataLoader worker process, and the fetchers shared with the main process.

A worker reads ``(epoch, task index, sample indices)`` from its own index queue, fetches and
collates the batch, and sends the result back on its own pipe, pickled in the worker (so a
result that cannot be pickled becomes an error message rather than a lost batch). Large
arrays and tensors travel through shared memory (torch's ``file_descriptor`` strategy: only
a file descriptor is pickled); small ones are pickled inline, which is cheaper.
"""
from __future__ import annotations

import numbers
import os
import queue
import random
import sys
import traceback
from collections.abc import Mapping, Sequence
from multiprocessing.reduction import ForkingPickler
from typing import Any

import numpy as np
import torch
import torch.multiprocessing  # noqa: F401  (registers torch's shared-memory pickling)

from pagaie._core import random as _random
from pagaie._core.tensor import Tensor
from pagaie.io import collate as _collate

__all__ = ["get_worker_info", "WorkerInfo"]

MAP, ITER = 0, 1
# How often an idle worker checks that its parent is still alive (seconds).
_PARENT_CHECK_S = 1.0
# Arrays smaller than this are pickled inline; larger ones go through shared memory.
_SHM_MIN_BYTES = 1 << 15

_worker_info: WorkerInfo | None = None


class WorkerInfo:
    """What a worker process knows about itself (see :func:`get_worker_info`).

    Attributes: ``id`` (this worker's index, 0-based), ``num_workers``, ``dataset`` (this
    worker's copy of the dataset) and ``seed`` (the base seed of this epoch's workers; worker
    ``id`` seeds ``random``, numpy and the framework generator from ``seed + id``).
    """

    _frozen = False

    def __init__(self, **kwargs: Any) -> None:
        for k, v in kwargs.items():
            setattr(self, k, v)
        self._frozen = True

    def __setattr__(self, key: str, val: Any) -> None:
        if self._frozen:
            raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")
        super().__setattr__(key, val)

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


def get_worker_info() -> WorkerInfo | None:
    """Information about the current DataLoader worker process; None in the main process.

    Use it in an :class:`IterableDataset`'s ``__iter__`` to give each worker its own share
    of the stream, or in ``worker_init_fn``.

    Returns:
        WorkerInfo|None: with fields ``id``, ``num_workers``, ``dataset`` and ``seed``.

    Examples:
        >>> from pagaie.io import get_worker_info
        >>> print(get_worker_info())
        None
    """
    return _worker_info


class _ExceptionWrapper:
    """An exception raised in a worker, carried to the main process with its traceback text."""

    def __init__(self, worker_id: int, where: str = "") -> None:
        exc_type, exc, tb = sys.exc_info()
        self.worker_id = worker_id
        self.exc_type = exc_type
        self.text = where + "".join(traceback.format_exception(exc_type, exc, tb))

    def reraise(self) -> None:
        msg = f"DataLoader worker({self.worker_id}) caught {self.exc_type.__name__} with message:\n{self.text}"
        try:
            err = self.exc_type(msg)
        except Exception:
            err = RuntimeError(msg)
        raise err


class _Exhausted:
    """Reply of a worker whose IterableDataset iterator has run out."""

    def __init__(self, worker_id: int) -> None:
        self.worker_id = worker_id


class _Resume:
    """Start a new epoch: re-create the fetcher (a fresh iterator over an IterableDataset)."""


class MapFetcher:
    def __init__(self, dataset: Any, auto_collate: bool, collate_fn: Any, drop_last: bool) -> None:
        self.dataset, self.auto_collate, self.collate_fn = dataset, auto_collate, collate_fn

    def fetch(self, indices: Any) -> Any:
        if self.auto_collate:
            data = [self.dataset[i] for i in indices]
        else:
            data = self.dataset[indices]
        return self.collate_fn(data)


class IterFetcher:
    def __init__(self, dataset: Any, auto_collate: bool, collate_fn: Any, drop_last: bool) -> None:
        self.auto_collate, self.collate_fn, self.drop_last = auto_collate, collate_fn, drop_last
        self.it = iter(dataset)

    def fetch(self, indices: Any) -> Any:
        if not self.auto_collate:
            return self.collate_fn(next(self.it))
        data = []
        for _ in indices:
            try:
                data.append(next(self.it))
            except StopIteration:
                break
        if not data or (self.drop_last and len(data) < len(indices)):
            raise StopIteration
        return self.collate_fn(data)


def make_fetcher(kind: int, dataset: Any, auto_collate: bool, collate_fn: Any, drop_last: bool) -> Any:
    return (MapFetcher if kind == MAP else IterFetcher)(dataset, auto_collate, collate_fn, drop_last)


# ---- shared memory ---------------------------------------------------------------------
def _shared_empty(shape: tuple, dtype: torch.dtype) -> torch.Tensor:
    numel = 1
    for s in shape:
        numel *= s
    nbytes = numel * torch.empty((), dtype=dtype).element_size()
    storage = torch.UntypedStorage._new_shared(max(nbytes, 1))
    return torch.empty(0, dtype=dtype).set_(storage, 0, shape)


class _ShmStacker:
    """``collate._stack_out`` in workers: allocate large stacked outputs in shared memory and
    remember which numpy views belong to which shared tensor."""

    def __init__(self) -> None:
        self.owned: dict[int, tuple[np.ndarray, torch.Tensor]] = {}

    def __call__(self, shape: tuple, dtype: np.dtype) -> np.ndarray | None:
        if dtype.kind not in "biufc" or dtype.itemsize * int(np.prod(shape)) < _SHM_MIN_BYTES:
            return None
        try:
            t = _shared_empty(shape, torch.from_numpy(np.empty(0, dtype)).dtype)
        except (TypeError, RuntimeError):
            return None
        arr = t.numpy()
        self.owned[id(arr)] = (arr, t)
        return arr

    def take(self, arr: np.ndarray) -> torch.Tensor | None:
        hit = self.owned.pop(id(arr), None)
        return hit[1] if hit is not None and hit[0] is arr else None


def _pack(batch: Any, use_shm: bool, stacker: _ShmStacker | None) -> Any:
    """Put a collated batch in the form the main process yields (lists, dicts), with leaves
    ready to pickle: large ones in shared memory, or numpy arrays without shared memory."""
    if isinstance(batch, np.ndarray):
        if stacker is not None:
            t = stacker.take(batch)
            if t is not None:
                return t
        if use_shm and batch.nbytes >= _SHM_MIN_BYTES and batch.dtype.kind in "biufc":
            return torch.from_numpy(np.ascontiguousarray(batch)).share_memory_()
        return batch
    if isinstance(batch, (Tensor, torch.Tensor)):
        t = (batch._t if isinstance(batch, Tensor) else batch).detach().cpu()
        if not use_shm or t.numel() * t.element_size() < _SHM_MIN_BYTES:
            try:
                return t.numpy()
            except TypeError:  # a dtype numpy lacks (bfloat16): torch's own pickling
                return t.contiguous().share_memory_() if use_shm else t.clone()
        return t.contiguous().share_memory_() if not t.is_shared() else t
    if isinstance(batch, (str, bytes, numbers.Number)):
        return batch
    if isinstance(batch, Mapping):
        return {k: _pack(v, use_shm, stacker) for k, v in batch.items()}
    if isinstance(batch, Sequence):
        return [_pack(v, use_shm, stacker) for v in batch]
    return batch


def _generate_states(base_seed: int = 0, worker_id: int = 0) -> list[int]:
    """The numpy seed of worker ``worker_id`` (four 32-bit words), under Paddle's name for it:
    numpy's SeedSequence over the worker id and the two halves of ``base_seed``."""
    entropy = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32]
    return np.random.SeedSequence(entropy).generate_state(4).tolist()


def _send(conn: Any, obj: Any, worker_id: int) -> None:
    try:
        payload = ForkingPickler.dumps(obj)
    except Exception:
        epoch, idx = obj[0], obj[1]
        payload = ForkingPickler.dumps((epoch, idx, _ExceptionWrapper(
            worker_id, "the batch could not be sent to the main process (pickling failed):\n")))
    conn.send_bytes(payload)


def worker_loop(dataset: Any, kind: int, index_queue: Any, conn: Any, done_event: Any, auto_collate: bool,
                collate_fn: Any, drop_last: bool, init_fn: Any, worker_id: int, num_workers: int,
                use_shm: bool, base_seed: int) -> None:
    """The body of one worker process."""
    global _worker_info
    try:
        torch.set_num_threads(1)
        from pagaie._core import place as _place
        _place._default = torch.device("cpu")  # tensors made by the dataset stay on the CPU
        seed = base_seed + worker_id
        random.seed(seed)
        _random.seed(seed)  # paddle.seed: torch's generators and Paddle's CPU engine
        np.random.seed(_generate_states(base_seed, worker_id))
        stacker = _ShmStacker() if use_shm else None
        _collate._stack_out = stacker
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, dataset=dataset, seed=base_seed)
        init_error = None
        fetcher = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = make_fetcher(kind, dataset, auto_collate, collate_fn, drop_last)
        except Exception:
            init_error = _ExceptionWrapper(worker_id)
        exhausted = False
        parent = os.getppid()
        while True:
            try:
                msg = index_queue.get(timeout=_PARENT_CHECK_S)
            except queue.Empty:
                if os.getppid() != parent:
                    break
                continue
            if msg is None:
                break
            if isinstance(msg, _Resume):
                exhausted = False
                try:
                    fetcher = make_fetcher(kind, dataset, auto_collate, collate_fn, drop_last)
                except Exception:
                    init_error = _ExceptionWrapper(worker_id)
                continue
            if done_event.is_set():
                continue
            epoch, idx, indices = msg
            if init_error is not None:
                reply: Any = init_error
            elif exhausted:
                reply = _Exhausted(worker_id)
            else:
                try:
                    with torch.no_grad():
                        batch = fetcher.fetch(indices)
                    reply = _pack(batch, use_shm, stacker)
                    del batch
                except StopIteration:
                    if kind != ITER:
                        reply = _ExceptionWrapper(worker_id)
                    else:
                        exhausted = True
                        reply = _Exhausted(worker_id)
                except Exception:
                    reply = _ExceptionWrapper(worker_id)
                if stacker is not None:
                    stacker.owned.clear()
            _send(conn, (epoch, idx, reply), worker_id)
            del reply
    except (KeyboardInterrupt, BrokenPipeError, EOFError, OSError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass
