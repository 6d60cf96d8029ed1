"""Session-28 parity cases for ``paddle.sparse`` (mined from Paddle's own sparse unit tests),
each run through real Paddle and pagaie side by side."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

IDX = [[0, 0, 1, 2, 2], [1, 3, 2, 0, 1]]


def _values_grad(fw, reduce):
    x = fw.sparse.sparse_coo_tensor(fw.to_tensor(IDX), fw.to_tensor([1.0, 2, 3, 4, 5]), [3, 4],
                                    stop_gradient=False)
    x.retain_grads()
    reduce(fw, x).backward()
    g = x.grad
    return g.indices().numpy(), g.values().numpy(), g.to_dense().numpy()


@pytest.mark.parametrize("reduce", [
    lambda fw, x: x.values().sum(),
    lambda fw, x: fw.sparse.add(x, x),
    lambda fw, x: x.to_dense().mean(),
], ids=["values_sum", "add", "to_dense_mean"])
def test_parts_of_an_expanded_sparse_gradient(reduce):
    # the gradient's values come back expanded from torch's sum/mean backward: reading its
    # parts must work, as in Paddle
    for ours, theirs in zip(_values_grad(pagaie, reduce), _values_grad(paddle, reduce)):
        np.testing.assert_allclose(ours, theirs)


def _mask_as(fw, x_dtype, mask_dtype, fmt):
    m = fw.to_tensor(np.array([[1, 0, 2], [0, 3, 0]])).astype(mask_dtype)
    m = m.to_sparse_coo(2) if fmt == "coo" else m.to_sparse_csr()
    return fw.sparse.mask_as(fw.to_tensor(np.array([[5, 6, 7], [8, 9, 10]])).astype(x_dtype), m)


@pytest.mark.parametrize("x_dtype,mask_dtype", [
    ("int32", "float32"), ("int64", "float64"), ("float64", "float32"), ("float16", "float32"),
    ("bool", "float32"), ("uint8", "float64"), ("float32", "int32"), ("float32", "complex64"),
])
@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_mask_as_dtype_mismatch_raises_value_error(x_dtype, mask_dtype, fmt):
    with pytest.raises(ValueError):
        _mask_as(paddle, x_dtype, mask_dtype, fmt)
    with pytest.raises(ValueError, match="mask_as"):
        _mask_as(pagaie, x_dtype, mask_dtype, fmt)


@pytest.mark.parametrize("x_dtype,mask_dtype", [
    ("int32", "int32"), ("float64", "float64"), ("complex64", "float32"),
    ("complex128", "float64"), ("complex64", "complex64"),
])
def test_mask_as_matching_dtypes(x_dtype, mask_dtype):
    ours, theirs = _mask_as(pagaie, x_dtype, mask_dtype, "coo"), _mask_as(paddle, x_dtype,
                                                                          mask_dtype, "coo")
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.indices().numpy(), theirs.indices().numpy())
    np.testing.assert_array_equal(ours.values().numpy(), theirs.values().numpy())


@pytest.mark.parametrize("module,names", [
    ("sparse.nn.functional.activation", ["relu", "relu6", "leaky_relu", "softmax"]),
    ("sparse.nn.functional.conv", ["conv3d", "subm_conv3d", "conv2d", "subm_conv2d"]),
    ("sparse.nn.functional.pooling", ["max_pool3d"]),
    ("sparse.nn.functional.transformer", ["attention"]),
    ("sparse.nn.layer.activation", ["ReLU", "ReLU6", "LeakyReLU", "Softmax"]),
    ("sparse.nn.layer.conv", ["Conv3D", "SubmConv3D", "Conv2D", "SubmConv2D"]),
    ("sparse.nn.layer.norm", ["BatchNorm", "SyncBatchNorm"]),
    ("sparse.nn.layer.pooling", ["MaxPool3D"]),
])
def test_sparse_nn_implementation_module_paths(module, names):
    import importlib

    theirs = importlib.import_module("paddle." + module)
    ours = importlib.import_module("pagaie." + module)
    public = "sparse.nn.functional" if ".functional." in module else "sparse.nn"
    target = importlib.import_module("pagaie." + public)
    for name in names:
        assert hasattr(theirs, name)
        assert getattr(ours, name) is getattr(target, name)
