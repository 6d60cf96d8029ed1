"""Parity with real Paddle: search, sort, scatter and set ops with their less-used arguments
(isin on bool/complex, clip's bound types, median's and the indexing ops' ``out=``,
searchsorted's ``side``, bincount's static length, as_strided's argument check)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

LIBS = [paddle, pagaie]
X = np.array([[3.0, 1.0, 2.0, 1.0], [5.0, 4.0, 5.0, 0.0], [2.0, 2.0, 3.0, 3.0]], "float32")


def _both(fn):
    return [fn(lib) for lib in LIBS]


def _np(t):
    return t.numpy(), str(t.dtype).split(".")[-1], list(t.shape)


def _same(p, g):
    (pv, pd, ps), (gv, gd, gs) = _np(p), _np(g)
    assert (pd, ps) == (gd, gs)
    np.testing.assert_allclose(gv, pv, rtol=1e-6)


# ---- isin: bool and complex inputs ---------------------------------------------------

@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("x, test_x", [
    ([True, False, True], [True]),
    ([True, False], [False, False]),
    (np.array([1 + 1j, 2, 3j], "complex64"), np.array([2, 3j], "complex64")),
])
def test_isin_bool_and_complex(x, test_x, invert):
    p, g = _both(lambda m: m.isin(m.to_tensor(x), m.to_tensor(test_x), invert=invert))
    _same(p, g)


# ---- clip: bound types -------------------------------------------------------------------

@pytest.mark.parametrize("bound", [np.float32(1.5), np.float16(2.5), np.float64(1.5), 1.5])
@pytest.mark.parametrize("arg", ["min", "max"])
def test_clip_numpy_float_bound_of_integer_tensor(bound, arg):
    p, g = _both(lambda m: m.clip(m.to_tensor(np.array([1, 5], "int32")), **{arg: bound}))
    _same(p, g)


@pytest.mark.parametrize("bound", [[1.0], (1,)])
def test_clip_bound_of_wrong_type_is_type_error(bound):
    for lib in LIBS:
        with pytest.raises(TypeError):
            lib.clip(lib.to_tensor(X), bound)
    with pytest.raises(TypeError, match="paddle.clip: 'max'"):
        pagaie.clip(pagaie.to_tensor(X), max="a")   # (Paddle ignores a str bound)


# ---- median(out=) ------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["avg", "min"])
@pytest.mark.parametrize("axis", [1, None])
def test_median_out_tuple(mode, axis):
    def run(m):
        vals, idx = m.zeros([1]), m.zeros([1], "int64")
        r = m.median(m.to_tensor(X), axis, mode=mode, out=(vals, idx))
        got = list(r) if isinstance(r, tuple) else [r]
        return got + [vals] + ([idx] if mode == "min" and axis is not None else [])
    for p, g in zip(*_both(run)):
        _same(p, g)


@pytest.mark.parametrize("out", ["tensor", "list"])
def test_median_out_not_a_pair_is_value_error(out):
    for lib in LIBS:
        o = lib.zeros([3]) if out == "tensor" else [lib.zeros([3]), lib.zeros([3], "int64")]
        with pytest.raises(ValueError):
            lib.median(lib.to_tensor(X), 1, out=o)


# ---- out= of the indexing ops: the result's shape and dtype, and its gradient -------------

_OUT_OPS = {
    "where": lambda m, t, o: m.where(t > 2, t, -t, out=o),
    "gather": lambda m, t, o: m.gather(t, m.to_tensor(np.array([0, 2])), out=o),
    "index_select": lambda m, t, o: m.index_select(t, m.to_tensor(np.array([0, 2])), axis=1, out=o),
    "take_along_axis": lambda m, t, o: m.take_along_axis(
        t, m.to_tensor(np.array([[0, 1], [2, 0], [1, 1]])), 1, out=o),
    "masked_select": lambda m, t, o: m.masked_select(t, t > 2, out=o),
    "scatter": lambda m, t, o: m.scatter(t, m.to_tensor(np.array([0])), t[:1] * 2, out=o),
    "index_add": lambda m, t, o: m.index_add(t, m.to_tensor(np.array([0])), 0, t[:1] * 2, out=o),
}


@pytest.mark.parametrize("out", [([3, 4], "float32"), ([1], "float64"), ([3, 4], "int64")])
@pytest.mark.parametrize("op", sorted(_OUT_OPS))
def test_out_takes_the_result_shape_and_dtype(op, out):
    def run(m):
        o = m.zeros(*out)
        r = _OUT_OPS[op](m, m.to_tensor(X), o)
        return r, o
    (pr, po), (gr, go) = _both(run)
    _same(pr, gr)
    _same(po, go)


@pytest.mark.parametrize("op", ["gather", "scatter", "where"])
def test_out_carries_the_gradient(op):
    def run(m):
        t = m.to_tensor(X, stop_gradient=False)
        o = m.zeros([1])
        _OUT_OPS[op](m, t, o)
        (o * 2).sum().backward()
        return o.stop_gradient, t.grad.numpy()
    (ps, pg), (gs, gg) = _both(run)
    assert ps == gs is False
    np.testing.assert_allclose(gg, pg)


@pytest.mark.parametrize("op", ["gather", "scatter", "index_add", "clip"])
def test_out_tuple_is_value_error(op):
    fn = _OUT_OPS.get(op, lambda m, t, o: m.clip(t, 1.0, 2.0, out=o))
    with pytest.raises(ValueError, match=f"paddle.{op}: 'out'"):
        fn(pagaie, pagaie.to_tensor(X), (pagaie.zeros([3, 4]),))
    if op in ("gather", "scatter"):   # (Paddle ignores a tuple in the others)
        with pytest.raises(ValueError):
            fn(paddle, paddle.to_tensor(X), (paddle.zeros([3, 4]),))


# ---- searchsorted(side=) -------------------------------------------------------------------

def test_searchsorted_side_left_with_right_true_is_an_error():
    # Paddle documents this as an error (its 3.3.1 lets ``right`` win silently)
    seq, v = pagaie.to_tensor([1.0, 2.0, 3.0]), pagaie.to_tensor([2.0])
    with pytest.raises(ValueError, match="side"):
        pagaie.searchsorted(seq, v, right=True, side="left")
    p, g = _both(lambda m: m.searchsorted(m.to_tensor([1.0, 2.0, 3.0]), m.to_tensor([2.0]),
                                          right=False, side="right"))
    _same(p, g)


# ---- bincount in a static program --------------------------------------------------------

@pytest.mark.parametrize("weights", [None, "float32", "int64"])
def test_bincount_static_length_is_unknown(weights):
    def run(m):
        m.enable_static()
        try:
            main, start = m.static.Program(), m.static.Program()
            with m.static.program_guard(main, start):
                x = m.static.data("x", [3], "int64")
                w = None if weights is None else m.static.data("w", [3], weights)
                out = m.bincount(x, w, minlength=5)
                feed = {"x": np.array([1, 7, 2], "int64")}
                if weights is not None:
                    feed["w"] = np.array([1, 2, 3], weights)
                (r,) = m.static.Executor().run(main, feed=feed, fetch_list=[out])
            return list(out.shape), np.asarray(r)
        finally:
            m.disable_static()
    (ps, pr), (gs, gr) = _both(run)
    assert ps == gs == [-1]
    assert pr.dtype == gr.dtype
    np.testing.assert_allclose(gr, pr)


# ---- as_strided -------------------------------------------------------------------------

def test_as_strided_shape_and_stride_lengths_must_match():
    # (Paddle reads past the given strides and returns made-up data)
    x = pagaie.arange(24, dtype="float32")
    with pytest.raises(ValueError, match="same length"):
        pagaie.as_strided(x, [3, 2], [4])
    p, g = _both(lambda m: m.as_strided(m.arange(24, dtype="float32"), [3, 2], [4, 1], 8))
    _same(p, g)


# ---- where with numpy scalars ------------------------------------------------------------

def _same_or_refused(p, g):
    """Both results equal, or both the same refusal (its exception name)."""
    if isinstance(p, str):
        assert g == p
    else:
        _same(p, g)


@pytest.mark.parametrize("scalar", [np.float64(1.5), np.float32(1.5), np.int64(3), np.int32(3),
                                    np.complex64(1j), np.bool_(True)])
@pytest.mark.parametrize("other", ["tensor", 0.5, 0])
def test_where_numpy_scalar_keeps_its_dtype(scalar, other):
    def run(m):
        o = m.to_tensor([1.0, 2.0, 3.0]) if other == "tensor" else other
        try:
            return m.where(m.to_tensor([True, False, True]), scalar, o)
        except TypeError:   # int and float operands: type promotion refuses them
            return "TypeError"
    _same_or_refused(*_both(run))


# ---- integer arguments: numpy integers count, floats and bools do not ----------------------

@pytest.mark.parametrize("index", [1, np.int64(1), -1, 1.0, 1.5, True, "1", None])
def test_select_scatter_index_type(index):
    def run(m):
        try:
            return m.select_scatter(m.zeros([3, 4]), m.ones([4]), 0, index)
        except TypeError:
            return "TypeError"
    _same_or_refused(*_both(run))


@pytest.mark.parametrize("n", [np.int64(2), np.int32(1)])
def test_diff_numpy_integer_n(n):
    p, g = _both(lambda m: m.diff(m.to_tensor(np.array([1.0, 4.0, 9.0, 16.0])), n=n))
    _same(p, g)


# ---- diagonal_scatter in a static program with an unknown size ---------------------------

def test_diagonal_scatter_static_keeps_x_shape():
    def run(m):
        m.enable_static()
        try:
            main, start = m.static.Program(), m.static.Program()
            with m.static.program_guard(main, start):
                x = m.static.data("x", [-1, 4], "float32")
                y = m.static.data("y", [-1], "float32")
                out = m.diagonal_scatter(x, y)
                (r,) = m.static.Executor().run(
                    main, feed={"x": X, "y": np.ones([3], "float32")}, fetch_list=[out])
            return list(out.shape), np.asarray(r)
        finally:
            m.disable_static()
    (ps, pr), (gs, gr) = _both(run)
    assert ps == gs == [-1, 4]
    np.testing.assert_allclose(gr, pr)


# ---- static programs with unknown sizes: the sizes Paddle's programs keep ------------------

def _static_shapes(m, build, feeds):
    m.enable_static()
    try:
        main, start = m.static.Program(), m.static.Program()
        with m.static.program_guard(main, start):
            values = [m.static.data(f"i{k}", shape, str(a.dtype)) for k, (a, shape) in enumerate(feeds)]
            out = build(m, *values)
            r = m.static.Executor().run(main, feed={f"i{k}": a for k, (a, _) in enumerate(feeds)},
                                        fetch_list=[out])[0]
        return list(out.shape), np.asarray(r)
    finally:
        m.disable_static()


_IDX = np.array([[0], [1], [2]], "int64")


@pytest.mark.parametrize("case", ["unflatten", "scatter", "take_along_axis", "take_along_axis_nb"])
def test_static_unknown_sizes(case):
    build, feeds = {
        "unflatten": (lambda m, x: m.unflatten(x, 1, [2, 2]), [(X, [3, -1])]),
        "scatter": (lambda m, x, i, u: m.scatter(x, i, u),
                    [(X, [3, -1]), (np.array([0, 1]), [-1]), (X[:2], [-1, 4])]),
        "take_along_axis": (lambda m, x, i: m.take_along_axis(x, i, 1), [(X, [3, -1]), (_IDX, [-1, 1])]),
        "take_along_axis_nb": (lambda m, x, i: m.take_along_axis(x, i, 1, broadcast=False),
                               [(X, [-1, 4]), (_IDX, [-1, 1])]),
    }[case]
    (ps, pr), (gs, gr) = _both(lambda m: _static_shapes(m, build, feeds))
    assert gs == ps
    np.testing.assert_allclose(gr, pr)


# ---- argument checks in Paddle's terms (no torch parser words) ----------------------------

_BAD_ARGS = {
    "vander_n_float": (lambda m: m.vander(m.to_tensor([1.0, 2.0]), n=2.0), TypeError, "paddle.vander: 'n'"),
    "diag_embed_offset_np_float": (lambda m: m.diag_embed(m.ones([2, 3]), offset=np.float32(1)),
                                   TypeError, "paddle.diag_embed: 'offset'"),
    "diag_embed_dim1_none": (lambda m: m.diag_embed(m.ones([2, 3]), dim1=None), TypeError,
                             "paddle.diag_embed: 'dim1'"),
    "topk_k_list": (lambda m: m.topk(m.ones([2, 3]), [2]), TypeError, "paddle.topk: 'k'"),
    "topk_k_none": (lambda m: m.topk(m.ones([2, 3]), None), TypeError, "paddle.topk: 'k'"),
    "index_put_no_indices": (lambda m: m.index_put(m.ones([2, 3]), (), m.ones([1])), ValueError,
                             "paddle.index_put: argument 'indices'"),
}


@pytest.mark.parametrize("case", sorted(_BAD_ARGS))
def test_bad_argument_errors(case):
    fn, exc, words = _BAD_ARGS[case]
    with pytest.raises(exc):
        fn(paddle)
    with pytest.raises(exc, match=words):
        fn(pagaie)


@pytest.mark.parametrize("call", [
    lambda m: m.topk(m.to_tensor(X), np.array([2])),
    lambda m: m.vander(m.to_tensor([1.0, 2.0, 3.0]), n=np.int64(2)),
    lambda m: m.diag_embed(m.to_tensor(X), offset=np.int64(1), dim1=np.int32(0), dim2=2),
    lambda m: m.roll(m.to_tensor(X), np.array([1])),
    lambda m: m.roll(m.to_tensor(X), np.array([1, 2]), [0, 1]),
])
def test_numpy_integer_arguments(call):
    p, g = _both(call)
    p, g = (p[0], g[0]) if isinstance(p, tuple) else (p, g)
    _same(p, g)
