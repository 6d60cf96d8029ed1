"""The mixed-precision rewrite of static programs (``paddle.static.amp.fp16_utils``).

:func:`rewrite_program` walks a block's forward ops in order and inserts ``cast`` ops so
that each op computes in the dtype its list asks for: white ops in the low dtype, black
ops (and ops touching ``black_varnames``) in float32, gray ops in the widest dtype of
their inputs at O1 and in the low dtype at O2 (float32 where an input is float32 and
``use_promote``). Output dtypes are inferred again from the kernels on meta tensors.
Parameters stay float32 (a cast feeds the ops that use them), so the optimizer updates
float32 master weights and the gradients reach them through the casts.
"""
from __future__ import annotations

import contextlib
import inspect
from typing import Any, Iterator

import torch

from pagaie._core import dtype as _dt
from pagaie._ops._helpers import cpu_as_gpu
from pagaie._static.ir import Operator, Program, Value
from pagaie._static.recorder import _meta
from pagaie.static.framework import default_main_program

__all__ = ["fp16_guard", "cast_model_to_fp16", "cast_parameters_to_fp16", "rewrite_program"]

_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


@contextlib.contextmanager
def fp16_guard() -> Iterator[None]:
    """Mark the ops built inside the block as the only ones to run in low precision.

    With ``use_fp16_guard`` (the default of :func:`cast_model_to_fp16` and of
    ``decorate(..., use_amp_guard=True)``), ops outside every guard stay in float32.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> prog = paddle.static.Program()
        >>> with paddle.static.program_guard(prog):
        ...     x = paddle.static.data('x', [2, 3], 'float32')
        ...     with paddle.static.amp.fp16_guard():
        ...         y = paddle.matmul(x, x, transpose_y=True)
        >>> len(prog._amp_guarded_ops)
        1
        >>> paddle.disable_static()
    """
    prog = default_main_program()
    block = prog.global_block()
    start = len(block.ops)
    try:
        yield
    finally:
        guarded = getattr(prog, "_amp_guarded_ops", set())
        guarded.update(id(op) for op in block.ops[start:])
        prog._amp_guarded_ops = guarded


def _names_of(op: Operator) -> set[str]:
    rec = op.record
    from pagaie.amp.lists import op_names
    return op_names(rec) if rec is not None else {op.type}


def _target(op: Operator, amp_lists: Any, level: str, low: torch.dtype, use_promote: bool,
            in_dtypes: set) -> torch.dtype | None:
    """The dtype ``op`` computes in, or None to leave its inputs as they are."""
    names = _names_of(op)
    if amp_lists.black_varnames and any(
            v.name in amp_lists.black_varnames for v in op.input_values() + op.output_values()):
        return torch.float32
    if names & amp_lists.black_list or names & amp_lists.unsupported_list:
        return torch.float32
    if names & amp_lists.white_list:
        return low
    if level == "O2":
        if use_promote and torch.float32 in in_dtypes:
            return torch.float32
        return low
    if low in in_dtypes and torch.float32 in in_dtypes:
        return torch.float32
    return None


def _cast_value(block: Any, v: Value, dst: torch.dtype, cache: dict, new_ops: list) -> Value:
    key = (id(v), dst)
    if key not in cache:
        dst_name = str(dst).replace("torch.", "")
        out = block.create_var(block.program.unique_name(f"{v.name}.cast_{dst_name}"),
                               list(v._t.shape), dst_name, stop_gradient=v.stop_gradient)
        out._t = torch.empty(v._t.shape, device="meta", dtype=dst)
        cop = Operator(block, "cast", [v, dst_name], {}, out)
        out.op = cop
        new_ops.append(cop)
        cache[key] = out
    return cache[key]


def _map_args(obj: Any, fn: Any) -> Any:
    if isinstance(obj, Value):
        return fn(obj)
    if type(obj) in (list, tuple):
        return type(obj)(_map_args(o, fn) for o in obj)
    return obj


def _reinfer(op: Operator) -> None:
    try:   # (the program's low-precision kernels are Paddle's GPU/oneDNN ones: the CPU stands in)
        with cpu_as_gpu():
            out = op.record.kernel(*_meta(op.args), **_meta(op.kwargs))
    except Exception:  # noqa: BLE001 - a kernel that needs data keeps its recorded dtypes
        return
    outs = op.outputs
    if isinstance(outs, Value) and isinstance(out, torch.Tensor):
        outs, out = [outs], [out]
    if isinstance(outs, (list, tuple)) and isinstance(out, (list, tuple)):
        for v, o in zip(outs, out):
            if isinstance(v, Value) and isinstance(o, torch.Tensor) and o.dtype != v._t.dtype:
                v._t = torch.empty(v._t.shape, device="meta", dtype=o.dtype)


def rewrite_program(program: Program, amp_lists: Any, level: str = "O1", dtype: str = "float16",
                    use_promote: bool = False, use_guard: bool = False) -> None:
    """Insert the casts of mixed precision into ``program``'s forward ops (in place).

    Args:
        program (Program): the program (its global block up to the first graph op).
        amp_lists (AutoMixedPrecisionLists): the op lists.
        level (str): ``'O1'``, ``'O2'`` or ``'OD'``.
        dtype (str): the low dtype, ``'float16'`` or ``'bfloat16'``.
        use_promote (bool): at O2, compute ops with a float32 input in float32.
        use_guard (bool): only rewrite ops built under :func:`fp16_guard`.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.static.amp import AutoMixedPrecisionLists
        >>> from pagaie.static.amp.fp16_utils import rewrite_program
        >>> paddle.enable_static()
        >>> prog = paddle.static.Program()
        >>> with paddle.static.program_guard(prog):
        ...     x = paddle.static.data('x', [2, 3], 'float32')
        ...     y = paddle.matmul(x, x, transpose_y=True)
        >>> rewrite_program(prog, AutoMixedPrecisionLists(dtype='bfloat16'), dtype='bfloat16')
        >>> [op.type for op in prog.global_block().ops], y.dtype == paddle.bfloat16
        (['cast', 'matmul'], True)
        >>> paddle.disable_static()
    """
    low = _dt.to_torch_dtype(dtype)
    block = program.global_block()
    guarded = getattr(program, "_amp_guarded_ops", set())
    cache: dict = {}
    new_ops: list = []
    forward = True
    for op in block.ops:
        if op.type.startswith("pagaie."):
            forward = False
        rec = op.record
        if (not forward or rec is None or op.type == "cast" or rec.inplace_of is not None
                or (use_guard and id(op) not in guarded)
                or {id(o) for o in op.output_values()} & {id(i) for i in op.input_values()}):
            new_ops.append(op)
            continue
        ins = [v for v in op.input_values() if v._t.dtype in _FLOATS]
        amp_inputs = rec.extra.get("amp_inputs")
        if amp_inputs:
            try:
                bound = inspect.signature(rec.kernel).bind_partial(*op.args, **op.kwargs).arguments
                chosen = {id(bound[n]) for n in amp_inputs if isinstance(bound.get(n), Value)}
            except TypeError:
                chosen = {id(v) for v in ins}
            ins = [v for v in ins if id(v) in chosen]
        dst = _target(op, amp_lists, level, low, use_promote, {v._t.dtype for v in ins})
        if dst is not None:
            todo = {id(v) for v in ins if v._t.dtype != dst}
            if todo:
                def swap(v: Value) -> Value:
                    return _cast_value(block, v, dst, cache, new_ops) if id(v) in todo else v
                op.args = [_map_args(a, swap) for a in op.args]
                op.kwargs = {k: _map_args(a, swap) for k, a in op.kwargs.items()}
                _reinfer(op)
        new_ops.append(op)
    block.ops[:] = new_ops
    program._bump()


def cast_model_to_fp16(program: Program, amp_lists: Any = None, use_fp16_guard: bool = True,
                       dest_type: Any = "float16", level: str = "O2", use_promote: bool = False) -> list:
    """Rewrite ``program`` for pure low-precision (O2) computation, in place.

    Args:
        program (Program): the program to rewrite.
        amp_lists (AutoMixedPrecisionLists, optional): the op lists (defaults for ``dest_type``).
        use_fp16_guard (bool): only rewrite ops built under :func:`fp16_guard`.
        dest_type (str): ``'float16'`` or ``'bfloat16'``.
        level (str): ``'O1'`` or ``'O2'``.
        use_promote (bool): compute ops with a float32 input in float32.

    Returns:
        list: the names of the parameters the program now reads in the low dtype.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> prog = paddle.static.Program()
        >>> with paddle.static.program_guard(prog):
        ...     x = paddle.static.data('x', [2, 3], 'float32')
        ...     y = paddle.nn.Linear(3, 2)(x)
        >>> _ = paddle.static.amp.cast_model_to_fp16(prog, use_fp16_guard=False)
        >>> y.dtype == paddle.float16
        True
        >>> paddle.disable_static()
    """
    from pagaie.static.amp.fp16_lists import AutoMixedPrecisionLists
    dtype = str(_dt.to_torch_dtype(dest_type)).replace("torch.", "")
    amp_lists = amp_lists or AutoMixedPrecisionLists(dtype=dtype)
    rewrite_program(program, amp_lists, level, dtype, use_promote, use_fp16_guard)
    low = _dt.to_torch_dtype(dtype)
    return sorted({op.args[0].name for op in program.global_block().ops if op.type == "cast"
                   and isinstance(op.args[0], Value) and op.args[0].persistable
                   and op.outputs._t.dtype == low})


def cast_parameters_to_fp16(place: Any, program: Program, scope: Any = None,
                            to_fp16_var_names: Any = None, dest_type: Any = "float16",
                            rewrite_master_weight: bool = False, master_weights: Any = None) -> None:
    """Cast parameters to the low dtype in place (Paddle's step after ``exe.run(startup)``).

    pagaie's rewritten programs read float32 parameters through ``cast`` ops (the
    parameters are the master weights), so nothing needs converting: this checks its
    arguments and returns.

    Args:
        place: the executor's place.
        program (Program): the program.
        scope (Scope, optional): unused.
        to_fp16_var_names (set, optional): unused.
        dest_type (str): ``'float16'`` or ``'bfloat16'``.
        rewrite_master_weight (bool): unused.
        master_weights (dict, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.static.amp.cast_parameters_to_fp16(paddle.CPUPlace(), paddle.static.Program())
    """
    _dt.to_torch_dtype(dest_type)
    if not isinstance(program, Program):
        raise TypeError(f"paddle.static.amp.cast_parameters_to_fp16: 'program' must be a Program, "
                        f"but received {type(program).__name__}")
