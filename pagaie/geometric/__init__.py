"""``paddle.geometric``: graph learning ops: segment reductions, message passing
(``send_u_recv``, ``send_ue_recv``, ``send_uv``), neighbour sampling and subgraph reindexing.

The op records live in :mod:`pagaie._ops.geometric`; the deprecated ``paddle.incubate``
aliases share their kernels (:mod:`pagaie._ops.incubate_ops`, :mod:`pagaie._ops.incubate_graph`).
"""
from __future__ import annotations

from pagaie._ops import geometric as _g

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
sample_neighbors = _public(_g.geometric_sample_neighbors, "sample_neighbors")
reindex_graph = _public(_g.geometric_reindex_graph, "reindex_graph")


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
