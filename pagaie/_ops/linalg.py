"""paddle.linalg: norms, inverses, determinants, solvers and matrix functions.

Decompositions live in :mod:`pagaie._ops.linalg_decomp`. Only the names real Paddle
also exposes at top level are in ``__all__``; the rest reach users through
:mod:`pagaie.linalg`.
"""
from __future__ import annotations

import math
import numbers

import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import (F32_F64, AssertionValueError, dtype_name, kernel_dtypes, no_low_float_kernel,
                                 norm_axis, parser_bool, torch_dtype, write_out)
from pagaie._ops.math_unary import _abs

__all__ = ["norm", "cholesky", "inverse"]


def _square(api: str, x, arg: str = "x") -> None:
    if x.dim() < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"paddle.linalg.{api}: '{arg}' must be a (batch of) square matrices, but "
                         f"received shape {list(x.shape)}")


def _floating(api: str, x) -> None:
    """Paddle has no integer/bool/half kernel for the LAPACK-backed ops: its NotFound (RuntimeError;
    TypeError in a program)."""
    if not (x.is_floating_point() or x.is_complex()) or x.dtype in (torch.float16, torch.bfloat16):
        raise NoKernelError(f"paddle.linalg.{api}: 'x' must be a floating or complex tensor, but "
                            f"received dtype {str(x.dtype).replace('torch.', '')}")


def _no_integer_norm(api: str, x) -> None:
    """Paddle's norm kernels are floating and complex only (its NotFound, a RuntimeError)."""
    if not (x.is_floating_point() or x.is_complex()):
        raise NoKernelError(f"paddle.linalg.{api}: 'x' must be a floating or complex tensor, but received dtype "
                            f"{str(x.dtype).replace('torch.', '')}")


def _real(api: str, x) -> None:
    """Paddle registers some CPU kernels for float32/float64 only: complex input is its NotFound."""
    if x.is_complex():
        raise NoKernelError(f"paddle.linalg.{api}: 'x' must be float32 or float64, but received "
                            f"{str(x.dtype).replace('torch.', '')}")


def _invertible(api: str, x) -> None:
    """Paddle's LU-based inverse checks ``min |pivot| > 0`` with a running minimum that a NaN
    first pivot poisons (a later NaN pivot never replaces a number). LAPACK's pivot search keeps
    a NaN ``x[0, 0]`` as the first pivot and never picks a NaN below it, so a NaN in the
    top-left corner of any matrix of the batch is Paddle's InvalidArgument; NaN elsewhere just
    spreads into the result."""
    if x.numel() and not x.is_meta and bool(torch.isnan(x[..., 0, 0]).any()):
        raise ValueError(f"paddle.linalg.{api}: the input is not invertible: its first LU pivot "
                         f"is NaN (received shape {list(x.shape)})")


def _batches(api: str, x, y, y_batch=None) -> None:
    """Paddle's batched solvers broadcast the batch dimensions of 'x' and 'y' (all but the last
    two, or ``y_batch`` when given); sizes that cannot be broadcast are its PreconditionNotMet,
    a RuntimeError."""
    xb, yb = list(x.shape[:-2]), list(y.shape[:-2] if y_batch is None else y_batch)
    for a, b in zip(reversed(xb), reversed(yb)):
        if a != b and a != 1 and b != 1:
            raise RuntimeError(f"paddle.linalg.{api}: the batch dimensions {xb} of 'x' and {yb} of "
                               f"'y' cannot be broadcast together")


def _no_integer(api: str, x) -> None:
    """Paddle has no integer or bool kernel for this op: its NotFound (RuntimeError)."""
    if not (x.is_floating_point() or x.is_complex()):
        raise NoKernelError(f"paddle.linalg.{api}: 'x' must be a floating or complex tensor, but "
                            f"received dtype {str(x.dtype).replace('torch.', '')}")


def _axis_list(axis, ndim, api):
    if axis is None:
        return None
    if isinstance(axis, torch.Tensor):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        for a in axis:  # Paddle's parser takes a list of ints only (numpy ints too, not bools)
            if isinstance(a, bool) or not isinstance(a, numbers.Integral):
                raise TypeError(f"paddle.{api}: 'axis' must be a list of ints, but received "
                                f"{type(a).__name__} {a!r} in {list(axis)}")
        return [norm_axis(int(a), ndim, api) for a in axis]
    return [norm_axis(axis, ndim, api)]


_MATRIX_ORDS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


class _EdgeNorm(torch.autograd.Function):
    """Vector norms of order 0, inf and -inf with Paddle's gradients: zeros for the count of
    non-zeros (a gradient all the same, where torch has none), and for +-inf the whole
    incoming gradient times ``sign(x)`` at every element reaching the extreme (ties are
    not split, unlike torch). Paddle has no second derivative of these norms."""

    @staticmethod
    def forward(ctx, x, p, dims, keepdim):
        r = torch.linalg.vector_norm(x, ord=p, dim=dims, keepdim=True)
        ctx.p, ctx.r = p, r.detach()  # detached: no cycle through the output's grad_fn
        ctx.save_for_backward(x)
        if keepdim:
            return r
        return r.reshape(()) if dims is None else r.squeeze(tuple(dims))

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        x = x.detach()
        if ctx.p == 0:
            return torch.zeros_like(x), None, None, None
        hit = torch.sign(x) * (x.abs() == ctx.r)
        return g.reshape(ctx.r.shape) * hit, None, None, None


class _EpsNorm(torch.autograd.Function):
    """The ``p``-norm (``p`` finite, not 0) over ``dim`` (an axis, a list of them or None) with the gradient of
    Paddle's ``p_norm`` kernel: ``|x|^(p-1) * sign(x) / (norm^(p-1) + eps)``. ``eps`` is the
    kernel's attribute (``normalize`` passes its ``epsilon``, ``pairwise_distance`` 0), which
    scales every gradient; at an all-zero slice with ``eps = 0`` the gradient is NaN (0 / 0),
    and zeros get NaN for ``p < 1``, where torch's norm gradient masks both to 0."""

    @staticmethod
    def forward(ctx, x, p, dim, keepdim, eps):
        r = torch.linalg.vector_norm(x, ord=p, dim=dim, keepdim=True)
        ctx.p, ctx.eps = p, eps
        ctx.save_for_backward(x, r)
        if keepdim:
            return r
        return r.reshape(()) if dim is None else r.squeeze(dim if isinstance(dim, int) else tuple(dim))

    @staticmethod
    def backward(ctx, g):
        x, r = ctx.saved_tensors
        p = ctx.p
        g = g.reshape(r.shape)
        dx = x.abs().pow(p - 1) / (r.pow(p - 1) + ctx.eps) * g * torch.sign(x)
        return dx, None, None, None, None


def eps_pnorm(x, p: float, dim: int, keepdim: bool, eps: float):
    """``vector_norm`` of ``x`` over ``dim`` whose gradient is Paddle's ``p_norm`` one with
    the kernel attribute ``epsilon=eps`` (orders 0 and +-inf go through ``_pnorm``)."""
    if p == 0 or math.isinf(p) or x.numel() == 0 or not (x.requires_grad and torch.is_grad_enabled()):
        return _pnorm(x, p, [dim % max(x.dim(), 1)], keepdim)
    return _EpsNorm.apply(x, p, dim, keepdim, eps)


def last_axis_pnorm(d, p: float, keepdim: bool):
    """Paddle's ``p_norm`` of ``d`` over its last axis with the kernel attribute epsilon 0 (as
    ``pairwise_distance`` calls it), gradients included: a zero gradient for the count of
    non-zeros (``p = 0``), every tied extreme for +-inf, NaN at an all-zero slice, and 0 over
    no elements."""
    if p == 0:
        return (d != 0).to(d.dtype).sum(dim=-1, keepdim=keepdim) + (d * 0).sum(dim=-1, keepdim=keepdim)
    if d.requires_grad or d.numel() == 0:
        return eps_pnorm(d, p, d.dim() - 1, keepdim, 0.0)
    return torch.linalg.vector_norm(d, ord=p, dim=-1, keepdim=keepdim)


def _pnorm(x, p, dims, keepdim, nan_at_zero=True):
    """``torch.linalg.vector_norm`` with Paddle's gradients at the orders 0 and +-inf (over
    several axes Paddle's +-inf norm is a max of ``|x|``, which splits ties as torch does), and
    for ``p < 1`` a NaN gradient at zeros (``nan_at_zero``: Paddle's p_norm kernel, not its
    composite vector_norm over several axes)."""
    if x.numel() == 0 and (dims is None or any(x.shape[d] == 0 for d in dims)):
        # Paddle: the norm of an empty set of elements is 0 for every order (torch has no
        # identity for the max/min of the orders inf, -inf and the negative ones)
        shape = [1 if dims is None or d in dims else n for d, n in enumerate(x.shape)]
        r = x.abs().new_zeros(shape) + x.abs().sum(dim=dims, keepdim=True)
        return r if keepdim else r.reshape(()) if dims is None else r.squeeze(tuple(dims))
    if x.requires_grad and torch.is_grad_enabled() and x.is_floating_point():
        if p == 0 or (math.isinf(p) and (dims is None or len(dims) == 1)):
            return _EdgeNorm.apply(x, p, dims, keepdim)
        if p == 1:  # through _abs: torch's would give a data-less second derivative
            return torch.sum(_abs(x), dim=dims, keepdim=keepdim)
        if p < 1 and not math.isinf(p) and nan_at_zero:
            # Paddle's gradient |x|^(p-1) * sign(x) / ... is 0 * inf = NaN at the zeros of x,
            # which torch masks to 0 (its norm API passes the kernel epsilon 1e-12)
            return _EpsNorm.apply(x, p, dims, keepdim, 1e-12)
    return torch.linalg.vector_norm(x, ord=p, dim=dims, keepdim=keepdim)


def _matrix_norm(x, p, dims, keepdim):
    """``torch.linalg.matrix_norm``; the orders 1 and inf (max of the column / row sums of
    ``|x|``) go through ``_abs`` when a gradient is recorded, so that a second derivative is
    real zeros rather than torch's data-less zero tensor."""
    if dims[0] % x.dim() == dims[1] % x.dim():
        raise ValueError(f"paddle.linalg.matrix_norm: 'axis' must name two different dimensions, but "
                         f"received {list(dims)}")
    if p in (2, -2, math.inf, -math.inf) and x.shape[dims[0]] * x.shape[dims[1]] == 0:
        # Paddle reduces with max/min (or an SVD) over an empty axis: its InvalidArgument
        raise ValueError(f"paddle.linalg.matrix_norm: p={p} needs non-empty matrices, but received shape "
                         f"{list(x.shape)} with axis {list(dims)}")
    if p in (1, -1, math.inf, -math.inf) and x.requires_grad and torch.is_grad_enabled() \
            and x.is_floating_point():
        rows, cols = (d % x.dim() for d in dims)
        summed, kept = (rows, cols) if abs(p) == 1 else (cols, rows)
        r = torch.sum(_abs(x), dim=summed, keepdim=True)
        r = r.amax(dim=kept, keepdim=True) if p > 0 else r.amin(dim=kept, keepdim=True)
        return r if keepdim else r.squeeze((rows, cols))
    return torch.linalg.matrix_norm(x, ord=p, dim=tuple(dims), keepdim=keepdim)


def _vector_norm(x, p, dims, keepdim):
    if p == "fro":
        p = 2.0
    return _pnorm(x, float(p), dims, keepdim)


@defop(amp="black", paddle_types=("p_norm", "frobenius_norm", "pd_op.p_norm"))
def norm(x, p=None, axis=None, keepdim=False, out=None, dtype=None, name=None):
    """Vector or matrix norm of ``x``.

    With ``axis`` None the input is treated as one flat vector (``'fro'`` and
    numeric ``p``), except ``p='nuc'`` on a 2-D input; an int axis gives vector
    norms along it, and a pair of axes gives matrix norms over those axes.

    Args:
        x (Tensor): the input (floating).
        p (float|str, optional): the order: a number, ``inf``, ``-inf``, ``'fro'`` or
            ``'nuc'``; None means 2 (the spectral norm when ``axis`` names two axes).
        axis (int|list|tuple, optional): the axes to reduce.
        keepdim (bool, optional): keep the reduced axes with size 1.
        out (Tensor, optional): receives the result.
        dtype (str|paddle.dtype, optional): cast ``x`` to this dtype first.
        name (str, optional): unused.

    Returns:
        Tensor: the norm.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[3.0, 0.0], [0.0, 4.0]])
        >>> paddle.linalg.norm(x).item()
        5.0
        >>> paddle.linalg.norm(x, p=1, axis=1).tolist()
        [3.0, 4.0]
        >>> round(paddle.linalg.norm(x, p='nuc').item(), 4)
        7.0
    """
    keepdim = parser_bool(keepdim, "linalg.norm", "keepdim")
    if not (isinstance(axis, (list, tuple)) and len(axis) == 2) and \
            not isinstance(p, (str, int, float, type(None))):
        # Paddle checks a vector norm's order before it looks at 'x'
        raise ValueError(f"paddle.linalg.norm: a vector norm's 'p' must be an int or a float, but received "
                         f"{type(p).__name__} {p!r}")
    if isinstance(p, torch.Tensor):  # Paddle takes only a number or a string
        raise ValueError("paddle.linalg.norm: 'p' must be an int, a float, 'fro' or 'nuc', but received a "
                         "Tensor")
    if isinstance(p, str) and isinstance(axis, tuple) and len(axis) == 1:
        # Paddle unwraps a one-element list to an int axis, but not a tuple: a string order over a
        # 1-tuple is a matrix norm over one axis, its ValueError
        raise ValueError(f"paddle.linalg.norm: p={p!r} needs 'axis' to be an int or a list of two ints, but "
                         f"received {axis}")
    if axis is None and dtype is None and out is None and (
            p is None or p == "fro" or (isinstance(p, (int, float)) and p == 2)):
        if x.dtype not in _P_NORM_DTYPES:
            kernel_dtypes("linalg.norm", x, _P_NORM_DTYPES)
        return torch.linalg.vector_norm(x, keepdim=keepdim)
    if dtype is not None:
        x = x.to(torch_dtype(dtype, "linalg.norm"))
    dims = _axis_list(axis, x.dim(), "linalg.norm")
    if p is None:  # Paddle: the spectral norm for a pair of axes, else the vector 2-norm
        p = 2.0
    if dims is None or len(dims) != 2:
        if p == "nuc" and dims is not None and len(dims) > 2:
            raise ValueError(f"paddle.linalg.norm: p='nuc' needs 'axis' to name two dimensions, but received {axis}")
        if p == "nuc":
            if dims is None and x.dim() == 2:
                return write_out(out, torch.linalg.matrix_norm(x, ord="nuc", keepdim=keepdim))
            raise (ValueError if dims is None else TypeError)(
                "paddle.linalg.norm: p='nuc' needs 'axis' to name two dimensions (or a 2-D input), "
                f"but received axis={axis} for a {x.dim()}-D input")
        if p == "fro" and dims is not None and len(dims) > 2:
            raise ValueError(f"paddle.linalg.norm: p='fro' needs 'axis' to be an int or two ints, but received {axis}")
        if isinstance(p, str) and p != "fro":
            raise ValueError(f"paddle.linalg.norm: 'p' must be a number, 'fro' or 'nuc', but received {p!r}")
        if not isinstance(p, (str, int, float)):  # a vector norm takes a Python int or float only
            raise ValueError(f"paddle.linalg.norm: a vector norm's 'p' must be an int or a float, but "
                             f"received {type(p).__name__} {p!r}")
        kernel_dtypes("linalg.norm", x, _P_NORM_DTYPES)
        return write_out(out, _vector_norm(x, p, dims, keepdim))
    if p not in _MATRIX_ORDS:
        raise ValueError("paddle.linalg.norm: for a 2-D 'axis', 'p' must be one of 'fro', 'nuc', 1, -1, "
                         f"2, -2, inf, -inf, but received {p!r}")
    no_low_float_kernel("linalg.norm", x)   # (its CPU frobenius_norm, p_norm and svd kernels)
    return write_out(out, _matrix_norm(x, p, dims, keepdim))



# Paddle's CPU p_norm kernels (a complex input's norm is taken of its magnitude)
_P_NORM_DTYPES = frozenset((torch.float32, torch.float64, torch.complex64, torch.complex128))


@defop(amp="black", method=False)
def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None, *, dtype=None, out=None):
    """Vector ``p``-norm over ``axis`` (all axes when None).

    Args:
        x (Tensor): the input (floating).
        p (float, optional): the order, including ``0``, ``inf`` and ``-inf``.
        axis (int|list|tuple, optional): the axes to reduce.
        keepdim (bool, optional): keep the reduced axes with size 1.
        name (str, optional): unused.
        dtype (str|paddle.dtype, optional): cast ``x`` to this dtype first.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: the norm.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.vector_norm(paddle.to_tensor([3.0, -4.0])).item()
        5.0
    """
    keepdim = parser_bool(keepdim, "linalg.vector_norm", "keepdim")
    if dtype is not None:
        x = x.to(torch_dtype(dtype, "linalg.vector_norm"))
    if not isinstance(p, (int, float)):  # Paddle takes only an int or a float (not a numpy int)
        raise ValueError("paddle.linalg.vector_norm: 'p' must be an int or a float, but received "
                         f"{'a Tensor' if isinstance(p, torch.Tensor) else type(p).__name__ + ' ' + repr(p)}")
    dims = _axis_list(axis, x.dim(), "linalg.vector_norm")
    _no_integer_norm("vector_norm", x)
    no_low_float_kernel("linalg.vector_norm", x)   # (Paddle's CPU p_norm kernel)
    # over several axes Paddle's vector_norm is composite (sum of pow), no NaN at zeros
    return write_out(out, _pnorm(x, float(p), dims, keepdim, nan_at_zero=dims is None or len(dims) == 1))


@defop(amp="black", method=False, program_dtypes={"x": frozenset((torch.float32, torch.float64, torch.complex64, torch.complex128))})  # (its static API's check)
def matrix_norm(x, p="fro", axis=[-2, -1], keepdim=False, name=None):  # noqa: B006 (Paddle's default)
    """Matrix norm over the two dimensions in ``axis``.

    Args:
        x (Tensor): the input (floating), at least 2-D.
        p (float|str, optional): ``'fro'``, ``'nuc'``, ``1``, ``-1``, ``2``, ``-2``,
            ``inf`` or ``-inf``.
        axis (list|tuple, optional): the two matrix dimensions.
        keepdim (bool, optional): keep the reduced axes with size 1.
        name (str, optional): unused.

    Returns:
        Tensor: the norms.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.matrix_norm(paddle.to_tensor([[1.0, -2.0], [3.0, 4.0]]), p=1).item()
        6.0
    """
    keepdim = parser_bool(keepdim, "linalg.matrix_norm", "keepdim")
    if isinstance(axis, torch.Tensor):  # Paddle's type check: an int or a list
        raise ValueError(f"paddle.linalg.matrix_norm: 'axis' must be a list of two ints, but received a Tensor of "
                         f"shape {list(axis.shape)}")
    if axis is None or isinstance(axis, numbers.Integral):  # Paddle takes len() of the axis
        raise TypeError(f"paddle.linalg.matrix_norm: 'axis' must be a list of two ints, but received {axis!r}")
    dims = _axis_list(axis, x.dim(), "linalg.matrix_norm")
    if dims is None or len(dims) != 2:
        raise ValueError(f"paddle.linalg.matrix_norm: 'axis' must name two dimensions, but received {axis}")
    if p not in _MATRIX_ORDS:
        raise ValueError("paddle.linalg.matrix_norm: 'p' must be one of 'fro', 'nuc', 1, -1, 2, -2, inf, "
                         f"-inf, but received {p!r}")
    _no_integer_norm("matrix_norm", x)
    no_low_float_kernel("linalg.matrix_norm", x)
    return _matrix_norm(x, p, dims, keepdim)


def _cond_static_check(x, *args, **kwargs) -> None:
    """Paddle's static cond refuses an empty input (ValueError), which its eager one takes."""
    if 0 in list(x.shape):
        raise ValueError(f"paddle.linalg.cond: 'x' must not be empty in a static program, but received shape "
                         f"{list(x.shape)}")


@defop(amp="black", program_dtypes={"x": F32_F64},  # (its static API refuses complex input)
       static_check=_cond_static_check)
def cond(x, p=None, name=None):
    """Condition number of (a batch of) matrices in the norm ``p``.

    Args:
        x (Tensor): ``[..., m, n]``; square unless ``p`` is None, 2 or -2.
        p (float|str, optional): None (2), ``'fro'``, ``'nuc'``, ``1``, ``-1``, ``2``,
            ``-2``, ``inf`` or ``-inf``.
        name (str, optional): unused.

    Returns:
        Tensor: the condition numbers.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.cond(paddle.to_tensor([[2.0, 0.0], [0.0, 1.0]])).item()
        2.0
    """
    if p is not None and p not in _MATRIX_ORDS:
        raise ValueError("paddle.linalg.cond: 'p' must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, "
                         f"but received {p!r}")
    _floating("cond", x)
    if x.dim() >= 2 and x.shape[-1] * x.shape[-2] == 0:  # empty matrices: Paddle gives 0 per matrix
        return x.new_zeros(x.shape[:-2])
    if p is None or p == 2 or p == -2:
        s = torch.linalg.svdvals(x)
        return s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    # ||x|| * ||x^-1||, written out so that autograd differentiates it.
    _invertible("cond", x)
    return torch.linalg.matrix_norm(x, ord=p) * torch.linalg.matrix_norm(torch.linalg.inv(x), ord=p)


@defop(method=False, differentiable=False)
def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """Numerical rank: the count of singular values above the tolerance.

    Args:
        x (Tensor): ``[..., m, n]``.
        tol (float|Tensor, optional): absolute threshold; by default
            ``max(m, n) * eps * largest singular value``.
        hermitian (bool, optional): ``x`` is Hermitian (uses eigenvalues).
        atol (float|Tensor, optional): absolute threshold (with ``rtol``; ignored
            when ``tol`` is given).
        rtol (float|Tensor, optional): threshold relative to the largest singular value.
        name (str, optional): unused.

    Returns:
        Tensor: int64 ranks.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.matrix_rank(paddle.to_tensor([[1.0, 2.0], [2.0, 4.0]])).item()
        1
    """
    hermitian = parser_bool(hermitian, "linalg.matrix_rank", "hermitian")
    _floating("matrix_rank", x)
    if tol is not None and (atol is not None or rtol is not None):
        raise ValueError("paddle.linalg.matrix_rank: give 'tol' alone or 'atol'/'rtol' without 'tol', but "
                         f"received tol={tol}, atol={atol}, rtol={rtol}")
    if tol is not None:
        atol, rtol = tol, 0.0
    if isinstance(atol, torch.Tensor) or isinstance(rtol, torch.Tensor):
        # the kernel takes both tolerances as numbers or both as tensors
        atol, rtol = (t if isinstance(t, torch.Tensor) or t is None else torch.tensor(t, dtype=x.real.dtype)
                      for t in (atol, rtol))
    return torch.linalg.matrix_rank(x, atol=atol, rtol=rtol, hermitian=hermitian)


class _SingularBatchGrad(torch.autograd.Function):
    """det (``log_abs=False``) or slogdet's log-determinant of real matrices with Paddle's
    gradient: when any matrix of the batch is singular, its kernel gives the whole batch zeros
    (det) or NaN (slogdet); otherwise the usual ``inv(x)^T`` form (torch's)."""

    @staticmethod
    def forward(ctx, x, log_abs):  # type: ignore[override]
        ctx.save_for_backward(x)
        ctx.log_abs = log_abs
        return torch.linalg.slogdet(x)[1] if log_abs else torch.linalg.det(x)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (x,) = ctx.saved_tensors
        if bool((torch.linalg.det(x.detach()) == 0).any()):
            return torch.full_like(x, math.nan) if ctx.log_abs else torch.zeros_like(x), None
        with torch.enable_grad():
            xd = x.detach().requires_grad_()
            y = torch.linalg.slogdet(xd)[1] if ctx.log_abs else torch.linalg.det(xd)
            (dx,) = torch.autograd.grad(y, xd, g)
        return dx, None


@defop(amp="black", method=False, paddle_types=("determinant", "pd_op.det"))
def det(x, name=None):
    """Determinant of (a batch of) square matrices.

    Args:
        x (Tensor): ``[..., n, n]``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[...]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.det(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).item()
        -2.0...
    """
    _square("det", x)
    _floating("det", x)
    if x.requires_grad and torch.is_grad_enabled() and x.is_floating_point():
        return _SingularBatchGrad.apply(x, False)
    return torch.linalg.det(x)


@defop(amp="black", paddle_types=("slogdeterminant", "pd_op.slogdet"))
def slogdet(x, name=None):
    """Sign and log of the absolute determinant, stacked into one ``[2, ...]`` tensor.

    Args:
        x (Tensor): ``[..., n, n]``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[2, ...]``: index 0 holds the signs, index 1 the log-determinants.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.slogdet(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).tolist()
        [-1.0, 0.693...]
    """
    _square("slogdet", x)
    _floating("slogdet", x)
    if x.requires_grad and torch.is_grad_enabled() and x.is_floating_point():
        sign = torch.linalg.slogdet(x.detach())[0]
        return torch.stack([sign, _SingularBatchGrad.apply(x, True)])
    sign, logabs = torch.linalg.slogdet(x)
    return torch.stack([sign, logabs.to(sign.dtype)])


@defop(amp="black", method="inverse", paddle_types=("inverse", "pd_op.inverse"))
def inv(x, name=None):
    """Inverse of (a batch of) square matrices.

    Args:
        x (Tensor): ``[..., n, n]``, invertible.
        name (str, optional): unused.

    Returns:
        Tensor: the inverses.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.inv(paddle.to_tensor([[2.0, 0.0], [0.0, 4.0]])).tolist()
        [[0.5, 0.0], [0.0, 0.25]]
    """
    _square("inv", x)
    _floating("inv", x)
    _invertible("inv", x)
    return torch.linalg.inv(x)


inverse = inv


@defop(amp="black", program_dtypes={"x": frozenset((torch.float32, torch.float64))})  # (its static API's check)
def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """Moore-Penrose pseudo-inverse, dropping singular values below ``rcond`` times the largest.

    Args:
        x (Tensor): ``[..., m, n]``.
        rcond (float, optional): relative cut-off for small singular values.
        hermitian (bool, optional): ``x`` is Hermitian (uses an eigendecomposition).
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., n, m]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.pinv(paddle.to_tensor([[2.0, 0.0], [0.0, 0.0]])).tolist()
        [[0.5, 0.0], [0.0, 0.0]]
    """
    _floating("pinv", x)
    if isinstance(rcond, (list, tuple)) or type(rcond).__name__ == "ndarray":
        # Paddle makes rcond a tensor of x's dtype, an array or a list too
        rcond = torch.as_tensor(rcond, dtype=x.real.dtype, device=x.device)
    if hermitian and x.numel():  # (an empty input needs no eigendecomposition, square or not)
        # Through the eigendecomposition, so gradients match Paddle's (symmetric) ones.
        w, v = torch.linalg.eigh(x)
        cut = rcond * w.abs().amax(-1, keepdim=True)
        w_inv = torch.where(w.abs() > cut, 1.0 / w, torch.zeros_like(w))
        return torch.matmul(v * w_inv.unsqueeze(-2).to(v.dtype), v.mH)
    # Through the SVD, as Paddle: torch's pinv backward differentiates the untruncated
    # pseudo-inverse, wrong once ``rcond`` drops singular values
    u, s, vh = torch.linalg.svd(x, full_matrices=False)
    cut = rcond * s.amax(-1, keepdim=True) if s.shape[-1] else s
    s_inv = torch.where(s > cut, 1.0 / s, torch.zeros_like(s))
    return torch.matmul(vh.mH * s_inv.unsqueeze(-2).to(vh.dtype), u.mH)


@defop(amp="black", paddle_types=("matrix_power", "pd_op.matrix_power"))
def matrix_power(x, n, name=None):
    """``x`` raised to the integer power ``n`` (negative powers invert first).

    Args:
        x (Tensor): ``[..., m, m]``.
        n (int): the exponent.
        name (str, optional): unused.

    Returns:
        Tensor: the power.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.matrix_power(paddle.to_tensor([[1.0, 1.0], [0.0, 1.0]]), 3).tolist()
        [[1.0, 3.0], [0.0, 1.0]]
    """
    if isinstance(n, torch.Tensor):
        n = n.item()
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):  # numpy integers are ints too
        raise TypeError(f"paddle.linalg.matrix_power: 'n' must be an int, but received {type(n).__name__}")
    _square("matrix_power", x)
    _no_integer("matrix_power", x)
    kernel_dtypes("linalg.matrix_power", x, _P_NORM_DTYPES)  # (float32/64 and complex kernels)
    if int(n) < 0:
        _invertible("matrix_power", x)
    return torch.linalg.matrix_power(x, int(n))


@defop(amp="black", method=False)
def matrix_exp(x, name=None):
    """Matrix exponential of (a batch of) square matrices.

    Args:
        x (Tensor|list|numpy.ndarray): ``[..., n, n]`` (float32 or float64).
        name (str, optional): unused.

    Returns:
        Tensor: the exponentials.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.matrix_exp(paddle.zeros([2, 2])).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    if not isinstance(x, torch.Tensor):  # Paddle converts a list or an array with to_tensor
        from pagaie._ops.creation import _from_data
        x = _from_data(x, None, "linalg.matrix_exp")
    if x.dim() == 0 and x.dtype in (torch.float32, torch.float64):  # Paddle: exp of a 0-D tensor
        return torch.exp(x)
    _square("matrix_exp", x)
    if x.dtype not in (torch.float32, torch.float64):
        raise ValueError("paddle.linalg.matrix_exp: 'x' must be float32 or float64, but received "
                         f"dtype {str(x.dtype).replace('torch.', '')}")
    return torch.linalg.matrix_exp(x)


@defop(amp="promote", paddle_types=("multi_dot", "pd_op.multi_dot"))
def multi_dot(x, name=None):
    """Product of a chain of matrices, multiplied in the cheapest order.

    The first and last may be 1-D (a row and a column vector).

    Args:
        x (list|tuple): the Tensors to multiply.
        name (str, optional): unused.

    Returns:
        Tensor: the product.

    Examples:
        >>> import pagaie as paddle
        >>> a, b = paddle.ones([2, 3]), paddle.ones([3, 4])
        >>> paddle.linalg.multi_dot([a, b]).shape
        paddle.Size([2, 4])
    """
    if not isinstance(x, (list, tuple)) or len(x) < 2:
        raise ValueError("paddle.linalg.multi_dot: 'x' must be a list of at least two Tensors")
    for i, t in enumerate(x):
        if not isinstance(t, torch.Tensor):
            raise ValueError("paddle.linalg.multi_dot: 'x' must be a list of Tensors, but element "
                             f"{i} is {type(t).__name__}")
    _real("multi_dot", x[0])
    _no_integer("multi_dot", x[0])
    kernel_dtypes("linalg.multi_dot", x[0], _P_NORM_DTYPES)
    last = len(x) - 1
    for i, t in enumerate(x):
        if t.dtype != x[0].dtype:
            raise ValueError(f"paddle.linalg.multi_dot: every Tensor in 'x' must have the dtype of the first, "
                             f"{dtype_name(x[0])}, but Tensor {i} is {dtype_name(t)}")
        if t.dim() != 2 and not (i in (0, last) and t.dim() == 1):
            which = "1-D or 2-D" if i in (0, last) else "2-D"
            raise ValueError(f"paddle.linalg.multi_dot: Tensor {i} of 'x' must be {which}, but received shape "
                             f"{list(t.shape)}")
        if i and x[i - 1].shape[-1] != t.shape[0]:
            raise ValueError(f"paddle.linalg.multi_dot: Tensors {i - 1} and {i} of 'x' with shapes "
                             f"{list(x[i - 1].shape)} and {list(t.shape)} cannot be multiplied")
    return torch.linalg.multi_dot(list(x))


@defop(amp="black", paddle_types=("solve", "pd_op.solve"))
def solve(x, y, left=True, name=None, *, out=None):
    """Solve ``x @ out = y`` (or ``out @ x = y`` when ``left`` is False) for square ``x``.

    Args:
        x (Tensor): ``[..., n, n]``.
        y (Tensor): ``[..., n, k]`` or ``[..., n]``.
        left (bool, optional): solve from the left (default) or the right.
        name (str, optional): unused.
        out (Tensor, optional): receives the result.

    Returns:
        Tensor: the solution, shaped like ``y``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.solve(paddle.to_tensor([[2.0, 0.0], [0.0, 4.0]]), paddle.to_tensor([2.0, 2.0])).tolist()
        [1.0, 0.5]
    """
    left = bool(left)  # read by truth value, unlike the parsed bools of the other solvers
    _real("solve", x)
    _floating("solve", x)
    _square("solve", x)
    vector = y.dim() == 1 or (y.dim() == x.dim() - 1 and y.shape == x.shape[:-1])
    if y.dtype != x.dtype:
        raise ValueError(f"paddle.linalg.solve: 'x' and 'y' must have the same dtype, but received "
                         f"{dtype_name(x)} and {dtype_name(y)}")
    n = x.shape[-1]
    fits = (y.shape[-1] == n if vector else y.dim() >= 2 and y.shape[-2] == n) if left else \
        (not vector and y.dim() >= 2 and y.shape[-1] == n)
    if not fits:
        raise ValueError(f"paddle.linalg.solve: 'y' of shape {list(y.shape)} does not fit 'x' of shape "
                         f"{list(x.shape)} in {'x @ out = y' if left else 'out @ x = y'}")
    _batches("solve", x, y, y.shape[:-1] if vector else None)
    _invertible("solve", x)
    return write_out(out, torch.linalg.solve(x, y, left=left))


@defop(amp="black", method=False, paddle_types=("triangular_solve", "pd_op.triangular_solve"))
def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    """Solve ``op(x) @ out = y`` for a triangular ``x`` (``op`` transposes when asked).

    Args:
        x (Tensor): ``[..., n, n]`` triangular matrices.
        y (Tensor): ``[..., n, k]`` right-hand sides.
        upper (bool, optional): ``x`` is upper (True) or lower triangular.
        transpose (bool, optional): solve with the transpose of ``x``.
        unitriangular (bool, optional): assume ones on the diagonal of ``x``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., n, k]``.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[2.0, 1.0], [0.0, 1.0]])
        >>> paddle.linalg.triangular_solve(a, paddle.to_tensor([[3.0], [1.0]])).tolist()
        [[1.0], [1.0]]
    """
    upper = parser_bool(upper, "linalg.triangular_solve", "upper")
    transpose = parser_bool(transpose, "linalg.triangular_solve", "transpose")
    unitriangular = parser_bool(unitriangular, "linalg.triangular_solve", "unitriangular")
    _square("triangular_solve", x)
    _floating("triangular_solve", x)
    if x.dtype != y.dtype:  # Paddle's kernel reads both with the dtype of 'x'
        raise ValueError(f"paddle.linalg.triangular_solve: 'x' and 'y' must have the same dtype, but received "
                         f"{str(x.dtype)[6:]} and {str(y.dtype)[6:]}")
    if y.dim() < 2 or y.shape[-2] != x.shape[-1]:
        raise ValueError("paddle.linalg.triangular_solve: 'y' must be a (batch of) matrices with "
                         f"{x.shape[-1]} rows to match 'x' {list(x.shape)}, but received shape "
                         f"{list(y.shape)}")
    _batches("triangular_solve", x, y)
    if transpose:
        x, upper = x.transpose(-1, -2), not upper
    return torch.linalg.solve_triangular(x, y, upper=upper, left=True, unitriangular=unitriangular)


@defop(amp="black", paddle_types=("cholesky_solve", "pd_op.cholesky_solve"))
def cholesky_solve(x, y, upper=False, name=None):
    """Solve ``A @ out = x`` given the Cholesky factor ``y`` of ``A``.

    Args:
        x (Tensor): ``[..., n, k]`` right-hand sides.
        y (Tensor): ``[..., n, n]`` lower (or upper) Cholesky factor of ``A``.
        upper (bool, optional): ``y`` is upper triangular.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., n, k]``.

    Examples:
        >>> import pagaie as paddle
        >>> l = paddle.to_tensor([[2.0, 0.0], [0.0, 1.0]])
        >>> paddle.linalg.cholesky_solve(paddle.to_tensor([[4.0], [1.0]]), l).tolist()
        [[1.0], [1.0]]
    """
    upper = parser_bool(upper, "linalg.cholesky_solve", "upper")
    _square("cholesky_solve", y, "y")
    # Paddle picks its kernel (float32/float64 only) by y's dtype and reads x as that type
    # (a complex one's, in a real/complex mix)
    if x.is_complex():
        kernel_dtypes("linalg.cholesky_solve", x, F32_F64)
    kernel_dtypes("linalg.cholesky_solve", y, F32_F64, "y")
    if x.dtype != y.dtype:
        raise ValueError(f"paddle.linalg.cholesky_solve: 'x' must have the dtype of 'y' "
                         f"({str(y.dtype)[6:]}), but received {str(x.dtype)[6:]}")
    if x.dim() < 2 or x.shape[-2] != y.shape[-1]:
        raise ValueError(f"paddle.linalg.cholesky_solve: 'x' must be a (batch of) matrices with as many rows as "
                         f"'y' ({list(y.shape)}) has, but received shape {list(x.shape)}")
    _batches("cholesky_solve", x, y)
    # Only one triangle of ``y`` is read, so only that triangle receives gradients.
    return torch.cholesky_solve(x, y.triu() if upper else y.tril(), upper=upper)


@defop(amp="black", paddle_types=("cholesky", "pd_op.cholesky"))
def cholesky(x, upper=False, name=None):
    """Cholesky factor of (a batch of) symmetric positive-definite matrices.

    Args:
        x (Tensor): ``[..., n, n]`` positive definite.
        upper (bool, optional): return the upper factor ``U`` (``x = U^H U``)
            instead of the lower ``L`` (``x = L L^H``).
        name (str, optional): unused.

    Returns:
        Tensor: the triangular factor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.cholesky(paddle.to_tensor([[4.0, 2.0], [2.0, 5.0]])).tolist()
        [[2.0, 0.0], [1.0, 2.0]]
    """
    upper = parser_bool(upper, "linalg.cholesky", "upper")
    if x.dim() < 2 or x.shape[-1] != x.shape[-2]:
        raise AssertionValueError(f"paddle.linalg.cholesky: 'x' must be a (batch of) square matrices, "
                                  f"but received shape {list(x.shape)}")
    if x.is_complex():
        raise NoKernelError("paddle.linalg.cholesky: 'x' must be float32 or float64, but received "
                            f"dtype {str(x.dtype).replace('torch.', '')}")
    _floating("cholesky", x)
    a = x.mH if upper else x  # Paddle reads the triangle it returns
    fac, info = torch.linalg.cholesky_ex(a)
    if a.numel() and not a.is_meta and bool((info > 0).any()):
        fac = _cholesky_nonfinite(a, fac, info)
    return fac.mH if upper else fac


def _cholesky_nonfinite(x, fac, info):
    """Paddle's factorisation fails only on a pivot ``<= 0``; NaN (and inf) entries flow through
    to the factor instead. LAPACK stops at the first non-finite pivot, so the failed matrices
    that hold a non-finite entry are factored again column by column; any other failure
    (a matrix that is not positive-definite) is Paddle's InvalidArgument."""
    flat, finfo = x.reshape(-1, *x.shape[-2:]), info.reshape(-1)
    out = fac.reshape(flat.shape).clone()
    for b in torch.nonzero(finfo > 0).flatten().tolist():
        a = flat[b]
        if bool(torch.isfinite(a).all()):
            raise ValueError("paddle.linalg.cholesky: the input is not positive-definite (the leading minor of "
                             f"order {int(finfo[b])} of matrix {b} is not positive), shape {list(x.shape)}")
        n = a.shape[-1]
        low = torch.zeros_like(a)
        for j in range(n):
            d = a[j, j] - (low[j, :j] * low[j, :j]).sum()
            if bool(d <= 0):
                raise ValueError("paddle.linalg.cholesky: the input is not positive-definite (the leading minor "
                                 f"of order {j + 1} of matrix {b} is not positive), shape {list(x.shape)}")
            low[j, j] = torch.sqrt(d)
            low[j + 1:, j] = (a[j + 1:, j] - low[j + 1:, :j] @ low[j, :j]) / low[j, j]
        out[b] = low
    return out.reshape(x.shape)


@defop(amp="black")
def cholesky_inverse(x, upper=False, name=None):
    """Inverse of ``A`` from its Cholesky factor ``x`` (a single 2-D matrix).

    Args:
        x (Tensor): ``[n, n]`` lower (or upper) Cholesky factor of ``A``.
        upper (bool, optional): ``x`` is upper triangular.
        name (str, optional): unused.

    Returns:
        Tensor: ``A^-1``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.linalg.cholesky_inverse(paddle.to_tensor([[2.0, 0.0], [1.0, 1.0]])).tolist()
        [[0.5, -0.5], [-0.5, 1.0]]
    """
    if x.dim() != 2:
        raise ValueError(f"paddle.linalg.cholesky_inverse: 'x' must be 2-D, but received shape {list(x.shape)}")
    _square("cholesky_inverse", x)
    _floating("cholesky_inverse", x)
    # Paddle inverts the product of the whole of 'x' with its conjugate transpose, whatever
    # lies outside the triangle named by 'upper'
    gram = x.mH @ x if upper else x @ x.mH
    _invertible("cholesky_inverse", gram)
    return torch.linalg.inv(gram)


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


@defop(amp="black", differentiable=False, paddle_types=("lstsq", "pd_op.lstsq"))
def lstsq(x, y, rcond=None, driver=None, name=None):
    """Least-squares solution of ``x @ out = y``.

    Args:
        x (Tensor): ``[..., m, n]``.
        y (Tensor): ``[..., m, k]``.
        rcond (float, optional): cut-off for small singular values (rank detection).
        driver (str, optional): LAPACK driver: ``'gels'``, ``'gelsy'`` (default on
            CPU), ``'gelsd'`` or ``'gelss'``.
        name (str, optional): unused.

    Returns:
        tuple: ``(solution, residuals, rank, singular_values)``; ``residuals`` is empty
        unless ``m > n`` and ``x`` has full rank (drivers other than ``gelsy``),
        ``rank`` is int32 (an empty int64 tensor for ``gels``), ``singular_values`` is filled by
        ``gelsd`` and ``gelss`` only. NaN or Inf in ``x`` makes the solution, residuals and
        singular values NaN; in a column of ``y``, that column of the solution and residuals.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
        >>> sol, res, rank, sv = paddle.linalg.lstsq(x, paddle.to_tensor([[1.0], [2.0], [3.0]]))
        >>> sol.tolist(), rank.item()
        ([[1.0], [2.0]], 2)
    """
    if x.dtype not in (torch.float32, torch.float64) or x.dtype != y.dtype:
        raise ValueError("paddle.linalg.lstsq: 'x' and 'y' must have the same dtype, float32 or float64, "
                         f"but received {str(x.dtype).replace('torch.', '')} and {str(y.dtype).replace('torch.', '')}")
    if driver is None:
        driver = "gelsy" if x.device.type == "cpu" else "gels"
    if driver not in _LSTSQ_DRIVERS:
        raise ValueError(f"paddle.linalg.lstsq: 'driver' must be one of {_LSTSQ_DRIVERS}, but received {driver!r}")
    for arg, t, dims in (("x", x, "(*, M, N)"), ("y", y, "(*, M, K)")):
        if t.dim() < 2:
            raise ValueError(f"paddle.linalg.lstsq: '{arg}' must be shaped {dims}, but received shape {list(t.shape)}")
    if x.dim() != y.dim() or x.shape[:-1] != y.shape[:-1]:  # Paddle broadcasts no batch dimension
        raise ValueError("paddle.linalg.lstsq: 'x' (*, M, N) and 'y' (*, M, K) must have the same rank, batch "
                         f"dimensions and M, but received shapes {list(x.shape)} and {list(y.shape)}")
    if rcond is None:  # Paddle's default cut-off, not torch's eps * max(M, N)
        rcond = (1e-7 if x.dtype == torch.float32 else 1e-15) * max(x.shape[-2], x.shape[-1])
    x_ok, y_ok = torch.isfinite(x), torch.isfinite(y)
    if x.is_meta or bool(x_ok.all() & y_ok.all()):
        sol, res, rank, sv = torch.linalg.lstsq(x, y, rcond=rcond, driver=driver)
    else:  # LAPACK rejects NaN/Inf: solve without them, then NaN where they reach (Paddle's gels/gelsy)
        x_bad, col_bad = ~x_ok.all(-1).all(-1), ~y_ok.all(-2)   # [...] and [..., K]
        sol, res, rank, sv = torch.linalg.lstsq(x.where(x_ok, 0), y.where(y_ok, 0),
                                                rcond=rcond, driver=driver)
        nan_cols = col_bad | x_bad.unsqueeze(-1)
        sol = sol.masked_fill(nan_cols.unsqueeze(-2), float("nan"))
        if res.numel():
            res = res.masked_fill(nan_cols, float("nan"))
        sv = sv.masked_fill(x_bad.unsqueeze(-1), float("nan"))
    if driver == "gelsy":
        res = res.new_empty((0,))
    if x.numel() == 0 or y.numel() == 0:  # Paddle: no ranks and no singular values for empty input
        return sol.detach(), res.detach(), rank.new_empty((0,), dtype=torch.int64), sv.new_empty((0,))
    # Paddle reports no rank for 'gels': an empty int64 tensor; int32 for the others
    # Paddle has no lstsq gradient: every output is stop_gradient
    return sol.detach(), res.detach(), rank.to(torch.int64 if driver == "gels" else torch.int32), sv.detach()


@defop(amp="white", method=False)
def fp8_fp8_half_gemm_fused(x, y, transpose_x=False, transpose_y=False, bias=None, scale=1.0,
                            output_dtype="float16", act="identity", name=None):
    """``act(scale * (op(x) @ op(y)) + bias)`` of float8 matrices, as float16 or bfloat16.

    The product is accumulated in float32 and cast to ``output_dtype``.

    Args:
        x (Tensor): float8 left operand.
        y (Tensor): float8 right operand.
        transpose_x (bool, optional): transpose the last two dimensions of ``x``.
        transpose_y (bool, optional): transpose the last two dimensions of ``y``.
        bias (Tensor, optional): added after scaling.
        scale (float, optional): multiplies the product.
        output_dtype (str, optional): ``'float16'`` or ``'bfloat16'``.
        act (str, optional): ``'identity'``, ``'relu'`` or ``'gelu'``.
        name (str, optional): unused.

    Returns:
        Tensor: the result in ``output_dtype``.

    Examples:
        >>> import pagaie as paddle
        >>> a = paddle.to_tensor([[1.0] * 4] * 2).astype('float8_e4m3fn')
        >>> paddle.linalg.fp8_fp8_half_gemm_fused(a, a, transpose_y=True).tolist()
        [[4.0, 4.0], [4.0, 4.0]]
    """
    if output_dtype not in ("float16", "bfloat16"):
        raise ValueError("paddle.linalg.fp8_fp8_half_gemm_fused: 'output_dtype' must be 'float16' or "
                         f"'bfloat16', but received {output_dtype!r}")
    acts = {"identity": lambda t: t, "relu": torch.relu, "gelu": torch.nn.functional.gelu}
    if act not in acts:
        raise ValueError("paddle.linalg.fp8_fp8_half_gemm_fused: 'act' must be 'identity', 'relu' or 'gelu', "
                         f"but received {act!r}")
    a, b = x.float(), y.float()
    if transpose_x:
        a = a.transpose(-1, -2)
    if transpose_y:
        b = b.transpose(-1, -2)
    r = torch.matmul(a, b) * scale
    if bias is not None:
        r = r + bias.float()
    return acts[act](r).to(getattr(torch, output_dtype))
