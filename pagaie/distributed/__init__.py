"""``paddle.distributed``: multi-process training over torch.distributed.

gloo carries communication on CPU and nccl on CUDA. A process started alone is rank 0 of a world
of one, where every collective is an identity. Start several processes with
``python -m pagaie.distributed.launch --nproc_per_node N train.py`` or :func:`spawn`, call
:func:`init_parallel_env`, and wrap the model in :class:`paddle.DataParallel`.
"""
from pagaie.distributed._env import (  # noqa: F401
    ParallelEnv, ParallelMode, Group, init_parallel_env, is_initialized, is_available, get_rank, get_world_size,
    new_group, get_group, get_backend, destroy_process_group, restart_process_group, shutdown_process_group,
    gloo_init_parallel_env, gloo_barrier, gloo_release, create_nccl_config,
)
from pagaie.distributed.communication import (  # noqa: F401
    ReduceOp, all_reduce, all_gather, all_gather_object, broadcast, broadcast_object_list, reduce, scatter,
    scatter_object_list, gather, alltoall, alltoall_single, reduce_scatter, send, recv, isend, irecv,
    send_object_list, recv_object_list, barrier, wait,
)
from pagaie.distributed import stream  # noqa: F401
from pagaie.distributed.p2p import P2POp, batch_isend_irecv  # noqa: F401
from pagaie.distributed import rpc, sharding  # noqa: F401
from pagaie.distributed.sharding import group_sharded_parallel, save_group_sharded_model  # noqa: F401
from pagaie.distributed.parallel import DataParallel  # noqa: F401
from pagaie.distributed.spawn import spawn  # noqa: F401
from pagaie.distributed.auto_parallel import (  # noqa: F401
    ReduceType, Placement, Shard, Replicate, Partial, ProcessMesh, DistAttr, get_mesh, set_mesh, shard_tensor,
    dtensor_from_fn, reshard, unshard_dtensor, shard_layer, shard_optimizer, shard_scaler, shard_dataloader,
    ShardingStage1, ShardingStage2, ShardingStage3, LocalLayer, local_map,
)
from pagaie.distributed.plans import (  # noqa: F401
    ColWiseParallel, RowWiseParallel, ConvParallel, PrepareLayerInput, PrepareLayerOutput, SequenceParallelBegin,
    SequenceParallelEnd, SequenceParallelEnable, SequenceParallelDisable, ContextParallel, PrepareContextParallel,
    SplitPoint, parallelize, to_distributed, split, Strategy, DistModel, to_static,
)
from pagaie.distributed.checkpoint import (  # noqa: F401
    ShardedWeight, ShardedStateDict, build_sharded_state_dict, shard_weight, save_state_dict, load_state_dict,
    load_merged_state_dict,
)
from pagaie.distributed.dataset import (  # noqa: F401
    InMemoryDataset, QueueDataset, CountFilterEntry, ProbabilityEntry, ShowClickEntry,
)
from pagaie.distributed import io  # noqa: F401
from pagaie.distributed import fleet  # noqa: F401
# As in Paddle, the name ``launch`` is the launcher's function; ``python -m pagaie.distributed.launch``
# still runs the package.
from pagaie.distributed.launch.main import launch  # noqa: F401,E402

__all__ = [
    "ColWiseParallel", "ContextParallel", "ConvParallel", "CountFilterEntry", "DistAttr", "DistModel",
    "InMemoryDataset", "LocalLayer", "ParallelEnv", "ParallelMode", "Partial", "Placement",
    "PrepareContextParallel", "PrepareLayerInput", "PrepareLayerOutput", "ProbabilityEntry", "ProcessMesh",
    "QueueDataset", "ReduceOp", "ReduceType", "Replicate", "RowWiseParallel", "SequenceParallelBegin",
    "SequenceParallelDisable", "SequenceParallelEnable", "SequenceParallelEnd", "Shard", "ShardedStateDict",
    "ShardedWeight", "ShardingStage1", "ShardingStage2", "ShardingStage3", "ShowClickEntry", "SplitPoint",
    "Strategy", "all_gather", "all_gather_object", "all_reduce", "alltoall", "alltoall_single", "barrier",
    "broadcast", "broadcast_object_list", "build_sharded_state_dict", "create_nccl_config",
    "destroy_process_group", "dtensor_from_fn", "gather", "get_backend", "get_group", "get_mesh", "get_rank",
    "get_world_size", "gloo_barrier", "gloo_init_parallel_env", "gloo_release", "init_parallel_env", "io",
    "irecv", "is_available", "is_initialized", "isend", "launch", "load_merged_state_dict", "load_state_dict",
    "local_map", "new_group", "parallelize", "recv", "recv_object_list", "reduce", "reduce_scatter", "reshard",
    "restart_process_group", "save_state_dict", "scatter", "scatter_object_list", "send", "send_object_list",
    "set_mesh", "shard_dataloader", "shard_layer", "shard_optimizer", "shard_scaler", "shard_tensor",
    "shard_weight", "shutdown_process_group", "spawn", "split", "to_distributed", "to_static",
    "unshard_dtensor", "wait",
]


def in_auto_parallel_align_mode() -> bool:
    """Whether auto-parallel runs in align mode (``FLAGS_enable_auto_parallel_align_mode``).

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.in_auto_parallel_align_mode()
        False
    """
    from pagaie._core.flags import flag
    return bool(flag("enable_auto_parallel_align_mode"))


_auto_dp = False


def enable_auto_dp() -> None:
    """Switch on automatic data parallelism for auto-parallel programs (inputs split along the
    batch over the ranks). In a world of one process there is nothing to split.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.enable_auto_dp()
    """
    global _auto_dp
    _auto_dp = True


# Hoisted into the top-level namespace: ``paddle.DataParallel``.
__paddle_toplevel__ = ["DataParallel"]
