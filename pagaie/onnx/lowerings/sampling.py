"""ONNX lowerings of sliding blocks and sampling grids: unfold (im2col) as a grouped
convolution and fold (col2im) as a grouped transposed convolution, both with one-hot
kernels; affine_grid as a product with a constant base grid; grid_sample as GridSample."""

from __future__ import annotations

import numpy as np

from pagaie._ops.nn_resample import _paddings4
from pagaie._static.ir import Value
from pagaie.onnx.export import LoweringContext
from pagaie.onnx.lowerings._common import _need, _np_dtype, _pair, register


def _one_hot_kernels(channels: int, kh: int, kw: int, dtype: np.dtype) -> np.ndarray:
    """``[channels * kh * kw, 1, kh, kw]``: per channel, one kernel per window position."""
    eye = np.eye(kh * kw, dtype=dtype).reshape(kh * kw, 1, kh, kw)
    return np.tile(eye, (channels, 1, 1, 1))


def _known(v: Value, axis: int, what: str) -> int:
    d = v._known_dims()[axis]
    if d < 0:
        raise NotImplementedError(f"paddle.onnx.export: {what} needs dimension {axis} of its input known")
    return d


@register("unfold")
def _unfold(ctx, a, outs):
    x = a["x"]
    c = _known(x, 1, "unfold")
    kh, kw = _pair(a["kernel_sizes"])
    top, left, bottom, right = _paddings4(a["paddings"], "unfold")
    w = ctx.constant(_one_hot_kernels(c, kh, kw, _np_dtype(x)))
    cols = ctx.one("Conv", [ctx.name(x), w], group=c, kernel_shape=[kh, kw], strides=_pair(a["strides"]),
                   dilations=_pair(a["dilations"]), pads=[top, left, bottom, right])
    ctx.one("Reshape", [cols, ctx.ints([0, c * kh * kw, -1])], outs[0])


@register("fold")
def _fold(ctx, a, outs):
    x = a["x"]
    ck = _known(x, 1, "fold")
    kh, kw = _pair(a["kernel_sizes"])
    (oh, ow), (sh, sw), (dh, dw) = _pair(a["output_sizes"]), _pair(a["strides"]), _pair(a["dilations"])
    top, left, _, _ = _paddings4(a["paddings"], "fold")
    # Paddle places the blocks with the top/left padding on both sides
    spans = (dh * (kh - 1) + 1, dw * (kw - 1) + 1)
    blocks = [int((size + 2 * lo - span) / st) + 1 for size, lo, span, st in
              ((oh, top, spans[0], sh), (ow, left, spans[1], sw))]
    extra = [size - ((b - 1) * st + span - 2 * lo) for size, b, st, span, lo in
             ((oh, blocks[0], sh, spans[0], top), (ow, blocks[1], sw, spans[1], left))]
    if any(e < 0 or e >= st for e, st in zip(extra, (sh, sw))):
        raise NotImplementedError("paddle.onnx.export: fold with windows larger than the padded output "
                                  "is not supported")
    c = ck // (kh * kw)
    grid = ctx.one("Reshape", [ctx.name(x), ctx.ints([0, ck, blocks[0], blocks[1]])])
    w = ctx.constant(_one_hot_kernels(c, kh, kw, _np_dtype(x)))
    ctx.one("ConvTranspose", [grid, w], outs[0], group=c, kernel_shape=[kh, kw], strides=[sh, sw],
            dilations=[dh, dw], pads=[top, left, top, left], output_padding=extra)


def _base_coords(n: int, align_corners: bool) -> np.ndarray:
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (np.arange(n) * 2.0 + 1.0) / n - 1.0


@register("affine_grid")
def _affine_grid(ctx, a, outs):
    theta, shape = a["theta"], a["out_shape"]
    if isinstance(shape, Value) or any(isinstance(s, Value) for s in shape):
        raise NotImplementedError("paddle.onnx.export: affine_grid with a tensor out_shape is not supported")
    if len(shape) != 4:
        raise NotImplementedError("paddle.onnx.export: affine_grid of a 3-D (5-D out_shape) grid is not supported")
    h, w = int(shape[2]), int(shape[3])
    xs, ys = _base_coords(w, bool(a["align_corners"])), _base_coords(h, bool(a["align_corners"]))
    base = np.stack([np.tile(xs, h), np.repeat(ys, w), np.ones(h * w)], axis=-1)   # [H*W, 3]: x, y, 1
    base = ctx.constant(base.astype(_np_dtype(theta)))
    points = ctx.one("MatMul", [base, ctx.one("Transpose", [ctx.name(theta)], perm=[0, 2, 1])])
    ctx.one("Reshape", [points, ctx.ints([-1, h, w, 2])], outs[0])


@register("grid_sample")
def _grid_sample(ctx: LoweringContext, a: dict, outs: list) -> None:
    _need(ctx, 16, "grid_sample (GridSample)")
    x = a["x"]
    if len(x._known_dims()) != 4:
        raise NotImplementedError("paddle.onnx.export: grid_sample of a 5-D input is not supported")
    mode = a["mode"]
    if ctx.opset >= 20:
        mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    ctx.one("GridSample", [ctx.name(x), ctx.name(a["grid"])], outs[0], mode=mode,
            padding_mode=a["padding_mode"], align_corners=1 if a["align_corners"] else 0)
