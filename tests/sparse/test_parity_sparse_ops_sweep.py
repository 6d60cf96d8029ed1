"""A parity sweep of ``paddle.sparse`` against real Paddle 3.3.1: the conv layers' argument
normalisation and checks, and the ops on batched 3-D, float64 and integer inputs (values,
indices order, dtypes, stop_gradient and value gradients)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception
from tests.sparse.helpers import assert_sparse_same, both_coo, coo_args, compare

warnings.filterwarnings("ignore", module="paddle")

CONVS = [("Conv3D", 3), ("SubmConv3D", 3), ("Conv2D", 2), ("SubmConv2D", 2)]


def _conv(fw, cls, *args, **kwargs):
    fw.seed(0)
    return getattr(fw.sparse.nn, cls)(*args, **kwargs)


def _bad_conv_kwargs(n):
    return [dict(padding="bad"), dict(padding=-1), dict(padding=1.5), dict(padding=[1] * (n + 1)),
            dict(padding=[[1, 1]] * (n + 2)), dict(stride=[1] * (n - 1)),
            dict(dilation=[1] * (n + 1)), dict(stride="a"), dict(kernel_size=[3] * (n - 1)),
            dict(kernel_size=2.5)]


@pytest.mark.parametrize("cls,n", CONVS)
@pytest.mark.parametrize("case", range(10))
def test_conv_layer_rejects_bad_sizes(cls, n, case):
    kwargs = dict(_bad_conv_kwargs(n)[case])
    ks = kwargs.pop("kernel_size", 3)
    same_exception(lambda fw: _conv(fw, cls, 2, 3, ks, **kwargs))


def _good_conv_kwargs(n):
    return [dict(padding="valid"), dict(padding="SAME"), dict(padding=[1] * n),
            dict(padding=[1, 0] * n), dict(padding=[2, 2] * n),
            dict(padding=[[0, 0]] + [[1, 1]] * n + [[0, 0]]),
            dict(padding=[[0, 0]] + [[1, 0]] * n + [[0, 0]]),
            dict(stride=(2,) * n, dilation=[1] * n), dict(kernel_size=0)]


@pytest.mark.parametrize("cls,n", CONVS)
@pytest.mark.parametrize("case", range(9))
def test_conv_layer_normalises_sizes(cls, n, case):
    kwargs = dict(_good_conv_kwargs(n)[case])
    ks = kwargs.pop("kernel_size", 3)

    def attrs(fw):
        c = _conv(fw, cls, 2, 3, ks, **kwargs)
        return [repr(c), c._updated_padding, c._padding_algorithm, c._stride, c._dilation,
                c._kernel_size, list(c.weight.shape), c._param_attr, c._bias_attr]

    ours, theirs = both(attrs)
    assert ours == theirs


@pytest.mark.parametrize("pad", [[[0, 0], [1, 0], [0, 1], [1, 1], [0, 0]], [1, 0, 0, 1, 1, 1]])
def test_conv_layer_keeps_per_side_padding(pad):
    # Paddle's layer passes its normal form ([1, 0, 0, 1, 1, 1] unchanged) to a kernel that
    # reads only three entries; pagaie pads each side as asked, like a dense conv
    x = np.zeros((1, 4, 4, 4, 2), "float32")
    x[0, 1, 2, 3] = [1.0, -2.0]
    x[0, 3, 0, 1] = [0.5, 4.0]
    conv = _conv(pagaie, "Conv3D", 2, 3, 3, padding=pad, bias_attr=False)
    out = conv(pagaie.to_tensor(x).to_sparse_coo(4)).to_dense().numpy()
    w = conv.weight.numpy().transpose(4, 3, 0, 1, 2)
    import torch
    ref = torch.nn.functional.conv3d(
        torch.nn.functional.pad(torch.from_numpy(x).permute(0, 4, 1, 2, 3), (1, 1, 0, 1, 1, 0)),
        torch.from_numpy(w)).permute(0, 2, 3, 4, 1).numpy()
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


# --- ops over batched 3-D, float64 and integer inputs -------------------------------------

UNARY = ["abs", "sin", "tan", "atan", "sinh", "tanh", "asinh", "square", "log1p", "expm1",
         "neg", "deg2rad", "rad2deg", "isnan"]


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_batched(name, dtype):
    args = coo_args((2, 3, 4), nnz=6, dtype=dtype)
    args = (args[0], (np.tanh(args[1]) * 0.9).astype(dtype), args[2])
    compare(lambda fw, x: getattr(fw.sparse, name)(x), args, grad=name != "isnan")


@pytest.mark.parametrize("name", ["sin", "sqrt", "asin", "atanh", "tanh"])
def test_unary_int_promotes_to_float32(name):
    args = coo_args((3, 4), nnz=4, dtype="int32")
    args = (args[0], np.array([1, 0, 3, 2], "int32"), args[2])
    compare(lambda fw, x: getattr(fw.sparse, name)(x), args)


@pytest.mark.parametrize("op,dtype", [(op, dt) for op in ("add", "subtract", "multiply", "divide")
                                      for dt in ("float64", "int64")
                                      if (op, dt) != ("divide", "int64")])  # int x / 0: undefined
def test_binary_dtypes(op, dtype):
    (xo, _), (xt, _) = both_coo(coo_args((2, 3, 4), 6, dtype=dtype, seed=1))
    (yo, _), (yt, _) = both_coo(coo_args((2, 3, 4), 6, dtype=dtype, seed=2))
    assert_sparse_same(getattr(pagaie.sparse, op)(xo, yo), getattr(paddle_ref().sparse, op)(xt, yt))


@pytest.mark.parametrize("op", ["add", "multiply", "subtract"])
def test_binary_same_pattern_grad(op):
    args = coo_args((3, 4), nnz=5)
    (xo, vxo), (xt, vxt) = both_coo(args, stop_gradient=False)
    (yo, vyo), (yt, vyt) = both_coo((args[0], args[1] * 2 + 1, args[2]), stop_gradient=False)
    ro, rt = getattr(pagaie.sparse, op)(xo, yo), getattr(paddle_ref().sparse, op)(xt, yt)
    assert_sparse_same(ro, rt)
    assert ro.stop_gradient == rt.stop_gradient
    for fw, r in ((pagaie, ro), (paddle_ref(), rt)):
        w = np.random.default_rng(3).standard_normal(r.shape).astype("float32")
        (r.to_dense() * fw.to_tensor(w)).sum().backward()
    assert_same(vxo.grad, vxt.grad, what="x grad")
    assert_same(vyo.grad, vyt.grad, what="y grad")


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_batched_coo(axis, keepdim):
    compare(lambda fw, x: fw.sparse.sum(x, axis=axis, keepdim=keepdim),
            coo_args((2, 3, 4), nnz=6), grad=True, only_dense=axis is None)


@pytest.mark.parametrize("dtype,axis", [("int32", None), ("float64", 0), ("float64", None)])
def test_sum_dtypes(dtype, axis):
    # (Paddle's int32 sum over one axis says int64 but stores int32 values: not compared)
    compare(lambda fw, x: fw.sparse.sum(x, axis=axis), coo_args((3, 4), nnz=5, dtype=dtype),
            only_dense=axis is None)


@pytest.mark.parametrize("perm", [[2, 0, 1], [1, 0, 2], [0, 2, 1]])
def test_transpose_batched(perm):
    compare(lambda fw, x: fw.sparse.transpose(x, perm), coo_args((2, 3, 4), nnz=6), grad=True)


@pytest.mark.parametrize("shape", [[4, 6], [-1, 2], [0, -1, 2], [24]])
def test_reshape_batched(shape):
    compare(lambda fw, x: fw.sparse.reshape(x, shape), coo_args((2, 3, 4), nnz=6), grad=True)


@pytest.mark.parametrize("axes,starts,ends", [([0, 2], [1, 1], [2, 4]), ([-1], [-3], [-1]),
                                              ([1], [0], [100]), ([0], [1], [1])])
def test_slice_batched(axes, starts, ends):
    compare(lambda fw, x: fw.sparse.slice(x, axes, starts, ends), coo_args((2, 3, 4), nnz=6))


def test_mask_as_batched():
    dense = np.arange(24, dtype="float32").reshape(2, 3, 4)
    compare(lambda fw, m: fw.sparse.mask_as(fw.to_tensor(dense), m), coo_args((2, 3, 4), nnz=6))
    compare(lambda fw, m: fw.sparse.mask_as(fw.to_tensor(dense[0]), m), coo_args((3, 4), nnz=5),
            csr=True)


@pytest.mark.parametrize("value_dtype", ["float64", "int64", "float16"])
def test_cast_values(value_dtype):
    compare(lambda fw, x: fw.sparse.cast(x, value_dtype=value_dtype), coo_args((2, 3, 4), nnz=6))


@pytest.mark.parametrize("name,kwargs", [("relu", {}), ("relu6", {}),
                                         ("leaky_relu", {"negative_slope": 0.2}),
                                         ("softmax", {}), ("softmax", {"axis": 0})])
def test_activations_grad(name, kwargs):
    args = coo_args((3, 4), nnz=6)
    args = (args[0], args[1] * 4, args[2])
    compare(lambda fw, x: getattr(fw.sparse.nn.functional, name)(x, **kwargs), args, grad=True)


@pytest.mark.parametrize("kwargs", [{}, {"use_global_stats": True}, {"momentum": 0.3,
                                                                      "epsilon": 1e-3}])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_layer(kwargs, training):
    dense = np.zeros((1, 4, 4, 4, 2), "float32")
    dense[0, 1, 2, 3] = [1.0, -2.0]
    dense[0, 3, 0, 1] = [0.5, 4.0]
    dense[0, 0, 0, 0] = [-1.0, 3.0]
    outs = []
    for fw in (pagaie, paddle_ref()):
        bn = fw.sparse.nn.BatchNorm(2, **kwargs)
        bn.weight.set_value(fw.to_tensor([1.5, -0.5]))
        bn.bias.set_value(fw.to_tensor([0.1, 0.2]))
        bn.train() if training else bn.eval()
        coo = fw.to_tensor(dense).to_sparse_coo(4)
        v = coo.values()
        v.stop_gradient = False
        x = fw.sparse.sparse_coo_tensor(coo.indices(), v, coo.shape, stop_gradient=False)
        bn(x)
        y = bn(x)
        (y.values() * fw.to_tensor(np.arange(6.0, dtype="float32").reshape(3, 2))).sum().backward()
        outs.append([y.values(), v.grad, bn.weight.grad, bn.bias.grad, bn._mean, bn._variance])
    assert_same(*outs, rtol=1e-5, atol=1e-5, check_dtype=False)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4)])
def test_batch_norm_needs_channel_axis(training, shape):
    def run(fw):
        bn = fw.sparse.nn.BatchNorm(shape[-1])
        bn.train() if training else bn.eval()
        idx, vals, dims = coo_args(shape, nnz=5)
        return bn(fw.sparse.sparse_coo_tensor(fw.to_tensor(idx), fw.to_tensor(vals), dims))

    same_exception(run)
