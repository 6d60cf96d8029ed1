"""paddle.audio.load / info / save (16-bit PCM WAV) and paddle.audio.backends: pagaie vs real Paddle."""
import io
import os
import pathlib
import wave

import numpy as np
import pytest

import pagaie
import pagaie.audio  # noqa: F401
from tests.reference import assert_same, both, paddle_ref, same_exception

RS = np.random.RandomState(5)
STEREO = RS.uniform(-0.99, 0.99, (2, 50)).astype("float32")


def _write(tmp_path, fw, name, data, sr=8000, **kw):
    path = str(tmp_path / name)
    fw.audio.save(path, fw.to_tensor(data), sr, **kw)
    return path


@pytest.mark.parametrize("data", [STEREO, STEREO[:1], (STEREO * 20000).astype("int16")],
                         ids=["stereo", "mono", "int16"])
def test_save_writes_paddles_bytes(tmp_path, data):
    ref = paddle_ref()
    ours = _write(tmp_path, pagaie, "ours.wav", data)
    theirs = _write(tmp_path, ref, "theirs.wav", data)
    assert pathlib.Path(ours).read_bytes() == pathlib.Path(theirs).read_bytes()


def test_save_channels_last(tmp_path):
    ref = paddle_ref()
    ours = _write(tmp_path, pagaie, "ours.wav", STEREO.T.copy(), channels_first=False)
    theirs = _write(tmp_path, ref, "theirs.wav", STEREO.T.copy(), channels_first=False)
    assert pathlib.Path(ours).read_bytes() == pathlib.Path(theirs).read_bytes()


@pytest.mark.parametrize("kw", [{}, {"normalize": False}, {"channels_first": False},
                                {"frame_offset": 3, "num_frames": 4}, {"frame_offset": 45, "num_frames": 10},
                                {"num_frames": 0},
                                {"frame_offset": 10, "num_frames": 5, "normalize": False, "channels_first": False}])
def test_load(tmp_path, kw):
    path = _write(tmp_path, paddle_ref(), "a.wav", STEREO, sr=22050)
    ours, theirs = both(lambda p: p.audio.load(path, **kw))
    assert_same(ours[0], theirs[0], rtol=0, atol=0)
    assert ours[1] == theirs[1] == 22050 and type(ours[1]) is int
    assert ours[0].stop_gradient is True


def test_load_file_object_and_path(tmp_path):
    path = _write(tmp_path, pagaie, "a.wav", STEREO)
    ref = paddle_ref()
    with open(path, "rb") as f:
        ours = pagaie.audio.load(f)
    theirs = ref.audio.load(pathlib.Path(path))
    assert_same(ours[0], theirs[0], rtol=0, atol=0)
    assert_same(pagaie.audio.load(pathlib.Path(path))[0], theirs[0], rtol=0, atol=0)


def test_info(tmp_path):
    path = _write(tmp_path, pagaie, "a.wav", STEREO, sr=44100)
    ours, theirs = both(lambda p: p.audio.info(path))
    assert type(ours).__name__ == type(theirs).__name__ == "AudioInfo"
    assert vars(ours) == vars(theirs) == dict(sample_rate=44100, num_samples=50, num_channels=2,
                                              bits_per_sample=16, encoding="PCM_S")
    with open(path, "rb") as f:
        assert vars(pagaie.audio.info(f)) == vars(theirs)


def test_round_trip_in_memory():
    buf = io.BytesIO()
    pagaie.audio.save(buf, pagaie.to_tensor(STEREO), 16000)
    buf.seek(0)
    wav, sr = pagaie.audio.load(buf)
    assert sr == 16000 and wav.dtype == pagaie.float32
    np.testing.assert_allclose(wav.numpy(), STEREO, atol=2 / 32768)


def test_errors(tmp_path):
    path = _write(tmp_path, pagaie, "a.wav", STEREO)
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF\x00\x00\x00\x00WAVEjunkjunkjunk")
    out = str(tmp_path / "o.wav")
    same_exception(lambda p: p.audio.save(out, p.to_tensor(STEREO[0]), 8000))
    same_exception(lambda p: p.audio.save(out, p.to_tensor(STEREO), 8000, bits_per_sample=8))
    same_exception(lambda p: p.audio.load(str(tmp_path / "missing.wav")))
    same_exception(lambda p: p.audio.info(str(tmp_path / "missing.wav")))
    same_exception(lambda p: p.audio.load(str(bad)))
    same_exception(lambda p: p.audio.info(str(bad)))
    assert os.path.exists(path)


def test_not_16_bit(tmp_path):
    path = str(tmp_path / "u8.wav")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8000)
        w.writeframes(bytes(range(0, 256, 8)))
    assert pagaie.audio.info(path).bits_per_sample == 8
    with pytest.raises(NotImplementedError, match="16-bit"):
        pagaie.audio.load(path)


def test_fixed_paddle_bugs(tmp_path):
    """Behaviours where pagaie does what Paddle documents rather than what it does."""
    # full-scale floats are clipped to 32767 instead of wrapping to -32768
    path = _write(tmp_path, pagaie, "full.wav", np.array([[1.0, -1.0, 2.0]], "float32"))
    assert pagaie.audio.load(path, normalize=False)[0].numpy().tolist() == [[32767.0, -32768.0, 32767.0]]
    # float64 waveforms are scaled like float32 ones (Paddle writes their raw 8-byte values)
    path = _write(tmp_path, pagaie, "f64.wav", STEREO.astype("float64"))
    assert (pathlib.Path(path).read_bytes()
            == pathlib.Path(_write(tmp_path, pagaie, "f32.wav", STEREO)).read_bytes())
    # bits_per_sample=None means 16; a pathlib.Path can be written to
    pagaie.audio.save(tmp_path / "p.wav", pagaie.to_tensor(STEREO), 8000, bits_per_sample=None)
    assert pagaie.audio.info(tmp_path / "p.wav").num_samples == 50
    # frame_offset is honoured when reading to the end (Paddle ignores it there)
    wav, _ = pagaie.audio.load(path, frame_offset=40)
    np.testing.assert_allclose(wav.numpy(), pagaie.audio.load(path)[0].numpy()[:, 40:])
    with pytest.raises(ValueError, match="frame_offset"):
        pagaie.audio.load(path, frame_offset=-1)


def test_backends():
    ours, theirs = both(lambda p: p.audio.backends.get_current_backend())
    assert ours == theirs == "wave_backend"
    ours, theirs = both(lambda p: p.audio.backends.list_available_backends())
    assert ours == theirs == ["wave_backend"]
    same_exception(lambda p: p.audio.backends.set_backend("soundfile"))
    assert pagaie.audio.backends.set_backend("wave_backend") is None
    assert pagaie.audio.backends.get_current_backend() == "wave_backend"
