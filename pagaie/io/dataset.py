"""Datasets: the map-style and iterable bases, and the ways of combining them."""
from __future__ import annotations

import bisect
import math
import numbers
import operator
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import torch
from typing_extensions import TypeVarTuple, Unpack  # in typing only from Python 3.11; torch needs it

from pagaie._core.tensor import Tensor

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split"]

# As in Paddle, the datasets are generic in their sample type (``Dataset[tuple[Tensor, int]]``).
_T = TypeVar("_T")
_Ts = TypeVarTuple("_Ts")


class Dataset(Generic[_T]):
    """A map-style dataset: ``len(dataset)`` samples, read by index with ``dataset[idx]``.

    Subclasses implement ``__getitem__`` and ``__len__``. A sample may be a numpy array, a
    number, a string, a Tensor, or a list / tuple / dict of those; :class:`DataLoader`
    batches each field separately.

    Examples:
        >>> import numpy as np
        >>> from pagaie.io import Dataset
        >>> class Squares(Dataset):
        ...     def __len__(self):
        ...         return 4
        ...     def __getitem__(self, idx):
        ...         return np.array([idx * idx], dtype='float32'), idx
        >>> ds = Squares()
        >>> len(ds), ds[3][1]
        (4, 3)
    """

    def __init__(self) -> None:
        pass

    def __getitem__(self, idx: int) -> Any:
        raise NotImplementedError(f"'__getitem__' not implement in class {type(self).__name__}")

    def __len__(self) -> int:
        raise NotImplementedError(f"'__len__' not implement in class {type(self).__name__}")


class IterableDataset(Dataset[_T]):
    """A dataset read as a stream: subclasses implement ``__iter__``.

    With ``num_workers > 0`` every worker process iterates its own copy of the dataset; use
    :func:`get_worker_info` inside ``__iter__`` to give each worker its own share.

    Examples:
        >>> from pagaie.io import IterableDataset, DataLoader
        >>> class Stream(IterableDataset):
        ...     def __iter__(self):
        ...         for i in range(5):
        ...             yield i
        >>> [b.tolist() for b in DataLoader(Stream(), batch_size=2)]
        [[0, 1], [2, 3], [4]]
    """

    def __init__(self) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError(f"'__iter__' not implement in class {type(self).__name__}")

    def __getitem__(self, idx: int) -> Any:
        raise RuntimeError(f"'__getitem__' should not be called for IterableDataset{type(self).__name__}")

    def __len__(self) -> int:
        raise RuntimeError(f"'__len__' should not be called for IterableDataset{type(self).__name__}")


class TensorDataset(Dataset[Any]):
    """A dataset over Tensors that share their first dimension: sample ``i`` is the tuple of
    each tensor's row ``i``.

    Args:
        tensors (list|tuple): the Tensors; all have the same size along axis 0.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.io import TensorDataset
        >>> ds = TensorDataset([paddle.zeros([3, 2]), paddle.arange(3)])
        >>> x, y = ds[1]
        >>> len(ds), x.shape, int(y)
        (3, paddle.Size([2]), 1)
    """

    def __init__(self, tensors: Sequence[Any]) -> None:
        from pagaie.static.framework import in_dynamic_mode
        if not in_dynamic_mode():
            raise RuntimeError("paddle.io.TensorDataset: can only be used in dynamic (imperative) mode")
        if not all(t.shape[0] == tensors[0].shape[0] for t in tensors):
            raise AssertionError("paddle.io.TensorDataset: 'tensors' must all have the same size "
                                 f"along axis 0, but got shapes {[list(t.shape) for t in tensors]}")
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


def _as_fields(sample: Any) -> list:
    return list(sample) if isinstance(sample, (list, tuple)) else [sample]


class ComposeDataset(Dataset[tuple[Unpack[_Ts]]]):
    """Zip map-style datasets of equal length: sample ``i`` concatenates the fields of every
    dataset's sample ``i`` into one tuple.

    Args:
        datasets (list[Dataset]): the datasets to combine.

    Examples:
        >>> from pagaie.io import ComposeDataset, Subset
        >>> a = Subset([10, 11, 12, 13], [0, 1, 2, 3])
        >>> b = Subset([(i, -i) for i in range(4)], [0, 1, 2, 3])
        >>> ComposeDataset([a, b])[2]
        (12, 2, -2)
    """

    def __init__(self, datasets: list[Dataset]) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("paddle.io.ComposeDataset: 'datasets' should not be empty")
        for i, ds in enumerate(self.datasets):
            if not isinstance(ds, Dataset):
                raise AssertionError("paddle.io.ComposeDataset: each dataset must be a paddle.io.Dataset, "
                                     f"but datasets[{i}] is {type(ds).__name__}")
            if isinstance(ds, IterableDataset):
                raise AssertionError("paddle.io.ComposeDataset: paddle.io.IterableDataset is not supported "
                                     f"(datasets[{i}])")
            if i > 0 and len(ds) != len(self.datasets[i - 1]):
                raise AssertionError("paddle.io.ComposeDataset: lengths of datasets should be same, but got "
                                     f"{[len(d) for d in self.datasets]}")

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx: int) -> tuple:
        sample: list = []
        for ds in self.datasets:
            sample.extend(_as_fields(ds[idx]))
        return tuple(sample)


class ChainDataset(IterableDataset[Any]):
    """Iterate several iterable datasets one after another.

    Args:
        datasets (list[IterableDataset]): the datasets to chain.

    Examples:
        >>> from pagaie.io import IterableDataset, ChainDataset
        >>> class Count(IterableDataset):
        ...     def __init__(self, n):
        ...         self.n = n
        ...     def __iter__(self):
        ...         yield from range(self.n)
        >>> [x for x in ChainDataset([Count(2), Count(3)])]
        [0, 1, 0, 1, 2]
    """

    def __init__(self, datasets: list[IterableDataset]) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("paddle.io.ChainDataset: 'datasets' should not be empty")
        for i, ds in enumerate(self.datasets):
            if not isinstance(ds, IterableDataset):
                raise AssertionError("paddle.io.ChainDataset: only paddle.io.IterableDataset is supported, "
                                     f"but datasets[{i}] is {type(ds).__name__}")

    def __iter__(self) -> Iterator[Any]:
        for ds in self.datasets:
            yield from ds


class Subset(Dataset[_T]):
    """The samples of ``dataset`` at ``indices``, in that order.

    Args:
        dataset (Dataset): the whole dataset.
        indices (list[int]): the indices to keep.

    Examples:
        >>> from pagaie.io import Subset
        >>> sub = Subset(['a', 'b', 'c', 'd'], indices=[3, 1])
        >>> len(sub), sub[0]
        (2, 'd')
    """

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: int) -> Any:
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


def _randperm(n: int, generator: Any = None) -> list[int]:
    """A permutation of ``0 .. n-1``: ``paddle.randperm(n)`` as Paddle draws it (so
    ``paddle.seed`` gives Paddle's order); a ``torch.Generator`` draws from itself instead."""
    if isinstance(generator, torch.Generator):
        return torch.randperm(n, generator=generator, device=generator.device).tolist()
    import pagaie
    return pagaie.randperm(n).tolist()


def random_split(dataset: Dataset, lengths: Sequence[int | float] | Tensor,
                 generator: Any | None = None) -> list[Subset]:
    """Split a dataset at random into non-overlapping :class:`Subset` s.

    Args:
        dataset (Dataset): the dataset to split.
        lengths (list|Tensor): the length of each split, as ints (or 0-D Tensors) summing to
            ``len(dataset)``, or as fractions summing to 1 (the remainder of the flooring is
            dealt out one by one from the first split).
        generator (Generator, optional): unused, as in Paddle: the permutation is
            ``paddle.randperm``'s, from the default generator (seeded by ``paddle.seed``); a
            ``torch.Generator`` is drawn from instead.

    Returns:
        list[Subset]: one Subset per length.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.io import random_split
        >>> _ = paddle.seed(2023)
        >>> a, b = random_split(range(10), [3, 7])
        >>> len(a), len(b), sorted(list(a) + list(b)) == list(range(10))
        (3, 7, True)
        >>> [len(s) for s in random_split(range(10), [0.33, 0.33, 0.34])]
        [4, 3, 3]
    """
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"paddle.io.random_split: fraction at index {i} is not between 0 and 1, "
                                 f"but received {frac}")
            sizes.append(int(math.floor(n * frac)))
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
        for i, size in enumerate(sizes):
            if size == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.")
        lengths = sizes
    # A 0-D Tensor length counts as its value, as in Paddle (a Tensor of lengths iterates into them).
    lengths = [operator.index(size) if isinstance(size, Tensor) and size.ndim == 0 else size for size in lengths]
    if sum(lengths) != n:
        raise ValueError("paddle.io.random_split: sum of input lengths does not equal the length of the "
                         f"input dataset: sum({list(lengths)}) != {n}")
    if not isinstance(sum(lengths), numbers.Integral):
        raise TypeError("paddle.io.random_split: lengths should be ints, or fractions summing to 1, but got "
                        f"{list(lengths)}")
    perm = _randperm(n, generator)
    out, offset = [], 0
    for size in lengths:
        out.append(Subset(dataset, perm[offset:offset + size]))
        offset += size
    return out


class ConcatDataset(Dataset[_T]):
    """Several map-style datasets end to end.

    Args:
        datasets (Iterable[Dataset]): the datasets to concatenate.

    Examples:
        >>> from pagaie.io import ConcatDataset, Subset
        >>> ds = ConcatDataset([Subset('abc', [0, 1, 2]), Subset('xy', [0, 1])])
        >>> len(ds), ds[3], ds[-1]
        (5, 'x', 'y')
    """

    @staticmethod
    def cumsum(sequence: Sequence[Any]) -> list[int]:
        """Running totals of the lengths of ``sequence``'s elements."""
        out, total = [], 0
        for e in sequence:
            total += len(e)
            out.append(total)
        return out

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("paddle.io.ConcatDataset: 'datasets' should not be an empty iterable")
        for i, ds in enumerate(self.datasets):
            if isinstance(ds, IterableDataset):
                raise AssertionError("paddle.io.ConcatDataset: IterableDataset is not supported "
                                     f"(datasets[{i}])")
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("paddle.io.ConcatDataset: absolute value of index should not exceed "
                                 f"dataset length {len(self)}, but received {idx}")
            idx += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]
