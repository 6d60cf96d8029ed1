"""Session-26: paddle.io and paddle.metric against real Paddle 3.3.1: DataLoader ``places``
given as a list (a None element, an empty list) and default_collate_fn over a numpy field
that some samples give as a Tensor."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception

pytest.importorskip("paddle")


def test_dataloader_places_list_with_none():
    same_exception(lambda P: P.io.DataLoader([np.ones(1, "float32")] * 2, places=[None]))


@pytest.mark.parametrize("places", [[], ()])
def test_dataloader_empty_places_fails_when_iterated(places):
    def run(P):
        loader = P.io.DataLoader([np.ones(1, "float32")] * 2, places=places)
        assert loader.places == []
        iter(loader)
    same_exception(run)


def test_collate_numpy_field_then_tensor():
    def run(P):
        out = P.io.dataloader.collate.default_collate_fn([np.zeros(2), P.ones([2])])
        return type(out).__name__, out.tolist()
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("lengths", ["tensor", "tensor_float", "tensor_list"])
def test_random_split_tensor_lengths(lengths):
    def run(P):
        arg = {"tensor": lambda: P.to_tensor([4, 6]), "tensor_float": lambda: P.to_tensor([4.0, 6.0]),
               "tensor_list": lambda: [P.to_tensor(4), P.to_tensor(6, "int32")]}[lengths]()
        P.seed(1)
        return [s.indices for s in P.io.random_split(range(10), arg)]
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_auc_tensor_num_thresholds(dtype):
    preds = np.array([[0.5, 0.5], [0.8, 0.2], [0.3, 0.7], [0.1, 0.9], [0.6, 0.4]])
    labels = np.array([1, 0, 1, 0, 0])

    def run(P):
        m = P.metric.Auc(num_thresholds=P.to_tensor(10, dtype))
        m.update(preds, labels)
        return float(m.accumulate()), m._stat_pos.tolist(), m._stat_neg.tolist()
    ours, theirs = both(run)
    assert ours == theirs


def test_batch_sampler_refuses_a_tensor_sampler():
    same_exception(lambda P: P.io.BatchSampler(sampler=P.to_tensor([3, 1, 2]), batch_size=2))
