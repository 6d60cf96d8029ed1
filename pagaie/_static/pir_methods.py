"""Paddle's PIR introspection methods of the IR's classes, as mixins kept apart from the IR's
core: a ``Value``'s uses by the program's operators, what kind of value it is and a
parameter's optimizer attributes; an ``Operation``'s operands and results; a ``Block``'s
ends; a ``Program``'s counts. (pagaie's programs hold no ``data``/``full`` operators for
inputs and constant arguments, so counts of operators and operands can be lower than
Paddle's.)"""
from __future__ import annotations

import weakref
from typing import Any

import torch


class ValueUses:
    """Paddle's ``Value`` methods over the uses of a value in its program."""

    def _uses(self, blocks: Any = None) -> list:
        """(operator, operand index) of every read of this value, as Paddle's use list: one
        entry per operand (``x + x`` reads ``x`` twice), the latest first."""
        blocks = self.block.program.blocks if blocks is None else blocks
        uses = [(op, i) for b in blocks for op in b.ops
                for i, v in enumerate(op.operands_source()) if v is self]
        return uses[::-1]

    def all_used_ops(self) -> list:
        """The operators (of every block of the program) that read this value: one entry per
        read, the latest first (Paddle's order)."""
        return [op for op, _ in self._uses()]

    def all_used_ops_in_same_block(self) -> list:
        """The operators of this value's own block that read it (as :meth:`all_used_ops`)."""
        return [op for op, _ in self._uses([self.block])]

    def first_use(self) -> Any:
        """The head of the value's use list (an ``OpOperand``): the read recorded last; None
        when nothing reads it."""
        uses = self._uses()
        return uses[0][0].operand(uses[0][1]) if uses else None

    def use_empty(self) -> bool:
        """Whether no operator reads this value."""
        return not self._uses()

    def has_one_use(self) -> bool:
        """Whether exactly one operand reads this value (``x + x`` reads it twice)."""
        return len(self._uses()) == 1

    def replace_all_uses_with(self, other: Any) -> None:
        """Make every operator that reads this value read ``other`` instead."""
        from pagaie._static.ir import Value, map_values
        if not isinstance(other, Value):
            raise TypeError(f"paddle.pir.Value.replace_all_uses_with: the replacement must be a "
                            f"Value, but received {type(other).__name__}")

        def swap(v: Value) -> Value:
            return other if v is self else v

        for op in {id(op): op for op in self.all_used_ops()}.values():
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
        return self.operands_source()[_checked_index("operand_source", index, self.num_operands())]

    def num_operands(self) -> int:
        return len(self.operands_source())

    def results(self) -> list:
        """The values the operator defines."""
        return self.output_values()

    def result(self, index: int) -> Any:
        return self.output_values()[_checked_index("result", index, self.num_results())]

    def num_results(self) -> int:
        return len(self.output_values())

    def get_parent_block(self) -> Any:
        return self.block

    def operands(self) -> list:
        """The operator's operands (each an :class:`OpOperand`), in argument order."""
        return [OpOperand(self, i) for i in range(self.num_operands())]

    def operand(self, index: int) -> "OpOperand":
        return OpOperand(self, _checked_index("operand", index, self.num_operands()))

    def _named_args(self) -> list:
        """(parameter name, argument) of the call, defaults included, bound to the op's record
        (an op without one, such as the control-flow ops: its own attributes only)."""
        rec = self.record
        if rec is None:
            return []
        try:
            bound = rec.signature.bind(*self.args, **self.kwargs)
        except TypeError:
            return []
        bound.apply_defaults()
        return [(k, v) for k, v in bound.arguments.items() if k not in ("name", "out")]

    def get_input_names(self) -> list:
        """The names of the op's parameters that take program values (``['x', 'y']``)."""
        from pagaie._static.ir import _values_in
        return [k for k, v in self._named_args() if any(True for _ in _values_in(v))]

    def get_attr_names(self) -> list:
        """The names of the op's other parameters (``['axis', 'keepdim']``) and its attributes."""
        from pagaie._static.ir import _values_in
        names = [k for k, v in self._named_args() if not any(True for _ in _values_in(v))]
        return names + [k for k in self.attrs if k not in names]

    def has_attr(self, name: str) -> bool:
        """Whether the op has the attribute ``name`` (see :meth:`get_attr_names`)."""
        if not isinstance(name, str):
            raise TypeError(f"paddle.pir.Operation.has_attr: name must be a str, but received "
                            f"{type(name).__name__}")
        return name in self.get_attr_names()

    def num_regions(self) -> int:
        """The op's nested regions: a branch or loop body each (0 for other ops)."""
        return len(self.blocks())

    def blocks(self) -> list:
        """The blocks of the op's regions (a branch or loop body each), in region order."""
        prog = self.block.program
        # (a PyLayer's backward block is no region of Paddle's pylayer op)
        return [prog.blocks[v] for k, v in self.attrs.items()
                if k.endswith("_block") and k != "backward_block" and isinstance(v, int)]

    def id(self) -> int:
        return id(self)


def _checked_index(api: str, index: Any, n: int) -> int:
    """``index`` of ``Operation.<api>``, as Paddle's: a TypeError for anything but a
    non-negative int, a RuntimeError past the end."""
    if type(index) is not int or index < 0:
        raise TypeError(f"paddle.pir.Operation.{api}: index must be a non-negative int, but "
                        f"received {index!r}")
    if index >= n:
        raise RuntimeError(f"paddle.pir.Operation.{api}: index {index} is out of range; the "
                           f"operator has {n} {'results' if api == 'result' else 'operands'}")
    return index


class OpAttrs(dict):
    """An operator's attributes (a dict, set by passes and control flow) that, called as
    Paddle's ``Operation.attrs()``, gives every attribute: the call's non-value arguments,
    these entries and ``stop_gradient`` of its results."""

    def __init__(self, op: Any, attrs: dict) -> None:
        super().__init__(attrs)
        self._op = weakref.ref(op)

    def __call__(self) -> dict:
        op = self._op()
        from pagaie._static.ir import _values_in
        named = {k: v for k, v in op._named_args() if not any(True for _ in _values_in(v))}
        return {**named, **self, "stop_gradient": [v.stop_gradient for v in op.output_values()]}


class OpOperand:
    """Paddle's ``OpOperand``: operand ``index`` of operator ``op``."""

    def __init__(self, op: Any, index: int) -> None:
        self._op, self._index = op, index

    def source(self) -> Any:
        """The value the operand reads."""
        return self._op.operand_source(self._index)

    def owner(self) -> Any:
        """The operator the operand belongs to."""
        return self._op

    def index(self) -> int:
        return self._index

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, OpOperand) and other._op is self._op and other._index == self._index

    def __hash__(self) -> int:
        return hash((id(self._op), self._index))


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

    def get_all_parameter_values(self) -> dict:
        """The program's parameters as ``{name: Value}``, in the order they were created.

        Example:
            >>> import pagaie as paddle
            >>> paddle.enable_static()
            >>> main = paddle.static.Program()
            >>> with paddle.static.program_guard(main):
            ...     x = paddle.static.data('gapv_x', [None, 2], 'float32')
            ...     y = paddle.nn.Linear(2, 1, weight_attr=paddle.ParamAttr(name='gapv_w'),
            ...                          bias_attr=paddle.ParamAttr(name='gapv_b'))(x)
            >>> list(main.get_all_parameter_values())
            ['gapv_w', 'gapv_b']
            >>> paddle.disable_static()
        """
        return {v.name: v for v in reversed(self.all_parameters())}

    def parameters_num(self) -> int:
        return len(self.all_parameters())
