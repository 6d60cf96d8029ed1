"""All fuzz cases, filtered to the APIs real Paddle 3.3.1 has."""
from __future__ import annotations

import functools
import json
import pathlib

from tests.audit import (cases_creation, cases_elementwise, cases_manip, cases_misc, cases_print,
                         cases_reduce, cases_tensor)
from tests.audit.fuzz import Case

# (a copy of the shared Paddle 3.3.1 API inventory, kept with the tests)
INVENTORY = pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle-3.3.1-public-api.json"
MODULES = [cases_elementwise, cases_reduce, cases_manip, cases_creation, cases_misc, cases_tensor,
           cases_print]


@functools.lru_cache(None)
def inventory() -> tuple[frozenset, frozenset]:
    d = json.loads(INVENTORY.read_text())["modules"]
    return frozenset(d["paddle"]["names"]), frozenset(d["paddle.Tensor"]["names"]) | frozenset(
        d["paddle.Tensor:dunder"]["names"])


def _exists(c: Case) -> bool:
    if not isinstance(c.api, str):
        return True
    top, meth = inventory()
    if c.api.startswith("Tensor."):
        return c.api[7:] in meth
    if "." in c.api:
        return True
    return c.api in top


@functools.lru_cache(None)
def all_cases() -> list[Case]:
    out, seen = [], {}
    for m in MODULES:
        for c in m.all_cases():
            if not _exists(c):
                continue
            n = seen.get(c.id, 0)
            seen[c.id] = n + 1
            if n:
                c.label = f"{c.label}#{n}"
            out.append(c)
    return out
