"""Differential audit of ``paddle.optimizer`` and ``paddle.optimizer.lr`` against real
Paddle 3.3.1 (tables in ``cases_optim.py``): parameters after each step, optimizer state
dicts (keys and values), resuming from Paddle's state dicts, every scheduler's learning
rates and state dict, and exception types. Deliberate differences: ``OPTIM_SKIP``."""
from __future__ import annotations

import pytest

from tests.audit_nn.cases_optim import OPTIM_ERRORS, OPTIM_SKIP, OPTIMIZERS, PLATEAU_METRICS, SCHEDULERS
from tests.audit_nn.harness import check_error
from tests.audit_nn.optim_harness import check_lbfgs, check_optimizer, check_optimizer_resume, check_scheduler


def _p(rows, ids):
    return [pytest.param(*r[1:], id=r[0], marks=[pytest.mark.skip(reason=OPTIM_SKIP[r[0]])]
                         if r[0] in OPTIM_SKIP else []) for r in rows]


@pytest.mark.parametrize("cls,kwargs", _p(OPTIMIZERS, OPTIM_SKIP))
def test_optimizer(cls, kwargs):
    check_optimizer(cls, kwargs)


@pytest.mark.parametrize("cls,kwargs", _p(OPTIMIZERS, OPTIM_SKIP))
def test_optimizer_resume_from_paddle_state(cls, kwargs):
    check_optimizer_resume(cls, kwargs)


# Forty full-step inner iterations (two steps at the default max_iter) drift apart on float32
# rounding alone, as the sum orders of the frameworks differ: ten per step stay comparable.
@pytest.mark.parametrize("kwargs", [{"learning_rate": 1.0, "max_iter": 10},
                                    {"learning_rate": 0.5, "history_size": 3, "max_iter": 5},
                                    {"line_search_fn": "strong_wolfe", "max_iter": 4}])
def test_lbfgs(kwargs):
    check_lbfgs(kwargs)


@pytest.mark.parametrize("cls,args,kwargs", _p(SCHEDULERS, OPTIM_SKIP))
def test_scheduler(cls, args, kwargs):
    check_scheduler(cls, args, kwargs, metrics=PLATEAU_METRICS if cls == "ReduceOnPlateau" else None)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in OPTIM_ERRORS])
def test_optim_errors(case):
    check_error(case)
