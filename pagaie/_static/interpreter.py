"""The interpreter: runs a Program's kernels directly on torch tensors.

A :class:`Plan` is built once per (program version, feeds, fetches): the ops that
the fetches (or side effects) need, in program order, each with its kernel, an
argument template whose values are slot numbers, and the slots to free after it
(values past their last use are dropped, so peak memory stays at what is live).
Running a plan touches no wrapper objects: slots hold torch tensors.

Graph-level ops are run here too: ``pagaie.backward`` (gradients of a loss with
respect to parameters, by torch.autograd over the recorded forward) and
``pagaie.optimizer_step`` (hands gradients to an eager optimizer and steps it).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import torch

from pagaie._core import engine
from pagaie._core.registry import REGISTRY
from pagaie._ops._helpers import CPU_AS_GPU
from pagaie._static.ir import Operator, Program, Value, map_values

__all__ = ["Plan", "GRAPH_OPS", "register_graph_op", "op_kernel"]


# Ops whose Paddle API reads Program.random_seed (see recorder._program_seed_attrs).
_PROGRAM_SEEDED = frozenset({"dropout"})


def op_kernel(op: Operator) -> Callable:
    """The kernel that runs ``op``: its record's, for a dropout with the seed Paddle would give
    it pinned (see :mod:`pagaie._ops._random_mask`): ``attrs['seed']``, the program's
    ``random_seed`` when the op was recorded (a fresh engine seeded with it on every run); with
    ``attrs['seed_from_main']`` (``to_static``), the default main program's ``random_seed``
    when the op runs; otherwise 0, whatever the program says now."""
    rec = REGISTRY[op.type]
    kernel = rec.kernel
    if not rec.differentiable and "stop_gradient" not in getattr(getattr(kernel, "__code__", None), "co_varnames", ()) \
            and any(not v.stop_gradient for v in op.output_values()):
        return _zero_grads(kernel)
    if op.type not in _PROGRAM_SEEDED:
        return kernel
    from pagaie._ops._random_mask import pinned_seed
    seed = int(op.attrs.get("seed") or 0)
    from_main = bool(op.attrs.get("seed_from_main"))

    def seeded(*args: Any, **kwargs: Any) -> Any:
        with pinned_seed(_main_seed() if from_main else seed):
            return kernel(*args, **kwargs)
    return seeded


class _ZeroGrad(torch.autograd.Function):
    """The floating result ``out`` of an op without a backward, attached to the ``inputs``
    that record gradients: they get zeros from it."""

    @staticmethod
    def forward(ctx: Any, out: torch.Tensor, *inputs: torch.Tensor) -> torch.Tensor:
        ctx.metas = [(t.shape, t.dtype, t.device) for t in inputs]
        return out.view_as(out)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple:
        return (None, *(torch.zeros(s, dtype=d, device=dev) for s, d, dev in ctx.metas))


def _grad_inputs(values: Any, found: list) -> list:
    for v in values:
        if isinstance(v, torch.Tensor):
            if v.requires_grad:
                found.append(v)
        elif type(v) in (list, tuple):
            _grad_inputs(v, found)
    return found


def _zero_grads(kernel: Callable) -> Callable:
    """``kernel`` of an op without a backward whose recorded results say stop_gradient=False
    (one input needs gradients): its floating results record gradients, zeros for those
    inputs, as Paddle's program backward gives them (``bincount`` weights, ``linspace``
    bounds, ``full_like``'s input); eagerly the same op's results stop gradients."""
    def run(*args: Any, **kwargs: Any) -> Any:
        out = kernel(*args, **kwargs)
        if not torch.is_grad_enabled():
            return out
        req = _grad_inputs(kwargs.values(), _grad_inputs(args, []))
        if not req:
            return out

        def attach(o: Any) -> Any:
            if isinstance(o, torch.Tensor) and (o.is_floating_point() or o.is_complex()):
                return _ZeroGrad.apply(o.detach(), *req)
            return o
        return type(out)(map(attach, out)) if type(out) in (tuple, list) else attach(out)
    return run


def _main_seed() -> int:
    from pagaie.static.framework import default_main_program
    return int(getattr(default_main_program(), "random_seed", 0) or 0)


class MissingFeedError(KeyError, ValueError):
    """A program input was not fed (a KeyError, as in Paddle, and a ValueError)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class _Slot:
    __slots__ = ("i",)

    def __init__(self, i: int) -> None:
        self.i = i


def _template(v: Any, slot_of: Callable[[Value], int]) -> Any:
    return map_values(v, lambda x: _Slot(slot_of(x)))


def _fill(t: Any, slots: list) -> Any:
    if type(t) is _Slot:
        return slots[t.i]
    if type(t) in (list, tuple):
        return type(t)(_fill(e, slots) for e in t)
    if type(t) is dict:
        return {k: _fill(e, slots) for k, e in t.items()}
    if type(t) is slice:
        return slice(*(_fill(e, slots) for e in (t.start, t.stop, t.step)))
    return t


def _slot_in_slice(s: slice) -> bool:
    return any(type(e) is _Slot for e in (s.start, s.stop, s.step))


def _filler(t: Any) -> Callable[[list], Any]:
    """A function ``slots -> _fill(t, slots)`` with the constant parts of ``t`` built once.

    Lists and dicts are new objects on every call (a kernel may change its arguments);
    tuples without slots and other constants are shared, as ``_fill`` returns them too.
    """
    ty = type(t)
    if ty is _Slot:
        i = t.i
        return lambda slots: slots[i]
    if ty is slice and _slot_in_slice(t):
        parts = [_filler(e) for e in (t.start, t.stop, t.step)]
        return lambda slots: slice(*(f(slots) for f in parts))
    if ty not in (list, tuple, dict):
        return lambda slots: t
    keyed = list(t.items()) if ty is dict else list(enumerate(t))
    at_slot = [(k, e.i) for k, e in keyed if type(e) is _Slot]
    at_sub = [(k, _filler(e)) for k, e in keyed if type(e) in (list, tuple, dict)
              or (type(e) is slice and _slot_in_slice(e))]
    if ty is tuple and not at_slot and not at_sub:
        return lambda slots: t
    base = dict(t) if ty is dict else list(t)
    if ty is tuple and not at_sub and len(at_slot) == len(base):
        idx = [i for _, i in at_slot]
        return lambda slots: tuple([slots[i] for i in idx])

    def build(slots: list) -> Any:
        out = base.copy()
        for k, i in at_slot:
            out[k] = slots[i]
        for k, f in at_sub:
            out[k] = f(slots)
        return tuple(out) if ty is tuple else out

    return build


def _initial_slots(plan: Any, feed: dict[str, torch.Tensor]) -> list:
    """The slot list of one run of ``plan``: fed tensors (grad-recording where asked) and
    captured eager tensors in place, ``None`` elsewhere."""
    slots: list = [None] * plan.n_slots
    for s, name in plan.feeds:
        t = feed[name]
        if name in plan.grad_feeds:
            # (a caller's tensor that records gradients stays in its graph: a to_static call
            # whose gradients are differentiated again reaches it)
            t = t if t.requires_grad else t.detach().requires_grad_()
        elif name in plan.cut_feeds:
            t = t.detach()
        slots[s] = t
    for s, src in plan.sources:
        slots[s] = src._t
    return slots


def _cut_mask(outs: Any) -> Any:
    """Which outputs the program cuts gradients at (``Value._cut``), in the outputs' structure;
    None when none is."""
    if isinstance(outs, Value):
        return True if outs._cut else None
    if type(outs) in (list, tuple):
        masks = [_cut_mask(o) for o in outs]
        return masks if any(m is not None for m in masks) else None
    return None


def _detach_where(result: Any, mask: Any) -> Any:
    if mask is True:
        return result.detach() if isinstance(result, torch.Tensor) else result
    if mask is None or type(result) not in (list, tuple):
        return result
    return type(result)(_detach_where(r, m) for r, m in zip(result, mask))


def _cutting(kernel: Callable, mask: Any) -> Callable:
    """``kernel`` whose outputs marked in ``mask`` leave the autograd graph."""
    def run(*args: Any, **kwargs: Any) -> Any:
        return _detach_where(kernel(*args, **kwargs), mask)
    return run


def _grad_leaf(kernel: Callable) -> Callable:
    """``kernel`` whose floating result, when it does not already record gradients, becomes a
    leaf that does (a value the program differentiates with respect to)."""
    def run(*args: Any, **kwargs: Any) -> Any:
        out = kernel(*args, **kwargs)
        if isinstance(out, torch.Tensor) and not out.requires_grad and torch.is_grad_enabled() \
                and (out.is_floating_point() or out.is_complex()):
            out = out.detach().requires_grad_()
        return out
    return run


def _write_back(writeback: Any, slots: list) -> None:
    """Copy the final values of re-defined captured tensors back into those eager tensors."""
    for s, src in writeback:
        t = slots[s]
        if t is not None and t is not src._t:
            with torch.no_grad():
                src._t.copy_(t)


def _store(outs: Any, result: Any, slots: list) -> None:
    if type(outs) is _Slot:
        slots[outs.i] = result
    elif type(outs) in (list, tuple):
        for o, r in zip(outs, result):
            _store(o, r, slots)


# Graph-level ops: name -> runner(op, args, kwargs, plan) returning the outputs.
GRAPH_OPS: dict[str, Callable] = {}


def register_graph_op(name: str, side_effect: bool = True) -> Callable:
    """Register the runner of a graph-level op (``pagaie.*``)."""
    def deco(fn: Callable) -> Callable:
        fn.side_effect = side_effect
        GRAPH_OPS[name] = fn
        return fn
    return deco


@register_graph_op("pagaie.backward", side_effect=False)
def _run_backward(op: Operator, args: list, kwargs: dict, plan: "Plan") -> list:
    targets, inputs, target_grads = args
    pairs = [(t, None if target_grads is None else g) for t, g in
             zip(targets, target_grads or [None] * len(targets)) if t.requires_grad]
    wrt = [(i, x) for i, x in enumerate(inputs) if x.requires_grad]
    grads: list = [None] * len(inputs)
    if pairs and wrt:
        outs = [t for t, _ in pairs]
        gos = [torch.ones_like(t) if g is None else g for t, g in pairs]
        # an earlier backward of a program that differentiates again keeps its graph; one
        # whose gradients are differentiated records them (second-order gradients)
        cg = bool(op.attrs.get("create_graph"))
        # no_grad_set's intermediate values pass no gradient on (for this backward only)
        hooks = [t.register_hook(torch.zeros_like) for t in kwargs.get("no_grad", ())
                 if isinstance(t, torch.Tensor) and t.requires_grad]
        try:
            res = engine.grad(outs, [x for _, x in wrt], gos,
                              retain_graph=cg or bool(op.attrs.get("retain_graph")), create_graph=cg)
        finally:
            for h in hooks:
                h.remove()
        for (i, _), g in zip(wrt, res):
            grads[i] = g
    return [torch.zeros_like(x) if g is None else g for x, g in zip(inputs, grads)]


@register_graph_op("pagaie.optimizer_step")
def _run_optimizer_step(op: Operator, args: list, kwargs: dict, plan: "Plan") -> None:
    params, grads = op.args[0], args[1]
    optimizer = op.attrs["optimizer"]
    # the rate this run uses: what the program's ``learning_rate_<n>`` variable then holds
    optimizer._static_lr_value = float(optimizer.get_lr())
    holder = getattr(optimizer, "_lr_holders", {}).get(op.attrs.get("lr_name"))
    if holder is not None:   # a fetched ``_global_learning_rate()`` shows this run's rate
        holder._t.fill_(optimizer._static_lr_value)
    if not optimizer._all_params():
        # Built without a parameter list (static style): update what minimize() found.
        with torch.no_grad():
            optimizer._apply_optimize([(pv.source, g.detach()) for pv, g in zip(params, grads)
                                       if g is not None], None)
        return None
    for pv, g in zip(params, grads):
        pv.source._t.grad = g.detach()
    optimizer.step()
    for pv in params:
        pv.source._t.grad = None
    return None


def _side_effect(op: Operator) -> bool:
    runner = GRAPH_OPS.get(op.type)
    if runner is not None:
        # a branch or loop body that prints, asserts or writes makes its op an effect too
        return runner.side_effect or any(_side_effect(o) for b in op.blocks() for o in b.ops)
    # A call that re-defines a persistable value (in-place update of a parameter), or one
    # that writes into its arguments (batch norm statistics, a fake quantizer's scale).
    from pagaie._static.passes.engine import mutates
    return (any(v.persistable and v.op is op for v in op.output_values()) and
            any(v.name in op.input_names() for v in op.output_values())) or mutates(op)


class Plan:
    """An executable schedule of one program for given feeds and fetches."""

    def __init__(self, program: Program, feed_names: Sequence[str], fetch: Sequence[Value],
                 reuse_buffers: bool = False) -> None:
        block = program.global_block()
        self.version = program.version
        self.feed_names = list(feed_names)
        slot_of_name: dict[str, int] = {}

        def slot_of(v: Value) -> int:
            i = slot_of_name.get(v.name)
            if i is None:
                i = slot_of_name[v.name] = len(slot_of_name)
            return i

        needed = {v.name for v in fetch}
        chosen: list[Operator] = []
        for op in reversed(block.ops):
            outs = set(op.output_names())
            if outs & needed or _side_effect(op):
                chosen.append(op)
                needed |= set(op.input_names())
        chosen.reverse()
        self.has_backward = self.backward_ops = any(op.type == "pagaie.backward" for op in chosen)
        # Fed values that gradients are taken with respect to must require grad.
        self.grad_feeds = {v.name for op in chosen if op.type == "pagaie.backward"
                           for v in op.args[1] if isinstance(v, Value)}
        # fed values the program itself marks stop_gradient=True
        self.cut_feeds = {n for n in feed_names if block.has_var(n) and block.var(n)._cut}

        # (a data value re-defined by an in-place op still needs its fed value first)
        missing = [n for n in needed if block.has_var(n) and block.var(n).is_data and n not in feed_names]
        producers = {n for op in chosen for n in op.output_names()}
        if missing:
            raise MissingFeedError(f"paddle.static.Executor.run: the program needs feed data for "
                             f"{sorted(missing)}, but feed has {sorted(feed_names)}")

        # Inputs that come from outside the plan: feeds and captured eager tensors.
        self.sources: list[tuple[int, Any]] = []
        self.feeds: list[tuple[int, str]] = []
        for name in sorted(needed):
            if not block.has_var(name):
                continue
            v = block.var(name)
            if name in feed_names and (v.is_data or name not in producers):
                self.feeds.append((slot_of(v), name))
            elif name in producers and v.source is None:
                continue
            elif v.source is not None:
                self.sources.append((slot_of(v), v.source))
            else:
                raise ValueError(f"paddle.static.Executor.run: value {name!r} has no producer, is not "
                                 "fed and holds no data")

        self.steps: list[tuple] = []
        last_use: dict[int, int] = {}
        for idx, op in enumerate(chosen):
            args = _template(op.args, slot_of)
            kwargs = _template(op.kwargs, slot_of)
            outs = _template(op.outputs, slot_of)
            graph = GRAPH_OPS.get(op.type)
            kernel = None if graph else op_kernel(op)
            mask = _cut_mask(op.outputs) if kernel is not None else None
            if mask is not None:
                kernel = _cutting(kernel, mask)
            self.steps.append([op, kernel, graph, args, kwargs, outs, ()])
            for v in op.input_values():
                last_use[slot_of(v)] = idx
        self.fetch_slots = [slot_of(v) for v in fetch]
        keep = set(self.fetch_slots) | {s for s, _ in self.sources}
        frees: dict[int, list[int]] = {}
        for s, idx in last_use.items():
            if s not in keep:
                frees.setdefault(idx, []).append(s)
        for idx, step in enumerate(self.steps):
            step[6] = tuple(frees.get(idx, ()))
        self.n_slots = len(slot_of_name)
        # Memory plan (BuildStrategy.enable_inplace): elementwise ops write into dying inputs.
        self.reused = 0
        if reuse_buffers and not self.has_backward:
            from pagaie._static.passes.memory import plan_buffer_reuse
            self.reused = plan_buffer_reuse(self)
        # Captured values that ops re-define (in-place updates of buffers, counters...): their
        # final value is written back into the eager tensor so the next run sees it.
        srcs = dict(self.sources)
        self.writeback = [(slot_of_name[n], srcs[slot_of_name[n]]) for n in sorted(producers)
                          if n in slot_of_name and slot_of_name[n] in srcs]
        # Op results that gradients are taken with respect to (``x = assign(a)`` then
        # ``x.stop_gradient = False``) start a graph of their own when nothing upstream needs
        # gradients, as fed values do.
        grad_slots = {slot_of_name[v.name] for op in chosen if op.type == "pagaie.backward"
                      for v in op.args[1] if isinstance(v, Value) and v.name in producers}
        # What run() walks: the steps with their argument builders prebuilt and a single
        # output as its slot number.
        self._run_steps = [(op, _grad_leaf(kernel) if kernel is not None and type(outs) is _Slot
                            and outs.i in grad_slots else kernel, graph, _filler(args),
                            _filler(kwargs), outs.i if type(outs) is _Slot else outs, frees)
                           for op, kernel, graph, args, kwargs, outs, frees in self.steps]

    def run(self, feed: dict[str, torch.Tensor]) -> list[torch.Tensor]:
        slots = _initial_slots(self, feed)
        op = None
        CPU_AS_GPU["programs"] += 1  # (the kernels' dtypes were checked when the program was built)
        try:
            with torch.set_grad_enabled(self.has_backward):
                for op, kernel, graph, fill_args, fill_kwargs, outs, frees in self._run_steps:
                    if graph is not None:
                        result = graph(op, fill_args(slots), fill_kwargs(slots), self)
                    else:
                        result = kernel(*fill_args(slots), **fill_kwargs(slots))
                    if type(outs) is int:
                        slots[outs] = result
                    else:
                        _store(outs, result, slots)
                    for s in frees:
                        slots[s] = None
        except RuntimeError as exc:
            if op is not None and not hasattr(exc, "failed_op"):
                exc.failed_op = op   # for the executor's message (program_errors)
            raise
        finally:
            CPU_AS_GPU["programs"] -= 1
        _write_back(self.writeback, slots)
        return [slots[s] for s in self.fetch_slots]
