"""Session-14 sweep of ``paddle.nn`` g..z (activations, norms, pooling, resampling, padding,
shuffles, one_hot, sequence_mask, unfold...) against real Paddle 3.3.1, with the inputs and
argument combinations of Paddle's own API tests and the variations next to them.

Pinned here: the float attributes of the activations are read as Paddle's argument parser
reads them (numpy numbers and 0-D tensors taken, a str, None, list or complex number a
TypeError), gelu's ``approximate`` takes a bool or a str only, and area interpolation pools
the axes after the first two whatever ``data_format`` says.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

_RNG = np.random.default_rng(14)
_X1 = _RNG.uniform(-3, 3, (5,)).astype("float32")
_X4 = _RNG.standard_normal((2, 3, 4, 5)).astype("float32")


def _F(P):
    return P.nn.functional


# -- float attributes of the activations --------------------------------------------------------

_ATTR_APIS = ["hardshrink", "softshrink", "leaky_relu", "thresholded_relu", "celu", "elu",
              "hardtanh", "hardsigmoid", "softplus", "leaky_relu_", "hardtanh_", "elu_"]


@pytest.mark.parametrize("api", _ATTR_APIS)
def test_activation_float_attribute_rejects_non_numbers(api):
    """Paddle's parser wants a double there: TypeError for a str, None, a list or a complex
    number (pagaie read a str through numpy)."""
    for bad in ("1", None, [0.5], 1 + 2j):
        same_exception(lambda P: getattr(_F(P), api)(P.to_tensor(_X1), bad))


@pytest.mark.parametrize("api", ["hardshrink", "leaky_relu", "celu", "hardtanh", "thresholded_relu",
                                 "softplus"])
def test_activation_float_attribute_takes_numpy_and_0d_tensors(api):
    vals = lambda P: [np.float32(0.5), np.int64(1), np.bool_(True), np.array(0.25),  # noqa: E731
                      P.to_tensor(0.5), P.to_tensor(1)]
    assert_same(*both(lambda P: [getattr(_F(P), api)(P.to_tensor(_X1), v) for v in vals(P)]))


@pytest.mark.parametrize("approximate", [1, 1.0, np.bool_(True)], ids=["int", "float", "np_bool"])
def test_gelu_approximate_is_a_bool_or_str(approximate):
    same_exception(lambda P: _F(P).gelu(P.to_tensor(_X1), approximate))


def test_gelu_approximate_none_and_strings():
    assert_same(*both(lambda P: [_F(P).gelu(P.to_tensor(_X1), a) for a in (None, "tanh", "none")]))


# -- interpolate -------------------------------------------------------------------------------

@pytest.mark.parametrize("shape, fmt", [((2, 3, 5), "NWC"), ((2, 3, 4, 5), "NHWC"), ((1, 2, 3, 4, 5), "NDHWC")])
def test_area_interpolation_pools_axes_after_the_first_two(shape, fmt):
    """Paddle's area mode calls adaptive average pooling without data_format: a channel-last
    input is pooled over its axes 2.. as if channel-first (values and gradient)."""
    x = _RNG.standard_normal(shape).astype("float32")

    def run(P):
        t = P.to_tensor(x)
        t.stop_gradient = False
        out = _F(P).interpolate(t, size=[3] * (len(shape) - 2), mode="area", data_format=fmt)
        return [out, P.grad((out * out).sum(), t)[0]]
    assert_same(*both(run))


# -- padding, one_hot, kernels for floating types only ----------------------------------------

def test_zeropad2d_takes_no_int_padding():
    """paddle.nn.functional.zeropad2d hands ``padding`` to pad: an int is a TypeError there
    (the ZeroPad2D layer expands one)."""
    same_exception(lambda P: _F(P).zeropad2d(P.to_tensor(_X4), 1))
    assert_same(*both(lambda P: P.nn.ZeroPad2D(1)(P.to_tensor(_X4))))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16"])
def test_one_hot_takes_int32_and_int64_only(dtype):
    same_exception(lambda P: _F(P).one_hot(P.to_tensor(np.array([1, 2], dtype)), 4))


@pytest.mark.parametrize("call", [
    lambda P: _F(P).temporal_shift(P.to_tensor(np.arange(48).reshape(4, 4, 3, 1).astype("int32")), 2),
    lambda P: _F(P).label_smooth(P.to_tensor(np.eye(3, dtype="int64"))),
], ids=["temporal_shift", "label_smooth"])
def test_float_only_kernels_reject_integers(call):
    same_exception(call)


@pytest.mark.parametrize("groups", [1, 0, -2])
def test_maxout_groups_must_exceed_one(groups):
    """Paddle's maxout checks ``groups > 1`` first (its API test expects a ValueError for 1)."""
    same_exception(lambda P: _F(P).maxout(P.to_tensor(np.ones((2, 4, 1, 1), "float32")), groups))


@pytest.mark.parametrize("pad", [[1, 1, 1, 1], [1, 1, 1, 1, 0, 0, 0, 0]], ids=["pad3d", "pad"])
@pytest.mark.parametrize("value", [None, [1.0], 1 + 1j], ids=["none", "list", "complex"])
def test_pad_value_must_be_a_number(pad, value):
    """None was read as 0 and a list was an AttributeError: Paddle raises TypeError."""
    same_exception(lambda P: _F(P).pad(P.to_tensor(_X4), pad, value=value))


def test_pad_value_numpy_and_tensor():
    assert_same(*both(lambda P: [_F(P).pad(P.to_tensor(_X4), [1, 0, 0, 1], value=v)
                                 for v in (np.float64(2.5), P.to_tensor(-1.0), True)]))


def test_local_response_norm_rejects_empty_axes_after_the_batch():
    same_exception(lambda P: _F(P).local_response_norm(P.zeros([2, 3, 0, 4]), 3))
    assert_same(*both(lambda P: _F(P).local_response_norm(P.zeros([0, 3, 2, 4]), 3)))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "bool"])
def test_sequence_mask_lengths_dtypes(dtype):
    """Paddle's sequence_mask kernels take int32/int64/float32/float64 lengths only."""
    same_exception(lambda P: _F(P).sequence_mask(P.to_tensor(np.array([2, 1]).astype(dtype)), 3))


# -- bool attributes: a bool or None, nothing else ----------------------------------------------

@pytest.mark.parametrize("call", [
    lambda P, v: _F(P).gumbel_softmax(P.to_tensor(_X4), hard=v),
    lambda P, v: _F(P).kl_div(P.to_tensor(_X4), P.to_tensor(_X4), log_target=v),
    lambda P, v: _F(P).max_pool2d(P.to_tensor(_X4), 2, ceil_mode=v),
    lambda P, v: _F(P).lp_pool2d(P.to_tensor(_X4), 2, 2, ceil_mode=v),
], ids=["gumbel_hard", "kl_div_log_target", "max_pool_ceil", "lp_pool_ceil"])
@pytest.mark.parametrize("value", [0, 1, "x"])
def test_bool_attributes_reject_other_types(call, value):
    same_exception(lambda P: call(P, value))


def test_bool_attributes_read_none_as_false():
    assert_same(*both(lambda P: [_F(P).max_pool2d(P.to_tensor(_X4), 3, 2, ceil_mode=None),
                                 _F(P).max_pool1d(P.to_tensor(_X4[0]), 3, 2, ceil_mode=None),
                                 _F(P).lp_pool2d(P.to_tensor(_X4), 2, 3, 2, ceil_mode=None),
                                 _F(P).kl_div(P.to_tensor(_X4), P.to_tensor(_X4), log_target=None)]))


def test_loss_flags_written_in_python_take_any_truth_value():
    """triplet_margin_loss's swap and poisson_nll_loss's full/log_input are Python-level
    flags in Paddle: 0, 1, None or a str work (torch's kernels wanted a bool)."""
    a, b, c = (np.abs(_X4[i, 0]) + 0.1 for i in (0, 1, 0))
    assert_same(*both(lambda P: [
        _F(P).triplet_margin_loss(P.to_tensor(a), P.to_tensor(b), P.to_tensor(c[::-1].copy()), swap=1),
        _F(P).triplet_margin_loss(P.to_tensor(a), P.to_tensor(b), P.to_tensor(c), swap=None),
        _F(P).poisson_nll_loss(P.to_tensor(a), P.to_tensor(b), log_input=0, full="yes"),
        _F(P).poisson_nll_loss(P.to_tensor(a), P.to_tensor(b), full=None)]))


# -- int and float attributes of other nn functionals -----------------------------------------

@pytest.mark.parametrize("call", [
    lambda P: _F(P).group_norm(P.to_tensor(_X4[:, :2]), 2.0),
    lambda P: _F(P).maxout(P.to_tensor(np.ones((2, 4, 1, 1), "float32")), 2, axis=1.0),
    lambda P: _F(P).maxout(P.to_tensor(np.ones((2, 4, 1, 1), "float32")), 2, axis=None),
    lambda P: _F(P).glu(P.to_tensor(np.ones((2, 4), "float32")), 1.0),
    lambda P: _F(P).glu(P.to_tensor(np.ones((2, 4), "float32")), "1"),
    lambda P: _F(P).layer_norm(P.to_tensor(_X4), 5, epsilon="1e-5"),
    lambda P: _F(P).label_smooth(P.to_tensor(np.eye(3, dtype="float32")), epsilon="0.1"),
    lambda P: _F(P).selu(P.to_tensor(_X1), alpha="2"),
], ids=["group_norm_groups_float", "maxout_axis_float", "maxout_axis_none", "glu_axis_float",
        "glu_axis_str", "layer_norm_eps_str", "label_smooth_eps_str", "selu_alpha_str"])
def test_attribute_types(call):
    """Paddle's TypeError for a float int-attribute or a str number (ValueError for glu's
    float axis, from its split); pagaie read them as numbers or raised ValueError."""
    same_exception(call)


@pytest.mark.parametrize("axis", [-1, 0])
def test_log_softmax_clips_shifted_logits_at_minus_64(axis):
    """Paddle's CPU log_softmax clips ``x - max`` at -64: a masked (-inf) or far logit gives
    about -64 - logsumexp, not -inf; the gradient stays ``dy - exp(out) * sum(dy)``."""
    x = np.array([[0.0, -np.inf, 1.0, -80.0], [3.0, 1.0, -1e30, 2.0]], "float32")
    x = x if axis == -1 else x.T.copy()

    def run(P):
        t = P.to_tensor(x)
        t.stop_gradient = False
        out = _F(P).log_softmax(t, axis=axis)
        w = P.to_tensor(np.arange(1, 9, dtype="float32").reshape(x.shape))
        return [out, P.grad((out * w).sum(), t)[0]]
    assert_same(*both(run))


@pytest.mark.parametrize("custom", [False, True])
@pytest.mark.parametrize("num_classes", [1, 0])
def test_hsigmoid_loss_needs_two_classes(custom, num_classes):
    """Paddle checks num_classes >= 2 first, with custom paths too (pagaie computed a loss)."""
    paths = lambda P: dict(path_table=P.to_tensor(np.zeros((4, 2), "int64")),  # noqa: E731
                           path_code=P.to_tensor(np.zeros((4, 2), "int64"))) if custom else {}
    same_exception(lambda P: _F(P).hsigmoid_loss(P.ones([4, 3]), P.to_tensor([[0], [1], [0], [1]]),
                                                 num_classes, P.ones([4, 3]), **paths(P)))


@pytest.mark.parametrize("api", ["relu_", "leaky_relu_", "hardtanh_", "elu_", "thresholded_relu_"])
def test_inplace_functionals_take_no_input_keyword(api):
    """Paddle's in-place activations have no ``input=`` spelling: TypeError (was a KeyError)."""
    same_exception(lambda P: getattr(_F(P), api)(input=P.to_tensor(_X1)))


@pytest.mark.parametrize("output_size", [[4], [5], [1], [2, 3, 5]])
def test_max_unpool1d_output_size(output_size):
    """Paddle's 1-D unpooling checks a one-value output_size as the 2-D ``[L, 1]``, which no
    L passes (ValueError); ``[N, C, L]`` works."""
    def run(P):
        y, m = _F(P).max_pool1d(P.to_tensor(_X4[:, :, 0, :4].copy()), 2, return_mask=True)
        return _F(P).max_unpool1d(y, m, 2, output_size=output_size)
    if len(output_size) == 1:
        same_exception(run)
    else:
        assert_same(*both(run))


@pytest.mark.parametrize("call", [
    lambda P, t: P.nn.LayerNorm(3)(t),
    lambda P, t: _F(P).local_response_norm(t, 3),
    lambda P, t: _F(P).unfold(t.astype("bool"), 2),
    lambda P, t: _F(P).pad(t.astype("bool"), [1, 1, 1, 1]),
    lambda P, t: _F(P).pad(t.astype("uint8"), [1, 1, 1, 1, 0, 0, 0, 0]),
], ids=["LayerNorm", "local_response_norm", "unfold_bool", "pad3d_bool", "pad_uint8"])
def test_integer_inputs_without_kernels(call):
    """Paddle has no such kernels: RuntimeError (pagaie computed, or raised ValueError)."""
    same_exception(lambda P: call(P, P.to_tensor(np.arange(72).reshape(2, 4, 3, 3))))


@pytest.mark.parametrize("call", [
    lambda P, a, b: _F(P).log_loss(a.astype("float64"), b.astype("float64")),
    lambda P, a, b: _F(P).log_loss(a, b.astype("int64")),
    lambda P, a, b: _F(P).log_loss(a.astype("float64"), b),
    lambda P, a, b: _F(P).kl_div(a.astype("int64"), b.astype("int64")),
    lambda P, a, b: _F(P).kl_div(a.astype("int32"), b),
    lambda P, a, b: _F(P).smooth_l1_loss(a.astype("int64"), b.astype("int64")),
], ids=["log_loss_f64", "log_loss_int_label", "log_loss_mixed", "kl_div_int", "kl_div_int_input",
        "smooth_l1_int"])
def test_loss_kernel_dtypes(call):
    """Paddle's log_loss kernel is float32 only (its dtype from the label, a mismatched input
    a ValueError); kldiv_loss and huber_loss have float kernels only."""
    a, b = np.full((4, 1), 0.25, "float32"), np.full((4, 1), 1.0, "float32")
    same_exception(lambda P: call(P, P.to_tensor(a), P.to_tensor(b)))


@pytest.mark.parametrize("call", [
    lambda P, a: _F(P).margin_ranking_loss(a, a, a),
    lambda P, a: _F(P).triplet_margin_loss(a, a, a),
    lambda P, a: _F(P).triplet_margin_loss(a.astype("float32"), a, a.astype("float32")),
], ids=["margin_ranking_int", "triplet_int", "triplet_float_int_mix"])
def test_margin_losses_integer_operands(call):
    """RuntimeError for integer operands (Paddle's relu / p_norm kernels), TypeError for an
    integer/float mix (its type promotion); torch computed them."""
    same_exception(lambda P: call(P, P.to_tensor(np.arange(6).reshape(2, 3))))


@pytest.mark.parametrize("api", ["hardshrink", "swish", "tanhshrink", "gumbel_softmax", "normalize"])
def test_activations_without_complex_kernels(api):
    same_exception(lambda P: getattr(_F(P), api)(P.to_tensor(_X1.astype("complex64"))))


@pytest.mark.parametrize("dtype", ["int16", "bool", "complex64", "int32"])
def test_glu_non_float_inputs(dtype):
    """RuntimeError where Paddle's split or sigmoid has no kernel, TypeError for the rest."""
    same_exception(lambda P: _F(P).glu(P.to_tensor(np.ones((2, 4)).astype(dtype))))
