"""``paddle.inference.Config`` and the enumerations of the inference API.

A :class:`Config` names the model files and records how a predictor should run:
device (CPU, or a CUDA GPU when torch has one), graph optimisation
(``switch_ir_optim``: pagaie's inference passes), buffer reuse (``enable_memory_optim``)
and CPU threads. Engines pagaie does not have raise RuntimeError where a CPU-only Paddle
build does (XPU, IPU, CINN, TensorRT without CUDA); the others (OpenVINO, ONNX Runtime,
TensorRT on a CUDA machine) are accepted with a warning and the model runs on pagaie's own
kernels.
"""
from __future__ import annotations

import enum
import numbers
import os
import warnings
from typing import Any, Iterable

__all__ = ["Config", "DataType", "PassBuilder", "PlaceType", "PrecisionType", "XpuConfig"]


class _PaddleEnum(enum.IntEnum):
    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class DataType(_PaddleEnum):
    """Data types of inference tensors (Paddle's ``PaddleDType``).

    Examples:
        >>> import pagaie as paddle
        >>> str(paddle.inference.DataType.FLOAT32), int(paddle.inference.DataType.INT64)
        ('PaddleDType.FLOAT32', 1)
    """

    # Declared in the order Paddle lists its members.
    FLOAT64 = 7
    FLOAT32 = 0
    FLOAT16 = 5
    BFLOAT16 = 8
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    BOOL = 6


DataType.__name__ = DataType.__qualname__ = "PaddleDType"


class PlaceType(_PaddleEnum):
    """Where an inference tensor lives (Paddle's ``PaddlePlace``).

    Examples:
        >>> import pagaie as paddle
        >>> int(paddle.inference.PlaceType.GPU)
        1
    """

    UNK = -1
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM = 4


PlaceType.__name__ = PlaceType.__qualname__ = "PaddlePlace"


class PrecisionType(_PaddleEnum):
    """Inference precisions (``Config.Precision``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.inference.PrecisionType.Half is paddle.inference.Config.Precision.Half
        True
    """

    Float32 = 0
    Int8 = 1
    Half = 2
    Bfloat16 = 3


PrecisionType.__name__ = PrecisionType.__qualname__ = "Precision"


class XpuConfig:
    """Options of Kunlun XPU execution (kept for API compatibility; pagaie runs no XPU).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.inference.XpuConfig().device_id
        0
    """

    def __init__(self) -> None:
        self.device_id = 0
        self.l3_size = 0
        self.l3_ptr = None
        self.l3_autotune_size = 0
        self.context_gm_size = -1
        self.context = None
        self.stream = None
        self.conv_autotune_level = 0
        self.conv_autotune_file = ""
        self.conv_autotune_file_writeback = False
        self.fc_autotune_level = 0
        self.fc_autotune_file = ""
        self.fc_autotune_file_writeback = False
        self.gemm_compute_precision = 1
        self.transformer_softmax_optimize_level = 0
        self.transformer_encoder_adaptive_seqlen = True
        self.quant_post_static_gelu_out_threshold = 10.0
        self.quant_post_dynamic_activation_method = 0
        self.quant_post_dynamic_weight_precision = 1
        self.quant_post_dynamic_op_types: list[str] = []


def _unavailable(what: str) -> None:
    warnings.warn(f"paddle.inference.Config: {what} is not available in pagaie; the model runs on "
                  "pagaie's own kernels instead", UserWarning, stacklevel=3)


def _not_compiled(api: str, what: str) -> None:
    # What a CPU-only Paddle build answers for devices it was not compiled with.
    raise RuntimeError(f"paddle.inference.Config.{api}: {what} is not available (pagaie runs no {what}); "
                       "the model can run on the CPU or a CUDA GPU")


def _int(api: str, arg: str, v: Any, non_negative: bool = False) -> int:
    if not isinstance(v, numbers.Integral) or (non_negative and v < 0):
        kind = "a non-negative int" if non_negative else "an int"
        raise TypeError(f"paddle.inference.{api}: {arg} must be {kind}, but received {v!r}")
    return int(v)


def _flag(api: str, arg: str, v: Any) -> bool:
    if not isinstance(v, numbers.Integral) and type(v).__name__ not in ("bool_", "bool"):
        raise TypeError(f"paddle.inference.{api}: {arg} must be a bool, but received {v!r}")
    return bool(v)


def _str(api: str, arg: str, v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError(f"paddle.inference.{api}: {arg} must be a str, but received {v!r}")
    return v


_MISSING = object()

# Paddle's CPU pass list, as its ``pass_builder()`` gives it
PADDLE_CPU_PASSES = (
    "simplify_with_basic_ops_pass", "layer_norm_fuse_pass", "attention_lstm_fuse_pass",
    "seqconv_eltadd_relu_fuse_pass", "seqpool_cvm_concat_fuse_pass", "mul_lstm_fuse_pass",
    "fc_gru_fuse_pass", "mul_gru_fuse_pass", "seq_concat_fc_fuse_pass",
    "gpu_cpu_squeeze2_matmul_fuse_pass", "gpu_cpu_reshape2_matmul_fuse_pass",
    "gpu_cpu_flatten2_matmul_fuse_pass", "matmul_v2_scale_fuse_pass",
    "gpu_cpu_map_matmul_v2_to_mul_pass", "gpu_cpu_map_matmul_v2_to_matmul_pass",
    "matmul_scale_fuse_pass", "gpu_cpu_map_matmul_to_mul_pass", "fc_fuse_pass",
    "repeated_fc_relu_fuse_pass", "squared_mat_sub_fuse_pass", "conv_bn_fuse_pass",
    "conv_eltwiseadd_bn_fuse_pass", "conv_transpose_bn_fuse_pass",
    "conv_transpose_eltwiseadd_bn_fuse_pass", "is_test_pass", "constant_folding_pass")
# the pagaie pass each Paddle pass name stands for
PASS_ALIASES = {"constant_folding_pass": "constant_folding", "conv_bn_fuse_pass": "fold_conv_bn",
                "conv_eltwiseadd_bn_fuse_pass": "fuse_conv_bn_add_act", "fc_fuse_pass": "fuse_linear_act"}


class PaddlePassBuilder:
    """The list of graph passes a predictor runs.

    Returned by :meth:`Config.pass_builder`: Paddle's CPU pass names; those pagaie implements
    (``PASS_ALIASES``) run pagaie's pass, pagaie's own pass names (see
    :mod:`pagaie._static.passes`) are accepted too, other names are kept and skipped. Until
    :meth:`set_passes`, pagaie's clean-up passes (common subexpressions, elementwise fusion,
    dead code) also run unless deleted.

    Examples:
        >>> import pagaie as paddle
        >>> config = paddle.inference.Config()
        >>> builder = config.pass_builder()
        >>> builder.delete_pass('conv_bn_fuse_pass')
        >>> 'conv_bn_fuse_pass' in builder.all_passes()
        False
        >>> builder.set_passes(['dead_code_elimination'])
        >>> print(builder.debug_string(), end='')
        Passes to apply:
          - dead_code_elimination
    """

    def __init__(self, passes: Iterable[str]) -> None:
        self._passes = list(passes)
        self._analysis: list[str] = []
        self._debug = False
        self._implicit = True  # pagaie's clean-up passes run too (until set_passes)
        self._deleted: set[str] = set()

    def all_passes(self) -> list[str]:
        return list(self._passes)

    def analysis_passes(self) -> list[str]:
        """Analysis stages appended with :meth:`append_analysis_pass` (pagaie has no others)."""
        return list(self._analysis)

    def append_pass(self, pass_type: str) -> None:
        self._passes.append(_str("PaddlePassBuilder.append_pass", "pass_type", pass_type))

    def append_analysis_pass(self, pass_type: str) -> None:
        self._analysis.append(_str("PaddlePassBuilder.append_analysis_pass", "pass_type", pass_type))

    def insert_pass(self, idx: int, pass_type: str) -> None:
        idx = _int("PaddlePassBuilder.insert_pass", "idx", idx, non_negative=True)
        if idx > len(self._passes):
            raise IndexError(f"paddle.inference.PaddlePassBuilder.insert_pass: idx must be in [0, "
                             f"{len(self._passes)}], but received {idx}")
        self._passes.insert(idx, _str("PaddlePassBuilder.insert_pass", "pass_type", pass_type))

    def delete_pass(self, pass_type: str) -> None:
        """Remove every occurrence of ``pass_type`` (a name not in the list is ignored)."""
        pass_type = _str("PaddlePassBuilder.delete_pass", "pass_type", pass_type)
        self._passes = [p for p in self._passes if p != pass_type]
        self._deleted.add(pass_type)

    def set_passes(self, passes: list[str]) -> None:
        self._passes = [_str("PaddlePassBuilder.set_passes", "passes", p) for p in passes]
        self._implicit = False

    def turn_on_debug(self) -> None:
        """Verify the program's shapes and dtypes after every pass."""
        self._debug = True

    def debug_string(self) -> str:
        return "Passes to apply:\n" + "".join(f"  - {p}\n" for p in self._passes)


PassBuilder = PaddlePassBuilder  # (pagaie's earlier name)


class Config:
    """How to load and run an inference model.

    ``Config()`` (set the model later with :meth:`set_model`), ``Config(model_dir)`` (a
    directory holding one model) or ``Config(prog_file, params_file)``. Model files
    are Paddle's PIR ``.json``, legacy ``.pdmodel`` (or ``__model__``) and pagaie's own
    ``paddle.jit.save`` / ``save_inference_model`` output, each with its ``.pdiparams``.

    Examples:
        >>> import pagaie as paddle
        >>> config = paddle.inference.Config()
        >>> config.set_model('model.json', 'model.pdiparams')
        >>> config.prog_file(), config.use_gpu(), config.ir_optim()
        ('model.json', False, True)
    """

    Precision = PrecisionType
    Float32 = PrecisionType.Float32
    Int8 = PrecisionType.Int8
    Half = PrecisionType.Half
    Bfloat16 = PrecisionType.Bfloat16

    def __init__(self, *args: Any) -> None:
        if len(args) > 2 or any(not isinstance(a, str) for a in args):
            raise TypeError("paddle.inference.Config: expected Config(), Config(model_dir: str) or "
                            f"Config(prog_file: str, params_file: str), but received {args!r}")
        self._model_dir = self._prog = self._params = ""
        self._buffers: tuple[bytes, bytes] | None = None
        if len(args) == 1:
            self._model_dir = args[0]
        elif len(args) == 2:
            self._prog, self._params = args
            if not os.path.isfile(self._prog):  # Paddle checks the program file here (NotFound)
                raise RuntimeError(f"paddle.inference.Config: cannot open the program file "
                                   f"{self._prog!r}: no such file")
        self._gpu = False
        self._gpu_id = 0
        self._gpu_pool_mb = 100
        self._gpu_precision = PrecisionType.Float32
        self._ir_optim = True
        self._opt_level = 2
        self._ir_debug = False
        self._memory_optim = False
        self._threads = 1
        self._mkldnn = True
        self._mkldnn_cache = 10
        self._mkldnn_int8 = False
        self._openvino = False
        self._glog_disabled = False
        self._specify_input_names = False
        self._profile = False
        self._new_ir = False
        self._save_optimized = False
        self._use_optimized = False
        self._optim_cache_dir = ""
        self._deleted_passes: list[str] = []
        self._pass_builder: PaddlePassBuilder | None = None
        self._shape_range_path = ""
        self._trt = {"dla": False, "varseqlen": False, "inspector": False, "explicit_quant": False,
                     "opt_level": 3}
        self._xpu_config = XpuConfig()
        self._extra: dict[str, Any] = {}
        self._valid = True

    # ---- model -------------------------------------------------------------------
    def set_model(self, prog_file_or_model_dir: str, params_file: Any = _MISSING) -> None:
        """Set the model: a directory, or the program and parameter files.

        As in Paddle, naming the two files keeps a model directory set before (the
        directory wins when both are set).
        """
        first = _str("Config.set_model", "prog_file_or_model_dir", prog_file_or_model_dir)
        if params_file is _MISSING:  # (the program and parameter files set before stay, as Paddle's)
            self._model_dir = first
        else:
            self._prog = first
            self._params = _str("Config.set_model", "params_file", params_file)
        self._buffers = None

    def set_prog_file(self, prog_file: str) -> None:
        """Set the program file."""
        self._prog = _str("Config.set_prog_file", "prog_file", prog_file)

    def set_params_file(self, params_file: str) -> None:
        """Set the parameter file."""
        self._params = _str("Config.set_params_file", "params_file", params_file)

    def set_model_buffer(self, prog_buffer: Any, prog_buffer_size: int, params_buffer: Any,
                         params_buffer_size: int) -> None:
        """Load the model from memory: the program file's and the parameter file's contents.

        As in Paddle, :meth:`prog_file` and :meth:`params_file` then answer the buffers.
        """
        def as_bytes(b: Any, n: int) -> bytes:
            b = b.encode("latin-1") if isinstance(b, str) else bytes(b)
            return b[:n]
        self._buffers = (as_bytes(prog_buffer, prog_buffer_size), as_bytes(params_buffer, params_buffer_size))
        self._model_dir = ""
        self._prog, self._params = (b.decode("latin-1") for b in self._buffers)

    def model_from_memory(self) -> bool:
        return self._buffers is not None

    def model_dir(self) -> str:
        return self._model_dir

    def prog_file(self) -> str:
        return self._prog

    def params_file(self) -> str:
        return self._params

    def set_optim_cache_dir(self, opt_cache_dir: str) -> None:
        """Where an optimised model would be cached (pagaie optimises in memory only)."""
        self._optim_cache_dir = _str("Config.set_optim_cache_dir", "opt_cache_dir", opt_cache_dir)

    def enable_save_optim_model(self, save_optimized_model: bool = False) -> None:
        """Recorded (shown by :meth:`summary`); pagaie keeps the optimised program in memory."""
        self._save_optimized = _flag("Config.enable_save_optim_model", "save_optimized_model",
                                     save_optimized_model)

    def use_optimized_model(self, x: bool = True) -> None:
        """Recorded (shown by :meth:`summary`); pagaie always loads the original model."""
        self._use_optimized = _flag("Config.use_optimized_model", "x", x)

    # ---- devices -----------------------------------------------------------------
    def enable_use_gpu(self, memory_pool_init_size_mb: int, device_id: int = 0,
                       precision_mode: PrecisionType = PrecisionType.Float32) -> None:
        """Run on CUDA device ``device_id`` (warns and stays on the CPU without a GPU)."""
        import torch
        api = "Config.enable_use_gpu"
        pool = _int(api, "memory_pool_init_size_mb", memory_pool_init_size_mb, non_negative=True)
        dev = _int(api, "device_id", device_id)
        if not isinstance(precision_mode, PrecisionType):
            raise TypeError(f"paddle.inference.{api}: precision_mode must be a PrecisionType, but "
                            f"received {precision_mode!r}")
        if not torch.cuda.is_available():  # nothing is recorded, as in a CPU-only Paddle
            warnings.warn("paddle.inference.Config.enable_use_gpu: no CUDA device is available; the "
                          "predictor runs on the CPU", UserWarning, stacklevel=2)
            return
        self._gpu, self._gpu_id, self._gpu_precision = True, max(dev, 0), precision_mode
        self._gpu_pool_mb = pool

    def disable_gpu(self) -> None:
        self._gpu = False

    def use_gpu(self) -> bool:
        return self._gpu

    def gpu_device_id(self) -> int:
        return self._gpu_id

    def memory_pool_init_size_mb(self) -> int:
        return self._gpu_pool_mb

    def fraction_of_gpu_memory_for_pool(self) -> float:
        import torch
        if not self._gpu:
            return 0.0
        total = torch.cuda.get_device_properties(self._gpu_id).total_memory
        return self._gpu_pool_mb * 2 ** 20 / total

    def enable_low_precision_io(self, x: bool = True) -> None:
        """Feed and fetch in the GPU precision (needs ``enable_use_gpu`` with Half or Bfloat16)."""
        x = _flag("Config.enable_low_precision_io", "x", x)
        if x and not (self._gpu and self._gpu_precision in (PrecisionType.Half, PrecisionType.Bfloat16)):
            raise ValueError("paddle.inference.Config.enable_low_precision_io: call "
                             "enable_use_gpu(..., precision_mode=PrecisionType.Half or Bfloat16) first")
        self._extra["low_precision_io"] = x

    def enable_xpu(self, *args: Any, **kwargs: Any) -> None:
        _not_compiled("enable_xpu", "XPU execution")

    def use_xpu(self) -> bool:
        return False

    def set_xpu_device_id(self, device_id: int = 0) -> None:
        self._xpu_config.device_id = _int("Config.set_xpu_device_id", "device_id", device_id)

    def xpu_device_id(self) -> int:
        return self._xpu_config.device_id

    def set_xpu_config(self, config: XpuConfig) -> None:
        self._xpu_config = config

    def xpu_config(self) -> XpuConfig:
        return self._xpu_config

    def enable_custom_device(self, device_type: str, device_id: int = 0,
                             precision: PrecisionType = PrecisionType.Float32) -> None:
        _unavailable(f"custom device {device_type!r}")

    def enable_ipu(self, *args: Any, **kwargs: Any) -> None:
        _not_compiled("enable_ipu", "IPU execution")

    def set_ipu_config(self, *args: Any, **kwargs: Any) -> None:
        """Accepted and ignored (pagaie runs no IPU)."""

    def set_ipu_custom_info(self, *args: Any, **kwargs: Any) -> None:
        """Accepted and ignored (pagaie runs no IPU)."""

    def load_ipu_config(self, config_path: str) -> None:
        """Reads nothing (pagaie runs no IPU), but the file must exist, as in Paddle."""
        import os
        if not os.path.isfile(_str("Config.load_ipu_config", "config_path", config_path)):
            raise RuntimeError(f"paddle.inference.Config.load_ipu_config: cannot open file {config_path!r}")

    # ---- CPU ---------------------------------------------------------------------
    def set_cpu_math_library_num_threads(self, num_threads: int) -> None:
        """Threads the CPU kernels use while this config's predictors run (< 1: torch's default)."""
        self._threads = _int("Config.set_cpu_math_library_num_threads", "num_threads", num_threads)

    def cpu_math_library_num_threads(self) -> int:
        return self._threads

    def enable_mkldnn(self) -> None:
        self._mkldnn = True

    def disable_mkldnn(self) -> None:
        self._mkldnn = False

    def mkldnn_enabled(self) -> bool:
        return self._mkldnn

    enable_onednn, disable_onednn, onednn_enabled = enable_mkldnn, disable_mkldnn, mkldnn_enabled

    def set_mkldnn_cache_capacity(self, capacity: int = 0) -> None:
        self._mkldnn_cache = _int("Config.set_mkldnn_cache_capacity", "capacity", capacity)

    set_onednn_cache_capacity = set_mkldnn_cache_capacity

    def set_mkldnn_op(self, op_list: set) -> None:
        """Accepted and ignored: pagaie's kernels are chosen per op by torch."""

    set_onednn_op = set_mkldnn_op

    def enable_mkldnn_int8(self, mkldnn_int8_enabled_op_types: set = frozenset()) -> None:
        _unavailable("oneDNN int8 quantised execution")
        self._mkldnn_int8 = True

    def enable_onednn_int8(self, onednn_int8_enabled_op_types: set = frozenset()) -> None:
        _unavailable("oneDNN int8 quantised execution")
        self._mkldnn_int8 = True

    def mkldnn_int8_enabled(self) -> bool:
        return self._mkldnn_int8

    onednn_int8_enabled = mkldnn_int8_enabled

    def enable_mkldnn_bfloat16(self) -> None:
        _unavailable("oneDNN bfloat16 execution")

    enable_onednn_bfloat16 = enable_mkldnn_bfloat16

    def set_bfloat16_op(self, op_list: set) -> None:
        """Accepted and ignored (see :meth:`enable_mkldnn_bfloat16`)."""

    def disable_mkldnn_fc_passes(self) -> None:
        """Accepted: pagaie has no oneDNN fully-connected passes."""

    disable_onednn_fc_passes = disable_mkldnn_fc_passes

    # ---- graph optimisation and memory ---------------------------------------------
    def switch_ir_optim(self, x: bool = True) -> None:
        """Run pagaie's inference passes (folding, fusion, dead code) on the program."""
        self._ir_optim = _flag("Config.switch_ir_optim", "x", x)

    def ir_optim(self) -> bool:
        return self._ir_optim

    def switch_ir_debug(self, x: bool = True, passes: list | None = None) -> None:
        """Verify shapes and dtypes after every pass."""
        self._ir_debug = _flag("Config.switch_ir_debug", "x", x)

    def pass_builder(self) -> PaddlePassBuilder:
        """The passes the predictor runs (one :class:`PaddlePassBuilder` per config)."""
        if self._pass_builder is None:
            self._pass_builder = PaddlePassBuilder(PADDLE_CPU_PASSES)
        return self._pass_builder

    def delete_pass(self, pass_name: str) -> None:
        """Leave pass ``pass_name`` (a pagaie pass name) out of the optimisation."""
        self._deleted_passes.append(_str("Config.delete_pass", "pass_name", pass_name))

    def enable_custom_passes(self, passes: list | None = None, custom_pass_only: bool = False) -> None:
        """Run ``passes`` (pagaie pass names) too; only them when ``custom_pass_only``."""
        names = [_str("Config.enable_custom_passes", "passes", p) for p in (passes or [])]
        builder = self.pass_builder()
        if custom_pass_only:
            builder.set_passes(names)
        else:
            for n in names:
                builder.append_pass(n)

    def passes_to_run(self) -> list[str]:
        """The pass names a predictor of this config runs, in order ([] without ``ir_optim``)."""
        if not self._ir_optim or self._opt_level <= 0:
            return []
        from pagaie._static.passes.engine import PASSES
        from pagaie._static.passes.strategy import INFERENCE_PASSES
        builder = self.pass_builder()
        deleted = {PASS_ALIASES.get(p, p) for p in self._deleted_passes}
        wanted = [PASS_ALIASES.get(p, p) for p in builder.all_passes()]
        if builder._implicit:
            wanted += [p for p in INFERENCE_PASSES if p not in PASS_ALIASES.values() and
                       p not in builder._deleted]
        wanted = [p for p in dict.fromkeys(wanted) if p in PASSES and p not in deleted]
        # pagaie's passes in their own order, then the others as listed
        return [p for p in INFERENCE_PASSES if p in wanted] + \
            [p for p in wanted if p not in INFERENCE_PASSES]

    def enable_memory_optim(self, x: bool = True) -> None:
        """Let elementwise ops write into inputs that die there (buffer reuse)."""
        self._memory_optim = _flag("Config.enable_memory_optim", "x", x)

    def switch_use_feed_fetch_ops(self, x: bool = True) -> None:
        """Accepted and ignored, as in Paddle 3 (whose predictors have no feed/fetch ops)."""
        _flag("Config.switch_use_feed_fetch_ops", "x", x)

    def use_feed_fetch_ops_enabled(self) -> bool:
        """False: Paddle 3's predictors never use feed/fetch ops."""
        return False

    def switch_specify_input_names(self, x: bool = True) -> None:
        self._specify_input_names = _flag("Config.switch_specify_input_names", "x", x)

    def specify_input_name(self) -> bool:
        return self._specify_input_names

    def enable_profile(self) -> None:
        """Print the time of each ``run`` (pagaie's profiler gives per-op detail)."""
        self._profile = True

    def disable_glog_info(self) -> None:
        self._glog_disabled = True

    def glog_info_disabled(self) -> bool:
        return self._glog_disabled

    def enable_new_ir(self, x: bool = True) -> None:
        self._new_ir = _flag("Config.enable_new_ir", "x", x)

    def new_ir_enabled(self) -> bool:
        return self._new_ir

    def enable_new_executor(self, x: bool = True) -> None:
        self._extra["new_executor"] = _flag("Config.enable_new_executor", "x", x)

    def set_optimization_level(self, opt_level: int = 2) -> None:
        """0 runs no pass; any other level runs them (``ir_optim()`` is left as it is)."""
        self._opt_level = _int("Config.set_optimization_level", "opt_level", opt_level)

    def exp_enable_mixed_precision_ops(self, white_list: set) -> None:
        """Accepted and ignored (see :func:`convert_to_mixed_precision`)."""

    def exp_disable_mixed_precision_ops(self, black_list: set) -> None:
        """Accepted and ignored (see :func:`convert_to_mixed_precision`)."""

    def exp_enable_use_cutlass(self) -> None:
        """Accepted and ignored: pagaie has no CUTLASS kernels."""

    def exp_sparse_conv_using_buffer(self, kernels: list, strides: list) -> None:
        """Accepted and ignored."""

    def collect_shape_range_info(self, shape_range_info_path: str) -> None:
        """Record the input shapes seen by ``run`` into this file (a text file, one line per input)."""
        self._shape_range_path = _str("Config.collect_shape_range_info", "shape_range_info_path",
                                      shape_range_info_path)

    def shape_range_info_collected(self) -> bool:
        return bool(self._shape_range_path)

    def shape_range_info_path(self) -> str:
        return self._shape_range_path

    # ---- engines pagaie does not have ------------------------------------------------
    def enable_tensorrt_engine(self, workspace_size: int = 1 << 30, max_batch_size: int = 1,
                               min_subgraph_size: int = 3,
                               precision_mode: PrecisionType = PrecisionType.Float32,
                               use_static: bool = False, use_calib_mode: bool = True, **kwargs: Any) -> None:
        """TensorRT is not used by pagaie. Without CUDA this raises RuntimeError, as Paddle's
        CPU build does; with CUDA, a warning, and the model runs on pagaie's kernels."""
        import torch
        if not torch.cuda.is_available():
            _not_compiled("enable_tensorrt_engine", "TensorRT")
        _unavailable("TensorRT")

    def tensorrt_engine_enabled(self) -> bool:
        return False

    def tensorrt_dynamic_shape_enabled(self) -> bool:
        return False

    def tensorrt_precision_mode(self) -> PrecisionType:
        return PrecisionType.Float32

    def set_tensorrt_optimization_level(self, level: int) -> None:
        self._trt["opt_level"] = _int("Config.set_tensorrt_optimization_level", "level", level)

    def tensorrt_optimization_level(self) -> int:
        return self._trt["opt_level"]

    def enable_tensorrt_dla(self, dla_core: int = 0) -> None:
        self._trt["dla"] = True

    def tensorrt_dla_enabled(self) -> bool:
        return self._trt["dla"]

    def enable_tensorrt_varseqlen(self) -> None:
        self._trt["varseqlen"] = True

    def tensorrt_varseqlen_enabled(self) -> bool:
        return self._trt["varseqlen"]

    def enable_tensorrt_inspector(self, inspector_serialize: bool = False) -> None:
        self._trt["inspector"] = True

    def tensorrt_inspector_enabled(self) -> bool:
        return self._trt["inspector"]

    def enable_tensorrt_explicit_quantization(self) -> None:
        self._trt["explicit_quant"] = True

    def tensorrt_explicit_quantization_enabled(self) -> bool:
        return self._trt["explicit_quant"]

    def enable_tensorrt_memory_optim(self, engine_memory_sharing: bool = True, sharing_identifier: int = 0) -> None:
        raise ValueError("paddle.inference.Config.enable_tensorrt_memory_optim: TensorRT is not enabled "
                         "(pagaie runs no TensorRT)")

    def set_trt_dynamic_shape_info(self, min_input_shape: dict | None = None, max_input_shape: dict | None = None,
                                   optim_input_shape: dict | None = None,
                                   disable_trt_plugin_fp16: bool = False) -> None:
        """Accepted and ignored (pagaie runs no TensorRT)."""

    def enable_tuned_tensorrt_dynamic_shape(self, shape_range_info_path: str = "",
                                            allow_build_at_runtime: bool = True) -> None:
        """Accepted and ignored (pagaie runs no TensorRT)."""

    def tuned_tensorrt_dynamic_shape(self) -> bool:
        return False

    def trt_allow_build_at_runtime(self) -> bool:
        return False

    def mark_trt_engine_outputs(self, output_tensor_names: list | None = None) -> None:
        """Accepted and ignored (pagaie runs no TensorRT)."""

    def exp_disable_tensorrt_ops(self, ops: list) -> None:
        """Accepted and ignored (pagaie runs no TensorRT)."""

    def exp_disable_tensorrt_subgraph(self, var_name_not_trt: list) -> None:
        """Accepted and ignored (pagaie runs no TensorRT)."""

    def exp_disable_tensorrt_dynamic_shape_ops(self, trt_forbid_dynamic_op: bool) -> None:
        """Accepted and ignored (pagaie runs no TensorRT)."""

    def exp_specify_tensorrt_subgraph_precision(self, trt_parameter_run_fp16: list, trt_parameter_run_int8: list,
                                                trt_parameter_run_bfp16: list) -> None:
        """Accepted and ignored (pagaie runs no TensorRT)."""

    def enable_openvino_engine(self, inference_precision: PrecisionType = PrecisionType.Float32) -> None:
        _unavailable("OpenVINO")
        self._openvino = True

    def openvino_engine_enabled(self) -> bool:
        return self._openvino

    def enable_onnxruntime(self) -> None:
        _unavailable("ONNX Runtime execution")

    def disable_onnxruntime(self) -> None:
        pass

    def onnxruntime_enabled(self) -> bool:
        return False

    def enable_ort_optimization(self) -> None:
        """Accepted and ignored (pagaie runs no ONNX Runtime)."""

    def enable_cinn(self) -> None:
        _not_compiled("enable_cinn", "the CINN compiler")

    def summary(self) -> str:
        """A table of the options, as Paddle prints it."""
        rows: list[list[tuple[str, str]]] = []
        b = lambda v: "true" if v else "false"  # noqa: E731
        model: list[tuple[str, str]] = []
        if self._model_dir:
            model.append(("model_dir", self._model_dir))
        if self._prog or self._params:
            model += [("model_file", self._prog), ("params_file", self._params)]
        if self._buffers is not None:
            model.append(("model_from_memory", self._params))
        rows.append(model)
        rows.append([("cpu_math_thread", str(self._threads)), ("enable_mkldnn", b(self._mkldnn)),
                     ("mkldnn_cache_capacity", str(self._mkldnn_cache)),
                     ("use_openvino", b(self._openvino)), ("openvino_inference_precision", "fp32")])
        gpu = [("use_gpu", b(self._gpu))]
        if self._gpu:
            gpu += [("gpu_device_id", str(self._gpu_id)),
                    ("memory_pool_init_size", f"{self._gpu_pool_mb}MB"),
                    ("enable_tensorrt", "false")]
        rows += [gpu, [("use_xpu", "false")]]
        rows.append([("use_cinn_compiler", "false"), ("save_optimized_model", b(self._save_optimized)),
                     ("ir_optim", b(self._ir_optim)), ("ir_debug", b(self._ir_debug)),
                     ("use_optimized_model", b(self._use_optimized)), ("memory_optim", b(self._memory_optim)),
                     ("enable_profile", b(self._profile)), ("enable_log", b(not self._glog_disabled)),
                     ("collect_shape_range_info", self._shape_range_path or "false")])
        w1 = max(len("Option"), *(len(k) for g in rows for k, _ in g)) + 1
        w2 = max(len("Value"), *(len(v) for g in rows for _, v in g)) + 1
        sep = f"+{'-' * (w1 + 1)}+{'-' * (w2 + 1)}+"
        out = ["", sep, f"| {'Option'.ljust(w1)}| {'Value'.ljust(w2)}|", sep]
        for g in rows:
            out += [f"| {k.ljust(w1)}| {v.ljust(w2)}|" for k, v in g]
            out.append(sep)
        return "\n".join(out) + "\n"

    def __repr__(self) -> str:
        return f"<paddle.inference.Config model={self._model_dir or self._prog!r}>"
