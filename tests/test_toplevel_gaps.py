"""Top-level names of Paddle 3.3.1 outside the API inventory: in-place unary variants,
``sigmoid``, the integer dtype aliases, ``async_save`` and device re-exports."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref


@pytest.mark.parametrize("name", ["acosh_", "asin_", "asinh_", "atanh_", "cosh_", "log1p_"])
def test_inplace_unary_variants_match_paddle(name):
    paddle = paddle_ref()
    v = np.array([0.2, 0.5, 0.7], "float32") + (1.5 if name == "acosh_" else 0.0)
    ours, theirs = pagaie.to_tensor(v), paddle.to_tensor(v)
    r = getattr(pagaie, name)(ours)
    getattr(paddle, name)(theirs)
    assert r is ours
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_sigmoid_and_dtype_aliases():
    paddle = paddle_ref()
    x = np.array([-1.0, 0.0, 2.0], "float32")
    np.testing.assert_allclose(pagaie.sigmoid(pagaie.to_tensor(x)).numpy(),
                               paddle.sigmoid(paddle.to_tensor(x)).numpy(), rtol=1e-6)
    for alias in ("int", "long", "short"):
        assert str(getattr(pagaie, alias)) == str(getattr(paddle, alias))
    assert pagaie.int is pagaie.int32 and pagaie.long is pagaie.int64


def test_async_save_writes_the_values_of_the_call(tmp_path):
    layer = pagaie.nn.Linear(3, 2)
    before = {k: v.numpy().copy() for k, v in layer.state_dict().items()}
    path = str(tmp_path / "m.pdparams")
    pagaie.async_save(layer.state_dict(), path)
    with pagaie.no_grad():
        layer.weight.set_value(layer.weight * 0 + 7)   # after the call: not in the file
    pagaie.clear_async_save_task_queue()
    loaded = pagaie.load(path)
    for k, v in before.items():
        np.testing.assert_array_equal(loaded[k].numpy(), v)
    with pytest.raises(TypeError):
        pagaie.async_save([1, 2], path)


def test_async_save_reports_a_failed_write(tmp_path):
    (tmp_path / "a_file").write_text("")
    pagaie.async_save({"w": pagaie.ones([2])}, str(tmp_path / "a_file" / "w.pdparams"))
    with pytest.raises(OSError):
        pagaie.clear_async_save_task_queue()
    pagaie.clear_async_save_task_queue()   # reported once


def test_sdp_kernel_needs_a_backend():
    paddle = paddle_ref()
    for fw in (paddle, pagaie):
        with pytest.raises(ValueError):
            with fw.nn.functional.sdp_kernel(False, False, False):
                pass


def test_device_names_at_top_level():
    for name in ("Event", "Stream", "device_guard", "get_cudnn_version", "get_default_device",
                 "set_default_device", "get_device_module", "XPUPlace", "IPUPlace"):
        assert getattr(pagaie, name) is getattr(pagaie.device, name)


def test_top_level_modules_import_by_name():
    import importlib
    for name in ("hub", "ops", "functional", "random", "library", "compat"):
        assert importlib.import_module(f"pagaie.{name}") is getattr(pagaie, name)
