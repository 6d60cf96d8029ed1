"""Helpers that compare pagaie with real PaddlePaddle 3.3.1 (a test-only dependency).

Everything that imports real Paddle goes through :func:`paddle_ref`, so a machine
without it skips those tests instead of failing.
"""
from __future__ import annotations

import importlib
import sys
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np
import pytest

import pagaie


def paddle_ref():
    """The real ``paddle`` module, or skip the calling test when it is not installed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            paddle = importlib.import_module("paddle")
        except ImportError:
            pytest.skip("real paddlepaddle is not installed")
    forget_failed_paddle_conversions()
    return paddle


def forget_failed_paddle_conversions() -> None:
    """Drop what real Paddle's ``to_static`` left behind from conversions that raised.

    Paddle files a program's captured parameters and in-place rewrites under ``id(program)``
    and removes them only when the conversion finishes; after one raises (an error-parity
    test), a later program allocated at the same address inherits them and saves a graph
    whose outputs no longer read its inputs. Between tests no conversion is in flight, so
    both maps should be empty."""
    recorder = sys.modules.get("paddle.jit.dy2static.parameter_recorder")
    if recorder is None:
        return
    recorder._global_parameter_recorder.params_dict.clear()
    recorder._global_parameter_recorder.tensor2value.clear()
    recorder._global_inplace_map.params_dict.clear()


def normal_array(shape: Any, seed: int = 0, dtype: str = "float32") -> np.ndarray:
    """Standard-normal numpy data of ``shape`` (the same for the same seed), for feeding both
    frameworks."""
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def resolve(root: Any, dotted: str) -> Any:
    """``resolve(paddle, 'linalg.norm')`` -> paddle.linalg.norm (``Tensor.x`` also works)."""
    obj = root
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def to_numpy(v: Any) -> Any:
    """numpy values of any (nested) output of either framework."""
    if isinstance(v, (list, tuple)):
        return [to_numpy(e) for e in v]
    if hasattr(v, "numpy") and callable(v.numpy):
        a = v.numpy()
        return np.asarray(a)
    return v


def dtype_name(v: Any) -> str | None:
    d = getattr(v, "dtype", None)
    if d is None:
        return None
    s = str(d)
    return s.replace("paddle.", "")


def assert_same(ours: Any, theirs: Any, rtol: float = 1e-5, atol: float = 1e-6, what: str = "output",
                check_dtype: bool = True) -> None:
    """Outputs agree in structure, shape, dtype and values."""
    if isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)), f"{what}: expected a sequence, got {type(ours).__name__}"
        assert len(ours) == len(theirs), f"{what}: {len(ours)} outputs vs Paddle's {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, rtol, atol, f"{what}[{i}]", check_dtype)
        return
    if theirs is None or isinstance(theirs, (bool, int, float, str)):
        assert ours == theirs or np.allclose(ours, theirs, rtol=rtol, atol=atol), f"{what}: {ours} vs {theirs}"
        return
    if check_dtype:
        assert dtype_name(ours) == dtype_name(theirs), f"{what}: dtype {dtype_name(ours)} vs Paddle's {dtype_name(theirs)}"
    a, b = to_numpy(ours), to_numpy(theirs)
    assert list(np.shape(a)) == list(np.shape(b)), f"{what}: shape {np.shape(a)} vs Paddle's {np.shape(b)}"
    if np.asarray(b).dtype.kind in "fc":
        np.testing.assert_allclose(np.asarray(a, dtype=np.asarray(b).dtype), b, rtol=rtol, atol=atol,
                                   equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(a, b, err_msg=what)


def output_and_grads(fw: Any, arrays: list, fn: Callable) -> list:
    """``[fn(fw, *leaves), *gradients]``: the leaves are ``arrays`` as tensors that need
    gradients; the gradients are of the sum of the (first) output squared, None for inputs it
    does not use."""
    ts = []
    for a in arrays:
        t = fw.to_tensor(a)
        t.stop_gradient = False
        ts.append(t)
    out = fn(fw, *ts)
    first = out[0] if isinstance(out, (list, tuple)) else out
    return [out, *fw.grad((first * first).sum(), ts, allow_unused=True)]


def both(fn: Callable[[Any], Any]) -> tuple[Any, Any]:
    """Run ``fn(framework)`` with pagaie and with real Paddle; returns (ours, theirs)."""
    ref = paddle_ref()
    return fn(pagaie), fn(ref)


def same_exception(fn: Callable[[Any], Any]) -> type:
    """``fn(framework)`` raises in both, with the same exception type; returns our exception."""
    ref = paddle_ref()
    theirs = ours = None
    try:
        fn(ref)
    except Exception as exc:  # noqa: BLE001
        theirs = exc
    try:
        fn(pagaie)
    except Exception as exc:  # noqa: BLE001
        ours = exc
    assert theirs is not None, "real Paddle did not raise"
    assert ours is not None, f"pagaie did not raise (Paddle raised {type(theirs).__name__}: {theirs})"
    assert isinstance(ours, type(theirs)), (
        f"pagaie raised {type(ours).__name__}: {ours}\nPaddle raised {type(theirs).__name__}: {theirs}")
    msg = str(ours)
    for word in ("torch", "aten::", "c10::"):
        assert word not in msg, f"error message leaks '{word}': {msg}"
    return ours


@contextmanager
def static_mode(fw: Any) -> Iterator[None]:
    """Static mode of framework ``fw`` (pagaie or real Paddle) inside the block."""
    fw.enable_static()
    try:
        yield
    finally:
        fw.disable_static()


def both_static(fn: Callable[[Any], Any], fresh_programs: bool = False) -> list:
    """``fn(framework)`` run in static mode with pagaie and with real Paddle (inside new main and
    startup programs when ``fresh_programs``); returns [ours, theirs]."""
    ref = paddle_ref()
    out = []
    for fw in (pagaie, ref):
        with static_mode(fw):
            if fresh_programs:
                with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
                    out.append(fn(fw))
            else:
                out.append(fn(fw))
    return out


def same_static_exception(fn: Callable[[Any], Any]) -> type:
    """``fn(framework)`` raises the same exception type in both frameworks while building new
    main and startup programs in static mode; returns our exception."""
    def wrapped(fw: Any) -> None:
        with static_mode(fw):
            with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
                fn(fw)
    return same_exception(wrapped)


def both_same(fn: Callable[[Any], Any], rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """``fn(framework)`` gives the same results with pagaie and with real Paddle."""
    ours, theirs = both(fn)
    assert_same(ours, theirs, rtol=rtol, atol=atol)
