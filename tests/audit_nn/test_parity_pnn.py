"""Differential parity checks (pagaie vs real Paddle 3.3.1) for ``paddle.nn`` behaviours found
by the nn parity sweep: argument validation of nn.utils and initializers, empty batches in
normalisation, the obsolete arguments of ``instance_norm``, ``Layer.float16`` on devices
without float16, the fused RNN's input-size check, and Conv padding modes."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


def _model(fw):
    m = fw.nn.Sequential(fw.nn.Linear(3, 4), fw.nn.ReLU(), fw.nn.Linear(4, 2))
    for i, p in enumerate(m.parameters()):
        p.set_value(np.random.default_rng(i).uniform(-1, 1, p.shape).astype("float32"))
    x = fw.to_tensor(np.random.default_rng(7).standard_normal((5, 3)).astype("float32"))
    (m(x) ** 2).sum().backward()
    return m


# ---- nn.utils -------------------------------------------------------------------------------

@pytest.mark.parametrize("norm_type", [3.0, -1, "inf", 0.5])
def test_clip_grad_norm_rejects_unsupported_norm_type(norm_type):
    same_exception(lambda fw: fw.nn.utils.clip_grad_norm_(_model(fw).parameters(), 1.0, norm_type=norm_type))


@pytest.mark.parametrize("norm_type", [0, 1, 2, float("inf")])
def test_clip_grad_norm_supported_norm_types(norm_type):
    def run(fw):
        m = _model(fw)
        total = fw.nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=norm_type)
        return [total] + [p.grad for p in m.parameters()]
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


def test_clip_grad_value_negative_raises():
    same_exception(lambda fw: fw.nn.utils.clip_grad_value_(_model(fw).parameters(), -0.3))


def test_parameters_to_vector_mixed_dtypes_raises():
    same_exception(lambda fw: fw.nn.utils.parameters_to_vector(
        [fw.create_parameter([2, 2], "float64"), fw.create_parameter([3], "float32")]))


def test_vector_to_parameters_longer_vector_and_rank():
    def run(fw):
        m = _model(fw)
        fw.nn.utils.vector_to_parameters(fw.arange(30, dtype="float32"), m.parameters())
        return list(m.parameters())
    ours, theirs = both(run)
    assert_same(ours, theirs)
    same_exception(lambda fw: fw.nn.utils.vector_to_parameters(fw.arange(20, dtype="float32"),
                                                                _model(fw).parameters()))
    same_exception(lambda fw: fw.nn.utils.vector_to_parameters(fw.ones([2, 13]), _model(fw).parameters()))


@pytest.mark.parametrize("fn", ["weight_norm", "spectral_norm"])
def test_reparametrisation_of_missing_parameter_raises_keyerror(fn):
    same_exception(lambda fw: getattr(fw.nn.utils, fn)(fw.nn.Linear(3, 4), name="nope"))


# ---- initializers ---------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["abc", 3, 2.5])
def test_assign_rejects_non_arrays(value):
    same_exception(lambda fw: fw.nn.initializer.Assign(value))


def test_orthogonal_rejects_1d():
    same_exception(lambda fw: fw.create_parameter([4], "float32",
                                                  default_initializer=fw.nn.initializer.Orthogonal()))


# ---- normalisation --------------------------------------------------------------------------

def _x4():
    return np.random.default_rng(0).standard_normal((4, 3, 5, 2)).astype("float32")


def test_instance_norm_ignores_running_stats():
    def run(fw):
        x = fw.to_tensor(_x4())
        x.stop_gradient = False
        m, v = fw.zeros([3]) + 0.5, fw.ones([3]) * 2
        y = fw.nn.functional.instance_norm(x, m, v, use_input_stats=False)
        (y * y).sum().backward()
        return y, x.grad, m, v
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("build,shape", [
    (lambda fw: fw.nn.BatchNorm2D(3), [0, 3, 2, 2]),
    (lambda fw: fw.nn.BatchNorm1D(3), [0, 3]),
    (lambda fw: fw.nn.BatchNorm(3), [0, 3, 2, 2]),
    (lambda fw: fw.nn.InstanceNorm2D(3), [0, 3, 2, 2]),
    (lambda fw: fw.nn.LayerNorm(2), [0, 3, 2, 2]),
    (lambda fw: fw.nn.GroupNorm(1, 3), [0, 3, 2, 2]),
])
@pytest.mark.parametrize("mode", ["train", "eval"])
def test_norm_layers_accept_empty_batch(build, shape, mode):
    def run(fw):
        layer = build(fw)
        layer.train() if mode == "train" else layer.eval()
        x = fw.zeros(shape)
        x.stop_gradient = False
        y = layer(x)
        y.sum().backward()
        return [y, x.grad] + list(layer.state_dict().values())
    ours, theirs = both(run)
    assert_same(ours, theirs)


# ---- Layer dtype casts ----------------------------------------------------------------------

def test_float16_keeps_dtype_where_unsupported():
    ref = paddle_ref()
    if ref.amp.is_float16_supported() or pagaie.amp.is_float16_supported():
        pytest.skip("the device supports float16")

    def run(fw):
        m = fw.nn.Sequential(fw.nn.Linear(2, 2), fw.nn.BatchNorm1D(2))
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            r = m.float16()
        assert any("float16" in str(w.message) for w in rec)
        assert r is m
        return [(k, str(v.dtype)) for k, v in m.state_dict().items()]
    ours, theirs = both(run)
    assert ours == theirs


def test_bfloat16_excludes_legacy_batchnorm_only():
    def run(fw):
        m = fw.nn.Sequential(fw.nn.Linear(1, 1), fw.nn.BatchNorm(1), fw.nn.BatchNorm1D(1))
        m.bfloat16()
        return [(k, str(v.dtype)) for k, v in m.state_dict().items()]
    ours, theirs = both(run)
    assert ours == theirs


# ---- RNN and conv arguments -----------------------------------------------------------------

@pytest.mark.parametrize("cls", ["SimpleRNN", "GRU", "LSTM"])
def test_rnn_input_size_mismatch_raises(cls):
    same_exception(lambda fw: getattr(fw.nn, cls)(5, 6)(fw.ones([3, 4, 7])))


@pytest.mark.parametrize("padding", ["same", [1, 1], (1, 1)])
def test_conv_padding_mode_needs_int_padding(padding):
    same_exception(lambda fw: fw.nn.Conv2D(4, 6, 3, padding=padding, padding_mode="reflect"))


def test_conv_bad_padding_mode():
    same_exception(lambda fw: fw.nn.Conv2D(4, 6, 3, padding_mode="foo"))


# ---- CTC ------------------------------------------------------------------------------------

_LP = np.random.default_rng(0).standard_normal((6, 2, 5)).astype("float32")
_LB = np.array([[1, 2, 2], [3, 1, 0]], "int32")


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("norm_by_times", [False, True])
def test_ctc_loss_norm_by_times_scales_gradients(reduction, norm_by_times):
    def run(fw):
        x = fw.to_tensor(_LP)
        x.stop_gradient = False
        loss = fw.nn.functional.ctc_loss(x, fw.to_tensor(_LB), fw.to_tensor(np.array([6, 5], "int64")),
                                         fw.to_tensor(np.array([3, 2], "int64")), reduction=reduction,
                                         norm_by_times=norm_by_times)
        (loss * fw.to_tensor(np.array([1.0, 2.0], "float32")) if reduction == "none" else loss).sum().backward()
        return loss, x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_ctc_loss_impossible_alignment_is_zero(reduction):
    def run(fw):
        x = fw.to_tensor(_LP[:2])
        x.stop_gradient = False
        loss = fw.nn.functional.ctc_loss(x, fw.to_tensor(_LB), fw.to_tensor(np.array([2, 2], "int64")),
                                         fw.to_tensor(np.array([3, 2], "int64")), reduction=reduction)
        loss.sum().backward()
        return loss, x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [dict(scale_factor=2), dict(scale_factor=[1.5, 0.5])])
def test_interpolate_area_needs_size(kw):
    x = np.ones([1, 2, 4, 4], "float32")
    same_exception(lambda fw: fw.nn.functional.interpolate(fw.to_tensor(x), mode="area", **kw))
    same_exception(lambda fw: fw.nn.Upsample(mode="area", **kw)(fw.to_tensor(x)))


def test_mha_gen_cache_default_type_is_cache():
    import inspect
    ref = paddle_ref()
    assert inspect.signature(pagaie.nn.MultiHeadAttention.gen_cache).parameters["type"].default \
        is pagaie.nn.MultiHeadAttention.Cache
    assert inspect.signature(ref.nn.MultiHeadAttention.gen_cache).parameters["type"].default \
        is ref.nn.MultiHeadAttention.Cache


@pytest.mark.parametrize("build", [lambda nn: nn.PReLU(), lambda nn: nn.PReLU(3, 0.1), lambda nn: nn.RReLU(),
                                   lambda nn: nn.Linear(2, 3), lambda nn: nn.Conv2D(2, 3, 3)])
def test_repr_and_dtypes_under_float64_default(build):
    def run(fw):
        fw.set_default_dtype("float64")
        try:
            layer = build(fw.nn)
        finally:
            fw.set_default_dtype("float32")
        return repr(layer), [(k, str(v.dtype)) for k, v in layer.state_dict().items()]
    ours, theirs = both(run)
    assert ours == theirs


def test_convert_sync_batchnorm_keeps_data_format():
    def run(fw):
        m = fw.nn.Sequential(fw.nn.Conv2D(2, 3, 1), fw.nn.BatchNorm2D(3),
                             fw.nn.Sequential(fw.nn.BatchNorm1D(3), fw.nn.BatchNorm1D(3, data_format="NLC")),
                             fw.nn.BatchNorm3D(3))
        m = fw.nn.SyncBatchNorm.convert_sync_batchnorm(m)
        return repr(m), list(m.state_dict())
    ours, theirs = both(run)
    assert ours == theirs


def test_deepcopy_of_layer_renames_parameters():
    import copy

    def run(fw):
        fw.utils.unique_name.switch()
        layer = fw.nn.Sequential(fw.nn.Linear(2, 2), fw.nn.BatchNorm1D(2))
        c1, c2 = copy.deepcopy(layer), copy.deepcopy(layer)
        c1[0].weight.set_value(np.zeros([2, 2], "float32"))
        return ([p.name for p in c1.parameters()], [p.name for p in c2.parameters()], list(c1.state_dict()),
                bool(layer[0].weight.abs().sum() > 0), c1[0].weight.stop_gradient)
    ours, theirs = both(run)
    assert ours == theirs


def test_parameters_to_vector_is_a_new_leaf():
    def run(fw):
        m = fw.nn.Linear(2, 2)
        v = fw.nn.utils.parameters_to_vector(m.parameters())
        (v * 2).sum().backward()
        return v.stop_gradient, v.is_leaf, v.grad, m.weight.grad
    ours, theirs = both(run)
    assert_same(list(ours), list(theirs))


@pytest.mark.parametrize("make", [lambda fw: fw.nn.ClipGradByGlobalNorm(0.5), lambda fw: fw.nn.ClipGradByNorm(0.5),
                                  lambda fw: fw.nn.ClipGradByValue(0.1)])
def test_clip_strategy_call_identity_and_grads(make):
    def run(fw):
        m = _model(fw)
        pg = [(p, p.grad) for p in m.parameters()]
        out = make(fw)(pg)
        return ([g is g0 for (_, g), (_, g0) in zip(out, pg)], [g.stop_gradient for _, g in out],
                [g for _, g in out], [p.grad for p in m.parameters()])
    ours, theirs = both(run)
    assert ours[0] == theirs[0] and ours[1] == theirs[1]
    assert_same(ours[2:], theirs[2:], rtol=1e-5, atol=1e-6)


# ---- ignore_index in the mean of cross_entropy / nll_loss -------------------------------------

_P = np.array([[0.2, 0.7], [0.9, 0.1], [0.3, 0.3]], "float32")


@pytest.mark.parametrize("label,ignore_index,weight", [
    ([0, -100, 1], -100, None), ([0, -5, 1], -5, None), ([0, -5, 1], -5, [1.0, 2.0]), ([0, 1, 1], 1, None),
    ([-100, -100, -100], -100, None), ([0, -100, 1], -100, [1.0, 2.0]), ([1, 1, 1], 1, [1.0, 2.0]),
])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("fn", ["cross_entropy", "nll_loss"])
def test_ignore_index_reductions(label, ignore_index, weight, reduction, fn):
    def run(fw):
        x = fw.to_tensor(_P if fn == "cross_entropy" else np.log(_P))
        x.stop_gradient = False
        w = None if weight is None else fw.to_tensor(np.array(weight, "float32"))
        loss = getattr(fw.nn.functional, fn)(x, fw.to_tensor(np.array(label)), ignore_index=ignore_index,
                                             weight=w, reduction=reduction)
        loss.sum().backward()
        return loss, x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


def test_cross_entropy_loss_layer_default_ignore_index_mean():
    ours, theirs = both(lambda fw: fw.nn.CrossEntropyLoss()(fw.to_tensor(_P), fw.to_tensor(np.array([0, -100, 1]))))
    assert_same(ours, theirs)


def test_loss_argument_checks():
    same_exception(lambda fw: fw.nn.functional.cross_entropy(
        fw.to_tensor(_P[:2]), fw.to_tensor(np.array([0, 1])), weight=fw.ones([3])))
    same_exception(lambda fw: fw.nn.functional.kl_div(fw.ones([2, 2]), fw.ones([1, 2])))
    same_exception(lambda fw: fw.nn.functional.kl_div(fw.ones([2, 2]), fw.ones([2])))
    for label in (np.array([0, 1]), np.array([[0, 1], [1, 0]])):
        same_exception(lambda fw: fw.nn.functional.dice_loss(fw.to_tensor(_P[:2]), fw.to_tensor(label)))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_integer_inputs(reduction):
    ours, theirs = both(lambda fw: fw.nn.functional.mse_loss(fw.to_tensor(np.array([1, 2, 4])),
                                                              fw.to_tensor(np.array([2, 2, 2])), reduction=reduction))
    assert_same(ours, theirs)


@pytest.mark.parametrize("shape,pad,fmt", [((2, 3, 4, 5), [1, 2, 3, 4], "NHWC"), ((1, 2, 3, 4, 5), [1, 2, 3, 4, 5, 6], "NCDHW"),
                                           ((2, 3, 2), [5, 3], "NCL")])
def test_circular_pad_wrapping_more_than_once(shape, pad, fmt):
    x = np.random.default_rng(0).standard_normal(shape).astype("float32")

    def run(fw):
        t = fw.to_tensor(x)
        t.stop_gradient = False
        out = fw.nn.functional.pad(t, pad, mode="circular", data_format=fmt)
        (out * fw.arange(out.numel()).reshape(out.shape).astype(out.dtype)).sum().backward()
        return out, t.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("call", [
    lambda fw, x: fw.nn.functional.silu(input=x), lambda fw, x: fw.nn.functional.silu(x=x),
    lambda fw, x: fw.nn.functional.softmax(x, dim=1), lambda fw, x: fw.nn.functional.gelu(input=x),
])
def test_functional_keyword_spellings(call):
    x = np.random.default_rng(0).standard_normal((2, 3)).astype("float32")
    ours, theirs = both(lambda fw: call(fw, fw.to_tensor(x)))
    assert_same(ours, theirs)


def test_silu_inplace_returns_input():
    ours, theirs = both(lambda fw: (lambda x: fw.nn.functional.silu(x, inplace=True) is x)(fw.to_tensor([1.0, -2.0])))
    assert ours is theirs is True
