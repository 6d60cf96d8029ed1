"""``BuildStrategy`` and ``CompiledProgram``: a program prepared once for repeated runs.

``CompiledProgram`` applies the build strategy's graph passes
(``pagaie._static.passes.apply_build_strategy``) and runs the result with the compiled
executor (``pagaie._static.compiled.CompiledPlan``) when those modules are available,
else with the interpreter. ``Executor.run`` recognises it by its ``_program`` and
``_run(tensors, fetch)`` attributes.
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie._static.ir import Program, Value

__all__ = ["BuildStrategy", "CompiledProgram"]


class BuildStrategy:
    """Options for building a :class:`CompiledProgram` (graph passes to apply).

    Attributes (all settable): ``enable_inplace``, ``memory_optimize``,
    ``fuse_elewise_add_act_ops``, ``fuse_bn_act_ops``, ``fuse_bn_add_act_ops``,
    ``fuse_relu_depthwise_conv``, ``fuse_broadcast_ops``, ``fuse_all_optimizer_ops``,
    ``fuse_gemm_epilogue``, ``fuse_adamw``, ``fuse_dot_product_attention``,
    ``fuse_resunit``, ``enable_auto_fusion``, ``enable_addto``, ``sequential_run``,
    ``debug_graphviz_path``, ``reduce_strategy``, ``gradient_scale_strategy``,
    ``build_cinn_pass``, ``sync_batch_norm``, ``num_trainers``, ``trainer_id``.

    Examples:
        >>> import pagaie as paddle
        >>> bs = paddle.static.BuildStrategy()
        >>> bs.fuse_elewise_add_act_ops = True
        >>> bs.fuse_elewise_add_act_ops
        True
    """

    class ReduceStrategy:
        AllReduce = 0
        Reduce = 1
        _NoReduce = 2

    class GradientScaleStrategy:
        CoeffNumDevice = 0
        One = 1
        Customized = 2

    def __init__(self) -> None:
        self.enable_inplace = False
        self.memory_optimize = None
        self.fuse_elewise_add_act_ops = False
        self.fuse_bn_act_ops = False
        self.fuse_bn_add_act_ops = True
        self.fuse_relu_depthwise_conv = False
        self.fuse_broadcast_ops = False
        self.fuse_all_optimizer_ops = False
        self.fuse_all_reduce_ops = False
        self.fuse_gemm_epilogue = False
        self.fuse_adamw = False
        self.fuse_dot_product_attention = False
        self.fuse_resunit = False
        self.enable_auto_fusion = False
        self.enable_addto = False
        self.enable_sequential_execution = False
        self.sequential_run = False
        self.debug_graphviz_path = ""
        self.reduce_strategy = BuildStrategy.ReduceStrategy.AllReduce
        self.gradient_scale_strategy = BuildStrategy.GradientScaleStrategy.CoeffNumDevice
        self.build_cinn_pass = False
        self.sync_batch_norm = False
        self.num_trainers = 1
        self.trainer_id = 0
        self.fix_op_run_order = False
        self.allow_cuda_graph_capture = False

    def __repr__(self) -> str:
        on = [k for k, v in vars(self).items() if v is True]
        return f"BuildStrategy({', '.join(on)})"


class CompiledProgram:
    """A program prepared for repeated runs with a :class:`BuildStrategy`.

    Args:
        program_or_graph (Program): the program.
        build_strategy (BuildStrategy, optional): passes to apply.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('cp_x', [None, 2], 'float32')
        ...     y = paddle.nn.functional.relu(x + 1)
        >>> compiled = paddle.static.CompiledProgram(main, paddle.static.BuildStrategy())
        >>> exe = paddle.static.Executor()
        >>> exe.run(compiled, feed={'cp_x': np.zeros([1, 2], 'float32')}, fetch_list=[y])[0].tolist()
        [[1.0, 1.0]]
        >>> paddle.disable_static()
    """

    def __init__(self, program_or_graph: Program, build_strategy: BuildStrategy | None = None) -> None:
        if not isinstance(program_or_graph, Program):
            raise TypeError(f"paddle.static.CompiledProgram: program_or_graph must be a Program, but "
                            f"received {type(program_or_graph).__name__}")
        if build_strategy is not None and not isinstance(build_strategy, BuildStrategy):
            raise TypeError(f"paddle.static.CompiledProgram: build_strategy must be a BuildStrategy, "
                            f"but received {type(build_strategy).__name__}")
        self._program = program_or_graph
        self._build_strategy = build_strategy or BuildStrategy()
        self._plans: dict = {}
        self._built: tuple | None = None

    def _graph(self) -> Program:
        """The program after the build strategy's passes (rebuilt when the source changes)."""
        if self._built is None or self._built[0] != self._program.version:
            try:
                from pagaie._static.passes import apply_build_strategy
            except ImportError:
                prog = self._program
            else:
                prog = apply_build_strategy(self._program, self._build_strategy)
            self._built = (self._program.version, prog)
            self._plans.clear()
        return self._built[1]

    def _run(self, tensors: dict[str, torch.Tensor], fetch: list[Value]) -> list:
        prog = self._graph()
        gb = prog.global_block()
        fetch = [gb.var(v.name) if gb.has_var(v.name) else v for v in fetch]
        key = (tuple(sorted(tensors)), tuple(v.name for v in fetch))
        plan = self._plans.get(key)
        if plan is None:
            try:
                from pagaie._static.compiled import CompiledPlan as _PlanType
            except ImportError:
                from pagaie._static.interpreter import Plan as _PlanType
            plan = self._plans[key] = _PlanType(prog, list(key[0]), fetch)
        return plan.run(tensors)
