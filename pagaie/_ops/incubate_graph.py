"""``paddle.incubate`` graph sampling ops: ``graph_reindex``, ``graph_sample_neighbors`` and
``graph_khop_sampler`` over graphs stored in CSC form (``row``, ``colptr``).

Not a top-level family: these records are exported by ``pagaie.incubate``. All three have
data-dependent output sizes and no gradients.
"""
from __future__ import annotations

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import dtype_name
from pagaie._ops.incubate_ops import _check_index_dtype

__all__ = ["incubate_graph_reindex", "incubate_graph_sample_neighbors",
           "incubate_graph_khop_sampler"]


def _check_vector(api: str, arg: str, t: torch.Tensor) -> None:
    """ValueError unless ``t`` is 1-D or a ``[n, 1]`` column, the shapes Paddle's graph ops take."""
    if t.dim() == 1 or (t.dim() == 2 and t.shape[1] == 1):
        return
    raise ValueError(f"paddle.{api}: '{arg}' must be a 1-D tensor or of shape [n, 1], but "
                     f"received shape {list(t.shape)}")


def _ids(api: str, arg: str, t: torch.Tensor, like: torch.Tensor | None = None) -> torch.Tensor:
    _check_index_dtype(api, arg, t)
    if like is not None and t.dtype != like.dtype:
        raise ValueError(f"paddle.{api}: '{arg}' must have the dtype of the other index "
                         f"tensors ({dtype_name(like)}), but received {dtype_name(t)}")
    _check_vector(api, arg, t)
    return t.reshape(-1)


def _kernel_key(api: str, arg: str, t: torch.Tensor) -> None:
    """Paddle picks the kernel of a graph op by the dtype of one input (``arg``) before it
    checks anything else, and has int32/int64 kernels only: NoKernelError (a RuntimeError)
    for any other dtype of that input, whatever is wrong with the others."""
    if t.dtype not in (torch.int32, torch.int64):
        raise NoKernelError(f"paddle.{api}: '{arg}' must be int32 or int64 (the dtypes of "
                            f"its kernel), but received {dtype_name(t)}")


def _sample_size(api: str, sample_size) -> int:
    """``sample_size`` as an int; Paddle refuses bools and floats with a TypeError."""
    if isinstance(sample_size, bool) or not isinstance(sample_size, (int, np.integer)):
        raise TypeError(f"paddle.{api}: 'sample_size' must be an int, but received "
                        f"{type(sample_size).__name__} {sample_size!r}")
    return int(sample_size)


def _sample_sizes(api: str, sample_sizes) -> list[int]:
    """``sample_sizes`` as a list of ints, read as Paddle's argument parser reads it: a list, a
    tuple or a 1-D numpy array of ints, or one int; anything else (None, a float, a bool, an
    entry that is not an int) is its TypeError, and an empty list its ValueError."""
    if isinstance(sample_sizes, (int, np.integer)) and not isinstance(sample_sizes, bool):
        return [int(sample_sizes)]
    if isinstance(sample_sizes, np.ndarray) and sample_sizes.ndim == 1:
        sample_sizes = list(sample_sizes)
    if not isinstance(sample_sizes, (list, tuple)):
        raise TypeError(f"paddle.{api}: 'sample_sizes' must be a list or tuple of ints, but "
                        f"received {type(sample_sizes).__name__}")
    for i, k in enumerate(sample_sizes):
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise TypeError(f"paddle.{api}: 'sample_sizes' must be a list of ints, but entry "
                            f"{i} is {type(k).__name__} {k!r}")
    if not sample_sizes:
        raise ValueError(f"paddle.{api}: 'sample_sizes' should not be empty")
    return [int(k) for k in sample_sizes]


def check_flag(api: str, arg: str, value) -> None:
    """A flag handed to Paddle's argument parser: only a Python bool or None (False) passes
    (TypeError)."""
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"paddle.{api}: '{arg}' must be a bool, but received "
                        f"{type(value).__name__} {value!r}")


def _reindex_centers(head: torch.Tensor, rest: torch.Tensor
                     ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Paddle's numbering of ``graph_reindex``: the center nodes ``head`` keep their positions
    (a repeated id is numbered by its last position), then the ids of ``rest`` not in ``head``
    follow in order of first appearance.

    Returns:
        (the new number of each element of ``rest``, the node ids in numbering order: ``head``
        as given then the new ids, the new number of each element of ``head``).
    """
    both = torch.cat([head, rest])
    uniq, inv = torch.unique(both, return_inverse=True)
    nh, dev = head.numel(), both.device
    last_in_head = torch.full((uniq.numel(),), -1, dtype=torch.long, device=dev)
    last_in_head = last_in_head.scatter_reduce(0, inv[:nh], torch.arange(nh, device=dev), "amax")
    first = torch.full((uniq.numel(),), both.numel(), dtype=torch.long, device=dev)
    first = first.scatter_reduce(0, inv, torch.arange(both.numel(), device=dev), "amin")
    new = torch.nonzero(last_in_head < 0).reshape(-1)
    new = new[torch.argsort(first[new])]
    number = last_in_head.clone()
    number[new] = nh + torch.arange(new.numel(), device=dev)
    return (number[inv[nh:]].to(rest.dtype), torch.cat([head, uniq[new]]),
            number[inv[:nh]].to(head.dtype))


def _reindex_static_shape(x, neighbors, count, *args, **kwargs) -> list:
    """Static rule (see ``Recorder``): every output size depends on the ids (Paddle: -1)."""
    return [[-1], [-1], [-1]]


@defop(paddle_types=("graph_reindex", "reindex_graph", "pd_op.reindex_graph"), method=False,
       differentiable=False, static_shape=_reindex_static_shape,
       tensor_args=("x", "neighbors", "count"))
def incubate_graph_reindex(x, neighbors, count, value_buffer=None, index_buffer=None,
                           flag_buffer_hashtable=False, name=None):
    """Renumber a sampled subgraph from 0: the input nodes ``x`` first, then every new node of
    ``neighbors`` in order of first appearance.

    ``neighbors`` holds the sampled neighbours of each node of ``x`` back to back, ``count[i]``
    of them for ``x[i]``. For a graph with several edge types, ``neighbors`` and ``count`` are
    the concatenations over the types (``count`` then has ``len(x)`` entries per type). The hash-table buffers only speed up Paddle's GPU kernel; pagaie
    accepts and ignores them.

    Args:
        x (Tensor): the input (center) nodes, int32/int64, 1-D or ``[n, 1]``; should be
            unique (``out_nodes`` starts with ``x`` as given; a repeated id takes the number of
            its last position, as in Paddle's CPU kernel).
        neighbors (Tensor): the neighbours, same dtype as ``x``.
        count (Tensor): int32 number of neighbours of each node of ``x`` (per edge type).
        value_buffer (Tensor, optional): hash-table buffer (GPU speed-up). Default None.
        index_buffer (Tensor, optional): hash-table buffer (GPU speed-up). Default None.
        flag_buffer_hashtable (bool, optional): whether the buffers are given. Default False.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        tuple: ``(reindex_src, reindex_dst, out_nodes)``: the new id of each neighbour, the new
        id of the center node of each edge, and the original id of every new id.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([0, 1, 2])
        >>> neighbors = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7])
        >>> count = paddle.to_tensor([2, 3, 2], dtype='int32')
        >>> src, dst, nodes = paddle.incubate.graph_reindex(x, neighbors, count)
        >>> src.tolist(), dst.tolist(), nodes.tolist()
        ([3, 4, 0, 5, 6, 7, 6], [0, 0, 1, 1, 1, 2, 2], [0, 1, 2, 8, 9, 4, 7, 6])
    """
    return reindex("incubate.graph_reindex", x, neighbors, count, value_buffer, index_buffer,
                   flag_buffer_hashtable)


def reindex(api: str, x: torch.Tensor, neighbors: torch.Tensor, count: torch.Tensor,
            value_buffer, index_buffer, flag_buffer_hashtable) -> tuple:
    """The renumbering of ``graph_reindex`` (its checks naming the public ``api``)."""
    if flag_buffer_hashtable and (value_buffer is None or index_buffer is None):
        raise ValueError(f"paddle.{api}: 'value_buffer' and 'index_buffer' should not be "
                         "None if 'flag_buffer_hashtable' is True")
    _kernel_key(api, "x", x)
    xs = _ids(api, "x", x)
    nb = _ids(api, "neighbors", neighbors, like=x)
    cnt = _ids(api, "count", count)
    for arg, buf in (("value_buffer", value_buffer), ("index_buffer", index_buffer)):
        if flag_buffer_hashtable and buf is not None:
            _check_vector(api, arg, buf)
    if count.dtype != torch.int32:
        raise ValueError(f"paddle.{api}: 'count' must be int32, but received "
                         f"{dtype_name(count)}")
    n = xs.numel()
    if n == 0:  # Paddle's kernel divides by the number of center nodes
        raise ValueError(f"paddle.{api}: 'x' should not be empty, but received shape "
                         f"{list(x.shape)}")
    if cnt.numel() % n:  # no counts at all: no edge types, no edges
        raise ValueError(f"paddle.{api}: 'count' must have one entry per node of 'x' "
                         f"({n}) for each edge type (a multiple of {n} entries), but received "
                         f"{cnt.numel()}")
    total = int(cnt.sum().item()) if cnt.numel() else 0
    if total != nb.numel():
        raise ValueError(f"paddle.{api}: the entries of 'count' must add up to the "
                         f"number of neighbors ({nb.numel()}), but they add up to {total}")
    src, nodes, centers = _reindex_centers(xs, nb)
    if cnt.numel() != n:  # several edge types, one block of counts each (Paddle's layout)
        centers = centers.repeat(cnt.numel() // n)
    dst = torch.repeat_interleave(centers, cnt.long(), output_size=total)
    return src, dst, nodes


def _sample(row: torch.Tensor, colptr: torch.Tensor, nodes: torch.Tensor, k: int
            ) -> tuple[torch.Tensor, torch.Tensor]:
    """Edge positions of up to ``k`` random distinct neighbours of each node (all when ``k < 0``
    or the degree is at most ``k``), grouped by node in input order; and the count per node."""
    dev = row.device
    nodes = nodes.long()
    start = colptr[nodes].long()
    deg = colptr[nodes + 1].long() - start
    offsets = torch.cumsum(deg, 0) - deg
    total = int(deg.sum().item()) if deg.numel() else 0
    seg = torch.repeat_interleave(torch.arange(nodes.numel(), device=dev), deg, output_size=total)
    within = torch.arange(total, device=dev) - offsets[seg]
    edges = start[seg] + within
    if k < 0:
        return edges, deg
    if total:
        order = torch.argsort(torch.rand(total, device=dev))  # random keys...
        order = order[torch.argsort(seg[order], stable=True)]  # ...grouped by node
        rank = torch.empty_like(order)
        rank[order] = torch.arange(total, device=dev)
        edges = edges[(rank - offsets[seg]) < k]
    return edges, deg.clamp(max=k)


def _check_csc(api: str, row, colptr, nodes) -> None:
    _ids(api, "row", row)
    _ids(api, "colptr", colptr, like=row)
    _ids(api, "input_nodes", nodes, like=row)
    if nodes.numel():
        lo, hi = torch.stack([nodes.min(), nodes.max()]).tolist()
        if lo < 0 or hi >= colptr.numel() - 1:
            raise IndexError(f"paddle.{api}: 'input_nodes' must lie in [0, "
                             f"{colptr.numel() - 1}) (the nodes described by 'colptr'), but "
                             f"received values in [{lo}, {hi}]")


def sample_static_shape(row, *args, return_eids=False, **kwargs) -> tuple:
    """Static rule of the neighbour sampling ops: Paddle's programs leave every output size
    unknown, the int32 counts too."""
    ids = _dt.to_torch_dtype(row.dtype)
    dims, dtypes = [[-1], [-1]], [ids, torch.int32]
    if return_eids:
        dims.append([-1])
        dtypes.append(ids)
    return dims, dtypes


def _sample_neighbors_static_shape(row, colptr, input_nodes, eids=None, perm_buffer=None,
                                   sample_size=-1, return_eids=False, *args, **kwargs) -> tuple:
    return sample_static_shape(row, return_eids=return_eids)


@defop(paddle_types=("graph_sample_neighbors", "pd_op.graph_sample_neighbors"), method=False,
       differentiable=False, static_shape=_sample_neighbors_static_shape,
       static_shape_first="always", tensor_args=("row", "colptr", "input_nodes"))
def incubate_graph_sample_neighbors(row, colptr, input_nodes, eids=None, perm_buffer=None,
                                    sample_size=-1, return_eids=False, flag_perm_buffer=False,
                                    name=None):
    """Sample up to ``sample_size`` distinct neighbours of each input node of a CSC graph.

    The neighbours of node ``n`` are ``row[colptr[n]:colptr[n + 1]]``. A node with at most
    ``sample_size`` neighbours (or any node when ``sample_size`` is -1) keeps all of them, in
    order; otherwise a uniformly random subset is drawn. ``perm_buffer`` only speeds up
    Paddle's GPU kernel; pagaie accepts and ignores it.

    Args:
        row (Tensor): source node of each edge, int32/int64, sorted by destination.
        colptr (Tensor): CSC column pointers, same dtype as ``row``.
        input_nodes (Tensor): the nodes to sample for, same dtype as ``row``.
        eids (Tensor, optional): id of each edge; needed when ``return_eids``. Default None.
        perm_buffer (Tensor, optional): GPU speed-up buffer. Default None.
        sample_size (int, optional): neighbours per node, -1 for all. Default -1.
        return_eids (bool, optional): also return the ids of the sampled edges. Default False.
        flag_perm_buffer (bool, optional): whether ``perm_buffer`` is given. Default False.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        tuple: ``(out_neighbors, out_count)`` (+ ``out_eids``): the sampled neighbours back to
        back, the int32 number sampled for each input node (and the edge ids).

    Examples:
        >>> import pagaie as paddle
        >>> row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> nodes = paddle.to_tensor([0, 8, 1, 2])
        >>> nb, cnt = paddle.incubate.graph_sample_neighbors(row, colptr, nodes, sample_size=5)
        >>> nb.tolist(), cnt.tolist()
        ([3, 7, 9, 7, 0, 9, 1], [2, 2, 2, 1])
        >>> nb, cnt = paddle.incubate.graph_sample_neighbors(row, colptr, nodes, sample_size=1)
        >>> cnt.tolist()
        [1, 1, 1, 1]
    """
    return sample_neighbors("incubate.graph_sample_neighbors", row, colptr, input_nodes, eids,
                            perm_buffer, sample_size, return_eids, flag_perm_buffer)


def sample_neighbors(api: str, row: torch.Tensor, colptr: torch.Tensor, input_nodes: torch.Tensor,
                     eids, perm_buffer, sample_size, return_eids, flag_perm_buffer) -> tuple:
    """The uniform neighbour sampling of ``graph_sample_neighbors`` (its checks naming the
    public ``api``)."""
    if return_eids and eids is None:
        raise ValueError(f"paddle.{api}: 'eids' should not be None if 'return_eids' is True")
    if flag_perm_buffer and perm_buffer is None:
        raise ValueError(f"paddle.{api}: 'perm_buffer' should not be None if "
                         "'flag_perm_buffer' is True")
    k = _sample_size(api, sample_size)
    check_flag(api, "return_eids", return_eids)
    _kernel_key(api, "row", row)
    _check_csc(api, row, colptr, input_nodes)
    eid_v = _ids(api, "eids", eids, like=row) if return_eids else None
    edges, counts = _sample(row, colptr.reshape(-1), input_nodes.reshape(-1), k)
    out = (row.reshape(-1)[edges], counts.to(torch.int32))
    if return_eids:
        out = out + (eid_v[edges],)
    return out


def _unique_in_order(t: torch.Tensor) -> torch.Tensor:
    if t.numel() == 0:
        return t
    uniq, inv = torch.unique(t, return_inverse=True)
    first = torch.full((uniq.numel(),), t.numel(), dtype=torch.long, device=t.device)
    first = first.scatter_reduce(0, inv, torch.arange(t.numel(), device=t.device), "amin")
    return uniq[torch.sort(first).indices]


def _khop_static_shape(row, colptr, input_nodes, sample_sizes, sorted_eids=None,
                       return_eids=False, *args, **kwargs) -> list:
    """Static rule: the sampled edges and nodes are counted when the program runs (-1); the
    new number of each input node has the input nodes' length."""
    dims = [[-1, 1], [-1, 1], [-1], [input_nodes.shape[0]]]
    return dims + [[-1]] if return_eids else dims


@defop(paddle_types=("graph_khop_sampler", "pd_op.graph_khop_sampler"), method=False,
       differentiable=False, static_shape=_khop_static_shape, static_shape_first="always",
       tensor_args=("row", "colptr", "input_nodes"))
def incubate_graph_khop_sampler(row, colptr, input_nodes, sample_sizes, sorted_eids=None,
                                return_eids=False, name=None):
    """Multi-hop neighbour sampling with the sampled subgraph renumbered from 0.

    Layer ``i`` samples up to ``sample_sizes[i]`` neighbours (-1: all) of each node of the
    current frontier (the unique input nodes first; then the sampled nodes of the previous
    layer that were not in its frontier, in ascending order). Nodes are renumbered: the
    frontiers in order, then the other sampled nodes in order of first appearance.

    Args:
        row (Tensor): source node of each edge, int32/int64, sorted by destination.
        colptr (Tensor): CSC column pointers, same dtype as ``row``.
        input_nodes (Tensor): the starting nodes, same dtype as ``row``.
        sample_sizes (list|tuple|int): neighbours to sample per node, one entry per layer (an
            int: one layer).
        sorted_eids (Tensor, optional): edge ids in CSC order; needed when ``return_eids``.
        return_eids (bool, optional): also return the ids of the sampled edges. Default False.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        tuple: ``(edge_src, edge_dst, sample_index, reindex_nodes)`` (+ ``edge_eids``): the
        renumbered ends of the sampled edges (shape ``[E, 1]``), the original id of each new
        number, and the new number of each input node.

    Examples:
        >>> import pagaie as paddle
        >>> row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> nodes = paddle.to_tensor([0, 8, 1, 2])
        >>> src, dst, index, reindex = paddle.incubate.graph_khop_sampler(row, colptr, nodes, [5])
        >>> src.reshape([-1]).tolist(), dst.reshape([-1]).tolist()
        ([4, 5, 6, 5, 0, 6, 2], [0, 0, 1, 1, 2, 2, 3])
        >>> index.tolist(), reindex.tolist()
        ([0, 8, 1, 2, 3, 7, 9], [0, 1, 2, 3])
    """
    api = "incubate.graph_khop_sampler"
    if return_eids and sorted_eids is None:
        raise ValueError(f"paddle.{api}: 'sorted_eids' should not be None if "
                         "'return_eids' is True")
    sample_sizes = _sample_sizes(api, sample_sizes)
    _kernel_key(api, "row", row)
    _check_csc(api, row, colptr, input_nodes)
    if row.numel() == 0 or input_nodes.numel() == 0:
        raise ValueError(f"paddle.{api}: 'row' and 'input_nodes' should not be empty")
    row_v, cp, x = row.reshape(-1), colptr.reshape(-1), input_nodes.reshape(-1)
    eid_v = _ids(api, "sorted_eids", sorted_eids) if return_eids else None
    frontier = _unique_in_order(x)
    fronts, srcs, counts, eids = [], [], [], []
    for i, k in enumerate(sample_sizes):
        if frontier.numel() == 0:
            break
        edges, cnt = _sample(row_v, cp, frontier, k)
        if i == 0 and edges.numel() == 0:
            raise ValueError(f"paddle.{api}: the input nodes should have at least one "
                             "neighbor, but none of them has any")
        out = row_v[edges]
        fronts.append(frontier)
        srcs.append(out)
        counts.append(cnt)
        if return_eids:
            eids.append(eid_v[edges])
        if i + 1 < len(sample_sizes):
            nxt = torch.unique(out)
            frontier = nxt[~torch.isin(nxt, frontier)]
    head = torch.cat(fronts)
    src_all = torch.cat(srcs)
    # A node may be in two frontiers (a later hop reaching back): number it by its first one.
    head_u = _unique_in_order(head)
    src_new, sample_index, _ = _reindex_centers(head_u, src_all)
    head_new, _, _ = _reindex_centers(head_u, head)
    dst_new = torch.repeat_interleave(head_new, torch.cat(counts), output_size=src_all.numel())
    reindex_x, _, _ = _reindex_centers(head_u, x)
    out = (src_new.reshape(-1, 1), dst_new.reshape(-1, 1), sample_index, reindex_x)
    if return_eids:
        out = out + (torch.cat(eids),)
    return out
