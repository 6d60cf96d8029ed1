"""``paddle.distributed.Strategy``: the auto-parallel configuration, section by section.

Each section is a small config object whose fields start at Paddle's defaults and are updated
from a dict (unknown keys are ignored, as in Paddle). pagaie runs one process eagerly, so the
fields are recorded for the user and for ``DistModel``; they change nothing in the computation.
"""
from __future__ import annotations

import copy
from typing import Any

__all__ = ["Strategy"]

# Paddle 3.3's defaults, per section (``paddle.distributed.auto_parallel.constants``).
_DEFAULTS: dict[str, dict[str, Any]] = {
    "base": {"auto_mode": "semi", "gradient_scale": True, "gradient_scale_using_allreduce_avg": False,
             "use_cache": True, "return_numpy": True, "all_ranks": False, "split_data": True, "seed": None,
             "reinit": False},
    "sharding": {"enable": False, "stage": 1, "degree": 8, "enable_overlap": False, "param_comm_stream_num": 1,
                 "grad_comm_stream_num": 1, "param_bucket_size_numel": 1, "grad_bucket_size_numel": 1,
                 "enable_hierarchical_comm": False, "partition_algor": "greedy_even", "enable_tuning": False,
                 "tuning_range": [], "release_gradients": False, "comm_buffer_size_MB": 256,
                 "enable_tensor_fusion": False, "save_unbalanced_param": True},
    "gradient_merge": {"enable": False, "k_steps": 1, "avg": True},
    "pipeline": {"enable": False, "schedule_mode": "1F1B", "pp_degree": 1, "vpp_degree": 1, "vpp_seg_method": "",
                 "micro_batch_size": 1, "accumulate_steps": 1, "generation_batch_size": 1,
                 "enable_send_recv_overlap": False, "job_schedule_profiler_start": -1,
                 "job_schedule_profiler_stop": -1, "program_runtimes": [61, 72, 71, 34, 3],
                 "memory_limit_times": -1, "split_backward": False, "auto_parallel_sync_shared_params": False},
    "amp": {"enable": False, "dtype": "float16", "level": "o1", "init_loss_scaling": 32768.0,
            "incr_every_n_steps": 1000, "decr_every_n_nan_or_inf": 2, "incr_ratio": 2.0, "decr_ratio": 0.8,
            "use_dynamic_loss_scaling": True, "custom_white_list": [], "custom_black_list": [],
            "custom_black_varnames": [], "use_fp16_guard": False, "use_bf16_guard": False,
            "use_master_grad": False, "use_promote": True},
    "recompute": {"enable": False, "checkpoints": [], "no_recompute_segments": [], "sr": 0,
                  "refined_ops_patterns": [], "enable_tuning": False},
    "mp_optimization": {"allreduce_matmul_grad_overlapping": False, "replace_with_c_embedding": False,
                        "replace_with_parallel_cross_entropy": False},
    "dp_optimization": {"enable": False, "fuse_all_reduce_ops": True, "fuse_grad_size_in_MB": 32,
                        "overlap_comm_cacl": True, "gradient_sync_after_accumulate": False},
    "sp_optimization": {"enable": True},
}


def _check_dict(config: Any, api: str) -> dict | None:
    if config is not None and not isinstance(config, dict):
        raise ValueError(f"paddle.distributed.{api}: expected a dict of settings, but received {config!r}")
    return config


class _BaseConfig:
    """Fields of one section, at their defaults, updated from ``config_dict``."""

    _category = "base"

    def __init__(self, config_dict: dict | None = None) -> None:
        self._config_dict = _check_dict(config_dict, "Strategy")
        for field, value in _DEFAULTS[self._category].items():
            setattr(self, field, copy.deepcopy(value))
        if config_dict:
            self.from_dict(config_dict)

    def from_dict(self, config_dict: dict) -> None:
        """Set the fields named in ``config_dict`` (other keys are ignored)."""
        for field in _DEFAULTS[self._category]:
            if field in config_dict:
                setattr(self, field, config_dict[field])

    def to_dict(self) -> dict:
        """The fields (and nested sections) as a dict."""
        out = {field: getattr(self, field) for field in _DEFAULTS[self._category]}
        for name, value in self.__dict__.items():
            if isinstance(value, _BaseConfig):
                out[name] = value.to_dict()
        return out

    def get(self, k: str, d: Any = None) -> Any:
        """The value of field ``k`` (``d`` when there is no such field); Paddle's argument names."""
        return self.to_dict().get(k, d)

    def __repr__(self) -> str:
        return "{" + "".join(f'"{k}":"{v}",' for k, v in self.to_dict().items()) + "}"


def _section(name: str, category: str) -> type:
    cls = type(name, (_BaseConfig,), {"_category": category,
                                      "__doc__": f"The ``{category}`` section of a Strategy."})
    cls.__module__ = __name__
    return cls


ShardingConfig = _section("ShardingConfig", "sharding")
GradientMergeConfig = _section("GradientMergeConfig", "gradient_merge")
PipelineConfig = _section("PipelineConfig", "pipeline")
AMPConfig = _section("AMPConfig", "amp")
RecomputeConfig = _section("RecomputeConfig", "recompute")
MPOptimizationConfig = _section("MPOptimizationConfig", "mp_optimization")
DPOptimizationConfig = _section("DPOptimizationConfig", "dp_optimization")
SPOptimizationConfig = _section("SPOptimizationConfig", "sp_optimization")


class FusePasses:
    """Which fusion passes to run: ``enable``, ``gemm_epilogue``, ``dropout_add`` (all False)."""

    def __init__(self, config_dict: dict | None = None) -> None:
        self.enable = False
        self.gemm_epilogue = False
        self.dropout_add = False
        for key, value in (config_dict or {}).items():
            if not hasattr(self, key):
                raise ValueError(f"paddle.distributed.Strategy: unknown fuse pass {key!r} in fused_passes; "
                                 "expected enable, gemm_epilogue or dropout_add")
            setattr(self, key, value)


class Strategy(_BaseConfig):
    """Auto-parallel configuration for ``paddle.distributed.to_static``.

    Sections ``sharding``, ``gradient_merge``, ``pipeline``, ``amp`` and ``fused_passes`` (plus
    the base fields ``auto_mode``, ``seed``...) start at Paddle's defaults; ``config`` updates them.

    Args:
        config (dict, optional): ``{section: {field: value}}`` and base fields; unknown keys are
            ignored, as in Paddle.

    Examples:
        >>> import pagaie.distributed as dist
        >>> s = dist.Strategy({"sharding": {"enable": True, "stage": 2}})
        >>> s.sharding.enable, s.sharding.stage, s.pipeline.schedule_mode, s.full_graph
        (True, 2, '1F1B', True)
        >>> s.gradient_merge
        {"enable":"False","k_steps":"1","avg":"True",}
    """

    def __init__(self, config: dict | None = None) -> None:
        config = copy.deepcopy(_check_dict(config, "Strategy")) or {}
        super().__init__(config)
        self._config_dict = config
        self._sharding = ShardingConfig(config.get("sharding"))
        self._gradient_merge = GradientMergeConfig(config.get("gradient_merge"))
        self._pipeline = PipelineConfig(config.get("pipeline"))
        self._amp = AMPConfig(config.get("amp"))
        self._fused_passes = FusePasses(config.get("fused_passes"))
        self._recompute = RecomputeConfig(config.get("recompute"))
        self._mp_optimization = MPOptimizationConfig(config.get("mp_optimization"))
        self._dp_optimization = DPOptimizationConfig(config.get("dp_optimization"))
        self._sp_optimization = SPOptimizationConfig(config.get("sp_optimization"))
        self._full_graph = config.get("full_graph", True)

    @property
    def sharding(self) -> Any:
        """Optimizer-state sharding: ``enable``, ``stage`` (1-3), ``degree``..."""
        return self._sharding

    @property
    def gradient_merge(self) -> Any:
        """Gradient accumulation: ``enable``, ``k_steps``, ``avg``."""
        return self._gradient_merge

    @property
    def pipeline(self) -> Any:
        """Pipeline parallelism: ``enable``, ``schedule_mode``, ``micro_batch_size``..."""
        return self._pipeline

    @property
    def amp(self) -> Any:
        """Mixed precision: ``enable``, ``dtype``, ``level``, loss scaling..."""
        return self._amp

    @property
    def fused_passes(self) -> FusePasses:
        """Fusion passes: ``enable``, ``gemm_epilogue``, ``dropout_add``."""
        return self._fused_passes

    @property
    def full_graph(self) -> bool:
        """Whether ``to_static`` must capture the whole model in one graph."""
        return self._full_graph
