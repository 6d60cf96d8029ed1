"""Session-14: cases of Paddle's API tests for the ops ``m`` to ``z`` (matmul ... zeros),
against Paddle 3.3.1: the dtypes its CPU kernels take (NotFound, a RuntimeError, for the
others), argument checks and gradients.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, both_same, same_exception

_I = np.array([1, 0, 1])


# ---- dtypes without a CPU kernel: RuntimeError --------------------------------------------
@pytest.mark.parametrize("fn, dtypes", [
    (lambda P, x: P.repeat_interleave(x, 2), ["bool", "int16", "float16", "complex64"]),
    (lambda P, x: P.repeat_interleave(x, P.to_tensor([1, 2, 1]), 0), ["bool", "uint8"]),
    (lambda P, x: P.unique(x), ["bool", "int8", "bfloat16"]),
    (lambda P, x: P.unique_consecutive(x, axis=0), ["bool", "float16"]),
    (lambda P, x: P.sort(x), ["bool", "int8", "complex64"]),
    (lambda P, x: P.argsort(x[0]), ["bool"]),
    (lambda P, x: P.msort(x), ["bool"]),
    (lambda P, x: P.topk(x, 1), ["bool", "uint8", "bfloat16"]),
    (lambda P, x: P.mode(x), ["bool", "int16", "float16"]),
    (lambda P, x: P.real(x), ["float32", "int64", "bool"]),
    (lambda P, x: P.nextafter(x, x), ["int32", "int64", "float16"]),
    (lambda P, x: P.mv(x.reshape([1, 3]), x), ["int32", "int64"]),
    (lambda P, x: P.shard_index(x.reshape([3, 1]), 4, 2, 0), ["float32", "int16"]),
    (lambda P, x: P.searchsorted(x, x.astype("float32")), ["int8", "bool", "float16"]),
    (lambda P, x: P.scatter(x, P.to_tensor([0]), x[:1]), ["bool", "uint8", "float16"]),
    (lambda P, x: P.scatter_nd_add(x, P.to_tensor([[0]]), x[:1]), ["int16", "bool"]),
    (lambda P, x: P.put_along_axis(x, P.to_tensor([0]), x[:1], 0), ["int8", "bfloat16"]),
], ids=["repeat_interleave", "repeat_interleave_tensor", "unique", "unique_consecutive", "sort",
        "argsort", "msort", "topk", "mode", "real", "nextafter", "mv", "shard_index",
        "searchsorted", "scatter", "scatter_nd_add", "put_along_axis"])
def test_dtypes_without_a_kernel(fn, dtypes):
    for dt in dtypes:
        same_exception(lambda P: fn(P, P.to_tensor(_I).astype(dt)))


@pytest.mark.parametrize("fn", [
    lambda P: P.repeat_interleave(P.to_tensor(_I).astype("bfloat16"), 2).astype("float32"),
    lambda P: P.sort(P.to_tensor(_I).astype("uint8"), descending=True),
    lambda P: P.topk(P.to_tensor(_I).astype("float16"), 2)[0].astype("float32"),
    lambda P: P.searchsorted(P.to_tensor([1.0, 2.0, 3.0]), P.to_tensor([2.5, 0.0]).astype("float16")),
    lambda P: P.real(P.to_tensor([1 + 2j, 3 - 1j])),
    lambda P: P.put_along_axis(P.to_tensor(_I).astype("uint8"), P.to_tensor([1]),
                               P.to_tensor([7]).astype("uint8"), 0, "add"),
    lambda P: P.scatter_nd_add(P.to_tensor(_I).astype("uint8"), P.to_tensor([[2]]),
                               P.to_tensor([4]).astype("uint8")),
])
def test_dtypes_with_a_kernel(fn):
    both_same(fn)


@pytest.mark.parametrize("x, vec", [("float32", "float64"), ("int64", "float32")])
def test_mv_operands_of_two_dtypes(x, vec):
    """Paddle picks the kernel by vec's dtype and reads x as that type: InvalidArgument."""
    same_exception(lambda P: P.mv(P.ones([2, 3], x), P.ones([3], vec)))


@pytest.mark.parametrize("shape", [[3], [], [2, 2]])
def test_shard_index_needs_a_last_dimension_of_one(shape):
    same_exception(lambda P: P.shard_index(P.zeros(shape, "int64"), 20, 2, 0))


# ---- argument checks ------------------------------------------------------------------------
@pytest.mark.parametrize("axes", [[0], [-1], []])
def test_slice_of_a_0d_tensor_or_with_no_axes(axes):
    same_exception(lambda P: P.slice(P.to_tensor(3.0), axes, [0] * len(axes), [1] * len(axes)))
    if not axes:
        same_exception(lambda P: P.slice(P.ones([2, 3]), (), (), ()))


@pytest.mark.parametrize("n, sections, ok", [
    (3, [3, -1], False), (1, [1, -1], False), (3, [-1, 3], False),
    (3, [0, -1], True), (0, [0, -1], True), (3, [2, -1], True),
])
def test_split_minus_one_section_takes_at_least_one_entry(n, sections, ok):
    fn = lambda P: P.split(P.ones([n, 2]), sections)  # noqa: E731
    if ok:
        both_same(fn)
    else:
        same_exception(fn)


def test_scale_gives_no_gradient_to_a_tensor_scale():
    def f(P):
        x, s = P.ones([2, 2]), P.to_tensor(3.0)
        x.stop_gradient = s.stop_gradient = False
        return P.grad(P.scale(x, scale=s, bias=1.0).sum(), [x, s], allow_unused=True)
    ours, theirs = both(f)
    assert theirs[1] is None and ours[1] is None
    assert_same(ours[0], theirs[0])


# ---- multiplex: Paddle's kernel checks ----------------------------------------------------------
_X1 = np.arange(1, 17, dtype="float32").reshape(4, 4)


@pytest.mark.parametrize("index, dtype", [
    ([1, 0, 1, 1], "int32"), ([[[1]], [[0]]], "int64"), ([[1, 0]] * 4, "int32"),  # not [batch, 1]
    ([[1], [0], [1], [1], [0], [0]], "int32"),                                    # too many rows
    ([[1], [0]], "int64"),                                                        # int32 only
])
def test_multiplex_index_checks(index, dtype):
    same_exception(lambda P: P.multiplex([P.to_tensor(_X1), P.to_tensor(-_X1)],
                                         P.to_tensor(np.array(index, dtype))))


@pytest.mark.parametrize("b", [
    lambda P: P.to_tensor(-_X1, "float64"), lambda P: P.to_tensor(-_X1[:3]),
])
def test_multiplex_inputs_of_one_dtype_and_shape(b):
    same_exception(lambda P: P.multiplex([P.to_tensor(_X1), b(P)],
                                         P.to_tensor(np.array([[1], [0], [1]], "int32"))))


def test_multiplex_rejects_1d_inputs_and_takes_fewer_index_rows():
    same_exception(lambda P: P.multiplex([P.to_tensor(_X1[0]), P.to_tensor(-_X1[0])],
                                         P.to_tensor(np.array([[1], [0]], "int32"))))
    same_exception(lambda P: P.multiplex([P.ones([2, 2], "bool")] * 2,
                                         P.to_tensor(np.array([[1], [0]], "int32"))))
    both_same(lambda P: P.multiplex([P.to_tensor(_X1), P.to_tensor(-_X1)],
                                    P.to_tensor(np.array([[1], [0]], "int32"))))


# ---- sinc: Paddle's composite ----------------------------------------------------------------
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_sinc_is_one_where_the_quotient_is_nan_and_rounds_its_gradient_as_paddle(dt):
    """sin(pi x) / (pi x) with 1 where it is NaN (x NaN or infinite, pi x overflowing), and the
    gradient of that quotient as Paddle's divide kernel rounds it (1e-3 loses digits)."""
    v = np.array([1e-30, 1e-3, 1e30, 3.4e38, np.inf, np.nan, -np.inf, 0.0, 0.5, -1.7], dt)

    def f(P):
        x = P.to_tensor(v)
        x.stop_gradient = False
        out = P.sinc(x)
        return out, P.grad(out.sum(), x)[0]
    assert_same(*both(f), rtol=1e-6, atol=0)
    both_same(lambda P: P.sinc(P.to_tensor(np.array([1 + 1j, np.inf + 0j, 0j]))))
