"""ONNX lowerings of the vision ops ONNX has an operator for: roi_align (RoiAlign)."""

from __future__ import annotations

import numpy as np
import torch

from pagaie.onnx.lowerings._common import _cast_to, _dim, _int64, _need, _pair, _range_to, _sq, _unsq, register


@register("roi_align")
def _roi_align(ctx, a, outs):
    _need(ctx, 16, "roi_align (RoiAlign with coordinate_transformation_mode)")
    boxes, counts = a["boxes"], a["boxes_num"]
    bn = ctx.name(boxes)
    # the image of each box, from the per-image box counts: how many running totals it has passed
    ends = ctx.one("CumSum", [_int64(ctx, counts),
                              ctx.constant(np.asarray(0, np.int64))])
    k = _sq(ctx, _dim(ctx, bn, 0), [0])
    rows = _range_to(ctx, k)
    passed = _cast_to(ctx, ctx.one("GreaterOrEqual", [_unsq(ctx, rows, [1]), _unsq(ctx, ends, [0])]),
                      torch.bool, torch.int64)
    batch = ctx.one("ReduceSum", [passed, ctx.ints([1])], keepdims=0)
    ph, pw = _pair(a["output_size"])
    ratio = int(a["sampling_ratio"])
    ctx.one("RoiAlign", [ctx.name(a["x"]), bn, batch], outs[0], mode="avg", output_height=ph, output_width=pw,
            sampling_ratio=max(ratio, 0), spatial_scale=float(a["spatial_scale"]),
            coordinate_transformation_mode="half_pixel" if a["aligned"] else "output_half_pixel")
