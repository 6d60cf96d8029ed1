"""Differential tests against real Paddle for paddle.io cases taken from Paddle's own unit
tests: the static-mode DataLoader (DenseTensor leaves, one batch per place with several
places, feed dicts over the batch's array leaves), the worker numpy seeds, and ``timeout``
with a slow worker."""
import contextlib
import time

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _dataset(P, n):
    class DS(P.io.Dataset):
        def __len__(self):
            return n

        def __getitem__(self, i):
            return np.full([2], i, "float32"), np.array([i], "int64")

    return DS()


@contextlib.contextmanager
def _static(P):
    P.enable_static()
    try:
        with P.static.program_guard(P.static.Program(), P.static.Program()):
            yield
    finally:
        P.disable_static()


def _describe(x):
    """Structure, leaf types (by name) and leaf values of what a loader gives."""
    if isinstance(x, list):
        return [_describe(v) for v in x]
    if isinstance(x, dict):
        return {k: _describe(v) for k, v in x.items()}
    shape = x.shape() if callable(x.shape) else list(x.shape)
    return type(x).__name__, list(shape), np.array(x)[:, 0].tolist()


def _static_batches(P, n, places, return_list, drop_last=True, batch_size=2):
    with _static(P):
        feeds = [P.static.data("image", [None, 2], "float32"), P.static.data("label", [None, 1], "int64")]
        loader = P.io.DataLoader(_dataset(P, n), feed_list=feeds, places=[P.CPUPlace()] * places,
                                 batch_size=batch_size, drop_last=drop_last, return_list=return_list)
        return len(loader), [_describe(b) for b in loader]


@pytest.mark.parametrize("return_list", [True, False])
@pytest.mark.parametrize("places,n,drop_last", [(1, 8, True), (2, 10, True), (2, 11, False), (3, 10, True),
                                                (3, 12, False)])
def test_static_loader_batches_per_place(places, n, drop_last, return_list):
    ours = _static_batches(pagaie, n, places, return_list, drop_last)
    theirs = _static_batches(paddle, n, places, return_list, drop_last)
    assert ours == theirs


_SAMPLES = {
    "dict": lambda i: {"a": np.full([1], i, "float32"), "b": np.full([1], i, "int64")},
    "nested": lambda i: [(np.full([1], i, "float32"), "tag"), {"k": np.full([1], i, "int64")}],
    "string_field": lambda i: (np.full([1], i, "float32"), f"s{i}"),
    "three_arrays": lambda i: (np.full([1], i, "float32"), np.full([1], i, "int64"), np.full([1], i, "int64")),
}


@pytest.mark.parametrize("kind", sorted(_SAMPLES))
def test_static_feed_dicts_take_the_array_leaves(kind):
    def run(P):
        class DS(P.io.Dataset):
            def __len__(self):
                return 4

            def __getitem__(self, i):
                return _SAMPLES[kind](i)

        with _static(P):
            feeds = [P.static.data("x", [None, 1], "float32"), P.static.data("y", [None, 1], "int64")]
            loader = P.io.DataLoader(DS(), feed_list=feeds, batch_size=2, return_list=False)
            try:
                return [_describe(b) for b in loader]
            except ValueError:
                return "ValueError"

    assert run(pagaie) == run(paddle)


def test_static_loader_feeds_train_a_program():
    def run(P):
        with _static(P):
            P.seed(1)
            img = P.static.data("image", [None, 2], "float32")
            lab = P.static.data("label", [None, 1], "int64")
            out = P.static.nn.fc(img, 8, weight_attr=P.ParamAttr(initializer=P.nn.initializer.Constant(0.5)))
            loss = P.mean(P.nn.functional.cross_entropy(out, lab))
            P.optimizer.SGD(0.1).minimize(loss)
            exe = P.static.Executor(P.CPUPlace())
            exe.run(P.static.default_startup_program())
            loader = P.io.DataLoader(_dataset(P, 8), feed_list=[img, lab], batch_size=4, return_list=False)
            got = []
            for feed in loader:
                assert feed[0]["image"]._place()._equals(P.CPUPlace())
                got.append(float(exe.run(feed=feed[0], fetch_list=[loss])[0]))
            return got, str(feed[0]["label"])
    ours, theirs = run(pagaie), run(paddle)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5)
    assert ours[1] == theirs[1]


@pytest.mark.parametrize("base_seed,worker_id", [(0, 1), (0, 2), (1, 3), (2**40 + 7, 0), (2**63 - 2, 5)])
def test_worker_numpy_seed(base_seed, worker_id):
    from paddle.io.dataloader.worker import _generate_states as theirs
    from pagaie.io.dataloader.worker import _generate_states as ours
    assert ours(base_seed, worker_id) == theirs(base_seed, worker_id)


def test_timeout_waits_for_a_slow_batch():
    def run(P):
        class Slow(P.io.IterableDataset):
            def __iter__(self):
                time.sleep(0.8)
                yield np.array([7])

        return [b.numpy().tolist() for b in P.io.DataLoader(Slow(), batch_size=None, num_workers=1, timeout=0.2)]

    assert run(pagaie) == run(paddle) == [[7]]
