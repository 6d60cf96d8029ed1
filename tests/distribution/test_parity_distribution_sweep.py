"""Differential sweep of ``paddle.distribution`` against real Paddle 3.3.1: argument checks
when parameters and values are broadcast together, sample-shape checks, and Paddle's module
paths (``paddle.distribution.bernoulli``, ``variable``, ``constraint``)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _t(fw, v, dtype="float32"):
    return fw.to_tensor(np.asarray(v).astype(dtype))


# Paddle broadcasts parameters (and values) with broadcast_tensors, which takes Tensors of
# one dtype only: anything else is a ValueError.
BROADCAST_ERRORS = {
    "cauchy-mixed-dtypes": lambda fw: fw.distribution.Cauchy(_t(fw, [0.0, 1.0], "float64"),
                                                             _t(fw, [1.0])),
    "cauchy-float-and-float64": lambda fw: fw.distribution.Cauchy(0.5, _t(fw, [1.0, 2.0], "float64")),
    "gumbel-mixed-dtypes": lambda fw: fw.distribution.Gumbel(_t(fw, [[0.0], [1.0]]),
                                                             _t(fw, [1.0, 2.0], "float64")),
    "studentt-mixed-dtypes": lambda fw: fw.distribution.StudentT(
        _t(fw, [3.0, 4.0], "float64"), _t(fw, [0.0, 1.0]), _t(fw, [1.0, 2.0], "float64")),
    "laplace-mixed-dtypes-log-prob": lambda fw: fw.distribution.Laplace(
        _t(fw, [0.0, 1.0], "float64"), _t(fw, [1.0])).log_prob(_t(fw, [0.5, 0.5])),
    "beta-list": lambda fw: fw.distribution.Beta([0.3, 0.6], 0.5),
    "beta-numpy": lambda fw: fw.distribution.Beta(_t(fw, [0.3]), np.array([0.5])),
    "binomial-numpy-probs": lambda fw: fw.distribution.Binomial(5, np.array([0.3, 0.6])),
    "bernoulli-int-value": lambda fw: fw.distribution.Bernoulli(_t(fw, [0.3, 0.6])).log_prob(
        _t(fw, [1, 0], "int64")),
    "bernoulli-int-value-cdf": lambda fw: fw.distribution.Bernoulli(_t(fw, [0.3, 0.6])).cdf(
        _t(fw, [1, 0], "int64")),
    "cauchy-int-value": lambda fw: fw.distribution.Cauchy(_t(fw, [0.0]), _t(fw, [1.0])).log_prob(
        _t(fw, [1, 0], "int64")),
    "cauchy-int-value-cdf": lambda fw: fw.distribution.Cauchy(_t(fw, [0.0]), _t(fw, [1.0])).cdf(
        _t(fw, [1, 0], "int64")),
    "multinomial-float64-value": lambda fw: fw.distribution.Multinomial(
        3, _t(fw, [0.2, 0.3, 0.5])).log_prob(_t(fw, [1.0, 1.0, 1.0], "float64")),
}


@pytest.mark.parametrize("name", list(BROADCAST_ERRORS))
def test_broadcast_argument_errors_vs_paddle(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exc = same_exception(BROADCAST_ERRORS[name])
    assert isinstance(exc, ValueError)
    assert "paddle.distribution." in str(exc)


OTHER_ERRORS = {
    # Paddle clips ``probs`` first: a numpy array fails clip's argument check (ValueError),
    # a list has no dtype (AttributeError).
    "cb-numpy": lambda fw: fw.distribution.ContinuousBernoulli(np.array([0.3, 0.6], "float32")),
    "cb-list": lambda fw: fw.distribution.ContinuousBernoulli([0.3, 0.6]),
    "lkj-log-prob-0d": lambda fw: fw.distribution.LKJCholesky(2, 1.5).log_prob(_t(fw, 0.5)),
    "lkj-log-prob-1d": lambda fw: fw.distribution.LKJCholesky(2, 1.5).log_prob(_t(fw, [0.5, 0.5])),
    # A Tensor is not an Iterable sample shape in Paddle.
    "normal-sample-tensor-shape": lambda fw: fw.distribution.Normal(
        _t(fw, [0.0]), _t(fw, [1.0])).sample(fw.to_tensor([2, 3])),
    "normal-rsample-tensor-shape": lambda fw: fw.distribution.Normal(
        _t(fw, [0.0]), _t(fw, [1.0])).rsample(fw.to_tensor([2])),
    "lognormal-sample-tensor-shape": lambda fw: fw.distribution.LogNormal(
        _t(fw, [0.0]), _t(fw, [1.0])).sample(fw.to_tensor([2])),
    "multinomial-sample-tensor-shape": lambda fw: fw.distribution.Multinomial(
        3, _t(fw, [0.2, 0.8])).sample(fw.to_tensor([2])),
}


@pytest.mark.parametrize("name", list(OTHER_ERRORS))
def test_other_argument_errors_vs_paddle(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_exception(OTHER_ERRORS[name])


BROADCAST_OK = {
    "cauchy": lambda fw: (lambda d: [d.log_prob(_t(fw, [0.3, -0.2])), d.cdf(_t(fw, [[0.1]])),
                                     d.entropy()])(
        fw.distribution.Cauchy(_t(fw, [[0.1], [0.5]]), _t(fw, [1.0, 2.0]))),
    "cauchy-float64": lambda fw: fw.distribution.Cauchy(
        _t(fw, [0.1, 0.5], "float64"), _t(fw, [1.0, 2.0], "float64")).log_prob(
            _t(fw, [0.3, 0.2], "float64")),
    "gumbel": lambda fw: (lambda d: [d.log_prob(_t(fw, [0.3, -0.2])), d.mean])(
        fw.distribution.Gumbel(_t(fw, [[0.1], [0.5]]), _t(fw, [1.0, 2.0]))),
    "laplace": lambda fw: (lambda d: [d.log_prob(0.5), d.cdf(_t(fw, [[0.1], [0.2]]))])(
        fw.distribution.Laplace(_t(fw, [0.1, 0.5]), _t(fw, 1.0))),
    "studentt": lambda fw: (lambda d: [d.log_prob(_t(fw, [0.3, -0.2])), d.entropy()])(
        fw.distribution.StudentT(3.0, _t(fw, [[0.1], [0.5]]), _t(fw, [1.0, 2.0]))),
    "beta": lambda fw: (lambda d: [d.log_prob(_t(fw, [0.3, 0.2])), d.mean])(
        fw.distribution.Beta(_t(fw, [[0.5], [2.0]]), 1.5)),
    "binomial": lambda fw: fw.distribution.Binomial(_t(fw, [[3.0], [5.0]]), _t(fw, [0.3, 0.6])).log_prob(
        _t(fw, [1.0, 2.0])),
    "bernoulli": lambda fw: [fw.distribution.Bernoulli(_t(fw, [0.3, 0.6])).log_prob(_t(fw, [[1.0], [0.0]])),
                             fw.distribution.Bernoulli(_t(fw, [0.3, 0.6])).cdf(_t(fw, 0.5))],
    "multinomial": lambda fw: fw.distribution.Multinomial(
        3, _t(fw, [[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])).log_prob(_t(fw, [1, 1, 1], "int64")),
}


@pytest.mark.parametrize("name", list(BROADCAST_OK))
def test_broadcasting_parameters_and_values_vs_paddle(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = both(BROADCAST_OK[name])
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


MODULES = ["bernoulli", "beta", "binomial", "categorical", "cauchy", "chi2", "constraint",
           "continuous_bernoulli", "dirichlet", "distribution", "exponential",
           "exponential_family", "geometric", "gumbel", "independent", "kl", "laplace",
           "lkj_cholesky", "lognormal", "multinomial", "multivariate_normal", "normal", "poisson",
           "student_t", "transform", "transformed_distribution", "uniform", "variable"]


@pytest.mark.parametrize("module", MODULES)
def test_submodules_are_attributes_like_paddle(module):
    ref = paddle_ref()
    theirs = getattr(ref.distribution, module)
    ours = getattr(pagaie.distribution, module)
    for name in dir(theirs):
        obj = getattr(theirs, name)
        if isinstance(obj, type) and obj.__module__ == theirs.__name__ and \
                name in ref.distribution.__all__ and obj is getattr(ref.distribution, name):
            assert getattr(ours, name) is getattr(pagaie.distribution, name), f"{module}.{name}"
        elif isinstance(obj, type) and obj.__module__ == theirs.__name__ and \
                module in ("variable", "constraint") and not name.startswith("_"):
            assert isinstance(getattr(ours, name), type), f"{module}.{name}"


def test_variable_and_constraint_modules_vs_paddle():
    def run(fw):
        V, C = fw.distribution.variable, fw.distribution.constraint
        x = _t(fw, [-1.0, 0.5, float("nan")])
        stack = V.Stack([V.real, V.Positive(1)], -1)
        return [V.real.constraint(x), V.positive.constraint(x), C.real(x), C.positive.check(x),
                C.Range(0.0, 1.0)(_t(fw, 0.5)), V.Real(2).event_rank, V.Positive().is_discrete,
                V.Independent(V.real, 2).event_rank, stack.event_rank, stack.is_discrete,
                V.Variable(True, 1).is_discrete]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_simplex_and_independent_constraints_hold_elementwise():
    # Paddle 3.3.1 raises on these (``and`` over a multi-element tensor, a missing attribute);
    # pagaie answers per event.
    V, C = pagaie.distribution.variable, pagaie.distribution.constraint
    x = pagaie.to_tensor([[0.5, 0.5], [0.2, 0.3]])
    assert C.simplex(x).tolist() == [True, False]
    assert V.Independent(V.positive, 1).constraint(pagaie.to_tensor([[1.0, -1.0], [1.0, 2.0]])).tolist() == \
        [False, True]
    assert C.Range(0.0, 1.0)(pagaie.to_tensor([-0.5, 0.5, 1.5])).tolist() == [False, True, False]


@pytest.mark.parametrize("make", ["Abs", "Affine", "Chain", "Exp", "Independent", "Power",
                                  "Reshape", "Sigmoid", "Softmax", "Stack", "StickBreaking",
                                  "Tanh"])
def test_transform_domains_are_paddles_variable_kinds(make):
    def run(fw):
        D = fw.distribution
        t = {"Abs": lambda: D.AbsTransform(),
             "Affine": lambda: D.AffineTransform(_t(fw, 0.0), _t(fw, 2.0)),
             "Chain": lambda: D.ChainTransform([D.ExpTransform(), D.SoftmaxTransform()]),
             "Exp": lambda: D.ExpTransform(),
             "Independent": lambda: D.IndependentTransform(D.TanhTransform(), 2),
             "Power": lambda: D.PowerTransform(_t(fw, 2.0)),
             "Reshape": lambda: D.ReshapeTransform((2, 3), (6,)),
             "Sigmoid": lambda: D.SigmoidTransform(),
             "Softmax": lambda: D.SoftmaxTransform(),
             "Stack": lambda: D.StackTransform([D.ExpTransform(), D.TanhTransform()], -1),
             "StickBreaking": lambda: D.StickBreakingTransform(),
             "Tanh": lambda: D.TanhTransform()}[make]()
        return [(type(v).__name__, v.event_rank, v.is_discrete) for v in (t._domain, t._codomain)]
    ours, theirs = both(run)
    assert ours == theirs
    assert isinstance(pagaie.distribution.ExpTransform()._codomain, pagaie.distribution.variable.Variable)
