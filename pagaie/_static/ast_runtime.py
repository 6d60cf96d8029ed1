"""Runtime helpers called by code that :mod:`pagaie._static.ast_transform` generated (``_jst``).

Each helper runs plain Python when its condition is a Python value (or a concrete
tensor) and records graph ops when it is a symbolic :class:`~pagaie._static.ir.Value`:
``convert_ifelse`` records a ``pagaie.cond`` op whose branches assign the function's
variables, ``convert_while_loop`` a ``pagaie.while`` loop (via
``paddle.static.nn.while_loop``), the logical helpers ``logical_and/or/not`` ops.
When variables cannot be merged between branches (a tensor in one, a string in the
other...) :class:`Dy2StaticError` is raised and ``to_static`` falls back to eager.
"""
from __future__ import annotations

import builtins
import contextlib
import functools
import operator
import sys
import types
from typing import Any, Callable, Iterator

from pagaie._core.registry import suspended
from pagaie._core.tensor import Tensor
from pagaie._static import control_flow as _cf
from pagaie._static.ir import UNKNOWN_SHAPE_READS, Value, declared_size

__all__ = ["UNDEFINED", "Dy2StaticError", "convert_ifelse", "convert_ifexp", "convert_while_loop",
           "convert_logical_and", "convert_logical_or", "convert_logical_not", "convert_print",
           "convert_call", "convert_assert", "convert_var_dtype", "convert_numpy", "convert_shape", "convert_compare_chain", "tracing", "range_args", "range_cond", "for_prepare", "for_cond", "for_item",
           "convert_len", "convert_enumerate", "convert_zip", "Unconvertible",
           "return_value", "IGNORED_MODULES"]


class Dy2StaticError(Exception):
    """Python control flow over symbolic values that cannot be turned into graph ops."""


class Unconvertible(RuntimeError):
    """Code that Paddle's converter refuses with a RuntimeError too: ``to_static`` still falls
    back to eager, ``jit.save`` raises it as it is."""


class _Undefined:
    """The value of a variable that has not been assigned on the path taken."""

    _instance = None

    def __new__(cls) -> "_Undefined":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        raise Dy2StaticError("a variable assigned only in some branches of a tensor-dependent "
                             "'if' (or only inside a tensor-dependent loop) is used afterwards")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        self.__bool__()


UNDEFINED = _Undefined()
_RET_VAL = "__jst_rv"
# Modules whose functions are called as they are, never converted.
IGNORED_MODULES: list = []
_SKIP_TOP = {"pagaie", "torch", "numpy", "paddle", "builtins", "typing", "functools", "abc",
             "collections", "itertools", "math", "operator", "copy", "warnings", "inspect", "re"}


class _TraceState:
    full_graph = False  # the StaticFunction being traced asked for full_graph=True
    active = False  # a StaticFunction is being traced
    side_effects = False  # a Python side effect stops the trace (a default-mode call's)


class SideEffect(Exception):
    """A default-mode call's trace met a Python side effect (or a Python number that a
    tensor condition decides): that call runs eagerly."""


def _number_under_tensor_condition(name: str) -> None:
    # Paddle's default mode evaluates a tensor condition and keeps Python numbers numbers
    if _TRACE.side_effects:
        raise SideEffect(f"the Python number {_pretty(name)!r} depends on a tensor condition")


def note_side_effect(obj: Any, attr: str | None) -> None:
    """Before a store into an object the converted function does not own: tensors' own
    writes and a Layer's tensor attributes are recorded, anything else stops a
    default-mode call's trace (Paddle's bytecode mode runs it on every call)."""
    if not _TRACE.side_effects or isinstance(obj, Tensor):
        return
    if attr is not None and isinstance(getattr(obj, attr, None), Tensor):
        return
    raise SideEffect("the function changes Python state (an attribute, item or container "
                     "it does not own), which runs on every call")


_TRACE = _TraceState()


def graph_break(exc: Exception) -> Exception:
    """``exc`` (a symbolic value's data was asked for: ``numpy()``, ``item()``, ``float()``,
    ``bool()``) marked, in a default-mode call's trace, as what Paddle's bytecode mode runs
    eagerly without a word: that call then runs eagerly without a warning."""
    if _TRACE.active and _TRACE.side_effects:
        exc.graph_break = True  # type: ignore[attr-defined]
    return exc


@contextlib.contextmanager
def tracing(full_graph: bool = False, side_effects: bool = False) -> Iterator[None]:
    """While a ``to_static`` function is traced: ``full_graph`` picks how ``print`` and
    ``assert`` of symbolic values behave at run time (as Paddle's two modes do);
    ``side_effects``: a Python side effect raises :class:`SideEffect`."""
    before = _TRACE.full_graph, _TRACE.active, _TRACE.side_effects
    _TRACE.full_graph, _TRACE.active, _TRACE.side_effects = full_graph, True, side_effects
    try:
        yield
    finally:
        _TRACE.full_graph, _TRACE.active, _TRACE.side_effects = before


class _UserReads:
    """Counts only the user code's reads of unknown (-1) sizes: the helpers read shapes to
    merge branches and loop variables, which must not make ``to_static`` specialise a trace."""

    def __init__(self) -> None:
        self.start = UNKNOWN_SHAPE_READS[0]
        self.user = 0

    def call(self, fn: Callable, *args: Any) -> Any:
        before = UNKNOWN_SHAPE_READS[0]
        try:
            return fn(*args)
        finally:
            self.user += UNKNOWN_SHAPE_READS[0] - before

    def done(self) -> None:
        UNKNOWN_SHAPE_READS[0] = self.start + self.user


def return_value(v: Any) -> Any:
    return None if v is UNDEFINED else v


def _pg():
    import pagaie
    return pagaie


def _const(value: Any, dtype: Any = None) -> Tensor:
    """An eager tensor holding a Python scalar (captured into the program when used)."""
    with suspended():
        if dtype is None:
            # as Paddle's AST mode: a Python float becomes float64 (not the default dtype)
            dtype = "bool" if isinstance(value, bool) else "int64" if isinstance(value, int) else \
                "float64" if isinstance(value, float) else None
        return _pg().to_tensor(value, dtype=dtype)


def _truthy(c: Any) -> bool:
    return bool(c)


def _as_pred(pred: Value) -> Value:
    if pred.dtype.name != "bool":
        pred = _pg().cast(pred, "bool")
    if declared_size(pred) not in (1, -1):
        raise Dy2StaticError(f"the condition of an 'if'/'while' must hold one element, but it has "
                             f"shape {list(pred.shape)}")
    return pred


def _recorder() -> Any:
    rec = _cf.current_recorder()
    if rec is None:
        raise Dy2StaticError("a symbolic condition outside of a program being built")
    return rec


# ---- if / else -----------------------------------------------------------------------------
def _flatten(obj: Any) -> tuple[list, Any]:
    leaves: list = []

    def go(o: Any) -> Any:
        if type(o) in (list, tuple):
            return (type(o).__name__, tuple(go(e) for e in o))
        if isinstance(o, tuple) and hasattr(type(o), "_fields"):  # a named tuple (topk's)
            return (type(o), tuple(go(e) for e in o))
        if type(o) is dict:
            # leaves in sorted key order, as Paddle's flatten (a saved program's outputs are
            # in that order); the skeleton keeps the dict's own order
            try:
                keys = sorted(o)
            except TypeError:  # keys that do not sort keep their order
                keys = list(o)
            return ("dict", tuple((k, go(o[k])) for k in keys), tuple(o))
        leaves.append(o)
        return "*"

    return leaves, go(obj)


def _unflatten(skel: Any, leaves: list) -> Any:
    it = iter(leaves)

    def go(s: Any) -> Any:
        if s == "*":
            return next(it)
        kind, items = s[0], s[1]
        if kind == "dict":
            values = {k: go(v) for k, v in items}
            return {k: values[k] for k in s[2]}
        seq = [go(e) for e in items]
        if isinstance(kind, type):
            return kind(*seq)
        return tuple(seq) if kind == "tuple" else seq

    return go(skel)


_SIMPLE = (bool, int, float, complex, str, bytes, type(None))


def _same(a: Any, b: Any) -> bool:
    """Whether two values are the same for the purpose of merging branches (no tensor ops)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, _SIMPLE):
        return a == b
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return False


_SCALARS = (bool, int, float)


def _scalar_dtype(a: Any, b: Any) -> str:
    if isinstance(a, bool) and isinstance(b, bool):
        return "bool"
    if isinstance(a, float) or isinstance(b, float):
        return "float64"  # as Paddle's AST mode
    return "int64"


def _placeholder(v: Any) -> Any:
    """A stand-in for the return value of a branch that has not returned (never observed)."""
    if isinstance(v, Tensor):
        with suspended():
            return _pg().zeros([d if d >= 0 else 1 for d in v.shape], dtype=v.dtype)
    return v


def _contents(o: Any) -> list:
    return [x for kv in o.items() for x in kv] if isinstance(o, dict) else list(o)


def _snapshot(objs: tuple) -> list:
    return [(o, _contents(o)) for o in objs if isinstance(o, (list, dict, set))]


def _check_unchanged(snap: list, what: str) -> None:
    for o, before in snap:
        now = _contents(o)
        if len(now) != len(before) or any(a is not b for a, b in zip(now, before)):
            raise Dy2StaticError(f"a {type(o).__name__} is changed inside a {what}; its contents "
                                 "cannot depend on tensor values")


def convert_ifelse(pred: Any, true_fn: Callable, false_fn: Callable, get: Callable,
                   set_: Callable, names: tuple, pure: bool = True, mutated: Callable | None = None) -> None:
    """``if pred: true_fn() else: false_fn()``; the branches assign ``names`` (via ``set_``).

    ``pure`` is False when a branch stores into attributes or items (or updates a tensor
    in place); ``mutated()`` returns the containers a branch calls mutating methods on.
    Neither can be expressed by a graph branch, so a symbolic ``pred`` then raises.
    """
    if not isinstance(pred, Value):
        (true_fn if _truthy(pred) else false_fn)()
        return
    if not pure:
        raise Dy2StaticError("a tensor-dependent 'if' assigns attributes or items, or updates a "
                             "tensor in place, in a branch")
    pred = _as_pred(pred)
    rec = _recorder()
    init = get()
    objs = mutated() if mutated is not None else ()
    reads = _UserReads()

    def run(fn: Callable) -> list:
        set_(init)
        snap = _snapshot(objs)
        reads.call(fn)
        _check_unchanged(snap, "branch of a tensor-dependent 'if'")
        return list(get())

    try:
        _record_ifelse(pred, rec, run, true_fn, false_fn, names, set_)
    finally:
        reads.done()


def _record_ifelse(pred: Value, rec: Any, run: Callable, true_fn: Callable, false_fn: Callable,
                   names: tuple, set_: Callable) -> None:
    """Record both branches into child blocks and a ``pagaie.cond`` op merging ``names``."""
    tb, tout = _cf.record_block(lambda: run(true_fn), rec)
    fb, fout = _cf.record_block(lambda: run(false_fn), rec)
    block = rec.block
    results: list = []
    outs, tnames, fnames, extra = [], [], [], []
    for name, a, b in zip(names, tout, fout):
        if _same(a, b):
            results.append(a)
            continue
        ph = None  # which branch holds a placeholder return value
        if a is UNDEFINED or b is UNDEFINED:
            if name != _RET_VAL:
                results.append(UNDEFINED)
                continue
            ph = "a" if a is UNDEFINED else "b"
            a, b = (_map(_placeholder, b), b) if ph == "a" else (a, _map(_placeholder, a))
        aleaves, askel = _flatten(a)
        bleaves, bskel = _flatten(b)
        if askel != bskel:
            raise Dy2StaticError(f"variable {_pretty(name)!r} has a different structure in the two "
                                 "branches of a tensor-dependent 'if'")
        merged = []
        for x, y in zip(aleaves, bleaves):
            if _same(x, y):
                merged.append(x)
                continue
            xt, yt = isinstance(x, Tensor), isinstance(y, Tensor)
            if not (xt and yt) and (isinstance(x, _SCALARS) or isinstance(y, _SCALARS)):
                _number_under_tensor_condition(name)
            if not xt and not yt:
                if isinstance(x, _SCALARS) and isinstance(y, _SCALARS):
                    dt = _scalar_dtype(x, y)
                    x, y = _const(x, dt), _const(y, dt)
                else:
                    raise Dy2StaticError(f"variable {_pretty(name)!r} holds different non-tensor "
                                         f"values ({x!r}, {y!r}) in the branches of a "
                                         "tensor-dependent 'if'")
            elif not xt or not yt:
                t, s = (x, y) if xt else (y, x)
                if not isinstance(s, _SCALARS):
                    raise Dy2StaticError(f"variable {_pretty(name)!r} is a tensor in one branch of a "
                                         f"tensor-dependent 'if' and {type(s).__name__} in the other")
                c = _const(s, t.dtype)
                x, y = (x, c) if xt else (c, y)
            xv, yv = _value(x, block), _value(y, block)
            if xv.dtype != yv.dtype:
                raise Dy2StaticError(f"variable {_pretty(name)!r} has dtype {xv.dtype.name} in one "
                                     f"branch of a tensor-dependent 'if' and {yv.dtype.name} in the other")
            shape = _cf.merge_shape(list(xv.shape), list(yv.shape))
            if ph is not None:  # a placeholder's shape says nothing
                shape = list((yv if ph == "a" else xv).shape)
            o = block.create_var(block.program.unique_name("cond"), shape, xv.dtype,
                                 stop_gradient=xv.stop_gradient and yv.stop_gradient)
            outs.append(o)
            tnames.append(xv.name)
            fnames.append(yv.name)
            extra += [(tb, xv), (fb, yv)]
            merged.append(o)
        results.append(_unflatten(askel, merged))
    captured: dict[str, Value] = {}
    for b in (tb, fb):
        for v in _cf.captured_values(b):
            captured.setdefault(v.name, v)
    for b, v in extra:
        if v.name not in b.vars:
            captured.setdefault(v.name, v)
    block.append_op("pagaie.cond", [pred, list(captured.values())], {}, outs,
                    {"true_block": tb.idx, "false_block": fb.idx, "true_outputs": tnames,
                     "false_outputs": fnames})
    set_(tuple(results))


def _pretty(name: str) -> str:
    return "return value" if name == _RET_VAL else name


def _map(fn: Callable, obj: Any) -> Any:
    leaves, skel = _flatten(obj)
    return _unflatten(skel, [fn(v) for v in leaves])


def _value(t: Tensor, block: Any) -> Value:
    if isinstance(t, Value):
        return t
    from pagaie._static.recorder import capture
    return capture(block, t)


def convert_ifexp(pred: Any, true_fn: Callable, false_fn: Callable) -> Any:
    """``true_fn() if pred else false_fn()``."""
    if not isinstance(pred, Value):
        return true_fn() if _truthy(pred) else false_fn()
    box: list = [UNDEFINED]

    def get() -> tuple:
        return (box[0],)

    def set_(v: tuple) -> None:
        box[0] = v[0]

    def t() -> None:
        box[0] = true_fn()

    def f() -> None:
        box[0] = false_fn()

    convert_ifelse(pred, t, f, get, set_, ("value of a conditional expression",))
    return box[0]


# ---- while -----------------------------------------------------------------------------------
def convert_while_loop(cond_fn: Callable, body_fn: Callable, get: Callable, set_: Callable,
                       names: tuple, pure: bool = True, mutated: Callable | None = None) -> None:
    """``while cond_fn(): body_fn()``; the body assigns ``names`` (see :func:`convert_ifelse`
    for ``pure`` and ``mutated``)."""
    while True:
        c = cond_fn()
        if isinstance(c, Value):
            if not pure:
                raise Dy2StaticError("a tensor-dependent loop assigns attributes or items, or "
                                     "updates a tensor in place, in its body")
            _static_while(cond_fn, body_fn, get, set_, names, mutated() if mutated else ())
            return
        if not _truthy(c):
            return
        body_fn()


class _CarryReturn(Exception):
    """A ``return`` inside a tensor-dependent loop: the loop is recorded again with the return
    value as a loop variable (it starts as a placeholder, guarded by the return flag)."""

    def __init__(self, index: int, value: Any) -> None:
        super().__init__(index)
        self.index, self.value = index, value


def _carried(v: Any) -> bool:
    """Whether ``v`` can be a loop variable: a tensor, a number, or (for the return value) a
    list/tuple/dict of them."""
    leaves, _ = _flatten(v)
    return bool(leaves) and all(isinstance(x, (Tensor,) + _SCALARS) for x in leaves)


def _static_while(cond_fn: Callable, body_fn: Callable, get: Callable, set_: Callable,
                  names: tuple, objs: tuple = ()) -> None:
    init = list(get())
    program = _recorder().block.program
    n_ops = [len(b.ops) for b in program.blocks]
    try:
        _record_while(cond_fn, body_fn, get, set_, names, objs, init)
    except _CarryReturn as carry:
        # forget the first recording (its blocks would be saved with dangling names)
        del program.blocks[len(n_ops):]
        for b, n in zip(program.blocks, n_ops):
            del b.ops[n:]
        init[carry.index] = _map(_placeholder, carry.value)
        _record_while(cond_fn, body_fn, get, set_, names, objs, init)


def _record_while(cond_fn: Callable, body_fn: Callable, get: Callable, set_: Callable, names: tuple,
                  objs: tuple, init: list) -> None:
    loop_idx, temps = [], []
    loop_vars = []
    for i, v in enumerate(init):
        if v is UNDEFINED:
            temps.append(i)
        elif isinstance(v, Tensor):
            loop_idx.append(i)
            loop_vars.append(v)
        elif isinstance(v, _SCALARS):
            loop_idx.append(i)
            loop_vars.append(_const(v))
        elif names[i] == _RET_VAL and _carried(v):
            loop_idx.append(i)
            loop_vars.append(_map(lambda x: x if isinstance(x, Tensor) else _const(x), v))
    dtypes = [getattr(v, "dtype", None) for v in loop_vars]

    def put(vs: Any) -> None:
        full = list(init)
        for i, v in zip(loop_idx, vs):
            full[i] = v
        for i in temps:
            full[i] = UNDEFINED
        set_(tuple(full))

    reads = _UserReads()

    def cond(*vs: Any) -> Any:
        put(vs)
        c = reads.call(cond_fn)
        if isinstance(c, Value):
            return _as_pred(c)
        if isinstance(c, Tensor):
            return c
        return _const(bool(c))

    def body(*vs: Any) -> list:
        put(vs)
        snap = _snapshot(objs)
        reads.call(body_fn)
        _check_unchanged(snap, "tensor-dependent loop")
        now = list(get())
        out = []
        for i, v in enumerate(now):
            if i in loop_idx:
                k = loop_idx.index(i)
                if isinstance(init[i], _SCALARS) and v is not vs[k]:
                    _number_under_tensor_condition(names[i])
                if isinstance(v, _SCALARS) and dtypes[k] is not None:
                    v = _const(v, dtypes[k])
                elif names[i] == _RET_VAL and _carried(v):
                    v = _map(lambda x: x if isinstance(x, Tensor) else _const(x), v)
                elif not isinstance(v, Tensor):
                    raise Dy2StaticError(f"loop variable {_pretty(names[i])!r} of a tensor-dependent "
                                         f"loop becomes {type(v).__name__}")
                out.append(v)
            elif i in temps and names[i] == _RET_VAL and v is not UNDEFINED:
                if not _carried(v):
                    raise Dy2StaticError(f"a tensor-dependent loop returns {type(v).__name__}; only "
                                         "tensors and numbers (or lists of them) can be")
                raise _CarryReturn(i, v)
            elif i not in temps and not _same(v, init[i]):
                raise Dy2StaticError(f"variable {names[i]!r} ({type(init[i]).__name__}) is changed "
                                     "inside a tensor-dependent loop; only tensors and numbers can be")
        return out

    from pagaie.static.nn import while_loop
    try:
        outs = while_loop(cond, body, loop_vars) if loop_vars else None
    finally:
        reads.done()
    if outs is None:
        raise Dy2StaticError("a tensor-dependent loop changes no tensor")
    put(outs)


# ---- logical operators ---------------------------------------------------------------------
def _bool_value(v: Any) -> Any:
    return v if v.dtype.name == "bool" else _pg().cast(v, "bool")


def convert_logical_and(fa: Callable, fb: Callable) -> Any:
    """``a and b`` (a logical_and op when ``a`` or ``b`` is symbolic)."""
    a = fa()
    if not isinstance(a, Value):
        return fb() if _truthy(a) else a
    if not _TRACE.full_graph:
        # Paddle's default mode keeps Python's meaning: ``b`` when ``a`` holds true, else ``a``
        # itself (AST mode, full_graph=True, makes it a logical_and op)
        return convert_ifexp(a, fb, lambda: a)
    b = fb()
    if isinstance(b, Tensor):
        return _pg().logical_and(_bool_value(a), _bool_value(_value(b, _recorder().block)
                                                             if not isinstance(b, Value) else b))
    return a if _truthy(b) else b


def convert_logical_or(fa: Callable, fb: Callable) -> Any:
    """``a or b`` (a logical_or op when ``a`` or ``b`` is symbolic)."""
    a = fa()
    if not isinstance(a, Value):
        return a if _truthy(a) else fb()
    if not _TRACE.full_graph:
        # Paddle's default mode keeps Python's meaning: ``a`` itself when it holds true, else ``b``
        return convert_ifexp(a, lambda: a, fb)
    b = fb()
    if isinstance(b, Tensor):
        return _pg().logical_or(_bool_value(a), _bool_value(b))
    return b if _truthy(b) else a


def convert_logical_not(a: Any) -> Any:
    """``not a`` (a logical_not op when ``a`` is symbolic)."""
    if isinstance(a, Value):
        return _pg().logical_not(_bool_value(a))
    return not a


def convert_print(*args: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None,
                  flush: bool = False) -> None:
    """``print``: in Paddle's default mode, the call prints each time the program runs (in
    order with the other prints, only in the branch taken), tensors shown as eager tensors;
    with ``full_graph=True`` symbolic values are printed in ``static.Print``'s layout each
    time the program runs and the print call itself runs once, while tracing (as in Paddle)."""
    symbolic = any(isinstance(a, Value) for a in args)
    if not _TRACE.full_graph and (symbolic or (_TRACE.active and _cf.current_recorder() is not None)):
        if file is not None:
            raise graph_break(Dy2StaticError("print(..., file=...) in a converted function is not "
                                             "converted"))
        block = _recorder().block
        values = [_value(a, block) for a in args if isinstance(a, Tensor)]
        parts = [None if isinstance(a, Tensor) else str(a) for a in args]
        params = [type(a).__name__ in ("Parameter", "EagerParamBase") for a in args
                  if isinstance(a, Tensor)]
        block.append_op("pagaie.print_args", [values], {}, [],
                        {"parts": parts, "sep": " " if sep is None else sep,
                         "end": "\n" if end is None else end, "parameters": params})
        return
    if not symbolic:
        builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
        return
    # Paddle's AST mode: each symbolic value is printed (static.Print) whenever the program
    # runs, and the print call itself runs once, while tracing (values show as Value(...))
    from pagaie.static import Print
    for a in args:
        if isinstance(a, Value):
            Print(a)
    builtins.print(*args, sep=sep, end=end, file=file, flush=flush)


_CASTS = {"bool": "bool", "int": "int32", "float": "float32"}


def convert_var_dtype(x: Any, kind: str) -> Any:
    """``bool(x)`` / ``int(x)`` / ``float(x)``: Python's conversion, or for a symbolic tensor a
    cast (``bool``, ``int32``, ``float32``) with ``full_graph=True``, as Paddle's AST mode
    does; in the default mode the function runs eagerly (Paddle's SOT gives Python numbers)."""
    if not isinstance(x, Value):
        return getattr(builtins, kind)(x)
    if not _TRACE.full_graph:
        raise graph_break(Dy2StaticError(f"{kind}() of a symbolic tensor needs its value"))
    return _pg().cast(x, _CASTS[kind])


def convert_numpy(x: Any) -> Any:
    """``x.numpy()``; with ``full_graph=True`` a symbolic tensor stays itself (Paddle's AST mode
    removes the call), in the default mode the function runs eagerly."""
    if isinstance(x, Value) and _TRACE.full_graph:
        return x
    return convert_call(x.numpy)()


def convert_assert(cond: Any, msg: Callable | None = None) -> None:
    """``assert cond, msg``: checked when the program runs if ``cond`` is symbolic."""
    if not isinstance(cond, Value):
        if not _truthy(cond):
            raise AssertionError(msg()) if msg is not None else AssertionError()
        return
    if declared_size(cond) not in (1, -1):
        raise Dy2StaticError(f"the condition of an 'assert' must hold one element, but it has "
                             f"shape {list(cond.shape)}")
    m = msg() if msg is not None else None
    block = _recorder().block
    block.append_op("pagaie.assert", [_bool_value(cond)], {}, [],
                    {"message": None if m is None or isinstance(m, Tensor) else str(m),
                     "error": "ValueError" if _TRACE.full_graph else "AssertionError"})


_COMPARE = {"Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
            "Gt": operator.gt, "GtE": operator.ge, "Is": operator.is_, "IsNot": operator.is_not,
            "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b}


def convert_compare_chain(left: Callable, ops: tuple, operands: tuple) -> Any:
    """``a < b < c`` (each operand evaluated once, lazily): the comparisons joined by
    :func:`convert_logical_and`, so a symbolic comparison gives a logical_and op."""
    def rest(i: int, a: Any) -> Any:
        b = operands[i]()
        r = _COMPARE[ops[i]](a, b)
        if i + 1 == len(ops):
            return r
        return convert_logical_and(lambda: r, lambda: rest(i + 1, b))

    return rest(0, left())


# ---- shapes --------------------------------------------------------------------------------
class UnknownDim(int):
    """A size an InputSpec leaves unknown, read as a Python number: -1, as the Value's shape
    says, but it remembers its tensor, so ``range(x.shape[0])`` bounds a symbolic loop."""

    def __new__(cls, value: Value, axis: int) -> "UnknownDim":
        d = super().__new__(cls, -1)
        d.value, d.axis = value, axis
        return d

    def symbolic(self) -> Value:
        """The size as a 0-D int64 Value (a shape op recorded in the current block)."""
        return _pg().shape(self.value)[self.axis]

    # As Paddle, an unknown size compares as the shape op it is: a tensor condition, so a
    # converted ``if x.shape[0] > 1`` records a cond instead of the branch -1 picks now
    def __lt__(self, other: Any) -> Any:
        return self.symbolic() < _symbolic(other)

    def __le__(self, other: Any) -> Any:
        return self.symbolic() <= _symbolic(other)

    def __gt__(self, other: Any) -> Any:
        return self.symbolic() > _symbolic(other)

    def __ge__(self, other: Any) -> Any:
        return self.symbolic() >= _symbolic(other)

    # ``x.shape[0] == n`` too (a saved program must not keep the branch -1 picks)
    def __eq__(self, other: Any) -> Any:
        if isinstance(other, (int, Value)) and not isinstance(other, bool):
            return self.symbolic() == _symbolic(other)
        return NotImplemented

    def __ne__(self, other: Any) -> Any:
        if isinstance(other, (int, Value)) and not isinstance(other, bool):
            return self.symbolic() != _symbolic(other)
        return NotImplemented

    # Arithmetic on it is the shape op's arithmetic too (``x.shape[1] * x.shape[2]``,
    # ``x.shape[0] // 2``), not the -1 it reads as
    def __add__(self, other: Any) -> Any:
        return self.symbolic() + _symbolic(other)

    def __radd__(self, other: Any) -> Any:
        return _symbolic(other) + self.symbolic()

    def __sub__(self, other: Any) -> Any:
        return self.symbolic() - _symbolic(other)

    def __rsub__(self, other: Any) -> Any:
        return _symbolic(other) - self.symbolic()

    def __mul__(self, other: Any) -> Any:
        return self.symbolic() * _symbolic(other)

    def __rmul__(self, other: Any) -> Any:
        return _symbolic(other) * self.symbolic()

    def __floordiv__(self, other: Any) -> Any:
        return self.symbolic() // _symbolic(other)

    def __rfloordiv__(self, other: Any) -> Any:
        return _symbolic(other) // self.symbolic()

    def __mod__(self, other: Any) -> Any:
        return self.symbolic() % _symbolic(other)

    def __neg__(self) -> Any:
        return -self.symbolic()

    __hash__ = int.__hash__


def _symbolic(v: Any) -> Any:
    return v.symbolic() if type(v) is UnknownDim else v


def convert_shape(x: Any) -> Any:
    """``x.shape``: for a Value with unknown sizes, those sizes are :class:`UnknownDim`; a
    plain list with ``full_graph=True``."""
    dims = x.shape
    if not isinstance(x, Value) or not isinstance(dims, list):
        return dims
    # Paddle's AST mode reads a symbolic shape as a plain list, its default mode as a Size
    kind = list if _TRACE.full_graph else type(dims)
    if -1 not in dims:
        return kind(dims)
    return kind([_unknown_dim(x, i) if d == -1 else d for i, d in enumerate(dims)])


def _unknown_dim(x: Value, axis: int) -> Any:
    """An unknown size read in Python: with ``full_graph=True`` the shape op's 0-D tensor, as
    Paddle's AST mode gives (the trace stays general: the read is not counted), else an
    :class:`UnknownDim`."""
    if not _TRACE.full_graph:
        return UnknownDim(x, axis)
    if axis == 0 or -1 not in x._known_dims()[:axis]:
        UNKNOWN_SHAPE_READS[0] -= 1   # the one read of ``x.shape`` that found the -1
    return _pg().shape(x)[axis]


# ---- loops over ranges and sequences -------------------------------------------------------
def range_args(*args: Any) -> tuple:
    """``(start, stop, step)`` of ``range(*args)``; an unknown size becomes a symbolic bound."""
    args = tuple(a.symbolic() if type(a) is UnknownDim else a for a in args)
    if len(args) == 1:
        return 0, args[0], 1
    if len(args) == 2:
        return args[0], args[1], 1
    return args


def _loop_test(c: Any, brk: Any) -> Any:
    if isinstance(c, Value):
        if isinstance(brk, Value):
            return _pg().logical_and(_as_pred(c), _pg().logical_not(_bool_value(brk)))
        return False if brk is True else c
    # A Python-bounded loop unrolls; a symbolic break flag is handled by the body's guard.
    if brk is True:
        return False
    return _truthy(c)


def range_cond(i: Any, stop: Any, step: Any, brk: Any) -> Any:
    if isinstance(step, Value):
        raise Dy2StaticError("the step of range() must not be a symbolic tensor")
    step = int(step)
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")
    return _loop_test(i < stop if step > 0 else i > stop, brk)


class _PyIter:
    __slots__ = ("it", "buf")

    def __init__(self, iterable: Any) -> None:
        self.it = iter(iterable)
        self.buf: list = []

    def has_next(self) -> bool:
        if not self.buf:
            try:
                self.buf.append(next(self.it))
            except StopIteration:
                return False
        return True

    def take(self) -> Any:
        if not self.has_next():
            raise StopIteration
        return self.buf.pop()


def convert_len(x: Any) -> Any:
    """``len(x)``: a Value's unknown first size is an :class:`UnknownDim` (the shape op)."""
    if isinstance(x, Value) and x._t.dim() > 0:
        dims = x.shape
        if dims[0] == -1:
            return _unknown_dim(x, 0)
    return builtins.len(x)


def convert_zip(*args: Any) -> Any:
    """``zip(...)``: over a symbolic tensor of unknown length it cannot be unrolled."""
    for i, a in builtins.enumerate(args):
        if isinstance(a, Value) and a._t.dim() > 0 and a._known_dims()[0] == -1:
            raise Unconvertible(f"Not support zip(tensor, ...) when tensor.shape[0] == -1, but "
                                f"found args[{i}].shape[0] == -1 in 'zip'")
    return builtins.zip(*args)


class _EnumerateValue:
    """``enumerate`` over a symbolic tensor: a converted ``for`` indexes it (so its length may be
    unknown); elsewhere it iterates as Python's ``enumerate``."""
    __slots__ = ("seq", "start")

    def __init__(self, seq: Value, start: Any) -> None:
        self.seq, self.start = seq, start

    def __iter__(self) -> Iterator:
        return builtins.enumerate(self.seq, self.start)


def convert_enumerate(seq: Any, start: Any = 0) -> Any:
    if isinstance(seq, Value):
        return _EnumerateValue(seq, start)
    return builtins.enumerate(seq, start)


def for_prepare(seq: Any) -> tuple:
    if isinstance(seq, _EnumerateValue):
        return seq, for_prepare(seq.seq)[1]
    if isinstance(seq, Value):
        reads = _UserReads()  # an unknown length becomes a shape op, not a Python number
        dims = list(seq.shape)
        reads.done()
        if not dims:
            raise TypeError("iteration over a 0-D tensor")
        return seq, dims[0] if dims[0] >= 0 else _pg().shape(seq)[0]
    if isinstance(seq, Tensor):
        if not seq.shape:
            raise TypeError("iteration over a 0-D tensor")
        return seq, seq.shape[0]
    return _PyIter(seq), None


def for_cond(seq: Any, i: Any, n: Any, brk: Any) -> Any:
    if isinstance(seq, _PyIter):
        return False if brk is True else seq.has_next()
    return _loop_test(i < n, brk)


def for_item(seq: Any, i: Any) -> Any:
    if isinstance(seq, _PyIter):
        return seq.take()
    if isinstance(seq, _EnumerateValue):
        return i + seq.start, seq.seq[i]
    return seq[i]


# ---- calls ---------------------------------------------------------------------------------
def _skip_module(module: str | None) -> bool:
    if not module:
        return True
    top = module.split(".")[0]
    if top in _SKIP_TOP or top in getattr(sys, "stdlib_module_names", ()):
        return True
    for m in IGNORED_MODULES:
        name = getattr(m, "__name__", m)
        if module == name or module.startswith(name + "."):
            return True
    return False


def _should_convert(fn: Any) -> bool:
    return (isinstance(fn, types.FunctionType) and not getattr(fn, "__jst_not_to_static__", False)
            and not hasattr(fn, "__jst_original__") and fn.__name__ != "<lambda>"
            and not _skip_module(fn.__module__))


def converted(fn: types.FunctionType) -> Callable:
    """``fn`` converted (or ``fn`` itself when it cannot be)."""
    from pagaie._static.ast_transform import ConversionError, convert_function
    mode = getattr(fn, "__jst_grad_mode__", None)
    if mode is not None:
        # a ``@paddle.no_grad()`` (enable_grad, set_grad_enabled) function: its body is
        # converted and still runs in that gradient mode, as Paddle's converter runs it
        inner = converted(fn.__wrapped__)

        @functools.wraps(inner)
        def in_mode(*args: Any, **kwargs: Any) -> Any:
            with mode():
                return inner(*args, **kwargs)
        return in_mode
    try:
        return convert_function(fn, sys.modules[__name__])
    except ConversionError:
        return fn


def _program_grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: Any = None,
                  create_graph: bool = False, only_inputs: bool = True, allow_unused: bool = False,
                  no_grad_vars: Any = None, **kwargs: Any) -> list:
    """``paddle.grad`` in traced code: the program's own gradients (``static.gradients``), as
    Paddle's converter does. Its default mode keeps ``create_graph``; ``full_graph=True`` (its
    AST mode) always leaves the gradients differentiable."""
    from pagaie.static.backward import gradients
    outs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    if not any(isinstance(o, Value) for o in outs):
        from pagaie.autograd import grad
        return grad(outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs,
                    allow_unused, no_grad_vars, **kwargs)
    grads = gradients(outputs, inputs, grad_outputs, no_grad_vars)
    block = outs[0].block.program.global_block()
    for op in block.ops:
        if op.type == "pagaie.backward" and any(g is not None and g.op is op for g in grads):
            op.attrs["in_forward"] = True  # what the function computes: inference keeps it
            if create_graph or _TRACE.full_graph:
                op.attrs["create_graph"] = True
    return grads


def convert_call(f: Any) -> Any:
    """What a call to ``f`` runs while tracing: user functions and Layers, converted."""
    from pagaie.nn import Layer
    from pagaie.autograd import grad
    if f is grad:
        return _program_grad
    if isinstance(f, Layer):
        return _layer_call(f)
    if getattr(f, "__jst_static_function__", False):
        return f
    if isinstance(f, types.MethodType):
        fn = f.__func__
        if _should_convert(fn):
            return types.MethodType(converted(fn), f.__self__)
        return f
    if _should_convert(f):
        return converted(f)
    return f


def forward_function(layer: Any) -> Any:
    """The plain function behind ``type(layer).forward`` (unwrapping ``@to_static``)."""
    fwd = getattr(type(layer), "forward")
    return getattr(fwd, "dygraph_function", fwd)


def _layer_call(layer: Any) -> Callable:
    own = layer.__dict__.get("forward")
    if own is not None or _skip_module(type(layer).__module__):
        return layer  # a to_static forward inlines itself; library layers run as written
    fn = forward_function(layer)
    if not _should_convert(fn):
        return layer

    def call(*args: Any, **kwargs: Any) -> Any:
        layer.__dict__["forward"] = types.MethodType(converted(fn), layer)
        try:
            return layer(*args, **kwargs)
        finally:
            layer.__dict__.pop("forward", None)

    return call
