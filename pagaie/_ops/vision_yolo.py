"""The YOLOv3 training loss of ``paddle.vision.ops`` (``yolo_loss``).

One vectorised kernel over torch tensors: the "ignore" decision (predicted boxes whose
best IoU with a ground truth exceeds ``ignore_thresh``) and the anchor matching are
discrete and carry no gradient; the loss terms are plain differentiable torch
expressions, so autograd gives the gradient with respect to ``x``.

Not a top-level family: ``pagaie.vision.ops`` re-exports ``__all__``.
"""
from __future__ import annotations

import numbers

import torch
import torch.nn.functional as F

from pagaie._core.registry import defop
from pagaie._ops._helpers import F32_F64, kernel_dtypes

__all__ = ["yolo_loss"]

_API = "paddle.vision.ops.yolo_loss"


def _check(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, downsample_ratio) -> None:
    """Paddle's checks in its order: argument types (TypeError), kernel dtype, shapes (ValueError)."""
    # Paddle's argument parser checks the ints first, then looks its kernel up (float32/float64
    # only: NotFound, a TypeError while a program is built), then checks the shapes
    for arg, values in (("anchors", anchors), ("anchor_mask", anchor_mask), ("class_num", [class_num]),
                        ("downsample_ratio", [downsample_ratio])):
        for v in values:  # Paddle's argument parser: an int (list of ints) or TypeError
            if not isinstance(v, numbers.Integral):
                raise TypeError(f"{_API}: {arg} must be an int or a list of ints, but received "
                                f"{type(v).__name__} {v!r}")
    kernel_dtypes("vision.ops.yolo_loss", x, F32_F64)
    if x.dim() != 4:
        raise ValueError(f"{_API}: x must be a 4-D tensor [N, C, H, W], but received {x.dim()}-D")
    if x.shape[2] != x.shape[3]:
        raise ValueError(f"{_API}: the height and width of x must be equal, but received {x.shape[2]} and "
                         f"{x.shape[3]}")
    if gt_box.dim() != 3 or gt_box.shape[2] != 4:
        raise ValueError(f"{_API}: gt_box must have shape [N, B, 4], but received {list(gt_box.shape)}")
    if gt_box.dtype != x.dtype:
        raise ValueError(f"{_API}: gt_box must have the dtype of x ({str(x.dtype)[6:]}), but received "
                         f"{str(gt_box.dtype)[6:]}")
    if gt_label.dim() != 2 or tuple(gt_label.shape) != tuple(gt_box.shape[:2]):
        raise ValueError(f"{_API}: gt_label must have shape [N, B] = {list(gt_box.shape[:2])}, but received "
                         f"{list(gt_label.shape)}")
    if gt_label.dtype != torch.int32:
        raise ValueError(f"{_API}: gt_label must be int32, but received {str(gt_label.dtype)[6:]}")
    if gt_score is not None:
        if tuple(gt_score.shape) != tuple(gt_box.shape[:2]):
            raise ValueError(f"{_API}: gt_score must have shape [N, B] = {list(gt_box.shape[:2])}, but received "
                             f"{list(gt_score.shape)}")
        if gt_score.dtype != x.dtype:
            raise ValueError(f"{_API}: gt_score must have the dtype of x ({str(x.dtype)[6:]}), but received "
                             f"{str(gt_score.dtype)[6:]}")
    if x.shape[0] != gt_box.shape[0]:
        raise ValueError(f"{_API}: x and gt_box must have the same batch size, but received {x.shape[0]} and "
                         f"{gt_box.shape[0]}")
    if len(anchors) == 0 or len(anchors) % 2:
        raise ValueError(f"{_API}: anchors must hold a positive, even number of values [w0, h0, ...], but "
                         f"received {len(anchors)} values")
    num_anchors = len(anchors) // 2
    for i in anchor_mask:
        if not 0 <= int(i) < num_anchors:
            raise ValueError(f"{_API}: anchor_mask values must be in [0, {num_anchors}), but received {i}")
    if int(class_num) <= 0:
        raise ValueError(f"{_API}: class_num must be greater than 0, but received {class_num}")
    expect = len(anchor_mask) * (5 + int(class_num))
    if x.shape[1] != expect:
        raise ValueError(f"{_API}: x.shape[1] must be len(anchor_mask) * (5 + class_num) = {expect}, but "
                         f"received {x.shape[1]}")


def _sce(logit: torch.Tensor, target: torch.Tensor | float) -> torch.Tensor:
    """Elementwise sigmoid cross-entropy with logits (stable form)."""
    if not torch.is_tensor(target):
        target = torch.full_like(logit, float(target))
    return F.binary_cross_entropy_with_logits(logit, target, reduction="none")


def _ignore_mask(p: torch.Tensor, gt: torch.Tensor, valid: torch.Tensor, mask_anchors: torch.Tensor,
                 input_size: int, ignore_thresh: float, scale_x_y: float) -> torch.Tensor:
    """``[N, M, H, W]`` bool: the decoded prediction overlaps some valid gt box by more than the threshold."""
    n, m, _, h, w = p.shape
    if gt.shape[1] == 0:
        return torch.zeros((n, m, h, w), dtype=torch.bool, device=p.device)
    dt, dev = p.dtype, p.device
    bias = -0.5 * (scale_x_y - 1.0)
    gx = torch.arange(w, dtype=dt, device=dev).reshape(1, 1, 1, w)
    gy = torch.arange(h, dtype=dt, device=dev).reshape(1, 1, h, 1)
    px = (gx + torch.sigmoid(p[:, :, 0]) * scale_x_y + bias) / h
    py = (gy + torch.sigmoid(p[:, :, 1]) * scale_x_y + bias) / h
    pw = torch.exp(p[:, :, 2]) * mask_anchors[:, 0].reshape(1, m, 1, 1) / input_size
    ph = torch.exp(p[:, :, 3]) * mask_anchors[:, 1].reshape(1, m, 1, 1) / input_size
    px, py, pw, ph = (t.unsqueeze(-1) for t in (px, py, pw, ph))           # [N, M, H, W, 1]
    g = gt.reshape(n, 1, 1, 1, -1, 4)
    ow = torch.minimum(px + pw / 2, g[..., 0] + g[..., 2] / 2) - torch.maximum(px - pw / 2, g[..., 0] - g[..., 2] / 2)
    oh = torch.minimum(py + ph / 2, g[..., 1] + g[..., 3] / 2) - torch.maximum(py - ph / 2, g[..., 1] - g[..., 3] / 2)
    inter = torch.where((ow < 0) | (oh < 0), torch.zeros_like(ow), ow * oh)
    iou = inter / (pw * ph + g[..., 2] * g[..., 3] - inter)
    iou = torch.where(valid.reshape(n, 1, 1, 1, -1), iou, torch.zeros_like(iou))
    return iou.amax(dim=-1) > ignore_thresh


@defop(method=False, amp="black", paddle_types=("yolov3_loss", "pd_op.yolo_loss"))
def yolo_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh, downsample_ratio, gt_score=None,
              use_label_smooth=True, name=None, scale_x_y=1.0):
    """YOLOv3 training loss of one detection head, summed per image.

    ``x`` holds, for each of the ``len(anchor_mask)`` anchors used by this head and each cell
    of the ``H x W`` grid, the raw box offsets ``(tx, ty, tw, th)``, an objectness logit and
    ``class_num`` class logits. Each valid ground-truth box (positive width and height) is
    matched to the anchor (among all ``anchors``) whose shape fits it best; when that anchor
    belongs to ``anchor_mask``, the cell holding the box centre is responsible for it and adds

    * sigmoid cross-entropy on ``tx, ty`` towards the centre's offset within the cell and L1
      loss on ``tw, th`` towards ``log(box size / anchor size)``, weighted by
      ``(2 - w * h) * score``;
    * sigmoid cross-entropy on the class logits towards one-hot targets (``1 - s`` and ``s``
      with label smoothing, ``s = min(1 / class_num, 1 / 40)``), weighted by ``score``;
    * its objectness target, the box's score.

    The objectness logits of all other predictions are pushed towards 0, except those whose
    decoded box overlaps some ground truth with an IoU above ``ignore_thresh``, which are left
    out. ``score`` is ``gt_score`` (1 when not given); a responsible cell whose score is not
    above ``1e-5`` counts as a negative. As in Paddle, the loss adds the terms of every gt box,
    but when several share one cell and anchor only the last one's terms reach the gradient.

    Args:
        x (Tensor): ``[N, len(anchor_mask) * (5 + class_num), H, W]`` head output, float32 or
            float64, with ``H == W``.
        gt_box (Tensor): ``[N, B, 4]`` ground-truth boxes ``(cx, cy, w, h)`` normalised by the
            input image size (same dtype as ``x``); boxes narrower or lower than ``1e-6`` are
            padding. Valid boxes must have their centre in ``[0, 1)``.
        gt_label (Tensor): ``[N, B]`` int32 class labels.
        anchors (list|tuple): all anchor sizes in pixels, ``[w0, h0, w1, h1, ...]``.
        anchor_mask (list|tuple): indices of the anchors used by this head.
        class_num (int): number of classes.
        ignore_thresh (float): IoU above which an unmatched prediction's objectness is not penalised.
        downsample_ratio (int): input image size / ``H``.
        gt_score (Tensor, optional): ``[N, B]`` box weights (e.g. from mixup). Default: None (all 1).
        use_label_smooth (bool, optional): smooth the class targets. Default: True.
        name (str, optional): unused.
        scale_x_y (float, optional): YOLOv4 centre scaling used when decoding predictions for the
            ignore test. Default: 1.0.

    Returns:
        Tensor: ``[N]`` loss of each image, dtype of ``x``.

    Raises:
        ValueError: bad shapes or dtypes, ``H != W``, invalid ``anchors`` / ``anchor_mask`` /
            ``class_num``, or a valid box centre outside the grid.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([1, 2 * (5 + 2), 4, 4])
        >>> gt_box = paddle.to_tensor([[[0.3, 0.6, 0.2, 0.25], [0., 0., 0., 0.]]])
        >>> gt_label = paddle.to_tensor([[1, 0]], dtype='int32')
        >>> loss = paddle.vision.ops.yolo_loss(x, gt_box, gt_label, anchors=[10, 13, 16, 30], anchor_mask=[0, 1],
        ...                                    class_num=2, ignore_thresh=0.7, downsample_ratio=8)
        >>> loss.shape
        paddle.Size([1])
        >>> round(loss.item(), 4)
        28.0873
    """
    _check(x, gt_box, gt_label, gt_score, anchors, anchor_mask, class_num, downsample_ratio)
    n, _, h, w = x.shape
    m, b, c = len(anchor_mask), gt_box.shape[1], int(class_num)
    dt, dev = x.dtype, x.device
    input_size = int(downsample_ratio) * h
    p = x.reshape(n, m, 5 + c, h, w)
    anc = torch.tensor([float(a) for a in anchors], dtype=dt, device=dev).reshape(-1, 2)
    mask_list = [int(i) for i in anchor_mask]
    score = torch.ones((n, b), dtype=dt, device=dev) if gt_score is None else gt_score.detach()
    gt = gt_box.detach()
    gw, gh = gt[..., 2], gt[..., 3]
    valid = (gw.double() >= 1e-6) & (gh.double() >= 1e-6)                 # Paddle's padding test

    with torch.no_grad():
        ignore = _ignore_mask(p.detach(), gt, valid, anc[mask_list], input_size, float(ignore_thresh),
                              float(scale_x_y))
        # best anchor of each gt: IoU of the two boxes both centred at the origin
        aw, ah = anc[:, 0] / input_size, anc[:, 1] / input_size              # [A]
        inter = torch.minimum(gw[..., None], aw) * torch.minimum(gh[..., None], ah)
        shape_iou = inter / (aw * ah + (gw * gh)[..., None] - inter)
        best = shape_iou.argmax(dim=-1)                                      # [N, B], first maximum
        lookup = torch.full((anc.shape[0],), -1, dtype=torch.int64, device=dev)
        for j in reversed(range(m)):                                         # first occurrence wins
            lookup[mask_list[j]] = j
        slot = lookup[best]
        pos = valid & (slot >= 0)
        ii, tt = pos.nonzero(as_tuple=True)
        gi = (gt[ii, tt, 0] * w).to(torch.int64)                             # C truncation
        gj = (gt[ii, tt, 1] * h).to(torch.int64)
        if ii.numel() and (bool((gi < 0).any() | (gi >= w).any()) or bool((gj < 0).any() | (gj >= h).any())):
            raise ValueError(f"{_API}: the centres of valid gt_box entries must lie in [0, 1), but some box "
                             f"centre falls outside the {h}x{w} grid")
        mi = slot[ii, tt]
        s = score[ii, tt]
        # objectness target: ignored -> -1, responsible cell -> score of the last gt assigned to it
        obj = torch.where(ignore, torch.full_like(ignore, -1, dtype=dt), torch.zeros_like(ignore, dtype=dt))
        if ii.numel():
            cell = ((ii * m + mi) * h + gj) * w + gi
            last = torch.full((n * m * h * w,), -1, dtype=torch.int64, device=dev)
            last.scatter_reduce_(0, cell, tt, reduce="amax")
            hit = last >= 0
            flat = obj.reshape(-1)
            flat[hit] = score[torch.div(hit.nonzero().squeeze(1), m * h * w, rounding_mode="floor"), last[hit]]
            obj = flat.reshape(n, m, h, w)
            winner = last[cell] == tt

    loss = torch.zeros(n, dtype=dt, device=dev)
    if ii.numel():
        sel = p[ii, mi, :, gj, gi]                                           # [K, 5 + C]
        # Paddle's gradient kernel writes (not adds) the gradient of a cell, so when several gt
        # boxes share a cell and anchor only the last one's terms carry a gradient.
        sel = torch.where(winner[:, None], sel, sel.detach())
        bx, by = gt[ii, tt, 0], gt[ii, tt, 1]
        bw, bh = gw[ii, tt], gh[ii, tt]
        anchor = anc[best[ii, tt]]
        tx = bx * h - gi.to(dt)
        ty = by * h - gj.to(dt)
        tw = torch.log(bw * input_size / anchor[:, 0])
        th = torch.log(bh * input_size / anchor[:, 1])
        wt = (2.0 - bw * bh) * s
        box = (_sce(sel[:, 0], tx) + _sce(sel[:, 1], ty) + (sel[:, 2] - tw).abs() + (sel[:, 3] - th).abs()) * wt
        if use_label_smooth:
            smooth = min(1.0 / c, 1.0 / 40)
            pos_t, neg_t = 1.0 - smooth, smooth
        else:
            pos_t, neg_t = 1.0, 0.0
        onehot = (gt_label[ii, tt, None].to(torch.int64) == torch.arange(c, device=dev)).to(dt)
        target = onehot * pos_t + (1.0 - onehot) * neg_t
        cls = _sce(sel[:, 5:], target).sum(dim=1) * s
        loss = loss.index_add(0, ii, box + cls)
    lo = p[:, :, 4]
    obj_terms = torch.where(obj > 1e-5, _sce(lo, 1.0) * obj,
                            torch.where(obj > -0.5, _sce(lo, 0.0), torch.zeros_like(lo)))
    return loss + obj_terms.reshape(n, -1).sum(dim=1)
