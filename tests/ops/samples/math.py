from tests.ops.samples import FLOATS, INTS, OpSample, T

_UNARY_ANY = ["abs", "exp", "expm1", "sin", "cos", "tanh", "atan", "asinh", "sinh", "cosh", "erf",
              "square", "sign", "floor", "ceil", "round", "trunc", "frac", "neg", "deg2rad",
              "rad2deg", "i0", "i0e", "i1", "i1e", "sinc", "stanh", "tan", "positive", "negative"]
_UNARY_POS = ["log", "log2", "log10", "log1p", "sqrt", "rsqrt", "reciprocal", "digamma", "lgamma",
              "gammaln", "acosh_shift"]
_UNARY_UNIT = ["asin", "acos", "atanh", "erfinv", "logit_unit"]

SAMPLES = []
for _n in _UNARY_ANY:
    _dt = FLOATS + INTS if _n not in ("frac", "sinc", "i0e", "i1", "i1e", "positive") else FLOATS
    SAMPLES.append(OpSample(_n, [T((2, 3))], dtypes=_dt))
for _n in _UNARY_POS:
    if _n == "acosh_shift":
        SAMPLES.append(OpSample("acosh", [T((2, 3), kind="int", low=2, high=5)], dtypes=FLOATS + INTS))
        continue
    SAMPLES.append(OpSample(_n, [T((2, 3), kind="pos")]))
    if _n != "gammaln":  # Paddle has no integer gammaln kernel
        SAMPLES.append(OpSample(_n, [T((2, 3), low=1, high=5)], dtypes=INTS, id=f"{_n}_int"))
for _n in _UNARY_UNIT:
    if _n == "logit_unit":
        SAMPLES.append(OpSample("logit", [T((2, 3), value=[[0.1, 0.3, 0.5], [0.6, 0.8, 0.95]])]))
        continue
    SAMPLES.append(OpSample(_n, [T((2, 3), kind="unit")]))

SAMPLES += [
    OpSample("signbit", [T((2, 3))], dtypes=FLOATS + INTS, grad=False),
    OpSample("sgn", [T((2, 3))]),
    OpSample("Tensor.sigmoid", [T((2, 3))]),
    OpSample("round", [T((4,), value=[1.234, 2.5, -3.456, 0.05])], kwargs={"decimals": 1},
             id="round_decimals"),
    OpSample("scale", [T((2, 3))], kwargs={"scale": 2.5, "bias": 0.5}),
    OpSample("scale", [T((2, 3))], kwargs={"scale": 2.5, "bias": 0.5, "bias_after_scale": False},
             id="scale_before"),
    OpSample("scale", [T((2, 3))], kwargs={"scale": 2.5, "bias": 0.5}, dtypes=INTS, id="scale_int"),
    OpSample("clip", [T((3, 4))], kwargs={"min": -0.5, "max": 0.5}),
    OpSample("clip", [T((3, 4), value=[[-1, -0.5, 0.5, 1]] * 3)], kwargs={"min": -0.5, "max": 0.5},
             id="clip_at_bounds"),
    OpSample("clip", [T((3, 4))], kwargs={"min": -2, "max": 2}, dtypes=INTS, id="clip_int"),
    OpSample("clip", [T((3, 4))], kwargs={"min": -1.5, "max": 1.5}, dtypes=INTS, id="clip_int_float"),
    OpSample("clip", [T((3, 4))], kwargs={"max": 0.1}, id="clip_max_only"),
    OpSample("lerp", [T((2, 3)), T((2, 3)), 0.3]),
    OpSample("lerp", [T((2, 3)), T((3,)), T((2, 1), kind="unit")], id="lerp_tensor_weight"),
    OpSample("nan_to_num", [T((4,), value=[float("nan"), 1.5, float("inf"), -float("inf")])]),
    OpSample("nan_to_num", [T((3,), value=[float("nan"), float("inf"), -float("inf")])],
             kwargs={"nan": 1.0, "posinf": 2.0, "neginf": -2.0}, id="nan_to_num_values"),
    OpSample("logit", [T((2, 3), kind="unit")], kwargs={"eps": 0.2}, id="logit_eps"),
    OpSample("softmax", [T((2, 3, 4))]),
    OpSample("softmax", [T((2, 3))], kwargs={"dim": 0}, id="softmax_dim0"),
    OpSample("polygamma", [T((2, 3), kind="pos"), 1]),
    OpSample("multigammaln", [T((2, 3), kind="pos", low=2), 3], id="multigammaln"),
    OpSample("gammainc", [T((2, 3), kind="pos"), T((2, 3), kind="pos")]),
    OpSample("gammaincc", [T((2, 3), kind="pos"), T((2, 3), kind="pos")]),
    OpSample("frexp", [T((2, 3))], grad=False),
    OpSample("atan2", [T((2, 3)), T((2, 3))]),
    OpSample("atan2", [T((2, 3)), T((2, 3))], dtypes=INTS, id="atan2_int"),
    OpSample("hypot", [T((2, 3)), T((3,))]),
    OpSample("copysign", [T((2, 3)), T((2, 3))], dtypes=FLOATS + INTS),
    OpSample("heaviside", [T((4,), value=[-1.0, 0.0, 2.0, 0.0]), T((4,))]),
    OpSample("gcd", [T((5,), low=-20, high=20), T((5,), low=-20, high=20)], dtypes=INTS),
    OpSample("lcm", [T((5,), low=-20, high=20), T((5,), low=-20, high=20)], dtypes=INTS),
    OpSample("ldexp", [T((2, 3)), T((2, 3), dtype="int32", low=-3, high=4)]),
    OpSample("nextafter", [T((2, 3)), T((2, 3))], grad=False),
    OpSample("logaddexp", [T((2, 3)), T((2, 3))], dtypes=FLOATS + INTS),
    OpSample("maximum", [T((2, 3)), T((3,))], dtypes=FLOATS + INTS),
    OpSample("minimum", [T((2, 3)), T((3,))], dtypes=FLOATS + INTS),
    OpSample("maximum", [T((3,), value=[1.0, 2.0, 3.0]), T((3,), value=[1.0, 5.0, 3.0])], id="maximum_ties"),
    OpSample("fmax", [T((3,), value=[1.0, float("nan"), 3.0]), T((3,), value=[1.0, 5.0, 2.0])]),
    OpSample("fmin", [T((3,), value=[1.0, float("nan"), 3.0]), T((3,), value=[1.0, 5.0, 2.0])]),
    OpSample("add_n", [[T((2, 3)), T((2, 3)), T((2, 3))]]),
    OpSample("add", [T((2, 3)), T((2, 3))], kwargs={"alpha": 2}, dtypes=FLOATS + INTS, id="add_alpha"),
    OpSample("sub", [T((2, 3)), T((2, 3))], kwargs={"alpha": 3}, id="sub_alpha"),
    OpSample("mul", [T((2, 3)), T((2, 3))], dtypes=FLOATS + INTS),
    OpSample("div", [T((2, 3)), T((2, 3), kind="pos")]),
    OpSample("true_divide", [T((2, 3), low=1), T((2, 3), low=1, high=4)], dtypes=FLOATS + INTS),
    OpSample("pow", [T((3,), low=-3, high=4), 2.5], dtypes=INTS, id="pow_int_float_exp"),
    OpSample("Tensor.__pow__", [T((3,), low=1, high=4), 2.5], dtypes=INTS, id="op_pow_int_float"),
    OpSample("Tensor.__neg__", [T((2, 3))], dtypes=FLOATS + INTS),
    OpSample("Tensor.__abs__", [T((2, 3))], dtypes=FLOATS + INTS),
    OpSample("abs", [T((3,), value=[0.0, -1.0, 2.0])], id="abs_at_zero"),
    OpSample("cumsum", [T((3, 4))], kwargs={"axis": 1}, dtypes=FLOATS + INTS),
    OpSample("cumsum", [T((3, 4))], dtypes=FLOATS + INTS, id="cumsum_flat"),
    OpSample("cumsum", [T((3, 4))], kwargs={"axis": 0, "dtype": "float64"}, dtypes=INTS, id="cumsum_dtype"),
    OpSample("cumprod", [T((3, 4))], kwargs={"dim": 1}, dtypes=FLOATS + INTS),
    OpSample("cumprod", [T((3,), value=[2.0, 0.0, 2.0])], kwargs={"dim": 0}, id="cumprod_zero"),
    OpSample("cummax", [T((3, 4))], kwargs={"axis": 1}, dtypes=FLOATS + INTS),
    OpSample("cummin", [T((3, 4))], kwargs={"axis": 0}, dtypes=FLOATS + INTS),
    OpSample("cummax", [T((4,), value=[1.0, 3.0, 2.0, 3.0])], id="cummax_ties"),
    OpSample("logcumsumexp", [T((3, 4))], kwargs={"axis": 1}),
    OpSample("logcumsumexp", [T((3, 4))], id="logcumsumexp_flat"),
    OpSample("diff", [T((3, 5))], dtypes=FLOATS + INTS),
    OpSample("diff", [T((3, 5))], kwargs={"n": 2, "axis": 0, "prepend": T((1, 5))}, id="diff_prepend"),
    OpSample("trapezoid", [T((3, 5))]),
    OpSample("trapezoid", [T((3, 5))], kwargs={"x": T((5,)), "axis": 1}, id="trapezoid_x"),
    OpSample("trapezoid", [T((3, 5))], kwargs={"dx": 0.5, "axis": 0}, id="trapezoid_dx"),
    OpSample("cumulative_trapezoid", [T((3, 5))]),
    OpSample("renorm", [T((3, 4)), 2, 0, 1.0]),
    OpSample("renorm", [T((3, 4)), 1, 1, 2.0], id="renorm_p1"),
    OpSample("reduce_as", [T((2, 3, 4)), T((3, 1))], dtypes=FLOATS + INTS),
]
SAMPLES = [s for s in SAMPLES if s.dtypes]
