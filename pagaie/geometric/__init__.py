"""``paddle.geometric``: graph learning ops: segment reductions, message passing
(``send_u_recv``, ``send_ue_recv``, ``send_uv``), neighbour sampling and subgraph reindexing.

The op records live in :mod:`pagaie._ops.geometric` and :mod:`pagaie._ops.incubate_graph`
(shared with the deprecated ``paddle.incubate`` aliases).
"""
from __future__ import annotations

from pagaie._ops import geometric as _g, incubate_graph as _ig

__all__ = ["send_u_recv", "send_ue_recv", "send_uv", "segment_sum", "segment_mean",
           "segment_min", "segment_max", "reindex_graph", "reindex_heter_graph",
           "sample_neighbors", "weighted_sample_neighbors"]


def _public(fn, name: str):
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    return fn


send_u_recv = _public(_g.geometric_send_u_recv, "send_u_recv")
send_ue_recv = _public(_g.geometric_send_ue_recv, "send_ue_recv")
send_uv = _public(_g.geometric_send_uv, "send_uv")
segment_sum = _public(_g.geometric_segment_sum, "segment_sum")
segment_mean = _public(_g.geometric_segment_mean, "segment_mean")
segment_max = _public(_g.geometric_segment_max, "segment_max")
segment_min = _public(_g.geometric_segment_min, "segment_min")
weighted_sample_neighbors = _public(_g.geometric_weighted_sample_neighbors,
                                    "weighted_sample_neighbors")


def sample_neighbors(row, colptr, input_nodes, sample_size=-1, eids=None, return_eids=False,
                     perm_buffer=None, name=None):
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
    return _ig.incubate_graph_sample_neighbors(
        row, colptr, input_nodes, eids=eids, perm_buffer=perm_buffer, sample_size=sample_size,
        return_eids=return_eids, flag_perm_buffer=perm_buffer is not None)


def reindex_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """Renumber a sampled subgraph from 0: the nodes ``x`` first, then the new nodes of
    ``neighbors`` in order of first appearance.

    Args:
        x (Tensor): the center nodes, int32/int64, unique.
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
    both = value_buffer is not None and index_buffer is not None
    return _ig.incubate_graph_reindex(x, neighbors, count, value_buffer, index_buffer, both)


def reindex_heter_graph(x, neighbors, count, value_buffer=None, index_buffer=None, name=None):
    """:func:`reindex_graph` for a graph with several edge types: ``neighbors`` and ``count``
    are lists with one tensor per type; the numbering is shared across types.

    Args:
        x (Tensor): the center nodes, int32/int64, unique.
        neighbors (list[Tensor]): the neighbours per edge type.
        count (list[Tensor]): int32 neighbour counts per edge type, ``len(x)`` entries each.
        value_buffer (Tensor, optional): ignored (GPU speed-up). Default None.
        index_buffer (Tensor, optional): ignored (GPU speed-up). Default None.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        tuple: ``(reindex_src, reindex_dst, out_nodes)``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([0, 1, 2])
        >>> nb = [paddle.to_tensor([8, 9, 0, 4, 7, 6, 7]), paddle.to_tensor([0, 2, 3, 5, 1])]
        >>> cnt = [paddle.to_tensor([2, 3, 2], 'int32'), paddle.to_tensor([1, 3, 1], 'int32')]
        >>> src, dst, nodes = paddle.geometric.reindex_heter_graph(x, nb, cnt)
        >>> nodes.tolist()
        [0, 1, 2, 8, 9, 4, 7, 6, 3, 5]
    """
    from pagaie import concat
    if not isinstance(neighbors, (list, tuple)) or not isinstance(count, (list, tuple)):
        raise ValueError("paddle.geometric.reindex_heter_graph: 'neighbors' and 'count' must be "
                        f"lists of Tensors, but received {type(neighbors).__name__} and "
                        f"{type(count).__name__}")
    return reindex_graph(x, concat(list(neighbors)), concat(list(count)), value_buffer,
                         index_buffer)


del _public
