"""Hybrid-parallel topology: ``CommunicateTopology`` (rank <-> coordinates) and the groups per axis."""
from __future__ import annotations

import itertools
from typing import Any

from pagaie.distributed._env import Group, get_rank, get_world_size, new_group

__all__ = ["CommunicateTopology", "HybridCommunicateGroup", "ParallelMode"]

from pagaie.distributed._env import ParallelMode  # noqa: E402


class CommunicateTopology:
    """A grid of ranks: one axis per parallelism kind (data, pipe, sharding, sep, context, model).

    Ranks are laid out row-major over the axes in the given order.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> topo = fleet.CommunicateTopology(["data", "model"], [2, 2])
        >>> topo.world_size(), topo.get_rank(data=1, model=0), topo.get_comm_list("model")
        (4, 2, [[0, 1], [2, 3]])
    """

    def __init__(self, hybrid_group_names: list[str] = ["data", "pipe", "sharding", "sep", "context", "model"],
                 dims: list[int] = [1, 1, 1, 1, 1, 1]) -> None:
        if len(hybrid_group_names) != len(dims):
            raise ValueError(f"paddle.distributed.fleet.CommunicateTopology: hybrid_group_names and dims must "
                             f"have the same length, but received {len(hybrid_group_names)} and {len(dims)}")
        self._parallel_names = list(hybrid_group_names)
        self._dims = [int(d) for d in dims]
        self._coords = list(itertools.product(*[range(d) for d in self._dims]))
        self._rank_of = {c: i for i, c in enumerate(self._coords)}
        self._world_size = len(self._coords)

    def get_hybrid_group_names(self) -> list[str]:
        return self._parallel_names

    def get_dim(self, axis_name: str) -> int:
        return self._dims[self._parallel_names.index(axis_name)]

    get_dim_size = get_dim

    def world_size(self) -> int:
        return self._world_size

    def get_rank(self, **args: int) -> int:
        """The rank at the given coordinates (one keyword per axis)."""
        if sorted(args) != sorted(self._parallel_names):
            raise ValueError(f"paddle.distributed.fleet.CommunicateTopology.get_rank: expected coordinates for "
                             f"{self._parallel_names}, but received {sorted(args)}")
        return self._rank_of[tuple(args[n] for n in self._parallel_names)]

    def get_coord(self, rank: int) -> tuple:
        """The coordinates (a tuple in axis order) of ``rank``."""
        return self._coords[rank]

    def get_axis_list(self, axis_name: str, index: int) -> list[int]:
        """The ranks whose coordinate on ``axis_name`` is ``index``."""
        axis = self._parallel_names.index(axis_name)
        return [r for r, c in enumerate(self._coords) if c[axis] == index]

    def get_comm_list(self, axis_name: str) -> list[list[int]]:
        """The groups of ranks that communicate along ``axis_name`` (all other coordinates fixed)."""
        axis = self._parallel_names.index(axis_name)
        others = [range(d) for i, d in enumerate(self._dims) if i != axis]
        lists = []
        for fixed in itertools.product(*others):
            ranks = []
            for k in range(self._dims[axis]):
                coord = list(fixed)
                coord.insert(axis, k)
                ranks.append(self._rank_of[tuple(coord)])
            lists.append(ranks)
        return lists

    def get_rank_from_stage(self, global_rank: int, **kwargs: int) -> int:
        """The rank with ``global_rank``'s coordinates, some replaced by ``kwargs``."""
        coord = dict(zip(self._parallel_names, self.get_coord(global_rank)))
        coord.update(kwargs)
        return self.get_rank(**coord)


class HybridCommunicateGroup:
    """This rank's position in a :class:`CommunicateTopology` and its communication group per axis.

    Examples:
        >>> from pagaie.distributed import fleet
        >>> hcg = fleet.HybridCommunicateGroup(fleet.CommunicateTopology())
        >>> hcg.get_data_parallel_rank(), hcg.get_model_parallel_world_size()
        (0, 1)
    """

    _AXES = {"data": "data", "pipe": "pipe", "sharding": "sharding", "sep": "sep", "context": "context",
             "model": "model"}

    def __init__(self, topology: CommunicateTopology, hybrid_configs: Any = None) -> None:
        self._topo = topology
        self.global_rank = get_rank()
        self.nranks = get_world_size()
        if topology.world_size() != self.nranks:
            raise ValueError(f"paddle.distributed.fleet.HybridCommunicateGroup: the topology holds "
                             f"{topology.world_size()} ranks but the job has {self.nranks}")
        self._hybrid_configs = hybrid_configs
        self._groups: dict[str, Group] = {}
        for name in topology.get_hybrid_group_names():
            mine = None
            for ranks in topology.get_comm_list(name):
                g = new_group(ranks) if self.nranks > 1 else new_group([0])
                if self.global_rank in ranks:
                    mine = g
            self._groups[name] = mine

    def topology(self) -> CommunicateTopology:
        return self._topo

    def get_global_rank(self) -> int:
        return self.global_rank

    def _axis(self, name: str) -> tuple[int, int, Group | None]:
        if name not in self._topo.get_hybrid_group_names():
            return 0, 1, None
        coord = self._topo.get_coord(self.global_rank)
        return coord[self._topo.get_hybrid_group_names().index(name)], self._topo.get_dim(name), self._groups[name]

    def get_parallel_mode(self) -> int | None:
        """The main parallelism (pipeline > tensor > segment > sharding > data); None when all degrees are 1."""
        names = self._topo.get_hybrid_group_names()
        pp, mp, sep, sharding, dp = (self._topo.get_dim(n) if n in names else 1
                                     for n in ("pipe", "model", "sep", "sharding", "data"))
        if pp > 1:
            return ParallelMode.PIPELINE_PARALLEL
        if mp > 1:
            return ParallelMode.TENSOR_PARALLEL
        if sep > 1:
            return ParallelMode.SEGMENT_PARALLEL
        if sharding > 1:
            return ParallelMode.SHARDING_PARALLEL
        if dp > 1:
            return ParallelMode.DATA_PARALLEL
        return None

    # data
    def get_data_parallel_rank(self) -> int:
        return self._axis("data")[0]

    def get_data_parallel_world_size(self) -> int:
        return self._axis("data")[1]

    def get_data_parallel_group(self) -> Group | None:
        return self._axis("data")[2]

    def get_data_parallel_group_src_rank(self) -> int:
        g = self._axis("data")[2]
        return g.ranks[0] if g is not None else self.global_rank

    # model (tensor)
    def get_model_parallel_rank(self) -> int:
        return self._axis("model")[0]

    def get_model_parallel_world_size(self) -> int:
        return self._axis("model")[1]

    def get_model_parallel_group(self) -> Group | None:
        return self._axis("model")[2]

    def get_model_parallel_group_src_rank(self) -> int:
        g = self._axis("model")[2]
        return g.ranks[0] if g is not None else self.global_rank

    # pipeline
    def get_stage_id(self) -> int:
        return self._axis("pipe")[0]

    def get_pipe_parallel_world_size(self) -> int:
        return self._axis("pipe")[1]

    @property
    def stage_id(self) -> int:
        """This rank's pipeline stage (an attribute in Paddle)."""
        return self.get_stage_id()

    @property
    def is_first_stage(self) -> bool:
        return self.get_stage_id() == 0

    @property
    def is_last_stage(self) -> bool:
        return self.get_stage_id() == self.get_pipe_parallel_world_size() - 1

    def get_rank_from_stage(self, stage_id: int, **kwargs: int) -> int:
        """The global rank at pipeline stage ``stage_id`` with this rank's other coordinates
        (overridden by ``kwargs``, e.g. ``data=1``)."""
        return self._topo.get_rank_from_stage(self.global_rank, pipe=stage_id, **kwargs)

    def get_pipe_parallel_group(self) -> Group | None:
        return self._axis("pipe")[2]

    # sharding
    def get_sharding_parallel_rank(self) -> int:
        return self._axis("sharding")[0]

    def get_sharding_parallel_world_size(self) -> int:
        return self._axis("sharding")[1]

    def get_sharding_parallel_group(self) -> Group | None:
        return self._axis("sharding")[2]

    def get_sharding_parallel_group_src_rank(self) -> int:
        g = self._axis("sharding")[2]
        return g.ranks[0] if g is not None else self.global_rank

    # sequence
    def get_sep_parallel_rank(self) -> int:
        return self._axis("sep")[0]

    def get_sep_parallel_world_size(self) -> int:
        return self._axis("sep")[1]

    def get_sep_parallel_group(self) -> Group | None:
        return self._axis("sep")[2]

    def get_sep_parallel_group_src_rank(self) -> int:
        g = self._axis("sep")[2]
        return g.ranks[0] if g is not None else self.global_rank

    def get_moe_sharding_parallel_world_size(self) -> int:
        return 0

    def get_check_parallel_group(self, sharding: bool = False) -> Group | None:
        return self._axis("data")[2]
