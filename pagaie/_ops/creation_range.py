"""Creation ops over ranges and grids: arange, range, linspace, logspace, eye, meshgrid,
the triangle index ops, cartesian products and combinations."""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._factory import c_float_to_int, device_of, finish
from pagaie._ops._helpers import (ALL_DTYPES, SMALL_INTS, AssertionValueError, kernel_dtypes,
                                  numpy_scalar_args, stopped)

__all__ = ["arange", "range", "linspace", "logspace", "eye", "meshgrid", "tril_indices",
           "triu_indices", "cartesian_prod", "combinations"]

_T = torch.Tensor


def _num(v: Any) -> Any:
    """A Python number from a number or a one-element tensor or numpy array (Paddle fills a
    bound into a tensor, which reads a one-element array as its value)."""
    return v.reshape(-1)[0].item() if isinstance(v, (_T, np.ndarray)) else v


def _is_floatish(v: Any) -> bool:
    if isinstance(v, _T):
        return v.is_floating_point() or v.is_complex()
    # Paddle's rule: a bound that is not a Python or numpy integer (a numpy array too) makes
    # the default float dtype
    return isinstance(v, (float, complex, np.floating, np.complexfloating, np.ndarray))


# arange's CPU kernel dtypes (its GPU kernels also take float16 and bfloat16)
_ARANGE_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))


def _range_dtype(dtype: Any, values: tuple, api: str, allow_bool: bool = False) -> torch.dtype:
    if dtype is None:
        return _dt.default_float() if any(_is_floatish(v) for v in values) else torch.int64
    dt = _dt.to_torch_dtype(dtype, f"paddle.{api}")
    if dt is torch.bool and not allow_bool:
        raise NoKernelError(f"paddle.{api}: 'dtype' bool is not supported (no bool kernel); use "
                           "an integer or floating dtype")
    return dt


# linspace's and logspace's CPU kernels (GPU ones take float16 and bfloat16 too)
_SPACE_DTYPES = frozenset({torch.float32, torch.float64, torch.int32, torch.int64})


def _space_kernel(dt: torch.dtype, dev: Any, api: str) -> None:
    half_on_gpu = dt in (torch.float16, torch.bfloat16) and torch.device(dev).type != "cpu"
    if dt not in _SPACE_DTYPES and not half_on_gpu:
        raise NoKernelError(f"paddle.{api}: 'dtype' {_dt.from_torch_dtype(dt).name} is not "
                               f"supported (Paddle's kernel takes float32, float64, int32, int64)")


def _cast_bounds(dt: torch.dtype, *vals: Any) -> list:
    """Paddle fills the bounds into the output dtype before computing the range: a complex
    bound keeps its real part, a float one converts to an integer dtype as C++ does."""
    out = []
    for v in vals:
        if isinstance(v, (str, bytes)):
            raise TypeError(f"paddle: a range bound must be a number or a Tensor, but received {v!r}")
        if isinstance(v, complex) and not dt.is_complex:
            v = v.real
        if dt.is_floating_point or dt.is_complex:
            out.append(complex(v) if dt.is_complex and isinstance(v, complex) else float(v))
        elif isinstance(v, float):
            out.append(c_float_to_int(v, dt))
        else:
            out.append(int(v))
    return out


def _affine(n: int, start: Any, step: Any, dt: torch.dtype, dev: torch.device) -> torch.Tensor:
    """``start + i * step`` for ``i < n``, as Paddle's CPU kernel computes it: a running sum
    ``value += step`` in the output dtype (float16/bfloat16, which it lacks, go through
    float32), so float results carry its rounding."""
    if dt.is_floating_point:
        npt = np.float64 if dt is torch.float64 else np.float32
        steps = np.full(n, step, dtype=npt)
        if n:
            steps[0] = start
        vals = torch.from_numpy(np.add.accumulate(steps, dtype=npt))
        return vals.to(device=dev, dtype=dt)
    if dt.is_complex:
        idx = torch.arange(n, dtype=dt, device=dev)
        return idx * torch.tensor(step, dtype=dt) + torch.tensor(start, dtype=dt)
    idx = torch.arange(n, dtype=torch.int64, device=dev)
    return (idx * step + start).to(dt)


def _range_size(s: Any, e: Any, st: Any, dt: torch.dtype, inclusive: bool = False) -> int:
    """How many values Paddle's range kernels produce, computed in the output dtype:
    ``ceil(|(end - start) / step|)`` for arange (``floor(...) + 1`` for the inclusive
    ``range``), none when ``step`` points away from ``end``."""
    if (s < e and st < 0) or (s > e and st > 0):
        return 0
    if not (dt.is_floating_point or dt.is_complex):
        q, r = divmod(abs(e - s), abs(st))
        return q + 1 if inclusive else q + (r > 0)
    if dt.is_complex:
        s, e, st = s.real, e.real, st.real
    npt = np.float64 if dt in (torch.float64, torch.complex128) else np.float32
    with np.errstate(all="ignore"):
        q = abs((npt(e) - npt(s)) / npt(st))
    if not math.isfinite(q):
        raise ValueError(f"paddle: the number of range values is not finite (start={s}, "
                         f"end={e}, step={st})")
    return int(math.floor(q)) + 1 if inclusive else int(math.ceil(q))


def _scalar_bound(v: Any, what: str, api: str) -> Any:
    """A range bound: a number (a numpy one of a type Paddle's parser reads), or a Tensor or
    numpy array of exactly one element."""
    numpy_scalar_args(api, **{what: v})
    if isinstance(v, (list, tuple)):  # Paddle's parser of the bound (full's fill value)
        raise TypeError(f"paddle.{api}: '{what}' must be an int, float, bool or Tensor, but "
                        f"received {type(v).__name__}")
    if isinstance(v, (_T, np.ndarray)) and (v.size if isinstance(v, np.ndarray) else v.numel()) != 1:
        kind = "a Tensor" if isinstance(v, _T) else "an array"
        raise ValueError(f"paddle.{api}: '{what}' as {kind} must hold exactly 1 element, but "
                         f"it has {int(np.prod(v.shape))} (shape {list(v.shape)})")
    return _num(v)


@defop(method=False, differentiable=False, paddle_types=("range", "pd_op.arange"))
def arange(start=0, end=None, step=1, dtype=None, *, out=None, device=None, requires_grad=False,
           pin_memory=False, name=None):
    """Evenly spaced values in ``[start, end)`` with spacing ``step``.

    With one argument it is the end: ``arange(5)`` is ``0 .. 4``. The dtype is
    int64 when every bound is an integer, the default float dtype otherwise.

    Args:
        start (int|float|Tensor, optional): the first value. Default 0.
        end (int|float|Tensor, optional): the (excluded) end.
        step (int|float|Tensor, optional): the spacing, non-zero. Default 1.
        dtype (str|paddle.dtype, optional): the output dtype.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.
        name (str, optional): unused.

    Returns:
        Tensor: 1-D, ``ceil((end - start) / step)`` values (none when the sign of
        ``step`` points away from ``end``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.arange(5).tolist()
        [0, 1, 2, 3, 4]
        >>> paddle.arange(0, 1, 0.25).tolist()
        [0.0, 0.25, 0.5, 0.75]
    """
    if end is None:
        start, end = 0, start
    dt = _range_dtype(dtype, (start, end, step), "arange")
    for what, v in (("start", start), ("end", end)):
        v = _num(v)
        if isinstance(v, (str, bytes)) or v is None:
            raise TypeError(f"paddle.arange: '{what}' must be a number or a Tensor, but received {v!r}")
        if isinstance(v, (float, np.floating)) and not math.isfinite(v):
            raise ValueError(f"paddle.arange: the value of '{what}' must be finite, but received {v}")
    bounds = [_scalar_bound(v, w, "arange") for v, w in ((start, "start"), (end, "end"), (step, "step"))]
    if dt not in _ARANGE_DTYPES:   # (a 0-D stand-in of the result's dtype on its device)
        kernel_dtypes("arange", torch.empty((), dtype=dt, device=device_of(device, "arange")),
                      _ARANGE_DTYPES, "dtype")
    s, e, st = _cast_bounds(dt, *bounds)
    if st == 0:
        raise ValueError("paddle.arange: 'step' must not be 0 (after casting to the output dtype)")
    n = _range_size(s, e, st, dt)
    t = _affine(n, s, st, dt, device_of(device, "arange"))
    return finish(t, out, requires_grad, pin_memory, "arange")


@defop(method=False, differentiable=False)
def range(start=0, end=None, step=1, dtype=None, *, out=None, device=None, requires_grad=False,
          name=None):
    """Evenly spaced values from ``start`` to ``end`` *inclusive* (deprecated in Paddle;
    prefer :func:`arange`).

    With one argument it is the end: ``range(3)`` is ``0, 1, 2, 3``. The dtype is
    the default float dtype unless given.

    Args:
        start (int|float|Tensor, optional): the first value. Default 0.
        end (int|float|Tensor, optional): the last value (included when reached).
        step (int|float|Tensor, optional): the spacing, non-zero. Default 1.
        dtype (str|paddle.dtype, optional): the output dtype.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        name (str, optional): unused.

    Returns:
        Tensor: 1-D, ``floor((end - start) / step) + 1`` values.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.range(0, 3).tolist()
        [0.0, 1.0, 2.0, 3.0]
    """
    if end is None:
        start, end = 0, start
    dt = _dt.default_float() if dtype is None else _range_dtype(dtype, (), "range")
    s, e, st = _cast_bounds(dt, *(_scalar_bound(v, w, "range") for v, w in
                                  ((start, "start"), (end, "end"), (step, "step"))))
    if st == 0:
        raise ValueError("paddle.range: 'step' must not be 0")
    n = _range_size(s, e, st, dt, inclusive=True)
    t = _affine(n, s, st, dt, device_of(device, "range"))
    return finish(t, out, requires_grad)


def _num_arg(num: Any, api: str) -> int:
    """``num`` as Paddle reads it: an integer tensor, or a value filled into an int32 (floats
    truncate, bools and numeric strings work)."""
    if isinstance(num, _T):
        if num.is_floating_point() or num.is_complex():
            raise TypeError(f"paddle.{api}: 'num' as a Tensor must be an integer tensor, but "
                            f"received dtype {_dt.from_torch_dtype(num.dtype).name}")
        n = _scalar_bound(num, "num", api)
    else:
        numpy_scalar_args(api, num=num)
        n = num.item() if isinstance(num, np.generic) else _scalar_bound(num, "num", api)
        if isinstance(n, str):
            try:
                n = float(n)
            except ValueError:
                raise TypeError(f"paddle.{api}: 'num' must be an int, but received {num!r}") from None
        if isinstance(n, bool):
            n = int(n)
        elif isinstance(n, float):
            n = c_float_to_int(n, torch.int32)
        elif not isinstance(n, int):
            raise TypeError(f"paddle.{api}: 'num' must be an int, but received {type(num).__name__}")
    if n < 0:
        raise ValueError(f"paddle.{api}: 'num' must be >= 0, but received {n}")
    return n


def _spacing_checks(api, num, dtype, *bounds):
    """The static API's own checks: a Python float ``num`` is its TypeError (eagerly it is
    truncated), and a float64 (int64) ``start``/``stop``/``base`` Tensor with a float32 or
    int32 (int32) ``dtype`` its ValueError, a possible overflow."""
    if isinstance(num, float) or not (isinstance(num, int) or hasattr(num, "_t")):
        # (a numpy number or array, a list: TypeError too; a bool passes as an int)
        raise TypeError(f"paddle.{api}: the type of 'num' must be int, but received "
                        f"{type(num).__name__} ({num})")
    out = _dt.default_float() if dtype is None else _dt.to_torch_dtype(dtype, f"paddle.{api}")
    ins = {getattr(getattr(v, "_t", None), "dtype", None) for v in bounds}
    if (torch.float64 in ins and out in (torch.float32, torch.int32)) or \
            (torch.int64 in ins and out is torch.int32):
        raise ValueError(f"paddle.{api}: a float64/int64 'start', 'stop' or 'base' with "
                         f"dtype={_dt.from_torch_dtype(out).name} may overflow; set 'dtype'")


def _linspace_checks(start, stop, num, dtype=None, *args, **kwargs):
    _spacing_checks("linspace", num, dtype, start, stop)


def _logspace_checks(start, stop, num, base=10.0, dtype=None, *args, **kwargs):
    _spacing_checks("logspace", num, dtype, start, stop, base)


def _spacing_static_shape(api: str):
    """Static rule of linspace/logspace: Paddle's programs read ``num`` when they run, so the
    length is unknown (-1) even for a Python int, and a negative one fails only then. (The
    rule gives the output's dtype too: it comes from ``dtype``, not from an input.)"""
    def rule(start, stop, num, *args, dtype=None, **kwargs) -> tuple[list[int], torch.dtype]:
        if api == "logspace" and len(args) > 1:
            dtype = args[1]
        elif api == "linspace" and args:
            dtype = args[0]
        dt = _dt.default_float() if dtype is None else _range_dtype(dtype, (), api, True)
        return [-1], dt
    return rule


_BOUND_DTYPES = frozenset((torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32,
                           torch.int64))


@defop(method=False, differentiable=False, paddle_types=("linspace", "pd_op.linspace"),
       static_check=_linspace_checks, static_shape=_spacing_static_shape("linspace"),
       program_dtypes={"start": _BOUND_DTYPES, "stop": _BOUND_DTYPES,
                       "num": frozenset((torch.int32, torch.int64))},
       static_shape_first="always")
def linspace(start, stop, num, dtype=None, name=None, *, out=None, device=None,
             requires_grad=False):
    """``num`` evenly spaced values from ``start`` to ``stop``, both included.

    Args:
        start (int|float|Tensor): the first value.
        stop (int|float|Tensor): the last value.
        num (int|Tensor): how many values.
        dtype (str|paddle.dtype, optional): the output dtype; the default float dtype when None.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.

    Returns:
        Tensor: 1-D, ``num`` values.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linspace(0, 10, 5).tolist()
        [0.0, 2.5, 5.0, 7.5, 10.0]
    """
    dt = _dt.default_float() if dtype is None else _range_dtype(dtype, (), "linspace", True)
    n = _num_arg(num, "linspace")
    s, e = _cast_bounds(dt, _scalar_bound(start, "start", "linspace"),
                        _scalar_bound(stop, "stop", "linspace"))
    dev = device_of(device, "linspace")
    _space_kernel(dt, dev, "linspace")
    if dt in (torch.float32, torch.float64):
        t = _paddle_linspace(s, e, n, dt, dev)
    elif not (dt.is_floating_point or dt.is_complex):
        # integer bounds, a float64 step and values, truncated to the dtype
        t = _paddle_linspace(float(s), float(e), n, torch.float64, dev)
    else:
        t = torch.linspace(s, e, n, dtype=dt, device=dev)
    return finish(t if t.dtype is dt else t.to(dt), out, requires_grad)


def _paddle_linspace(start, stop, n: int, dt: torch.dtype, device) -> torch.Tensor:
    """Paddle's kernel, in ``dt`` throughout: ``step = (stop - start) / (n - 1)``; the first
    half counts up from ``start`` (``start + step * i``), the rest down from ``stop``
    (``stop - step * (n - 1 - i)``), so both ends are exact."""
    s = torch.tensor(start, dtype=dt, device=device)
    e = torch.tensor(stop, dtype=dt, device=device)
    if n == 1:
        return s.reshape(1)
    step = (e - s) / (n - 1)
    i = torch.arange(n, dtype=dt, device=device)
    half = n // 2
    return torch.cat([s + step * i[:half], e - step * (n - 1 - i[half:])])


@defop(method=False, differentiable=False, paddle_types=("logspace", "pd_op.logspace"),
       static_check=_logspace_checks, program_dtypes={"num": frozenset((torch.int32,))},
       static_shape=_spacing_static_shape("logspace"), static_shape_first="always")
def logspace(start, stop, num, base=10.0, dtype=None, name=None):
    """``num`` values ``base ** v`` for ``v`` evenly spaced from ``start`` to ``stop`` (included).

    Args:
        start (int|float|Tensor): the first exponent.
        stop (int|float|Tensor): the last exponent.
        num (int|Tensor): how many values.
        base (float|Tensor, optional): the base. Default 10.0.
        dtype (str|paddle.dtype, optional): the output dtype; the default float dtype when None.
        name (str, optional): unused.

    Returns:
        Tensor: 1-D, ``num`` values.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.logspace(0, 3, 4, base=2).tolist()
        [1.0, 2.0, 4.0, 8.0]
    """
    dt = _dt.default_float() if dtype is None else _range_dtype(dtype, (), "logspace", True)
    numpy_scalar_args("logspace", start=start, stop=stop, num=num, base=base)  # (parsed first)
    _space_kernel(dt, device_of(None, "logspace"), "logspace")
    if isinstance(num, _T) and num.dtype is not torch.int32:  # Paddle's kernel reads an int32
        raise ValueError(f"paddle.logspace: 'num' as a Tensor must be int32, but received "
                         f"{_dt.from_torch_dtype(num.dtype).name}")
    n = _num_arg(num, "logspace")
    if n == 0:
        raise ValueError("paddle.logspace: 'num' must be larger than 0, but received 0")
    s, e = _cast_bounds(dt, _scalar_bound(start, "start", "logspace"),
                        _scalar_bound(stop, "stop", "logspace"))
    base = _scalar_bound(base, "base", "logspace")
    try:
        base = float(base)  # a numeric string works too, as in Paddle
    except (TypeError, ValueError):
        raise TypeError(f"paddle.logspace: 'base' must be a real number or a Tensor, but "
                        f"received {base!r}") from None
    b = _cast_bounds(dt, base)[0]
    return _paddle_logspace(s, e, b, n, dt, device_of(None, "logspace"))


def _paddle_logspace(start: Any, stop: Any, base: Any, n: int, dt: torch.dtype,
                     dev: torch.device) -> torch.Tensor:
    """Paddle's kernel: ``start``, ``stop`` and ``base`` are values of ``dt`` (already cast);
    ``step = (stop - start) / (n - 1)`` (the difference taken in ``dt``); the exponents of
    the first half count up from ``start``, the rest down from ``stop``; ``pow`` runs in
    float64 and its result converts to ``dt`` (truncating for integers)."""
    f = torch.float32 if dt in (torch.float16, torch.bfloat16) else dt  # the value type
    s = torch.tensor(start, dtype=f)
    e = torch.tensor(stop, dtype=f)
    i = torch.arange(n, dtype=torch.float64)
    if n > 1:
        step = (e - s).double() / (n - 1)
        half = n // 2
        exps = torch.cat([s.double() + step * i[:half], e.double() - step * (n - 1 - i[half:])])
    else:
        exps = s.double().reshape(1)
    t = torch.pow(torch.tensor(base, dtype=f).double(), exps)
    return t.to(dt).to(dev)


def _dim_arg(v: Any, what: str, api: str) -> int:
    """A size argument as Paddle takes it: an int (a bool or a numpy integer too), or a 0-D
    or one-element 1-D Tensor of any real dtype (read as an integer)."""
    if isinstance(v, _T) and (v.dim() > 1 or (v.dim() == 1 and v.shape[0] != 1)):
        raise AssertionValueError(f"paddle.{api}: '{what}' as a Tensor must be 0-D or of shape "
                                  f"[1], but received shape {list(v.shape)}")
    if isinstance(v, _T) and not v.is_complex():
        v = int(_num(v))
    elif isinstance(v, np.integer):
        v = int(v)
    if not isinstance(v, int) or v < 0:  # (a bool is an int: True is 1)
        raise TypeError(f"paddle.{api}: '{what}' should be a non-negative int, but received {v!r}")
    return int(v)


_EYE_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.bool, torch.bfloat16}


@defop(method=False, differentiable=False, paddle_types=("eye", "pd_op.eye"))
def eye(num_rows, num_columns=None, dtype=None, name=None, *, out=None, device=None,
        requires_grad=False, pin_memory=False):
    """A 2-D tensor with ones on the diagonal and zeros elsewhere.

    Args:
        num_rows (int|Tensor): the number of rows.
        num_columns (int|Tensor, optional): the number of columns; ``num_rows`` when None.
        dtype (str|paddle.dtype, optional): the default float dtype when None.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.
        device (str|Place, optional): where to create it.
        requires_grad (bool, optional): make the result a gradient leaf.
        pin_memory (bool, optional): pin the result in page-locked memory.

    Returns:
        Tensor: shape ``[num_rows, num_columns]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.eye(2, 3).tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    r = _dim_arg(num_rows, "num_rows", "eye")
    c = r if num_columns is None else _dim_arg(num_columns, "num_columns", "eye")
    numpy_scalar_args("eye", num_rows=num_rows, num_columns=num_columns)
    dt = _dt.default_float() if dtype is None else _range_dtype(dtype, (), "eye")
    t = torch.eye(r, c, dtype=dt, device=device_of(device, "eye"))
    kernel_dtypes("eye", t, _EYE_DTYPES, "dtype")
    return finish(t, out, requires_grad, pin_memory, "eye")


def _same_dtype(ts: list, api: str) -> None:
    for i, t in enumerate(ts[1:], 1):
        if t.dtype is not ts[0].dtype:
            err = ValueError(f"paddle.{api}: every input must have the same dtype, but the first is "
                             f"{_dt.from_torch_dtype(ts[0].dtype).name} and input {i} is "
                             f"{_dt.from_torch_dtype(t.dtype).name}")
            err.static_type = TypeError   # the program builder's check of its Values
            raise err


@defop(method=False, paddle_types=("meshgrid", "pd_op.meshgrid"))
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D tensors: output ``i`` repeats input ``i`` along its own axis.

    Args:
        *args (Tensor|list[Tensor]): 0-D or 1-D tensors of one dtype, or one list of them.
        **kwargs: ``indexing`` = ``'ij'`` (default or None, matrix indexing) or ``'xy'``
            (Cartesian: the first two output axes swapped); other keywords are ignored.

    Returns:
        list[Tensor]: one grid per input, each of shape ``[len(x1), len(x2), ...]``.

    Examples:
        >>> import pagaie as paddle
        >>> gx, gy = paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4, 5]))
        >>> gx.shape, gy.tolist()
        (paddle.Size([2, 3]), [[3, 4, 5], [3, 4, 5]])
    """
    # as Paddle: indexing=None means 'ij'; other keywords (``name``...) are ignored
    indexing = kwargs.get("indexing")
    indexing = "ij" if indexing is None else indexing
    if indexing not in ("ij", "xy"):
        raise ValueError(f"paddle.meshgrid: 'indexing' must be 'ij' or 'xy', but received {indexing!r}")
    ts = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    if not ts:
        raise ValueError("paddle.meshgrid: expected at least one input tensor, but received none")
    for i, t in enumerate(ts):
        if not isinstance(t, _T):
            raise ValueError(f"paddle.meshgrid: input {i} must be a Tensor, but received {type(t).__name__}")
        if t.dim() > 1:
            raise ValueError(f"paddle.meshgrid: expected 0-D or 1-D tensors, but input {i} has shape "
                             f"{list(t.shape)}")
    _same_dtype(ts, "meshgrid")
    kernel_dtypes("meshgrid", ts[0], _MESHGRID_DTYPES)
    return list(torch.meshgrid(*ts, indexing=indexing))


# Paddle's CPU meshgrid kernel, which cartesian_prod and combinations run on two or more
# tensors, and its static check: no bool, int8, uint8, int16, float16 or bfloat16 version
# (a GPU tensor passes kernel_dtypes: its kernels take float16 and bfloat16)
_MESHGRID_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.bool, torch.float16, torch.bfloat16}


def _index_dtype(dtype: Any, api: str) -> torch.dtype:
    dt = _dt.to_torch_dtype(dtype, f"paddle.{api}")
    if dt not in (torch.int32, torch.int64):
        raise NoKernelError(f"paddle.{api}: 'dtype' must be int32 or int64, but received "
                            f"{_dt.from_torch_dtype(dt).name} (no kernel for it)")
    return dt


def _tri_args(row: Any, col: Any, offset: Any, api: str) -> tuple[int, int, int]:
    """``row``/``col``/``offset`` of the triangle index ops as Paddle takes them: Python ints
    (no bool, numpy integer or Tensor) for the sizes, ``col`` defaulting to ``row``; an
    integer (a numpy one or a one-element Tensor too, never a bool or float) for ``offset``."""
    for what, v in (("row", row), ("col", col)):
        if what == "col" and v is None:
            continue
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise TypeError(f"paddle.{api}: '{what}' should be a non-negative int, but received "
                            f"{v!r}")
    if isinstance(offset, _T) and not (offset.is_floating_point() or offset.is_complex()):
        offset = _scalar_bound(offset, "offset", api)
    elif isinstance(offset, np.integer):
        offset = int(offset)
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError(f"paddle.{api}: 'offset' must be an int, but received "
                        f"{type(offset).__name__} ({offset!r})")
    return row, row if col is None else col, offset


@defop(method=False, differentiable=False, paddle_types=("tril_indices", "pd_op.tril_indices"))
def tril_indices(row, col, offset=0, dtype="int64"):
    """Coordinates of the lower triangle of a ``row`` x ``col`` matrix.

    Args:
        row (int): the number of rows.
        col (int|None): the number of columns; ``row`` when None.
        offset (int, optional): which diagonal bounds the triangle: 0 the main one,
            positive above it, negative below. Default 0.
        dtype (str|paddle.dtype, optional): int32 or int64 (default).

    Returns:
        Tensor: shape ``[2, N]``: row indices then column indices, row by row.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.tril_indices(3, 3).tolist()
        [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    """
    r, c, k = _tri_args(row, col, offset, "tril_indices")
    dt = _index_dtype(dtype, "tril_indices")
    return torch.tril_indices(r, c, k, dtype=dt, device=device_of(None, "tril_indices"))


@defop(method=False, differentiable=False, paddle_types=("triu_indices", "pd_op.triu_indices"))
def triu_indices(row, col=None, offset=0, dtype="int64"):
    """Coordinates of the upper triangle of a ``row`` x ``col`` matrix.

    Args:
        row (int): the number of rows.
        col (int, optional): the number of columns; ``row`` when None.
        offset (int, optional): which diagonal bounds the triangle: 0 the main one,
            positive above it, negative below. Default 0.
        dtype (str|paddle.dtype, optional): int32 or int64 (default).

    Returns:
        Tensor: shape ``[2, N]``: row indices then column indices, row by row.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.triu_indices(3).tolist()
        [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]
    """
    r, c, k = _tri_args(row, col, offset, "triu_indices")
    dt = _index_dtype(dtype, "triu_indices")
    return torch.triu_indices(r, c, k, dtype=dt, device=device_of(None, "triu_indices"))


# What combinations' static API takes (masked_select's check, even for r=1)
_COMBINATIONS_STATIC = frozenset({torch.int32, torch.int64, torch.float16, torch.bfloat16,
                                  torch.float32, torch.float64})



@defop(method=False)
def cartesian_prod(x, name=None):
    """The Cartesian product of 1-D tensors, one combination per row.

    Args:
        x (list[Tensor]|tuple[Tensor]): 1-D tensors of one dtype.
        name (str, optional): unused.

    Returns:
        Tensor: shape ``[N, len(x)]`` (1-D, the input itself, for a single tensor).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.cartesian_prod([paddle.to_tensor([1, 2]), paddle.to_tensor([3, 4])]).tolist()
        [[1, 3], [1, 4], [2, 3], [2, 4]]
    """
    if not isinstance(x, (_T, np.ndarray)) and not (
            (type(x) is list or type(x) is tuple) and all(isinstance(t, (_T, np.ndarray)) for t in x)):
        # Paddle iterates over x and reads each entry's shape
        kind = type(x).__name__
        if x is None or isinstance(x, (int, float, complex)):
            raise TypeError(f"paddle.cartesian_prod: 'x' must be a list of 1-D Tensors, but received {kind} "
                            "(not iterable)")
        raise AttributeError(f"paddle.cartesian_prod: 'x' must be a list of 1-D Tensors, but received {kind}")
    if isinstance(x, _T) and x.dim() == 0:  # Paddle asserts on len() of a 0-D tensor
        raise AssertionValueError("paddle.cartesian_prod: 'x' must be a list of 1-D tensors, but received "
                                  "a 0-D Tensor")
    ts = list(x.unbind(0)) if isinstance(x, _T) else list(x)  # a Tensor is iterated, as in Paddle
    if not ts or (isinstance(x, _T) and x.dim() == 2 and len(ts) > 1):
        # Paddle's meshgrid refuses an empty list, and the rows of a Tensor (its entries are
        # not the 1-D tensors it lists)
        raise ValueError(f"paddle.cartesian_prod: 'x' must be a non-empty list of 1-D tensors, but received "
                         f"{'a Tensor of shape ' + str(list(x.shape)) if isinstance(x, _T) else 'an empty list'}")
    for t in ts:
        if len(t.shape) != 1:  # (Paddle reads a numpy array's shape too)
            raise ValueError(f"paddle.cartesian_prod: expected 1-D tensors, but received shape "
                             f"{list(t.shape)}")
    _same_dtype(ts, "cartesian_prod")
    if len(ts) == 1:
        return ts[0].clone()
    kernel_dtypes("cartesian_prod", ts[0], _MESHGRID_DTYPES)
    grids = torch.meshgrid(*ts, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], dim=1)


def _combinations_static_shape(x, r=2, *args, **kwargs):
    """Static rule of combinations: Paddle's programs declare the count of combinations as
    unknown (-1), whatever ``x``'s size (r = 0 keeps its [0])."""
    r = int(r) if isinstance(r, (bool, int)) else r
    return [-1, r] if isinstance(r, int) and r > 0 else None


@defop(method=True, static_shape=_combinations_static_shape, static_shape_first="always")
def combinations(x, r=2, with_replacement=False, name=None):
    """All length-``r`` combinations of the elements of a 1-D tensor, in order.

    Args:
        x (Tensor): a 1-D tensor.
        r (int, optional): the combination length, >= 0. Default 2.
        with_replacement (bool, optional): allow repeated elements. Default False.
        name (str, optional): unused.

    Returns:
        Tensor: shape ``[N, r]`` (``[0]`` when ``r`` is 0).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.combinations(paddle.to_tensor([1, 2, 3])).tolist()
        [[1, 2], [1, 3], [2, 3]]
    """
    if len(x.shape) != 1:   # Paddle checks the shape first, a numpy array's too
        err = TypeError(f"paddle.combinations: expected a 1-D tensor, but received shape {list(x.shape)}")
        err.static_type = TypeError   # refused while a program is built too
        raise err
    if isinstance(r, bool):   # Paddle's check takes a bool as an int
        r = int(r)
    if not isinstance(r, int) or r < 0:
        raise ValueError(f"paddle.combinations: 'r' must be a non-negative int, but received {r!r}")
    if r == 0:
        return stopped(x[:0])
    if r > 1:
        kernel_dtypes("combinations", x, _MESHGRID_DTYPES, static=_COMBINATIONS_STATIC & _MESHGRID_DTYPES)
    else:
        kernel_dtypes("combinations", x, ALL_DTYPES, static=_COMBINATIONS_STATIC)
    n = x.shape[0]
    if not with_replacement and r > n:
        return x[:0].unsqueeze(1).expand(0, r)
    return torch.combinations(x, r, with_replacement=bool(with_replacement)).reshape(-1, r)

