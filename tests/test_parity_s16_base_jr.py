"""Cases from Paddle's legacy unit tests of the top-level APIs j..r (kron, lgamma, log*, logit,
matmul, max/min, mean, median, meshgrid, nonzero, norm, pow, prod, remainder, roll, rot90...)
that pagaie answered differently from Paddle 3.3.1: mostly dtypes its CPU kernels lack."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import both_same, same_exception, same_static_exception


def _t(P, dtype, shape=(3, 4)):
    a = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) % 5 + 0.5
    if dtype == "bool":
        return P.to_tensor(a > 2)
    if dtype == "bfloat16":
        return P.to_tensor(a.astype("float32")).astype("bfloat16")
    if dtype.startswith("complex"):
        a = a + 0.5j
    return P.to_tensor(a.astype(dtype))


_OPS = {
    "kron": lambda P, x: P.kron(x, x),
    "lgamma": lambda P, x: P.lgamma(x), "log2": lambda P, x: P.log2(x),
    "rsqrt": lambda P, x: P.rsqrt(x), "reciprocal": lambda P, x: P.reciprocal(x),
    "logit": lambda P, x: P.logit(x), "logsumexp": lambda P, x: P.logsumexp(x, 1),
    "logcumsumexp": lambda P, x: P.logcumsumexp(x, 1), "lerp": lambda P, x: P.lerp(x, x, 0.5),
    "round": lambda P, x: P.round(x), "mean": lambda P, x: P.mean(x), "prod": lambda P, x: P.prod(x),
    "max": lambda P, x: P.max(x, 1), "amin": lambda P, x: P.amin(x),
    "maximum": lambda P, x: P.maximum(x, x), "kthvalue": lambda P, x: P.kthvalue(x, 2, 1)[0],
    "nanmedian": lambda P, x: P.nanmedian(x), "median_min": lambda P, x: P.median(x, 1, mode="min")[0],
    "nansum": lambda P, x: P.nansum(x), "nanmean": lambda P, x: P.nanmean(x),
    "masked_scatter": lambda P, x: P.masked_scatter(x, x > 1, x),
    "matmul": lambda P, x: P.matmul(x, x.T), "mm": lambda P, x: P.mm(x, x.T),
    "mv": lambda P, x: P.mv(x, x[0]), "outer": lambda P, x: P.outer(x[0], x[1]),
    "nonzero": lambda P, x: P.nonzero(x), "norm": lambda P, x: P.norm(x),
    "pow": lambda P, x: P.pow(x, 2), "pow_tensor": lambda P, x: P.pow(x, x),
    "remainder": lambda P, x: P.remainder(x, x), "renorm": lambda P, x: P.renorm(x, 2.0, 0, 1.0),
    "roll": lambda P, x: P.roll(x, 1, 0), "rot90": lambda P, x: P.rot90(x),
    "polygamma": lambda P, x: P.polygamma(x, 1), "meshgrid": lambda P, x: P.meshgrid(x[0], x[1]),
    "logaddexp": lambda P, x: P.logaddexp(x, x), "logical_and": lambda P, x: P.logical_and(x, x),
    "logical_not": lambda P, x: P.logical_not(x), "multinomial": lambda P, x: P.multinomial(x, 2),
    "pad": lambda P, x: P.nn.functional.pad(x, [1, 1, 0, 1]),                    # Paddle's pad kernel
    "pad3d": lambda P, x: P.nn.functional.pad(x.unsqueeze(0), [1, 1], mode="reflect"),
    "matrix_power": lambda P, x: P.linalg.matrix_power(x[:, :3], 2),
    "multi_dot": lambda P, x: P.linalg.multi_dot([x, x.T]), "poisson": lambda P, x: P.poisson(x),
    "reciprocal_": lambda P, x: x.clone().reciprocal_(), "logit_": lambda P, x: x.clone().logit_(),
    "pow_": lambda P, x: x.clone().pow_(2), "polygamma_": lambda P, x: x.clone().polygamma_(1),
    "polar": lambda P, x: P.polar(x, x),
}
# (op, an input dtype Paddle's CPU kernels lack): NotFound, a RuntimeError
_MISSING = [
    ("kron", "bool"), ("kron", "bfloat16"), ("lgamma", "float16"), ("log2", "int8"),
    ("rsqrt", "bfloat16"), ("reciprocal", "float16"), ("logit", "float16"),
    ("logsumexp", "bfloat16"), ("logcumsumexp", "float16"), ("lerp", "int32"), ("lerp", "complex64"),
    ("round", "int16"), ("round", "float16"), ("mean", "int8"), ("mean", "float16"),
    ("prod", "uint8"), ("prod", "bfloat16"), ("max", "float16"), ("max", "int16"),
    ("amin", "bfloat16"), ("maximum", "bool"), ("maximum", "float16"), ("kthvalue", "float16"),
    ("nanmedian", "int8"), ("median_min", "float16"), ("nansum", "float16"), ("nanmean", "int16"),
    ("masked_scatter", "float16"), ("matmul", "float16"), ("matmul", "int8"), ("mm", "bfloat16"),
    ("mv", "complex64"), ("mv", "float16"), ("outer", "float16"), ("nonzero", "uint8"),
    ("norm", "float16"), ("pow", "bfloat16"), ("pow", "bool"), ("pow_tensor", "float16"),
    ("remainder", "float16"), ("remainder", "uint8"), ("renorm", "float16"), ("roll", "int8"),
    ("rot90", "float16"), ("polygamma", "bool"), ("polygamma", "bfloat16"), ("meshgrid", "bool"),
    ("logaddexp", "int8"), ("logaddexp", "bfloat16"), ("logical_and", "float16"),
    ("logical_not", "uint8"), ("multinomial", "float16"), ("pad", "float16"), ("pad3d", "int16"),
    ("pad3d", "bfloat16"), ("matrix_power", "float16"), ("multi_dot", "bfloat16"), ("poisson", "float16"),
    ("reciprocal_", "float16"), ("logit_", "bfloat16"), ("pow_", "int8"), ("polygamma_", "float16"),
    ("polar", "bool"), ("polar", "complex64"),
]


@pytest.mark.parametrize("op,dtype", _MISSING)
def test_a_dtype_without_a_cpu_kernel_is_a_runtime_error(op, dtype):
    assert isinstance(same_exception(lambda P: _OPS[op](P, _t(P, dtype))), RuntimeError)


# and the dtypes next to them that Paddle's kernels do take (integers of the autocast ops
# included), with Paddle's results
_TAKEN = [
    ("kron", "int32"), ("lgamma", "int8"), ("log2", "int32"), ("logit", "float64"),
    ("reciprocal", "complex64"), ("logsumexp", "int16"), ("round", "complex64"), ("mean", "bool"),
    ("prod", "complex64"), ("max", "int32"), ("maximum", "bfloat16"), ("nonzero", "int16"),
    ("nonzero", "bfloat16"), ("outer", "bool"), ("outer", "bfloat16"), ("pow_tensor", "bfloat16"),
    ("remainder", "complex64"), ("roll", "bool"), ("rot90", "complex128"), ("polygamma", "uint8"),
    ("meshgrid", "complex64"), ("logical_and", "int8"), ("norm", "complex64"), ("pad", "int16"),
    ("pad", "bfloat16"), ("pad3d", "int32"), ("reciprocal_", "float64"), ("pow_", "int64"),
]


@pytest.mark.parametrize("op,dtype", _TAKEN)
def test_the_dtypes_the_kernels_take_still_compute(op, dtype):
    def f(P):
        r = _OPS[op](P, _t(P, dtype))
        return [v.astype("float32") if v.dtype == P.bfloat16 else v for v in r] \
            if isinstance(r, (list, tuple)) else (r.astype("float32") if r.dtype == P.bfloat16 else r)
    both_same(f, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("fn", [
    lambda P: P.pow(_t(P, "float16"), _t(P, "float32")),      # the kernel runs in the promoted dtype
    lambda P: P.logical_or(_t(P, "float16"), _t(P, "float32")),
    lambda P: P.maximum(_t(P, "float16"), _t(P, "float32")),
    lambda P: _t(P, "bool") ** 2,                               # the operator casts bool to int64
    lambda P: 2 ** _t(P, "bool"),
    lambda P: P.rot90(_t(P, "int8"), 4),                        # a whole turn calls no kernel
    lambda P: P.median(_t(P, "float16"), 1),                    # the 'avg' median runs in float32
])
def test_promoted_and_operator_forms(fn):
    both_same(lambda P: fn(P).astype("float32"))


@pytest.mark.parametrize("op,dtype", [
    ("kron", "bool"), ("lgamma", "float16"), ("lerp", "int32"), ("prod", "float16"),
    ("matmul", "float16"), ("matmul", "bool"), ("mm", "int32"), ("mv", "bfloat16"),
    ("kthvalue", "complex64"), ("rot90", "complex64"), ("round", "bool"), ("nansum", "bfloat16"),
    ("nanmean", "float16"), ("maximum", "complex64"), ("logical_not", "uint8"), ("nonzero", "int8"),
])
def test_static_build_refuses_dtypes_as_paddle(op, dtype):
    same_static_exception(lambda P: _OPS[op](P, P.static.data("x", [3, 4], dtype)))


@pytest.mark.parametrize("op,dtype", [
    ("max", "bfloat16"), ("mean", "bfloat16"), ("matmul", "bfloat16"), ("matmul", "int8"),
    ("outer", "int8"), ("logaddexp", "bfloat16"),
])
def test_static_build_records_what_only_fails_when_run(op, dtype):
    def build(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                return list(_OPS[op](P, P.static.data("x", [3, 4], dtype)).shape)
        finally:
            P.disable_static()
    both_same(build)


def test_masked_select_static_dtype_check():
    for dtype in ("bool", "int8", "complex64"):
        same_static_exception(lambda P: P.masked_select(P.static.data("x", [3, 4], dtype),
                                                        P.static.data("m", [3, 4], "bool")))


def test_cpu_amp_keeps_low_precision_kernels():
    """pagaie's CPU AMP mode lets the CPU stand in for a GPU, whose kernels take float16."""
    from pagaie.amp import state
    prev = state.allow_cpu(True)
    try:
        x = pagaie.ones([2, 2], "float16")
        assert pagaie.matmul(x, x).dtype == pagaie.float16
    finally:
        state.allow_cpu(prev)


@pytest.mark.parametrize("p", [1.0, 2.0, 0.0, float("inf")])
def test_pdist_of_complex_rows_is_the_real_norm_of_the_moduli(p):
    from tests.reference import output_and_grads
    a = np.array([[1 + 2j, 0.5 - 1j, 3j], [2 - 1j, 1 + 1j, -1 + 0j], [0.5j, 2 + 0j, 1 - 1j]])
    both_same(lambda P: output_and_grads(P, [a], lambda P, x: P.pdist(x, p)))


@pytest.mark.parametrize("build", [
    lambda P: P.logspace(0, 10, 1.33, 2, dtype="int32"),                 # a float num
    lambda P: P.linspace(0, 10, 2.0),
    lambda P: P.logspace(P.static.data("s", [1], "float64"), 10, 1, 2, dtype="float32"),  # overflow
    lambda P: P.logspace(0, 10, 1, P.static.data("b", [1], "float64"), dtype="float32"),
    lambda P: P.linspace(0, P.static.data("e", [1], "float64"), 1, dtype="float32"),
    lambda P: P.linspace(P.static.data("s", [1], "int64"), 10, 3, dtype="int32"),
    lambda P: P.logspace(0, 10, P.static.data("n", [1], "float32"), 2),   # num int32 only
    lambda P: P.logspace(0, 10, P.static.data("n", [1], "int64"), 2),
])
def test_static_linspace_and_logspace_checks(build):
    same_static_exception(build)


def test_static_linspace_keeps_what_paddle_takes():
    def build(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                P.linspace(P.static.data("s", [1], "int64"), 10, 3, dtype="float32")
                P.linspace(0, 10, P.static.data("n", [1], "int64"))
                return P.logspace(P.static.data("s2", [1], "float32"), 10, 3, dtype="float64").dtype
        finally:
            P.disable_static()
    both_same(lambda P: str(build(P)))


@pytest.mark.parametrize("op,dtype", [
    ("pinv", "complex64"), ("matrix_norm", "float16"), ("pdist", "bfloat16"), ("multigammaln", "float16"),
    ("normal", "float16"), ("randint_like", "int8"), ("pad3d", "int16"),
])
def test_static_api_dtype_checks(op, dtype):
    fns = {
        "pinv": lambda P, x: P.linalg.pinv(x), "matrix_norm": lambda P, x: P.linalg.matrix_norm(x),
        "pdist": lambda P, x: P.pdist(x), "multigammaln": lambda P, x: P.multigammaln(x, 2),
        "normal": lambda P, x: P.normal(x, 1.0), "randint_like": lambda P, x: P.randint_like(x, 0, 3),
        "pad3d": _OPS["pad3d"],
    }
    same_static_exception(lambda P: fns[op](P, P.static.data("x", [3, 4], dtype)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_static_pad_records_low_precision(dtype):
    def build(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                x = P.static.data("x", [1, 3, 4], dtype)
                return list(P.nn.functional.pad(x, [1, 1]).shape)
        finally:
            P.disable_static()
    both_same(build)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16"])
def test_multigammaln_without_a_kernel(dtype):
    same_exception(lambda P: P.multigammaln(_t(P, dtype), 2))
