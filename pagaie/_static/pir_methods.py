"""Paddle's PIR introspection methods of the IR's classes, as mixins kept apart from the IR's
core: a ``Value``'s uses by the program's operators, what kind of value it is and a
parameter's optimizer attributes; an ``Operation``'s operands and results; a ``Block``'s
ends; a ``Program``'s counts. (pagaie's programs hold no ``data``/``full`` operators for
inputs and constant arguments, so counts of operators and operands can be lower than
Paddle's.)"""
from __future__ import annotations

from typing import Any

import torch


class ValueUses:
    """Paddle's ``Value`` methods over the uses of a value in its program."""

    def all_used_ops(self) -> list:
        """The operators (of every block of the program) that read this value, in order."""
        prog = self.block.program
        return [op for b in prog.blocks for op in b.ops
                if any(v is self for v in op.input_values())]

    def all_used_ops_in_same_block(self) -> list:
        """The operators of this value's own block that read it."""
        return [op for op in self.block.ops if any(v is self for v in op.input_values())]

    def use_empty(self) -> bool:
        """Whether no operator reads this value."""
        return not self.all_used_ops()

    def has_one_use(self) -> bool:
        """Whether exactly one operator reads this value."""
        return len(self.all_used_ops()) == 1

    def replace_all_uses_with(self, other: Any) -> None:
        """Make every operator that reads this value read ``other`` instead."""
        from pagaie._static.ir import Value, map_values
        if not isinstance(other, Value):
            raise TypeError(f"paddle.pir.Value.replace_all_uses_with: the replacement must be a "
                            f"Value, but received {type(other).__name__}")

        def swap(v: Value) -> Value:
            return other if v is self else v

        for op in self.all_used_ops():
            op.args = map_values(op.args, swap)
            op.kwargs = map_values(op.kwargs, swap)
        self.block.program._bump()

    def set_shape(self, shape: Any) -> None:
        """Declare the value's sizes (-1 unknown); only while ``to_static`` traces, as Paddle."""
        from pagaie._static.ir import _shape_in
        from pagaie.static.framework import in_dynamic_mode
        if not in_dynamic_mode():
            raise AssertionError("We only support call 'set_shape' in to_static mode.")
        dims = [-1 if d is None or d < 0 else int(d) for d in shape]
        self._t = torch.empty(_shape_in(dims), dtype=self._t.dtype, device="meta")
        self._dims = dims

    def index(self) -> int:
        """The position of this value among its defining operator's results (0 for inputs)."""
        op = self.op
        if op is None:
            return 0
        return next((i for i, v in enumerate(op.output_values()) if v is self), 0)

    @property
    def has_name(self) -> bool:
        """Whether the value is a named one: an input, a parameter or a captured tensor (an
        operator's result has none)."""
        return self.op is None

    @property
    def _names(self) -> list[str]:
        return [self.name] if self.has_name else []

    def _has_only_one_name(self) -> bool:
        return self.has_name

    def initialized(self) -> bool:
        return True

    @property
    def id(self) -> str:
        return f"Value{id(self):x}"

    def hash(self) -> int:
        return id(self)

    # the kind of value: pagaie's programs hold dense tensors (and sparse ones)
    def is_combine(self) -> bool:
        return False

    def is_dense_tensor_array_type(self) -> bool:
        return False

    def is_selected_row_type(self) -> bool:
        return False

    def is_dist_dense_tensor_type(self) -> bool:
        return False

    def is_sparse_coo_tensor_type(self) -> bool:
        return self._t.layout.__repr__() == "torch.sparse_coo"

    def is_sparse_csr_tensor_type(self) -> bool:
        return self._t.layout.__repr__() == "torch.sparse_csr"

    # a parameter's attributes (those of the eager Parameter it stands for)
    def _parameter(self) -> Any:
        src = self.source
        return src if type(src).__name__ in ("Parameter", "EagerParamBase") else None

    @property
    def is_parameter(self) -> bool:
        return self._parameter() is not None

    @property
    def need_clip(self) -> bool:
        p = self._parameter()
        return bool(getattr(p, "need_clip", False)) if p is not None else False

    @property
    def optimize_attr(self) -> Any:
        p = self._parameter()
        return getattr(p, "optimize_attr", None) if p is not None else None

    @property
    def regularizer(self) -> Any:
        p = self._parameter()
        return getattr(p, "regularizer", None) if p is not None else None

    @property
    def do_model_average(self) -> Any:
        p = self._parameter()
        return getattr(p, "do_model_average", None) if p is not None else None

    @property
    def is_distributed(self) -> bool:
        p = self._parameter()
        return bool(getattr(p, "is_distributed", False)) if p is not None else False


class OperationMethods:
    """Paddle's ``Operation`` methods over an :class:`pagaie._static.ir.Operator`."""

    def operands_source(self) -> list:
        """The values the operator reads, in argument order (a value read twice twice)."""
        from pagaie._static.ir import _values_in
        return [*_values_in(self.args), *_values_in(self.kwargs)]

    def operand_source(self, index: int) -> Any:
        return self.operands_source()[index]

    def num_operands(self) -> int:
        return len(self.operands_source())

    def results(self) -> list:
        """The values the operator defines."""
        return self.output_values()

    def result(self, index: int) -> Any:
        return self.output_values()[index]

    def num_results(self) -> int:
        return len(self.output_values())

    def get_parent_block(self) -> Any:
        return self.block

    def id(self) -> int:
        return id(self)


class BlockMethods:
    """Paddle's ``Block`` methods over an :class:`pagaie._static.ir.Block`."""

    def num_ops(self) -> int:
        return len(self.ops)

    def empty(self) -> bool:
        return not self.ops

    def front(self) -> Any:
        return self.ops[0]

    def back(self) -> Any:
        return self.ops[-1]

    @property
    def parent_block(self) -> Any:
        """The enclosing block (None for the global block)."""
        return None if self.parent_idx < 0 else self.program.blocks[self.parent_idx]


class ProgramMethods:
    """Paddle's ``Program`` counts over an :class:`pagaie._static.ir.Program`."""

    def num_ops(self) -> int:
        return sum(len(b.ops) for b in self.blocks)

    def get_all_parameter_values(self) -> list:
        return self.all_parameters()

    def parameters_num(self) -> int:
        return len(self.all_parameters())
