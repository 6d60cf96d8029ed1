"""Assorted ``paddle.nn.functional`` ops: sequence_mask, gather_tree, temporal_shift,
affine_grid, grid_sample and class_center_sample (single process).

Not a top-level family: these records are exported by ``pagaie.nn.functional``.
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np
import torch
import torch.nn.functional as F

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import F32_F64, float_kernel, int_list, kernel_dtypes, torch_dtype

__all__ = ["sequence_mask", "gather_tree", "temporal_shift", "affine_grid", "grid_sample",
           "class_center_sample"]


_SEQUENCE_MASK_DTYPES = (torch.int32, torch.int64, torch.float32, torch.float64)


@defop(paddle_types=("sequence_mask", "pd_op.sequence_mask"), method=False, differentiable=False)
def sequence_mask(x, maxlen=None, dtype="int64", name=None):
    """Mask of valid positions: ``out[..., j] = j < x[...]``.

    Args:
        x (Tensor): lengths, any shape.
        maxlen (int|Tensor, optional): mask length; ``max(x)`` when None.
        dtype (str): output dtype. Default 'int64'.
        name (str, optional): unused.

    Returns:
        Tensor: ``x.shape + [maxlen]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.nn.functional.sequence_mask(paddle.to_tensor([1, 3]), 4).tolist()
        [[1, 0, 0, 0], [1, 1, 1, 0]]
    """
    if not isinstance(x, torch.Tensor):   # reported as Paddle's argument check (the registry)
        raise TypeError(f"'x' is a {type(x).__name__}, not a Tensor")
    if x.dtype not in _SEQUENCE_MASK_DTYPES:   # Paddle's kernels
        raise NoKernelError("paddle.nn.functional.sequence_mask: the lengths must be int32, int64, "
                            f"float32 or float64, but received {str(x.dtype).replace('torch.', '')}")
    n = None
    if maxlen is not None:
        n = int(maxlen.reshape(-1)[0].item()) if isinstance(maxlen, torch.Tensor) else int(maxlen)
    if n == 0:
        # Paddle's kernel leaves a mask of length 0 unallocated (an empty x: a negative size)
        if x.numel() == 0:
            raise ValueError("paddle.nn.functional.sequence_mask: 'maxlen' must be positive, or "
                             "None / negative for the longest length, but received 0 (negative "
                             "dimensions are not allowed for empty lengths)")
        raise RuntimeError("paddle.nn.functional.sequence_mask: 'maxlen' must be positive, or None "
                           "/ negative for the longest length, but received 0")
    if n is None or n < 0:   # Paddle reads a negative maxlen as "the longest length"
        n = int(x.max().item()) if x.numel() else 0
    pos = torch.arange(n, device=x.device)
    if dtype is None:   # Paddle reads it as numpy does: float64
        dtype = "float64"
    return (pos < x.unsqueeze(-1)).to(torch_dtype(dtype, "nn.functional.sequence_mask"))


_INT32_64 = frozenset((torch.int32, torch.int64))


@defop(paddle_types=("gather_tree", "pd_op.gather_tree"), method=False, differentiable=False,
       program_dtypes={"ids": _INT32_64, "parents": _INT32_64})
def gather_tree(ids, parents):
    """Backtrace beam-search ids into full sequences from the last step's parents.

    Args:
        ids (Tensor): ``[max_time, batch, beam]`` selected ids per step (int32/int64).
        parents (Tensor): same shape, the beam each id came from.

    Returns:
        Tensor: ``[max_time, batch, beam]``, the sequence of each final beam.

    Examples:
        >>> import pagaie as paddle
        >>> ids = paddle.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
        >>> parents = paddle.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
        >>> paddle.nn.functional.gather_tree(ids, parents).tolist()
        [[[2, 2], [1, 6]], [[3, 3], [6, 1]], [[0, 1], [9, 0]]]
    """
    api = "paddle.nn.functional.gather_tree"
    for arg, t in (("ids", ids), ("parents", parents)):
        if not isinstance(t, torch.Tensor):
            # Paddle reads ids.ndim and parents.ndim first: a value without one is its
            # AttributeError, an array its argument parser's ValueError
            kind = ValueError if isinstance(t, np.ndarray) else AttributeError
            raise kind(f"{api}: '{arg}' must be a Tensor, but received {type(t).__name__}")
    if ids.dtype not in _INT32_64:   # Paddle has no kernel for other ids
        raise NoKernelError(f"{api}: 'ids' must be int32 or int64, but received "
                            f"{str(ids.dtype).replace('torch.', '')}")
    if ids.dim() != 3:
        raise ValueError(f"{api}: the input ids must be a 3D tensor with shape "
                         f"[length, batch_size, beam_size], but received {ids.dim()}-D")
    if ids.shape != parents.shape:
        raise ValueError(f"{api}: the shape of 'parents' ({list(parents.shape)}) must be the same as "
                         f"the shape of 'ids' ({list(ids.shape)})")
    if parents.dtype != ids.dtype:
        # Paddle's kernel reads both as the type of ids: a ValueError
        raise ValueError(f"{api}: 'parents' ({str(parents.dtype).replace('torch.', '')}) must have the "
                         f"dtype of 'ids' ({str(ids.dtype).replace('torch.', '')})")
    if parents.dtype not in _INT32_64:
        raise ValueError(f"{api}: 'parents' must be int32 or int64, but received "
                         f"{str(parents.dtype).replace('torch.', '')}")
    steps, beam = ids.shape[0], ids.shape[2]
    out = torch.empty_like(ids)
    if steps == 0:
        return out
    if parents.numel() and not parents.is_meta:
        lo, hi = int(parents.min()), int(parents.max())
        if lo < 0 or hi >= beam:
            raise ValueError(f"{api}: the parents must be in [0, {beam}) (the beam size), but received "
                             f"{hi if hi >= beam else lo}")
    out[-1] = ids[-1]
    beam = parents[-1].long()
    for t in range(steps - 2, -1, -1):
        out[t] = ids[t].gather(1, beam)
        beam = parents[t].long().gather(1, beam)
    return out


@defop(paddle_types=("temporal_shift", "pd_op.temporal_shift"), method=False)
def temporal_shift(x, seg_num, shift_ratio=0.25, name=None, data_format="NCHW"):
    """Temporal Shift Module: shift a fraction of channels one step along time.

    ``x`` is ``[N*seg_num, C, H, W]``; the first ``C*shift_ratio`` channels take the previous
    segment's values, the next ``C*shift_ratio`` the next segment's (zeros at the ends).

    Args:
        x (Tensor): 4-D input.
        seg_num (int): segments (time steps) per sample.
        shift_ratio (float): fraction of channels shifted each way. Default 0.25.
        name (str, optional): unused.
        data_format (str): 'NCHW' or 'NHWC'.

    Returns:
        Tensor: same shape as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(8, dtype='float32').reshape([2, 4, 1, 1])
        >>> paddle.nn.functional.temporal_shift(x, 2).reshape([2, 4]).tolist()
        [[0.0, 5.0, 2.0, 3.0], [0.0, 0.0, 6.0, 7.0]]
    """
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("Attr(data_format) should be 'NCHW' or 'NHWC'. "
                         f"Received Attr(data_format): {data_format}.")
    if x.dim() != 4:
        raise ValueError(f"paddle.nn.functional.temporal_shift: 'x' must be 4-D, but received {x.dim()}-D")
    api = "paddle.nn.functional.temporal_shift"
    if not 0 < shift_ratio < 0.5:
        raise ValueError(f"{api}: 'shift_ratio' should be greater than 0 and less than 0.5, but "
                         f"received {shift_ratio}")
    if isinstance(seg_num, torch.Tensor):   # Paddle reads a 0-D Tensor as the int
        if seg_num.dim() != 0:
            raise ValueError(f"{api}: a Tensor 'seg_num' must be 0-D, but received shape "
                             f"{list(seg_num.shape)}")
        seg_num = int(seg_num.item())
    if isinstance(seg_num, bool) or not isinstance(seg_num, numbers.Integral):
        raise TypeError(f"{api}: 'seg_num' must be an int, but received {type(seg_num).__name__}")
    if not seg_num > 0:
        raise ValueError(f"{api}: 'seg_num' should be greater than 0, but received {seg_num}")
    seg_num = int(seg_num)
    if x.shape[0] % seg_num:
        raise ValueError(f"{api}: the first dimension of 'x' ({x.shape[0]}, shape {list(x.shape)}) "
                         f"must be divisible by 'seg_num' ({seg_num})")
    float_kernel(api, x)
    if x.dtype not in F32_F64:
        kernel_dtypes("nn.functional.temporal_shift", x, F32_F64)   # Paddle's CPU kernel
    nhwc = data_format == "NHWC"
    if nhwc:
        x = x.permute(0, 3, 1, 2)
    nt, c, h, w = x.shape
    v = x.reshape(nt // seg_num, seg_num, c, h, w)
    c1 = int(c * shift_ratio)
    c2 = int(c * 2 * shift_ratio)
    pad = torch.zeros_like(v[:, :1])
    back = torch.cat([pad[:, :, :c1], v[:, :-1, :c1]], 1)
    fwd = torch.cat([v[:, 1:, c1:c2], pad[:, :, c1:c2]], 1)
    out = torch.cat([back, fwd, v[:, :, c2:]], 2).reshape(nt, c, h, w)
    return out.permute(0, 2, 3, 1) if nhwc else out


def _affine_out_shape(out_shape, api):
    """``affine_grid``'s ``out_shape`` as ints, read as Paddle's argument parser does: a list,
    tuple, int, integer numpy array or integer Tensor; list items are ints or 0-D Tensors (a
    float, bool or None item is its TypeError)."""
    if out_shape is None:
        return []
    if isinstance(out_shape, (torch.Tensor, np.ndarray)):
        integer = (not out_shape.is_floating_point() and not out_shape.is_complex()
                   and out_shape.dtype != torch.bool) if isinstance(out_shape, torch.Tensor) \
            else out_shape.dtype.kind in "iu"
        if not integer or out_shape.ndim > 1:
            kind = str(out_shape.dtype).replace("torch.", "")
            raise TypeError(f"{api}: 'out_shape' must be a list of int, but received a "
                            f"{out_shape.ndim}-D {type(out_shape).__name__} of {kind}")
        return [int(e) for e in out_shape.reshape(-1).tolist()]
    if isinstance(out_shape, (list, tuple)):
        for e in out_shape:
            if not isinstance(e, (int, np.integer, torch.Tensor)) or isinstance(e, bool):
                raise TypeError(f"{api}: 'out_shape' must be a list of int, but received "
                                f"{list(out_shape)} (a {type(e).__name__} item)")
        return int_list(out_shape)
    if isinstance(out_shape, (int, np.integer)) and not isinstance(out_shape, bool):
        return [int(out_shape)]
    raise TypeError(f"{api}: 'out_shape' must be a list, tuple, int or Tensor, but received "
                    f"{type(out_shape).__name__}")


@defop(paddle_types=("affine_grid", "pd_op.affine_grid"), method=False)
def affine_grid(theta, out_shape, align_corners=True, name=None):
    """Sampling grid of an affine transform, for :func:`grid_sample`.

    Args:
        theta (Tensor): ``[N, 2, 3]`` (2-D) or ``[N, 3, 4]`` (3-D) affine matrices.
        out_shape (list|Tensor): ``[N, C, H, W]`` or ``[N, C, D, H, W]``.
        align_corners (bool): -1 and 1 are the centres (True) or the outer edges (False) of
            the corner pixels. Default True.
        name (str, optional): unused.

    Returns:
        Tensor: ``[N, H, W, 2]`` or ``[N, D, H, W, 3]``.

    Examples:
        >>> import pagaie as paddle
        >>> theta = paddle.to_tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> paddle.nn.functional.affine_grid(theta, [1, 1, 2, 2]).tolist()
        [[[[-1.0, -1.0], [1.0, -1.0]], [[-1.0, 1.0], [1.0, 1.0]]]]
    """
    api = "paddle.nn.functional.affine_grid"
    if not isinstance(align_corners, bool):
        raise TypeError(f"{api}: 'align_corners' must be a bool, but received {align_corners!r}")
    shape = _affine_out_shape(out_shape, api)
    if not shape:
        raise ValueError("The out_shape cannot be empty.")
    # Paddle's kernel lookup (float32/float64 on the CPU) precedes its shape checks
    if not theta.is_floating_point():  # Paddle's kernel is float32/float64 only: NotFound
        raise NoKernelError(f"{api}: 'theta' must be float32 or float64, but received "
                            f"{str(theta.dtype).replace('torch.', '')}")
    if theta.dtype not in F32_F64:
        kernel_dtypes("nn.functional.affine_grid", theta, F32_F64, "theta")   # (float16 on GPUs)
    if len(shape) not in (4, 5):
        raise ValueError(f"{api}: out_shape must hold 4 ([N, C, H, W]) or 5 ([N, C, D, H, W]) "
                         f"values, but received {shape}")
    # as in Paddle, the batch comes from theta (out_shape[0] is not read)
    want = [2, 3] if len(shape) == 4 else [3, 4]
    if theta.dim() != 3 or list(theta.shape[1:]) != want:
        raise ValueError(f"{api}: theta must have shape [N, {want[0]}, {want[1]}] for out_shape "
                         f"{shape}, but received {list(theta.shape)}")
    shape[0] = theta.shape[0]
    if min(shape[2:]) < 0:   # Paddle's kernel fails to allocate the grid: a RuntimeError
        raise RuntimeError(f"{api}: the sizes in out_shape must not be negative, but received {shape}")
    if not theta.shape[0] or 0 in shape[2:]:  # an empty grid, as in Paddle
        return theta.new_empty(shape[:1] + shape[2:] + [len(shape) - 2]) + theta.sum() * 0
    if align_corners and 1 in shape[2:]:
        # Paddle spaces a size-1 axis from -1 to 1 in steps of 2 / 0: its coordinate is NaN, and
        # through theta so is every point of the grid (and theta's gradient); torch warns about
        # its own (different) answer for such a grid, which is not shown
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return F.affine_grid(theta, shape, align_corners=True) * float("nan")
    return F.affine_grid(theta, shape, align_corners=align_corners)


@defop(paddle_types=("grid_sampler", "grid_sample", "pd_op.grid_sample"), method=False)
def grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=True, name=None):
    """Sample ``x`` at the normalised locations in ``grid`` (``[-1, 1]`` spans the input).

    Args:
        x (Tensor): ``[N, C, H, W]`` or ``[N, C, D, H, W]``.
        grid (Tensor): ``[N, H_out, W_out, 2]`` or ``[N, D_out, H_out, W_out, 3]``, (x, y[, z]).
        mode (str): 'bilinear' or 'nearest'. Default 'bilinear'.
        padding_mode (str): 'zeros', 'border' or 'reflection'.
        align_corners (bool): see :func:`affine_grid`. Default True.
        name (str, optional): unused.

    Returns:
        Tensor: ``[N, C, H_out, W_out]`` (or 5-D).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(4, dtype='float32').reshape([1, 1, 2, 2])
        >>> grid = paddle.to_tensor([[[[0.0, 0.0]]]])
        >>> paddle.nn.functional.grid_sample(x, grid).tolist()
        [[[[1.5]]]]
    """
    if mode not in ("bilinear", "nearest"):
        raise ValueError("paddle.nn.functional.grid_sample: 'mode' must be 'bilinear' or 'nearest', "
                         f"but received {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("paddle.nn.functional.grid_sample: 'padding_mode' must be 'zeros', 'border' or "
                         f"'reflection', but received {padding_mode!r}")
    if not isinstance(align_corners, bool):
        raise TypeError("paddle.nn.functional.grid_sample: 'align_corners' must be a bool, but received "
                        f"{align_corners!r}")
    # Paddle's kernel lookup (float32/float64 on the CPU) precedes its shape checks
    if not x.is_floating_point():  # Paddle's kernel is float32/float64 only: NotFound
        raise NoKernelError("paddle.nn.functional.grid_sample: 'x' must be float32 or float64, but "
                            f"received {str(x.dtype).replace('torch.', '')}")
    if x.dtype not in F32_F64:
        kernel_dtypes("nn.functional.grid_sample", x, F32_F64)   # (float16 on GPUs)
    if x.dim() not in (4, 5):
        raise ValueError("paddle.nn.functional.grid_sample: 'x' must be a 4-D or 5-D tensor, but "
                         f"received a {x.dim()}-D tensor")
    if grid.dim() != x.dim() or grid.shape[-1] != x.dim() - 2 or grid.shape[0] != x.shape[0]:
        want = [x.shape[0]] + ["*"] * (x.dim() - 2) + [x.dim() - 2]
        raise ValueError(f"paddle.nn.functional.grid_sample: 'grid' must have shape {want} for "
                         f"'x' of shape {list(x.shape)}, but received {list(grid.shape)}")
    if grid.dtype != x.dtype:  # Paddle's kernel reads both as one type: a ValueError
        raise ValueError(f"paddle.nn.functional.grid_sample: 'x' and 'grid' must have the same "
                         f"dtype, but received {str(x.dtype).replace('torch.', '')} and "
                         f"{str(grid.dtype).replace('torch.', '')}")
    if not grid.is_meta:
        odd = _outside_points(grid, mode, padding_mode)
        if odd is not None:
            bad, odd = odd
            out = F.grid_sample(x, grid.masked_fill(bad.unsqueeze(-1), 0.0), mode=mode,
                                padding_mode=padding_mode, align_corners=align_corners)
            return torch.where(bad.unsqueeze(1), odd.unsqueeze(1).to(out.dtype), out)
    return F.grid_sample(x, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)


def _outside_points(grid: torch.Tensor, mode: str, padding_mode: str):
    """The grid points Paddle's sampler cannot place, and what it gives there, or None.

    A NaN coordinate (an infinite one unless the border clamps it) stays out of the input in
    Paddle: a bilinear sample there is NaN and a nearest one 0. The bilinear gradient is NaN
    along each coordinate another unplaceable coordinate of the point weights (0 along the
    others, nothing to ``x``). Torch clamps such a point to a border pixel (and its backward
    crashes), or reads 0 in a 3-D volume."""
    lost = grid.isnan() if padding_mode == "border" else ~grid.isfinite()
    count = lost.sum(-1, keepdim=True)
    if not bool(count.any()):
        return None
    bad = count.squeeze(-1) > 0
    if mode == "nearest":
        return bad, torch.zeros_like(grid[..., 0])
    weighted = grid.masked_fill(count - lost.to(count.dtype) == 0, 0.0)
    return bad, (weighted * float("nan")).sum(-1)


def _class_center_engine():
    """The engine ``class_center_sample``'s CPU kernel draws from: a fresh one seeded with
    the default main program's ``random_seed`` when that is set; otherwise Paddle seeds it
    from ``std::random_device`` (a different sample every run), and pagaie from torch's
    generator, so ``paddle.seed`` makes it reproducible. Paddle's engine is left alone."""
    from pagaie._core.random import cpu_engine
    from pagaie.static import default_main_program
    seed = int(getattr(default_main_program(), "random_seed", 0) or 0)
    if not seed:
        seed = int(torch.randint(1, 1 << 31, ()).item())
    return cpu_engine(seed)


@defop(paddle_types=("class_center_sample", "pd_op.class_center_sample"), method=False,
       differentiable=False)
def class_center_sample(label, num_classes, num_samples, group=None):
    """Sample class centres for partial-FC training (single process).

    Every class present in ``label`` is kept (ascending); randomly drawn other classes fill
    up to ``num_samples``. Labels are remapped to indices into the sampled centres.

    Args:
        label (Tensor): 1-D int labels.
        num_classes (int): number of classes.
        num_samples (int): centres to keep (at least the positive ones).
        group (optional): process group; only single-process sampling is done here.

    Returns:
        tuple: ``(remapped_label, sampled_class_center)``.

    Examples:
        >>> import pagaie as paddle
        >>> r, c = paddle.nn.functional.class_center_sample(paddle.to_tensor([3, 1, 3]), 10, 2)
        >>> r.tolist(), c.tolist()
        ([1, 0, 1], [1, 3])
    """
    if not (group is False or group is None or hasattr(group, "is_member")):
        raise ValueError("Expected group is False, None or instance of paddle.distributed.collective.Group "
                         f"(got group: {group})")
    if num_samples > num_classes:
        raise ValueError(f"Expected num_samples less than or equal to {num_classes}, got num_samples "
                         f"{num_samples}")
    if label.numel() < 1:
        raise ValueError(f"Expected label_size > 0 (got label_size: {label.numel()})")
    if label.dim() != 1:
        raise ValueError(f"Expected label_dims == 1 (got label_dims: {label.dim()})")
    api = "paddle.nn.functional.class_center_sample"
    if label.dtype not in (torch.int32, torch.int64):   # Paddle has no kernel for other labels
        raise NoKernelError(f"{api}: 'label' must be int32 or int64, but received "
                            f"{str(label.dtype).replace('torch.', '')}")
    if num_samples <= 0:
        raise ValueError(f"{api}: 'num_samples' must be greater than 0, but received {num_samples}")
    pos, remapped = torch.unique(label, sorted=True, return_inverse=True)
    extra = num_samples - pos.numel()
    from pagaie._core.random import on_paddle_cpu
    if extra > 0 and on_paddle_cpu(label.device):
        from pagaie._ops._std_dists_misc import distinct_ints
        pick = distinct_ints(_class_center_engine(), extra, 0, num_classes - 1, pos.numpy())
        pos = torch.cat([pos, torch.from_numpy(pick).to(pos.dtype)])
    elif extra > 0:
        free = torch.ones(num_classes, dtype=torch.bool, device=label.device)
        free[pos.long()] = False
        cand = free.nonzero().reshape(-1)
        pick = cand[torch.randperm(cand.numel(), device=label.device)[:extra]]
        pos = torch.cat([pos, pick.to(pos.dtype)])
    return remapped.to(label.dtype), pos
