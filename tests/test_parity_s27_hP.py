"""Differential tests against real Paddle for autograd and AMP cases taken from
Paddle's own unit tests (round 27, area hP)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _raises(lib, fn):
    try:
        fn(lib)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)
    return None


def _hessian_0d_batched(lib):
    x = lib.ones([2, 3])
    x.stop_gradient = False
    lib.autograd.hessian((x * x).sum(), x, batch_axis=0)


def _hessian_not_single_batched(lib):
    x = lib.ones([3, 3])
    x.stop_gradient = False
    lib.autograd.hessian(x * x, x, batch_axis=0)


@pytest.mark.parametrize("fn", [_hessian_0d_batched, _hessian_not_single_batched])
def test_hessian_batched_bad_ys_exception_type(fn):
    expected = _raises(paddle, fn)
    assert expected is not None
    assert _raises(pagaie, fn) is expected


def _checker_steps(lib):
    dbg = lib.amp.debugging
    cfg = dbg.TensorCheckerConfig(enable=True, debug_step=[0, 3])
    dbg.TensorCheckerConfig.current_step_id = 0
    seen = []
    try:
        for _ in range(5):
            dbg.enable_tensor_checker(cfg)
            seen.append((lib.get_flags(["FLAGS_check_nan_inf"])["FLAGS_check_nan_inf"],
                         dbg.TensorCheckerConfig.current_step_id))
            dbg.disable_tensor_checker()
    finally:
        dbg.TensorCheckerConfig.current_step_id = 0
    return seen


def test_tensor_checker_step_count_stops_at_end_step():
    expected = _checker_steps(paddle)
    assert expected[-1] == (False, 3)
    assert _checker_steps(pagaie) == expected
