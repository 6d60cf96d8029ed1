"""Sparse tensors over torch's sparse layouts: the helpers the sparse op records share.

A pagaie sparse Tensor holds a torch ``sparse_coo`` or ``sparse_csr`` tensor in ``_t``.

* COO: indices ``[sparse_dim, nnz]`` (always int64: torch stores no other index dtype),
  values ``[nnz, *dense_shape]``. Paddle keeps entries in the order they were given and
  does not merge duplicates until ``coalesce``; so do we: ops read ``_indices()`` /
  ``_values()`` and build their results with :func:`coo`, which never sorts.
  torch differentiates neither ``_values()`` nor the COO constructor correctly for
  uncoalesced indices, so both are bridged by small autograd Functions here: the
  gradient of an entry is the gradient at its position.
* CSR: 2-D ``[rows, cols]`` or batched 3-D ``[batch, rows, cols]``. Paddle flattens a
  batch's ``crows`` into one vector (``batch * (rows + 1)``); torch keeps ``[batch, rows + 1]``
  and needs the same number of entries in every batch, a limit we report clearly.

Paddle marks a COO tensor coalesced after ``coalesce`` and the conversions; transpose,
reshape, slice, sum and softmax copy their input's flag (even where the new indices are out
of order); other results are marked uncoalesced. Code that needs sorted entries checks
:func:`is_ordered` rather than the flag.
"""
from __future__ import annotations

import warnings
from typing import Any, Sequence

import torch

from pagaie._ops._helpers import ALL_DTYPES, kernel_dtypes

_COO = torch.sparse_coo
_CSR = torch.sparse_csr
_DENSE = torch.strided

# torch warns, the first time a sparse tensor is built, that its invariant checks are off
# unless someone chose (choose: off, torch's default), and that CSR support is in beta: no
# torch warning should reach users.
if not torch.sparse.check_sparse_tensor_invariants.is_enabled():
    torch.sparse.check_sparse_tensor_invariants.disable()
with warnings.catch_warnings():  # torch says "CSR is in beta" once a process: say it here
    warnings.simplefilter("ignore")
    torch.sparse_csr_tensor(torch.tensor([0, 0]), torch.tensor([], dtype=torch.int64),
                            torch.tensor([]), (1, 1))

__all__ = ["is_coo", "is_csr", "coo", "coo_values", "coo_to_dense", "csr", "csr_parts",
           "coalesce", "coo_to_csr", "csr_to_coo", "dense_to_coo", "to_coo", "from_coo_like",
           "check_sparse", "layout_name", "shape_list", "linear_keys", "unravel", "is_ordered",
           "INDEX_DTYPE", "index_dtype", "with_index_dtype", "keep_index_dtype", "value_kernel",
           "FLOATS", "COMPLEX", "INTS", "ALL_DTYPES", "DENSE_TO_SPARSE"]

# The value dtypes of Paddle's CPU sparse kernels (each op lists its own set): another dtype is
# its NotFound, a RuntimeError, even where torch would compute a result.
FLOATS = frozenset({torch.float32, torch.float64})
COMPLEX = frozenset({torch.complex64, torch.complex128})
INTS = frozenset({torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64})
# Paddle cannot build a bool or bfloat16 sparse tensor from a dense one (its dense_to_coo and
# dense_to_csr kernels lack them)
DENSE_TO_SPARSE = ALL_DTYPES - {torch.bool, torch.bfloat16}


def value_kernel(api: str, x: Any, allowed: frozenset, arg: str = "x") -> None:
    """Raise Paddle's NotFound (a RuntimeError) unless the values of ``x`` have a dtype that
    Paddle's CPU kernel of ``api`` is registered for."""
    if isinstance(x, torch.Tensor):
        kernel_dtypes(api, x, allowed, arg)


def is_coo(t: Any) -> bool:
    return isinstance(t, torch.Tensor) and t.layout is _COO


def is_csr(t: Any) -> bool:
    return isinstance(t, torch.Tensor) and t.layout is _CSR


def layout_name(t: Any) -> str:
    if not isinstance(t, torch.Tensor):
        return type(t).__name__
    return {_COO: "a sparse COO tensor", _CSR: "a sparse CSR tensor"}.get(t.layout, "a dense tensor")


def check_sparse(api: str, x: Any, arg: str = "x", coo_only: bool = False) -> None:
    """Raise Paddle's error unless ``x`` is sparse (COO only when ``coo_only``)."""
    if not isinstance(x, torch.Tensor):  # Paddle's argument parser: ValueError
        raise ValueError(f"paddle.{api}: '{arg}' must be a sparse Tensor, but received "
                         f"{type(x).__name__}")
    if x.layout is _COO or (x.layout is _CSR and not coo_only):
        return
    want = "a sparse COO tensor" if coo_only else "a sparse COO or CSR tensor"
    raise NotImplementedError(f"paddle.{api}: '{arg}' must be {want}, but received "
                              f"{layout_name(x)}")


def shape_list(shape: Any) -> list[int]:
    if isinstance(shape, torch.Tensor):
        return [int(s) for s in shape.reshape(-1).tolist()]
    return [int(s.item()) if isinstance(s, torch.Tensor) else int(s) for s in shape]


# ---- COO with correct gradients for its values ---------------------------------------

def _entry_grad(g: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    """Gradient of each entry at ``idx`` given the gradient ``g`` of the whole tensor."""
    if g.layout is _DENSE:
        return g[tuple(idx)]
    if g.layout is not _COO:
        g = g.to_sparse_coo()
    gi = g._indices()
    if gi is idx or (gi.shape == idx.shape and torch.equal(gi, idx)):
        return g._values()
    g = g.coalesce()
    sdim = idx.shape[0]
    dims = list(g.shape[:sdim])
    keys = linear_keys(g._indices(), dims)
    want = linear_keys(idx, dims)
    pos = torch.searchsorted(keys, want).clamp_max(max(keys.numel() - 1, 0))
    vals = g._values()
    if keys.numel() == 0:
        return vals.new_zeros((idx.shape[1],) + tuple(vals.shape[1:]))
    hit = (keys[pos] == want).reshape((-1,) + (1,) * (vals.dim() - 1))
    return torch.where(hit, vals[pos], vals.new_zeros(()))


class _CooBuild(torch.autograd.Function):
    @staticmethod
    def forward(ctx, indices, values, shape, coalesced):  # type: ignore[override]
        ctx.save_for_backward(indices)
        return torch.sparse_coo_tensor(indices, values, shape, is_coalesced=coalesced)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (idx,) = ctx.saved_tensors
        return None, _entry_grad(g, idx), None, None


class _CooValues(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        ctx.save_for_backward(x._indices())
        ctx.shape = x.shape
        return x._values().clone()

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (idx,) = ctx.saved_tensors
        return torch.sparse_coo_tensor(idx, g, ctx.shape)


class _CooToDense(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # type: ignore[override]
        ctx.save_for_backward(x._indices())
        ctx.shape = x.shape
        return _dense_last_wins(x)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        (idx,) = ctx.saved_tensors
        return torch.sparse_coo_tensor(idx, g[tuple(idx)], ctx.shape)


def coo(indices: torch.Tensor, values: torch.Tensor, shape: Sequence[int],
        coalesced: bool = False) -> torch.Tensor:
    """A COO tensor whose values keep their gradient entry by entry (duplicates too)."""
    shape = tuple(int(s) for s in shape)
    if values.requires_grad:
        return _CooBuild.apply(indices, values, shape, coalesced)
    return torch.sparse_coo_tensor(indices, values, shape, is_coalesced=coalesced)


def coo_values(x: torch.Tensor) -> torch.Tensor:
    """The values of a COO tensor, differentiable whether or not it is coalesced."""
    return _CooValues.apply(x) if x.requires_grad else x._values()


# Set (in ``__dict__``) on the torch result of ``paddle.sparse.sum`` over all axes without
# keepdim: Paddle gives that one-entry COO tensor indices of shape [1] and a 0-D value.
FLAT_SUM = "_paddle_flat_sum"


def is_flat_sum(x: torch.Tensor) -> bool:
    return bool(x.__dict__.get(FLAT_SUM, False))


# Set (in ``__dict__``) on a torch COO tensor whose Paddle indices are not int64: torch stores
# COO indices as int64 only, so ``indices()`` casts to this type on the way out.
INDEX_DTYPE = "_paddle_index_dtype"


def index_dtype(x: torch.Tensor) -> torch.dtype:
    """The index type Paddle reports for a sparse tensor (CSR: its ``crows``)."""
    if x.layout is _CSR:
        return x.crow_indices().dtype
    return x.__dict__.get(INDEX_DTYPE, torch.int64)


def with_index_dtype(out: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """Mark a COO result with Paddle's index type (int64 needs no mark); CSR is cast."""
    if out.layout is _CSR:
        if out.crow_indices().dtype is not dtype:
            return torch.sparse_csr_tensor(out.crow_indices().to(dtype),
                                           out.col_indices().to(dtype), out.values(), out.shape)
        return out
    if out.layout is _COO:
        if dtype is torch.int64:
            out.__dict__.pop(INDEX_DTYPE, None)
        else:
            out.__dict__[INDEX_DTYPE] = dtype
    return out


def keep_index_dtype(out: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    """Give ``out`` the index type of ``like``, as Paddle's sparse kernels do."""
    return with_index_dtype(out, index_dtype(like))


def _dense_last_wins(x: torch.Tensor) -> torch.Tensor:
    """``x`` dense, where Paddle's kernel writes the entries in order: of duplicate indices the
    last entry's value stands (torch's ``to_dense`` would sum them)."""
    idx = x._indices()
    if x.is_coalesced() or idx.shape[1] < 2:
        return x.to_dense()
    keys = linear_keys(idx, list(x.shape[:x.sparse_dim()]))
    uniq, inv = torch.unique(keys, return_inverse=True)
    if uniq.numel() == keys.numel():
        return x.to_dense()
    pos = torch.arange(keys.numel(), device=keys.device)
    last = torch.full_like(uniq, -1).scatter_reduce(0, inv, pos, "amax")
    return torch.sparse_coo_tensor(idx[:, last], x._values()[last], x.shape).to_dense()


def coo_to_dense(x: torch.Tensor) -> torch.Tensor:
    return _CooToDense.apply(x) if x.requires_grad else _dense_last_wins(x)


# ---- index arithmetic -------------------------------------------------------------

def linear_keys(idx: torch.Tensor, dims: Sequence[int]) -> torch.Tensor:
    """Row-major linear position of each index column."""
    keys = torch.zeros(idx.shape[1], dtype=torch.int64, device=idx.device)
    for d, n in enumerate(dims):
        keys = keys * int(n) + idx[d]
    return keys


def unravel(keys: torch.Tensor, dims: Sequence[int]) -> torch.Tensor:
    out = []
    for n in reversed(list(dims)):
        out.append(keys % int(n))
        keys = torch.div(keys, int(n), rounding_mode="floor")
    return torch.stack(out[::-1]) if out else keys.new_zeros((0, keys.numel()))


def is_ordered(x: torch.Tensor) -> bool:
    """Whether a COO tensor's entries are strictly increasing in row-major order (sorted, no
    duplicates). Paddle copies the coalesced flag through transpose, reshape, slice, sum and
    softmax, so a tensor marked coalesced may still be out of order."""
    idx = x._indices()
    if idx.shape[1] < 2:
        return True
    keys = linear_keys(idx, list(x.shape[:x.sparse_dim()]))
    return bool((keys[1:] > keys[:-1]).all())


def coalesce(x: torch.Tensor) -> torch.Tensor:
    """Sorted, duplicate-free COO (duplicates summed), marked coalesced; differentiable."""
    idx = x._indices()
    sdim = x.sparse_dim()
    dims = list(x.shape[:sdim])
    v = coo_values(x)
    keys = linear_keys(idx, dims)
    uniq, inv = torch.unique(keys, sorted=True, return_inverse=True)
    out = v.new_zeros((uniq.numel(),) + tuple(v.shape[1:])).index_add(0, inv, v)
    return keep_index_dtype(coo(unravel(uniq, dims), out, x.shape, coalesced=True), x)


# ---- CSR --------------------------------------------------------------------------

def csr(crows: torch.Tensor, cols: torch.Tensor, values: torch.Tensor, shape: Sequence[int],
        api: str = "sparse.sparse_csr_tensor") -> torch.Tensor:
    """A CSR tensor from Paddle's parts (3-D: ``crows`` flattened over the batch)."""
    shape = [int(s) for s in shape]
    if len(shape) == 3:
        b, m = shape[0], shape[1]
        crows = crows.reshape(b, m + 1)
        counts = crows[:, -1]
        if b and not bool((counts == counts[0]).all()):
            raise NotImplementedError(
                f"paddle.{api}: a 3-D sparse CSR tensor needs the same number of non-zero "
                f"entries in every batch here (received per-batch counts {counts.tolist()}); "
                "use a sparse COO tensor instead")
        n = int(counts[0]) if b else 0
        cols = cols.reshape(b, n)
        values = values.reshape((b, n) + tuple(values.shape[1:]))
    return torch.sparse_csr_tensor(crows, cols, values, shape)


def csr_parts(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Paddle's ``(crows, cols, values)`` of a CSR tensor (batched parts flattened)."""
    crows, cols, vals = x.crow_indices(), x.col_indices(), x.values()
    if x.dim() == 3:
        crows, cols = crows.reshape(-1), cols.reshape(-1)
        vals = vals.reshape((-1,) + tuple(vals.shape[2:]))
    return crows, cols, vals


def csr_to_coo(x: torch.Tensor) -> torch.Tensor:
    """COO with the same entries in the same (row-major) order, marked coalesced."""
    crows, cols, vals = x.crow_indices(), x.col_indices(), x.values()
    dev = crows.device
    if x.dim() == 2:
        m = x.shape[0]
        rows = torch.repeat_interleave(torch.arange(m, device=dev), crows.diff().long())
        idx = torch.stack([rows, cols.long()])
    else:
        b, m = x.shape[0], x.shape[1]
        n = cols.shape[1]
        counts = crows.diff(dim=1).reshape(-1).long()
        rows = torch.repeat_interleave(torch.arange(m, device=dev).repeat(b), counts)
        batch = torch.arange(b, device=dev).repeat_interleave(n)
        idx = torch.stack([batch, rows, cols.reshape(-1).long()])
        vals = vals.reshape((-1,) + tuple(vals.shape[2:]))
    return keep_index_dtype(coo(idx, vals, x.shape, coalesced=True), x)


def coo_to_csr(x: torch.Tensor, api: str = "Tensor.to_sparse_csr",
               index_type: torch.dtype | None = None) -> torch.Tensor:
    """CSR of a 2-D or 3-D COO tensor (duplicates merged first); its index arrays take
    ``index_type``, by default the COO tensor's own index type."""
    index_type = index_dtype(x) if index_type is None else index_type
    if index_type not in (torch.int32, torch.int64):  # torch's CSR holds int32 or int64 only
        index_type = torch.int32
    if x.dim() not in (2, 3) or x.sparse_dim() != x.dim():
        raise ValueError(f"paddle.{api}: only a 2-D or 3-D tensor without dense dimensions can "
                         f"be converted to a sparse CSR tensor, but received shape "
                         f"{list(x.shape)}")
    if not is_ordered(x):  # the coalesced flag alone does not promise sorted indices
        x = coalesce(x)
    idx, vals = x._indices(), coo_values(x)
    if x.dim() == 2:
        m = x.shape[0]
        counts = torch.bincount(idx[0], minlength=m)
        crows = torch.cat([counts.new_zeros(1), counts.cumsum(0)])
        return torch.sparse_csr_tensor(crows.to(index_type), idx[1].to(index_type), vals,
                                       tuple(x.shape))
    b, m = x.shape[0], x.shape[1]
    counts = torch.bincount(idx[0] * m + idx[1], minlength=b * m).reshape(b, m)
    crows = torch.cat([counts.new_zeros(b, 1), counts.cumsum(1)], dim=1).reshape(-1)
    return csr(crows.to(index_type), idx[2].to(index_type), vals, x.shape, api)


def dense_to_coo(x: torch.Tensor, sparse_dim: int) -> torch.Tensor:
    """COO of a dense tensor: the positions over the first ``sparse_dim`` axes holding any non-zero."""
    nz = x != 0
    if sparse_dim < x.dim():
        nz = nz.flatten(sparse_dim).any(-1)
    idx = nz.nonzero().T
    return coo(idx, x[tuple(idx)], x.shape, coalesced=True)


class _DenseToCoo(torch.autograd.Function):
    """``Tensor.to_sparse_coo``: the dense gradient is the output gradient made dense, at
    every position (Paddle's ``dense_to_coo`` backward), not only at the kept entries."""

    @staticmethod
    def forward(ctx, x, sparse_dim):  # type: ignore[override]
        return dense_to_coo(x.detach(), sparse_dim)

    @staticmethod
    def backward(ctx, g):  # type: ignore[override]
        return (g if g.layout is _DENSE else g.to_dense()), None


def dense_to_coo_api(x: torch.Tensor, sparse_dim: int) -> torch.Tensor:
    """:func:`dense_to_coo` with Paddle's gradient for the dense input."""
    return _DenseToCoo.apply(x, sparse_dim) if x.requires_grad else dense_to_coo(x, sparse_dim)


def to_coo(x: torch.Tensor) -> torch.Tensor:
    """Any layout as COO (dense: every position with a non-zero)."""
    if x.layout is _COO:
        return x
    if x.layout is _CSR:
        return csr_to_coo(x)
    return dense_to_coo(x, x.dim())


def from_coo_like(out: torch.Tensor, like: torch.Tensor, api: str) -> torch.Tensor:
    """Return a COO result in the layout of ``like`` (CSR inputs give CSR outputs)."""
    if like.layout is _CSR:
        return coo_to_csr(out, api, like.crow_indices().dtype)
    return keep_index_dtype(out, like)
