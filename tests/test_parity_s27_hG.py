"""Parity with real Paddle for static graph and paddle.jit cases taken from Paddle's own tests."""
import builtins

import pytest

import pagaie
from tests.reference import paddle_ref, static_mode

paddle = pytest.importorskip("paddle")


def _outcome(build, fw, static):
    """What ``build(fw)`` gives (eagerly, or while a fresh program is built): ``('ok', r)`` or
    ``('raise', the exception)``; ``r`` is read inside the program."""
    try:
        if not static:
            return "ok", build(fw)
        with static_mode(fw), fw.static.program_guard(fw.static.Program(), fw.static.Program()):
            return "ok", build(fw)
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return "raise", e


def _same_outcome(build, static=False):
    """``build`` through Paddle and pagaie: both raise (pagaie an instance of Paddle's builtin
    exception type) or both return equal results."""
    (kp, rp), (kg, rg) = _outcome(build, paddle_ref(), static), _outcome(build, pagaie, static)
    if kp == "raise":
        want = getattr(builtins, type(rp).__name__, Exception)
        assert kg == "raise" and isinstance(rg, want), (rp, rg)
    else:
        assert kg == "ok", rg
        assert rp == rg


def _fn1(fw):
    return lambda: fw.full([2], 1, "int32")


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
    _same_outcome(lambda fw: list(_CF_CASES[name](fw).shape), static)
