"""paddle.text: viterbi_decode / ViterbiDecoder and the text datasets vs real Paddle 3.3.1."""
import gzip
import io
import tarfile
import urllib.error
import urllib.request
import zipfile

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref

RS = np.random.RandomState(11)


@pytest.mark.parametrize("bos", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("lengths", [[5, 3, 1, 4], [2, 2, 2, 2], [1, 1, 1, 1]])
def test_viterbi_decode(bos, dtype, lengths):
    pot = RS.randn(4, 5, 6).astype(dtype)
    trans = RS.randn(6, 6).astype(dtype)
    lens = np.array(lengths, dtype="int64")
    ours, theirs = both(lambda p: p.text.viterbi_decode(p.to_tensor(pot), p.to_tensor(trans),
                                                       p.to_tensor(lens), bos))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-5)


def test_viterbi_ties_and_decoder_layer():
    pot = np.zeros((2, 4, 3), "float32")
    trans = np.zeros((3, 3), "float32")
    lens = np.array([4, 2], "int64")
    ours, theirs = both(lambda p: p.text.ViterbiDecoder(p.to_tensor(trans), include_bos_eos_tag=False)(
        p.to_tensor(pot), p.to_tensor(lens)))
    assert_same(ours, theirs)
    ours, theirs = both(lambda p: p.text.ViterbiDecoder(p.to_tensor(trans))(p.to_tensor(pot), p.to_tensor(lens)))
    assert_same(ours, theirs)


def _add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _tar(path, files, mode="w:gz"):
    with tarfile.open(path, mode) as t:
        for name, data in files.items():
            _add(t, name, data.encode() if isinstance(data, str) else data)
    return str(path)


def compare(ours, theirs):
    assert len(ours) == len(theirs)
    for i in range(len(theirs)):
        a, b = ours[i], theirs[i]
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert x.dtype == y.dtype and x.shape == y.shape
            np.testing.assert_array_equal(x, y)


def test_imdb(tmp_path):
    ref = paddle_ref()
    files = {"aclImdb/train/pos/0.txt": "a good movie, a GOOD one!\n", "aclImdb/train/pos/1.txt": "good good fun",
             "aclImdb/train/neg/0.txt": "a bad movie. bad!", "aclImdb/test/pos/0.txt": "good fun fun",
             "aclImdb/test/neg/0.txt": "bad, bad plot", "aclImdb/README": "ignored"}
    path = _tar(tmp_path / "imdb.tar.gz", files)
    for mode in ("train", "test"):
        ours, theirs = pagaie.text.Imdb(path, mode, cutoff=1), ref.text.Imdb(path, mode, cutoff=1)
        assert ours.word_idx == theirs.word_idx
        compare(ours, theirs)


def test_imikolov(tmp_path):
    ref = paddle_ref()
    train = "the cat sat\nthe dog sat down\nthe cat ran\na dog\n"
    valid = "the cat\nthe end\n"
    files = {"./simple-examples/data/ptb.train.txt": train, "./simple-examples/data/ptb.valid.txt": valid,
             "./simple-examples/data/ptb.test.txt": "the cat sat down\nunknown words here\n"}
    path = _tar(tmp_path / "ptb.tgz", files)
    for kw in ({"data_type": "NGRAM", "window_size": 3}, {"data_type": "SEQ"}, {"data_type": "SEQ", "window_size": 3}):
        for mode in ("train", "test"):
            ours = pagaie.text.Imikolov(path, mode=mode, min_word_freq=1, **kw)
            theirs = ref.text.Imikolov(path, mode=mode, min_word_freq=1, **kw)
            assert ours.word_idx == theirs.word_idx
            compare(ours, theirs)


def test_uci_housing(tmp_path):
    ref = paddle_ref()
    path = str(tmp_path / "housing.data")
    np.savetxt(path, RS.rand(12, 14) * 50)
    for mode in ("train", "test"):
        compare(pagaie.text.UCIHousing(path, mode), ref.text.UCIHousing(path, mode))


def test_movielens(tmp_path):
    ref = paddle_ref()
    path = str(tmp_path / "ml-1m.zip")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-1m/movies.dat", "1::Toy Story (1995)::Animation|Children's|Comedy\n"
                                        "2::Jumanji (1995)::Adventure|Children's|Fantasy\n"
                                        "3::Grumpier Old Men (1995)::Comedy|Romance\n")
        z.writestr("ml-1m/users.dat", "1::F::1::10::48067\n2::M::56::16::70072\n3::M::25::15::55117\n")
        z.writestr("ml-1m/ratings.dat", "".join(f"{u}::{m}::{(u + m) % 5 + 1}::97830076{m}\n"
                                                for u in (1, 2, 3) for m in (1, 2, 3)))
    for mode in ("train", "test"):
        ours = pagaie.text.Movielens(path, mode, test_ratio=0.4, rand_seed=3)
        theirs = ref.text.Movielens(path, mode, test_ratio=0.4, rand_seed=3)
        assert ours.movie_title_dict == theirs.movie_title_dict
        compare(ours, theirs)


def test_wmt14(tmp_path):
    ref = paddle_ref()
    d = "<s>\n<e>\n<unk>\nle\nchat\nest\nnoir\n"
    files = {"wmt14/src.dict": "<s>\n<e>\n<unk>\nthe\ncat\nis\nblack\n", "wmt14/trg.dict": d,
             "wmt14/train/train": "the cat is black\tle chat est noir\nbad line\nthe dog\tle chien\n",
             "wmt14/test/test": "the cat\tle chat\n", "wmt14/gen/gen": "black cat\tchat noir\n"}
    path = _tar(tmp_path / "wmt14.tgz", files)
    for mode in ("train", "test", "gen"):
        ours, theirs = pagaie.text.WMT14(path, mode, dict_size=6), ref.text.WMT14(path, mode, dict_size=6)
        compare(ours, theirs)
        assert ours.get_dict(True) == theirs.get_dict(True)


def test_wmt16(tmp_path, monkeypatch):
    ref = paddle_ref()
    from pagaie.vision.datasets import _common
    monkeypatch.setattr(_common, "DATA_HOME", str(tmp_path / "ours"))
    monkeypatch.setattr(ref.dataset.common, "DATA_HOME", str(tmp_path / "theirs"))
    (tmp_path / "theirs" / "wmt16").mkdir(parents=True)
    files = {"wmt16/train": "a cat sat\tdie katze sass\na dog\tein hund\nno tab\n",
             "wmt16/test": "a cat\teine katze\n", "wmt16/val": "the dog sat\tder hund sass\n"}
    path = _tar(tmp_path / "wmt16.tar.gz", files)
    for lang in ("en", "de"):
        for mode in ("train", "test", "val"):
            ours = pagaie.text.WMT16(path, mode, src_dict_size=5, trg_dict_size=6, lang=lang)
            theirs = ref.text.WMT16(path, mode, src_dict_size=5, trg_dict_size=6, lang=lang)
            assert ours.src_dict == theirs.src_dict and ours.trg_dict == theirs.trg_dict
            compare(ours, theirs)
        assert ours.get_dict("de") == theirs.get_dict("de")


def test_conll05st(tmp_path):
    ref = paddle_ref()
    words = "The\ncat\nsat\ndown\n\nDogs\nbark\n\n"
    props = ("-\t(A0*\t*\n-\t*)\t(A0*)\nsat\t(V*)\t*\ndown\t(AM-DIR*)\t(V*)\n\n"
             "-\t(A0*)\nbark\t(V*)\n\n")
    files = {"conll05st-release/test.wsj/words/test.wsj.words.gz": gzip.compress(words.encode()),
             "conll05st-release/test.wsj/props/test.wsj.props.gz": gzip.compress(props.encode())}
    data = _tar(tmp_path / "conll05st-tests.tar.gz", files)
    (tmp_path / "w.txt").write_text("The\ncat\nsat\ndown\nbos\neos\n")
    (tmp_path / "v.txt").write_text("sat\nbark\ndown\n")
    (tmp_path / "t.txt").write_text("B-A0\nI-A0\nB-V\nI-V\nB-AM-DIR\nI-AM-DIR\nO\n")
    (tmp_path / "emb").write_text("")
    args = [data, str(tmp_path / "w.txt"), str(tmp_path / "v.txt"), str(tmp_path / "t.txt"), str(tmp_path / "emb")]
    ours, theirs = pagaie.text.Conll05st(*args), ref.text.Conll05st(*args)
    assert ours.get_dict() == theirs.get_dict() and ours.get_embedding() == theirs.get_embedding()
    compare(ours, theirs)


def test_missing_files_raise_clearly(tmp_path, monkeypatch):
    from pagaie.vision.datasets import _common

    def offline(*a, **k):
        raise urllib.error.URLError("no network")
    monkeypatch.setattr(_common, "DATA_HOME", str(tmp_path))
    monkeypatch.setattr(urllib.request, "urlopen", offline)
    cases = [(pagaie.text.Imdb, "imdb%2FaclImdb_v1.tar.gz"), (pagaie.text.UCIHousing, "housing.data"),
             (pagaie.text.Imikolov, "simple-examples.tgz"), (pagaie.text.Movielens, "ml-1m.zip"),
             (pagaie.text.Conll05st, "conll05st-tests.tar.gz")]
    for cls, fname in cases:
        with pytest.raises(RuntimeError, match="data_file") as e:
            cls()
        assert fname in str(e.value) and str(tmp_path) in str(e.value)
    with pytest.raises(RuntimeError, match="wmt14.tgz"):
        pagaie.text.WMT14(dict_size=10)
    with pytest.raises(AssertionError):
        pagaie.text.Imdb(download=False)


def test_namespace():
    ref = paddle_ref()
    assert sorted(pagaie.text.__all__) == sorted(ref.text.__all__)
