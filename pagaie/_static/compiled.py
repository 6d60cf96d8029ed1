"""The compiled executor: a Program lowered to torch.fx graphs and handed to torch.compile.

:class:`CompiledPlan` starts from the interpreter's :class:`~pagaie._static.interpreter.Plan`
(pruning, slots) and cuts its steps into *segments*: maximal runs of op-record calls.
Each segment becomes a ``torch.fx.GraphModule`` whose nodes call the records' kernels
with the recorded arguments (feeds, captured parameters and values from earlier
segments are its placeholders, so optimizer updates are seen on the next run), and
is compiled with ``torch.compile``. Graph-level ops (``pagaie.backward``, optimizer
steps, control flow, print) run between segments exactly as in the interpreter.

Training needs nothing special: the forward segment runs under autograd, so
``pagaie.backward`` differentiates through the compiled module (torch's AOTAutograd
compiles its backward too), and the optimizer step then runs eagerly.

When compilation fails (an unsupported construct, a missing compiler), the segment
falls back to its uncompiled fx module with a warning; the results are the same.
"""
from __future__ import annotations

import operator
import re
import warnings
from typing import Any, Callable, Sequence

import torch
import torch.fx

from pagaie._core.registry import suspended
from pagaie._static.interpreter import Plan, _fill, _initial_slots, _Slot, _store, _write_back
from pagaie._static.ir import Program, Value

__all__ = ["CompiledPlan", "StrategyRunner"]


# Inductor's generated CPU sampler draws one Philox block per element and runs several
# times slower than ATen's; keeping ATen's samplers also keeps paddle.seed's streams.
_INDUCTOR_OPTIONS: dict = {"fallback_random": True}


def _recompute_bool_masks_pass() -> Any:
    """A joint-graph pass marking boolean elementwise results (relu's ``x <= 0`` mask and the
    like) as recomputed in the backward rather than saved: inductor's vectorised stores of
    boolean tensors are several times slower on CPUs than recomputing the comparison inside
    the backward kernel from the float tensor that is saved anyway."""
    try:
        from torch._inductor.custom_graph_pass import CustomGraphPass
        from torch.utils.checkpoint import CheckpointPolicy
    except ImportError:
        return None

    class _RecomputeBoolMasks(CustomGraphPass):
        def __call__(self, graph: torch.fx.Graph) -> None:
            for node in graph.nodes:
                val = node.meta.get("val")
                if node.op == "call_function" and isinstance(val, torch.Tensor) and \
                        val.dtype == torch.bool and torch.Tag.pointwise in getattr(node.target, "tags", ()):
                    node.meta["recompute"] = CheckpointPolicy.PREFER_RECOMPUTE

        def uuid(self) -> str:
            return "pagaie-recompute-bool-masks-1"

    return _RecomputeBoolMasks()


def _mark_trace_constants() -> None:
    """Let dynamo evaluate the kernels' scalar helpers at trace time (marking twice is harmless)."""
    from pagaie._ops._helpers import TRACE_CONSTANTS
    for fn in TRACE_CONSTANTS:
        torch.compiler.assume_constant_result(fn)


def _inductor_options() -> dict:
    """The inductor options (built on first use: importing inductor takes about a second)."""
    if "joint_custom_pre_pass" not in _INDUCTOR_OPTIONS:
        _INDUCTOR_OPTIONS["joint_custom_pre_pass"] = _recompute_bool_masks_pass()
    return {k: v for k, v in _INDUCTOR_OPTIONS.items() if v is not None}


def _slots_in(t: Any, out: list) -> None:
    if type(t) is _Slot:
        if t.i not in out:
            out.append(t.i)
    elif type(t) in (list, tuple):
        for e in t:
            _slots_in(e, out)
    elif type(t) is dict:
        for e in t.values():
            _slots_in(e, out)
    elif type(t) is slice:
        _slots_in((t.start, t.stop, t.step), out)


def _op_function(op_type: str, index: int, kernel: Callable, args: Any, kwargs: Any,
                 reads: list[int]) -> Callable:
    """A function of the tensors a step reads that calls its kernel with the recorded call."""
    n = max(reads) + 1 if reads else 0

    def call(*tensors: Any) -> Any:
        slots: list = [None] * n
        for i, t in zip(reads, tensors):
            slots[i] = t
        return kernel(*_fill(args, slots), **_fill(kwargs, slots))

    call.__name__ = call.__qualname__ = f"op{index}_{re.sub(r'[^0-9a-zA-Z_]', '_', op_type)}"
    return call


class _Segment:
    """A run of kernel steps as one fx module (compiled lazily on first call)."""

    def __init__(self, steps: list, inputs: list[int], outputs: list[int], frees: tuple,
                 backend: str | None, first: int, cuda_graphs: bool = False) -> None:
        self.inputs, self.outputs, self.frees = inputs, outputs, frees
        self.ops = [s[0] for s in steps]
        self.backend = backend
        self.cuda_graphs = cuda_graphs
        g = torch.fx.Graph()
        env: dict[int, torch.fx.Node] = {s: g.placeholder(f"s{s}") for s in inputs}
        for k, (op, kernel, _graph, args, kwargs, outs, _frees) in enumerate(steps):
            reads: list[int] = []
            _slots_in(args, reads)
            _slots_in(kwargs, reads)
            fn = _op_function(op.type, first + k, kernel, args, kwargs, reads)
            node = g.call_function(fn, tuple(env[s] for s in reads))
            self._bind(g, outs, node, env)
        g.output(tuple(env[s] for s in outputs))
        self.gm = torch.fx.GraphModule(torch.nn.Module(), g)
        self.fn: Callable | None = None
        self.compiled = False

    @staticmethod
    def _bind(g: torch.fx.Graph, outs: Any, node: torch.fx.Node, env: dict) -> None:
        if type(outs) is _Slot:
            env[outs.i] = node
        elif type(outs) in (list, tuple):
            for i, o in enumerate(outs):
                _Segment._bind(g, o, g.call_function(operator.getitem, (node, i)), env)

    def __call__(self, *tensors: torch.Tensor) -> Any:
        if self.fn is not None:
            return self.fn(*tensors)
        if self.backend is None:
            self.fn = self.gm
            return self.gm(*tensors)
        try:
            options = None
            if self.backend == "inductor":
                options = _inductor_options()
                if self.cuda_graphs and any(isinstance(t, torch.Tensor) and t.is_cuda for t in tensors):
                    # replay the segment's kernels as one CUDA graph (torch's cudagraph trees)
                    options["triton.cudagraphs"] = True
            _mark_trace_constants()
            compiled = torch.compile(self.gm, backend=self.backend, dynamic=None, options=options)
            out = compiled(*tensors)
        except Exception as exc:  # noqa: BLE001 - any compiler failure: run the fx module
            out = self.gm(*tensors)  # a genuine error in the program raises here
            warnings.warn(f"paddle.static: compiling a segment of {len(self.ops)} ops with "
                          f"torch.compile(backend={self.backend!r}) failed "
                          f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                          "running it uncompiled", RuntimeWarning, stacklevel=3)
            self.fn = self.gm
            return out
        self.fn = compiled
        self.compiled = True
        return out


class CompiledPlan:
    """A program's schedule with its kernel runs compiled by ``torch.compile``.

    Args:
        program (Program): the program (global block).
        feed_names (list[str]): names of the fed values.
        fetch_values (list[Value]): the values to return.
        backend (str|None): the ``torch.compile`` backend (``'inductor'``, ``'eager'``,
            ``'aot_eager'``...); None runs the fx modules uncompiled.
        cuda_graphs (bool): on CUDA with inductor, replay each compiled segment as a CUDA
            graph (``BuildStrategy.allow_cuda_graph_capture``): one launch instead of one
            per kernel. Fetched values are copied out, since the next run overwrites the
            graphs' output buffers.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> from pagaie._static.compiled import CompiledPlan
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('x', [2, 2], 'float32')
        ...     y = paddle.nn.functional.relu(x * 2.0 - 1.0)
        >>> paddle.disable_static()
        >>> plan = CompiledPlan(main, ['x'], [y], backend=None)
        >>> plan.run({'x': paddle.ones([2, 2])._t})[0].tolist()
        [[1.0, 1.0], [1.0, 1.0]]
    """

    def __init__(self, program: Program, feed_names: Sequence[str], fetch_values: Sequence[Value],
                 backend: str | None = "inductor", cuda_graphs: bool = False) -> None:
        self.plan = plan = Plan(program, list(feed_names), list(fetch_values))
        self.version = plan.version
        self.feed_names = list(feed_names)
        self.backend = backend
        self.cuda_graphs = cuda_graphs and backend == "inductor"
        steps = plan.steps
        # Slots read by each step (for liveness across segments).
        reads_of = []
        for st in steps:
            r: list[int] = []
            _slots_in(st[3], r)
            _slots_in(st[4], r)
            reads_of.append(r)
        must_keep = set(plan.fetch_slots) | {s for s, _ in getattr(plan, "writeback", ())}
        self.schedule: list[tuple[str, Any]] = []
        i = 0
        while i < len(steps):
            if steps[i][2] is not None:  # a graph op: runs as in the interpreter
                self.schedule.append(("graph", steps[i]))
                i += 1
                continue
            j = i
            while j < len(steps) and steps[j][2] is None:
                j += 1
            seg = steps[i:j]
            written: set[int] = set()
            inputs: list[int] = []
            for k in range(i, j):
                for s in reads_of[k]:
                    if s not in written and s not in inputs:
                        inputs.append(s)
                outs: list[int] = []
                _slots_in(steps[k][5], outs)
                written.update(outs)
            later = set(must_keep)
            for k in range(j, len(steps)):
                later.update(reads_of[k])
            outputs = sorted(s for s in written if s in later)
            frees = tuple(sorted({s for st in seg for s in st[6]}))
            self.schedule.append(("segment", _Segment(seg, inputs, outputs, frees, backend, i,
                                                      self.cuda_graphs)))
            i = j

    @property
    def segments(self) -> list[_Segment]:
        return [x for kind, x in self.schedule if kind == "segment"]

    def run(self, feed: Any) -> list[torch.Tensor]:
        """Run with ``feed`` (name -> torch tensor, or tensors in ``feed_names`` order)."""
        if not isinstance(feed, dict):
            feed = dict(zip(self.feed_names, feed))
        plan = self.plan
        slots = _initial_slots(plan, feed)
        if self.cuda_graphs:
            torch.compiler.cudagraph_mark_step_begin()  # one run is one step of the graph trees
        with suspended(), torch.set_grad_enabled(plan.has_backward):
            for kind, item in self.schedule:
                if kind == "segment":
                    outs = item(*[slots[s] for s in item.inputs])
                    for s, t in zip(item.outputs, outs):
                        slots[s] = t
                    frees = item.frees
                else:
                    op, _kernel, graph, args, kwargs, outs_t, frees = item
                    _store(outs_t, graph(op, _fill(args, slots), _fill(kwargs, slots), plan), slots)
                for s in frees:
                    slots[s] = None
        _write_back(getattr(plan, "writeback", ()), slots)
        fetched = [slots[s] for s in plan.fetch_slots]
        if self.cuda_graphs:
            fetched = [t.clone() if isinstance(t, torch.Tensor) and t.is_cuda else t for t in fetched]
        return fetched


class StrategyRunner:
    """What a ``CompiledProgram`` runs: the passes a ``BuildStrategy`` asks for, then the
    interpreter (with buffer reuse when ``enable_inplace``/``memory_optimize``) or, with
    ``build_cinn_pass``, the compiled executor.

    ``Executor.run`` calls ``_run(tensors, fetch)`` on anything with a ``_program``
    attribute, so a ``CompiledProgram`` can hold one of these and delegate to it.

    Args:
        program (Program): the user's program (never modified).
        build_strategy (BuildStrategy, optional): the switches.
        backend (str, optional): the ``torch.compile`` backend for ``build_cinn_pass``.
    """

    def __init__(self, program: Program, build_strategy: Any = None,
                 backend: str | None = "inductor") -> None:
        self._program = program
        self.build_strategy = build_strategy
        self.backend = backend
        self._plans: dict = {}

    def plan_for(self, feed_names: Sequence[str], fetch: Sequence[Value]) -> Any:
        from pagaie._static.passes import apply_build_strategy
        prog = self._program
        key = (prog.version, tuple(sorted(feed_names)), tuple(v.name for v in fetch))
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) > 16:
                self._plans.clear()
            bs = self.build_strategy
            opt = apply_build_strategy(prog, bs, keep=[v.name for v in fetch])
            gb = opt.global_block()
            fetch2 = [gb.var(v.name) for v in fetch]
            if bs is not None and getattr(bs, "build_cinn_pass", False):
                plan = CompiledPlan(opt, list(feed_names), fetch2, backend=self.backend,
                                    cuda_graphs=bool(getattr(bs, "allow_cuda_graph_capture", False)))
            else:
                reuse = bs is None or bool(getattr(bs, "enable_inplace", True)) or \
                    bool(getattr(bs, "memory_optimize", False))
                plan = Plan(opt, list(feed_names), fetch2, reuse_buffers=reuse)
            self._plans[key] = plan
        return plan

    def _run(self, tensors: dict, fetch: Sequence[Value]) -> list:
        return self.plan_for(sorted(tensors), fetch).run(tensors)
