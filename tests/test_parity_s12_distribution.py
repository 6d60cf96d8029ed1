"""Session-12 differential sweep of ``paddle.distribution`` against real Paddle 3.3.1: the
distributions whose construction or methods checked parameter DATA (Chi2's and LKJCholesky's
positivity checks, Poisson's entropy support bound) now also build static programs, as in
Paddle, while eager mode keeps the checks and values."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


def _t(fw, v, dtype="float32"):
    return fw.to_tensor(np.asarray(v).astype(dtype))


FEED = {"a": np.array([0.5, 1.5, 2.0], "float32"), "b": np.array([1.0, 2.0, 3.0], "float32"),
        "u": np.array([0.2, 0.5, 0.7], "float32"), "x": np.array([0.3, 0.6, 0.9], "float32")}


def _static(fw, build):
    """Values of ``build(distribution module, data vars)`` run in a new static program."""
    fw.enable_static()
    try:
        main = fw.static.Program()
        with fw.static.program_guard(main, fw.static.Program()):
            vs = {k: fw.static.data(k, list(v.shape), str(v.dtype)) for k, v in FEED.items()}
            outs = build(fw.distribution, vs)
            shapes = [list(o.shape) for o in outs]
        return shapes, fw.static.Executor(fw.CPUPlace()).run(main, feed=FEED, fetch_list=outs)
    finally:
        fw.disable_static()


STATIC = {
    "chi2": lambda D, v: [D.Chi2(v["b"]).log_prob(v["x"]), D.Chi2(v["b"]).entropy(),
                          D.Chi2(v["b"]).mean],
    "chi2-kl": lambda D, v: [D.kl_divergence(D.Chi2(v["b"]), D.Chi2(v["a"]))],
    "poisson-entropy": lambda D, v: [D.Poisson(v["b"]).entropy(), D.Poisson(v["b"]).log_prob(v["b"])],
    "poisson-entropy-small-rates": lambda D, v: [D.Poisson(v["u"]).entropy()],
}


@pytest.mark.parametrize("name", list(STATIC))
def test_data_checked_distributions_build_static_programs_like_paddle(name):
    """Paddle checks Chi2's df and bounds Poisson's entropy sum only on data it has: a static
    program builds and runs."""
    ref = paddle_ref()
    (s1, ours), (s2, theirs) = _static(pagaie, STATIC[name]), _static(ref, STATIC[name])
    assert s1 == s2
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_lkj_cholesky_builds_a_static_program_like_paddle():
    """Paddle's LKJCholesky takes a symbolic concentration in a static program."""
    ref = paddle_ref()

    def build(D, v):
        d = D.LKJCholesky(3, v["a"][0])
        return [d.sample([2]), d.log_prob(d.sample([1]))]
    (s1, ours), (s2, theirs) = _static(pagaie, build), _static(ref, build)
    assert s1 == s2
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_allclose((ours[0] ** 2).sum(-1), 1.0, rtol=1e-5)   # unit rows


@pytest.mark.parametrize("rates", [[0.3, 0.5], [0.0, 0.9], [0.5, 4.0], [12.0, 0.2]])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_poisson_entropy_eager_vs_paddle(rates, dtype):
    """The support is bounded at rate + 30 sqrt(max rate) (30 when every rate is below 1)."""
    ours, theirs = both(lambda fw: fw.distribution.Poisson(_t(fw, rates, dtype)).entropy())
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda fw: fw.distribution.Chi2(_t(fw, [1.0, -1.0])),
    lambda fw: fw.distribution.Chi2(_t(fw, [0.0])),
    lambda fw: fw.distribution.LKJCholesky(3, _t(fw, [1.0, 0.0])),
])
def test_eager_positivity_checks_still_raise_like_paddle(make):
    """Eager Chi2 and LKJCholesky still reject non-positive parameters (ValueError)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert isinstance(same_exception(make), ValueError)
