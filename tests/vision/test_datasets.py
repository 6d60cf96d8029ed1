"""paddle.vision.datasets: pagaie vs real Paddle reading the same tiny files in Paddle's formats."""
import gzip
import io
import os
import pickle
import struct
import tarfile
import urllib.error

import numpy as np
import pytest
from PIL import Image

import pagaie
from tests.reference import paddle_ref

RS = np.random.RandomState(3)


def _as_np(v):
    if isinstance(v, Image.Image):
        return np.asarray(v)
    if hasattr(v, "numpy") and not isinstance(v, np.ndarray):
        return v.numpy()
    return np.asarray(v)


def same_items(ours, theirs, idx=(0, 1, -1)):
    assert len(ours) == len(theirs)
    for i in idx:
        a, b = ours[i], theirs[i]
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b):
            if isinstance(y, Image.Image):
                assert isinstance(x, Image.Image) and x.mode == y.mode and x.size == y.size
            elif hasattr(y, "numpy") and not isinstance(y, np.ndarray):
                assert str(x.dtype) == str(y.dtype)
            elif isinstance(y, np.ndarray):
                assert isinstance(x, np.ndarray) and x.dtype == y.dtype
            else:
                assert type(x) is type(y)
            xa, ya = _as_np(x), _as_np(y)
            assert xa.shape == ya.shape
            np.testing.assert_allclose(xa, ya, rtol=1e-6)


@pytest.fixture(scope="module")
def mnist_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("mnist")
    imgs = RS.randint(0, 256, (100, 28, 28)).astype("uint8")
    labels = RS.randint(0, 10, 100).astype("uint8")
    with gzip.open(d / "img.gz", "wb") as f:
        f.write(struct.pack(">IIII", 2051, 100, 28, 28) + imgs.tobytes())
    with gzip.open(d / "lab.gz", "wb") as f:
        f.write(struct.pack(">II", 2049, 100) + labels.tobytes())
    return str(d / "img.gz"), str(d / "lab.gz")


@pytest.mark.parametrize("cls", ["MNIST", "FashionMNIST"])
@pytest.mark.parametrize("backend", ["cv2", "pil"])
def test_mnist(mnist_files, cls, backend):
    ref = paddle_ref()
    ours = getattr(pagaie.vision.datasets, cls)(*mnist_files, mode="test", backend=backend)
    theirs = getattr(ref.vision.datasets, cls)(*mnist_files, mode="test", backend=backend)
    same_items(ours, theirs)


def test_mnist_transform(mnist_files):
    ref = paddle_ref()
    ds = [fw.vision.datasets.MNIST(*mnist_files, transform=fw.vision.transforms.Compose(
        [fw.vision.transforms.Normalize([127.5], [127.5], data_format="HWC")]), backend="cv2")
        for fw in (pagaie, ref)]
    same_items(*ds)
    pil = [fw.vision.datasets.MNIST(*mnist_files, transform=fw.vision.transforms.ToTensor(), backend="pil")
           for fw in (pagaie, ref)]
    same_items(*pil)


def _add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


@pytest.fixture(scope="module")
def cifar_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cifar")
    c10, c100 = str(d / "c10.tar.gz"), str(d / "c100.tar.gz")

    def batch(n, key):
        return pickle.dumps({b"data": RS.randint(0, 256, (n, 3072)).astype("uint8"),
                             key: list(RS.randint(0, 10, n))})
    with tarfile.open(c10, "w:gz") as t:
        for name, n in (("data_batch_2", 3), ("data_batch_1", 2), ("test_batch", 4)):
            _add(t, f"cifar-10-batches-py/{name}", batch(n, b"labels"))
    with tarfile.open(c100, "w:gz") as t:
        _add(t, "cifar-100-python/train", batch(3, b"fine_labels"))
        _add(t, "cifar-100-python/test", batch(2, b"fine_labels"))
    return c10, c100


@pytest.mark.parametrize("mode", ["train", "test"])
@pytest.mark.parametrize("backend", ["cv2", "pil"])
def test_cifar(cifar_files, mode, backend):
    ref = paddle_ref()
    for cls, path in zip(("Cifar10", "Cifar100"), cifar_files):
        ours = getattr(pagaie.vision.datasets, cls)(path, mode=mode, backend=backend)
        theirs = getattr(ref.vision.datasets, cls)(path, mode=mode, backend=backend)
        same_items(ours, theirs)


def _jpeg(arr):
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def flowers_files(tmp_path_factory):
    import scipy.io
    d = tmp_path_factory.mktemp("flowers")
    data = str(d / "102flowers.tgz")
    with tarfile.open(data, "w:gz") as t:
        for i in range(1, 7):
            _add(t, f"jpg/image_{i:05}.jpg", _jpeg(RS.randint(0, 256, (8, 6 + i, 3)).astype("uint8")))
    scipy.io.savemat(str(d / "imagelabels.mat"), {"labels": np.array([[3, 1, 4, 1, 5, 9]])})
    scipy.io.savemat(str(d / "setid.mat"), {"trnid": np.array([[1, 2]]), "tstid": np.array([[3, 4, 6]]),
                                             "valid": np.array([[5]])})
    return data, str(d / "imagelabels.mat"), str(d / "setid.mat")


@pytest.mark.parametrize("mode", ["train", "valid", "test"])
@pytest.mark.parametrize("backend", ["cv2", "pil"])
def test_flowers(flowers_files, mode, backend):
    ref = paddle_ref()
    ours = pagaie.vision.datasets.Flowers(*flowers_files, mode=mode, backend=backend)
    theirs = ref.vision.datasets.Flowers(*flowers_files, mode=mode, backend=backend)
    same_items(ours, theirs, idx=(0, -1))


@pytest.fixture(scope="module")
def voc_file(tmp_path_factory):
    d = tmp_path_factory.mktemp("voc")
    path = str(d / "voc.tar")
    names = ["2007_000001", "2007_000002", "2007_000003"]
    with tarfile.open(path, "w") as t:
        for flag, sel in (("trainval", names), ("train", names[:2]), ("val", names[2:])):
            _add(t, f"VOCdevkit/VOC2012/ImageSets/Segmentation/{flag}.txt", ("\n".join(sel) + "\n").encode())
        for n in names:
            _add(t, f"VOCdevkit/VOC2012/JPEGImages/{n}.jpg", _jpeg(RS.randint(0, 256, (6, 7, 3)).astype("uint8")))
            mask = Image.fromarray(RS.randint(0, 21, (6, 7)).astype("uint8"), mode="P")
            buf = io.BytesIO()
            mask.save(buf, format="PNG")
            _add(t, f"VOCdevkit/VOC2012/SegmentationClass/{n}.png", buf.getvalue())
    return path


@pytest.mark.parametrize("mode", ["train", "valid", "test"])
@pytest.mark.parametrize("backend", ["cv2", "pil"])
def test_voc2012(voc_file, mode, backend):
    ref = paddle_ref()
    ours = pagaie.vision.datasets.VOC2012(voc_file, mode=mode, backend=backend)
    theirs = ref.vision.datasets.VOC2012(voc_file, mode=mode, backend=backend)
    same_items(ours, theirs, idx=(0, -1))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("folder")
    for cls, n in (("b_dog", 2), ("a_cat", 3)):
        os.makedirs(root / cls / "sub")
        for i in range(n):
            Image.fromarray(RS.randint(0, 256, (5, 4, 3)).astype("uint8")).save(root / cls / f"{i}.png")
        (root / cls / "notes.txt").write_text("x")
    Image.fromarray(RS.randint(0, 256, (5, 4, 3)).astype("uint8")).save(root / "a_cat" / "sub" / "z.jpg")
    return str(root)


@pytest.mark.parametrize("backend", ["pil", "cv2"])
def test_folders(folder, backend):
    ref = paddle_ref()
    pagaie.vision.set_image_backend(backend)
    ref.vision.set_image_backend(backend)
    try:
        for cls in ("DatasetFolder", "ImageFolder"):
            ours = getattr(pagaie.vision.datasets, cls)(folder)
            theirs = getattr(ref.vision.datasets, cls)(folder)
            assert ours.samples == theirs.samples
            same_items(ours, theirs)
        ours, theirs = pagaie.vision.datasets.DatasetFolder(folder), ref.vision.datasets.DatasetFolder(folder)
        assert ours.classes == theirs.classes and ours.class_to_idx == theirs.class_to_idx
        assert ours.targets == theirs.targets
    finally:
        pagaie.vision.set_image_backend("pil")
        ref.vision.set_image_backend("pil")
    ours = pagaie.vision.datasets.DatasetFolder(folder, extensions=(".txt",), loader=lambda p: open(p).read())
    assert ours[0] == ("x", 0) and len(ours) == 2


def test_folder_errors(tmp_path):
    with pytest.raises(RuntimeError, match="Found 0"):
        pagaie.vision.datasets.DatasetFolder(str(tmp_path))
    with pytest.raises(RuntimeError, match="Found 0"):
        pagaie.vision.datasets.ImageFolder(str(tmp_path))


def test_missing_files_raise_clearly(tmp_path, monkeypatch):
    from pagaie.vision.datasets import _common

    def offline(*a, **k):
        raise urllib.error.URLError("no network")
    monkeypatch.setattr(_common, "DATA_HOME", str(tmp_path))
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    with pytest.raises(RuntimeError) as e:
        pagaie.vision.datasets.MNIST(mode="test")
    msg = str(e.value)
    assert "t10k-images-idx3-ubyte.gz" in msg and str(tmp_path / "mnist") in msg and "image_path" in msg
    with pytest.raises(RuntimeError, match="cifar-10-python.tar.gz"):
        pagaie.vision.datasets.Cifar10()
    with pytest.raises(RuntimeError, match="102flowers.tgz"):
        pagaie.vision.datasets.Flowers()
    with pytest.raises(RuntimeError, match="VOCtrainval_11-May-2012.tar"):
        pagaie.vision.datasets.VOC2012()
    with pytest.raises(AssertionError):
        pagaie.vision.datasets.MNIST(download=False)
    with pytest.raises(ValueError):
        pagaie.vision.datasets.MNIST(backend="tensor")


def test_cached_file_is_used(tmp_path, monkeypatch, mnist_files):
    import shutil
    from pagaie.vision.datasets import _common
    monkeypatch.setattr(_common, "DATA_HOME", str(tmp_path))
    os.makedirs(tmp_path / "mnist")
    shutil.copy(mnist_files[0], tmp_path / "mnist" / "t10k-images-idx3-ubyte.gz")
    shutil.copy(mnist_files[1], tmp_path / "mnist" / "t10k-labels-idx1-ubyte.gz")
    assert len(pagaie.vision.datasets.MNIST(mode="test")) == 100


def test_subclass_of_io_dataset():
    assert issubclass(pagaie.vision.datasets.MNIST, pagaie.vision.datasets._common.Dataset)
    if hasattr(pagaie.io, "Dataset"):
        assert issubclass(pagaie.vision.datasets.Cifar10, pagaie.io.Dataset)
