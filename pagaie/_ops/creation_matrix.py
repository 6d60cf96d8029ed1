"""Creation ops that build or fill matrices: diagonals, triangles, Vandermonde and
block-diagonal matrices, complex tensors from parts, and diagonal fills."""
from __future__ import annotations

import builtins
import functools
from typing import Any

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import Tensor
from pagaie._ops._factory import c_float_to_int, finish, returns_self
from pagaie._ops._helpers import (ALL_DTYPES, AssertionValueError, SMALL_INTS, int_only_in_programs, kernel_dtypes,
                                  no_small_int_kernel, stopped)
from pagaie._ops.manipulation_join import concat_refuses_uint8

__all__ = ["diag", "diagflat", "diag_embed", "tril", "triu", "tril_", "triu_", "vander",
           "block_diag", "complex", "polar"]

_T = torch.Tensor


def _int_arg(v: Any, arg: str, api: str) -> int:
    """An int attribute as Paddle reads it: a Python or numpy integer, or a Tensor's value
    (a float one truncated toward zero); Python floats and bools are refused."""
    if isinstance(v, _T):
        v = int(v.item()) if v.numel() == 1 and not v.is_complex() else v
    elif isinstance(v, np.integer):
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"paddle.{api}: '{arg}' must be an int, but received {type(v).__name__}")
    return v


def _name(dt: torch.dtype) -> str:
    return _dt.from_torch_dtype(dt).name


# The CPU kernels Paddle registers (diag_v2 and diag_embed).
_DIAG_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.bool, torch.bfloat16}
_DIAG_EMBED_DTYPES = frozenset((torch.float32, torch.float64, torch.int32, torch.int64))
_FILL_DIAGONAL_DTYPES = frozenset((torch.bool, torch.float16, torch.float32, torch.float64, torch.int32,
                                   torch.int64))


@defop(method=True, paddle_types=("diag_v2", "pd_op.diag"))
def diag(x, offset=0, padding_value=0, name=None):
    """A diagonal matrix from a vector, or a diagonal of a matrix as a vector.

    Args:
        x (Tensor): 1-D (placed on a diagonal) or 2-D (a diagonal extracted).
        offset (int, optional): the diagonal: 0 the main one, positive above it,
            negative below. Default 0.
        padding_value (int|float, optional): for a 1-D ``x``, the value off the
            diagonal. Default 0.
        name (str, optional): unused.

    Returns:
        Tensor: the matrix (1-D input) or the diagonal (2-D input).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.diag(paddle.to_tensor([1, 2])).tolist()
        [[1, 0], [0, 2]]
        >>> paddle.diag(paddle.to_tensor([[1, 2], [3, 4]]), 1).tolist()
        [2]
    """
    k = _int_arg(offset, "offset", "diag")
    # Paddle checks the attribute's type before the input (whatever its rank or dtype)
    if isinstance(padding_value, _T) and padding_value.numel() == 1:
        padding_value = padding_value.item()
    if isinstance(padding_value, (builtins.complex, np.complexfloating)) or \
            not isinstance(padding_value, (int, float, np.number, np.bool_)):
        raise TypeError(f"paddle.diag: 'padding_value' must be a real number, but received "
                        f"{padding_value!r}")
    padding_value = padding_value.item() if isinstance(padding_value, np.generic) else padding_value
    kernel_dtypes("diag", x, _DIAG_DTYPES)
    if x.dim() == 0:
        x = x.reshape(1)
    if x.dim() == 1:
        out = torch.diag(x, k)
        if isinstance(padding_value, float) and not (x.is_floating_point() or x.is_complex()):
            padding_value = c_float_to_int(padding_value, x.dtype)  # a double cast as C++ does
        if padding_value != 0:
            n = out.shape[0]
            mask = torch.ones(n, n, dtype=torch.bool, device=x.device).diagonal(k)
            full = torch.full_like(out, padding_value)
            eye = torch.zeros(n, n, dtype=torch.bool, device=x.device)
            eye.diagonal(k).copy_(mask)
            out = torch.where(eye, out, full)
        return out
    if x.dim() == 2:
        return torch.diagonal(x, k).clone()
    raise ValueError(f"paddle.diag: 'x' must be 1-D or 2-D, but received a {x.dim()}-D tensor "
                     f"of shape {list(x.shape)}")


@defop(method=True, paddle_types=("diag_v2",))
def diagflat(x, offset=0, name=None):
    """A 2-D matrix with the flattened ``x`` on a diagonal.

    Args:
        x (Tensor): any shape; flattened first.
        offset (int, optional): the diagonal: 0 the main one, positive above it,
            negative below. Default 0.
        name (str, optional): unused.

    Returns:
        Tensor: a square matrix of side ``x.numel() + |offset|``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.diagflat(paddle.to_tensor([[1, 2]])).tolist()
        [[1, 0], [0, 2]]
    """
    k = _int_arg(offset, "offset", "diagflat")
    kernel_dtypes("diagflat", x, _DIAG_DTYPES)
    return torch.diagflat(x, k)


@defop(method=True, differentiable=False, paddle_types=("diag_embed", "pd_op.diag_embed"))
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Put the last axis of ``input`` on the diagonals of new 2-D planes.

    Args:
        input (Tensor): at least 1-D; its last axis fills the diagonals.
        offset (int, optional): the diagonal: 0 the main one, positive above it,
            negative below. Default 0.
        dim1 (int, optional): the first axis of the planes in the output. Default -2.
        dim2 (int, optional): the second axis of the planes in the output. Default -1.

    Returns:
        Tensor: one more axis than ``input``. As in Paddle, it does not carry gradients.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.diag_embed(paddle.to_tensor([1, 2])).tolist()
        [[1, 0], [0, 2]]
    """
    offset, dim1, dim2 = (_int_arg(v, arg, "diag_embed")
                          for v, arg in ((offset, "offset"), (dim1, "dim1"), (dim2, "dim2")))
    nd = input.dim() + 1
    for d, arg in ((dim1, "dim1"), (dim2, "dim2")):
        if not -nd <= d < nd:
            raise IndexError(f"paddle.diag_embed: '{arg}' is out of range (expected to be in range "
                             f"of [{-nd}, {nd - 1}], but got {d})")
    if dim1 % nd == dim2 % nd:
        raise ValueError(f"paddle.diag_embed: the diagonal dimensions must differ, but received "
                         f"dim1={dim1}, dim2={dim2}")
    kernel_dtypes("diag_embed", input, _DIAG_EMBED_DTYPES, "input")
    return torch.diag_embed(input.detach(), offset, dim1, dim2)


_diag_embed_op = diag_embed


@functools.wraps(_diag_embed_op)
def diag_embed(input: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    if input is not None and not isinstance(input, Tensor):  # Paddle assigns data (a list, a numpy array...) first
        from pagaie._ops.creation import assign
        input = assign(input)
    return _diag_embed_op(input, offset, dim1, dim2)


def _check_tri(x: torch.Tensor, diagonal: Any, api: str) -> int:
    k = _int_arg(diagonal, "diagonal", api)  # Paddle checks the argument's type first
    if x.dim() < 2:
        raise ValueError(f"paddle.{api}: the input must have at least 2 dimensions, but received "
                         f"shape {list(x.shape)}")
    if api.endswith("_"):   # the in-place forms (the out-of-place ones check in their kernel)
        kernel_dtypes(api, x, _TRI_DTYPES)
    return k


# The dtypes of Paddle's CPU tril/triu kernels (probed; others are NotFound).
_TRI_DTYPES = ALL_DTYPES - SMALL_INTS - {torch.bfloat16}


@defop(method=True, paddle_types=("tril_triu", "pd_op.tril"), inplace=lambda x, diagonal=0, name=None:
       x.tril_(_check_tri(x, diagonal, "tril_")), static_check=int_only_in_programs("tril", "diagonal", 1, True))
def tril(x, diagonal=0, name=None, *, out=None):
    """The lower triangle of the last two axes; the other elements are zero.

    Args:
        x (Tensor): at least 2-D.
        diagonal (int, optional): the diagonal bounding the kept part: 0 the main
            one, positive above it, negative below. Default 0.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.

    Returns:
        Tensor: same shape and dtype as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.tril(paddle.to_tensor([[1, 2], [3, 4]])).tolist()
        [[1, 0], [3, 4]]
    """
    k = _check_tri(x, diagonal, "tril")
    kernel_dtypes("tril", x, _TRI_DTYPES)
    return finish(torch.tril(x, k), out)


@defop(method=True, paddle_types=("tril_triu", "pd_op.triu"), inplace=lambda x, diagonal=0, name=None:
       x.triu_(_check_tri(x, diagonal, "triu_")), static_check=int_only_in_programs("triu", "diagonal", 1, True))
def triu(x, diagonal=0, name=None, *, out=None):
    """The upper triangle of the last two axes; the other elements are zero.

    Args:
        x (Tensor): at least 2-D.
        diagonal (int, optional): the diagonal bounding the kept part: 0 the main
            one, positive above it, negative below. Default 0.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.

    Returns:
        Tensor: same shape and dtype as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.triu(paddle.to_tensor([[1, 2], [3, 4]])).tolist()
        [[1, 2], [0, 4]]
    """
    k = _check_tri(x, diagonal, "triu")
    kernel_dtypes("triu", x, _TRI_DTYPES)
    return finish(torch.triu(x, k), out)


tril_ = tril.inplace
triu_ = triu.inplace


_VANDER_CPU_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64,
                                torch.complex64, torch.complex128})


@defop(method=True)
def vander(x, n=None, increasing=False, name=None):
    """The Vandermonde matrix of a 1-D tensor: column ``j`` holds powers of ``x``.

    Args:
        x (Tensor): a 1-D tensor.
        n (int, optional): the number of columns; ``len(x)`` when None.
        increasing (bool, optional): powers increase left to right (``x**0`` first);
            default False (decreasing, ``x**(n-1)`` first).
        name (str, optional): unused.

    Returns:
        Tensor: shape ``[len(x), n]``, ``x``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.vander(paddle.to_tensor([1, 2, 3])).tolist()
        [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    """
    if x.dtype in SMALL_INTS:
        no_small_int_kernel("vander", x)
    if x.dim() != 1:
        raise ValueError(f"paddle.vander: 'x' must be a 1-D tensor, but received a {x.dim()}-D tensor")
    if n is None:
        n = x.shape[0]
    elif isinstance(n, (bool, float, np.floating)):  # Paddle's shape parser (empty([len(x), n]))
        raise TypeError(f"paddle.vander: 'n' must be an int, but received {type(n).__name__} ({n})")
    elif isinstance(n, np.integer):
        n = int(n)
    if n < 0:
        raise ValueError(f"paddle.vander: 'n' must be non-negative, but received {n}")
    if n == 0:
        return stopped(x.new_empty([x.shape[0], 0]))
    if x.dtype is torch.bool:   # Paddle's cumprod has no bool kernel: only x**0 columns exist
        if n > 1:
            raise NoKernelError("paddle.vander: bool tensors are not supported for n > 1 (no bool "
                                "kernel); cast 'x' first")
        return stopped(torch.ones([x.shape[0], 1], dtype=torch.bool, device=x.device))
    if x.dtype is torch.float16 or x.dtype is torch.bfloat16:   # nor float16/bfloat16 ones
        kernel_dtypes("vander", x, _VANDER_CPU_DTYPES)
    # Column j is x**j: a running product keeps x's dtype and a clean gradient.
    cols = torch.cat([torch.ones_like(x).unsqueeze(1), x.unsqueeze(1).expand(-1, n - 1)], dim=1)
    out = torch.cumprod(cols, dim=1, dtype=x.dtype)
    return out if increasing else out.flip(1)


_block_diag_uint8 = concat_refuses_uint8("block_diag")


def _block_diag_static_check(inputs, *args, **kwargs) -> None:
    """While a program is built Paddle's block_diag makes zero blocks of its inputs' sizes, so
    an input of unknown size (-1) is its ValueError; and concat's uint8 check applies."""
    _block_diag_uint8(inputs)
    if type(inputs) is list or type(inputs) is tuple:
        for t in inputs:
            if isinstance(t, Tensor) and any(d < 0 for d in t.shape):
                raise ValueError(f"paddle.block_diag: every input needs known sizes in a static "
                                 f"program, but received shape {list(t.shape)}")


@defop(method=True, static_check=_block_diag_static_check)
def block_diag(inputs, name=None):
    """A block-diagonal matrix from the given 0-D, 1-D or 2-D tensors.

    Args:
        inputs (list[Tensor]|tuple[Tensor]): the blocks, all of one dtype; a 0-D
            tensor is a 1x1 block, a 1-D tensor a single row.
        name (str, optional): unused.

    Returns:
        Tensor: the blocks on the diagonal, zeros elsewhere.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[1, 2]])
        >>> b = paddle.to_tensor([[3], [4]])
        >>> paddle.block_diag([a, b]).tolist()
        [[1, 2, 0], [0, 0, 3], [0, 0, 4]]
    """
    if isinstance(inputs, _T) and inputs.dim() == 0:  # Paddle: an empty list of blocks
        raise ValueError("paddle.block_diag: 'inputs' must be a list of Tensors, but received a 0-D Tensor")
    ts = list(inputs.unbind(0)) if isinstance(inputs, _T) else list(inputs)
    if not ts:
        raise ValueError("paddle.block_diag: 'inputs' must hold at least one tensor")
    for i, t in enumerate(ts):
        if type(t) is not _T:
            # Paddle reads each block's ``ndim``: a numpy array has it and reaches concat's
            # argument parser, anything else fails on the attribute
            kind = "numpy.ndarray" if isinstance(t, np.ndarray) else type(t).__name__
            err = ValueError if isinstance(t, np.ndarray) and t.ndim == 2 else AttributeError
            raise err(f"paddle.block_diag: argument 'inputs' must be list of Tensors, but element {i} "
                      f"is {kind}")
        if t.dim() > 2:
            raise ValueError("paddle.block_diag: every input must be 0-D, 1-D or 2-D, but received "
                             f"a {t.dim()}-D tensor")
        if t.dtype is not ts[0].dtype:
            err = ValueError(f"paddle.block_diag: every input must have the same dtype, but received "
                             f"{_name(ts[0].dtype)} and {_name(t.dtype)}")
            err.static_type = TypeError   # Paddle's static API checks the dtypes first
            raise err
    return torch.block_diag(*ts)


@defop(method=False, paddle_types=("complex", "pd_op.complex"))
def complex(real, imag, name=None, *, out=None):
    """A complex tensor from its real and imaginary parts (broadcast together).

    Args:
        real (Tensor): the real parts, float32 or float64.
        imag (Tensor): the imaginary parts, same dtype as ``real``.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.

    Returns:
        Tensor: complex64 (from float32) or complex128 (from float64).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.complex(paddle.to_tensor([1.0]), paddle.to_tensor([2.0])).tolist()
        [(1+2j)]
    """
    for v, arg in ((real, "real"), (imag, "imag")):
        if not isinstance(v, _T):
            raise ValueError(f"paddle.complex: '{arg}' must be a Tensor, but received {type(v).__name__}")
    # Paddle picks the kernel by real's dtype, then finds imag's dtype does not match it
    if real.dtype not in (torch.float32, torch.float64):
        raise NoKernelError(f"paddle.complex: 'real' must be float32 or float64, but received "
                            f"{_name(real.dtype)} (no kernel for it)")
    if real.dtype is not imag.dtype:
        raise ValueError(f"paddle.complex: 'real' and 'imag' must have the same dtype, but received "
                         f"{_name(real.dtype)} and {_name(imag.dtype)}")
    r, i = torch.broadcast_tensors(real, imag)
    return finish(torch.complex(r, i), out)


@defop(method=True, paddle_types=("polar",))
def polar(abs, angle, name=None, *, out=None):
    """A complex tensor ``abs * (cos(angle) + i sin(angle))`` from polar coordinates.

    Args:
        abs (Tensor): the magnitudes, float32 or float64.
        angle (Tensor): the angles in radians, broadcastable with ``abs``.
        name (str, optional): unused.
        out (Tensor, optional): a tensor to write the result into.

    Returns:
        Tensor: complex64 or complex128 (the wider of the two float inputs).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.polar(paddle.to_tensor([2.0]), paddle.to_tensor([0.0])).tolist()
        [(2+0j)]
    """
    for v, arg in ((abs, "abs"), (angle, "angle")):
        if v.dtype in (torch.float16, torch.bfloat16):  # Paddle has no complex type for them
            raise NoKernelError(f"paddle.polar: '{arg}' must be float32 or float64, but received "
                                f"{_name(v.dtype)} (no complex type for it)")
        if v.dtype is torch.bool or v.is_complex():  # no cos/complex kernel for them: NotFound
            raise NoKernelError(f"paddle.polar: '{arg}' must be float32 or float64, but received "
                                f"{_name(v.dtype)} (no kernel for it)")
        if not v.is_floating_point():  # an integer fails Paddle's type promotion
            raise TypeError(f"paddle.polar: '{arg}' must be a floating tensor, but received "
                            f"{_name(v.dtype)}")
    # as Paddle: cos and sin in the angle's own dtype, then the product promotes
    re, im = torch.broadcast_tensors(abs * torch.cos(angle), abs * torch.sin(angle))
    return finish(torch.complex(re, im), out)


# ---- diagonal fills (Tensor methods) -----------------------------------------------------

def _double_arg(v: Any, api: str, arg: str) -> float | int | bool:
    """A number argument Paddle's C++ parser reads as a double: a Python or numpy real number
    or bool, or a Tensor's value; TypeError for anything else (complex, str, None)."""
    if isinstance(v, _T):
        return v.item()
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":
        return v.item()
    if isinstance(v, (int, float)):
        return v
    raise TypeError(f"paddle.{api}: argument '{arg}' must be a real number, but received "
                    f"{type(v).__name__} {v!r:.40}")


def _fill_diagonal_(x, value, offset=0, wrap=False, name=None):
    """Write ``value`` on a diagonal of ``x`` in place and return ``x``.

    For a 2-D tensor the diagonal is ``x[i, i + offset]``; with ``wrap`` a tall
    matrix restarts the diagonal every ``cols + 1`` rows (as numpy's
    ``fill_diagonal``). For more dimensions the diagonal is ``x[i, i, ..., i]``.

    Args:
        x (Tensor): at least 2-D, overwritten.
        value (scalar): the value.
        offset (int, optional): the diagonal offset (2-D only). Default 0.
        wrap (bool, optional): restart below the square part. Default False.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.zeros([2, 3]).fill_diagonal_(1.0, offset=1).tolist()
        [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    v = _double_arg(value, "Tensor.fill_diagonal_", "value")
    kernel_dtypes("Tensor.fill_diagonal_", x, _FILL_DIAGONAL_DTYPES)
    if x.dim() < 2:
        raise ValueError(f"paddle.Tensor.fill_diagonal_: the tensor must be at least 2-D, but "
                         f"received shape {list(x.shape)}")
    dims = list(x.shape)
    cols = dims[-1] if x.dim() == 2 else dims[1]
    step, acc = 0, 1
    for d in reversed(dims):  # the flat distance between x[i, i, ...] and x[i+1, i+1, ...]
        step += acc
        acc *= d
    numel = x.numel()
    size = numel if (wrap or x.dim() > 2) else min(numel, cols * cols)
    starts = torch.arange(0, size, step, device=x.device)
    col = starts % cols + offset
    pos = starts[(col >= 0) & (col < cols)] + offset
    pos = pos[(pos >= 0) & (pos < numel)]
    if x.is_contiguous():
        x.view(-1)[pos] = v
        return x
    tmp = x.contiguous().view(-1)
    tmp[pos] = v
    return x.copy_(tmp.view(dims))


returns_self(defop("fill_diagonal_", method=False)(_fill_diagonal_), "fill_diagonal_")


def _diag_target(x: torch.Tensor, y: torch.Tensor, offset: int, dim1: int, dim2: int,
                 api: str) -> torch.Tensor:
    for arg, d in (("dim1", dim1), ("dim2", dim2)):  # Paddle asserts the range first
        if not -x.dim() <= d < x.dim():
            raise AssertionValueError(f"paddle.Tensor.{api}: '{arg}' must be in [-{x.dim()}, {x.dim()}), "
                                      f"but received {d}")
    view = torch.diagonal(x, offset, dim1, dim2)
    if list(y.shape) != list(view.shape):
        raise AssertionError(f"paddle.Tensor.{api}: the y shape should be {list(view.shape)}, but "
                             f"received {list(y.shape)}")
    return view


@defop(method=True)
def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    """A copy of ``x`` whose diagonal (over axes ``dim1``, ``dim2``) is replaced by ``y``.

    Args:
        x (Tensor): the source.
        y (Tensor): the new diagonal values, shaped like ``x.diagonal(offset, dim1, dim2)``
            (the other axes first, the diagonal last).
        offset (int, optional): the diagonal offset. Default 0.
        dim1 (int, optional): the first axis of the planes. Default 0.
        dim2 (int, optional): the second axis of the planes. Default 1.
        name (str, optional): unused.

    Returns:
        Tensor: the filled copy.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 2])
        >>> x.fill_diagonal_tensor(paddle.to_tensor([1.0, 2.0])).tolist()
        [[1.0, 0.0], [0.0, 2.0]]
    """
    out = x.clone()
    _diag_target(out, y, offset, dim1, dim2, "fill_diagonal_tensor").copy_(y.detach())
    return out


def _fill_diagonal_tensor_(x, y, offset=0, dim1=0, dim2=1, name=None):
    """In-place :meth:`fill_diagonal_tensor`: write ``y`` on the diagonal of ``x``; returns ``x``.

    Args:
        x (Tensor): the tensor, overwritten.
        y (Tensor): the new diagonal values.
        offset (int, optional): the diagonal offset. Default 0.
        dim1 (int, optional): the first axis of the planes. Default 0.
        dim2 (int, optional): the second axis of the planes. Default 1.
        name (str, optional): unused.

    Returns:
        Tensor: ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 2])
        >>> x.fill_diagonal_tensor_(paddle.to_tensor([1.0, 2.0])) is x
        True
    """
    _diag_target(x, y, offset, dim1, dim2, "fill_diagonal_tensor_").copy_(y.detach())
    return x


returns_self(defop("fill_diagonal_tensor_", method=False)(_fill_diagonal_tensor_),
             "fill_diagonal_tensor_")
