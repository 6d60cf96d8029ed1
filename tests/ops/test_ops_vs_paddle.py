"""Every op sample: pagaie vs real Paddle 3.3.1 on the same inputs (values, dtypes, shapes, grads)."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

import pagaie
from tests.ops.samples import OpSample, T, all_samples
from tests.reference import assert_same, paddle_ref, resolve

SAMPLES = all_samples()
CASES = [(s, dt) for s in SAMPLES for dt in s.dtypes]


def _build(fw, sample: OpSample, arrays: list, grad: bool):
    """Turn the sample's args into framework values; returns (args, grad leaves)."""
    leaves = []

    def conv(spec, arr):
        if isinstance(spec, T):
            t = fw.to_tensor(arr)
            if grad and spec.grad and arr.dtype.kind == "f":
                t.stop_gradient = False
                leaves.append(t)
            return t
        if isinstance(spec, list) and spec and isinstance(spec[0], T):
            return [conv(s, a) for s, a in zip(spec, arr)]
        return spec

    args = [conv(s, a) for s, a in zip(sample.args, arrays)]
    kwargs = {k: conv(v, arrays[len(sample.args) + i]) if isinstance(v, T) else v
              for i, (k, v) in enumerate(sample.kwargs.items())}
    return args, kwargs, leaves


def _arrays(sample: OpSample, dtype: str, seed: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for spec in list(sample.args) + list(sample.kwargs.values()):
        if isinstance(spec, T):
            out.append(spec.make(rng, dtype))
        elif isinstance(spec, list) and spec and isinstance(spec[0], T):
            out.append([s.make(rng, dtype) for s in spec])
        else:
            out.append(None)
    return out


def _float_outputs(out):
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [o for o in outs if hasattr(o, "dtype") and "float" in str(o.dtype) and not o.stop_gradient]


@pytest.mark.parametrize("sample,dtype", CASES, ids=[f"{s.name}-{d}" for s, d in CASES])
def test_op_matches_paddle(sample: OpSample, dtype: str):
    paddle = paddle_ref()
    arrays = _arrays(sample, dtype, seed=zlib.crc32(sample.name.encode()))
    want_grad = sample.grad and dtype.startswith("float")
    results = {}
    for fw in (pagaie, paddle):
        args, kwargs, leaves = _build(fw, sample, arrays, want_grad)
        out = resolve(fw, sample.api)(*args, **kwargs)
        if sample.post is not None:
            out = sample.post(fw, out)
        grads = None
        fouts = _float_outputs(out) if want_grad else []
        if fouts and leaves:
            rng = np.random.default_rng(1)
            cots = [fw.to_tensor(rng.standard_normal(o.shape).astype(str(o.dtype).replace("paddle.", "")))
                    for o in fouts]
            gs = fw.grad(fouts, leaves, grad_outputs=cots, allow_unused=True)
            grads = [None if g is None else g.numpy() for g in gs]
        results[fw] = (out, grads)
    (ours, our_grads), (theirs, their_grads) = results[pagaie], results[paddle]
    assert_same(ours, theirs, sample.rtol, sample.atol, f"{sample.name}[{dtype}]", sample.check_dtype)
    if their_grads is not None:
        assert our_grads is not None, "Paddle computed gradients but pagaie did not"
        for i, (a, b) in enumerate(zip(our_grads, their_grads)):
            if b is None:
                continue
            assert a is not None, f"grad {i} missing"
            np.testing.assert_allclose(a, b, rtol=max(sample.rtol, 1e-4), atol=max(sample.atol, 1e-5),
                                       err_msg=f"grad of input {i}")
