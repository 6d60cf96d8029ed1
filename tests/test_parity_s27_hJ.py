"""Session-27 parity cases for ``paddle.distribution`` drawn from the cases Paddle's own unit
tests choose: Normal.sample's integer seed, Categorical.sample given a float or numpy scalar
shape, and Categorical.probs/log_prob given a list of indices."""
from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _exc_type(call, fw):
    with pytest.raises(Exception) as info:
        call(fw)
    return info.value


@pytest.mark.parametrize("seed", [1.0, "a", None, True])
def test_normal_sample_seed_must_be_an_int(seed):
    theirs = _exc_type(lambda fw: fw.distribution.Normal(0.0, 1.0).sample([2, 3], seed), paddle)
    ours = _exc_type(lambda fw: fw.distribution.Normal(0.0, 1.0).sample([2, 3], seed), pagaie)
    assert type(theirs) is TypeError and isinstance(ours, TypeError)
    assert "Normal.sample" in str(ours) and "seed" in str(ours)


@pytest.mark.parametrize("seed", [0, 5, np.int64(3)])
def test_normal_sample_integer_seeds_still_sample(seed):
    for fw in (paddle, pagaie):
        assert list(fw.distribution.Normal(0.0, 1.0).sample([2, 3], seed).shape) == [2, 3]


CAT_SHAPES = [([0.4, 0.6], 1.0), ([0.4, 0.6], np.float64(2.0)),
              ([[0.4, 0.6], [0.5, 0.5]], np.float64(2.0)), ([[0.4, 0.6], [0.5, 0.5]], np.int64(2)),
              ([[0.4, 0.6], [0.5, 0.5]], 1.0)]


@pytest.mark.parametrize("logits,shape", CAT_SHAPES)
def test_categorical_sample_scalar_shape_exception_type(logits, shape):
    theirs = _exc_type(lambda fw: fw.distribution.Categorical(logits).sample(shape), paddle)
    ours = _exc_type(lambda fw: fw.distribution.Categorical(logits).sample(shape), pagaie)
    assert type(ours) is type(theirs)


@pytest.mark.parametrize("method", ["probs", "log_prob"])
def test_categorical_list_value_is_an_attribute_error_like_paddle(method):
    theirs = _exc_type(lambda fw: getattr(fw.distribution.Categorical([0.4, 0.6]), method)([1, 0]),
                       paddle)
    ours = _exc_type(lambda fw: getattr(fw.distribution.Categorical([0.4, 0.6]), method)([1, 0]),
                     pagaie)
    assert isinstance(theirs, AttributeError) and isinstance(ours, AttributeError)
    assert isinstance(ours, TypeError) and f"Categorical.{method}" in str(ours)


# ---- paddle.distribution.lkj_cholesky's matrix helpers (imported by Paddle's own LKJ tests) ----

@pytest.mark.parametrize("shape,diag", [((3, 3), -1), ((3, 3), 0), ((2, 4, 4), -1), ((3, 3), -3)])
def test_tril_matrix_to_vec_vs_paddle(shape, diag):
    x = np.arange(np.prod(shape), dtype="float32").reshape(shape)
    outs = [fw.distribution.lkj_cholesky.tril_matrix_to_vec(fw.to_tensor(x), diag).numpy()
            for fw in (paddle, pagaie)]
    np.testing.assert_array_equal(outs[1], outs[0])


@pytest.mark.parametrize("diag", [-4, 3])
def test_tril_matrix_to_vec_diag_out_of_range(diag):
    for fw in (paddle, pagaie):
        with pytest.raises(ValueError):
            fw.distribution.lkj_cholesky.tril_matrix_to_vec(fw.ones([3, 3]), diag)


@pytest.mark.parametrize("dim,count,sample_shape", [(3, 1, (1,)), (3, 4, ()), (4, 5, (5,)),
                                                    (2, 20, ()), (3, 8, (2, 2))])
def test_vec_to_tril_matrix_vs_paddle(dim, count, sample_shape):
    n = dim * (dim - 1) // 2
    v = np.arange(count * n, dtype="float32") + 1
    outs = [fw.distribution.lkj_cholesky.vec_to_tril_matrix(fw.to_tensor(v), dim, n, count * n,
                                                            sample_shape, -1).numpy()
            for fw in (paddle, pagaie)]
    assert outs[1].shape == outs[0].shape
    np.testing.assert_array_equal(outs[1], outs[0])


def test_vec_to_tril_matrix_gradient_vs_paddle():
    def grad(fw):
        t = fw.to_tensor(np.arange(6.0), stop_gradient=False)
        out = fw.distribution.lkj_cholesky.vec_to_tril_matrix(t, 3, 3, 6)
        return fw.grad((out * fw.arange(9.0).reshape([3, 3])).sum(), t)[0].numpy()
    np.testing.assert_array_equal(grad(pagaie), grad(paddle))
