"""paddle.save / paddle.load: Paddle's file layout both ways, atomic writes, safe loading."""
from __future__ import annotations

import io
import os
import pickle

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref


def _state(fw):
    rng = np.random.default_rng(0)
    return {"fc.weight": fw.to_tensor(rng.standard_normal((3, 2)).astype("float32")),
            "fc.bias": fw.to_tensor(np.arange(2, dtype="float64")),
            "steps": fw.to_tensor(np.array([7], dtype="int64")),
            "half": fw.to_tensor(np.array([1.5, -2.0], dtype="float32")).astype("bfloat16")}


def _nested(fw):
    return {"a": fw.to_tensor([1.0, 2.0]), "b": [1, "x", fw.to_tensor(np.array([3], dtype="int32"))],
            "c": 3.5, "d": (fw.to_tensor([[True, False]]), {"e": fw.to_tensor([1, 2])})}


@pytest.mark.parametrize("make", [_state, _nested], ids=["state_dict", "nested"])
def test_pagaie_file_loads_in_paddle(tmp_path, make):
    paddle = paddle_ref()
    path = str(tmp_path / "x.pdparams")
    pagaie.save(make(pagaie), path)
    assert_same(_flatten(pagaie.load(path)), _flatten(make(paddle)))
    assert_same(_flatten(paddle.load(path)), _flatten(make(paddle)))


@pytest.mark.parametrize("make", [_state, _nested], ids=["state_dict", "nested"])
def test_paddle_file_loads_in_pagaie(tmp_path, make):
    paddle = paddle_ref()
    path = str(tmp_path / "x.pdparams")
    paddle.save(make(paddle), path)
    assert_same(_flatten(pagaie.load(path)), _flatten(make(paddle)))


def test_return_numpy_and_lone_tensor(tmp_path):
    paddle = paddle_ref()
    path = str(tmp_path / "t.pd")
    paddle.save(paddle.ones([2, 2]), path)
    t = pagaie.load(path)
    assert isinstance(t, pagaie.Tensor) and t.shape == [2, 2]
    out = pagaie.load(str(_save_pagaie(tmp_path, _state(pagaie))), return_numpy=True)
    assert isinstance(out["fc.weight"], np.ndarray)


def test_optimizer_side_entries_round_trip(tmp_path):
    paddle = paddle_ref()
    sd = {"w_moment1_0": paddle.ones([2]), "LR_Scheduler": {"last_epoch": 3, "last_lr": 0.05}}
    path = str(tmp_path / "o.pdopt")
    paddle.save(sd, path)
    ours = pagaie.load(path)
    assert ours["LR_Scheduler"] == {"last_epoch": 3, "last_lr": 0.05}
    pagaie.save(ours, path)
    assert paddle.load(path)["LR_Scheduler"]["last_epoch"] == 3


def test_file_object(tmp_path):
    buf = io.BytesIO()
    pagaie.save(_nested(pagaie), buf)
    buf.seek(0)
    assert pagaie.load(buf)["b"][2].tolist() == [3]


def test_write_is_atomic(tmp_path, monkeypatch):
    path = str(tmp_path / "m.pdparams")
    pagaie.save({"w": pagaie.ones([2])}, path)

    def crash(*a, **k):
        raise KeyboardInterrupt("simulated crash mid-save")

    monkeypatch.setattr(pickle, "dump", crash)
    with pytest.raises(KeyboardInterrupt):
        pagaie.save({"w": pagaie.zeros([2])}, path)
    monkeypatch.undo()
    assert pagaie.load(path)["w"].tolist() == [1.0, 1.0]
    assert os.listdir(tmp_path) == ["m.pdparams"]


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned > /dev/null",))


def test_load_refuses_code_unless_opted_in(tmp_path):
    path = str(tmp_path / "evil.pdparams")
    with open(path, "wb") as f:
        pickle.dump({"w": _Evil()}, f)
    with pytest.raises(pickle.UnpicklingError, match="allow_pickle"):
        pagaie.load(path)
    assert pagaie.load(path, allow_pickle=True)["w"] == 0


@pytest.mark.parametrize("content", [b"", b"\x80\x04garbage", b"not a pickle at all"])
def test_corrupt_file_is_a_clear_error(tmp_path, content):
    path = str(tmp_path / "bad.pdparams")
    good = pickle.dumps({"w": np.ones(3)})
    with open(path, "wb") as f:
        f.write(content or good[: len(good) // 2])
    with pytest.raises(ValueError, match="paddle.load"):
        pagaie.load(path)


def test_bad_arguments():
    with pytest.raises(ValueError, match="does not exist"):
        pagaie.load("/nonexistent/file.pdparams")
    with pytest.raises(ValueError, match="protocol"):
        pagaie.save({"w": pagaie.ones([1])}, io.BytesIO(), protocol=9)


def _save_pagaie(tmp_path, obj):
    path = tmp_path / "s.pdparams"
    pagaie.save(obj, str(path))
    return path


def _flatten(obj):
    """A canonical list of leaves, so dicts compare in key order."""
    if isinstance(obj, dict):
        return [x for k in sorted(obj) for x in [k] + _as_list(_flatten(obj[k]))]
    if isinstance(obj, (list, tuple)):
        return [_flatten(v) for v in obj]
    if hasattr(obj, "numpy"):
        return obj.astype("float32") if "bfloat16" in str(obj.dtype) else obj
    return obj


def _as_list(v):
    return v if isinstance(v, list) else [v]
