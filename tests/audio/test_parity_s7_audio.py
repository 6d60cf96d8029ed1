"""Session-7 differential parity of paddle.audio / paddle.text against real Paddle 3.3.1."""
import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

RS = np.random.RandomState(7)


# ---- get_window: parameters and lengths ---------------------------------------------------

@pytest.mark.parametrize("window", [("kaiser",), "general_gaussian", ("general_gaussian", 1.5),
                                    "general_cosine", ("general_hamming",)])
@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("fftbins", [True, False])
def test_get_window_missing_parameters_raise_type_error_for_every_length(window, n, fftbins):
    # Paddle checks the window's parameters before it special-cases lengths 0 and 1.
    same_exception(lambda p: p.audio.functional.get_window(window, n, fftbins=fftbins))


@pytest.mark.parametrize("length", [True, None, [4]])
def test_get_window_non_numeric_length_raises_type_error(length):
    same_exception(lambda p: p.audio.functional.get_window("hann", length))


@pytest.mark.parametrize("length", [-1, 2.5, "3"])
def test_get_window_bad_length_value_raises_value_error(length):
    same_exception(lambda p: p.audio.functional.get_window("hann", length))


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "kaiser_window", "blackman_window",
                                  "bartlett_window"])
def test_window_creators_bool_length_raise_type_error(name):
    same_exception(lambda p: getattr(p, name)(True))


@pytest.mark.parametrize("window", ["hamming", "hann", "blackman", "nuttall", "bartlett", "triang", "bohman",
                                    "cosine", "tukey", "taylor", ("kaiser", 8.0), ("gaussian", 2.0),
                                    ("exponential", None, 2.0), ("general_gaussian", 1.5, 3.0),
                                    ("general_hamming", 0.6), ("general_cosine", [0.5, 0.3, 0.2]),
                                    ("tukey", 0.3), ("taylor", 5, 40, False)])
@pytest.mark.parametrize("fftbins", [True, False])
@pytest.mark.parametrize("n", [1, 2, 9])
def test_get_window_values(window, fftbins, n):
    assert_same(*both(lambda p: p.audio.functional.get_window(window, n, fftbins=fftbins)))
    assert_same(*both(lambda p: p.audio.functional.get_window(window, n, fftbins=fftbins, dtype="float32")))


# ---- functional ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_power_to_db_rejects_integer_spectrograms(dtype):
    same_exception(lambda p: p.audio.functional.power_to_db(p.to_tensor([1, 10, 100]).astype(dtype)))


@pytest.mark.parametrize("kw", [dict(), dict(n_mels=40, f_min=50.0, f_max=7000.0), dict(htk=True),
                                dict(norm=None), dict(norm=1), dict(norm=2.0), dict(norm="foo"),
                                dict(dtype="float64", norm=None, htk=True)])
def test_compute_fbank_matrix(kw):
    # float32 filters near their feet cancel catastrophically: torch's and Paddle's linspace / exp
    # differ by an ulp there, so compare with an absolute tolerance of 1e-5.
    assert_same(*both(lambda p: p.audio.functional.compute_fbank_matrix(16000, 512, **kw)), atol=1e-5)


# ---- features ------------------------------------------------------------------------------

def test_spectrogram_rejects_integer_waveforms():
    same_exception(lambda p: p.audio.features.Spectrogram(n_fft=128)(p.arange(1000)))


@pytest.mark.parametrize("cls,kw", [
    ("Spectrogram", dict(n_fft=128, hop_length=None, win_length=100, window="hamming", power=2.0,
                         center=False)),
    ("Spectrogram", dict(n_fft=128, window=("kaiser", 6.0), power=0.5, pad_mode="constant")),
    ("MelSpectrogram", dict(sr=16000, n_fft=256, hop_length=64, n_mels=40, f_min=20.0, f_max=7000.0,
                            htk=True, norm=1.0)),
    ("LogMelSpectrogram", dict(sr=16000, n_fft=256, ref_value=2.0, amin=1e-5, top_db=40.0, norm=None)),
    ("MFCC", dict(sr=16000, n_mfcc=13, n_fft=256, n_mels=40, top_db=60.0, hop_length=100)),
    ("MFCC", dict(sr=16000, n_mfcc=10, n_fft=256, dtype="float64")),
])
@pytest.mark.parametrize("batched", [True, False])
def test_feature_layers_non_default_arguments(cls, kw, batched):
    dtype = kw.get("dtype", "float32")
    x = RS.randn(2, 1200).astype(dtype)
    if not batched:
        x = x[0]
        if cls == "MFCC":  # Paddle's MFCC transposes 3-D log-mels only: ValueError for a 1-D waveform
            same_exception(lambda p: getattr(p.audio.features, cls)(**kw)(p.to_tensor(x)))
            return
    assert_same(*both(lambda p: getattr(p.audio.features, cls)(**kw)(p.to_tensor(x))), rtol=1e-4, atol=1e-4)


# ---- paddle.text.viterbi_decode ------------------------------------------------------------

def test_viterbi_decode_mixed_dtypes_raise_value_error():
    pot = RS.randn(2, 5, 4).astype("float32")
    trans = RS.randn(4, 4)
    same_exception(lambda p: p.text.viterbi_decode(p.to_tensor(pot), p.to_tensor(trans, dtype="float64"),
                                                   p.to_tensor([5, 3])))


def test_viterbi_decode_float_lengths_raise_value_error():
    pot = RS.randn(2, 5, 4).astype("float32")
    trans = RS.randn(4, 4).astype("float32")
    same_exception(lambda p: p.text.viterbi_decode(p.to_tensor(pot), p.to_tensor(trans),
                                                   p.to_tensor([5.0, 3.0])))


@pytest.mark.parametrize("bos", [True, False])
@pytest.mark.parametrize("lengths", [[5, 3, 1], [2, 2, 2]])
def test_viterbi_decoder_layer(bos, lengths):
    pot = RS.randn(3, 5, 4)
    trans = RS.randn(4, 4)
    ours, theirs = both(lambda p: p.text.ViterbiDecoder(p.to_tensor(trans), include_bos_eos_tag=bos)(
        p.to_tensor(pot), p.to_tensor(lengths)))
    assert_same(list(ours), list(theirs))
