"""Regression tests for doc-example mismatches fixed in ops, nn, optimizer, sparse and incubate
(lstsq, randint_like, bernoulli_, Tensor.repeat, nll_loss, cross_entropy, hsigmoid_loss,
AdaptiveLogSoftmaxWithLoss.predict, ParameterList, AdamW groups, graph_reindex, sparse.sum)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


# ---- linalg.lstsq: rank dtype per driver --------------------------------------------------
@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("shapes", [((3, 2), (3, 3)), ((3, 3), (3, 2)), ((2, 3, 2), (2, 3, 1))])
def test_lstsq_outputs_match_every_driver(driver, shapes):
    rng = np.random.default_rng(0)
    xa, ya = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    ours, theirs = both(lambda p: p.linalg.lstsq(p.to_tensor(xa), p.to_tensor(ya), driver=driver))
    assert_same(list(ours), list(theirs), rtol=1e-6, atol=1e-8)


# ---- randint_like: every dtype, bool included ---------------------------------------------
@pytest.mark.parametrize("dtype", [None, "bool", "float64", "int32", "int8", "uint8", "complex64"])
@pytest.mark.parametrize("xdtype", ["float32", "bool", "int64"])
def test_randint_like_dtypes(dtype, xdtype):
    ours, theirs = both(lambda p: p.randint_like(p.zeros([2, 3]).astype(xdtype), low=-5, high=5,
                                                 dtype=dtype))
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.shape == theirs.shape
    if dtype in (None, "float64", "int32", "int8") and xdtype != "bool":
        v = ours.numpy().real
        assert ((v >= -5) & (v < 5)).all()


def test_randint_like_bool_is_nonzero():
    out = pagaie.randint_like(pagaie.zeros([200]), low=1, high=3, dtype="bool")
    assert out.dtype == pagaie.bool and bool(out.all())


# ---- bernoulli_: probabilities are not validated ------------------------------------------
def test_bernoulli_inplace_out_of_range_probabilities():
    def run(p):
        x = p.zeros([2, 3])
        x.bernoulli_(p.to_tensor([[2.0], [-1.0]]))
        return x
    assert_same(*both(run))
    for prob, want in ((1.5, 1.0), (-0.5, 0.0)):
        x = pagaie.zeros([4]).bernoulli_(prob)
        assert x.tolist() == [want] * 4


def test_bernoulli_inplace_nan_keeps_uniform_samples():
    x = pagaie.zeros([50]).bernoulli_(math.nan).numpy()
    assert ((x >= 0) & (x < 1)).all() and len(set(x.tolist())) > 2


def test_bernoulli_inplace_errors_like_paddle():
    same_exception(lambda p: p.zeros([2], dtype="int64").bernoulli_(0.5))
    same_exception(lambda p: p.zeros([2, 3]).bernoulli_(p.to_tensor([[1], [0]])))
    same_exception(lambda p: p.bernoulli(p.to_tensor([0.5, 0.5]), p=1.5))


# ---- Tensor.repeat: fewer repeats than dimensions ------------------------------------------
@pytest.mark.parametrize("args", [(2,), (2, 3), ([2],), (2, 3, 4), ([2, 1, 3],)])
def test_tensor_repeat_forms(args):
    assert_same(*both(lambda p: p.to_tensor([[1, 2], [3, 4]]).repeat(*args)))


def test_tensor_repeat_tensor_repeats():
    assert_same(*both(lambda p: p.to_tensor([[1, 2], [3, 4]]).repeat(p.to_tensor([2, 3]))))
    same_exception(lambda p: p.to_tensor([[1, 2], [3, 4]]).repeat(p.to_tensor(2)))


# ---- nll_loss: [N, 1] labels and flattened spatial labels ----------------------------------
@pytest.mark.parametrize("red", ["mean", "sum", "none"])
@pytest.mark.parametrize("xs,ls", [((4, 3), (4,)), ((4, 3), (4, 1)), ((2, 3, 5), (2, 5)),
                                   ((2, 3, 5), (2, 1, 5)), ((2, 3, 5), (2, 5, 1)),
                                   ((2, 3, 4, 5), (2, 4, 5)), ((2, 3, 2, 2, 2), (2, 1, 2, 2, 2))])
def test_nll_loss_label_shapes(xs, ls, red):
    rng = np.random.default_rng(1)
    xa = rng.standard_normal(xs).astype("float32")
    la = rng.integers(0, xs[1], ls)
    assert_same(*both(lambda p: p.nn.functional.nll_loss(p.to_tensor(xa), p.to_tensor(la), reduction=red)))


@pytest.mark.parametrize("xs,ls", [((2, 3, 5), (2, 6)), ((2, 3, 4, 5), (2, 1, 4, 5)),
                                   ((2, 3, 4, 5), (2, 20))])
def test_nll_loss_bad_label_shapes(xs, ls):
    same_exception(lambda p: p.nn.functional.nll_loss(p.ones(list(xs)), p.zeros(list(ls), dtype="int64")))


# ---- cross_entropy with label_smoothing and a label shaped like the input -------------------
@pytest.mark.parametrize("red", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_smoothing_one_hot_label(red, weighted):
    rng = np.random.default_rng(2)
    xa = rng.random((4, 3))
    la = rng.integers(0, 3, (4,))

    def run(p):
        lab = p.to_tensor(la)
        oh = p.nn.functional.one_hot(lab, 3).astype("float64" if weighted else "float32")
        w = p.to_tensor([1.0, 2.0, 3.0], dtype="float64") if weighted else None
        return p.nn.functional.cross_entropy(p.to_tensor(xa), oh, weight=w, label_smoothing=0.4,
                                             reduction=red)
    assert_same(*both(run))


def test_cross_entropy_smoothing_soft_label_other_axis():
    rng = np.random.default_rng(3)
    xa = rng.random((2, 3, 4))
    la = rng.dirichlet([1.0] * 3, (2, 4)).transpose(0, 2, 1)
    assert_same(*both(lambda p: p.nn.functional.cross_entropy(
        p.to_tensor(xa), p.to_tensor(la), label_smoothing=0.2, axis=1)))


def test_cross_entropy_label_errors_like_paddle():
    x = np.random.default_rng(4).random((4, 3))
    same_exception(lambda p: p.nn.functional.cross_entropy(
        p.to_tensor(x), p.to_tensor([[0], [1], [2], [1]]), label_smoothing=0.4))
    same_exception(lambda p: p.nn.functional.cross_entropy(
        p.to_tensor(x), p.full([4, 3], 1 / 3, dtype="float32"), soft_label=True))


# ---- hsigmoid_loss / HSigmoidLoss ---------------------------------------------------------
def test_hsigmoid_loss_matches_in_range():
    rng = np.random.default_rng(5)
    xa, wa = rng.random((4, 3)).astype("float32"), rng.random((4, 3)).astype("float32")
    assert_same(*both(lambda p: p.nn.functional.hsigmoid_loss(
        p.to_tensor(xa), p.to_tensor([0, 1, 4, 4]), 5, p.to_tensor(wa))))


def test_hsigmoid_loss_out_of_range_label_is_refused():
    # Paddle reads past the weight rows here (its result changes from run to run)
    with pytest.raises(ValueError, match="hsigmoid_loss"):
        pagaie.nn.functional.hsigmoid_loss(pagaie.ones([2, 3]), pagaie.to_tensor([0, 5]), 5,
                                           pagaie.ones([4, 3]))


def test_hsigmoid_layer_prints_paddle_notice(capsys):
    pagaie.nn.HSigmoidLoss(3, 6)
    assert capsys.readouterr().out == ("With sparse mode, if your models has only small parameter "
                                       "prefetch may cause speed down\n")
    layer = pagaie.nn.HSigmoidLoss(3, 6, is_sparse=True)
    assert capsys.readouterr().out.startswith("Sparse mode should not be used without custom tree\n")
    assert layer._is_sparse is False


# ---- AdaptiveLogSoftmaxWithLoss.predict dtype ------------------------------------------------
@pytest.mark.parametrize("head_bias", [None, [0, 0, 50, 50], [50, 0, 0, 0]])
def test_adaptive_log_softmax_predict(head_bias):
    rng = np.random.default_rng(6)
    hw, hb = rng.standard_normal((5, 4)).astype("float32"), rng.standard_normal(4).astype("float32")
    if head_bias is not None:
        hb = np.array(head_bias, "float32")
    tails = [[rng.standard_normal((5, 2)).astype("float32"), rng.standard_normal((2, 2)).astype("float32")],
             [rng.standard_normal((5, 1)).astype("float32"), rng.standard_normal((1, 2)).astype("float32")]]
    xa = (rng.standard_normal((6, 5)) * 3).astype("float32")

    def run(p):
        m = p.nn.AdaptiveLogSoftmaxWithLoss(5, 6, [2, 4], div_value=2.0, head_bias=True)
        m.head_weight.set_value(hw)
        m.head_bias.set_value(hb)
        for pair, vals in zip(m.tail_weights, tails):
            for w, v in zip(pair, vals):
                w.set_value(v)
        return m.predict(p.to_tensor(xa))
    assert_same(*both(run))


# ---- ParameterList item assignment ----------------------------------------------------------
def test_parameter_list_setitem_takes_new_shape():
    def run(p):
        ps = p.nn.ParameterList([p.create_parameter([2, 2], "float32") for _ in range(2)])
        old = ps[1]
        ps[1] = p.create_parameter([2, 3], "float32")
        x = p.ones([5, 2])
        out = p.matmul(p.matmul(x, ps[0]), ps[1])
        return list(out.shape), list(ps[1].shape), ps[1] is old, ps[1].stop_gradient
    ours, theirs = both(run)
    assert ours == theirs


# ---- AdamW with parameter groups ---------------------------------------------------------------
def test_adamw_parameter_groups():
    rng = np.random.default_rng(7)
    init = [(rng.standard_normal((4, 4)).astype("float32"), rng.standard_normal(4).astype("float32"))
            for _ in range(3)]
    xa = rng.standard_normal((3, 4)).astype("float32")

    def run(p):
        layers = [p.nn.Linear(4, 4) for _ in range(3)]
        for layer, (w, b) in zip(layers, init):
            layer.weight.set_value(w)
            layer.bias.set_value(b)
        opt = p.optimizer.AdamW(
            learning_rate=0.1, weight_decay=0.2, beta1=0.9,
            parameters=[{"params": layers[0].parameters()},
                        {"params": layers[1].parameters(), "weight_decay": 0.3,
                         "learning_rate": 0.5, "beta1": 0.8},
                        {"params": layers[2].parameters(), "beta2": 0.5, "epsilon": 0.1}])
        for _ in range(2):
            out = p.to_tensor(xa)
            for layer in layers:
                out = layer(out)
            p.mean(out ** 2).backward()
            opt.step()
            opt.clear_grad()
        return [t for layer in layers for t in (layer.weight, layer.bias)]
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)


# ---- incubate.graph_reindex with several edge types ------------------------------------------
def test_graph_reindex_multiple_edge_types():
    def run(p):
        x = p.to_tensor([0, 1, 2], dtype="int64")
        nb = p.to_tensor([8, 9, 0, 4, 7, 6, 7, 0, 2, 3, 5, 1], dtype="int64")
        cnt = p.to_tensor([2, 3, 2, 1, 3, 1], dtype="int32")
        return list(p.incubate.graph_reindex(x, nb, cnt))
    with pytest.warns(Warning):
        ours = run(pagaie)
    ref = paddle_ref()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = run(ref)
    assert_same(ours, theirs)


# ---- sparse.sum with keepdim keeps the sparse/dense split ------------------------------------
@pytest.mark.parametrize("sparse_dim", [1, 2])
def test_sparse_sum_keepdim_layout(sparse_dim):
    def run(p):
        x = p.to_tensor([[-2.0, 0.0], [1.0, 2.0]]).to_sparse_coo(sparse_dim)
        out = p.sparse.sum(x, keepdim=True)
        return [out.indices(), out.values(), out.to_dense()]
    assert_same(*both(run))
