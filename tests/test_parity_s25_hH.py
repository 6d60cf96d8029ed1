"""Differential tests against real Paddle: reductions, statistics and search ops.

The order in which Paddle checks arguments (its argument parser before the input's kernel,
the kernel before the ranges), the exception types of out-of-range axes, int32 ``nanmean``,
integer-dtype sums of tensors that need gradients, empty ``quantile`` gradients and the
gradient of a multi-axis ``nanmedian(mode='min')``.
"""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

_X = np.array([[1.0, 3.0, 3.0, 2.0], [5.0, 5.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0]], "float32")


def _outcome(lib, fn, x, grad=False):
    """``fn(lib, tensor)``: the exception type, or what the result looks like."""
    t = lib.to_tensor(x)
    if grad:
        t.stop_gradient = False
    try:
        r = fn(lib, t)
    except Exception as e:  # noqa: BLE001 (the type is what is compared)
        return type(e).__name__
    rs = r if isinstance(r, (tuple, list)) else [r]
    return [(str(v.dtype).split(".")[-1], list(v.shape), v.stop_gradient, v.numpy().tolist()) for v in rs]


def _same(fn, x, grad=False):
    expected = _outcome(paddle, fn, x, grad)
    got = _outcome(pagaie, fn, x, grad)
    assert got == expected


_ORDER_CASES = {
    "argmax_axis_list_bad_dtype": (lambda L, t: L.argmax(t, axis=[0], dtype="float32"), "float32"),
    "argmax_keepdim_int": (lambda L, t: L.argmax(t, axis=0, keepdim=1), "float32"),
    "argmax_keepdim_npbool": (lambda L, t: L.argmax(t, axis=0, keepdim=np.bool_(True)), "float32"),
    "argmax_keepdim_none": (lambda L, t: L.argmax(t, axis=1, keepdim=None), "float32"),
    "argmin_bool_bad_dtype": (lambda L, t: L.argmin(t, axis=0, dtype="float32"), "bool"),
    "argmin_f16_dtype_none_keepdim_str": (lambda L, t: L.argmin(t, dtype=None, keepdim="x"), "float16"),
    "kthvalue_bool_axis_out": (lambda L, t: L.kthvalue(t, 1, axis=5), "bool"),
    "kthvalue_keepdim_int": (lambda L, t: L.kthvalue(t, 1, axis=5, keepdim=1), "float32"),
    "kthvalue_k_float": (lambda L, t: L.kthvalue(t, 1.0, axis=5), "float32"),
    "mode_f16_axis_none": (lambda L, t: L.mode(t, axis=None), "float16"),
    "mode_bool_keepdim_int": (lambda L, t: L.mode(t, axis=0, keepdim=1), "bool"),
    "cumsum_bool_axis_list": (lambda L, t: L.cumsum(t, axis=[0]), "bool"),
    "cumprod_f16_axis_float": (lambda L, t: L.cumprod(t, dim=1.0), "float16"),
    "logcumsumexp_bool_axis_list": (lambda L, t: L.logcumsumexp(t, axis=[0]), "bool"),
    "cummax_axis_float_bad_dtype": (lambda L, t: L.cummax(t, axis=1.0, dtype="float64"), "float32"),
    "cummin_bool_axis_list": (lambda L, t: L.cummin(t, axis=[0]), "bool"),
    "topk_bool_axis_list": (lambda L, t: L.topk(t, 1, axis=[0]), "bool"),
}


@pytest.mark.parametrize("case", sorted(_ORDER_CASES))
def test_argument_checks_come_first(case):
    fn, dtype = _ORDER_CASES[case]
    _same(fn, _X.astype(dtype))


@pytest.mark.parametrize("axes", [(0, 2), (3, 0), (-3, 0), (0, -3), (2, -1)])
def test_trace_axis_out_of_range(axes):
    _same(lambda L, t: L.trace(t, axis1=axes[0], axis2=axes[1]), _X)


@pytest.mark.parametrize("axis,prepend,dtype", [(2, True, "float32"), (3, True, "float16"),
                                                (2, False, "float16"), (2, False, "float32")])
def test_diff_axis_past_end(axis, prepend, dtype):
    _same(lambda L, t: L.diff(t, axis=axis, prepend=t if prepend else None), _X.astype(dtype))


@pytest.mark.parametrize("axis,keepdim", [(None, False), (None, True), (0, False), ([0, 1], False),
                                          ([0, 1], True), (-1, True)])
def test_nanmean_int32(axis, keepdim):
    _same(lambda L, t: L.nanmean(t, axis=axis, keepdim=keepdim), _X.astype("int32"))


@pytest.mark.parametrize("op", ["sum", "nansum"])
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool"])
def test_integer_sum_of_tensor_needing_grad(op, dtype):
    _same(lambda L, t: getattr(L, op)(t, axis=0, dtype=dtype), _X - 2.5, grad=True)


@pytest.mark.parametrize("op", ["quantile", "nanquantile"])
@pytest.mark.parametrize("shape,axis", [((0, 3), None), ((0, 3), 0), ((3, 0), 0)])
def test_quantile_empty_keeps_gradient(op, shape, axis):
    def grads(lib):
        t = lib.zeros(shape)
        t.stop_gradient = False
        r = getattr(lib, op)(t, 0.5, axis=axis)
        r.sum().backward()
        return r.stop_gradient, list(r.shape), None if t.grad is None else list(t.grad.shape)
    assert grads(pagaie) == grads(paddle)


@pytest.mark.parametrize("axis", [[0, 1], [-1, 0], [0]])
@pytest.mark.parametrize("mode", ["min", "avg"])
def test_nanmedian_multi_axis_gradient(axis, mode):
    def grads(lib):
        t = lib.to_tensor(_X)
        t.stop_gradient = False
        lib.nanmedian(t, axis=axis, mode=mode).sum().backward()
        return t.grad.numpy()
    np.testing.assert_allclose(grads(pagaie), grads(paddle), rtol=1e-6)
