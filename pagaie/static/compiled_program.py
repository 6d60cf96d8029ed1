"""``CompiledProgram``: a program prepared once for repeated runs.

It runs through ``pagaie._static.compiled.StrategyRunner``: the graph passes the
``BuildStrategy`` switches on, then the interpreter, or the compiled executor when
``build_cinn_pass`` is set. ``Executor.run`` recognises it by its ``_program`` and
``_run(tensors, fetch)`` attributes.
"""
from __future__ import annotations

import torch

from pagaie._static.compiled import StrategyRunner
from pagaie._static.ir import Program, Value
from pagaie.static.build_strategy import BuildStrategy

__all__ = ["BuildStrategy", "CompiledProgram"]


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
        # The passes the strategy asks for, then the interpreter (or, with build_cinn_pass,
        # the compiled executor); fetch targets are kept out of fusions.
        self._runner = StrategyRunner(program_or_graph, self._build_strategy)

    def _run(self, tensors: dict[str, torch.Tensor], fetch: list[Value]) -> list:
        return self._runner._run(tensors, fetch)
