"""Differential tests against real Paddle 3.3.1 of ``paddle.nn.functional`` activations and
normalisation: in-place relu's backward and the norms' zero epsilon."""
from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

_WEIGHTS = np.arange(1.0, 7.0, dtype="float32").reshape(2, 3)


def _relu_inplace_grad(fw, values, twice):
    """relu_ applied to a non-leaf (once, or twice with a product between), then backward."""
    x = fw.to_tensor(np.array(values, dtype="float32").reshape(2, 3))
    x.stop_gradient = False
    y = fw.nn.functional.relu_(x * 1)
    if twice:
        y = fw.nn.functional.relu_(y * 2)
    (y * y * fw.to_tensor(_WEIGHTS)).sum().backward()
    return y.numpy(), x.grad.numpy()


@pytest.mark.parametrize("values", [[-2.0, -0.5, 0.0, 0.5, 3.0, 6.0],
                                    [float("nan"), -1.0, 2.0, 0.0, -0.0, 1e-30]])
@pytest.mark.parametrize("twice", [False, True])
def test_relu_inplace_backward_on_non_leaf(values, twice):
    want, got = (_relu_inplace_grad(fw, values, twice) for fw in (paddle, pagaie))
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def _norm_zero_eps(fw, api, constant, epsilon):
    """One of the batch-statistics norms on a [2, 3, 4] input (its first channel constant when
    ``constant``) with the given epsilon: the output and the input's gradient."""
    data = np.random.RandomState(0).randn(2, 3, 4).astype("float32")
    if constant:
        data[:, 0] = 1.5 if api == "batch_norm" else data[:, 0, :1]
    x = fw.to_tensor(data)
    x.stop_gradient = False
    f = fw.nn.functional
    if api == "batch_norm":
        y = f.batch_norm(x, fw.zeros([3]), fw.ones([3]), training=True, epsilon=epsilon)
    elif api == "instance_norm":
        y = f.instance_norm(x, eps=epsilon, weight=fw.to_tensor([1.0, 2.0, 0.5]),
                            bias=fw.to_tensor([0.0, 1.0, -1.0]))
    else:
        layer = fw.nn.InstanceNorm1D(3, epsilon=epsilon)
        y = layer(x)
    (y * fw.to_tensor(np.arange(24, dtype="float32").reshape(2, 3, 4))).sum().backward()
    return y.numpy(), x.grad.numpy()


@pytest.mark.parametrize("api", ["batch_norm", "instance_norm", "InstanceNorm1D"])
@pytest.mark.parametrize("constant, epsilon", [(True, 0.0), (False, 0.0), (False, -0.05)])
def test_norm_zero_or_negative_epsilon(api, constant, epsilon):
    want, got = (_norm_zero_eps(fw, api, constant, epsilon) for fw in (paddle, pagaie))
    for w, g in zip(want, got):
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4, equal_nan=True)


def _affine_grads(fw, api, weight_frozen, bias_frozen):
    """The scale and shift gradients of a batch or instance norm with one of them frozen."""
    x = fw.to_tensor(np.random.RandomState(1).randn(2, 4, 3).astype("float32"))
    x.stop_gradient = False
    w = fw.to_tensor(np.linspace(0.5, 2.0, 4).astype("float32"))
    b = fw.to_tensor(np.linspace(-1.0, 1.0, 4).astype("float32"))
    w.stop_gradient, b.stop_gradient = weight_frozen, bias_frozen
    f = fw.nn.functional
    if api == "batch_norm":
        y = f.batch_norm(x, fw.zeros([4]), fw.ones([4]), w, b, training=True)
    else:
        y = f.instance_norm(x, weight=w, bias=b)
    (y * fw.to_tensor(np.arange(24, dtype="float32").reshape(2, 4, 3))).sum().backward()
    return [None if t.grad is None else t.grad.numpy() for t in (x, w, b)]


@pytest.mark.parametrize("api", ["batch_norm", "instance_norm"])
@pytest.mark.parametrize("weight_frozen, bias_frozen", [(True, False), (False, True), (False, False)])
def test_norm_affine_gradients_only_in_pairs(api, weight_frozen, bias_frozen):
    want, got = (_affine_grads(fw, api, weight_frozen, bias_frozen) for fw in (paddle, pagaie))
    for w, g in zip(want, got):
        assert (g is None) == (w is None)
        if w is not None:
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
