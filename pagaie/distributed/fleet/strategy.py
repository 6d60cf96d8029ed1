"""``fleet.DistributedStrategy``: the training switches and their configs, kept as plain data.

Each ``<feature>`` switch is a bool and each ``<feature>_configs`` a dict of defaults that an
assignment updates. Paddle keeps these in a protobuf message, and the observable rules follow it:
an unknown config key fails an assertion, config values are converted to the field's type (single
precision for its ``float`` fields), a switch given a non-bool is ignored with a warning, and an
unknown attribute cannot be set. pagaie reads only the switches it implements (data parallelism);
the others are stored for the user's code.
"""
from __future__ import annotations

import copy
import operator
import struct
import warnings
from typing import Any

from pagaie._formats.atomic_file import atomic_open

__all__ = ["DistributedStrategy"]

_SWITCHES = ("amp", "recompute", "sharding", "pipeline", "tensor_parallel", "gradient_merge", "lars", "lamb",
             "dgc", "localsgd", "adaptive_localsgd", "fp16_allreduce", "a_sync", "auto", "semi_auto",
             "heter_ccl_mode", "without_graph_optimization", "fuse_all_reduce_ops", "find_unused_parameters",
             "sync_batch_norm", "qat", "asp", "fuse_grad_merge", "calc_comm_same_stream", "sync_nccl_allreduce",
             "use_hierarchical_allreduce", "cudnn_exhaustive_search", "cudnn_batchnorm_spatial_persistent",
             "elastic", "split_data", "is_fl_ps_mode", "adam_d2sum", "auto_search", "is_with_coordinator")
_TRUE_BY_DEFAULT = ("fuse_all_reduce_ops", "a_sync", "without_graph_optimization", "sync_nccl_allreduce",
                    "split_data")


def _f32(v: float) -> float:
    """``v`` rounded to single precision, as Paddle's protobuf ``float`` fields store it."""
    return struct.unpack("f", struct.pack("f", float(v)))[0]


_CONFIGS: dict[str, dict[str, Any]] = {
    "amp_configs": {"init_loss_scaling": 32768.0, "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2,
                    "incr_ratio": 2.0, "decr_ratio": _f32(0.8), "use_dynamic_loss_scaling": True,
                    "custom_white_list": [], "custom_black_list": [], "custom_black_varnames": [],
                    "use_pure_fp16": False, "use_fp16_guard": True, "use_optimizer_fp16": False,
                    "use_pure_bf16": False},
    "recompute_configs": {"checkpoints": [], "enable_offload": False, "checkpoint_shape": [],
                          "enable_tuning": False, "refined_ops_patterns": []},
    "sharding_configs": {"sharding_segment_strategy": "segment_broadcast_MB", "segment_broadcast_MB": 32.0,
                         "segment_anchors": [], "sharding_degree": 8, "mp_degree": 1, "dp_degree": 1,
                         "hybrid_dp": False, "gradient_merge_acc_step": 1, "optimize_offload": False,
                         "pp_allreduce_in_optimize": False, "pp_degree": 1, "optimize_cast": False,
                         "_dp_as_optimizer_sharding": False, "stage": 1, "enable_tuning": False,
                         "use_calc_stream": False},
    "pipeline_configs": {"micro_batch_size": 1, "accumulate_steps": 1, "schedule_mode": "1F1B",
                         "p2p_cache_shape": True, "enable_partial_send_recv": True},
    "tensor_parallel_configs": {"tensor_parallel_degree": 1, "tensor_init_seed": -1},
    "hybrid_configs": {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1, "sep_degree": 1,
                       "mp_configs": None, "pp_configs": None, "sharding_configs": None,
                       "enable_optimizer_timer": False, "split_norm_comm": False, "ep_degree": 1,
                       "moe_sharding_degree": 1, "dp_configs": None, "sep_configs": None, "dp_sep_configs": None,
                       "pp_tp_configs": None, "ep_configs": None, "moe_sharding_configs": None,
                       "default_comm_group_configs": None, "cp_degree": 1, "cp_sharding_degree": 1,
                       "cp_configs": None, "cp_sharding_configs": None, "dp_cp_configs": None,
                       "cp_mp_configs": None},  # None: a nested config (_SubConfig), made per strategy
    "gradient_merge_configs": {"k_steps": 1, "avg": True},
    "lars_configs": {"lars_coeff": _f32(0.001), "lars_weight_decay": _f32(0.0005), "epsilon": 0.0,
                     "exclude_from_weight_decay": []},
    "lamb_configs": {"lamb_weight_decay": _f32(0.01), "exclude_from_weight_decay": []},
    "dgc_configs": {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": []},
    "localsgd_configs": {"k_steps": 1, "begin_step": 1},
    "adaptive_localsgd_configs": {"init_k_steps": 1, "begin_step": 1},
    "a_sync_configs": {"k_steps": -1, "max_merge_var_num": 1, "send_queue_size": 16,
                       "independent_recv_thread": False, "min_send_grad_num_before_recv": 1,
                       "thread_pool_size": 1, "send_wait_times": 1, "runtime_split_send_recv": False,
                       "launch_barrier": True, "heter_worker_device_guard": "cpu", "lr_decay_steps": 10,
                       "use_ps_gpu": 0, "use_gpu_graph": 0},
    "qat_configs": {"channel_wise_abs_max": True, "weight_bits": 8, "activation_bits": 8,
                    "not_quant_pattern": [], "algo": ""},
    "gradient_scale_configs": {"scale_strategy": "avg", "scale_gradient": False},
    "trainer_desc_configs": {"dump_fields_path": "", "dump_fields": [], "dump_param": [], "stat_var_names": [],
                             "trainer": "", "device_worker": "", "local_sparse": [], "remote_sparse": []},
}
# The fields (and defaults) of hybrid_configs' nested configs; the others hold only communicator
# settings, which pagaie does not model.
_SUB_CONFIG_FIELDS: dict[str, dict[str, Any]] = {
    "mp_configs": {"sync_param": True, "sync_grad": False, "sync_moment": False, "sync_mode": "broadcast",
                   "mp_async_allreduce": False, "mp_skip_c_identity": False,
                   "mp_fused_linear_param_grad_add": False, "need_broadcast_data": True,
                   "recompute_allgather": False, "sp_async_reduce_scatter": False},
    "pp_configs": {"dp_comm_overlap": False, "delay_scale_loss": False, "enable_timer": False,
                   "sharding_comm_overlap": False, "profiling": False, "release_gradients": False,
                   "overlap_p2p_comm": False, "clear_every_step_cache": False, "use_batch_p2p_comm": True,
                   "best_unbalanced_scheduler": False, "enable_offload_queue": False,
                   "enable_dynamic_shape": False, "use_dualpipev": False,
                   "forward_backward_overlap_scheduler": False, "sync_param": False, "sync_moment": False,
                   "sync_mode": "broadcast"},
    "sharding_configs": {"tensor_fusion": False, "accumulate_steps": 1, "comm_overlap": False,
                         "split_param": False, "fuse_optimizer": True, "use_reduce_avg": True,
                         "comm_buffer_size_MB": 256, "release_gradients": False, "free_grads_in_comm": False,
                         "enable_fuse_optimizer_states": False, "offload_opt_buffer_size": -1},
}
_HYBRID_ORDER = ["dp", "pp", "sharding", "sep", "cp", "mp"]
_SYNC_PARAM_NAME = ["embedding", "layer_norm", ".b_"]


class _SubConfig:
    """A nested config of ``hybrid_configs`` (``mp_configs``, ``pp_configs``, ``sharding_configs``...).

    As Paddle's protobuf message: its fields are read and set as attributes (an unknown field is an
    AttributeError, a value of the wrong type a TypeError), and it prints the fields that were set,
    one ``name: value`` line each.
    """

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_values", {})

    def _fields(self) -> dict[str, Any]:
        return _SUB_CONFIG_FIELDS.get(self._name, {})

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_") or key not in self._fields():
            raise AttributeError(key)
        return self._values.get(key, self._fields()[key])

    def __setattr__(self, key: str, value: Any) -> None:
        fields = self._fields()
        if key not in fields:
            raise AttributeError(f"paddle.distributed.fleet.DistributedStrategy: hybrid_configs['{self._name}'] "
                                 f"has no field {key!r}; the fields are {sorted(fields)}")
        default = fields[key]
        ok = isinstance(value, str) if isinstance(default, str) else \
            isinstance(value, (bool, int)) if isinstance(default, bool) else isinstance(value, int)
        if not ok:
            raise TypeError(f"paddle.distributed.fleet.DistributedStrategy: hybrid_configs['{self._name}'].{key} "
                            f"must be of type {type(default).__name__}, but received {type(value).__name__}")
        self._values[key] = bool(value) if isinstance(default, bool) else value

    def _assign(self, values: Any) -> None:
        # As Paddle: keys that are not fields of the message are skipped.
        for key, value in dict(values).items():
            if key in self._fields():
                setattr(self, key, value)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _SubConfig) and self._name == other._name and \
            {k: getattr(self, k) for k in self._fields()} == {k: getattr(other, k) for k in other._fields()}

    __hash__ = None  # mutable, as a protobuf message

    def __deepcopy__(self, memo: dict) -> "_SubConfig":
        out = _SubConfig(self._name)
        out._values.update(self._values)
        return out

    def __repr__(self) -> str:
        def text(v: Any) -> str:
            return str(v).lower() if isinstance(v, bool) else f'"{v}"' if isinstance(v, str) else str(v)
        return "".join(f"{k}: {text(self._values[k])}\n" for k in self._fields() if k in self._values)

    __str__ = __repr__
# The single-precision fields of the configs (Paddle's protobuf ``float``); the others are double.
_FLOAT32_KEYS = {("amp_configs", "init_loss_scaling"), ("amp_configs", "incr_ratio"), ("amp_configs", "decr_ratio"),
                 ("dgc_configs", "sparsity"), ("lars_configs", "lars_coeff"), ("lars_configs", "lars_weight_decay"),
                 ("lars_configs", "epsilon"), ("lamb_configs", "lamb_weight_decay"),
                 ("sharding_configs", "segment_broadcast_MB")}
# Integer settings: a value of another type is ignored with a warning, as in Paddle.
_INTS = {"nccl_comm_num": 1, "fuse_grad_size_in_MB": 32, "fuse_grad_size_in_num": 8,
         "conv_workspace_size_limit": 512, "hierarchical_allreduce_inter_nranks": 1}
_VALUES = {"last_comm_group_size_MB": 1.0}


class _ConfigKeyError(AssertionError, ValueError):
    """An unknown key in a ``*_configs`` dict: Paddle fails an assertion; also a ValueError."""


def _convert(config: str, key: str, default: Any, value: Any) -> Any:
    """``value`` converted to the type of the config field ``key`` (whose default is ``default``)."""
    where = f"paddle.distributed.fleet.DistributedStrategy.{config}[{key!r}]"
    if isinstance(default, bool):
        return bool(value)
    if isinstance(default, float) or (config, key) in _FLOAT32_KEYS and isinstance(default, list):
        items = value if isinstance(default, list) else [value]
        for v in items:
            if isinstance(v, (str, bytes)) or not isinstance(v, (int, float)):
                raise TypeError(f"{where} must be a real number, but received {type(v).__name__}")
        conv = _f32 if (config, key) in _FLOAT32_KEYS else float
        return [conv(v) for v in items] if isinstance(default, list) else conv(value)
    if isinstance(default, int):
        try:
            return operator.index(value)
        except TypeError:
            raise TypeError(f"{where} must be an integer, but received {type(value).__name__}") from None
    if isinstance(default, str):
        if not isinstance(value, str):
            raise TypeError(f"{where} must be a str, but received {type(value).__name__}")
        return value
    if isinstance(default, list):
        return list(value)
    return value


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
            d[name] = name in _TRUE_BY_DEFAULT
        d["_configs"] = copy.deepcopy(_CONFIGS)
        hybrid = d["_configs"]["hybrid_configs"]
        for key, value in hybrid.items():
            if value is None:
                hybrid[key] = _SubConfig(key)
        d["hybrid_parallel_order"] = list(_HYBRID_ORDER)
        d["sync_param_name"] = list(_SYNC_PARAM_NAME)
        d.update(_INTS)
        d.update(_VALUES)
        from pagaie.static import BuildStrategy
        d["build_strategy"] = BuildStrategy()

    def __getattr__(self, name: str) -> Any:
        configs = self.__dict__.get("_configs", {})
        if name in configs:
            return configs[name]
        raise AttributeError(f"'DistributedStrategy' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        configs = d["_configs"]
        if name in configs:
            self._set_configs(name, value)
        elif name in _SWITCHES:
            if isinstance(value, bool):
                d[name] = value
            elif name == "fp16_allreduce":
                raise TypeError(f"paddle.distributed.fleet.DistributedStrategy: fp16_allreduce must be value of "
                                f"bool type, but received {type(value).__name__}")
            elif name in ("a_sync", "adam_d2sum"):
                raise ValueError(f"paddle.distributed.fleet.DistributedStrategy: the type of {name} is invalid, "
                                 f"expected type is bool, but received {type(value).__name__}")
            else:
                warnings.warn(f"{name} should have value of bool type", stacklevel=2)
        elif name in _INTS:
            if isinstance(value, int):
                d[name] = value
            else:
                warnings.warn(f"{name} should have value of int type", stacklevel=2)
        elif name == "last_comm_group_size_MB":
            if isinstance(value, (str, bytes)) or not isinstance(value, (int, float)):
                raise TypeError(f"paddle.distributed.fleet.DistributedStrategy: last_comm_group_size_MB must be "
                                f"a number, but received {type(value).__name__}")
            if value <= 0:
                raise ValueError(f"paddle.distributed.fleet.DistributedStrategy: last_comm_group_size_MB should "
                                 f"be greater than 0, but received {value}")
            d[name] = _f32(value)
        elif name in d or name.startswith("_"):
            d[name] = value
        else:
            raise TypeError(f"{name} is not a attribute of DistributedStrategy")

    def _set_configs(self, name: str, value: Any) -> None:
        config = self.__dict__["_configs"][name]
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError(f"paddle.distributed.fleet.DistributedStrategy: {name} must be a dict, "
                            f"but received {type(value).__name__}")
        if name == "hybrid_configs":
            value = self._take_hybrid_extras(dict(value))
        unknown = [k for k in value if k not in config]
        if unknown:
            raise _ConfigKeyError(f"paddle.distributed.fleet.DistributedStrategy: key:{unknown[0]} not in {name}; "
                                  f"expected some of {sorted(config)}")
        nested = {k: v for k, v in value.items() if isinstance(config[k], _SubConfig)}
        converted = {k: _convert(name, k, config[k], v) for k, v in value.items() if k not in nested}
        for key, values in nested.items():
            if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
                raise TypeError(f"paddle.distributed.fleet.DistributedStrategy: hybrid_configs['{key}'] must be "
                                f"a dict, but received {type(values).__name__}")
            config[key]._assign(values)
        config.update(converted)

    def _take_hybrid_extras(self, value: dict) -> dict:
        """As Paddle: ``order`` sets ``hybrid_parallel_order`` and ``mp_configs['sync_param_name']``
        sets ``sync_param_name``; the rest are hybrid_configs fields."""
        if "order" in value:
            self.__dict__["hybrid_parallel_order"] = list(value.pop("order"))
        mp = value.get("mp_configs")
        if isinstance(mp, dict) and "sync_param_name" in mp:
            mp = dict(mp)
            self.__dict__["sync_param_name"] = list(mp.pop("sync_param_name"))
            value["mp_configs"] = mp
        return value

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
        state = {k: v for k, v in self.__dict__.items()
                 if k != "_configs" and isinstance(v, (bool, int, float, str, list, dict))}
        state.update(self.__dict__["_configs"])
        state["hybrid_configs"] = {k: dict(v._values) if isinstance(v, _SubConfig) else v
                                   for k, v in state["hybrid_configs"].items()}
        with atomic_open(output, "w") as f:
            json.dump(state, f, indent=1, default=str)

    def load_from_prototxt(self, pb_file: str) -> None:
        """Read a strategy written by :meth:`save_to_prototxt`."""
        import json
        with open(pb_file) as f:
            state = json.load(f)
        for k, v in state.items():
            setattr(self, k, v)
