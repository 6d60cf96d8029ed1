"""paddle.sparse.nn (functional and layers) vs real Paddle 3.3.1 on the same sparse inputs."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception
from tests.sparse.helpers import assert_sparse_same, batched_args, both_coo, coo_args, compare


def _grid_args(shape=(2, 3, 4, 4, 2), nnz=9, seed=0):
    """A sparse ``[N, *spatial, C]`` input: ``nnz`` sites, values ``[nnz, C]``."""
    return coo_args(shape, nnz, (shape[-1],), seed=seed)


@pytest.mark.parametrize("name,kw", [("relu", {}), ("relu6", {}), ("leaky_relu", {}),
                                     ("leaky_relu", {"negative_slope": 0.3})])
@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_activations(name, kw, layout):
    def f(fw, x):
        return getattr(fw.sparse.nn.functional, name)(fw.sparse.multiply(x, 4.0), **kw)
    compare(f, grad=layout == "coo", csr=layout == "csr")


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_coo(axis):
    compare(lambda fw, x: fw.sparse.nn.functional.softmax(x, axis), coo_args((3, 5), 8), grad=True)


def test_softmax_3d_and_csr():
    compare(lambda fw, x: fw.sparse.nn.functional.softmax(x, 1), coo_args((2, 3, 4), 9))
    compare(lambda fw, x: fw.sparse.nn.functional.softmax(x), coo_args((3, 5), 8), csr=True)
    compare(lambda fw, x: fw.sparse.nn.Softmax()(x), batched_args(seed=2), csr=True)
    same_exception(lambda fw: fw.sparse.nn.functional.softmax(
        fw.to_tensor([[1.0, 0.0], [2.0, 3.0]]).to_sparse_csr(), 0))


def _weights(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


@pytest.mark.parametrize("kw", [dict(padding=1), dict(), dict(stride=2, padding=1),
                                dict(padding=[1, 0, 2], dilation=[1, 1, 2])])
@pytest.mark.parametrize("subm", [False, True])
def test_conv3d(kw, subm):
    if subm and "dilation" in kw:
        with pytest.raises(NotImplementedError, match="dilation"):
            pagaie.sparse.nn.functional.subm_conv3d(
                pagaie.sparse.sparse_coo_tensor(*_grid_args()),
                pagaie.ones([3, 3, 3, 2, 4]), **kw)
        return
    w, b = _weights((3, 3, 3, 2, 4), 1), _weights((4,), 2)
    name = "subm_conv3d" if subm else "conv3d"
    res, grads = [], []
    for fw, (x, v) in zip((pagaie, paddle_ref()), both_coo(_grid_args(), stop_gradient=False)):
        wt = fw.to_tensor(w, stop_gradient=False)
        out = getattr(fw.sparse.nn.functional, name)(x, wt, fw.to_tensor(b), **kw)
        (out.values() * fw.to_tensor(_weights(out.values().shape, 3))).sum().backward()
        res.append(out)
        grads.append((v.grad, wt.grad))
    assert_sparse_same(*res, rtol=1e-4, atol=1e-5)
    assert res[0].is_coalesced() == res[1].is_coalesced() or subm
    assert_same(grads[0], grads[1], rtol=1e-4, atol=1e-4, what="grads")


@pytest.mark.parametrize("subm", [False, True])
def test_conv2d(subm):
    w = _weights((3, 3, 2, 3), 4)
    name = "subm_conv2d" if subm else "conv2d"
    args = coo_args((2, 5, 5, 2), 7, (2,), seed=3)
    # (Paddle's sparse conv2d backward crashes on the CPU: forward only)
    compare(lambda fw, x: getattr(fw.sparse.nn.functional, name)(x, fw.to_tensor(w), padding=1),
            args, rtol=1e-4, atol=1e-5)
    compare(lambda fw, x: getattr(fw.sparse.nn.functional, name)(x, fw.to_tensor(w), stride=2),
            args, rtol=1e-4, atol=1e-5)


def test_subm_igemm_matches_subm():
    (x, _), _ = both_coo(_grid_args())
    w = pagaie.to_tensor(_weights((3, 3, 3, 2, 4), 1))
    F = pagaie.sparse.nn.functional
    assert_sparse_same(F.subm_conv3d_igemm(x, w, padding=1), F.subm_conv3d(x, w, padding=1))


@pytest.mark.parametrize("kw", [dict(kernel_size=2, stride=1), dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=[2, 1, 2])])
def test_max_pool3d(kw):
    compare(lambda fw, x: fw.sparse.nn.functional.max_pool3d(x, **kw), _grid_args(), grad=True)
    # all-negative values: the maximum is over stored sites only
    idx, vals, shape = _grid_args(seed=4)
    compare(lambda fw, x: fw.sparse.nn.MaxPool3D(**kw)(x), (idx, -np.abs(vals), shape))


def test_conv_errors():
    def f(fw):
        x = fw.sparse.sparse_coo_tensor(*_grid_args())
        return fw.sparse.nn.functional.conv3d(x, fw.ones([3, 3, 3, 2, 4]), data_format="NCDHW")
    same_exception(f)

    def g(fw):
        x = fw.sparse.sparse_coo_tensor(*coo_args((2, 4, 4, 2), 3, (2,)))
        return fw.sparse.nn.functional.conv3d(x, fw.ones([3, 3, 3, 2, 4]))
    same_exception(g)


def _copy_params(ours, theirs):
    ours.set_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})


@pytest.mark.parametrize("cls,args,kw,nd", [
    ("Conv3D", (2, 3, 3), dict(padding=1), 3), ("SubmConv3D", (2, 3, 3), dict(padding=1), 3),
    ("Conv3D", (2, 3, [2, 3, 3]), dict(stride=[1, 2, 2]), 3), ("Conv2D", (2, 4, 3), {}, 2),
    ("SubmConv2D", (2, 4, 3), dict(padding=1, bias_attr=False), 2),
])
def test_conv_layers(cls, args, kw, nd):
    ref = paddle_ref()
    theirs = getattr(ref.sparse.nn, cls)(*args, **kw)
    ours = getattr(pagaie.sparse.nn, cls)(*args, **kw)
    assert repr(ours) == repr(theirs)
    assert [(n, list(p.shape)) for n, p in ours.named_parameters()] == \
        [(n, list(p.shape)) for n, p in theirs.named_parameters()]
    _copy_params(ours, theirs)
    a = _grid_args() if nd == 3 else coo_args((2, 5, 5, 2), 7, (2,), seed=3)
    res = []
    for fw, layer, (x, _) in zip((pagaie, ref), (ours, theirs), both_coo(a, stop_gradient=False)):
        out = layer(x)
        if nd == 3:  # Paddle's sparse conv2d backward crashes on the CPU
            out.values().sum().backward()
        res.append((out, layer.weight.grad))
    assert_sparse_same(res[0][0], res[1][0], rtol=1e-4, atol=1e-5)
    if nd == 3:
        assert_same(res[0][1], res[1][1], rtol=1e-4, atol=1e-4, what="weight grad")


def test_conv_layer_default_init():
    pagaie.seed(0)
    w = pagaie.sparse.nn.Conv3D(4, 8, 3).weight.numpy()
    assert abs(w.std() - (2.0 / (27 * 4)) ** 0.5) < 0.03 and abs(w.mean()) < 0.03


@pytest.mark.parametrize("modes", [("train", "eval", "train"), ("eval", "train", "eval")])
def test_batch_norm_layer(modes):
    ref = paddle_ref()
    theirs, ours = ref.sparse.nn.BatchNorm(2), pagaie.sparse.nn.BatchNorm(2)
    assert repr(ours) == repr(theirs)
    _copy_params(ours, theirs)
    a = _grid_args()
    for mode in modes:
        res = []
        for fw, layer, (x, v) in zip((pagaie, ref), (ours, theirs), both_coo(a, stop_gradient=False)):
            getattr(layer, mode)()
            out = layer(x)
            (out.values() * fw.to_tensor(_weights(out.values().shape, 5))).sum().backward()
            res.append((out, v.grad, layer._mean, layer._variance, layer.weight.grad,
                        layer.bias.grad))
            layer.clear_gradients()
        assert_sparse_same(res[0][0], res[1][0], rtol=1e-4, atol=1e-5)
        assert_same(list(res[0][1:]), list(res[1][1:]), rtol=1e-4, atol=1e-5, what=mode)


def test_sync_batch_norm_layer():
    """Paddle has no CPU kernel for it: in one process it equals BatchNorm in training."""
    ref = paddle_ref()
    assert repr(pagaie.sparse.nn.SyncBatchNorm(2)) == repr(ref.sparse.nn.SyncBatchNorm(2))
    sync, bn = pagaie.sparse.nn.SyncBatchNorm(2), pagaie.sparse.nn.BatchNorm(2)
    x = pagaie.sparse.sparse_coo_tensor(*_grid_args())
    assert_sparse_same(sync(x), bn(x))
    assert_same(sync._mean, bn._mean)


def test_activation_layers_repr_and_call():
    ref = paddle_ref()
    for cls, args in (("ReLU", ()), ("ReLU6", ()), ("LeakyReLU", (0.2,)), ("Softmax", ())):
        ours, theirs = getattr(pagaie.sparse.nn, cls)(*args), getattr(ref.sparse.nn, cls)(*args)
        assert repr(ours) == repr(theirs)
        compare(lambda fw, x, c=cls, a=args: getattr(fw.sparse.nn, c)(*a)(x))
    assert repr(pagaie.sparse.nn.MaxPool3D(3)) == repr(ref.sparse.nn.MaxPool3D(3))


def test_convert_sync_batchnorm():
    net = pagaie.nn.Sequential(pagaie.sparse.nn.BatchNorm(4), pagaie.nn.BatchNorm1D(4))
    out = pagaie.sparse.nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert type(out[0]) is pagaie.sparse.nn.SyncBatchNorm
    assert type(out[1]) is pagaie.nn.SyncBatchNorm
    assert out[0].weight is net[0].weight or np.allclose(out[0].weight.numpy(), 1.0)


def test_attention_vs_dense():
    """GPU-only in Paddle: checked against the dense formula with masked scores."""
    rng = np.random.default_rng(0)
    b, h, m, d = 2, 2, 4, 3
    q, k, v = (rng.standard_normal((b, h, m, d)).astype("float32") for _ in range(3))
    pattern = np.tril(np.ones((m, m), "float32"))
    mask = pagaie.to_tensor(np.broadcast_to(pattern, (b * h, m, m)).copy()).to_sparse_csr()
    kp = np.ones((b, m), "float32")
    kp[1, 0] = 0
    am = np.ones((m, m), "float32")
    am[3, 1] = 0
    qt = pagaie.to_tensor(q, stop_gradient=False)
    out = pagaie.sparse.nn.functional.attention(qt, pagaie.to_tensor(k), pagaie.to_tensor(v), mask,
                                                pagaie.to_tensor(kp), pagaie.to_tensor(am))
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    keep = (pattern[None, None] > 0) & (kp[:, None, None, :] > 0) & (am[None, None] > 0)
    s = np.where(keep, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p = p / p.sum(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), p @ v, rtol=1e-5, atol=1e-6)
    out.sum().backward()
    assert qt.grad is not None and np.isfinite(qt.grad.numpy()).all()
