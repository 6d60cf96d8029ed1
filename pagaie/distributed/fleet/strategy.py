"""``fleet.DistributedStrategy``: the training switches and their configs, kept as plain data.

Each ``<feature>`` switch is a bool and each ``<feature>_configs`` a dict of defaults that an
assignment updates (unknown keys raise, as Paddle's protobuf does). pagaie reads only the
switches it implements (data parallelism); the others are stored for the user's code.
"""
from __future__ import annotations

import copy
from typing import Any

__all__ = ["DistributedStrategy"]

_SWITCHES = ("amp", "recompute", "sharding", "pipeline", "tensor_parallel", "gradient_merge", "lars", "lamb",
             "dgc", "localsgd", "adaptive_localsgd", "fp16_allreduce", "a_sync", "auto", "semi_auto",
             "heter_ccl_mode", "without_graph_optimization", "fuse_all_reduce_ops", "find_unused_parameters",
             "sync_batch_norm", "qat", "asp", "fuse_grad_merge", "calc_comm_same_stream", "sync_nccl_allreduce",
             "use_hierarchical_allreduce", "cudnn_exhaustive_search", "cudnn_batchnorm_spatial_persistent",
             "elastic")

_CONFIGS: dict[str, dict[str, Any]] = {
    "amp_configs": {"init_loss_scaling": 32768.0, "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2,
                    "incr_ratio": 2.0, "decr_ratio": 0.8, "use_dynamic_loss_scaling": True,
                    "custom_white_list": [], "custom_black_list": [], "custom_black_varnames": [],
                    "use_pure_fp16": False, "use_fp16_guard": True, "use_optimizer_fp16": False,
                    "use_pure_bf16": False},
    "recompute_configs": {"checkpoints": [], "enable_offload": False, "checkpoint_shape": []},
    "sharding_configs": {"sharding_segment_strategy": "segment_broadcast_MB", "segment_broadcast_MB": 32.0,
                         "segment_anchors": [], "sharding_degree": 8, "mp_degree": 1, "dp_degree": 1,
                         "hybrid_dp": False, "gradient_merge_acc_step": 1, "optimize_offload": False,
                         "pp_allreduce_in_optimize": False, "pp_degree": 1, "optimize_cast": False,
                         "_dp_as_optimizer_sharding": False, "stage": 1, "enable_tuning": False},
    "pipeline_configs": {"micro_batch_size": 1, "accumulate_steps": 1, "schedule_mode": "1F1B",
                         "p2p_cache_shape": True, "enable_partial_send_recv": True},
    "tensor_parallel_configs": {"tensor_parallel_degree": 1, "tensor_init_seed": -1},
    "hybrid_configs": {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1, "sep_degree": 1,
                       "mp_configs": {}, "pp_configs": {}, "sharding_configs": {},
                       "enable_optimizer_timer": False, "split_norm_comm": False, "ep_degree": 1,
                       "moe_sharding_degree": 1, "dp_configs": {}, "sep_configs": {}, "dp_sep_configs": {},
                       "pp_tp_configs": {}, "ep_configs": {}, "moe_sharding_configs": {},
                       "default_comm_group_configs": {}, "cp_degree": 1, "cp_sharding_degree": 1,
                       "cp_configs": {}, "cp_sharding_configs": {}, "dp_cp_configs": {}, "cp_mp_configs": {}},
    "gradient_merge_configs": {"k_steps": 1, "avg": True},
    "lars_configs": {"lars_coeff": 0.001, "lars_weight_decay": 0.0005, "epsilon": 0.0,
                     "exclude_from_weight_decay": []},
    "lamb_configs": {"lamb_weight_decay": 0.01, "exclude_from_weight_decay": []},
    "dgc_configs": {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": [0.999]},
    "localsgd_configs": {"k_steps": 1, "begin_step": 1},
    "adaptive_localsgd_configs": {"init_k_steps": 1, "begin_step": 1},
    "a_sync_configs": {"k_steps": -1, "max_merge_var_num": 1, "send_queue_size": 16,
                       "independent_recv_thread": False, "min_send_grad_num_before_recv": 1,
                       "thread_pool_size": 1, "send_wait_times": 1, "runtime_split_send_recv": False,
                       "launch_barrier": True, "heter_worker_device_guard": "cpu", "lr_decay_steps": 10,
                       "use_ps_gpu": 0, "use_gpu_graph": 0},
    "qat_configs": {"channel_wise_abs_max": True, "weight_bits": 8, "activation_bits": 8,
                    "not_quant_pattern": [], "algo": ""},
}

_VALUES = {"nccl_comm_num": 1, "fuse_grad_size_in_MB": 32, "last_comm_group_size_MB": 1.0,
           "fuse_grad_size_in_num": 8, "gradient_scale_configs": {"scale_strategy": "avg"},
           "conv_workspace_size_limit": 512, "execution_strategy": None, "build_strategy": None}


class DistributedStrategy:
    """Switches and configs of distributed training (amp, recompute, sharding, hybrid_configs...).

    Examples:
        >>> from pagaie.distributed import fleet
        >>> s = fleet.DistributedStrategy()
        >>> s.hybrid_configs = {"dp_degree": 2}
        >>> s.hybrid_configs["dp_degree"], s.hybrid_configs["mp_degree"]
        (2, 1)
        >>> s.amp
        False
    """

    def __init__(self) -> None:
        d = self.__dict__
        for name in _SWITCHES:
            d[name] = False
        d["fuse_all_reduce_ops"] = True
        d["_configs"] = copy.deepcopy(_CONFIGS)
        d.update(copy.deepcopy(_VALUES))

    def __getattr__(self, name: str) -> Any:
        configs = self.__dict__.get("_configs", {})
        if name in configs:
            return configs[name]
        raise AttributeError(f"'DistributedStrategy' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        configs = self.__dict__["_configs"]
        if name in configs:
            if not isinstance(value, dict):
                raise TypeError(f"paddle.distributed.fleet.DistributedStrategy: {name} must be a dict, "
                                f"but received {type(value).__name__}")
            unknown = sorted(set(value) - set(configs[name]))
            if unknown:
                raise ValueError(f"paddle.distributed.fleet.DistributedStrategy: unknown keys {unknown} in {name}; "
                                 f"expected some of {sorted(configs[name])}")
            for k, v in value.items():
                default = configs[name][k]
                configs[name][k] = type(default)(v) if isinstance(default, float) and isinstance(v, int) else v
            return
        if name in _SWITCHES:
            if not isinstance(value, bool):
                raise TypeError(f"paddle.distributed.fleet.DistributedStrategy: {name} must be a bool, "
                                f"but received {type(value).__name__}")
        self.__dict__[name] = value

    def __repr__(self) -> str:
        lines = ["DistributedStrategy("]
        for name in _SWITCHES:
            if self.__dict__[name]:
                lines.append(f"  {name}=True")
                cfg = self.__dict__["_configs"].get(f"{name}_configs")
                if cfg is not None:
                    lines.append(f"  {name}_configs={cfg}")
        lines.append(f"  hybrid_configs={self.hybrid_configs}")
        lines.append(")")
        return "\n".join(lines)

    def save_to_prototxt(self, output: str) -> None:
        """Write the strategy (switches and configs) to ``output`` as text."""
        import json
        state = {k: v for k, v in self.__dict__.items() if k != "_configs" and not callable(v)}
        state.update(self.__dict__["_configs"])
        with open(output, "w") as f:
            json.dump(state, f, indent=1, default=str)

    def load_from_prototxt(self, pb_file: str) -> None:
        """Read a strategy written by :meth:`save_to_prototxt`."""
        import json
        with open(pb_file) as f:
            state = json.load(f)
        for k, v in state.items():
            setattr(self, k, v)
