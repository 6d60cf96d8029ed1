"""Batched point-to-point communication: :class:`P2POp` and :func:`batch_isend_irecv`.

Each :class:`P2POp` names one ``isend`` or ``irecv`` of a tensor with a peer rank;
:func:`batch_isend_irecv` starts them all at once (torch.distributed's batched P2P, which
coalesces them where the backend can) and returns one task per operation.
"""
from __future__ import annotations

from typing import Any, Callable

import torch
import torch.distributed as tdist

from pagaie._core.tensor import Tensor
from pagaie.distributed import communication as _c
from pagaie.distributed._env import Group

__all__ = ["P2POp", "batch_isend_irecv"]


def _kind(op: Any) -> str | None:
    if op is _c.isend:
        return "isend"
    if op is _c.irecv:
        return "irecv"
    return None


class P2POp:
    """One point-to-point operation for :func:`batch_isend_irecv`.

    Args:
        op (callable): ``paddle.distributed.isend`` or ``paddle.distributed.irecv``.
        tensor (Tensor): the tensor to send, or to receive into.
        peer (int): the global rank of the other process.
        group (Group, optional): the communication group (the global one when None).

    Raises:
        RuntimeError: when ``op`` is neither ``isend`` nor ``irecv``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> op = dist.P2POp(dist.isend, paddle.ones([2]), 0)
        >>> op.op is dist.isend, op.peer
        (True, 0)
    """

    def __init__(self, op: Callable[..., Any], tensor: Tensor, peer: int, group: Group | None = None) -> None:
        if _kind(op) is None:
            raise RuntimeError("paddle.distributed.P2POp: op must be paddle.distributed.isend or "
                               f"paddle.distributed.irecv, but received {op!r}")
        self.op = op
        self.tensor = tensor
        self.peer = peer
        self.group = _c._group(group)


def _check_ops(p2p_op_list: Any) -> None:
    if not isinstance(p2p_op_list, list) or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise RuntimeError("paddle.distributed.batch_isend_irecv: p2p_op_list must be a list of "
                           f"paddle.distributed.P2POp, but received {p2p_op_list!r}")
    if not p2p_op_list:
        # Paddle reads the first item's group unconditionally and fails the same way.
        raise IndexError("paddle.distributed.batch_isend_irecv: p2p_op_list must hold at least one "
                         "P2POp, but received an empty list")
    backend = p2p_op_list[0].group.backend
    if any(p.group.backend != backend for p in p2p_op_list):
        raise RuntimeError("paddle.distributed.batch_isend_irecv: all the groups of p2p_op_list must "
                           "use the same backend")


def batch_isend_irecv(p2p_op_list: list[P2POp]) -> list[_c.Task] | None:
    """Start a batch of sends and receives; returns one task per operation (wait on each).

    The order of the operations must match the peers' own lists. In a process running alone
    there is no peer, and this raises RuntimeError as :func:`paddle.distributed.isend` does.

    Args:
        p2p_op_list (list[P2POp]): the operations.

    Returns:
        list[Task]: the started operations (None when this rank is not in the group).

    Raises:
        RuntimeError: when the list holds something other than P2POp, or there is no peer.
        IndexError: when the list is empty.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> try:
        ...     dist.batch_isend_irecv([dist.P2POp(dist.isend, paddle.ones([1]), 0)])
        ... except RuntimeError:
        ...     print("needs two processes")
        needs two processes
    """
    _check_ops(p2p_op_list)
    if not p2p_op_list[0].group.is_member():
        return None
    ops, finishes = [], []
    for p in p2p_op_list:
        kind = _kind(p.op)
        t = _c._t(p.tensor, "batch_isend_irecv", "P2POp.tensor")
        g = _c._p2p_group(p.group, p.peer, "batch_isend_irecv", "P2POp.peer")
        if kind == "isend":
            ops.append(tdist.P2POp(tdist.isend, t.contiguous(), p.peer, g.process_group))
            finishes.append(None)
        else:
            buf = t if t.is_contiguous() else torch.empty_like(t, memory_format=torch.contiguous_format)
            ops.append(tdist.P2POp(tdist.irecv, buf, p.peer, g.process_group))
            finishes.append(None if buf is t else (lambda dst=t, src=buf: dst.copy_(src)))
    works = tdist.batch_isend_irecv(ops)
    return [_c.Task(w, f, False) for w, f in zip(works, finishes)]
