"""Unary elementwise math: trigonometric, exponential, logarithmic, rounding and special functions.

Most ops here are one torch call; they are declared from the table :data:`_TABLE`
(name, torch function, one-line description, example) so each stays one record
with its own docstring. Integer inputs of the transcendental ops give float32
results, as in Paddle.
"""
from __future__ import annotations

import math
import numbers

import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor
from pagaie._ops._helpers import (ALL_DTYPES, LOW_FLOATS, SMALL_INTS, float_inplace,
                                  kernel_dtypes, no_grad_kernel, no_small_int_kernel, reject_bool, write_out)

__all__: list[str] = []

_SPECIAL = torch.special
_D2R = 3.141592653589793 / 180.0
_R2D = 180.0 / 3.141592653589793


def _sign(x: torch.Tensor, fn) -> torch.Tensor:
    """Sign as Paddle computes it: NaN propagates (torch gives 0), complex is ``x / |x|``."""
    if x.is_complex():  # x / |x|, with the zero gradient sign has (torch's sgn has one)
        r = torch.sgn(x.detach())
        return torch.where(torch.zeros((), dtype=torch.bool, device=x.device), x, r) \
            if x.requires_grad else r
    r = fn(x)
    # the NaN comes from a detached x: the gradient of sign is 0 at NaN too
    return torch.where(x.isnan(), x.detach(), r) if x.is_floating_point() else r


def _sgn_complex(x: torch.Tensor) -> torch.Tensor:
    """Paddle's complex ``sgn``: the real and imaginary parts each divided by ``|x|``, a NaN
    part (from ``0 / 0``, ``inf / inf`` or a NaN input) set to 0."""
    r = torch.view_as_real(x) / x.abs().unsqueeze(-1)
    zero = torch.zeros((), dtype=r.dtype, device=r.device)
    return torch.view_as_complex(torch.where(torch.isnan(r), zero, r))


def _scale_by(x: torch.Tensor, s: float) -> torch.Tensor:
    """``x * s + 0`` as Paddle's ``scale`` kernel computes deg2rad/rad2deg: floats multiply by
    ``s`` in their own dtype (a float16/bfloat16 factor is rounded to it first) and the added
    0 turns ``-0.0`` into ``0.0``. int32/int64 are cast to float32 first, as Paddle does;
    int8/int16/uint8 keep their dtype and multiply by ``int(s)`` (wrapping), and bool by
    ``bool(s)``, as Paddle's integer kernels do (deg2rad gives zeros and the booleans)."""
    if x.dtype is torch.bool:
        return x.clone() if s else torch.zeros_like(x)
    if x.dtype in (torch.int8, torch.int16, torch.uint8):
        return x * int(s)
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.float32)
    if x.dtype in (torch.float16, torch.bfloat16):
        return x * torch.tensor(s, dtype=x.dtype, device=x.device) + 0.0
    return x * s + 0.0


_SQRT1_2 = 0.7071067811865476


def _erfinv(x: torch.Tensor) -> torch.Tensor:
    """Paddle's CPU erfinv: ``ndtri(x / 2 + 1 / 2) / sqrt(2)``, so an input above 1 (below -1)
    gives +inf (-inf) rather than NaN, and tiny inputs round as that formula does. 16-bit
    floats are computed in float32."""
    low = x.dtype in (torch.float16, torch.bfloat16)
    xf = x.to(torch.float32) if low else x
    r = _Erfinv.apply(xf) if xf.requires_grad and torch.is_grad_enabled() else _erfinv_values(xf)
    return r.to(x.dtype) if low else r


def _erfinv_values(x: torch.Tensor) -> torch.Tensor:
    return torch.special.ndtri((x * 0.5 + 0.5).clamp(0, 1)) * _SQRT1_2


class _Erfinv(torch.autograd.Function):
    """erfinv with Paddle's gradient ``sqrt(pi) / 2 * exp(out^2)``: +inf outside [-1, 1]
    too, where the clamp of the formula above would give 0."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        out = _erfinv_values(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (out,) = ctx.saved_tensors
        return g * (math.sqrt(math.pi) / 2) * torch.exp(out * out)


class _Quotient(torch.autograd.Function):
    """``a / b`` with the gradients of Paddle's divide kernel (``-g * out / b`` for ``b``), so
    that a composite built on it rounds its gradient as Paddle's does."""

    @staticmethod
    def forward(ctx, a, b):
        out = a / b
        ctx.save_for_backward(b, out)
        return out

    @staticmethod
    def backward(ctx, g):
        b, out = ctx.saved_tensors
        return g / b, -g * out / b


class _Digamma(torch.autograd.Function):
    """digamma whose gradient is Paddle's trigamma (``polygamma(1, x)``), +inf at the poles 0,
    -1, -2... and at -inf and NaN at +inf, where torch's trigamma is finite there."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        ctx.save_for_backward(x)
        return torch.digamma(x)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        from pagaie._ops.math import _trigamma   # (math imports this module)
        (x,) = ctx.saved_tensors
        return g * _trigamma(x, torch.polygamma(1, x))


class _I0e(torch.autograd.Function):
    """i0e with Paddle's gradient ``i1e(x) - sign(x) * i0e(x)`` where the sign of a zero is
    its sign bit: -1 at +0 and 1 at -0 (torch's is 0 there)."""

    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        out = _SPECIAL.i0e(x)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        x, out = ctx.saved_tensors
        return g * (_SPECIAL.i1e(x) - torch.copysign(torch.ones_like(x), x) * out)


def _digamma(x: torch.Tensor) -> torch.Tensor:
    return _Digamma.apply(x) if x.requires_grad and torch.is_grad_enabled() else torch.digamma(x)


def _i0e(x: torch.Tensor) -> torch.Tensor:
    return _I0e.apply(x) if x.requires_grad and torch.is_grad_enabled() else _SPECIAL.i0e(x)


def _sinc(x: torch.Tensor) -> torch.Tensor:
    if x.dtype is torch.int32 or x.dtype is torch.int64:  # (the others: no CPU kernel)
        raise TypeError(f"paddle.sinc: 'x' must be a float16, bfloat16, float32 or float64 "
                        f"tensor, but received {str(x.dtype).replace('torch.', '')}")
    if not x.is_floating_point():  # bool and complex: torch's kernel (1 at NaN as below)
        r = torch.sinc(x)
        return torch.where(torch.isnan(r), torch.ones((), dtype=r.dtype, device=r.device), r)
    # Paddle's composite: t = pi * (x, or 1e-20 where x is 0); sin(t) / t, and 1 where that
    # is NaN (x NaN or infinite, or pi x overflowing)
    t = torch.where(x != 0, x, 1e-20) * math.pi
    r = _Quotient.apply(torch.sin(t), t) if t.requires_grad else torch.sin(t).div_(t)
    return torch.where(torch.isnan(r), 1.0, r)


def _rsqrt(x: torch.Tensor) -> torch.Tensor:
    if x.is_complex():  # no Paddle kernel (NotFound: RuntimeError)
        raise RuntimeError(f"paddle.rsqrt: {str(x.dtype)[6:]} tensors are not supported; 'x' must be "
                           "a real number tensor")
    return torch.rsqrt(x)


def _abs(x: torch.Tensor) -> torch.Tensor:
    """``|x|``. With a gradient to record, ``x * sign(x)`` with the sign held constant: Paddle's
    abs gradient ``sign(x)`` has no gradient of its own (a second derivative does not reach
    ``x``), where torch's would be an immutable zero tensor that breaks a later accumulation.
    Adding 0 turns ``-0.0`` into ``0.0``, as ``|x|`` gives."""
    if x.requires_grad and x.is_floating_point() and torch.is_grad_enabled():
        return x * torch.sign(x).detach() + 0.0
    return torch.abs(x)


def _ceil(x: torch.Tensor) -> torch.Tensor:
    """``ceil``; Paddle has no complex kernel (torch's meta kernel would let a program take one)."""
    if x.is_complex():
        raise NoKernelError(f"paddle.ceil: complex tensors are not supported (received "
                            f"{_dt.from_torch_dtype(x.dtype).name})")
    return torch.ceil(x)


# name: (torch function, description, example input, example output, has ``out=``,
#        in-place variant ('P': paddle.<name>_ and Tensor.<name>_, 'T': Tensor method only,
#        'F': paddle.<name>_ only),
#        amp policy: "black" exactly for the ops on Paddle's O1 black list)
_TABLE = {
    "abs": (_abs, "Elementwise absolute value ``|x|`` (the gradient at 0 is 0).",
            "[-1.5, 0.0, 2.0]", "[1.5, 0.0, 2.0]", True, "P", "promote"),
    "acos": (torch.acos, "Elementwise arc cosine, in radians.",
             "[0.0, 0.5, 1.0]", "[1.5708, 1.0472, 0.0]", True, "P", "black"),
    "acosh": (torch.acosh, "Elementwise inverse hyperbolic cosine.",
              "[1.0, 2.0]", "[0.0, 1.317]", True, "P", "promote"),
    "asin": (torch.asin, "Elementwise arc sine, in radians.",
             "[0.0, 0.5, 1.0]", "[0.0, 0.5236, 1.5708]", True, "P", "black"),
    "asinh": (torch.asinh, "Elementwise inverse hyperbolic sine.",
              "[0.0, 1.0]", "[0.0, 0.8814]", False, "P", "promote"),
    "atan": (torch.atan, "Elementwise arc tangent, in radians.",
             "[0.0, 1.0]", "[0.0, 0.7854]", False, "P", "promote"),
    "atanh": (torch.atanh, "Elementwise inverse hyperbolic tangent.",
              "[0.0, 0.5]", "[0.0, 0.5493]", True, "P", "black"),
    "ceil": (_ceil, "Elementwise ceiling: the smallest integer not below ``x``.",
             "[-1.5, 0.2, 2.0]", "[-1.0, 1.0, 2.0]", True, "T", "promote"),
    "cos": (torch.cos, "Elementwise cosine.", "[0.0, 3.1416]", "[1.0, -1.0]", True, "P", "promote"),
    "cosh": (torch.cosh, "Elementwise hyperbolic cosine.", "[0.0, 1.0]", "[1.0, 1.5431]", True, "P",
             "black"),
    "exp": (torch.exp, "Elementwise natural exponential ``e ** x``.", "[0.0, 1.0]", "[1.0, 2.7183]",
            True, "T", "black"),
    "expm1": (torch.expm1, "Elementwise ``exp(x) - 1``, accurate for small ``x``.", "[0.0, 1.0]",
              "[0.0, 1.7183]", True, "F", "black"),
    "floor": (torch.floor, "Elementwise floor: the largest integer not above ``x``.",
              "[-1.5, 0.2, 2.0]", "[-2.0, 0.0, 2.0]", True, "T", "promote"),
    "log": (torch.log, "Elementwise natural logarithm.", "[1.0, 2.718281828459045]", "[0.0, 1.0]",
            True, "P", "black"),
    "log10": (torch.log10, "Elementwise base-10 logarithm.", "[1.0, 100.0]", "[0.0, 2.0]", True, "P",
              "black"),
    "log1p": (torch.log1p, "Elementwise ``log(1 + x)``, accurate for small ``x``.", "[0.0, 1.0]",
              "[0.0, 0.6931]", True, "P", "promote"),
    "log2": (torch.log2, "Elementwise base-2 logarithm.", "[1.0, 8.0]", "[0.0, 3.0]", True, "P",
             "black"),
    "reciprocal": (torch.reciprocal, "Elementwise reciprocal ``1 / x``.", "[2.0, 4.0]",
                   "[0.5, 0.25]", False, "T", "black"),
    "rsqrt": (_rsqrt, "Elementwise reciprocal square root ``1 / sqrt(x)``.", "[4.0, 16.0]",
              "[0.5, 0.25]", True, "T", "black"),
    "sin": (torch.sin, "Elementwise sine.", "[0.0, 1.5707963267948966]", "[0.0, 1.0]", True, "P",
            "promote"),
    "sinh": (torch.sinh, "Elementwise hyperbolic sine.", "[0.0, 1.0]", "[0.0, 1.1752]", True, "P",
             "black"),
    "sqrt": (torch.sqrt, "Elementwise square root.", "[4.0, 9.0]", "[2.0, 3.0]", True, "T", "promote"),
    "square": (torch.square, "Elementwise square ``x * x``.", "[2.0, -3.0]", "[4.0, 9.0]", False, "P",
               "black"),
    "tan": (torch.tan, "Elementwise tangent.", "[0.0, 0.7853981633974483]", "[0.0, 1.0]", False, "P",
            "black"),
    "tanh": (torch.tanh, "Elementwise hyperbolic tangent.", "[0.0, 1.0]", "[0.0, 0.7616]", True, "P",
             "promote"),
    "sign": (lambda x: _sign(x, torch.sign), "Elementwise sign: -1, 0 or 1 (NaN stays NaN; "
             "``x / |x|`` for complex; the gradient is 0).", "[-2.0, 0.0, 3.0]", "[-1.0, 0.0, 1.0]",
             True, None, "promote"),
    "deg2rad": (lambda x: _scale_by(x, _D2R),
                "Convert angles from degrees to radians.", "[180.0, 90.0]", "[3.1416, 1.5708]", False,
                None, "promote"),
    "rad2deg": (lambda x: _scale_by(x, _R2D),
                "Convert angles from radians to degrees.", "[3.141592653589793, 1.0]",
                "[180.0, 57.2958]", False, None, "promote"),
    "erf": (torch.erf, "Elementwise Gauss error function.", "[0.0, 1.0]", "[0.0, 0.8427]", False, "F",
            "promote"),
    "erfinv": (_erfinv, "Elementwise inverse error function (+-inf outside ``[-1, 1]``, as "
               "Paddle's).", "[0.0, 0.5]", "[0.0, 0.4769]",
               False, "T", "black"),
    "digamma": (_digamma, "Elementwise digamma function, the derivative of ``lgamma``.",
                "[1.0, 2.0]", "[-0.5772, 0.4228]", False, "P", "promote"),
    "lgamma": (torch.lgamma, "Elementwise log of the absolute value of the gamma function.",
               "[1.0, 3.5]", "[0.0, 1.201]", False, "P", "promote"),
    "gammaln": (torch.lgamma, "Elementwise log of the absolute value of the gamma function "
                "(same as ``lgamma``).", "[1.0, 3.5]", "[0.0, 1.201]", False, "P", "promote"),
    "i0": (torch.i0, "Elementwise modified Bessel function of the first kind, order 0.",
           "[0.0, 1.0]", "[1.0, 1.2661]", False, "P", "promote"),
    "i0e": (_i0e, "Elementwise exponentially scaled modified Bessel function, order 0 "
            "(``exp(-|x|) * i0(x)``).", "[0.0, 1.0]", "[1.0, 0.4658]", False, None, "promote"),
    "i1": (_SPECIAL.i1, "Elementwise modified Bessel function of the first kind, order 1.",
           "[0.0, 1.0]", "[0.0, 0.5652]", False, None, "promote"),
    "i1e": (_SPECIAL.i1e, "Elementwise exponentially scaled modified Bessel function, order 1 "
            "(``exp(-|x|) * i1(x)``).", "[0.0, 1.0]", "[0.0, 0.2079]", False, None, "promote"),
    "sinc": (_sinc, "Elementwise normalized sinc ``sin(pi x) / (pi x)`` (1 at 0).",
             "[0.0, 0.5]", "[1.0, 0.6366]", False, "P", "promote"),
}

_DOC = '''{desc}

    Args:
        x (Tensor): the input tensor.
        name (str, optional): unused, for Paddle compatibility.{out_doc}

    Returns:
        Tensor: same shape as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.{name}(paddle.to_tensor({ex_in}, 'float64')).numpy().round(4).tolist()
        {ex_out}
    '''
_OUT_DOC = "\n        out (Tensor, optional): also store the result in this tensor."


_INT_INPLACE = frozenset({"exp", "expm1", "log", "log2", "log10", "log1p"})
# Ops Paddle runs on an integer input by casting it to float32 untracked first: their result
# then says stop_gradient=True (exp, log... have integer kernels and pass it on).
_INT_AUTOCAST = frozenset({"acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh",
                           "digamma", "erf", "erfinv", "i0", "i0e", "i1", "i1e", "lgamma",
                           "reciprocal", "rsqrt", "sin", "sinh", "sqrt", "tan", "tanh"})


# Ops whose kernel here is not torch's (their in-place form writes the out-of-place result back)
# ops whose in-place form must not be torch's own: a kernel of ours, or (asinh_, atanh_, acosh_)
# a torch in-place kernel without a derivative
_OWN_KERNEL = frozenset({"erfinv", "sinc", "rsqrt", "asinh", "atanh", "acosh", "digamma", "i0e"})

# Ops that Paddle also runs on bool tensors (giving bool); every other op of the table has no
# bool kernel there (RuntimeError).
_BOOL_OK = frozenset({"deg2rad", "rad2deg"})


_F = (torch.float32, torch.float64)
_C = frozenset((torch.complex64, torch.complex128))
_BF16 = frozenset({torch.bfloat16})
# The dtypes that Paddle's CPU kernel of an op of the table lacks (its NotFound, RuntimeError;
# while a program is built, the TypeError of its build-time check). bool is ruled out by
# _BOOL_OK. An integer input of an int_autocast op runs the float32 kernel.
_NO_CPU_KERNEL = {
    **dict.fromkeys(("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin",
                     "sinh", "tan", "tanh", "sqrt", "sign", "reciprocal"), LOW_FLOATS),
    "abs": LOW_FLOATS | SMALL_INTS, "square": LOW_FLOATS | SMALL_INTS,
    "rsqrt": LOW_FLOATS | _C, "ceil": _C, "floor": _C,
    "exp": SMALL_INTS | _BF16, "expm1": SMALL_INTS | _BF16,
    **dict.fromkeys(("log", "log2", "log10", "log1p"), SMALL_INTS),
    "erf": _BF16 | _C,
    **dict.fromkeys(("erfinv", "digamma", "lgamma", "i0", "i0e", "i1", "i1e"), LOW_FLOATS | _C),
    "gammaln": ALL_DTYPES - frozenset(_F),
    "sinc": LOW_FLOATS | SMALL_INTS,   # (int32/int64: the TypeError of its Python check)
    # and of the unary ops declared below the table
    "trunc": LOW_FLOATS | SMALL_INTS | _C, "round": LOW_FLOATS | SMALL_INTS,
    "signbit": LOW_FLOATS | _C, "sigmoid": LOW_FLOATS,
}
# Dtypes that Paddle's build-time check of a program takes although its CPU kernel lacks them
# (the program then runs: oneDNN kernels); every other refused dtype is refused there too.
# sinc's complex kernel runs eagerly, but its program-time check refuses complex.
_PROGRAM_ONLY = {"abs": _BF16, "exp": _BF16, "sqrt": _BF16, "tanh": _BF16, "sigmoid": _BF16}
_NOT_IN_PROGRAMS = {"sinc": _C}
_CPU_DTYPES = {op: ALL_DTYPES - refused for op, refused in _NO_CPU_KERNEL.items()}
# Dtypes whose forward CPU kernel Paddle has but not the gradient kernel (a backward through
# them is its NotFound)
_NO_CPU_GRAD_KERNEL = {"exp": frozenset({torch.float16}),
                       **dict.fromkeys(("log", "log2", "log10", "log1p"), LOW_FLOATS)}
_PROGRAM_DTYPES = {op: (_CPU_DTYPES[op] | _PROGRAM_ONLY.get(op, frozenset()))
                   - _NOT_IN_PROGRAMS.get(op, frozenset())
                   for op in {**_PROGRAM_ONLY, **_NOT_IN_PROGRAMS}}


def _inplace_kernel(opname, fn, inplace_fn):
    """The in-place kernel of a unary op: torch's ``<op>_``; for the ops Paddle also runs in
    place on an integer tensor (which then becomes float), the out-of-place result there.
    Without a torch ``<op>_``, the out-of-place result, for floating inputs only."""
    iname = opname + "_"
    if inplace_fn is None:
        def ikernel(x, name=None):
            float_inplace(iname, x)
            return fn(x)
    elif opname in _INT_INPLACE:
        def ikernel(x, name=None):
            if x.is_floating_point() or x.is_complex():
                return inplace_fn(x)
            reject_bool(iname, x)
            return fn(x)
    elif opname == "abs":  # a complex x becomes real, as in Paddle
        def ikernel(x, name=None):
            reject_bool(iname, x)
            return fn(x) if x.is_complex() else inplace_fn(x)
    else:
        def ikernel(x, name=None):
            reject_bool(iname, x)
            return inplace_fn(x)
    return ikernel


def _checked(fn, api, cpu_dtypes, program_dtypes):
    def checked(x, name=None):
        if x.dtype not in cpu_dtypes:
            kernel_dtypes(api, x, cpu_dtypes, static=program_dtypes)
        return fn(x)
    return checked


def _declare(opname, fn, desc, ex_in, ex_out, has_out, inplace, amp):
    # The dtype checks sit in the kernel itself behind one set lookup: these are hot, one more
    # call shows. ``ok`` holds the dtypes that need no check (bool only where the op takes it).
    bool_ok = opname in _BOOL_OK
    cpu_dtypes = _CPU_DTYPES.get(opname)
    program_dtypes = _PROGRAM_DTYPES.get(opname)
    no_grad = _NO_CPU_GRAD_KERNEL.get(opname, frozenset())
    ok = cpu_dtypes if cpu_dtypes is not None else ALL_DTYPES
    if program_dtypes is not None:
        ok = ok & program_dtypes
    if not bool_ok:
        ok = ok - {torch.bool}
    ok = ok - no_grad

    def check(x):
        if x.dtype is torch.bool and not bool_ok:
            reject_bool(opname, x)
        if cpu_dtypes is not None:
            kernel_dtypes(opname, x, cpu_dtypes, static=program_dtypes)

    def checked(x):
        check(x)
        if x.dtype in no_grad and x.requires_grad:
            return no_grad_kernel(opname, fn(x), x, no_grad)
        return fn(x)
    if has_out:
        def kernel(x, name=None, *, out=None):
            r = fn(x) if x.dtype in ok else checked(x)
            return r if out is None else write_out(out, r)
    else:
        def kernel(x, name=None):
            return fn(x) if x.dtype in ok else checked(x)
    kernel.__name__ = kernel.__qualname__ = opname
    kernel.__doc__ = _DOC.format(desc=desc, name=opname, ex_in=ex_in, ex_out=ex_out,
                                 out_doc=_OUT_DOC if has_out else "")
    torch_inplace = None if opname in _OWN_KERNEL else getattr(torch.Tensor, opname + "_", None)
    ikernel = _inplace_kernel(opname, fn, torch_inplace) if inplace \
        else False
    if ikernel and cpu_dtypes is not None:
        ikernel = _checked(ikernel, opname + "_", cpu_dtypes, program_dtypes)
    api = defop(opname, amp=amp, paddle_types=(opname, f"pd_op.{opname}"), inplace=ikernel,
                int_autocast=opname in _INT_AUTOCAST)(kernel)
    globals()[opname] = api
    __all__.append(opname)
    if inplace in ("P", "F"):
        globals()[opname + "_"] = api.inplace
        __all__.append(opname + "_")
    if inplace == "F":
        delattr(Tensor, opname + "_")


for _n, _row in _TABLE.items():
    _declare(_n, *_row)


_TRUNC_CPU_DTYPES = _CPU_DTYPES["trunc"] - {torch.bool}


@defop(paddle_types=("trunc", "pd_op.trunc"), inplace=True,
       program_dtypes={"input": _TRUNC_CPU_DTYPES})   # its CPU kernels
def trunc(input, name=None):
    """Elementwise truncation toward zero.

    Args:
        input (Tensor): the input tensor.
        name (str, optional): unused.

    Returns:
        Tensor: same shape and dtype as ``input``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.trunc(paddle.to_tensor([-1.5, 0.7, 2.0])).tolist()
        [-1.0, 0.0, 2.0]
    """
    if input.dtype in SMALL_INTS:
        no_small_int_kernel("trunc", input, "input")
    elif input.dtype in LOW_FLOATS:   # no float16/bfloat16 CPU kernel either
        kernel_dtypes("trunc", input, _TRUNC_CPU_DTYPES, "input")
    return torch.trunc(input)


# Paddle's frac checks its input against this list (no bfloat16) before any kernel runs.
_FRAC_DTYPES = frozenset({torch.int32, torch.int64, torch.float16, torch.float32, torch.float64})
_FRAC_CPU_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))


@defop(paddle_types=("frac", "pd_op.frac"), inplace=True)
def frac(x, name=None, *, out=None):
    """Elementwise fractional part ``x - trunc(x)`` (zero for integer tensors).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.frac(paddle.to_tensor([-1.5, 0.75, 2.0])).tolist()
        [-0.5, 0.75, 0.0]
    """
    if x.dtype not in _FRAC_DTYPES:
        raise TypeError(f"paddle.frac: the input dtype must be int32, int64, float16, float32 or "
                        f"float64, but received {str(x.dtype).replace('torch.', '')}")
    if x.dtype is torch.float16:   # (accepted by the Python check, no CPU kernel)
        kernel_dtypes("frac", x, _FRAC_CPU_DTYPES)
    r = torch.frac(x) if x.is_floating_point() else torch.zeros_like(x)
    return r if out is None else write_out(out, r)


_ROUND_DTYPES = _CPU_DTYPES["round"] - {torch.bool}


def _round(x: torch.Tensor, decimals: int) -> torch.Tensor:
    return torch.round(x) if decimals == 0 or not x.is_floating_point() else torch.round(x, decimals=decimals)


@defop(paddle_types=("round", "pd_op.round"), inplace=True)
def round(x, decimals=0, name=None, *, out=None):
    """Round to ``decimals`` decimal places; halves go to the nearest even value.

    Args:
        x (Tensor): the input tensor.
        decimals (int, optional): number of decimal places. Default 0.
        name (str, optional): unused.
        out (Tensor, optional): also store the result here.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.round(paddle.to_tensor([0.5, 1.5, -2.7])).tolist()
        [0.0, 2.0, -3.0]
        >>> paddle.round(paddle.to_tensor([1.2345], 'float64'), decimals=2).tolist()
        [1.23]
    """
    if not isinstance(decimals, numbers.Integral) or isinstance(decimals, bool):
        raise TypeError(f"paddle.round: 'decimals' must be an int, but received "
                        f"{type(decimals).__name__} {decimals!r}")
    decimals = int(decimals)
    if x.dtype not in _ROUND_DTYPES:
        kernel_dtypes("round", x, _ROUND_DTYPES)
    if x.is_complex():  # real and imaginary parts separately
        r = torch.complex(_round(x.real, decimals), _round(x.imag, decimals))
    else:
        r = _round(x, decimals)
    return r if out is None else write_out(out, r)


def _neg_inplace(x, name=None):
    if x.dtype is torch.bool:
        return x
    # one write (one inplace_version), 0 - x: a zero comes out +0.0 as Paddle's x * -1 + 0
    if not (x.is_floating_point() or x.is_complex()):
        return x.neg_()
    return x.neg_().add_(0) if x.requires_grad else torch.sub(0, x, out=x)


@defop(paddle_types=("neg", "pd_op.neg"), method=("neg",), inplace=_neg_inplace)
def neg(x, name=None):
    """Elementwise negation ``-x``. As Paddle's (``x * -1 + 0``), a zero comes out ``+0.0``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.neg(paddle.to_tensor([1.0, -2.0, 0.0])).tolist()
        [-1.0, 2.0, 0.0]
    """
    return torch.rsub(x, 0) if x.dtype is not torch.bool else x.clone()


neg_ = neg.inplace


def negative(x: Tensor, name: str | None = None) -> Tensor:
    """Elementwise negation ``-x``, as :func:`neg`, except that a bool tensor is rejected
    (``TypeError``, as Paddle's ``negative``; ``neg`` and ``-x`` return it unchanged).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.negative(paddle.to_tensor([1, 0, -1])).tolist()
        [-1, 0, 1]
    """
    if x.dtype == _dt.bool:
        raise TypeError("paddle.negative: the '-' operator is not supported on a bool tensor "
                        "(received dtype bool)")
    return neg(x)


Tensor.negative = negative


@defop(paddle_types=("positive",), method=("positive",), sparse_ok=True)
def positive(x, name=None):
    """Returns ``x`` itself (unary plus); boolean tensors are rejected.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.positive(paddle.to_tensor([1.0, -2.0])).tolist()
        [1.0, -2.0]
    """
    if x.dtype is torch.bool:
        raise TypeError("paddle.positive: the input must be a numeric tensor, but received bool")
    return x


@defop(paddle_types=("sgn", "pd_op.sgn"))
def sgn(x, name=None):
    """Sign for real tensors; ``x / |x|`` for complex tensors, each part that comes out NaN
    (``0 / 0``, ``inf / inf``, a NaN input) set to 0, as Paddle's.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.sgn(paddle.to_tensor([-2.0, 0.0, 3.0])).tolist()
        [-1.0, 0.0, 1.0]
    """
    if not (x.is_floating_point() or x.is_complex()) or x.dtype is torch.bfloat16:
        raise TypeError(f"paddle.sgn: the input dtype must be float16, float32, float64, complex64 or "
                        f"complex128, but received {str(x.dtype).replace('torch.', '')}")
    if x.dtype is torch.float16:   # its dtype check takes float16, the CPU sign kernel does not
        kernel_dtypes("sgn", x, ALL_DTYPES - LOW_FLOATS)
    return _sgn_complex(x) if x.is_complex() else _sign(x, torch.sign)


_SIGNBIT_DTYPES = _CPU_DTYPES["signbit"]
_SIGMOID_DTYPES = _CPU_DTYPES["sigmoid"] - {torch.bool}


def _sigmoid_check(x: torch.Tensor, api: str) -> None:
    if x.dtype is torch.bool:
        reject_bool(api, x)
    kernel_dtypes(api, x, _SIGMOID_DTYPES, static=_PROGRAM_DTYPES["sigmoid"])


def _sigmoid_inplace(x, name=None):
    if x.dtype not in _SIGMOID_DTYPES:
        _sigmoid_check(x, "sigmoid_")
    return x.sigmoid_()


@defop(paddle_types=("signbit",), differentiable=False)
def signbit(x, name=None):
    """Whether the sign bit of each element is set (True for negatives and -0.0).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.signbit(paddle.to_tensor([-1.0, 0.0, 2.0])).tolist()
        [True, False, False]
    """
    reject_bool("signbit", x)
    if x.dtype not in _SIGNBIT_DTYPES:
        kernel_dtypes("signbit", x, _SIGNBIT_DTYPES)
    return torch.signbit(x)


@defop(paddle_types=("sigmoid", "pd_op.sigmoid"), inplace=_sigmoid_inplace,
       int_autocast=True)
def sigmoid(x, name=None, *, out=None):
    """Elementwise logistic sigmoid ``1 / (1 + exp(-x))``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([0.0, 2.0], 'float64').sigmoid().numpy().round(4).tolist()
        [0.5, 0.8808]
    """
    if x.dtype not in _SIGMOID_DTYPES:
        _sigmoid_check(x, "sigmoid")
    r = torch.sigmoid(x)
    return r if out is None else write_out(out, r)


__all__ += ["trunc", "trunc_", "frac", "frac_", "round", "neg", "neg_", "negative", "positive", "sgn",
            "signbit", "sigmoid"]
trunc_ = trunc.inplace
frac_ = frac.inplace

Tensor.__neg__ = neg
Tensor.__pos__ = positive
Tensor.__abs__ = globals()["abs"]
