"""Differences from real Paddle 3.3.1 found in Paddle's own unit tests of the tensor APIs
named d to i: index_put with an all-False mask after other indices, and the
``paddle.autograd.ir_backward`` gradient functions of static programs."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_same, both_static, same_exception, same_static_exception


# -- index_put -----------------------------------------------------------------------------------

@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("mask_first", [False, True])
def test_index_put_all_false_mask_among_indices(accumulate, mask_first):
    # an all-False mask selects nothing wherever it stands: x comes back unchanged
    def fn(P):
        x = P.arange(20, dtype="float32").reshape([4, 5])
        ints = P.to_tensor([1, 2])
        ind = (P.zeros([4], dtype="bool"), ints) if mask_first else (ints, P.zeros([5], dtype="bool"))
        return P.index_put(x, ind, P.to_tensor([100.0]), accumulate)
    both_same(fn)


def test_index_put_mixed_mask_indices_static():
    x_np = np.random.rand(6, 4, 5).astype("float64")
    i_np = np.array([[0, 1], [2, 3]], "int32")
    m_np = np.array([True, False, True, False, False])
    v_np = np.random.rand(2, 2).astype("float64")

    def fn(P):
        x = P.static.data("x", [6, 4, 5], "float64")
        i = P.static.data("i", [2, 2], "int32")
        m = P.static.data("m", [5], "bool")
        v = P.static.data("v", [2, 2], "float64")
        out = P.index_put(x, (i, i, m), v, True)
        return P.static.Executor().run(feed={"x": x_np, "i": i_np, "m": m_np, "v": v_np}, fetch_list=[out])
    ours, theirs = both_static(fn, fresh_programs=True)
    assert_same(ours, theirs)


# -- paddle.autograd.ir_backward -----------------------------------------------------------------

def test_ir_backward_grad():
    x_np = np.array([1.0, 2.0, 3.0], "float32")

    def fn(P):
        x = P.static.data("x", [3], "float32")
        y = P.static.data("y", [3], "float32")
        x.stop_gradient = False
        y.stop_gradient = False
        z = (x * x).sum()
        g = P.autograd.ir_backward.grad(z, x)
        g2 = P.autograd.ir_backward.grad([z], [x], grad_outputs=[P.full([], 2.0)])
        unused = P.autograd.ir_backward.grad(z, [x, y])[1]
        out = P.static.Executor().run(feed={"x": x_np, "y": x_np}, fetch_list=[g[0], g2[0]])
        return out + [len(g), unused]
    ours, theirs = both_static(fn, fresh_programs=True)
    assert_same(ours, theirs)


def test_ir_backward_grad_of_non_value_is_type_error():
    def fn(P):
        x = P.static.data("x", [3], "float32")
        with pytest.raises(TypeError):
            P.autograd.ir_backward.grad(1, x)
        return True
    both_static(fn, fresh_programs=True)


def test_ir_backward_append_backward():
    def fn(P):
        P.seed(1)
        x = P.static.data("x", [None, 2], "float32")
        loss = P.mean(P.nn.Linear(2, 1)(x))
        return [g is not None for _, g in P.autograd.ir_backward.append_backward(loss)]
    ours, theirs = both_static(fn, fresh_programs=True)
    assert ours == theirs


# -- einsum --------------------------------------------------------------------------------------

@pytest.mark.parametrize("eq, shapes", [
    ("->", [(2, 3)]), ("i", [(2, 3)]), ("i_", [(2, 3)]), ("i..j", [(2, 3)]), ("...k...", [(2, 3)]),
    ("i...->i", [(2, 3)]), ("i -> j -> k", [(2, 3)]), ("i,j,k", [(2,), (2,)]),
])
def test_einsum_equation_errors(eq, shapes):
    same_exception(lambda P: P.einsum(eq, *[P.ones(s) for s in shapes]))


def test_einsum_label_size_error_names_the_label():
    for P in both(lambda P: P)[::-1]:
        with pytest.raises(ValueError, match="Same label have different shapes for label: `j`"):
            P.einsum("ij,jk", P.ones([2, 3]), P.ones([4, 5]))


@pytest.mark.parametrize("eq, shapes", [
    ("i->ii", [(2,)]), ("i,j->ii", [(2,), (3,)]), ("i,j->jii", [(2,), (3,)]), ("ij->ii", [(2, 3)]),
    ("iI->", [(3, 3)]), ("IJ->JI", [(2, 3)]), ("ij,ij->ij", [(1, 3), (2, 3)]),
])
def test_einsum_repeated_output_labels_and_case(eq, shapes):
    # a label repeated in the output places values on that diagonal; labels are case-blind
    def fn(P):
        ops = [P.to_tensor(np.arange(1, int(np.prod(s)) + 1, dtype="float64").reshape(s)) for s in shapes]
        for o in ops:
            o.stop_gradient = False
        out = P.einsum(eq, *ops)
        w = P.arange(out.numel(), dtype="float64").reshape(out.shape)
        grads = P.grad((out * w).sum(), ops)
        return [out, *grads]
    both_same(fn)


# -- isclose / allclose --------------------------------------------------------------------------

@pytest.mark.parametrize("api, dtype, ok", [
    ("isclose", "float16", False), ("isclose", "bfloat16", False), ("isclose", "int32", False),
    ("isclose", "complex64", True), ("allclose", "float16", False), ("allclose", "complex64", False),
    ("allclose", "int16", False), ("allclose", "uint8", False), ("allclose", "int32", True),
    ("allclose", "bool", True),
])
def test_close_cpu_kernel_dtypes(api, dtype, ok):
    # isclose's CPU kernel: float32/64 and complex; allclose's: float32/64, int32/64 and bool
    def fn(P):
        x = P.to_tensor([1, 2]).astype(dtype)
        return getattr(P, api)(x, x)
    (both_same if ok else same_exception)(fn)


@pytest.mark.parametrize("api, dtype", [("isclose", "float16"), ("allclose", "float16"),
                                        ("allclose", "complex64"), ("allclose", "int16")])
def test_close_static_dtypes(api, dtype):
    def fn(P):
        x = P.static.data("x", [2], dtype)
        return getattr(P, api)(x, x)
    same_static_exception(fn)


# -- CPU kernel dtypes ---------------------------------------------------------------------------

_I = lambda P, *v: P.to_tensor(list(v))  # noqa: E731
_KERNEL_CASES = {
    "exp": (lambda P, x: P.exp(x), ["int8", "uint8"]),
    "exp_": (lambda P, x: x.clone().exp_(), ["int16"]),
    "expm1": (lambda P, x: P.expm1(x), ["bfloat16", "int16"]),
    "erf": (lambda P, x: P.erf(x), ["bfloat16"]),
    "erfinv": (lambda P, x: P.erfinv(x), ["float16"]),
    "digamma": (lambda P, x: P.digamma(x), ["float16", "bfloat16"]),
    "gammaln": (lambda P, x: P.gammaln(x), ["float16", "int32", "int8"]),
    "i0": (lambda P, x: P.i0(x), ["float16"]),
    "i0e": (lambda P, x: P.i0e(x), ["bfloat16"]),
    "i1": (lambda P, x: P.i1(x), ["float16"]),
    "i1e": (lambda P, x: P.i1e(x), ["float16"]),
    "gather": (lambda P, x: P.gather(x, _I(P, 0, 2)), ["float16"]),
    "gather_nd": (lambda P, x: P.gather_nd(x, _I(P, [0, 1])), ["float16", "bfloat16"]),
    "increment": (lambda P, x: P.increment(x.reshape([-1])[:1]), ["float16", "int8", "complex64"]),
    "index_add": (lambda P, x: P.index_add(x, _I(P, 0), 0, x[:1]), ["bfloat16", "bool", "int8", "complex64"]),
    "index_sample": (lambda P, x: P.index_sample(x, _I(P, [0], [1], [2])), ["float16", "bool", "uint8"]),
    "index_select": (lambda P, x: P.index_select(x, _I(P, 0, 1)), ["float16", "int16"]),
    "isnan": (lambda P, x: P.isnan(x), ["bool", "int8"]),
    "isfinite": (lambda P, x: P.isfinite(x), ["uint8"]),
    "isinf": (lambda P, x: P.isinf(x), ["bool"]),
    "isneginf": (lambda P, x: P.isneginf(x), ["float16", "bool"]),
    "isposinf": (lambda P, x: P.isposinf(x), ["bfloat16"]),
    "histogram_bin_edges": (lambda P, x: P.histogram_bin_edges(x, bins=3), ["float16", "int8"]),
    "diagonal_scatter": (lambda P, x: P.diagonal_scatter(x, P.diagonal(x)), ["bfloat16"]),
}


def _x(P, dtype):
    return P.to_tensor((np.arange(9).reshape(3, 3) % 3 + 1).astype("float32")).astype(dtype)


@pytest.mark.parametrize("case, dtype", [(k, d) for k, (_, ds) in _KERNEL_CASES.items() for d in ds])
def test_cpu_kernel_lacks_dtype(case, dtype):
    fn = _KERNEL_CASES[case][0]
    same_exception(lambda P: fn(P, _x(P, dtype)))


@pytest.mark.parametrize("case, dtype", [("gammaln", "float32"), ("index_add", "float16"),
                                         ("index_select", "bfloat16"), ("isinf", "int8"),
                                         ("gather", "bfloat16"), ("erf", "float16"), ("exp", "int32")])
def test_cpu_kernel_has_dtype(case, dtype):
    fn = _KERNEL_CASES[case][0]
    both_same(lambda P: fn(P, _x(P, dtype)))


@pytest.mark.parametrize("case, dtype", [("isnan", "int8"), ("gather", "float16"), ("erf", "bfloat16"),
                                         ("gammaln", "int32"), ("index_select", "float16")])
def test_cpu_kernel_dtype_while_building(case, dtype):
    fn = _KERNEL_CASES[case][0]
    same_static_exception(lambda P: fn(P, P.static.data("x", [3, 3], dtype)))


def test_histogram_bin_edges_given_range_takes_any_dtype():
    both_same(lambda P: P.histogram_bin_edges(_x(P, "float16"), bins=3, min=0, max=3))
