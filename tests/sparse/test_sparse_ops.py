"""paddle.sparse ops vs real Paddle 3.3.1 on the same sparse inputs (and, for the products that
Paddle only runs on GPUs, vs the dense computation)."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception
from tests.sparse.helpers import assert_sparse_same, batched_args, both_coo, coo_args, compare

UNARY = ["abs", "sin", "tan", "atan", "sinh", "tanh", "asinh", "square", "log1p", "expm1",
         "neg", "deg2rad", "rad2deg"]
UNIT = ["asin", "atanh"]          # need |x| < 1
POS = ["sqrt"]                    # need x > 0


def _unit_args():
    idx, vals, shape = coo_args()
    return idx, (np.tanh(vals) * 0.9).astype("float32"), shape


def _pos_args():
    idx, vals, shape = coo_args()
    return idx, (np.abs(vals) + 0.5).astype("float32"), shape


@pytest.mark.parametrize("name", UNARY + UNIT + POS)
@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_unary(name, layout):
    args = _unit_args() if name in UNIT else _pos_args() if name in POS else coo_args()
    # Paddle registers no gradient for sparse sin; the others are compared
    compare(lambda fw, x: getattr(fw.sparse, name)(x), args, grad=layout == "coo" and name != "sin",
            csr=layout == "csr")


def test_unary_keeps_uncoalesced_pattern():
    # Paddle's to_dense lets the last duplicate win where coalesce (and pagaie) sum them, so
    # only the stored parts are compared here
    (xo, vo), (xt, vt) = both_coo(coo_args(coalesced=False), stop_gradient=False)
    ro, rt = pagaie.sparse.square(xo), paddle_ref().sparse.square(xt)
    assert_same(ro.indices(), rt.indices(), what="indices")
    assert_same(ro.values(), rt.values(), what="values")
    (ro.values() * 1.0).sum().backward()  # each entry its own gradient (Paddle mixes duplicates)
    np.testing.assert_allclose(vo.grad.numpy(), 2 * vo.numpy(), rtol=1e-6)


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_pow_isnan(layout):
    csr = layout == "csr"
    compare(lambda fw, x: fw.sparse.pow(x, 3), grad=not csr, csr=csr)
    compare(lambda fw, x: fw.sparse.isnan(fw.sparse.sqrt(x)), csr=csr)


def test_cast():
    compare(lambda fw, x: fw.sparse.cast(x, "int64", "float64"), grad=True)
    compare(lambda fw, x: fw.sparse.cast(x, value_dtype="int32"))


def test_cast_csr():
    # Paddle's CSR cast corrupts its heap (later tests abort), so CSR is checked on its own
    x = pagaie.sparse.sparse_coo_tensor(*coo_args()).to_sparse_csr()
    r = pagaie.sparse.cast(x, "int32", "float64")
    assert (str(r.crows().dtype), str(r.cols().dtype), str(r.dtype)) == \
        ("paddle.int32", "paddle.int32", "paddle.float64")
    np.testing.assert_allclose(r.to_dense().numpy(), x.to_dense().numpy(), rtol=1e-6)
    np.testing.assert_array_equal(r.cols().numpy(), x.cols().numpy())


@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "divide"])
@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_binary(op, layout):
    a, b = coo_args(seed=1), coo_args(seed=2)
    (xo, vxo), (xt, vxt) = both_coo(a, stop_gradient=False)
    (yo, vyo), (yt, vyt) = both_coo(b, stop_gradient=False)
    if layout == "csr":
        xo, xt, yo, yt = xo.to_sparse_csr(), xt.to_sparse_csr(), yo.to_sparse_csr(), yt.to_sparse_csr()
    ro, rt = getattr(pagaie.sparse, op)(xo, yo), getattr(paddle_ref().sparse, op)(xt, yt)
    assert_sparse_same(ro, rt)
    if layout == "coo" and op in ("add", "multiply"):
        # (divide's gradient holds inf/nan off the patterns; Paddle's subtract backward
        # corrupts its heap, so subtract is checked below by hand)
        ro.to_dense().sum().backward()
        rt.to_dense().sum().backward()
        assert_same(vxo.grad, vxt.grad, what="x grad")
        assert_same(vyo.grad, vyt.grad, what="y grad")
    if layout == "coo" and op == "subtract":
        ro.to_dense().sum().backward()
        np.testing.assert_array_equal(vxo.grad.numpy(), np.ones(vxo.shape, "float32"))
        np.testing.assert_array_equal(vyo.grad.numpy(), -np.ones(vyo.shape, "float32"))


@pytest.mark.parametrize("op", ["multiply", "divide"])
def test_binary_scalar(op):
    compare(lambda fw, x: getattr(fw.sparse, op)(x, 2.5), grad=True)
    compare(lambda fw, x: getattr(fw.sparse, op)(x, 2.5), csr=True)


def test_binary_uncoalesced_inputs():
    # duplicates are summed first (Paddle merges them in its own order): same dense result
    a, b = coo_args(coalesced=False, seed=3), coo_args(seed=4)
    (xo, _), (xt, _) = both_coo(a)
    (yo, _), (yt, _) = both_coo(b)
    ours = pagaie.sparse.add(xo, yo)
    theirs = paddle_ref().sparse.add(paddle_ref().sparse.coalesce(xt), yt)
    assert_sparse_same(ours, theirs)


def test_binary_errors():
    def f(fw):
        x = fw.sparse.sparse_coo_tensor([[0, 1]], [1.0, 2.0], [3])
        return fw.sparse.add(x, 2.0)
    same_exception(f)

    def g(fw):
        x = fw.sparse.sparse_coo_tensor([[0, 1]], [1.0, 2.0], [3])
        return fw.sparse.multiply(x, fw.ones([3]))
    same_exception(g)


def test_coalesce():
    (xo, _), (xt, _) = both_coo(coo_args(coalesced=False))
    ro, rt = pagaie.sparse.coalesce(xo), paddle_ref().sparse.coalesce(xt)
    assert_sparse_same(ro, rt)
    assert ro.is_coalesced() and rt.is_coalesced()
    assert_sparse_same(xo.coalesce(), xt.coalesce())


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_transpose(layout):
    csr = layout == "csr"
    compare(lambda fw, x: fw.sparse.transpose(x, [1, 0]), grad=not csr, csr=csr)
    compare(lambda fw, x: fw.sparse.transpose(x, [2, 0, 1]), coo_args((2, 3, 4), 6), grad=True)
    if csr:
        compare(lambda fw, x: fw.sparse.transpose(x, [0, 2, 1]), batched_args(seed=5), csr=True)


@pytest.mark.parametrize("shape", [[12], [2, 6], [-1, 3, 1], [0, -1]])
def test_reshape(shape):
    compare(lambda fw, x: fw.sparse.reshape(x, shape), grad=True)


def test_reshape_error():
    same_exception(lambda fw: fw.sparse.reshape(
        fw.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [1.0, 2.0], [3, 4]), [4, 0]))


def test_reshape_csr_and_hybrid():
    compare(lambda fw, x: fw.sparse.reshape(x, [6, 2]), csr=True)
    compare(lambda fw, x: fw.sparse.reshape(x, [3, 4, 2]), coo_args((3, 4, 2), 4, (2,)))


@pytest.mark.parametrize("kw", [dict(axis=0), dict(axis=1), dict(axis=-1, keepdim=True),
                                dict(axis=0, dtype="float64"), dict(keepdim=True)])
def test_sum_coo(kw):
    compare(lambda fw, x: fw.sparse.sum(x, **kw), grad=True)


def test_sum_coo_3d_and_hybrid_and_int():
    compare(lambda fw, x: fw.sparse.sum(x, 1), coo_args((2, 3, 4), 7))
    compare(lambda fw, x: fw.sparse.sum(x, 2, keepdim=True), coo_args((2, 3, 4), 7))
    compare(lambda fw, x: fw.sparse.sum(x, 1), coo_args((3, 2), 2, (2,)))
    compare(lambda fw, x: fw.sparse.sum(x, 0), coo_args((3, 2), 2, (2,)))
    r = pagaie.sparse.sum(pagaie.sparse.sparse_coo_tensor(*coo_args(dtype="int32")), 0)
    assert str(r.dtype) == "paddle.int64"  # as Paddle (whose int32 COO sum then fails to read)
    # a full sum: Paddle's odd [1]-shaped result (1-D indices, 0-D values) agrees densely
    compare(lambda fw, x: fw.sparse.sum(x), grad=True, only_dense=True)


def test_sum_csr():
    compare(lambda fw, x: fw.sparse.sum(x), csr=True)
    compare(lambda fw, x: fw.sparse.sum(x, -1), csr=True)
    compare(lambda fw, x: fw.sparse.sum(x, -1, dtype="float64", keepdim=True), csr=True)
    compare(lambda fw, x: fw.sparse.sum(x), batched_args(seed=7), csr=True)

    def f(fw):
        return fw.sparse.sum(fw.to_tensor([[1.0, 0.0], [0.0, 2.0]]).to_sparse_csr(), 0)
    same_exception(f)


@pytest.mark.parametrize("axes,starts,ends", [([0], [1], [3]), ([0, 1], [0, 1], [2, 3]),
                                              ([1], [-3], [10]), ([0], [5], [10])])
def test_slice(axes, starts, ends):
    compare(lambda fw, x: fw.sparse.slice(x, axes, starts, ends))
    compare(lambda fw, x: fw.sparse.slice(x, axes, starts, ends), csr=True)


def test_slice_grad_and_3d_csr():
    (xo, vo), (xt, vt) = both_coo(coo_args(), stop_gradient=False)
    ro = pagaie.sparse.slice(xo, [0], [1], [3])
    assert_sparse_same(ro, paddle_ref().sparse.slice(xt, [0], [1], [3]))
    ro.values().sum().backward()  # Paddle's own slice gradient has the wrong length
    keep = (xo.indices().numpy()[0] >= 1) & (xo.indices().numpy()[0] < 3)
    np.testing.assert_array_equal(vo.grad.numpy(), keep.astype("float32"))
    compare(lambda fw, x: fw.sparse.slice(x, [0, 2], [1, 0], [2, 2]), batched_args(seed=7),
            csr=True)


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_mask_as(layout):
    rng = np.random.default_rng(3)
    d = rng.standard_normal((3, 4)).astype("float32")
    (mo, _), (mt, _) = both_coo(coo_args(seed=6))
    if layout == "csr":
        mo, mt = mo.to_sparse_csr(), mt.to_sparse_csr()
    res = []
    for fw, m in ((pagaie, mo), (paddle_ref(), mt)):
        x = fw.to_tensor(d, stop_gradient=False)
        r = fw.sparse.mask_as(x, m)
        if layout == "coo":
            (r.values() * fw.arange(r.nnz()).astype("float32")).sum().backward()
        res.append((r, x))
    assert_sparse_same(res[0][0], res[1][0])
    if layout == "coo":
        assert res[0][0].is_coalesced() == res[1][0].is_coalesced()
        assert_same(res[0][1].grad, res[1][1].grad, what="x grad")


def test_is_same_shape():
    for shape in ([3, 4], [4, 3]):
        def f(fw):
            x = fw.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [1.0, 2.0], [3, 4])
            return fw.sparse.is_same_shape(x, fw.ones(shape)), fw.sparse.is_same_shape(x, x.to_sparse_csr())
        ours, theirs = f(pagaie), f(paddle_ref())
        assert ours == theirs


# ---- products (GPU-only in Paddle): checked against dense math ------------------------

def _dense(t):
    return t.to_dense().numpy() if t.is_sparse() else t.numpy()


@pytest.mark.parametrize("layout", ["coo", "csr"])
def test_matmul_sparse_dense(layout):
    idx, vals, shape = coo_args((3, 4), 6, coalesced=layout == "coo")
    v = pagaie.to_tensor(vals, stop_gradient=False)
    x = pagaie.sparse.sparse_coo_tensor(idx, v, shape, stop_gradient=False)
    if layout == "csr":
        x = x.to_sparse_csr()
    y = pagaie.to_tensor(np.random.default_rng(1).standard_normal((4, 2)).astype("float32"),
                         stop_gradient=False)
    out = pagaie.sparse.matmul(x, y)
    xd = _dense(x.detach() if layout == "coo" else x)
    np.testing.assert_allclose(out.numpy(), xd @ y.numpy(), rtol=1e-5, atol=1e-6)
    out.sum().backward()
    g = np.ones((3, 2), "float32") @ y.numpy().T
    if layout == "coo":
        np.testing.assert_allclose(v.grad.numpy(), g[idx[0], idx[1]], rtol=1e-5)
    np.testing.assert_allclose(y.grad.numpy(), xd.T @ np.ones((3, 2)), rtol=1e-5)


def test_matmul_batched_and_sparse_sparse():
    rng = np.random.default_rng(2)
    a = pagaie.sparse.sparse_coo_tensor(*coo_args((2, 3, 4), 7))
    b = pagaie.to_tensor(rng.standard_normal((2, 4, 5)).astype("float32"))
    np.testing.assert_allclose(pagaie.sparse.matmul(a, b).numpy(), _dense(a) @ b.numpy(), rtol=1e-5,
                               atol=1e-6)
    for shape, layouts in (((3, 4), ("coo", "csr")), ((2, 3, 4), ("coo",))):
        x = pagaie.sparse.sparse_coo_tensor(*coo_args(shape, 6, seed=1))
        yshape = shape[:-2] + (4, 2)
        y = pagaie.sparse.sparse_coo_tensor(*coo_args(yshape, 5, seed=2))
        for lay in layouts:
            xx, yy = (x, y) if lay == "coo" else (x.to_sparse_csr(), y.to_sparse_csr())
            r = pagaie.sparse.matmul(xx, yy)
            assert r.is_sparse_coo() == (lay == "coo")
            np.testing.assert_allclose(_dense(r), _dense(x) @ _dense(y), rtol=1e-5, atol=1e-6)


def test_masked_matmul_addmm_mv():
    rng = np.random.default_rng(4)
    x = pagaie.to_tensor(rng.standard_normal((3, 5)).astype("float32"))
    y = pagaie.to_tensor(rng.standard_normal((5, 4)).astype("float32"))
    mask = pagaie.sparse.sparse_coo_tensor(*coo_args((3, 4), 6))
    full = x.numpy() @ y.numpy()
    for m in (mask, mask.to_sparse_csr()):
        r = pagaie.sparse.masked_matmul(x, y, m)
        assert r.is_sparse_csr() == m.is_sparse_csr()
        np.testing.assert_allclose(_dense(r), full * (_dense(m) != 0), rtol=1e-5, atol=1e-6)
    s = pagaie.sparse.sparse_coo_tensor(*coo_args((3, 5), 7))
    inp = pagaie.to_tensor(rng.standard_normal((3, 4)).astype("float32"))
    r = pagaie.sparse.addmm(inp, s, y, beta=0.5, alpha=2.0)
    np.testing.assert_allclose(r.numpy(), 0.5 * inp.numpy() + 2 * _dense(s) @ y.numpy(), rtol=1e-5)
    ys = pagaie.sparse.sparse_coo_tensor(*coo_args((5, 4), 6, seed=3))
    r = pagaie.sparse.addmm(mask, s, ys, 2.0, 3.0)
    np.testing.assert_allclose(_dense(r), 2 * _dense(mask) + 3 * _dense(s) @ _dense(ys), rtol=1e-5,
                               atol=1e-6)
    vec = pagaie.to_tensor(rng.standard_normal(5).astype("float32"))
    for m in (s, s.to_sparse_csr()):
        np.testing.assert_allclose(pagaie.sparse.mv(m, vec).numpy(), _dense(s) @ vec.numpy(),
                                   rtol=1e-5, atol=1e-6)


def test_pca_lowrank():
    rng = np.random.default_rng(5)
    d = rng.standard_normal((8, 5)) * (rng.random((8, 5)) > 0.4)
    x = pagaie.to_tensor(d.astype("float64")).to_sparse_coo(2)
    pagaie.seed(0)
    u, s, v = pagaie.sparse.pca_lowrank(x, q=5, center=True, niter=4)
    c = d - d.mean(0)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(c, compute_uv=False), rtol=1e-6)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, c, atol=1e-8)

    def f(fw):
        return fw.sparse.pca_lowrank(fw.ones([3, 3]))
    same_exception(f)
