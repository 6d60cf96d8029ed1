"""Session-19 sweep: the dtypes Paddle 3.3.1's CPU kernels of the elementwise math ops take,
eagerly and while a static program is built and run, against real Paddle."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception

paddle = pytest.importorskip("paddle")

_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
           "float64", "complex64", "complex128"]
_STATIC_DTYPES = ("bool", "int8", "int32", "float16", "bfloat16", "complex64")
_VALS = np.array([0.25, 0.5, 1.5], "float32")
_UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp",
          "expm1", "floor", "log", "log10", "log1p", "log2", "reciprocal", "rsqrt", "sin", "sinh",
          "sqrt", "square", "tan", "tanh", "sign", "erf", "erfinv", "digamma", "lgamma", "gammaln",
          "i0", "i0e", "i1", "i1e", "sinc", "trunc", "frac", "round", "sgn", "signbit", "sigmoid"]


def _outcome(fn):
    """'ok <dtype>' or the exception type's name (a torch name in a message fails)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = fn()
    except Exception as exc:  # noqa: BLE001
        assert "torch" not in str(exc), str(exc)
        return type(exc).__name__
    return "ok " + str(getattr(r, "dtype", type(r).__name__)).replace("paddle.", "")


def _eager(P, fn, dt):
    return _outcome(lambda: fn(P, P.to_tensor(_VALS).astype(dt)))


def _static(P, fn, dt):
    """'build:<exc>' (raised while the program is built), 'run:<exc>' or 'ok'."""
    P.enable_static()
    try:
        main = P.static.Program()
        built = []
        with P.static.program_guard(main, P.static.Program()):
            x = P.static.data("x", [3], "float32")
            got = _outcome(lambda: built.append(fn(P, x.astype(dt))))
        if not built:
            return "build:" + got
        r = built[0]
        out = _outcome(lambda: P.static.Executor(P.CPUPlace()).run(
            main, feed={"x": _VALS}, fetch_list=[r]))
        return "ok" if out.startswith("ok") else "run:" + out
    finally:
        P.disable_static()


@pytest.mark.parametrize("op", _UNARY)
def test_unary_dtypes_eager_and_in_programs(op):
    ref = paddle_ref()

    def fn(P, x):
        return getattr(P, op)(x)

    def fn_(P, x):
        return getattr(P, op + "_")(x)
    diffs = []
    for dt in _DTYPES:
        for what, run, f in (("eager", _eager, fn), ("static", _static, fn)):
            if what == "static" and dt not in _STATIC_DTYPES:
                continue
            ours, theirs = run(pagaie, f, dt), run(ref, f, dt)
            if ours != theirs:
                diffs.append(f"{what} {dt}: pagaie {ours}, Paddle {theirs}")
        if hasattr(ref, op + "_") and hasattr(pagaie, op + "_"):
            ours, theirs = _eager(pagaie, fn_, dt), _eager(ref, fn_, dt)
            if ours != theirs:
                diffs.append(f"inplace {dt}: pagaie {ours}, Paddle {theirs}")
    assert not diffs, "\n".join(diffs)


_FNS = {
    "cumsum": lambda P, x: P.cumsum(x, 0), "cumsum_flat": lambda P, x: P.cumsum(x),
    "cumprod": lambda P, x: P.cumprod(x, 0), "cummax": lambda P, x: P.cummax(x, 0)[0],
    "cummin": lambda P, x: P.cummin(x, 0)[0], "logcumsumexp": lambda P, x: P.logcumsumexp(x, 0),
    "angle": lambda P, x: P.angle(x), "conj": lambda P, x: P.conj(x),
    "clip": lambda P, x: P.clip(x, 0.3, 1.0), "clip_int_bounds": lambda P, x: P.clip(x, 1, 2),
    "trapezoid": lambda P, x: P.trapezoid(x), "cumulative_trapezoid": lambda P, x: P.cumulative_trapezoid(x),
}


@pytest.mark.parametrize("name", sorted(_FNS))
def test_cumulative_angle_conj_clip_dtypes(name):
    """float16/bfloat16 CPU tensors: Paddle's kernels refuse them (clip's bfloat16 program
    builds and runs); logcumsumexp's bool/complex refusal is a TypeError while building."""
    ref, fn = paddle_ref(), _FNS[name]
    diffs = []
    for dt in _DTYPES:
        for what, run in (("eager", _eager), ("static", _static)):
            if what == "static" and dt not in _STATIC_DTYPES + ("complex128",):
                continue
            ours, theirs = run(pagaie, fn, dt), run(ref, fn, dt)
            if ours.split(" ")[0] != theirs.split(" ")[0] or (what == "eager" and ours != theirs):
                diffs.append(f"{what} {dt}: pagaie {ours}, Paddle {theirs}")
    assert not diffs, "\n".join(diffs)


_BINARY = ["multiply", "divide", "floor_divide", "atan2", "gcd", "lcm"]


@pytest.mark.parametrize("op", _BINARY)
def test_binary_same_dtype_pairs(op):
    """multiply's int8/uint8/int16, divide's float16/bfloat16 and atan2's bfloat16 CPU kernels
    do not exist; floor_divide refuses bool before dividing by zero; gcd and lcm programs take
    int32/int64 only, lcm's kernel no small ints or 16-bit floats."""
    ref = paddle_ref()
    xv = np.array([1.5, 2.5, 3.0], "float32")
    yv = np.array([1.5, 0.0 if op == "floor_divide" else 2.0, 1.0], "float32")

    def fn(P, x):
        return getattr(P, op)(x, P.to_tensor(yv).astype(x.dtype))
    diffs = []
    for dt in _DTYPES:
        if (op in ("gcd", "lcm") and dt.startswith("complex")) or (op == "multiply" and dt == "float16"):
            continue   # (deliberate: Paddle computes a float "gcd" of complex numbers; pagaie
            # multiplies float16 CPU tensors, as it adds them)
        ours = _outcome(lambda: fn(pagaie, pagaie.to_tensor(xv).astype(dt)))
        theirs = _outcome(lambda: fn(ref, ref.to_tensor(xv).astype(dt)))
        if ours != theirs and not (op == "floor_divide" and "Error" in ours
                                   and theirs == "EnforceNotMet"):
            diffs.append(f"eager {dt}: pagaie {ours}, Paddle {theirs}")
        if dt in _STATIC_DTYPES or dt in ("uint8", "int16", "float32"):
            ours, theirs = _static(pagaie, fn, dt), _static(ref, fn, dt)
            if ours.split(":")[0] != theirs.split(":")[0] and theirs != "run:RuntimeError":
                diffs.append(f"static {dt}: pagaie {ours}, Paddle {theirs}")
    assert not diffs, "\n".join(diffs)


def test_operators_with_numbers_keep_16_bit_floats():
    """``x / 2`` of a float16/bfloat16 tensor goes to Paddle's scale kernel, which has them."""
    for dt in ("float16", "bfloat16"):
        ours, theirs = (P.to_tensor([1.0, 3.0]).astype(dt) / 2 for P in (pagaie, paddle_ref()))
        assert str(ours.dtype) == str(theirs.dtype) == f"paddle.{dt}"
        np.testing.assert_allclose(ours.astype("float32").numpy(), theirs.astype("float32").numpy())


@pytest.mark.parametrize("op", ["multiply_", "subtract_", "hypot_"])
def test_inplace_binary_dtypes(op):
    """multiply_ of int8/uint8/int16 tensors, subtract_ of bools and hypot_ into an integer
    tensor are Paddle's NotFound (RuntimeError)."""
    ref = paddle_ref()
    diffs = []
    for dt in ("bool", "uint8", "int8", "int16", "int32", "int64", "float32"):
        def fn(P):
            x = P.to_tensor(np.array([1.5, 2.5, 3.0], "float32")).astype(dt)
            return getattr(P, op)(x, P.to_tensor(np.array([1.5, 2.0, 1.0], "float32")).astype(dt))
        ours, theirs = _outcome(lambda: fn(pagaie)), _outcome(lambda: fn(ref))
        if ours != theirs:
            diffs.append(f"{dt}: pagaie {ours}, Paddle {theirs}")
    assert not diffs, "\n".join(diffs)


def test_mixed_dtype_errors_come_in_paddles_order():
    """logaddexp's type promotion TypeError precedes its kernel check; atan2 of a complex
    tensor and a Python number fails on the number (AttributeError)."""
    same_exception(lambda P: P.logaddexp(P.to_tensor([1], "int8"), P.to_tensor([1], "int16")))
    same_exception(lambda P: P.atan2(P.to_tensor([1j]), 2.0))


def test_16_bit_floats_compute_where_the_cpu_stands_in_for_a_gpu():
    """The refusals are the CPU kernels' only: Paddle's GPU kernels (and pagaie's CPU AMP mode,
    and recorded programs as they run) take float16/bfloat16."""
    from pagaie._ops._helpers import cpu_as_gpu
    x = pagaie.to_tensor([0.25, 0.5]).astype("float16")
    with cpu_as_gpu():
        for r in (pagaie.acos(x), pagaie.cumsum(x, 0), pagaie.angle(x), pagaie.clip(x, 0.3, 0.4),
                  pagaie.divide(x, x), pagaie.sigmoid(x), pagaie.cummax(x, 0)[0]):
            assert r.dtype == pagaie.float16
        i8 = pagaie.to_tensor([2, 3]).astype("int8")
        assert (i8 * i8).numpy().tolist() == [4, 9]
    with pytest.raises(RuntimeError):
        pagaie.acos(x)


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "int32", "bfloat16", "float32"])
def test_operators_with_a_python_bool(dt):
    """A Python bool operand becomes a tensor of the other operand's dtype and runs the
    elementwise kernel, not scale: int8 * True, bfloat16 / True and uint8 - True find no
    CPU kernel there."""
    def cases(P):
        x = P.to_tensor(np.array([1, 2, 3], "float32")).astype(dt)
        # (not copied: pagaie adds bfloat16 CPU tensors)
        return [lambda: True - x, lambda: True * x, lambda: x - False, lambda: x * False,
                lambda: x / True, lambda: True / x] + ([] if dt == "bfloat16" else [lambda: False + x])
    ref = paddle_ref()
    assert [_outcome(f) for f in cases(pagaie)] == [_outcome(f) for f in cases(ref)]


@pytest.mark.parametrize("api", ["remainder", "mod", "floor_mod"])
def test_remainder_refuses_a_python_complex(api):
    """paddle.remainder's argument parser takes a Python int or float, not a complex (the
    ``%`` operator does)."""
    same_exception(lambda P: getattr(P, api)(P.to_tensor([1.0, 2.0]), 1j))
    same_exception(lambda P: P.to_tensor([1.0, 2.0]).remainder(1j))
    ours, theirs = both(lambda P: P.to_tensor([1.0, 2.0]) % 1j)
    assert str(ours.dtype) == str(theirs.dtype)


@pytest.mark.parametrize("dt", ["bool", "uint8", "float32", "complex64"])
def test_copysign_refuses_a_python_complex(dt):
    same_exception(lambda P: P.copysign(P.to_tensor([1.0, -2.0]).astype(dt), 1j))


@pytest.mark.parametrize("api", ["gammainc", "gammaincc"])
def test_igamma_dtype_errors_come_in_paddles_order(api):
    """Paddle's incomplete gamma picks its kernel by y's dtype (NotFound, RuntimeError, when it
    has none) before finding x of another dtype (ValueError); a number y fails first
    (AttributeError)."""
    def f(dx, dy):
        return lambda P: getattr(P, api)(P.to_tensor([1.0, 2.0]).astype(dx),
                                         P.to_tensor([1.0, 2.0]).astype(dy))
    for dx, dy in [("float32", "int32"), ("float64", "float16"), ("float32", "float64"),
                   ("int32", "float32"), ("int64", "int64")]:
        same_exception(f(dx, dy))
    same_exception(lambda P: getattr(P, api)(P.to_tensor([1, 2]), 2.0))


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_divide_rounding_modes_take_16_bit_floats(mode):
    """Paddle's trunc/floor division kernels have float16/bfloat16 CPU versions (true division
    has not) and no bool or complex ones (refused while a program is built)."""
    ref = paddle_ref()

    def fn(P, x):
        return P.divide(x, x + 1 if x.dtype != P.bool else x, rounding_mode=mode)
    for dt in ("bool", "int32", "float16", "bfloat16", "complex64"):
        assert _eager(pagaie, fn, dt) == _eager(ref, fn, dt), dt
        assert _static(pagaie, fn, dt).split(":")[0] == _static(ref, fn, dt).split(":")[0], dt


def test_bfloat16_power_operator():
    """``x ** 2`` of a bfloat16 tensor: pow's scalar CPU kernel has no bfloat16 (RuntimeError)
    eagerly, but a program (and ``x ** True``) uses elementwise_pow, which has."""
    ref = paddle_ref()

    for f in (lambda P, x: x ** 2, lambda P, x: x ** 0.5, lambda P, x: x ** True):
        assert _eager(pagaie, f, "bfloat16") == _eager(ref, f, "bfloat16")
        assert _static(pagaie, f, "bfloat16") == _static(ref, f, "bfloat16")
