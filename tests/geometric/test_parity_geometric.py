"""``paddle.geometric`` against real Paddle 3.3.1: segment reductions, send_u_recv /
send_ue_recv / send_uv (values, dtypes, shapes, gradients, errors), neighbour sampling and
subgraph reindexing."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

warnings.filterwarnings("ignore", module="paddle")
RNG = np.random.default_rng(1)
X = RNG.standard_normal((4, 3))
SRC, DST = [0, 1, 2, 0, 3], [1, 2, 1, 0, 1]


def _graph(fw, dtype="float32", idx="int32"):
    x = fw.to_tensor(X.astype(dtype), stop_gradient=not dtype.startswith("float"))
    return x, fw.to_tensor(SRC, dtype=idx), fw.to_tensor(DST, dtype=idx)


def _with_grads(fw, out, *leaves):
    if not str(out.dtype).endswith(("float32", "float64")):
        return [out]
    w = fw.arange(out.size, dtype=out.dtype).reshape(out.shape) + 1
    (out * w).sum().backward()
    return [out] + [t.grad for t in leaves]


@pytest.mark.parametrize("op", ["segment_sum", "segment_mean", "segment_max", "segment_min"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_segment(op, dtype):
    def fn(fw):
        d = fw.to_tensor((X * 10).astype(dtype), stop_gradient=not dtype.startswith("float"))
        return _with_grads(fw, getattr(fw.geometric, op)(d, fw.to_tensor([0, 0, 2, 2])), d)
    assert_same(*both(fn))


@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("dtype,idx", [("float32", "int32"), ("float64", "int64"), ("int64", "int32")])
@pytest.mark.parametrize("out_size", [None, 6])
def test_send_u_recv(reduce_op, dtype, idx, out_size):
    def fn(fw):
        x, s, d = _graph(fw, dtype, idx)
        out = fw.geometric.send_u_recv(x, s, d, reduce_op=reduce_op, out_size=out_size)
        return _with_grads(fw, out, x)
    assert_same(*both(fn))


@pytest.mark.parametrize("message_op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("reduce_op", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("yshape", [(5, 3), (5,), (5, 1)])
def test_send_ue_recv(message_op, reduce_op, yshape):
    ya = RNG.standard_normal(yshape).astype("float32") + 3.0

    def fn(fw):
        x, s, d = _graph(fw)
        y = fw.to_tensor(ya, stop_gradient=False)
        out = fw.geometric.send_ue_recv(x, y, s, d, message_op, reduce_op)
        return _with_grads(fw, out, x, y)
    assert_same(*both(fn), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("message_op", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("yshape", [(4, 3), (4, 1)])
def test_send_uv(message_op, yshape):
    ya = RNG.standard_normal(yshape).astype("float32") + 3.0

    def fn(fw):
        x, s, d = _graph(fw)
        y = fw.to_tensor(ya, stop_gradient=False)
        return _with_grads(fw, fw.geometric.send_uv(x, y, s, d, message_op=message_op), x, y)
    assert_same(*both(fn), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("call", [
    lambda fw, x, s, d: fw.geometric.send_u_recv(x, s, d, reduce_op="prod"),
    lambda fw, x, s, d: fw.geometric.send_ue_recv(x, x, s, d, message_op="pow"),
    lambda fw, x, s, d: fw.geometric.send_uv(x, x, s, d, message_op="pow"),
    lambda fw, x, s, d: fw.geometric.send_u_recv(x, s.astype("int64"), d),
    lambda fw, x, s, d: fw.geometric.send_u_recv(x.astype("bool"), s, d),
    lambda fw, x, s, d: fw.geometric.segment_sum(x, fw.to_tensor([1, 0, 0, 0])),
    lambda fw, x, s, d: fw.geometric.segment_sum(x, fw.to_tensor([0.0, 0.0, 1.0, 1.0])),
    lambda fw, x, s, d: fw.geometric.segment_mean(x, fw.to_tensor([0, 0])),
    lambda fw, x, s, d: fw.geometric.segment_max(x.astype("bool"), fw.to_tensor([0, 0, 1, 1])),
])
def test_errors(call):
    same_exception(lambda fw: call(fw, *_graph(fw)))


ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2]


@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("weighted", [False, True])
def test_sample_neighbors_all(dtype, weighted):
    def fn(fw):
        row, cp = fw.to_tensor(ROW, dtype), fw.to_tensor(COLPTR, dtype)
        nodes, eids = fw.to_tensor(NODES, dtype), fw.arange(13, dtype=dtype)
        if weighted:
            return fw.geometric.weighted_sample_neighbors(
                row, cp, fw.ones([13]), nodes, sample_size=5, eids=eids, return_eids=True)
        return fw.geometric.sample_neighbors(row, cp, nodes, sample_size=5, eids=eids,
                                             return_eids=True)
    assert_same(*both(fn))


def test_sample_neighbors_counts_and_errors():
    def fn(fw):
        args = fw.to_tensor(ROW), fw.to_tensor(COLPTR), fw.to_tensor(NODES)
        nb, cnt = fw.geometric.sample_neighbors(*args, sample_size=1)
        return [cnt, fw.to_tensor(nb.shape)]
    assert_same(*both(fn))
    same_exception(lambda fw: fw.geometric.sample_neighbors(
        fw.to_tensor(ROW), fw.to_tensor(COLPTR), fw.to_tensor(NODES), 2, return_eids=True))


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_reindex_graph(dtype):
    def fn(fw):
        x = fw.to_tensor([0, 1, 2], dtype)
        nb = [fw.to_tensor([8, 9, 0, 4, 7, 6, 7], dtype), fw.to_tensor([0, 2, 3, 5, 1], dtype)]
        cnt = [fw.to_tensor([2, 3, 2], "int32"), fw.to_tensor([1, 3, 1], "int32")]
        return (list(fw.geometric.reindex_graph(x, nb[0], cnt[0]))
                + list(fw.geometric.reindex_heter_graph(x, nb, cnt)))
    assert_same(*both(fn))
    same_exception(lambda fw: fw.geometric.reindex_graph(
        fw.to_tensor([0, 1, 2]), fw.to_tensor([8, 9, 0]), fw.to_tensor([1, 1, 1], "int64")))


@pytest.mark.parametrize("xs,ys,uv", [((3,), (5,), False), ((3,), (5, 2), False),
                                      ((3, 2), (5, 3, 1), False), ((3,), (3, 2), True),
                                      ((3, 2), (3,), True), ((3, 1, 2), (3, 2), True),
                                      ((3, 2), (3, 4, 1), True)])
def test_message_broadcast(xs, ys, uv):
    xa = RNG.standard_normal(xs).astype("float32")
    ya = RNG.standard_normal(ys).astype("float32") + 3.0

    def fn(fw):
        x, y = fw.to_tensor(xa), fw.to_tensor(ya)
        s, d = fw.to_tensor([0, 1, 2, 0, 2][: ys[0] if not uv else 5]), fw.to_tensor([1, 2, 1, 0, 0])
        if uv:
            return [fw.geometric.send_uv(x, y, s, d, m) for m in ("add", "mul", "div")]
        return [fw.geometric.send_ue_recv(x, y, s, d, m, "sum") for m in ("add", "sub", "mul")]
    assert_same(*both(fn), rtol=1e-5, atol=1e-5)
    same_exception(lambda fw: fw.geometric.send_ue_recv(
        fw.ones([3, 3]), fw.ones([5, 2]), fw.to_tensor([0, 1, 2, 0, 2]), fw.to_tensor([1, 2, 1, 0, 0])))
