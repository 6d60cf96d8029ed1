"""Parity with real Paddle for static graph and paddle.jit cases taken from Paddle's own tests."""
import builtins

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _run(fn):
    """``('ok', result)`` or ``('raise', exception)``."""
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return "raise", e


def _in_program(fw, build):
    """Run ``build(fw)`` while a fresh program of ``fw`` is built."""
    fw.enable_static()
    try:
        with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
            return build(fw)
    finally:
        fw.disable_static()


def _same_outcome(build, static=False, compare=None):
    """``build`` run through Paddle and pagaie: both raise (pagaie an instance of Paddle's
    builtin exception type) or both return, and ``compare(paddle_result, pagaie_result)``."""
    outs = []
    for fw in (paddle, pagaie):
        outs.append(_run(lambda fw=fw: _in_program(fw, build) if static else build(fw)))
    (kp, rp), (kg, rg) = outs
    if kp == "raise":
        want = getattr(builtins, type(rp).__name__, Exception)
        assert kg == "raise" and isinstance(rg, want), (rp, rg)
    else:
        assert kg == "ok", rg
        if compare is not None:
            compare(rp, rg)


def _fn1(fw):
    return lambda: fw.full([2], 1, "int32")


def _same_shape(a, b):
    assert list(a.shape) == list(b.shape)


# ---- case / switch_case ------------------------------------------------------------------
_CF_CASES = {
    "case_empty_with_default": lambda fw: fw.static.nn.case([], default=_fn1(fw)),
    "case_empty_tuple_with_default": lambda fw: fw.static.nn.case((), default=_fn1(fw)),
    "case_empty_no_default": lambda fw: fw.static.nn.case([]),
    "case_python_pred": lambda fw: fw.static.nn.case([(True, _fn1(fw))], default=_fn1(fw)),
    "case_callable_pred": lambda fw: fw.static.nn.case(
        [(lambda: fw.full([1], 1, "bool"), _fn1(fw))], default=_fn1(fw)),
    "switch_empty_with_default": lambda fw: fw.static.nn.switch_case(
        fw.full([1], 1, "int32"), [], default=_fn1(fw)),
    "switch_empty_dict_with_default": lambda fw: fw.static.nn.switch_case(
        fw.full([1], 1, "int32"), {}, default=_fn1(fw)),
    "switch_empty_no_default": lambda fw: fw.static.nn.switch_case(fw.full([1], 1, "int32"), []),
    "switch_python_int_index": lambda fw: fw.static.nn.switch_case(1, [(1, _fn1(fw))]),
    "switch_python_float_index": lambda fw: fw.static.nn.switch_case(1.0, [(1, _fn1(fw))]),
}


@pytest.mark.parametrize("static", [False, True], ids=["eager", "static"])
@pytest.mark.parametrize("name", sorted(_CF_CASES))
def test_case_switch_case_arguments(name, static):
    _same_outcome(_CF_CASES[name], static, _same_shape)
