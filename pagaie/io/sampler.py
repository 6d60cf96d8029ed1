"""Samplers: which sample indices a DataLoader reads, and how they are grouped into batches.

Each draws as Paddle does, so the same seeds give Paddle's very indices:
:class:`RandomSampler` (hence ``DataLoader(shuffle=True)``) and :class:`WeightedRandomSampler`
from numpy's global generator (``np.random.seed``); :class:`DistributedBatchSampler` from
``np.random.RandomState(epoch)``; :class:`SubsetRandomSampler` (and ``random_split``) with
``paddle.randperm``, from the framework generator (``paddle.seed``).
"""
from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Any, Generic, TypeVar

import numpy as np
import torch

from pagaie._core.tensor import Tensor
from pagaie._core.random import Generator as _PaddleGenerator
from pagaie.io.dataset import IterableDataset

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler",
           "BatchSampler", "DistributedBatchSampler"]


def _check(cond: bool, msg: str, exc: type = AssertionError) -> None:
    if not cond:
        raise exc(msg)


_T = TypeVar("_T")


class Sampler(Generic[_T]):
    """Base of all samplers: an iterable of sample indices (or of index lists, for batch samplers).
    Generic in the type of what it yields (``Sampler[int]``), as in Paddle.

    Args:
        data_source (Dataset, optional): the dataset sampled, kept as ``self.data_source``.

    Examples:
        >>> from pagaie.io import Sampler
        >>> class Evens(Sampler):
        ...     def __iter__(self):
        ...         return iter(range(0, len(self.data_source), 2))
        ...     def __len__(self):
        ...         return (len(self.data_source) + 1) // 2
        >>> list(Evens(range(5)))
        [0, 2, 4]
    """

    def __init__(self, data_source: Sized | None = None) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[_T]:
        raise NotImplementedError(f"'__iter__' not implement in class {type(self).__name__}")


class SequenceSampler(Sampler):
    """The indices ``0 .. len(data_source) - 1`` in order.

    Args:
        data_source (Dataset): the dataset sampled.

    Examples:
        >>> from pagaie.io import SequenceSampler
        >>> list(SequenceSampler(range(4)))
        [0, 1, 2, 3]
    """

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """Indices in random order: a permutation, or with ``replacement`` independent draws.

    Args:
        data_source (Dataset): the dataset sampled.
        replacement (bool, optional): draw with replacement. Default: False.
        num_samples (int, optional): how many indices to give; ``len(data_source)`` when None.
            Without replacement it may not exceed ``len(data_source)``.
        generator (Iterator|Generator, optional): an iterator of indices to give instead of
            random ones (at most ``num_samples`` are taken); or a ``paddle.Generator`` (then
            ``paddle.randperm``/``paddle.randint`` draw the indices) or a ``torch.Generator``
            instead of numpy's global generator (Paddle accepts only iterators).

    Examples:
        >>> import numpy as np
        >>> from pagaie.io import RandomSampler
        >>> np.random.seed(0)
        >>> sorted(RandomSampler(range(5)))
        [0, 1, 2, 3, 4]
        >>> len(RandomSampler(range(5), replacement=True, num_samples=8))
        8
    """

    def __init__(self, data_source: Sized, replacement: bool = False, num_samples: int | None = None,
                 generator: Iterator[int] | None = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError("paddle.io.RandomSampler: expect boolean value for replacement, but got "
                            f"replacement={replacement}")
        if not replacement and self.num_samples > len(data_source):
            raise ValueError("paddle.io.RandomSampler: num_samples should be smaller than or equal to length "
                             "of data_source when replacement is False, but got num_samples: "
                             f"{self.num_samples} > data_source: {len(data_source)}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("paddle.io.RandomSampler: num_samples should be a positive integer, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        """How many indices one pass gives."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        gen = self.generator
        n = len(self.data_source)
        if isinstance(gen, (torch.Generator, _PaddleGenerator)):
            yield from _generator_indices(gen, n, self.num_samples, self.replacement)
            return
        if gen:
            for _ in range(self.num_samples):
                try:
                    yield next(gen)
                except StopIteration:
                    return
            return
        # Paddle's draw: numpy's global generator, one choice() call per pass.
        yield from np.random.choice(np.arange(n), self.num_samples, replace=self.replacement).tolist()

    def __len__(self) -> int:
        return self.num_samples


def _generator_indices(gen: Any, n: int, k: int, replacement: bool) -> list[int]:
    """``k`` indices below ``n`` drawn from a generator (Paddle's RandomSampler accepts only
    iterators; a ``paddle.Generator`` draws with ``paddle.randint``/``paddle.randperm``, a
    ``torch.Generator`` with torch's samplers)."""
    if isinstance(gen, torch.Generator):
        if replacement:
            return torch.randint(n, (k,), generator=gen, device=gen.device).tolist()
        return torch.randperm(n, generator=gen, device=gen.device)[:k].tolist()
    import pagaie
    if replacement:
        return pagaie.randint(0, n, [k]).tolist()
    return pagaie.randperm(n).tolist()[:k]


def _weights_array(weights: Any) -> np.ndarray:
    if isinstance(weights, (Tensor, torch.Tensor)):
        return np.asarray(weights.numpy() if isinstance(weights, Tensor) else weights.detach().cpu().numpy())
    _check(isinstance(weights, (np.ndarray, list, tuple)), "paddle.io.WeightedRandomSampler: weights should be "
           f"paddle.Tensor, numpy.ndarray, list or tuple, but got {type(weights).__name__}")
    return np.asarray(weights)


class WeightedRandomSampler(Sampler):
    """Indices drawn with probability proportional to ``weights``.

    Args:
        weights (numpy.ndarray|Tensor|list|tuple): non-negative weights, 1-D; or 2-D, then
            each row is sampled ``num_samples`` times and the rows' draws follow one another.
        num_samples (int): how many indices to draw (per row).
        replacement (bool, optional): draw with replacement. Default: True.

    Examples:
        >>> import numpy as np
        >>> from pagaie.io import WeightedRandomSampler
        >>> np.random.seed(0)
        >>> idx = list(WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], num_samples=6))
        >>> set(idx) <= {1, 3}, len(idx)
        (True, 6)
    """

    def __init__(self, weights: Any, num_samples: int, replacement: bool = True) -> None:
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError("paddle.io.WeightedRandomSampler: num_samples should be a positive integer, "
                             f"but got {num_samples!r}")
        if not isinstance(replacement, bool):
            raise ValueError("paddle.io.WeightedRandomSampler: replacement should be a boolean value, "
                             f"but got {replacement!r}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement

    def __iter__(self) -> Iterator[int]:
        w = _weights_array(self.weights)
        # Paddle compares the weights with 0 in numpy, which refuses text.
        _check(w.dtype.kind not in "USa", "paddle.io.WeightedRandomSampler: weights should be numbers, but got "
               f"an array of dtype {w.dtype}", TypeError)
        if w.dtype.kind not in "fiub":
            w = w.astype(np.float64)
        _check(w.ndim <= 2, "paddle.io.WeightedRandomSampler: weights should be a 1-D or 2-D array, "
               f"but got {w.ndim}-D")
        # Paddle fails reading the length of the last axis of 0-D weights.
        _check(w.ndim > 0, "paddle.io.WeightedRandomSampler: weights should be a 1-D or 2-D array, but got 0-D",
               IndexError)
        w = w.reshape(-1, w.shape[-1])
        _check(not np.isnan(w).any(), "paddle.io.WeightedRandomSampler: weights should not be NaN")
        _check(bool(np.all(w >= 0.0)), "paddle.io.WeightedRandomSampler: weights should be non-negative")
        _check(not np.isinf(w).any(), "paddle.io.WeightedRandomSampler: weights should not be INF")
        positive = (w > 0).sum(axis=1)
        _check(bool(np.all(positive > 0)), "paddle.io.WeightedRandomSampler: weights should have positive values")
        if not self.replacement:
            _check(bool(np.all(positive >= self.num_samples)),
                   "paddle.io.WeightedRandomSampler: the number of positive weights should not be less "
                   f"than num_samples ({self.num_samples}) when replacement=False")
        w = w / w.sum(axis=1, keepdims=True)  # in the weights' own dtype, as Paddle
        rows = [np.random.choice(w.shape[1], self.num_samples, self.replacement, row) for row in w]
        return iter(np.concatenate(rows).tolist())

    def __len__(self) -> int:
        shape = _weights_array(self.weights).shape
        _check(len(shape) > 0, "paddle.io.WeightedRandomSampler: weights should be a 1-D or 2-D array, but got 0-D",
               IndexError)
        return self.num_samples * int(np.prod(shape[:-1], dtype=np.int64))


class SubsetRandomSampler(Sampler):
    """The given indices, in a random order drawn from the framework generator (``paddle.seed``).

    Args:
        indices (list|tuple): the indices to sample; not empty.

    Examples:
        >>> from pagaie.io import SubsetRandomSampler
        >>> sorted(SubsetRandomSampler([7, 3, 5]))
        [3, 5, 7]
    """

    def __init__(self, indices: Sequence[int]) -> None:
        if len(indices) == 0:
            raise ValueError("paddle.io.SubsetRandomSampler: the length of `indices` should be greater than 0.")
        self.indices = indices

    def __iter__(self) -> Iterator[int]:
        import pagaie
        for i in pagaie.randperm(len(self.indices)).tolist():  # Paddle's draw
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler):
    """Group the indices of a sampler into lists of ``batch_size``.

    Give either a ``dataset`` (then indices are sequential, or shuffled with ``shuffle``) or a
    ``sampler`` (any iterable of indices).

    Args:
        dataset (Dataset, optional): a map-style dataset to sample.
        sampler (Sampler|Iterable, optional): the index source, instead of ``dataset``.
        shuffle (bool, optional): shuffle the dataset's indices (only with ``dataset``). Default: False.
        batch_size (int, optional): indices per batch. Default: 1.
        drop_last (bool, optional): drop a last, incomplete batch. Default: False.

    Examples:
        >>> from pagaie.io import BatchSampler, SequenceSampler
        >>> list(BatchSampler(range(5), batch_size=2))
        [[0, 1], [2, 3], [4]]
        >>> bs = BatchSampler(sampler=SequenceSampler(range(5)), batch_size=2, drop_last=True)
        >>> list(bs), len(bs)
        ([[0, 1], [2, 3]], 2)
    """

    def __init__(self, dataset: Sized | None = None, sampler: Iterable[int] | None = None, shuffle: bool = False,
                 batch_size: int = 1, drop_last: bool = False) -> None:
        if dataset is None:
            _check(sampler is not None, "paddle.io.BatchSampler: either dataset or sampler should be set")
            # A Tensor is not an Iterable in Paddle's sense (it defines no ``__iter__`` there).
            _check(isinstance(sampler, (Sampler, Iterable)) and not isinstance(sampler, (Tensor, torch.Tensor)),
                   "paddle.io.BatchSampler: sampler should be either paddle.io.Sampler or Iterable, but got "
                   f"{type(sampler)}")
            _check(not shuffle, "paddle.io.BatchSampler: shuffle should be False when sampler is set")
            self.sampler = sampler
        else:
            _check(not isinstance(dataset, IterableDataset),
                   "paddle.io.BatchSampler: dataset should not be a paddle.io.IterableDataset")
            _check(sampler is None, "paddle.io.BatchSampler: should not set both dataset and sampler")
            _check(isinstance(shuffle, bool), "paddle.io.BatchSampler: shuffle should be a boolean value, "
                   f"but got {type(shuffle)}")
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        _check(isinstance(batch_size, int) and batch_size > 0,
               f"paddle.io.BatchSampler: batch_size should be a positive integer, but got {batch_size}")
        _check(isinstance(drop_last, bool), "paddle.io.BatchSampler: drop_last should be a boolean value, "
               f"but got {type(drop_last)}")
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self._acc_steps = 1

    def __iter__(self) -> Iterator[list[int]]:
        size = self.batch_size * self._acc_steps
        batch: list[int] = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        size = self.batch_size * self._acc_steps
        n = len(self.sampler)  # type: ignore[arg-type]
        return n // size if self.drop_last else (n + size - 1) // size


class _InfiniteIterableSampler(Sampler):
    """Batches of ``batch_size`` placeholders, forever: the batch sampler of an IterableDataset."""

    def __init__(self, dataset: IterableDataset, batch_size: int = 1) -> None:
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self) -> Iterator[list[None]]:
        while True:
            yield [None] * self.batch_size


class DistributedBatchSampler(BatchSampler):
    """A batch sampler giving each of ``num_replicas`` processes its own share of the dataset.

    The index list is padded (repeating it from the start) to a multiple of
    ``num_replicas``, optionally shuffled with a seed equal to the epoch, and dealt out to the
    ranks batch by batch, so that every rank sees the same number of samples.

    Args:
        dataset (Dataset): the map-style dataset.
        batch_size (int): samples per batch on each rank.
        num_replicas (int, optional): the number of processes; from the environment
            (``PADDLE_TRAINERS_NUM``, 1 when unset) when None.
        rank (int, optional): this process's rank; from ``PADDLE_TRAINER_ID`` (0 when unset) when None.
        shuffle (bool, optional): shuffle each epoch. Default: False.
        drop_last (bool, optional): drop a last, incomplete batch. Default: False.

    Examples:
        >>> from pagaie.io import DistributedBatchSampler
        >>> list(DistributedBatchSampler(range(11), batch_size=2, num_replicas=3, rank=1))
        [[2, 3], [8, 9]]
    """

    def __init__(self, dataset: Sized, batch_size: int, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = False, drop_last: bool = False) -> None:
        self.dataset = dataset
        _check(isinstance(batch_size, int) and batch_size > 0,
               f"paddle.io.DistributedBatchSampler: batch_size should be a positive integer, but got {batch_size}")
        _check(isinstance(shuffle, bool), "paddle.io.DistributedBatchSampler: shuffle should be a boolean value")
        _check(isinstance(drop_last, bool), "paddle.io.DistributedBatchSampler: drop_last should be a boolean")
        if num_replicas is not None:
            _check(isinstance(num_replicas, int) and num_replicas > 0,
                   f"paddle.io.DistributedBatchSampler: num_replicas should be a positive integer, got {num_replicas}")
        else:
            num_replicas = int(os.getenv("PADDLE_TRAINERS_NUM", "1"))
        if rank is not None:
            _check(isinstance(rank, int) and rank >= 0,
                   f"paddle.io.DistributedBatchSampler: rank should be a non-negative integer, got {rank}")
        else:
            rank = int(os.getenv("PADDLE_TRAINER_ID", "0"))
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.nranks = num_replicas
        self.local_rank = rank
        self.epoch = 0
        self.num_samples = int(math.ceil(len(dataset) / self.nranks))
        self.total_size = self.num_samples * self.nranks
        self._acc_steps = 1

    def _rank_indices(self) -> list[int]:
        n = len(self.dataset)
        indices = list(range(n))
        pad = self.total_size - n
        indices += (indices * math.ceil(pad / n))[:pad] if pad > n else indices[:pad]
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks == 1:
            return indices
        # Whole rounds of nranks * batch_size go batch by batch; the remainder is split evenly.
        b, r = self.batch_size, self.nranks
        tail = self.total_size % (b * r)
        mine: list[int] = []
        for start in range(self.local_rank * b, len(indices) - tail, b * r):
            mine.extend(indices[start:start + b])
        share = tail // r
        rest = indices[len(indices) - tail:]
        mine.extend(rest[self.local_rank * share:(self.local_rank + 1) * share])
        _check(len(mine) == self.num_samples,
               f"paddle.io.DistributedBatchSampler: rank {self.local_rank} gets {len(mine)} samples instead of "
               f"{self.num_samples}; rank must be less than num_replicas ({self.nranks})")
        return mine

    def __iter__(self) -> Iterator[list[int]]:
        size = self.batch_size * self._acc_steps
        batch: list[int] = []
        for idx in self._rank_indices():
            batch.append(idx)
            if len(batch) == size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        size = self.batch_size * self._acc_steps
        return self.num_samples // size if self.drop_last else (self.num_samples + size - 1) // size

    def set_epoch(self, epoch: int) -> None:
        """Set the epoch, the seed of the next shuffle (call it before each epoch so that every
        rank shuffles alike).

        Args:
            epoch (int): the epoch number.

        Examples:
            >>> from pagaie.io import DistributedBatchSampler
            >>> s = DistributedBatchSampler(range(8), batch_size=2, shuffle=True)
            >>> s.set_epoch(3)
            >>> first = list(s)
            >>> s.set_epoch(3)
            >>> list(s) == first
            True
        """
        self.epoch = epoch
