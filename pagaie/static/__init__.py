"""``paddle.static``: building and running static programs."""
from pagaie.static import nn
from pagaie.static.backward import append_backward, gradients
from pagaie.static.compiled_program import BuildStrategy, CompiledProgram
from pagaie.static.executor import Executor
from pagaie.static.extras import (ExponentialMovingAverage, IpuCompiledProgram, IpuStrategy, Print,
                                  WeightNormParamAttr, accuracy, auc, cpu_places, create_global_var,
                                  create_parameter, ctr_metric_bundle, cuda_places, device_guard,
                                  ipu_shard_guard, set_ipu_shard, xpu_places)
from pagaie.static.framework import (Program, Scope, Variable, data, default_main_program,
                                     default_startup_program, disable_static, enable_static,
                                     global_scope, in_dynamic_mode, name_scope, program_guard,
                                     scope_guard, setitem)
from pagaie.static.input_spec import InputSpec
from pagaie.static.io import (deserialize_persistables, deserialize_program, load, load_from_file,
                              load_inference_model, load_program_state, normalize_program, save,
                              save_inference_model, save_to_file, serialize_persistables,
                              serialize_program, set_program_state)
from pagaie.static.io import load_vars, save_vars  # noqa: F401  (public, not in Paddle's __all__)
from pagaie.static.nn.extras import py_func

__all__ = ["append_backward", "gradients", "Executor", "global_scope", "scope_guard",
           "BuildStrategy", "CompiledProgram", "ipu_shard_guard", "IpuCompiledProgram",
           "IpuStrategy", "Print", "py_func", "name_scope", "program_guard", "WeightNormParamAttr",
           "ExponentialMovingAverage", "default_main_program", "default_startup_program", "Program",
           "data", "InputSpec", "save", "load", "save_inference_model", "load_inference_model",
           "serialize_program", "serialize_persistables", "save_to_file", "deserialize_program",
           "deserialize_persistables", "load_from_file", "normalize_program", "load_program_state",
           "set_program_state", "cpu_places", "cuda_places", "xpu_places", "Variable",
           "create_global_var", "accuracy", "auc", "device_guard", "create_parameter",
           "set_ipu_shard", "ctr_metric_bundle", "Scope"]
__paddle_toplevel__ = ["enable_static", "disable_static", "in_dynamic_mode"]
from pagaie.static import amp  # noqa: F401,E402
from pagaie.static import startup as _startup  # noqa: F401,E402  (the startup-program hook)
