"""Detection post-processing ops of ``paddle.vision.ops``: FPN level assignment, RPN
proposal generation and Matrix NMS. Data-dependent output sizes, so eager-only in spirit;
kernels over torch tensors, per-image Python loops.

Not a top-level family: ``pagaie.vision.ops`` re-exports ``__all__``.
"""
from __future__ import annotations

import math
import numbers

import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import dtype_name
from pagaie._ops.vision import _check_boxes, _check_float, _fail, _iou_matrix, greedy_nms

__all__ = ["distribute_fpn_proposals", "generate_proposals", "matrix_nms"]

_BBOX_CLIP = math.log(1000.0 / 16.0)


def _fpn_static_shape(fpn_rois, min_level, max_level, *args, **kwargs) -> tuple | None:
    """Static rule: how many RoIs go to each level is known when the program runs (-1)."""
    if not isinstance(min_level, numbers.Integral) or not isinstance(max_level, numbers.Integral):
        return None
    from pagaie._core import dtype as _dt
    levels = max(int(max_level) - int(min_level) + 1, 0)
    return ([[[-1, 4]] * levels, [-1, 1], [[-1]] * levels],
            [_dt.to_torch_dtype(fpn_rois.dtype), torch.int32, torch.int32])


@defop(method=False, differentiable=False,
       paddle_types=("distribute_fpn_proposals", "pd_op.distribute_fpn_proposals"),
       static_shape=_fpn_static_shape, static_shape_first="always")
def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale, pixel_offset=False,
                             rois_num=None, name=None):
    """Assign each RoI to an FPN level by its size: ``floor(refer_level + log2(sqrt(area) / refer_scale))``.

    Args:
        fpn_rois (Tensor): ``[R, 4]`` RoIs ``[x1, y1, x2, y2]``, grouped by image.
        min_level (int): the lowest level (levels are clipped to ``[min_level, max_level]``).
        max_level (int): the highest level.
        refer_level (int): the level of a RoI of size ``refer_scale``.
        refer_scale (int): the reference RoI size.
        pixel_offset (bool, optional): sizes count pixels inclusively (``x2 - x1 + 1``). Default: False.
        rois_num (Tensor): ``[N]`` int32 number of RoIs of each image (required).
        name (str, optional): unused.

    Returns:
        tuple: ``(multi_rois, restore_ind, rois_num_per_level)``: the RoIs of each level (a list),
        the ``[R, 1]`` int32 index that restores the original order from their concatenation,
        and the per-level ``[N]`` int32 counts of each image.

    Examples:
        >>> import pagaie as paddle
        >>> rois = paddle.to_tensor([[0., 0., 10., 10.], [0., 0., 200., 200.]])
        >>> multi, restore, nums = paddle.vision.ops.distribute_fpn_proposals(
        ...     rois, 2, 5, 4, 224, rois_num=paddle.to_tensor([2], 'int32'))
        >>> [m.shape[0] for m in multi], restore.reshape([-1]).tolist()
        ([1, 1, 0, 0], [0, 1])
    """
    if not (max_level > 0 and min_level > 0):
        raise AssertionError("min_level and max_level should be greater than 0")
    num_lvl = max_level - min_level + 1
    if not num_lvl > 1:
        raise AssertionError("max_level should be greater than min_level")
    if not num_lvl < 100:
        raise AssertionError("Only support max to 100 levels, (max_level - min_level + 1 < 100)")
    if rois_num is None:   # Paddle asserts it while a program is built too
        err = AssertionError("rois_num should not be None in dygraph mode.")
        err.static_type = AssertionError
        raise err
    api = "distribute_fpn_proposals"
    for arg, v in (("min_level", min_level), ("max_level", max_level), ("refer_level", refer_level),
                   ("refer_scale", refer_scale)):
        if not isinstance(v, numbers.Integral):
            raise _fail(TypeError, api, f"'{arg}' must be an int, but received {type(v).__name__} {v!r}")
    if not isinstance(rois_num, torch.Tensor):
        raise _fail(ValueError, api, f"'rois_num' must be a Tensor, but received {type(rois_num).__name__}")
    _check_boxes(api, fpn_rois, "fpn_rois")
    _check_float(api, fpn_rois, "fpn_rois", half=True)
    counts = rois_num.reshape(-1).to(torch.int64)
    total = int(counts.sum())
    if total > fpn_rois.shape[0]:  # Paddle's OutOfRange
        raise IndexError(f"paddle.vision.ops.distribute_fpn_proposals: rois_num adds up to {total} RoIs, "
                         f"more than the {fpn_rois.shape[0]} rows of fpn_rois")
    fpn_rois = fpn_rois[:total]  # Paddle reads only the RoIs that rois_num counts
    off = 1.0 if pixel_offset else 0.0
    w = fpn_rois[:, 2] - fpn_rois[:, 0] + off
    h = fpn_rois[:, 3] - fpn_rois[:, 1] + off
    area = torch.where((w < 0) | (h < 0), torch.zeros_like(w), w * h)
    scale = torch.sqrt(area.to(torch.float64))
    lvl = torch.floor(torch.log2(scale / refer_scale + 1e-8) + refer_level)
    lvl = lvl.clamp(min_level, max_level).to(torch.int64)
    img = torch.repeat_interleave(torch.arange(counts.numel(), device=fpn_rois.device), counts)
    multi, nums, order = [], [], []
    for level in range(min_level, max_level + 1):
        sel = torch.nonzero(lvl == level).reshape(-1)
        order.append(sel)
        multi.append(fpn_rois[sel])
        nums.append(torch.bincount(img[sel], minlength=counts.numel()).to(torch.int32))
    perm = torch.cat(order)
    restore = torch.empty_like(perm)
    restore[perm] = torch.arange(perm.numel(), device=perm.device)
    return multi, restore.to(torch.int32).reshape(-1, 1), nums


def _decode(anchors, deltas, variances, off):
    aw = anchors[:, 2] - anchors[:, 0] + off
    ah = anchors[:, 3] - anchors[:, 1] + off
    ax = anchors[:, 0] + 0.5 * aw
    ay = anchors[:, 1] + 0.5 * ah
    d = deltas * variances if variances is not None else deltas
    cx = d[:, 0] * aw + ax
    cy = d[:, 1] * ah + ay
    w = torch.exp(torch.clamp(d[:, 2], max=_BBOX_CLIP)) * aw
    h = torch.exp(torch.clamp(d[:, 3], max=_BBOX_CLIP)) * ah
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2 - off, cy + h / 2 - off], dim=1)


def _static_rois_num_error(_eager_message: str) -> AssertionError:
    """``generate_proposals`` without ``return_rois_num`` while a program is built: Paddle's wording there."""
    return AssertionError("return_rois_num should be True in PaddlePaddle inner op mode.")


def _proposals_static_shape(scores, *args, **kwargs) -> tuple:
    """Static rule: the number of proposals is known when the program runs (-1), the count
    per image has one entry per image (int32)."""
    from pagaie._core import dtype as _dt
    dt = _dt.to_torch_dtype(scores.dtype)
    return [[-1, 4], [-1, 1], [scores.shape[0]]], [dt, dt, torch.int32]


@defop(method=False, differentiable=False, paddle_types=("generate_proposals", "pd_op.generate_proposals"),
       static_shape=_proposals_static_shape, static_shape_first="always")
def generate_proposals(scores, bbox_deltas, img_size, anchors, variances, pre_nms_top_n=6000, post_nms_top_n=1000,
                       nms_thresh=0.5, min_size=0.1, eta=1.0, pixel_offset=False, return_rois_num=False,
                       name=None):
    """RPN proposals: decode anchor deltas, clip to the image, drop small boxes, apply NMS.

    Args:
        scores (Tensor): ``[N, A, H, W]`` objectness scores.
        bbox_deltas (Tensor): ``[N, 4A, H, W]`` anchor deltas.
        img_size (Tensor): ``[N, 2]`` image sizes ``(height, width)``.
        anchors (Tensor): ``[H, W, A, 4]`` anchors.
        variances (Tensor): ``[H, W, A, 4]`` anchor variances.
        pre_nms_top_n (int, optional): best-scored anchors kept before NMS. Default: 6000.
        post_nms_top_n (int, optional): proposals kept after NMS. Default: 1000.
        nms_thresh (float, optional): NMS IoU threshold. Default: 0.5.
        min_size (float, optional): minimum proposal side (at least 1). Default: 0.1.
        eta (float, optional): adaptive NMS threshold decay. Default: 1.0.
        pixel_offset (bool, optional): sizes count pixels inclusively. Default: False.
        return_rois_num (bool, optional): must be True in dynamic mode. Default: False.
        name (str, optional): unused.

    Returns:
        tuple: ``(rpn_rois [R, 4], rpn_roi_probs [R, 1], rpn_rois_num [N] int32)``.

    Examples:
        >>> import pagaie as paddle
        >>> scores = paddle.rand([1, 2, 4, 4])
        >>> deltas = paddle.zeros([1, 8, 4, 4])
        >>> anchors = paddle.to_tensor([[0., 0., 8., 8.], [0., 0., 16., 16.]]).tile([4, 4, 1, 1])
        >>> rois, probs, num = paddle.vision.ops.generate_proposals(
        ...     scores, deltas, paddle.to_tensor([[32., 32.]]), anchors, paddle.ones([4, 4, 2, 4]),
        ...     return_rois_num=True)
        >>> rois.shape[1], num.tolist()
        (4, [2])
    """
    if not return_rois_num:
        err = AssertionError("return_rois_num should be True in dygraph mode.")
        err.static_type = _static_rois_num_error
        raise err
    _check_proposal_inputs(scores, bbox_deltas, img_size, anchors, variances)
    off = 1.0 if pixel_offset else 0.0
    n, a, hgt, wid = scores.shape
    anc = anchors.reshape(-1, 4)
    var = variances.reshape(-1, 4)
    all_rois, all_probs, nums = [], [], []
    for i in range(n):
        sc = scores[i].permute(1, 2, 0).reshape(-1)
        dl = bbox_deltas[i].reshape(a, 4, hgt, wid).permute(2, 3, 0, 1).reshape(-1, 4)
        order = torch.argsort(sc, descending=True, stable=True)
        if 0 < pre_nms_top_n < sc.numel():
            order = order[:int(pre_nms_top_n)]
        sc, dl = sc[order], dl[order]
        props = _decode(anc[order], dl, var[order], off)
        im_h, im_w = float(img_size[i, 0]), float(img_size[i, 1])
        props = torch.stack([props[:, 0].clamp(0, im_w - off), props[:, 1].clamp(0, im_h - off),
                             props[:, 2].clamp(0, im_w - off), props[:, 3].clamp(0, im_h - off)], dim=1)
        ms = max(float(min_size), 1.0)
        ws = props[:, 2] - props[:, 0] + off
        hs = props[:, 3] - props[:, 1] + off
        keep = (ws >= ms) & (hs >= ms)
        if pixel_offset:
            keep &= (props[:, 0] + ws / 2 <= im_w) & (props[:, 1] + hs / 2 <= im_h)
        keep = torch.nonzero(keep).reshape(-1)
        if keep.numel() == 0:
            props, sc = props.new_zeros((1, 4)), sc.new_zeros((1,))
        else:
            props, sc = props[keep], sc[keep]
            if nms_thresh > 0:
                kept = greedy_nms(props, nms_thresh, normalized=not pixel_offset, eta=eta)
                if 0 < post_nms_top_n < kept.numel():
                    kept = kept[:int(post_nms_top_n)]
                props, sc = props[kept], sc[kept]
        all_rois.append(props)
        all_probs.append(sc.reshape(-1, 1))
        nums.append(props.shape[0])
    return (torch.cat(all_rois), torch.cat(all_probs),
            torch.tensor(nums, dtype=torch.int32, device=scores.device))


def _check_proposal_inputs(scores, bbox_deltas, img_size, anchors, variances) -> None:
    """Paddle's kernel reads every input as the dtype of ``scores`` (a mix is its InvalidArgument)."""
    api = "generate_proposals"
    if scores.dim() != 4:
        raise _fail(ValueError, api, f"'scores' must be a 4-D tensor [N, A, H, W], but received shape "
                                     f"{list(scores.shape)}")
    for arg, t in (("bbox_deltas", bbox_deltas), ("img_size", img_size), ("anchors", anchors),
                   ("variances", variances)):
        if t.dtype is not scores.dtype:
            raise _fail(ValueError, api, f"'{arg}' must have the dtype of 'scores' ({dtype_name(scores)}), but "
                                         f"received {dtype_name(t)}")
    n, a, hgt, wid = scores.shape
    if scores.is_meta:
        return
    if list(bbox_deltas.shape) != [n, 4 * a, hgt, wid]:
        raise _fail(ValueError, api, f"'bbox_deltas' must have shape [N, 4 * A, H, W] = {[n, 4 * a, hgt, wid]}, "
                                     f"but received {list(bbox_deltas.shape)}")
    for arg, t in (("anchors", anchors), ("variances", variances)):
        if t.numel() != hgt * wid * a * 4:   # IndexError: Paddle's gather runs past the boxes
            raise _fail(IndexError, api, f"'{arg}' must hold H * W * A boxes of 4 values ({hgt * wid * a * 4} "
                                         f"values), but received shape {list(t.shape)}")
    if img_size.dim() != 2 or list(img_size.shape) != [n, 2]:
        raise _fail(ValueError, api, f"'img_size' must have shape [N, 2] = {[n, 2]}, but received "
                                     f"{list(img_size.shape)}")


def _partial_sort(items: list, k: int, before) -> list:
    """The first ``k`` of ``items`` in the order of C++'s ``std::partial_sort`` (libstdc++: heap select,
    then heap sort), so that tied scores come out in the order of Paddle's CPU kernels.
    ``before(a, b)`` is the strict "a goes first" comparison."""
    a = list(items)
    if k <= 0:
        return []

    def push(hole: int, top: int, value) -> None:
        parent = (hole - 1) // 2
        while hole > top and before(a[parent], value):
            a[hole] = a[parent]
            hole, parent = parent, (parent - 1) // 2
        a[hole] = value

    def adjust(hole: int, length: int, value) -> None:
        top, child = hole, hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if before(a[child], a[child - 1]):
                child -= 1
            a[hole] = a[child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            a[hole] = a[child - 1]
            hole = child - 1
        push(hole, top, value)

    if k >= 2:  # make_heap over the first k
        parent = (k - 2) // 2
        while True:
            adjust(parent, k, a[parent])
            if parent == 0:
                break
            parent -= 1
    for i in range(k, len(a)):  # heap select
        if before(a[i], a[0]):
            value, a[i] = a[i], a[0]
            adjust(0, k, value)
    last = k
    while last > 1:  # sort_heap
        last -= 1
        value, a[last] = a[last], a[0]
        adjust(0, last, value)
    return a[:k]


def _check_matrix_nms(bboxes: torch.Tensor, scores: torch.Tensor) -> None:
    api = "paddle.vision.ops.matrix_nms"
    if scores.dtype not in (torch.float32, torch.float64):   # the kernel lookup comes first
        raise NoKernelError(f"{api}: 'scores' must be float32 or float64, but received "
                            f"{str(scores.dtype).replace('torch.', '')} (no kernel for this dtype)")
    if scores.dim() != 3:
        raise ValueError(f"{api}: 'scores' must be a 3-D tensor [N, C, M], but received shape {list(scores.shape)}")
    if bboxes.dim() != 3:
        raise ValueError(f"{api}: 'bboxes' must be a 3-D tensor [N, M, 4], but received shape {list(bboxes.shape)}")
    if bboxes.shape[2] != 4:
        raise ValueError(f"{api}: the last dimension of 'bboxes' must be 4, but received shape "
                         f"{list(bboxes.shape)}")
    if bboxes.shape[1] != scores.shape[2]:
        raise ValueError(f"{api}: 'bboxes' and 'scores' must hold the same number of boxes M, but received "
                         f"bboxes {list(bboxes.shape)} and scores {list(scores.shape)}")
    if bboxes.dtype is not scores.dtype:
        raise ValueError(f"{api}: 'bboxes' must have the dtype of 'scores' "
                         f"({str(scores.dtype).replace('torch.', '')}), but received "
                         f"{str(bboxes.dtype).replace('torch.', '')}")


@defop(method=False, differentiable=False, paddle_types=("matrix_nms", "pd_op.matrix_nms"))
def matrix_nms(bboxes, scores, score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian=False,
               gaussian_sigma=2.0, background_label=0, normalized=True, return_index=False, return_rois_num=True,
               name=None):
    """Matrix NMS (SOLOv2): decay each box's score by its overlap with higher-scored boxes of its class.

    Args:
        bboxes (Tensor): ``[N, M, 4]`` boxes.
        scores (Tensor): ``[N, C, M]`` per-class scores.
        score_threshold (float): candidates need a score above it.
        post_threshold (float): detections need a decayed score above it.
        nms_top_k (int): best candidates kept per class (-1: all).
        keep_top_k (int): detections kept per image (-1: all).
        use_gaussian (bool, optional): gaussian decay instead of linear. Default: False.
        gaussian_sigma (float, optional): sigma of the gaussian decay. Default: 2.0.
        background_label (int, optional): class to skip (-1: none). Default: 0.
        normalized (bool, optional): whether coordinates are normalised. Default: True.
        return_index (bool, optional): also return the indices of the kept boxes. Default: False.
        return_rois_num (bool, optional): also return the detections per image. Default: True.
        name (str, optional): unused.

    Returns:
        tuple: ``(out [R, 6] as (label, score, x1, y1, x2, y2), rois_num [N] int32 or None,
        index [R, 1] or None)``.

    Examples:
        >>> import pagaie as paddle
        >>> boxes = paddle.to_tensor([[[0., 0., 1., 1.], [0., 0., 1., 0.9]]])
        >>> scores = paddle.to_tensor([[[0.0, 0.0], [0.9, 0.8]]])
        >>> out, num, _ = paddle.vision.ops.matrix_nms(boxes, scores, 0.1, 0.1, -1, -1)
        >>> out.shape, num.tolist()
        (paddle.Size([1, 6]), [1])
    """
    # Paddle's order: its argument parser's int checks, the kernel lookup, then the shapes
    for arg, v in (("nms_top_k", nms_top_k), ("keep_top_k", keep_top_k), ("background_label", background_label)):
        if not isinstance(v, numbers.Integral):
            raise _fail(TypeError, "matrix_nms", f"'{arg}' must be an int, but received {type(v).__name__} {v!r}")
    _check_matrix_nms(bboxes, scores)
    n, c, m = scores.shape
    outs, idxs, nums = [], [], []
    for i in range(n):
        dets = []  # (score, label, box index)
        for cls in range(c):
            if cls == background_label:
                continue
            s = scores[i, cls]
            cand = torch.nonzero(s > score_threshold).reshape(-1)
            if cand.numel() == 0:
                continue
            num_pre = cand.numel() if nms_top_k <= -1 else min(int(nms_top_k), cand.numel())
            if num_pre == 0:
                continue
            vals = s[cand].tolist()
            picked = _partial_sort(list(range(cand.numel())), num_pre, lambda a, b: vals[a] > vals[b])
            order = cand[torch.tensor(picked, dtype=torch.int64, device=cand.device)]
            ss = s[order]
            iou = torch.triu(_iou_matrix(bboxes[i, order], bboxes[i, order], normalized), diagonal=1)
            iou_max = iou.max(dim=0).values  # best overlap of each box with a higher-scored one
            if use_gaussian:
                decay = torch.exp((iou_max[:, None] ** 2 - iou ** 2) * gaussian_sigma)
            else:
                decay = (1 - iou) / (1 - iou_max[:, None])
            decay = torch.where(torch.triu(torch.ones_like(iou, dtype=torch.bool), diagonal=1), decay,
                                torch.ones_like(decay)).min(dim=0).values
            ds = ss * decay
            ok = torch.nonzero(ds > post_threshold).reshape(-1)
            for j in ok.tolist():
                dets.append((float(ds[j]), cls, int(order[j]), ds[j]))
        num_det = len(dets) if keep_top_k <= -1 else min(int(keep_top_k), len(dets))
        dets = [dets[p] for p in _partial_sort(list(range(len(dets))), num_det,
                                               lambda a, b: dets[a][0] > dets[b][0])]
        for _, cls, j, sv in dets:
            outs.append(torch.cat([torch.tensor([float(cls)], dtype=bboxes.dtype, device=bboxes.device),
                                   sv.reshape(1).to(bboxes.dtype), bboxes[i, j]]))
            idxs.append(i * m + j)
        nums.append(len(dets))
    out = torch.stack(outs) if outs else bboxes.new_zeros((0, 6))
    index = torch.tensor(idxs, dtype=torch.int32, device=bboxes.device).reshape(-1, 1)
    rois_num = torch.tensor(nums, dtype=torch.int32, device=bboxes.device)
    return out, (rois_num if return_rois_num else None), (index if return_index else None)
