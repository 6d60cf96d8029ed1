"""paddle.audio.functional.get_window and the window creators: pagaie vs real Paddle."""
import numpy as np
import pytest

import pagaie
import pagaie.audio  # noqa: F401
from pagaie.audio.functional import window_tensors
from tests.reference import assert_same, both, paddle_ref, same_exception

WINDOWS = ["hamming", "hann", "triang", "bohman", "blackman", "cosine", "tukey", "taylor", "bartlett",
           "nuttall", ("tukey", 0.3), ("tukey", 0.0), ("taylor", 5, 25, False), ("taylor", 1),
           ("taylor", 2), ("gaussian", 2.0), ("general_gaussian", 1.5, 2.0), ("exponential", None, 2.0),
           ("kaiser", 8.0), ("kaiser", 0.5), ("general_hamming", 0.6), ("general_cosine", [0.5, 0.5]),
           ("hann",)]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("fftbins", [True, False])
def test_get_window(window, fftbins):
    for n in (0, 1, 2, 3, 7, 8, 33):
        for dtype in ("float64", "float32"):
            ours, theirs = both(lambda p: p.audio.functional.get_window(window, n, fftbins, dtype))
            assert_same(ours, theirs, rtol=1e-5, atol=1e-6, what=f"{window} n={n} {dtype}")


def test_get_window_default_dtype_and_exponential_center():
    ours, theirs = both(lambda p: p.audio.functional.get_window("hann", 16))
    assert_same(ours, theirs, rtol=1e-12, atol=1e-12)
    # a centre is only allowed for a periodic window
    ours, theirs = both(lambda p: p.audio.functional.get_window(("exponential", 1.0), 5))
    assert_same(ours, theirs, rtol=1e-12)


def test_tukey_alpha_one_is_hann_in_requested_dtype():
    # Paddle returns the float64 hann window whatever the dtype (a bug); values agree
    ref = paddle_ref()
    ours = pagaie.audio.functional.get_window(("tukey", 1.0), 9, dtype="float32")
    theirs = ref.audio.functional.get_window(("tukey", 1.0), 9, dtype="float32")
    assert str(ours.dtype) == "paddle.float32"
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-7)


@pytest.mark.parametrize("args", [("gaussian", 5), ("kaiser", 5), ("exponential", 5), ("foo", 5), (3, 5),
                                  (["hann"], 5), ("hann", 3.5), ("hann", -1), ("hann", 3.0),
                                  (("exponential", 1.0, 1.0), 5, False)], ids=str)
def test_get_window_errors(args):
    same_exception(lambda p: p.audio.functional.get_window(*args))


def test_get_window_integer_dtype():
    same_exception(lambda p: p.audio.functional.get_window("hann", 8, True, "int32"))


@pytest.mark.parametrize("name,kw", [("hann_window", {}), ("hamming_window", {"alpha": 0.5, "beta": 0.5}),
                                     ("hamming_window", {}), ("kaiser_window", {"beta": 5.0}),
                                     ("blackman_window", {}), ("bartlett_window", {})])
@pytest.mark.parametrize("periodic", [True, False])
def test_window_creators(name, kw, periodic):
    ref = paddle_ref()
    for n in (1, 6, 9):
        for dtype in ("float32", "float64"):
            ours = getattr(window_tensors, name)(n, periodic, dtype=dtype, **kw)
            theirs = getattr(ref, name)(n, periodic, dtype=dtype, **kw)
            assert_same(ours, theirs, rtol=1e-5, atol=1e-6, what=f"{name} {n} {dtype}")
    ours = getattr(window_tensors, name)(6, requires_grad=True)
    assert ours.stop_gradient is False and str(ours.place) == "Place(cpu)"


def test_window_creators_pin_memory_on_cpu():
    ref = paddle_ref()
    with pytest.raises(RuntimeError):
        ref.hann_window(6, pin_memory=True, device="cpu")
    with pytest.raises(RuntimeError):
        window_tensors.hann_window(6, pin_memory=True, device="cpu")


def test_toplevel_window_creators_match_paddles_names():
    ref = paddle_ref()
    import inspect
    for name in pagaie.audio.__paddle_toplevel__:
        ours, theirs = getattr(pagaie.audio, name), getattr(ref, name)
        assert ([(p.name, p.default, p.kind) for p in inspect.signature(ours).parameters.values()]
                == [(p.name, p.default, p.kind) for p in inspect.signature(theirs).parameters.values()])
