"""The program verifier: checks a Program's well-formedness after graph passes.

For every op of every block it checks that

- the op type is known (an op record or a registered graph op) and its arguments
  bind to the record's signature (arity, names);
- every input is defined before use: by an earlier op, as a feed (``data``), as a
  captured eager tensor, or as a value the block reads from an enclosing block;
- no value is defined twice except by an in-place call (which re-defines its input);
- the recorded output shapes and dtypes agree with a re-inference: the record's
  kernel run on ``meta`` tensors (``-1`` dimensions match anything);
- graph ops have their expected arity.

:func:`verify` returns the list of problems (empty when the program is sound);
:func:`check` raises ``ValueError`` listing them.
"""
from __future__ import annotations

from typing import Any, Iterable

import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import REGISTRY, suspended
from pagaie._static.ir import Operator, Program, Value, _shape_out, map_values

__all__ = ["verify", "check"]

_PROBE_LIMIT = 1_000_000


def _meta(v: Any) -> Any:
    return map_values(v, lambda x: x._t)


def _zeros(v: Any) -> Any:
    return map_values(v, _zeros_of)


def _zeros_of(v: Value) -> torch.Tensor:
    if v._t.numel() > _PROBE_LIMIT:
        raise OverflowError
    return torch.zeros(v._t.shape, dtype=v._t.dtype)


def _compare(where: str, recorded: Any, inferred: Any, unknown: bool, errors: list[str]) -> None:
    if isinstance(recorded, Value):
        if not isinstance(inferred, torch.Tensor):
            errors.append(f"{where}: output {recorded.name} is a tensor but the kernel returns "
                          f"{type(inferred).__name__}")
            return
        got = [-1] * inferred.dim() if unknown else _shape_out(inferred.shape)
        want = list(recorded.shape)
        if len(got) != len(want) or any(a != b and -1 not in (a, b) for a, b in zip(got, want)):
            errors.append(f"{where}: output {recorded.name} is recorded with shape {want}, but "
                          f"re-inference gives {got}")
        if recorded._t.dtype != inferred.dtype:
            errors.append(f"{where}: output {recorded.name} is recorded as "
                          f"{recorded.dtype.name}, but re-inference gives "
                          f"{_dt.from_torch_dtype(inferred.dtype).name}")
    elif type(recorded) in (list, tuple):
        if type(inferred) not in (list, tuple) or len(inferred) != len(recorded):
            n = len(inferred) if type(inferred) in (list, tuple) else 1
            errors.append(f"{where}: {len(recorded)} outputs are recorded, but the kernel "
                          f"returns {n}")
            return
        for r, i in zip(recorded, inferred):
            _compare(where, r, i, unknown, errors)


def _check_graph_op(where: str, op: Operator, program: Program, errors: list[str]) -> None:
    if op.type == "pagaie.backward":
        if len(op.args) != 3 or not isinstance(op.args[1], (list, tuple)):
            errors.append(f"{where}: expects [targets, inputs, target_gradients]")
        elif len(op.output_values()) != len(op.args[1]):
            errors.append(f"{where}: {len(op.args[1])} inputs but {len(op.output_values())} "
                          "gradients")
    elif op.type == "pagaie.optimizer_step":
        if len(op.args) != 2 or len(op.args[0]) != len(op.args[1]):
            errors.append(f"{where}: expects [parameters, gradients] of equal length")
    for k, v in op.attrs.items():
        if k.endswith("_block") and isinstance(v, int) and not 0 <= v < program.num_blocks:
            errors.append(f"{where}: attribute {k}={v} names no block")


def verify(program: Program, free_inputs: Iterable[str] | None = None,
           shapes: bool = True) -> list[str]:
    """Problems found in ``program`` (an empty list when it is sound).

    Args:
        program (Program): the program to check.
        free_inputs (iterable[str], optional): names the program may read without a
            definition (feeds given by name); by default any value with no definition,
            data values and captured tensors.
        shapes (bool): also re-infer output shapes and dtypes on meta tensors.

    Returns:
        list[str]: one message per problem, naming the block, op index and op type.
    """
    from pagaie._static.interpreter import GRAPH_OPS
    errors: list[str] = []
    free = set(free_inputs) if free_inputs is not None else None
    for b in program.blocks:
        defined: set[str] = set()
        later = {v.name: i for i, op in enumerate(b.ops) for v in op.output_values()}
        for i, op in enumerate(b.ops):
            where = f"block {b.idx}, op {i} ({op.type})"
            graph = op.type in GRAPH_OPS or op.type.startswith("pagaie.")
            rec = REGISTRY.get(op.type)
            if not graph and rec is None:
                errors.append(f"{where}: unknown op type")
                continue
            if rec is not None:
                try:
                    rec.bind(op.args, op.kwargs)
                except TypeError as exc:
                    errors.append(f"{where}: the arguments do not match the signature ({exc})")
                    continue
            ins = op.input_values()
            for v in ins:
                if v.block.program is not program:
                    errors.append(f"{where}: input {v.name} belongs to another program")
                    continue
                if v.name in defined or v.is_data or v.source is not None or v.persistable:
                    continue
                if v.block is not b:
                    if b.idx == 0:
                        errors.append(f"{where}: input {v.name} belongs to an inner block")
                    continue  # read from an enclosing block: the owning graph op lists it
                if later.get(v.name, -1) > i:
                    errors.append(f"{where}: input {v.name} is used before it is defined")
                elif free is not None and v.name not in free:
                    errors.append(f"{where}: input {v.name} is not defined by any op")
            in_ids = {id(v) for v in ins}
            for v in op.output_values():
                if v.name in defined and id(v) not in in_ids and not graph:
                    errors.append(f"{where}: output {v.name} is defined a second time")
                defined.add(v.name)
            if graph:
                _check_graph_op(where, op, program, errors)
                continue
            if not shapes or any(id(v) in in_ids for v in op.output_values()):
                continue  # in-place calls keep their input's shape by construction
            unknown = False
            with suspended():
                try:
                    out = rec.kernel(*_meta(op.args), **_meta(op.kwargs))
                except Exception:  # noqa: BLE001 - a kernel that needs data: probe with zeros
                    try:
                        out = rec.kernel(*_zeros(op.args), **_zeros(op.kwargs))
                        unknown = True
                    except OverflowError:
                        continue
                    except Exception as exc:  # noqa: BLE001
                        errors.append(f"{where}: the kernel fails on the recorded inputs "
                                      f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})")
                        continue
            _compare(where, op.outputs, out, unknown, errors)
    return errors


def check(program: Program, free_inputs: Iterable[str] | None = None) -> None:
    """Raise ``ValueError`` listing every problem :func:`verify` finds."""
    errors = verify(program, free_inputs)
    if errors:
        raise ValueError("paddle.static: the program is invalid:\n  " + "\n  ".join(errors))

