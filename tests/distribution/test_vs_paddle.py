"""Distributions vs real Paddle 3.3.1: densities, moments, entropies, gradients, sample shapes."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.distribution.cases import CASE_IDS, CASES, params_of, value_of
from tests.reference import assert_same, paddle_ref

GRID = [(c, dt) for c in CASES for dt in c.dtypes]
GRID_IDS = [f"{c.id}-{dt}" for c, dt in GRID]


def _eval(dist, method, value):
    attr = getattr(dist, method)
    if callable(attr):
        return attr(value)if method not in ("entropy",) else attr()
    return attr


def _build(fw, case, dtype, grad=False):
    p = params_of(fw, case, dtype, grad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return case.build(fw.distribution, p), p


@pytest.mark.parametrize("case,dtype", GRID, ids=GRID_IDS)
def test_values(case, dtype):
    ref = paddle_ref()
    ours, _ = _build(pagaie, case, dtype)
    theirs, _ = _build(ref, case, dtype)
    if hasattr(theirs, "_batch_shape"):  # Paddle's Categorical never sets its shapes
        assert tuple(ours.batch_shape) == tuple(theirs.batch_shape)
        assert tuple(ours.event_shape) == tuple(theirs.event_shape)
    for m in case.methods:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = _eval(ours, m, value_of(pagaie, case, dtype))
            b = _eval(theirs, m, value_of(ref, case, dtype))
        assert_same(a, b, rtol=case.rtol, atol=case.atol, what=f"{case.id}.{m}")


@pytest.mark.parametrize("case,dtype", [g for g in GRID if g[0].grad],
                         ids=[i for g, i in zip(GRID, GRID_IDS) if g[0].grad])
def test_log_prob_grad(case, dtype):
    if case.grad_ref == "numeric":
        _check_numeric_grad(case, dtype)
        return
    ref = paddle_ref()
    grads = []
    for fw in (pagaie, ref):
        dist, p = _build(fw, case, dtype, grad=True)
        value = value_of(fw, case, dtype)
        if case.value_dtype is None:
            # Also differentiate w.r.t. the value: real Paddle's broadcast_tensors backward
            # crashes (segfault) when one of its inputs has no gradient.
            value.stop_gradient = False
            p = {**p, "value": value}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lp = dist.log_prob(value)
        lp.sum().backward()
        grads.append({k: (None if t.grad is None else t.grad.numpy()) for k, t in p.items()})
    ours, theirs = grads
    for k in theirs:
        if theirs[k] is None:
            continue
        assert ours[k] is not None, f"{case.id}: no gradient for {k}"
        np.testing.assert_allclose(ours[k], theirs[k], rtol=max(case.rtol, 1e-4), atol=1e-5,
                                   err_msg=f"{case.id}: d log_prob / d {k}")


def _check_numeric_grad(case, dtype):
    """Our gradient against central differences of our float64 log_prob along random
    directions (symmetric ones for matrix parameters). Used where real Paddle's backward is
    broken: its broadcast_tensors grad segfaults (Bernoulli, Binomial) and its gradient for
    a precision matrix is garbage."""
    dist, p = _build(pagaie, case, dtype, grad=True)
    dist.log_prob(value_of(pagaie, case, dtype)).sum().backward()
    rng = np.random.default_rng(1)
    h = 1e-6

    def f(params):
        q = {k: pagaie.to_tensor(v) for k, v in params.items()}
        return float(case.build(pagaie.distribution, q).log_prob(value_of(pagaie, case, "float64")).sum())

    base = {k: np.asarray(v, dtype="float64") for k, v in case.params.items()}
    for k, t in p.items():
        for _ in range(3):
            d = rng.standard_normal(base[k].shape)
            if d.ndim >= 2 and d.shape[-1] == d.shape[-2]:
                d = d + np.swapaxes(d, -1, -2)
            num = (f({**base, k: base[k] + h * d}) - f({**base, k: base[k] - h * d})) / (2 * h)
            ana = float((t.grad.numpy().astype("float64") * d).sum())
            np.testing.assert_allclose(ana, num, rtol=2e-3, atol=1e-3,
                                       err_msg=f"{case.id}: d log_prob / d {k}")


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sample_shapes_dtypes(case, dtype):
    ref = paddle_ref()
    ours, _ = _build(pagaie, case, dtype)
    theirs, _ = _build(ref, case, dtype)
    methods = ("sample", "rsample") if case.rsample else ("sample",)
    for m in methods:
        for shape in (list(case.sample_shape), []):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                a, b = getattr(ours, m)(shape), getattr(theirs, m)(shape)
            assert list(a.shape) == list(b.shape), f"{case.id}.{m}({shape}): {a.shape} vs {b.shape}"
            assert a.dtype.name == str(b.dtype).replace("paddle.", ""), f"{case.id}.{m}: dtype"


@pytest.mark.parametrize("case", [c for c in CASES if c.rsample], ids=[c.id for c in CASES if c.rsample])
def test_rsample_carries_gradient(case):
    dist, p = _build(pagaie, case, "float64", grad=True)
    s = dist.rsample([4])
    assert not s.stop_gradient
    s.sum().backward()
    assert any(t.grad is not None for t in p.values())


def test_python_number_parameters_vs_paddle():
    """Numbers, lists and numpy arrays give the same dtypes and shapes as in Paddle."""
    def build(fw):
        D = fw.distribution
        f64 = np.array([0.5, 1.5])
        ds = [D.Normal(0.0, 1.0), D.Normal(1, 2), D.Normal([0.0, 1.0], [1.0, 2.0]), D.Normal(f64, 1.0),
              D.Uniform(0.0, 2.0), D.Uniform(f64, 3.0), D.Categorical(f64), D.Categorical([0.2, 0.8]),
              D.Bernoulli(0.3), D.Gamma(2.0, 1.0), D.Exponential(2.0), D.Exponential(f64),
              D.Chi2(3.0), D.Beta(2.0, 3.0), D.Poisson(2.0), D.Binomial(10, 0.3),
              D.ContinuousBernoulli(0.3), D.Geometric(0.3), D.Cauchy(0.0, 1.0), D.Laplace(0.0, 1.0),
              D.Gumbel(0.0, 1.0), D.StudentT(3.0, 0.0, 1.0), D.LKJCholesky(3, 1.0),
              D.MultivariateNormal(0.0, covariance_matrix=fw.eye(1)), D.LogNormal(0.0, 1.0)]
        out = []
        for d in ds:
            s = d.sample([2])
            out.append((type(d).__name__, tuple(getattr(d, "_batch_shape", ())),
                        tuple(getattr(d, "_event_shape", ())),
                        str(s.dtype).replace("paddle.", ""), list(s.shape)))
        n = D.Normal(f64, 1.0)
        out.append(str(n.log_prob(fw.to_tensor([0.0, 1.0], dtype="float32")).dtype))
        return out
    ref = paddle_ref()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = build(pagaie), build(ref)
    assert [str(o).replace("paddle.", "") for o in ours] == [str(t).replace("paddle.", "") for t in theirs]


def test_complex_normal_vs_paddle():
    ref = paddle_ref()
    res = []
    for fw in (pagaie, ref):
        d = fw.distribution.Normal(fw.to_tensor([1 + 1j, 0.5 - 2j]), fw.to_tensor([1.0, 2.0]))
        v = fw.to_tensor([0.5 + 0.5j, 1.0 + 0j])
        s = d.sample([3])
        res.append((d.log_prob(v), d.probs(v), d.entropy(), s.dtype, list(s.shape)))
    for a, b in zip(res[0][:3], res[1][:3]):
        assert_same(a, b, rtol=1e-5)
    assert str(res[0][3]).replace("paddle.", "") == str(res[1][3]).replace("paddle.", "")
    assert res[0][4] == res[1][4]


def test_multinomial_and_categorical_sample_counts():
    m = pagaie.distribution.Multinomial(7, pagaie.to_tensor([[0.2, 0.8], [0.5, 0.5]]))
    s = m.sample([5])
    assert list(s.shape) == [5, 2, 2]
    assert np.all(s.sum(-1).numpy() == 7)
