"""``paddle.incubate``: experimental APIs: the LookAhead and ModelAverage optimizers, fused
layers and ops (``incubate.nn``), functional autograd (``incubate.autograd``), segment
and graph ops, ``identity_loss``, fused masked softmaxes, ``inference`` and ``cc``; also
structured sparsity (``asp``), ``autotune``, quasi-Newton minimizers
(``optimizer.functional``), ``tensor``, ``multiprocessing`` and the generator-state
functions ``get_rng_state`` / ``set_rng_state`` / ``register_rng_state_as_index``.

The op records live in :mod:`pagaie._ops.incubate_ops` and :mod:`pagaie._ops.incubate_graph`.
As in Paddle, the segment ops, ``graph_send_recv``, ``graph_reindex`` and
``graph_sample_neighbors`` are deprecated aliases that warn on each call.
"""
from pagaie._ops import incubate_graph as _graph, incubate_ops as _ops
from pagaie.incubate import autograd, cc, jit, nn, optimizer  # noqa: F401
from pagaie.incubate.jit import inference
from pagaie.incubate.optimizer import DistributedFusedLamb, LookAhead, ModelAverage
from pagaie.incubate._rng import get_rng_state, register_rng_state_as_index, set_rng_state
from pagaie.utils import deprecated as _deprecated

__all__ = ["LookAhead", "ModelAverage", "softmax_mask_fuse_upper_triangle", "softmax_mask_fuse",
           "graph_send_recv", "graph_khop_sampler", "graph_sample_neighbors", "graph_reindex",
           "segment_sum", "segment_mean", "segment_max", "segment_min", "identity_loss",
           "inference", "cc"]


def _public(fn, name: str, update_to: str | None = None):
    """Give an op record's function its public name; wrap it as Paddle's deprecated alias."""
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    if update_to is None:
        return fn
    return _deprecated(since="2.4.0", update_to=update_to, level=1,
                       reason=f"paddle.incubate.{name} will be removed in future")(fn)


segment_sum = _public(_ops.incubate_segment_sum, "segment_sum", "paddle.geometric.segment_sum")
segment_mean = _public(_ops.incubate_segment_mean, "segment_mean", "paddle.geometric.segment_mean")
segment_max = _public(_ops.incubate_segment_max, "segment_max", "paddle.geometric.segment_max")
segment_min = _public(_ops.incubate_segment_min, "segment_min", "paddle.geometric.segment_min")
graph_send_recv = _public(_ops.incubate_graph_send_recv, "graph_send_recv",
                          "paddle.geometric.send_u_recv")
graph_reindex = _public(_graph.incubate_graph_reindex, "graph_reindex",
                        "paddle.geometric.reindex_graph")
graph_sample_neighbors = _public(_graph.incubate_graph_sample_neighbors, "graph_sample_neighbors",
                                 "paddle.geometric.sample_neighbors")
graph_khop_sampler = _public(_graph.incubate_graph_khop_sampler, "graph_khop_sampler")
identity_loss = _public(_ops.incubate_identity_loss, "identity_loss")
softmax_mask_fuse = _public(_ops.incubate_softmax_mask_fuse, "softmax_mask_fuse")
softmax_mask_fuse_upper_triangle = _public(_ops.incubate_softmax_mask_fuse_upper_triangle,
                                           "softmax_mask_fuse_upper_triangle")
del _public, _deprecated, _ops, _graph
from pagaie.incubate import asp, autotune, multiprocessing, tensor  # noqa: E402,F401 (use the ops above)
