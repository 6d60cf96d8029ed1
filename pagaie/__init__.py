"""pagaie: PaddlePaddle's API and behaviour on PyTorch's kernels.

    >>> import pagaie as paddle
    >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    >>> y = x * x
    >>> y.backward(paddle.ones([2]))
    >>> x.grad.tolist()
    [2.0, 4.0]
"""
from importlib import import_module as _import_module

from pagaie._version import __version__  # noqa: F401
from pagaie._core.dtype import (  # noqa: F401
    DType as dtype, bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64,
    complex64, complex128, float8_e4m3fn, float8_e5m2, uint16, uint32, uint64,
    get_default_dtype, set_default_dtype, iinfo, finfo,
)
cfloat, cdouble = complex64, complex128
from pagaie._core import flags as _flags, host_allocator as _host_allocator
if not _flags.flag("use_system_allocator"):
    _host_allocator.configure()
from pagaie._core.place import CPUPlace, CUDAPlace, CUDAPinnedPlace, CustomPlace, Place  # noqa: F401
from pagaie._core.tensor import Tensor, Size  # noqa: F401
from pagaie._core.parameter import Parameter  # noqa: F401
from pagaie._core.printing import set_printoptions  # noqa: F401
import sys as _sys  # noqa: E402
from pagaie import _ops as _ops_pkg

globals().update(_ops_pkg.PUBLIC)
# The top-level APIs Paddle deprecates warn on each call (before paddle.tensor copies them).
from pagaie.utils import _mark_deprecated as _deprecated  # noqa: E402
range = _deprecated(range, "paddle.tensor.creation.range", reason=(  # noqa: F821
    "paddle.range is deprecated and will be removed in a future release because its behavior "
    "is inconsistent with Python's range builtin.Instead, use paddle.arange, which produces "
    "values in [start, end)"))
Tensor.gradient = _deprecated(
    Tensor.gradient, "paddle.base.dygraph.tensor_patch_methods.gradient", since="2.1.0",
    reason="Please use tensor.grad, which returns the tensor value of the gradient.")
del _deprecated

from pagaie import autograd, device, linalg, fft, signal  # noqa: E402,F401
from pagaie.autograd import grad, no_grad, enable_grad, set_grad_enabled, is_grad_enabled  # noqa: E402,F401
from pagaie.device import get_device, set_device  # noqa: E402,F401
from pagaie.device import (Event, Stream, device_guard, get_cudnn_version, get_default_device,  # noqa: E402,F401
                           get_device_module, set_default_device, XPUPlace, IPUPlace)

# Subpackages; each may hoist names into this namespace with ``__paddle_toplevel__``.
_SUBPACKAGES = ("framework", "nn", "optimizer", "regularizer", "io", "metric", "utils", "vision", "text", "hapi", "callbacks", "amp", "static", "jit", "distribution", "profiler", "distributed", "inference", "onnx", "sparse", "quantization", "incubate", "geometric", "tensor", "base", "cuda", "special", "sysconfig", "version", "audio", "compat", "functional", "random", "library", "reader")
for _sub in _SUBPACKAGES:
    _mod = _import_module(f"pagaie.{_sub}")
    globals()[_sub] = _mod
    for _name in getattr(_mod, "__paddle_toplevel__", ()):
        globals()[_name] = getattr(_mod, _name)
del _sub, _mod, _import_module
ops = library.ops   # custom operators registered with paddle.library.custom_op
# modules Paddle has at the top level that live elsewhere here (``import paddle.hub``)
_sys.modules.setdefault("pagaie.ops", ops)
_sys.modules.setdefault("pagaie.hub", hub)  # noqa: F821
# Paddle's integer dtype aliases; set last, as they shadow the builtins in this module
globals().update({"int": int32, "long": int64, "short": int16})  # noqa: F821
from pagaie import _module_paths  # noqa: E402,F401  (Paddle module paths: import paddle.nn.functional.activation)
