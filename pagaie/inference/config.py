"""``paddle.inference.Config`` and the enumerations of the inference API.

A :class:`Config` names the model files and records how a predictor should run:
device (CPU, or a CUDA GPU when torch has one), graph optimisation
(``switch_ir_optim``: pagaie's inference passes), buffer reuse (``enable_memory_optim``)
and CPU threads. Engines pagaie does not have (TensorRT, XPU, IPU, OpenVINO,
ONNX Runtime, custom devices) are accepted with a warning and stay disabled: the
model runs on pagaie's own kernels, as a CPU-only Paddle build would.
"""
from __future__ import annotations

import enum
import warnings
from typing import Any

__all__ = ["Config", "DataType", "PlaceType", "PrecisionType", "XpuConfig"]


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

    FLOAT32 = 0
    INT64 = 1
    INT32 = 2
    UINT8 = 3
    INT8 = 4
    FLOAT16 = 5
    BOOL = 6
    FLOAT64 = 7
    BFLOAT16 = 8


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


class Config:
    """How to load and run an inference model.

    ``Config()`` (set the model later with :meth:`set_model`), ``Config(model_dir)`` (a
    directory holding one model) or ``Config(prog_file, params_file)``. Model files
    are Paddle's PIR ``.json``, legacy ``.pdmodel`` (or ``__model__``) and pagaie's own
    ``paddle.jit.save`` / ``save_inference_model`` output, each with its ``.pdiparams``.

    Examples:
        >>> import pagaie as paddle
        >>> config = paddle.inference.Config('model.json', 'model.pdiparams')
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
        self._gpu = False
        self._gpu_id = 0
        self._gpu_pool_mb = 0
        self._gpu_precision = PrecisionType.Float32
        self._ir_optim = True
        self._ir_debug = False
        self._memory_optim = False
        self._threads = 1
        self._mkldnn = True
        self._mkldnn_cache = 10
        self._glog_disabled = False
        self._feed_fetch_ops = False
        self._specify_input_names = False
        self._profile = False
        self._new_ir = True
        self._deleted_passes: list[str] = []
        self._shape_range_path = ""
        self._xpu_config = XpuConfig()
        self._extra: dict[str, Any] = {}
        self._valid = True

    # ---- model -------------------------------------------------------------------
    def set_model(self, prog_file_or_model_dir: str, params_file: str | None = None) -> None:
        """Set the model: a directory, or the program and parameter files."""
        if params_file is None:
            self._model_dir, self._prog, self._params = prog_file_or_model_dir, "", ""
        else:
            self._model_dir, self._prog, self._params = "", prog_file_or_model_dir, params_file
        self._buffers = None

    def set_prog_file(self, prog_file: str) -> None:
        """Set the program file."""
        self._prog = prog_file

    def set_params_file(self, params_file: str) -> None:
        """Set the parameter file."""
        self._params = params_file

    def set_model_buffer(self, prog_buffer: Any, prog_buffer_size: int, params_buffer: Any,
                         params_buffer_size: int) -> None:
        """Load the model from memory: the program file's and the parameter file's contents."""
        def as_bytes(b: Any, n: int) -> bytes:
            b = b.encode("latin-1") if isinstance(b, str) else bytes(b)
            return b[:n]
        self._buffers = (as_bytes(prog_buffer, prog_buffer_size), as_bytes(params_buffer, params_buffer_size))

    def model_from_memory(self) -> bool:
        return self._buffers is not None

    def model_dir(self) -> str:
        return self._model_dir

    def prog_file(self) -> str:
        return self._prog

    def params_file(self) -> str:
        return self._params

    # ---- devices -----------------------------------------------------------------
    def enable_use_gpu(self, memory_pool_init_size_mb: int, device_id: int = 0,
                       precision_mode: PrecisionType = PrecisionType.Float32) -> None:
        """Run on CUDA device ``device_id`` (warns and stays on the CPU without a GPU)."""
        import torch
        self._gpu_pool_mb = int(memory_pool_init_size_mb)
        if not torch.cuda.is_available():
            warnings.warn("paddle.inference.Config.enable_use_gpu: no CUDA device is available; the "
                          "predictor runs on the CPU", UserWarning, stacklevel=2)
            return
        self._gpu, self._gpu_id, self._gpu_precision = True, int(device_id), PrecisionType(precision_mode)

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

    def enable_xpu(self, *args: Any, **kwargs: Any) -> None:
        _unavailable("XPU execution")

    def use_xpu(self) -> bool:
        return False

    def set_xpu_device_id(self, device_id: int = 0) -> None:
        self._xpu_config.device_id = int(device_id)

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
        _unavailable("IPU execution")

    # ---- CPU ---------------------------------------------------------------------
    def set_cpu_math_library_num_threads(self, num_threads: int) -> None:
        """Threads the CPU kernels use while this config's predictors run."""
        self._threads = max(1, int(num_threads))

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
        self._mkldnn_cache = int(capacity)

    set_onednn_cache_capacity = set_mkldnn_cache_capacity

    def enable_mkldnn_int8(self, mkldnn_int8_enabled_op_types: set = frozenset()) -> None:
        _unavailable("oneDNN int8 quantised execution")

    def enable_onednn_int8(self, onednn_int8_enabled_op_types: set = frozenset()) -> None:
        _unavailable("oneDNN int8 quantised execution")

    def mkldnn_int8_enabled(self) -> bool:
        return False

    onednn_int8_enabled = mkldnn_int8_enabled

    # ---- graph optimisation and memory ---------------------------------------------
    def switch_ir_optim(self, x: bool = True) -> None:
        """Run pagaie's inference passes (folding, fusion, dead code) on the program."""
        self._ir_optim = bool(x)

    def ir_optim(self) -> bool:
        return self._ir_optim

    def switch_ir_debug(self, x: bool = True, passes: list | None = None) -> None:
        """Verify shapes and dtypes after every pass."""
        self._ir_debug = bool(x)

    def delete_pass(self, pass_name: str) -> None:
        """Leave pass ``pass_name`` (a pagaie pass name) out of the optimisation."""
        self._deleted_passes.append(str(pass_name))

    def enable_memory_optim(self, x: bool = True) -> None:
        """Let elementwise ops write into inputs that die there (buffer reuse)."""
        self._memory_optim = bool(x)

    def switch_use_feed_fetch_ops(self, x: bool = True) -> None:
        self._feed_fetch_ops = bool(x)

    def use_feed_fetch_ops_enabled(self) -> bool:
        return self._feed_fetch_ops

    def switch_specify_input_names(self, x: bool = True) -> None:
        self._specify_input_names = bool(x)

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
        self._new_ir = bool(x)

    def new_ir_enabled(self) -> bool:
        return self._new_ir

    def enable_new_executor(self, x: bool = True) -> None:
        self._extra["new_executor"] = bool(x)

    def set_optimization_level(self, opt_level: int = 2) -> None:
        """0 turns the passes off; any other level runs them."""
        self._ir_optim = int(opt_level) > 0

    def collect_shape_range_info(self, shape_range_info_path: str) -> None:
        """Record the input shapes seen by ``run`` into this file (a text file, one line per input)."""
        self._shape_range_path = str(shape_range_info_path)

    def shape_range_info_collected(self) -> bool:
        return bool(self._shape_range_path)

    def shape_range_info_path(self) -> str:
        return self._shape_range_path

    # ---- engines pagaie does not have ------------------------------------------------
    def enable_tensorrt_engine(self, workspace_size: int = 1 << 30, max_batch_size: int = 1,
                               min_subgraph_size: int = 3,
                               precision_mode: PrecisionType = PrecisionType.Float32,
                               use_static: bool = False, use_calib_mode: bool = True, **kwargs: Any) -> None:
        """TensorRT is not used by pagaie: a warning, and the model runs as without it."""
        _unavailable("TensorRT")

    def tensorrt_engine_enabled(self) -> bool:
        return False

    def enable_openvino_engine(self, inference_precision: PrecisionType = PrecisionType.Float32) -> None:
        _unavailable("OpenVINO")

    def openvino_engine_enabled(self) -> bool:
        return False

    def enable_onnxruntime(self) -> None:
        _unavailable("ONNX Runtime execution")

    def disable_onnxruntime(self) -> None:
        pass

    def onnxruntime_enabled(self) -> bool:
        return False

    def enable_cinn(self) -> None:
        _unavailable("CINN")

    def summary(self) -> str:
        """A table of the options, as Paddle prints it."""
        rows: list[list[tuple[str, str]]] = []
        if self._buffers is not None:
            rows.append([("model_from_memory", "true")])
        elif self._model_dir:
            rows.append([("model_dir", self._model_dir)])
        else:
            rows.append([("model_file", self._prog), ("params_file", self._params)])
        b = lambda v: "true" if v else "false"  # noqa: E731
        rows.append([("cpu_math_thread", str(self._threads)), ("enable_mkldnn", b(self._mkldnn)),
                     ("mkldnn_cache_capacity", str(self._mkldnn_cache)),
                     ("use_openvino", "false"), ("openvino_inference_precision", "fp32")])
        gpu = [("use_gpu", b(self._gpu))]
        if self._gpu:
            gpu += [("gpu_device_id", str(self._gpu_id)),
                    ("memory_pool_init_size", f"{self._gpu_pool_mb}MB"),
                    ("enable_tensorrt", "false")]
        rows += [gpu, [("use_xpu", "false")]]
        rows.append([("use_cinn_compiler", "false"), ("save_optimized_model", "false"),
                     ("ir_optim", b(self._ir_optim)), ("ir_debug", b(self._ir_debug)),
                     ("use_optimized_model", "false"), ("memory_optim", b(self._memory_optim)),
                     ("enable_profile", b(self._profile)), ("enable_log", b(not self._glog_disabled)),
                     ("collect_shape_range_info", b(bool(self._shape_range_path)))])
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
