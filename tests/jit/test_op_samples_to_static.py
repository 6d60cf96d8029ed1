"""Every op sample of the table runs through ``paddle.jit.to_static`` (traced into a
program, run by the interpreter) and gives the eager result, with no eager fallback."""
from __future__ import annotations

import warnings
import zlib

import numpy as np

import pagaie as paddle
from tests.ops.samples import all_samples
from tests.ops.test_ops_vs_paddle import _arrays, _build
from tests.reference import resolve


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def test_every_op_sample_through_to_static():
    problems = []
    checked = 0
    for s in all_samples():
        arrays = _arrays(s, s.dtypes[0], seed=zlib.crc32(s.name.encode()))
        args, kwargs, _ = _build(paddle, s, arrays, False)
        fn = resolve(paddle, s.api)
        try:
            want = fn(*args, **kwargs)
        except Exception:  # noqa: BLE001 - samples of error behaviour are tested elsewhere
            continue
        slots = [i for i, a in enumerate(args) if isinstance(a, paddle.Tensor)]

        # the tensors come as one list: a converted function's *args take no arguments
        def call(tensors, _args=args, _slots=slots, _fn=fn, _kwargs=kwargs):
            a = list(_args)
            for i, t in zip(_slots, tensors):
                a[i] = t
            return _fn(*a, **_kwargs)

        checked += 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = paddle.jit.to_static(call)([args[i] for i in slots])
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{s.name}: {type(exc).__name__}: {exc}")
                continue
        if any("cannot be converted" in str(w.message) for w in caught):
            problems.append(f"{s.name}: fell back to eager")
            continue
        for a, b in zip(_as_list(want), _as_list(got)):
            if hasattr(a, "numpy"):
                x, y = a.numpy(), b.numpy()
                if x.dtype != y.dtype or x.shape != y.shape or not np.allclose(
                        x, y, rtol=1e-5, atol=1e-6, equal_nan=True):
                    problems.append(f"{s.name}: result differs ({y.dtype}{list(y.shape)} vs "
                                    f"{x.dtype}{list(x.shape)})")
    assert checked > 900
    assert not problems, "\n".join(problems)
