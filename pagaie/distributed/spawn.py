"""``paddle.distributed.spawn``: run a function in several local processes, one per rank."""
from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import socket
import sys
import time
import traceback
from typing import Any, Callable

import torch

__all__ = ["spawn", "MultiprocessContext", "free_ports"]


def free_ports(n: int, host: str = "127.0.0.1") -> list[int]:
    """``n`` distinct TCP ports that are free on ``host`` now."""
    socks, ports = [], []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((host, 0))
            socks.append(s)
            ports.append(s.getsockname()[1])
    finally:
        for s in socks:
            s.close()
    return ports


def trainer_envs(nprocs: int, host: str = "127.0.0.1", backend: str | None = None,
                 devices: list[str] | None = None) -> list[dict[str, str]]:
    """Paddle's environment variables for ``nprocs`` local trainers (one dict per rank)."""
    ports = free_ports(nprocs + 1, host)
    endpoints = [f"{host}:{p}" for p in ports[1:]]
    envs = []
    for rank in range(nprocs):
        env = {
            "PADDLE_TRAINER_ID": str(rank), "PADDLE_TRAINERS_NUM": str(nprocs),
            "PADDLE_TRAINER_ENDPOINTS": ",".join(endpoints), "PADDLE_CURRENT_ENDPOINT": endpoints[rank],
            "PADDLE_MASTER": f"{host}:{ports[0]}", "PADDLE_LOCAL_RANK": str(rank),
            "PADDLE_RANK_IN_NODE": str(rank), "PADDLE_LOCAL_SIZE": str(nprocs),
            "PADDLE_GLOBAL_RANK": str(rank), "PADDLE_GLOBAL_SIZE": str(nprocs), "PADDLE_NNODES": "1",
        }
        if backend:
            env["PADDLE_DISTRI_BACKEND"] = backend
        if devices:
            env["FLAGS_selected_gpus"] = devices[rank % len(devices)]
        envs.append(env)
    return envs


def _worker(func: Callable, args: tuple, env: dict, errors: Any, rank: int) -> None:
    os.environ.update(env)
    try:
        func(*args)
    except KeyboardInterrupt:
        pass
    except BaseException:
        errors.put((rank, traceback.format_exc()))
        sys.exit(1)


class MultiprocessContext:
    """The processes started by :func:`spawn`; ``join()`` waits for them and raises a child's error."""

    def __init__(self, processes: list, errors: Any) -> None:
        self.processes = processes
        self.error_queues = errors

    def join(self, timeout: float | None = None) -> bool:
        """Wait for all processes; return True when all ended (raise if one failed)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            # liveness first: a child that ends between the two looks would otherwise be neither
            # alive nor failed, and its error lost
            alive = any(p.is_alive() for p in self.processes)
            failed = [(i, p.exitcode) for i, p in enumerate(self.processes) if p.exitcode not in (None, 0)]
            if failed or not alive:
                break
            if deadline is not None and time.monotonic() >= deadline:
                return False
            multiprocessing.connection.wait([p.sentinel for p in self.processes if p.is_alive()], timeout=0.1)
        if failed:
            for p in self.processes:
                if p.is_alive():
                    p.terminate()
            messages = []
            while not self.error_queues.empty():
                rank, tb = self.error_queues.get()
                messages.append(f"\n\n----------------------------------------------\n"
                                f"Process {rank} terminated with the following error:\n"
                                f"----------------------------------------------\n\n{tb}")
            if not messages:
                messages = [f"\nProcess {i} terminated with exit code {code}" for i, code in failed]
            raise Exception("".join(messages))
        return True


_OPTIONS = ("start_method", "ips", "gpus", "xpus", "print_config", "backend")
_DEPRECATED_OPTIONS = ("selected_devices", "started_port", "cluster_node_ips", "node_ip", "use_paddlecloud")
_BACKENDS = ("nccl", "gloo", "bkcl", "auto", "heter", "xccl", "flagcx")


def _check_options(options: dict) -> None:
    """As Paddle: an unknown option is an error, a deprecated one a warning."""
    import warnings
    for key in options:
        if key in _DEPRECATED_OPTIONS:
            warnings.warn(f"paddle.distributed.spawn: the option {key!r} is deprecated; use the options "
                          f"{list(_OPTIONS)}")
        elif key not in _OPTIONS:
            raise ValueError(f"paddle.distributed.spawn: the option {key!r} is not supported; the options are "
                             f"{list(_OPTIONS)}")


def _check_backend(backend: str | None) -> None:
    """As Paddle: a backend outside its list, or one for hardware this build lacks, is a ValueError."""
    if backend is None:
        return
    if backend not in _BACKENDS:
        raise ValueError(f"paddle.distributed.spawn: backend must be one of {list(_BACKENDS)}, "
                         f"but received {backend!r}")
    if backend == "nccl" and not torch.cuda.is_available():
        raise ValueError("paddle.distributed.spawn: backend 'nccl' needs CUDA devices, and none is available")
    if backend in ("bkcl", "flagcx"):
        raise ValueError(f"paddle.distributed.spawn: backend {backend!r} needs hardware this build does not "
                         f"support; use 'gloo' or 'nccl'")


def spawn(func: Callable, args: tuple = (), nprocs: int = -1, join: bool = True, daemon: bool = False,
          **options: Any) -> MultiprocessContext:
    """Start ``nprocs`` processes that each call ``func(*args)`` with Paddle's trainer environment.

    Each child gets ``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``, ``PADDLE_TRAINER_ENDPOINTS``,
    ``PADDLE_CURRENT_ENDPOINT`` and ``PADDLE_MASTER`` set, so ``func`` calls
    :func:`paddle.distributed.init_parallel_env` as under the launcher.

    Args:
        func (callable): a picklable (module-level) function.
        args (tuple): its arguments.
        nprocs (int): the number of processes; -1 means one per GPU (or per CPU core without GPU).
        join (bool): wait for the processes to end.
        daemon (bool): start daemonic processes.
        **options: ``start_method`` ('spawn', 'fork', 'forkserver'), ``backend`` ('gloo', 'nccl'),
            ``gpus`` (comma-separated device ids), ``ips`` (must be local).

    Returns:
        MultiprocessContext: the processes (after they end when ``join``).

    Examples:
        >>> import pagaie.distributed as dist
        >>> callable(dist.spawn)
        True
    """
    _check_options(options)
    backend = options.get("backend")
    _check_backend(backend)
    gpus = options.get("gpus") or os.environ.get("CUDA_VISIBLE_DEVICES")
    devices = [d.strip() for d in gpus.split(",") if d.strip()] if gpus else None
    if nprocs == -1:
        nprocs = len(devices) if devices else (torch.cuda.device_count() or multiprocessing.cpu_count())
    if nprocs < 1:
        raise ValueError(f"paddle.distributed.spawn: nprocs must be positive, but received {nprocs}")
    if devices is None and torch.cuda.is_available() and backend in (None, "auto", "nccl"):
        devices = [str(i) for i in range(torch.cuda.device_count())]
    if backend in (None, "auto"):
        backend = "nccl" if devices and torch.cuda.is_available() else "gloo"
    ips = options.get("ips", "127.0.0.1")
    if ips not in ("127.0.0.1", "localhost"):
        raise NotImplementedError("paddle.distributed.spawn: only local processes are supported (ips='127.0.0.1')")
    ctx = multiprocessing.get_context(options.get("start_method", "spawn"))
    errors = ctx.SimpleQueue()
    processes = []
    for rank, env in enumerate(trainer_envs(nprocs, backend=backend, devices=devices if backend == "nccl" else None)):
        p = ctx.Process(target=_worker, args=(func, tuple(args), env, errors, rank), daemon=daemon)
        p.start()
        processes.append(p)
    context = MultiprocessContext(processes, errors)
    if join:
        context.join()
    return context
