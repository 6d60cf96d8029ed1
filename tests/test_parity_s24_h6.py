"""Session-24 (h6): paddle.save/load, DLPack devices and framework utilities against real
Paddle 3.3.1: Paddle's sliced layout of big state-dict arrays under pickle protocols 2/3 (both
ways), use_binary_format refusing numpy arrays, Tensor.__dlpack_device__, device strings with
a bad GPU index, try_import's install hint and unique_name.__all__."""
from __future__ import annotations

import io
import pickle

import numpy as np
import pytest

import pagaie
import pagaie.framework.io as pagaie_io
from tests.reference import same_exception

paddle = pytest.importorskip("paddle")

_SLICES = "UnpackBigParamInfor@@"


def _state_dict(P):
    return {"w": P.to_tensor(np.arange(30, dtype="float32").reshape(5, 6)),
            "b": P.to_tensor(np.arange(3, dtype="int64")),
            "h": P.to_tensor(np.arange(25, dtype="float16"))}


def _summary(loaded):
    return {k: (list(v.shape), str(v.dtype).split(".")[-1], v.name, np.asarray(v).tolist())
            for k, v in loaded.items()}


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_big_arrays_sliced_for_old_protocols_read_by_paddle(protocol, monkeypatch):
    # arrays over the slice size (1 GiB in real use; 40 bytes here) go to Paddle's slice table
    monkeypatch.setattr(pagaie_io, "_SLICE_BYTES", 40)
    buf = io.BytesIO()
    pagaie.save(_state_dict(pagaie), buf, protocol=protocol)
    raw = pickle.loads(buf.getvalue())
    if protocol < 4:
        assert raw[_SLICES] == {"w": {"OriginShape": (5, 6), "slices": ["w@@.0", "w@@.1", "w@@.2"]},
                                "h": {"OriginShape": (25,), "slices": ["h@@.0", "h@@.1"]}}
    else:
        assert _SLICES not in raw
    for return_numpy in (False, True):
        buf.seek(0)
        theirs = paddle.load(buf, return_numpy=return_numpy)
        buf.seek(0)
        ours = pagaie.load(buf, return_numpy=return_numpy)
        assert list(ours) == list(theirs)
        if return_numpy:
            for k in theirs:
                np.testing.assert_array_equal(ours[k], theirs[k])
                assert ours[k].dtype == theirs[k].dtype
        else:
            assert _summary(ours) == _summary(theirs)


def test_paddle_sliced_state_dict_loads():
    # a state dict in the layout Paddle writes for arrays over 1 GiB with protocol 2/3
    w = np.arange(12, dtype="float32").reshape(3, 4)
    saved = {"b": np.ones(2, "float64"),
             "StructuredToParameterName@@": {"w": "linear_0.w_0", "b": "linear_0.b_0"},
             "w@@.0": w.ravel()[:5], "w@@.1": w.ravel()[5:10], "w@@.2": w.ravel()[10:],
             _SLICES: {"w": {"OriginShape": (3, 4), "slices": ["w@@.0", "w@@.1", "w@@.2"]}}}
    data = pickle.dumps(saved, protocol=2)
    theirs = paddle.load(io.BytesIO(data))
    ours = pagaie.load(io.BytesIO(data))
    assert list(ours) == list(theirs) == ["b", "w"]
    assert _summary(ours) == _summary(theirs)
    kept = pagaie.load(io.BytesIO(data), keep_name_table=True, return_numpy=True)
    assert sorted(kept) == sorted(paddle.load(io.BytesIO(data), keep_name_table=True, return_numpy=True))


def test_binary_format_refuses_numpy_array():
    same_exception(lambda P: P.save(np.ones(2, "float32"), io.BytesIO(), use_binary_format=True))


def test_dlpack_device_cpu():
    ours = pagaie.to_tensor([1.0, 2.0]).__dlpack_device__()
    theirs = paddle.to_tensor([1.0, 2.0]).__dlpack_device__()
    assert ours == theirs
    assert ours[1] is None
    assert type(ours[0]).__name__ == type(theirs[0]).__name__ == "DLDeviceType"
    assert type(ours[0]) is pagaie.utils.dlpack.DLDeviceType
    # consumers still read the tensor through the protocol
    np.testing.assert_array_equal(np.from_dlpack(pagaie.to_tensor([1.0, 2.0])), [1.0, 2.0])


@pytest.mark.parametrize("device", ["gpu:x", "gpu:", "gpu:-1"])
def test_set_device_bad_gpu_index(device):
    exc = same_exception(lambda P: P.set_device(device))
    assert repr(device) in str(exc) and "int()" not in str(exc)


@pytest.mark.parametrize("name", ["nonexistent_mod_h6.sub.leaf", "nonexistent_mod_h6"])
def test_try_import_install_hint(name):
    def hint(P):
        with pytest.raises(ImportError) as info:
            P.utils.try_import(name)
        msg = str(info.value)
        return msg[msg.index("pip install"):].split("`")[0]
    assert hint(pagaie) == hint(paddle) == "pip install nonexistent_mod_h6"


def test_unique_name_all():
    assert sorted(pagaie.utils.unique_name.__all__) == sorted(paddle.utils.unique_name.__all__)


def test_state_dict_without_vars_detaches_as_paddle():
    # keep_vars=False hands out detached tensors, named and flagged as Paddle's detach() names
    # them, so a saved name table matches too
    def run(P):
        sd = P.nn.BatchNorm1D(2).state_dict(keep_vars=False)
        return {k: (type(v).__name__, v.name.rsplit("_", 1)[0], v.persistable, v.stop_gradient)
                for k, v in sd.items()}
    assert run(pagaie) == run(paddle)


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
@pytest.mark.parametrize("kind", ["lone", "state_dict", "nested"])
def test_float8_saved_as_int8_bits(dtype, kind):
    # Paddle stores a float8 tensor as its int8 bit patterns (and so loads an int8 tensor)
    def saved(P):
        x = P.to_tensor([1.5, -2.0, 0.0]).astype(dtype)
        obj = {"lone": x, "state_dict": {"w": x}, "nested": [x, {"a": x}]}[kind]
        buf = io.BytesIO()
        P.save(obj, buf)
        return buf.getvalue()

    def pick(loaded):
        if kind == "state_dict":
            return loaded["w"]
        return loaded[1]["a"] if kind == "nested" else loaded

    for data in (saved(pagaie), saved(paddle)):
        for return_numpy in (False, True):
            ours = pick(pagaie.load(io.BytesIO(data), return_numpy=return_numpy))
            theirs = pick(paddle.load(io.BytesIO(data), return_numpy=return_numpy))
            assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1] == "int8"
            np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))


def _deprecation(P, **kw):
    """(result, warnings as (category, text), docstring) of a call to a deprecated function."""
    import warnings

    @P.utils.deprecated(**kw)
    def old(x):
        "doc"
        return x + 1
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = old(1)
    return out, [(w.category.__name__, str(w.message)) for w in seen
                 if "deprecated" in str(w.message)], old.__doc__


@pytest.mark.parametrize("kw", [dict(level=1), dict(level=1, since="2.0", update_to="paddle.add", reason="old"),
                                dict(level=1, since="2.0rc1"), dict(level=1, since="abc"),
                                dict(level=1, since="3.3.1.post1"), dict(level=1, since="99.0")])
def test_deprecated_warning_text(kw):
    assert _deprecation(pagaie, **kw) == _deprecation(paddle, **kw)


@pytest.mark.parametrize("arg", ["since", "update_to", "reason"])
def test_deprecated_argument_type(arg):
    exc = same_exception(lambda P: P.utils.deprecated(**{arg: 1})(lambda: 0))
    assert f'"{arg}"' in str(exc)


def test_flags_from_environment_parsed_as_paddle():
    # Paddle reads FLAGS_* variables at import: a bool is exactly true/false/1/0, an int or a
    # float the number at the start; anything else keeps the default
    import json
    import os
    import subprocess
    import sys
    env_values = {"FLAGS_check_nan_inf": "yes", "FLAGS_use_stride_kernel": "0",
                  "FLAGS_benchmark": " 1", "FLAGS_call_stack_level": "2abc",
                  "FLAGS_paddle_num_threads": "3.5", "FLAGS_eager_delete_tensor_gb": "0x10",
                  "FLAGS_fraction_of_cpu_memory_to_use": "0.25x"}
    # one process reads both (each reads the variables when imported)
    code = ("import json, pagaie, paddle; "
            f"print(json.dumps([m.get_flags({sorted(env_values)!r}) for m in (pagaie, paddle)]))")
    env = {**os.environ, **env_values, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout
    ours, theirs = json.loads(out.strip().splitlines()[-1])
    assert ours == theirs
    assert ours["FLAGS_check_nan_inf"] is False and ours["FLAGS_call_stack_level"] == 2


@pytest.mark.parametrize("array", [np.array([1], "uint32"), np.array([1], "uint64"), np.array(["a"]),
                                   np.array([1], "datetime64[D]")], ids=str)
@pytest.mark.parametrize("wrap", ["lone", "list", "dict"])
def test_load_array_without_tensor_dtype(array, wrap):
    # a saved bare array becomes a Tensor on load; one of a dtype no Tensor has is a ValueError,
    # and return_numpy=True still hands it back
    obj = {"lone": array, "list": [array], "dict": {"x": array}}[wrap]

    def load(P, **kw):
        buf = io.BytesIO()
        P.save(obj, buf)
        buf.seek(0)
        return P.load(buf, **kw)
    exc = same_exception(load)
    assert str(array.dtype) in str(exc)
    ours, theirs = load(pagaie, return_numpy=True), load(paddle, return_numpy=True)
    assert repr(ours) == repr(theirs)


def test_load_ellipsis():
    buf = io.BytesIO()
    paddle.save((None, True, Ellipsis), buf)
    assert pagaie.load(io.BytesIO(buf.getvalue())) == paddle.load(io.BytesIO(buf.getvalue()))


@pytest.mark.parametrize("sub", ["x.pd", "deeper/x.pd"])
def test_save_under_a_file(tmp_path, sub):
    (tmp_path / "afile").write_text("x")
    path = str(tmp_path / "afile" / sub)
    exc = same_exception(lambda P: P.save({"a": P.ones([1])}, path))
    assert isinstance(exc, NotADirectoryError)


@pytest.mark.parametrize("mode", ["r", "ab"])
def test_load_from_unreadable_or_text_file(tmp_path, mode):
    path = tmp_path / "w.pd"
    paddle.save({"a": paddle.ones([1])}, str(path))

    def load(P):
        with open(path, mode) as f:
            return P.load(f)
    same_exception(load)


def test_from_dlpack_names_like_to_tensor():
    def names(P):
        y = P.to_tensor([1.0]) * 2
        made = [P.from_dlpack(y), P.from_dlpack(P.to_dlpack(y)), P.utils.dlpack.from_dlpack(np.ones(1))]
        return [t.name.rsplit("_", 1)[0] for t in made]
    assert names(pagaie) == names(paddle) == ["generated_tensor"] * 3


@pytest.mark.parametrize("obj", ["list", "dict_of_numbers"])
def test_safetensors_only_for_state_dicts(tmp_path, obj):
    # Paddle writes safetensors only for a state dict; other objects are pickled as usual
    pytest.importorskip("safetensors")

    def run(P):
        path = str(tmp_path / f"{P.__name__}.pd")
        P.save({"list": [P.to_tensor([1.0, 2.0])], "dict_of_numbers": {"a": 1}}[obj], path,
               safetensors=True)
        loaded = P.load(path)
        return [x.tolist() for x in loaded] if obj == "list" else loaded
    assert run(pagaie) == run(paddle)


@pytest.mark.parametrize("flag,value", [("FLAGS_search_cache_max_number", 2**40),
                                        ("FLAGS_call_stack_level", 2**31),
                                        ("FLAGS_initial_cpu_memory_in_mb", -1),
                                        ("FLAGS_eager_delete_tensor_gb", 2**70)])
def test_set_flags_out_of_the_flag_width(flag, value):
    def run(P):
        old = P.get_flags(flag)
        try:
            P.set_flags({flag: value})
        finally:
            P.set_flags(old)
    if flag == "FLAGS_eager_delete_tensor_gb":   # a float flag takes any number
        run(pagaie), run(paddle)
    else:
        same_exception(run)


def test_set_flags_within_the_flag_width():
    def run(P):
        old = P.get_flags(["FLAGS_initial_cpu_memory_in_mb", "FLAGS_call_stack_level"])
        P.set_flags({"FLAGS_initial_cpu_memory_in_mb": 2**40, "FLAGS_call_stack_level": -1})
        got = P.get_flags(list(old))
        P.set_flags(old)
        return got
    assert run(pagaie) == run(paddle)
