"""paddle.io: datasets, samplers and the DataLoader.

    >>> from pagaie.io import TensorDataset, DataLoader
    >>> import pagaie as paddle
    >>> ds = TensorDataset([paddle.arange(6, dtype='float32').reshape([3, 2]), paddle.arange(3)])
    >>> [y.tolist() for x, y in DataLoader(ds, batch_size=2)]
    [[0, 1], [2]]
"""
from pagaie.io.dataset import (  # noqa: F401
    ChainDataset, ComposeDataset, ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split,
)
from pagaie.io.sampler import (  # noqa: F401
    BatchSampler, DistributedBatchSampler, RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler,
    WeightedRandomSampler,
)
from pagaie.io.worker import get_worker_info  # noqa: F401
from pagaie.io.dataloader import DataLoader  # noqa: F401

# Paddle's module paths, for code that imports from them (``from paddle.io.dataloader.collate
# import default_collate_fn``): ``paddle.io.dataloader`` is a package there, ``paddle.io.reader``
# holds the DataLoader.
import sys as _sys  # noqa: E402

from pagaie.io import collate as _collate, dataloader as _dataloader, dataset as _dataset  # noqa: E402
from pagaie.io import sampler as _sampler, worker as _worker  # noqa: E402

for _name, _mod in (("collate", _collate), ("dataset", _dataset), ("sampler", _sampler),
                    ("batch_sampler", _sampler), ("worker", _worker)):
    setattr(_dataloader, _name, _mod)
    _sys.modules.setdefault(f"{__name__}.dataloader.{_name}", _mod)
# ``paddle.io.dataloader`` also re-exports the datasets, samplers and helpers themselves.
for _name in ("Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "ConcatDataset",
              "Subset", "random_split", "Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
              "SubsetRandomSampler", "BatchSampler", "DistributedBatchSampler", "get_worker_info"):
    setattr(_dataloader, _name, globals()[_name])
_dataloader.__path__ = []  # type: ignore[attr-defined]  # importable as a package, as in Paddle
reader = _dataloader
_sys.modules.setdefault(f"{__name__}.reader", _dataloader)
del _name, _mod

__all__: list[str] = [
    "Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "ConcatDataset", "Subset",
    "random_split", "Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler",
    "BatchSampler", "DistributedBatchSampler", "get_worker_info", "DataLoader",
]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = []
