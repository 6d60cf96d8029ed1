"""paddle.audio.datasets (ESC50, TESS): pagaie vs real Paddle reading the same tiny data trees."""
import os
import time
import zipfile

import numpy as np
import pytest

import pagaie
import pagaie.audio  # noqa: F401
from pagaie.audio.datasets import _archive
from tests.reference import assert_same, paddle_ref

RS = np.random.RandomState(11)
ESC_ROWS = [("1-100-A-0.wav", 1, 0, "dog"), ("1-101-A-14.wav", 1, 14, "chirping_birds"),
            ("2-102-A-36.wav", 2, 36, "vacuum_cleaner"), ("3-103-B-19.wav", 3, 19, "thunderstorm"),
            ("5-104-A-3.wav", 5, 3, "cow")]
TESS_FILES = ["OAF_back_angry.wav", "OAF_bar_fear.wav", "YAF_base_happy.wav", "YAF_bath_ps.wav",
              "OAF_bean_sad.wav", "YAF_beg_neutral.wav", "OAF_bite_disgust.wav"]


def _wav(path, n=2400, sr=8000):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    pagaie.audio.save(path, pagaie.to_tensor(RS.uniform(-0.5, 0.5, (1, n)).astype("float32")), sr)


def _esc_tree(root):
    audio = os.path.join(root, "ESC-50-master", "audio")
    os.makedirs(os.path.join(root, "ESC-50-master", "meta"))
    with open(os.path.join(root, "ESC-50-master", "meta", "esc50.csv"), "w") as f:
        f.write("filename,fold,target,category,esc10,src_file,take\n")
        for name, fold, target, cat in ESC_ROWS:
            f.write(f"{name},{fold},{target},{cat},False,{name[2:5]},A\n")
            _wav(os.path.join(audio, name))
    return root


def _tess_tree(root):
    for name in TESS_FILES:
        _wav(os.path.join(root, "TESS_Toronto_emotional_speech_set", name.split("_")[0] + "_" +
                          name.split("_")[2][:-4], name), n=1800, sr=16000)
    return root


@pytest.fixture
def homes(tmp_path, monkeypatch):
    """Both frameworks' dataset homes pointed at one temporary directory."""
    ref = paddle_ref()
    home = str(tmp_path / "home")
    os.makedirs(home)
    import paddle.audio.datasets.esc50 as ref_esc
    import paddle.audio.datasets.tess as ref_tess
    monkeypatch.setattr(ref_esc, "DATA_HOME", home)
    monkeypatch.setattr(ref_tess, "DATA_HOME", home)
    monkeypatch.setattr(_archive, "DATA_HOME", home)
    return ref, home


def _same_dataset(ours, theirs):
    assert len(ours) == len(theirs)
    assert ours.files == theirs.files and ours.labels == theirs.labels
    for i in range(len(theirs)):
        (fo, lo), (ft, lt) = ours[i], theirs[i]
        assert lo == lt
        assert_same(fo, ft, rtol=1e-4, atol=2e-3)


@pytest.mark.parametrize("mode,split", [("train", 1), ("dev", 1), ("dev", 5), ("train", 3)])
def test_esc50_raw(homes, mode, split):
    ref, home = homes
    _esc_tree(home)
    _same_dataset(pagaie.audio.datasets.ESC50(mode, split), ref.audio.datasets.ESC50(mode, split))


@pytest.mark.parametrize("feat_type,kw", [("mfcc", dict(n_mfcc=13, n_fft=256)), ("spectrogram", dict(n_fft=128)),
                                          ("melspectrogram", dict(n_fft=256, n_mels=32)),
                                          ("logmelspectrogram", dict(n_fft=256, n_mels=32, top_db=80.0))])
def test_esc50_features(homes, feat_type, kw):
    ref, home = homes
    _esc_tree(home)
    ours = pagaie.audio.datasets.ESC50("dev", 1, feat_type=feat_type, **kw)
    theirs = ref.audio.datasets.ESC50("dev", 1, feat_type=feat_type, **kw)
    _same_dataset(ours, theirs)
    assert ours.sample_rate == theirs.sample_rate == 8000


@pytest.mark.parametrize("mode,n_folds,split", [("train", 5, 1), ("dev", 5, 2), ("dev", 3, 3), ("train", 1, 1)])
def test_tess(homes, mode, n_folds, split):
    ref, home = homes
    _tess_tree(home)
    ours = pagaie.audio.datasets.TESS(mode, n_folds, split)
    theirs = ref.audio.datasets.TESS(mode, n_folds, split)
    _same_dataset(ours, theirs)
    ours = pagaie.audio.datasets.TESS(mode, n_folds, split, feat_type="mfcc", n_fft=256, n_mfcc=20)
    theirs = ref.audio.datasets.TESS(mode, n_folds, split, feat_type="mfcc", n_fft=256, n_mfcc=20)
    _same_dataset(ours, theirs)


def test_argument_errors(homes):
    ref, home = homes
    _esc_tree(home)
    _tess_tree(home)
    for fw in (ref, pagaie):
        with pytest.raises(AssertionError):
            fw.audio.datasets.ESC50(split=6)
        with pytest.raises(AssertionError):
            fw.audio.datasets.TESS(n_folds=0)
        with pytest.raises(AssertionError):
            fw.audio.datasets.TESS(n_folds=3, split=4)
        with pytest.raises(RuntimeError, match="feat_type"):
            fw.audio.datasets.ESC50(feat_type="wavelet")


def test_local_archive_and_directory(tmp_path, monkeypatch):
    home = str(tmp_path / "home")
    monkeypatch.setattr(_archive, "DATA_HOME", home)
    src = _esc_tree(str(tmp_path / "src"))
    # a directory holding the dataset folder, or the folder itself: read in place
    ds = pagaie.audio.datasets.ESC50("dev", 1, archive={"url": src})
    assert len(ds) == 2 and ds.files[0].startswith(src)
    ds = pagaie.audio.datasets.ESC50("dev", 1, archive={"url": os.path.join(src, "ESC-50-master")})
    assert len(ds) == 2 and not os.path.exists(home)
    # a zip archive (path or file:// URL) is unpacked into the data home
    zpath = str(tmp_path / "ESC-50-master.zip")
    with zipfile.ZipFile(zpath, "w") as z:
        for d, _, names in os.walk(src):
            for n in names:
                full = os.path.join(d, n)
                z.write(full, os.path.relpath(full, src))
    with pytest.raises(RuntimeError, match="md5"):
        pagaie.audio.datasets.ESC50(archive={"url": zpath, "md5": "0" * 32})
    archive = {"url": "file://" + zpath, "md5": _archive.md5file(zpath)}
    ds = pagaie.audio.datasets.ESC50("train", 1, feat_type="mfcc", archive=archive, n_fft=256, n_mfcc=13)
    assert len(ds) == 3 and ds.files[0].startswith(home)
    feat, label = ds[0]
    assert list(feat.shape) == [13, 38] and label == 36  # 2400 samples, hop 64
    assert len(pagaie.audio.datasets.ESC50("dev", 5)) == 1  # now found in the data home


def test_unreachable_download_fails_fast(tmp_path, monkeypatch):
    monkeypatch.setattr(_archive, "DATA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(_archive, "DOWNLOAD_TIMEOUT_S", 2.0)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="downloading http://127.0.0.1:9/TESS.zip failed"):
        pagaie.audio.datasets.TESS(archive={"url": "http://127.0.0.1:9/TESS.zip", "md5": None})
    with pytest.raises(RuntimeError, match="does not exist"):
        pagaie.audio.datasets.TESS(archive={"url": str(tmp_path / "nowhere.zip")})
    assert time.monotonic() - start < 10
