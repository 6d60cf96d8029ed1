"""Differential tests against real Paddle: paddle.linalg on NaN/Inf input, the inverse family's
"not invertible" rule, cholesky_inverse on a full factor, lu_solve/lu_unpack dtypes, and how the
bool and str arguments of the linalg ops are parsed."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

_RNG = np.random.RandomState(7)
X = _RNG.randn(3, 3)
SPD = X @ X.T + 3 * np.eye(3)
CHOL = np.linalg.cholesky(SPD)
TRI = np.triu(X) + 3 * np.eye(3)


def _run(lib, fn):
    """``('ok', [arrays, dtypes, shapes])`` or ``('err', exception type)``."""
    try:
        out = fn(lib)
    except Exception as exc:  # noqa: BLE001 (the type is what is compared)
        return "err", type(exc)
    outs = out if isinstance(out, (list, tuple)) else [out]
    return "ok", [(o.numpy(), str(o.dtype).split(".")[-1], list(o.shape)) for o in outs]


def _same(fn, outputs=None, rtol=1e-6):
    want, got = _run(paddle, fn), _run(pagaie, fn)
    assert want[0] == got[0], (want, got)
    if want[0] == "err":
        assert issubclass(got[1], want[1]), (want, got)
        return
    pick = range(len(want[1])) if outputs is None else outputs
    assert len(want[1]) == len(got[1])
    for i in pick:
        (wa, wd, ws), (ga, gd, gs) = want[1][i], got[1][i]
        assert (wd, ws) == (gd, gs), (i, wd, ws, gd, gs)
        np.testing.assert_allclose(ga, wa, rtol=rtol, atol=1e-8, equal_nan=True)


def _t(lib, a):
    return lib.to_tensor(a)


@pytest.mark.parametrize("api", ["eigh", "eigvalsh"])
def test_symmetric_eigen_not_converging_is_runtime_error(api):
    nan = np.full((2, 3, 3), np.nan)
    _same(lambda L: getattr(L.linalg, api)(_t(L, nan)))


@pytest.mark.parametrize("driver", ["gels", "gelsy"])
@pytest.mark.parametrize("where", ["x", "y"])
def test_lstsq_nan_input_gives_nan(driver, where):
    a, b = _RNG.rand(4, 3), _RNG.rand(4, 2)
    (a if where == "x" else b)[1, 1] = np.nan
    # the rank Paddle reports for NaN input is meaningless: compare solution and residuals
    _same(lambda L: L.linalg.lstsq(_t(L, a), _t(L, b), driver=driver), outputs=[0, 1])


_INVERSES = {
    "inv": lambda L, a: L.linalg.inv(_t(L, a)),
    "solve": lambda L, a: L.linalg.solve(_t(L, a), _t(L, X)),
    "solve_right": lambda L, a: L.linalg.solve(_t(L, a), _t(L, X), left=False),
    "matrix_power": lambda L, a: L.linalg.matrix_power(_t(L, a), -2),
    "cond": lambda L, a: L.linalg.cond(_t(L, a), p="fro"),
    "cholesky_inverse": lambda L, a: L.linalg.cholesky_inverse(_t(L, np.tril(CHOL) + 0 * a)),
}


@pytest.mark.parametrize("api", sorted(_INVERSES))
@pytest.mark.parametrize("pos", [(0, 0), (1, 2), (2, 0)])
def test_inverse_family_nan_first_pivot_only(api, pos):
    a = X.copy()
    a[pos] = np.nan
    _same(lambda L: _INVERSES[api](L, a))


def test_inverse_batch_with_nan_corner_raises():
    b = np.stack([X, X])
    b[1, 0, 0] = np.nan
    _same(lambda L: L.linalg.inv(_t(L, b)))


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_uses_whole_factor(upper):
    junk = 0.1 * _RNG.randn(3, 3)
    f = (CHOL.T + np.tril(junk, -1)) if upper else (CHOL + np.triu(junk, 1))
    _same(lambda L: L.linalg.cholesky_inverse(_t(L, f), upper=upper))
    g = f.copy()
    g[(2, 0) if upper else (0, 2)] = np.nan  # reaches the product's corner: not invertible
    _same(lambda L: L.linalg.cholesky_inverse(_t(L, g), upper=upper))


@pytest.mark.parametrize("case", ["b_int", "b_f16", "b_f32", "lu_int"])
def test_lu_solve_dtypes(case):
    def fn(L):
        lu, piv = L.linalg.lu(_t(L, X))
        b = {"b_int": np.arange(6).reshape(3, 2), "b_f16": X.astype("float16"),
             "b_f32": X.astype("float32")}.get(case, X)
        if case == "lu_int":
            lu = _t(L, np.arange(9).reshape(3, 3))
        return L.linalg.lu_solve(_t(L, b), lu, piv)
    _same(fn)


@pytest.mark.parametrize("dtype", ["int64", "bool", "float16", "float32"])
def test_lu_unpack_dtypes(dtype):
    _same(lambda L: L.linalg.lu_unpack(_t(L, (X > 0) if dtype == "bool" else X.astype(dtype)),
                                       L.linalg.lu(_t(L, X))[1]))


_BOOL_ARGS = {
    "cholesky.upper": lambda L, v: L.linalg.cholesky(_t(L, SPD), upper=v),
    "cholesky_solve.upper": lambda L, v: L.linalg.cholesky_solve(_t(L, X), _t(L, CHOL), upper=v),
    "triangular_solve.upper": lambda L, v: L.linalg.triangular_solve(_t(L, TRI), _t(L, X), upper=v),
    "triangular_solve.transpose": lambda L, v: L.linalg.triangular_solve(_t(L, TRI), _t(L, X),
                                                                         transpose=v),
    "triangular_solve.unitriangular": lambda L, v: L.linalg.triangular_solve(_t(L, TRI), _t(L, X),
                                                                             unitriangular=v),
    "svd.full_matrices": lambda L, v: L.linalg.svd(_t(L, X), full_matrices=v)[1],
    "matrix_rank.hermitian": lambda L, v: L.linalg.matrix_rank(_t(L, SPD), hermitian=v),
    "lu.pivot": lambda L, v: L.linalg.lu(_t(L, X), pivot=v),
    "lu_unpack.unpack_ludata": lambda L, v: L.linalg.lu_unpack(*L.linalg.lu(_t(L, X)), unpack_ludata=v),
    "norm.keepdim": lambda L, v: L.linalg.norm(_t(L, X), keepdim=v),
    "vector_norm.keepdim": lambda L, v: L.linalg.vector_norm(_t(L, X), keepdim=v),
    "matrix_norm.keepdim": lambda L, v: L.linalg.matrix_norm(_t(L, X), keepdim=v),
    "matmul.transpose_x": lambda L, v: L.matmul(_t(L, X), _t(L, TRI), transpose_x=v),
    "matmul.transpose_y": lambda L, v: L.matmul(_t(L, X), _t(L, TRI), transpose_y=v),
    "solve.left": lambda L, v: L.linalg.solve(_t(L, X), _t(L, TRI), left=v),
}


@pytest.mark.parametrize("arg", sorted(_BOOL_ARGS))
@pytest.mark.parametrize("value", [1, None, np.bool_(True), "a"], ids=["int", "None", "np_bool", "str"])
def test_linalg_bool_arguments(arg, value):
    if arg == "lu.pivot" and value is None:
        pytest.skip("factorisation without pivoting has no CPU kernel")
    _same(lambda L: _BOOL_ARGS[arg](L, value))


@pytest.mark.parametrize("mode", [0, None, True])
def test_qr_mode_must_be_str(mode):
    _same(lambda L: L.linalg.qr(_t(L, X), mode=mode))


_BATCH_MISMATCH = {
    "solve": lambda L: L.linalg.solve(_t(L, np.stack([X] * 2)), _t(L, np.ones((3, 3, 2)))),
    "cholesky_solve": lambda L: L.linalg.cholesky_solve(_t(L, np.ones((2, 3, 2))),
                                                        _t(L, np.stack([CHOL] * 3))),
    "triangular_solve": lambda L: L.linalg.triangular_solve(_t(L, np.stack([TRI] * 2)),
                                                            _t(L, np.ones((3, 3, 2)))),
    "solve_broadcast": lambda L: L.linalg.solve(_t(L, np.stack([X] * 2)), _t(L, np.ones((1, 3, 2)))),
    "solve_vectors": lambda L: L.linalg.solve(_t(L, np.stack([X] * 2)), _t(L, np.ones((2, 3)))),
}


@pytest.mark.parametrize("case", sorted(_BATCH_MISMATCH))
def test_solver_batch_mismatch_is_runtime_error(case):
    _same(_BATCH_MISMATCH[case])


def test_linalg_error_message_has_no_torch_prefix():
    with pytest.raises(ValueError) as info:
        pagaie.linalg.solve(pagaie.zeros([3, 3], "float64"), pagaie.ones([3, 1], "float64"))
    assert str(info.value).startswith("paddle.linalg.solve: ") and "linalg.solve: " not in \
        str(info.value)[len("paddle.linalg.solve: "):]
    with pytest.raises(ValueError):
        paddle.linalg.solve(paddle.zeros([3, 3], "float64"), paddle.ones([3, 1], "float64"))


@pytest.mark.parametrize("call", ["norm", "norm_axis", "norm_matrix", "vector_norm", "norm_float"])
@pytest.mark.parametrize("p", [np.int64(2), np.float32(1)], ids=["np_int64", "np_float32"])
def test_norm_numpy_scalar_order(call, p):
    fns = {"norm": lambda L: L.linalg.norm(_t(L, X), p=p),
           "norm_axis": lambda L: L.linalg.norm(_t(L, X), p=p, axis=1),
           "norm_matrix": lambda L: L.linalg.norm(_t(L, X), p=p, axis=[0, 1]),
           "vector_norm": lambda L: L.linalg.vector_norm(_t(L, X), p=p),
           "norm_float": lambda L: L.linalg.norm(_t(L, X), p=np.float64(p))}
    _same(fns[call])


@pytest.mark.parametrize("arg", ["fweights", "aweights"])
def test_cov_weights_must_be_tensors(arg):
    w = np.array([1, 2, 1, 3, 1]) if arg == "fweights" else np.array([0.1, 0.2, 0.3, 0.4, 0.5])
    _same(lambda L: L.linalg.cov(_t(L, _RNG.randn(3, 5)), **{arg: w}))


@pytest.mark.parametrize("kind", ["tuple", "list", "short_tuple"])
def test_svd_out_must_be_tuple_of_three(kind):
    def fn(L):
        outs = [L.zeros([3, 3], "float64"), L.zeros([3], "float64"), L.zeros([3, 3], "float64")]
        out = outs[:2] if kind == "short_tuple" else outs
        L.linalg.svd(_t(L, np.eye(3)), out=list(out) if kind == "list" else tuple(out))
        return outs
    _same(fn)


_AXIS_ENTRIES = {
    "vector_norm_floats": lambda L, x: L.linalg.vector_norm(x, axis=[0.0, 1.0]),
    "norm_floats": lambda L, x: L.linalg.norm(x, axis=[0.0, 1.0, 2.0]),
    "norm_float_tuple": lambda L, x: L.linalg.norm(x, axis=(0.0, 1.0)),
    "matrix_norm_bool": lambda L, x: L.linalg.matrix_norm(x, axis=[True, 2]),
    "matrix_norm_numpy_ints": lambda L, x: L.linalg.matrix_norm(x, axis=[np.int64(0), 1]),
    "diagonal_float_offset": lambda L, x: L.linalg.diagonal(x, offset=1.0),
    "diagonal_bool_offset": lambda L, x: L.linalg.diagonal(x, offset=True),
    "diagonal_numpy_offset": lambda L, x: L.linalg.diagonal(x, offset=np.int64(1)),
}


@pytest.mark.parametrize("case", sorted(_AXIS_ENTRIES))
def test_axis_and_offset_entries_are_ints(case):
    data = _RNG.rand(2, 3, 4)
    _same(lambda L: _AXIS_ENTRIES[case](L, _t(L, data)))
