"""Sparse tensors vs real Paddle 3.3.1: creation, the Tensor sparse methods, printing, errors."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception
from tests.sparse.helpers import assert_sparse_same, batched_args, both_coo, coo_args


@pytest.mark.parametrize("kw", [dict(), dict(shape=[4, 5]), dict(dtype="float64"),
                                dict(shape=[3, 4], stop_gradient=False)])
def test_sparse_coo_tensor(kw):
    def f(fw):
        return fw.sparse.sparse_coo_tensor([[0, 1, 2], [1, 3, 0]], [1.0, 2.0, 3.0], **kw)
    ours, theirs = both(f)
    assert_sparse_same(ours, theirs)
    assert ours.stop_gradient == theirs.stop_gradient
    assert ours.is_coalesced() == theirs.is_coalesced()


def test_sparse_coo_tensor_inference():
    cases = [
        lambda fw: fw.sparse.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1, 2, 3]),
        lambda fw: fw.sparse.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1, 2, 3], dtype="float32"),
        lambda fw: fw.sparse.sparse_coo_tensor(np.array([[0, 1], [1, 2]], "int32"),
                                               np.array([1, 2], "int32")),
        lambda fw: fw.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [[1.0, 2.0], [3.0, 4.0]]),
        lambda fw: fw.sparse.sparse_coo_tensor([[0, 1]], [[1.0, 2.0], [3.0, 4.0]], [3, 2]),
    ]
    for f in cases:
        ours, theirs = both(f)
        assert_sparse_same(ours, theirs)  # int32 indices stay int32, as in Paddle
        assert (ours.sparse_dim(), ours.dense_dim()) == (theirs.sparse_dim(), theirs.dense_dim())


@pytest.mark.parametrize("args", [
    ([0, 1], [1.0, 2.0], None),                      # indices not 2-D
    ([[0, 1], [1, 2]], [1.0, 2.0, 3.0], None),       # nnz mismatch
    ([[0, 1], [1, 2]], [1.0, 2.0], [3, 3, 4]),       # wrong rank
    ([[0, 1], [1, 2]], [1.0, 2.0], [1, 1]),          # shape too small
    ([[0.5, 1], [1, 2]], [1.0, 2.0], None),          # float indices
])
def test_sparse_coo_tensor_errors(args):
    i, v, s = args
    same_exception(lambda fw: fw.sparse.sparse_coo_tensor(i, v, s))


def test_sparse_coo_tensor_gradient_flows_to_values():
    (xo, vo), (xt, vt) = both_coo(coo_args(), stop_gradient=False)
    assert xo.stop_gradient == xt.stop_gradient is False
    for fw, x in ((pagaie, xo), (paddle_ref(), xt)):
        (x.to_dense() * fw.arange(12, dtype="float32").reshape([3, 4])).sum().backward()
    assert_same(vo.grad, vt.grad)
    assert xo.grad is None and xt.grad is None  # built from values: not a leaf
    # stop_gradient=True (the default) cuts the values' gradient, as in Paddle
    for fw in (pagaie, paddle_ref()):
        v = fw.to_tensor([1.0, 2.0], stop_gradient=False)
        assert fw.sparse.sparse_coo_tensor([[0, 1]], v, [2]).stop_gradient


@pytest.mark.parametrize("args", [([0, 1, 2, 3], [1, 2, 0], [1.0, 2.0, 3.0], [3, 3]),
                                  ([0, 1, 2, 3], [1, 2, 0], [1, 2, 3], None),
                                  ([0, 1, 2, 0, 1, 2], [1, 2, 0, 1], [1.0, 2.0, 3.0, 4.0], [2, 2, 3])])
def test_sparse_csr_tensor(args):
    ours, theirs = both(lambda fw: fw.sparse.sparse_csr_tensor(*args))
    assert_sparse_same(ours, theirs)
    assert ours.nnz() == theirs.nnz()
    assert (ours.sparse_dim(), ours.dense_dim()) == (theirs.sparse_dim(), theirs.dense_dim())


@pytest.mark.parametrize("args", [([0, 1, 2, 3], [1, 2, 0], [1.0, 2.0], [3, 3]),
                                  ([0, 1, 2], [1, 2, 0], [1.0, 2.0, 3.0], [3, 3]),
                                  ([0, 1, 2, 3], [1, 2, 0], [1.0, 2.0, 3.0], [3])])
def test_sparse_csr_tensor_errors(args):
    same_exception(lambda fw: fw.sparse.sparse_csr_tensor(*args))


def test_csr_unequal_batches_is_a_clear_error():
    x = pagaie.to_tensor(np.arange(24.0).reshape(2, 3, 4))
    with pytest.raises(NotImplementedError, match="same number of non-zero"):
        x.to_sparse_csr()


def test_methods_coo():
    (xo, _), (xt, _) = both_coo(coo_args((3, 4, 2), 5, (2,)))
    for name in ("is_sparse", "is_sparse_coo", "is_sparse_csr", "nnz", "sparse_dim", "dense_dim",
                 "is_coalesced", "is_dense"):
        assert getattr(xo, name)() == getattr(xt, name)(), name
    assert_same(xo.indices(), xt.indices())
    assert_same(xo.values(), xt.values())
    assert_same(xo.to_dense(), xt.to_dense())
    assert_sparse_same(xo.to_sparse_coo(2), xt.to_sparse_coo(2))


@pytest.mark.parametrize("args", [coo_args(), batched_args()])
def test_methods_csr(args):
    (xo, _), (xt, _) = both_coo(args)
    co, ct = xo.to_sparse_csr(), xt.to_sparse_csr()
    assert_sparse_same(co, ct)
    for name in ("is_sparse", "is_sparse_coo", "is_sparse_csr", "nnz", "sparse_dim", "dense_dim"):
        assert getattr(co, name)() == getattr(ct, name)(), name
    assert_sparse_same(co.to_sparse_coo(len(args[2])), ct.to_sparse_coo(len(args[2])))
    assert co.to_sparse_coo(2).is_coalesced() == ct.to_sparse_coo(2).is_coalesced()
    assert_sparse_same(co.to_sparse_csr(), ct.to_sparse_csr())


@pytest.mark.parametrize("sparse_dim", [1, 2])
def test_dense_conversions(sparse_dim):
    d = np.array([[0.0, 1.5, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, -3.0]], "float32")
    ours, theirs = both(lambda fw: fw.to_tensor(d).to_sparse_coo(sparse_dim))
    assert_sparse_same(ours, theirs)
    assert ours.is_coalesced() == theirs.is_coalesced()
    assert_sparse_same(*both(lambda fw: fw.to_tensor(d).to_sparse_csr()))
    # gradient of a dense tensor through to_sparse_coo().values()
    grads = []
    for fw in (pagaie, paddle_ref()):
        x = fw.to_tensor(d, stop_gradient=False)
        s = x.to_sparse_coo(2)
        (s.values() * fw.arange(s.nnz(), dtype="float32")).sum().backward()
        grads.append(x.grad)
    assert_same(*grads)


def test_method_errors():
    dense = lambda fw: fw.to_tensor([[1.0, 0.0]])  # noqa: E731
    coo = lambda fw: fw.sparse.sparse_coo_tensor([[0]], [1.0], [2])  # noqa: E731
    for call in (lambda fw: dense(fw).indices(), lambda fw: dense(fw).nnz(),
                 lambda fw: dense(fw).values(), lambda fw: dense(fw).to_dense(),
                 lambda fw: dense(fw).coalesce(), lambda fw: dense(fw).is_coalesced(),
                 lambda fw: coo(fw).crows(), lambda fw: coo(fw).to_sparse_csr().indices(),
                 lambda fw: coo(fw).to_sparse_csr().is_coalesced(),
                 lambda fw: fw.to_tensor([1.0, 2.0]).to_sparse_csr(),
                 lambda fw: dense(fw).to_sparse_coo(3)):
        same_exception(call)
    assert (pagaie.to_tensor([[1.0]]).sparse_dim(), pagaie.to_tensor([[1.0]]).dense_dim()) == (0, 2)


@pytest.mark.parametrize("make", [
    lambda fw: fw.sparse.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1.0, -2.5, 3.0], [3, 3]),
    lambda fw: fw.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [[1.0, 2.0], [3.0, 4.0]],
                                           stop_gradient=False),
    lambda fw: fw.sparse.sparse_coo_tensor([[0, 1, 2]], [1, 2, 3]),
    lambda fw: fw.sparse.sparse_csr_tensor([0, 1, 2, 3], [1, 2, 0], [1.0, 2.0, 3.0], [3, 3]),
    lambda fw: fw.sparse.sparse_csr_tensor([0, 1, 2, 0, 1, 2], [1, 0, 0, 1],
                                           [1.0, 2.0, 3.0, 4.0], [2, 2, 2]),
    lambda fw: fw.sparse.sparse_coo_tensor([list(range(40))], np.arange(40.0, dtype="float32"),
                                           [50]),
])
def test_repr(make):
    ours, theirs = both(make)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)


def test_dense_ops_on_sparse_give_clear_errors():
    x = pagaie.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2])
    for call in (lambda: pagaie.exp(x), lambda: x.mean(), lambda: x.max(), lambda: x + 1):
        with pytest.raises(NotImplementedError) as info:
            call()
        msg = str(info.value)
        assert msg.startswith("paddle.") and "sparse" in msg and "to_dense" in msg
        assert "torch" not in msg and "SparseCPU" not in msg
    for call in (x.numpy, x.tolist):
        with pytest.raises(TypeError, match="to_dense"):
            call()
