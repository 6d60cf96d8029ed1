"""Follow-up differences in pagaie/_ops found by the earlier parity sweeps, pinned against real
Paddle 3.3.1: stop_gradient of results, ``astype`` identity, sparse and bad-input errors."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception


def _sg(out):
    outs = out if isinstance(out, (list, tuple)) else [out]
    return [(str(o.dtype).replace("paddle.", ""), o.stop_gradient) for o in outs]


def _leaf(P, values, dtype="float32"):
    return P.to_tensor(values, dtype=dtype, stop_gradient=False)


# ---- stop_gradient of results: Paddle's rule -----------------------------------------------

_FLOAT_INPUT = {
    "cast_int": lambda P, x: P.cast(x, "int32"),
    "astype_int": lambda P, x: x.astype("int32"),
    "astype_bool": lambda P, x: x.astype("bool"),
    "topk": lambda P, x: P.topk(x, 2),
    "argsort": lambda P, x: P.argsort(x),
    "kthvalue": lambda P, x: P.kthvalue(x, 1),
    "mode": lambda P, x: P.mode(x),
    "cummax": lambda P, x: P.cummax(x),
    "count_nonzero": lambda P, x: P.count_nonzero(x),
    "max_pool_mask": lambda P, x: P.nn.functional.max_pool1d(x.reshape([1, 1, 3]), 2,
                                                              return_mask=True),
    "frexp": lambda P, x: P.frexp(x),
    "median_min": lambda P, x: P.median(x, axis=0, mode="min"),
    # ops without a backward: True
    "argmax": lambda P, x: P.argmax(x),
    "greater": lambda P, x: x > 0,
    "isnan": lambda P, x: P.isnan(x),
    "unique": lambda P, x: P.unique(x, return_index=True),
    "histogram_weight": lambda P, x: P.histogram(x, bins=2, weight=x),
    "where_1arg": lambda P, x: P.where(x),
    "combinations_0": lambda P, x: P.combinations(x, 0),
    "to_tensor": lambda P, x: P.to_tensor(x),
    "floor": lambda P, x: P.floor(x),
}


@pytest.mark.parametrize("case", sorted(_FLOAT_INPUT))
def test_stop_gradient_of_results_of_a_float_input_that_needs_grad(case):
    ours, theirs = both(lambda P: _sg(_FLOAT_INPUT[case](P, _leaf(P, [1.5, 2.5, -0.5]))))
    assert ours == theirs


_INT_INPUT = {
    "add_scalar": lambda P, x: x + 1,
    "add": lambda P, x: x + x,
    "neg": lambda P, x: -x,
    "sum": lambda P, x: P.sum(x),
    "reshape": lambda P, x: x.reshape([3, 1]),
    "cast_float": lambda P, x: x.astype("float32"),
    "gather": lambda P, x: P.gather(x, P.to_tensor([0])),
    "concat": lambda P, x: P.concat([x, x]),
    "exp": lambda P, x: P.exp(x),          # an integer kernel: the input's flag passes on
    "divide": lambda P, x: x / 2,
    "gcd": lambda P, x: P.gcd(x, x),
    "sin": lambda P, x: P.sin(x),          # cast to float32 untracked first: True
    "sqrt": lambda P, x: P.sqrt(x),
    "std": lambda P, x: P.std(x),
    "floor_divide": lambda P, x: x // 2,   # no backward: True
    "greater": lambda P, x: x > 1,
}


@pytest.mark.parametrize("case", sorted(_INT_INPUT))
def test_stop_gradient_of_results_of_an_int_input_that_needs_grad(case):
    ours, theirs = both(lambda P: _sg(_INT_INPUT[case](P, _leaf(P, [1, 2, 3], "int64"))))
    assert ours == theirs


def test_stop_gradient_stays_true_without_grad_or_under_no_grad():
    def run(P):
        x = P.to_tensor([1.5, 2.5])
        y = _leaf(P, [1.5, 2.5])
        with P.no_grad():
            in_no_grad = _sg(P.topk(y, 1)) + _sg(y.astype("int32"))
        return _sg(P.topk(x, 1)) + _sg(x.astype("int32")) + in_no_grad
    ours, theirs = both(run)
    assert ours == theirs


def test_stop_gradient_of_exp_of_an_int_flagged_by_the_setter():
    from pagaie._core import registry
    saved = registry.UNTRACKED_GRADS[0]
    registry.UNTRACKED_GRADS[0] = False  # as in a fresh process
    try:
        ours, theirs = both(lambda P: (lambda x: (setattr(x, "stop_gradient", False),
                                                  _sg(P.exp(x)))[1])(P.to_tensor([1, 2])))
    finally:
        registry.UNTRACKED_GRADS[0] = saved or registry.UNTRACKED_GRADS[0]
    assert ours == theirs


# ---- astype ----------------------------------------------------------------------------------

def test_astype_to_the_same_dtype_returns_the_tensor_itself():
    def run(P):
        x = P.to_tensor([1.0, 2.0])
        i = P.to_tensor([1, 2])
        return (x.astype(x.dtype) is x, x.astype("float32") is x, i.astype("int64") is i,
                P.cast(x, "float32") is x, x.cast("float32") is x, x.astype("float64") is x)
    ours, theirs = both(run)
    assert ours == theirs


def test_astype_bad_dtype_raises_like_paddle():
    same_exception(lambda P: P.to_tensor([1.0]).astype("float7"))


def test_tensor_hash_is_its_id():
    ours, theirs = both(lambda P: (lambda x: (hash(x) == id(x), {x: 1}[x]))(P.ones([2])))
    assert ours == theirs


# ---- random samplers: dtype errors ------------------------------------------------------------

_RANDOM_INT_INPUT = {
    "bernoulli": lambda P, i: P.bernoulli(i),
    "poisson": lambda P, i: P.poisson(i),
    "standard_gamma": lambda P, i: P.standard_gamma(i),
    "multinomial": lambda P, i: P.multinomial(i, 1),
    "binomial": lambda P, i: P.binomial(i, P.to_tensor([1, 1])),
    "normal_": lambda P, i: i.normal_(),
    "uniform_": lambda P, i: i.uniform_(),
    "exponential_": lambda P, i: i.exponential_(),
    "cauchy_": lambda P, i: i.cauchy_(),
    "log_normal_": lambda P, i: i.log_normal_(),
    "geometric_": lambda P, i: i.geometric_(0.5),   # ValueError in Paddle
    "rand_int_dtype": lambda P, i: P.rand([2], dtype="int32"),
    "randint_float_dtype": lambda P, i: P.randint(0, 5, [2], dtype="float32"),
    "randperm_bool": lambda P, i: P.randperm(3, "bool"),
    "normal_int_mean": lambda P, i: P.normal(i, 1.0),
}


@pytest.mark.parametrize("case", sorted(_RANDOM_INT_INPUT))
def test_random_samplers_reject_integer_dtypes_like_paddle(case):
    same_exception(lambda P: _RANDOM_INT_INPUT[case](P, P.to_tensor([1, 2])))


# ---- sparse ----------------------------------------------------------------------------------

def _coo(P):
    return P.to_tensor([[0.0, 1, 0, 2], [3, 0, 0, 4], [0, 5, 0, 0]]).to_sparse_coo(2)


_SPARSE_ERRORS = {
    "abs_list": lambda P: P.sparse.abs([1.0]),
    "abs_none": lambda P: P.sparse.abs(None),
    "add_list": lambda P: P.sparse.add(_coo(P), [1.0]),
    "mv_list": lambda P: P.sparse.mv(_coo(P), [1.0, 2.0, 3.0, 4.0]),
    "mv_none": lambda P: P.sparse.mv(_coo(P), None),
    "is_same_shape_list": lambda P: P.sparse.is_same_shape(_coo(P), [3, 4]),
    "slice_axis_out_of_range": lambda P: P.sparse.slice(_coo(P), [5], [0], [1]),
    "mask_as_sparse_x": lambda P: P.sparse.mask_as(_coo(P), _coo(P)),
    "max_pool3d_dense": lambda P: P.sparse.nn.functional.max_pool3d(P.ones([1, 2, 2, 2, 1]), 1),
    "max_pool3d_csr": lambda P: P.sparse.nn.functional.max_pool3d(
        P.ones([2, 2, 2]).to_sparse_csr(), 1),
    "MaxPool3D_dense": lambda P: P.sparse.nn.MaxPool3D(1)(P.ones([1, 2, 2, 2, 1])),
    "conv3d_csr": lambda P: P.sparse.nn.functional.conv3d(P.ones([2, 2, 2]).to_sparse_csr(),
                                                          P.ones([1, 1, 1, 2, 1])),
    "conv3d_dense": lambda P: P.sparse.nn.functional.conv3d(P.ones([1, 2, 2, 2, 2]),
                                                            P.ones([1, 1, 1, 2, 1])),
    "subm_conv3d_csr": lambda P: P.sparse.nn.functional.subm_conv3d(
        P.ones([2, 2, 2]).to_sparse_csr(), P.ones([1, 1, 1, 2, 1])),
}


@pytest.mark.parametrize("case", sorted(_SPARSE_ERRORS))
def test_sparse_errors_like_paddle(case):
    same_exception(_SPARSE_ERRORS[case])


@pytest.mark.parametrize("keepdim", [True, False])
@pytest.mark.parametrize("ndim", [2, 3])
def test_sparse_sum_of_csr_over_all_axes_keeps_paddle_shape(ndim, keepdim):
    a = np.tile((np.arange(12.0).reshape(1, 3, 4) * (np.arange(12).reshape(1, 3, 4) % 3 == 0)),
                (2, 1, 1)).astype("float32")
    a = a if ndim == 3 else a[0]

    def run(P):
        r = P.sparse.sum(P.to_tensor(a).to_sparse_csr(), keepdim=keepdim)
        return list(r.shape), r.is_sparse_csr(), r.to_dense().numpy().tolist()
    ours, theirs = both(run)
    assert ours == theirs


def test_sparse_slice_keeps_working_with_a_negative_axis():
    ours, theirs = both(lambda P: P.sparse.slice(_coo(P), [-1], [1], [3]).to_dense().numpy().tolist())
    assert ours == theirs


def test_building_sparse_tensors_leaks_no_torch_warning():
    import subprocess
    import sys
    code = ("import warnings\nwarnings.simplefilter('always')\nimport pagaie as P\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    P.sparse.sparse_coo_tensor(P.to_tensor([[0, 1], [1, 2]]), P.to_tensor([1.0, 2.0]), [3, 3])\n"
            "    P.ones([2, 2]).to_sparse_csr()\n"
            "print([str(x.message)[:40] for x in w])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
