"""paddle.io.DataLoader: batches against real Paddle 3.3.1 (num_workers=0), and the worker
processes (same batches, errors, deaths, timeouts, persistence, iterable datasets)."""
import os
import signal
import time

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref


def _norm(x, tensor_type):
    """A comparable form of a batch: (kind, shape, dtype, values) for tensors."""
    if isinstance(x, tensor_type):
        return ("T", tuple(x.shape), str(x.dtype).replace("paddle.", ""), x.numpy().tolist())
    if isinstance(x, dict):
        return {k: _norm(v, tensor_type) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_norm(v, tensor_type) for v in x])
    return x


def _batches(p, loader):
    return [_norm(b, p.Tensor) for b in loader]


def _sample(kind, i, p):
    if kind == "tuple":
        return np.full([2, 3], i, "float32"), np.array([i]).astype("int64")
    if kind == "single":
        return np.full([2], i, "float64")
    if kind == "int":
        return i
    if kind == "float":
        return float(i) / 2
    if kind == "dict":
        return {"a": np.full([2], i, "float32"), "b": i, "c": [i, np.float32(i)], "s": f"n{i}"}
    if kind == "nested":
        return [np.full([2], i, "int32"), [i, i * 2], ("x", np.int64(i))]
    if kind == "tensor":
        return p.full([2], float(i)), i
    if kind == "npscalar":
        return np.int32(i), np.float64(i), True


def _dataset(io, kind, n=7, p=None):
    class D(io.Dataset):
        def __len__(self):
            return n

        def __getitem__(self, i):
            return _sample(kind, i, p)
    return D()


@pytest.mark.parametrize("kind", ["tuple", "single", "int", "float", "dict", "nested", "tensor", "npscalar"])
@pytest.mark.parametrize("bs,drop", [(3, False), (3, True), (None, False)])
def test_batches_same_as_paddle(kind, bs, drop):
    ref = paddle_ref()
    if bs is None and kind in ("int", "float", "npscalar"):
        pytest.skip("Paddle's reader yields nothing for batches without arrays")
    ours = _batches(pagaie, pagaie.io.DataLoader(_dataset(pagaie.io, kind, p=pagaie), batch_size=bs,
                                                 drop_last=drop))
    theirs = _batches(ref, ref.io.DataLoader(_dataset(ref.io, kind, p=ref), batch_size=bs, drop_last=drop))
    assert ours == theirs
    assert len(pagaie.io.DataLoader(_dataset(pagaie.io, kind), batch_size=bs, drop_last=drop)) == \
        len(ref.io.DataLoader(_dataset(ref.io, kind), batch_size=bs, drop_last=drop))


def test_shuffle_collate_fn_sampler_tensor_dataset_same_as_paddle():
    ref = paddle_ref()

    def run(p, **kw):
        np.random.seed(7)
        return _batches(p, p.io.DataLoader(_dataset(p.io, "tuple", n=10), **kw))

    assert run(pagaie, batch_size=4, shuffle=True) == run(ref, batch_size=4, shuffle=True)
    collate = lambda b: (np.stack([s[0] for s in b]), [int(s[1][0]) for s in b], "tag")  # noqa: E731
    assert run(pagaie, batch_size=4, collate_fn=collate) == run(ref, batch_size=4, collate_fn=collate)
    bs = lambda p: p.io.BatchSampler(sampler=[5, 1, 3, 2, 0], batch_size=2)  # noqa: E731
    assert run(pagaie, batch_sampler=bs(pagaie)) == run(ref, batch_sampler=bs(ref))

    def tds(p):
        x = p.to_tensor(np.arange(15, dtype="float32").reshape(5, 3), stop_gradient=False)
        return p.io.TensorDataset([x, p.arange(5)])
    ours = pagaie.io.DataLoader(tds(pagaie), batch_size=2)
    assert _batches(pagaie, ours) == _batches(ref, ref.io.DataLoader(tds(ref), batch_size=2))
    assert next(iter(ours))[0].stop_gradient


def _iterable(io, n=5, split=False):
    class It(io.IterableDataset):
        def __iter__(self):
            info = io.get_worker_info()
            lo, step = (info.id, info.num_workers) if (split and info is not None) else (0, 1)
            for i in range(lo, n, step):
                yield np.array([i]), i
    return It()


def test_iterable_dataset_same_as_paddle():
    ref = paddle_ref()
    for kw in ({"batch_size": 2}, {"batch_size": 2, "drop_last": True}, {"batch_size": None}):
        ours = [b for b in pagaie.io.DataLoader(_iterable(pagaie.io), **kw)]
        theirs = [b for b in ref.io.DataLoader(_iterable(ref.io), **kw)]
        assert [_norm(b, pagaie.Tensor) for b in ours] == [_norm(b, ref.Tensor) for b in theirs]


@pytest.mark.parametrize("fn", [
    lambda p: len(p.io.DataLoader(_iterable(p.io))),
    lambda p: p.io.DataLoader(_iterable(p.io), shuffle=True),
    lambda p: p.io.DataLoader(_dataset(p.io, "int"), batch_size=0),
    lambda p: p.io.DataLoader(_dataset(p.io, "int"), num_workers=-1),
    lambda p: p.io.DataLoader(_dataset(p.io, "int"), batch_size=2, batch_sampler=[[0, 1]]),
])
def test_errors_same_type_as_paddle(fn):
    from tests.reference import same_exception
    same_exception(fn)


def test_collate_errors():
    class Bad(pagaie.io.Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return [1, 2] if i % 2 else [1]
    with pytest.raises(RuntimeError, match="fields number"):
        next(iter(pagaie.io.DataLoader(Bad(), batch_size=2)))
    with pytest.raises(TypeError, match="batch data"):
        next(iter(pagaie.io.DataLoader([object(), object()], batch_size=2)))


# ---- worker processes -----------------------------------------------------------------------
class Big(pagaie.io.Dataset):
    """Large (shared memory) and small (pickled) arrays, numbers, strings and Tensors."""

    def __len__(self):
        return 23

    def __getitem__(self, i):
        return {"img": np.full([64, 64], i, "float32"), "lbl": i, "name": f"s{i}",
                "t": pagaie.to_tensor([i, -i]), "pair": (np.int16(i), [float(i)])}


@pytest.mark.parametrize("shm", [True, False])
def test_workers_give_the_same_batches(shm):
    base = _batches(pagaie, pagaie.io.DataLoader(Big(), batch_size=4))
    multi = pagaie.io.DataLoader(Big(), batch_size=4, num_workers=2, use_shared_memory=shm, prefetch_factor=3)
    assert _batches(pagaie, multi) == base
    assert len(multi) == 6
    one = pagaie.io.DataLoader(Big(), batch_size=None, num_workers=2)
    assert _batches(pagaie, one) == _batches(pagaie, pagaie.io.DataLoader(Big(), batch_size=None))


class Fails(pagaie.io.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            os.environ["PAGAIE_NEVER_SET"]  # KeyError inside the worker
        return np.array([i])


def test_worker_error_carries_traceback():
    loader = pagaie.io.DataLoader(Fails(), batch_size=2, num_workers=2)
    t0 = time.time()
    got = []
    with pytest.raises(KeyError) as info:
        for b in loader:
            got.append(b.numpy().ravel().tolist())
    assert time.time() - t0 < 10
    assert got == [[0, 1], [2, 3]]
    msg = str(info.value)
    assert "DataLoader worker(0)" in msg and "Traceback" in msg and "__getitem__" in msg
    assert "PAGAIE_NEVER_SET" in msg


def test_worker_init_error():
    def init(wid):
        raise ValueError(f"bad init {wid}")
    with pytest.raises(ValueError, match="bad init 0"):
        next(iter(pagaie.io.DataLoader(Big(), batch_size=2, num_workers=2, worker_init_fn=init)))


class Dies(pagaie.io.Dataset):
    def __init__(self, how):
        self.how = how

    def __len__(self):
        return 16

    def __getitem__(self, i):
        if i == 6:
            if self.how == "exit":
                os._exit(3)
            os.kill(os.getpid(), signal.SIGKILL)
        return np.array([i])


@pytest.mark.parametrize("how", ["exit", "kill"])
def test_worker_death_is_reported(how):
    loader = pagaie.io.DataLoader(Dies(how), batch_size=2, num_workers=2)
    t0 = time.time()
    it = iter(loader)
    with pytest.raises(RuntimeError, match="exited unexpectedly"):
        for _ in it:
            pass
    assert time.time() - t0 < 10
    assert not any(w.is_alive() for w in it._workers)


class Slow(pagaie.io.Dataset):
    def __init__(self, delay):
        self.delay = delay

    def __len__(self):
        return 4

    def __getitem__(self, i):
        time.sleep(self.delay)
        return np.array([i, os.getpid()])


def test_worker_killed_from_outside_and_slow_batch_with_timeout():
    it = iter(pagaie.io.DataLoader(Slow(0.3), batch_size=1, num_workers=2))
    next(it)
    os.kill(it._workers[1].pid, signal.SIGKILL)
    t0 = time.time()
    with pytest.raises(RuntimeError, match="exited unexpectedly"):
        for _ in it:
            pass
    assert time.time() - t0 < 5
    # As in Paddle, ``timeout`` does not end the wait for a batch slower than it.
    it = iter(pagaie.io.DataLoader(Slow(1.0), batch_size=1, num_workers=1, timeout=0.2))
    assert next(it).numpy()[0, 0] == 0
    it._shutdown()
    assert not any(w.is_alive() for w in it._workers)


def test_persistent_workers():
    loader = pagaie.io.DataLoader(Slow(0.0), batch_size=1, num_workers=2, persistent_workers=True)
    first = [b.numpy()[0].tolist() for b in loader]
    it = loader._iterator
    pids = {w.pid for w in it._workers}
    assert {b[1] for b in first} == pids and [b[0] for b in first] == [0, 1, 2, 3]
    for _ in loader:  # stop an epoch early: stale batches must not leak into the next one
        break
    again = [b.numpy()[0].tolist() for b in loader]
    assert [b[0] for b in again] == [0, 1, 2, 3] and {b[1] for b in again} == pids
    assert loader._iterator is it and all(w.is_alive() for w in it._workers)
    it._shutdown()
    assert not any(w.is_alive() for w in it._workers)
    # non-persistent workers are gone once the epoch ends
    plain = iter(pagaie.io.DataLoader(Slow(0.0), batch_size=2, num_workers=2))
    list(plain)
    assert not any(w.is_alive() for w in plain._workers)


def test_iterable_dataset_with_workers():
    split = pagaie.io.DataLoader(_iterable(pagaie.io, n=9, split=True), batch_size=2, num_workers=2)
    got = sorted(v for b in split for v in b[1].tolist())
    assert got == list(range(9))
    # without splitting, each worker streams its own full copy
    dup = pagaie.io.DataLoader(_iterable(pagaie.io, n=5), batch_size=2, num_workers=2)
    assert sorted(v for b in dup for v in b[1].tolist()) == sorted(list(range(5)) * 2)
    persistent = pagaie.io.DataLoader(_iterable(pagaie.io, n=6, split=True), batch_size=4, num_workers=2,
                                      persistent_workers=True)
    for _ in range(2):
        assert sorted(v for b in persistent for v in b[1].tolist()) == list(range(6))
    persistent._iterator._shutdown()


class Rand(pagaie.io.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = pagaie.io.get_worker_info()
        return np.random.rand(), pagaie.rand([1]).item(), info.id, info.num_workers


def test_worker_seeding_and_init_fn():
    def run(seed, init_fn=False):
        # as in Paddle, the workers' base seed comes from numpy's global generator
        pagaie.seed(seed)
        np.random.seed(seed)
        return [b for b in pagaie.io.DataLoader(Rand(), batch_size=2, num_workers=2,
                                                 worker_init_fn=lambda wid: np.random.seed(100 + wid)
                                                 if init_fn else None)]

    a, b = run(1), run(1)
    for x, y in zip(a, b):
        assert x[0].tolist() == y[0].tolist() and x[1].tolist() == y[1].tolist()
    assert [x[2].tolist() for x in a] == [[0, 0], [1, 1], [0, 0], [1, 1]]
    assert all(x[3].tolist() == [2, 2] for x in a)
    # the two workers draw different numbers
    w0 = [v for x in a if x[2].tolist()[0] == 0 for v in x[0].tolist()]
    w1 = [v for x in a if x[2].tolist()[0] == 1 for v in x[0].tolist()]
    assert not set(w0) & set(w1)
    assert run(2)[0][1].tolist() != a[0][1].tolist()
    # worker_init_fn runs in each worker after seeding
    c = run(1, init_fn=True)
    np.random.seed(100)
    assert np.allclose(c[0][0].numpy(), np.random.rand(2))


_EXIT_SCRIPT = r"""
import numpy as np, pagaie
class D(pagaie.io.Dataset):
    def __len__(self):
        return 100
    def __getitem__(self, i):
        return np.full([1000], i, "float32")
keep = pagaie.io.DataLoader(D(), batch_size=2, num_workers=2, persistent_workers=True)
for _ in keep:
    break
it = iter(pagaie.io.DataLoader(D(), batch_size=2, num_workers=2))
next(it)
print(" ".join(str(w.pid) for w in keep._iterator._workers + it._workers), flush=True)
"""


def test_interpreter_exit_with_live_workers():
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", _EXIT_SCRIPT], cwd=root, capture_output=True, text=True,
                         timeout=60, env={**os.environ, "PYTHONPATH": root})
    assert out.returncode == 0, out.stderr
    assert time.time() - t0 < 30
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 4
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
