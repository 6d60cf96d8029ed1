from tests.ops.samples import OpSample, T

F = "nn.functional."


def _s(name, *args, **kw):
    ident = kw.pop("id", "")
    return OpSample(F + name, list(args), kw, id=ident)


X = T((3, 4))
SAMPLES = [
    _s("relu", X),
    _s("relu6", T((3, 4), low=-8, high=8)),
    _s("leaky_relu", X),
    _s("leaky_relu", X, negative_slope=0.3, id="leaky_relu_slope"),
    _s("prelu", T((2, 3, 4)), T((1,), kind="pos")),
    _s("prelu", T((2, 3, 4)), T((3,), kind="pos"), id="prelu_channel"),
    _s("prelu", T((2, 4, 3)), T((3,), kind="pos"), data_format="NLC", id="prelu_nlc"),
    _s("rrelu", X, 0.1, 0.3, False, id="rrelu_eval"),
    _s("elu", X),
    _s("elu", X, alpha=0.5, id="elu_alpha"),
    _s("selu", X),
    _s("celu", X, alpha=0.7),
    _s("gelu", X),
    _s("gelu", X, approximate=True, id="gelu_tanh"),
    _s("silu", X),
    _s("swish", X),
    _s("mish", X),
    _s("hardswish", X),
    _s("hardsigmoid", X),
    _s("hardsigmoid", X, slope=0.2, offset=0.4, id="hardsigmoid_args"),
    _s("hardtanh", X),
    _s("hardtanh", X, min=-0.5, max=2.0, id="hardtanh_args"),
    _s("hardshrink", X),
    _s("hardshrink", X, threshold=1.0, id="hardshrink_thr"),
    _s("softshrink", X, threshold=0.7),
    _s("tanhshrink", X),
    _s("thresholded_relu", X),
    _s("thresholded_relu", X, threshold=0.5, value=-1.0, id="thresholded_relu_value"),
    _s("log_sigmoid", X),
    _s("logsigmoid", X),
    _s("softplus", X),
    _s("softplus", X, beta=2, threshold=3, id="softplus_args"),
    _s("softsign", X),
    _s("softmax", T((3, 4, 5))),
    _s("softmax", T((3, 4, 5)), axis=1, id="softmax_axis"),
    _s("softmax", T((3, 4)), dtype="float64", id="softmax_dtype"),
    _s("log_softmax", T((3, 4, 5))),
    _s("log_softmax", T((3, 4)), axis=0, id="log_softmax_axis"),
    _s("sigmoid", X),
    _s("tanh", X),
    _s("maxout", T((2, 4, 3, 3)), 2),
    _s("maxout", T((2, 3, 3, 6)), 3, axis=-1, id="maxout_last"),
    _s("glu", T((3, 6))),
    _s("glu", T((4, 3)), axis=0, id="glu_axis0"),
    _s("swiglu", T((3, 4)), T((3, 4))),
    _s("swiglu", T((3, 8)), id="swiglu_split"),
]
