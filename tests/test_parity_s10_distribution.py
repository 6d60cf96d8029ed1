"""Session-10 differential sweep of ``paddle.distribution`` against real Paddle 3.3.1: the
module each class reports (its printed form), Categorical's value checks and batch shape, and
the parameter forms (floats, ints, lists, numpy, float32/float64 Tensors) every constructor
takes, compared by attributes and by sample values after ``paddle.seed``."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception


def _t(fw, v, dtype="float32"):
    return fw.to_tensor(np.asarray(v).astype(dtype))


def _run(fn):
    """``fn(framework)`` under both frameworks, warnings silenced."""
    ref = paddle_ref()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(pagaie), fn(ref)


# ---- the module each class reports (repr: <paddle.distribution.uniform.Uniform object ...>) ----

def _classes(ref):
    names = sorted(set(ref.distribution.__all__) | {"Distribution", "ExponentialFamily"})
    return [n for n in names if isinstance(getattr(ref.distribution, n), type)]


def test_classes_report_paddles_module_paths():
    ref = paddle_ref()
    for name in _classes(ref):
        theirs = getattr(ref.distribution, name)
        ours = getattr(pagaie.distribution, name)
        assert ours.__module__ == theirs.__module__.replace("paddle", "pagaie", 1), name
        # the module it names holds it (pickling finds it there)
        module = __import__(ours.__module__, fromlist=[name])
        assert getattr(module, name) is ours, name


REPRS = {
    "Uniform": lambda D, fw: D.Uniform(0.0, 1.0),
    "Bernoulli": lambda D, fw: D.Bernoulli(0.3),
    "Categorical": lambda D, fw: D.Categorical(_t(fw, [0.2, 0.8])),
    "Beta": lambda D, fw: D.Beta(0.5, 0.5),
    "MultivariateNormal": lambda D, fw: D.MultivariateNormal(_t(fw, [0.0, 1.0]), _t(fw, np.eye(2))),
    "LKJCholesky": lambda D, fw: D.LKJCholesky(3, 1.0),
    "Independent": lambda D, fw: D.Independent(D.Normal(_t(fw, [0.0, 1.0]), _t(fw, [1.0, 2.0])), 1),
    "TransformedDistribution": lambda D, fw: D.TransformedDistribution(D.Normal(0.0, 1.0),
                                                                       [D.ExpTransform()]),
}


@pytest.mark.parametrize("name", list(REPRS))
def test_printed_form_vs_paddle(name):
    ours, theirs = _run(lambda fw: REPRS[name](fw.distribution, fw))

    def norm(s):
        return re.sub(r" at 0x[0-9a-fA-F]+", "", s)
    assert norm(repr(ours)) == norm(repr(theirs)).replace("<paddle.", "<pagaie.", 1)
    assert norm(str(ours)) == norm(str(theirs)).replace("<paddle.", "<pagaie.", 1)


# ---- Categorical: class indices must be an int32/int64 Tensor; its batch shape ------------------

@pytest.mark.parametrize("method", ["probs", "log_prob"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool"])
def test_categorical_non_integer_value_is_a_value_error_like_paddle(method, dtype):
    def call(fw):
        d = fw.distribution.Categorical(_t(fw, [0.3, 0.7]))
        return getattr(d, method)(_t(fw, [0, 1], dtype))
    exc = same_exception(call)
    assert f"paddle.distribution.Categorical.{method}" in str(exc) and dtype in str(exc)


@pytest.mark.parametrize("method", ["probs", "log_prob"])
def test_categorical_batched_non_integer_value_raises(method):
    # Paddle returns values read from memory it never wrote here; pagaie raises as for 1-D logits.
    d = pagaie.distribution.Categorical(_t(pagaie, [[0.3, 0.7], [0.5, 0.5]]))
    with pytest.raises(ValueError, match=f"Categorical.{method}.*float32"):
        getattr(d, method)(_t(pagaie, [1.0, 0.0]))
    with pytest.raises(TypeError, match=f"Categorical.{method}.*list"):
        getattr(d, method)([1, 0])


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_categorical_integer_values_vs_paddle(dtype):
    def run(fw):
        one = fw.distribution.Categorical(_t(fw, [0.3, 0.7]))
        two = fw.distribution.Categorical(_t(fw, [[0.3, 0.7], [0.5, 0.5]]))
        v = _t(fw, [1, 0], dtype)
        w = _t(fw, [[1, 0, 1], [0, 0, 1]], dtype)
        return [one.probs(v), one.log_prob(v), two.probs(v), two.log_prob(w)]
    ours, theirs = _run(run)
    assert_same(ours, theirs)


def test_categorical_batch_shape_is_all_but_the_last_axis():
    # Paddle's Categorical never sets its shapes (AttributeError); pagaie's match sample().
    D = pagaie.distribution
    d = D.Categorical(_t(pagaie, np.ones((2, 3, 4))))
    assert d.batch_shape == (2, 3) and d.event_shape == ()
    assert list(d.sample([5]).shape) == [5, 2, 3]
    assert D.Categorical(_t(pagaie, [0.2, 0.8])).batch_shape == ()


# ---- parameter forms: floats, ints, lists, numpy, Tensors of float32/float64 -------------------

FORMS = {
    "float": lambda fw, v: float(v[0]),
    "int": lambda fw, v: int(v[0]),
    "list": lambda fw, v: list(v),
    "np64": lambda fw, v: np.asarray(v, dtype="float64"),
    "np32": lambda fw, v: np.asarray(v, dtype="float32"),
    "t32": lambda fw, v: _t(fw, v),
    "t64": lambda fw, v: _t(fw, v, "float64"),
}
BUILD = {
    "Normal": (lambda D, a: D.Normal(*a), [[0.5, 1.0], [1.0, 2.0]]),
    "Uniform": (lambda D, a: D.Uniform(*a), [[0.0, 1.0], [2.0, 3.0]]),
    "Bernoulli": (lambda D, a: D.Bernoulli(*a), [[0.3, 0.6]]),
    "Beta": (lambda D, a: D.Beta(*a), [[0.5, 2.0], [1.5, 1.0]]),
    "Gamma": (lambda D, a: D.Gamma(*a), [[0.5, 2.0], [1.5, 1.0]]),
    "Exponential": (lambda D, a: D.Exponential(*a), [[0.5, 2.0]]),
    "Laplace": (lambda D, a: D.Laplace(*a), [[0.5, 1.0], [1.0, 2.0]]),
    "LogNormal": (lambda D, a: D.LogNormal(*a), [[0.5, 1.0], [1.0, 2.0]]),
    "Gumbel": (lambda D, a: D.Gumbel(*a), [[0.5, 1.0], [1.0, 2.0]]),
    "Cauchy": (lambda D, a: D.Cauchy(*a), [[0.5, 1.0], [1.0, 2.0]]),
    "Geometric": (lambda D, a: D.Geometric(*a), [[0.3, 0.6]]),
    "Poisson": (lambda D, a: D.Poisson(*a), [[0.5, 2.0]]),
    "Binomial": (lambda D, a: D.Binomial(10, *a), [[0.3, 0.6]]),
    "StudentT": (lambda D, a: D.StudentT(*a), [[3.0, 5.0], [0.5, 1.0], [1.0, 2.0]]),
    "Chi2": (lambda D, a: D.Chi2(*a), [[3.0, 5.0]]),
    "ContinuousBernoulli": (lambda D, a: D.ContinuousBernoulli(*a), [[0.3, 0.6]]),
}


@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("name", list(BUILD))
def test_parameter_forms_vs_paddle(name, form):
    build, params = BUILD[name]

    def run(fw):
        out = []
        for attr in ("batch_shape", "event_shape", "mean", "variance", "entropy", "sample"):
            try:
                d = build(fw.distribution, [FORMS[form](fw, p) for p in params])
                if attr == "sample":
                    fw.seed(5)
                    got = [d.sample(()), d.sample([2, 3])]
                else:
                    got = getattr(d, attr)
                    got = got() if callable(got) else got
                out.append(got)
            except Exception as exc:  # noqa: BLE001
                out.append(type(exc).__name__)
        return out
    ours, theirs = _run(run)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if isinstance(b, str):
            assert a == b, f"{name}[{form}] #{i}: {a} vs Paddle's {b}"
        else:
            assert_same(a, b, rtol=1e-5, atol=1e-6, what=f"{name}[{form}] #{i}")
