"""Whole-program transforms: copy (``clone``, test mode) and pruning to a feed -> fetch subgraph.

``clone_program`` copies blocks, values (captured values keep reading the same eager
tensors) and operators. With ``for_test=True`` it drops the training ops (the
``pagaie.backward`` / ``pagaie.optimizer_step`` ops and everything computed from
their outputs; a ``pagaie.backward`` op marked ``in_forward``, the ``paddle.grad`` of a
``to_static`` function, stays) and switches ops that behave differently in training to their
inference form: an op whose kernel has a ``training`` argument gets ``False``, an
``is_test`` argument gets ``True``, and the record's ``extra['for_test']`` dict (if
any) names further argument overrides; ``batch_norm`` is told to use its running
statistics; an override of None keeps the argument as recorded (Paddle's alpha
dropouts are compositions of random ops, which its clone does not switch). Each switched op carries ``attrs['is_test'] = True``.
"""
from __future__ import annotations

import inspect
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from pagaie._core.registry import REGISTRY
from pagaie._static.ir import Operator, Program, Value, map_values

__all__ = ["clone_program", "prune_program", "set_call_arg", "program_errors", "optimizer_steps",
           "learning_rate_variables", "program_state_dict", "set_program_state_dict", "TRAINING_OPS", "TEST_OVERRIDES"]

TRAINING_OPS = ("pagaie.backward", "pagaie.optimizer_step", "pagaie.model_average_step")

# Argument overrides applied by clone(for_test=True), beyond the generic training/is_test rule.
TEST_OVERRIDES: dict[str, dict[str, Any]] = {
    "batch_norm": {"training": False, "use_global_stats": True},
}


@contextmanager
def program_errors(api: str) -> Iterator[None]:
    """A kernel's error while a program runs, as Paddle's executors report it: a torch
    RuntimeError (a shape mismatch...) becomes ValueError (Paddle's InvalidArgument), a
    kernel missing for the inputs' dtype TypeError."""
    try:
        yield
    except RuntimeError as exc:
        # torch's "not implemented for 'Bool'" is a dtype the kernel lacks: Paddle's TypeError
        kind = TypeError if type(exc) is NotImplementedError and "not implemented for '" in str(exc) \
            else ValueError if type(exc) is RuntimeError else None
        if kind is None or str(exc).startswith("paddle."):
            raise
        from pagaie._core.registry import _clean
        op = getattr(exc, "failed_op", None)
        which = "an operator of the program" if op is None else \
            f"operator {op.type!r} (output {', '.join(op.output_names()) or 'none'})"
        if kind is TypeError:
            dtype = str(exc).rsplit("not implemented for '", 1)[1].split("'")[0].lower()
            raise TypeError(f"{api}: {which} does not support inputs of dtype {dtype}") from None
        raise ValueError(f"{api}: {which} failed: {_clean(str(exc))}") from None


def set_call_arg(op: Operator, name: str, value: Any) -> bool:
    """Set argument ``name`` of a recorded call (positional or keyword); False if absent."""
    rec = REGISTRY.get(op.type)
    if rec is None:
        return False
    params = list(rec.signature.parameters.values())
    for i, p in enumerate(params):
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            break
        if p.name == name:
            if i < len(op.args):
                op.args[i] = value
            else:
                op.kwargs[name] = value
            return True
    if any(p.name == name for p in params):
        op.kwargs[name] = value
        return True
    return False


def _to_test(op: Operator) -> None:
    rec = REGISTRY.get(op.type)
    if rec is None:
        return
    names = rec.signature.parameters
    overrides = dict(TEST_OVERRIDES.get(op.type, {}))
    overrides.update(rec.extra.get("for_test", {}))
    if "training" in names:
        overrides.setdefault("training", False)
    if "is_test" in names:
        overrides.setdefault("is_test", True)
    changed = False
    for k, v in overrides.items():
        if v is not None:
            changed |= set_call_arg(op, k, v)
    if changed:
        op.attrs["is_test"] = True


def clone_program(program: Program, for_test: bool = False) -> Program:
    """A copy of ``program`` (see the module docstring for ``for_test``)."""
    new = Program()   # Paddle's clone starts with random_seed 0 (recorded ops keep their seeds)
    for b in program.blocks[1:]:
        new.create_block(b.parent_idx)
    captured = new.__dict__.setdefault("_captured", {})
    for b, nb in zip(program.blocks, new.blocks):
        for v in b.vars.values():
            nv = nb.create_var(v.name, list(v.shape), v.dtype, v.stop_gradient, v.persistable)
            nv.is_data, nv._cut = v.is_data, v._cut
            nv.source = v.source
            if v.source is not None:
                captured[id(v.source)] = nv
    dropped: set[str] = set()

    def remap(x: Any, nb: Any) -> Any:
        return map_values(x, lambda v: new.blocks[v.block.idx].vars[v.name])

    for b, nb in zip(program.blocks, new.blocks):
        for op in b.ops:
            # (gradients a to_static function computes and returns are part of its forward)
            training = op.type in TRAINING_OPS and not op.attrs.get("in_forward")
            if for_test and (training or dropped & set(op.input_names())):
                dropped |= set(op.output_names())
                continue
            nop = nb.append_op(op.type, remap(op.args, nb), remap(op.kwargs, nb),
                               remap(op.outputs, nb), dict(op.attrs))
            if for_test:
                _to_test(nop)
    if for_test:
        gb = new.global_block()
        made = {n for op in gb.ops for n in op.output_names()}
        for n in dropped:
            v = gb.vars.get(n)
            if v is not None and not v.persistable and not v.is_data and n not in made:
                del gb.vars[n]
    for k in ("_feed_names", "_fetch_names"):
        if k in program.__dict__:
            new.__dict__[k] = list(program.__dict__[k])
    for k in ("lr_scheduler", "lr_name"):   # the scheduler stays shared, as Paddle's clone keeps it
        if k in program.__dict__:
            new.__dict__[k] = program.__dict__[k]
    return new


def prune_program(program: Program, feed_vars: Sequence[Value], fetch_vars: Sequence[Value],
                  inference: bool = False, api: str = "") -> Program:
    """The test-mode copy of ``program`` holding only what computes ``fetch_vars`` from ``feed_vars``.

    ``inference=True`` follows Paddle's inference export (``save_inference_model``,
    ``normalize_program``): a feed variable the fetches do not use raises ``ValueError``, data
    inputs the fetches need but ``feed_vars`` lacks become feeds too, and the feeds are listed
    in program order. Otherwise a lacking input raises ``ValueError``.
    """
    feed_names = [v.name for v in feed_vars]
    fetch_names = [v.name for v in fetch_vars]
    new = clone_program(program, for_test=True)
    gb = new.global_block()
    for n in fetch_names:
        if not gb.has_var(n):
            raise ValueError(f"paddle.static: fetch variable {n!r} is not computed by the program "
                             "(it may depend on gradients, which inference programs drop)")
    needed = set(fetch_names)
    kept: list[Operator] = []
    for op in reversed(gb.ops):
        if set(op.output_names()) & needed:
            kept.append(op)
            needed |= set(op.input_names())
    kept.reverse()
    produced = {n for op in kept for n in op.output_names()}
    lacking = sorted(n for n in needed if n not in produced and gb.has_var(n)
                     and gb.var(n).is_data and n not in feed_names)
    where = f"paddle.static.{api}" if api else "paddle.static"
    if inference:
        unused = [n for n in feed_names if n not in needed]
        if unused:
            raise ValueError(f"{where}: the feed variable {unused[0]!r} is not involved in computing "
                             f"the fetch variables {fetch_names}; remove it from feed_vars")
        order = {n: i for i, n in enumerate(gb.vars)}
        feed_names = sorted(dict.fromkeys(feed_names + lacking), key=lambda n: order.get(n, len(order)))
    elif lacking:
        raise ValueError(f"{where}: the fetch targets need the inputs {lacking}, which are "
                         f"not among the feed variables {feed_names}")
    gb.ops = kept
    for n in list(gb.vars):
        if n not in needed and n not in produced and n not in feed_names:
            del gb.vars[n]
    new.__dict__["_feed_names"] = feed_names
    new.__dict__["_fetch_names"] = fetch_names
    new._bump()
    return new


# The ops that step an optimizer (a plain one, or a static-AMP one that may skip a step).
STEP_OPS = ("pagaie.optimizer_step", "pagaie.static_amp_step")


def optimizer_steps(program: Program) -> list[tuple[Any, str | None]]:
    """(optimizer, name of its ``learning_rate_<n>`` variable) for each optimizer that
    ``program`` steps, in program order."""
    seen: dict[int, tuple] = {}
    for op in program.global_block().ops:
        if op.type in STEP_OPS and "optimizer" in op.attrs:
            seen.setdefault(id(op.attrs["optimizer"]), (op.attrs["optimizer"], op.attrs.get("lr_name")))
    return list(seen.values())


def learning_rate_variables(program: Program) -> list[tuple[str, Any, bool]]:
    """Paddle's persistable ``learning_rate_<n>`` variable of each optimizer ``program`` steps:
    (name, 0-D float32 value, whether it is a parameter).

    As in Paddle, the variable holds the rate of the program's last run (a scheduler's
    ``step()`` shows there only once the program runs again), and a scheduler's variable is
    a parameter (``state_dict('param')``, ``.pdparams``) while a fixed rate's is optimizer
    state (``'opt'``, ``.pdopt``).
    """
    import torch

    from pagaie._core.tensor import Tensor
    from pagaie.optimizer.lr import LRScheduler
    out = []
    for opt, lr_name in optimizer_steps(program):
        if lr_name:
            value = getattr(opt, "_static_lr_value", None)
            value = float(opt.get_lr()) if value is None else value
            out.append((lr_name, Tensor(torch.tensor(value, dtype=torch.float32)),
                        isinstance(opt._learning_rate, LRScheduler)))
    return out


def program_state_dict(program: Program, mode: str = "all") -> dict:
    """Persistable values by name: ``'param'`` (captured parameters and buffers), ``'opt'``
    (the optimizers' accumulators) or ``'all'``; each ``learning_rate_<n>`` variable joins
    the group Paddle puts it in (see :func:`learning_rate_variables`)."""
    if mode not in ("all", "param", "opt"):
        raise ValueError(f"paddle.static.Program.state_dict: mode must be 'all', 'param' or 'opt', "
                         f"but received {mode!r}")
    from pagaie._core.tensor import Tensor
    out: dict = {}
    if mode in ("all", "param"):
        for v in program.list_vars():
            if v.persistable and v.source is not None:
                out[v.name] = v.source
    if mode in ("all", "opt"):
        for opt, _ in optimizer_steps(program):
            for k, t in opt.state_dict().items():
                if isinstance(t, Tensor):
                    out[k] = t
    for name, value, is_param in learning_rate_variables(program):
        if mode == "all" or (mode == "param") == is_param:
            out[name] = value
    return out


def set_program_state_dict(program: Program, state_dict: dict) -> list[str]:
    """Copy values into the program's persistables and optimizer state; returns unused keys.

    Only the keys given change (accumulators not in ``state_dict`` keep their values); a
    ``learning_rate_<n>`` value sets a float learning rate, as loading Paddle's variable does.
    """
    import numpy as np
    import torch

    from pagaie._core.tensor import Tensor
    from pagaie.optimizer.lr import LRScheduler
    lr_names = {name for name, _, _ in learning_rate_variables(program)}
    params = {k: v for k, v in program_state_dict(program, "param").items() if k not in lr_names}
    used = set()
    for name, value in state_dict.items():
        t = params.get(name)
        if t is None:
            continue
        src = value._t if isinstance(value, Tensor) else torch.as_tensor(np.asarray(value))
        if list(src.shape) != list(t._t.shape):
            raise ValueError(f"paddle.static.set_state_dict: {name!r} has shape {list(src.shape)} in "
                             f"the state dict but {list(t._t.shape)} in the program")
        with torch.no_grad():
            t._t.copy_(src.to(dtype=t._t.dtype, device=t._t.device))
        used.add(name)
    rest = {k: v for k, v in state_dict.items() if k not in used}
    prefixes = tuple(f"{n}_" for n in params)
    for opt, lr_name in optimizer_steps(program):
        if lr_name in rest:
            used.add(lr_name)
            if not isinstance(opt._learning_rate, LRScheduler):
                opt._assign_lr(float(np.asarray(rest.pop(lr_name)).reshape(-1)[0]))
        mine = {k: v for k, v in rest.items() if k in opt.state_dict() or k.startswith(prefixes)}
        if mine:  # the optimizer wants a complete state: keep what is not given
            merged = dict(opt.state_dict())
            merged.update({k: v if isinstance(v, (Tensor, dict)) else Tensor(np.asarray(v))
                           for k, v in mine.items()})
            opt.set_state_dict(merged)
            used |= set(mine)
    return [k for k in state_dict if k not in used]
