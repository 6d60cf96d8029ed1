"""Session-14: cases from Paddle's nn API tests (layers, the functional ops ``a`` to ``f``)
where pagaie differed from Paddle 3.3.1: gradients at ties, argument checks and the
statistics a backward reads.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, output_and_grads, same_exception


@pytest.mark.parametrize("p", [np.inf, -np.inf])
@pytest.mark.parametrize("keepdim", [False, True])
def test_pairwise_distance_inf_norm_gives_every_tie_the_gradient(p, keepdim):
    """``x - y + eps`` is the same along each row: Paddle's p_norm backward gives each tied
    extreme the whole gradient (torch's would split it three ways)."""
    x = np.arange(1, 7).reshape(2, 3).astype("float32")
    y = np.arange(0, 6).reshape(2, 3).astype("float32")
    ours, theirs = both(lambda P: output_and_grads(
        P, [x, y], lambda P, a, b: P.nn.PairwiseDistance(p=p, keepdim=keepdim)(a, b)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("padding_idx", [-1, -11, -12, -20, 9])
def test_embedding_layer_padding_idx_below_minus_num_embeddings(padding_idx):
    """Paddle checks the index after adding ``num_embeddings``: -11 (normalised to -1) means no
    padding, -12 (normalised to -2) zeroes row -2 at construction; only below -20 raises."""
    w = np.random.default_rng(0).random((10, 4)).astype("float32")

    def f(P):
        fresh = P.nn.Embedding(10, 4, padding_idx=padding_idx).weight.numpy()
        e = P.nn.Embedding(10, 4, padding_idx=padding_idx)
        e.weight.set_value(w)
        out = e(P.to_tensor(np.array([0, 9, 8, 1])))
        out.sum().backward()
        return [out, e.weight.grad, (fresh == 0).all(1)]
    assert_same(*both(f))


@pytest.mark.parametrize("data_format", ["NCL", "NLC"])
def test_batch_norm_eval_with_batch_statistics_backward_reads_the_updated_running_ones(data_format):
    """``training=False, use_global_stats=False``: the output uses the batch statistics and
    updates the running ones, and Paddle's (is_test) backward then normalises with those
    updated running statistics."""
    x = np.random.default_rng(0).standard_normal((4, 3, 2)).astype("float32") * 2 + 1
    if data_format == "NLC":
        x = x.transpose(0, 2, 1).copy()

    def f(P):
        mean = P.to_tensor(np.array([0.5, -0.2, 0.1], "float32"))
        var = P.to_tensor(np.array([2.0, 0.5, 1.5], "float32"))
        t, w, b = (P.to_tensor(a) for a in (x, np.array([1.0, 2.0, 3.0], "float32"), np.zeros(3, "float32")))
        for leaf in (t, w, b):
            leaf.stop_gradient = False
        out = P.nn.functional.batch_norm(t, mean, var, w, b, training=False, use_global_stats=False,
                                         data_format=data_format)
        return [out, mean, var, *P.grad((out * out).sum(), [t, w, b])]
    assert_same(*both(f), rtol=1e-5, atol=1e-5)


def test_batch_norm_layer_eval_without_global_stats_gradient():
    def f(P):
        bn = P.nn.BatchNorm2D(3, use_global_stats=False)
        bn.eval()
        t = P.to_tensor(np.random.default_rng(1).standard_normal((2, 3, 2, 2)).astype("float32"))
        t.stop_gradient = False
        out = bn(t)
        (out * out).sum().backward()
        return [out, t.grad, bn.weight.grad, bn._mean, bn._variance]
    assert_same(*both(f), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("p", [np.inf, -1.0, 2.0])
def test_pairwise_distance_over_an_empty_last_axis_is_zero(p):
    """Paddle's p_norm of no elements is 0 for every order (torch has no identity for inf or
    negative orders and raised, with its own wording)."""
    assert_same(*both(lambda P: [P.nn.PairwiseDistance(p=p, keepdim=k)(P.zeros([2, 0]), P.zeros([2, 0]))
                                 for k in (False, True)]))


@pytest.mark.parametrize("shapes", [((), ()), ((), (3,)), ((2, 3), (3,))])
@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_hinge_embedding_loss_broadcasts_against_a_one_element_zero(shapes, reduction):
    """Paddle's loss is ``where(label == 1, x, zeros([1])) + ...``: 0-D operands give [1]."""
    xs, ls = shapes
    x = np.random.default_rng(1).standard_normal(xs).astype("float32")
    label = np.sign(np.random.default_rng(0).standard_normal(ls)).astype("float32")
    ours, theirs = both(lambda P: output_and_grads(
        P, [x], lambda P, t: P.nn.functional.hinge_embedding_loss(t, P.to_tensor(label), reduction=reduction)))
    assert_same(ours, theirs)


_CELL_INPUTS = {
    "1d": ([3], None),                 # batch size taken from dim 0 of the input, as Paddle's
    "3d": ([2, 2, 3], None),
    "1d_state": ([3], [4]),
    "state_broadcast": ([2, 3], [1, 4]),
}


@pytest.mark.parametrize("cell", ["SimpleRNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("case", sorted(_CELL_INPUTS))
def test_rnn_cells_broadcast_like_paddle_matmuls(cell, case):
    """Paddle's cells are matmuls plus elementwise ops: a 1-D or N-D input and a [1, size] state
    broadcast (torch's fused cells need [batch, size] for both). GRUCell splits its gates along
    axis 1, so there a 1-D or 3-D input is a ValueError in both."""
    xs, hs = _CELL_INPUTS[case]
    x = np.random.default_rng(0).standard_normal(xs).astype("float32")

    def f(P):
        P.seed(1)
        net = getattr(P.nn, cell)(3, 4)
        states = None
        if hs is not None:
            h = P.ones(hs) * 0.3
            states = (h, P.ones(hs) * 0.5) if cell == "LSTMCell" else h
        out = output_and_grads(P, [x], lambda P, t: net(t, states)[0])
        return out + [net.weight_hh.grad]
    if cell == "GRUCell" and case in ("1d", "3d", "1d_state"):
        same_exception(f)
    else:
        assert_same(*both(f))


def test_legacy_batch_norm_trainable_statistics_in_eval_backward():
    """``nn.BatchNorm(trainable_statistics=True)`` in eval is Paddle's is_test kernel with batch
    statistics: batch-statistics output, backward through the updated running statistics."""
    x = np.random.default_rng(0).standard_normal((4, 3, 2, 2)).astype("float32") * 2 + 1

    def f(P):
        bn = P.nn.BatchNorm(3, trainable_statistics=True)
        bn.eval()
        t = P.to_tensor(x)
        t.stop_gradient = False
        outs = [bn(t) for _ in range(2)]
        return outs + list(P.grad((outs[-1] ** 2).sum(), [t, bn.weight, bn.bias])) + [bn._mean, bn._variance]
    assert_same(*both(f), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("op, kw", [
    ("avg_pool2d", dict(kernel_size=[3, 2], stride=[1, 2], padding=[2, 1, 0, 2], ceil_mode=True, exclusive=False)),
    ("avg_pool3d", dict(kernel_size=[4, 2, 1], stride=[2, 1, 3], padding=1, ceil_mode=True, exclusive=False)),
    ("avg_pool1d", dict(kernel_size=2, stride=3, padding="SAME", ceil_mode=True, exclusive=False)),
    ("avg_pool1d", dict(kernel_size=1, stride=2, padding="SAME", ceil_mode=True)),
    ("max_pool1d", dict(kernel_size=2, stride=3, padding="SAME", ceil_mode=True)),
    ("lp_pool1d", dict(norm_type=2, kernel_size=2, stride=3, padding="SAME", ceil_mode=True)),
])
def test_pool_windows_past_the_end_in_ceil_mode(op, kw):
    """A ceil-mode window starting past the input (and its ``before`` padding): a non-exclusive
    average divides by Paddle's negative window size (-0, not NaN), and 'SAME' padding keeps
    ceil_mode (one more window: NaN average, float32's lowest max, 0 for lp)."""
    shape = {"1": (1, 2, 6), "2": (1, 2, 4, 1), "3": (1, 1, 1, 6, 4)}[op[-2]]
    x = np.random.default_rng(0).standard_normal(shape).astype("float32")
    ours, theirs = both(lambda P: output_and_grads(P, [x], lambda P, t: getattr(P.nn.functional, op)(t, **kw)))
    assert_same(ours, theirs)
    np.testing.assert_array_equal(np.signbit(ours[0].numpy()), np.signbit(theirs[0].numpy()))


@pytest.mark.parametrize("op", ["avg_pool1d", "max_pool1d"])
def test_pool_with_no_window_keeps_the_input_in_the_graph(op):
    """No window fits: an empty result that still needs gradients (zeros for the input)."""
    x = np.random.default_rng(0).standard_normal((1, 1, 2)).astype("float32")
    ours, theirs = both(lambda P: output_and_grads(P, [x], lambda P, t: getattr(P.nn.functional, op)(t, 4, 2)))
    assert ours[0].stop_gradient is theirs[0].stop_gradient is False
    assert_same(ours, theirs)


@pytest.mark.parametrize("kw, blocks", [
    (dict(output_sizes=[1, 5], kernel_sizes=[3, 1], strides=[3, 1], paddings=[0, 1], dilations=[1, 2]), 7),
    (dict(output_sizes=[2, 1], kernel_sizes=[2, 1], strides=[3, 3], dilations=[2, 1]), 1),
    (dict(output_sizes=[7, 2], kernel_sizes=[3, 2], strides=[3, 2], paddings=[0, 0, 0, 1], dilations=[1, 2]), 2),
])
def test_fold_counts_blocks_dividing_toward_zero(kw, blocks):
    """A block larger than the padded output is still one block in Paddle (C division); the
    part of it past the end is dropped."""
    kh, kw_ = kw["kernel_sizes"]
    x = np.arange(2 * kh * kw_ * blocks).reshape(1, 2 * kh * kw_, blocks).astype("float64") + 1
    assert_same(*both(lambda P: output_and_grads(P, [x], lambda P, t: P.nn.functional.fold(t, **kw))))
