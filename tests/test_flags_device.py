"""Global flags (``set_flags``/``get_flags``, ``FLAGS_*`` environment variables) and
``paddle.device`` against real Paddle's CPU build."""
import json
import os
import subprocess
import sys

import pytest
import torch

import pagaie
from tests.reference import both, paddle_ref, same_exception

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_get_flags_defaults_match_paddle():
    paddle_ref()   # skips without real Paddle
    from pagaie._core._flag_defaults import DEFAULTS
    names = ["FLAGS_" + n for n in DEFAULTS if n not in ("call_stack_level",)]
    # Paddle's defaults from a fresh process: some of its APIs flip executor flags for good
    # (FLAGS_new_executor_sequential_run), and other tests may have called them here
    code = ("import json, sys, warnings; warnings.simplefilter('ignore'); import paddle; "
            "print(json.dumps(paddle.get_flags(json.loads(sys.argv[1]))))")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(names)], capture_output=True,
                         text=True, timeout=300)
    theirs = json.loads(out.stdout.strip().splitlines()[-1])
    ours = pagaie.get_flags(names)
    env_set = {k for k in names if k in os.environ}
    diff = {k: (ours[k], theirs[k]) for k in names if ours[k] != theirs[k] and k not in env_set}
    assert not diff


def test_set_flags_round_trip_and_types():
    def f(pd):
        pd.set_flags({"FLAGS_check_nan_inf": 1, "FLAGS_eager_delete_tensor_gb": 2})
        r = pd.get_flags(("FLAGS_check_nan_inf", "FLAGS_eager_delete_tensor_gb"))
        pd.set_flags({"FLAGS_check_nan_inf": False, "FLAGS_eager_delete_tensor_gb": 0.0})
        return r
    ours, theirs = both(f)
    assert ours == theirs and type(ours["FLAGS_check_nan_inf"]) is bool


def test_flag_listener_and_accessor():
    from pagaie._core import flags
    seen = []
    flags.on_change("check_nan_inf_level", seen.append)
    pagaie.set_flags({"FLAGS_check_nan_inf_level": 2})
    pagaie.set_flags({"FLAGS_check_nan_inf_level": 0})
    assert seen == [0, 2, 0] and flags.flag("check_nan_inf_level") == 0


def test_cudnn_flags_drive_torch():
    pagaie.set_flags({"FLAGS_cudnn_deterministic": True})
    try:
        assert torch.backends.cudnn.deterministic is True
    finally:
        pagaie.set_flags({"FLAGS_cudnn_deterministic": False})
    assert torch.backends.cudnn.deterministic is False


def test_flags_from_environment():
    env = dict(os.environ, FLAGS_check_nan_inf="1", FLAGS_eager_delete_tensor_gb="1.5",
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = ("from pagaie._core.flags import get_flags;"
            "print(get_flags(['FLAGS_check_nan_inf', 'FLAGS_eager_delete_tensor_gb']))")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert "{'FLAGS_check_nan_inf': True, 'FLAGS_eager_delete_tensor_gb': 1.5}" in r.stdout


@pytest.mark.parametrize("name", ["is_compiled_with_xpu", "is_compiled_with_ipu",
                                  "is_compiled_with_cinn", "get_all_custom_device_type",
                                  "get_available_custom_device", "is_current_stream_capturing"])
def test_device_queries_match_cpu_build(name):
    ours, theirs = both(lambda pd: getattr(pd.device, name)())
    assert ours == theirs or (not ours and not theirs)


def test_device_queries_without_gpu():
    if torch.cuda.is_available():
        pytest.skip("compares with Paddle's CPU build")
    ours, theirs = both(lambda pd: [pd.device.device_count(), pd.device.is_available(),
                                    pd.device.get_cudnn_version(), pd.device.get_device(),
                                    pd.device.cuda.device_count(), pd.device.cuda.empty_cache(),
                                    pd.device.is_compiled_with_custom_device("npu"),
                                    pd.device.get_device(pd.ones([1]))])
    assert ours == theirs
    ours, theirs = both(lambda pd: [pd.device.get_available_device(),
                                    pd.device.get_all_device_type()])
    assert ours == theirs == [[], []]  # Paddle's CPU build lists no device, not even the CPU


@pytest.mark.parametrize("case", ["xpu_place", "ipu_place", "set_device_gpu", "set_device_xpu",
                                  "cuda_memory", "cuda_name"])
def test_device_errors_without_gpu(case):
    if torch.cuda.is_available():
        pytest.skip("compares with Paddle's CPU build")

    def bad(pd):
        if case == "xpu_place":
            pd.device.XPUPlace(0)
        elif case == "ipu_place":
            pd.device.IPUPlace()
        elif case == "set_device_gpu":
            pd.device.set_device("gpu")
        elif case == "set_device_xpu":
            pd.device.set_device("xpu")
        elif case == "cuda_memory":
            pd.device.cuda.max_memory_allocated()
        else:
            pd.device.cuda.get_device_name()
    same_exception(bad)


def test_device_context_managers_and_device_string():
    with pagaie.device.device_guard("cpu"):
        x = pagaie.ones([2])
    with pagaie.device.device("cpu"):
        assert pagaie.device.get_device() == "cpu"
    d = x.device
    assert d == "cpu" and d.type == "cpu" and d.index is None and isinstance(d, str)
    g = pagaie.device.Device("gpu:1")
    assert g == "gpu:1" and g.index == 1
    with pagaie.device.cuda.stream_guard(None):
        pass


@pytest.mark.gpu
def test_cuda_streams_events_memory():
    cuda = pagaie.device.cuda
    s = cuda.Stream()
    e1, e2 = cuda.Event(enable_timing=True), cuda.Event(enable_timing=True)
    e1.record()
    with cuda.stream_guard(s):
        x = pagaie.ones([256, 256]).to("gpu")
        y = x * 2.0
    e2.record()
    s.synchronize()
    cuda.synchronize()
    assert e2.query() and e1.elapsed_time(e2) >= 0
    assert cuda.memory_allocated() > 0 and cuda.max_memory_allocated() >= cuda.memory_allocated()
    assert isinstance(cuda.get_device_name(), str) and len(cuda.get_device_capability()) == 2
    assert cuda.get_device_properties().total_memory > 0
    assert y.place.is_gpu_place() and x.device == "cuda:0" and x.get_device() == 0
    cuda.empty_cache()
    prev = pagaie.device.set_stream(s)
    pagaie.device.set_stream(prev)
