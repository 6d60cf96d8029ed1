"""Differential tests of paddle.nn layer classes against real Paddle: cases drawn from Paddle's
own unit tests of the convolution and normalisation layers."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

import pagaie  # noqa: E402


def _conv_empty_kernel(m, cls, kernel, shape, **kw):
    conv = getattr(m.nn, cls)(2, 3, kernel, bias_attr=m.nn.initializer.Constant(0.5), **kw)
    x = m.ones(shape)
    x.stop_gradient = False
    y = conv(x)
    y.sum().backward()
    return y.numpy(), conv.bias.grad.numpy()


@pytest.mark.parametrize("cls, kernel, shape, kw", [
    ("Conv2D", 0, [1, 2, 3, 3], {}),
    ("Conv2D", [0, 2], [1, 2, 3, 3], {}),
    ("Conv2D", 0, [1, 2, 3, 3], {"stride": 2, "padding": 1}),
    ("Conv2D", 0, [1, 3, 3, 2], {"data_format": "NHWC"}),
    ("Conv1D", 0, [1, 2, 3], {}),
    ("Conv3D", 0, [1, 2, 3, 3, 3], {}),
    ("Conv2DTranspose", 0, [1, 2, 3, 3], {"stride": 2}),
])
def test_conv_empty_kernel_gives_the_bias(cls, kernel, shape, kw):
    # a kernel with no taps sums nothing: each of Paddle's windows holds the bias alone
    want_y, want_gb = _conv_empty_kernel(paddle, cls, kernel, shape, **kw)
    got_y, got_gb = _conv_empty_kernel(pagaie, cls, kernel, shape, **kw)
    assert got_y.shape == want_y.shape
    np.testing.assert_allclose(got_y, want_y)
    np.testing.assert_allclose(got_gb, want_gb)


def test_conv_empty_kernel_input_gradient_is_zero():
    # (Paddle's input gradient here is uninitialised memory; zeros are the derivative)
    conv = pagaie.nn.Conv2D(2, 3, [0, 2])
    x = pagaie.ones([1, 2, 3, 3])
    x.stop_gradient = False
    conv(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros([1, 2, 3, 3], "float32"))


def test_local_response_norm_tensor_size_message():
    # Paddle fails with a SystemError here; pagaie keeps its TypeError, worded without torch
    with pytest.raises(TypeError, match=r"received Tensor\(shape=\[\], dtype=int64\)"):
        pagaie.nn.LocalResponseNorm(pagaie.to_tensor(3))(pagaie.ones([1, 4, 3, 3]))


def _exception_type(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)
    return None


@pytest.mark.parametrize("dtype", ["int16", "uint8", "bool", "float32", "float64"])
@pytest.mark.parametrize("max_norm", [None, 1.0])
def test_embedding_non_integer_ids_exception(dtype, max_norm):
    # with max_norm Paddle renormalises first: its unique kernel (RuntimeError for the small
    # ints and bool), then index_select (ValueError for float ids); else NotImplementedError
    ids = np.array([1, 2]).astype(dtype)

    def run(m):
        return lambda: m.nn.Embedding(10, 3, max_norm=max_norm)(m.to_tensor(ids))

    want = _exception_type(run(paddle))
    got = _exception_type(run(pagaie))
    assert want is not None and got is not None
    assert issubclass(got, want), (got, want)


def _cross_entropy_float_label(m, kind):
    x = m.to_tensor(np.linspace(0.1, 1.0, 20).reshape(4, 5).astype("float32"))
    x.stop_gradient = False
    label = m.to_tensor(np.array([1.0, 2.0, 0.0, 3.0], "float32"))
    if kind == "layer":
        loss = m.nn.CrossEntropyLoss()(x, label)
    elif kind == "no_softmax":
        loss = m.nn.CrossEntropyLoss(use_softmax=False, reduction="none")(x, label)
    elif kind == "softmax_with_cross_entropy":
        loss = m.nn.functional.softmax_with_cross_entropy(x, label.unsqueeze(1))
    elif kind == "weight":
        loss = m.nn.CrossEntropyLoss(weight=m.ones([5]))(x, label)
    else:
        loss = m.nn.CrossEntropyLoss(label_smoothing=0.1)(x, label)
    loss.sum().backward()


@pytest.mark.parametrize("kind", ["layer", "no_softmax", "softmax_with_cross_entropy", "weight",
                                  "smoothing"])
def test_cross_entropy_float_hard_label(kind):
    # the forward reads a float hard label as indices, but Paddle's CPU gradient kernel has no
    # float-label version (OSError); a weight is gathered by the label (ValueError) and
    # label_smoothing one-hot encodes it (RuntimeError)
    want = _exception_type(lambda: _cross_entropy_float_label(paddle, kind))
    got = _exception_type(lambda: _cross_entropy_float_label(pagaie, kind))
    assert want is not None and got is not None
    assert issubclass(got, want), (got, want)


def test_cross_entropy_float_hard_label_forward_still_runs():
    x = np.linspace(0.1, 1.0, 20).reshape(4, 5).astype("float32")
    label = np.array([1.0, 2.0, 0.0, 3.0], "float32")
    want = paddle.nn.CrossEntropyLoss(reduction="none")(paddle.to_tensor(x), paddle.to_tensor(label))
    got = pagaie.nn.CrossEntropyLoss(reduction="none")(pagaie.to_tensor(x), pagaie.to_tensor(label))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float32"])
def test_multi_label_margin_loss_label_dtype(dtype):
    # Paddle's composite takes the label's min first: no bool/small-int kernel (RuntimeError);
    # a float label then fails its integer check (ValueError)
    x = np.linspace(0, 1, 12).reshape(4, 3).astype("float32")
    label = np.array([[0, 1, -1], [2, -1, 0], [1, 2, 0], [-1, 0, 0]]).astype(dtype)

    def run(m):
        return lambda: m.nn.MultiLabelMarginLoss()(m.to_tensor(x), m.to_tensor(label))

    want, got = _exception_type(run(paddle)), _exception_type(run(pagaie))
    assert want is not None and got is not None
    assert issubclass(got, want), (got, want)


@pytest.mark.parametrize("cls", ["MSELoss", "L1Loss"])
@pytest.mark.parametrize("dtypes", [("bool", "float32"), ("int16", "float32"), ("bool", "int64"),
                                    ("bool", "bool")])
def test_regression_loss_mixed_dtype_exception(cls, dtypes):
    # the composite's subtract promotes first: a bool/integer input with a float label is its
    # TypeError, before the missing bool kernel (RuntimeError) of equal dtypes
    a, b = dtypes

    def run(m):
        return lambda: getattr(m.nn, cls)()(m.to_tensor([[1, 0], [1, 1]]).astype(a),
                                            m.to_tensor([[0, 0], [1, 1]]).astype(b))

    want, got = _exception_type(run(paddle)), _exception_type(run(pagaie))
    assert want is not None and got is not None
    assert issubclass(got, want), (got, want)


@pytest.mark.parametrize("dtypes", [("bool", "float32"), ("int32", "int32"), ("int64", "float32")])
def test_multi_label_soft_margin_loss_input_kernel_first(dtypes):
    # the composite starts with logsigmoid(input): no bool/integer kernel (RuntimeError) is met
    # before the label's promotion
    a, b = dtypes

    def run(m):
        return lambda: m.nn.MultiLabelSoftMarginLoss()(m.to_tensor([[1, 0], [0, 1]]).astype(a),
                                                       m.to_tensor([[1, 0], [0, 1]]).astype(b))

    want, got = _exception_type(run(paddle)), _exception_type(run(pagaie))
    assert want is not None and got is not None
    assert issubclass(got, want), (got, want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_multi_label_soft_margin_loss_complex(dtype):
    x = np.linspace(-2, 2, 12).reshape(4, 3)
    y = np.arange(12).reshape(4, 3) % 2

    def run(m):
        t = m.to_tensor(x).astype(dtype)
        t.stop_gradient = False
        loss = m.nn.MultiLabelSoftMarginLoss()(t, m.to_tensor(y).astype(dtype))
        loss.real().backward()
        return loss.numpy(), t.grad.numpy()

    (want, want_g), (got, got_g) = run(paddle), run(pagaie)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)
    np.testing.assert_allclose(got_g, want_g, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("dtypes", [("int32", "float32"), ("float32", "int64"), ("bool", "float32"),
                                    ("int32", "int64")])
def test_pairwise_distance_and_margin_ranking_promotion_first(dtypes):
    # both start with Paddle's subtract, whose promotion refuses these mixes (TypeError) before
    # any kernel is looked up
    a, b = dtypes
    x, y = [[1.0, 2.0], [3.0, 4.0]], [[0.0, 2.0], [1.0, 4.0]]
    for run in (lambda m: m.nn.PairwiseDistance()(m.to_tensor(x).astype(a), m.to_tensor(y).astype(b)),
                lambda m: m.nn.MarginRankingLoss()(m.to_tensor(x).astype(a), m.to_tensor(y).astype(b),
                                                   m.to_tensor(y).astype(b))):
        want = _exception_type(lambda: run(paddle))
        got = _exception_type(lambda: run(pagaie))
        assert want is not None and got is not None
        assert issubclass(got, want), (got, want)


@pytest.mark.parametrize("dtype", ["int64", "float64", "bool"])
@pytest.mark.parametrize("loss", ["MSELoss", "L1Loss", "MarginRankingLoss", "PairwiseDistance",
                                  "square_error_cost"])
def test_zero_d_operand_promotes_as_a_scalar(loss, dtype):
    # Paddle's subtract takes a 0-D operand as a scalar: no TypeError, the other's dtype wins
    x = [[0.2, 0.7], [0.3, 0.4]]

    def run(m):
        a, b = m.to_tensor(x), m.to_tensor(1).astype(dtype)
        if loss == "MarginRankingLoss":
            return m.nn.MarginRankingLoss()(a, b, m.to_tensor([[1.0, -1.0], [1.0, 1.0]]))
        if loss == "square_error_cost":
            return m.nn.functional.square_error_cost(a, b)
        return getattr(m.nn, loss)()(a, b)

    want, got = run(paddle), run(pagaie)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


@pytest.mark.parametrize("label", [((), "int64"), ((), "bool"), ((2, 2), "int64"), ((), "float64")])
def test_smooth_l1_loss_promotion_before_shape_check(label):
    # Paddle's huber_loss promotes (TypeError for an integer/bool label) before it compares
    # ranks (ValueError)
    shape, dtype = label
    x = [[0.2, 0.7], [0.3, 0.4]]

    def run(m):
        return lambda: m.nn.SmoothL1Loss()(m.to_tensor(x), m.ones(list(shape)).astype(dtype))

    want, got = _exception_type(run(paddle)), _exception_type(run(pagaie))
    assert want is not None and got is not None
    assert issubclass(got, want), (got, want)


@pytest.mark.parametrize("lr, trainable", [(0.5, False), (0.0, True), (1.0, True)])
def test_group_norm_param_attr_freezes_by_learning_rate_only(lr, trainable):
    # Paddle's GroupNorm sets stop_gradient from the attribute's learning rate alone, which
    # overrides a ParamAttr's trainable flag
    def flags(m):
        attr = m.ParamAttr(learning_rate=lr, trainable=trainable)
        layer = m.nn.GroupNorm(1, 3, weight_attr=attr, bias_attr=attr)
        return [(p.stop_gradient, p.trainable) for p in (layer.weight, layer.bias)]

    assert flags(pagaie) == flags(paddle)


def _static_build_exception(m, build, feeds):
    m.enable_static()
    try:
        with m.static.program_guard(m.static.Program(), m.static.Program()):
            values = [m.static.data(k, list(v.shape), str(v.dtype)) for k, v in feeds.items()]
            return _exception_type(lambda: build(m, *values))
    finally:
        m.disable_static()


@pytest.mark.parametrize("case", [
    ("MSELoss", "float16", "float32"), ("MSELoss", "float32", "float16"),
    ("MultiMarginLoss", "float32", "float32"), ("MultiMarginLoss", "float32", "int16"),
])
def test_static_loss_dtype_checks(case):
    # Paddle's static APIs check these dtypes while the program is built (TypeError)
    cls, x_dtype, y_dtype = case
    x = np.ones([4, 3], x_dtype)
    y = (np.ones([4, 3]) if cls == "MSELoss" else np.array([0, 2, 1, 1])).astype(y_dtype)

    def build(m, a, b):
        return getattr(m.nn, cls)()(a, b)

    want = _static_build_exception(paddle, build, {"x": x, "y": y})
    got = _static_build_exception(pagaie, build, {"x": x, "y": y})
    assert want is TypeError and got is TypeError, (want, got)
