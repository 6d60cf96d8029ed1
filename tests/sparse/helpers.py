"""Shared helpers for the sparse tests: build the same sparse input in pagaie and real Paddle
and compare sparse results part by part (layout, shape, dtype, indices, values, dense form)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import pagaie
from tests.reference import assert_same, paddle_ref


def coo_args(shape=(3, 4), nnz=5, dense_tail=(), dtype="float32", coalesced=True, seed=0):
    """(indices, values, shape) of a random COO tensor (unique sorted sites when coalesced)."""
    rng = np.random.default_rng(seed)
    sdim = len(shape) - len(dense_tail)
    total = int(np.prod(shape[:sdim]))
    keys = np.sort(rng.choice(total, size=nnz, replace=False))
    if not coalesced:  # shuffled, with one duplicate
        keys = np.concatenate([rng.permutation(keys), keys[:1]])
    idx = np.stack(np.unravel_index(keys, shape[:sdim])).astype("int64")
    vals = rng.standard_normal((len(keys),) + tuple(dense_tail))
    vals = (vals * 3).round() if np.dtype(dtype).kind in "iu" else vals
    return idx, vals.astype(dtype), list(shape)


def batched_args(b=2, m=3, n=4, per=3, seed=0):
    """(indices, values, shape) of a 3-D COO tensor with ``per`` entries in every batch (what a
    3-D CSR tensor needs)."""
    rng = np.random.default_rng(seed)
    keys = np.concatenate([np.sort(rng.choice(m * n, per, replace=False)) + i * m * n
                           for i in range(b)])
    idx = np.stack(np.unravel_index(keys, (b, m, n))).astype("int64")
    return idx, rng.standard_normal(len(keys)).astype("float32"), [b, m, n]


def both_coo(args, stop_gradient=True):
    """The same COO tensor in pagaie and Paddle (with their leaf value tensors)."""
    ref = paddle_ref()
    idx, vals, shape = args
    out = []
    for fw in (pagaie, ref):
        v = fw.to_tensor(vals, stop_gradient=stop_gradient)
        out.append((fw.sparse.sparse_coo_tensor(fw.to_tensor(idx), v, shape,
                                                stop_gradient=stop_gradient), v))
    return out


def parts(t: Any) -> dict:
    """The observable parts of a sparse tensor (or the tensor itself when dense)."""
    if not t.is_sparse():
        return {"dense": t}
    if t.is_sparse_coo():
        return {"indices": t.indices(), "values": t.values(), "dense": t.to_dense()}
    return {"crows": t.crows(), "cols": t.cols(), "values": t.values(), "dense": t.to_dense()}


def assert_sparse_same(ours: Any, theirs: Any, rtol=1e-5, atol=1e-6, only_dense=False) -> None:
    assert ours.is_sparse() == theirs.is_sparse(), "layout: sparse vs dense"
    if theirs.is_sparse():
        assert ours.is_sparse_coo() == theirs.is_sparse_coo(), "layout: COO vs CSR"
        assert list(ours.shape) == list(theirs.shape), f"shape {ours.shape} vs {theirs.shape}"
        assert str(ours.dtype) == str(theirs.dtype), f"dtype {ours.dtype} vs {theirs.dtype}"
    po, pt = parts(ours), parts(theirs)
    for key in (["dense"] if only_dense else pt):
        assert_same(po[key], pt[key], rtol, atol, what=key)


def compare(fn: Callable, args=None, grad=False, csr=False, rtol=1e-5, atol=1e-6,
            only_dense=False, weight_seed=1) -> None:
    """``fn(framework, x)`` on the same sparse input in both: outputs and value gradients."""
    args = args or coo_args()
    (xo, vo), (xt, vt) = both_coo(args, stop_gradient=not grad)
    if csr:
        xo, xt = xo.to_sparse_csr(), xt.to_sparse_csr()
    ro, rt = fn(pagaie, xo), fn(paddle_ref(), xt)
    assert_sparse_same(ro, rt, rtol, atol, only_dense)
    if grad:
        for fw, r, v in ((pagaie, ro, vo), (paddle_ref(), rt, vt)):
            d = r.to_dense() if r.is_sparse() else r
            w = np.random.default_rng(weight_seed).standard_normal(d.shape).astype("float32")
            (d * fw.to_tensor(w, dtype=d.dtype)).sum().backward()
        assert vt.grad is not None, "Paddle gave no gradient"
        assert_same(vo.grad, vt.grad, rtol, atol, what="values grad")
