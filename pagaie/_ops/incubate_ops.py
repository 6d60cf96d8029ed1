"""``paddle.incubate`` ops: segment reductions, graph message passing (``graph_send_recv``),
``identity_loss`` and the fused masked softmaxes.

Not a top-level family: these records are exported by ``pagaie.incubate``. Record names carry
an ``incubate_`` prefix so that they never clash with ``paddle.geometric`` ops of the same name.
AMP policies are "promote": none of these ops is on Paddle's white or black lists, so under
autocast they compute in their inputs' dtype, as in Paddle.
"""
from __future__ import annotations

import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import F32_F64, dtype_name, kernel_dtypes

__all__ = ["incubate_segment_sum", "incubate_segment_mean", "incubate_segment_max",
           "incubate_segment_min", "incubate_graph_send_recv", "incubate_identity_loss",
           "incubate_softmax_mask_fuse", "incubate_softmax_mask_fuse_upper_triangle"]

_VALUE_DTYPES = (torch.float32, torch.float64, torch.int32, torch.int64, torch.float16, torch.bfloat16)
_FLOAT_DTYPES = (torch.float32, torch.float64, torch.float16, torch.bfloat16)
_INDEX_DTYPES = (torch.int32, torch.int64)
# the dtypes of Paddle's CPU kernels (its GPU kernels take all of the above)
_SEND_CPU_DTYPES = F32_F64 | {torch.int32, torch.int64}
_SEGMENT_CPU_DTYPES = _SEND_CPU_DTYPES | {torch.float16}
# The segment ops take only Tensors (Paddle's argument parser refuses anything else).
SEGMENT_TENSORS = ("data", "segment_ids")


def _check_dtype(api: str, arg: str, t: torch.Tensor, allowed: tuple) -> None:
    """Paddle has no kernel of ``api`` for another dtype than ``allowed``: its NotFound (a
    RuntimeError) eagerly, its build-time TypeError while a program is recorded."""
    if t.dtype not in allowed:
        names = ", ".join(_dt.from_torch_dtype(d).name for d in allowed)
        raise NoKernelError(f"paddle.{api}: '{arg}' must have one of the dtypes {names}, "
                           f"but received {dtype_name(t)}")


def _check_index_dtype(api: str, arg: str, ids: torch.Tensor) -> None:
    """ValueError unless ``ids`` is int32 or int64."""
    if ids.dtype not in _INDEX_DTYPES:
        raise ValueError(f"paddle.{api}: '{arg}' must be int32 or int64, but received "
                         f"{dtype_name(ids)}")


def _index_vector(api: str, arg: str, ids: torch.Tensor) -> torch.Tensor:
    """A 1-D int64 view of an index tensor of shape ``[n]`` or ``[n, 1, ...]``."""
    _check_index_dtype(api, arg, ids)
    if ids.dim() != 1:
        if ids.dim() == 0 or any(s != 1 for s in ids.shape[1:]):
            raise ValueError(f"paddle.{api}: '{arg}' must be a 1-D tensor (or have size 1 "
                             f"in every other dimension), but received shape {list(ids.shape)}")
        ids = ids.reshape(-1)
    return ids.long()


class _ExtremeReduce(torch.autograd.Function):
    """Row-wise max/min of ``data`` grouped by ``ids`` into ``rows`` rows (empty rows are 0).

    Paddle's gradient gives the full output gradient to every input equal to its group's
    extreme (ties each get all of it), unlike torch's even split, hence this Function.
    """

    @staticmethod
    def forward(ctx, data, ids, rows, reduce):
        idx = ids.view(-1, *([1] * (data.dim() - 1))).expand_as(data)
        out = data.new_zeros((rows,) + tuple(data.shape[1:]))
        out = out.scatter_reduce(0, idx, data, reduce, include_self=False)
        ctx.save_for_backward(data, ids, out)
        return out

    @staticmethod
    def backward(ctx, g):
        data, ids, out = ctx.saved_tensors
        hit = data == out.index_select(0, ids)
        return g.index_select(0, ids) * hit, None, None, None


def _sum_rows(data: torch.Tensor, ids: torch.Tensor, rows: int) -> torch.Tensor:
    return data.new_zeros((rows,) + tuple(data.shape[1:])).index_add(0, ids, data)


def _mean_rows(data: torch.Tensor, ids: torch.Tensor, rows: int) -> torch.Tensor:
    total = _sum_rows(data, ids, rows)
    count = torch.bincount(ids, minlength=rows).clamp_(min=1)
    count = count.view(-1, *([1] * (data.dim() - 1)))
    if data.dtype.is_floating_point:
        return total / count.to(data.dtype)
    return torch.div(total, count.to(data.dtype), rounding_mode="trunc")


def _reduce_rows(kind: str, data: torch.Tensor, ids: torch.Tensor, rows: int) -> torch.Tensor:
    if kind == "sum":
        return _sum_rows(data, ids, rows)
    if kind == "mean":
        return _mean_rows(data, ids, rows)
    return _ExtremeReduce.apply(data, ids, rows, "amax" if kind == "max" else "amin")


def _segment(api: str, kind: str, data: torch.Tensor, segment_ids: torch.Tensor) -> torch.Tensor:
    _check_dtype(api, "data", data, _VALUE_DTYPES)
    kernel_dtypes(api, data, _SEGMENT_CPU_DTYPES, "data")
    ids = _index_vector(api, "segment_ids", segment_ids)
    if data.dim() == 0 or ids.numel() != data.shape[0]:
        got = "a 0-D tensor" if data.dim() == 0 else f"dimension 0 of size {data.shape[0]}"
        raise ValueError(f"paddle.{api}: 'segment_ids' must have as many elements as "
                         f"dimension 0 of 'data', but received {ids.numel()} ids and {got}")
    if ids.numel() == 0:
        return data.new_zeros((0,) + tuple(data.shape[1:]))
    unsorted, first, last = torch.stack([(ids[1:] < ids[:-1]).any().long(), ids[0], ids[-1]]).tolist()
    if unsorted:
        raise ValueError(f"paddle.{api}: 'segment_ids' must be sorted in ascending order, "
                         f"but received {ids.tolist()[:20]}")
    if first < 0:
        raise IndexError(f"paddle.{api}: 'segment_ids' must be non-negative, but received "
                         f"{first}")
    return _reduce_rows(kind, data, ids, last + 1)


_SEGMENT_DOC = """Segment {what}: row ``i`` of the result is the {what} of the rows of ``data`` whose
    id in ``segment_ids`` is ``i``.

    ``segment_ids`` must be sorted (ascending, non-negative); the result has
    ``segment_ids[-1] + 1`` rows, and a segment id that never occurs gives a row of zeros.

    Args:
        data (Tensor): the values, float16/bfloat16/float32/float64/int32/int64 (no bfloat16
            on the CPU), at least 1-D.
        segment_ids (Tensor): int32 or int64 ids, one per row of ``data``.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: same dtype as ``data``, shape ``[segment_ids[-1] + 1] + data.shape[1:]``.

    Examples:
        >>> import pagaie as paddle
        >>> data = paddle.to_tensor([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [4.0, 5.0, 6.0]])
        >>> ids = paddle.to_tensor([0, 0, 1], dtype='int32')
        >>> paddle.{ns}.segment_{op}(data, ids).tolist()
        {example}
    """


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def incubate_segment_sum(data, segment_ids, name=None):
    return _segment("incubate.segment_sum", "sum", data, segment_ids)


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def incubate_segment_mean(data, segment_ids, name=None):
    return _segment("incubate.segment_mean", "mean", data, segment_ids)


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def incubate_segment_max(data, segment_ids, name=None):
    return _segment("incubate.segment_max", "max", data, segment_ids)


@defop(paddle_types=("segment_pool", "pd_op.segment_pool"), method=False,
       tensor_args=SEGMENT_TENSORS)
def incubate_segment_min(data, segment_ids, name=None):
    return _segment("incubate.segment_min", "min", data, segment_ids)


def document_segments(ns: str, sum_, mean, max_, min_) -> None:
    """Give the four segment reductions of namespace ``ns`` their docstrings."""
    for fn, what, op, ex in (
            (sum_, "sum", "sum", "[[4.0, 4.0, 4.0], [4.0, 5.0, 6.0]]"),
            (mean, "mean", "mean", "[[2.0, 2.0, 2.0], [4.0, 5.0, 6.0]]"),
            (max_, "maximum", "max", "[[3.0, 2.0, 3.0], [4.0, 5.0, 6.0]]"),
            (min_, "minimum", "min", "[[1.0, 2.0, 1.0], [4.0, 5.0, 6.0]]")):
        fn.__doc__ = _SEGMENT_DOC.format(what=what, op=op, example=ex, ns=ns)


document_segments("incubate", incubate_segment_sum, incubate_segment_mean, incubate_segment_max,
                  incubate_segment_min)


def _out_rows(out_size, default: int, api: str = "incubate.graph_send_recv") -> int:
    """The rows of a send-and-receive op's output: ``out_size`` read as Paddle reads it (the
    first value of a real tensor, or a Python or numpy number, truncated to an int; a bool is
    refused), ``default`` when it is None or not positive."""
    if out_size is None:
        return default
    if isinstance(out_size, torch.Tensor):
        if out_size.is_complex():
            raise TypeError(f"paddle.{api}: 'out_size' must be a real tensor, but received "
                            f"{dtype_name(out_size)}")
        out_size = out_size.reshape(-1)[0].item()
    elif isinstance(out_size, bool):
        raise TypeError(f"paddle.{api}: 'out_size' must be an int or a Tensor, but received "
                        f"bool")
    try:
        out_size = int(out_size)  # numpy numbers, floats
    except TypeError:
        raise TypeError(f"paddle.{api}: 'out_size' must be an int or a "
                        f"Tensor, but received {type(out_size).__name__}") from None
    return default if out_size <= 0 else out_size


def send_recv_static_shape(x, *args, **kwargs) -> list:
    """Static rule (see ``Recorder``) of the send-and-receive ops: Paddle leaves the rows of
    the output unknown in a program (-1), out_size or not; the other sizes are x's."""
    return [-1] + list(x.shape[1:])


@defop(amp="promote", paddle_types=("graph_send_recv",),
       method=False, static_shape=send_recv_static_shape, static_shape_first="always",
       tensor_args=("x", "src_index", "dst_index"))
def incubate_graph_send_recv(x, src_index, dst_index, pool_type="sum", out_size=None, name=None):
    """Message passing on a graph: gather the rows ``x[src_index]`` and reduce them into the
    rows ``dst_index`` of the output with ``pool_type`` (sum, mean, max or min).

    Rows of the output that receive no message are zeros.

    Args:
        x (Tensor): node features, float16/bfloat16/float32/float64/int32/int64 (on the CPU
            float32/float64/int32/int64), at least 1-D.
        src_index (Tensor): int32/int64 source node of each edge.
        dst_index (Tensor): destination node of each edge, same dtype and length as ``src_index``.
        pool_type (str, optional): ``'sum'``, ``'mean'``, ``'max'`` or ``'min'``. Default ``'sum'``.
        out_size (int|Tensor, optional): rows of the output; None or a value <= 0 means
            ``x.shape[0]``. Default None.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: same dtype as ``x``, shape ``[out_size] + x.shape[1:]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.0, 2.0], [1.0, 4.0], [2.0, 6.0]])
        >>> src = paddle.to_tensor([0, 1, 2, 0], dtype='int32')
        >>> dst = paddle.to_tensor([1, 2, 1, 0], dtype='int32')
        >>> paddle.incubate.graph_send_recv(x, src, dst, pool_type='sum').tolist()
        [[0.0, 2.0], [2.0, 8.0], [1.0, 4.0]]
        >>> paddle.incubate.graph_send_recv(x, src, dst, pool_type='max', out_size=4).tolist()
        [[0.0, 2.0], [2.0, 6.0], [1.0, 4.0], [0.0, 0.0]]
    """
    api = "incubate.graph_send_recv"
    check_choice(api, "pool_type", pool_type, REDUCE_OPS)
    return send_u_recv(api, x, src_index, dst_index, pool_type, out_size)


def send_u_recv(api: str, x: torch.Tensor, src_index, dst_index, reduce_op: str,
                out_size) -> torch.Tensor:
    """The rows ``x[src_index]`` reduced into the rows ``dst_index`` of the output.

    Without edges or without values Paddle's kernel fills a shape of just ``[out_size]`` when
    ``out_size`` > 0 (it drops the feature dimensions): the same here, a zeros tensor still
    joined to ``x`` so that ``x`` gets its (zero) gradient."""
    src, dst = check_edges(api, x, src_index, dst_index)
    given = _out_rows(out_size, 0, api)  # 0: no out_size > 0
    if (src.numel() == 0 or x.numel() == 0) and given:
        return x.new_zeros(given) + x.reshape(-1)[:0].sum()
    return receive(api, x.index_select(0, src), dst, reduce_op, given or x.shape[0])


REDUCE_OPS = ("sum", "mean", "max", "min")


def check_choice(api: str, arg: str, value, allowed) -> None:
    """``value`` must be one of ``allowed`` (ValueError naming them)."""
    if value not in allowed:
        names = ", ".join(f"'{a}'" for a in allowed)
        raise ValueError(f"paddle.{api}: '{arg}' should be one of {names}, but received {value!r}")


def check_edges(api: str, x: torch.Tensor, src_index, dst_index) -> tuple[torch.Tensor, torch.Tensor]:
    """Checked 1-D int64 source and destination indices of a graph's edges over nodes ``x``."""
    _check_dtype(api, "x", x, _VALUE_DTYPES)
    kernel_dtypes(api, x, _SEND_CPU_DTYPES)
    src = _index_vector(api, "src_index", src_index)
    dst = _index_vector(api, "dst_index", dst_index)
    if src_index.dtype != dst_index.dtype:
        raise ValueError(f"paddle.{api}: 'src_index' and 'dst_index' must have the same dtype, "
                         f"but received {dtype_name(src_index)} and {dtype_name(dst_index)}")
    if src.numel() != dst.numel():
        raise ValueError(f"paddle.{api}: 'src_index' and 'dst_index' must have the same length, "
                         f"but received {src.numel()} and {dst.numel()}")
    if x.dim() == 0:  # Paddle indexes the rows of x (and slices its shape): out of range
        raise IndexError(f"paddle.{api}: 'x' must be at least 1-D, but received a 0-D tensor")
    if src.numel():
        lo, hi = torch.stack([src.min(), src.max()]).tolist()
        if lo < 0 or hi >= x.shape[0]:
            raise IndexError(f"paddle.{api}: 'src_index' must lie in [0, {x.shape[0]}), but "
                             f"received values in [{lo}, {hi}]")
    return src, dst


def receive(api: str, msg: torch.Tensor, dst: torch.Tensor, reduce_op: str, rows: int) -> torch.Tensor:
    """Reduce the edge messages ``msg`` into ``rows`` output rows at ``dst`` (checked)."""
    if dst.numel():
        lo, hi = torch.stack([dst.min(), dst.max()]).tolist()
        if lo < 0 or hi >= rows:
            raise IndexError(f"paddle.{api}: 'dst_index' must lie in [0, {rows}) (the output "
                             f"rows), but received values in [{lo}, {hi}]")
    return _reduce_rows(reduce_op, msg, dst, rows)


_REDUCTIONS = {"sum": 0, "mean": 1, "none": 2}


@defop(amp="promote", paddle_types=("identity_loss", "pd_op.identity_loss"), method=False,
       tensor_args=("x",))
def incubate_identity_loss(x, reduction="none"):
    """Mark ``x`` as the loss, optionally reduced: used by IPU training graphs; elsewhere it is
    the identity (``'none'``), a sum or a mean.

    Args:
        x (Tensor): float32 or float64 values (float16/bfloat16 too, off the CPU).
        reduction (str|int, optional): ``'sum'`` (0), ``'mean'`` (1) or ``'none'`` (2).
            Default ``'none'``.

    Returns:
        Tensor: ``x`` itself for ``'none'``, else a 0-D tensor.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.incubate.identity_loss(x, reduction='mean').item()
        2.5
        >>> paddle.incubate.identity_loss(x, reduction=0).item()
        10.0
    """
    api = "incubate.identity_loss"
    if isinstance(reduction, str):
        mode = _REDUCTIONS.get(reduction.lower())
        if mode is None:
            raise TypeError(f"paddle.{api}: unsupported reduction type {reduction!r}; "
                            "expected 'sum', 'mean' or 'none'")
    elif isinstance(reduction, int) and not isinstance(reduction, bool):
        mode = reduction
        if mode not in (0, 1, 2):
            raise ValueError(f"paddle.{api}: 'reduction' should be 0, 1 or 2, but "
                             f"received {reduction}")
    else:
        raise TypeError(f"paddle.{api}: 'reduction' must be a str or an int, but "
                        f"received {type(reduction).__name__}")
    _check_dtype(api, "x", x, _FLOAT_DTYPES)
    kernel_dtypes(api, x, F32_F64)
    if mode == 0:
        return x.sum()
    if mode == 1:
        return x.mean()
    return x.clone()


def _check_4d(api: str, arg: str, t: torch.Tensor) -> None:
    if t.dim() != 4:
        raise ValueError(f"paddle.{api}: '{arg}' must be a 4-D tensor, but received "
                         f"shape {list(t.shape)}")


@defop(amp="promote", paddle_types=("fused_softmax_mask", "pd_op.fused_softmax_mask"), method=False,
       tensor_args=("x", "mask"))
def incubate_softmax_mask_fuse(x, mask, name=None):
    """``softmax(x + mask, axis=-1)`` in one op (the attention-score softmax with an additive mask).

    Args:
        x (Tensor): scores of shape ``[batch, heads, seq_q, seq_k]``, float16/float32/float64
            (no float16 on the CPU).
        mask (Tensor): additive mask of shape ``[batch, 1, seq_q, seq_k]``, same dtype as ``x``.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: same shape and dtype as ``x``; gradients flow to ``x`` only.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([1, 1, 2, 2])
        >>> mask = paddle.to_tensor([[[[0.0, -1e4], [0.0, 0.0]]]])
        >>> paddle.incubate.softmax_mask_fuse(x, mask).tolist()
        [[[[1.0, 0.0], [0.5, 0.5]]]]
    """
    api = "incubate.softmax_mask_fuse"
    if mask.numel() == 0:
        return x + mask
    _check_dtype(api, "x", x, _FLOAT_DTYPES)
    kernel_dtypes(api, x, F32_F64)
    _check_4d(api, "x", x)
    if mask.dtype != x.dtype:
        raise ValueError(f"paddle.{api}: 'mask' must have the dtype of 'x' "
                         f"({dtype_name(x)}), but received {dtype_name(mask)}")
    _check_4d(api, "mask", mask)
    if mask.shape[1] != 1 or mask.shape[0] != x.shape[0] or mask.shape[2:] != x.shape[2:]:
        raise ValueError(f"paddle.{api}: 'mask' must have shape [{x.shape[0]}, 1, "
                         f"{x.shape[2]}, {x.shape[3]}] for 'x' of shape {list(x.shape)}, but "
                         f"received {list(mask.shape)}")
    return torch.softmax(x + mask.detach(), dim=-1)  # as in Paddle, the mask gets no gradient


@defop(amp="promote", paddle_types=("fused_softmax_mask_upper_triangle",
                                  "pd_op.fused_softmax_mask_upper_triangle"), method=False,
       tensor_args=("x",))
def incubate_softmax_mask_fuse_upper_triangle(x):
    """Causal softmax: ``softmax`` over the last axis of ``x`` with the strict upper triangle of
    the last two axes masked out (position ``j`` of query ``i`` is dropped when ``j > i``).

    Paddle runs this only on GPU; pagaie computes the same result on every device.

    Args:
        x (Tensor): scores of shape ``[batch, heads, seq_q, seq_k]``, float16/float32/float64
            (no float16 on the CPU).

    Returns:
        Tensor: same shape and dtype as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> out = paddle.incubate.softmax_mask_fuse_upper_triangle(paddle.zeros([1, 1, 3, 3]))
        >>> [[round(v, 4) for v in row] for row in out[0, 0].tolist()]
        [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.3333, 0.3333, 0.3333]]
    """
    api = "incubate.softmax_mask_fuse_upper_triangle"
    _check_dtype(api, "x", x, _FLOAT_DTYPES)
    kernel_dtypes(api, x, F32_F64)
    _check_4d(api, "x", x)
    q, k = x.shape[-2], x.shape[-1]
    upper = torch.ones(q, k, dtype=torch.bool, device=x.device).triu_(1)
    return torch.softmax(x.masked_fill(upper, float("-inf")), dim=-1)
