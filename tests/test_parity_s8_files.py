"""paddle.save / paddle.load files across frameworks (session-8 sweep): written by one of
pagaie and real Paddle 3.3.1, read by both; Python types, dtypes, names and error types."""
import collections
import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref, same_exception


def _kinds(v):
    """What a loaded object is made of, with tensor names reduced to their pattern."""
    if isinstance(v, dict):
        return (type(v).__name__, {k: _kinds(x) for k, x in v.items()})
    if isinstance(v, (list, tuple)):
        return [type(v).__name__] + [_kinds(x) for x in v]
    if isinstance(v, np.ndarray):
        return ("ndarray", str(v.dtype), v.tolist())
    if hasattr(v, "stop_gradient"):
        return ("Tensor", str(v.dtype).replace("paddle.", ""), v.numpy().tolist(), v.stop_gradient,
                re.sub(r"\d+", "N", v.name))
    return v


def _cross(tmp_path, make, **load_cfg):
    """Each framework writes make(framework); both read both files; all four must agree."""
    ref = paddle_ref()
    got = []
    for w in (pagaie, ref):
        path = str(tmp_path / f"{w.__name__}.pdparams")
        w.save(make(w), path)
        got += [_kinds(pagaie.load(path, **load_cfg)), _kinds(ref.load(path, **load_cfg))]
    assert got[0] == got[1] == got[2] == got[3], got


@pytest.mark.parametrize("return_numpy", [False, True])
def test_dict_of_plain_dicts_is_a_state_dict(tmp_path, return_numpy):
    # Paddle saves it with a name table, so its arrays come back as arrays
    _cross(tmp_path, lambda pd: {"a": {"w": np.arange(3)}, "b": {"x": 1}}, return_numpy=return_numpy)


def test_tensor_next_to_config_dict(tmp_path):
    _cross(tmp_path, lambda pd: {"w": pd.to_tensor([1.0, 2.0]), "cfg": {"a": 1, "b": np.ones(1)}})


def test_loaded_arrays_are_named_like_to_tensor(tmp_path):
    # bare arrays (and uint16 bfloat16 bits) load as generated_tensor_N
    _cross(tmp_path, lambda pd: {"w": np.ones(2, dtype=np.float32), "h": np.ones(2, dtype=np.uint16)})
    _cross(tmp_path, lambda pd: [np.arange(3)])


def test_empty_tensor_with_protocol_2(tmp_path):
    ref = paddle_ref()
    for w in (pagaie, ref):
        path = str(tmp_path / f"{w.__name__}.pd")
        w.save(w.zeros([0, 3]), path, protocol=2)
        out = pagaie.load(path)
        assert out.shape == [0, 3] and str(out.dtype) == "paddle.float32"


def test_optimizer_with_scheduler_cross(tmp_path):
    def make(pd):
        pd.seed(1)
        lin = pd.nn.Linear(2, 2)
        sched = pd.optimizer.lr.StepDecay(0.1, step_size=2)
        opt = pd.optimizer.Adam(learning_rate=sched, parameters=lin.parameters())
        lin(pd.ones([1, 2])).sum().backward()
        opt.step()
        sched.step()
        return {k.replace(lin.weight.name, "W").replace(lin.bias.name, "B"): v
                for k, v in opt.state_dict().items()}
    _cross(tmp_path, make)


@pytest.mark.parametrize("case", ["proto5", "proto5_sd", "binfmt_int", "nested_layer", "dict_layer",
                                  "bytes", "range", "defaultdict", "stringio", "dir", "binfmt_list"])
def test_save_errors_match(tmp_path, case):
    (tmp_path / "adir").mkdir()

    def f(pd):
        p = str(tmp_path / "x.pd")
        if case == "proto5":
            pd.save(pd.ones([1]), p, protocol=5)
        elif case == "proto5_sd":
            pd.save({"a": pd.ones([1])}, p, protocol=5)
        elif case == "binfmt_int":
            pd.save(pd.ones([1]), p, use_binary_format=1)
        elif case == "nested_layer":
            pd.save([pd.nn.Linear(1, 1)], p)
        elif case == "dict_layer":
            pd.save({"a": pd.nn.Linear(1, 1), "n": 1}, p)
        elif case == "bytes":
            pd.save(b"x", p)
        elif case == "range":
            pd.save([range(3)], p)
        elif case == "defaultdict":
            pd.save(collections.defaultdict(int, a=1), p)
        elif case == "stringio":
            pd.save({"w": pd.ones([2])}, io.StringIO())
        elif case == "dir":
            pd.save(pd.ones([1]), str(tmp_path / "adir"))
        else:
            pd.save([pd.ones([1])], p, use_binary_format=True)
    err = same_exception(f)
    assert "paddle.save" in str(err)


@pytest.mark.parametrize("dtype", ["float32", "int64", "bfloat16", "float16", "bool", "complex64"])
def test_binary_format_both_ways(tmp_path, dtype):
    ref = paddle_ref()
    got = []
    for w in (pagaie, ref):
        path = str(tmp_path / f"{w.__name__}.pd")
        w.save(w.to_tensor([[1, 2]], dtype=dtype), path, use_binary_format=True)
        for r in (pagaie, ref):
            got.append((_kinds(r.load(path)), _kinds(r.load(path, return_numpy=True))))
    assert all(g == got[0] for g in got), got
    buf = io.BytesIO()
    pagaie.save(pagaie.ones([2]), buf, use_binary_format=True)
    buf.seek(0)
    assert pagaie.load(buf).tolist() == [1.0, 1.0]


def test_safetensors_both_ways(tmp_path):
    pytest.importorskip("safetensors")
    ref = paddle_ref()
    for w in (pagaie, ref):
        path = str(tmp_path / f"{w.__name__}.safetensors")
        w.save({"w": w.to_tensor([1.0, 2.0]), "b": w.to_tensor([1, 2], dtype="bfloat16")}, path,
               safetensors=True)
        ours, theirs = pagaie.load(path, safetensors=True), ref.load(path, safetensors=True)
        assert _kinds(ours) == _kinds(theirs)
        arrays = pagaie.load(path, safetensors=True, return_numpy=True)
        assert arrays["w"].dtype == np.float32 and arrays["b"].dtype == np.uint16


def test_set_of_tensors_is_refused():
    with pytest.raises(TypeError, match="paddle.save"):
        pagaie.save({pagaie.ones([1])}, io.BytesIO())


_STATIC_SAVE = """
import sys, warnings
warnings.simplefilter("ignore")
import paddle
paddle.enable_static()
x = paddle.static.data('x', [None, 3], 'float32')
loss = paddle.mean(paddle.static.nn.fc(x, 2))
paddle.optimizer.Adam(0.01).minimize(loss)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(paddle.static.default_startup_program())
paddle.static.save(paddle.static.default_main_program(), sys.argv[1])
"""


def test_static_save_files_load_in_dygraph(tmp_path):
    ref = paddle_ref()
    prefix = str(tmp_path / "m")
    subprocess.run([sys.executable, "-c", _STATIC_SAVE, prefix], check=True, capture_output=True,
                   timeout=120)
    for suffix in (".pdparams", ".pdopt"):
        for rn in (False, True):
            assert _kinds(pagaie.load(prefix + suffix, return_numpy=rn)) == \
                _kinds(ref.load(prefix + suffix, return_numpy=rn))
    sd = pagaie.load(prefix + ".pdparams")
    lin = pagaie.nn.Linear(3, 2)
    lin.set_state_dict({"weight": sd["fc_0.w_0"], "bias": sd["fc_0.b_0"]})
    np.testing.assert_array_equal(lin.weight.numpy(), sd["fc_0.w_0"].numpy())
    assert os.path.exists(prefix + ".pdopt")
