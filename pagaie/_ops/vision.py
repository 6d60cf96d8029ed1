"""Detection ops of ``paddle.vision.ops``: NMS, box coding, prior boxes, YOLO decoding,
RoI pooling/align and position-sensitive RoI pooling (deformable convolution is in
:mod:`pagaie._ops.vision_deform`).

Kernels over torch tensors only (no torchvision). RoI ops loop over boxes in Python
with vectorised work per box; detection post-processing is data-dependent by nature.
Not a top-level family: ``pagaie.vision.ops`` re-exports ``__all__``.
"""
from __future__ import annotations

import math
import numbers

import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._core.tensor import GRAD_FLAG, flag_grad
from pagaie._ops._helpers import dtype_name, kernel_dtypes

__all__ = ["nms", "box_coder", "prior_box", "yolo_box", "roi_align", "roi_pool", "psroi_pool"]


def _round(v: torch.Tensor) -> torch.Tensor:
    """Round half away from zero (C's ``round``), unlike torch's half-to-even."""
    return torch.sign(v) * torch.floor(v.abs() + 0.5)


def _iou_matrix(a: torch.Tensor, b: torch.Tensor, normalized: bool = True) -> torch.Tensor:
    """Pairwise IoU; unnormalised boxes count pixels inclusively, disjoint boxes give 0."""
    off = 0.0 if normalized else 1.0
    area_a = (a[:, 2] - a[:, 0] + off) * (a[:, 3] - a[:, 1] + off)
    area_a = torch.where((a[:, 2] < a[:, 0]) | (a[:, 3] < a[:, 1]), torch.zeros_like(area_a), area_a)
    area_b = (b[:, 2] - b[:, 0] + off) * (b[:, 3] - b[:, 1] + off)
    area_b = torch.where((b[:, 2] < b[:, 0]) | (b[:, 3] < b[:, 1]), torch.zeros_like(area_b), area_b)
    lt = torch.maximum(a[:, None, :2], b[None, :, :2])
    rb = torch.minimum(a[:, None, 2:], b[None, :, 2:])
    disjoint = (b[None, :, 0] > a[:, None, 2]) | (b[None, :, 2] < a[:, None, 0]) | \
        (b[None, :, 1] > a[:, None, 3]) | (b[None, :, 3] < a[:, None, 1])
    wh = rb - lt + off
    inter = torch.where(disjoint, torch.zeros_like(wh[..., 0]), wh[..., 0] * wh[..., 1])
    union = area_a[:, None] + area_b[None, :] - inter
    return torch.where(union > 0, inter / union.clamp(min=1e-30), torch.zeros_like(inter))


def greedy_nms(boxes: torch.Tensor, iou_threshold: float, normalized: bool = True,
               eta: float = 1.0) -> torch.Tensor:
    """Indices kept by greedy NMS over boxes already in priority order.

    A box is kept when its IoU with every kept box is at most the threshold; with
    ``eta < 1`` the threshold shrinks by ``eta`` after each kept box while above 0.5.
    """
    n = boxes.shape[0]
    if n == 0:
        return torch.zeros(0, dtype=torch.int64, device=boxes.device)
    iou = _iou_matrix(boxes, boxes, normalized).cpu()
    thr = float(iou_threshold)
    if eta >= 1.0:
        suppressed = torch.zeros(n, dtype=torch.bool)
        keep = []
        for i in range(n):
            if not suppressed[i]:
                keep.append(i)
                suppressed |= iou[i] > thr
    else:
        keep = []
        for i in range(n):
            if not keep or bool((iou[i, keep] <= thr).all()):
                keep.append(i)
                if thr > 0.5:
                    thr *= eta
    return torch.tensor(keep, dtype=torch.int64, device=boxes.device)


def _nms_static_shape(boxes, *args, **kwargs):
    """In a program the number of kept boxes is read from the values: ``[-1]`` int64, as Paddle."""
    return [-1], torch.int64


@defop(method=False, differentiable=False, paddle_types=("nms", "pd_op.nms"),
       static_shape=_nms_static_shape, static_shape_first="always")
def nms(boxes, iou_threshold=0.3, scores=None, category_idxs=None, categories=None, top_k=None):
    """Non-maximum suppression: drop boxes that overlap a higher-priority kept box.

    Overlap is the IoU of ``[x1, y1, x2, y2]`` boxes; a box is suppressed when its IoU with
    a kept box exceeds ``iou_threshold``.

    Args:
        boxes (Tensor): ``[N, 4]`` boxes.
        iou_threshold (float, optional): IoU above which boxes are suppressed. Default: 0.3.
        scores (Tensor, optional): ``[N]`` scores; without them boxes are taken in the given
            order, with them by decreasing score.
        category_idxs (Tensor, optional): ``[N]`` category of each box; NMS then runs per
            category (requires ``categories`` and ``scores``).
        categories (list, optional): the category ids to process.
        top_k (int, optional): keep at most this many (only with ``category_idxs``).

    Returns:
        Tensor: int64 indices of the kept boxes (by decreasing score when scores are given).

    Examples:
        >>> import pagaie as paddle
        >>> boxes = paddle.to_tensor([[0., 0., 10., 10.], [1., 1., 10., 10.], [20., 20., 30., 30.]])
        >>> paddle.vision.ops.nms(boxes, 0.5, scores=paddle.to_tensor([0.2, 0.9, 0.5])).tolist()
        [1, 2]
    """
    if not isinstance(boxes, torch.Tensor):
        raise _fail(ValueError, "nms", f"argument 'boxes' must be a Tensor, but received {type(boxes).__name__}")
    _check_float("nms", boxes, "boxes")   # Paddle's kernel lookup precedes its shape checks
    _check_boxes("nms", boxes)
    if scores is not None and scores.dim() != 1:
        raise _fail(ValueError, "nms", f"'scores' must be a 1-D tensor of one score per box, but received shape "
                                       f"{list(scores.shape)}")
    if scores is not None and scores.shape[0] != boxes.shape[0]:
        raise _fail(ValueError, "nms", f"'scores' must hold one score per box ({boxes.shape[0]}), but received "
                                       f"shape {list(scores.shape)}")
    if scores is None:
        return greedy_nms(boxes, iou_threshold)
    # Ties keep the order of Paddle's (unstable) argsort, as paddle.argsort does here.
    if category_idxs is None:
        order = torch.argsort(scores, descending=True)
        kept = order[greedy_nms(boxes[order], iou_threshold)]
        if torch.is_grad_enabled() and (scores.requires_grad or getattr(scores, GRAD_FLAG, False)):
            flag_grad(kept, carried=True)   # Paddle's argsort indices say the scores' stop_gradient
        return kept
    if top_k is not None and top_k > scores.shape[0]:
        raise AssertionError("paddle.vision.ops.nms: top_k should be smaller equal than the number of boxes, "
                             f"but received top_k={top_k} for {scores.shape[0]} boxes")
    if categories is None:
        raise AssertionError("paddle.vision.ops.nms: if category_idxs is given, categories which is a list "
                             "of unique id of all categories is necessary")
    keep_mask = torch.zeros(scores.shape[0], dtype=torch.bool, device=scores.device)
    for cat in categories:
        idx = torch.nonzero(category_idxs == int(cat)).reshape(-1)
        if idx.numel() == 0:
            continue
        order = torch.argsort(scores[idx], descending=True)
        keep_mask[idx[order[greedy_nms(boxes[idx][order], iou_threshold)]]] = True
    kept = torch.nonzero(keep_mask).reshape(-1)
    if top_k is not None:  # Paddle takes a top-k here, whose ties order differently from a sort
        k = min(int(top_k), kept.numel())
        if k < 1:  # Paddle's topk refuses k < 1, also when no box is kept
            raise _fail(ValueError, "nms", f"the number of boxes kept, min(top_k, kept), must be >= 1, but "
                                           f"received top_k={top_k} with {kept.numel()} boxes kept")
        return kept[torch.topk(scores[kept], k)[1]]
    return kept[torch.argsort(scores[kept], descending=True)]


@defop(method=False, differentiable=False, paddle_types=("box_coder", "pd_op.box_coder"))
def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size", box_normalized=True,
              axis=0, name=None):
    """Encode boxes as offsets from prior boxes, or decode such offsets back into boxes.

    With priors of centre ``(px, py)`` and size ``(pw, ph)`` and variances ``v``, encoding
    gives ``((tx - px) / pw / v0, (ty - py) / ph / v1, log(tw / pw) / v2, log(th / ph) / v3)``;
    decoding inverts it. Unnormalised boxes (``box_normalized=False``) count pixels
    inclusively (width ``x2 - x1 + 1``).

    Args:
        prior_box (Tensor): ``[M, 4]`` prior boxes ``[x1, y1, x2, y2]``.
        prior_box_var (Tensor|list|tuple): ``[M, 4]`` variances (of the dtype of ``prior_box``), or
            4 numbers for all priors.
        target_box (Tensor): ``[N, 4]`` boxes to encode, or ``[N, M, 4]`` offsets to decode.
        code_type (str, optional): ``'encode_center_size'`` or ``'decode_center_size'``.
        box_normalized (bool, optional): whether coordinates are normalised. Default: True.
        axis (int, optional): when decoding, the axis of ``target_box`` along which the
            priors are broadcast (0: priors index the second axis). Default: 0.
        name (str, optional): unused.

    Returns:
        Tensor: ``[N, M, 4]`` encoded offsets or decoded boxes; like Paddle's kernel it has no
        gradient (``stop_gradient`` is True).

    Examples:
        >>> import pagaie as paddle
        >>> prior = paddle.to_tensor([[0., 0., 2., 2.]])
        >>> target = paddle.to_tensor([[1., 1., 3., 3.]])
        >>> paddle.vision.ops.box_coder(prior, [1., 1., 1., 1.], target).tolist()
        [[[0.5, 0.5, 0.0, 0.0]]]
    """
    # Paddle's Python code checks prior_box_var before anything else
    if isinstance(prior_box_var, (list, tuple)) and len(prior_box_var) != 4:
        raise AssertionError("paddle.vision.ops.box_coder: Input prior_box_var must be Variable or "
                             f"list|tuple with 4 elements, but received {len(prior_box_var)} elements")
    if not isinstance(prior_box_var, (list, tuple, torch.Tensor)):
        raise TypeError("paddle.vision.ops.box_coder: Input prior_box_var must be Variable or list|tuple, "
                        f"but received {type(prior_box_var).__name__}")
    if not isinstance(axis, numbers.Integral) or isinstance(axis, bool):
        raise _fail(TypeError, "box_coder", f"'axis' must be an int, but received {type(axis).__name__} {axis!r}")
    _check_float("box_coder", prior_box, "prior_box")   # the kernel lookup comes first
    _check_boxes("box_coder", prior_box, "prior_box")
    _check_same_dtype("box_coder", prior_box, target_box, "prior_box", "target_box")
    if code_type == "encode_center_size":
        _check_boxes("box_coder", target_box, "target_box")
    elif code_type == "decode_center_size" and (target_box.dim() != 3 or target_box.shape[-1] != 4):
        raise _fail(ValueError, "box_coder", "'target_box' must have shape [N, M, 4] when decoding, but "
                                             f"received {list(target_box.shape)}")
    if code_type == "decode_center_size" and axis not in (0, 1):
        raise _fail(ValueError, "box_coder", f"'axis' must be 0 or 1 when decoding, but received {axis}")
    if code_type == "decode_center_size" and target_box.shape[1 - int(axis == 1)] != prior_box.shape[0]:
        raise _fail(ValueError, "box_coder", f"target_box.shape[{1 - int(axis == 1)}] must equal the number of "
                                             f"priors ({prior_box.shape[0]}) when decoding with axis={axis}, "
                                             f"but received {list(target_box.shape)}")
    if isinstance(prior_box_var, (list, tuple)):
        var = torch.tensor([float(v) for v in prior_box_var], dtype=prior_box.dtype, device=prior_box.device)
    elif isinstance(prior_box_var, torch.Tensor):
        if prior_box_var.dim() != 2:  # Paddle's InferMeta wants [M, 4]; 4 numbers go as a list
            raise _fail(ValueError, "box_coder", f"'prior_box_var' as a Tensor must be 2-D [M, 4], but received "
                                                 f"shape {list(prior_box_var.shape)}")
        if prior_box_var.shape != prior_box.shape:
            raise _fail(ValueError, "box_coder", f"'prior_box_var' must have the shape of 'prior_box' "
                                                 f"{list(prior_box.shape)}, but received {list(prior_box_var.shape)}")
        _check_same_dtype("box_coder", prior_box, prior_box_var, "prior_box", "prior_box_var")
        var = prior_box_var
    off = 0.0 if box_normalized else 1.0
    pw = prior_box[:, 2] - prior_box[:, 0] + off
    ph = prior_box[:, 3] - prior_box[:, 1] + off
    px = prior_box[:, 0] + pw / 2
    py = prior_box[:, 1] + ph / 2
    if code_type == "encode_center_size":
        t = target_box
        tw = t[:, 2] - t[:, 0] + off
        th = t[:, 3] - t[:, 1] + off
        tx = (t[:, 0] + t[:, 2]) / 2
        ty = (t[:, 1] + t[:, 3]) / 2
        out = torch.stack([(tx[:, None] - px[None]) / pw[None], (ty[:, None] - py[None]) / ph[None],
                           torch.log((tw[:, None] / pw[None]).abs()), torch.log((th[:, None] / ph[None]).abs())],
                          dim=-1)
        return out / (var if var.dim() == 1 else var[None])
    if code_type != "decode_center_size":
        raise ValueError("paddle.vision.ops.box_coder: code_type must be 'encode_center_size' or "
                         f"'decode_center_size', but received {code_type!r}")
    t = target_box if target_box.dim() == 3 else target_box[:, None, :] if axis == 0 else target_box[None]
    shape = (1, -1) if axis == 0 else (-1, 1)
    pw, ph, px, py = (v.reshape(shape) for v in (pw, ph, px, py))
    if var.dim() == 1:
        v = [var[i] for i in range(4)]
    else:
        vv = var.reshape(*shape, 4) if axis == 0 else var.reshape(-1, 1, 4)
        v = [vv[..., i] for i in range(4)]
    cx = v[0] * t[..., 0] * pw + px
    cy = v[1] * t[..., 1] * ph + py
    w = torch.exp(v[2] * t[..., 2]) * pw
    h = torch.exp(v[3] * t[..., 3]) * ph
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - off, cy + h / 2 - off], dim=-1)


def _ratio_box(size: float, ratio: float) -> tuple:
    """Half width and height of a prior of this size and aspect ratio (inf/nan for ratio <= 0, as Paddle)."""
    root = math.sqrt(ratio) if ratio >= 0 else math.nan
    return size * root / 2, (size / root if root else math.inf) / 2


def _expand_ratios(aspect_ratios, flip):
    out = [1.0]
    for ar in aspect_ratios:
        if any(abs(ar - o) < 1e-6 for o in out):
            continue
        out.append(ar)
        if flip:
            out.append(1.0 / ar)
    return out


@defop(method=False, differentiable=False, paddle_types=("prior_box", "pd_op.prior_box"))
def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.0], variance=[0.1, 0.1, 0.2, 0.2],
              flip=False, clip=False, steps=[0.0, 0.0], offset=0.5, min_max_aspect_ratios_order=False, name=None):
    """SSD prior (anchor) boxes for every cell of a feature map.

    Args:
        input (Tensor): ``[N, C, H, W]`` feature map (only its size is used).
        image (Tensor): ``[N, C, IH, IW]`` image (only its size is used).
        min_sizes (list|float): minimum box sizes, in pixels.
        max_sizes (list|tuple, optional): maximum sizes, one per minimum size; each adds a
            ``sqrt(min * max)`` box.
        aspect_ratios (list|float, optional): aspect ratios (1.0 is always included). Default: [1.0].
        variance (list, optional): the 4 variances written to every box. Default: [0.1, 0.1, 0.2, 0.2].
        flip (bool, optional): also use the reciprocal of each ratio. Default: False.
        clip (bool, optional): clip boxes to [0, 1]. Default: False.
        steps (list, optional): cell size ``(step_w, step_h)``; a 0 in either derives both from
            the image and feature sizes.
        offset (float, optional): centre offset within a cell. Default: 0.5.
        min_max_aspect_ratios_order (bool, optional): order boxes as min, max, then other
            ratios (Caffe's order) instead of ratios then max. Default: False.
        name (str, optional): unused.

    Returns:
        tuple: ``(boxes, variances)``, each ``[H, W, num_priors, 4]``, boxes normalised to the image.

    Examples:
        >>> import pagaie as paddle
        >>> box, var = paddle.vision.ops.prior_box(paddle.ones([1, 2, 2, 2]), paddle.ones([1, 3, 8, 8]), [4.])
        >>> box.shape, box[0, 0, 0].tolist()
        (paddle.Size([2, 2, 1, 4]), [0.0, 0.0, 0.5, 0.5])
    """
    _check_float("prior_box", input, "input")   # Paddle's kernel lookup precedes its shape checks
    _check_rank("prior_box", input, "input", 4, " [N, C, H, W]")
    _check_rank("prior_box", image, "image", 4, " [N, C, H, W]")
    min_sizes = [float(v) for v in (min_sizes if isinstance(min_sizes, (list, tuple)) else [min_sizes])]
    ratios = [float(v) for v in (aspect_ratios if isinstance(aspect_ratios, (list, tuple)) else [aspect_ratios])]
    steps = steps if isinstance(steps, (list, tuple)) else [steps]
    if len(steps) != 2:
        raise _fail(ValueError, "prior_box", f"steps should be (step_w, step_h), but received {list(steps)}")
    if max_sizes is not None and not isinstance(max_sizes, (list, tuple)):  # Paddle takes len() of it
        raise TypeError(f"paddle.vision.ops.prior_box: 'max_sizes' must be a list or tuple, but received "
                        f"{type(max_sizes).__name__} {max_sizes!r}")
    max_sizes = [float(v) for v in max_sizes] if max_sizes else []
    if max_sizes and len(max_sizes) != len(min_sizes):
        raise _fail(ValueError, "prior_box", f"'max_sizes' must have as many values as 'min_sizes' "
                                             f"({len(min_sizes)}), but received {max_sizes}")
    for mn, mx in zip(min_sizes, max_sizes):
        if not mx > mn:
            raise _fail(ValueError, "prior_box", f"each of 'max_sizes' must exceed its 'min_sizes' value, "
                                                 f"but received max_sizes={max_sizes}, min_sizes={min_sizes}")
    if len(variance) != 4:
        raise _fail(ValueError, "prior_box", f"'variance' must have 4 values, but received {list(variance)}")
    fh, fw = input.shape[2], input.shape[3]
    ih, iw = image.shape[2], image.shape[3]
    step_w, step_h = float(steps[0]), float(steps[1])
    if step_w == 0 or step_h == 0:  # one zero step derives both from the sizes, as Paddle's kernel
        step_w, step_h = iw / max(fw, 1), ih / max(fh, 1)
    ratios = _expand_ratios(ratios, flip)
    sizes = []  # (half width, half height) of each prior, in order
    for s, mn in enumerate(min_sizes):
        if min_max_aspect_ratios_order:
            sizes.append((mn / 2, mn / 2))
            if max_sizes:
                m = math.sqrt(mn * max_sizes[s]) / 2
                sizes.append((m, m))
            sizes += [_ratio_box(mn, ar) for ar in ratios if abs(ar - 1.0) >= 1e-6]
        else:
            sizes += [_ratio_box(mn, ar) for ar in ratios]
            if max_sizes:
                m = math.sqrt(mn * max_sizes[s]) / 2
                sizes.append((m, m))
    dt = input.dtype if input.is_floating_point() else torch.float32
    dev = input.device
    cx = (torch.arange(fw, dtype=torch.float64, device=dev) + offset) * step_w
    cy = (torch.arange(fh, dtype=torch.float64, device=dev) + offset) * step_h
    half = torch.tensor(sizes, dtype=torch.float64, device=dev).reshape(-1, 2)  # [P, 2]
    cxg = cx[None, :, None].expand(fh, fw, len(sizes))
    cyg = cy[:, None, None].expand(fh, fw, len(sizes))
    boxes = torch.stack([(cxg - half[:, 0]) / iw, (cyg - half[:, 1]) / ih,
                         (cxg + half[:, 0]) / iw, (cyg + half[:, 1]) / ih], dim=-1).to(dt)
    if clip:
        boxes = boxes.clamp(0.0, 1.0)
    var = torch.tensor([float(v) for v in variance], dtype=dt, device=dev).expand_as(boxes).contiguous()
    return boxes, var


@defop(method=False, differentiable=False, paddle_types=("yolo_box", "pd_op.yolo_box"))
def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, clip_bbox=True, name=None,
             scale_x_y=1.0, iou_aware=False, iou_aware_factor=0.5):
    """Decode a YOLOv3 head into boxes (in image pixels) and per-class scores.

    Args:
        x (Tensor): ``[N, A * (5 + class_num), H, W]`` head output (``A * (6 + class_num)``
            with ``iou_aware``, the A IoU channels first).
        img_size (Tensor): ``[N, 2]`` int32 image sizes ``(height, width)``.
        anchors (list): anchor sizes ``[w0, h0, w1, h1, ...]`` in pixels.
        class_num (int): number of classes.
        conf_thresh (float): boxes whose confidence is below it get zero boxes and scores.
        downsample_ratio (int): input size / feature map size.
        clip_bbox (bool, optional): clip boxes to the image. Default: True.
        name (str, optional): unused.
        scale_x_y (float, optional): centre scaling of YOLOv4. Default: 1.0.
        iou_aware (bool, optional): the head has IoU channels. Default: False.
        iou_aware_factor (float, optional): weight of the IoU in the confidence. Default: 0.5.

    Returns:
        tuple: ``(boxes [N, A*H*W, 4], scores [N, A*H*W, class_num])``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([1, 2 * 7, 4, 4])
        >>> boxes, scores = paddle.vision.ops.yolo_box(x, paddle.to_tensor([[64, 64]], 'int32'), [10, 13, 16, 30],
        ...                                            2, 0.01, 16)
        >>> boxes.shape, scores.shape
        (paddle.Size([1, 32, 4]), paddle.Size([1, 32, 2]))
    """
    _check_ints("yolo_box", "anchors", anchors)   # Paddle's argument parser, then its kernel lookup
    _check_ints("yolo_box", "downsample_ratio", [downsample_ratio])
    _check_float("yolo_box", x, "x")
    _check_rank("yolo_box", x, "x", 4, " [N, C, H, W]")
    _check_rank("yolo_box", img_size, "img_size", 2, " [N, 2]")
    if img_size.shape[0] != x.shape[0] or img_size.shape[1] != 2:
        raise _fail(ValueError, "yolo_box", f"'img_size' must have shape [N, 2] with N = {x.shape[0]} (the batch "
                                            f"of x), but received {list(img_size.shape)}")
    if not anchors:
        raise _fail(ValueError, "yolo_box", "'anchors' must not be empty")
    if class_num <= 0:
        raise _fail(ValueError, "yolo_box", f"'class_num' must be positive, but received {class_num}")
    per = (6 if iou_aware else 5) + class_num
    if x.shape[1] != len(anchors) // 2 * per:
        raise _fail(ValueError, "yolo_box", f"the channels of x ({x.shape[1]}) must equal the anchor count "
                                            f"({len(anchors) // 2}) * ({'6' if iou_aware else '5'} + class_num) "
                                            f"= {len(anchors) // 2 * per}")
    if img_size.dtype is not torch.int32:
        raise _fail(ValueError, "yolo_box", f"'img_size' must be int32, but received {dtype_name(img_size)}")
    n, _, h, w = x.shape
    an = len(anchors) // 2
    if iou_aware:
        ious = torch.sigmoid(x[:, :an])
        x = x[:, an:]
    p = x.reshape(n, an, 5 + class_num, h, w)
    obj = torch.sigmoid(p[:, :, 4])
    if iou_aware:
        obj = obj.pow(1 - iou_aware_factor) * ious.pow(iou_aware_factor)
    img_h = img_size[:, 0].to(x.dtype).reshape(n, 1, 1, 1)
    img_w = img_size[:, 1].to(x.dtype).reshape(n, 1, 1, 1)
    bias = -0.5 * (scale_x_y - 1.0)
    gx = torch.arange(w, dtype=x.dtype, device=x.device).reshape(1, 1, 1, w)
    gy = torch.arange(h, dtype=x.dtype, device=x.device).reshape(1, 1, h, 1)
    aw = torch.tensor(anchors[0::2], dtype=x.dtype, device=x.device).reshape(1, an, 1, 1)
    ah = torch.tensor(anchors[1::2], dtype=x.dtype, device=x.device).reshape(1, an, 1, 1)
    cx = (gx + torch.sigmoid(p[:, :, 0]) * scale_x_y + bias) * img_w / w
    cy = (gy + torch.sigmoid(p[:, :, 1]) * scale_x_y + bias) * img_h / h
    bw = torch.exp(p[:, :, 2]) * aw * img_w / (downsample_ratio * w)
    bh = torch.exp(p[:, :, 3]) * ah * img_h / (downsample_ratio * h)
    x1, y1, x2, y2 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if clip_bbox:  # comparisons, as Paddle's kernel: a NaN corner clips to the bound
        zero = torch.zeros_like(x1)
        x1 = torch.where(x1 > 0, x1, zero)
        y1 = torch.where(y1 > 0, y1, zero)
        x2 = torch.where(x2 < img_w - 1, x2, (img_w - 1).expand_as(x2))
        y2 = torch.where(y2 < img_h - 1, y2, (img_h - 1).expand_as(y2))
    keep = ~(obj < conf_thresh)  # a NaN confidence is kept, as in Paddle
    boxes = torch.where(keep[..., None], torch.stack([x1, y1, x2, y2], dim=-1), torch.zeros((), dtype=x.dtype))
    scores = torch.where(keep[:, :, None], torch.sigmoid(p[:, :, 5:]) * obj[:, :, None],
                         torch.zeros((), dtype=x.dtype))
    return boxes.reshape(n, an * h * w, 4), scores.permute(0, 1, 3, 4, 2).reshape(n, an * h * w, class_num)


# the dtypes of Paddle's CPU roi_align / roi_pool kernels (also its build-time check)
_ROI_DTYPES = frozenset({torch.int32, torch.float32, torch.float64})


def _fail(kind: type, api: str, text: str) -> Exception:
    return kind(f"paddle.vision.ops.{api}: {text}")


def _check_rank(api: str, t: torch.Tensor, arg: str, rank: int, layout: str = "") -> None:
    """Paddle's InvalidArgument (ValueError) for an input of the wrong rank."""
    if t.dim() != rank:
        raise _fail(ValueError, api, f"'{arg}' must be a {rank}-D tensor{layout}, but received shape "
                                     f"{list(t.shape)}")


def _check_float(api: str, t: torch.Tensor, arg: str, half: bool = False) -> None:
    """Paddle registers these kernels for float32/float64 only: NotFound (a RuntimeError), and
    the TypeError of its build-time dtype check while a program is built."""
    ok = (torch.float32, torch.float64) + ((torch.float16, torch.bfloat16) if half else ())
    if t.dtype not in ok:
        names = "float32 or float64" if not half else "a floating point dtype"
        raise NoKernelError(f"paddle.vision.ops.{api}: '{arg}' must be {names}, but received "
                            f"{dtype_name(t)} (no kernel for this dtype)")


def _check_same_dtype(api: str, a: torch.Tensor, b: torch.Tensor, arg_a: str, arg_b: str) -> None:
    if a.dtype is not b.dtype:
        raise _fail(ValueError, api, f"'{arg_b}' must have the dtype of '{arg_a}' ({dtype_name(a)}), "
                                     f"but received {dtype_name(b)}")


def _check_ints(api: str, arg: str, values) -> None:
    """Paddle's argument parser wants ints (a list of ints) here: TypeError for a float."""
    for v in values:
        if not isinstance(v, numbers.Integral):
            raise _fail(TypeError, api, f"'{arg}' must be an int or a list of ints, but received "
                                        f"{type(v).__name__} {v!r}")


def _check_positive(api: str, arg: str, values, kind: type = ValueError) -> None:
    if any(int(v) <= 0 for v in values):
        raise _fail(kind, api, f"'{arg}' must be positive, but received {values}")


def _check_scale(api: str, spatial_scale: float, kind: type) -> None:
    """Paddle's RoI kernels refuse a spatial_scale <= 0 (roi_pool with OutOfRange: IndexError)."""
    if not float(spatial_scale) > 0:
        raise _fail(kind, api, f"'spatial_scale' must be greater than 0, but received {spatial_scale}")


def _check_boxes(api: str, boxes: torch.Tensor, arg: str = "boxes") -> None:
    if boxes.dim() != 2 or boxes.shape[-1] != 4:
        raise ValueError(f"paddle.vision.ops.{api}: '{arg}' must have shape [N, 4], but received "
                         f"{list(boxes.shape)}")


def _check_rois(api: str, boxes: torch.Tensor, boxes_num: torch.Tensor | None, x: torch.Tensor | None = None,
                num_dtypes: tuple = (torch.int32,)) -> None:
    """Paddle's checks of ``boxes`` and ``boxes_num``: a 1-D integer tensor of one count per image."""
    _check_num_given(api, boxes_num)
    _check_boxes(api, boxes)
    if boxes_num.dim() != 1:
        raise _fail(ValueError, api, f"'boxes_num' must be a 1-D tensor of one count per image, but received "
                                     f"shape {list(boxes_num.shape)}")
    if boxes_num.dtype not in num_dtypes:
        names = " or ".join(str(d).replace("torch.", "") for d in num_dtypes)
        raise _fail(ValueError, api, f"'boxes_num' must be {names}, but received {dtype_name(boxes_num)}")
    if x is not None and not x.is_meta and boxes_num.shape[0] != x.shape[0]:
        raise _fail(ValueError, api, f"'boxes_num' must hold one count per image of x ({x.shape[0]}), but "
                                     f"received shape {list(boxes_num.shape)}")


def _check_num_given(api: str, boxes_num, none_allowed: bool = False) -> None:
    """Paddle's Python assertion and its argument parser's Tensor check of ``boxes_num``, made
    before its kernel lookup and shape checks."""
    if boxes_num is None and not none_allowed:
        raise AssertionError(f"paddle.vision.ops.{api}: boxes_num should not be None in dygraph mode.")
    if boxes_num is not None and not isinstance(boxes_num, torch.Tensor):
        raise _fail(ValueError, api, f"'boxes_num' must be a Tensor, but received {type(boxes_num).__name__}")


def _check_finite_boxes(api: str, boxes: torch.Tensor) -> None:
    """NaN/inf corners have no cell to pool from (Paddle's kernel crashes or reads out of bounds)."""
    if boxes.numel() and not boxes.is_meta and not bool(torch.isfinite(boxes).all()):
        raise _fail(ValueError, api, "'boxes' must hold finite coordinates, but received NaN or inf")


def _symbolic(*tensors: torch.Tensor) -> bool:
    """Whether a RoI kernel runs for shape inference only (meta tensors while a static program
    records): the box counts are not known yet, but the output shape ``[K, C, ph, pw]`` is."""
    return any(t.is_meta for t in tensors)


def _batch_index(boxes_num: torch.Tensor, total: int, api: str = "roi_align") -> list:
    counts = boxes_num.reshape(-1).to(torch.int64).cpu()
    if bool((counts < 0).any()):
        raise _fail(ValueError, api, f"'boxes_num' must not be negative, but received {counts.tolist()}")
    idx = torch.repeat_interleave(torch.arange(counts.numel()), counts)
    if idx.numel() != total:
        raise _fail(ValueError, api, f"the sum of boxes_num ({idx.numel()}) must equal the number of boxes "
                                     f"({total})")
    return idx.tolist()


def _bilinear(img: torch.Tensor, y: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Sample ``img [C, H, W]`` at points ``y, x`` (same shape S) -> ``[C, *S]``; 0 outside (-1, H)."""
    _, hgt, wid = img.shape
    valid = (y >= -1.0) & (y <= hgt) & (x >= -1.0) & (x <= wid)
    y = y.clamp(min=0)
    x = x.clamp(min=0)
    y0 = y.floor().long()
    x0 = x.floor().long()
    ytop = y0 >= hgt - 1
    xtop = x0 >= wid - 1
    y0 = torch.where(ytop, torch.full_like(y0, hgt - 1), y0)
    x0 = torch.where(xtop, torch.full_like(x0, wid - 1), x0)
    y = torch.where(ytop, y0.to(y.dtype), y)
    x = torch.where(xtop, x0.to(x.dtype), x)
    y1 = torch.where(ytop, y0, y0 + 1).clamp(max=hgt - 1)
    x1 = torch.where(xtop, x0, x0 + 1).clamp(max=wid - 1)
    ly, lx = y - y0, x - x0
    hy, hx = 1 - ly, 1 - lx
    flat = img.reshape(img.shape[0], -1)

    def at(yy, xx):
        return flat[:, (yy * wid + xx).reshape(-1)].reshape(img.shape[0], *yy.shape)

    out = at(y0, x0) * (hy * hx) + at(y0, x1) * (hy * lx) + at(y1, x0) * (ly * hx) + at(y1, x1) * (ly * lx)
    return out * valid


def _pair(output_size, api: str):
    """``(pooled_h, pooled_w)`` of an int or a pair (ValueError for another length, as Paddle's unpacking)."""
    if isinstance(output_size, int):
        return output_size, output_size
    if isinstance(output_size, float):
        raise _fail(TypeError, api, f"'output_size' must be an int or a pair of ints, but received {output_size}")
    values = output_size.tolist() if isinstance(output_size, torch.Tensor) else output_size
    if not isinstance(values, (list, tuple)) or len(values) != 2:
        raise _fail(ValueError, api, f"'output_size' must be an int or a pair of ints, but received {values}")
    return tuple(int(v) for v in values)


@defop(method=False, paddle_types=("roi_align", "pd_op.roi_align"))
def roi_align(x, boxes, boxes_num, output_size, spatial_scale=1.0, sampling_ratio=-1, aligned=True, name=None):
    """RoI Align (Mask R-CNN): average of bilinear samples in each output bin of each box.

    Args:
        x (Tensor): ``[N, C, H, W]`` features.
        boxes (Tensor): ``[K, 4]`` boxes ``[x1, y1, x2, y2]`` in input-image coordinates.
        boxes_num (Tensor): ``[N]`` int32 number of boxes of each image (boxes are grouped by image).
        output_size (int|tuple): ``(pooled_h, pooled_w)``.
        spatial_scale (float, optional): feature size / image size. Default: 1.0.
        sampling_ratio (int, optional): samples per bin side; ``<= 0`` uses
            ``ceil(box size / output size)``. Default: -1.
        aligned (bool, optional): shift boxes by half a pixel (pixel-centre convention). Default: True.
        name (str, optional): unused.

    Returns:
        Tensor: ``[K, C, pooled_h, pooled_w]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> out = paddle.vision.ops.roi_align(x, paddle.to_tensor([[0., 0., 4., 4.]]),
        ...                                   paddle.to_tensor([1], 'int32'), 2)
        >>> out.tolist()
        [[[[2.5, 4.5], [10.5, 12.5]]]]
    """
    _check_num_given("roi_align", boxes_num)
    ph, pw = _pair(output_size, "roi_align")
    kernel_dtypes("vision.ops.roi_align", x, _ROI_DTYPES)   # before Paddle's shape checks
    _check_rank("roi_align", x, "x", 4, " [N, C, H, W]")
    _check_rois("roi_align", boxes, boxes_num, x, (torch.int32, torch.int64))
    _check_same_dtype("roi_align", x, boxes, "x", "boxes")
    if not isinstance(aligned, bool):
        raise _fail(TypeError, "roi_align", f"'aligned' must be a bool, but received {type(aligned).__name__} "
                                            f"{aligned!r}")
    _check_positive("roi_align", "output_size", (ph, pw))
    _check_scale("roi_align", spatial_scale, ValueError)
    k = boxes.shape[0]
    out = x.new_zeros((k, x.shape[1], ph, pw))
    if _symbolic(x, boxes, boxes_num):
        return out
    batch = _batch_index(boxes_num, k, "roi_align")
    _check_finite_boxes("roi_align", boxes)
    if k == 0 or x.shape[2] == 0 or x.shape[3] == 0:  # nothing to sample: zeros, as Paddle
        return out
    off = 0.5 if aligned else 0.0
    rois = boxes.detach().to(torch.float64).cpu() * spatial_scale - off
    out_dtype = x.dtype
    if not x.is_floating_point():
        # an int32 input is sampled in float64 and the averages truncated back (Paddle's int32
        # kernel interpolates in integers, which rounds every weight, and so every output, to 0)
        x = x.to(torch.float64)
    res = []
    for i, b in enumerate(batch):
        x1, y1, x2, y2 = rois[i].tolist()
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / ph, rw / pw
        gh = sampling_ratio if sampling_ratio > 0 else max(int(math.ceil(rh / ph)), 1)
        gw = sampling_ratio if sampling_ratio > 0 else max(int(math.ceil(rw / pw)), 1)
        ys = y1 + (torch.arange(ph, dtype=torch.float64)[:, None] * bh
                   + (torch.arange(gh, dtype=torch.float64)[None, :] + 0.5) * bh / gh).reshape(-1)
        xs = x1 + (torch.arange(pw, dtype=torch.float64)[:, None] * bw
                   + (torch.arange(gw, dtype=torch.float64)[None, :] + 0.5) * bw / gw).reshape(-1)
        yy, xx = torch.meshgrid(ys.to(x.dtype).to(x.device), xs.to(x.dtype).to(x.device), indexing="ij")
        v = _bilinear(x[b], yy, xx).reshape(x.shape[1], ph, gh, pw, gw)
        res.append(v.sum(dim=(2, 4)) / max(gh * gw, 1))
    return torch.stack(res).to(out_dtype)


@defop(method=False, paddle_types=("roi_pool", "pd_op.roi_pool"))
def roi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """RoI max pooling (Fast R-CNN): the maximum of each output bin of each box.

    Box corners are scaled by ``spatial_scale`` and rounded to feature cells; empty bins give 0.

    Args:
        x (Tensor): ``[N, C, H, W]`` features.
        boxes (Tensor): ``[K, 4]`` boxes ``[x1, y1, x2, y2]``.
        boxes_num (Tensor): ``[N]`` int32 number of boxes of each image.
        output_size (int|tuple): ``(pooled_h, pooled_w)``.
        spatial_scale (float, optional): feature size / image size. Default: 1.0.
        name (str, optional): unused.

    Returns:
        Tensor: ``[K, C, pooled_h, pooled_w]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(16, dtype='float32').reshape([1, 1, 4, 4])
        >>> out = paddle.vision.ops.roi_pool(x, paddle.to_tensor([[0., 0., 3., 3.]]),
        ...                                  paddle.to_tensor([1], 'int32'), 2)
        >>> out.tolist()
        [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    _check_num_given("roi_pool", boxes_num)
    ph, pw = _pair(output_size, "roi_pool")
    kernel_dtypes("vision.ops.roi_pool", x, _ROI_DTYPES)   # before Paddle's shape checks
    _check_rank("roi_pool", x, "x", 4, " [N, C, H, W]")
    _check_rois("roi_pool", boxes, boxes_num, x)
    _check_same_dtype("roi_pool", x, boxes, "x", "boxes")
    _check_positive("roi_pool", "output_size", (ph, pw), IndexError)  # Paddle: OutOfRange here
    _check_scale("roi_pool", spatial_scale, IndexError)
    k = boxes.shape[0]
    if _symbolic(x, boxes, boxes_num):
        return x.new_empty((k, x.shape[1], ph, pw))
    hgt, wid = x.shape[2], x.shape[3]
    res = []
    rois = _round(boxes.detach().to(torch.float64).cpu() * spatial_scale).long().tolist()
    for i, b in enumerate(_batch_index(boxes_num, k, "roi_pool")):
        x1, y1, x2, y2 = rois[i]
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        bh, bw = rh / ph, rw / pw
        rows = []
        for r in range(ph):
            hs = min(max(int(math.floor(r * bh)) + y1, 0), hgt)
            he = min(max(int(math.ceil((r + 1) * bh)) + y1, 0), hgt)
            cols = []
            for c in range(pw):
                ws = min(max(int(math.floor(c * bw)) + x1, 0), wid)
                we = min(max(int(math.ceil((c + 1) * bw)) + x1, 0), wid)
                if he <= hs or we <= ws:
                    cols.append(x.new_zeros(x.shape[1]))
                else:
                    cols.append(x[b, :, hs:he, ws:we].amax(dim=(1, 2)))
            rows.append(torch.stack(cols, dim=-1))
        res.append(torch.stack(rows, dim=-2))
    if not res:
        return x.new_zeros((0, x.shape[1], ph, pw))
    return torch.stack(res)


@defop(method=False, paddle_types=("psroi_pool", "pd_op.psroi_pool"))
def psroi_pool(x, boxes, boxes_num, output_size, spatial_scale=1.0, name=None):
    """Position-sensitive RoI average pooling (R-FCN).

    Output channel ``c`` of bin ``(i, j)`` averages input channel ``(c * ph + i) * pw + j``
    over the bin, so the input needs ``C = out_channels * ph * pw`` channels.

    Args:
        x (Tensor): ``[N, C, H, W]`` features.
        boxes (Tensor): ``[K, 4]`` boxes ``[x1, y1, x2, y2]``.
        boxes_num (Tensor): ``[N]`` int32 number of boxes of each image.
        output_size (int|tuple): ``(pooled_h, pooled_w)``.
        spatial_scale (float, optional): feature size / image size. Default: 1.0.
        name (str, optional): unused.

    Returns:
        Tensor: ``[K, C / (ph * pw), ph, pw]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.ones([1, 8, 4, 4])
        >>> out = paddle.vision.ops.psroi_pool(x, paddle.to_tensor([[0., 0., 3., 3.]]),
        ...                                    paddle.to_tensor([1], 'int32'), 2)
        >>> out.shape
        paddle.Size([1, 2, 2, 2])
    """
    ph, pw = _pair(output_size, "psroi_pool")
    if x.dim() != 4:
        raise AssertionError("paddle.vision.ops.psroi_pool: Input features with shape should be (N, C, H, W), "
                             f"but received shape {list(x.shape)}")
    if ph * pw == 0:
        raise ValueError("paddle.vision.ops.psroi_pool: output_size should not contain 0.")
    _check_num_given("psroi_pool", boxes_num, none_allowed=True)   # (None: asserted below)
    _check_float("psroi_pool", x, "x")   # the kernel lookup precedes Paddle's shape checks
    _check_rois("psroi_pool", boxes, boxes_num, x)
    _check_same_dtype("psroi_pool", x, boxes, "x", "boxes")
    oc = x.shape[1] // (ph * pw)
    if not x.is_meta and (oc == 0 or oc * ph * pw != x.shape[1]):  # meta: channels may be unknown
        raise ValueError(f"paddle.vision.ops.psroi_pool: the channels of x ({x.shape[1]}) must be a positive "
                         f"multiple of output_size[0] * output_size[1] ({ph} * {pw})")
    if not x.is_meta and oc == 1:  # Paddle's shape check wants at least 2 output channels
        raise ValueError(f"paddle.vision.ops.psroi_pool: the output channels, x.shape[1] / (output_size[0] * "
                         f"output_size[1]) = {x.shape[1]} / ({ph} * {pw}), must be greater than 1")
    _check_scale("psroi_pool", spatial_scale, ValueError)
    hgt, wid = x.shape[2], x.shape[3]
    k = boxes.shape[0]
    if _symbolic(x, boxes, boxes_num):
        return x.new_empty((k, oc, ph, pw))
    _check_finite_boxes("psroi_pool", boxes)
    r = boxes.detach().to(torch.float64).cpu()
    res = []
    for i, b in enumerate(_batch_index(boxes_num, k, "psroi_pool")):
        x1 = float(_round(r[i, 0])) * spatial_scale
        y1 = float(_round(r[i, 1])) * spatial_scale
        x2 = float(_round(r[i, 2]) + 1.0) * spatial_scale
        y2 = float(_round(r[i, 3]) + 1.0) * spatial_scale
        rh, rw = max(y2 - y1, 0.1), max(x2 - x1, 0.1)
        bh, bw = rh / ph, rw / pw
        out = x.new_zeros((oc, ph, pw))
        for a in range(ph):
            hs = min(max(int(math.floor(bh * a + y1)), 0), hgt)
            he = min(max(int(math.ceil(bh * (a + 1) + y1)), 0), hgt)
            for c in range(pw):
                ws = min(max(int(math.floor(bw * c + x1)), 0), wid)
                we = min(max(int(math.ceil(bw * (c + 1) + x1)), 0), wid)
                if he <= hs or we <= ws:
                    continue
                chans = torch.arange(oc, device=x.device) * (ph * pw) + a * pw + c
                out[:, a, c] = x[b, chans, hs:he, ws:we].mean(dim=(1, 2))
        res.append(out)
    if not res:
        return x.new_zeros((0, oc, ph, pw))
    return torch.stack(res)
