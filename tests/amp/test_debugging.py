"""NaN/Inf checks, check_numerics and operator statistics vs real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from pagaie._core.registry import STATE
from pagaie.amp import debugging
from tests.reference import paddle_ref


@pytest.fixture
def nan_flag():
    yield
    pagaie.set_flags({"FLAGS_check_nan_inf": False})


def test_flag_check_nan_inf_raises_like_paddle(nan_flag):
    paddle = paddle_ref()
    errors = []
    for fw in (paddle, pagaie):
        # the checked-op list is process-wide in both (an earlier test may have named other
        # ops): name the one this test runs
        fw.amp.debugging.TensorCheckerConfig(False, checked_op_list=["log"])
        fw.set_flags({"FLAGS_check_nan_inf": True})
        try:
            with pytest.raises(RuntimeError) as info:
                fw.log(fw.to_tensor([-1.0, 2.0]))
            errors.append(str(info.value))
        finally:
            fw.set_flags({"FLAGS_check_nan_inf": False})
    ours = errors[1]
    assert "paddle.log" in ours and "num_nan=1" in ours and "first one is at index [0]" in ours
    assert "input shapes: [[2]]" in ours


def test_check_is_free_when_off():
    pagaie.set_flags({"FLAGS_check_nan_inf": False})
    assert STATE.intercept is None
    pagaie.log(pagaie.to_tensor([-1.0]))  # no error when off


def test_check_numerics_matches_paddle():
    paddle = paddle_ref()
    data = np.array([1.0, np.nan, 0.0, np.inf, 3.0], dtype="float32")
    ours = debugging.check_numerics(pagaie.to_tensor(data), "op", "x", debugging.DebugMode.CHECK_ALL)
    theirs = paddle.amp.debugging.check_numerics(paddle.to_tensor(data), "op", "x",
                                                 paddle.amp.debugging.DebugMode.CHECK_ALL)
    np.testing.assert_array_equal(ours[0].numpy(), theirs[0].numpy())
    np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), equal_nan=True)
    with pytest.raises(RuntimeError, match="NAN or INF"):
        debugging.check_numerics(pagaie.to_tensor(data), "op", "x")


def test_tensor_checker_config_lists(capsys, monkeypatch):
    # the config's lists join pagaie's process-wide ones: keep them to this test
    monkeypatch.setattr(debugging, "_CHECKED_OPS", set())
    monkeypatch.setattr(debugging, "_SKIPPED_OPS", set())
    cfg = debugging.TensorCheckerConfig(enable=True, debug_mode=debugging.DebugMode.CHECK_NAN_INF,
                                        checked_op_list=["log"])
    debugging.enable_tensor_checker(cfg)
    try:
        pagaie.log(pagaie.to_tensor([-1.0]))          # reported, not raised (CHECK_NAN_INF)
        pagaie.sqrt(pagaie.to_tensor([-1.0]))         # not in the checked list
    finally:
        debugging.disable_tensor_checker()
        # the config set the level flag, which stays (as in Paddle) until set back
        pagaie.set_flags({"FLAGS_check_nan_inf_level": 0})
    out = capsys.readouterr().out
    assert "op=log" in out and "op=sqrt" not in out
    assert STATE.intercept is None


def test_operator_stats_count_by_dtype(capsys):
    debugging.enable_operator_stats_collection()
    a = pagaie.rand([2, 2])
    b = a + a
    c = pagaie.matmul(a, b).astype("bfloat16")
    _ = c * c
    debugging.disable_operator_stats_collection()
    out = capsys.readouterr().out
    rows = {line.split("|")[0].strip(): [int(v) for v in line.split("|")[1:]]
            for line in out.splitlines() if line.startswith("  ")}
    assert rows["elementwise_add"] == [0, 0, 1, 0]
    assert rows["elementwise_mul"] == [0, 1, 0, 0]
    assert rows["matmul_v2"][2] == 1
    assert "op count" in out


def test_op_lists_are_process_wide_like_paddle(monkeypatch):
    """A config's checked/skipped op lists join process-wide lists the moment it is made
    (enabled or not) and stay; a skipped op is skipped even when also checked."""
    paddle = paddle_ref()
    monkeypatch.setattr(debugging, "_CHECKED_OPS", set())
    monkeypatch.setattr(debugging, "_SKIPPED_OPS", set())

    def probe(fw):
        fw.set_flags({"FLAGS_check_nan_inf": True})
        seen = []
        try:
            for op, x in (("exp", 1000.0), ("reciprocal", 0.0), ("rsqrt", -1.0)):
                try:
                    getattr(fw, op)(fw.to_tensor([x]))
                    seen.append(False)
                except RuntimeError:
                    seen.append(True)
        finally:
            fw.set_flags({"FLAGS_check_nan_inf": False})
        return seen

    def run(fw):
        D = fw.amp.debugging
        D.TensorCheckerConfig(False, checked_op_list=["exp", "reciprocal"])
        first = probe(fw)
        D.TensorCheckerConfig(False, skipped_op_list=["reciprocal"])
        return first, probe(fw)

    # Paddle's lists may already hold names from earlier tests, never these three ops
    assert run(pagaie) == run(paddle) == ([True, True, False], [True, False, False])
