"""paddle.save / paddle.load details against real Paddle: which arrays come back as
tensors, pickle protocol 2 files, and the errors for bad paths, objects and configs."""
import io

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception


def _kinds(v):
    if isinstance(v, dict):
        return {k: _kinds(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [type(v).__name__] + [_kinds(x) for x in v]
    if isinstance(v, np.ndarray):
        return ("ndarray", str(v.dtype), v.tolist())
    if hasattr(v, "numpy"):
        return ("Tensor", str(v.dtype).replace("paddle.", ""), v.numpy().tolist())
    return v


def _objects(pd):
    return [
        {"w": np.ones(2), "t": pd.ones([1])},           # arrays next to tensors stay arrays
        [np.ones(2), pd.ones([1])],
        {"a": {"w": np.arange(3)}, "b": [np.ones(1)]},   # no tensors: arrays become tensors
        np.arange(4.0),
        {"w": np.ones(2), "s": "x", "n": 3},
    ]


@pytest.mark.parametrize("i", range(5))
@pytest.mark.parametrize("return_numpy", [False, True])
def test_arrays_and_tensors_come_back_like_paddle(tmp_path, i, return_numpy):
    ref = paddle_ref()
    got = []
    for m in (pagaie, ref):
        path = str(tmp_path / f"{m.__name__}.pd")
        m.save(_objects(m)[i], path)
        # both frameworks read both files the same way
        got.append([_kinds(pagaie.load(path, return_numpy=return_numpy)),
                    _kinds(ref.load(path, return_numpy=return_numpy))])
    assert got[0][0] == got[0][1] == got[1][0] == got[1][1]


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_protocols_load(tmp_path, protocol):
    ref = paddle_ref()
    for m in (pagaie, ref):
        path = str(tmp_path / f"{m.__name__}.pd")
        m.save({"t": m.to_tensor([1.5, 2.5]), "l": [m.to_tensor([1])]}, path, protocol=protocol)
        assert _kinds(pagaie.load(path)) == _kinds(ref.load(path))
    buf = io.BytesIO()
    pagaie.save(pagaie.to_tensor([3.0]), buf, pickle_protocol=2)
    buf.seek(0)
    assert pagaie.load(buf).tolist() == [3.0]


@pytest.mark.parametrize("case", ["int_path", "layer", "config"])
def test_save_errors(tmp_path, case):
    def f(pd):
        if case == "int_path":
            pd.save({"a": pd.ones([1])}, 3)
        elif case == "layer":
            pd.save(pd.nn.Linear(2, 2), str(tmp_path / "l.pd"))
        else:
            pd.save({"a": 1}, str(tmp_path / "c.pd"), foo=1)
    same_exception(f)


@pytest.mark.parametrize("content", [b"", b"\x80\x04", b"garbage"])
def test_unreadable_files_raise_like_paddle(tmp_path, content):
    path = tmp_path / "bad.pdparams"
    path.write_bytes(content)
    err = same_exception(lambda pd: pd.load(str(path)))
    assert isinstance(err, ValueError) and "paddle.load" in str(err)
