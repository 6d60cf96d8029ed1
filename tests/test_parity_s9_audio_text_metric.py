"""Session-9 differential parity of paddle.audio / paddle.text / paddle.metric / paddle.signal
against real Paddle 3.3.1."""
import itertools
import wave

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

RS = np.random.RandomState(9)


# ---- paddle.metric.Precision / Recall: which error Paddle meets first ----------------------

SHAPES = [(0,), (1,), (3,), (5,), (3, 1), (5, 1), (3, 2), (5, 2), (1, 2), (0, 1)]


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
def test_precision_recall_shape_grid_matches_paddle(cls):
    # Paddle walks the labels one sample at a time: a missing prediction is an IndexError only
    # if no several-valued sample was compared (ValueError) before it.
    rng = np.random.RandomState(0)
    for ps, ls in itertools.product(SHAPES, SHAPES):
        for trial in range(3):
            preds, labels = rng.rand(*ps), rng.randint(0, 2, ls)
            if trial == 1:
                preds = np.zeros(ps)
            elif trial == 2:
                labels = np.zeros(ls, "int64")

            def run(fw):
                m = getattr(fw.metric, cls)()
                m.update(preds, labels)
                return m.tp, getattr(m, "fp", None), getattr(m, "fn", None), m.accumulate()

            try:
                theirs = run(paddle_ref())
            except Exception:  # noqa: BLE001
                same_exception(run)
                continue
            assert run(pagaie) == theirs, (cls, ps, ls, trial)


@pytest.mark.parametrize("cls", ["Precision", "Recall"])
def test_precision_recall_two_column_preds_before_missing_samples(cls):
    preds, labels = np.full((4, 2), 0.9), np.ones(8, "int64")
    err = same_exception(lambda fw: getattr(fw.metric, cls)().update(preds, labels))
    assert isinstance(err, ValueError) and f"paddle.metric.{cls}.update" in str(err)


# ---- paddle.text.viterbi_decode: argument checks ------------------------------------------

POT = RS.randn(2, 4, 3).astype("float32")
TRANS = RS.randn(3, 3).astype("float32")


@pytest.mark.parametrize("which", ["potentials", "transition_params", "lengths"])
def test_viterbi_decode_non_tensor_arguments_raise_value_error(which):
    def run(fw):
        args = {"potentials": fw.to_tensor(POT), "transition_params": fw.to_tensor(TRANS),
                "lengths": fw.to_tensor(np.array([4, 2], "int64"))}
        args[which] = args[which].numpy() if which != "lengths" else [4, 2]
        return fw.text.viterbi_decode(**args)
    err = same_exception(run)
    assert which in str(err)


@pytest.mark.parametrize("bos", [True, False])
def test_viterbi_decode_lengths_beyond_seq_len_raise_index_error(bos):
    err = same_exception(lambda fw: fw.text.viterbi_decode(
        fw.to_tensor(POT), fw.to_tensor(TRANS), fw.to_tensor(np.array([4, 6], "int64")), bos))
    assert "lengths" in str(err) and "paddle.text.viterbi_decode" in str(err)


def test_viterbi_decode_negative_lengths_raise_runtime_error():
    err = same_exception(lambda fw: fw.text.viterbi_decode(
        fw.to_tensor(POT[:1, :1]), fw.to_tensor(TRANS), fw.to_tensor(np.array([-1], "int64"))))
    assert "lengths" in str(err) and "non-negative" in str(err)


@pytest.mark.parametrize("bos", [True, False])
@pytest.mark.parametrize("lengths", [[4, 4], [1, 3], [0, 2], [2, 0]])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_viterbi_decode_and_decoder_layer_zero_lengths(bos, lengths, dtype):
    def run(fw):
        lens = fw.to_tensor(np.array(lengths, "int64"))
        pot, trans = fw.to_tensor(POT.astype(dtype)), fw.to_tensor(TRANS.astype(dtype))
        return [*fw.text.viterbi_decode(pot, trans, lens, bos), *fw.text.ViterbiDecoder(trans, bos)(pot, lens)]
    assert_same(*both(run), rtol=1e-5)


# ---- paddle.audio.functional.get_window: dtype aliases, 0-D length, empty coefficients ----

@pytest.mark.parametrize("dtype", ["float", "double", "float32"])
@pytest.mark.parametrize("window", ["hann", "hamming", ("gaussian", 2.0), "tukey"])
def test_get_window_numpy_dtype_aliases(dtype, window):
    # (Paddle's nuttall / kaiser / bartlett / bohman / taylor reject the aliases by accident.)
    assert_same(*both(lambda fw: fw.audio.functional.get_window(window, 6, dtype=dtype)))


@pytest.mark.parametrize("fftbins", [True, False])
def test_get_window_zero_d_tensor_length(fftbins):
    assert_same(*both(lambda fw: fw.audio.functional.get_window("hann", fw.to_tensor(5), fftbins=fftbins)))
    same_exception(lambda fw: fw.audio.functional.get_window("hann", fw.to_tensor([5])))


@pytest.mark.parametrize("fftbins", [True, False])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_get_window_general_cosine_without_coefficients_is_zeros(fftbins, n):
    assert_same(*both(lambda fw: fw.audio.functional.get_window(("general_cosine", []), n, fftbins=fftbins)))


# ---- paddle.audio.functional and features: values, dtypes, gradients -----------------------

@pytest.mark.parametrize("htk", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mel_conversions_on_tensors_and_floats(htk, dtype):
    hz = np.array([0, 500, 1000, 1001, 8000, 20], dtype)
    F = lambda fw: fw.audio.functional  # noqa: E731
    assert_same(*both(lambda fw: F(fw).hz_to_mel(fw.to_tensor(hz), htk=htk)), rtol=1e-5)
    assert_same(*both(lambda fw: F(fw).mel_to_hz(fw.to_tensor(hz / 100), htk=htk)), rtol=1e-5)
    for v in (0.0, 999.0, 1000.0, 4000.0):
        ours, theirs = both(lambda fw: (F(fw).hz_to_mel(v, htk=htk), F(fw).mel_to_hz(v / 100, htk=htk)))
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)


@pytest.mark.parametrize("kw", [dict(ref_value=2.0), dict(amin=1e-3), dict(top_db=None), dict(top_db=0.0)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_power_to_db_values_and_gradients(kw, dtype):
    s = (np.abs(RS.randn(2, 3, 4)) ** 4).astype(dtype)

    def run(fw):
        t = fw.to_tensor(s)
        t.stop_gradient = False
        out = fw.audio.functional.power_to_db(t, **kw)
        return [out, *fw.grad(out.sum(), t)]
    assert_same(*both(run), rtol=1e-4, atol=1e-4)


WAVE = RS.randn(2, 800).astype("float32")


@pytest.mark.parametrize("cls,kw", [
    ("Spectrogram", dict(n_fft=64, hop_length=16, power=1.5, pad_mode="constant", dtype="float64")),
    ("MelSpectrogram", dict(sr=8000, n_fft=128, n_mels=20, f_min=100.0, f_max=3000.0, htk=True, norm=None,
                            dtype="float64")),
    ("LogMelSpectrogram", dict(sr=8000, n_fft=128, n_mels=20, norm=2.0, ref_value=2.0, amin=1e-5, top_db=40.0,
                               dtype="float64")),
    ("MFCC", dict(sr=8000, n_fft=128, n_mels=20, n_mfcc=5, window=("kaiser", 3.0), center=False,
                  dtype="float64")),
])
def test_feature_layers_float64_values_and_gradients(cls, kw):
    def run(fw):
        x = fw.to_tensor(WAVE.astype("float64"))
        x.stop_gradient = False
        out = getattr(fw.audio.features, cls)(**kw)(x)
        return [out, *fw.grad((out * out).sum(), x)]
    assert_same(*both(run), rtol=1e-6, atol=1e-6)


# ---- paddle.audio.load / info / save on WAV files the test writes ---------------------------

def _write_wav(path, data, rate):
    with wave.open(str(path), "wb") as w:
        w.setnchannels(data.shape[1])
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(data.astype("<i2").tobytes())


@pytest.mark.parametrize("kw", [dict(), dict(normalize=False), dict(channels_first=False),
                                dict(frame_offset=10, num_frames=20), dict(num_frames=0),
                                dict(frame_offset=290, num_frames=20), dict(num_frames=1000)])
def test_audio_load_of_a_wave_module_file(tmp_path, kw):
    path = tmp_path / "a.wav"
    _write_wav(path, (RS.randn(300, 2) * 8000).clip(-32768, 32767), 11025)
    ours, theirs = both(lambda fw: fw.audio.load(str(path), **kw))
    assert_same(list(ours), list(theirs))
    assert vars(pagaie.audio.info(str(path))) == vars(paddle_ref().audio.info(str(path)))


@pytest.mark.parametrize("src,kw", [
    (np.linspace(-0.9, 0.9, 50, dtype="float32").reshape(1, 50), {}),
    (np.linspace(-0.9, 0.9, 50, dtype="float32").reshape(25, 2), dict(channels_first=False)),
    (np.arange(-20, 20, dtype="int16").reshape(2, 20), {}),
])
def test_audio_save_round_trip(tmp_path, src, kw):
    def run(fw):
        path = tmp_path / f"{fw.__name__}.wav"
        fw.audio.save(str(path), fw.to_tensor(src), 8000, **kw)
        return [*fw.audio.load(str(path), normalize=False), *vars(fw.audio.info(str(path))).values()]
    assert_same(*both(run))


# ---- paddle.signal.istft: an empty result is Paddle's ValueError, without torch's message ----

SPEC_X = RS.randn(2, 40).astype("float32")


@pytest.mark.parametrize("frames,kw", [(None, dict(length=0)), (None, dict(length=-1)), (1, {}),
                                       (1, dict(center=False, length=0))])
def test_istft_empty_signal_raises_value_error(frames, kw):
    def run(fw):
        win = fw.audio.functional.get_window("hann", 16, dtype="float32")
        spec = fw.signal.stft(fw.to_tensor(SPEC_X), 16, window=win)
        if frames is not None:
            spec = spec[:, :, :frames]
        return fw.signal.istft(spec, 16, window=win, **kw)
    err = same_exception(run)
    assert isinstance(err, ValueError) and "paddle.signal.istft" in str(err) and "min()" not in str(err)


@pytest.mark.parametrize("length", [1, 3, 30, 100])
@pytest.mark.parametrize("center", [True, False])
def test_istft_short_lengths(length, center):
    def run(fw):
        win = fw.ones([16])
        spec = fw.signal.stft(fw.to_tensor(SPEC_X), 16, window=win, center=center)
        return fw.signal.istft(spec, 16, window=win, center=center, length=length)
    assert_same(*both(run), rtol=1e-4, atol=1e-5)


# ---- paddle.metric.Accuracy.compute: non-integer topk --------------------------------------

@pytest.mark.parametrize("topk", [(1.0,), (1, 2.0)])
def test_accuracy_compute_float_topk_raises_type_error(topk):
    pred, label = RS.rand(5, 4).astype("float32"), RS.randint(0, 4, (5, 1))
    err = same_exception(lambda fw: fw.metric.Accuracy(topk=topk).compute(fw.to_tensor(pred), fw.to_tensor(label)))
    assert "topk" in str(err)


@pytest.mark.parametrize("topk", [(1, 1), (2, 1), np.array([1, 3])])
def test_accuracy_unusual_topk(topk):
    pred, label = RS.rand(6, 4).astype("float32"), RS.randint(0, 4, (6, 1))

    def run(fw):
        m = fw.metric.Accuracy(topk=topk)
        c = m.compute(fw.to_tensor(pred), fw.to_tensor(label))
        return [c, m.update(c), m.accumulate(), m.name()]
    assert_same(*both(run))
