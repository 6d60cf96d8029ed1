"""The exhaustive fuzz variant: cross products of dtypes, shapes and axis forms (slow test)."""
from __future__ import annotations

import itertools

from tests.audit.cases_elementwise import BINARY, UNARY, _data
from tests.audit.cases_reduce import CUM, REDUCE
from tests.audit.fuzz import Case, X, arr

DTYPES = ("float32", "float64", "int32", "int64", "bool")
SHAPES = {"0d": (), "e0": (0,), "v5": (5,), "m23": (2, 3), "t213": (2, 1, 3), "e20": (2, 0)}
BIN_SHAPES = {"same": ((2, 3), (2, 3)), "row": ((2, 3), (3,)), "col": ((2, 1), (1, 3)),
              "0d_l": ((), (2, 3)), "0d_r": ((2, 3), ()), "lead": ((4, 2, 3), (2, 3)), "e": ((0, 3), (1, 3))}


def unary() -> list[Case]:
    out = []
    for (name, kind), dt, (sl, shape) in itertools.product(
            [(n, k) for n, k in UNARY.items() if k], DTYPES, SHAPES.items()):
        out.append(Case(name, (X(_data(shape, dt, kind)),), label=f"x_{dt}_{sl}", group="x-unary"))
        if dt.startswith("float") and len(shape) >= 2:
            out.append(Case(name, (X(_data(shape, dt, kind), sg=False, nc=True),), label=f"x_{dt}_{sl}_gnc",
                            group="x-unary"))
    return out


def binary() -> list[Case]:
    out = []
    for (name, kind), (d1, d2), (sl, (s1, s2)) in itertools.product(
            BINARY.items(), itertools.product(DTYPES, DTYPES), BIN_SHAPES.items()):
        if d1 != d2 and sl not in ("same", "0d_l", "0d_r"):
            continue
        if kind == "nz" and d2 == "bool":  # Paddle dies (SIGFPE) on an integer division by zero
            continue
        out.append(Case(name, (X(_data(s1, d1, kind, 1)), X(_data(s2, d2, kind, 2))),
                        label=f"x_{d1}_{d2}_{sl}", group="x-binary"))
    return out


def reductions() -> list[Case]:
    out = []
    axes = {"none": None, "0": 0, "m1": -1, "l01": [0, 1], "t02": (0, 2), "l2": [2]}
    for (name, extra), dt, (al, ax), keep in itertools.product(REDUCE.items(), DTYPES, axes.items(), (False, True)):
        kw = dict(extra, keepdim=keep)
        if ax is not None:
            kw["axis"] = ax
        out.append(Case(name, (X(arr((2, 3, 4), dt)),), kw, label=f"x_{dt}_{al}_{keep}", group="x-reduce"))
    for (name, ax), dt, a in itertools.product(CUM.items(), DTYPES, (None, 0, -1, 1)):
        out.append(Case(name, (X(arr((3, 4), dt)),), {ax: a}, label=f"x_{dt}_{a}", group="x-cum"))
    return out


def all_cases() -> list[Case]:
    return unary() + binary() + reductions()
