"""Differential tests against real Paddle: affine_grid's size-1 grids, hsigmoid_loss's custom
trees, npair_loss's argument checks, local_response_norm's size, adaptive_log_softmax_with_loss's
dtypes, and the deprecation warnings of softmax_with_cross_entropy and zeropad2d."""
import types
import warnings

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

_R = np.random.RandomState(0)


def _error(mod, fn):
    """The exception ``fn(mod)`` raises (the test fails when it raises none)."""
    with pytest.raises(Exception) as info:
        fn(mod)
    return info.value


def _same_error(fn, *words):
    """Paddle and pagaie raise one exception type; pagaie's message names the API and ``words``."""
    ref, got = _error(paddle, fn), _error(pagaie, fn)
    assert isinstance(got, type(ref)), (ref, got)
    for w in words:
        assert w in str(got), str(got)
    return got


def _calls_warnings(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = fn()
    return out, [(w.category.__name__, str(w.message)) for w in seen]


# -- affine_grid: a size-1 axis with align_corners, no torch warning ------------------------------
@pytest.mark.parametrize("shape", [[1, 1, 1, 3], [1, 1, 2, 1, 4]])
def test_affine_grid_size_one_no_warning(shape):
    theta = _R.rand(1, len(shape) - 2, len(shape) - 1).astype("float32")
    out, seen = _calls_warnings(lambda: pagaie.nn.functional.affine_grid(pagaie.to_tensor(theta), shape))
    assert seen == []
    ref = paddle.nn.functional.affine_grid(paddle.to_tensor(theta), shape)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), equal_nan=True)


# -- hsigmoid_loss: a custom tree -----------------------------------------------------------------
_X = _R.randn(4, 3).astype("float32")
_W = _R.randn(5, 3).astype("float32")
_LBL = np.array([0, 2, 5, 1])
_PT = np.array([[0, 1, -1], [0, 2, -1], [0, 1, 3], [0, 2, 4]])
_PC = np.array([[1, 0, -1], [0, 1, -1], [1, 1, 0], [0, 0, 1]])


def _hsig(mod, table, code):
    t = mod.to_tensor
    return mod.nn.functional.hsigmoid_loss(t(_X), t(_LBL), 6, t(_W), None,
                                           None if table is None else t(table),
                                           None if code is None else t(code), True)


def test_hsigmoid_custom_tree_matches():
    np.testing.assert_allclose(_hsig(pagaie, _PT, _PC).numpy(), _hsig(paddle, _PT, _PC).numpy(),
                               rtol=1e-6)


@pytest.mark.parametrize("which", ["path_table", "path_code"])
def test_hsigmoid_custom_tree_int64_only(which):
    table, code = (_PT.astype("int32"), _PC) if which == "path_table" else (_PT, _PC.astype("int32"))
    _same_error(lambda m: _hsig(m, table, code), "hsigmoid_loss", which)


# Paddle crashes (segfault) or reads out of bounds for these: pagaie refuses them
@pytest.mark.parametrize("table,code", [(_PT, None), (_PT, _PC[:, :2]), (_PT[:3], _PC[:3]),
                                        (_PT[:, 0], _PC[:, 0])], ids=["no_code", "short_code",
                                                                      "rows", "1d"])
def test_hsigmoid_custom_tree_shapes_refused(table, code):
    with pytest.raises(ValueError, match="hsigmoid_loss: a custom tree"):
        _hsig(pagaie, table, code)


# -- npair_loss -----------------------------------------------------------------------------------
_A = _R.randn(4, 3).astype("float32")
_P = _R.randn(4, 3).astype("float32")
_L = np.array([0.0, 1.0, 0.0, 2.0], "float32")


def _npair(a, p, lab):
    return lambda m: m.nn.functional.npair_loss(m.to_tensor(a), m.to_tensor(p), m.to_tensor(lab))


@pytest.mark.parametrize("a,p,lab,words", [
    (_A[:0], _P[:0], _L[:0], ["anchor"]), (_A, _P[:0], _L, ["positive"]),
    (_A.astype("int64"), _P, _L, ["anchor"]), (_A, _P.astype("float64"), _L, ["positive"]),
    (_A.astype("float64"), _P, _L, ["positive"]), (_A, _P[:, :2], _L, ["shape"]),
    (_A, _P[:2], _L, ["shape"]), (_A[None], _P[None], _L[:1], ["shape"]), (_A[0], _P[0], _L[:1], ["shape"]),
    (_A, _P, _L[:3], ["labels"]), (_A, _P, _L.reshape(2, 2), ["labels"]), (_A[:1], _P[:1], _L[0], ["labels"]),
    (_A.astype("int32"), _P.astype("int32"), _L, ["float32 or float64"]),
    (_A.astype("complex64"), _P, _L, ["float32 or float64"]), (_A > 0, _P, _L, ["bool"]),
], ids=["empty_anchor", "empty_positive", "int_anchor", "f32_f64", "f64_f32", "dims", "rows", "3d",
        "1d", "short_labels", "2x2_labels", "0d_labels", "int_pair", "complex", "bool"])
def test_npair_loss_refused(a, p, lab, words):
    got = _same_error(_npair(a, p, lab), "paddle.nn.functional.npair_loss", *words)
    assert "m1" not in str(got) and "mean()" not in str(got)


def test_npair_loss_no_torch_warning():
    _, seen = _calls_warnings(lambda: _error(pagaie, _npair(_A[None], _P[None], _L[:1])))
    assert seen == []


@pytest.mark.parametrize("pdt", ["float32", "int64"])
def test_npair_loss_values(pdt):
    p = (_P * 3).astype(pdt)
    ours, ref = _npair(_A, p, _L)(pagaie), _npair(_A, p, _L)(paddle)
    assert ours.dtype == pagaie.float32
    np.testing.assert_allclose(ours.numpy(), ref.numpy(), rtol=1e-6)


# -- local_response_norm: size must be an int ----------------------------------------------------
@pytest.mark.parametrize("size", [3.0, True, "3", None])
def test_local_response_norm_size_type(size):
    x = _R.rand(1, 4, 3, 3).astype("float32")
    got = _same_error(lambda m: m.nn.functional.local_response_norm(m.to_tensor(x), size),
                      "paddle.nn.functional.local_response_norm", "'size'")
    assert "pad()" not in str(got) and "pool" not in str(got)


def test_local_response_norm_rank_checked_before_size():
    _same_error(lambda m: m.nn.functional.local_response_norm(m.ones([4, 3]), 3.0), "3-D")


# -- adaptive_log_softmax_with_loss: CPU dtypes -------------------------------------------------
def _alsl(dt, head_dt=None):
    x = _R.randn(5, 4).astype("float32")
    hw, tw = _R.randn(4, 5).astype("float32"), [[_R.randn(4, 2).astype("float32"), _R.randn(2, 3).astype("float32")],
                                                [_R.randn(4, 1).astype("float32"), _R.randn(1, 4).astype("float32")]]

    def call(m):
        t = lambda a, d=dt: m.to_tensor(a).astype(d)  # noqa: E731
        return m.nn.functional.adaptive_log_softmax_with_loss(
            t(x), m.to_tensor([0, 3, 5, 7, 9]), t(hw, head_dt or dt), [[t(a) for a in p] for p in tw], [3, 6, 10])
    return call


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_adaptive_log_softmax_low_floats(dt):
    _same_error(_alsl(dt), "adaptive_log_softmax_with_loss", dt)


def test_adaptive_log_softmax_weight_dtype():
    got = _same_error(_alsl("float32", "float64"), "adaptive_log_softmax_with_loss", "'head_weight'")
    assert "m1" not in str(got)


# -- deprecation warnings -------------------------------------------------------------------------
_DEPRECATED = {
    "softmax_with_cross_entropy": lambda m: m.nn.functional.softmax_with_cross_entropy(
        m.to_tensor([[1.0, 2.0], [0.5, 0.1]]), m.to_tensor([[0], [1]])),
    "zeropad2d": lambda m: m.nn.functional.zeropad2d(m.ones([1, 1, 2, 2]), [1, 0, 0, 1]),
    "diag_embed": lambda m: m.nn.functional.diag_embed(m.to_tensor([1.0, 2.0])),
}


@pytest.mark.parametrize("name", sorted(_DEPRECATED))
def test_deprecated_api_warns(name):
    ours, seen = _calls_warnings(lambda: _DEPRECATED[name](pagaie))
    ref, ref_seen = _calls_warnings(lambda: _DEPRECATED[name](paddle))
    ref_seen = [w for w in ref_seen if w[0] == "VisibleDeprecationWarning"]
    assert seen == ref_seen and len(seen) == 1
    np.testing.assert_allclose(ours.numpy(), ref.numpy(), rtol=1e-6)
    # the docstring starts with the warning paragraph (Paddle's diag_embed here has no docstring)
    ours_doc = getattr(pagaie.nn.functional, name).__doc__.split("\n\n")[1]
    assert "is deprecated" in ours_doc
    if getattr(paddle.nn.functional, name).__doc__:
        assert ours_doc == getattr(paddle.nn.functional, name).__doc__.split("\n\n")[1]


def test_deprecation_leaves_the_other_names_alone():
    # paddle.diag_embed is the same op without the warning, and keeps its own docstring
    _, seen = _calls_warnings(lambda: pagaie.diag_embed(pagaie.to_tensor([1.0, 2.0])))
    assert seen == [] and "Warning" not in pagaie.diag_embed.__doc__
    import importlib
    ext = importlib.import_module("pagaie.nn.functional.extension")
    assert ext.diag_embed is pagaie.nn.functional.diag_embed


def test_parallel_cross_entropy_does_not_warn():
    # Paddle's layer runs its own op, not the deprecated function (its forward, on a bare layer)
    layer = types.SimpleNamespace(ignore_index=-100)
    forward = pagaie.distributed.fleet.meta_parallel.ParallelCrossEntropy.forward
    out, seen = _calls_warnings(lambda: forward(layer, pagaie.zeros([2, 4]), pagaie.to_tensor([[1], [3]])))
    assert seen == [] and out.shape == [2, 1]
