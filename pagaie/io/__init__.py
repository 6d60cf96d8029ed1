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

__all__: list[str] = [
    "Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset", "ConcatDataset", "Subset",
    "random_split", "Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler",
    "BatchSampler", "DistributedBatchSampler", "get_worker_info", "DataLoader",
]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = []
