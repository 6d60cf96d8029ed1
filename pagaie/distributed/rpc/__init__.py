"""``paddle.distributed.rpc``: run Python functions on other named workers.

``init_rpc`` starts this worker's server and meets the others through a store at the master
endpoint; ``rpc_sync``/``rpc_async`` send a pickled function and its arguments to a worker by
name and get the result back. The protocol (``_agent.py``) is our own: plain TCP sockets and
pickle, so only use it inside a trusted network, as Paddle warns for its own RPC.
"""
from __future__ import annotations

import datetime
import os
import pickle
import socket
from typing import Any, Callable

import torch.distributed as tdist

from pagaie.distributed.rpc._agent import Client, FutureWrapper, Server, WorkerInfo

__all__ = ["init_rpc", "shutdown", "rpc_async", "rpc_sync", "get_worker_info", "get_all_worker_infos",
           "get_current_worker_info"]

_DEFAULT_RPC_TIMEOUT = -1


class _State:
    """The RPC state of this process (one agent at a time)."""

    def __init__(self, store: Any, server: Server, client: Client, me: WorkerInfo,
                 infos: list[WorkerInfo]) -> None:
        self.store, self.server, self.client, self.me, self.infos = store, server, client, me, infos
        self.by_name = {w.name: w for w in infos}
        self.barriers = 0

    def barrier(self, tag: str) -> None:
        """Every worker reaches this point; rank 0 (which hosts the store) leaves last."""
        n, rank = len(self.infos), self.me.rank
        prefix = f"rpc/{tag}/{self.barriers}/"
        self.barriers += 1
        self.store.set(f"{prefix}in/{rank}", b"1")
        self.store.wait([f"{prefix}in/{r}" for r in range(n)])
        self.store.set(f"{prefix}out/{rank}", b"1")
        if rank == 0:
            self.store.wait([f"{prefix}out/{r}" for r in range(n)])


_state: _State | None = None


def _require(api: str) -> _State:
    if _state is None:
        raise RuntimeError(f"paddle.distributed.rpc.{api}: RPC is not initialized; call "
                           "paddle.distributed.rpc.init_rpc first")
    return _state


def _env(name: str, api: str, arg: str) -> str:
    value = os.environ.get(name)
    if value is None:
        raise KeyError(f"paddle.distributed.rpc.{api}: {arg} is None and the environment variable "
                       f"{name} is not set")
    return value


def _split_endpoint(endpoint: str, api: str, arg: str) -> tuple[str, int]:
    host, sep, port = str(endpoint).rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"paddle.distributed.rpc.{api}: {arg} must look like 'ip:port', "
                         f"but received {endpoint!r}")
    return host, int(port)


def _own_host(master_host: str) -> str:
    if master_host in ("127.0.0.1", "localhost"):
        return "127.0.0.1"
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def init_rpc(name: str, rank: int | None = None, world_size: int | None = None,
             master_endpoint: str | None = None) -> None:
    """Start this process's RPC worker and wait until all ``world_size`` workers have started.

    Args:
        name (str): this worker's name (unique in the group).
        rank (int, optional): this worker's rank; ``PADDLE_TRAINER_ID`` when None.
        world_size (int, optional): the number of workers; ``PADDLE_TRAINERS_NUM`` when None.
        master_endpoint (str, optional): ``ip:port`` of the store the workers meet at (served
            by rank 0); ``PADDLE_MASTER_ENDPOINT`` when None.

    This worker serves on ``PADDLE_WORKER_ENDPOINT`` when set, else on a free port of this host.

    Examples:
        >>> from pagaie.distributed import rpc
        >>> from pagaie.distributed.spawn import free_ports
        >>> rpc.init_rpc("worker0", rank=0, world_size=1,
        ...              master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
        >>> rpc.rpc_sync("worker0", max, args=(2, 3))
        3
        >>> rpc.shutdown()
    """
    global _state
    if _state is not None:
        raise RuntimeError("paddle.distributed.rpc.init_rpc: RPC is already initialized; call "
                           "paddle.distributed.rpc.shutdown first")
    rank = int(_env("PADDLE_TRAINER_ID", "init_rpc", "rank")) if rank is None else int(rank)
    world_size = (int(_env("PADDLE_TRAINERS_NUM", "init_rpc", "world_size")) if world_size is None
                  else int(world_size))
    if not 0 <= rank < world_size:
        raise ValueError(f"paddle.distributed.rpc.init_rpc: rank must be in [0, {world_size}), "
                         f"but received {rank}")
    if master_endpoint is None:
        master_endpoint = _env("PADDLE_MASTER_ENDPOINT", "init_rpc", "master_endpoint")
    master_host, master_port = _split_endpoint(master_endpoint, "init_rpc", "master_endpoint")
    worker_endpoint = os.environ.get("PADDLE_WORKER_ENDPOINT")
    if worker_endpoint:
        host, port = _split_endpoint(worker_endpoint, "init_rpc", "PADDLE_WORKER_ENDPOINT")
    else:
        host, port = _own_host(master_host), 0
    timeout = datetime.timedelta(seconds=int(os.environ.get("FLAGS_stop_check_timeout", "900")))
    store = tdist.TCPStore(master_host, master_port, world_size, rank == 0, timeout=timeout)
    server = Server(host, port)
    me = WorkerInfo(str(name), rank, host, server.port)
    store.set(f"rpc/info/{rank}", pickle.dumps(tuple(me)))
    infos = [WorkerInfo(*pickle.loads(store.get(f"rpc/info/{r}"))) for r in range(world_size)]
    names = [w.name for w in infos]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        server.close()
        raise AssertionError(f"paddle.distributed.rpc.init_rpc: worker names must be unique, but "
                             f"{repeated} appear more than once")
    _state = _State(store, server, Client(), me, infos)
    _state.barrier("init")


def _call_args(api: str, to: str, args: tuple | None, kwargs: dict | None,
               timeout: int) -> tuple[WorkerInfo, tuple, dict, float | None]:
    st = _require(api)
    if to not in st.by_name:
        raise ValueError(f"paddle.distributed.rpc.{api}: to must be the name of a worker "
                         f"{sorted(st.by_name)}, but received {to!r}")
    return st.by_name[to], tuple(args) if args else (), dict(kwargs) if kwargs else {}, (
        None if timeout <= 0 else float(timeout))


def rpc_async(to: str, fn: Callable[..., Any], args: tuple | None = None, kwargs: dict | None = None,
              timeout: int = _DEFAULT_RPC_TIMEOUT) -> FutureWrapper:
    """Start running ``fn(*args, **kwargs)`` on the worker named ``to``; returns a future.

    Args:
        to (str): the name of the worker.
        fn (callable): a picklable function (defined at module level, importable by the worker).
        args (tuple, optional): positional arguments.
        kwargs (dict, optional): keyword arguments.
        timeout (int): seconds to wait for the result; 0 or less waits forever.

    Returns:
        FutureWrapper: ``wait()`` returns the result, or raises what ``fn`` raised.

    Examples:
        >>> from pagaie.distributed import rpc
        >>> from pagaie.distributed.spawn import free_ports
        >>> rpc.init_rpc("worker0", rank=0, world_size=1,
        ...              master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
        >>> rpc.rpc_async("worker0", divmod, args=(7, 2)).wait()
        (3, 1)
        >>> rpc.shutdown()
    """
    worker, args, kwargs, seconds = _call_args("rpc_async", to, args, kwargs, timeout)
    return _state.client.submit(worker.ip, worker.port, fn, args, kwargs, seconds)


def rpc_sync(to: str, fn: Callable[..., Any], args: tuple | None = None, kwargs: dict | None = None,
             timeout: int = _DEFAULT_RPC_TIMEOUT) -> Any:
    """Run ``fn(*args, **kwargs)`` on the worker named ``to`` and return its result.

    Args:
        to (str): the name of the worker.
        fn (callable): a picklable function (defined at module level, importable by the worker).
        args (tuple, optional): positional arguments.
        kwargs (dict, optional): keyword arguments.
        timeout (int): seconds to wait for the result; 0 or less waits forever.

    Returns:
        The result of ``fn`` (an exception raised by ``fn`` is raised here).

    Examples:
        >>> from pagaie.distributed import rpc
        >>> from pagaie.distributed.spawn import free_ports
        >>> rpc.init_rpc("worker0", rank=0, world_size=1,
        ...              master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
        >>> rpc.rpc_sync("worker0", sorted, args=([3, 1, 2],))
        [1, 2, 3]
        >>> rpc.shutdown()
    """
    return rpc_async(to, fn, args, kwargs, timeout).wait()


def shutdown() -> None:
    """Wait until every worker calls ``shutdown``, then stop this worker's server.

    Examples:
        >>> from pagaie.distributed import rpc
        >>> from pagaie.distributed.spawn import free_ports
        >>> rpc.init_rpc("worker0", rank=0, world_size=1,
        ...              master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
        >>> rpc.shutdown()
    """
    global _state
    st = _require("shutdown")
    st.client.close()          # this worker's own calls finish first,
    st.barrier("shutdown")     # then no worker calls any other: servers may stop
    st.server.close()
    _state = None


def get_worker_info(name: str) -> WorkerInfo:
    """The :class:`WorkerInfo` (name, rank, ip, port) of the worker called ``name``.

    Examples:
        >>> from pagaie.distributed import rpc
        >>> from pagaie.distributed.spawn import free_ports
        >>> rpc.init_rpc("worker0", rank=0, world_size=1,
        ...              master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
        >>> info = rpc.get_worker_info("worker0")
        >>> info.name, info.rank
        ('worker0', 0)
        >>> rpc.shutdown()
    """
    st = _require("get_worker_info")
    if name not in st.by_name:
        raise ValueError(f"paddle.distributed.rpc.get_worker_info: name must be one of "
                         f"{sorted(st.by_name)}, but received {name!r}")
    return st.by_name[name]


def get_all_worker_infos() -> list[WorkerInfo]:
    """The :class:`WorkerInfo` of every worker, in rank order.

    Examples:
        >>> from pagaie.distributed import rpc
        >>> from pagaie.distributed.spawn import free_ports
        >>> rpc.init_rpc("worker0", rank=0, world_size=1,
        ...              master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
        >>> [w.name for w in rpc.get_all_worker_infos()]
        ['worker0']
        >>> rpc.shutdown()
    """
    return list(_require("get_all_worker_infos").infos)


def get_current_worker_info() -> WorkerInfo:
    """The :class:`WorkerInfo` of this worker.

    Examples:
        >>> from pagaie.distributed import rpc
        >>> from pagaie.distributed.spawn import free_ports
        >>> rpc.init_rpc("worker0", rank=0, world_size=1,
        ...              master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
        >>> rpc.get_current_worker_info().ip
        '127.0.0.1'
        >>> rpc.shutdown()
    """
    return _require("get_current_worker_info").me
