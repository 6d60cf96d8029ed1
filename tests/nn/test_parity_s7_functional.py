"""Session-7 sweep of paddle.nn.functional and the torch-style alias layers against real Paddle
3.3.1: pooling, padding, in-place activations, convolution aliases, special losses, resampling.

Each test compares values, dtypes, shapes and (where differentiable) gradients, or the
exception type raised for bad input."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both_same, paddle_ref, same_exception

RNG = np.random.default_rng(7)
X1 = RNG.standard_normal((2, 3, 9)).astype("float32")
X2 = RNG.standard_normal((2, 3, 7, 8)).astype("float32")
X3 = RNG.standard_normal((1, 2, 5, 6, 7)).astype("float32")
XS = {1: X1, 2: X2, 3: X3}
LAST = {1: "NLC", 2: "NHWC", 3: "NDHWC"}


@pytest.fixture(scope="module", autouse=True)
def _paddle():
    paddle_ref()


def _t(fw, a, grad=False):
    t = fw.to_tensor(a)
    t.stop_gradient = not grad
    return t


def _with_grad(fw, x, fn):
    """``fn(fw, t)`` and the gradient of the sum of its (first) output squared w.r.t. ``t``."""
    t = _t(fw, x, grad=True)
    out = fn(fw, t)
    first = out[0] if isinstance(out, (list, tuple)) else out
    return [out, fw.grad((first * first).sum(), t)]


_same = both_same


# ---------------------------------------------------------------- pooling

@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("output_size", [3, 1, 5, "none"])
@pytest.mark.parametrize("return_mask", [False, True])
def test_adaptive_max_pool(n, output_size, return_mask):
    size = ([None, 3, 2][:n] if n > 1 else 4) if output_size == "none" else output_size
    fn = f"adaptive_max_pool{n}d"
    _same(lambda fw: _with_grad(fw, XS[n], lambda fw, t: getattr(fw.nn.functional, fn)(
        t, size, return_mask=return_mask)))


@pytest.mark.parametrize("cls", ["AdaptiveMaxPool1D", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
                                 "AdaptiveMaxPool3D", "AdaptiveMaxPool3d"])
def test_adaptive_max_pool_layers(cls):
    n = int(cls[-2])
    _same(lambda fw: [getattr(fw.nn, cls)(3, return_mask=True)(_t(fw, XS[n])),
                      getattr(fw.nn, cls)(2, True)(_t(fw, XS[n])),
                      repr(getattr(fw.nn, cls)(3, return_mask=True))])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_adaptive_max_pool_rejects_wrong_rank(n):
    same_exception(lambda fw: getattr(fw.nn.functional, f"adaptive_max_pool{n}d")(
        _t(fw, XS[n][0]), 2))


def test_adaptive_max_pool_negative_output_size_is_refused():
    # Paddle fails allocating the result (PreconditionNotMet, a RuntimeError) or returns a -1
    # sized tensor: pagaie refuses cleanly with the RuntimeError
    for n in (1, 2, 3):
        with pytest.raises(RuntimeError, match="output_size"):
            getattr(pagaie.nn.functional, f"adaptive_max_pool{n}d")(_t(pagaie, XS[n]), -1)


@pytest.mark.parametrize("args", [
    (2, None, 0, False, True, None, "NCDHW"), (3, 2, 1, True, True, None, "NCDHW"),
    (3, 2, 1, True, False, None, "NCDHW"), (3, 2, 1, False, False, 5, "NCDHW"),
    (2, 1, "SAME", False, True, None, "NCDHW"), (2, 1, "VALID", False, True, None, "NCDHW"),
    ((2, 3, 2), (1, 2, 1), [1, 0, 1], False, True, None, "NCDHW"),
    (3, 2, [1, 1, 0, 1, 1, 0], True, True, None, "NCDHW"),
    (3, 2, 1, True, True, None, "NDHWC"), (3, 2, "SAME", True, False, None, "NDHWC"),
    (2, 2, [[0, 0], [0, 0], [1, 1], [0, 1], [1, 0]], False, True, None, "NCDHW"),
])
def test_avg_pool3d(args):
    _same(lambda fw: _with_grad(fw, X3, lambda fw, t: fw.nn.functional.avg_pool3d(t, *args)))
    _same(lambda fw: [fw.nn.AvgPool3D(*args)(_t(fw, X3)), repr(fw.nn.AvgPool3D(*args))])


def test_avg_pool3d_input_smaller_than_kernel():
    # a depth of 2 under a kernel of 3 (padding 1): Paddle pools; torch's 3-D kernel refuses
    x = RNG.standard_normal((1, 2, 2, 5, 5)).astype("float32")
    _same(lambda fw: _with_grad(fw, x, lambda fw, t: fw.nn.functional.avg_pool3d(t, 3, 1, 1)))


@pytest.mark.parametrize("n", [2, 3])
def test_avg_pool_zero_divisor_gives_inf(n):
    _same(lambda fw: [getattr(fw.nn.functional, f"avg_pool{n}d")(_t(fw, XS[n]), 2, divisor_override=0),
                      getattr(fw.nn.functional, f"avg_pool{n}d")(_t(fw, XS[n]), 3, 2, 1, divisor_override=0),
                      getattr(fw.nn.functional, f"avg_pool{n}d")(_t(fw, XS[n]), 3, 2, 1, divisor_override=2.5)])


@pytest.mark.parametrize("cls", ["LPPool1d", "LPPool2d", "LPPool1D", "LPPool2D"])
@pytest.mark.parametrize("args", [(2, 3), (1, 2, 1, 0, True), (3.0, 3, 2, 1, True),
                                  (float("inf"), 2, 2), (2, 3, 2, "SAME"), (2, 3, 2, "VALID")])
def test_lp_pool_layers(cls, args):
    n = int(cls[-2])
    x = np.abs(XS[n])
    _same(lambda fw: _with_grad(fw, x, lambda fw, t: getattr(fw.nn, cls)(*args)(t)), rtol=1e-4, atol=1e-5)
    _same(lambda fw: repr(getattr(fw.nn, cls)(*args)))


@pytest.mark.parametrize("cls", ["LPPool1d", "LPPool2d"])
def test_lp_pool_channel_last_and_zero_norm(cls):
    n = int(cls[-2])
    x = np.abs(XS[n])
    _same(lambda fw: [getattr(fw.nn, cls)(2, 2, data_format=LAST[n])(_t(fw, x)),
                      repr(getattr(fw.nn, cls)(2, 2, data_format=LAST[n]))])
    same_exception(lambda fw: getattr(fw.nn, cls)(0, 2)(_t(fw, x)))


UNPOOL_X = {1: RNG.standard_normal((2, 3, 8)).astype("float32"),
            2: RNG.standard_normal((2, 3, 6, 8)).astype("float32"),
            3: RNG.standard_normal((1, 2, 4, 4, 6)).astype("float32")}


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("k,s,p,size", [(2, None, 0, None), (3, 2, 1, "full"), (2, 2, 0, "plus_one"),
                                        (3, 1, 0, None)])
def test_max_unpool_layers(n, k, s, p, size):
    x = UNPOOL_X[n]
    # (a 1-D spatial-only output_size trips Paddle's own check: the full form is used)
    plus_one = [d + 1 for d in x.shape[2:]]
    osz = {None: None, "full": list(x.shape),
           "plus_one": list(x.shape[:2]) + plus_one if n == 1 else plus_one}[size]

    def run(fw):
        t = _t(fw, x, grad=True)
        out, mask = getattr(fw.nn.functional, f"max_pool{n}d")(t, k, s, p, return_mask=True)
        y = getattr(fw.nn, f"MaxUnPool{n}D")(k, s, p, output_size=osz)(out, mask)
        return [y, fw.grad((y * y).sum(), t),
                repr(getattr(fw.nn, f"MaxUnPool{n}D")(k, s, p, output_size=osz))]
    _same(run)


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("bad", ["float_indices", "output_size", "data_format", "index_out_of_range"])
def test_max_unpool_bad_input(n, bad):
    def run(fw):
        out, mask = getattr(fw.nn.functional, f"max_pool{n}d")(_t(fw, XS[n]), 2, return_mask=True)
        f = getattr(fw.nn.functional, f"max_unpool{n}d")
        if bad == "float_indices":
            return f(out, mask.astype("float32"), 2)
        if bad == "output_size":
            return f(out, mask, 2, output_size=[50] * n)
        if bad == "index_out_of_range":   # the default output is smaller than the input
            return f(*getattr(fw.nn.functional, f"max_pool{n}d")(_t(fw, UNPOOL_X[n]), 3, 2, 1,
                                                                   return_mask=True), 3, 2, 1)
        return f(out, mask, 2, data_format=LAST[n])
    same_exception(run)


# ---------------------------------------------------------------- padding

PAD_KINDS = ["Constant", "Reflection", "Replication", "Circular"]
X3_PAD = RNG.standard_normal((1, 3, 4, 5, 6)).astype("float32")


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("kind", PAD_KINDS)
@pytest.mark.parametrize("padding", [1, "pairs", "one_side"])
@pytest.mark.parametrize("last", [False, True])
def test_torch_style_pad_layers(n, kind, padding, last):
    pad = {1: 1, "pairs": [1, 2] * n, "one_side": [0, 1] * n}[padding]
    cls = f"{kind}Pad{n}d"
    fmt = {False: {1: "NCL", 2: "NCHW", 3: "NCDHW"}[n], True: LAST[n]}[last]
    extra = (1.5,) if kind == "Constant" else ()
    x = XS[n] if n < 3 else X3_PAD   # no side shorter than 3 in either layout
    _same(lambda fw: _with_grad(fw, x, lambda fw, t: getattr(fw.nn, cls)(
        pad, *extra, data_format=fmt)(t)))
    _same(lambda fw: repr(getattr(fw.nn, cls)(pad, *extra, data_format=fmt)))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_pad_layer_keyword_forms_and_dtypes(n):
    _same(lambda fw: [fw.nn.ConstantPad1d(padding=1, value=2.0)(_t(fw, X1)),
                      getattr(fw.nn, f"ReplicationPad{n}d")(padding=1)(_t(fw, XS[n].astype("float64"))),
                      getattr(fw.nn, f"CircularPad{n}d")(1)(_t(fw, (XS[n] * 10).astype("int64")))])
    same_exception(lambda fw: getattr(fw.nn, f"ReflectionPad{n}d")(20)(_t(fw, XS[n])))
    same_exception(lambda fw: getattr(fw.nn, f"ReflectionPad{n}d")(1, data_format="XYZ")(_t(fw, XS[n])))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_circular_pad_negative_crops_after_wrapping(n):
    _same(lambda fw: _with_grad(fw, XS[n], lambda fw, t: fw.nn.functional.pad(
        t, [-1, 1] * n, mode="circular")))


def test_constant_pad_odd_length_fills_the_last_after():
    _same(lambda fw: [fw.nn.functional.pad(_t(fw, X1), [1, 2, 3]),
                      fw.nn.ConstantPad1d([1, 2, 3], 1.0)(_t(fw, X1))])


# ---------------------------------------------------------------- convolution

@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("args,kwargs", [
    ((3,), {}), ((3, 2, 1), {}), ((3, 1, "SAME"), {}), ((3, 1, "valid"), {}),
    ((3, 1, 1, 2, 2), {}), ((3,), {"bias": False}), ((3,), {"padding": 1, "padding_mode": "reflect"}),
    ((3,), {"padding": 2, "padding_mode": "circular"}), ((3,), {"dtype": "float64"}),
])
def test_conv_torch_style_aliases(n, args, kwargs):
    x = RNG.standard_normal((2, 4) + XS[n].shape[2:]).astype(kwargs.get("dtype", "float32"))

    def run(fw):
        fw.seed(1)
        conv = getattr(fw.nn, f"Conv{n}d")(4, 6, *args, **kwargs)
        t = _t(fw, x, grad=True)
        y = conv(t)
        params = [conv.weight] + ([conv.bias] if conv.bias is not None else [])
        return [y, fw.grad((y * y).sum(), [t] + params), repr(conv)]
    _same(run, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("cls", ["Conv1d", "Conv2D", "Conv3d"])
def test_conv_options_after_groups_are_keyword_only(cls):
    same_exception(lambda fw: getattr(fw.nn, cls)(4, 6, 3, 1, 0, 1, 1, False))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_conv_forward_takes_input_keyword(n):
    x = RNG.standard_normal((2, 4) + XS[n].shape[2:]).astype("float32")

    def run(fw):
        fw.seed(1)
        return getattr(fw.nn, f"Conv{n}d")(4, 6, 3)(input=_t(fw, x))
    _same(run, rtol=1e-4, atol=1e-4)


def test_conv_kernel_larger_than_input_is_refused_cleanly():
    # Paddle fails inside MKL (or returns a 0-sized map): pagaie says what is wrong
    x = pagaie.ones([1, 2, 5, 5])
    with pytest.raises(ValueError, match="kernel size") as info:
        pagaie.nn.functional.conv2d(x, pagaie.ones([3, 2, 7, 7]))
    assert "Calculated" not in str(info.value)


def test_instance_norm3d():
    x = RNG.standard_normal((2, 3, 4, 5, 6)).astype("float32")

    def run(fw):
        outs = []
        for kw in ({}, {"weight_attr": False, "bias_attr": False}, {"epsilon": 1e-3, "momentum": 0.5}):
            m = fw.nn.InstanceNorm3D(3, **kw)
            t = _t(fw, x, grad=True)
            y = m(t)
            outs += [y, fw.grad((y * y * t).sum(), [t] + list(m.parameters())), repr(m),
                     sorted(m.state_dict().keys())]
        return outs
    _same(run, rtol=1e-4, atol=1e-5)
    same_exception(lambda fw: fw.nn.InstanceNorm3D(4)(_t(fw, x)))


# ---------------------------------------------------------------- activations

X_ACT = (RNG.standard_normal((3, 4)) * 3).astype("float32")


@pytest.mark.parametrize("name,args", [
    ("hardtanh_", ()), ("hardtanh_", (-0.5, 2.0)), ("leaky_relu_", ()), ("leaky_relu_", (0.2,)),
    ("leaky_relu_", (-1.0,)), ("softmax_", ()), ("softmax_", (0,)), ("thresholded_relu_", ()),
    ("thresholded_relu_", (0.5, 2.0)), ("thresholded_relu_", (1.0, -1.0)),
])
def test_inplace_activations(name, args):
    def run(fw):
        t = _t(fw, X_ACT)
        r = getattr(fw.nn.functional, name)(t, *args)
        leaf = _t(fw, X_ACT, grad=True)
        mid = leaf * 1.0
        r2 = getattr(fw.nn.functional, name)(mid, *args)
        return [r, t, r is t, r2, fw.grad((r2 * r2).sum(), leaf),
                getattr(fw.nn.functional, name)(_t(fw, X_ACT.astype("float64")), *args)]
    _same(run)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_softmax_inplace_with_dtype_works_on_a_cast_copy(dtype):
    def run(fw):
        t = _t(fw, X_ACT)
        r = fw.nn.functional.softmax_(t, 1, dtype)
        leaf = _t(fw, X_ACT, grad=True)   # the cast copy is no leaf: allowed
        r2 = fw.nn.functional.softmax_(leaf, dtype=dtype)
        return [r, t, r is t, r2, fw.grad((r2 * r2).sum(), leaf)]
    _same(run)


def test_prelu_checks_and_zero_d_input():
    b = RNG.standard_normal((2, 3, 3, 4)).astype("float32")
    _same(lambda fw: [fw.nn.functional.prelu(_t(fw, np.float32(-2.0)), _t(fw, np.array([0.5], "float32"))),
                      fw.nn.functional.prelu(_t(fw, b), _t(fw, np.array([0.1, 0.2, 0.3, 0.4], "float32")), "NHWC"),
                      fw.nn.functional.prelu(_t(fw, b), _t(fw, np.array([0.1], "float32")), "XX")])
    same_exception(lambda fw: fw.nn.functional.prelu(_t(fw, b), _t(fw, np.array([0.1, 0.2], "float32"))))
    same_exception(lambda fw: fw.nn.functional.prelu(_t(fw, b), _t(fw, np.ones((1, 1), "float32"))))
    same_exception(lambda fw: fw.nn.functional.prelu(_t(fw, X_ACT[0]), _t(fw, np.ones(4, "float32"))))
    same_exception(lambda fw: fw.nn.functional.prelu(_t(fw, b), _t(fw, np.ones(3, "float32")), "XX"))


# ---------------------------------------------------------------- special losses

def _alswl_data():
    r = np.random.default_rng(3)
    inp = r.standard_normal((5, 8)).astype("float32")
    labels = np.array([0, 3, 5, 9, 11], "int64")
    head = (r.standard_normal((8, 5)) * 0.3).astype("float32")
    tails = [[(r.standard_normal((8, 4)) * 0.3).astype("float32"), (r.standard_normal((4, 4)) * 0.3).astype("float32")],
             [(r.standard_normal((8, 2)) * 0.3).astype("float32"), (r.standard_normal((2, 6)) * 0.3).astype("float32")]]
    bias = (r.standard_normal(5) * 0.1).astype("float32")
    return inp, labels, head, tails, bias


@pytest.mark.parametrize("with_bias", [False, True])
def test_adaptive_log_softmax_with_loss(with_bias):
    inp, labels, head, tails, bias = _alswl_data()

    def run(fw):
        i, h = _t(fw, inp, grad=True), _t(fw, head, grad=True)
        t = [[_t(fw, a, grad=True) for a in pair] for pair in tails]
        out, loss = fw.nn.functional.adaptive_log_softmax_with_loss(
            i, _t(fw, labels), h, t, [3, 7, 13], _t(fw, bias) if with_bias else None)
        single = fw.nn.functional.adaptive_log_softmax_with_loss(
            _t(fw, inp[1]), _t(fw, labels[1]), _t(fw, head), [[_t(fw, a) for a in p] for p in tails], [3, 7, 13])
        return [out, loss, fw.grad(loss, [i, h, t[0][0], t[1][1]]), single]
    _same(run)


@pytest.mark.parametrize("bad", ["label_range", "batch", "label_rank", "input_rank"])
def test_adaptive_log_softmax_with_loss_bad_input(bad):
    inp, labels, head, tails, _ = _alswl_data()

    def run(fw):
        x, lab = _t(fw, inp), _t(fw, labels)
        if bad == "label_range":
            lab = _t(fw, labels + 10)
        elif bad == "batch":
            lab = _t(fw, labels[:3])
        elif bad == "label_rank":
            lab = _t(fw, labels[:, None])
        else:
            x = _t(fw, inp.reshape(5, 2, 4))
        return fw.nn.functional.adaptive_log_softmax_with_loss(
            x, lab, _t(fw, head), [[_t(fw, a) for a in p] for p in tails], [3, 7, 13])
    same_exception(run)


def test_margin_cross_entropy_checks():
    # Paddle has no CPU kernel for it: only the argument checks can be compared
    logits = np.tanh(RNG.standard_normal((4, 6))).astype("float32")
    same_exception(lambda fw: fw.nn.functional.margin_cross_entropy(
        _t(fw, logits), _t(fw, np.zeros(4, "int64")), reduction="foo"))
    F = pagaie.nn.functional
    with pytest.raises(ValueError, match="label"):
        F.margin_cross_entropy(_t(pagaie, logits), _t(pagaie, np.full(4, 9, "int64")))
    with pytest.raises(ValueError, match="logits"):
        F.margin_cross_entropy(_t(pagaie, logits.reshape(2, 2, 6)), _t(pagaie, np.zeros((2, 2), "int64")))


def test_margin_cross_entropy_values():
    # ArcFace by hand: cos(m1 * theta + m2) - m3 on the target, all logits times scale
    r = np.random.default_rng(5)
    logits = np.tanh(r.standard_normal((4, 6)))
    labels = np.array([1, 0, 5, 3])
    m1, m2, m3, s = 0.9, 0.4, 0.15, 30.0
    z = logits.copy()
    rows = np.arange(4)
    z[rows, labels] = np.cos(m1 * np.arccos(z[rows, labels]) + m2) - m3
    z *= s
    logp = z - np.log(np.exp(z - z.max(1, keepdims=True)).sum(1, keepdims=True)) - z.max(1, keepdims=True)
    want = -logp[rows, labels]
    loss, sm = pagaie.nn.functional.margin_cross_entropy(
        pagaie.to_tensor(logits), pagaie.to_tensor(labels), m1, m2, m3, s, return_softmax=True,
        reduction=None)
    np.testing.assert_allclose(loss.numpy().ravel(), want, rtol=1e-6)
    np.testing.assert_allclose(sm.numpy(), np.exp(logp), rtol=1e-6)


# ---------------------------------------------------------------- resampling and the rest

X_I = RNG.standard_normal((2, 3, 9, 10)).astype("float32")


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("size,scale", [([4, 5], None), (None, 0.5), ([12, 13], None)])
def test_interpolate_antialias(mode, align_corners, size, scale):
    _same(lambda fw: _with_grad(fw, X_I, lambda fw, t: fw.nn.functional.interpolate(
        t, size=size, scale_factor=scale, mode=mode, align_corners=align_corners, antialias=True)),
        rtol=1e-4, atol=1e-4)


def test_interpolate_torch_forms_and_loose_arguments():
    _same(lambda fw: [fw.nn.functional.interpolate(_t(fw, X_I), None, 0.7, "bilinear", False, True),
                      fw.nn.functional.interpolate(_t(fw, X_I), None, 0.7, "bilinear", False, None, True),
                      fw.nn.functional.interpolate(_t(fw, X_I), size=[4, 4], mode="area", align_corners=True),
                      fw.nn.functional.interpolate(_t(fw, X_I), size=[4, 4], data_format="nchw"),
                      fw.nn.functional.interpolate(input=_t(fw, X_I), size=[4, 4])], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("bad", ["antialias_nearest", "align_corners_int", "size_rank2", "zero_scale",
                                 "zero_size"])
def test_interpolate_bad_arguments(bad):
    def run(fw):
        f, t = fw.nn.functional.interpolate, _t(fw, X_I)
        if bad == "antialias_nearest":
            return f(t, size=[4, 4], antialias=True)
        if bad == "align_corners_int":
            return f(t, [4, 4], None, "bilinear", 1)
        if bad == "size_rank2":
            return f(t, size=fw.to_tensor([[4, 4]]))
        if bad == "zero_scale":
            return f(t, scale_factor=0.05)
        return f(t, size=[0, 3])
    same_exception(run)


@pytest.mark.parametrize("bad", ["pixel_shuffle_zero", "pixel_shuffle_float", "pixel_unshuffle_float",
                                 "channel_shuffle_float", "fold_rank", "fold_kernel",
                                 "grid_align_int", "affine_grid_size", "dropout2d_rank", "dropout3d_rank"])
def test_misc_bad_arguments(bad):
    x = RNG.standard_normal((2, 8, 4, 4)).astype("float32")
    grid = (RNG.random((2, 3, 3, 2)) * 2 - 1).astype("float32")
    theta = RNG.standard_normal((2, 2, 3)).astype("float32")

    def run(fw):
        F, t = fw.nn.functional, _t(fw, x)
        return {
            "pixel_shuffle_zero": lambda: F.pixel_shuffle(t, 0),
            "pixel_shuffle_float": lambda: F.pixel_shuffle(t, 2.0),
            "pixel_unshuffle_float": lambda: F.pixel_unshuffle(t, 1.5),
            "channel_shuffle_float": lambda: F.channel_shuffle(t, 2.0),
            "fold_rank": lambda: F.fold(_t(fw, np.ones((12, 20), "float32")), [5, 6], 2),
            "fold_kernel": lambda: F.fold(_t(fw, np.ones((1, 12, 20), "float32")), [5, 6], [2, 2, 2]),
            "grid_align_int": lambda: F.grid_sample(t, _t(fw, grid), align_corners=1),
            "affine_grid_size": lambda: F.affine_grid(_t(fw, theta), [2, 3, 5]),
            "dropout2d_rank": lambda: F.dropout2d(_t(fw, x[0]), 0.5),
            "dropout3d_rank": lambda: F.dropout3d(t, 0.5),
        }[bad]()
    same_exception(run)


def test_unfold_bad_sizes_raise_type_error():
    # Paddle raises its NotSupportedTensorArgumentError, a TypeError
    ref = paddle_ref()
    with pytest.raises(TypeError):
        ref.nn.functional.unfold(ref.ones([1, 2, 4, 4]), 2, [1, 1, 1])
    with pytest.raises(TypeError, match="strides"):
        pagaie.nn.functional.unfold(pagaie.ones([1, 2, 4, 4]), 2, [1, 1, 1])


@pytest.mark.parametrize("red", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
@pytest.mark.parametrize("ignore_index", [2, -1])
def test_cross_entropy_variants(red, weighted, smoothing, ignore_index):
    # with smoothing (or a soft label) and ignore_index >= 0, Paddle's mean divides by the
    # (weighted) count of every class entry differing from ignore_index: copied as it is
    r = np.random.default_rng(11)
    logits = r.standard_normal((6, 5)).astype("float32")
    labels = r.integers(0, 5, 6).astype("int64")
    labels[1] = 2
    w = (r.random(5) + 0.5).astype("float32")
    soft = np.abs(r.standard_normal((6, 5))).astype("float32")
    soft /= soft.sum(1, keepdims=True)

    def run(fw):
        F = fw.nn.functional
        kw = dict(weight=_t(fw, w) if weighted else None, reduction=red, label_smoothing=smoothing)
        return [_with_grad(fw, logits, lambda fw, t: F.cross_entropy(t, _t(fw, labels), ignore_index=ignore_index, **kw)),
                _with_grad(fw, logits, lambda fw, t: F.cross_entropy(
                    t, _t(fw, soft), soft_label=True, ignore_index=min(ignore_index, 0) - 1, **kw)),
                _with_grad(fw, logits, lambda fw, t: F.cross_entropy(
                    F.softmax(t), _t(fw, labels), use_softmax=False, **kw))]
    _same(run, rtol=1e-5, atol=1e-5)


def test_ctc_and_rnnt_bad_reduction_assert_as_paddle():
    lp = np.zeros((3, 1, 2), "float32")
    same_exception(lambda fw: fw.nn.functional.ctc_loss(
        _t(fw, lp), fw.to_tensor([[1]], dtype="int32"), fw.to_tensor([3]), fw.to_tensor([1]),
        reduction="x"))
    same_exception(lambda fw: fw.nn.functional.rnnt_loss(
        fw.zeros([1, 2, 2, 3]), fw.to_tensor([[1]], dtype="int32"), fw.to_tensor([2], dtype="int32"),
        fw.to_tensor([1], dtype="int32"), reduction="x"))


X_AL = RNG.standard_normal((2, 4, 6, 6)).astype("float32")


@pytest.mark.parametrize("case", [
    "LPPool1D", "LPPool2D", "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D",
    "AdaptiveMaxPool1D", "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "GLU", "Hardshrink", "Softshrink",
    "LayerNorm", "GroupNorm", "BatchNorm2D", "Fold", "CosineSimilarity", "PairwiseDistance",
    "CrossEntropyLoss", "SmoothL1Loss", "Pad2D", "UpsamplingNearest2D", "Embedding",
])
def test_layer_torch_keyword_aliases(case):
    x3, x5 = X_AL[:, :, 0], X_AL[:, :, None]
    t = lambda fw, a: _t(fw, a)  # noqa: E731
    run = {
        "LPPool1D": lambda fw: fw.nn.LPPool1D(2, 2)(input=t(fw, np.abs(x3))),
        "LPPool2D": lambda fw: fw.nn.LPPool2D(2, 2)(input=t(fw, np.abs(X_AL))),
        "AdaptiveAvgPool1D": lambda fw: fw.nn.AdaptiveAvgPool1D(2)(input=t(fw, x3)),
        "AdaptiveAvgPool2D": lambda fw: fw.nn.AdaptiveAvgPool2D(2)(input=t(fw, X_AL)),
        "AdaptiveAvgPool3D": lambda fw: fw.nn.AdaptiveAvgPool3D(1)(input=t(fw, x5)),
        "AdaptiveMaxPool1D": lambda fw: fw.nn.AdaptiveMaxPool1D(2, return_indices=True)(t(fw, x3)),
        "AdaptiveMaxPool2D": lambda fw: fw.nn.AdaptiveMaxPool2D(2, return_indices=True)(input=t(fw, X_AL)),
        "AdaptiveMaxPool3D": lambda fw: fw.nn.AdaptiveMaxPool3D(1, return_indices=True)(input=t(fw, x5)),
        "GLU": lambda fw: fw.nn.GLU(dim=1)(input=t(fw, X_AL)),
        "Hardshrink": lambda fw: fw.nn.Hardshrink(lambd=0.3)(input=t(fw, X_AL)),
        "Softshrink": lambda fw: fw.nn.Softshrink(lambd=0.3)(input=t(fw, X_AL)),
        "LayerNorm": lambda fw: fw.nn.LayerNorm(6, eps=1e-3)(t(fw, X_AL)),
        "GroupNorm": lambda fw: fw.nn.GroupNorm(2, 4, eps=1e-3)(t(fw, X_AL)),
        "BatchNorm2D": lambda fw: fw.nn.BatchNorm2D(4)(input=t(fw, X_AL)),
        "Fold": lambda fw: fw.nn.Fold(output_size=[3, 3], kernel_size=2, stride=1, padding=0,
                                      dilation=1)(t(fw, np.ones((1, 8, 4), "float32"))),
        "CosineSimilarity": lambda fw: fw.nn.CosineSimilarity(dim=1, eps=1e-3)(t(fw, X_AL), t(fw, X_AL[::-1])),
        "PairwiseDistance": lambda fw: fw.nn.PairwiseDistance(eps=1e-3)(x1=t(fw, x3[0]), x2=t(fw, x3[1])),
        "CrossEntropyLoss": lambda fw: fw.nn.CrossEntropyLoss()(t(fw, x3[:, :, 0]),
                                                                target=t(fw, np.array([0, 1], "int64"))),
        "SmoothL1Loss": lambda fw: fw.nn.SmoothL1Loss()(t(fw, X_AL), target=t(fw, X_AL[::-1])),
        "Pad2D": lambda fw: [fw.nn.Pad2D(1)(input=t(fw, X_AL)), fw.nn.ZeroPad2D(1)(input=t(fw, X_AL))],
        "UpsamplingNearest2D": lambda fw: fw.nn.UpsamplingNearest2D(scale_factor=2)(input=t(fw, X_AL)),
        "Embedding": lambda fw: (fw.seed(3), fw.nn.Embedding(6, 2)(input=t(fw, np.array([0, 5], "int64"))))[1],
    }[case]
    _same(run, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("cls", ["LayerNorm", "GroupNorm"])
def test_norm_options_after_epsilon_are_keyword_only(cls):
    args = (6, 1e-5, False) if cls == "LayerNorm" else (2, 4, 1e-5, False)
    same_exception(lambda fw: getattr(fw.nn, cls)(*args))


def test_adaptive_pool_tensor_output_size():
    _same(lambda fw: [fw.nn.functional.adaptive_avg_pool2d(_t(fw, X2), fw.to_tensor([3, 4], dtype="int32")),
                      fw.nn.functional.adaptive_max_pool2d(_t(fw, X2), fw.to_tensor([3, 4], dtype="int32")),
                      fw.nn.functional.adaptive_avg_pool2d(_t(fw, X2), [fw.to_tensor(3), 4])])


def test_keyword_aliases_and_nd_pairwise_distance():
    """Paddle 3.3.1 takes torch's names on these functionals, and pairwise_distance on N-D input."""
    P = paddle_ref()
    rng = np.random.default_rng(3)
    a = rng.random((2, 4, 4, 4)).astype("float32")
    b = rng.random((2, 4, 4, 4)).astype("float32")
    cols = rng.random((1, 12, 9)).astype("float32")
    for fw in (P, pagaie):
        F = fw.nn.functional
        x, y = fw.to_tensor(a), fw.to_tensor(b)
        out = [F.hardshrink(x, lambd=0.5), F.softshrink(x, lambd=0.5),
               *F.adaptive_max_pool2d(x, 2, return_indices=True),
               F.adaptive_max_pool1d(x[0], 2, return_indices=True)[1],
               F.adaptive_max_pool3d(x[None], 2, return_indices=True)[0],
               F.group_norm(x, 2, eps=1e-3), F.pairwise_distance(x, y, eps=1e-3),
               F.pairwise_distance(x, y[0, 0], keepdim=True),
               F.fold(fw.to_tensor(cols), output_size=[4, 4], kernel_size=[2, 2])]
        if fw is P:
            theirs = out
    assert_same(out, theirs)
