"""paddle.fft: discrete Fourier transforms, sample frequencies and shifts.

Every name here belongs only to the ``paddle.fft`` namespace (re-exported by
:mod:`pagaie.fft`), so this family adds nothing to the top level.
"""
from __future__ import annotations

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.place import to_torch_device
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import (ALL_DTYPES, LOW_FLOATS, SMALL_INTS, int_list, kernel_dtypes, scalar_of,
                                  torch_dtype, write_out)

__all__: list[str] = []

_NORMS = ("backward", "ortho", "forward")


def _check_norm(api: str, norm) -> None:
    if norm not in _NORMS:
        raise ValueError(f"paddle.fft.{api}: 'norm' must be 'forward', 'backward' or 'ortho', but received {norm!r}")


def _prep(api: str, x, norm, real_only: bool = False, c2r: bool = False):
    """Validate ``norm`` and bring integer/bool inputs to the default float dtype (Paddle checks
    the arguments before the op meets the dtype: callers check n/axis/s/axes first).

    ``c2r``: a complex-to-real transform (irfft/hfft families), whose Paddle kernel takes a
    float tensor only as a complex one; integers, cast to float32 first, find no kernel."""
    _check_norm(api, norm)
    if x.is_complex():
        if real_only:  # Paddle has no complex kernel for the real-input transforms: NotFound
            raise NoKernelError(f"paddle.fft.{api}: 'x' must be a real tensor, but received {x.dtype}".replace(
                "torch.", "paddle."))
        return x
    if x.dtype == torch.bool:  # Paddle casts only integers; no FFT kernel takes bool: NotFound
        raise NoKernelError(f"paddle.fft.{api}: 'x' must be a numeric tensor, but received bool")
    if not x.is_floating_point():
        if c2r:
            raise NoKernelError(f"paddle.fft.{api}: 'x' must be a float or complex tensor, but received "
                                f"{x.dtype}".replace("torch.", "paddle."))
        return x.to(_dt.default_float())
    if x.dtype in (torch.float16, torch.bfloat16) and x.device.type != "cuda":  # no CPU half kernel in Paddle
        raise NoKernelError(f"paddle.fft.{api}: 'x' must be float32, float64 or complex, but received "
                            f"{x.dtype}".replace("torch.", "paddle."))
    return x


_COMPLEX_OF = {torch.float32: torch.complex64, torch.float64: torch.complex128}
_C2R = ("irfft", "hfft")


def _one_point(base: str, x, s, axes) -> bool:
    """A complex-to-real transform whose default output length is 0 (one input point on the
    last transformed axis): Paddle returns an empty result there."""
    if base not in _C2R or s is not None or x.dim() == 0:
        return False
    last = axes[-1] if axes is not None else -1
    return x.shape[last] == 1


def _empty(api: str, base: str, x, s, axes):
    """The (empty) result of a transform of a 0-size input, shaped as Paddle shapes it.

    ``base`` is the 1-D transform ``api`` extends; ``s`` and ``axes`` are as given (None or lists).
    """
    if axes is None:
        axes = list(range(x.dim() - len(s), x.dim())) if s is not None else list(range(x.dim()))
    axes = [a % x.dim() for a in axes]
    shape = list(x.shape)
    for i, a in enumerate(axes):
        shape[a] = s[i] if s is not None else shape[a]
    real = x.real.dtype if x.is_complex() else x.dtype
    dtype = _COMPLEX_OF.get(real, real)
    if base in ("rfft", "ihfft"):
        shape[axes[-1]] = shape[axes[-1]] // 2 + 1
    elif base in ("irfft", "hfft"):
        dtype = real
        if s is None:
            shape[axes[-1]] = 2 * (shape[axes[-1]] - 1)
        if shape[axes[-1]] < 0:  # a length of 0 (one input point) is Paddle's empty result
            raise ValueError(f"paddle.fft.{api}: the output length along axis {axes[-1]} must not be negative, "
                             f"but it is {shape[axes[-1]]} for input shape {list(x.shape)}")
    r = torch.zeros(shape, dtype=dtype, device=x.device)
    if x.requires_grad:  # keep the (empty) graph connection, as Paddle does
        r = r + (x.real if x.is_complex() else x).sum() * 0
    return r


def _ints(api: str, arg: str, v) -> None:
    """Paddle takes only Python ints for n/axis/s/axes: a float (even 4.0), a numpy integer or a
    Tensor is a ValueError, a bool ``n``/``s`` entry the TypeError of its argument parser."""
    items = v if isinstance(v, (list, tuple)) else [v]
    for e in items:
        if type(e) is bool:
            raise TypeError(f"paddle.fft.{api}: '{arg}' must hold integers, but received {v!r}")
        if not isinstance(e, int):
            what = "a Tensor" if isinstance(e, torch.Tensor) else f"{type(e).__name__} {e!r}"
            raise ValueError(f"paddle.fft.{api}: '{arg}' must be an integer (or integers), but "
                             f"received {what}")


def _check_n(api: str, n, x, axis: int) -> int | None:
    if axis is None:  # Paddle reads None as the last axis
        axis = -1
    for arg, v in (("axis", axis), ("n", n)):
        if isinstance(v, (list, tuple)):  # Paddle's ValueError: one axis, one length
            raise ValueError(f"paddle.fft.{api}: '{arg}' must be an integer, but received {v!r}")
    _ints(api, "axis", axis)
    if n is not None:
        _ints(api, "n", n)
        if n <= 0:
            raise ValueError(f"paddle.fft.{api}: 'n' must be positive, but received {n}")
    if not -x.dim() <= axis < max(x.dim(), 1):
        raise ValueError(f"paddle.fft.{api}: 'axis' must be in the range [{-x.dim()}, {x.dim()}), "
                         f"but received {axis}")
    return n, axis


def _check_sa(api: str, x, s, axes, two_d: bool):
    for arg, v in (("s", s), ("axes", axes)):
        if v is not None:
            if not isinstance(v, (list, tuple)):  # a bare int, an array or a Tensor: Paddle's ValueError
                what = "a Tensor" if isinstance(v, torch.Tensor) else f"{type(v).__name__} {v!r}"
                raise ValueError(f"paddle.fft.{api}: '{arg}' must be a sequence of integers, but "
                                 f"received {what}")
            _ints(api, arg, v)
    if s is not None:
        s = int_list(s)
        if len(s) > x.dim():  # checked before the dtype, as Paddle does
            raise ValueError(f"paddle.fft.{api}: 's' must not have more entries than 'x' has axes, but "
                             f"received s={s} for a {x.dim()}-D input")
        if any(v <= 0 for v in s):
            raise ValueError(f"paddle.fft.{api}: every entry of 's' must be positive, but received {s}")
    if axes is not None:
        axes = int_list(axes)
        for a in axes:
            if not -x.dim() <= a < x.dim():
                raise ValueError(f"paddle.fft.{api}: 'axes' entries must be in the range [{-x.dim()}, "
                                 f"{x.dim()}), but received {axes}")
        if len(set(a % x.dim() for a in axes)) != len(axes):
            raise ValueError(f"paddle.fft.{api}: 'axes' must not repeat an axis, but received {axes}")
    if two_d:
        if x.dim() < 2:
            raise ValueError(f"paddle.fft.{api}: 'x' must be at least 2-D, but received {x.dim()}-D")
        if axes is not None and len(axes) != 2:
            raise ValueError(f"paddle.fft.{api}: 'axes' must name 2 axes, but received {axes}")
        if s is not None and len(s) != 2:
            raise ValueError(f"paddle.fft.{api}: 's' must have 2 entries, but received {s}")
    # Paddle's n-D transforms index the last entry of an empty 'axes' before comparing the
    # lengths of 's' and 'axes' (and of an empty 's' after): its IndexError
    if not two_d and axes is not None and not axes:
        raise IndexError(f"paddle.fft.{api}: 'axes' must name at least one axis, but received []")
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError(f"paddle.fft.{api}: 's' ({len(s)} entries) and 'axes' ({len(axes)} entries) "
                         "must have the same length")
    if not two_d and s is not None and not s:
        raise IndexError(f"paddle.fft.{api}: 's' must name at least one axis, but received []")
    return s, axes


_SHAPES = {"fft": "[4]", "ifft": "[4]", "rfft": "[3]", "irfft": "[6]", "hfft": "[6]", "ihfft": "[3]"}
_SHAPES_ND = {"fft": "[2, 4]", "ifft": "[2, 4]", "rfft": "[2, 3]", "irfft": "[2, 6]", "hfft": "[2, 6]",
              "ihfft": "[2, 3]"}
_WHAT = {
    "fft": ("the discrete Fourier transform", "Tensor: complex."),
    "ifft": ("the inverse discrete Fourier transform", "Tensor: complex."),
    "rfft": ("the discrete Fourier transform of a real input, keeping the non-negative "
             "frequencies of the last transformed axis", "Tensor: complex."),
    "irfft": ("the inverse of :func:`rfft`: a real signal from its non-negative frequencies "
              "(default output length ``2 * (m - 1)`` on the last transformed axis)", "Tensor: real."),
    "hfft": ("the discrete Fourier transform of a Hermitian-symmetric signal given by its first "
             "half (a real spectrum; default length ``2 * (m - 1)`` on the last transformed axis)",
             "Tensor: real."),
    "ihfft": ("the inverse of :func:`hfft`: the first half of the inverse transform of a real "
              "signal", "Tensor: complex."),
}
_NORM_DOC = ("norm (str, optional): scaling: ``'backward'`` (none forward, ``1/n`` inverse), "
             "``'ortho'`` (``1/sqrt(n)`` both ways) or ``'forward'`` (``1/n`` forward).")


def _example(api: str, kind: str) -> str:
    x = "paddle.to_tensor([1.0, 2.0, 3.0, 4.0])" if kind == "1" else \
        "paddle.to_tensor([[1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.0, 1.0]])"
    shape = _SHAPES[api] if kind == "1" else _SHAPES_ND[api[:-1]]
    return (f"        >>> import pagaie as paddle\n"
            f"        >>> paddle.fft.{api}({x}).shape\n"
            f"        paddle.Size({shape})\n")


def _fft1(kind: str, real_only: bool):
    tfn = getattr(torch.fft, kind)

    def kernel(x, n=None, axis=-1, norm="backward", name=None, *, out=None):
        _check_norm(kind, norm)
        n, axis = _check_n(kind, n, x, axis)
        x = _prep(kind, x, norm, real_only, kind in _C2R)
        if x.numel() == 0 or (n is None and kind in _C2R and x.shape[axis] == 1):
            return write_out(out, _empty(kind, kind, x, None if n is None else [n], [axis]))
        return write_out(out, tfn(x, n=n, dim=axis, norm=norm))

    what, ret = _WHAT[kind]
    kernel.__name__ = kernel.__qualname__ = kind
    kernel.__doc__ = (
        f"One-dimensional {what.split(' (')[0]}, along ``axis``.\n\n    Computes {what}.\n\n"
        f"    Args:\n        x (Tensor): the input.\n"
        f"        n (int, optional): transform length; the input is trimmed or zero-padded to it.\n"
        f"        axis (int, optional): the axis to transform (default the last).\n        {_NORM_DOC}\n"
        f"        name (str, optional): unused.\n        out (Tensor, optional): receives the result.\n\n"
        f"    Returns:\n        {ret}\n\n    Examples:\n{_example(kind, '1')}    ")
    return defop(kind, amp="black", method=False)(kernel)


def _fftn(kind: str, base: str, real_only: bool, two_d: bool):
    tfn = getattr(torch.fft, kind)

    if two_d:
        tfn_n = getattr(torch.fft, base + "n")

        def kernel(x, s=None, axes=(-2, -1), norm="backward", name=None, *, out=None):
            _check_norm(kind, norm)
            s, axes = _check_sa(kind, x, s, axes, True)
            x = _prep(kind, x, norm, real_only, base in _C2R)
            if x.numel() == 0 or _one_point(base, x, s, axes):
                return write_out(out, _empty(kind, base, x, s, axes))
            # axes=None: Paddle's 2-D forms hand over to the n-D one (all axes, or the last len(s))
            return write_out(out, (tfn if axes is not None else tfn_n)(x, s=s, dim=axes, norm=norm))
    else:
        def kernel(x, s=None, axes=None, norm="backward", name=None, *, out=None):
            _check_norm(kind, norm)
            s, axes = _check_sa(kind, x, s, axes, False)
            x = _prep(kind, x, norm, real_only, base in _C2R)
            if x.numel() == 0 or _one_point(base, x, s, axes):
                return write_out(out, _empty(kind, base, x, s, axes))
            return write_out(out, tfn(x, s=s, dim=axes, norm=norm))

    what, ret = _WHAT[base]
    span = "two axes (the last two by default)" if two_d else "several axes (all, or the last ``len(s)``, by default)"
    kernel.__name__ = kernel.__qualname__ = kind
    kernel.__doc__ = (
        f"{'Two' if two_d else 'N'}-dimensional form of :func:`{base}`, over {span}.\n\n"
        f"    Computes {what}.\n\n"
        f"    Args:\n        x (Tensor): the input.\n"
        f"        s (list|tuple, optional): transform length per axis (trim or zero-pad).\n"
        f"        axes (list|tuple, optional): the axes to transform.\n        {_NORM_DOC}\n"
        f"        name (str, optional): unused.\n        out (Tensor, optional): receives the result.\n\n"
        f"    Returns:\n        {ret}\n\n    Examples:\n{_example(kind, 'n')}    ")
    # (Paddle programs hold every transform as one fft_c2c / fft_r2c / fft_c2r op over a list
    # of axes: the n-D records import them)
    types = _PROGRAM_OPS.get(kind, ())
    return defop(kind, amp="black", method=False, paddle_types=types)(kernel)


_PROGRAM_OPS = {"fftn": ("fft_c2c", "pd_op.fft_c2c", "fft_r2c", "pd_op.fft_r2c"),
                "ifftn": ("fft_c2c", "pd_op.fft_c2c", "fft_r2c", "pd_op.fft_r2c"),
                "rfftn": ("fft_r2c", "pd_op.fft_r2c"), "ihfftn": ("fft_r2c", "pd_op.fft_r2c"),
                "irfftn": ("fft_c2r", "pd_op.fft_c2r"), "hfftn": ("fft_c2r", "pd_op.fft_c2r")}

fft = _fft1("fft", False)
ifft = _fft1("ifft", False)
rfft = _fft1("rfft", True)
irfft = _fft1("irfft", False)
hfft = _fft1("hfft", False)
ihfft = _fft1("ihfft", True)

fft2 = _fftn("fft2", "fft", False, True)
ifft2 = _fftn("ifft2", "ifft", False, True)
rfft2 = _fftn("rfft2", "rfft", True, True)
irfft2 = _fftn("irfft2", "irfft", False, True)
hfft2 = _fftn("hfft2", "hfft", False, True)
ihfft2 = _fftn("ihfft2", "ihfft", True, True)

fftn = _fftn("fftn", "fft", False, False)
ifftn = _fftn("ifftn", "ifft", False, False)
rfftn = _fftn("rfftn", "rfft", True, False)
irfftn = _fftn("irfftn", "irfft", False, False)
hfftn = _fftn("hfftn", "hfft", False, False)
ihfftn = _fftn("ihfftn", "ihfft", True, False)


# the dtypes of the CPU arange kernel that counts the sample indices
_ARANGE_DTYPES = frozenset((torch.int32, torch.int64, torch.float32, torch.float64))


def _freq(api, tfn, n, d, dtype, out, device, requires_grad):
    if isinstance(d, (str, bytes)):  # Paddle divides by d: its TypeError
        raise TypeError(f"paddle.fft.{api}: 'd' must be a number, but received {d!r}")
    float_n = api == "fftfreq" and isinstance(n, (float, np.floating))
    n, d = scalar_of(n), float(scalar_of(d))
    if n == 0 or d == 0:
        raise ValueError(f"paddle.fft.{api}: 'n' and 'd' must not be 0, but received n={n}, d={d}")
    dt = _dt.default_float() if dtype is None else torch_dtype(dtype, f"fft.{api}")
    dev = None if device is None else to_torch_device(device, f"paddle.fft.{api}")
    if dt not in _ARANGE_DTYPES:  # Paddle counts the indices with arange in `dtype` first
        kernel_dtypes(f"fft.{api}", torch.empty((), dtype=dt, device=dev), _ARANGE_DTYPES, "dtype")
    if float_n:  # then rolls them by n // 2: an int only
        raise TypeError(f"paddle.fft.{api}: 'n' must be an int, but received {n!r}")
    n = int(n)
    if not (dt.is_floating_point or dt.is_complex):  # Paddle computes integer requests in float
        dt = _dt.default_float()
    # a negative n gives no frequencies, as in Paddle
    r = tfn(n, d=d, dtype=dt, device=dev) if n > 0 else torch.empty(0, dtype=dt, device=dev)
    if requires_grad:
        r.requires_grad_(True)
    return write_out(out, r)


@defop(method=False, differentiable=False)
def fftfreq(n, d=1.0, dtype=None, name=None, *, out=None, device=None, requires_grad=False):
    """Sample frequencies of an ``n``-point DFT with sample spacing ``d``.

    Args:
        n (int): the transform length.
        d (float, optional): the sample spacing.
        dtype (str|paddle.dtype, optional): the output dtype (default float dtype when None).
        name (str, optional): unused.
        out (Tensor, optional): receives the result.
        device (str|Place, optional): where to create the result.
        requires_grad (bool, optional): the result records gradients.

    Returns:
        Tensor: ``[0, 1, ..., -1] / (d * n)`` in FFT order.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.fft.fftfreq(4).tolist()
        [0.0, 0.25, -0.5, -0.25]
    """
    return _freq("fftfreq", torch.fft.fftfreq, n, d, dtype, out, device, requires_grad)


@defop(method=False, differentiable=False)
def rfftfreq(n, d=1.0, dtype=None, name=None, *, out=None, device=None, requires_grad=False):
    """Non-negative sample frequencies of an ``n``-point real DFT (as :func:`rfft` returns).

    Args:
        n (int): the transform length.
        d (float, optional): the sample spacing.
        dtype (str|paddle.dtype, optional): the output dtype (default float dtype when None).
        name (str, optional): unused.
        out (Tensor, optional): receives the result.
        device (str|Place, optional): where to create the result.
        requires_grad (bool, optional): the result records gradients.

    Returns:
        Tensor: ``[0, 1, ..., n // 2] / (d * n)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.fft.rfftfreq(4).tolist()
        [0.0, 0.25, 0.5]
    """
    return _freq("rfftfreq", torch.fft.rfftfreq, n, d, dtype, out, device, requires_grad)


# the shifts run Paddle's roll kernel, which the CPU has for no small integer or half float
_ROLL_DTYPES = ALL_DTYPES - SMALL_INTS - LOW_FLOATS


def _shift_axes(api, x, axes):
    if axes is None:
        if x.dim() == 0:  # no axis to shift: Paddle's roll refuses it
            raise ValueError(f"paddle.fft.{api}: 'x' must have at least one dimension to shift, but received a "
                             "0-D tensor")
        kernel_dtypes(f"fft.{api}", x, _ROLL_DTYPES)
        return None
    items = axes if isinstance(axes, (list, tuple)) else [axes]
    if any(isinstance(e, (float, np.floating)) for e in items):  # Paddle: TypeError
        raise TypeError(f"paddle.fft.{api}: 'axes' must be an int or a sequence of ints, but received {axes!r}")
    # Paddle indexes the shape with an int axis (IndexError); roll checks a list (ValueError)
    kind = ValueError if isinstance(axes, (list, tuple)) else IndexError
    axes = int_list(axes)
    if not axes:  # Paddle concatenates the per-axis shifts first: an empty list is its ValueError
        raise ValueError(f"paddle.fft.{api}: 'axes' must name at least one axis, but received {axes}")
    for a in axes:
        if not -x.dim() <= a < x.dim():
            raise kind(f"paddle.fft.{api}: 'axes' entries must be in the range [{-x.dim()}, {x.dim()}), "
                             f"but received {axes}")
    kernel_dtypes(f"fft.{api}", x, _ROLL_DTYPES)  # after the axes, as Paddle meets the kernel last
    return axes


@defop(method=False)
def fftshift(x, axes=None, name=None):
    """Move the zero-frequency term to the centre (roll each axis by half its length).

    Args:
        x (Tensor): the input, in FFT order.
        axes (int|list|tuple, optional): the axes to shift (all by default).
        name (str, optional): unused.

    Returns:
        Tensor: the shifted tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.fft.fftshift(paddle.fft.fftfreq(4)).tolist()
        [-0.5, -0.25, 0.0, 0.25]
    """
    return torch.fft.fftshift(x, dim=_shift_axes("fftshift", x, axes))


@defop(method=False)
def ifftshift(x, axes=None, name=None):
    """The inverse of :func:`fftshift`.

    Args:
        x (Tensor): the input, centred.
        axes (int|list|tuple, optional): the axes to shift (all by default).
        name (str, optional): unused.

    Returns:
        Tensor: the tensor in FFT order.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.fft.ifftshift(paddle.to_tensor([-0.5, -0.25, 0.0, 0.25])).tolist()
        [0.0, 0.25, -0.5, -0.25]
    """
    return torch.fft.ifftshift(x, dim=_shift_axes("ifftshift", x, axes))
