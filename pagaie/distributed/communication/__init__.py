"""Collective and point-to-point communication over torch.distributed.

Every call works in place on the torch tensors behind pagaie Tensors (``x._t``). In a world of
one process (no process group) the collectives are identities. ``sync_op=False`` starts the
operation and returns a task whose ``wait()`` finishes it; ``sync_op=True`` returns a task
already completed.
"""
from __future__ import annotations

import warnings
from typing import Any

import torch
import torch.distributed as tdist

from pagaie._core.tensor import Tensor
from pagaie.distributed._env import Group, _global_group

__all__ = ["ReduceOp", "all_reduce", "all_gather", "all_gather_object", "broadcast", "broadcast_object_list",
           "reduce", "scatter", "scatter_object_list", "gather", "alltoall", "alltoall_single",
           "reduce_scatter", "send", "recv", "isend", "irecv", "send_object_list", "recv_object_list",
           "barrier", "wait"]


class ReduceOp:
    """How a reduction combines the tensors of all ranks.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.ReduceOp.SUM, dist.ReduceOp.AVG
        (0, 4)
    """

    SUM = 0
    MAX = 1
    MIN = 2
    PROD = 3
    AVG = 4


_TORCH_OPS = {ReduceOp.SUM: tdist.ReduceOp.SUM, ReduceOp.MAX: tdist.ReduceOp.MAX,
              ReduceOp.MIN: tdist.ReduceOp.MIN, ReduceOp.PROD: tdist.ReduceOp.PRODUCT,
              ReduceOp.AVG: tdist.ReduceOp.SUM}


class Task:
    """A started communication; ``wait()`` blocks until it has finished.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> task = dist.all_reduce(paddle.ones([2]), sync_op=False)
        >>> task.wait(), task.is_completed()
        (True, True)
    """

    def __init__(self, work: Any = None, finish: Any = None, sync: bool = True) -> None:
        self._work = work
        self._finish = finish
        self._sync = sync

    def wait(self, timeout: Any = None) -> bool:
        if self._work is not None:
            self._work.wait() if timeout is None else self._work.wait(timeout)
            self._work = None
        if self._finish is not None:
            finish, self._finish = self._finish, None
            finish()
        return True

    def is_completed(self) -> bool:
        if self._work is not None and not self._work.is_completed():
            return False
        return True

    def is_sync(self) -> bool:
        return self._sync

    def synchronize(self) -> None:
        self.wait()
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            torch.cuda.synchronize()


def _done(sync_op: bool = True) -> Task:
    return Task(sync=sync_op)


def _run(work: Any, finish: Any, sync_op: bool) -> Task:
    task = Task(work, finish, sync_op)
    if sync_op:
        task.wait()
    return task


def _all_to_all(outs: list, ins: list, g: Group) -> Any:
    """torch's all_to_all, or the same exchange as paired sends and receives where the
    backend has none (gloo before torch 2.12); the fallback completes before returning."""
    try:
        return tdist.all_to_all(outs, ins, group=g.process_group, async_op=True)
    except RuntimeError as exc:
        if "alltoall" not in str(exc).replace("_", "").lower():
            raise
    me = g.rank
    ops = []
    for peer, global_rank in enumerate(g.ranks):
        if peer == me:
            outs[me].copy_(ins[me])
        else:
            ops.append(tdist.P2POp(tdist.isend, ins[peer], global_rank, g.process_group))
            ops.append(tdist.P2POp(tdist.irecv, outs[peer], global_rank, g.process_group))
    for req in tdist.batch_isend_irecv(ops) if ops else ():
        req.wait()
    return None


def _group(group: Group | None) -> Group:
    return _global_group() if group is None else group


def _member(g: Group) -> bool:
    """Whether this process is in ``g``; Paddle warns and skips the call when it is not."""
    if g.is_member():
        return True
    from pagaie.distributed._env import get_rank
    warnings.warn(f"Current global rank {get_rank()} is not in group {g.name}")
    return False


class _NotATensorError(ValueError, TypeError):
    """A non-Tensor where a collective needs a Tensor: Paddle's binding raises ValueError."""


def _t(x: Any, api: str, arg: str = "tensor") -> torch.Tensor:
    if isinstance(x, Tensor):
        return x._t.detach()  # same storage, outside autograd (parameters are leaves)
    raise _NotATensorError(f"paddle.distributed.{api}: {arg} must be a Tensor, but received {type(x).__name__}")


class _BadOpError(ValueError, RuntimeError):
    """An unknown reduce op: Paddle's reduce_scatter raises RuntimeError, the others ValueError."""


class _MismatchError(ValueError, RuntimeError):
    """Buffers whose sizes or dtypes do not fit the collective (Paddle's backend enforces them
    with a RuntimeError)."""


class _AllToAllArgError(ValueError, RuntimeError):
    """alltoall given None, or a tensor on one side and a list on the other: Paddle raises RuntimeError."""


class _GatherCountError(_MismatchError, AssertionError):
    """A gather_list of the wrong length: Paddle asserts on it."""


class _NoGatherListError(ValueError, AssertionError):
    """gather without a gather_list on the destination rank: Paddle asserts."""


def _op(op: int, api: str) -> Any:
    if op not in _TORCH_OPS:
        raise _BadOpError(f"paddle.distributed.{api}: op must be one of ReduceOp.SUM/MAX/MIN/PROD/AVG, "
                          f"but received {op!r}")
    return _TORCH_OPS[op]


def _copy_into(dst: torch.Tensor, src: torch.Tensor, api: str, what: str) -> None:
    """``dst.copy_(src)`` for a world of one, with the checks a real backend makes."""
    if dst.shape != src.shape or dst.dtype != src.dtype:
        raise _MismatchError(
            f"paddle.distributed.{api}: {what} must match the input's shape {list(src.shape)} and dtype "
            f"{_dtype_name(src)}, but received shape {list(dst.shape)} and dtype {_dtype_name(dst)}")
    dst.copy_(src)


def _dtype_name(t: torch.Tensor) -> str:
    return str(t.dtype).replace("torch.", "paddle.")


def _split_tensor(x: Any, n: int, api: str, arg: str) -> list:
    """A Tensor given where a list is expected: its ``n`` equal pieces along axis 0."""
    t = _t(x, api, arg)
    if t.dim() == 0 or t.shape[0] % n:
        raise _MismatchError(f"paddle.distributed.{api}: {arg} as a Tensor must split evenly into {n} "
                             f"parts along axis 0, but received shape {list(t.shape)}")
    return [Tensor(c) for c in t.chunk(n)]


def _average(t: torch.Tensor, n: int) -> None:
    if t.is_floating_point() or t.is_complex():
        t.div_(n)
    else:
        t.copy_(torch.div(t, n, rounding_mode="trunc"))


def _fill_list(tensor_list: list, like: torch.Tensor, n: int, api: str = "all_gather",
               arg: str = "tensor_list") -> list[torch.Tensor]:
    """Torch buffers for an output list: the list's own tensors, or new ones appended to it."""
    if not tensor_list:
        tensor_list.extend(Tensor(torch.empty_like(like)) for _ in range(n))
    if len(tensor_list) != n:
        cls = _GatherCountError if api == "gather" else _MismatchError
        raise cls(f"paddle.distributed.{api}: {arg} must hold {n} tensors, but received {len(tensor_list)}")
    outs = [_t(x, api, arg) for x in tensor_list]
    for o in outs:
        if o.shape != like.shape or o.dtype != like.dtype:
            raise _MismatchError(
                f"paddle.distributed.{api}: every tensor of {arg} must have the input's shape "
                f"{list(like.shape)} and dtype {_dtype_name(like)}, but received shape {list(o.shape)} "
                f"and dtype {_dtype_name(o)}")
    return outs


# ---- collectives -------------------------------------------------------------------
def all_reduce(tensor: Tensor, op: int = ReduceOp.SUM, group: Group | None = None, sync_op: bool = True) -> Task | None:
    """Reduce ``tensor`` over all ranks of ``group`` and leave the result in it on every rank.

    Args:
        tensor (Tensor): the input, overwritten with the result.
        op (ReduceOp): SUM, MAX, MIN, PROD or AVG.
        group (Group, optional): the group (the global one when None).
        sync_op (bool): wait for the result (True) or return a task to wait on.

    Returns:
        Task: the communication task.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> _ = dist.all_reduce(x)
        >>> x.tolist()
        [1.0, 2.0]
    """
    t, top = _t(tensor, "all_reduce"), _op(op, "all_reduce")
    g = _group(group)
    if not _member(g):
        return None
    if g.process_group is None:
        return _done(sync_op)
    work = tdist.all_reduce(t, top, group=g.process_group, async_op=True)
    finish = (lambda: _average(t, g.nranks)) if op == ReduceOp.AVG else None
    return _run(work, finish, sync_op)


def all_gather(tensor_list: list, tensor: Tensor, group: Group | None = None, sync_op: bool = True) -> Task | None:
    """Gather ``tensor`` from every rank into ``tensor_list`` (filled in rank order).

    Args:
        tensor_list (list[Tensor]): the output; an empty list gets one new tensor per rank.
        tensor (Tensor): this rank's input.
        group (Group, optional): the group (the global one when None).
        sync_op (bool): wait for the result (True) or return a task to wait on.

    Returns:
        Task: the communication task.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> out = []
        >>> _ = dist.all_gather(out, paddle.to_tensor([1, 2]))
        >>> [o.tolist() for o in out]
        [[1, 2]]
    """
    t = _t(tensor, "all_gather")
    g = _group(group)
    if not _member(g):
        return None
    if isinstance(tensor_list, Tensor):  # one output tensor: the inputs concatenated along axis 0
        out = _t(tensor_list, "all_gather", "tensor_list")
        if out.numel() != t.numel() * g.nranks or out.dtype != t.dtype:
            raise _MismatchError(
                f"paddle.distributed.all_gather: the output tensor must hold {g.nranks} x {list(t.shape)} "
                f"elements of dtype {_dtype_name(t)}, but received shape {list(out.shape)} and dtype "
                f"{_dtype_name(out)}")
        if g.process_group is None:
            out.copy_(t.reshape(out.shape))
            return _done(sync_op)
        parts = [torch.empty_like(t) for _ in range(g.nranks)]
        work = tdist.all_gather(parts, t.contiguous(), group=g.process_group, async_op=True)
        return _run(work, lambda: out.copy_(torch.stack(parts).reshape(out.shape)), sync_op)
    outs = _fill_list(tensor_list, t, g.nranks)
    if g.process_group is None:
        outs[0].copy_(t)
        return _done(sync_op)
    return _run(tdist.all_gather(outs, t, group=g.process_group, async_op=True), None, sync_op)


def all_gather_object(object_list: list, obj: Any, group: Group | None = None) -> None:
    """Append the picklable ``obj`` of every rank, in rank order, to ``object_list``.

    Examples:
        >>> import pagaie.distributed as dist
        >>> objs = []
        >>> dist.all_gather_object(objs, {"a": 1})
        >>> objs
        [{'a': 1}]
    """
    g = _group(group)
    if not _member(g):
        return
    out: list = [None] * g.nranks
    if g.process_group is None:
        out[0] = obj
    else:
        tdist.all_gather_object(out, obj, group=g.process_group)
    object_list.extend(out)  # appended to what the list held, as in Paddle


def broadcast(tensor: Tensor, src: int, group: Group | None = None, sync_op: bool = True) -> Task | None:
    """Copy ``tensor`` of global rank ``src`` into ``tensor`` on every rank of ``group``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> x = paddle.to_tensor([3.0])
        >>> _ = dist.broadcast(x, src=0)
        >>> x.tolist()
        [3.0]
    """
    t = _t(tensor, "broadcast")
    g = _group(group)
    if not _member(g):
        return None
    _check_rank(g, src, "broadcast", "src")
    if g.process_group is None:
        return _done(sync_op)
    return _run(tdist.broadcast(t, src, group=g.process_group, async_op=True), None, sync_op)


def broadcast_object_list(object_list: list, src: int, group: Group | None = None) -> None:
    """Replace ``object_list``'s items on every rank with those of global rank ``src``.

    Examples:
        >>> import pagaie.distributed as dist
        >>> objs = [1, "a"]
        >>> dist.broadcast_object_list(objs, src=0)
        >>> objs
        [1, 'a']
    """
    g = _group(group)
    if not _member(g):
        return
    _check_rank(g, src, "broadcast_object_list", "src")
    if g.process_group is not None:
        tdist.broadcast_object_list(object_list, src, group=g.process_group)


def reduce(tensor: Tensor, dst: int, op: int = ReduceOp.SUM, group: Group | None = None,
           sync_op: bool = True) -> Task | None:
    """Reduce ``tensor`` over ``group``; the result lands in ``tensor`` on global rank ``dst``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> x = paddle.to_tensor([2.0])
        >>> _ = dist.reduce(x, dst=0)
        >>> x.tolist()
        [2.0]
    """
    t, top = _t(tensor, "reduce"), _op(op, "reduce")
    g = _group(group)
    if not _member(g):
        return None
    _check_rank(g, dst, "reduce", "dst")
    if g.process_group is None:
        return _done(sync_op)
    me = tdist.get_rank()
    finish = (lambda: _average(t, g.nranks)) if op == ReduceOp.AVG and me == dst else None
    return _run(tdist.reduce(t, dst, top, group=g.process_group, async_op=True), finish, sync_op)


def scatter(tensor: Tensor, tensor_list: list | None = None, src: int = 0, group: Group | None = None,
            sync_op: bool = True) -> Task | None:
    """Send the i-th tensor of ``tensor_list`` on global rank ``src`` to the i-th rank's ``tensor``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> x = paddle.zeros([2])
        >>> _ = dist.scatter(x, [paddle.to_tensor([1.0, 2.0])], src=0)
        >>> x.tolist()
        [1.0, 2.0]
    """
    t = _t(tensor, "scatter")
    g = _group(group)
    if not _member(g):
        return None
    _check_rank(g, src, "scatter", "src")
    is_src = g.get_global_rank(g.rank) == src
    if not is_src and tensor_list is not None:
        warnings.warn("Specific `tensor_or_tensor_list` is meaningless for rank which is not src.")
    if is_src and isinstance(tensor_list, Tensor):  # split evenly along axis 0, as Paddle does
        tensor_list = _split_tensor(tensor_list, g.nranks, "scatter", "tensor_list")
    ins = [_t(x, "scatter", "tensor_list") for x in tensor_list] if is_src and tensor_list is not None else None
    if is_src and (ins is None or len(ins) != g.nranks):
        raise _MismatchError(f"paddle.distributed.scatter: tensor_list must hold {g.nranks} tensors on the "
                             f"source rank, but received {0 if ins is None else len(ins)}")
    if g.process_group is None:
        _copy_into(t, ins[0], "scatter", "tensor")
        return _done(sync_op)
    work = tdist.scatter(t, ins, src=src, group=g.process_group, async_op=True)
    return _run(work, None, sync_op)


def scatter_object_list(out_object_list: list, in_object_list: list | None = None, src: int = 0,
                        group: Group | None = None) -> None:
    """Give the i-th rank the i-th object of ``in_object_list`` on ``src``, in ``out_object_list``.

    Examples:
        >>> import pagaie.distributed as dist
        >>> out = []
        >>> dist.scatter_object_list(out, [{"k": 1}], src=0)
        >>> out
        [{'k': 1}]
    """
    g = _group(group)
    if not _member(g):
        return
    _check_rank(g, src, "scatter_object_list", "src")
    got: list = [None]
    if g.process_group is None:
        got[0] = in_object_list[0]
    else:
        is_src = g.get_global_rank(g.rank) == src
        tdist.scatter_object_list(got, in_object_list if is_src else None, src=src, group=g.process_group)
    out_object_list.clear()
    out_object_list.extend(got)


def gather(tensor: Tensor, gather_list: list | None = None, dst: int = 0, group: Group | None = None,
           sync_op: bool = True) -> Task | None:
    """Collect ``tensor`` of every rank into ``gather_list`` on global rank ``dst``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> out = []
        >>> _ = dist.gather(paddle.to_tensor([1, 2]), out, dst=0)
        >>> [o.tolist() for o in out]
        [[1, 2]]
    """
    t = _t(tensor, "gather")
    g = _group(group)
    if not _member(g):
        return None
    _check_rank(g, dst, "gather", "dst")
    is_dst = g.get_global_rank(g.rank) == dst
    if not is_dst and gather_list is not None:
        warnings.warn("Specific `gather_list` is meaningless for rank which is not dst.")
    if is_dst and gather_list is None:
        raise _NoGatherListError("paddle.distributed.gather: gather_list must be a list on the destination "
                                 "rank, but received None")
    outs = _fill_list(gather_list, t, g.nranks, "gather", "gather_list") if is_dst else None
    if g.process_group is None:
        outs[0].copy_(t)
        return _done(sync_op)
    return _run(tdist.gather(t, outs, dst=dst, group=g.process_group, async_op=True), None, sync_op)


def alltoall(out_tensor_list: list, in_tensor_list: list, group: Group | None = None,
             sync_op: bool = True) -> Task | None:
    """Send the i-th tensor of ``in_tensor_list`` to rank i; receive rank j's into slot j of the output.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> out = []
        >>> _ = dist.alltoall(out, [paddle.to_tensor([5])])
        >>> [o.tolist() for o in out]
        [[5]]
    """
    if out_tensor_list is None or in_tensor_list is None:
        raise _AllToAllArgError(f"paddle.distributed.alltoall: the {'output' if out_tensor_list is None else 'input'} "
                                "should be specified, but received None")
    if isinstance(out_tensor_list, Tensor) != isinstance(in_tensor_list, Tensor):
        raise _AllToAllArgError(f"paddle.distributed.alltoall: the output and input should be both tensors or both "
                                f"tensor lists, but received {type(out_tensor_list).__name__} and "
                                f"{type(in_tensor_list).__name__}")
    if isinstance(in_tensor_list, Tensor):  # tensors split evenly along axis 0
        return alltoall_single(out_tensor_list, in_tensor_list, None, None, group, sync_op)
    g = _group(group)
    if not _member(g):
        return None
    ins = [_t(x, "alltoall", "in_tensor_list") for x in in_tensor_list]
    if len(ins) != g.nranks:
        raise _MismatchError(f"paddle.distributed.alltoall: in_tensor_list must hold {g.nranks} tensors, "
                             f"but received {len(ins)}")
    if not out_tensor_list:
        out_tensor_list.extend(Tensor(torch.empty_like(x)) for x in ins)
    if len(out_tensor_list) != g.nranks:
        raise _MismatchError(f"paddle.distributed.alltoall: out_tensor_list must hold {g.nranks} tensors, "
                             f"but received {len(out_tensor_list)}")
    outs = [_t(x, "alltoall", "out_tensor_list") for x in out_tensor_list]
    if g.process_group is None:
        _copy_into(outs[0], ins[0], "alltoall", "out_tensor_list[0]")
        return _done(sync_op)
    ins = [x.contiguous() for x in ins]
    return _run(_all_to_all(outs, ins, g), None, sync_op)


def alltoall_single(out_tensor: Tensor, in_tensor: Tensor, in_split_sizes: list[int] | None = None,
                    out_split_sizes: list[int] | None = None, group: Group | None = None,
                    sync_op: bool = True) -> Task | None:
    """All-to-all on single tensors split along dimension 0 (evenly, or by the split sizes).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> out = paddle.zeros([2])
        >>> _ = dist.alltoall_single(out, paddle.to_tensor([1.0, 2.0]))
        >>> out.tolist()
        [1.0, 2.0]
    """
    o, i = _t(out_tensor, "alltoall_single", "out_tensor"), _t(in_tensor, "alltoall_single", "in_tensor")
    g = _group(group)
    if not _member(g):
        return None
    if g.process_group is None:
        for name, sizes in (("in_split_sizes", in_split_sizes), ("out_split_sizes", out_split_sizes)):
            if sizes and (len(sizes) != 1 or sizes[0] != i.shape[0]):
                raise _MismatchError(f"paddle.distributed.alltoall_single: {name} must sum to the length of "
                                     f"axis 0 ({i.shape[0]}) over 1 rank, but received {list(sizes)}")
        _copy_into(o, i, "alltoall_single", "out_tensor")
        return _done(sync_op)
    try:
        work = tdist.all_to_all_single(o, i.contiguous(), out_split_sizes or None, in_split_sizes or None,
                                       group=g.process_group, async_op=True)
    except RuntimeError as exc:
        if "alltoall" not in str(exc).replace("_", "").lower():
            raise
        ins = list(torch.split(i.contiguous(), in_split_sizes or i.shape[0] // g.nranks))
        outs = list(torch.split(o, out_split_sizes or o.shape[0] // g.nranks))
        pieces = [x.contiguous() for x in outs]
        work = _all_to_all(pieces, ins, g)
        for dst, src in zip(outs, pieces):
            if dst.data_ptr() != src.data_ptr():
                dst.copy_(src)
    return _run(work, None, sync_op)


def reduce_scatter(tensor: Tensor, tensor_list: list, op: int = ReduceOp.SUM, group: Group | None = None,
                   sync_op: bool = True) -> Task | None:
    """Reduce the i-th tensors of every rank's ``tensor_list``; rank i receives that result in ``tensor``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> x = paddle.zeros([2])
        >>> _ = dist.reduce_scatter(x, [paddle.to_tensor([1.0, 2.0])])
        >>> x.tolist()
        [1.0, 2.0]
    """
    top = _op(op, "reduce_scatter")  # checked first, as in Paddle
    t = _t(tensor, "reduce_scatter")
    g = _group(group)
    if not _member(g):
        return None
    if isinstance(tensor_list, Tensor):  # split evenly along axis 0, as Paddle does
        tensor_list = _split_tensor(tensor_list, g.nranks, "reduce_scatter", "tensor_list")
    ins = [_t(x, "reduce_scatter", "tensor_list") for x in tensor_list]
    if len(ins) != g.nranks:
        raise _MismatchError(f"paddle.distributed.reduce_scatter: tensor_list must hold {g.nranks} tensors, "
                             f"but received {len(ins)}")
    if g.process_group is None:
        _copy_into(t, ins[0], "reduce_scatter", "tensor")
        return _done(sync_op)
    work = tdist.reduce_scatter(t, [x.contiguous() for x in ins], top, group=g.process_group, async_op=True)
    finish = (lambda: _average(t, g.nranks)) if op == ReduceOp.AVG else None
    return _run(work, finish, sync_op)


# ---- point to point ------------------------------------------------------------------
def _check_rank(g: Group, rank: int | None, api: str, arg: str) -> None:
    if rank is not None and rank not in g.ranks:
        raise ValueError(f"paddle.distributed.{api}: {arg} must be a global rank in the group {g.ranks}, "
                         f"but received {rank}")


def _p2p_group(group: Group | None, peer: int | None, api: str, arg: str) -> Group:
    g = _group(group)
    if g.process_group is None:
        raise RuntimeError(f"paddle.distributed.{api}: point-to-point communication needs at least two "
                           "processes (call paddle.distributed.init_parallel_env in a parallel job)")
    _check_rank(g, peer, api, arg)
    return g


def send(tensor: Tensor, dst: int = 0, group: Group | None = None, sync_op: bool = True) -> Task | None:
    """Send ``tensor`` to global rank ``dst`` (which calls :func:`recv`)."""
    t = _t(tensor, "send")
    g = _p2p_group(group, dst, "send", "dst")
    work = tdist.isend(t.contiguous(), dst, group=g.process_group)
    return _run(work, None, sync_op)


def recv(tensor: Tensor, src: int = 0, group: Group | None = None, sync_op: bool = True) -> Task | None:
    """Receive into ``tensor`` what global rank ``src`` sends with :func:`send`."""
    t = _t(tensor, "recv")
    g = _p2p_group(group, src, "recv", "src")
    work = tdist.irecv(t, src, group=g.process_group)
    return _run(work, None, sync_op)


def isend(tensor: Tensor, dst: int, group: Group | None = None) -> Task | None:
    """Start sending ``tensor`` to global rank ``dst``; returns a task to wait on."""
    return send(tensor, dst, group, sync_op=False)


def irecv(tensor: Tensor, src: int | None = None, group: Group | None = None) -> Task | None:
    """Start receiving into ``tensor`` from global rank ``src`` (any rank when None)."""
    t = _t(tensor, "irecv")
    g = _p2p_group(group, src, "irecv", "src")
    return Task(tdist.irecv(t, src, group=g.process_group), None, False)


def send_object_list(object_list: list, dst: int | None = None, group: Group | None = None,
                     dst_in_group: int | None = None) -> None:
    """Send the picklable objects of ``object_list`` to global rank ``dst`` (or the group's ``dst_in_group``)."""
    if not isinstance(object_list, (list, tuple)):
        raise TypeError(f"paddle.distributed.send_object_list: object_list must be a list, "
                        f"but received {type(object_list).__name__}")
    g = _group(group)
    if dst is None and dst_in_group is not None:
        dst = g.get_global_rank(dst_in_group)
    if dst is None:
        raise ValueError("paddle.distributed.send_object_list: one of dst and dst_in_group must be given")
    g = _p2p_group(group, dst, "send_object_list", "dst")
    tdist.send_object_list(object_list, dst, group=g.process_group)


def recv_object_list(object_list: list, src: int | None = None, group: Group | None = None,
                     src_in_group: int | None = None) -> None:
    """Receive objects sent with :func:`send_object_list` into ``object_list`` (same length)."""
    if not isinstance(object_list, list):
        raise TypeError(f"paddle.distributed.recv_object_list: object_list must be a list, "
                        f"but received {type(object_list).__name__}")
    g = _group(group)
    if src is None and src_in_group is not None:
        src = g.get_global_rank(src_in_group)
    g = _p2p_group(group, src, "recv_object_list", "src")
    tdist.recv_object_list(object_list, src, group=g.process_group)


def barrier(group: Group | None = None) -> None:
    """Wait until every rank of ``group`` reaches this call.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.barrier()
    """
    g = _group(group)
    if g.is_member() and g.process_group is not None:
        tdist.barrier(group=g.process_group)


def wait(tensor: Tensor, group: Group | None = None, use_calc_stream: bool = True) -> None:
    """Make later work wait for communication on ``tensor`` (a stream synchronisation on GPU).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> dist.wait(paddle.ones([1]))
    """
    t = _t(tensor, "wait")
    if t.is_cuda:
        torch.cuda.current_stream(t.device).synchronize()


# ---- Paddle's names under ``paddle.distributed.communication`` -------------------------
# (submodules ``group``, ``all_to_all`` and ``stream``; batched point-to-point; group queries).
# Imported last: these modules import this one.
from pagaie.distributed._env import destroy_process_group, get_backend, get_group, is_initialized  # noqa: E402,F401
from pagaie.distributed import _comm_all_to_all as all_to_all  # noqa: E402,F401
from pagaie.distributed import _comm_group as group  # noqa: E402,F401
from pagaie.distributed import stream  # noqa: E402,F401
from pagaie.distributed.p2p import P2POp, batch_isend_irecv  # noqa: E402,F401
