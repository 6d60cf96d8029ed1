"""Differential fuzz of the core tensor API against real Paddle 3.3.1.

Every case of the tables in ``tests/audit/cases_*.py`` runs in both frameworks;
outcomes must agree in raising (and the exception type), result structure, dtype,
shape, values and ``stop_gradient``. Deliberate differences are listed, with a reason,
in ``tests/audit/skips.py``. ``python -m tests.audit.report [filter]`` prints every
difference; the exhaustive cross-product variant is marked slow.
"""
from __future__ import annotations

import collections
import functools
import json

import pytest

from tests.audit import cases_exhaustive
from tests.audit.fuzz import PADDLE, Case, diff, skip_reason
from tests.audit.registry import INVENTORY, _exists, all_cases
from tests.audit.skips import SKIPS

pytestmark = pytest.mark.skipif(PADDLE is None, reason="real paddlepaddle is not installed")


def _by_name(cases: list[Case]) -> dict[str, list[Case]]:
    out: dict[str, list[Case]] = collections.defaultdict(list)
    for c in cases:
        out[c.name].append(c)
    return out


CASES = _by_name(all_cases())


def _check(cases: list[Case]) -> None:
    problems = []
    for c in cases:
        if skip_reason(c.id, SKIPS):
            continue
        d = diff(c)
        if d:
            problems.append(f"{c.id} args={c.args!r:.120} kwargs={c.kwargs!r:.80}\n    " + "\n    ".join(d))
    assert not problems, "differences from Paddle:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_paddle(name):
    _check(CASES[name])


@functools.lru_cache(None)
def _exhaustive() -> dict[str, list[Case]]:
    return _by_name([c for c in cases_exhaustive.all_cases() if _exists(c)])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(_exhaustive()))
def test_exhaustive_matches_paddle(name):
    _check(_exhaustive()[name])


def test_every_skip_is_used():
    ids = [c.id for cs in CASES.values() for c in cs] + [c.id for c in cases_exhaustive.all_cases()]
    stale = [p for p in SKIPS if not any(skip_reason(i, {p: "x"}) for i in ids)]
    assert not stale, f"skip patterns that match no case: {stale}"


def test_inventory_is_covered():
    """Most public functions of ``paddle`` and methods of ``paddle.Tensor`` have fuzz cases."""
    mods = json.loads(INVENTORY.read_text())["modules"]
    names = {n for m in ("paddle", "paddle.Tensor") for n, v in mods[m]["names"].items()
             if v["kind"] in ("function", "method") and not n.endswith("_")}
    covered = {n for n in CASES for n in [n.replace("Tensor.", "")]}
    ratio = len(names & covered) / len(names)
    assert ratio > 0.8, f"only {ratio:.0%} of the inventory has fuzz cases"
