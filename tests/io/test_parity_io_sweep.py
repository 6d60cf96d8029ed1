"""paddle.io parity sweep against real Paddle 3.3.1: collate details, WeightedRandomSampler's
argument types, Paddle's module paths, and DataLoader / sampler argument errors."""
import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception


def _collate_module(fw):
    return fw.io.dataloader.collate


def test_collate_keeps_string_fields_as_zip_gives_them():
    samples = [(np.array([i], "float32"), i, str(i)) for i in range(3)]
    ours, theirs = both(lambda fw: _collate_module(fw).default_collate_fn(samples))
    assert type(ours[2]) is type(theirs[2]) is tuple
    assert ours[2] == theirs[2]
    assert_same(ours[:2], theirs[:2])
    nested = [{"a": np.array([i], "int32"), "b": {"c": float(i), "d": (i, str(i))}} for i in range(3)]
    ours, theirs = both(lambda fw: _collate_module(fw).default_collate_fn(nested))
    assert type(ours["b"]["d"][1]) is type(theirs["b"]["d"][1]) is tuple
    assert_same([ours["a"], ours["b"]["c"], ours["b"]["d"][0]], [theirs["a"], theirs["b"]["c"], theirs["b"]["d"][0]])


def test_collate_tensors_keeps_stop_gradient():
    ours, theirs = both(lambda fw: _collate_module(fw).default_collate_fn(
        [fw.to_tensor([1.0], stop_gradient=False), fw.to_tensor([2.0], stop_gradient=False)]))
    assert ours.stop_gradient == theirs.stop_gradient
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", ["mixed_dtypes", "tensor_then_array"])
def test_collate_tensor_errors(case):
    def fn(fw):
        second = fw.to_tensor([2], dtype="int32") if case == "mixed_dtypes" else np.array([2.0], "float32")
        return _collate_module(fw).default_collate_fn([fw.to_tensor([1.0]), second])
    err = same_exception(fn)
    assert "default_collate_fn" in str(err)


def test_paddle_module_paths_import():
    import importlib
    for name in ("dataloader.collate", "dataloader.dataset", "dataloader.sampler", "dataloader.batch_sampler",
                 "dataloader.worker", "reader"):
        importlib.import_module("pagaie.io." + name)
    from pagaie.io.dataloader.batch_sampler import BatchSampler, DistributedBatchSampler
    from pagaie.io.dataloader.collate import default_collate_fn, default_convert_fn
    from pagaie.io.reader import DataLoader
    assert DataLoader is pagaie.io.DataLoader and BatchSampler is pagaie.io.BatchSampler
    assert DistributedBatchSampler is pagaie.io.DistributedBatchSampler
    assert default_convert_fn((1, ("a", 2))) == [1, ["a", 2]]
    assert default_collate_fn([1, 2]).tolist() == [1, 2]


def test_paddle_module_paths_through_compat():
    from pagaie import compat
    was = compat.is_installed()
    compat.install()
    try:
        import importlib
        mod = importlib.import_module("paddle.io.dataloader.collate")
        assert mod.default_collate_fn is pagaie.io.collate.default_collate_fn
    finally:
        if not was:
            compat.uninstall()


@pytest.mark.parametrize("weights", ["abc", {0: 1.0}, 3])
def test_weighted_sampler_weight_types(weights):
    def fn(fw):
        return list(iter(fw.io.WeightedRandomSampler(weights, 2)))
    err = same_exception(fn)
    assert "weights" in str(err)


def test_weighted_sampler_numpy_matches_paddle_under_numpy_seed():
    def fn(fw):
        np.random.seed(2)
        s = fw.io.WeightedRandomSampler(np.array([0.1, 0.2, 0.3, 0.4]), 6)
        return list(iter(s)), len(s)
    ours, theirs = both(fn)
    assert ours == theirs


def test_weighted_sampler_accepts_tensors_and_lists():
    # Paddle 3.3.1 rejects a paddle.Tensor (its type check looks for a DenseTensor) and
    # its len() fails on a list; pagaie takes both as documented.
    np.random.seed(3)
    a = list(iter(pagaie.io.WeightedRandomSampler(pagaie.to_tensor([0.0, 1.0, 0.0]), 4)))
    b = pagaie.io.WeightedRandomSampler([0.0, 2.0, 1.0], 5)
    assert a == [1, 1, 1, 1] and len(b) == 5 and set(b) <= {1, 2}


@pytest.mark.parametrize("kw", [
    dict(batch_size=0), dict(batch_size=-1), dict(batch_size=2.0), dict(shuffle=1), dict(batch_size=2, drop_last=1),
    dict(num_workers=-1), dict(prefetch_factor=0), dict(timeout=-1), dict(batch_sampler=[[0]], batch_size=2),
    dict(batch_sampler=[[0]], shuffle=True), dict(batch_sampler=[[0]], drop_last=True),
    dict(batch_sampler=[[0]], batch_size=None),
])
def test_dataloader_argument_errors(kw):
    data = [np.float32(i) for i in range(4)]
    same_exception(lambda fw: list(fw.io.DataLoader(data, **kw)))


@pytest.mark.parametrize("kw", [dict(shuffle=True), dict(batch_sampler=[[0]])])
def test_iterable_dataset_argument_errors(kw):
    def fn(fw):
        class Stream(fw.io.IterableDataset):
            def __iter__(self):
                yield np.zeros(1)
        return fw.io.DataLoader(Stream(), **kw)
    same_exception(fn)


def test_len_and_batches_for_map_and_iterable():
    def fn(fw):
        class Stream(fw.io.IterableDataset):
            def __iter__(self):
                for i in range(7):
                    yield np.array([i], "float32"), i
        data = [(np.array([i], "float32"), np.array(i % 3)) for i in range(7)]
        lens = [len(fw.io.DataLoader(data, batch_size=b, drop_last=d)) for b in (1, 3, 7, 8) for d in (False, True)]
        lens.append(len(fw.io.DataLoader(data, batch_size=None)))
        it_batches = [b for b in fw.io.DataLoader(Stream(), batch_size=3, drop_last=True)]
        return lens, it_batches
    (ol, ob), (tl, tb) = both(fn)
    assert ol == tl
    assert_same(ob, tb)
    with pytest.raises(ValueError):
        len(pagaie.io.DataLoader(_stream(), batch_size=2))


def _stream():
    class Stream(pagaie.io.IterableDataset):
        def __iter__(self):
            yield np.zeros(1)
    return Stream()


def test_unbatched_samples_with_arrays_match_paddle():
    samples = [{"a": np.array([i], "int32"), "b": {"c": float(i), "d": (i, str(i))}} for i in range(3)]

    def fn(fw):
        out = [b for b in fw.io.DataLoader(samples, batch_size=None)]
        return [(o["a"], o["b"]["c"], o["b"]["d"]) for o in out]
    ours, theirs = both(fn)
    for (oa, oc, od), (ta, tc, td) in zip(ours, theirs):
        assert_same(oa, ta)
        assert oc == tc and od == td and type(od) is type(td) is list


@pytest.mark.parametrize("kw", [dict(batch_size=0), dict(batch_size=1.0), dict(batch_size=2, num_replicas=0),
                                dict(batch_size=2, rank=-1), dict(batch_size=2, shuffle=1),
                                dict(batch_size=2, drop_last=1)])
def test_distributed_batch_sampler_argument_errors(kw):
    same_exception(lambda fw: fw.io.DistributedBatchSampler(range(5), **kw))


@pytest.mark.parametrize("ctor", ["compose_empty", "compose_iterable", "chain_map", "concat_empty", "concat_iterable"])
def test_dataset_combinator_errors(ctor):
    def fn(fw):
        class Stream(fw.io.IterableDataset):
            def __iter__(self):
                yield 1
        return {"compose_empty": lambda: fw.io.ComposeDataset([]),
                "compose_iterable": lambda: fw.io.ComposeDataset([Stream()]),
                "chain_map": lambda: fw.io.ChainDataset([fw.io.Subset([1], [0])]),
                "concat_empty": lambda: fw.io.ConcatDataset([]),
                "concat_iterable": lambda: fw.io.ConcatDataset([Stream()])}[ctor]()
    same_exception(fn)


def test_random_split_fractions_and_reproducibility():
    def fn(fw):
        out = []
        for lengths in ([0.33, 0.33, 0.34], [0.05, 0.95], [0.5, 0.5], (2, 8)):
            fw.seed(3)
            parts = fw.io.random_split(range(10), lengths)
            out.append([len(p) for p in parts])
            assert sorted(sum([list(p) for p in parts], [])) == list(range(10))
        fw.seed(5)
        a = [list(p) for p in fw.io.random_split(range(10), [3, 7])]
        fw.seed(5)
        b = [list(p) for p in fw.io.random_split(range(10), [3, 7])]
        out.append(a == b)
        return out
    ours, theirs = both(fn)
    assert ours == theirs
    same_exception(lambda fw: fw.io.random_split(range(10), [0.3, 0.3]))
    same_exception(lambda fw: fw.io.random_split(range(10), [-0.5, 1.5]))
