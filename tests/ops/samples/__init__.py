"""The op sample table: one list ``SAMPLES`` per family module in this package.

An :class:`OpSample` names a public API (dotted, relative to ``paddle``) and its
arguments. Tensor arguments are :class:`T` specs, made into arrays of each tested
dtype; anything else is passed as is. The table drives tests that compare values,
dtypes, shapes and gradients with real Paddle, and (later) eager with static runs.
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any, Callable

import numpy as np

FLOATS = ("float32", "float64")
INTS = ("int32", "int64")


@dataclasses.dataclass
class T:
    """A tensor argument: shape, and how to fill it.

    kind: 'float' (normal), 'pos' (positive, away from 0), 'unit' (in (-1, 1)),
    'int' (integers in [low, high)), 'bool', 'index' (ints in [0, high)).
    dtype: fixed dtype; None takes the sample's dtype under test.
    grad: whether gradients w.r.t. this input are compared (floating inputs only).
    """

    shape: tuple
    kind: str = "float"
    dtype: str | None = None
    low: float = -5
    high: float = 5
    grad: bool = True
    value: Any = None

    def make(self, rng: np.random.Generator, dtype: str) -> np.ndarray:
        dt = self.dtype or dtype
        if self.value is not None:
            return np.asarray(self.value, dtype=dt)
        if self.kind == "bool":
            return rng.random(self.shape) > 0.5
        if self.kind in ("int", "index"):
            low = 0 if self.kind == "index" else self.low
            return rng.integers(int(low), int(self.high), self.shape).astype(dt)
        if np.dtype(dt).kind in "iub":
            return rng.integers(int(self.low), int(self.high), self.shape).astype(dt)
        if self.kind == "pos":
            a = rng.uniform(0.5, 2.0, self.shape)
        elif self.kind == "unit":
            a = rng.uniform(-0.9, 0.9, self.shape)
        else:
            a = rng.standard_normal(self.shape)
        return a.astype(dt)


@dataclasses.dataclass
class OpSample:
    api: str
    args: list
    kwargs: dict = dataclasses.field(default_factory=dict)
    dtypes: tuple = FLOATS
    grad: bool = True
    rtol: float = 1e-5
    atol: float = 1e-6
    id: str = ""
    check_dtype: bool = True
    post: Callable | None = None  # applied to outputs of both before comparing (e.g. sort eigvecs)

    @property
    def name(self) -> str:
        return self.id or self.api


def all_samples() -> list[OpSample]:
    out: list[OpSample] = []
    for info in pkgutil.iter_modules(__path__):
        mod = importlib.import_module(f"{__name__}.{info.name}")
        out.extend(getattr(mod, "SAMPLES", []))
    return out
