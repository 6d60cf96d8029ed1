"""``paddle.static``: building and running static programs."""
from pagaie.static.backward import append_backward, gradients
from pagaie.static.executor import Executor
from pagaie.static.framework import (Program, Scope, Variable, data, default_main_program,
                                     default_startup_program, disable_static, enable_static,
                                     global_scope, in_dynamic_mode, name_scope, program_guard,
                                     scope_guard)
from pagaie.static.input_spec import InputSpec

__all__ = ["Program", "Variable", "Executor", "data", "program_guard", "default_main_program",
           "default_startup_program", "global_scope", "scope_guard", "Scope", "name_scope",
           "append_backward", "gradients", "InputSpec"]
__paddle_toplevel__ = ["enable_static", "disable_static", "in_dynamic_mode"]
