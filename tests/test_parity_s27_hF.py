"""Parity with real Paddle for cases taken from Paddle's own linalg / fft unit tests: argument
checks (eager and static) of the linalg solvers, norms, decompositions and fft shifts."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

MODS = (paddle, pagaie)


def _raises(fn):
    """The exception type ``fn(module)`` raises under each module, and pagaie's message."""
    types, msg = [], ""
    for m in MODS:
        try:
            fn(m)
            types.append(None)
        except Exception as e:  # noqa: BLE001 - the type is what is compared
            types.append(e)
            msg = str(e)
    return types, msg


def _same_error(fn, kind):
    (real, ours), msg = _raises(fn)
    assert isinstance(real, kind), real
    assert isinstance(ours, kind), ours
    assert msg.startswith("paddle."), msg
    return msg


def _static_error(specs, fn, kind):
    """Build a program from ``paddle.static.data`` of ``specs`` under each module; both raise ``kind``."""
    for m in MODS:
        m.enable_static()
        try:
            with m.static.program_guard(m.static.Program(), m.static.Program()):
                values = [m.static.data(f"v{i}", s, d) for i, (s, d) in enumerate(specs)]
                with pytest.raises(kind):
                    fn(m, *values)
        finally:
            m.disable_static()


@pytest.mark.parametrize("xs,ys", [((1, 5, 3), (2, 5, 2)), ((2, 5, 3), (1, 5, 2)), ((5, 3), (2, 5, 2)),
                                   ((2, 5, 3), (5, 2)), ((5, 10), (4, 15))])
def test_lstsq_needs_same_batch_and_rows(xs, ys):
    msg = _same_error(lambda m: m.linalg.lstsq(m.ones(xs, "float64"), m.ones(ys, "float64")), ValueError)
    assert "size(" not in msg and "'y'" in msg


def test_lstsq_same_batch_still_solves():
    x, y = np.random.rand(2, 5, 3), np.random.rand(2, 5, 2)
    a, b = (m.linalg.lstsq(m.to_tensor(x), m.to_tensor(y), driver="gelsd")[0].numpy() for m in MODS)
    np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("x", [0, np.ones(3)])
def test_norm_checks_vector_order_before_input(x):
    _same_error(lambda m: m.norm(x, [1, 0], "float64"), ValueError)


def test_pinv_hermitian_empty_non_square():
    x = np.zeros((3, 0, 5), "complex64")
    a, b = (m.linalg.pinv(m.to_tensor(x), hermitian=True) for m in MODS)
    assert a.shape == b.shape == [3, 5, 0] and str(a.dtype) == str(b.dtype)


@pytest.mark.parametrize("shapes,dtypes", [
    ([(3, 2, 3), (3, 2)], None), ([(3, 2), (3, 2, 2)], None), ([(3, 2), (2,), (2, 2)], None),
    ([(3, 2), (3, 2)], None), ([(3, 3), (3, 3)], ("float32", "float64"))])
def test_multi_dot_errors(shapes, dtypes):
    dtypes = dtypes or ("float64",) * len(shapes)
    msg = _same_error(lambda m: m.linalg.multi_dot([m.ones(s, d) for s, d in zip(shapes, dtypes)]), ValueError)
    assert "multi_dot()" not in msg and "double" not in msg.lower()


def test_multi_dot_vectors_at_ends():
    xs = [np.random.rand(3), np.random.rand(3, 4), np.random.rand(4)]
    a, b = (m.linalg.multi_dot([m.to_tensor(v) for v in xs]).numpy() for m in MODS)
    np.testing.assert_allclose(a, b, rtol=1e-10)


@pytest.mark.parametrize("xs,ys,left", [((3, 3), (2, 3), True), ((3, 3), (4, 2), False), ((3, 3), (3,), False),
                                        ((2, 3, 3), (2, 3), False)])
def test_solve_shape_errors(xs, ys, left):
    msg = _same_error(lambda m: m.linalg.solve(m.ones(xs, "float64"), m.ones(ys, "float64"), left=left), ValueError)
    assert "Incompatible" not in msg


def test_solve_dtype_error():
    msg = _same_error(lambda m: m.linalg.solve(m.eye(3, dtype="float32"), m.eye(3, dtype="float64")), ValueError)
    assert "Double" not in msg


@pytest.mark.parametrize("bs,ls,ps", [((3,), (3, 3), (3,)), ((3, 1), (3,), (3,)), ((3, 1), (3, 3), ()),
                                      ((1, 3), (3, 3), (3,)), ((3, 1), (3, 3), (2,)), ((3, 1), (3, 2), (3,))])
def test_lu_solve_shape_errors(bs, ls, ps):
    msg = _same_error(lambda m: m.linalg.lu_solve(m.ones(bs), m.ones(ls), m.ones(ps, "int32")), ValueError)
    assert "tensor A" not in msg and "Dimension specified" not in msg


@pytest.mark.parametrize("xs,ts,ys", [((3,), (), (3,)), ((3, 3), (3,), (3,)), ((3,), (3,), (3, 3)),
                                      ((3, 3), (), (3, 3))])
def test_ormqr_rank_errors(xs, ts, ys):
    _same_error(lambda m: m.linalg.ormqr(m.ones(xs), m.ones(ts), m.ones(ys)), AssertionError)


@pytest.mark.parametrize("xs", [(3,), (4, 2)])
def test_cholesky_solve_row_errors(xs):
    msg = _same_error(lambda m: m.linalg.cholesky_solve(m.ones(xs, "float64"), m.eye(3, dtype="float64")),
                      ValueError)
    assert "Incompatible" not in msg and "dimensions instead" not in msg


@pytest.mark.parametrize("dtype", ["int64", "float16"])
def test_eigh_checks_uplo_before_dtype(dtype):
    _same_error(lambda m: m.linalg.eigh(m.ones([3, 3], dtype), "x"), ValueError)


@pytest.mark.parametrize("dtype", ["int64", "int32"])
def test_householder_product_integer(dtype):
    x = np.random.randint(-3, 4, (2, 5, 3)).astype(dtype)
    tau = np.random.randint(-2, 3, (2, 3)).astype(dtype)
    a, b = (m.linalg.householder_product(m.to_tensor(x), m.to_tensor(tau)) for m in MODS)
    assert str(a.dtype) == str(b.dtype)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("dtype", ["int32", "float16"])
def test_householder_product_static_dtype(dtype):
    _static_error([([4, 3], dtype), ([3], dtype)], lambda m, x, tau: m.linalg.householder_product(x, tau), TypeError)


def test_lu_unpack_vector_input():
    _same_error(lambda m: m.linalg.lu_unpack(m.ones([3], "float64"), m.ones([3], "int32")), ValueError)


@pytest.mark.parametrize("api", ["fftshift", "ifftshift"])
def test_fftshift_zero_dim(api):
    msg = _same_error(lambda m: getattr(m.fft, api)(m.to_tensor(3.0)), ValueError)
    assert "shifts" not in msg


@pytest.mark.parametrize("api", ["svd_lowrank", "pca_lowrank"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_lowrank_complex(api, dtype):
    x = (np.random.rand(5, 4) + 1j * np.random.rand(5, 4)).astype(dtype)
    (ua, sa, va), (ub, sb, vb) = (getattr(m.linalg, api)(m.to_tensor(x), q=4) for m in MODS)
    assert str(sa.dtype) == str(sb.dtype) and str(ua.dtype) == str(ub.dtype)
    np.testing.assert_allclose(sa.numpy(), sb.numpy(), rtol=1e-4)


def test_svd_lowrank_bad_mean():
    msg = _same_error(lambda m: m.linalg.svd_lowrank(m.ones([5, 4], "float64"), q=2, M=m.ones([3, 3], "float64")),
                      ValueError)
    assert "expanded size" not in msg


@pytest.mark.parametrize("api", ["vector_norm", "matrix_norm"])
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool"])
def test_norms_refuse_integer_input(api, dtype):
    msg = _same_error(lambda m: getattr(m.linalg, api)(m.ones([3, 3], dtype)), RuntimeError)
    assert "Expected a floating point" not in msg


@pytest.mark.parametrize("axis", [2, -3])
def test_vecdot_axis_out_of_range(axis):
    msg = _same_error(lambda m: m.linalg.vecdot(m.ones([2, 3]), m.ones([2, 3]), axis=axis), ValueError)
    assert "Dimension out of range" not in msg


@pytest.mark.parametrize("p", [None, "fro", 1])
def test_cond_static_empty_input(p):
    _static_error([([0, 7, 7], "float32")], lambda m, x: m.linalg.cond(x, p), ValueError)


def test_ormqr_static_dtype():
    _static_error([([3, 3], "int32"), ([3], "int32"), ([3, 3], "int32")],
                  lambda m, x, tau, y: m.linalg.ormqr(x, tau, y), TypeError)


@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr_integer(transpose):
    rng = np.random.RandomState(3)
    x, tau = rng.randint(-3, 4, (4, 3)), rng.randint(-2, 3, (3,))
    y = rng.randint(-3, 4, (4 if transpose else 3, 2))
    a, b = (m.linalg.ormqr(m.to_tensor(x), m.to_tensor(tau), m.to_tensor(y), transpose=transpose) for m in MODS)
    assert str(a.dtype) == str(b.dtype)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_svd_lowrank_tensor_q_and_niter():
    x = np.random.RandomState(0).rand(4, 6)
    shapes = [[list(t.shape) for t in m.linalg.svd_lowrank(m.to_tensor(x), q=m.to_tensor(np.array(2)),
                                                            niter=m.to_tensor(np.array(1)))] for m in MODS]
    assert shapes[0] == shapes[1] == [[4, 2], [2], [6, 2]]


def test_matrix_norm_tensor_axis():
    _same_error(lambda m: m.linalg.matrix_norm(m.ones([3, 4]), axis=m.to_tensor(np.array([0, 1]))), ValueError)


@pytest.mark.parametrize("call", [lambda m, t: m.linalg.cholesky(m.eye(3), t),
                                  lambda m, t: m.linalg.svd(m.eye(3), full_matrices=t),
                                  lambda m, t: m.linalg.eigh(m.eye(3), UPLO=t)])
def test_tensor_flags_refused_without_torch_repr(call):
    (real, ours), msg = _raises(lambda m: call(m, m.to_tensor(True)))
    assert type(real) is type(ours) and real is not None
    assert "tensor(" not in msg
