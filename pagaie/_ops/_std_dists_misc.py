"""Paddle's CPU samplers for a few ops that draw in loops of their own, over the engine of
:mod:`pagaie._core.mt64` (see :mod:`pagaie._ops._std_dists` for the basic distributions).

- :func:`gumbel`: ``gumbel_softmax``'s noise, ``-log(-log(u))`` of
  ``uniform_real_distribution(1e-5, 1)`` draws.
- :func:`distinct_ints`: ``class_center_sample``'s negative classes: the kernel draws
  ``uniform_int_distribution(low, high)`` values until enough of them are new (neither
  already taken nor drawn before), keeping the new ones in the order drawn.

Each ``uniform_int_distribution`` draw (Lemire's method on a 64-bit engine) uses one word
and redraws while the low half of ``word * range`` is below ``2**64 mod range``, so the
values of a run of draws are those of the accepted words, in order: both functions look at
words ahead (:meth:`Engine.peek`) and then use exactly as many as the C++ loop would.
"""
from __future__ import annotations

import math

import numpy as np

from pagaie._core.mt64 import Engine
from pagaie._ops._std_dists import _mul_128, uniform_real

__all__ = ["gumbel", "distinct_ints"]

_TABLE_MAX = 1 << 25      # ranges up to this use a lookup table of taken values
_CHUNK_MAX = 1 << 22      # words looked at per round


def gumbel(engine: Engine, n: int, dtype=np.float32) -> np.ndarray:
    """``n`` values of ``-log(-log(u))``, ``u`` from ``uniform_real_distribution(1e-5, 1)``
    in ``dtype`` (float32 or float64), as ``gumbel_softmax``'s CPU kernel computes them."""
    u = uniform_real(engine, n, 1e-5, 1.0, np.dtype(dtype))
    np.log(u, out=u)
    np.negative(u, out=u)
    np.log(u, out=u)
    np.negative(u, out=u)
    return u


def distinct_ints(engine: Engine, need: int, low: int, high: int, taken: np.ndarray
                  ) -> np.ndarray:
    """Draw ``uniform_int_distribution(low, high)`` values until ``need`` of them are new
    (not in ``taken`` and not drawn before); returns those, in the order drawn (int64).

    ``need`` must not exceed the number of values of ``[low, high]`` outside ``taken``.

    Examples:
        >>> import numpy as np
        >>> from pagaie._core.mt64 import Engine
        >>> v = distinct_ints(Engine.from_op_seed(5), 3, 0, 9, np.array([1, 3]))
        >>> len(set(v.tolist())), bool(np.isin(v, [1, 3]).any())
        (3, False)
    """
    rng = int(high) - int(low) + 1
    threshold = np.uint64(((1 << 64) - rng) % rng)
    taken = np.asarray(taken, dtype=np.int64)
    taken = taken[(taken >= low) & (taken <= high)] - np.int64(low)
    # which of the range's values are taken: a table when the range is small enough
    table = np.zeros(rng, dtype=bool) if rng <= _TABLE_MAX else None
    if table is not None:
        table[taken] = True
        free = rng - int(table.sum())
    else:
        taken = np.unique(taken)
        free = rng - taken.size
    found: list[np.ndarray] = []
    while need > 0:
        # about the number of draws the loop needs (coupon collector), and a little more
        chunk = min(_CHUNK_MAX, int(1.1 * rng * (_harmonic(free) - _harmonic(free - need))) + 64)
        words = engine.peek(chunk)
        hi, lo = _mul_128(words, rng)
        pos = np.flatnonzero(lo >= threshold)
        vals = hi[pos].astype(np.int64)
        fresh = ~table[vals] if table is not None else ~np.isin(vals, taken)
        pos, vals = pos[fresh], vals[fresh]
        _, first = np.unique(vals, return_index=True)
        first.sort()
        pos, vals = pos[first], vals[first]
        if vals.size >= need:
            found.append(vals[:need])
            engine.skip(int(pos[need - 1]) + 1)
            break
        found.append(vals)
        engine.skip(words.size)
        if table is not None:
            table[vals] = True
        else:
            taken = np.union1d(taken, vals)
        need -= vals.size
        free -= vals.size
    if not found:
        return np.empty(0, dtype=np.int64)
    return np.concatenate(found) + np.int64(low)


def _harmonic(n: int) -> float:
    """The ``n``-th harmonic number (close enough for sizing a chunk)."""
    if n <= 0:
        return 0.0
    if n < 64:
        return float(sum(1.0 / k for k in range(1, n + 1)))
    return math.log(n) + 0.5772156649 + 1.0 / (2 * n)
