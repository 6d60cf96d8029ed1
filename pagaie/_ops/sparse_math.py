"""``paddle.sparse`` math: elementwise unary and binary ops, casts and ``isnan``.

Unary ops map the stored values and keep the sparsity pattern (entries, their order and
the layout). Binary ops between two sparse tensors of one layout work on the union of
their patterns (``divide`` on every position, as Paddle does); ``multiply``/``divide``
also take a Python scalar.
"""
from __future__ import annotations

import math
from typing import Callable

import torch

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core.registry import defop
from pagaie._ops import _sparse_core as sc
from pagaie._ops._helpers import dtype_name, torch_dtype

_T = torch.Tensor
_COO, _CSR = torch.sparse_coo, torch.sparse_csr

__all__ = ["sparse_abs", "sparse_sin", "sparse_tan", "sparse_asin", "sparse_atan", "sparse_sinh",
           "sparse_tanh", "sparse_asinh", "sparse_atanh", "sparse_sqrt", "sparse_square",
           "sparse_log1p", "sparse_expm1", "sparse_neg", "sparse_deg2rad", "sparse_rad2deg",
           "sparse_isnan", "sparse_pow", "sparse_cast", "sparse_add", "sparse_subtract",
           "sparse_multiply", "sparse_divide", "map_values"]


def map_values(x: torch.Tensor, fn: Callable, api: str) -> torch.Tensor:
    """Apply ``fn`` to the stored values of ``x``, keeping its pattern and layout."""
    sc.check_sparse(api, x)
    if x.layout is _COO:
        return sc.keep_index_dtype(sc.coo(x._indices(), fn(sc.coo_values(x)), x.shape), x)
    return torch.sparse_csr_tensor(x.crow_indices(), x.col_indices(), fn(x.values()), x.shape)


def _unary(name: str, fn: Callable, what: str, dtypes: frozenset) -> Callable:
    api = f"sparse.{name}"

    def kernel(x, name=None):
        sc.check_sparse(api, x)
        sc.value_kernel(api, x, dtypes)
        return map_values(x, fn, api)

    kernel.__name__ = f"sparse_{name}"
    kernel.__doc__ = f"""Elementwise {what} of the stored values of a sparse tensor.

    The sparsity pattern (entries and their order) and the layout (COO or CSR) are kept.

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        name (str, optional): unused.

    Returns:
        Tensor: a sparse tensor of the same layout and pattern.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1]], [0.5, 0.25], [3])
        >>> paddle.sparse.{name}(x).indices().tolist()
        [[0, 1]]
    """
    # integer values run the float32 kernel untracked: the result says stop_gradient=True
    return defop(f"sparse_{name}", method=False, paddle_types=(f"sparse_{name}",),
                 int_autocast=bool(dtypes & sc.INTS))(kernel)


# Paddle's CPU kernels: the trigonometric ones also take integers (giving float32), sqrt
# takes no complex values, and the scaling ones (neg, deg2rad, rad2deg) floats only
_F, _FC, _FCI = sc.FLOATS, sc.FLOATS | sc.COMPLEX, sc.FLOATS | sc.COMPLEX | sc.INTS
sparse_abs = _unary("abs", torch.abs, "absolute value", _FC)
sparse_sin = _unary("sin", torch.sin, "sine", _FCI)
sparse_tan = _unary("tan", torch.tan, "tangent", _FCI)
sparse_asin = _unary("asin", torch.asin, "arcsine", _FCI)
sparse_atan = _unary("atan", torch.atan, "arctangent", _FCI)
sparse_sinh = _unary("sinh", torch.sinh, "hyperbolic sine", _FCI)
sparse_tanh = _unary("tanh", torch.tanh, "hyperbolic tangent", _FCI)
sparse_asinh = _unary("asinh", torch.asinh, "inverse hyperbolic sine", _FCI)
sparse_atanh = _unary("atanh", torch.atanh, "inverse hyperbolic tangent", _FCI)
sparse_sqrt = _unary("sqrt", torch.sqrt, "square root", _F | sc.INTS)
sparse_square = _unary("square", torch.square, "square", _FC)
sparse_log1p = _unary("log1p", torch.log1p, "``log(1 + x)``", _FC)
sparse_expm1 = _unary("expm1", torch.expm1, "``exp(x) - 1``", _FC)
sparse_neg = _unary("neg", torch.neg, "negation", _F)
sparse_deg2rad = _unary("deg2rad", lambda v: v * (math.pi / 180.0), "degrees-to-radians conversion",
                        _F)
sparse_rad2deg = _unary("rad2deg", lambda v: v * (180.0 / math.pi), "radians-to-degrees conversion",
                        _F)
_ISNAN_DTYPES = _F | {torch.float16, torch.int32, torch.int64}
_CAST_DTYPES = _F | sc.INTS | {torch.bool}
# sparse + sparse: add, subtract and multiply keep the dtype (no int8/uint8 kernel); divide
# also takes small integers (all integers give float32)
_ADD_DTYPES = _FC | {torch.int16, torch.int32, torch.int64}
_DIVIDE_DTYPES = _FCI


@defop("sparse_isnan", method=False, differentiable=False, paddle_types=("sparse_isnan",))
def sparse_isnan(x, name=None):
    """Whether each stored value of a sparse tensor is NaN (a bool sparse tensor, same pattern).

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        name (str, optional): unused.

    Returns:
        Tensor: a bool sparse tensor of the same layout and pattern.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [float('nan'), 1.0], [3])
        >>> paddle.sparse.isnan(x).values().tolist()
        [True, False]
    """
    sc.check_sparse("sparse.isnan", x)
    sc.value_kernel("sparse.isnan", x, _ISNAN_DTYPES)
    return sc.keep_index_dtype(map_values(x.detach(), torch.isnan, "sparse.isnan"), x)


@defop("sparse_pow", method=False, paddle_types=("sparse_pow",))
def sparse_pow(x, factor, name=None):
    """Raise each stored value of a sparse tensor to the power ``factor``.

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        factor (float|int): the exponent.
        name (str, optional): unused.

    Returns:
        Tensor: a sparse tensor of the same layout and pattern.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [2.0, 3.0], [3])
        >>> paddle.sparse.pow(x, 2).values().tolist()
        [4.0, 9.0]
    """
    if isinstance(factor, _T):
        factor = factor.item()
    sc.check_sparse("sparse.pow", x)
    sc.value_kernel("sparse.pow", x, _F)
    return map_values(x, lambda v: torch.pow(v, factor), "sparse.pow")


@defop("sparse_cast", method=False, paddle_types=("sparse_cast",))
def sparse_cast(x, index_dtype=None, value_dtype=None, name=None):
    """Cast the values (and, for CSR, the index arrays) of a sparse tensor.

    CSR index arrays are cast (int8 and int16 become int32: the narrowest CSR index type
    here); a COO tensor's indices are reported in ``index_dtype`` by ``indices()``.

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        index_dtype (str|paddle.dtype, optional): the index type (int32 or int64).
        value_dtype (str|paddle.dtype, optional): the value type.
        name (str, optional): unused.

    Returns:
        Tensor: the cast sparse tensor (same layout and pattern).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [2, 3], [3])
        >>> paddle.sparse.cast(x, value_dtype='float64').dtype
        <DataType.FLOAT64: 11>
    """
    api = "sparse.cast"
    sc.check_sparse(api, x)
    sc.value_kernel(api, x, _CAST_DTYPES)
    vd = torch_dtype(value_dtype, api)
    idt = torch_dtype(index_dtype, api)
    if idt is not None and idt not in (torch.int8, torch.int16, torch.int32, torch.int64):
        raise TypeError(f"paddle.{api}: index_dtype must be an integer type, but received "
                        f"{str(idt).replace('torch.', '')}")
    fn = (lambda v: v) if vd is None else (lambda v: v.to(vd))
    if x.layout is _COO:
        out = sc.coo(x._indices(), fn(sc.coo_values(x)), x.shape)
        return sc.with_index_dtype(out, sc.index_dtype(x) if idt is None else idt)
    crows, cols = x.crow_indices(), x.col_indices()
    if idt is not None:
        idt = torch.int32 if idt is not torch.int64 else idt
        crows, cols = crows.to(idt), cols.to(idt)
    return torch.sparse_csr_tensor(crows, cols, fn(x.values()), x.shape)


# ---- binary ----------------------------------------------------------------------

def _coo_pair(x: torch.Tensor, y: torch.Tensor, api: str) -> tuple:
    """Both operands as COO over the union of their patterns: (indices, xv, yv, shape)."""
    if x.sparse_dim() != y.sparse_dim():
        raise NotImplementedError(f"paddle.{api}: both operands must have the same number of "
                                  f"sparse dimensions, but received {x.sparse_dim()} and "
                                  f"{y.sparse_dim()}")
    sdim = x.sparse_dim()
    dims = list(x.shape[:sdim])
    x = x if x.is_coalesced() else sc.coalesce(x)
    y = y if y.is_coalesced() else sc.coalesce(y)
    kx, ky = sc.linear_keys(x._indices(), dims), sc.linear_keys(y._indices(), dims)
    uniq, inv = torch.unique(torch.cat([kx, ky]), sorted=True, return_inverse=True)
    xv, yv = sc.coo_values(x), sc.coo_values(y)
    n = uniq.numel()
    xf = xv.new_zeros((n,) + tuple(xv.shape[1:])).index_add(0, inv[:kx.numel()], xv)
    yf = yv.new_zeros((n,) + tuple(yv.shape[1:])).index_add(0, inv[kx.numel():], yv)
    return sc.unravel(uniq, dims), xf, yf


def _binary(x, y, op: Callable, api: str, scalar_ok: bool) -> torch.Tensor:
    # Paddle's argument parser rejects a non-Tensor y (ValueError) before any layout check
    if not isinstance(y, _T) and not (scalar_ok and isinstance(y, (int, float))):
        raise ValueError(f"paddle.{api}: 'y' must be a sparse Tensor"
                         f"{' or a scalar' if scalar_ok else ''}, but received "
                         f"{type(y).__name__}")
    sc.check_sparse(api, x)
    if not isinstance(y, _T):  # Paddle's scale / divide_scalar kernels: floats only
        sc.value_kernel(api, x, _F)
        return map_values(x, lambda v: op(v, y), api)
    if y.dtype != x.dtype and not ((x.dtype.is_floating_point or x.dtype.is_complex)
                                   and (y.dtype.is_floating_point or y.dtype.is_complex)):
        # Paddle promotes two different dtypes only between floating-point (and complex) ones
        raise TypeError(f"paddle.{api}: x and y of different dtypes are only supported when "
                        f"both are floating-point or complex, but received "
                        f"{dtype_name(x)} and {dtype_name(y)}")
    if op is torch.add and x.layout is _COO and y.layout is torch.strided:
        return _add_bias(x, y, api)
    if y.layout is not x.layout:
        raise NotImplementedError(f"paddle.{api}: both operands must be sparse tensors of the "
                                  f"same layout, but received {sc.layout_name(x)} and "
                                  f"{sc.layout_name(y)}")
    if list(x.shape) != list(y.shape):
        raise ValueError(f"paddle.{api}: the shapes of x {list(x.shape)} and y {list(y.shape)} "
                         "must be the same")
    sc.value_kernel(api, x, _DIVIDE_DTYPES if op is torch.div else _ADD_DTYPES)
    cx, cy = sc.to_coo(x), sc.to_coo(y)
    if op is torch.div:
        dims = list(x.shape[:cx.sparse_dim()])
        num = 1
        for d in dims:
            num *= d
        xd = sc.coo_to_dense(cx) if cx.layout is _COO else cx
        yd = sc.coo_to_dense(cy)
        r = torch.div(xd, yd).reshape((num,) + tuple(x.shape[cx.sparse_dim():]))
        idx = sc.unravel(torch.arange(num, device=r.device), dims)
        out = sc.coo(idx, r, x.shape)
    else:
        idx, xv, yv = _coo_pair(cx, cy, api)
        out = sc.coo(idx, op(xv, yv), x.shape)
    return sc.from_coo_like(out, x, api)


def _add_bias(x: torch.Tensor, y: torch.Tensor, api: str) -> torch.Tensor:
    """A sparse COO tensor plus a 1-D dense tensor as long as its last axis: Paddle adds it to
    the stored values (broadcast against them), keeping the pattern. Paddle first checks that
    the two shapes broadcast (ValueError); any other dense ``y`` has no kernel
    (NotImplementedError)."""
    try:
        broadcast_shapes(list(x.shape), list(y.shape))
    except RuntimeError:
        raise ValueError(f"paddle.{api}: the shapes of x {list(x.shape)} and the dense y "
                         f"{list(y.shape)} cannot be broadcast together") from None
    if y.dim() != 1 or x.dim() == 0 or y.shape[0] != x.shape[-1]:
        raise NotImplementedError(f"paddle.{api}: a sparse COO x takes a dense y only as a 1-D "
                                  f"tensor the size of x's last axis ({x.shape[-1]}), but "
                                  f"received shape {list(y.shape)}")
    v = sc.coo_values(x)
    try:
        broadcast_shapes(v.shape, y.shape)
    except RuntimeError:
        raise ValueError(f"paddle.{api}: the 1-D dense y of shape {list(y.shape)} cannot be "
                         f"broadcast against the values of x, of shape {list(v.shape)}") from None
    out = sc.coo(x._indices(), v + y, x.shape, coalesced=x.is_coalesced())
    return sc.keep_index_dtype(out, x)


@defop("sparse_add", method=False, paddle_types=("sparse_add",))
def sparse_add(x, y, name=None):
    """Add two sparse tensors of the same layout and shape; the result holds the union of
    their patterns.

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        y (Tensor): a sparse tensor of the same layout and shape; or, for a COO ``x``, a 1-D
            dense tensor added to its stored values (a bias over the last axis).
        name (str, optional): unused.

    Returns:
        Tensor: the sum, a sparse tensor of the same layout.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [1.0, 2.0], [3])
        >>> y = paddle.sparse.sparse_coo_tensor([[1, 2]], [3.0, 4.0], [3])
        >>> paddle.sparse.add(x, y).to_dense().tolist()
        [1.0, 3.0, 6.0]
    """
    return _binary(x, y, torch.add, "sparse.add", False)


@defop("sparse_subtract", method=False, paddle_types=("sparse_subtract",))
def sparse_subtract(x, y, name=None):
    """Subtract two sparse tensors of the same layout and shape (union of their patterns).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [1.0, 2.0], [3])
        >>> y = paddle.sparse.sparse_coo_tensor([[1, 2]], [3.0, 4.0], [3])
        >>> paddle.sparse.subtract(x, y).to_dense().tolist()
        [1.0, -3.0, -2.0]
    """
    return _binary(x, y, torch.sub, "sparse.subtract", False)


@defop("sparse_multiply", method=False, paddle_types=("sparse_multiply",))
def sparse_multiply(x, y, name=None):
    """Multiply two sparse tensors elementwise (result on the union of their patterns), or
    scale a sparse tensor's values by a scalar.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [1.0, 2.0], [3])
        >>> paddle.sparse.multiply(x, 3.0).values().tolist()
        [3.0, 6.0]
    """
    return _binary(x, y, torch.mul, "sparse.multiply", True)


@defop("sparse_divide", method=False, paddle_types=("sparse_divide",))
def sparse_divide(x, y, name=None):
    """Divide two sparse tensors elementwise (every position is computed, so ``0 / 0`` gives
    NaN entries, as in Paddle), or divide a sparse tensor's values by a scalar.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [1.0, 2.0], [3])
        >>> paddle.sparse.divide(x, 2.0).values().tolist()
        [0.5, 1.0]
    """
    return _binary(x, y, torch.div, "sparse.divide", True)
