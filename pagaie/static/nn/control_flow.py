"""Data-dependent control flow: ``cond``, ``while_loop``, ``switch_case``, ``case``, ``static_pylayer``.

With concrete tensors these run Python control flow on the tensors' values. With a
symbolic condition (a static ``Value``) the branches / loop body are recorded into
child blocks and one graph op (``pagaie.cond``, ``pagaie.while``, ``pagaie.pylayer``)
runs them when the program runs (see :mod:`pagaie._static.control_flow`). The choice
is made on the condition's type, never on a global mode.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from pagaie._core.registry import suspended
from pagaie._core.tensor import Tensor
from pagaie._static import control_flow as _cf
from pagaie._static.ir import Block, Value, declared_size

__all__ = ["cond", "while_loop", "switch_case", "case", "static_pylayer"]


# ---- nested structures ------------------------------------------------------------------
def _flatten(obj: Any) -> tuple[list, Any]:
    """Leaves (in order) and a skeleton where each leaf is replaced by its index."""
    leaves: list = []

    def go(o: Any) -> Any:
        if isinstance(o, (list, tuple)):
            return type(o)(go(e) for e in o)
        if isinstance(o, dict):
            return {k: go(v) for k, v in o.items()}
        leaves.append(o)
        return _Leaf(len(leaves) - 1)

    return leaves, go(obj)


class _Leaf:
    __slots__ = ("i",)

    def __init__(self, i: int) -> None:
        self.i = i

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Leaf)

    def __repr__(self) -> str:
        return "*"


def _unflatten(skel: Any, leaves: list) -> Any:
    if isinstance(skel, _Leaf):
        return leaves[skel.i]
    if isinstance(skel, (list, tuple)):
        return type(skel)(_unflatten(e, leaves) for e in skel)
    if isinstance(skel, dict):
        return {k: _unflatten(v, leaves) for k, v in skel.items()}
    return skel


def _as_value(v: Any, block: Block) -> Any:
    """Tensors become program values (eager ones are captured); other leaves stay."""
    if isinstance(v, Value):
        return v
    if isinstance(v, Tensor):
        from pagaie._static.recorder import capture
        return capture(block, v)
    return v


def _recorder(api: str) -> Any:
    rec = _cf.current_recorder()
    if rec is None:
        raise RuntimeError(f"paddle.static.nn.{api}: a symbolic condition needs a program being "
                           "built (static mode or to_static)")
    return rec


def _captured(blocks: list[Block], extra: list) -> list[Value]:
    seen: dict[str, Value] = {}
    for b in blocks:
        for v in _cf.captured_values(b):
            seen.setdefault(v.name, v)
    for b, values in extra:
        for v in values:
            if isinstance(v, Value) and v.name not in b.vars:
                seen.setdefault(v.name, v)
    return list(seen.values())


# ---- cond -------------------------------------------------------------------------------
def _check_branch(fn: Any, what: str) -> None:
    if fn is not None and not callable(fn):
        raise TypeError(f"paddle.static.nn.cond: {what} must be callable, but received "
                        f"{type(fn).__name__}")


def _count(out: Any) -> int:
    """How many values a branch returns: the items of a list / tuple, else one (a dict too)."""
    return len(out) if isinstance(out, (list, tuple)) else 1


def cond(pred: Any, true_fn: Callable | None = None, false_fn: Callable | None = None,
         name: str | None = None, return_names: Any = None) -> Any:
    """Run ``true_fn()`` if ``pred`` is true, else ``false_fn()``; returns what the branch returns.

    In a static program both branches are recorded and the choice is made when the program
    runs; both must then return as many tensors (shapes may differ: differing dims become -1),
    and the result has true_fn's structure. Gradients flow through the branch taken.

    Args:
        pred (Tensor): a bool tensor with one element.
        true_fn (callable, optional): run when ``pred`` is true.
        false_fn (callable, optional): run when ``pred`` is false.
        name (str, optional): unused.
        return_names (list, optional): unused.

    Returns:
        The branch's result (None when the branch is None).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor(3.0)
        >>> paddle.static.nn.cond(x > 1, lambda: x * 2, lambda: x - 1).item()
        6.0
    """
    if not isinstance(pred, Tensor):
        # (Paddle raises TypeError while a program is built, AssertionError in dynamic mode)
        err = TypeError if _cf.current_recorder() is not None else AssertionError
        raise err("paddle.static.nn.cond: the pred in cond must be a Tensor, but received "
                  f"{type(pred).__name__}")
    if isinstance(pred, Value) and pred.dtype.name != "bool":  # (Paddle checks the dtype first)
        raise TypeError(f"paddle.static.nn.cond: pred must be a bool tensor, but received "
                        f"{pred.dtype.name}")
    if declared_size(pred) not in (1, -1):
        raise AssertionError(f"paddle.static.nn.cond: condition input's numel should be 1, but the "
                             f"shape is {list(pred.shape)}")
    if not isinstance(pred, Value):
        # Eagerly only the branch taken runs, so only its callability is checked, as in Paddle.
        fn, what = (true_fn, "true_fn") if bool(pred) else (false_fn, "false_fn")
        _check_branch(fn, what)
        return None if fn is None else fn()
    if name is not None and not isinstance(name, str):
        raise TypeError("paddle.static.nn.cond: the type of 'name' must be (str, NoneType), but "
                        f"received {type(name).__name__}")
    _check_branch(true_fn, "true_fn")
    _check_branch(false_fn, "false_fn")
    rec = _recorder("cond")
    tb, tout = _cf.record_block(true_fn or (lambda: None), rec)
    fb, fout = _cf.record_block(false_fn or (lambda: None), rec)
    if (tout is None) != (fout is None):
        which = ("true_fn returns None while false_fn returns non-None" if tout is None else
                 "true_fn returns non-None while false_fn returns None")
        raise ValueError("paddle.static.nn.cond: Incompatible return values of true_fn and "
                         f"false_fn in cond: {which}")
    tleaves, tskel = _flatten(tout)
    fleaves, fskel = _flatten(fout)
    # As Paddle: the branches return as many values (a list and a tuple, or dicts with other
    # keys, may stand for each other); the result takes true_fn's structure.
    ntrue, nfalse = _count(tout), _count(fout)
    if ntrue != nfalse:
        raise ValueError(f"paddle.static.nn.cond: true fn returns {ntrue} vars, but false fn returns "
                         f"{nfalse} vars, which is not equals")
    if len(tleaves) != len(fleaves):
        raise ValueError(f"paddle.static.nn.cond: incompatible return values of true_fn and false_fn: "
                         f"true_fn returned {tskel!r} and false_fn {fskel!r}")
    block = rec.block
    tleaves = [_as_value(v, block) for v in tleaves]
    fleaves = [_as_value(v, block) for v in fleaves]
    outs, tnames, fnames, results = [], [], [], []
    for i, (a, b) in enumerate(zip(tleaves, fleaves)):
        if (a is None) != (b is None):
            raise ValueError(f"paddle.static.nn.cond: incompatible return values of true_fn and "
                             f"false_fn: output {i} is None in one branch only")
        if not (isinstance(a, Value) and isinstance(b, Value)):
            a, b = tleaves[i], fleaves[i] = _promote_constants(a, b, i)
            if not isinstance(a, Value):  # (None in both, or one Python number)
                results.append(a)
                continue
        if a.dtype != b.dtype:
            raise RuntimeError(f"paddle.static.nn.cond: output {i} has dtype {a.dtype.name} in true_fn "
                               f"but {b.dtype.name} in false_fn; the dtypes must be equal")
        shape = list(a.shape)
        if len(a.shape) != len(b.shape):  # (Paddle's build-time rank check of the outputs)
            msg = (f"paddle.static.nn.cond: output {i} has shape {list(a.shape)} in true_fn but "
                   f"{list(b.shape)} in false_fn; the ranks must be equal")
            if _RANKS_LATER is None:
                raise ValueError(msg)
            _RANKS_LATER.append(msg)   # case/switch_case: after every branch's dtypes
        else:
            shape = _cf.merge_shape(shape, list(b.shape))
        o = block.create_var(block.program.unique_name("cond"), shape, a.dtype,
                             stop_gradient=a.stop_gradient and b.stop_gradient)
        outs.append(o)
        tnames.append(a.name)
        fnames.append(b.name)
        results.append(o)
    captured = _captured([tb, fb], [(tb, tleaves), (fb, fleaves)])
    block.append_op("pagaie.cond", [pred, captured], {}, outs,
                    {"true_block": tb.idx, "false_block": fb.idx, "true_outputs": tnames,
                     "false_outputs": fnames})
    return _unflatten(tskel, results)


_PROMOTABLE = (bool, int, float)


def _constant_value(v: Any, dtype: Any) -> Value:
    """Python number ``v`` as a 0-D value of the program (int64 / float64 / bool by default)."""
    import pagaie
    if dtype is None:
        dtype = "bool" if isinstance(v, bool) else "float64" if isinstance(v, float) else "int64"
    return pagaie.full([], v, dtype)


def _promote_constants(a: Any, b: Any, i: int) -> tuple:
    """Output ``i`` of cond's branches when one is not a tensor, as Paddle unifies them:
    equal Python numbers of one type stay a number; numbers of one type that differ become
    0-D tensors; a number against a tensor becomes a 0-D tensor of the tensor's dtype
    (which must then be 0-D too). Anything else is a TypeError."""
    import warnings
    if a is None and b is None:
        return a, b
    if isinstance(a, _PROMOTABLE) and isinstance(b, _PROMOTABLE) and type(a) is type(b):
        if a == b:
            return a, b
        warnings.warn(f"paddle.static.nn.cond: output {i} is the {type(a).__name__} {a!r} in "
                      f"true_fn but {b!r} in false_fn; it becomes a tensor")
        return _constant_value(a, None), _constant_value(b, None)
    tensor = a if isinstance(a, Value) else b
    if isinstance(tensor, Value) and isinstance(a if tensor is b else b, _PROMOTABLE):
        warnings.warn(f"paddle.static.nn.cond: output {i} is a tensor in one branch and a "
                      f"Python number in the other; the number becomes a tensor")
        if len(tensor.shape) != 0:
            raise ValueError(f"paddle.static.nn.cond: output {i} is a Python number in one branch "
                             f"(a 0-D tensor) but a tensor of shape {list(tensor.shape)} in the "
                             f"other; the ranks must be equal")
        a = a if isinstance(a, Value) else _constant_value(a, tensor.dtype)
        b = b if isinstance(b, Value) else _constant_value(b, tensor.dtype)
        return a, b
    raise TypeError(f"paddle.static.nn.cond: unsupported return values of true_fn and false_fn: "
                    f"output {i} is {a!r} in true_fn and {b!r} in false_fn")


# ---- while_loop -------------------------------------------------------------------------
def _check_loop_args(cond_fn: Any, body: Any, loop_vars: Any) -> None:
    if not callable(cond_fn):
        raise TypeError("paddle.static.nn.while_loop: cond in while_loop should be callable")
    if not callable(body):
        raise TypeError("paddle.static.nn.while_loop: body in while_loop should be callable")
    if not isinstance(loop_vars, (list, tuple)):
        raise TypeError(f"paddle.static.nn.while_loop: loop_vars in while_loop should be a list or "
                        f"tuple, but received {type(loop_vars).__name__}")
    if len(loop_vars) == 0:
        raise ValueError("paddle.static.nn.while_loop: loop_vars in while_loop should not be empty")


def _as_list(out: Any) -> list:
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _check_loop_cond(pred: Any) -> Any:
    """What ``cond`` returned, checked as Paddle does: a tensor (TypeError while a program is
    built, AttributeError in dynamic mode) of one element (TypeError), bool in a program."""
    if not isinstance(pred, Tensor):
        err = TypeError if _cf.current_recorder() is not None else AttributeError
        raise err(f"paddle.static.nn.while_loop: cond must return a bool tensor, but returned "
                  f"{type(pred).__name__}")
    if isinstance(pred, Value) and pred.dtype.name != "bool":
        raise TypeError(f"paddle.static.nn.while_loop: cond must return a bool tensor, but its "
                        f"data type is {pred.dtype.name}")
    if declared_size(pred) not in (1, -1):
        raise TypeError(f"paddle.static.nn.while_loop: cond must return a tensor of one element, "
                        f"but its shape is {list(pred.shape)}")
    return pred


def while_loop(cond: Callable, body: Callable, loop_vars: Sequence, is_test: bool = False,
               name: str | None = None) -> list:
    """``while cond(*loop_vars): loop_vars = body(*loop_vars)``; returns the final loop_vars.

    In a static program the body is recorded once into a child block and the loop runs
    when the program runs; ``body`` must return the same structure as ``loop_vars``.

    Args:
        cond (callable): returns a one-element bool tensor.
        body (callable): returns the new loop variables.
        loop_vars (list|tuple): the initial loop variables.
        is_test (bool, optional): unused.
        name (str, optional): unused.

    Returns:
        list|tuple: the loop variables after the last iteration (a tuple for a tuple of
        loop_vars in dynamic mode).

    Examples:
        >>> import pagaie as paddle
        >>> i, s = paddle.to_tensor(0), paddle.to_tensor(0)
        >>> out = paddle.static.nn.while_loop(lambda i, s: i < 4, lambda i, s: [i + 1, s + i], [i, s])
        >>> [t.item() for t in out]
        [4, 6]
    """
    _check_loop_args(cond, body, loop_vars)
    container = tuple if isinstance(loop_vars, tuple) else list
    loop_vars = list(loop_vars)
    pred = _check_loop_cond(cond(*loop_vars))
    if not isinstance(pred, Value):
        while bool(pred):
            out = _as_list(body(*loop_vars))
            if len(out) != len(loop_vars):
                raise ValueError(f"paddle.static.nn.while_loop: body returned {len(out)} values, but "
                                 f"loop_vars has {len(loop_vars)}")
            loop_vars = out
            pred = cond(*loop_vars)
            if isinstance(pred, Tensor) and declared_size(pred) != 1:
                # (ValueError, as Paddle reads a later condition with ``item()``)
                raise ValueError(f"paddle.static.nn.while_loop: cond must return a tensor of one "
                                 f"element, but after an iteration its shape is {list(pred.shape)}")
            pred = _check_loop_cond(pred)
        return container(loop_vars)   # (the container loop_vars came in, as Paddle)
    rec = _recorder("while_loop")
    block = rec.block
    leaves, skel = _flatten(loop_vars)
    values = []
    for v in leaves:
        if not isinstance(v, Tensor):
            with suspended():
                import pagaie
                v = pagaie.to_tensor(v)
        values.append(_as_value(v, block))
    with rec.sub_block() as b:
        holders = [b.create_var(b.program.unique_name("loop_var"), list(v.shape), v.dtype,
                                stop_gradient=v.stop_gradient) for v in values]
        new = _as_list(body(*_unflatten(skel, holders)))
        nleaves, nskel = _flatten(new)
        if nskel != _flatten(list(skel))[1] and nskel != skel:
            raise ValueError(f"paddle.static.nn.while_loop: body must return the structure of "
                             f"loop_vars {skel!r}, but returned {nskel!r}")
        nvalues = [_as_value(v, b) for v in nleaves]
        for i, (o, n) in enumerate(zip(values, nvalues)):
            if not isinstance(n, Value):  # (ValueError, as Paddle's yielded-variable check)
                raise ValueError(f"paddle.static.nn.while_loop: body output {i} must be a tensor, "
                                 f"but received {type(n).__name__}")
            if n.dtype != o.dtype:  # (ValueError, as Paddle's run of such a loop)
                raise ValueError(f"paddle.static.nn.while_loop: loop variable {i} changes dtype "
                                 f"from {o.dtype.name} to {n.dtype.name} in body")
        npred = cond(*_unflatten(nskel, nvalues))
        npred = _as_value(npred, b)
        if not isinstance(npred, Value):
            raise TypeError("paddle.static.nn.while_loop: cond must return a tensor")
    outs = [block.create_var(block.program.unique_name("while"), _cf.merge_shape(list(o.shape),
            list(n.shape)), o.dtype, stop_gradient=o.stop_gradient and n.stop_gradient)
            for o, n in zip(values, nvalues)]
    captured = _captured([b], [(b, nvalues + [npred])])
    block.append_op("pagaie.while", [pred, values, captured], {}, outs,
                    {"body_block": b.idx, "loop_vars": [h.name for h in holders],
                     "body_outputs": [n.name for n in nvalues], "cond_output": npred.name})
    # As Paddle: a loop variable the body hands back itself comes out as the value that went
    # in (so gradients with respect to it reach that value's other uses); when the body wrote
    # it in place (``increment``, ``array_write``) a value that needs no gradients takes the
    # final one, as Paddle's in-place ops write through to the variable passed in (a counter
    # read after the loop).
    written = {n for blk in b.program.blocks[b.idx:] for op in blk.ops for n in op.output_names()}
    results = []
    for o, n, h, out in zip(values, nvalues, holders, outs):
        if n is not h:
            results.append(out)
        elif h.name not in written:
            results.append(o)
        elif o.source is None and o.stop_gradient:
            block.append_op("assign", [out], {}, o, {})
            results.append(o)
        else:
            results.append(out)
    return _as_list(_unflatten(skel, results))


# ---- switch_case / case -----------------------------------------------------------------
def switch_case(branch_index: Any, branch_fns: Any, default: Callable | None = None,
                name: str | None = None) -> Any:
    """Run the branch whose index equals ``branch_index`` (else ``default``).

    Args:
        branch_index (Tensor): an int tensor with one element.
        branch_fns (dict|list): ``{index: fn}``, a list of ``(index, fn)`` pairs, or a list of
            functions (indexed by position).
        default (callable, optional): run when no index matches; the branch with the largest
            index when None.
        name (str, optional): unused.

    Returns:
        The chosen branch's result.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.static.nn.switch_case(paddle.to_tensor(1), [lambda: 10, lambda: 20])
        20
    """
    _require_tensor(branch_index, "switch_case", "branch_index")
    if isinstance(branch_index, Value) and branch_index.dtype.name not in ("uint8", "int32", "int64"):
        raise TypeError(f"paddle.static.nn.switch_case: the dtype of branch_index must be uint8, "
                        f"int32 or int64, but received {branch_index.dtype.name}")
    if isinstance(branch_fns, dict):
        pairs = list(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)):
        pairs = []
        for i, f in enumerate(branch_fns):
            if not callable(f) and not (isinstance(f, tuple) and len(f) == 2):
                raise TypeError(f"paddle.static.nn.switch_case: each element of branch_fns must be "
                                f"a function or an (index, function) tuple, but element {i} is "
                                f"{type(f).__name__}")
            pairs.append((i, f) if callable(f) else f)
    else:
        raise TypeError(f"paddle.static.nn.switch_case: branch_fns must be a dict, list or tuple, but "
                        f"received {type(branch_fns).__name__}")
    seen = set()
    for idx, fn in pairs:
        if not isinstance(idx, int):
            raise TypeError(f"paddle.static.nn.switch_case: branch indices must be int, but received "
                            f"{type(idx).__name__}")
        if idx in seen:
            raise ValueError(f"paddle.static.nn.switch_case: the branch index {idx} appears twice")
        seen.add(idx)
        if not callable(fn):
            raise TypeError(f"paddle.static.nn.switch_case: the function of branch {idx} must be "
                            f"callable, but received {type(fn).__name__}")
    pairs.sort(key=lambda p: p[0])
    default = _default_branch("switch_case", "branch_fns", pairs, default)
    return _chain([(_equals(branch_index, i), fn) for i, fn in pairs], default)


class _NoBranchError(ValueError, IndexError):
    """No branch to choose from: a ValueError, and the IndexError Paddle raises."""


def _require_tensor(x: Any, api: str, arg: str) -> None:
    """Paddle's check that ``arg`` of ``api`` is a tensor: a TypeError while a program is built;
    in dynamic mode only an argument without a ``dtype`` (a Python number, a function) fails,
    with the AttributeError Paddle's read of that ``dtype`` raises."""
    if _cf.current_recorder() is not None:
        if not isinstance(x, Value):
            raise TypeError(f"paddle.static.nn.{api}: {arg} must be a Tensor, but received "
                            f"{type(x).__name__}")
    elif not hasattr(x, "dtype"):
        raise AttributeError(f"paddle.static.nn.{api}: {arg} must be a Tensor, but received "
                             f"{type(x).__name__}, which has no dtype")


def _default_branch(api: str, arg: str, pairs: list, default: Any) -> Callable:
    """``default``, checked; when None, the last pair's function, taken out of ``pairs``
    (Paddle's IndexError when there is none)."""
    if default is None:
        if not pairs:
            raise _NoBranchError(f"paddle.static.nn.{api}: {arg} is empty and no default is given")
        return pairs.pop()[1]
    if not callable(default):
        raise TypeError(f"paddle.static.nn.{api}: default must be callable, but received "
                        f"{type(default).__name__}")
    return default


def _equals(index: Any, i: int) -> Callable:
    return lambda: index == i


# Rank mismatches of branch outputs seen while case/switch_case builds its nested conds:
# Paddle compares every branch's output dtypes before their ranks, so a dtype mismatch of
# an outer branch is the error reported first (None outside case/switch_case).
_RANKS_LATER: list[str] | None = None


def _chain(pairs: list, default: Callable) -> Any:
    """The first function whose predicate holds (a predicate may be a function making it),
    else ``default``: nested ``cond`` calls."""
    global _RANKS_LATER

    def go(i: int) -> Any:
        if i == len(pairs):
            return default()
        pred, fn = pairs[i]
        return cond(pred() if callable(pred) else pred, fn, lambda: go(i + 1))

    outer, _RANKS_LATER = _RANKS_LATER, []
    try:
        out = go(0)
        if _RANKS_LATER and outer is None:
            raise ValueError(_RANKS_LATER[0])
        if outer is not None:
            outer.extend(_RANKS_LATER)
    finally:
        _RANKS_LATER = outer
    return out


def case(pred_fn_pairs: Sequence, default: Callable | None = None, name: str | None = None) -> Any:
    """Run the function of the first pair whose predicate is true (else ``default``).

    Args:
        pred_fn_pairs (list|tuple): ``(pred, fn)`` pairs; ``pred`` is a one-element bool tensor.
        default (callable, optional): run when no predicate holds; the last pair's function
            when None.
        name (str, optional): unused.

    Returns:
        The chosen function's result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor(2)
        >>> paddle.static.nn.case([(x > 5, lambda: 'big'), (x > 1, lambda: 'mid')], lambda: 'small')
        'mid'
    """
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError(f"paddle.static.nn.case: pred_fn_pairs must be a list or tuple, but received "
                        f"{type(pred_fn_pairs).__name__}")
    pairs = []
    for p in pred_fn_pairs:
        if not isinstance(p, tuple) or len(p) != 2:
            raise TypeError("paddle.static.nn.case: each element of pred_fn_pairs must be a "
                            "(pred, fn) tuple")
        _require_tensor(p[0], "case", "pred")
        if isinstance(p[0], Value) and p[0].dtype.name != "bool":
            raise TypeError(f"paddle.static.nn.case: pred must be a bool tensor, but received "
                            f"{p[0].dtype.name}")
        if not callable(p[1]):
            raise TypeError(f"paddle.static.nn.case: fn must be callable, but received "
                            f"{type(p[1]).__name__}")
        pairs.append(p)
    default = _default_branch("case", "pred_fn_pairs", pairs, default)
    return _chain(pairs, default)


# ---- static_pylayer ---------------------------------------------------------------------
def static_pylayer(forward_fn: Callable, inputs: Sequence, backward_fn: Callable | None = None,
                   name: str | None = None) -> Any:
    """A layer with a custom backward: ``forward_fn(*inputs)`` forward, ``backward_fn(*grads)``
    giving the gradients of the inputs (one per input) from those of the outputs.

    Args:
        forward_fn (callable): the forward computation.
        inputs (list[Tensor]): its inputs.
        backward_fn (callable, optional): the gradient rule; without one, no gradient flows.
        name (str, optional): unused.

    Returns:
        The forward's result.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> y = paddle.static.nn.static_pylayer(lambda a: a * 3, [x], lambda g: g * 10)
        >>> y.sum().backward()
        >>> x.grad.tolist()
        [10.0, 10.0]
    """
    # Paddle's checks, in its order: a list of inputs (AssertionError); without backward_fn,
    # no input may need a gradient; then callables (ValueError)
    if not isinstance(inputs, list):
        raise AssertionError(f"paddle.static.nn.static_pylayer: inputs must be a list, but received "
                             f"{type(inputs).__name__}")
    inputs = list(inputs)
    static = any(isinstance(x, Value) for x in inputs)
    if static and backward_fn is None:
        for x in inputs:
            if getattr(x, "stop_gradient", True) is False:
                raise ValueError("paddle.static.nn.static_pylayer: ``stop_gradient`` attr of all "
                                 "inputs to ``forward_fn`` are expected to be True, when "
                                 f"``backward_fn == None``, but {x.name}.stop_gradient got False")
    if not callable(forward_fn):
        raise ValueError(f"paddle.static.nn.static_pylayer: forward_fn must be callable, but received "
                         f"{type(forward_fn).__name__}")
    if backward_fn is not None and not callable(backward_fn):
        raise ValueError(f"paddle.static.nn.static_pylayer: backward_fn must be callable, but "
                         f"received {type(backward_fn).__name__}")
    if not static:
        return _eager_pylayer(forward_fn, inputs, backward_fn)
    rec = _recorder("static_pylayer")
    block = rec.block
    ins = [_as_value(x, block) for x in inputs]
    with rec.sub_block() as fb:
        holders = [fb.create_var(fb.program.unique_name("pylayer_in"), list(v.shape), v.dtype,
                                 stop_gradient=v.stop_gradient) for v in ins]
        out = forward_fn(*holders)
        if out is None:          # as Paddle: a forward without outputs gives None
            return None
        leaves, skel = _flatten(out)
        fouts = [_as_value(v, fb) for v in leaves]
    if not all(isinstance(v, Value) for v in fouts):
        raise TypeError("paddle.static.nn.static_pylayer: forward_fn must return tensors")
    bb = None
    bouts: list = []
    gholders: list = []
    if backward_fn is not None:
        with rec.sub_block() as bb:
            gholders = [bb.create_var(bb.program.unique_name("pylayer_grad"), list(v.shape), v.dtype)
                        for v in fouts]
            g = _as_list(backward_fn(*gholders))
            if len(g) != len(ins):
                raise ValueError(f"paddle.static.nn.static_pylayer: backward_fn returned {len(g)} "
                                 f"gradients for {len(ins)} inputs")
            bouts = [None if v is None else _as_value(v, bb) for v in g]
    outs = [block.create_var(block.program.unique_name("pylayer"), list(v.shape), v.dtype,
                             stop_gradient=bb is None or all(x.stop_gradient for x in ins))
            for v in fouts]
    blocks = [fb] + ([bb] if bb is not None else [])
    captured = _captured(blocks, [(fb, fouts)] + ([(bb, [v for v in bouts if v is not None])]
                                                 if bb is not None else []))
    block.append_op("pagaie.pylayer", [ins, captured], {}, outs,
                    {"forward_block": fb.idx, "forward_inputs": [h.name for h in holders],
                     "forward_outputs": [v.name for v in fouts],
                     "backward_block": None if bb is None else bb.idx,
                     "backward_inputs": [h.name for h in gholders],
                     "backward_outputs": [None if v is None else v.name for v in bouts],
                     "captured": [v.name for v in captured]})
    return _unflatten(skel, outs)


def _eager_pylayer(forward_fn: Callable, inputs: list, backward_fn: Callable | None) -> Any:
    if backward_fn is None:
        from pagaie.autograd import no_grad
        with no_grad():
            return forward_fn(*inputs)
    from pagaie.autograd import PyLayer

    class _Layer(PyLayer):
        @staticmethod
        def forward(ctx, *xs):  # noqa: ANN001
            return forward_fn(*xs)

        @staticmethod
        def backward(ctx, *grads):  # noqa: ANN001
            g = backward_fn(*grads)
            return tuple(g) if isinstance(g, (list, tuple)) else g

    return _Layer.apply(*inputs)
