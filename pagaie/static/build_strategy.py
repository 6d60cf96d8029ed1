"""``paddle.static.BuildStrategy``: the switches of a compiled program's graph passes."""
from __future__ import annotations

import enum
from typing import Any

__all__ = ["BuildStrategy"]


class _ReduceStrategy(enum.IntEnum):
    AllReduce = 0
    Reduce = 1
    _NoReduce = 2


def _as_bool(v: Any) -> bool:
    if v is None:
        return False
    if isinstance(v, (bool, int, float)) or type(v).__module__ == "numpy":
        return bool(v)
    raise TypeError


def _as_opt_bool(v: Any) -> bool | None:
    return None if v is None else _as_bool(v)


def _as_int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError
    return int(v)


def _as_str(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError
    return v


def _as_str_list(v: Any) -> list:
    if not isinstance(v, (list, tuple)) or not all(isinstance(e, str) for e in v):
        raise TypeError
    return list(v)


def _as_str_set(v: Any) -> set:
    if not isinstance(v, (set, list, tuple, frozenset)) or not all(isinstance(e, str) for e in v):
        raise TypeError
    return set(v)


def _as_reduce(v: Any) -> _ReduceStrategy:
    if isinstance(v, _ReduceStrategy):
        return v
    raise TypeError


# name -> (default, converter, expected type in messages)
_FIELDS: dict[str, tuple[Any, Any, str]] = {
    "allow_cuda_graph_capture": (False, _as_bool, "bool"),
    "async_mode": (False, _as_bool, "bool"),
    "bkcl_comm_num": (1, _as_int, "int"),
    "build_cinn_pass": (False, _as_bool, "bool"),
    "cache_runtime_context": (False, _as_bool, "bool"),
    "debug_graphviz_path": ("", _as_str, "str"),
    "enable_addto": (False, _as_bool, "bool"),
    "enable_auto_fusion": (False, _as_bool, "bool"),
    "enable_backward_optimizer_op_deps": (True, _as_bool, "bool"),
    "enable_inplace": (True, _as_bool, "bool"),
    "fuse_adamw": (False, _as_bool, "bool"),
    "fuse_all_optimizer_ops": (False, _as_bool, "bool"),
    "fuse_all_reduce_ops": (True, _as_bool, "bool"),
    "fuse_bn_act_ops": (False, _as_bool, "bool"),
    "fuse_bn_add_act_ops": (True, _as_bool, "bool"),
    "fuse_broadcast_ops": (True, _as_bool, "bool"),
    "fuse_dot_product_attention": (False, _as_bool, "bool"),
    "fuse_elewise_add_act_ops": (False, _as_bool, "bool"),
    "fuse_gemm_epilogue": (False, _as_bool, "bool"),
    "fuse_relu_depthwise_conv": (False, _as_bool, "bool"),
    "fuse_resunit": (False, _as_bool, "bool"),
    "fused_attention": (False, _as_bool, "bool"),
    "fused_feedforward": (False, _as_bool, "bool"),
    "hierarchical_allreduce_inter_nranks": (0, _as_int, "int"),
    "memory_optimize": (None, _as_opt_bool, "bool"),
    "mkldnn_enabled_op_types": (set(), _as_str_set, "set[str]"),
    "nccl_comm_num": (1, _as_int, "int"),
    "num_trainers": (1, _as_int, "int"),
    "onednn_enabled_op_types": (set(), _as_str_set, "set[str]"),
    "reduce_strategy": (_ReduceStrategy.AllReduce, _as_reduce, "BuildStrategy.ReduceStrategy"),
    "sequential_run": (False, _as_bool, "bool"),
    "sync_batch_norm": (False, _as_bool, "bool"),
    "trainer_id": (0, _as_int, "int"),
    "trainers_endpoints": ([], _as_str_list, "list[str]"),
    "use_hierarchical_allreduce": (False, _as_bool, "bool"),
}


class BuildStrategy:
    """Switches for how a ``CompiledProgram`` rewrites and runs its program.

    pagaie runs the graph passes the switches name (see
    ``pagaie._static.passes.strategy_passes``): ``fuse_bn_act_ops`` and
    ``fuse_bn_add_act_ops`` fuse conv2d + batch_norm (+ residual add) + activation,
    ``fuse_gemm_epilogue`` fuses matmul + bias (+ activation), ``fuse_elewise_add_act_ops``
    fuses chains of elementwise ops, ``enable_inplace`` / ``memory_optimize`` let
    elementwise ops write into inputs that die there, and ``build_cinn_pass`` runs the
    program through the compiled executor (torch.compile); with it,
    ``allow_cuda_graph_capture`` replays the compiled kernels of a CUDA program as CUDA
    graphs. Distributed switches are accepted and have no effect on a single device.

    Examples:
        >>> from pagaie.static.build_strategy import BuildStrategy
        >>> bs = BuildStrategy()
        >>> bs.enable_inplace, bs.fuse_bn_act_ops, bs.memory_optimize
        (True, False, None)
        >>> bs.fuse_elewise_add_act_ops = True
        >>> bs.reduce_strategy = BuildStrategy.ReduceStrategy.Reduce
    """

    ReduceStrategy = _ReduceStrategy
    __slots__ = tuple(_FIELDS)

    def __init__(self) -> None:
        for name, (default, _, _) in _FIELDS.items():
            object.__setattr__(self, name, default.copy() if isinstance(default, (set, list))
                               else default)

    def __setattr__(self, name: str, value: Any) -> None:
        spec = _FIELDS.get(name)
        if spec is None:
            raise AttributeError(f"'BuildStrategy' object has no attribute '{name}'")
        try:
            value = spec[1](value)
        except TypeError:
            raise TypeError(f"paddle.static.BuildStrategy: {name} must be of type {spec[2]}, but "
                            f"received {type(value).__name__}") from None
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        changed = {k: getattr(self, k) for k, (d, _, _) in _FIELDS.items() if getattr(self, k) != d}
        return f"BuildStrategy({', '.join(f'{k}={v!r}' for k, v in changed.items())})"
