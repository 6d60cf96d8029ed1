"""``paddle.sparse`` products and shape ops: matmul, masked_matmul, addmm, mv, transpose,
reshape, sum, slice, mask_as, is_same_shape, pca_lowrank.

Products run over the stored entries (a gather, a multiply and an ``index_add`` per
product), so they cost O(nnz) work and memory, never a dense copy of the sparse operand.
CSR inputs are read through their COO view and give CSR results where Paddle does.
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie._ops import _sparse_core as sc
from pagaie._core.registry import defop
from pagaie._core.tensor import GRAD_FLAG
from pagaie._ops._helpers import torch_dtype
from pagaie._ops.sparse_math import _binary, map_values

_T = torch.Tensor
_COO, _CSR = torch.sparse_coo, torch.sparse_csr

__all__ = ["sparse_matmul", "sparse_masked_matmul", "sparse_addmm", "sparse_mv",
           "sparse_transpose", "sparse_reshape", "sparse_sum", "sparse_slice", "sparse_mask_as",
           "is_same_shape", "pca_lowrank"]


def _check_mm(api: str, x: torch.Tensor, y: torch.Tensor) -> None:
    if x.dim() not in (2, 3) or y.dim() != x.dim():
        raise ValueError(f"paddle.{api}: x and y must both be 2-D or both 3-D, but received "
                         f"shapes {list(x.shape)} and {list(y.shape)}")
    if x.shape[-1] != y.shape[-2] or (x.dim() == 3 and x.shape[0] != y.shape[0]):
        raise ValueError(f"paddle.{api}: the shapes of x {list(x.shape)} and y {list(y.shape)} "
                         "do not match for a matrix product")


def _sparse_dense_mm(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    cx = sc.to_coo(x)
    idx, v = cx._indices(), sc.coo_values(cx)
    m, n = x.shape[-2], y.shape[-1]
    if x.dim() == 2:
        rows, ys = idx[0], y[idx[1]]
        out = v.new_zeros((m, n), dtype=torch.result_type(v, y))
    else:
        rows, ys = idx[0] * m + idx[1], y[idx[0], idx[2]]
        out = v.new_zeros((x.shape[0] * m, n), dtype=torch.result_type(v, y))
    out = out.index_add(0, rows, v.unsqueeze(-1) * ys)
    return out if x.dim() == 2 else out.reshape(x.shape[0], m, n)


def _sparse_sparse_mm(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    cx, cy = sc.coalesce(sc.to_coo(x)), sc.coalesce(sc.to_coo(y))
    ix, iy = cx._indices(), cy._indices()
    xv, yv = sc.coo_values(cx), sc.coo_values(cy)
    k, n = y.shape[-2], y.shape[-1]
    batched = x.dim() == 3
    xk = ix[0] * k + ix[2] if batched else ix[1]            # the row of y each x entry meets
    yr = iy[0] * k + iy[1] if batched else iy[0]            # y's rows, sorted (coalesced)
    nrows = (y.shape[0] * k) if batched else k
    counts = torch.bincount(yr, minlength=nrows)
    starts = counts.cumsum(0) - counts
    per = counts[xk]
    rep = torch.repeat_interleave(torch.arange(xk.numel(), device=xk.device), per)
    first = per.cumsum(0) - per
    yi = starts[xk][rep] + (torch.arange(rep.numel(), device=xk.device) - first[rep])
    prod = xv[rep] * yv[yi]
    m = x.shape[-2]
    rowkey = ix[0][rep] * m + ix[1][rep] if batched else ix[0][rep]
    keys = rowkey * n + iy[-1][yi]
    uniq, inv = torch.unique(keys, sorted=True, return_inverse=True)
    vals = prod.new_zeros(uniq.numel()).index_add(0, inv, prod)
    shape = list(x.shape[:-1]) + [n]
    out = sc.coo(sc.unravel(uniq, shape), vals, shape, coalesced=True)
    return sc.from_coo_like(out, x, "sparse.matmul")


@defop("sparse_matmul", method=False, amp="white", paddle_types=("sparse_matmul",))
def sparse_matmul(x, y, name=None):
    """Matrix product of a sparse tensor with a dense one (dense result) or with a sparse
    one of the same layout (sparse result). 2-D, or 3-D batched.

    Args:
        x (Tensor): a sparse COO or CSR tensor ``[..., M, K]``.
        y (Tensor): a dense tensor ``[..., K, N]``, or a sparse one of x's layout.
        name (str, optional): unused.

    Returns:
        Tensor: ``x @ y``, dense when ``y`` is dense, else sparse.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> paddle.sparse.matmul(x, paddle.ones([2, 1])).tolist()
        [[2.0], [3.0]]
    """
    api = "sparse.matmul"
    sc.check_sparse(api, x)
    _check_mm(api, x, y)
    if y.layout is torch.strided:
        return _sparse_dense_mm(x, y)
    if y.layout is not x.layout:
        raise NotImplementedError(f"paddle.{api}: a sparse y must have x's layout, but received "
                                  f"{sc.layout_name(x)} and {sc.layout_name(y)}")
    return _sparse_sparse_mm(x, y)


@defop("sparse_masked_matmul", method=False, amp="white", paddle_types=("sparse_masked_matmul",))
def sparse_masked_matmul(x, y, mask, name=None):
    """The entries of the dense product ``x @ y`` at the positions stored in sparse ``mask``.

    Args:
        x (Tensor): a dense tensor ``[..., M, K]``.
        y (Tensor): a dense tensor ``[..., K, N]``.
        mask (Tensor): a sparse COO or CSR tensor ``[..., M, N]`` giving the pattern.
        name (str, optional): unused.

    Returns:
        Tensor: a sparse tensor with mask's layout and pattern.

    Examples:
        >>> import pagaie as paddle
        >>> mask = paddle.sparse.sparse_csr_tensor([0, 1, 2], [1, 0], [1.0, 1.0], [2, 2])
        >>> out = paddle.sparse.masked_matmul(paddle.ones([2, 3]), paddle.ones([3, 2]), mask)
        >>> out.values().tolist()
        [3.0, 3.0]
    """
    api = "sparse.masked_matmul"
    sc.check_sparse(api, mask, "mask")
    _check_mm(api, x, y)
    if list(mask.shape) != list(x.shape[:-1]) + [y.shape[-1]]:
        raise ValueError(f"paddle.{api}: mask's shape {list(mask.shape)} must be the shape of "
                         f"x @ y, {list(x.shape[:-1]) + [y.shape[-1]]}")
    cm = sc.to_coo(mask.detach())
    idx = cm._indices()
    if x.dim() == 2:
        vals = (x[idx[0]] * y[:, idx[1]].T).sum(-1)
    else:
        vals = (x[idx[0], idx[1]] * y[idx[0], :, idx[2]]).sum(-1)
    if mask.layout is _COO:
        return sc.keep_index_dtype(sc.coo(idx, vals, mask.shape), mask)
    if mask.dim() == 3:
        vals = vals.reshape(mask.shape[0], -1)
    return torch.sparse_csr_tensor(mask.crow_indices(), mask.col_indices(), vals, mask.shape)


@defop("sparse_addmm", method=False, amp="white", paddle_types=("sparse_addmm",))
def sparse_addmm(input, x, y, beta=1.0, alpha=1.0, name=None):
    """``beta * input + alpha * (x @ y)`` with sparse ``x``: dense ``y`` and ``input`` give a
    dense result; sparse ``y`` and ``input`` (x's layout) a sparse one.

    Args:
        input (Tensor): the added tensor.
        x (Tensor): a sparse COO or CSR tensor.
        y (Tensor): a dense tensor, or a sparse one of x's layout.
        beta (float, optional): multiplier of ``input``. Default 1.0.
        alpha (float, optional): multiplier of ``x @ y``. Default 1.0.
        name (str, optional): unused.

    Returns:
        Tensor: the result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> paddle.sparse.addmm(paddle.ones([2, 1]), x, paddle.ones([2, 1]), 1.0, 2.0).tolist()
        [[5.0], [7.0]]
    """
    api = "sparse.addmm"
    prod = sparse_matmul.op_record.kernel(x, y)
    if prod.layout is torch.strided:
        if input.layout is not torch.strided:
            raise NotImplementedError(f"paddle.{api}: with a dense y, input must be dense, but "
                                      f"received {sc.layout_name(input)}")
        return torch.add(input * beta, prod * alpha)
    sc.check_sparse(api, input, "input")
    a = map_values(input, lambda v: v * beta, api)
    b = map_values(prod, lambda v: v * alpha, api)
    return _binary(a, b, torch.add, api, False)


@defop("sparse_mv", method=False, amp="white", paddle_types=("sparse_mv",))
def sparse_mv(x, vec, name=None):
    """Product of a 2-D sparse matrix with a dense vector.

    Args:
        x (Tensor): a 2-D sparse COO or CSR tensor ``[M, N]``.
        vec (Tensor): a dense vector ``[N]``.
        name (str, optional): unused.

    Returns:
        Tensor: the dense vector ``x @ vec`` of shape ``[M]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
        >>> paddle.sparse.mv(x, paddle.to_tensor([1.0, 10.0])).tolist()
        [20.0, 3.0]
    """
    api = "sparse.mv"
    sc.check_sparse(api, x)
    if not isinstance(vec, torch.Tensor):
        raise ValueError(f"paddle.{api}: argument 'vec' (position 1) must be Tensor, but got "
                         f"{type(vec).__name__}")
    if x.dim() != 2 or vec.dim() != 1 or vec.shape[0] != x.shape[1]:
        raise ValueError(f"paddle.{api}: x must be 2-D [M, N] and vec 1-D [N], but received "
                         f"shapes {list(x.shape)} and {list(vec.shape)}")
    return _sparse_dense_mm(x, vec.unsqueeze(1)).squeeze(1)


# Paddle's CPU kernels for the values: the shape ops take no complex or float16 values, sum
# no complex, float16 or 8-bit ones, mask_as no float16
_SHAPE_DTYPES = sc.FLOATS | sc.INTS | {torch.bool}
_SUM_DTYPES = sc.FLOATS | {torch.bool, torch.int16, torch.int32, torch.int64}
_MASK_AS_DTYPES = sc.ALL_DTYPES - {torch.float16}


def _perm(perm: Any, n: int, api: str) -> list[int]:
    p = sc.shape_list(perm)
    if sorted(q % n if n else q for q in p) != list(range(n)) or len(p) != n:
        raise ValueError(f"paddle.{api}: perm must be a permutation of range({n}), but "
                         f"received {p}")
    return [q % n for q in p]


@defop("sparse_transpose", method=False, paddle_types=("sparse_transpose",))
def sparse_transpose(x, perm, name=None):
    """Permute the axes of a sparse tensor (sparse axes among themselves, dense axes among
    themselves).

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        perm (list|tuple): the new order of the axes.
        name (str, optional): unused.

    Returns:
        Tensor: the transposed sparse tensor, same layout.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [2.0, 3.0], [2, 3])
        >>> paddle.sparse.transpose(x, [1, 0]).indices().tolist()
        [[1, 2], [0, 1]]
    """
    api = "sparse.transpose"
    sc.check_sparse(api, x)
    sc.value_kernel(api, x, _SHAPE_DTYPES)
    p = _perm(perm, x.dim(), api)
    cx = sc.to_coo(x)
    sdim = cx.sparse_dim()
    if sorted(p[:sdim]) != list(range(sdim)):
        raise NotImplementedError(f"paddle.{api}: perm {p} moves an axis between the sparse "
                                  f"and the dense part ({sdim} sparse axes)")
    v = sc.coo_values(cx)
    if sdim < x.dim():
        v = v.permute([0] + [q - sdim + 1 for q in p[sdim:]])
    # Paddle copies the input's coalesced flag, sorted or not (coo_to_csr re-sorts)
    out = sc.coo(cx._indices()[p[:sdim]], v, [x.shape[q] for q in p], cx.is_coalesced())
    return sc.from_coo_like(out, x, api)


def _new_shape(shape: Any, old: list, api: str) -> list[int]:
    dims = sc.shape_list(shape)
    dims = [old[i] if d == 0 and i < len(old) else d for i, d in enumerate(dims)]
    total = 1
    for d in old:
        total *= d
    if dims.count(-1) > 1:
        raise ValueError(f"paddle.{api}: only one dimension of shape can be -1, but received {dims}")
    if -1 in dims:
        known = 1
        for d in dims:
            known *= d if d != -1 else 1
        dims[dims.index(-1)] = total // known if known else 0
    prod = 1
    for d in dims:
        prod *= d
    if prod != total:
        raise ValueError(f"paddle.{api}: cannot reshape a tensor of shape {old} ({total} "
                         f"elements) to {sc.shape_list(shape)}")
    return dims


@defop("sparse_reshape", method=False, paddle_types=("sparse_reshape",))
def sparse_reshape(x, shape, name=None):
    """Reshape the sparse axes of a sparse tensor (dense axes of a hybrid COO tensor stay).

    Args:
        x (Tensor): a sparse COO or CSR tensor (CSR results must be 2-D or 3-D).
        shape (list|tuple|Tensor): the new shape; one entry may be -1, 0 keeps that axis.
        name (str, optional): unused.

    Returns:
        Tensor: the reshaped sparse tensor, same layout.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 2]], [2.0, 3.0], [2, 3])
        >>> paddle.sparse.reshape(x, [-1]).indices().tolist()
        [[1, 5]]
    """
    api = "sparse.reshape"
    sc.check_sparse(api, x)
    sc.value_kernel(api, x, _SHAPE_DTYPES)
    dims = _new_shape(shape, list(x.shape), api)
    cx = sc.to_coo(x)
    sdim = cx.sparse_dim()
    ddim = x.dim() - sdim
    if ddim and (len(dims) < ddim or dims[len(dims) - ddim:] != list(x.shape[sdim:])):
        raise NotImplementedError(f"paddle.{api}: the dense axes {list(x.shape[sdim:])} of a "
                                  f"hybrid sparse tensor must stay last and unchanged, but the "
                                  f"new shape is {dims}")
    keys = sc.linear_keys(cx._indices(), list(x.shape[:sdim]))
    new_sparse = dims[:len(dims) - ddim]
    out = sc.coo(sc.unravel(keys, new_sparse), sc.coo_values(cx), dims, cx.is_coalesced())
    return sc.from_coo_like(out, x, api)


def _sum_dtype(v: torch.Tensor, dtype: Any, api: str) -> torch.dtype | None:
    want = torch_dtype(dtype, api)
    if want is None and v.dtype in (torch.bool, torch.int32):  # Paddle: int16 stays int16
        want = torch.int64
    return want


@defop("sparse_sum", method=False, amp="black", paddle_types=("sparse_sum",))
def sparse_sum(x, axis=None, dtype=None, keepdim=False, name=None):
    """Sum a sparse tensor over all axes or one axis; the result stays sparse.

    A full sum gives shape ``[1]`` (``[1] * ndim`` with ``keepdim``, ``[1, 1]`` for CSR). A
    CSR tensor reduces over its last axis only. As in Paddle, a list ``axis`` reduces over
    its first entry, bool and int32 values are summed as int64 (int16 and int64 keep their
    type), and Paddle's CPU kernel takes no complex, float16, int8 or uint8 values.

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        axis (int, optional): the axis to reduce; all when None.
        dtype (str|paddle.dtype, optional): the result type.
        keepdim (bool, optional): keep the reduced axis with size 1.
        name (str, optional): unused.

    Returns:
        Tensor: the sparse sum.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1, 1], [1, 0, 2]], [1.0, 2.0, 3.0], [2, 3])
        >>> paddle.sparse.sum(x, axis=1).to_dense().tolist()
        [1.0, 5.0]
    """
    api = "sparse.sum"
    sc.check_sparse(api, x)
    sc.value_kernel(api, x, _SUM_DTYPES)
    if isinstance(axis, (list, tuple)):
        axis = axis[0] if axis else None
    n = x.dim()
    if axis is not None and not -n <= axis < n:  # checked first, as in Paddle
        raise ValueError(f"paddle.{api}: axis must be in [{-n}, {n}), but received {axis}")
    if x.layout is _CSR and axis not in (None, -1):
        raise NotImplementedError(f"paddle.{api}: a sparse CSR tensor can only be summed over "
                                  f"all axes (None) or axis=-1, but received axis={axis}")
    if axis is not None:
        axis %= n
    if x.layout is _CSR:
        return _csr_sum(x, axis, dtype, keepdim, api)
    return sc.keep_index_dtype(_coo_sum(x, axis, dtype, keepdim, api), x)


def _coo_sum(x: torch.Tensor, axis: int | None, dtype: Any, keepdim: bool,
             api: str) -> torch.Tensor:
    n = x.dim()
    v = sc.coo_values(x)
    want = _sum_dtype(v, dtype, api)
    if want is not None:
        v = v.to(want)
    idx = x._indices()
    sdim = x.sparse_dim()
    flag = x.is_coalesced()  # Paddle's result keeps the input's coalesced flag
    if axis is None:
        if keepdim:  # like Paddle, the sparse/dense split of the axes is kept
            total = v.sum(dtype=v.dtype)  # (int16 stays int16, as in Paddle)
            return sc.coo(idx.new_zeros((sdim, 1)), total.reshape([1] * (1 + n - sdim)),
                          [1] * n, flag)
        return _flat_sum(sc.coo(idx.new_zeros((1, 1)), v.sum(dtype=v.dtype).reshape(1), [1], flag))
    shape = list(x.shape)
    out_shape = shape[:axis] + ([1] if keepdim else []) + shape[axis + 1:]
    if axis >= sdim:
        return sc.coo(idx, v.sum(axis - sdim + 1, keepdim=keepdim, dtype=v.dtype), out_shape, flag)
    keep = [d for d in range(sdim) if d != axis]
    if not keep:  # the only sparse axis goes: one entry holding the sum of all
        return sc.coo(idx.new_zeros((1, 1)), v.sum(0, keepdim=True, dtype=v.dtype),
                      [1] + shape[1:], flag)
    dims = [shape[d] for d in keep]
    uniq, inv = torch.unique(sc.linear_keys(idx[keep], dims), sorted=True, return_inverse=True)
    vals = v.new_zeros((uniq.numel(),) + tuple(v.shape[1:])).index_add(0, inv, v)
    new_idx = sc.unravel(uniq, dims)
    if keepdim:
        new_idx = torch.cat([new_idx[:axis], new_idx.new_zeros((1, uniq.numel())),
                             new_idx[axis:]])
    return sc.coo(new_idx, vals, out_shape, flag)


def _flat_sum(out: torch.Tensor) -> torch.Tensor:
    """Marks the full sum of a COO tensor (no keepdim): Paddle stores its one entry with
    indices of shape ``[1]`` and a 0-D value, which ``indices()`` / ``values()`` then show."""
    out.__dict__[sc.FLAT_SUM] = True
    return out


def _csr_sum(x: torch.Tensor, axis: int | None, dtype: Any, keepdim: bool,
             api: str) -> torch.Tensor:
    crows, cols, v = sc.csr_parts(x)
    want = _sum_dtype(v, dtype, api)
    if want is not None:
        v = v.to(want)
    if axis is None and keepdim and x.dim() == 3:  # [1, 1, 1]; else [1, 1] as in Paddle
        one = sc.coo(crows.new_zeros((3, 1)), v.sum(dtype=v.dtype).reshape(1), [1, 1, 1],
                     coalesced=True)
        return sc.coo_to_csr(one, api, crows.dtype)
    if axis is None:
        one = torch.tensor([0, 1], dtype=crows.dtype, device=crows.device)
        return torch.sparse_csr_tensor(one, one[:1], v.sum(dtype=v.dtype).reshape(1), [1, 1])
    coo = sc.csr_to_coo(x)
    rows = coo._indices()[:-1]
    dims = list(x.shape[:-1])
    uniq, inv = torch.unique(sc.linear_keys(rows, dims), sorted=True, return_inverse=True)
    vals = v.new_zeros(uniq.numel()).index_add(0, inv, v)
    idx = torch.cat([sc.unravel(uniq, dims), uniq.new_zeros((1, uniq.numel()))])
    out = sc.coo(idx, vals, dims + [1], coalesced=True)
    return sc.coo_to_csr(out, api, crows.dtype)


@defop("sparse_slice", method=False, paddle_types=("sparse_slice",))
def sparse_slice(x, axes, starts, ends, name=None):
    """Slice a sparse tensor along ``axes`` from ``starts`` to ``ends`` (Paddle's clamping of
    negative and out-of-range bounds).

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        axes (list|tuple): the axes to slice.
        starts (list|tuple|Tensor): the first index on each axis.
        ends (list|tuple|Tensor): one past the last index on each axis.
        name (str, optional): unused.

    Returns:
        Tensor: the slice, same layout.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1, 2]], [1.0, 2.0, 3.0], [4])
        >>> paddle.sparse.slice(x, [0], [1], [3]).values().tolist()
        [2.0, 3.0]
    """
    api = "sparse.slice"
    sc.check_sparse(api, x)
    sc.value_kernel(api, x, _SHAPE_DTYPES)
    axes, starts, ends = sc.shape_list(axes), sc.shape_list(starts), sc.shape_list(ends)
    if not len(axes) == len(starts) == len(ends):
        raise ValueError(f"paddle.{api}: axes, starts and ends must have the same length, but "
                         f"received {len(axes)}, {len(starts)} and {len(ends)}")
    cx = sc.to_coo(x)
    sdim = cx.sparse_dim()
    idx, v = cx._indices(), sc.coo_values(cx)
    shape = list(x.shape)
    keep = torch.ones(idx.shape[1], dtype=torch.bool, device=idx.device)
    shift = [0] * sdim
    for a, s, e in zip(axes, starts, ends):
        if not -len(shape) <= a < len(shape):
            raise ValueError(f"paddle.{api}: each axis must be less than the rank of x "
                             f"({len(shape)}), but received axes={axes}")
        a %= len(shape)
        n = shape[a]
        s = max(0, min(n, s + n if s < 0 else s))
        e = max(0, min(n, e + n if e < 0 else e))
        e = max(e, s)
        shape[a] = e - s
        if a < sdim:
            keep &= (idx[a] >= s) & (idx[a] < e)
            shift[a] = s
        else:
            v = v.narrow(a - sdim + 1, s, e - s)
    off = torch.tensor(shift, dtype=idx.dtype, device=idx.device).unsqueeze(1)
    out = sc.coo(idx[:, keep] - off, v[keep], shape, cx.is_coalesced())
    return sc.from_coo_like(out, x, api)


@defop("sparse_mask_as", method=False, paddle_types=("sparse_mask_as",))
def sparse_mask_as(x, mask, name=None):
    """Take the entries of dense ``x`` at the positions stored in sparse ``mask``.

    Args:
        x (Tensor): a dense tensor.
        mask (Tensor): a sparse COO or CSR tensor of x's shape.
        name (str, optional): unused.

    Returns:
        Tensor: a sparse tensor with mask's layout and pattern and x's values.

    Examples:
        >>> import pagaie as paddle
        >>> mask = paddle.sparse.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 1.0], [2, 2])
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.sparse.mask_as(x, mask).values().tolist()
        [2.0, 3.0]
    """
    api = "sparse.mask_as"
    sc.check_sparse(api, mask, "mask")
    # Paddle's kernel reads x's data as the mask's value type (a complex x also takes a
    # real floating mask)
    if isinstance(x, torch.Tensor) and mask.dtype is not x.dtype and not (
            x.is_complex() and mask.dtype in (torch.float32, torch.float64)):
        raise ValueError(f"paddle.{api}: x's dtype {str(x.dtype).replace('torch.', '')} must "
                         f"match mask's dtype {str(mask.dtype).replace('torch.', '')}")
    sc.value_kernel(api, x, _MASK_AS_DTYPES)
    if isinstance(x, torch.Tensor) and x.layout is not torch.strided:
        raise NotImplementedError(f"paddle.{api}: 'x' must be a dense tensor, but received "
                                  f"{sc.layout_name(x)}")
    if list(x.shape) != list(mask.shape):
        raise ValueError(f"paddle.{api}: x's shape {list(x.shape)} must equal mask's shape "
                         f"{list(mask.shape)}")
    if mask.layout is _COO:
        idx = mask._indices()
        # Paddle marks the result coalesced whatever the mask's order; torch's flag must stay
        # off where the mask repeats an index (torch would then sum the repeats)
        keys = sc.linear_keys(idx, list(mask.shape[:idx.shape[0]]))
        flag = torch.unique(keys).numel() == keys.numel()
        out = sc.coo(idx, x[tuple(idx)], mask.shape, coalesced=flag)
        return sc.keep_index_dtype(_from_x_only(out, x), mask)
    idx = sc.csr_to_coo(mask.detach())._indices()
    vals = x[tuple(idx)]
    if mask.dim() == 3:
        vals = vals.reshape(mask.shape[0], -1)
    out = torch.sparse_csr_tensor(mask.crow_indices(), mask.col_indices(), vals, mask.shape)
    return _from_x_only(out, x)


def _from_x_only(out: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Paddle's mask_as differentiates x only: a mask saying stop_gradient=False does not make
    the result say so (a kernel's own GRAD_FLAG overrides the dispatcher's rule)."""
    if not out.requires_grad and not getattr(x, GRAD_FLAG, False):
        setattr(out, GRAD_FLAG, False)
    return out


def is_same_shape(x: Any, y: Any) -> bool:
    """Whether two tensors (sparse or dense) have the same shape.

    Args:
        x (Tensor): a tensor.
        y (Tensor): a tensor.

    Returns:
        bool: True when the shapes are equal.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1]], [1.0, 2.0], [3])
        >>> paddle.sparse.is_same_shape(x, paddle.ones([3]))
        True
    """
    from pagaie._core.tensor import Tensor
    if isinstance(x, Tensor) and not isinstance(y, Tensor):  # as Paddle's x.is_same_shape(y)
        raise ValueError(f"paddle.sparse.is_same_shape: argument 'y' (position 1) must be Tensor, "
                         f"but got {type(y).__name__}")
    return list(x.shape) == list(y.shape)


@defop("sparse_pca_lowrank", method=False, amp="black", paddle_types=("sparse_pca_lowrank",))
def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """Randomized PCA of a 2-D sparse matrix: ``U, S, V`` with ``x ~ U diag(S) V^T``
    (after centering the columns when ``center``).

    Args:
        x (Tensor): a 2-D sparse COO or CSR tensor ``[M, N]``.
        q (int, optional): the rank to estimate; ``min(6, M, N)`` when None.
        center (bool, optional): subtract the column means first. Default True.
        niter (int, optional): subspace iterations. Default 2.
        name (str, optional): unused.

    Returns:
        tuple: ``U [M, q]``, ``S [q]`` and ``V [N, q]`` (dense).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]).to_sparse_coo(2)
        >>> U, S, V = paddle.sparse.pca_lowrank(x, q=2, center=False)
        >>> [round(s, 4) for s in S.tolist()]
        [2.0, 1.0]
    """
    api = "sparse.pca_lowrank"
    if not isinstance(x, _T):
        raise ValueError(f"paddle.{api}: input must be a Tensor, but received {type(x).__name__}")
    if x.layout is torch.strided:
        raise ValueError(f"paddle.{api}: input must be sparse, but received a dense tensor")
    if x.dim() != 2:
        raise ValueError(f"paddle.{api}: input must be a 2-D tensor, but received shape "
                         f"{list(x.shape)}")
    if not isinstance(niter, int) or niter < 0:
        raise ValueError(f"paddle.{api}: niter must be a non-negative integer, but received {niter}")
    m, n = x.shape
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"paddle.{api}: q must be in [0, {min(m, n)}], but received {q}")
    cx = sc.coalesce(sc.to_coo(x))
    return tuple(torch.pca_lowrank(cx, q=q, center=center, niter=niter))
