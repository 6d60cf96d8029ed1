"""Gradients in static programs: ``append_backward``, ``gradients`` and ``minimize``.

A ``pagaie.backward`` op holds ``[targets, inputs, target_gradients]``; the
interpreter runs the recorded forward under torch.autograd and computes the
gradients when it reaches the op. ``pagaie.optimizer_step`` hands them to an eager
optimizer, so every optimizer works in static programs with its own update rule.
"""
from __future__ import annotations

from typing import Any, Sequence

from pagaie._core.tensor import Tensor
from pagaie._static.ir import Block, Value
from pagaie.utils import unique_name

__all__ = ["append_backward", "gradients", "minimize", "optimizer_backward"]


def _as_list(v: Any) -> list:
    if v is None:
        return []
    return list(v) if isinstance(v, (list, tuple, set, frozenset)) else [v]


def _no_grad_names(no_grad_set: Any, api: str, single_value: bool = False) -> dict[str, Value]:
    """The values in ``no_grad_set`` by name: a set, list or tuple of program values (a lone
    value too where ``single_value``), as Paddle's PIR backward takes them (names are refused)."""
    if no_grad_set is None:
        return {}
    if single_value and isinstance(no_grad_set, Tensor):
        no_grad_set = [no_grad_set]
    if not isinstance(no_grad_set, (list, tuple, set, frozenset)):
        raise TypeError(f"paddle.static.{api}: the type of no_grad_set should be set or list or "
                        f"tuple, but received {type(no_grad_set).__name__}")
    for v in no_grad_set:
        if not isinstance(v, Tensor):
            raise TypeError(f"paddle.static.{api}: the type of no_grad_set's member must be "
                            f"paddle.pir.Value, but received {type(v).__name__}")
    return {v.name: v for v in no_grad_set}


def _blocked(block: Block, skip: dict[str, Value], inputs: list[Value]) -> list[Value]:
    """The values of ``skip`` that the gradients must not flow through (not the inputs
    themselves): op results of ``block`` whose gradient the backward treats as zero."""
    ins = set(map(id, inputs))
    return [v for v in skip.values() if isinstance(v, Value) and v.block is block
            and v.op is not None and id(v) not in ins]


def _ancestors(block: Block, targets: list[Value], differentiable: bool = False) -> set[str]:
    """The names of the values ``targets`` are computed from (``differentiable``: only through
    ops with a backward; an op without one, ``all``, ``isnan``, ``argmax``, passes no gradient
    to its inputs)."""
    need = {t.name for t in targets}
    for op in reversed(block.ops):
        if differentiable and op.record is not None and not op.record.differentiable:
            continue
        if set(op.output_names()) & need:
            need |= set(op.input_names())
    return need


def _reaches(block: Block, source: Value, targets: list[Value], blocked: set = frozenset()) -> bool:
    """Whether a differentiable path leads from ``source`` to one of ``targets`` (not passing
    through the values named in ``blocked``)."""
    want = {id(t) for t in targets}
    if id(source) in want:
        return True
    tainted = {id(source)}
    nested = block.program.num_blocks > 1  # control flow reads outer values from sub-blocks
    for op in block.ops:
        rec = op.record
        if rec is not None and not rec.differentiable:
            continue
        if any(id(v) in tainted for v in op.input_values()) or (nested and op.record is None):
            for v in op.output_values():
                if v.name in blocked:
                    continue
                tainted.add(id(v))
                if id(v) in want:
                    return True
    return False


def _record_backward(block: Block, targets: list[Value], inputs: list[Value],
                     target_gradients: list | None, blocked: list[Value] = ()) -> list[Value]:
    grads = []
    for v in inputs:
        name = v.name + "@GRAD"
        if block.has_var(name):
            name = block.program.unique_name(name)
        grads.append(block.create_var(name, list(v.shape), v.dtype, stop_gradient=False))
    # An earlier backward over the same forward keeps its graph for this one; one whose
    # gradients this one differentiates builds a differentiable graph (second order).
    reach = _ancestors(block, targets)
    for op in block.ops:
        if op.type == "pagaie.backward":
            op.attrs["retain_graph"] = True
            if set(op.output_names()) & reach:
                op.attrs["create_graph"] = True
    # (the values of no_grad_set the gradients must not flow through, as Paddle's backward
    # treats them as constants for this call only)
    kwargs = {"no_grad": list(blocked)} if blocked else {}
    block.append_op("pagaie.backward", [list(targets), list(inputs), target_gradients], kwargs, grads)
    return grads


def _check_target(t: Any, api: str) -> Value:
    if not isinstance(t, Value):
        raise TypeError(f"paddle.static.{api}: expected a static Value (built in static mode), "
                        f"but received {type(t).__name__}")
    return t


def _input_value(block: Block | None, t: Any) -> Value:
    """An input of ``gradients``: a program Value, or an eager tensor the program reads (a
    parameter made by ``paddle.create_parameter`` in static mode), as its captured Value."""
    if block is not None and isinstance(t, Tensor) and not isinstance(t, Value):
        from pagaie._static.recorder import capture
        return capture(block, t)
    return _check_target(t, "gradients")


def append_backward(loss: Value, parameter_list: Sequence | None = None,
                    no_grad_set: set | None = None, callbacks: Any = None,
                    checkpoints: Any = None, distop_context: Any = None) -> list[tuple[Value, Value]]:
    """Add the gradient computation of ``loss`` to its program.

    Args:
        loss (Value): the scalar loss.
        parameter_list (list|tuple|set, optional): parameters to
            differentiate; all the program's parameters by default.
        no_grad_set (set|list|tuple, optional): values that get no gradient.
        callbacks, checkpoints: accepted for compatibility.
        distop_context (optional): Paddle's auto-parallel bookkeeping; accepted and unused
            (a single-process program needs none).

    Returns:
        list[tuple[Value, Value|None]]: ``(parameter, gradient)`` pairs, one per parameter, as
        Paddle's: the gradient is None for a parameter that stops gradient, is in
        ``no_grad_set`` or that the loss does not depend on.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('x', [None, 2], 'float32')
        ...     loss = paddle.mean(paddle.nn.Linear(2, 1)(x))
        ...     pairs = paddle.static.append_backward(loss)
        >>> len(pairs)
        2
        >>> paddle.disable_static()
    """
    loss = _check_target(loss, "append_backward")
    if parameter_list is not None and not isinstance(parameter_list, (list, tuple, set)):
        raise TypeError(f"paddle.static.append_backward: parameter_list must be a list, tuple or "
                        f"set, but received {type(parameter_list).__name__}")
    if parameter_list is not None:
        for i, p in enumerate(parameter_list):
            if not isinstance(p, Tensor):
                raise TypeError(f"paddle.static.append_backward: the type of parameter_list[{i}] "
                                f"must be paddle.pir.Value, but received {type(p).__name__}")
    block = loss.block.program.global_block()
    skip = _no_grad_names(no_grad_set, "append_backward")
    params = block.all_parameters()
    if parameter_list is None:  # Paddle also takes the values marked persistable by hand
        seen = set(map(id, params))  # (data values too), in the order they were made
        params += [v for v in block.vars.values() if v.persistable and id(v) not in seen]
    else:  # in the order given (Values or eager parameters)
        by_name = {v.name: v for v in params}
        by_name.update({v.source.name: v for v in params if v.source is not None})
        params = [p if isinstance(p, Value) else by_name.get(p.name) for p in parameter_list]
        params = [p for p in params if p is not None]
    reach = _ancestors(block, [loss], differentiable=True)
    live = [v for v in params if v.name in reach and not v.stop_gradient and v.name not in skip
            and (not skip or _reaches(block, v, [loss], skip))]
    grads = dict(zip(map(id, live), _record_backward(block, [loss], live, None,
                                                     _blocked(block, skip, live)) if live else []))
    return [(v, grads.get(id(v))) for v in params]


def gradients(targets: Any, inputs: Any, target_gradients: Any = None,
              no_grad_set: set | None = None) -> list[Value | None]:
    """Add the gradients of ``targets`` with respect to ``inputs`` to the program.

    Args:
        targets (Value|list[Value]): what to differentiate.
        inputs (Value|list[Value]): with respect to what (data values included).
        target_gradients (Value|list[Value], optional): initial gradients of the targets.
        no_grad_set (set|list|tuple|Value, optional): values to treat as constants.

    Returns:
        list[Value|None]: one gradient per input; None for an input that stops gradient
        or that the targets do not depend on.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('x', [3], 'float32')
        ...     x.stop_gradient = False
        ...     (g,) = paddle.static.gradients([(x * x).sum()], [x])
        >>> exe = paddle.static.Executor()
        >>> exe.run(main, feed={'x': np.array([1.0, 2.0, 3.0], 'float32')}, fetch_list=[g])[0].tolist()
        [2.0, 4.0, 6.0]
        >>> paddle.disable_static()
    """
    ts = [_check_target(t, "gradients") for t in _as_list(targets)]
    block = ts[0].block.program.global_block() if ts else None
    ins = [_input_value(block, i) for i in _as_list(inputs)]
    tg = _as_list(target_gradients) or None
    if tg is not None:  # (ValueError, as Paddle's checks of grad_outputs)
        if len(tg) != len(ts):
            raise ValueError(f"paddle.static.gradients: target_gradients must hold one gradient per "
                             f"target ({len(ts)}), but received {len(tg)}")
        for i, (g, t) in enumerate(zip(tg, ts)):
            gs, ss = (None if g is None else list(g.shape)), list(t.shape)
            if gs is not None and (len(gs) != len(ss) or any(a != b and a != -1 and b != -1
                                                              for a, b in zip(gs, ss))):
                raise ValueError(f"paddle.static.gradients: the shape of target_gradients[{i}] {gs} "
                                 f"should be the same as the shape of targets[{i}] {ss}")
    if len({id(t) for t in ts}) < len(ts):
        # As Paddle: a target listed twice counts once, with its last target gradient
        last = {id(t): i for i, t in enumerate(ts)}
        keep = [i for i, t in enumerate(ts) if last[id(t)] == i]
        ts = [ts[i] for i in keep]
        tg = None if tg is None else [tg[i] for i in keep]
    skip = _no_grad_names(no_grad_set, "gradients", single_value=True)
    if not ts:  # (no targets: no input has a gradient, as Paddle)
        return [None] * len(ins)
    # As Paddle: None for an input that stops gradient or that no target depends on.
    live = [i for i in ins if not i.stop_gradient and i.name not in skip and _reaches(block, i, ts, skip)]
    grads = iter(_record_backward(block, ts, live, tg, _blocked(block, skip, live)) if live else [])
    return [next(grads) if any(i is x for x in live) else None for i in ins]


def check_scalar_loss(loss: Value, api: str) -> None:
    """The loss an optimizer differentiates holds one element (its shape's product is 1: an
    unknown batch size does not qualify), or AssertionError, as Paddle's static optimizers."""
    size = 1
    for d in loss.shape:
        size *= d
    if size != 1:
        raise AssertionError(f"{api}: the loss must have exactly one element, but its shape is "
                             f"{list(loss.shape)}; reduce it first (paddle.mean, paddle.sum)")


def optimizer_backward(loss: Value, parameters: Any = None, no_grad_set: Any = None) -> list:
    """Static-mode ``optimizer.backward(loss)``: append the backward of a one-element loss;
    the (parameter, gradient) pairs that have a gradient, as Paddle's optimizers keep."""
    check_scalar_loss(loss, "paddle.optimizer.Optimizer.backward")
    return [(p, g) for p, g in append_backward(loss, parameters, no_grad_set) if g is not None]


def minimize(optimizer: Any, loss: Value, parameters: Any = None, no_grad_set: Any = None,
             startup_program: Any = None) -> tuple:
    """Static-mode ``optimizer.minimize(loss)``: add backward and an optimizer step to the
    program (the optimizer state's initial values to ``startup_program``, the default startup
    program when None); (the operators appended, the (parameter, gradient) pairs)."""
    pairs = optimizer_backward(loss, parameters, no_grad_set)
    return append_optimizer_step(optimizer, pairs, startup_program), pairs


def append_optimizer_step(optimizer: Any, params_grads: Sequence, startup_program: Any = None) -> list:
    """Static-mode ``optimizer.apply_gradients(params_grads)``: add an optimizer step over the
    (parameter, gradient) pairs that have a gradient to the parameters' program, and return
    the operators appended (the one step op; none when no pair has a gradient). The
    optimizer state's initial values go to ``startup_program`` (default: the default one)."""
    pairs = [(p, g) for p, g in params_grads if g is not None]
    if not pairs:
        return []
    block = pairs[0][0].block.program.global_block()
    params = [p for p, _ in pairs]
    grads = [g for _, g in pairs]
    for g in grads:  # the optimizer consumes them: Paddle marks them stop_gradient then
        g.stop_gradient = True
    # Paddle's minimize creates the accumulators (moments, beta powers...) with the program,
    # so the optimizer state exists, and state_dict('opt') lists it, before the first run
    sources = [p.source for p in params if p.source is not None]
    optimizer._create_accumulators(sources)
    # ... and, as Paddle, their initial values join the startup program
    from pagaie.static.framework import default_startup_program
    from pagaie.static.startup import record_optimizer_state
    record_optimizer_state(optimizer, sources, startup_program or default_startup_program())
    # Paddle keeps the learning rate in a persistable variable ``learning_rate_<n>`` (named
    # when the optimizer joins the program); ``static.save`` writes it to the .pdopt file.
    lr_name = next((op.attrs["lr_name"] for op in block.ops if op.type == "pagaie.optimizer_step"
                    and op.attrs.get("optimizer") is optimizer and "lr_name" in op.attrs), None)
    lr_name = lr_name or unique_name.generate("learning_rate")
    optimizer._static_lr_value = float(optimizer.get_lr())   # the variable's initial value
    op = block.append_op("pagaie.optimizer_step", [params, grads], {}, None,
                         {"optimizer": optimizer, "lr_name": lr_name})
    # As Paddle, a program stepped with a learning-rate scheduler names it (the last one
    # wins): training loops call ``program.lr_scheduler.step()`` between runs.
    from pagaie.optimizer.lr import LRScheduler
    if isinstance(optimizer._learning_rate, LRScheduler):
        program = block.program
        program.lr_scheduler = optimizer._learning_rate
        program.lr_name = lr_name
    return [op]
