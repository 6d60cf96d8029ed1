"""Differential checks (session-8 sweep) of Layer behaviour against real Paddle 3.3.1:
containers, hooks and modes, RNN/Transformer layers, and the construction-time argument
checks of the convolution layers."""
from __future__ import annotations

import warnings
from collections import OrderedDict

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _quiet(fn):
    def run(fw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(fw)
    return run


def _same(fn, **tol):
    ours, theirs = both(_quiet(fn))
    assert_same(ours, theirs, **tol)
    return ours


_CONVS = [("Conv1D", 1), ("Conv2D", 2), ("Conv3D", 3)]
_TCONVS = [("Conv1DTranspose", 1), ("Conv2DTranspose", 2), ("Conv3DTranspose", 3)]


# ---- convolution constructor checks ------------------------------------------------------------
@pytest.mark.parametrize("cls,nd", _CONVS)
def test_conv_out_channels_not_divisible_by_groups_is_a_forward_error(cls, nd):
    # Paddle builds Conv(6, 4, groups=3) (weight [4, 2, k..]); only forward rejects it
    ours, theirs = both(lambda fw: list(getattr(fw.nn, cls)(6, 4, 3, groups=3).weight.shape))
    assert ours == theirs == [4, 2] + [3] * nd
    same_exception(lambda fw: getattr(fw.nn, cls)(6, 4, 3, groups=3)(fw.ones([1, 6] + [5] * nd)))
    # in_channels % groups stays a construction error
    same_exception(lambda fw: getattr(fw.nn, cls)(4, 6, 3, groups=3))


@pytest.mark.parametrize("cls,nd", _TCONVS)
def test_conv_transpose_in_channels_not_divisible_by_groups_is_a_forward_error(cls, nd):
    ours, theirs = both(lambda fw: list(getattr(fw.nn, cls)(4, 6, 3, groups=3).weight.shape))
    assert ours == theirs == [4, 2] + [3] * nd
    same_exception(lambda fw: getattr(fw.nn, cls)(4, 6, 3, groups=3)(fw.ones([1, 4] + [5] * nd)))


@pytest.mark.parametrize("cls", ["Conv1D", "Conv2D", "Conv3DTranspose", "Conv2DTranspose"])
@pytest.mark.parametrize("groups", [-1, -2])
def test_conv_negative_groups_is_a_negative_weight_dim(cls, groups):
    err = same_exception(lambda fw: getattr(fw.nn, cls)(4, 4, 3, groups=groups))
    assert isinstance(err, AssertionError)


@pytest.mark.parametrize("cls", ["Conv2D", "Conv2DTranspose"])
def test_conv_zero_groups_raises_value_error(cls):
    # Paddle divides by zero (ZeroDivisionError); pagaie names the argument instead
    with pytest.raises(ValueError, match="groups"):
        getattr(pagaie.nn, cls)(4, 4, 3, groups=0)


@pytest.mark.parametrize("cls,nd", _CONVS + _TCONVS)
def test_conv_forward_float64_default_dtype(cls, nd):
    def run(fw):
        fw.set_default_dtype("float64")
        try:
            fw.seed(1)
            m = getattr(fw.nn, cls)(2, 4, 3, padding=1)
            x = fw.to_tensor(np.random.RandomState(0).randn(*([1, 2] + [4] * nd)))
            x.stop_gradient = False
            out = m(x)
            out.sum().backward()
            return [out, x.grad, m.weight.grad]
        finally:
            fw.set_default_dtype("float32")
    _same(run, rtol=1e-7, atol=1e-9)


# ---- containers ------------------------------------------------------------------------------
def _names(layer):
    return [n for n, _ in layer.named_sublayers()]


def _kinds(layer):
    return [type(m).__name__ for m in layer]


def test_sequential_editing_matches():
    def run(fw):
        named = fw.nn.Sequential(("a", fw.nn.ReLU()), ("b", fw.nn.Tanh()), ("c", fw.nn.Sigmoid()))
        out = [type(named[-1]).__name__, type(named[1:]).__name__, _names(named[::-1])]
        s = fw.nn.Sequential(fw.nn.ReLU(), fw.nn.Tanh(), fw.nn.Sigmoid())
        s.insert(1, fw.nn.ELU())
        out.append((_names(s), _kinds(s)))
        s.append(fw.nn.ReLU())
        del s[0]
        out.append((_names(s), _kinds(s)))
        od = fw.nn.Sequential(OrderedDict([("x", fw.nn.ReLU()), ("y", fw.nn.Tanh())]))
        out.append((_names(od), len(od)))
        return out
    ours, theirs = both(_quiet(run))
    assert ours == theirs


def test_layerlist_and_layerdict_editing_matches():
    def run(fw):
        ll = fw.nn.LayerList([fw.nn.ReLU(), fw.nn.Tanh()])
        ll.insert(-1, fw.nn.ELU())
        ll += [fw.nn.Sigmoid()]
        del ll[::2]
        d = fw.nn.LayerDict({"b": fw.nn.ReLU(), "a": fw.nn.Linear(2, 2)})
        d.update([("c", fw.nn.Tanh()), ("b", fw.nn.Sigmoid())])
        popped = type(d.pop("a")).__name__
        return [_names(ll), _kinds(ll), list(d.keys()), type(d["b"]).__name__, popped,
                len(d.parameters())]
    ours, theirs = both(_quiet(run))
    assert ours == theirs
    same_exception(lambda fw: fw.nn.LayerList([fw.nn.ReLU()])[1])
    same_exception(lambda fw: fw.nn.LayerList([fw.nn.ReLU()]).insert(3, fw.nn.ReLU()))


# ---- hooks and modes -------------------------------------------------------------------------
def test_hooks_order_replacement_and_removal():
    def run(fw):
        fw.seed(3)
        net = fw.nn.Sequential(fw.nn.Linear(2, 2), fw.nn.Dropout(0.5), fw.nn.Linear(2, 1)).eval()
        log = []
        net.register_forward_pre_hook(lambda m, i: log.append("pre1"))
        h2 = net.register_forward_pre_hook(lambda m, i: (log.append("pre2"), i[0] * 2)[1])
        h3 = net.register_forward_post_hook(lambda m, i, o: (log.append("post"), o + 1)[1])
        net[0].register_forward_post_hook(lambda m, i, o: log.append("sub"))
        x = fw.to_tensor([[1.0, -2.0]])
        first = net(x)
        h2.remove()
        h3.remove()
        return [first, net(x), log]
    ours, theirs = both(_quiet(run))
    assert ours[2] == theirs[2]
    assert_same(ours[:2], theirs[:2])


def test_train_eval_and_traversal_order():
    def run(fw):
        net = fw.nn.Sequential(fw.nn.Linear(2, 2), fw.nn.Sequential(fw.nn.ReLU(), fw.nn.Dropout()))
        net[1].eval()
        flags = [m.training for m in net.sublayers(include_self=True)]
        seen = []
        net.apply(lambda m: seen.append(type(m).__name__))
        return [flags, seen, [n for n, _ in net.named_sublayers(prefix="p", include_self=True)],
                [m.training for m in net.eval().sublayers()]]
    ours, theirs = both(_quiet(run))
    assert ours == theirs


# ---- recurrent and attention layers ----------------------------------------------------------
_X = np.random.RandomState(0).randn(2, 3, 4).astype("float32")


@pytest.mark.parametrize("cls", ["SimpleRNN", "GRU", "LSTM"])
def test_rnn_bidirect_sequence_length_and_grads(cls):
    def run(fw):
        fw.seed(7)
        m = getattr(fw.nn, cls)(4, 5, direction="bidirect", num_layers=2)
        x = fw.to_tensor(_X)
        x.stop_gradient = False
        out, state = m(x, sequence_length=fw.to_tensor([3, 1]))
        states = list(state) if isinstance(state, (list, tuple)) else [state]
        (out.sum() + sum(s.sum() for s in states)).backward()
        return [out] + states + [x.grad]
    _same(run, rtol=1e-4, atol=1e-5)


def test_multihead_attention_incremental_cache():
    def run(fw):
        fw.seed(11)
        m = fw.nn.MultiHeadAttention(8, 2).eval()
        q = fw.to_tensor(np.random.RandomState(1).randn(2, 3, 8).astype("float32"))
        cache = m.gen_cache(q, type=m.Cache)
        outs = []
        for t in range(3):
            o, cache = m(q[:, t:t + 1], q[:, t:t + 1], q[:, t:t + 1], cache=cache)
            outs.append(o)
        return outs + [cache.k, cache.v]
    _same(run, rtol=1e-4, atol=1e-5)


def test_linear_with_a_list_of_tensors_for_x():
    same_exception(lambda P: P.nn.functional.linear([P.ones([1, 2])], P.ones([2, 2])))
