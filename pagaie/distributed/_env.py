"""The parallel environment: Paddle's environment variables, process groups, initialisation.

One process group of torch.distributed stands behind each :class:`Group` (gloo on CPU, nccl
when CUDA is used). A single process that never initialised a group is a world of one:
``get_rank()`` is 0, ``get_world_size()`` is 1 and every collective is an identity.
"""
from __future__ import annotations

import atexit
import datetime
import os
import warnings
from typing import Any

import torch
import torch.distributed as tdist

__all__ = ["ParallelEnv", "ParallelMode", "Group", "init_parallel_env", "is_initialized", "is_available",
           "get_rank", "get_world_size", "new_group", "get_group", "get_backend", "destroy_process_group",
           "restart_process_group", "shutdown_process_group", "gloo_init_parallel_env", "gloo_barrier",
           "gloo_release", "create_nccl_config"]

_DEFAULT_GROUP_NAME = "_default_pg"


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


class ParallelEnv:
    """The parallel environment of this process, read from Paddle's environment variables.

    ``PADDLE_TRAINER_ID`` (rank), ``PADDLE_TRAINERS_NUM`` (world size),
    ``PADDLE_CURRENT_ENDPOINT``, ``PADDLE_TRAINER_ENDPOINTS`` and ``FLAGS_selected_gpus``
    (device id); a process started alone is rank 0 of a world of 1.

    Examples:
        >>> import pagaie.distributed as dist
        >>> env = dist.ParallelEnv()
        >>> env.rank, env.world_size
        (0, 1)
    """

    def __init__(self) -> None:
        self._rank = _env_int("PADDLE_TRAINER_ID", 0)
        self._world_size = _env_int("PADDLE_TRAINERS_NUM", 1)
        self._device_type = ""  # Paddle's custom-device type; pagaie has none
        selected = os.environ.get("FLAGS_selected_gpus", "")
        self._device_id = int(selected.split(",")[0]) if selected else _env_int("PADDLE_LOCAL_RANK", 0)
        self._trainer_endpoints = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",")
        self._current_endpoint = os.environ.get("PADDLE_CURRENT_ENDPOINT", "")
        self._nrings = _env_int("FLAGS_nccl_nrings", 1)
        self._pg_timeout = _env_int("PADDLE_PG_TIMEOUT", 1800000)

    @property
    def rank(self) -> int:
        """This process's rank (``PADDLE_TRAINER_ID``, default 0)."""
        return self._rank

    @property
    def world_size(self) -> int:
        """The number of processes (``PADDLE_TRAINERS_NUM``, default 1)."""
        return self._world_size

    @property
    def device_id(self) -> int:
        """The accelerator this process uses (``FLAGS_selected_gpus``)."""
        return self._device_id

    @property
    def device_type(self) -> str:
        """The custom-device type of the job ('' without custom devices, as always here)."""
        return self._device_type

    @property
    def current_endpoint(self) -> str:
        """``ip:port`` of this process (``PADDLE_CURRENT_ENDPOINT``)."""
        return self._current_endpoint

    @property
    def trainer_endpoints(self) -> list[str]:
        """``ip:port`` of every process (``PADDLE_TRAINER_ENDPOINTS``)."""
        return self._trainer_endpoints

    @property
    def nrings(self) -> int:
        return self._nrings

    @property
    def pg_timeout(self) -> int:
        return self._pg_timeout

    # Paddle's older names.
    local_rank = rank
    nranks = world_size
    dev_id = device_id


class ParallelMode:
    """The kinds of parallelism of fleet's hybrid strategy.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.ParallelMode.DATA_PARALLEL
        0
    """

    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4


class Group:
    """A communication group: some ranks of the job and the torch process group joining them.

    Args:
        rank_in_group (int): this process's rank inside the group (-1 when not a member).
        id (int): the group's id (0 is the global group).
        ranks (list[int]): the global ranks in the group.
        pg: the torch.distributed process group, or None for a world of one process.
        name (str, optional): the group's name.

    Examples:
        >>> import pagaie.distributed as dist
        >>> g = dist.new_group([0])
        >>> g.nranks, g.rank, g.is_member()
        (1, 0, True)
    """

    def __init__(self, rank_in_group: int, id: int, ranks: list[int], pg: Any = None,
                 name: str | None = None) -> None:
        self._rank_in_group = rank_in_group
        self._world_size = len(ranks) if rank_in_group >= 0 else -1
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name

    @property
    def rank(self) -> int:
        return self._rank_in_group

    @property
    def ranks(self) -> list[int]:
        return self._ranks

    @property
    def nranks(self) -> int:
        return len(self._ranks)

    @property
    def world_size(self) -> int:
        return self._world_size

    @property
    def id(self) -> int:
        return self._id

    @property
    def name(self) -> str | None:
        return self._name

    @property
    def process_group(self) -> Any:
        """The torch.distributed process group behind this group (None when alone)."""
        return self._pg

    @property
    def backend(self) -> str:
        return _backend_name(self._pg)

    def is_member(self) -> bool:
        return self._rank_in_group >= 0

    def get_group_rank(self, rank: int) -> int:
        """The rank inside this group of global ``rank`` (-1 when it is not a member)."""
        return self._ranks.index(rank) if rank in self._ranks else -1

    def get_global_rank(self, rank: int) -> int:
        """The global rank of the group's ``rank``-th member."""
        return self._ranks[rank]

    def __repr__(self) -> str:
        ranks = ", ".join(str(r) for r in self._ranks)
        return f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: {ranks}; name: {self.name}"


_groups: dict[int, Group] = {}
_backend: str | None = None


def _backend_name(pg: Any) -> str:
    if pg is None:
        return "GLOO" if not torch.cuda.is_available() else "NCCL"
    return str(tdist.get_backend(pg)).upper()


def _local_group() -> Group:
    """The global group of a process that runs alone (no torch process group)."""
    g = _groups.get(0)
    if g is None:
        g = Group(0, 0, [0], None, _DEFAULT_GROUP_NAME)
        _groups[0] = g
    return g


def _global_group() -> Group:
    """The group that collectives use when ``group`` is None."""
    g = _groups.get(0)
    if g is not None:
        return g
    if ParallelEnv().world_size > 1:
        raise RuntimeError("The global group is not initialized.")
    return _local_group()


def _master_endpoint(env: ParallelEnv) -> str:
    addr, port = os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT")
    if addr and port:
        return f"{addr}:{port}"
    master = os.environ.get("PADDLE_MASTER")
    if master:
        return master
    endpoint = env.trainer_endpoints[0] if env.trainer_endpoints else ""
    if not endpoint:
        raise ValueError("paddle.distributed.init_parallel_env: no master endpoint: set MASTER_ADDR and "
                         "MASTER_PORT, PADDLE_MASTER or PADDLE_TRAINER_ENDPOINTS, or start the job with "
                         "pagaie.distributed.launch")
    return endpoint


def _choose_backend() -> str:
    backend = os.environ.get("PADDLE_DISTRI_BACKEND", "auto").lower()
    if backend in ("auto", ""):
        return "nccl" if torch.cuda.is_available() else "gloo"
    if backend not in ("gloo", "nccl"):
        raise NotImplementedError(f"paddle.distributed.init_parallel_env: backend {backend!r} is not supported; "
                                  "use 'gloo' (CPU) or 'nccl' (CUDA)")
    return backend


def init_parallel_env(nccl_config: Any = None) -> Group | None:
    """Start the parallel environment of this process and return the global group.

    Reads Paddle's environment variables (``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``, the
    master endpoint from ``MASTER_ADDR``/``MASTER_PORT``, ``PADDLE_MASTER`` or the first of
    ``PADDLE_TRAINER_ENDPOINTS``). With fewer than two processes it warns and does nothing.

    Args:
        nccl_config (optional): accepted for compatibility; unused.

    Returns:
        Group: the global group, or None when not parallel.

    Examples:
        >>> import warnings
        >>> import pagaie.distributed as dist
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     print(dist.init_parallel_env())
        None
    """
    global _backend
    env = ParallelEnv()
    if env.world_size < 2:
        warnings.warn("Currently not a parallel execution environment, "
                      "`paddle.distributed.init_parallel_env` will not do anything.")
        return None
    if 0 in _groups and _groups[0].process_group is not None:
        return _groups[0]
    rank, world_size = env.rank, env.world_size
    if not 0 <= rank < world_size:
        raise ValueError(f"paddle.distributed.init_parallel_env: PADDLE_TRAINER_ID must be in [0, {world_size}), "
                         f"but received {rank}")
    backend = _choose_backend()
    from pagaie import device as _device
    if backend == "nccl":
        torch.cuda.set_device(env.device_id)
        _device.set_device(f"gpu:{env.device_id}")
    else:  # gloo is Paddle's CPU backend: the trainer's tensors live on the CPU
        _device.set_device("cpu")
    timeout = datetime.timedelta(milliseconds=env.pg_timeout)
    if not tdist.is_initialized():
        tdist.init_process_group(backend, init_method=f"tcp://{_master_endpoint(env)}", rank=rank,
                                 world_size=world_size, timeout=timeout)
        atexit.register(_shutdown_at_exit)
    _backend = backend
    group = Group(rank, 0, list(range(world_size)), tdist.group.WORLD, _DEFAULT_GROUP_NAME)
    _groups[0] = group
    return group


def _shutdown_at_exit() -> None:
    # Tear the communicators down before the interpreter does, so that a process that ends
    # first does not abort in the process group's destructor.
    if tdist.is_initialized():
        tdist.destroy_process_group()
    _groups.clear()


def is_initialized() -> bool:
    """Whether the parallel environment has been started by :func:`init_parallel_env`.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.is_initialized()
        False
    """
    g = _groups.get(0)
    return g is not None and g.process_group is not None


def is_available() -> bool:
    """Whether distributed communication is available in this build.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.is_available()
        True
    """
    return bool(tdist.is_available())


def get_rank(group: Group | None = None) -> int:
    """This process's rank in ``group`` (the global rank when None; -1 when not a member).

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.get_rank()
        0
    """
    if group is not None:
        return group.rank
    return ParallelEnv().rank


def get_world_size(group: Group | None = None) -> int:
    """The number of processes in ``group`` (the whole job when None).

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.get_world_size()
        1
    """
    if group is not None:
        return group.world_size
    return ParallelEnv().world_size


def new_group(ranks: list[int] | None = None, backend: str | None = None,
              timeout: datetime.timedelta = datetime.timedelta(seconds=1800),
              nccl_comm_init_option: int = 0, nccl_config: Any = None) -> Group:
    """Create a communication group over some global ranks; every process must call it.

    Args:
        ranks (list[int], optional): the global ranks of the group (all when None).
        backend (str, optional): 'gloo' or 'nccl' (the global group's when None).
        timeout (datetime.timedelta): how long collectives may wait.
        nccl_comm_init_option, nccl_config: accepted for compatibility; unused.

    Returns:
        Group: the new group.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.new_group().ranks
        [0]
    """
    world = _global_group()
    ranks = sorted(world.ranks if ranks is None else [int(r) for r in ranks])
    gid = len(_groups) + max(ParallelEnv().nrings, 9)
    global_rank = get_rank()
    pg = None
    if world.process_group is not None:
        if backend is not None:
            backend = backend.lower()
            if backend not in ("gloo", "nccl"):
                raise ValueError(f"paddle.distributed.new_group: backend must be 'gloo' or 'nccl', "
                                 f"but received {backend!r}")
        pg = tdist.new_group(ranks, timeout=timeout, backend=backend)
    elif any(r != 0 for r in ranks):
        raise ValueError(f"paddle.distributed.new_group: ranks must be within the job's ranks [0], "
                         f"but received {ranks}")
    rank_in_group = ranks.index(global_rank) if global_rank in ranks else -1
    group = Group(rank_in_group, gid, ranks, pg if rank_in_group >= 0 else None, f"{_DEFAULT_GROUP_NAME}{gid}")
    _groups[gid] = group
    return group


def get_group(id: int = 0) -> Group | None:
    """The group with this id (0: the global group), or None with a warning.

    Examples:
        >>> import pagaie.distributed as dist
        >>> g = dist.new_group([0])
        >>> dist.get_group(g.id) is g
        True
    """
    if id == 0 and 0 not in _groups and ParallelEnv().world_size == 1:
        return _local_group()
    if id in _groups:
        return _groups[id]
    warnings.warn(f"Group {id} is not initialized.")
    return None


def get_backend(group: Group | None = None) -> str:
    """The name of the communication backend of ``group``: 'GLOO' or 'NCCL'.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.get_backend() in ('GLOO', 'NCCL')
        True
    """
    return (group or _global_group()).backend


def destroy_process_group(group: Group | None = None) -> None:
    """Destroy ``group``, or every group (ending the parallel environment) when None.

    Examples:
        >>> import pagaie.distributed as dist
        >>> g = dist.new_group([0])
        >>> dist.destroy_process_group(g)
        >>> dist.get_group(g.id) is None
        True
    """
    if group is None:
        if tdist.is_initialized():
            tdist.destroy_process_group()
        _groups.clear()
        return
    _groups.pop(group.id, None)
    if group.process_group is not None and group.id != 0:
        tdist.destroy_process_group(group.process_group)


def shutdown_process_group(group: Group | None = None) -> None:
    """Shut the communicators of ``group`` (all when None) down; same as destroying them here.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.shutdown_process_group(dist.new_group([0]))
    """
    destroy_process_group(group)


def restart_process_group(group: Group | None = None) -> None:
    """Re-create the communicators shut down by :func:`shutdown_process_group`.

    Examples:
        >>> import warnings
        >>> import pagaie.distributed as dist
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     dist.restart_process_group()
    """
    if group is None or group.id == 0:
        init_parallel_env()
    else:
        raise NotImplementedError("paddle.distributed.restart_process_group: re-creating a sub-group is not "
                                  "supported; call paddle.distributed.new_group again")


_gloo_group: Any = None


def gloo_init_parallel_env(rank_id: int, rank_num: int, server_endpoint: str) -> None:
    """Start a CPU (gloo) context for :func:`gloo_barrier`, apart from the main environment.

    Args:
        rank_id (int): this process's rank.
        rank_num (int): the number of processes.
        server_endpoint (str): ``ip:port`` of the rendezvous server.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.gloo_init_parallel_env(0, 1, "127.0.0.1:0")
        Traceback (most recent call last):
        ...
        AssertionError: paddle.distributed.gloo_init_parallel_env: rank_num must be >= 2, but received 1
    """
    global _gloo_group
    if rank_num < 2:  # as Paddle
        raise AssertionError(f"paddle.distributed.gloo_init_parallel_env: rank_num must be >= 2, "
                             f"but received {rank_num}")
    if not 0 <= rank_id < rank_num:
        raise ValueError(f"paddle.distributed.gloo_init_parallel_env: rank_id must be in [0, {rank_num}), "
                         f"but received {rank_id}")
    host, port = server_endpoint.split(":")
    store = tdist.TCPStore(host, int(port), rank_num, rank_id == 0)
    if not tdist.is_initialized():
        tdist.init_process_group("gloo", store=store, rank=rank_id, world_size=rank_num)
        _gloo_group = tdist.group.WORLD
    else:
        _gloo_group = tdist.new_group(list(range(rank_num)), backend="gloo")


def gloo_barrier() -> None:
    """Wait until every process of the gloo context reaches this call."""
    if _gloo_group is None:  # an AssertionError, as in Paddle
        raise AssertionError("paddle.distributed.gloo_barrier: the gloo context is not initialized; call "
                             "gloo_init_parallel_env first")
    tdist.barrier(group=_gloo_group)


def gloo_release() -> None:
    """Release the gloo context started by :func:`gloo_init_parallel_env`."""
    global _gloo_group
    _gloo_group = None


def create_nccl_config(nccl_config: dict | None = None) -> dict | None:
    """Collect NCCL communicator options (accepted and returned as a plain dict here).

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.create_nccl_config({"commName": "tp"})
        {'commName': 'tp'}
    """
    return None if nccl_config is None else dict(nccl_config)
