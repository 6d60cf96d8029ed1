"""Sparse tensors: creation (``paddle.sparse.sparse_coo_tensor`` / ``sparse_csr_tensor``) and the
``Tensor`` methods that read or convert sparse layouts (``indices``, ``values``, ``to_dense``...).

The layouts and their gradient rules are described in :mod:`pagaie._ops._sparse_core`.
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.registry import defop
from pagaie._core.tensor import Tensor, flag_grad
from pagaie._ops import _sparse_core as sc
from pagaie._ops._helpers import kernel_dtypes, torch_dtype
from pagaie._ops.creation import _from_data, _place

_T = torch.Tensor
_COO, _CSR = torch.sparse_coo, torch.sparse_csr

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor", "sparse_values", "sparse_indices",
           "sparse_crows", "sparse_cols", "sparse_to_dense", "sparse_to_sparse_coo",
           "sparse_to_sparse_csr", "sparse_coalesce"]


def _as_values(values: Any, dtype: Any, place: Any, stop_gradient: bool, api: str) -> torch.Tensor:
    if isinstance(values, _T):
        v = values if dtype is None else values.to(torch_dtype(dtype, api))
        v = _place(v, place, api)
    else:
        v = _place(_from_data(values, dtype, api), place, api)
    if stop_gradient:
        return v.detach()
    if not v.requires_grad and (v.is_floating_point() or v.is_complex()):
        v = v.detach().requires_grad_(True)
    return v


def _as_index(data: Any, name: str, api: str, place: Any, ndim: int | None = None) -> torch.Tensor:
    t = data.detach() if isinstance(data, _T) else _from_data(data, None, api)
    if ndim is not None and t.dim() != ndim:   # (Paddle checks the rank before the dtype)
        raise ValueError(f"paddle.{api}: '{name}' must be {ndim}-D, but received shape "
                         f"{list(t.shape)}")
    if t.dtype not in (torch.int8, torch.int16, torch.int32, torch.int64):
        raise TypeError(f"paddle.{api}: the dtype of {name} must be 'int8', 'int16', 'int32' or "
                        f"'int64', but received {str(t.dtype).replace('torch.', '')}")
    return _place(t, place, api)


# Paddle's CPU max kernel (which reads the indices) has no int8/int16/uint8/bool version
_MAX_DTYPES = sc.ALL_DTYPES - {torch.int8, torch.int16, torch.uint8, torch.bool}
# Paddle's CPU sparse_coo_tensor and coalesce kernels have no bool, int8 or bfloat16 values
_COO_VALUE_DTYPES = sc.ALL_DTYPES - {torch.bool, torch.int8, torch.bfloat16}


@defop(method=False, paddle_types=("sparse_coo_tensor", "sparse_sparse_coo_tensor"),
       own_stop_gradient=True)
def sparse_coo_tensor(indices, values, shape=None, dtype=None, place=None, stop_gradient=True):
    """Build a sparse COO tensor from the positions of its entries and their values.

    Args:
        indices (list|tuple|numpy.ndarray|Tensor): ``[sparse_dim, nnz]`` integer positions.
        values (list|tuple|numpy.ndarray|Tensor): ``[nnz, *dense_shape]`` values.
        shape (list|tuple, optional): the dense shape; inferred from the largest index when None.
        dtype (str|paddle.dtype, optional): the value type; inferred from ``values`` when None.
        place (str|Place, optional): the device.
        stop_gradient (bool, optional): whether gradients stop here. Default True.

    Returns:
        Tensor: a sparse COO tensor (entries kept in the given order, not coalesced).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> x.to_dense().tolist()
        [[0.0, 2.0], [3.0, 0.0]]
    """
    api = "sparse.sparse_coo_tensor"
    idx = _as_index(indices, "indices", api, place, ndim=2)
    v = _as_values(values, dtype, place, stop_gradient, api)
    if v.dim() == 0 or idx.shape[1] != v.shape[0]:
        raise ValueError(f"paddle.{api}: the indices and values must have the same number of "
                         f"non-zero entries, but received {idx.shape[1]} and "
                         f"{v.shape[0] if v.dim() else 0}")
    # Paddle takes the minimum shape from each row's largest index, with or without a shape:
    # its max kernel refuses an empty row (ValueError) and has no int8/int16 version
    if idx.shape[1] == 0:
        raise ValueError(f"paddle.{api}: the indices must hold at least one entry (Paddle infers "
                         f"the minimum shape from them), but received shape {list(idx.shape)}")
    kernel_dtypes(api, idx, _MAX_DTYPES, "indices")
    given = idx.dtype  # kept for indices(): torch stores COO indices as int64
    idx = idx.long()
    sdim = idx.shape[0]
    low = (idx.amax(1) + 1).tolist()
    if int(idx.min()) < 0:   # (Paddle writes out of bounds; an entry torch would drop)
        raise ValueError(f"paddle.{api}: the indices must be non-negative, but received "
                         f"{int(idx.min())}")
    if shape is None:
        dims = low + list(v.shape[1:])
    else:
        dims = sc.shape_list(shape)
        if len(dims) != sdim + v.dim() - 1:
            raise ValueError(f"paddle.{api}: the number of dimensions (len(shape)) must be "
                             f"sparse_dim ({sdim}) + dense_dim ({v.dim() - 1}), but received "
                             f"{len(dims)}")
        if any(a < b for a, b in zip(dims, low)):
            raise ValueError(f"paddle.{api}: the minimum shape required is {low}, but received "
                             f"{dims}")
    sc.value_kernel(api, v, _COO_VALUE_DTYPES, "values")
    return _flag_int_values(sc.with_index_dtype(sc.coo(idx, v, dims), given), stop_gradient)


@defop(method=False, paddle_types=("sparse_csr_tensor", "sparse_sparse_csr_tensor"),
       own_stop_gradient=True)
def sparse_csr_tensor(crows, cols, values, shape=None, dtype=None, place=None, stop_gradient=True):
    """Build a sparse CSR tensor (2-D, or 3-D with the batch's row offsets concatenated).

    Args:
        crows (list|tuple|numpy.ndarray|Tensor): row offsets, ``rows + 1`` per batch.
        cols (list|tuple|numpy.ndarray|Tensor): the column of each entry.
        values (list|tuple|numpy.ndarray|Tensor): the value of each entry.
        shape (list|tuple, optional): ``[rows, cols]`` or ``[batch, rows, cols]``.
        dtype (str|paddle.dtype, optional): the value type; inferred when None.
        place (str|Place, optional): the device.
        stop_gradient (bool, optional): whether gradients stop here. Default True.

    Returns:
        Tensor: a sparse CSR tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [2.0, 3.0], [2, 2])
        >>> x.to_dense().tolist()
        [[0.0, 2.0], [3.0, 0.0]]
    """
    api = "sparse.sparse_csr_tensor"
    cr = _as_index(crows, "crows", api, place)
    co = _as_index(cols, "cols", api, place)
    v = _as_values(values, dtype, place, stop_gradient, api)
    if cr.dim() != 1 or co.dim() != 1 or v.dim() != 1:  # Paddle: ValueError, no flattening
        raise ValueError(f"paddle.{api}: 'crows', 'cols' and 'values' must be 1-D, but received shapes "
                         f"{list(cr.shape)}, {list(co.shape)} and {list(v.shape)}")
    if co.numel() != v.numel():
        raise ValueError(f"paddle.{api}: the length of cols must equal the length of values, "
                         f"but received {co.numel()} and {v.numel()}")
    if shape is None and co.numel() == 0:  # Paddle takes the largest column (numpy's max)
        raise ValueError(f"paddle.{api}: the shape cannot be inferred without any entry (cols "
                         "is empty); give the shape")
    if shape is None:  # as Paddle: a new batch starts wherever crows decreases
        batches = int((cr[:-1] > cr[1:]).sum()) + 1 if cr.numel() else 1
        if cr.numel() % batches:
            raise ValueError(f"paddle.{api}: the {batches} batches that crows describes cannot "
                             f"split its {cr.numel()} row offsets evenly; check crows or give "
                             "the shape")
        ncols = int(co.max()) + 1 if co.numel() else 0
        dims = [cr.numel() // batches - 1, ncols]
        if batches > 1:
            dims = [batches] + dims
    else:
        dims = sc.shape_list(shape)
    if len(dims) not in (2, 3):
        raise ValueError(f"paddle.{api}: a sparse CSR tensor must be 2-D or 3-D, but received "
                         f"shape {dims}")
    want = dims[-2] + 1 if len(dims) == 2 else dims[0] * (dims[-2] + 1)
    if cr.numel() != want:
        raise ValueError(f"paddle.{api}: the length ({cr.numel()}) of crows must equal rows + 1 "
                         f"({dims[-2] + 1}) per batch ({want} in all)")
    if cr.numel():
        if int(cr[0]) != 0:
            raise ValueError(f"paddle.{api}: the 0th value of crows must be 0, but received "
                             f"{int(cr[0])}")
        ends = cr.reshape(-1, dims[-2] + 1)[:, -1]
        if int(ends.sum()) != v.numel():
            raise ValueError(f"paddle.{api}: the last value of crows (per batch, summed) must "
                             f"equal the number of non-zero values ({v.numel()}), but received "
                             f"{ends.tolist()}")
    if co.numel() and not 0 <= int(co.min()) <= int(co.max()) < dims[-1]:
        # (Paddle reads such a column out of bounds, and hangs or crashes later)
        raise ValueError(f"paddle.{api}: the values of cols must be in [0, {dims[-1]}) (the "
                         f"number of columns), but received {co.tolist()}")
    if cr.dtype is not co.dtype or cr.dtype not in (torch.int32, torch.int64):
        cr, co = cr.long(), co.long()
    return _flag_int_values(sc.csr(cr, co, v, dims, api), stop_gradient)


def _flag_int_values(out: torch.Tensor, stop_gradient: bool) -> torch.Tensor:
    """Paddle sets the values' stop_gradient as asked whatever their dtype: integer values
    (which torch cannot track) say stop_gradient=False through the flag."""
    if not stop_gradient and not out.requires_grad:
        flag_grad(out)
    return out


# ---- Tensor methods -----------------------------------------------------------------

def _need(api: str, x: Any, layout: Any, what: str) -> None:
    if not isinstance(x, _T) or x.layout is not layout:
        raise SystemError(f"paddle.Tensor.{api}: this method is only for {what}, but received "
                          f"{sc.layout_name(x)}")


@defop(method="values", paddle_types=("sparse_values",))
def sparse_values(x):
    """The stored values of a sparse tensor (``[nnz, *dense_shape]``).

    Returns:
        Tensor: a dense tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> x.values().tolist()
        [2.0, 3.0]
    """
    if x.layout is _COO:
        return sc.coo_values(x).reshape(()) if sc.is_flat_sum(x) else sc.coo_values(x)
    if x.layout is _CSR:
        return sc.csr_parts(x)[2]
    raise NotImplementedError("paddle.Tensor.values: only sparse COO and CSR tensors store "
                              "values, but received a dense tensor")


@defop(method="indices", paddle_types=("sparse_indices",), differentiable=False)
def sparse_indices(x):
    """The ``[sparse_dim, nnz]`` positions of a sparse COO tensor's entries.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> x.indices().tolist()
        [[0, 1], [1, 0]]
    """
    _need("indices", x, _COO, "sparse COO tensors")
    idx = x._indices().to(sc.index_dtype(x))
    return idx.reshape(-1) if sc.is_flat_sum(x) else idx


@defop(method="crows", paddle_types=("sparse_crows",), differentiable=False)
def sparse_crows(x):
    """The row offsets of a sparse CSR tensor (3-D: concatenated over the batch).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [2.0, 3.0], [2, 2])
        >>> x.crows().tolist()
        [0, 1, 2]
    """
    _need("crows", x, _CSR, "sparse CSR tensors")
    return sc.csr_parts(x)[0]


@defop(method="cols", paddle_types=("sparse_cols",), differentiable=False)
def sparse_cols(x):
    """The column of each entry of a sparse CSR tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [2.0, 3.0], [2, 2])
        >>> x.cols().tolist()
        [1, 0]
    """
    _need("cols", x, _CSR, "sparse CSR tensors")
    return sc.csr_parts(x)[1]


@defop(method="to_dense", paddle_types=("sparse_to_dense",))
def sparse_to_dense(x):
    """The dense tensor a sparse one stands for. Of duplicate entries in an uncoalesced COO
    tensor the last one stands, as Paddle's kernel writes them in order (``coalesce`` sums them).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 0], [1, 1]], [2.0, 3.0], [2, 2])
        >>> x.to_dense().tolist()
        [[0.0, 3.0], [0.0, 0.0]]
        >>> paddle.sparse.coalesce(x).to_dense().tolist()
        [[0.0, 5.0], [0.0, 0.0]]
    """
    if x.layout is _COO:
        return sc.coo_to_dense(x)
    if x.layout is _CSR:
        return x.to_dense()
    raise NotImplementedError("paddle.Tensor.to_dense: the tensor is already dense; to_dense "
                              "takes a sparse COO or CSR tensor")


@defop(method="to_sparse_coo", paddle_types=("sparse_to_sparse_coo", "dense_to_coo"))
def sparse_to_sparse_coo(x, sparse_dim):
    """Convert to a sparse COO tensor whose first ``sparse_dim`` axes are sparse.

    Args:
        sparse_dim (int): how many leading axes are indexed; the rest stay dense in ``values``.

    Returns:
        Tensor: a coalesced sparse COO tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_coo(2)
        >>> x.indices().tolist(), x.values().tolist()
        ([[0, 1], [1, 0]], [1.0, 2.0])
    """
    if x.layout is _COO:
        return x
    if x.layout is _CSR:
        return sc.csr_to_coo(x)
    if isinstance(sparse_dim, (bool, float, complex)) or (  # Paddle's argument parser: TypeError
            isinstance(sparse_dim, torch.Tensor) and sparse_dim.is_floating_point()):
        raise TypeError(f"paddle.Tensor.to_sparse_coo: sparse_dim must be an int, but received "
                        f"{type(sparse_dim).__name__} {sparse_dim!r}")
    if not isinstance(sparse_dim, int) and hasattr(sparse_dim, "__index__"):  # numpy / 0-D int tensor
        sparse_dim = int(sparse_dim)
    if not isinstance(sparse_dim, int) or not 0 < sparse_dim <= x.dim():
        raise ValueError(f"paddle.Tensor.to_sparse_coo: sparse_dim must be in [1, {x.dim()}] "
                         f"(the number of dimensions), but received {sparse_dim}")
    sc.value_kernel("Tensor.to_sparse_coo", x, sc.DENSE_TO_SPARSE)
    return sc.dense_to_coo_api(x, sparse_dim)


@defop(method="to_sparse_csr", paddle_types=("sparse_to_sparse_csr", "dense_to_csr"))
def sparse_to_sparse_csr(x):
    """Convert a 2-D or 3-D tensor to a sparse CSR tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_csr()
        >>> x.crows().tolist(), x.cols().tolist(), x.values().tolist()
        ([0, 1, 2], [1, 0], [1.0, 2.0])
    """
    if x.layout is _CSR:
        return x
    if x.layout is not _COO:
        if x.dim() not in (2, 3):
            raise ValueError("paddle.Tensor.to_sparse_csr: only 2-D or 3-D tensors can be "
                             f"converted, but received shape {list(x.shape)}")
        sc.value_kernel("Tensor.to_sparse_csr", x, sc.DENSE_TO_SPARSE)
        # Paddle's dense-to-CSR conversion has no backward: the result is a new leaf that
        # keeps the input's stop_gradient (its gradient stays there)
        out = sc.coo_to_csr(sc.dense_to_coo(x.detach(), x.dim()))
        return out.requires_grad_(True) if x.requires_grad and not out.is_complex() else out
    return sc.coo_to_csr(x)


# Paddle's coalesce has no backward: its result says stop_gradient=True
@defop(method="coalesce", paddle_types=("sparse_coalesce",), differentiable=False)
def sparse_coalesce(x, name=None):
    """Merge duplicate entries of a sparse COO tensor (summing them) and sort its indices.

    Args:
        x (Tensor): a sparse COO tensor.
        name (str, optional): unused.

    Returns:
        Tensor: the coalesced sparse COO tensor; as in Paddle, no gradient flows through it
        (it says ``stop_gradient=True``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[1, 0, 1], [0, 1, 0]], [1.0, 2.0, 3.0])
        >>> y = paddle.sparse.coalesce(x)
        >>> y.indices().tolist(), y.values().tolist()
        ([[0, 1], [1, 0]], [2.0, 4.0])
    """
    if not isinstance(x, _T) or x.layout is not _COO:
        raise NotImplementedError(f"paddle.sparse.coalesce: 'x' must be a sparse COO tensor, but "
                                  f"received {sc.layout_name(x)}")
    sc.value_kernel("sparse.coalesce", x, _COO_VALUE_DTYPES)
    return sc.keep_index_dtype(sc.coalesce(x.detach()), x)


# ---- plain Tensor methods returning Python values ---------------------------------------

def _nnz(self: Tensor) -> int:
    """Number of stored entries of a sparse tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.to_tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse_csr().nnz()
        2
    """
    t = self._t
    if t.layout is _COO:
        return t._nnz()
    if t.layout is _CSR:
        return t.col_indices().numel()
    raise SystemError("paddle.Tensor.nnz: this method is only for sparse COO or CSR tensors, "
                      "but received a dense tensor")


def _is_coalesced(self: Tensor) -> bool:
    """Whether a sparse COO tensor is known to be sorted and free of duplicates.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1]], [1.0, 2.0])
        >>> x.is_coalesced(), x.coalesce().is_coalesced()
        (False, True)
    """
    t = self._t
    if t.layout is not _COO:
        raise TypeError("paddle.Tensor.is_coalesced: only sparse COO tensors are supported, but "
                        f"received {sc.layout_name(t)}")
    return t.is_coalesced()


def _is_sparse_coo(self: Tensor) -> bool:
    """Whether the tensor is a sparse COO tensor."""
    return self._t.layout is _COO


def _is_sparse_csr(self: Tensor) -> bool:
    """Whether the tensor is a sparse CSR tensor."""
    return self._t.layout is _CSR


def _sparse_dim(self: Tensor) -> int:
    """How many leading axes are indexed (0 for a dense tensor, 2 for CSR)."""
    t = self._t
    if t.layout is _COO:
        return t.sparse_dim()
    return 2 if t.layout is _CSR else 0


def _dense_dim(self: Tensor) -> int:
    """How many trailing axes are stored densely in ``values`` (all of a dense tensor's)."""
    t = self._t
    if t.layout is _COO:
        return t.dense_dim()
    return 0 if t.layout is _CSR else t.dim()


for _n, _f in (("nnz", _nnz), ("is_coalesced", _is_coalesced), ("is_sparse_coo", _is_sparse_coo),
               ("is_sparse_csr", _is_sparse_csr), ("sparse_dim", _sparse_dim),
               ("dense_dim", _dense_dim)):
    _f.__name__ = _f.__qualname__ = _n
    setattr(Tensor, _n, _f)
