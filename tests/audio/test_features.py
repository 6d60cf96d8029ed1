"""paddle.audio.features layers: pagaie vs real Paddle on the same waveforms."""
import numpy as np
import pytest

import pagaie
import pagaie.audio  # noqa: F401
from tests.reference import assert_same, paddle_ref, same_exception

WAVE = np.random.RandomState(7).uniform(-1, 1, (2, 3000)).astype("float32")


def _run(cls_name, kw, x=WAVE, **tol):
    ref = paddle_ref()
    ours = getattr(pagaie.audio.features, cls_name)(**kw)(pagaie.to_tensor(x))
    theirs = getattr(ref.audio.features, cls_name)(**kw)(ref.to_tensor(x))
    assert_same(ours, theirs, **tol)
    return ours


@pytest.mark.parametrize("kw", [dict(n_fft=256), dict(n_fft=256, hop_length=64, power=2.0),
                                dict(n_fft=200, hop_length=None, win_length=160, window="hamming"),
                                dict(n_fft=128, hop_length=32, window=("kaiser", 6.0), center=False),
                                dict(n_fft=128, hop_length=50, pad_mode="constant", window="blackman"),
                                dict(n_fft=64, hop_length=16, window=("gaussian", 8.0), power=0.5)])
def test_spectrogram(kw):
    _run("Spectrogram", kw, rtol=1e-4, atol=1e-4)


def test_spectrogram_defaults_and_1d():
    x = WAVE[0]
    _run("Spectrogram", {}, x=np.concatenate([x, x]), rtol=1e-4, atol=1e-4)
    _run("Spectrogram", dict(n_fft=256, dtype="float64"), x=WAVE.astype("float64"), rtol=1e-9, atol=1e-9)
    # a float64 signal with the float32 window is promoted (as Paddle does)
    _run("Spectrogram", dict(n_fft=256), x=WAVE.astype("float64"), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("kw", [dict(sr=16000, n_fft=256), dict(sr=16000, n_fft=512, hop_length=128, n_mels=40,
                                                                   f_min=0.0, f_max=7000.0, htk=True),
                                dict(sr=8000, n_fft=256, hop_length=100, norm=2.0, power=1.0),
                                dict(sr=22050, n_fft=256, norm=None, window="hamming")])
def test_mel_spectrogram(kw):
    _run("MelSpectrogram", kw, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("kw", [dict(sr=16000, n_fft=256), dict(sr=16000, n_fft=512, n_mels=40, top_db=60.0),
                                dict(sr=8000, n_fft=256, ref_value=10.0, amin=1e-5, htk=True)])
def test_log_mel_spectrogram(kw):
    _run("LogMelSpectrogram", kw, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("kw", [dict(sr=16000, n_fft=256), dict(sr=16000, n_mfcc=13, n_fft=400, hop_length=160,
                                                                   n_mels=40, top_db=80.0),
                                dict(sr=8000, n_mfcc=20, n_fft=256, n_mels=20, f_max=3500.0, dtype="float64")])
def test_mfcc(kw):
    x = WAVE.astype(kw.get("dtype", "float32"))
    _run("MFCC", kw, x=x, rtol=1e-4, atol=2e-3)


def test_default_layers_state_dict_and_attributes():
    ref = paddle_ref()
    for name in ("Spectrogram", "MelSpectrogram", "LogMelSpectrogram", "MFCC"):
        ours, theirs = getattr(pagaie.audio.features, name)(), getattr(ref.audio.features, name)()
        so, st = ours.state_dict(), theirs.state_dict()
        assert list(so) == list(st), name
        for k in st:
            assert_same(so[k], st[k], rtol=1e-5, atol=1e-6, what=f"{name}.{k}")
        assert [n for n, _ in ours.named_sublayers()] == [n for n, _ in theirs.named_sublayers()]
        public = {k: v for k, v in vars(theirs).items() if not k.startswith("_")}
        assert {k: v for k, v in vars(ours).items() if not k.startswith("_")} == public


def test_layer_errors():
    same_exception(lambda p: p.audio.features.Spectrogram(power=0))
    same_exception(lambda p: p.audio.features.MFCC(n_mfcc=80))
    same_exception(lambda p: p.audio.features.Spectrogram(window="foo"))
    same_exception(lambda p: p.audio.features.Spectrogram(window="gaussian"))
    same_exception(lambda p: p.audio.features.Spectrogram(n_fft=256, pad_mode="zeros")(p.to_tensor(WAVE)))
    same_exception(lambda p: p.audio.features.Spectrogram(n_fft=256)(p.ones([2, 2, 300])))
    same_exception(lambda p: p.audio.features.MFCC(sr=16000, n_fft=256)(p.to_tensor(WAVE[0])))


def test_gradient_through_mfcc():
    x = pagaie.to_tensor(WAVE, stop_gradient=False)
    pagaie.audio.features.MFCC(sr=16000, n_fft=256, n_mfcc=13)(x).sum().backward()
    assert x.grad is not None and list(x.grad.shape) == [2, 3000]
    assert np.isfinite(x.grad.numpy()).all()


def test_layers_in_static_program_and_to_static():
    eager_layer = pagaie.audio.features.LogMelSpectrogram(sr=16000, n_fft=256, n_mels=32)
    eager = eager_layer(pagaie.to_tensor(WAVE)).numpy()
    pagaie.enable_static()
    try:
        main, startup = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, startup):
            v = pagaie.static.data("x", [2, 3000], "float32")
            layer = pagaie.audio.features.LogMelSpectrogram(sr=16000, n_fft=256, n_mels=32)
            out = layer(v)
        exe = pagaie.static.Executor()
        exe.run(startup)
        (got,) = exe.run(main, feed={"x": WAVE}, fetch_list=[out])
    finally:
        pagaie.disable_static()
    np.testing.assert_allclose(got, eager, rtol=1e-5, atol=1e-4)
    mfcc = pagaie.audio.features.MFCC(sr=16000, n_fft=256, n_mfcc=13)
    expected = mfcc(pagaie.to_tensor(WAVE)).numpy()
    static_fn = pagaie.jit.to_static(mfcc)
    np.testing.assert_allclose(static_fn(pagaie.to_tensor(WAVE)).numpy(), expected, rtol=1e-5, atol=1e-4)
