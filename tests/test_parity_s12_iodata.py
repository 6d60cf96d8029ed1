"""Session-12 paddle.io sweep against real Paddle 3.3.1: datasets generic in their sample type,
default_collate_fn on Tensors of different shapes, WeightedRandomSampler on 0-D weights, and
DataLoader's ``places`` / ``pin_memory`` attributes."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception


def _collate(fw):
    return importlib.import_module("pagaie.io.collate" if fw is pagaie else "paddle.io.dataloader.collate")


@pytest.mark.parametrize("name", ["Dataset", "IterableDataset", "Subset", "ConcatDataset", "ComposeDataset",
                                  "Sampler", "TensorDataset", "ChainDataset", "BatchSampler", "RandomSampler"])
def test_dataset_classes_subscript_like_paddle(name):
    """Dataset, IterableDataset, Subset, ConcatDataset, ComposeDataset and Sampler are generic
    (``Dataset[int]``); the concrete samplers, TensorDataset and ChainDataset are not (TypeError)."""
    def fn(fw):
        cls = getattr(fw.io, name)
        try:
            cls[int]
        except TypeError:
            return "TypeError"
        return len(cls.__parameters__)
    ours, theirs = both(fn)
    assert ours == theirs


def test_subclass_of_a_subscripted_dataset_loads():
    """``class D(paddle.io.Dataset[tuple])`` is a normal map-style dataset."""
    def fn(fw):
        class D(fw.io.Dataset[tuple]):
            def __len__(self):
                return 3

            def __getitem__(self, i):
                return np.array([i], "float32"), i
        return [[x.numpy().tolist(), y.numpy().tolist()] for x, y in fw.io.DataLoader(D(), batch_size=2)]
    ours, theirs = both(fn)
    assert ours == theirs


def test_collate_tensors_of_different_shapes_is_value_error():
    """default_collate_fn stacks Tensor fields; different shapes raise ValueError."""
    err = same_exception(lambda fw: _collate(fw).default_collate_fn([fw.to_tensor([1.0]), fw.to_tensor([1.0, 2.0])]))
    assert "default_collate_fn" in str(err) and "[2]" in str(err)
    same_exception(lambda fw: _collate(fw).default_collate_fn(
        [(fw.zeros([2, 3]), 1), (fw.zeros([3, 2]), 2)]))


@pytest.mark.parametrize("use", ["iter", "len"])
def test_weighted_sampler_zero_d_weights_is_index_error(use):
    """0-D weights fail when read (iter or len) with IndexError."""
    def fn(fw):
        s = fw.io.WeightedRandomSampler(np.array(1.0), 2)
        return list(s) if use == "iter" else len(s)
    same_exception(fn)


@pytest.mark.parametrize("places", [None, "cpu", "place", ["cpu"], ("place",)])
def test_dataloader_places_is_a_list_of_places(places):
    """``loader.places`` is a list of Place objects whatever form ``places`` was given in, and
    ``pin_memory`` is True in dynamic mode."""
    def fn(fw):
        def conv(p):
            return fw.CPUPlace() if p == "place" else p
        arg = type(places)(conv(p) for p in places) if isinstance(places, (list, tuple)) else conv(places)
        loader = fw.io.DataLoader([np.ones(1, "float32")] * 3, places=arg)
        return [repr(p) for p in loader.places], loader.pin_memory, [b.numpy().tolist() for b in loader]
    ours, theirs = both(fn)
    assert ours == theirs


def test_dataloader_places_are_places():
    """Each element of ``loader.places`` is a Place (``is_cpu_place`` works on it)."""
    ref = paddle_ref()
    for fw in (pagaie, ref):
        (place,) = fw.io.DataLoader([1], places=fw.CPUPlace()).places
        assert place.is_cpu_place()


@pytest.mark.parametrize("name", ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
                                  "ConcatDataset", "Subset", "random_split", "Sampler", "SequenceSampler",
                                  "RandomSampler", "WeightedRandomSampler", "SubsetRandomSampler", "BatchSampler",
                                  "DistributedBatchSampler", "get_worker_info"])
def test_dataloader_module_reexports_the_public_names(name):
    """``paddle.io.dataloader`` re-exports each public dataset, sampler and helper of paddle.io."""
    ref = paddle_ref()
    assert getattr(ref.io.dataloader, name) is getattr(ref.io, name)
    mod = importlib.import_module("pagaie.io.dataloader")
    assert getattr(mod, name) is getattr(pagaie.io, name)
