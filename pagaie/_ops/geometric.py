"""``paddle.geometric`` ops: segment reductions and message passing over graphs (gather the
rows of the source nodes, combine them with edge or destination features, reduce them into the
destination nodes).

Not a top-level family: these records are exported by :mod:`pagaie.geometric`. They share
their kernels with the deprecated ``paddle.incubate`` aliases (:mod:`pagaie._ops.incubate_ops`).
"""
from __future__ import annotations

import torch

from pagaie._core.registry import defop
from pagaie._ops._helpers import dtype_name
from pagaie._ops.incubate_ops import (REDUCE_OPS, SEGMENT_TENSORS, _out_rows, _segment,
                                      check_choice, check_edges, document_segments, receive,
                                      send_recv_static_shape, send_u_recv)

__all__ = ["geometric_segment_sum", "geometric_segment_mean", "geometric_segment_max",
           "geometric_segment_min", "geometric_send_u_recv", "geometric_send_ue_recv",
           "geometric_send_uv", "geometric_sample_neighbors", "geometric_weighted_sample_neighbors",
           "geometric_reindex_graph"]

_MESSAGE_OPS = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}
# Only Tensors there, as Paddle's argument parser wants (``bad_input`` names the exception:
# Paddle reads ``x.shape`` and ``y.shape`` of send_ue_recv/send_uv in Python first).
_MESSAGE_TENSORS = ("x", "y", "src_index", "dst_index")


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def geometric_segment_sum(data, segment_ids, name=None):
    return _segment("geometric.segment_sum", "sum", data, segment_ids)


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def geometric_segment_mean(data, segment_ids, name=None):
    return _segment("geometric.segment_mean", "mean", data, segment_ids)


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def geometric_segment_max(data, segment_ids, name=None):
    return _segment("geometric.segment_max", "max", data, segment_ids)


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def geometric_segment_min(data, segment_ids, name=None):
    return _segment("geometric.segment_min", "min", data, segment_ids)


document_segments("geometric", geometric_segment_sum, geometric_segment_mean,
                  geometric_segment_max, geometric_segment_min)


def _message(api: str, op: str, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """``a <op> b`` row by row (both ``[E, ...]``): 1-D operands count as ``[E, 1]`` and the
    feature dimensions broadcast as in numpy, as in Paddle's graph kernels."""
    if a.dtype != b.dtype:  # Paddle's kernels read both operands as x's dtype
        raise ValueError(f"paddle.{api}: 'x' and 'y' must have the same dtype, but received "
                         f"{dtype_name(a)} and {dtype_name(b)}")
    a = a.unsqueeze(1) if a.dim() == 1 else a
    b = b.unsqueeze(1) if b.dim() == 1 else b
    fa, fb = tuple(a.shape[1:]), tuple(b.shape[1:])
    n = max(len(fa), len(fb))
    fa, fb = (1,) * (n - len(fa)) + fa, (1,) * (n - len(fb)) + fb
    if any(p != q and 1 not in (p, q) for p, q in zip(fa, fb)):
        raise ValueError(f"paddle.{api}: the feature shapes of x {list(a.shape[1:])} and y "
                         f"{list(b.shape[1:])} cannot be broadcast together")
    a, b = a.reshape((a.shape[0],) + fa), b.reshape((b.shape[0],) + fb)
    if op == "div" and not a.is_floating_point():
        # Paddle's kernels divide into a float message they cannot store in an integer output.
        raise ValueError(f"paddle.{api}: message_op 'div' needs floating-point 'x' and 'y', "
                         f"but received {dtype_name(a)}")
    return _MESSAGE_OPS[op](a, b)


@defop(amp="promote", paddle_types=("send_u_recv", "pd_op.send_u_recv"), method=False,
       static_shape=send_recv_static_shape, static_shape_first="always",
       tensor_args=("x", "src_index", "dst_index"))
def geometric_send_u_recv(x, src_index, dst_index, reduce_op="sum", out_size=None, name=None):
    """Message passing: gather the rows ``x[src_index]`` and reduce them into the rows
    ``dst_index`` of the output with ``reduce_op``; rows that receive nothing are zeros.

    Args:
        x (Tensor): node features, float32/float64/int32/int64, at least 1-D.
        src_index (Tensor): int32/int64 source node of each edge.
        dst_index (Tensor): destination node of each edge, same dtype and length as ``src_index``.
        reduce_op (str, optional): ``'sum'``, ``'mean'``, ``'max'`` or ``'min'``. Default ``'sum'``.
        out_size (int|Tensor, optional): rows of the output; None or a value <= 0 means
            ``x.shape[0]``. Default None.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: same dtype as ``x``, shape ``[out_size] + x.shape[1:]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.0, 2.0], [1.0, 4.0], [2.0, 6.0]])
        >>> src = paddle.to_tensor([0, 1, 2, 0], dtype='int32')
        >>> dst = paddle.to_tensor([1, 2, 1, 0], dtype='int32')
        >>> paddle.geometric.send_u_recv(x, src, dst, reduce_op='sum').tolist()
        [[0.0, 2.0], [2.0, 8.0], [1.0, 4.0]]
    """
    api = "geometric.send_u_recv"
    check_choice(api, "reduce_op", reduce_op, REDUCE_OPS)
    return send_u_recv(api, x, src_index, dst_index, reduce_op, out_size)


def _send_ue_recv_static_shape(x, y, *args, **kwargs) -> list:
    """Static rule: unknown rows (as in Paddle's programs), the features of x and y broadcast."""
    fx, fy = list(x.shape[1:]) or [1], list(y.shape[1:]) or [1]
    n = max(len(fx), len(fy))
    fx, fy = [1] * (n - len(fx)) + fx, [1] * (n - len(fy)) + fy
    return [-1] + [q if p == 1 else p for p, q in zip(fx, fy)]


@defop(amp="promote", paddle_types=("send_ue_recv", "pd_op.send_ue_recv"), method=False,
       static_shape=_send_ue_recv_static_shape, static_shape_first="always",
       tensor_args=_MESSAGE_TENSORS)
def geometric_send_ue_recv(x, y, src_index, dst_index, message_op="add", reduce_op="sum",
                           out_size=None, name=None):
    """Message passing with edge features: the message of edge ``e`` is
    ``x[src_index[e]] <message_op> y[e]``; messages are reduced into the rows ``dst_index``.

    Args:
        x (Tensor): node features, float32/float64/int32/int64, at least 1-D.
        y (Tensor): edge features, one row per edge, broadcastable against the rows of ``x``.
        src_index (Tensor): int32/int64 source node of each edge.
        dst_index (Tensor): destination node of each edge, same dtype and length as ``src_index``.
        message_op (str, optional): ``'add'``, ``'sub'``, ``'mul'`` or ``'div'``. Default ``'add'``.
        reduce_op (str, optional): ``'sum'``, ``'mean'``, ``'max'`` or ``'min'``. Default ``'sum'``.
        out_size (int|Tensor, optional): rows of the output; None or a value <= 0 means
            ``x.shape[0]``. Default None.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: shape ``[out_size] + broadcast(x.shape[1:], y.shape[1:])``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.0, 2.0], [1.0, 4.0], [2.0, 6.0]])
        >>> y = paddle.to_tensor([1.0, 1.0, 1.0, 1.0])
        >>> src = paddle.to_tensor([0, 1, 2, 0], dtype='int32')
        >>> dst = paddle.to_tensor([1, 2, 1, 0], dtype='int32')
        >>> paddle.geometric.send_ue_recv(x, y, src, dst, 'add', 'sum').tolist()
        [[1.0, 3.0], [4.0, 10.0], [2.0, 5.0]]
    """
    api = "geometric.send_ue_recv"
    check_choice(api, "message_op", message_op, tuple(_MESSAGE_OPS))
    check_choice(api, "reduce_op", reduce_op, REDUCE_OPS)
    src, dst = check_edges(api, x, src_index, dst_index)
    if y.dim() == 0:  # as for a 0-D x, Paddle's slice of y's shape is out of range
        raise IndexError(f"paddle.{api}: 'y' must be at least 1-D, but received a 0-D tensor")
    if y.shape[0] != src.numel():
        raise ValueError(f"paddle.{api}: 'y' must have one row per edge ({src.numel()}), but "
                         f"received {y.shape[0]} rows")
    rows = _out_rows(out_size, x.shape[0], api)
    msg = _message(api, message_op, x.index_select(0, src), y)
    return receive(api, msg, dst, reduce_op, rows)


@defop(amp="promote", paddle_types=("send_uv", "pd_op.send_uv"), method=False,
       tensor_args=_MESSAGE_TENSORS)
def geometric_send_uv(x, y, src_index, dst_index, message_op="add", name=None):
    """Edge messages from both ends: row ``e`` of the result is
    ``x[src_index[e]] <message_op> y[dst_index[e]]``.

    Args:
        x (Tensor): source node features, float32/float64/int32/int64, at least 1-D.
        y (Tensor): destination node features, rows broadcastable against those of ``x``.
        src_index (Tensor): int32/int64 source node of each edge.
        dst_index (Tensor): destination node of each edge, same dtype and length as ``src_index``.
        message_op (str, optional): ``'add'``, ``'sub'``, ``'mul'`` or ``'div'``. Default ``'add'``.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: one row per edge.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.0, 2.0], [1.0, 4.0], [2.0, 6.0]])
        >>> src = paddle.to_tensor([0, 1, 2], dtype='int32')
        >>> dst = paddle.to_tensor([1, 2, 0], dtype='int32')
        >>> paddle.geometric.send_uv(x, x, src, dst, message_op='add').tolist()
        [[1.0, 6.0], [3.0, 10.0], [2.0, 8.0]]
    """
    api = "geometric.send_uv"
    check_choice(api, "message_op", message_op, tuple(_MESSAGE_OPS))
    src, dst = check_edges(api, x, src_index, dst_index)
    if y.dim() == 0:  # as for a 0-D x, Paddle's slice of y's shape is out of range
        raise IndexError(f"paddle.{api}: 'y' must be at least 1-D, but received a 0-D tensor")
    if dst.numel():
        lo, hi = torch.stack([dst.min(), dst.max()]).tolist()
        if lo < 0 or hi >= y.shape[0]:
            raise IndexError(f"paddle.{api}: 'dst_index' must lie in [0, {y.shape[0]}), but "
                             f"received values in [{lo}, {hi}]")
    return _message(api, message_op, x.index_select(0, src), y.index_select(0, dst))


def _weighted_sample_static_shape(row, colptr, edge_weight, input_nodes, sample_size=-1,
                                  eids=None, return_eids=False, *args, **kwargs) -> tuple:
    from pagaie._ops.incubate_graph import sample_static_shape
    return sample_static_shape(row, return_eids=return_eids)


@defop(paddle_types=("weighted_sample_neighbors", "pd_op.weighted_sample_neighbors"),
       method=False, differentiable=False, static_shape=_weighted_sample_static_shape,
       static_shape_first="always",
       tensor_args=("row", "colptr", "edge_weight", "input_nodes"))
def geometric_weighted_sample_neighbors(row, colptr, edge_weight, input_nodes, sample_size=-1,
                                        eids=None, return_eids=False, name=None):
    """Sample up to ``sample_size`` distinct neighbours of each input node of a CSC graph, an
    edge being drawn with probability proportional to its weight (without replacement).

    A node with at most ``sample_size`` neighbours (or any node when ``sample_size`` is -1)
    keeps all of them, in order.

    Args:
        row (Tensor): source node of each edge, int32/int64, sorted by destination.
        colptr (Tensor): CSC column pointers, same dtype as ``row``.
        edge_weight (Tensor): float32 positive weight of each edge, 1-D or ``[E, 1]``.
        input_nodes (Tensor): the nodes to sample for, same dtype as ``row``.
        sample_size (int, optional): neighbours per node, -1 for all. Default -1.
        eids (Tensor, optional): id of each edge; needed when ``return_eids``. Default None.
        return_eids (bool, optional): also return the ids of the sampled edges. Default False.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        tuple: ``(out_neighbors, out_count)`` (+ ``out_eids``).

    Examples:
        >>> import pagaie as paddle
        >>> row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> weight = paddle.ones([13])
        >>> nodes = paddle.to_tensor([0, 8, 1, 2])
        >>> nb, cnt = paddle.geometric.weighted_sample_neighbors(row, colptr, weight, nodes, 5)
        >>> nb.tolist(), cnt.tolist()
        ([3, 7, 9, 7, 0, 9, 1], [2, 2, 2, 1])
    """
    from pagaie._ops.incubate_graph import (_check_csc, _check_vector, _ids, _kernel_key,
                                            _sample_size, check_flag)
    api = "geometric.weighted_sample_neighbors"
    if return_eids and eids is None:
        raise ValueError(f"paddle.{api}: 'eids' should not be None if 'return_eids' is True")
    k = _sample_size(api, sample_size)
    check_flag(api, "return_eids", return_eids)
    _kernel_key(api, "input_nodes", input_nodes)  # Paddle's kernel key here, not 'row'
    _check_csc(api, row, colptr, input_nodes)
    eid_v = _ids(api, "eids", eids, like=row) if return_eids else None
    if edge_weight.dtype != torch.float32:  # Paddle's kernel reads float32 weights only
        raise ValueError(f"paddle.{api}: 'edge_weight' must be float32, but received "
                         f"{dtype_name(edge_weight)}")
    _check_vector(api, "edge_weight", edge_weight)
    row_v, cp = row.reshape(-1), colptr.reshape(-1)
    nodes = input_nodes.reshape(-1).long()
    w = edge_weight.reshape(-1)
    if w.numel() != row_v.numel():
        raise ValueError(f"paddle.{api}: 'edge_weight' must have one entry per edge "
                         f"({row_v.numel()}), but received {w.numel()}")
    start = cp[nodes].long()
    deg = cp[nodes + 1].long() - start
    offsets = torch.cumsum(deg, 0) - deg
    total = int(deg.sum().item()) if deg.numel() else 0
    seg = torch.repeat_interleave(torch.arange(nodes.numel(), device=row.device), deg,
                                  output_size=total)
    edges = start[seg] + (torch.arange(total, device=row.device) - offsets[seg])
    counts = deg
    if k >= 0 and total:
        # Efraimidis-Spirakis: the k smallest keys -log(u) / w of each node, kept in edge order.
        keys = -torch.log(torch.rand(total, device=row.device)) / w[edges].double()
        order = torch.argsort(keys)
        order = order[torch.argsort(seg[order], stable=True)]
        rank = torch.empty_like(order)
        rank[order] = torch.arange(total, device=row.device)
        edges = edges[(rank - offsets[seg]) < k]
        counts = deg.clamp(max=k)
    out = (row_v[edges], counts.to(torch.int32))
    if return_eids:
        out = out + (eid_v[edges],)
    return out


def _sample_neighbors_static_shape(row, colptr, input_nodes, sample_size=-1, eids=None,
                                   return_eids=False, *args, **kwargs) -> tuple:
    from pagaie._ops.incubate_graph import sample_static_shape
    return sample_static_shape(row, return_eids=return_eids)


# Paddle programs name this op graph_sample_neighbors: its incubate record reads them.
@defop(method=False, differentiable=False, static_shape=_sample_neighbors_static_shape,
       static_shape_first="always", tensor_args=("row", "colptr", "input_nodes"))
def geometric_sample_neighbors(row, colptr, input_nodes, sample_size=-1, eids=None,
                               return_eids=False, perm_buffer=None, name=None):
    """Sample up to ``sample_size`` distinct neighbours of each input node of a CSC graph
    (all of them, in order, when ``sample_size`` is -1 or the node has no more).

    Args:
        row (Tensor): source node of each edge, int32/int64, sorted by destination.
        colptr (Tensor): CSC column pointers, same dtype as ``row``.
        input_nodes (Tensor): the nodes to sample for, same dtype as ``row``.
        sample_size (int, optional): neighbours per node, -1 for all. Default -1.
        eids (Tensor, optional): id of each edge; needed when ``return_eids``. Default None.
        return_eids (bool, optional): also return the ids of the sampled edges. Default False.
        perm_buffer (Tensor, optional): speeds up Paddle's GPU kernel; ignored. Default None.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        tuple: ``(out_neighbors, out_count)`` (+ ``out_eids``), ``out_count`` int32.

    Examples:
        >>> import pagaie as paddle
        >>> row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
        >>> colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
        >>> nodes = paddle.to_tensor([0, 8, 1, 2])
        >>> nb, cnt = paddle.geometric.sample_neighbors(row, colptr, nodes, sample_size=5)
        >>> nb.tolist(), cnt.tolist()
        ([3, 7, 9, 7, 0, 9, 1], [2, 2, 2, 1])
    """
    from pagaie._ops.incubate_graph import sample_neighbors
    return sample_neighbors("geometric.sample_neighbors", row, colptr, input_nodes, eids,
                            perm_buffer, sample_size, return_eids, perm_buffer is not None)


def _reindex_static_shape(*args, **kwargs) -> list:
    """Static rule: every output size depends on the ids (Paddle: -1)."""
    return [[-1], [-1], [-1]]


# Paddle programs name this op reindex_graph: its incubate record reads them.
@defop(method=False, differentiable=False, static_shape=_reindex_static_shape,
       tensor_args=("x", "neighbors", "count"))
def geometric_reindex_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """Renumber a sampled subgraph from 0: the nodes ``x`` first, then the new nodes of
    ``neighbors`` in order of first appearance.

    Args:
        x (Tensor): the center nodes, int32/int64, unique, not empty.
        neighbors (Tensor): the neighbours of the nodes of ``x`` back to back, same dtype.
        count (Tensor): int32 number of neighbours of each node of ``x``.
        value_buffer (Tensor, optional): hash-table buffer of Paddle's GPU kernel; ignored.
        index_buffer (Tensor, optional): hash-table buffer of Paddle's GPU kernel; ignored.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        tuple: ``(reindex_src, reindex_dst, out_nodes)``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([0, 1, 2])
        >>> neighbors = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7])
        >>> count = paddle.to_tensor([2, 3, 2], dtype='int32')
        >>> src, dst, nodes = paddle.geometric.reindex_graph(x, neighbors, count)
        >>> src.tolist(), dst.tolist(), nodes.tolist()
        ([3, 4, 0, 5, 6, 7, 6], [0, 0, 1, 1, 1, 2, 2], [0, 1, 2, 8, 9, 4, 7, 6])
    """
    from pagaie._ops.incubate_graph import reindex
    both = value_buffer is not None and index_buffer is not None
    return reindex("geometric.reindex_graph", x, neighbors, count, value_buffer, index_buffer, both)
