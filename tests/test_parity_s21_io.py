"""Session-21: paddle.io against real Paddle 3.3.1 (datasets, samplers, random_split, collate and
DataLoader batches; bad arguments raise Paddle's exception types). DataLoader cases where Paddle's
own loader hangs or drops batches (a collate error, a batch without arrays) are left out."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception, static_mode

pytest.importorskip("paddle")


def _ds(P, items):
    class D(P.io.Dataset):
        def __len__(self):
            return len(items)

        def __getitem__(self, i):
            return items[i]
    return D()


@pytest.mark.parametrize("weights", [["1", "2"], np.array(["1", "2"])])
def test_weighted_sampler_text_weights(weights):
    # Paddle's numpy comparison raises UFuncTypeError, a TypeError
    def run(P):
        with pytest.raises(TypeError) as info:
            list(P.io.WeightedRandomSampler(weights, 2))
        return str(info.value)
    ours, _ = both(run)
    assert "WeightedRandomSampler" in ours


def test_collate_arrays_of_different_shapes():
    exc = same_exception(lambda P: P.io.dataloader.collate.default_collate_fn([np.ones(2), np.ones(3)]))
    assert "(2,)" in str(exc) and "(3,)" in str(exc)


@pytest.mark.parametrize("kw", [dict(dataset=list(range(7)), batch_size=3), dict(sampler=range(5), batch_size=2),
                                dict(dataset=list(range(7)), batch_size=3, drop_last=True)])
def test_batch_sampler(kw):
    ours, theirs = both(lambda P: (list(P.io.BatchSampler(**kw)), len(P.io.BatchSampler(**kw))))
    assert ours == theirs


@pytest.mark.parametrize("kw", [dict(), dict(sampler=[1], shuffle=True), dict(dataset=[1], batch_size=2.0),
                                dict(dataset=[1], drop_last=1), dict(sampler=5)])
def test_batch_sampler_bad_arguments(kw):
    same_exception(lambda P: P.io.BatchSampler(**kw))


@pytest.mark.parametrize("kw", [dict(num_replicas=3, rank=1), dict(num_replicas=3, rank=2, drop_last=True),
                                dict(num_replicas=2, rank=1, shuffle=True)])
def test_distributed_batch_sampler(kw):
    def run(P):
        s = P.io.DistributedBatchSampler(list(range(11)), 2, **kw)
        return list(s), list(s), len(s), s.num_samples, s.total_size
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("lengths", [[3, 7], [0.3, 0.7], [0.33, 0.33, 0.34], [0.25] * 4])
def test_random_split_draws_as_paddle(lengths):
    def run(P):
        P.seed(3)
        return [list(s) for s in P.io.random_split(range(10), lengths)]
    ours, theirs = both(run)
    assert ours == theirs


@pytest.mark.parametrize("lengths", [[3, 6], [1.2, -0.2], [0.3, 0.6], [5.0, 5.0], [4, 6.0]])
def test_random_split_bad_lengths(lengths):
    exc = same_exception(lambda P: P.io.random_split(range(10), lengths))
    assert "random_split" in str(exc)


@pytest.mark.parametrize("name", ["tuple", "dict", "tensors", "numbers"])
def test_dataloader_batches(name):
    def items(P):
        return {"tuple": [(np.full([2], i, "float32"), i) for i in range(3)],
                "dict": [{"x": np.array([i], "int32"), "y": i + 0.5, "s": "q"} for i in range(3)],
                "tensors": [P.full([2], i, "float32") for i in range(3)],
                "numbers": [[True, 2, 2.5] for _ in range(3)]}[name]

    def run(P):
        out = [b for b in P.io.DataLoader(_ds(P, items(P)), batch_size=2)]
        return [[b[k] for k in sorted(b)] if isinstance(b, dict) else b for b in out]
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("kw", [dict(batch_size=0), dict(num_workers=-1), dict(timeout=-1), dict(prefetch_factor=0),
                                dict(batch_sampler=[[0]], batch_size=2), dict(shuffle=1)])
def test_dataloader_bad_arguments(kw):
    same_exception(lambda P: P.io.DataLoader(_ds(P, [np.ones(1)] * 3), **kw))


def test_get_worker_info_outside_workers():
    ours, theirs = both(lambda P: P.io.get_worker_info())
    assert ours is None and theirs is None


@pytest.mark.parametrize("places", [[], (), None, "cpu"])
def test_dataloader_places_attribute(places):
    ours, theirs = both(lambda P: [str(p) for p in P.io.DataLoader([1, 2], places=places).places])
    assert ours == theirs


def test_static_feed_dict_order():
    def run(P):
        with static_mode(P), P.static.program_guard(P.static.Program(), P.static.Program()):
            feeds = [P.static.data(n, [None, 1], "float32") for n in ("b", "a", "c")]
            samples = [(np.ones(1, "float32"), np.ones(1, "float32") * 2, np.ones(1, "float32") * 3)] * 2
            batches = list(P.io.DataLoader(_ds(P, samples), feed_list=feeds, return_list=False, batch_size=2))
            return [[(k, float(np.asarray(v)[0, 0])) for k, v in b[0].items()] for b in batches]
    ours, theirs = both(run)
    assert ours == theirs
