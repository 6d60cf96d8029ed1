"""``paddle.distributed.stream``: the collectives with a ``use_calc_stream`` switch.

torch runs communication on its own streams and orders it with the computing stream, so the
switch changes nothing here (except that, as in Paddle, it needs ``sync_op=True``); the calls
are those of ``paddle.distributed``.
"""
from __future__ import annotations

from typing import Any

from pagaie.distributed import communication as _c

__all__ = ["all_reduce", "all_gather", "alltoall", "alltoall_single", "broadcast", "reduce", "reduce_scatter",
           "scatter", "gather", "send", "recv"]


def _check_stream(sync_op: bool, use_calc_stream: bool) -> None:
    # Paddle can run an operation on the computing stream only when it waits for it.
    if use_calc_stream and not sync_op:
        raise RuntimeError("use_calc_stream can only be true in sync op behavior.")


def all_reduce(tensor: Any, op: int = _c.ReduceOp.SUM, group: Any = None, sync_op: bool = True,
               use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.all_reduce`.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> task = dist.stream.all_reduce(paddle.ones([1]), use_calc_stream=True)
    """
    _check_stream(sync_op, use_calc_stream)
    return _c.all_reduce(tensor, op, group, sync_op)


def all_gather(tensor_or_tensor_list: Any, tensor: Any, group: Any = None, sync_op: bool = True,
               use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.all_gather`; a Tensor output receives the concatenation along axis 0."""
    _check_stream(sync_op, use_calc_stream)
    return _c.all_gather(tensor_or_tensor_list, tensor, group, sync_op)


def alltoall(out_tensor_or_tensor_list: Any, in_tensor_or_tensor_list: Any, group: Any = None,
             sync_op: bool = True, use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.alltoall` (tensors are split evenly along axis 0)."""
    _check_stream(sync_op, use_calc_stream)
    return _c.alltoall(out_tensor_or_tensor_list, in_tensor_or_tensor_list, group, sync_op)


def alltoall_single(out_tensor: Any, in_tensor: Any, out_split_sizes: Any = None, in_split_sizes: Any = None,
                    group: Any = None, sync_op: bool = True, use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.alltoall_single`."""
    _check_stream(sync_op, use_calc_stream)
    return _c.alltoall_single(out_tensor, in_tensor, in_split_sizes, out_split_sizes, group, sync_op)


def broadcast(tensor: Any, src: int, group: Any = None, sync_op: bool = True, use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.broadcast`."""
    _check_stream(sync_op, use_calc_stream)
    return _c.broadcast(tensor, src, group, sync_op)


def reduce(tensor: Any, dst: int = 0, op: int = _c.ReduceOp.SUM, group: Any = None, sync_op: bool = True,
           use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.reduce`."""
    _check_stream(sync_op, use_calc_stream)
    return _c.reduce(tensor, dst, op, group, sync_op)


def reduce_scatter(tensor: Any, tensor_or_tensor_list: Any, op: int = _c.ReduceOp.SUM, group: Any = None,
                   sync_op: bool = True, use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.reduce_scatter`; a Tensor input is split evenly along axis 0."""
    _check_stream(sync_op, use_calc_stream)
    return _c.reduce_scatter(tensor, tensor_or_tensor_list, op, group, sync_op)


def scatter(tensor: Any, tensor_or_tensor_list: Any = None, src: int = 0, group: Any = None, sync_op: bool = True,
            use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.scatter`; a Tensor input is split evenly along axis 0."""
    _check_stream(sync_op, use_calc_stream)
    return _c.scatter(tensor, tensor_or_tensor_list, src, group, sync_op)


def gather(tensor: Any, gather_list: Any = None, dst: int = 0, group: Any = None, sync_op: bool = True,
           use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.gather`."""
    _check_stream(sync_op, use_calc_stream)
    return _c.gather(tensor, gather_list, dst, group, sync_op)


def send(tensor: Any, dst: int = 0, group: Any = None, sync_op: bool = True, use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.send`."""
    _check_stream(sync_op, use_calc_stream)
    return _c.send(tensor, dst, group, sync_op)


def recv(tensor: Any, src: int = 0, group: Any = None, sync_op: bool = True, use_calc_stream: bool = False) -> Any:
    """See :func:`paddle.distributed.recv`."""
    _check_stream(sync_op, use_calc_stream)
    return _c.recv(tensor, src, group, sync_op)
