"""paddle.audio.functional (mel scale, filter banks, DCT, decibels): pagaie vs real Paddle."""
import numpy as np
import pytest

import pagaie
import pagaie.audio  # noqa: F401  (until the lead registers 'audio' in pagaie/__init__.py)
from tests.reference import assert_same, both, paddle_ref, same_exception

HZ = [0.0, 10.0, 500.0, 999.0, 1000.0, 1001.0, 4000.0, 8000.0, 22050.0]
MELS = [0.0, 10.0, 14.9, 15.0, 15.1, 40.0, 80.0]


@pytest.mark.parametrize("htk", [False, True])
@pytest.mark.parametrize("v", [0.0, 500.0, 999.9, 1000.0, 1000.1, 4000, 22050.0])
def test_hz_to_mel_scalar(htk, v):
    ours, theirs = both(lambda p: p.audio.functional.hz_to_mel(v, htk))
    assert type(ours) is type(theirs) is float
    assert ours == pytest.approx(theirs, rel=1e-12)


@pytest.mark.parametrize("htk", [False, True])
@pytest.mark.parametrize("v", [0.0, 10.0, 15.0, 15.1, 40, 1000.0])
def test_mel_to_hz_scalar(htk, v):
    ours, theirs = both(lambda p: p.audio.functional.mel_to_hz(v, htk))
    assert type(ours) is type(theirs) is float
    assert ours == pytest.approx(theirs, rel=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("htk", [False, True])
def test_mel_scale_tensors(dtype, htk):
    hz, mels = np.array(HZ, dtype), np.array(MELS, dtype)
    ours, theirs = both(lambda p: p.audio.functional.hz_to_mel(p.to_tensor(hz), htk))
    assert_same(ours, theirs, rtol=1e-5)
    ours, theirs = both(lambda p: p.audio.functional.mel_to_hz(p.to_tensor(mels), htk))
    assert_same(ours, theirs, rtol=2e-5 if htk else 1e-5)  # htk: 10**(m/2595) - 1 cancels in float32


def test_mel_scale_round_trip_and_gradient():
    F = pagaie.audio.functional
    f = pagaie.to_tensor([20.0, 700.0, 3000.0], dtype="float64", stop_gradient=False)
    back = F.mel_to_hz(F.hz_to_mel(f))
    np.testing.assert_allclose(back.numpy(), f.numpy(), rtol=1e-9)
    back.sum().backward()
    np.testing.assert_allclose(f.grad.numpy(), np.ones(3), rtol=1e-6)


@pytest.mark.parametrize("fn,arg", [("hz_to_mel", [1, 2000]), ("mel_to_hz", [1, 20])])
def test_mel_scale_integer_tensor(fn, arg):
    # Slaney's formula promotes a float tensor with the integer input: Paddle refuses (TypeError)
    same_exception(lambda p: getattr(p.audio.functional, fn)(p.to_tensor(arg), False))
    # the HTK formula divides first, so an integer tensor gives the default float dtype
    ours, theirs = both(lambda p: getattr(p.audio.functional, fn)(p.to_tensor(arg), True))
    assert_same(ours, theirs, rtol=1e-5)


@pytest.mark.parametrize("args", [(), (10, 20.0, 8000.0, False, "float64"), (10, 20.0, 8000.0, True, "float64"),
                                  (5, 0.0, 4000.0, True), (1, 0.0, 100.0)])
def test_mel_frequencies(args):
    ours, theirs = both(lambda p: p.audio.functional.mel_frequencies(*args))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("args", [(16000, 512), (16000, 511, "float64"), (22050, 2048), (8000, 1)])
def test_fft_frequencies(args):
    ours, theirs = both(lambda p: p.audio.functional.fft_frequencies(*args))
    assert_same(ours, theirs, rtol=1e-6, atol=1e-3)


@pytest.mark.parametrize("htk", [False, True])
@pytest.mark.parametrize("norm", ["slaney", 1.0, 2.0, 2, None, "other"])
def test_compute_fbank_matrix(htk, norm):
    ours, theirs = both(lambda p: p.audio.functional.compute_fbank_matrix(16000, 512, 40, 20.0, None, htk, norm))
    assert_same(ours, theirs, rtol=1e-4, atol=2e-5)


def test_compute_fbank_matrix_defaults_float64():
    ours, theirs = both(lambda p: p.audio.functional.compute_fbank_matrix(22050, 2048, dtype="float64"))
    assert_same(ours, theirs, rtol=1e-9, atol=1e-12)
    ours, theirs = both(lambda p: p.audio.functional.compute_fbank_matrix(sr=8000, n_fft=256, n_mels=20,
                                                                            f_max=3000.0))
    assert_same(ours, theirs, rtol=1e-4, atol=2e-5)


@pytest.mark.parametrize("kw", [{}, {"top_db": None}, {"ref_value": 0.5, "amin": 1e-5, "top_db": 20.0},
                                {"top_db": 0.0}, {"ref_value": 1e-12}])
def test_power_to_db(kw):
    x = np.abs(np.random.RandomState(0).randn(2, 5, 7)) ** 4
    for dtype in ("float32", "float64"):
        ours, theirs = both(lambda p: p.audio.functional.power_to_db(p.to_tensor(x.astype(dtype)), **kw))
        assert_same(ours, theirs, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("kw", [{"amin": 0.0}, {"ref_value": -1.0}, {"top_db": -1.0}])
def test_power_to_db_errors(kw):
    x = np.ones((2, 3), "float32")
    same_exception(lambda p: p.audio.functional.power_to_db(p.to_tensor(x), **kw))


@pytest.mark.parametrize("args", [(13, 40), (40, 40), (4, 6, None), (5, 8, "ortho", "float64"), (1, 4)])
def test_create_dct(args):
    ours, theirs = both(lambda p: p.audio.functional.create_dct(*args))
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


def test_create_dct_bad_norm():
    same_exception(lambda p: p.audio.functional.create_dct(4, 6, norm="backward"))


def test_functional_in_static_program():
    paddle = paddle_ref()  # noqa: F841 - the test compares with numbers Paddle gives eagerly
    F = pagaie.audio.functional
    x = np.abs(np.random.RandomState(1).randn(3, 8)).astype("float32") * 3000
    eager = F.power_to_db(F.hz_to_mel(pagaie.to_tensor(x)), top_db=10.0).numpy()
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            v = pagaie.static.data("x", [3, 8], "float32")
            out = F.power_to_db(F.hz_to_mel(v), top_db=10.0)
            fb = F.compute_fbank_matrix(8000, 64, n_mels=8)
        got, fbank = pagaie.static.Executor().run(main, feed={"x": x}, fetch_list=[out, fb])
    finally:
        pagaie.disable_static()
    np.testing.assert_allclose(got, eager, rtol=1e-6)
    np.testing.assert_allclose(fbank, F.compute_fbank_matrix(8000, 64, n_mels=8).numpy(), rtol=1e-6)


def test_public_names():
    ref = paddle_ref()
    assert sorted(pagaie.audio.functional.__all__) == sorted(ref.audio.functional.__all__)
    assert sorted(pagaie.audio.__all__) == sorted(ref.audio.__all__)
    assert sorted(pagaie.audio.features.__all__) == sorted(ref.audio.features.__all__)
    assert sorted(pagaie.audio.datasets.__all__) == sorted(ref.audio.datasets.__all__)
    assert sorted(pagaie.audio.backends.__all__) == sorted(ref.audio.backends.__all__)
    import inspect
    for mod in ("functional", "features", "backends"):
        for n in getattr(ref.audio, mod).__all__:
            a, b = getattr(getattr(pagaie.audio, mod), n), getattr(getattr(ref.audio, mod), n)
            pa = [(p.name, p.default) for p in inspect.signature(a).parameters.values()]
            pb = [(p.name, p.default) for p in inspect.signature(b).parameters.values()]
            assert pa == pb, f"{mod}.{n}: {pa} vs {pb}"
    for n in ("load", "save", "info"):
        pa = [(p.name, p.default) for p in inspect.signature(getattr(pagaie.audio, n)).parameters.values()]
        pb = [(p.name, p.default) for p in inspect.signature(getattr(ref.audio, n)).parameters.values()]
        assert pa == pb, n


@pytest.mark.parametrize("fn", ["hz_to_mel", "mel_to_hz"])
def test_mel_scale_numpy_array_is_not_a_tensor(fn):
    # Slaney's formula compares a Python number: an array is ambiguous (ValueError), as in Paddle
    same_exception(lambda p: getattr(p.audio.functional, fn)(np.array([1.0, 2000.0]), False))


def test_hz_to_mel_htk_numpy_array():
    same_exception(lambda p: p.audio.functional.hz_to_mel(np.array([1.0, 2000.0]), True))
    ours, theirs = both(lambda p: p.audio.functional.mel_to_hz(np.array([1.0, 20.0]), True))
    np.testing.assert_allclose(ours, theirs)
