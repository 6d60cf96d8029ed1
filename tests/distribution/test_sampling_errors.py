"""Sampling statistics, seed reproducibility, static programs and error types vs real Paddle."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.distribution.cases import CASE_IDS, CASES, params_of
from tests.reference import paddle_ref, same_exception

N = 20000


def _t(v, dtype="float64"):
    return pagaie.to_tensor(np.asarray(v, dtype=dtype))


STATS = {
    "Normal": lambda D: D.Normal(_t([0.5, -1.0]), _t([1.0, 2.0])),
    "Uniform": lambda D: D.Uniform(_t([0.0, -2.0]), _t([1.0, 3.0])),
    "Bernoulli": lambda D: D.Bernoulli(_t([0.2, 0.7])),
    "Beta": lambda D: D.Beta(_t([2.0, 0.5]), _t([3.0, 0.8])),
    "Binomial": lambda D: D.Binomial(_t([10.0, 4.0]), _t([0.3, 0.8])),
    "Chi2": lambda D: D.Chi2(_t([3.0, 6.0])),
    "ContinuousBernoulli": lambda D: D.ContinuousBernoulli(_t([0.2, 0.5, 0.9])),
    "Dirichlet": lambda D: D.Dirichlet(_t([1.0, 2.0, 3.0])),
    "Exponential": lambda D: D.Exponential(_t([0.5, 2.0])),
    "Gamma": lambda D: D.Gamma(_t([0.7, 3.0]), _t([1.0, 2.0])),
    "Geometric": lambda D: D.Geometric(_t([0.3, 0.8])),
    "Gumbel": lambda D: D.Gumbel(_t([0.0, 1.0]), _t([1.0, 0.5])),
    "Laplace": lambda D: D.Laplace(_t([0.0, 1.0]), _t([1.0, 0.5])),
    "LogNormal": lambda D: D.LogNormal(_t([0.0, 0.5]), _t([0.3, 0.5])),
    "Multinomial": lambda D: D.Multinomial(6, _t([0.2, 0.3, 0.5])),
    "MultivariateNormal": lambda D: D.MultivariateNormal(_t([1.0, -1.0]),
                                                         covariance_matrix=_t([[2.0, 0.5], [0.5, 1.0]])),
    "Poisson": lambda D: D.Poisson(_t([0.5, 4.0])),
    "StudentT": lambda D: D.StudentT(_t([6.0, 9.0]), _t([0.0, 1.0]), _t([1.0, 2.0])),
}


@pytest.mark.parametrize("name", list(STATS))
def test_sample_moments(name):
    pagaie.seed(123)
    d = STATS[name](pagaie.distribution)
    s = d.sample([N]).numpy().astype("float64")
    if name == "Uniform":  # Paddle's Uniform has no mean or variance (NotImplementedError)
        low, high = d.low.numpy(), d.high.numpy()
        mean, var = (low + high) / 2, (high - low) ** 2 / 12
    else:
        mean, var = d.mean.numpy(), d.variance.numpy()
    se = np.sqrt(var / N)
    assert np.all(np.abs(s.mean(0) - mean) < 5 * se + 1e-9), (s.mean(0), mean)
    np.testing.assert_allclose(s.var(0), var, rtol=0.1, atol=1e-3)
    if hasattr(d, "rsample") and name in ("Normal", "Exponential", "Gamma", "Laplace", "Gumbel",
                                          "MultivariateNormal", "LogNormal"):
        r = d.rsample([N]).numpy()
        assert np.all(np.abs(r.mean(0) - mean) < 5 * se + 1e-9)


def test_cauchy_categorical_lkj_samples():
    pagaie.seed(7)
    D = pagaie.distribution
    c = D.Cauchy(_t([1.0]), _t([2.0])).sample([N]).numpy()
    assert abs(np.median(c) - 1.0) < 0.1
    assert abs(np.mean(np.abs(c - 1.0) < 2.0) - 0.5) < 0.02     # P(|X - loc| < scale) = 1/2
    logits = np.array([0.5, 1.0, 2.0])
    k = D.Categorical(_t(logits)).sample([N]).numpy()
    freq = np.bincount(k, minlength=3) / N
    np.testing.assert_allclose(freq, np.exp(logits) / np.exp(logits).sum(), atol=0.02)
    for method in ("onion", "cvine"):
        L = D.LKJCholesky(4, 2.0, method).sample([500]).numpy()
        np.testing.assert_allclose((L ** 2).sum(-1), 1.0, atol=1e-5)
        assert np.all(np.triu(L, 1) == 0) and np.all(np.diagonal(L, axis1=-2, axis2=-1) > 0)
        corr = L @ np.swapaxes(L, -1, -2)
        assert abs(corr[:, 1, 0].mean()) < 0.05


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_seed_reproducibility(case):
    d = case.build(pagaie.distribution, params_of(pagaie, case, "float32"))
    draws = []
    for _ in range(2):
        pagaie.seed(2024)
        draws.append(d.sample([4]).numpy())
    np.testing.assert_array_equal(draws[0], draws[1])


def test_normal_and_uniform_sample_seed_argument():
    D = pagaie.distribution
    for d in (D.Normal(0.0, 1.0), D.Uniform(0.0, 1.0), D.Normal(_t([0.0, 1.0]), _t([1.0, 1.0]))):
        a, b, c = d.sample([5], seed=11), d.sample([5], seed=11), d.sample([5], seed=12)
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert not np.array_equal(a.numpy(), c.numpy())
    z = D.Normal(0.0, 1.0).sample([N], seed=3).numpy()
    assert abs(z.mean()) < 0.05 and abs(z.std() - 1) < 0.05


def test_distributions_in_static_program_vs_paddle():
    def run(fw):
        fw.enable_static()
        try:
            main = fw.static.Program()
            with fw.static.program_guard(main, fw.static.Program()):
                x = fw.static.data("x", [3], "float32")
                loc = fw.static.data("loc", [3], "float32")
                sc = fw.static.data("sc", [3], "float32")
                D = fw.distribution
                outs = [D.Normal(loc, sc).log_prob(x), D.Normal(loc, sc).entropy(),
                        D.Gamma(sc, sc).log_prob(sc), D.Laplace(loc, sc).cdf(x),
                        D.kl_divergence(D.Normal(loc, sc), D.Normal(x, sc))]
                shape = D.Normal(loc, sc).sample([2]).shape
            feed = {"x": np.array([0.1, 0.2, -1], "float32"), "loc": np.zeros(3, "float32"),
                    "sc": np.array([1, 2, 3], "float32")}
            return fw.static.Executor(fw.CPUPlace()).run(main, feed=feed, fetch_list=outs), list(shape)
        finally:
            fw.disable_static()
    ref = paddle_ref()
    (ours, s1), (theirs, s2) = run(pagaie), run(ref)
    assert s1 == s2
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _tensor(fw, v):
    return fw.to_tensor(np.asarray(v, dtype="float32"))


ERRORS = {
    "normal-str": lambda fw: fw.distribution.Normal("a", 1.0),
    "normal-mixed": lambda fw: fw.distribution.Normal(_tensor(fw, [0.0]), 1.0),
    "normal-sample-shape": lambda fw: fw.distribution.Normal(0.0, 1.0).sample(5),
    "uniform-mixed": lambda fw: fw.distribution.Uniform(_tensor(fw, [0.0]), 1.0),
    "bernoulli-int": lambda fw: fw.distribution.Bernoulli(1),
    "gamma-mixed": lambda fw: fw.distribution.Gamma(_tensor(fw, [1.0]), 1.0),
    "exponential-int": lambda fw: fw.distribution.Exponential(2),
    "chi2-negative": lambda fw: fw.distribution.Chi2(_tensor(fw, [-1.0])),
    "studentt-negative-df": lambda fw: fw.distribution.StudentT(_tensor(fw, [-1.0]), _tensor(fw, [0.0]),
                                                                 _tensor(fw, [1.0])),
    "studentt-negative-scale": lambda fw: fw.distribution.StudentT(3.0, 0.0, -1.0),
    "studentt-int": lambda fw: fw.distribution.StudentT(3, 0.0, 1.0),
    "studentt-sample-shape": lambda fw: fw.distribution.StudentT(3.0, 0.0, 1.0).sample(2),
    "dirichlet-0d": lambda fw: fw.distribution.Dirichlet(_tensor(fw, 1.0)),
    "multinomial-count": lambda fw: fw.distribution.Multinomial(0, _tensor(fw, [0.5, 0.5])),
    "multinomial-float-count": lambda fw: fw.distribution.Multinomial(2.0, _tensor(fw, [0.5, 0.5])),
    "multinomial-0d": lambda fw: fw.distribution.Multinomial(2, _tensor(fw, 0.5)),
    "multinomial-sample-shape": lambda fw: fw.distribution.Multinomial(2, _tensor(fw, [0.5, 0.5])).sample(3),
    "mvn-two-matrices": lambda fw: fw.distribution.MultivariateNormal(
        _tensor(fw, [0.0, 0.0]), covariance_matrix=fw.eye(2), scale_tril=fw.eye(2)),
    "mvn-no-matrix": lambda fw: fw.distribution.MultivariateNormal(_tensor(fw, [0.0, 0.0])),
    "mvn-1d-matrix": lambda fw: fw.distribution.MultivariateNormal(
        _tensor(fw, [0.0, 0.0]), covariance_matrix=_tensor(fw, [1.0, 1.0])),
    "mvn-sample-shape": lambda fw: fw.distribution.MultivariateNormal(
        _tensor(fw, [0.0]), covariance_matrix=fw.eye(1)).sample(2),
    "lkj-dim": lambda fw: fw.distribution.LKJCholesky(1),
    "lkj-float-dim": lambda fw: fw.distribution.LKJCholesky(2.5),
    "lkj-concentration": lambda fw: fw.distribution.LKJCholesky(3, -1.0),
    "lkj-method": lambda fw: fw.distribution.LKJCholesky(3, 1.0, "bogus"),
    "lkj-sample-shape": lambda fw: fw.distribution.LKJCholesky(3, 1.0).sample(2),
    "independent-base": lambda fw: fw.distribution.Independent("normal", 1),
    "independent-rank": lambda fw: fw.distribution.Independent(
        fw.distribution.Normal(_tensor(fw, [0.0]), _tensor(fw, [1.0])), 2),
    "transformed-base": lambda fw: fw.distribution.TransformedDistribution(1.0, []),
    "transformed-transforms": lambda fw: fw.distribution.TransformedDistribution(
        fw.distribution.Normal(0.0, 1.0), fw.distribution.ExpTransform()),
    "transformed-elements": lambda fw: fw.distribution.TransformedDistribution(
        fw.distribution.Normal(0.0, 1.0), [1]),
    "cauchy-type": lambda fw: fw.distribution.Cauchy("a", 1.0),
    "cauchy-mean": lambda fw: fw.distribution.Cauchy(0.0, 1.0).mean,
    "cauchy-variance": lambda fw: fw.distribution.Cauchy(0.0, 1.0).variance,
    "cauchy-log-prob-list": lambda fw: fw.distribution.Cauchy(0.0, 1.0).log_prob([1.0]),
    "cauchy-kl-type": lambda fw: fw.distribution.Cauchy(0.0, 1.0).kl_divergence(fw.distribution.Normal(0.0, 1.0)),
    "cauchy-rsample-shape": lambda fw: fw.distribution.Cauchy(0.0, 1.0).rsample(3),
    "laplace-type": lambda fw: fw.distribution.Laplace("a", 1.0),
    "gumbel-type": lambda fw: fw.distribution.Gumbel(0.0, "b"),
    "geometric-type": lambda fw: fw.distribution.Geometric("a"),
    "geometric-pmf-float": lambda fw: fw.distribution.Geometric(0.5).pmf(1.5),
    "geometric-kl-type": lambda fw: fw.distribution.Geometric(0.5).kl_divergence(fw.distribution.Normal(0.0, 1.0)),
    "exponential-kl-type": lambda fw: fw.distribution.Exponential(1.0).kl_divergence(fw.distribution.Normal(0.0, 1.0)),
    "gamma-kl-type": lambda fw: fw.distribution.Gamma(1.0, 1.0).kl_divergence(fw.distribution.Normal(0.0, 1.0)),
    "poisson-kl-batch": lambda fw: fw.distribution.Poisson(_tensor(fw, [1.0])).kl_divergence(
        fw.distribution.Poisson(_tensor(fw, [1.0, 2.0]))),
    "poisson-sample-shape": lambda fw: fw.distribution.Poisson(1.0).sample(3),
    "binomial-sample-shape": lambda fw: fw.distribution.Binomial(3, 0.5).sample(3),
    "cb-kl-batch": lambda fw: fw.distribution.ContinuousBernoulli(_tensor(fw, [0.3])).kl_divergence(
        fw.distribution.ContinuousBernoulli(_tensor(fw, [0.3, 0.4]))),
    "cb-sample-shape": lambda fw: fw.distribution.ContinuousBernoulli(0.3).rsample(3),
    "normal-kl-field": lambda fw: fw.distribution.Normal(0.0, 1.0).kl_divergence(fw.distribution.Normal(1j, 1.0)),
    "base-abstract": lambda fw: fw.distribution.Distribution().sample([1]),
    "base-abstract-mean": lambda fw: fw.distribution.Distribution().mean,
    "uniform-kl": lambda fw: fw.distribution.Uniform(0.0, 1.0).kl_divergence(fw.distribution.Uniform(0.0, 1.0)),
    "beta-kl-method": lambda fw: fw.distribution.Beta(1.0, 1.0).kl_divergence(fw.distribution.Beta(1.0, 2.0)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_error_types_vs_paddle(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_exception(ERRORS[name])


def test_value_dtype_is_cast_with_a_warning():
    d = pagaie.distribution.Normal(_t([0.0, 1.0], "float32"), _t([1.0, 1.0], "float32"))
    with pytest.warns(UserWarning):
        lp = d.log_prob(_t([0.5, 0.5], "float64"))
    assert lp.dtype == pagaie.float32
