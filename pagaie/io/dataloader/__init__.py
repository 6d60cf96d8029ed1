"""DataLoader: batches from a dataset, read in the main process or in worker processes.

With ``num_workers > 0`` the main process hands out batch tasks round-robin (each worker has
its own index queue and its own result pipe), keeping ``prefetch_factor`` tasks in flight per
worker. Since every worker answers its tasks in order, batches come back in sampler order by
reading, for task ``i``, the pipe of the worker that got it. While waiting, the main process
also watches every worker's process sentinel, so a worker that dies (an ``os._exit``, a
segfault, a kill) is reported at once. As in Paddle, ``timeout`` never ends the wait for a
batch that is slow to come (Paddle only polls the workers at that interval).
"""
from __future__ import annotations

import atexit
import multiprocessing as mp
import sys
import time
import weakref
from multiprocessing.connection import wait as _wait
from multiprocessing.reduction import ForkingPickler
from typing import Any, Callable, Sequence

import numpy as np
import torch

from pagaie._core.place import default_device, place_of, to_torch_device
from pagaie.io import worker as _w
from pagaie.io.collate import default_collate_fn, default_convert_fn, to_output
from pagaie.io.dataset import Dataset, IterableDataset
from pagaie.io.sampler import BatchSampler, _InfiniteIterableSampler

__all__ = ["DataLoader"]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise AssertionError(f"paddle.io.DataLoader: {msg}")


class DataLoader:
    """Iterate over a dataset in batches.

    Each sample of a map-style :class:`Dataset` (or each item of an
    :class:`IterableDataset`) is read, ``batch_size`` of them are merged by ``collate_fn``, and
    every numpy array, number column and Tensor of the batch is given as a Tensor; a sample
    ``(image, label)`` gives batches ``[images, labels]``, a dict sample gives dict batches.

    Args:
        dataset (Dataset|IterableDataset): the data.
        feed_list (list, optional): static-graph input variables (required in static mode
            when ``return_list`` is False); unused in dynamic mode.
        places (Place|str|list, optional): where batches are placed; the current device when None.
            A list (of Places or device strings, no None) puts batches on its first place; in
            static mode, a list of ``k`` places makes each step give ``k`` batches (one per
            place; a last, incomplete group is dropped). An empty list makes iterating the
            loader fail (ValueError).
        return_list (bool, optional): give each batch as a list (dynamic mode always does); in
            static mode, where leaves are ``DenseTensor`` s, False gives ``[{name: DenseTensor}]``
            feed dicts for ``Executor.run``. Default: True.
        batch_sampler (BatchSampler, optional): gives each batch's indices; then ``batch_size``,
            ``shuffle`` and ``drop_last`` keep their defaults.
        batch_size (int|None, optional): samples per batch; None disables batching (each
            sample is given alone, not stacked). Default: 1.
        shuffle (bool, optional): shuffle the indices each epoch. Default: False.
        drop_last (bool, optional): drop a last, incomplete batch. Default: False.
        collate_fn (callable, optional): merges a list of samples into a batch.
        num_workers (int, optional): worker processes reading the data; 0 reads in the main
            process. Default: 0.
        use_buffer_reader (bool, optional): accepted for compatibility. Default: True.
        reader_buffer_size (int, optional): accepted for compatibility. Default: 2.
        prefetch_factor (int, optional): batches in flight per worker. Default: 2.
        use_shared_memory (bool, optional): move large batch arrays from workers through
            shared memory rather than a pipe. Default: True.
        timeout (int|float, optional): a non-negative number, kept as ``self.timeout``; as in
            Paddle (which polls its workers at that interval), a batch that is slow to come is
            waited for however long it takes. A worker that dies is reported at once. Default: 0.
        worker_init_fn (callable, optional): called as ``worker_init_fn(worker_id)`` in each
            worker after seeding, before any data is read.
        persistent_workers (bool, optional): keep the workers alive between epochs. Default: False.

    Returns:
        DataLoader: an iterable of batches; ``len(loader)`` is the number of batches (not for
        an IterableDataset).

    Examples:
        >>> import numpy as np
        >>> from pagaie.io import Dataset, DataLoader
        >>> class Pairs(Dataset):
        ...     def __len__(self):
        ...         return 10
        ...     def __getitem__(self, i):
        ...         return np.full([3], i, dtype='float32'), np.array([i % 2])
        >>> loader = DataLoader(Pairs(), batch_size=4, shuffle=False)
        >>> len(loader)
        3
        >>> x, y = next(iter(loader))
        >>> x.shape, x.dtype, y.shape, y.dtype
        (paddle.Size([4, 3]), <DataType.FLOAT32: 10>, paddle.Size([4, 1]), <DataType.INT64: 9>)
    """

    def __init__(self, dataset: Dataset, feed_list: Sequence[Any] | None = None, places: Any = None,
                 return_list: bool = True, batch_sampler: Any = None, batch_size: int | None = 1,
                 shuffle: bool = False, drop_last: bool = False, collate_fn: Callable | None = None,
                 num_workers: int = 0, use_buffer_reader: bool = True, reader_buffer_size: int = 2,
                 prefetch_factor: int = 2, use_shared_memory: bool = True, timeout: float = 0,
                 worker_init_fn: Callable[[int], None] | None = None, persistent_workers: bool = False) -> None:
        self.dataset = dataset
        if not return_list and not _in_dynamic_mode():
            assert feed_list is not None, "feed_list should be set when return_list=False"
        self.feed_list = feed_list
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.use_buffer_reader = use_buffer_reader
        self.reader_buffer_size = reader_buffer_size
        self.prefetch_factor = prefetch_factor
        self.worker_init_fn = worker_init_fn
        # As Paddle, ``places`` is kept as a list of Places; batches go to the first one. An
        # empty list stays empty, as in Paddle, and iterating the loader then fails.
        if isinstance(places, (list, tuple)):
            for i, p in enumerate(places):
                if p is None:
                    raise TypeError("paddle.io.DataLoader: each element of 'places' should be a Place or a "
                                    f"device string, but places[{i}] is None")
            given = list(places)
        else:
            given = [places]
        devices = [default_device() if p is None else to_torch_device(p, "paddle.io.DataLoader") for p in given]
        self._device = devices[0] if devices else default_device()
        self.places = [place_of(d) for d in devices]
        self.pin_memory = _in_dynamic_mode()  # Paddle's default in dynamic mode; unused on torch
        _check(num_workers >= 0, f"num_workers should be a non-negative value, but got {num_workers}")
        _check(prefetch_factor > 0, f"prefetch_factor should be a positive value, but got {prefetch_factor}")
        _check(timeout >= 0, f"timeout should be a non-negative value, but got {timeout}")
        self.num_workers = num_workers
        self.use_shared_memory = bool(use_shared_memory and num_workers > 0)
        self.timeout = timeout
        if isinstance(dataset, IterableDataset):
            self.dataset_kind = _w.ITER
            if shuffle:
                raise ValueError("paddle.io.DataLoader: IterableDataset does not support shuffle, but got "
                                 f"shuffle={shuffle}")
            if batch_sampler is not None:
                raise ValueError("paddle.io.DataLoader: IterableDataset expect unspecified batch_sampler")
        else:
            self.dataset_kind = _w.MAP
        if batch_sampler is not None:
            _check(batch_size == 1 and not shuffle and not drop_last,
                   "batch_size/shuffle/drop_last should not be set when batch_sampler is given")
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            _check(batch_size > 0, "batch_size should be None or a positive value when batch_sampler is not "
                   f"given, but got {batch_size}")
            self.batch_size = batch_size
            if self.dataset_kind == _w.ITER:
                self.batch_sampler = _InfiniteIterableSampler(dataset, batch_size)
            else:
                self.batch_sampler = BatchSampler(dataset=dataset, batch_size=batch_size, shuffle=shuffle,
                                                  drop_last=drop_last)
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self._persistent_workers = persistent_workers
        self._iterator: _MultiProcessIter | None = None

    def _index_sampler(self) -> Any:
        if self.auto_collate_batch:
            return self.batch_sampler
        if self.dataset_kind == _w.MAP:
            return range(len(self.dataset))
        return _InfiniteIterableSampler(self.dataset, 1)

    def _collate(self) -> Callable:
        if self.collate_fn is not None:
            return self.collate_fn
        return default_collate_fn if self.auto_collate_batch else default_convert_fn

    def __len__(self) -> int:
        if self.dataset_kind == _w.ITER:
            raise ValueError("paddle.io.DataLoader: length of IterableDataset not supported")
        return len(self.batch_sampler) if self.auto_collate_batch else len(self.dataset)

    def __iter__(self) -> Any:
        if not self.places:
            raise ValueError("paddle.io.DataLoader: 'places' is an empty list, so there is no place to put "
                             "the batches on; give a place, or None for the current device")
        it = self._batches()
        if len(self.places) > 1 and not _in_dynamic_mode():
            return _PlaceGroups(it, len(self.places), feeds=not self.return_list and self.feed_list is not None)
        return it

    def _batches(self) -> Any:
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        if self._persistent_workers:
            if self._iterator is None or self._iterator._closed:
                self._iterator = _MultiProcessIter(self)
            else:
                self._iterator._reset()
            return self._iterator
        return _MultiProcessIter(self)

    def __call__(self) -> Any:
        return self.__iter__()


def _in_dynamic_mode() -> bool:
    from pagaie.static.framework import in_dynamic_mode
    return in_dynamic_mode()


def _delivery(loader: DataLoader) -> Callable[[Any], Any]:
    """How each collated batch is given, decided when iteration starts. In dynamic mode: array
    and tensor leaves as Tensors on the loader's device. In static mode, as Paddle's reader
    gives them: leaves as ``DenseTensor``, and with ``return_list=False`` a list holding one
    ``{name: DenseTensor}`` feed dict (keyed by the names of ``feed_list``)."""
    device = loader._device
    if _in_dynamic_mode():
        return lambda batch: to_output(batch, device)
    names = None
    if not loader.return_list and loader.feed_list is not None:
        names = [v if isinstance(v, str) else v.name for v in loader.feed_list]
    return lambda batch: _as_feed(_dense_leaves(to_output(batch, device)), names)


def _dense_leaves(batch: Any) -> Any:
    from pagaie._core.tensor import Tensor
    from pagaie.static.framework import DenseTensor, _ScopeVar
    if isinstance(batch, Tensor):
        return DenseTensor(_ScopeVar("", batch))
    if isinstance(batch, dict):
        return {k: _dense_leaves(v) for k, v in batch.items()}
    if isinstance(batch, list):
        return [_dense_leaves(v) for v in batch]
    return batch


def _as_feed(batch: Any, names: list[str] | None) -> Any:
    if names is None:
        return batch
    # As Paddle's reader: the feeds are the batch's array leaves, nested lists and dicts
    # flattened in order; other leaves (strings, numbers) have no variable.
    leaves = _array_leaves(batch)
    if len(leaves) != len(names):
        raise ValueError(f"paddle.io.DataLoader: each batch gives {len(leaves)} arrays, but "
                         f"feed_list has {len(names)} variables")
    # Paddle fills the feed dict from the last variable to the first; its key order shows that.
    return [dict(zip(reversed(names), reversed(leaves)))]


def _array_leaves(batch: Any) -> list:
    if isinstance(batch, dict):
        batch = list(batch.values())
    if isinstance(batch, list):
        return [leaf for field in batch for leaf in _array_leaves(field)]
    from pagaie.static.framework import DenseTensor
    return [batch] if isinstance(batch, DenseTensor) else []


class _PlaceGroups:
    """Static mode with several ``places``: each step gives one batch per place, as Paddle's
    reader feeds a multi-device program (a list of batches, or with ``return_list=False`` a
    list of feed dicts); a last, incomplete group is dropped, as Paddle does."""

    def __init__(self, it: Any, num_places: int, feeds: bool) -> None:
        self._it = it
        self._k = num_places
        self._feeds = feeds

    def __iter__(self) -> _PlaceGroups:
        return self

    def __len__(self) -> int:
        return len(self._it)

    def __next__(self) -> list:
        group = [next(self._it) for _ in range(self._k)]
        return [feed for batch in group for feed in batch] if self._feeds else group


class _SingleProcessIter:
    """Reads and collates each batch in the calling process."""

    def __init__(self, loader: DataLoader) -> None:
        self._fetcher = _w.make_fetcher(loader.dataset_kind, loader.dataset, loader.auto_collate_batch,
                                        loader._collate(), loader.drop_last)
        self._indices = iter(loader._index_sampler())
        self._deliver = _delivery(loader)
        self._loader = loader

    def __iter__(self) -> _SingleProcessIter:
        return self

    def __len__(self) -> int:
        return _iter_len(self._loader)

    def __next__(self) -> Any:
        indices = next(self._indices)
        with torch.no_grad():
            batch = self._fetcher.fetch(indices)
        return self._deliver(batch)


def _iter_len(loader: DataLoader) -> int:
    """``len(iter(loader))``: as Paddle, the batch sampler's length; a TypeError when there is
    none with a length (``batch_size=None``, or an IterableDataset)."""
    sampler = loader.batch_sampler
    if sampler is None or isinstance(sampler, _InfiniteIterableSampler):
        what = "an IterableDataset" if loader.dataset_kind == _w.ITER else "batch_size=None"
        raise TypeError(f"paddle.io.DataLoader: the iterator of a loader over {what} has no len()")
    return len(sampler)


_LIVE: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _shutdown_live_iterators() -> None:
    for it in list(_LIVE):
        it._shutdown()


def _mp_context() -> Any:
    return mp.get_context("fork") if sys.platform.startswith("linux") else mp.get_context()


class _MultiProcessIter:
    """Batches read by ``loader.num_workers`` worker processes, given in sampler order."""

    def __init__(self, loader: DataLoader) -> None:
        self._loader = loader
        self._deliver = _delivery(loader)
        self._num_workers = n = loader.num_workers
        self._persistent = loader._persistent_workers
        self._iterable = loader.dataset_kind == _w.ITER
        self._capacity = loader.prefetch_factor * n
        self._closed = False
        ctx = _mp_context()
        self._done_event = ctx.Event()
        self._workers, self._index_queues, self._conns = [], [], []
        # As Paddle: drawn from numpy's global generator, before the sampler's first draw.
        self._base_seed = int(np.random.randint(low=0, high=sys.maxsize))
        try:
            for wid in range(n):
                iq = ctx.Queue()
                iq.cancel_join_thread()  # never block interpreter exit on undelivered indices
                r, s = ctx.Pipe(duplex=False)
                p = ctx.Process(target=_w.worker_loop, daemon=True, args=(
                    loader.dataset, loader.dataset_kind, iq, s, self._done_event, loader.auto_collate_batch,
                    loader._collate(), loader.drop_last, loader.worker_init_fn, wid, n,
                    loader.use_shared_memory, self._base_seed))
                p.start()
                s.close()  # only the worker writes; later workers must not inherit this end
                self._workers.append(p)
                self._index_queues.append(iq)
                self._conns.append(r)
        except BaseException:
            self._shutdown()
            raise
        _LIVE.add(self)
        self._epoch = -1
        self._reset(first=True)

    # ---- epochs and tasks -----------------------------------------------------------
    def _reset(self, first: bool = False) -> None:
        self._epoch += 1
        self._sampler_iter = iter(self._loader._index_sampler())
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_worker: dict[int, int] = {}
        self._active = [True] * self._num_workers
        if first:
            # As Paddle, the round-robin goes on across epochs of persistent workers.
            self._next_worker = 0
        self._sampler_done = False
        if self._iterable and not first:
            for q in self._index_queues:
                q.put(_w._Resume())
        for _ in range(self._capacity):
            self._put_task()

    def _put_task(self) -> None:
        if self._sampler_done or self._send_idx - self._rcvd_idx >= self._capacity:
            return
        # As Paddle: the indices are drawn first, so the end of the sampler leaves the
        # round-robin where it was (the next epoch of persistent workers starts from there).
        try:
            indices = next(self._sampler_iter)
        except StopIteration:
            self._sampler_done = True
            return
        for _ in range(self._num_workers):
            wid = self._next_worker
            self._next_worker = (wid + 1) % self._num_workers
            if self._active[wid]:
                break
        else:
            return
        self._index_queues[wid].put((self._epoch, self._send_idx, indices))
        self._task_worker[self._send_idx] = wid
        self._send_idx += 1

    # ---- receiving ------------------------------------------------------------------
    def _dead_workers(self) -> list:
        return [(i, w) for i, w in enumerate(self._workers) if not w.is_alive()]

    def _fail(self, msg: str) -> None:
        self._shutdown()
        raise RuntimeError(f"paddle.io.DataLoader: {msg}")

    def _recv(self, wid: int) -> Any:
        conn = self._conns[wid]
        watch = [conn] + [w.sentinel for w in self._workers]
        while True:
            ready = _wait(watch)
            if conn in ready:
                try:
                    return ForkingPickler.loads(conn.recv_bytes())
                except (EOFError, OSError):
                    pass  # the worker died mid-message: reported below
            dead = self._dead_workers()
            if dead:
                desc = ", ".join(f"worker {i} (pid {w.pid}, exit code {w.exitcode})" for i, w in dead)
                self._fail(f"{len(dead)} worker process(es) exited unexpectedly: {desc}. A worker can be "
                           "killed by a signal (e.g. out of memory) or exit from inside the dataset code")

    def __iter__(self) -> _MultiProcessIter:
        return self

    def __len__(self) -> int:
        return _iter_len(self._loader)

    def __next__(self) -> Any:
        if self._closed:
            raise StopIteration
        while True:
            if self._rcvd_idx == self._send_idx:
                if not self._persistent:
                    self._shutdown()
                raise StopIteration
            wid = self._task_worker[self._rcvd_idx]
            epoch, idx, reply = self._recv(wid)
            if epoch != self._epoch:
                continue  # left over from an epoch the user stopped early
            del self._task_worker[idx]
            self._rcvd_idx += 1
            if isinstance(reply, _w._Exhausted):
                self._active[reply.worker_id] = False
                self._put_task()
                continue
            if isinstance(reply, _w._ExceptionWrapper):
                self._shutdown()
                reply.reraise()
            self._put_task()
            return self._deliver(reply)

    # ---- shutdown -------------------------------------------------------------------
    def _shutdown(self) -> None:
        if self._closed:
            return
        self._closed = True
        _LIVE.discard(self)
        self._done_event.set()
        for c in self._conns:
            c.close()  # a worker blocked sending a result gets a broken pipe and exits
        for q in self._index_queues:
            try:
                q.put(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + 1.0
        for w in self._workers:
            w.join(max(0.0, deadline - time.monotonic()))
        for w in self._workers:
            if w.is_alive():
                w.terminate()
                w.join(1.0)
        for q in self._index_queues:
            q.close()

    def __del__(self) -> None:
        try:
            self._shutdown()
        except Exception:
            pass
