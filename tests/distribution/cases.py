"""The distribution case table shared by the tests: each case builds the same distribution in
pagaie and in real Paddle from numpy parameters, plus values to evaluate densities at."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

FLOATS = ("float32", "float64")
R = np.random.default_rng(7)


def pos(*shape: int, lo: float = 0.5, hi: float = 2.0) -> np.ndarray:
    return R.uniform(lo, hi, shape)


def unit(*shape: int, lo: float = 0.1, hi: float = 0.9) -> np.ndarray:
    return R.uniform(lo, hi, shape)


def normal(*shape: int) -> np.ndarray:
    return R.standard_normal(shape)


@dataclasses.dataclass
class Case:
    """``build(D, p)`` makes the distribution from ``D`` (a framework's ``distribution`` module)
    and ``p`` (a dict of that framework's tensors made from ``params``)."""

    id: str
    params: dict
    build: Callable
    value: Any = None                 # numpy array (cast to the dtype) for densities
    methods: tuple = ("log_prob", "prob", "entropy", "mean", "variance")
    dtypes: tuple = FLOATS
    grad: bool = True                 # compare d log_prob(value).sum() / d params
    grad_ref: str = "paddle"          # "numeric": finite differences (Paddle's backward crashes)
    rsample: bool = False
    value_dtype: str | None = None    # fixed value dtype (e.g. int64 class indices)
    rtol: float = 1e-5
    atol: float = 1e-6
    sample_shape: tuple = (3, 2)


def _mvn_cov(n: int, batch: tuple = ()) -> np.ndarray:
    a = R.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _tril(n: int) -> np.ndarray:
    return np.linalg.cholesky(_mvn_cov(n))


def _lkj_value(n: int) -> np.ndarray:
    a = _mvn_cov(n)
    d = np.sqrt(np.diag(a))
    return np.linalg.cholesky(a / np.outer(d, d))


CASES = [
    Case("Normal", {"loc": normal(3), "scale": pos(3)},
         lambda D, p: D.Normal(p["loc"], p["scale"]), normal(2, 3),
         methods=("log_prob", "prob", "probs", "entropy", "mean", "variance"), rsample=True),
    Case("Normal-bcast", {"loc": normal(2, 1), "scale": pos(2, 1)},
         lambda D, p: D.Normal(p["loc"], p["scale"]), normal(2, 4),
         methods=("log_prob", "probs", "entropy"), rsample=True),
    Case("Uniform", {"low": -pos(3), "high": pos(3)},
         lambda D, p: D.Uniform(p["low"], p["high"]), np.array([0.1, -3.0, 0.3]),
         methods=("log_prob", "probs", "entropy")),
    Case("Bernoulli", {"probs": unit(4)}, lambda D, p: D.Bernoulli(p["probs"]),
         np.array([1.0, 0.0, 1.0, 0.0]), grad_ref="numeric",
         methods=("log_prob", "prob", "cdf", "entropy", "mean", "variance"), rsample=True),
    Case("Categorical", {"logits": pos(2, 4)}, lambda D, p: D.Categorical(p["logits"]),
         np.array([[0, 3], [2, 1]]), value_dtype="int64",
         methods=("log_prob", "probs", "entropy")),
    Case("Categorical-1d", {"logits": pos(5)}, lambda D, p: D.Categorical(p["logits"]),
         np.array([[0, 3], [2, 4]]), value_dtype="int64",
         methods=("log_prob", "probs", "entropy")),
    Case("Beta", {"alpha": pos(3), "beta": pos(3)}, lambda D, p: D.Beta(p["alpha"], p["beta"]),
         unit(3), methods=("log_prob", "prob", "entropy", "mean", "variance")),
    Case("Binomial", {"probs": unit(3)}, lambda D, p: D.Binomial(10, p["probs"]),
         np.array([0.0, 4.0, 10.0]), methods=("log_prob", "prob", "entropy", "mean", "variance"),
         grad_ref="numeric"),
    Case("Cauchy", {"loc": normal(3), "scale": pos(3)},
         lambda D, p: D.Cauchy(p["loc"], p["scale"]), normal(3),
         methods=("log_prob", "prob", "cdf", "entropy"), rsample=True),
    Case("Chi2", {"df": pos(3, lo=1, hi=5)}, lambda D, p: D.Chi2(p["df"]), pos(3),
         methods=("log_prob", "prob", "entropy", "mean", "variance")),
    Case("ContinuousBernoulli", {"probs": np.array([0.1, 0.4995, 0.7, 0.5003])},
         lambda D, p: D.ContinuousBernoulli(p["probs"]), unit(4),
         methods=("log_prob", "prob", "cdf", "icdf", "entropy", "mean", "variance"),
         rsample=True, rtol=1e-4, atol=1e-5),
    Case("Dirichlet", {"concentration": pos(2, 3)},
         lambda D, p: D.Dirichlet(p["concentration"]),
         np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]),
         methods=("log_prob", "prob", "entropy", "mean", "variance")),
    Case("Exponential", {"rate": pos(3)}, lambda D, p: D.Exponential(p["rate"]), pos(3),
         methods=("log_prob", "prob", "cdf", "icdf", "entropy", "mean", "variance"), rsample=True),
    Case("Gamma", {"concentration": pos(3), "rate": pos(3)},
         lambda D, p: D.Gamma(p["concentration"], p["rate"]), pos(3),
         methods=("log_prob", "prob", "entropy", "mean", "variance"), rsample=True),
    Case("Geometric", {"probs": unit(3)}, lambda D, p: D.Geometric(p["probs"]),
         np.array([0.0, 2.0, 5.0]),
         methods=("pmf", "log_pmf", "cdf", "entropy", "mean", "variance", "stddev"), grad=False,
         rsample=True),
    Case("Gumbel", {"loc": normal(3), "scale": pos(3)},
         lambda D, p: D.Gumbel(p["loc"], p["scale"]), normal(3),
         methods=("log_prob", "prob", "cdf", "entropy", "mean", "variance", "stddev"),
         rsample=True),
    Case("Laplace", {"loc": normal(3), "scale": pos(3)},
         lambda D, p: D.Laplace(p["loc"], p["scale"]), normal(3),
         methods=("log_prob", "cdf", "icdf", "entropy", "mean", "variance", "stddev"),
         rsample=True),
    Case("LogNormal", {"loc": normal(3), "scale": pos(3)},
         lambda D, p: D.LogNormal(p["loc"], p["scale"]), pos(3),
         methods=("log_prob", "prob", "probs", "entropy", "mean", "variance"), rsample=True),
    Case("Multinomial", {"probs": pos(2, 3)}, lambda D, p: D.Multinomial(5, p["probs"]),
         np.array([[1.0, 2.0, 2.0], [0.0, 0.0, 5.0]]),
         methods=("log_prob", "prob", "entropy", "mean", "variance"), rtol=1e-4, atol=1e-5),
    Case("MultivariateNormal-cov", {"loc": normal(2, 3), "cov": _mvn_cov(3)},
         lambda D, p: D.MultivariateNormal(p["loc"], covariance_matrix=p["cov"]), normal(4, 2, 3),
         methods=("log_prob", "prob", "entropy", "mean", "variance"), rsample=True,
         rtol=1e-4, atol=1e-5),
    Case("MultivariateNormal-tril", {"loc": normal(3), "tril": _tril(3)},
         lambda D, p: D.MultivariateNormal(p["loc"], scale_tril=p["tril"]), normal(2, 3),
         methods=("log_prob", "entropy", "variance"), rsample=True, rtol=1e-4, atol=1e-5),
    Case("MultivariateNormal-prec", {"loc": normal(3), "prec": _mvn_cov(3)},
         lambda D, p: D.MultivariateNormal(p["loc"], precision_matrix=p["prec"]), normal(2, 3),
         methods=("log_prob", "entropy", "variance"), rsample=True, rtol=1e-4, atol=1e-5,
         grad_ref="numeric"),
    Case("Poisson", {"rate": pos(3, lo=0.5, hi=4)}, lambda D, p: D.Poisson(p["rate"]),
         np.array([0.0, 1.0, 3.0]), methods=("log_prob", "prob", "entropy", "mean", "variance"),
         rtol=1e-4, atol=1e-5),
    Case("StudentT", {"df": pos(3, lo=1.5, hi=5), "loc": normal(3), "scale": pos(3)},
         lambda D, p: D.StudentT(p["df"], p["loc"], p["scale"]), normal(3),
         methods=("log_prob", "prob", "entropy", "mean", "variance")),
    Case("LKJCholesky-onion", {"concentration": np.array(1.7)},
         lambda D, p: D.LKJCholesky(3, p["concentration"]), _lkj_value(3),
         methods=("log_prob",)),
    Case("LKJCholesky-cvine", {"concentration": np.array(0.8)},
         lambda D, p: D.LKJCholesky(4, p["concentration"], "cvine"), _lkj_value(4),
         methods=("log_prob",)),
    Case("Independent", {"loc": normal(2, 3), "scale": pos(2, 3)},
         lambda D, p: D.Independent(D.Normal(p["loc"], p["scale"]), 1), normal(2, 3),
         methods=("log_prob", "prob", "entropy", "mean", "variance")),
    Case("Transformed-affine-exp", {"loc": normal(3), "scale": pos(3)},
         lambda D, p: D.TransformedDistribution(
             D.Normal(p["loc"], p["scale"]),
             [D.AffineTransform(p["loc"] * 0 + 1.0, p["scale"]), D.ExpTransform()]),
         pos(3), methods=("log_prob", "prob"), rsample=True),
    Case("Transformed-stickbreaking", {"loc": normal(2), "scale": pos(2)},
         lambda D, p: D.TransformedDistribution(D.Normal(p["loc"], p["scale"]),
                                                [D.StickBreakingTransform()]),
         np.array([0.2, 0.3, 0.5]), methods=("log_prob",), rsample=True),
]

CASE_IDS = [c.id for c in CASES]


def params_of(fw: Any, case: Case, dtype: str, grad: bool = False) -> dict:
    return {k: fw.to_tensor(np.asarray(v).astype(dtype), stop_gradient=not grad)
            for k, v in case.params.items()}


def value_of(fw: Any, case: Case, dtype: str) -> Any:
    return fw.to_tensor(np.asarray(case.value).astype(case.value_dtype or dtype))
