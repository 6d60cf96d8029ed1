"""paddle.io datasets and samplers against real Paddle 3.3.1."""
import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception


def _idx(sampler):
    return [list(b) if isinstance(b, list) else b for b in sampler]


# ---- deterministic samplers: the very same indices ----------------------------------------
@pytest.mark.parametrize("n,bs,drop", [(10, 3, False), (10, 3, True), (9, 3, False), (1, 4, False), (7, 1, True)])
def test_batch_sampler_same_as_paddle(n, bs, drop):
    ref = paddle_ref()
    for make in (lambda io: io.BatchSampler(list(range(n)), batch_size=bs, drop_last=drop),
                 lambda io: io.BatchSampler(sampler=io.SequenceSampler(list(range(n))), batch_size=bs,
                                            drop_last=drop),
                 lambda io: io.BatchSampler(sampler=range(n), batch_size=bs, drop_last=drop)):
        ours, theirs = make(pagaie.io), make(ref.io)
        assert _idx(ours) == _idx(theirs)
        assert len(ours) == len(theirs)
    assert list(pagaie.io.SequenceSampler(range(n))) == list(ref.io.SequenceSampler(range(n)))


@pytest.mark.parametrize("n", [11, 12, 5])
@pytest.mark.parametrize("bs,nranks", [(2, 3), (3, 2), (4, 1), (1, 4)])
@pytest.mark.parametrize("shuffle,drop", [(False, False), (True, False), (True, True)])
def test_distributed_batch_sampler_same_as_paddle(n, bs, nranks, shuffle, drop):
    ref = paddle_ref()
    for rank in range(nranks):
        ours = pagaie.io.DistributedBatchSampler(list(range(n)), bs, num_replicas=nranks, rank=rank,
                                                 shuffle=shuffle, drop_last=drop)
        theirs = ref.io.DistributedBatchSampler(list(range(n)), bs, num_replicas=nranks, rank=rank,
                                                shuffle=shuffle, drop_last=drop)
        for _ in range(2):  # two epochs: the shuffle seed advances
            assert _idx(ours) == _idx(theirs)
        assert len(ours) == len(theirs)
        ours.set_epoch(7)
        theirs.set_epoch(7)
        assert _idx(ours) == _idx(theirs)


def test_distributed_batch_sampler_default_single_process():
    s = pagaie.io.DistributedBatchSampler(list(range(5)), 2)
    assert (s.nranks, s.local_rank) == (1, 0)
    assert _idx(s) == [[0, 1], [2, 3], [4]]


# ---- random samplers ----------------------------------------------------------------------
@pytest.mark.parametrize("kw", [{}, {"replacement": True}, {"replacement": True, "num_samples": 25},
                                {"num_samples": 4}])
def test_random_sampler_same_as_paddle_under_numpy_seed(kw):
    ref = paddle_ref()
    np.random.seed(5)
    ours = list(pagaie.io.RandomSampler(list(range(10)), **kw))
    np.random.seed(5)
    theirs = list(ref.io.RandomSampler(list(range(10)), **kw))
    assert ours == theirs
    assert len(pagaie.io.RandomSampler(list(range(10)), **kw)) == len(theirs)


def test_random_sampler_permutation_and_generator():
    s = list(pagaie.io.RandomSampler(list(range(50))))
    assert sorted(s) == list(range(50)) and s != list(range(50))
    assert list(pagaie.io.RandomSampler(list(range(8)), generator=iter([3, 1, 2]))) == [3, 1, 2]
    assert list(pagaie.io.RandomSampler(list(range(8)), num_samples=2, generator=iter([3, 1, 2]))) == [3, 1]
    g = pagaie.Generator()
    g.manual_seed(9)
    a = list(pagaie.io.RandomSampler(list(range(8)), generator=g))
    g.manual_seed(9)
    assert list(pagaie.io.RandomSampler(list(range(8)), generator=g)) == a and sorted(a) == list(range(8))
    assert len(list(pagaie.io.RandomSampler(list(range(3)), True, 10, generator=g))) == 10


def test_weighted_random_sampler():
    ref = paddle_ref()
    w = np.array([0.1, 0.0, 0.6, 0.3])
    np.random.seed(1)
    ours = list(pagaie.io.WeightedRandomSampler(w, 20))
    np.random.seed(1)
    assert ours == list(ref.io.WeightedRandomSampler(w, 20))
    assert len(pagaie.io.WeightedRandomSampler(w, 20)) == len(ref.io.WeightedRandomSampler(w, 20)) == 20
    # statistics: frequencies follow the weights, zero weight never drawn
    draws = np.array(list(pagaie.io.WeightedRandomSampler(pagaie.to_tensor(w), 20000)))
    freq = np.bincount(draws, minlength=4) / draws.size
    np.testing.assert_allclose(freq, w, atol=0.02)
    assert freq[1] == 0
    no_rep = list(pagaie.io.WeightedRandomSampler([1.0, 1.0, 2.0, 0.0], 3, replacement=False))
    assert sorted(no_rep) == [0, 1, 2]
    assert len(pagaie.io.WeightedRandomSampler([1.0, 2.0], 5)) == 5
    with pytest.raises(AssertionError):
        list(pagaie.io.WeightedRandomSampler([1.0, 0.0], 2, replacement=False))


def test_subset_random_sampler_seeded_permutation():
    idx = [4, 9, 2, 7, 5]
    pagaie.seed(3)
    a = list(pagaie.io.SubsetRandomSampler(idx))
    pagaie.seed(3)
    assert list(pagaie.io.SubsetRandomSampler(idx)) == a
    assert sorted(a) == sorted(idx)
    assert len(pagaie.io.SubsetRandomSampler(idx)) == 5


def test_random_split():
    ref = paddle_ref()
    for lengths in ([3, 7], [0.3, 0.7], [0.33, 0.33, 0.34], [0.5, 0.5], [10]):
        ours = pagaie.io.random_split(list(range(10)), lengths)
        theirs = ref.io.random_split(list(range(10)), lengths)
        assert [len(s) for s in ours] == [len(s) for s in theirs]
        assert sorted(x for s in ours for x in s) == list(range(10))
        assert all(isinstance(s, pagaie.io.Subset) for s in ours)
    pagaie.seed(11)
    a = [list(s) for s in pagaie.io.random_split(range(20), [5, 15])]
    pagaie.seed(11)
    assert [list(s) for s in pagaie.io.random_split(range(20), [5, 15])] == a
    g = pagaie.Generator()
    g.manual_seed(4)
    b = [list(s) for s in pagaie.io.random_split(range(20), [5, 15], generator=g)]
    g.manual_seed(4)
    assert [list(s) for s in pagaie.io.random_split(range(20), [5, 15], generator=g)] == b


# ---- datasets -----------------------------------------------------------------------------
class _Pairs:
    """A map-style dataset built on either framework's Dataset."""

    @staticmethod
    def make(io, n=5):
        class Pairs(io.Dataset):
            def __len__(self):
                return n

            def __getitem__(self, i):
                return np.full([2], i, "float32"), i
        return Pairs()


def test_composite_datasets_same_as_paddle():
    ref = paddle_ref()

    def check(fn):
        ours, theirs = fn(pagaie), fn(ref)
        assert len(ours) == len(theirs)
        for i in list(range(len(theirs))) + [-1]:
            a, b = ours[i], theirs[i]
            assert type(a) is type(b) and len(a) == len(b)
            for x, y in zip(a, b):
                np.testing.assert_array_equal(np.asarray(x), np.asarray(y))

    check(lambda p: p.io.ComposeDataset([_Pairs.make(p.io), _Pairs.make(p.io)]))
    check(lambda p: p.io.ConcatDataset([_Pairs.make(p.io, 3), _Pairs.make(p.io, 4)]))
    check(lambda p: p.io.Subset(_Pairs.make(p.io), [4, 0, 2]))
    check(lambda p: p.io.TensorDataset([p.to_tensor(np.arange(12.0).reshape(4, 3)), p.arange(4)]))


def test_chain_and_iterable_dataset():
    io = pagaie.io

    class Count(io.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            yield from range(self.n)

    assert [x for x in io.ChainDataset([Count(2), Count(3)])] == [0, 1, 0, 1, 2]
    td = io.TensorDataset([pagaie.ones([3, 2]), pagaie.arange(3)])
    x, y = td[2]
    assert isinstance(x, pagaie.Tensor) and x.shape == [2] and int(y) == 2


@pytest.mark.parametrize("fn", [
    lambda p: p.io.ConcatDataset([]),
    lambda p: p.io.ConcatDataset([_Pairs.make(p.io)])[-7],
    lambda p: p.io.ComposeDataset([_Pairs.make(p.io, 5), _Pairs.make(p.io, 4)]),
    lambda p: p.io.Dataset()[0],
    lambda p: len(p.io.Dataset()),
    lambda p: len(p.io.IterableDataset()),
    lambda p: p.io.IterableDataset()[0],
    lambda p: p.io.random_split(list(range(5)), [2, 2]),
    lambda p: p.io.RandomSampler([1], num_samples=3),
    lambda p: p.io.RandomSampler([1], replacement=1),
    lambda p: p.io.SubsetRandomSampler([]),
    lambda p: p.io.WeightedRandomSampler([1.0], 0),
    lambda p: p.io.BatchSampler(),
    lambda p: p.io.BatchSampler(list(range(3)), batch_size=0),
    lambda p: p.io.BatchSampler(list(range(3)), sampler=[0, 1]),
    lambda p: p.io.DistributedBatchSampler(list(range(3)), 0),
    lambda p: p.io.DistributedBatchSampler(list(range(3)), 2, num_replicas=0),
])
def test_errors_same_type_as_paddle(fn):
    same_exception(fn)


def test_public_names():
    ref = paddle_ref()
    assert sorted(pagaie.io.__all__) == sorted(ref.io.__all__)
    assert pagaie.io.get_worker_info() is None
