"""Session-8 paddle.io sweep: differences from real Paddle 3.3.1 found and fixed."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception


def _map_ds(fw, n=10):
    class D(fw.io.Dataset):
        def __len__(self):
            return n

        def __getitem__(self, i):
            info = fw.io.get_worker_info()
            return np.array([i], "int64"), (-1 if info is None else info.id)
    return D()


def _iter_ds(fw, n=7):
    class I(fw.io.IterableDataset):
        def __iter__(self):
            return iter(np.array([i], "float32") for i in range(n))
    return I()


@pytest.mark.parametrize("case", ["iterable_batched", "iterable_unbatched", "map_unbatched"])
def test_len_of_loader_iterator_without_batch_sampler_is_type_error(case):
    def fn(fw):
        ds = _iter_ds(fw) if case.startswith("iterable") else _map_ds(fw)
        return len(iter(fw.io.DataLoader(ds, batch_size=2 if case == "iterable_batched" else None)))
    same_exception(fn)


def test_len_of_loader_iterator_is_the_batch_samplers():
    ref = paddle_ref()
    for fw in (pagaie, ref):
        assert len(iter(fw.io.DataLoader(_map_ds(fw), batch_size=3))) == 4
        assert len(iter(fw.io.DataLoader(_map_ds(fw), batch_sampler=[[1], [2, 3]]))) == 2


def _worker_ids(fw):
    loader = fw.io.DataLoader(_map_ds(fw), batch_size=4, num_workers=2, persistent_workers=True)
    return [[int(b[1].numpy()[0]) for b in loader] for _ in range(2)]


def test_persistent_workers_round_robin_goes_on_across_epochs():
    ref = paddle_ref()
    ours, theirs = _worker_ids(pagaie), _worker_ids(ref)
    assert ours == theirs == [[0, 1, 0], [1, 0, 1]]
