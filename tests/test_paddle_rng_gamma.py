"""``paddle.standard_gamma``, ``paddle.poisson``, ``paddle.binomial`` (and the distributions
built on them) give real Paddle's CPU values for the same ``paddle.seed``, and leave
Paddle's stream where Paddle leaves it (the next ``rand`` matches)."""
import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref


def _np(t):
    return np.asarray(t.numpy())


def _same(fn, seed):
    """Seed both frameworks, call ``fn(framework)``, compare exactly; then the next draw."""
    paddle = paddle_ref()
    pagaie.seed(seed)
    ours = fn(pagaie)
    paddle.seed(seed)
    theirs = fn(paddle)
    assert str(ours.dtype).replace("paddle.", "") == str(theirs.dtype).replace("paddle.", "")
    np.testing.assert_array_equal(_np(ours), _np(theirs))
    np.testing.assert_array_equal(pagaie.rand([5]).numpy(), paddle.rand([5]).numpy())


def _rng_array(seed, shape, lo, hi, dtype):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", [1, 2024])
def test_standard_gamma(dtype, seed):
    a = np.concatenate([[0.0, 1e-3, 0.01, 0.5, 1.0, 2.0, 30.0],
                        _rng_array(seed, 60, 0.05, 6.0, "float64")]).astype(dtype).reshape(-1, 67)
    _same(lambda p: p.standard_gamma(p.to_tensor(a)), seed)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", [3, 77])
def test_poisson(dtype, seed):
    lam = np.concatenate([[0.0, 0.5, 11.99, 12.0, 12.5, 100.0, 1e4, 1e6],
                          _rng_array(seed, 40, 0.0, 40.0, "float64")]).astype(dtype).reshape(4, 12)
    _same(lambda p: p.poisson(p.to_tensor(lam)), seed)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", [5, 2024])
def test_binomial(dtype, seed):
    rng = np.random.default_rng(seed)
    n = np.concatenate([[0, 5, 10, 37, 100, 1000, 10 ** 6, 3, 50, 20],
                        rng.integers(0, 200, 40)]).astype("int64")
    p = np.concatenate([[0.3, 0.0, 1.0, 0.01, 0.2, 0.9, 0.4, 0.5, 0.99, 0.5],
                        rng.uniform(0, 1, 40)]).astype(dtype)
    _same(lambda P: P.binomial(P.to_tensor(n), P.to_tensor(p)), seed)


def test_binomial_broadcasts():
    _same(lambda P: P.binomial(P.to_tensor([[20], [300]]), P.to_tensor([0.1, 0.5, 0.7])), 9)


def test_call_sequences_and_distributions():
    def run(P):
        d = P.distribution.Dirichlet(P.to_tensor([0.5, 2.0, 1.0]))
        g = P.distribution.Gamma(P.to_tensor([0.5, 2.0]), P.to_tensor([1.0, 3.0]))
        parts = [P.standard_gamma(P.to_tensor([0.7, 3.0])), P.rand([2]),
                 P.poisson(P.to_tensor([15.0, 2.0])), d.sample([2]).reshape([-1]),
                 g.sample([2]).reshape([-1]), P.binomial(P.to_tensor([40, 6]), P.to_tensor([0.5, 0.5]))]
        return P.concat([P.cast(t, "float64") for t in parts])
    _same(run, 11)


def test_empty_and_grad():
    _same(lambda P: P.standard_gamma(P.zeros([0, 3])), 4)
    x = pagaie.to_tensor([3.0, 20.0], stop_gradient=False)
    pagaie.poisson(x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
