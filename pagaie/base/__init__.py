"""``paddle.base``: the names of Paddle's legacy ``base`` (formerly ``fluid``) layer.

The commonly used part, as aliases of pagaie's own objects: flags (``set_flags``,
``get_flags``), places, ``Program`` / ``Executor`` / ``program_guard`` and friends from
:mod:`paddle.static`, the mode switches (``in_dygraph_mode``, ``enable_dygraph``), and the
submodules ``core``, ``dygraph``, ``framework``, ``unique_name`` and ``data_feeder``.

The ``is_compiled_with_*`` build queries are also hoisted to ``paddle.<name>``, as in Paddle.

Examples:
    >>> import pagaie as paddle
    >>> paddle.base.set_flags({"FLAGS_use_stride_kernel": True})
    >>> paddle.base.get_flags("FLAGS_use_stride_kernel")
    {'FLAGS_use_stride_kernel': True}
    >>> paddle.base.in_dygraph_mode()
    True
"""
from __future__ import annotations

from pagaie._core.flags import get_flags, set_flags
from pagaie.base import core, data_feeder, dygraph, framework, unique_name
from pagaie.base.core import (CPUPlace, CUDAPinnedPlace, CUDAPlace, IPUPlace, XPUPlace,
                              is_compiled_with_cinn, is_compiled_with_cuda,
                              is_compiled_with_custom_device, is_compiled_with_distribute,
                              is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu)
from pagaie.base.dygraph import disable_dygraph, enable_dygraph
from pagaie.base.framework import (Program, Variable, default_main_program,
                                   default_startup_program, device_guard, in_dygraph_mode,
                                   in_dynamic_or_pir_mode, in_pir_mode, name_scope, program_guard)
from pagaie.framework import ParamAttr, WeightNormParamAttr
from pagaie.static import (CompiledProgram, Executor, Scope, append_backward, cpu_places,
                           cuda_places, global_scope, gradients, scope_guard, xpu_places)
from pagaie._core.tensor import Tensor

__all__ = ["core", "data_feeder", "dygraph", "framework", "unique_name", "set_flags", "get_flags",
           "CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "IPUPlace", "Program",
           "Variable", "Tensor", "Executor", "CompiledProgram", "Scope", "ParamAttr",
           "WeightNormParamAttr", "default_main_program", "default_startup_program",
           "program_guard", "name_scope", "device_guard", "global_scope", "scope_guard",
           "gradients", "append_backward", "cpu_places", "cuda_places", "xpu_places",
           "in_dygraph_mode", "in_pir_mode", "in_dynamic_or_pir_mode", "enable_dygraph",
           "disable_dygraph", "is_compiled_with_cuda", "is_compiled_with_rocm",
           "is_compiled_with_xpu", "is_compiled_with_cinn"]

# ``paddle.is_compiled_with_cuda`` & co. (Paddle defines them in paddle.device and exports
# them at the top level too).
__paddle_toplevel__: list[str] = [
    "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
    "is_compiled_with_ipu", "is_compiled_with_cinn", "is_compiled_with_custom_device",
    "is_compiled_with_distribute"]
