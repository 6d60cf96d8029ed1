"""Session-11 sweep of paddle.incubate against real Paddle 3.3.1 (CPU): the assertion checks of
the fused layers and fused functionals, fused_layer_norm / fused_rms_norm argument checks and
gradients, swiglu shapes, functional autograd (vjp zeros, Jacobian indexing) and the argument
checks of the quasi-Newton minimizers. Most fused kernels have no CPU kernel in Paddle, so
only what Paddle checks before reaching the kernel is compared for them."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception

warnings.filterwarnings("ignore", category=DeprecationWarning)

_rng = np.random.default_rng(11)
X = _rng.standard_normal((2, 3, 4)).astype("float32")
W = _rng.standard_normal(4).astype("float32")


def _t(P, a, dtype=None):
    return P.to_tensor(a if dtype is None else np.asarray(a).astype(dtype))


def _F(P):
    return P.incubate.nn.functional


# -- fused layers: sizes are checked with assert ---------------------------------------------

@pytest.mark.parametrize("make", [
    lambda P: P.incubate.nn.FusedBiasDropoutResidualLayerNorm(0),
    lambda P: P.incubate.nn.FusedFeedForward(0, 8),
    lambda P: P.incubate.nn.FusedFeedForward(4, -1),
    lambda P: P.incubate.nn.FusedMultiHeadAttention(0, 2),
    lambda P: P.incubate.nn.FusedMultiHeadAttention(8, 0),
    lambda P: P.incubate.nn.FusedMultiHeadAttention(8, 3),
    lambda P: P.incubate.nn.FusedMultiHeadAttention(8, 2, need_weights=True),
    lambda P: P.incubate.nn.FusedTransformerEncoderLayer(0, 2, 16),
    lambda P: P.incubate.nn.FusedTransformerEncoderLayer(8, 3, 16),
    lambda P: P.incubate.nn.FusedTransformerEncoderLayer(8, 2, 0),
])
def test_fused_layers_bad_sizes_raise_assertion_error(make):
    """Paddle's fused layers check their sizes (and need_weights) with assert."""
    same_exception(make)


# -- fused functionals checked in Python before the kernel -----------------------------------

E, H = 8, 2
XQ = _rng.standard_normal((2, 3, E)).astype("float32")
QKV_W = (_rng.standard_normal((3, H, E // H, E)) * 0.3).astype("float32")
LIN_W = (_rng.standard_normal((E, E)) * 0.3).astype("float32")


@pytest.mark.parametrize("kw", [
    {"qkv_weight": QKV_W[:2]},                                        # not [3, ...]
    {"qkv_weight": QKV_W.reshape(3, H * E // H, E)},                  # not 4-D
    {"qkv_weight": QKV_W[..., :4]},                                   # embed_dim mismatch
    {"qkv_weight": QKV_W.reshape(3 * E, E).T.copy(), "transpose_qkv_wb": True},  # no num_heads
    {"qkv_weight": QKV_W.reshape(3 * E, E).copy(), "transpose_qkv_wb": True, "num_heads": H},
])
def test_fused_multi_head_attention_qkv_weight_asserts(kw):
    """fused_multi_head_attention asserts the qkv_weight layout (and num_heads when transposed)."""
    kw = dict(kw)
    w = kw.pop("qkv_weight")
    same_exception(lambda P: _F(P).fused_multi_head_attention(
        _t(P, XQ), _t(P, w), _t(P, LIN_W), dropout_rate=0.0, attn_dropout_rate=0.0, **kw))


def test_fused_multi_head_attention_rank_and_mode_value_errors():
    """A non-3-D x and a bad mode are ValueErrors (mode is checked first)."""
    same_exception(lambda P: _F(P).fused_multi_head_attention(_t(P, XQ[0]), _t(P, QKV_W),
                                                             _t(P, LIN_W)))
    same_exception(lambda P: _F(P).fused_multi_head_attention(_t(P, XQ[0]), _t(P, QKV_W[:2]),
                                                             _t(P, LIN_W), mode="x"))


@pytest.mark.parametrize("kw", [{"ln_scale": W.reshape(2, 2)}, {"ln_scale": W[:3]},
                                {"ln_bias": W.reshape(2, 2)}, {"ln_bias": W[:3]}])
def test_fused_bias_dropout_residual_layer_norm_ln_param_asserts(kw):
    """ln_scale / ln_bias must be 1-D of x's last size (assert)."""
    same_exception(lambda P: _F(P).fused_bias_dropout_residual_layer_norm(
        _t(P, X), _t(P, X), **{k: _t(P, v) for k, v in kw.items()}))


Q = _rng.standard_normal((2, 4, 2, 8)).astype("float32")


@pytest.mark.parametrize("kw", [{"use_neox_rotary_style": False},
                                {"position_ids": np.array([[0, 1, 2, 3]] * 2, "int64")}])
def test_rotary_embedding_without_sin_cos_asserts(kw):
    """Without sin/cos, rotate-half style and position_ids are refused with assert."""
    same_exception(lambda P: _F(P).fused_rotary_position_embedding(
        _t(P, Q), **{k: _t(P, v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}))


# -- fused_layer_norm / fused_rms_norm ---------------------------------------------------------

def test_fused_layer_norm_negative_axis_is_refused():
    """fused_layer_norm takes no negative begin_norm_axis; fused_rms_norm wraps one."""
    same_exception(lambda P: _F(P).fused_layer_norm(_t(P, X), _t(P, W), None, 1e-5,
                                                    begin_norm_axis=-1))
    assert_same(*both(lambda P: _F(P).fused_rms_norm(_t(P, X), _t(P, W), None, 1e-5, -1)[0]),
                rtol=1e-4, atol=1e-5)


def test_fused_layer_norm_outputs_carry_no_gradient():
    """Paddle's fused_layer_norm kernel has no backward: all outputs are stop_gradient."""
    def fn(P):
        w = _t(P, W)
        w.stop_gradient = False
        return [t.stop_gradient for t in _F(P).fused_layer_norm(
            _t(P, X), w, None, 1e-5, begin_norm_axis=2, residual=_t(P, X))]
    ours, theirs = both(fn)
    assert ours == theirs == [True] * 4


@pytest.mark.parametrize("fn", ["fused_rms_norm", "fused_layer_norm"])
@pytest.mark.parametrize("shape", [[1, 4], [4, 1]])
def test_norm_weight_read_by_first_dimension(fn, shape):
    """The norm weight's first dimension must be the normalized size ([4, 1] passes)."""
    def call(P):
        f = getattr(_F(P), fn)
        w = _t(P, W.reshape(shape))
        if fn == "fused_rms_norm":
            return f(_t(P, X), w, None, 1e-5, 2)[0]
        return f(_t(P, X), w, None, 1e-5, begin_norm_axis=2)[0]
    if shape[0] == 4:
        assert_same(*both(call), rtol=1e-4, atol=1e-5)
    else:
        same_exception(call)


@pytest.mark.parametrize("fn", ["fused_rms_norm", "fused_layer_norm"])
@pytest.mark.parametrize("arg", ["norm_weight", "residual"])
def test_norm_args_of_another_dtype(fn, arg):
    """A float64 norm_weight or residual with a float32 x is a ValueError."""
    def call(P):
        kw = {"norm_weight": _t(P, W), "residual": _t(P, X)}
        kw[arg] = _t(P, (W if arg == "norm_weight" else X), "float64")
        f = getattr(_F(P), fn)
        if fn == "fused_rms_norm":
            return f(_t(P, X), kw["norm_weight"], None, 1e-5, 2, residual=kw["residual"])
        return f(_t(P, X), kw["norm_weight"], None, 1e-5, begin_norm_axis=2,
                 residual=kw["residual"])
    same_exception(call)


def test_fused_layer_norm_residual_shape_and_rms_norm_zero_d():
    """A residual of another shape and a 0-D x for fused_rms_norm are ValueErrors."""
    same_exception(lambda P: _F(P).fused_layer_norm(_t(P, X), _t(P, W), None, 1e-5,
                                                    begin_norm_axis=2, residual=_t(P, X[:1])))
    same_exception(lambda P: _F(P).fused_rms_norm(_t(P, np.float32(3.0)), _t(P, W[:1]), None,
                                                  1e-5, 0))


def test_incubate_swiglu_does_not_broadcast():
    """incubate swiglu needs y of x's exact shape."""
    same_exception(lambda P: _F(P).swiglu(_t(P, X), _t(P, X[:1])))
    assert_same(*both(lambda P: _F(P).swiglu(_t(P, X), _t(P, X))))


def test_blha_get_max_len_needs_tensors():
    """blha_get_max_len refuses a Python int batch_size with ValueError."""
    same_exception(lambda P: _F(P).blha_get_max_len(_t(P, np.array([3, 5], "int32")),
                                                   _t(P, np.array([1, 2], "int32")), 2))


# -- incubate.autograd ---------------------------------------------------------------------------

def test_vjp_zero_gradient_of_unused_input_keeps_stop_gradient():
    """vjp fills an unused input's gradient with zeros that keep its stop_gradient (False)."""
    def fn(P):
        ys, gs = P.incubate.autograd.vjp(lambda a, b: a * 2, [_t(P, W), _t(P, W)])
        return [g.stop_gradient for g in gs], gs
    (ours_sg, ours), (theirs_sg, theirs) = both(fn)
    assert ours_sg == theirs_sg == [False, False]
    assert_same(list(ours), list(theirs))


@pytest.mark.parametrize("index", [Ellipsis, (0, Ellipsis), None, [0, 1], np.int64(1), "a"])
def test_jacobian_takes_only_ints_and_slices(index):
    """Jacobian indexing: Ellipsis is an IndexError, anything but ints/slices a TypeError."""
    same_exception(lambda P: P.incubate.autograd.Jacobian(lambda x: x * x, _t(P, W))[index])


@pytest.mark.parametrize("index", [0, -1, (slice(0, 2), 1), (1, 2), slice(None, None, 2)])
def test_jacobian_int_and_slice_indexing(index):
    """Ints and slices index the Jacobian like a tensor."""
    assert_same(*both(lambda P: P.incubate.autograd.Jacobian(lambda x: x * x, _t(P, W))[index]))


# -- optimizer.functional ------------------------------------------------------------------------

def _quad(P):
    return lambda x: P.sum(x * x)


X0 = np.array([1.3, 0.7], "float32")


@pytest.mark.parametrize("name", ["minimize_bfgs", "minimize_lbfgs"])
@pytest.mark.parametrize("x0, kw", [
    (X0, {"dtype": "float64"}),                         # position of another dtype
    (X0.astype("float64"), {}),
    (np.array([1, 2]), {}),                             # integer position: no gradient
])
def test_minimizer_position_dtype(name, x0, kw):
    """The position must be floating point of the given dtype."""
    same_exception(lambda P: getattr(P.incubate.optimizer.functional, name)(
        _quad(P), _t(P, x0), **kw))


@pytest.mark.parametrize("name", ["minimize_bfgs", "minimize_lbfgs"])
def test_minimizer_objective_must_be_single_element(name):
    """An objective returning several elements fails Paddle's single-element assert."""
    same_exception(lambda P: getattr(P.incubate.optimizer.functional, name)(
        lambda x: x * x, _t(P, X0)))


def test_minimizer_bad_position_shape_and_inverse_hessian():
    """A [1, N] position (L-BFGS) and an inverse Hessian of another dtype/size: ValueError."""
    F = lambda P: P.incubate.optimizer.functional  # noqa: E731
    same_exception(lambda P: F(P).minimize_lbfgs(_quad(P), _t(P, X0.reshape(1, 2))))
    same_exception(lambda P: F(P).minimize_bfgs(
        _quad(P), _t(P, X0), initial_inverse_hessian_estimate=P.eye(2, dtype="float64")))
    same_exception(lambda P: F(P).minimize_bfgs(
        _quad(P), _t(P, X0), initial_inverse_hessian_estimate=P.eye(3)))


@pytest.mark.parametrize("name", ["minimize_bfgs", "minimize_lbfgs"])
def test_minimizer_empty_position_converges_at_once(name):
    """A 0-element problem converges at once (3 function calls), with empty results."""
    assert_same(*both(lambda P: list(getattr(P.incubate.optimizer.functional, name)(
        _quad(P), P.to_tensor(np.zeros([0], "float32"))))))

