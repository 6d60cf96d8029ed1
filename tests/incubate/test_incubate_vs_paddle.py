"""``paddle.incubate`` against real Paddle 3.3.1: segment and graph ops (values, dtypes, shapes,
gradients, errors), identity_loss, the masked softmaxes, LookAhead / ModelAverage
trajectories, and the CPU behaviour of ``cc`` and ``inference``."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

warnings.filterwarnings("ignore", module="paddle")
RNG = np.random.default_rng(0)
DATA = RNG.standard_normal((6, 3))
IDS = [0, 0, 2, 2, 2, 5]  # segments 1, 3 and 4 are empty


def _run_grad(fw, fn, arrays, dtype, weights=None):
    """fn(fw, *tensors) and, for float dtypes, d(sum(out * w))/d inputs."""
    ts = [fw.to_tensor(a.astype(dtype), stop_gradient=not dtype.startswith("float")) for a in arrays]
    out = fn(fw, *ts)
    if not dtype.startswith("float"):
        return out
    w = fw.to_tensor(np.arange(out.size, dtype=dtype).reshape(out.shape) + 1.0)
    (out * w).sum().backward()
    return [out] + [t.grad for t in ts]


@pytest.mark.parametrize("op", ["segment_sum", "segment_mean", "segment_max", "segment_min"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("id_dtype", ["int32", "int64"])
def test_segment_ops(op, dtype, id_dtype):
    data = DATA * 10 if dtype.startswith("int") else DATA
    data = data.copy()
    data[1] = data[0]  # a tie inside a segment: max/min give each tied row the full gradient

    def fn(fw, d):
        return getattr(fw.incubate, op)(d, fw.to_tensor(IDS, dtype=id_dtype))
    ours, theirs = both(lambda fw: _run_grad(fw, fn, [data], dtype))
    assert_same(ours, theirs)


def test_segment_ids_column_and_1d_data():
    ours, theirs = both(lambda fw: [
        fw.incubate.segment_sum(fw.to_tensor([1.0, 2.0, 4.0]), fw.to_tensor([[0], [0], [3]])),
        fw.incubate.segment_max(fw.to_tensor([[1, 5]], dtype="int64"), fw.to_tensor([2]))])
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", [
    lambda fw: fw.incubate.segment_sum(fw.to_tensor([[1.0], [2.0]]), fw.to_tensor([1, 0])),
    lambda fw: fw.incubate.segment_mean(fw.to_tensor([[1.0], [2.0]]), fw.to_tensor([0])),
    lambda fw: fw.incubate.segment_max(fw.to_tensor([[1.0], [2.0]]), fw.to_tensor([-1, 0])),
    lambda fw: fw.incubate.segment_min(fw.to_tensor([[1.0], [2.0]]), fw.to_tensor([0.0, 1.0])),
    lambda fw: fw.incubate.segment_sum(fw.to_tensor([[1.0], [2.0]]), fw.to_tensor([[0, 1]])),
    lambda fw: fw.incubate.segment_sum(fw.to_tensor([True, False]), fw.to_tensor([0, 0])),
    lambda fw: fw.incubate.segment_sum(fw.to_tensor([1, 2], dtype="int16"), fw.to_tensor([0, 0])),
])
def test_segment_errors(case):
    same_exception(case)


X = np.array([[0, 2, 3], [1, 4, 5], [2, 6, 7], [5, 5, 5]], dtype="float64")
SRC, DST = [0, 1, 2, 0, 3, 3], [1, 2, 1, 0, 1, 0]  # rows 1 and 0 get ties under max/min


@pytest.mark.parametrize("pool", ["sum", "mean", "max", "min"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
@pytest.mark.parametrize("out_size", [None, 6, "tensor", 0])
def test_graph_send_recv(pool, dtype, out_size):
    def fn(fw, x):
        size = fw.to_tensor(5) if out_size == "tensor" else out_size
        idx = "int64" if dtype == "int64" else "int32"
        return fw.incubate.graph_send_recv(x, fw.to_tensor(SRC, dtype=idx), fw.to_tensor(DST, dtype=idx),
                                           pool_type=pool, out_size=size)
    x = X.copy()
    x[3, 1] = 6.0  # ties with row 2 in column 1
    ours, theirs = both(lambda fw: _run_grad(fw, fn, [x], dtype))
    assert_same(ours, theirs)


def test_graph_send_recv_no_edges():
    ours, theirs = both(lambda fw: fw.incubate.graph_send_recv(
        fw.to_tensor([[1, 2], [3, 4]], dtype="int32"), fw.to_tensor([], dtype="int32"),
        fw.to_tensor([], dtype="int32"), "max"))
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", [
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X), fw.to_tensor(SRC), fw.to_tensor(DST), "prod"),
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X), fw.to_tensor(SRC), fw.to_tensor(DST), "SUM"),
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X), fw.to_tensor(SRC), fw.to_tensor(DST), out_size=2),
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X), fw.to_tensor(SRC), fw.to_tensor(DST[:3])),
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X), fw.to_tensor(SRC, dtype="int32"),
                                           fw.to_tensor(DST, dtype="int64")),
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X), fw.to_tensor(SRC) + 4, fw.to_tensor(DST)),
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X), fw.to_tensor(SRC), fw.to_tensor(DST),
                                           out_size=[3]),
    lambda fw: fw.incubate.graph_send_recv(fw.to_tensor(X).astype("int16"), fw.to_tensor(SRC),
                                           fw.to_tensor(DST)),
])
def test_graph_send_recv_errors(case):
    same_exception(case)


@pytest.mark.parametrize("reduction", ["none", "sum", "mean", "MEAN", 0, 1, 2])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_identity_loss(reduction, dtype):
    ours, theirs = both(lambda fw: _run_grad(
        fw, lambda f, x: f.incubate.identity_loss(x, reduction), [DATA], dtype))
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", [
    lambda fw: fw.incubate.identity_loss(fw.to_tensor([1.0]), "avg"),
    lambda fw: fw.incubate.identity_loss(fw.to_tensor([1.0]), 5),
    lambda fw: fw.incubate.identity_loss(fw.to_tensor([1.0]), None),
    lambda fw: fw.incubate.identity_loss(fw.to_tensor([1, 2]), "sum"),
])
def test_identity_loss_errors(case):
    same_exception(case)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_mask_fuse(dtype):
    x, m = RNG.standard_normal((2, 3, 4, 5)), RNG.standard_normal((2, 1, 4, 5))
    m[:, :, :, -1] = -1e4
    ours, theirs = both(lambda fw: _run_grad(
        fw, lambda f, a, b: f.incubate.softmax_mask_fuse(a, b), [x, m], dtype))
    assert_same(ours, theirs, rtol=1e-4, atol=2e-5)  # float32 gradients under weights up to 120


@pytest.mark.parametrize("case", [
    lambda fw: fw.incubate.softmax_mask_fuse(fw.rand([2, 3, 4]), fw.rand([2, 1, 4])),
    lambda fw: fw.incubate.softmax_mask_fuse(fw.rand([2, 2, 3, 4]), fw.rand([2, 2, 3, 4])),
    lambda fw: fw.incubate.softmax_mask_fuse(fw.rand([2, 2, 3, 4]), fw.rand([1, 1, 3, 4])),
    lambda fw: fw.incubate.softmax_mask_fuse(fw.rand([2, 2, 3, 4]), fw.rand([2, 1, 3, 4], "float64")),
    lambda fw: fw.incubate.softmax_mask_fuse(fw.rand([2, 2, 3, 4]), fw.rand([2, 1, 3, 0])),
])
def test_softmax_mask_fuse_errors(case):
    same_exception(case)


def test_softmax_mask_fuse_upper_triangle():
    """Paddle runs it on GPU only; compare with Paddle's softmax of the causally masked input."""
    paddle = paddle_ref()
    x = RNG.standard_normal((2, 2, 4, 4)).astype("float32")
    t = pagaie.to_tensor(x, stop_gradient=False)
    ours = pagaie.incubate.softmax_mask_fuse_upper_triangle(t)
    masked = np.where(np.triu(np.ones((4, 4), bool), 1), -np.inf, x)
    ref = paddle.to_tensor(masked, stop_gradient=False)
    theirs = paddle.nn.functional.softmax(ref, -1)
    assert_same(ours, theirs)
    w = np.arange(ours.size, dtype="float32").reshape(ours.shape)
    (ours * pagaie.to_tensor(w)).sum().backward()
    (theirs * paddle.to_tensor(w)).sum().backward()
    assert_same(t.grad, ref.grad)
    with pytest.raises(ValueError):
        pagaie.incubate.softmax_mask_fuse_upper_triangle(pagaie.rand([4, 4]))


ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]
NODES = [0, 8, 1, 2]


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_graph_reindex(dtype):
    ours, theirs = both(lambda fw: fw.incubate.graph_reindex(
        fw.to_tensor([0, 1, 2], dtype=dtype), fw.to_tensor([8, 9, 0, 4, 7, 6, 7], dtype=dtype),
        fw.to_tensor([2, 3, 2], dtype="int32")))
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", [
    lambda fw: fw.incubate.graph_reindex(fw.to_tensor([0, 1]), fw.to_tensor([3, 4]),
                                         fw.to_tensor([1, 1], dtype="int32"), flag_buffer_hashtable=True),
    lambda fw: fw.incubate.graph_reindex(fw.to_tensor([0, 1], dtype="int32"), fw.to_tensor([3, 4]),
                                         fw.to_tensor([1, 1], dtype="int32")),
    lambda fw: fw.incubate.graph_reindex(fw.to_tensor([0, 1]), fw.to_tensor([3, 4]), fw.to_tensor([1, 1])),
])
def test_graph_reindex_errors(case):
    same_exception(case)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_graph_sample_neighbors_all(dtype):
    """sample_size at least every degree: deterministic, compare with Paddle."""
    ours, theirs = both(lambda fw: fw.incubate.graph_sample_neighbors(
        fw.to_tensor(ROW, dtype=dtype), fw.to_tensor(COLPTR, dtype=dtype), fw.to_tensor(NODES, dtype=dtype),
        eids=fw.to_tensor(np.arange(13) * 10, dtype=dtype), sample_size=5, return_eids=True))
    assert_same(ours, theirs)
    minus_one = pagaie.incubate.graph_sample_neighbors(
        pagaie.to_tensor(ROW, dtype=dtype), pagaie.to_tensor(COLPTR, dtype=dtype),
        pagaie.to_tensor(NODES, dtype=dtype), sample_size=-1)
    assert_same(list(minus_one), list(ours[:2]))


def test_graph_sample_neighbors_random():
    eids = pagaie.arange(13) * 10
    nb, cnt, ei = pagaie.incubate.graph_sample_neighbors(
        pagaie.to_tensor(ROW), pagaie.to_tensor(COLPTR), pagaie.to_tensor(NODES), eids=eids,
        sample_size=1, return_eids=True)
    theirs = paddle_ref().incubate.graph_sample_neighbors(
        *(paddle_ref().to_tensor(v) for v in (ROW, COLPTR, NODES)), sample_size=1)
    assert_same(cnt, theirs[1])
    assert nb.shape == theirs[0].shape
    for node, n, e in zip(NODES, nb.tolist(), ei.tolist()):
        assert COLPTR[node] <= e // 10 < COLPTR[node + 1] and ROW[e // 10] == n
    nb0, cnt0 = pagaie.incubate.graph_sample_neighbors(
        pagaie.to_tensor(ROW), pagaie.to_tensor(COLPTR), pagaie.to_tensor(NODES), sample_size=0)
    assert nb0.tolist() == [] and cnt0.tolist() == [0, 0, 0, 0]


def test_graph_sample_neighbors_errors():
    same_exception(lambda fw: fw.incubate.graph_sample_neighbors(
        fw.to_tensor(ROW), fw.to_tensor(COLPTR), fw.to_tensor(NODES), return_eids=True))
    same_exception(lambda fw: fw.incubate.graph_sample_neighbors(
        fw.to_tensor(ROW), fw.to_tensor(COLPTR), fw.to_tensor(NODES), flag_perm_buffer=True))


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_graph_khop_sampler_one_layer(dtype):
    ours, theirs = both(lambda fw: fw.incubate.graph_khop_sampler(
        fw.to_tensor(ROW, dtype=dtype), fw.to_tensor(COLPTR, dtype=dtype), fw.to_tensor(NODES, dtype=dtype),
        [5], sorted_eids=fw.to_tensor(np.arange(13) * 10, dtype=dtype), return_eids=True))
    assert_same(ours, theirs)


def test_graph_khop_sampler_two_layers():
    """Paddle 3.3.1's CPU kernel crashes for several layers; check the documented structure."""
    src, dst, index, reindex, eids = pagaie.incubate.graph_khop_sampler(
        pagaie.to_tensor(ROW), pagaie.to_tensor(COLPTR), pagaie.to_tensor(NODES), [-1, 2],
        sorted_eids=pagaie.arange(13), return_eids=True)
    index = index.tolist()
    assert index[:4] == NODES and reindex.tolist() == [0, 1, 2, 3] and len(set(index)) == len(index)
    for s, d, e in zip(src.reshape([-1]).tolist(), dst.reshape([-1]).tolist(), eids.tolist()):
        assert ROW[e] == index[s] and COLPTR[index[d]] <= e < COLPTR[index[d] + 1]
    hop1 = sorted(set(ROW[e] for n in NODES for e in range(COLPTR[n], COLPTR[n + 1])) - set(NODES))
    assert index[4:4 + len(hop1)] == hop1  # second frontier: new nodes, ascending
    with pytest.raises(ValueError):
        pagaie.incubate.graph_khop_sampler(pagaie.to_tensor(ROW), pagaie.to_tensor(COLPTR),
                                           pagaie.to_tensor([7]), [3])
    same_exception(lambda fw: fw.incubate.graph_khop_sampler(
        fw.to_tensor(ROW), fw.to_tensor(COLPTR), fw.to_tensor(NODES), [2], return_eids=True))


def _train(fw, make_opt, steps=7, dtype="float32"):
    """Same weights and data in both frameworks; returns the weights after each step."""
    fw.seed(0)
    layer = fw.nn.Linear(3, 2)
    layer.weight.set_value(fw.to_tensor(np.linspace(-1, 1, 6).reshape(3, 2).astype(dtype)))
    layer.bias.set_value(fw.to_tensor(np.array([0.1, -0.2], dtype=dtype)))
    opt = make_opt(fw, layer.parameters())
    traj = []
    for i in range(steps):
        x = fw.to_tensor(np.cos(np.arange(12) * (i + 1)).reshape(4, 3).astype(dtype))
        loss = (layer(x) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        traj.append([layer.weight.numpy().copy(), layer.bias.numpy().copy()])
    return traj, opt, layer


@pytest.mark.parametrize("inner", ["SGD", "Adam"])
@pytest.mark.parametrize("alpha,k", [(0.5, 2), (0.8, 3), (0.3, 1)])
def test_lookahead_trajectory(inner, alpha, k):
    def make(fw, params):
        base = getattr(fw.optimizer, inner)(learning_rate=0.1, parameters=params)
        return fw.incubate.LookAhead(base, alpha=alpha, k=k)
    (ours, _, _), (theirs, _, _) = both(lambda fw: _train(fw, make))
    for i, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a[0], b[0], rtol=1e-5, atol=1e-6, err_msg=f"step {i}")
        np.testing.assert_allclose(a[1], b[1], rtol=1e-5, atol=1e-6, err_msg=f"step {i}")


def test_lookahead_minimize_and_errors():
    def run(fw):
        w = fw.create_parameter([2], "float32", default_initializer=fw.nn.initializer.Constant(1.0))
        opt = fw.incubate.LookAhead(fw.optimizer.SGD(0.5, parameters=[w]), alpha=0.5, k=2)
        for _ in range(4):
            loss = (w * w).sum()
            loss.backward()
            opt.minimize(loss)
            opt.clear_grad()
        return w
    assert_same(*both(run))
    sgd = lambda fw: fw.optimizer.SGD(0.1, parameters=[fw.create_parameter([1], "float32")])  # noqa: E731
    same_exception(lambda fw: fw.incubate.LookAhead(None))
    same_exception(lambda fw: fw.incubate.LookAhead(sgd(fw), alpha=1.5))
    same_exception(lambda fw: fw.incubate.LookAhead(sgd(fw), k=0))
    same_exception(lambda fw: fw.incubate.LookAhead(sgd(fw), k=2.0))


@pytest.mark.parametrize("rate,lo,hi", [(0.15, 2, 4), (0.5, 1, 3), (1.0, 10, 10)])
def test_model_average(rate, lo, hi):
    def run(fw):
        def make(f, params):
            sgd = f.optimizer.SGD(0.1, parameters=params)
            avg = f.incubate.ModelAverage(rate, parameters=params, min_average_window=lo,
                                          max_average_window=hi)

            class Both:
                def step(self):
                    sgd.step()
                    avg.step()

                def clear_grad(self):
                    sgd.clear_grad()
            Both.avg = avg
            return Both()
        traj, opt, layer = _train(fw, make, steps=9)
        out = []
        with opt.avg.apply():
            out.append([layer.weight.numpy().copy(), layer.bias.numpy().copy()])
        out.append([layer.weight.numpy().copy(), layer.bias.numpy().copy()])
        with opt.avg.apply(need_restore=False):
            pass
        out.append([layer.weight.numpy().copy()])
        opt.avg.restore()
        out.append([layer.weight.numpy().copy()])
        return out + traj
    ours, theirs = both(run)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-5, atol=1e-6, err_msg=f"entry {i}")


def test_model_average_needs_parameters():
    same_exception(lambda fw: fw.incubate.ModelAverage(0.15))


def test_cc_compile_and_fuse():
    import pagaie.incubate.cc.typing as pct
    N = pct.DimVar("N")
    T = pct.DTypeVar("T", "float32", "float64")

    def f(x, y):
        return pagaie.incubate.cc.fuse.matmul(x, pagaie.ones([2, 2], x.dtype), lambda t: t + y)
    f.__annotations__ = {"x": pct.Tensor([N, 2], T), "y": pct.Tensor([2], T)}  # (postponed here)
    fn = pagaie.incubate.cc.compile(f)
    x = pagaie.ones([3, 2], "float64")
    assert fn(x, pagaie.ones([2], "float64")).tolist() == [[3.0, 3.0]] * 3
    with pytest.raises(AssertionError, match="mismatched"):
        fn(x, pagaie.ones([2], "float32"))
    with pytest.raises(ValueError):
        fn(x, pagaie.ones([3], "float64"))
    with pytest.raises(AssertionError):
        pagaie.incubate.cc.compile(f, train=True)
    with pytest.raises(AssertionError):
        pagaie.incubate.cc.compile(lambda x: x)


def test_inference_decorator():
    layer = pagaie.nn.Linear(2, 2)
    x = pagaie.rand([3, 2])
    fn = pagaie.incubate.inference(layer)
    assert pagaie.incubate.inference(fn) is fn
    out = fn(x)
    assert out.stop_gradient and np.allclose(out.numpy(), layer(x).numpy())

    class Two(pagaie.nn.Layer):
        @pagaie.incubate.inference(precision_mode="float32")
        def forward(self, a):
            return a + 1, a * 2
    res = Two()(x)
    assert isinstance(res, list) and len(res) == 2
    with pytest.raises(NotImplementedError):
        pagaie.incubate.inference(layer, with_trt=True)


def test_optimizer_state_dict_names():
    def run(fw):
        w = fw.create_parameter([2], "float32", name="incubate_sd_w")
        la = fw.incubate.LookAhead(fw.optimizer.Adam(0.1, parameters=[w]), k=2)
        ma = fw.incubate.ModelAverage(0.1, parameters=[w])
        (w * w).sum().backward()
        la.step()
        ma.step()
        return sorted(la.state_dict()), sorted(ma.state_dict()), la.get_lr()
    ours, theirs = both(run)
    assert ours == theirs
