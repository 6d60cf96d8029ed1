"""The pass engine: (pattern, rewrite) rules over a Program's blocks, run to a fixed point.

A :class:`Rule` has ``match(op, ctx)`` (falsy: no match; anything else is handed
to ``rewrite``) and ``rewrite(op, match, ctx)``, which edits the program through
the :class:`PassContext` helpers. A :class:`Pass` is a named list of rules,
registered with :func:`register_pass`; :func:`run_passes` runs each pass's rules
over every block until none fires, and in debug mode (``PAGAIE_DEBUG_PASSES=1`` or
``debug=True``) runs the verifier after each pass.

Programs are in call order and not strict SSA: an in-place call re-defines its
first input. Rules therefore see a position-aware :class:`Analysis`: definitions
and uses of each value over all blocks, and *barriers* (graph-level ``pagaie.*``
ops, re-definitions, ops that mutate an argument). The helpers refuse the moves
that would be wrong: computation is only moved forward over ops that are not
barriers, and values defined more than once are never rewritten.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Iterable, Sequence

import torch

from pagaie._core.parameter import Parameter
from pagaie._core.registry import REGISTRY
from pagaie._core.tensor import Tensor
from pagaie._static.ir import Block, Operator, Program, Value, _values_in, map_values

__all__ = ["Rule", "Pass", "PassContext", "Analysis", "PASSES", "register_pass", "run_passes",
           "clone_program", "is_graph_op", "GRAPH_SIDE_EFFECTS", "is_barrier", "is_pure", "is_impure", "mutates", "redefines",
           "bound", "rebind", "debug_enabled"]


# ---- op properties ------------------------------------------------------------------

# Ops whose results are not a function of their arguments (random draws, uninitialised
# memory): never folded nor merged by CSE. Records may also say so with
# ``defop(..., impure=True)`` (kept in ``OpRecord.extra``).
_IMPURE_NAMES = frozenset({
    "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
    "rrelu", "gumbel_softmax", "fractional_max_pool2d", "fractional_max_pool3d", "empty",
    "empty_like", "multinomial", "poisson", "standard_gamma", "exponential_", "class_center_sample",
})
_IMPURE_MODULES = frozenset({"pagaie._ops.random"})


def is_graph_op(op: Operator) -> bool:
    """A graph-level op (``pagaie.*``): backward, optimizer steps, control flow, print."""
    return op.type.startswith("pagaie.") or op.type not in REGISTRY


def is_impure(op: Operator) -> bool:
    """The op's result is not a function of its arguments (random, uninitialised)."""
    rec = REGISTRY.get(op.type)
    if rec is None:
        return True
    if rec.extra.get("impure"):
        return True
    return rec.name in _IMPURE_NAMES or getattr(rec.kernel, "__module__", "") in _IMPURE_MODULES


def bound(op: Operator) -> dict:
    """The op's arguments by parameter name (defaults applied); {} if they do not bind."""
    rec = REGISTRY.get(op.type)
    if rec is None:
        return {}
    try:
        return dict(rec.bind(op.args, op.kwargs).arguments)
    except TypeError:
        return {}


def rebind(op_type: str, args: list, kwargs: dict, **changes: Any) -> tuple[list, dict]:
    """``(args, kwargs)`` of a call to ``op_type`` with some named arguments changed."""
    ba = REGISTRY[op_type].signature.bind(*args, **kwargs)
    ba.apply_defaults()
    for k, v in changes.items():
        ba.arguments[k] = v
    return list(ba.args), dict(ba.kwargs)


def redefines(op: Operator) -> bool:
    """The op re-defines one of its inputs (an in-place call)."""
    ins = {id(v) for v in op.input_values()}
    return any(id(v) in ins for v in op.output_values())


def mutates(op: Operator) -> bool:
    """The op writes into one of its tensor arguments (``out=``, batch norm statistics, the
    arguments a record lists in ``writes_args``, such as a fake quantizer's moving scale)."""
    if op.kwargs.get("out") is not None or op.kwargs.get("output") is not None:
        return True
    rec = REGISTRY.get(op.type)
    written = rec.extra.get("writes_args") if rec is not None else None
    if written:
        b = bound(op)
        return any(isinstance(b.get(name), Value) for name in written)
    if op.type in ("batch_norm", "instance_norm", "fused_conv2d_bn_act"):
        b = bound(op)
        if op.type == "instance_norm":
            return b.get("running_mean") is not None and bool(b.get("use_input_stats", True))
        if op.type == "fused_conv2d_bn_act" and not b.get("use_bn", True):
            return False
        ugs = b.get("use_global_stats")
        return (not ugs) if ugs is not None else bool(b.get("training", False))
    return False


def GRAPH_SIDE_EFFECTS(op: Operator) -> bool:  # noqa: N802 - reads like the table it asks
    """Whether a graph-level op has an effect beyond its outputs (unknown ones: yes); control
    flow has one when an op of its branches or loop body has (a ``print``, an ``assert``)."""
    from pagaie._static.interpreter import GRAPH_OPS
    runner = GRAPH_OPS.get(op.type)
    if runner is None or bool(getattr(runner, "side_effect", True)):
        return True
    return any(GRAPH_SIDE_EFFECTS(o) if is_graph_op(o) else is_barrier(o)
               for b in op.blocks() for o in b.ops)


def is_barrier(op: Operator) -> bool:
    """Nothing is moved across this op: graph ops, re-definitions, mutating ops."""
    return is_graph_op(op) or redefines(op) or mutates(op)


def is_pure(op: Operator) -> bool:
    """Removing or merging the op cannot change anything but its own outputs."""
    return not is_barrier(op)


def debug_enabled() -> bool:
    return os.environ.get("PAGAIE_DEBUG_PASSES", "") not in ("", "0")


# ---- analysis ---------------------------------------------------------------------------

def _names_in(v: Any, out: set) -> None:
    if isinstance(v, str):
        out.add(v)
    elif isinstance(v, (list, tuple)):
        for e in v:
            _names_in(e, out)
    elif isinstance(v, dict):
        for e in v.values():
            _names_in(e, out)


class Analysis:
    """Definitions, uses and positions of every value, over all blocks of a program."""

    def __init__(self, program: Program) -> None:
        self.defs: dict[int, list[Operator]] = {}
        self.uses: dict[int, list[Operator]] = {}
        self.pos: dict[int, int] = {}
        self.attr_names: set[str] = set()  # value names that graph ops refer to by name
        self.has_training = False
        for b in program.blocks:
            for i, op in enumerate(b.ops):
                self.pos[id(op)] = i
                for v in op.input_values():
                    self.uses.setdefault(id(v), []).append(op)
                for v in op.output_values():
                    self.defs.setdefault(id(v), []).append(op)
                if op.attrs:
                    _names_in({k: v for k, v in op.attrs.items() if not k.startswith("_")},
                              self.attr_names)
                if op.type in ("pagaie.backward", "pagaie.optimizer_step"):
                    self.has_training = True

    def n_defs(self, v: Value) -> int:
        return len(self.defs.get(id(v), ()))

    def producer(self, v: Value) -> Operator | None:
        """The op defining ``v`` when exactly one does."""
        d = self.defs.get(id(v), ())
        return d[0] if len(d) == 1 else None

    def users(self, v: Value) -> list[Operator]:
        return self.uses.get(id(v), [])

    def only_user(self, v: Value, op: Operator) -> bool:
        """``op`` is the only op reading ``v`` (it may read it several times)."""
        us = self.users(v)
        return bool(us) and all(u is op for u in us)

    def position(self, op: Operator) -> int:
        return self.pos[id(op)]

    def barrier_between(self, block: Block, first: Operator, last: Operator,
                        values: Iterable[Value] | None = None) -> bool:
        """Whether a barrier op stands strictly between ``first`` and ``last`` in ``block``.

        With ``values`` (the inputs of the computation to move), an in-place or mutating
        op only counts when it touches one of them; graph ops always count.
        """
        i, j = self.position(first), self.position(last)
        ids = None if values is None else {id(v) for v in values}
        for o in block.ops[i + 1:j]:
            if is_graph_op(o):
                return True
            if is_barrier(o) and (ids is None or any(id(v) in ids for v in o.input_values())):
                return True
        return False


# ---- context and rewrite helpers -----------------------------------------------------------

class PassContext:
    """What rules see: the program, the analysis, the observable values, and edit helpers.

    Attributes:
        program (Program): the program being rewritten.
        observable (set[str]): names that must stay computable (fetch targets), plus the
            names graph ops refer to by name.
        stats (dict[str, int]): rewrites per rule name.
    """

    def __init__(self, program: Program, keep: Iterable[str] | None = None) -> None:
        self.program = program
        self._analysis: Analysis | None = None
        a = self.analysis
        if keep is None:
            # Unknown fetches: the program's results (values nothing reads) stay.
            keep = [v.name for b in program.blocks for v in b.vars.values()
                    if not a.users(v) and a.n_defs(v)]
        self.keep = set(keep)
        self.stats: dict[str, int] = {}
        # Inputs the program reads without defining them (feeds, captured tensors):
        # the verifier accepts exactly these as free.
        self.free_inputs = {v.name for b in program.blocks for op in b.ops for v in op.input_values()
                            if not a.n_defs(v)}

    @property
    def analysis(self) -> Analysis:
        if self._analysis is None:
            self._analysis = Analysis(self.program)
        return self._analysis

    def invalidate(self) -> None:
        self._analysis = None

    def observable(self, v: Value) -> bool:
        return v.name in self.keep or v.name in self.analysis.attr_names

    # -- questions rules ask --------------------------------------------------------------
    def fusable_producer(self, v: Value, consumer: Operator) -> Operator | None:
        """The op defining ``v`` if its computation may move into ``consumer``.

        True when ``v`` has a single definition, in the consumer's block and before it,
        is read by ``consumer`` alone, is not observable, and no barrier stands between.
        """
        a = self.analysis
        p = a.producer(v)
        if p is None or p.block is not consumer.block or is_graph_op(p) or redefines(p):
            return None
        if a.position(p) >= a.position(consumer) or not a.only_user(v, consumer):
            return None
        if self.observable(v) or a.barrier_between(consumer.block, p, consumer, p.input_values()):
            return None
        if mutates(p):
            # It writes into its arguments (batch norm statistics): it may move only if
            # nothing in between reads what it writes.
            touched = {id(x) for x in p.input_values()}
            i, j = a.position(p), a.position(consumer)
            if any(id(x) in touched for o in consumer.block.ops[i + 1:j] for x in o.input_values()):
                return None
        return p

    @staticmethod
    def is_constant(v: Any) -> bool:
        """A captured eager tensor that no run changes: not a parameter, not persistable,
        not differentiated."""
        return (isinstance(v, Value) and v.source is not None and not isinstance(v.source, Parameter)
                and not v.persistable and v.stop_gradient)

    def is_frozen(self, v: Any) -> bool:
        """A captured tensor (parameters included) that this program never re-defines."""
        return isinstance(v, Value) and v.source is not None and not self.analysis.n_defs(v)

    # -- edits ---------------------------------------------------------------------------------
    def insert_op(self, block: Block, index: int, type: str, args: list, kwargs: dict, outputs: Any,
                  attrs: dict | None = None) -> Operator:
        op = Operator(block, type, args, kwargs, outputs, attrs)
        for v in op.output_values():
            v.op = op
        block.ops.insert(index, op)
        self.program._bump()
        self.invalidate()
        return op

    def replace_op(self, old: Operator, type: str, args: list, kwargs: dict, outputs: Any = None,
                   attrs: dict | None = None, remove: Sequence[Operator] = ()) -> Operator:
        """Put a new op where ``old`` is (keeping ``old``'s outputs by default); drop ``remove``."""
        block = old.block
        outputs = old.outputs if outputs is None else outputs
        index = block.ops.index(old)
        block.ops.pop(index)
        new = self.insert_op(block, index, type, args, kwargs, outputs, attrs)
        for r in remove:
            self.remove_op(r)
        return new

    def remove_op(self, op: Operator) -> None:
        op.block.ops.remove(op)
        for v in op.output_values():
            if v.op is op:
                v.op = None
        self.program._bump()
        self.invalidate()

    def replace_uses(self, old: Value, new: Value) -> None:
        """Make every op (all blocks) read ``new`` where it read ``old``."""
        def sub(x: Any) -> Any:
            return map_values(x, lambda v: new if v is old else v)
        for op in list(self.analysis.users(old)):
            op.args = sub(op.args)
            op.kwargs = sub(op.kwargs)
        self.program._bump()
        self.invalidate()

    def new_constant(self, data: torch.Tensor, prefix: str, persistable: bool = False) -> Value:
        """A captured constant in the global block holding ``data`` (an eager tensor)."""
        t = Tensor(data.detach())
        t.stop_gradient = True
        gb = self.program.global_block()
        v = gb.create_var(self.program.unique_name(prefix), list(data.shape), t.dtype,
                          stop_gradient=True, persistable=persistable)
        v.source = t
        self.program._bump()
        return v


# ---- rules and passes ------------------------------------------------------------------------

class Rule:
    """A (pattern, rewrite) pair. Subclasses set ``name`` and implement both methods."""

    name = "rule"

    def match(self, op: Operator, ctx: PassContext) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def rewrite(self, op: Operator, m: Any, ctx: PassContext) -> None:  # pragma: no cover
        raise NotImplementedError


class Pass:
    """A named set of rules run to a fixed point.

    Args:
        name (str): the registered name.
        rules (list[Rule]): tried in order on every op of every block.
        applies (callable, optional): ``applies(ctx) -> bool``; the pass is skipped when false.
        blocks (str): ``'all'`` or ``'global'`` (only block 0).
    """

    max_rewrites = 100_000

    def __init__(self, name: str, rules: Sequence[Rule], applies: Callable | None = None,
                 blocks: str = "all", doc: str = "") -> None:
        self.name = name
        self.rules = list(rules)
        self.applies = applies
        self.blocks = blocks
        self.__doc__ = doc

    def run(self, ctx: PassContext) -> int:
        """Apply the rules until none matches; returns the number of rewrites."""
        if self.applies is not None and not self.applies(ctx):
            return 0
        total = 0
        changed = True
        while changed:
            changed = False
            blocks = ctx.program.blocks if self.blocks == "all" else ctx.program.blocks[:1]
            for block in blocks:
                i = 0
                while i < len(block.ops):
                    op = block.ops[i]
                    for rule in self.rules:
                        m = rule.match(op, ctx)
                        if m:
                            rule.rewrite(op, m, ctx)
                            ctx.stats[rule.name] = ctx.stats.get(rule.name, 0) + 1
                            total += 1
                            changed = True
                            if total > self.max_rewrites:
                                raise RuntimeError(f"pass {self.name!r} did not reach a fixed point")
                            break
                    i += 1
        return total

    def __repr__(self) -> str:
        return f"Pass({self.name!r}, rules={[r.name for r in self.rules]})"


PASSES: dict[str, Pass] = {}


def register_pass(p: Pass) -> Pass:
    """Register ``p`` under its name (names are unique)."""
    if p.name in PASSES:
        raise ValueError(f"pass {p.name!r} is registered twice")
    PASSES[p.name] = p
    return p


def run_passes(program: Program, names: Sequence[str], keep: Iterable[str] | None = None,
               debug: bool | None = None) -> dict[str, int]:
    """Run the named passes in order over ``program`` (in place).

    Args:
        program (Program): rewritten in place (see :func:`clone_program`).
        names (list[str]): registered pass names.
        keep (iterable[str], optional): names of values that must stay computable (the
            fetch targets); by default the values no op reads.
        debug (bool, optional): verify the program after each pass; default from
            ``PAGAIE_DEBUG_PASSES``.

    Returns:
        dict[str, int]: rewrites per rule name.
    """
    from pagaie._static.verifier import verify
    debug = debug_enabled() if debug is None else debug
    ctx = PassContext(program, keep)
    for name in names:
        if name not in PASSES:
            raise ValueError(f"unknown pass {name!r}; registered: {sorted(PASSES)}")
        PASSES[name].run(ctx)
        if debug:
            errors = verify(program, free_inputs=ctx.free_inputs)
            if errors:
                raise AssertionError(f"pass {name!r} produced an invalid program:\n  " +
                                     "\n  ".join(errors))
    return ctx.stats


# ---- cloning ----------------------------------------------------------------------------------

def clone_program(program: Program) -> Program:
    """A structural copy of ``program``: new blocks, ops and values with the same names.

    Captured eager tensors (``Value.source``) and op attributes (an optimizer...) are
    shared, so the copy reads the same parameters as the original.
    """
    new = Program()
    new.random_seed = program.random_seed
    for b in program.blocks[1:]:
        new.create_block(b.parent_idx)
    vmap: dict[int, Value] = {}
    for b, nb in zip(program.blocks, new.blocks):
        for v in b.vars.values():
            nv = nb.create_var(v.name, list(v.shape), v.dtype, v.stop_gradient, v.persistable)
            nv._t, nv._dims = v._t, list(v.shape)  # same meta tensor: placeholder sizes included
            nv.source = v.source
            nv.is_data, nv._cut = v.is_data, v._cut
            vmap[id(v)] = nv

    def sub(x: Any) -> Any:
        return map_values(x, lambda v: vmap.get(id(v), v))

    for b, nb in zip(program.blocks, new.blocks):
        for op in b.ops:
            nb.append_op(op.type, sub(op.args), sub(op.kwargs), sub(op.outputs), dict(op.attrs))
    cap = program.__dict__.get("_captured")
    if cap:
        new.__dict__["_captured"] = {k: vmap[id(v)] for k, v in cap.items() if id(v) in vmap}
    return new


def values_of(x: Any) -> list[Value]:
    return list(_values_in(x))
