"""Session-23 differential sweep of ``paddle.distribution`` against real Paddle 3.3.1, on what the
earlier sweeps (s8, s10, s12, s20) missed: the methods Paddle leaves to ``Distribution``
(NotImplementedError), Geometric's gradient-free variance, bool parameters, sample-shape forms
(ranges, 0-D integer Tensors), register_kl dispatch over user classes, LKJCholesky cvine sample
values, MultivariateNormal value widths, ReshapeTransform with an empty event shape, the
``dtype`` attribute's kind, complex Normal samples, and Variable without a constraint."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _t(fw, v, dtype="float32", grad=False):
    return fw.to_tensor(np.asarray(v).astype(dtype), stop_gradient=not grad)


def _run(fn):
    """``fn(framework)`` under both frameworks, warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return both(fn)


# ---- methods Paddle does not define: Distribution's NotImplementedError ---------------------

UNDEFINED = {
    "uniform-mean": lambda D, fw: D.Uniform(_t(fw, [0.0, 1.0]), _t(fw, [2.0, 3.0])).mean,
    "uniform-variance": lambda D, fw: D.Uniform(0.0, 2.0).variance,
    "geometric-log_prob": lambda D, fw: D.Geometric(_t(fw, [0.3, 0.6])).log_prob(_t(fw, [1.0, 2.0])),
    "geometric-prob": lambda D, fw: D.Geometric(0.3).prob(_t(fw, [1.0, 2.0])),
    "independent-rsample": lambda D, fw: D.Independent(
        D.Normal(_t(fw, [[0.0, 1.0]]), _t(fw, [[1.0, 2.0]])), 1).rsample([2]),
}


@pytest.mark.parametrize("name", list(UNDEFINED))
def test_methods_paddle_leaves_undefined(name):
    exc = same_exception(lambda fw: UNDEFINED[name](fw.distribution, fw))
    assert isinstance(exc, NotImplementedError)


# ---- gradients ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_geometric_variance_and_stddev_carry_no_gradient(dtype):
    def run(fw):
        p = _t(fw, [0.2, 0.5, 0.7], dtype, grad=True)
        g = fw.distribution.Geometric(p)
        return [g.variance, g.stddev, g.mean]
    ours, theirs = _run(run)
    assert_same(ours, theirs)
    assert [o.stop_gradient for o in ours] == [t.stop_gradient for t in theirs] == [True, True, False]


# ---- parameter forms ---------------------------------------------------------------------------

BOOL_PARAMS = {
    "normal": lambda D: D.Normal(True, True),
    "normal-int-bool": lambda D: D.Normal(False, 2),
    "uniform": lambda D: D.Uniform(False, True),
    "lognormal": lambda D: D.LogNormal(False, True),
}


@pytest.mark.parametrize("name", list(BOOL_PARAMS))
def test_bool_parameters_are_numbers_like_paddle(name):
    """Paddle turns int parameters, bools included, into floats."""
    def run(fw):
        d = BOOL_PARAMS[name](fw.distribution)
        fw.seed(2)
        return [d.sample([2]), d.entropy(), d.log_prob(_t(fw, [0.5]))]
    ours, theirs = _run(run)
    assert_same(ours, theirs)


# ---- sample shapes: any Sequence where Paddle checks for one; 0-D integer Tensor elements -------

SHAPED = {
    "bernoulli": lambda D, fw: D.Bernoulli(_t(fw, [0.3, 0.6])),
    "binomial": lambda D, fw: D.Binomial(4, _t(fw, [0.3, 0.6])),
    "poisson": lambda D, fw: D.Poisson(_t(fw, [0.5, 2.0])),
    "continuous-bernoulli": lambda D, fw: D.ContinuousBernoulli(_t(fw, [0.3, 0.6])),
    "mvn": lambda D, fw: D.MultivariateNormal(_t(fw, [0.0, 1.0]), _t(fw, np.eye(2))),
    "studentt": lambda D, fw: D.StudentT(_t(fw, [3.0]), _t(fw, [0.0]), _t(fw, [1.0])),
    "lkj": lambda D, fw: D.LKJCholesky(3, 1.5),
}


@pytest.mark.parametrize("name", list(SHAPED))
def test_sample_shape_may_be_a_range(name):
    def run(fw):
        d = SHAPED[name](fw.distribution, fw)
        fw.seed(3)
        return d.sample(range(1, 3))
    ours, theirs = _run(run)
    assert_same(ours, theirs)


TENSOR_DIMS = {
    "bernoulli": lambda D, fw: D.Bernoulli(_t(fw, [0.3, 0.6])).sample([fw.to_tensor(2)]),
    "bernoulli-rsample": lambda D, fw: D.Bernoulli(0.3).rsample((fw.to_tensor(2, "int32"), 3)),
    "cauchy": lambda D, fw: D.Cauchy(_t(fw, [0.0, 1.0]), _t(fw, [1.0, 2.0])).sample([2, fw.to_tensor(3)]),
    "multinomial": lambda D, fw: D.Multinomial(3, _t(fw, [0.3, 0.7])).sample([fw.to_tensor(2)]),
    "categorical": lambda D, fw: D.Categorical(_t(fw, [0.3, 0.7])).sample([fw.to_tensor(4)]),
}


@pytest.mark.parametrize("name", list(TENSOR_DIMS))
def test_sample_shape_elements_may_be_0d_integer_tensors(name):
    def run(fw):
        fw.seed(3)
        return TENSOR_DIMS[name](fw.distribution, fw)
    ours, theirs = _run(run)
    assert_same(ours, theirs)


SHAPE_ERRORS = {
    "cauchy-range": lambda D, fw: D.Cauchy(0.0, 1.0).sample(range(2)),          # TypeError
    "bernoulli-0d-tensor": lambda D, fw: D.Bernoulli(0.3).sample(fw.to_tensor(2)),  # no len()
    "cauchy-0d-tensor": lambda D, fw: D.Cauchy(0.0, 1.0).rsample(fw.to_tensor(2)),
}


@pytest.mark.parametrize("name", list(SHAPE_ERRORS))
def test_sample_shape_errors(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_exception(lambda fw: SHAPE_ERRORS[name](fw.distribution, fw))


# ---- register_kl: Paddle's dispatch over user classes ----------------------------------------

def _kl_dispatch(fw, pairs):
    """Register constant KL functions for ``pairs`` of new Normal subclasses, then call
    kl_divergence over every pair of classes: its value or exception name, and how many
    ambiguity warnings it raised."""
    D = fw.distribution

    class A(D.Normal):
        pass

    class B(D.Normal):
        pass

    class C(A):
        pass

    classes = {"A": A, "B": B, "C": C, "N": D.Normal}
    for i, (x, y) in enumerate(pairs):
        D.register_kl(classes[x], classes[y])(lambda p, q, i=i: fw.to_tensor(float(i)))
    out = []
    for x in classes:
        for y in classes:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    out.append(float(D.kl_divergence(classes[x](_t(fw, [0.0]), _t(fw, [1.0])),
                                                     classes[y](_t(fw, [0.0]), _t(fw, [2.0])))))
                except Exception as exc:  # noqa: BLE001
                    out.append(type(exc).__name__)
            out.append(sum(issubclass(w.category, RuntimeWarning) for w in caught))
    return out


@pytest.mark.parametrize("pairs", [[("A", "B")], [("A", "B"), ("B", "A")], [("N", "A")],
                                   [("C", "A"), ("A", "C"), ("A", "A")]],
                         ids=["one-way", "both-ways", "normal-sub", "three"])
def test_register_kl_dispatch_over_user_classes(pairs):
    """A pair registered one way only is a KeyError in Paddle's dispatch, which looks the
    q-first winner up as it stands; two ways give its ambiguity warning."""
    ours, theirs = both(lambda fw: _kl_dispatch(fw, pairs))
    assert ours == theirs


# ---- LKJCholesky: cvine samples fill each matrix in the order Paddle's unstable sort gives ------

@pytest.mark.parametrize("dim,conc,shape", [(3, 1.5, [2, 3]), (4, [1.0, 2.0], [2]),
                                            (4, [[1.0, 2.0, 3.0]], [])])
def test_lkj_cvine_sample_values_beyond_sixteen_entries(dim, conc, shape):
    def run(fw):
        d = fw.distribution.LKJCholesky(dim, _t(fw, conc), "cvine")
        fw.seed(4)
        return d.sample(shape)
    ours, theirs = _run(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("method", ["log_prob", "prob"])
def test_mvn_value_wider_than_a_one_dimensional_event_is_a_value_error(method):
    """A 1-D event's 1 x 1 scale factor is not stretched to the value's width."""
    same_exception(lambda fw: getattr(fw.distribution.MultivariateNormal(
        _t(fw, [0.5]), _t(fw, [[2.0]])), method)(_t(fw, [[0.2, 0.3], [1.0, -1.0]])))


# ---- transforms --------------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["forward_shape", "inverse_shape"])
@pytest.mark.parametrize("shape", [(), (2,), (3, 1)])
def test_reshape_transform_empty_event_shape_takes_the_whole_shape(method, shape):
    """Paddle compares shape[-0:] (all of it) with an empty event shape: only () passes."""
    def run(fw):
        tr = fw.distribution.ReshapeTransform((), (1,)) if method == "forward_shape" else \
            fw.distribution.ReshapeTransform((1,), ())
        return getattr(tr, method)(shape)
    if shape:
        same_exception(run)
    else:
        ours, theirs = both(run)
        assert tuple(ours) == tuple(theirs)


# ---- the ``dtype`` attribute: a DataType for Binomial/ContinuousBernoulli over Tensors, the numpy
# dtype for Normal/Uniform over numpy arrays and lists ---------------------------------

DTYPE_ATTR = {
    "binomial": lambda D, fw: D.Binomial(3, _t(fw, [0.3])),
    "binomial-64": lambda D, fw: D.Binomial(3, _t(fw, [0.3], "float64")),
    "binomial-float": lambda D, fw: D.Binomial(3, 0.3),
    "continuous-bernoulli": lambda D, fw: D.ContinuousBernoulli(_t(fw, [0.3])),
    "continuous-bernoulli-float": lambda D, fw: D.ContinuousBernoulli(0.3),
    "normal-numpy": lambda D, fw: D.Normal(np.array([0.0]), np.array([1.0])),
    "normal-list": lambda D, fw: D.Normal([0.0], [1.0]),
    "uniform-numpy-high": lambda D, fw: D.Uniform(0.0, np.array([1.0], "float32")),
}


@pytest.mark.parametrize("name", list(DTYPE_ATTR))
def test_dtype_attribute_kind_like_paddle(name):
    def run(fw):
        d = DTYPE_ATTR[name](fw.distribution, fw).dtype
        return [type(d).__name__, str(d), d == fw.float32, d == "float64"]
    ours, theirs = _run(run)
    assert ours == theirs


# ---- complex Normal: sample(seed=...) draws Paddle's seeded complex gaussian --------------------

@pytest.mark.parametrize("form", ["complex-float", "complex64", "complex128"])
def test_complex_normal_seeded_sample_values(form):
    def run(fw):
        if form == "complex-float":
            d = fw.distribution.Normal(1 + 1j, 2.0)
        else:
            real = "float32" if form == "complex64" else "float64"
            d = fw.distribution.Normal(fw.to_tensor(np.array([1 + 1j, 2j], form)),
                                       _t(fw, [1.0, 2.0], real))
        return [d.sample([3], seed=7), d.sample([2], seed=7)]
    ours, theirs = _run(run)
    assert_same(ours, theirs)


def test_complex128_normal_sample_draws_in_double_precision():
    def run(fw):
        d = fw.distribution.Normal(fw.to_tensor(np.array([1 + 1j, 2j], "complex128")),
                                   _t(fw, [1.0, 2.0], "float64"))
        fw.seed(5)
        return d.sample([3])
    ours, theirs = _run(run)
    assert_same(ours, theirs, rtol=1e-12, atol=1e-14)


def test_variable_without_constraint_is_an_assertion_error():
    same_exception(lambda fw: fw.distribution.variable.Variable().constraint(_t(fw, [1.0])))


# ---- Categorical.sample: batched logits take a list shape only; numpy shapes are refused -------

CATEGORICAL_SHAPES = {"2d-tuple": ([[0.2, 0.8], [0.5, 0.5]], (3,)), "2d-empty-tuple": ([[0.2, 0.8], [0.5, 0.5]], ()),
                      "2d-numpy": ([[0.2, 0.8], [0.5, 0.5]], np.array([2])), "1d-numpy": ([0.2, 0.8], np.array([2]))}


@pytest.mark.parametrize("name", list(CATEGORICAL_SHAPES))
def test_categorical_sample_shape_kinds(name):
    logits, shape = CATEGORICAL_SHAPES[name]
    same_exception(lambda fw: fw.distribution.Categorical(_t(fw, logits)).sample(shape))


def test_categorical_batched_sample_default_and_list_shapes():
    def run(fw):
        d = fw.distribution.Categorical(_t(fw, [[0.2, 0.8], [0.5, 0.5]]))
        fw.seed(1)
        return [d.sample(), d.sample([3]), fw.distribution.Categorical(_t(fw, [0.2, 0.8])).sample((2, 1))]
    ours, theirs = _run(run)
    assert_same(ours, theirs)
