"""Role makers: who this process is in a fleet job (worker or server, index, endpoints)."""
from __future__ import annotations

import os
from typing import Any

from pagaie.distributed._env import ParallelEnv

__all__ = ["Role", "PaddleCloudRoleMaker", "UserDefinedRoleMaker"]


class Role:
    """The kinds of process in a fleet job.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> fleet.Role.WORKER, fleet.Role.SERVER
        (1, 2)
    """

    WORKER = 1
    SERVER = 2
    HETER_WORKER = 3
    ALL = 4
    COORDINATOR = 5


class _RoleMakerBase:
    def __init__(self, is_collective: bool = False) -> None:
        self._is_collective = is_collective
        self._role = Role.WORKER
        self._current_id = 0
        self._worker_endpoints: list[str] = []
        self._server_endpoints: list[str] | str = []
        self._non_distributed = False

    def _is_worker(self) -> bool:
        return self._role == Role.WORKER

    def _is_server(self) -> bool:
        return self._role == Role.SERVER

    def _is_coordinator(self) -> bool:
        return self._role == Role.COORDINATOR

    def _is_first_worker(self) -> bool:
        return self._is_worker() and self._current_id == 0

    def _worker_index(self) -> int:
        return self._current_id

    def _server_index(self) -> int:
        return self._current_id

    def _role_id(self) -> int:
        return self._current_id

    def _is_non_distributed(self) -> bool:
        """True when started without a launcher (no Paddle job environment variables)."""
        return self._non_distributed

    def _is_heter_worker(self) -> bool:
        return False

    def _worker_num(self) -> int:
        return max(len(self._worker_endpoints), 1)

    def _server_num(self) -> int:
        return len(self._server_endpoints)

    def _get_trainer_endpoints(self) -> list[str]:
        return self._worker_endpoints

    def _get_pserver_endpoints(self) -> list[str]:
        return self._server_endpoints

    def _node_num(self) -> int:
        return len({e.split(":")[0] for e in self._worker_endpoints}) or 1

    def _barrier(self, comm_world: str = "worker") -> None:
        from pagaie.distributed.communication import barrier
        barrier()

    def _all_reduce(self, input: Any, mode: str = "sum", comm_world: str = "worker") -> Any:
        import numpy as np
        from pagaie.distributed import communication as comm
        from pagaie._core.tensor import Tensor
        arr = np.asarray(input)
        t = Tensor(arr.copy())
        op = {"sum": comm.ReduceOp.SUM, "max": comm.ReduceOp.MAX, "min": comm.ReduceOp.MIN}[mode]
        comm.all_reduce(t, op)
        return t.numpy()

    def _all_gather(self, input: Any, comm_world: str = "worker") -> list:
        from pagaie.distributed.communication import all_gather_object
        out: list = []
        all_gather_object(out, input)
        return out


class PaddleCloudRoleMaker(_RoleMakerBase):
    """The role read from Paddle's environment variables (as set by the launcher).

    Examples:
        >>> from pagaie.distributed import fleet
        >>> r = fleet.PaddleCloudRoleMaker(is_collective=True)
        >>> r._worker_index(), r._worker_num()
        (0, 1)
    """

    def __init__(self, is_collective: bool = False, **kwargs: Any) -> None:
        super().__init__(is_collective)
        self._kwargs = kwargs
        if is_collective:
            self._collective_env()
        else:
            self._ps_env()

    def _collective_env(self) -> None:
        env = ParallelEnv()
        self._current_id = env.rank
        eps = [e for e in env.trainer_endpoints if e]
        # As Paddle: without PADDLE_TRAINER_ENDPOINTS the job is not distributed (one local trainer).
        self._non_distributed = not os.environ.get("PADDLE_TRAINER_ENDPOINTS")
        self._worker_endpoints = eps or [env.current_endpoint or "127.0.0.1:6170"] * env.world_size

    def _ps_env(self) -> None:
        servers = os.environ.get("PADDLE_PSERVERS_IP_PORT_LIST")
        if servers is None:
            # As Paddle: no parameter servers listed -> a single, non-distributed worker with
            # no known endpoints.
            self._server_endpoints = ""
            self._worker_endpoints = []
            self._non_distributed = True
            return
        self._server_endpoints = [e for e in servers.split(",") if e]
        workers = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "")
        self._worker_endpoints = [e for e in workers.split(",") if e]
        role = os.environ.get("TRAINING_ROLE", "TRAINER").upper()
        if role not in ("TRAINER", "PSERVER"):
            raise ValueError(f"paddle.distributed.fleet.PaddleCloudRoleMaker: TRAINING_ROLE must be TRAINER or "
                             f"PSERVER, but received {role!r}")
        if role == "PSERVER":
            self._role = Role.SERVER
            me = f"{os.environ.get('POD_IP', '')}:{os.environ.get('PADDLE_PORT', '')}"
            self._current_id = self._server_endpoints.index(me) if me in self._server_endpoints else 0
        else:
            self._role = Role.WORKER
            self._current_id = int(os.environ.get("PADDLE_TRAINER_ID", "0"))
        n = int(os.environ.get("PADDLE_TRAINERS_NUM", "0") or 0)
        if not self._worker_endpoints and n:
            self._worker_endpoints = ["127.0.0.1:6170"] * n


class UserDefinedRoleMaker(_RoleMakerBase):
    """A role given explicitly: ``current_id``, ``role``, ``worker_num``, ``worker_endpoints``...

    Examples:
        >>> from pagaie.distributed import fleet
        >>> r = fleet.UserDefinedRoleMaker(is_collective=True, current_id=0, role=fleet.Role.WORKER,
        ...                                worker_num=1, server_endpoints=[])
        >>> r._is_first_worker()
        True
    """

    def __init__(self, is_collective: bool = False, init_gloo: bool = False, **kwargs: Any) -> None:
        super().__init__(is_collective)
        self._init_gloo = init_gloo
        self._kwargs = kwargs
        self._current_id = int(kwargs.get("current_id", 0))
        self._role = kwargs.get("role", Role.WORKER)
        n = int(kwargs.get("worker_num", 0) or 0)
        eps = list(kwargs.get("worker_endpoints", []) or [])
        self._worker_endpoints = eps or ["127.0.0.1:6170"] * max(n, 1)
        self._server_endpoints = list(kwargs.get("server_endpoints", []) or [])
