"""ONNX lowerings of the common op records, attached to the records on import.

The lowerings are grouped by family in the submodules; `_common` holds what they share.

Each lowering is ``fn(ctx, a, outs)`` (see :class:`pagaie.onnx.export.LoweringContext`):
``a`` maps the op's Paddle argument names to their values, ``outs`` are the ONNX names
its outputs must carry. :func:`register` stores a lowering in ``REGISTRY[name].onnx``
so the op record stays the one place that knows about an op. Lowerings follow the
opset in ``ctx.opset`` where ONNX changed an operator's form (Softmax's axis,
attributes that became inputs, LayerNormalization from 17, HardSwish from 14); an op that
needs a newer opset than the one asked for raises NotImplementedError naming it and the
opset it needs. Sizes that are unknown at export (a ``None`` batch) stay dynamic: they are
read with ``Shape`` in the graph, never baked in.
"""
from __future__ import annotations

from pagaie.onnx.lowerings import (  # noqa: F401
    aliases, composites, control_flow, elementwise, indexing, linalg, losses, math_special, nn,
    order_stats, reductions, sampling, sequence, shapes, vision)
from pagaie.onnx.lowerings._common import register

__all__ = ["register"]
