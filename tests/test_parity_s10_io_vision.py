"""Session-10 sweep of paddle.io and paddle.vision.transforms / datasets against real Paddle 3.3.1."""
import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception

RS = np.random.RandomState(10)
CHW = RS.rand(3, 10, 12).astype("float32")
HWC = RS.randint(0, 256, (10, 12, 3)).astype("uint8")


# ---- transforms.resize on Tensor images: modes that never take a 4-D batch -------------------
@pytest.mark.parametrize("mode", ["linear", "trilinear", "LINEAR"])
@pytest.mark.parametrize("size", [(7, 5), 6])
def test_resize_tensor_linear_and_trilinear_are_value_errors(mode, size):
    exc = same_exception(lambda fw: fw.vision.transforms.resize(fw.to_tensor(CHW), size, mode))
    assert "paddle.vision.transforms.resize" in str(exc) and mode in str(exc)
    same_exception(lambda fw: fw.vision.transforms.Resize(size, mode)(fw.to_tensor(CHW)))


def test_resize_tensor_other_modes_still_match():
    for mode in ("nearest", "bilinear", "bicubic", "area"):
        ours, theirs = both(lambda fw: fw.vision.transforms.resize(fw.to_tensor(CHW), (7, 5), mode).numpy())
        np.testing.assert_allclose(ours, theirs, atol=1e-5, err_msg=mode)


# ---- default_collate_fn / default_convert_fn on unusual leaves (called directly: Paddle's
# DataLoader hangs when its reader thread raises) ---------------------------------------------
def _collate(fw):
    import importlib
    name = "pagaie.io.collate" if fw is pagaie else "paddle.io.dataloader.collate"
    return importlib.import_module(name)


def _show(r):
    if isinstance(r, np.ndarray):
        return ("nd", r.dtype.str, r.tolist())
    if hasattr(r, "numpy"):
        return ("T", str(r.dtype).replace("paddle.", ""), r.numpy().tolist())
    if isinstance(r, (list, tuple)):
        return [_show(e) for e in r]
    if isinstance(r, dict):
        return {k: _show(v) for k, v in r.items()}
    return (type(r).__name__, r)


@pytest.mark.parametrize("batch", [
    [1, 2.5], [True, False], [1, True], [np.int16(1), np.int16(2)], [np.float16(1), np.float16(2)],
    [np.zeros(2, "float32"), np.zeros(2, "float64")], [{"a": 1, "b": 2}, {"a": 3, "b": 4}],
    [np.str_("a"), np.str_("b")], [(), ()], [np.array(["a", "b"]), np.array(["c", "d"])],
    [{"a": {"b": (1, [np.float32(2), "x"])}}, {"a": {"b": (3, [np.float32(4), "y"])}}],
])
def test_collate_results_match(batch):
    for fn in ("default_collate_fn", "default_convert_fn"):
        ours, theirs = both(lambda fw: _show(getattr(_collate(fw), fn)(batch)))
        assert ours == theirs, fn


@pytest.mark.parametrize("batch", [
    [[0], [0, 1]], [np.zeros(1), np.zeros(2)], [None, None], [{1}, {2}], [np.bool_(True), np.bool_(False)],
    [{"a": 1, "b": 2}, {"a": 3}],
])
def test_collate_errors_match(batch):
    same_exception(lambda fw: _collate(fw).default_collate_fn(batch))


# ---- samplers: unusual but legal arguments, and bad ones ------------------------------------
class _Len:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


def _seeded(fn):
    def run(fw):
        np.random.seed(5)
        fw.seed(5)
        return fn(fw)
    return run


@pytest.mark.parametrize("fn", [
    lambda p: list(p.io.RandomSampler(_Len(6), replacement=True, num_samples=10)),
    lambda p: list(p.io.RandomSampler(_Len(6), num_samples=3)),
    lambda p: list(p.io.RandomSampler(_Len(6), generator=iter([3, 1, 2]))),
    lambda p: list(p.io.SubsetRandomSampler(range(3, 8))),
    lambda p: list(p.io.BatchSampler([5, 6, 7], batch_size=2)),
    lambda p: list(p.io.BatchSampler(sampler=iter([5, 6, 7]), batch_size=2)),
    lambda p: (lambda s: (s.set_epoch(3), list(s))[1])(
        p.io.DistributedBatchSampler(_Len(10), batch_size=3, num_replicas=2, rank=1, shuffle=True)),
    lambda p: list(p.io.DistributedBatchSampler(_Len(2), batch_size=3, num_replicas=4, rank=3)),
    lambda p: [list(s.indices) for s in p.io.random_split(_Len(11), [0.33, 0.33, 0.34])],
    lambda p: [list(s.indices) for s in p.io.random_split(_Len(5), [1.0, 0.0])],
])
def test_sampler_draws_match(fn):
    ours, theirs = both(_seeded(fn))
    assert ours == theirs


@pytest.mark.parametrize("fn", [
    lambda p: list(p.io.RandomSampler(_Len(6), replacement=1)),
    lambda p: list(p.io.RandomSampler(_Len(6), replacement=True, num_samples=2.0)),
    lambda p: list(p.io.WeightedRandomSampler(np.array([1.0, 2.0]), 2.0)),
    lambda p: list(p.io.WeightedRandomSampler(np.array([1.0, 2.0]), 2, replacement=1)),
    lambda p: list(p.io.BatchSampler(_Len(5), batch_size=2.0)),
    lambda p: list(p.io.BatchSampler(sampler=[1, 2, 3], shuffle=True, batch_size=2)),
    lambda p: len(p.io.BatchSampler(sampler=iter([5, 6, 7]), batch_size=2)),
    lambda p: list(p.io.DistributedBatchSampler(_Len(5), batch_size=2, num_replicas=2.0)),
    lambda p: p.io.ConcatDataset([_Len(2), _Len(3)])[5],
    lambda p: p.io.ComposeDataset([_Len(3), _Len(2)]),
    lambda p: p.io.TensorDataset(p.arange(3)),
])
def test_sampler_and_dataset_errors_match(fn):
    same_exception(fn)


# ---- datasets without their files: the offline errors --------------------------------------
@pytest.mark.parametrize("name", ["MNIST", "FashionMNIST", "Cifar10", "Cifar100", "Flowers", "VOC2012"])
@pytest.mark.parametrize("kw", [dict(mode="foo"), dict(mode="TRAIN"), dict(backend=1), dict(backend="foo")])
def test_dataset_offline_argument_errors(name, kw):
    same_exception(lambda fw: getattr(fw.vision.datasets, name)(download=False, **kw))


def test_dataset_missing_files_errors(tmp_path):
    same_exception(lambda fw: fw.vision.datasets.MNIST(image_path=str(tmp_path / "a"),
                                                       label_path=str(tmp_path / "b"), download=False))
    same_exception(lambda fw: fw.vision.datasets.Cifar10(data_file=str(tmp_path / "x"), download=False))
    same_exception(lambda fw: fw.vision.datasets.ImageFolder(str(tmp_path), extensions=(".png",),
                                                             is_valid_file=lambda p: True))


# ---- BaseTransform keys ----------------------------------------------------------------------
@pytest.mark.parametrize("keys,inputs", [
    (("image",), lambda: (HWC.copy(), 5, 6)),
    (("image", "image"), lambda: (HWC.copy(), HWC.copy())),
])
def test_keys_route_inputs_like_paddle(keys, inputs):
    ours, theirs = both(lambda fw: _show(list(fw.vision.transforms.Resize(4, keys=keys)(inputs()))))
    assert ours == theirs


def test_unknown_key_is_not_implemented_error():
    same_exception(lambda fw: fw.vision.transforms.Resize(4, keys=("image", "label")))


def test_get_worker_info_outside_workers_is_none():
    ref = paddle_ref()
    assert pagaie.io.get_worker_info() is None and ref.io.get_worker_info() is None
