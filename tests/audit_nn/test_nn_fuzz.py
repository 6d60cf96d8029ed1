"""Differential audit of ``paddle.nn.functional`` and ``paddle.nn`` layers against real
Paddle 3.3.1: table-driven (``cases_functional.py``, ``cases_layers.py``), deterministic.

Each functional case compares outputs (structure, dtype, shape, values) and input gradients
per dtype; each layer case compares the state dict (keys, shapes, dtypes), parameter flags,
repr, and outputs / parameter and input gradients / updated buffers in train and eval mode,
with Paddle's parameters copied into pagaie's by state-dict name. Error cases check that
both frameworks raise the same exception type (or that pagaie accepts what Paddle accepts).
Deliberate differences are listed with a reason in ``SKIP`` / ``LAYER_SKIP``.
"""
from __future__ import annotations

import pytest

from tests.audit_nn.cases_functional import ERRORS, FUNCTIONAL, SKIP
from tests.audit_nn.cases_layers import LAYER_ERRORS, LAYER_SKIP, LAYERS
from tests.audit_nn.harness import check_error, check_fn, check_layer
from tests.reference import paddle_ref


def _params(cases, skip, with_dtype=True):
    out = []
    for c in cases:
        marks = []
        if c.id in skip:
            marks.append(pytest.mark.skip(reason=skip[c.id]))
        if getattr(c, "slow", False):
            marks.append(pytest.mark.slow)
        if with_dtype:
            out += [pytest.param(c, dt, id=f"{c.id}-{dt}", marks=marks) for dt in c.dtypes]
        else:
            out.append(pytest.param(c, id=c.id, marks=marks))
    return out


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


@pytest.mark.parametrize("case,dtype", _params(FUNCTIONAL, SKIP))
def test_functional(case, dtype):
    check_fn(case, dtype)


@pytest.mark.parametrize("case", _params(ERRORS, SKIP, with_dtype=False))
def test_functional_errors(case):
    check_error(case)


@pytest.mark.parametrize("case,dtype", _params(LAYERS, LAYER_SKIP))
def test_layer(case, dtype):
    check_layer(case, dtype)


@pytest.mark.parametrize("case", _params(LAYER_ERRORS, LAYER_SKIP, with_dtype=False))
def test_layer_errors(case):
    check_error(case)


def test_skip_tables_name_real_cases():
    ids = {c.id for c in FUNCTIONAL + ERRORS}
    assert set(SKIP) <= ids, set(SKIP) - ids
    lids = {c.id for c in LAYERS + LAYER_ERRORS}
    assert set(LAYER_SKIP) <= lids, set(LAYER_SKIP) - lids
