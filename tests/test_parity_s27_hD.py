"""Differential tests against real Paddle 3.3.1 for ``nn.functional`` (``a``..``i``) and their
layers, from cases of Paddle's own unit tests."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _raises(fn):
    """The exception type ``fn`` raises under real Paddle; pagaie must raise the same."""
    with pytest.raises(Exception) as info:
        fn(paddle)
    with pytest.raises(info.type):
        fn(pagaie)


def _same(fn, rtol=1e-5, atol=1e-6):
    want, got = fn(paddle), fn(pagaie)
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    assert list(got.shape) == list(want.shape)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=rtol, atol=atol)


@pytest.mark.parametrize("api", ["nn.functional.elu_", "nn.functional.hardtanh_", "tanh_", "neg_",
                                 "cumsum_", "sinc_", "frac_"])
@pytest.mark.parametrize("value", [[1.0, 2.0], None, np.ones(2, "float32")])
def test_inplace_non_tensor_x(api, value):
    def call(P):
        fn = P
        for part in api.split("."):
            fn = getattr(fn, part)
        return fn(value)
    _raises(call)


@pytest.mark.parametrize("layout", ["nhwc", "NCHW", "NCDHW", "ANYLAYOUT", "NCL", "abc"])
def test_legacy_batch_norm_data_layout(layout):
    x = np.random.RandomState(0).randn(2, 3, 4, 3).astype("float32")

    def call(P):
        return P.nn.BatchNorm(3, data_layout=layout)(P.to_tensor(x))
    try:
        call(paddle)
    except Exception:
        _raises(call)
    else:
        _same(call)


def _static(P, specs, fn):
    """Build ``fn`` over ``static.data`` of the given (shape, dtype) specs in a new program."""
    P.enable_static()
    try:
        with P.static.program_guard(P.static.Program(), P.static.Program()):
            return fn(P, *[P.static.data(f"v{i}", s, d) for i, (s, d) in enumerate(specs)])
    finally:
        P.disable_static()


@pytest.mark.parametrize("dtypes", [("int64", "float32"), ("float32", "int64")])
def test_gather_tree_static_dtype(dtypes):
    specs = [([5, 2, 2], d) for d in dtypes]
    _raises(lambda P: _static(P, specs, lambda P, a, b: P.nn.functional.gather_tree(a, b)))


@pytest.mark.parametrize("arg,dtype", [(1, "float32"), (2, "int32"), (3, "int64"), (4, "int32"),
                                       (5, "float32")])
def test_hsigmoid_loss_static_dtype(arg, dtype):
    specs = [([4, 3], "float32"), ([4, 1], "int64"), ([4, 3], "float32"), ([4, 1], "float32"),
             ([4, 3], "int64"), ([4, 3], "int64")]
    specs[arg] = (specs[arg][0], dtype)
    _raises(lambda P: _static(P, specs, lambda P, *a: P.nn.functional.hsigmoid_loss(
        a[0], a[1], 5, a[2], a[3], a[4], a[5])))


@pytest.mark.parametrize("label,kwargs", [
    (([3], "float32"), {"weight": True}),             # gather_nd of the weight: integer index
    (([3, 1], "float64"), {"weight": True}),
    (([3], "float32"), {"label_smoothing": 0.1}),     # one_hot of the label
    (([3], "bool"), {}),
    (([3], "float16"), {}),
    (([3], "int64"), {"weight": "complex64"}),
    (([3], "float32"), {}),                           # builds (no weight)
    (([3], "float32"), {"weight": True, "axis": 0}),  # the shape error first
])
def test_cross_entropy_static_label_dtype(label, kwargs):
    kwargs = dict(kwargs)
    weight = kwargs.pop("weight", None)
    specs = [([3, 4], "float32"), label]
    if weight:
        specs.append(([4], "float32" if weight is True else weight))

    def call(P):
        def build(P, x, y, *w):
            return P.nn.functional.cross_entropy(x, y, weight=w[0] if w else None, **kwargs)
        return _static(P, specs, build)
    try:
        call(paddle)
    except Exception:
        _raises(call)
    else:
        call(pagaie)


@pytest.mark.parametrize("api,arg", [("hinge_embedding_loss", 1), ("gaussian_nll_loss", 0),
                                     ("gaussian_nll_loss", 1), ("gaussian_nll_loss", 2)])
@pytest.mark.parametrize("dtype", ["int32", "float16"])
def test_loss_static_dtype(api, arg, dtype):
    specs = [([3, 4], "float32")] * (3 if api == "gaussian_nll_loss" else 2)
    specs[arg] = ([3, 4], dtype)
    _raises(lambda P: _static(P, specs, lambda P, *a: getattr(P.nn.functional, api)(*a)))


@pytest.mark.parametrize("axis", [np.array(1), np.array([-1]), np.array(1, "int32"), np.array(True),
                                  np.array(2), np.array(1.0, "float32"), np.array([1, 0])])
def test_glu_tensor_axis(axis):
    x = np.random.RandomState(0).randn(3, 4).astype("float32")

    def call(P):
        return P.nn.functional.glu(P.to_tensor(x), P.to_tensor(axis))
    try:
        call(paddle)
    except Exception:
        _raises(call)
    else:
        _same(call)


def test_glu_static_tensor_axis():
    _raises(lambda P: _static(P, [([3, 4], "float32"), ([1], "int64")],
                              lambda P, x, a: P.nn.functional.glu(x, a)))


@pytest.mark.parametrize("api", ["conv1d", "conv2d", "conv1d_transpose", "conv2d_transpose"])
@pytest.mark.parametrize("groups", [np.array(2), np.array(2, "int32"), np.array(2.0, "float32"),
                                    np.array(3), np.array(0), np.array([2])])
def test_conv_tensor_groups(api, groups):
    rs = np.random.RandomState(0)
    n = 1 if api.startswith("conv1d") else 2
    x = rs.randn(2, 4, *[3] * n).astype("float32")
    w = rs.randn(*((4, 1) if "transpose" in api else (2, 2)), *[1] * n).astype("float32")

    def call(P):
        return getattr(P.nn.functional, api)(P.to_tensor(x), P.to_tensor(w),
                                             groups=P.to_tensor(groups))
    try:
        call(paddle)
    except Exception:
        with pytest.raises((ValueError, RuntimeError)):   # (Paddle's RuntimeError: a crash)
            call(pagaie)
    else:
        _same(call)


@pytest.mark.parametrize("ids", [[0, 2], None, np.array([0, 2])])
def test_embedding_renorm_non_tensor_ids(ids):
    w = np.random.RandomState(0).randn(6, 3).astype("float32")
    _raises(lambda P: P.nn.functional.embedding_renorm_(ids, P.to_tensor(w), 1.0))


_BAD_FIRST = {
    "binary_cross_entropy_with_logits": lambda P, v: P.nn.functional.binary_cross_entropy_with_logits(
        v, P.ones([3, 4])),
    "feature_alpha_dropout": lambda P, v: P.nn.functional.feature_alpha_dropout(v, 0.5),
    "gather_tree": lambda P, v: P.nn.functional.gather_tree(v, P.zeros([3, 2, 2], "int64")),
}


@pytest.mark.parametrize("api", sorted(_BAD_FIRST))
@pytest.mark.parametrize("value", [[[1.0, 2.0]], None, np.zeros([3, 2, 2], "int64")])
def test_non_tensor_first_argument(api, value):
    _raises(lambda P: _BAD_FIRST[api](P, value))


@pytest.mark.parametrize("api", ["binary_cross_entropy_with_logits", "feature_alpha_dropout"])
@pytest.mark.parametrize("value", [[[1.0, 2.0]], None])
def test_non_tensor_first_argument_static(api, value):
    _raises(lambda P: _static(P, [([3, 4], "float32")], lambda P, y: _BAD_FIRST[api](P, value)))
