"""``Fleet``: the collective-training entry point (init, roles, distributed model/optimizer)."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from pagaie.distributed import _env
from pagaie.distributed.fleet.role_maker import PaddleCloudRoleMaker, _RoleMakerBase
from pagaie.distributed.fleet.strategy import DistributedStrategy
from pagaie.distributed.fleet.topology import CommunicateTopology, HybridCommunicateGroup

__all__ = ["Fleet", "UtilBase"]

_PS_MESSAGE = ("parameter-server training is not supported by pagaie; use collective training "
               "(fleet.init(is_collective=True))")


class _NotAStrategyError(TypeError, AttributeError):
    """fleet.init given a strategy that is not a DistributedStrategy: Paddle fails an attribute look-up."""


class _NoRoleMakerError(AttributeError, RuntimeError):
    """A UtilBase used before fleet.init gave it a role maker."""


class UtilBase:
    """Small collective helpers over the workers of a fleet job (numpy in, numpy out).

    Examples:
        >>> from pagaie.distributed import fleet
        >>> _ = fleet.init(is_collective=True)
        >>> fleet.util.get_file_shard(["a", "b", "c"])
        ['a', 'b', 'c']
    """

    def __init__(self) -> None:
        self.role_maker: _RoleMakerBase | None = None

    def _set_role_maker(self, role_maker: _RoleMakerBase) -> None:
        self.role_maker = role_maker

    def _rm(self, api: str = "UtilBase") -> _RoleMakerBase:
        if self.role_maker is None:  # Paddle fails on the missing role maker with an AttributeError
            raise _NoRoleMakerError(f"paddle.distributed.fleet.UtilBase.{api}: this UtilBase has no role maker; "
                                    "call fleet.init() and use fleet.util")
        return self.role_maker

    def all_reduce(self, input: Any, mode: str = "sum", comm_world: str = "worker") -> Any:
        """Reduce a numpy array over the workers ('sum', 'min' or 'max').

        Outside a distributed job (a single process) the input comes back unchanged, as in Paddle.
        """
        rm = self._rm("all_reduce")
        if rm._is_non_distributed():
            return input
        if mode not in ("sum", "min", "max"):
            raise ValueError(f"paddle.distributed.fleet.UtilBase.all_reduce: mode must be 'sum', 'min' or 'max', "
                             f"but received {mode!r}")
        return rm._all_reduce(input, mode, comm_world)

    def all_gather(self, input: Any, comm_world: str = "worker") -> Any:
        """Gather one value from every worker into a list (a single process: the value itself)."""
        rm = self._rm("all_gather")
        if rm._is_non_distributed():
            return input
        return rm._all_gather(input, comm_world)

    def barrier(self, comm_world: str = "worker") -> None:
        """Wait for every worker."""
        rm = self._rm("barrier")
        if not rm._is_non_distributed():
            rm._barrier(comm_world)

    def get_file_shard(self, files: list[str]) -> list[str]:
        """This worker's share of ``files`` (contiguous blocks, the first ones one longer)."""
        if not isinstance(files, list):
            raise TypeError(f"paddle.distributed.fleet.UtilBase.get_file_shard: files must be a list, "
                            f"but received {type(files).__name__}")
        rm = self._rm("get_file_shard")
        n, i = rm._worker_num(), rm._worker_index()
        base, extra = divmod(len(files), n)
        start = i * base + min(i, extra)
        return files[start:start + base + (1 if i < extra else 0)]

    def get_heter_file_shard(self, files: list[str]) -> list[str]:
        return self.get_file_shard(files)

    def print_on_rank(self, message: str, rank_id: int) -> None:
        """Print ``message`` on worker ``rank_id`` only."""
        if self._rm("print_on_rank")._worker_index() == rank_id:
            print(message)


class Fleet:
    """The state of a fleet job; ``paddle.distributed.fleet`` exposes one instance's methods.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> _ = fleet.init(is_collective=True)
        >>> fleet.worker_index(), fleet.worker_num(), fleet.is_first_worker()
        (0, 1, True)
    """

    def __init__(self) -> None:
        self._role_maker: _RoleMakerBase | None = None
        self._user_defined_strategy: DistributedStrategy | None = None
        self._is_collective = False
        self._hcg: HybridCommunicateGroup | None = None
        self._util = UtilBase()

    # ---- set-up ------------------------------------------------------------------------
    def init(self, role_maker: Any = None, is_collective: bool = False, strategy: DistributedStrategy | None = None,
             log_level: int | str = "INFO") -> "Fleet":
        """Start the job: read the role, start the parallel environment, build the hybrid groups."""
        if strategy is None:
            strategy = DistributedStrategy()
        if not isinstance(strategy, DistributedStrategy):
            raise _NotAStrategyError(f"paddle.distributed.fleet.init: strategy must be a DistributedStrategy, "
                                     f"but received {type(strategy).__name__}")
        if role_maker is None:
            role_maker = PaddleCloudRoleMaker(is_collective=is_collective)
        if not isinstance(role_maker, _RoleMakerBase):
            raise ValueError(f"paddle.distributed.fleet.init: role_maker must be a RoleMaker, "
                             f"but received {type(role_maker).__name__}")
        self._role_maker = role_maker
        self._is_collective = is_collective or role_maker._is_collective
        self._user_defined_strategy = strategy
        self._util._set_role_maker(role_maker)
        if not self._is_collective:
            return self
        world = _env.get_world_size()
        if world > 1 and not _env.is_initialized():
            _env.init_parallel_env()
        self._hcg = HybridCommunicateGroup(self._topology(strategy, world), strategy.hybrid_configs)
        return self

    @staticmethod
    def _topology(strategy: DistributedStrategy, world: int) -> CommunicateTopology:
        cfg = strategy.hybrid_configs
        dims = {"pipe": cfg["pp_degree"], "sharding": cfg["sharding_degree"], "sep": cfg["sep_degree"],
                "context": cfg["cp_degree"], "model": cfg["mp_degree"]}
        other = int(np.prod(list(dims.values())))
        dp = cfg["dp_degree"]
        if dp == -1:
            if world % other:
                raise ValueError(f"paddle.distributed.fleet.init: the world size {world} is not divisible by "
                                 f"mp_degree * pp_degree * sharding_degree * sep_degree * cp_degree = {other}")
            dp = world // other
        if dp * other != world:
            raise ValueError(f"paddle.distributed.fleet.init: the product of the hybrid degrees ({dp * other}) "
                             f"must equal the world size {world}")
        names = ["data", "pipe", "sharding", "sep", "context", "model"]
        return CommunicateTopology(names, [dp, dims["pipe"], dims["sharding"], dims["sep"], dims["context"],
                                           dims["model"]])

    def _rm(self) -> _RoleMakerBase:
        if self._role_maker is None:
            raise RuntimeError("paddle.distributed.fleet: call fleet.init() first")
        return self._role_maker

    @property
    def util(self) -> UtilBase:
        return self._util

    # ---- roles -------------------------------------------------------------------------
    def is_first_worker(self) -> bool:
        return self._rm()._is_first_worker()

    def worker_index(self) -> int:
        return self._rm()._worker_index()

    def worker_num(self) -> int:
        return self._rm()._worker_num()

    def node_num(self) -> int:
        return self._rm()._node_num()

    def local_rank(self) -> str | None:
        """This process's rank on its node (``PADDLE_RANK_IN_NODE``, set by the launcher; else None)."""
        self._rm()
        return os.environ.get("PADDLE_RANK_IN_NODE")

    rank_in_node = local_rank

    def local_device_ids(self) -> str | None:
        return os.environ.get("FLAGS_selected_gpus", os.environ.get("PADDLE_LOCAL_DEVICE_IDS"))

    def world_device_ids(self) -> str | None:
        return os.environ.get("PADDLE_WORLD_DEVICE_IDS", self.local_device_ids())

    def world_size(self) -> int:
        return _env.get_world_size()

    nranks = world_size

    def rank(self) -> int:
        return _env.get_rank()

    def is_worker(self) -> bool:
        return self._rm()._is_worker()

    def is_server(self) -> bool:
        return self._rm()._is_server()

    def is_coordinator(self) -> bool:
        return self._rm()._is_coordinator()

    def worker_endpoints(self, to_string: bool = False) -> list[str] | str:
        eps = self._rm()._get_trainer_endpoints()
        return ",".join(eps) if to_string else eps

    def server_num(self) -> int:
        return self._rm()._server_num()

    def server_index(self) -> int:
        return self._rm()._server_index()

    def server_endpoints(self, to_string: bool = False) -> list[str] | str:
        eps = self._rm()._get_pserver_endpoints()
        return ",".join(eps) if to_string else eps

    def barrier_worker(self) -> None:
        """Wait until every worker reaches this call."""
        self._rm()._barrier("worker")

    def all_reduce(self, input: Any, mode: str = "sum") -> Any:
        """Reduce a numpy array over the workers ('sum', 'mean' or 'max')."""
        if mode == "mean":
            return self._rm()._all_reduce(input, "sum") / self.worker_num()
        return self._rm()._all_reduce(input, mode)

    # ---- model and optimizer -------------------------------------------------------------
    def get_hybrid_communicate_group(self) -> HybridCommunicateGroup:
        if self._hcg is None:
            raise RuntimeError("paddle.distributed.fleet.get_hybrid_communicate_group: call "
                               "fleet.init(is_collective=True) first")
        return self._hcg

    def _check_hybrid(self, api: str) -> None:
        hcg = self.get_hybrid_communicate_group()
        topo = hcg.topology()
        for name in ("pipe", "sharding", "sep", "context", "model"):
            if topo.get_dim(name) > 1:
                raise NotImplementedError(f"paddle.distributed.fleet.{api}: {name} parallelism (degree "
                                          f"{topo.get_dim(name)}) is not supported; only data parallelism is")

    def distributed_model(self, model: Any) -> Any:
        """Wrap ``model`` for the job's parallelism: ``paddle.DataParallel`` when there are several ranks."""
        from pagaie.distributed.parallel import DataParallel
        if model is None:
            raise AssertionError("paddle.distributed.fleet.distributed_model: model should not be None")
        self._check_hybrid("distributed_model")
        if _env.get_world_size() <= 1:
            return model
        strategy = self._user_defined_strategy
        return DataParallel(model, comm_buffer_size=strategy.fuse_grad_size_in_MB,
                            last_comm_buffer_size=strategy.last_comm_group_size_MB,
                            find_unused_parameters=strategy.find_unused_parameters,
                            group=self._hcg.get_data_parallel_group())

    def distributed_optimizer(self, optimizer: Any, strategy: DistributedStrategy | None = None) -> Any:
        """Return ``optimizer`` for distributed use (gradients are averaged by the distributed model)."""
        if strategy is not None:
            self._user_defined_strategy = strategy
        if self._hcg is not None:
            self._check_hybrid("distributed_optimizer")
        return optimizer

    def distributed_scaler(self, scaler: Any) -> Any:
        """Return the AMP ``scaler`` for distributed use (found-inf flags agree on all ranks here)."""
        return scaler

    def minimize(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None) -> Any:
        raise NotImplementedError("paddle.distributed.fleet.minimize: static-graph fleet training is not "
                                  "supported; call loss.backward() and optimizer.step() in dygraph")

    # ---- parameter-server mode (not supported) ---------------------------------------
    def init_worker(self, scopes: Any = None) -> None:
        if not self._is_collective:
            raise NotImplementedError(f"paddle.distributed.fleet.init_worker: {_PS_MESSAGE}")

    def init_server(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"paddle.distributed.fleet.init_server: {_PS_MESSAGE}")

    def run_server(self) -> None:
        raise NotImplementedError(f"paddle.distributed.fleet.run_server: {_PS_MESSAGE}")

    def stop_worker(self) -> None:
        if not self._is_collective:
            raise NotImplementedError(f"paddle.distributed.fleet.stop_worker: {_PS_MESSAGE}")

    def save_persistables(self, executor: Any, dirname: str, main_program: Any = None, mode: int = 0) -> None:
        raise NotImplementedError("paddle.distributed.fleet.save_persistables: static-graph fleet checkpoints are "
                                  "not supported; use paddle.save(model.state_dict(), path)")

    def save_inference_model(self, executor: Any, dirname: str, feeded_var_names: list, target_vars: list,
                             main_program: Any = None, export_for_deployment: bool = True, mode: int = 0) -> None:
        raise NotImplementedError("paddle.distributed.fleet.save_inference_model: not supported; use "
                                  "paddle.jit.save")
