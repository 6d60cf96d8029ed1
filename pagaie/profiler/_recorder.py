"""Recording: the op handler, user ranges and the torch profiler underneath.

While a :class:`Recorder` records, a dispatcher handler times every op call under
its Paddle name (``'matmul dygraph'``) and opens a ``torch.profiler.record_function``
of the same name, so torch's profiler, running alongside, captures the ATen calls,
GPU kernels and memory events underneath. Layer forwards, backward passes and
optimizer steps are marked by wrapping ``Layer.__call__``, ``Tensor.backward`` and
``Optimizer.step`` for the recording's duration only. Nothing is installed when no
profiler records, so the cost is nil then.

At stop, our host events and torch's events are merged into one event tree per
thread (:class:`~pagaie.profiler._nodes.HostNode`), the content of a
:class:`~pagaie.profiler.result.ProfilerResult`.
"""
from __future__ import annotations

import os
import threading
import time
import warnings
from collections import defaultdict
from typing import Any, Callable

import torch

from pagaie._core.registry import OpRecord, pop_handler, push_handler
from pagaie._core.tensor import Tensor
from pagaie.profiler._nodes import (DeviceNode, HostNode, MemNode, TracerEventType, TracerMemEventType,
                                    innermost, nest)

_time_ns = time.time_ns
_tid = threading.get_native_id
_record_function = torch.autograd.profiler.record_function

# The recorder now recording (None when none): read by RecordEvent and the hooks.
ACTIVE: Recorder | None = None

_LABELS: dict[str, str] = {}


def op_label(rec: OpRecord) -> str:
    """An op's name as Paddle's dynamic-graph profiler shows it (``'add'``, ``'matmul'``).

    Paddle 3 names eager ops by their PIR name, so the ``pd_op.*`` entry of the
    record's ``paddle_types`` wins; ops without one keep their own name.
    """
    label = _LABELS.get(rec.name)
    if label is None:
        pir = [n[6:] for n in rec.paddle_types if n.startswith("pd_op.")]
        label = _LABELS[rec.name] = pir[0] if pir else rec.name
    return label


def _shape_info(rec: OpRecord, args: tuple, kwargs: dict) -> tuple[dict, dict]:
    shapes: dict[str, list] = {}
    dtypes: dict[str, list] = {}
    try:
        bound = rec.signature.bind_partial(*args, **kwargs).arguments
    except TypeError:
        bound = {f"x{i}": a for i, a in enumerate(args)}
    for k, v in bound.items():
        vals = v if isinstance(v, (list, tuple)) else (v,)
        ts = [e for e in vals if isinstance(e, Tensor)]
        if ts:
            shapes[k] = [list(t._t.shape) for t in ts]
            dtypes[k] = [t.dtype.name for t in ts]
    return shapes, dtypes


class _Range:
    """An open host range: our timing plus, when torch's profiler runs, its record_function."""

    __slots__ = ("name", "type", "start", "rf", "recorder", "session")

    def __init__(self, recorder: Recorder, name: str, type: TracerEventType) -> None:
        self.recorder = recorder
        self.session = recorder.session
        self.name = name
        self.type = type
        self.rf = None
        self.start = _time_ns()
        if recorder.torch_prof is not None:
            recorder.rf_names.add(name)
            self.rf = _record_function(name)
            self.rf.__enter__()

    def close(self) -> None:
        if self.rf is not None:
            self.rf.__exit__(None, None, None)
            self.rf = None
        end = _time_ns()
        rec = self.recorder
        if rec.recording and rec.session == self.session:  # a range that outlives its session is dropped
            rec.events.append((self.name, self.type, self.start, end, _tid(), None))


class Recorder:
    """One profiling session of a Profiler: prepare, start, stop (Paddle's ``_Profiler``)."""

    def __init__(self, targets: set, record_shapes: bool = False, profile_memory: bool = False,
                 with_flops: bool = False, emit_nvtx: bool = False) -> None:
        self.targets = targets
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_flops = with_flops
        self.emit_nvtx = emit_nvtx
        self.events: list[tuple] = []
        self.rf_names: set[str] = set()
        self.torch_prof: Any = None
        self.recording = False
        self.session = 0
        self._patches: list[tuple[Any, str, Any, bool]] = []
        self._nvtx: Any = None
        self._t0 = 0
        self._cpu0 = 0.0

    # ---- the op handler ------------------------------------------------------------
    def handler(self, rec: OpRecord, args: tuple, kwargs: dict, proceed: Callable) -> Any:
        name = op_label(rec) + " dygraph"
        rf = None
        # Our range encloses torch's record_function, so torch's events nest inside it.
        start = _time_ns()
        if self.torch_prof is not None:
            self.rf_names.add(name)
            rf = _record_function(name)
            rf.__enter__()
        try:
            return proceed(args, kwargs)
        finally:
            if rf is not None:
                rf.__exit__(None, None, None)
            end = _time_ns()
            info = _shape_info(rec, args, kwargs) if self.record_shapes else None
            self.events.append((name, TracerEventType.Operator, start, end, _tid(), info))

    # ---- lifecycle -------------------------------------------------------------------
    def prepare(self) -> None:
        """Get ready to record (nothing to warm up: torch's profiler starts in :meth:`start`)."""

    def start(self) -> None:
        global ACTIVE
        if self.recording:
            return
        if ACTIVE is not None and ACTIVE is not self:
            raise RuntimeError("paddle.profiler.Profiler: another Profiler is already recording; "
                               "stop it before starting a new one")
        self.events = []
        self.rf_names = set()
        self.session += 1
        self.torch_prof = self._start_torch()
        if self.emit_nvtx and torch.cuda.is_available():
            try:
                nvtx = torch.autograd.profiler.emit_nvtx(record_shapes=self.record_shapes)
                nvtx.__enter__()
                self._nvtx = nvtx
            except RuntimeError as exc:
                warnings.warn(f"paddle.profiler: NVTX ranges are unavailable here ({exc})")
        self._install()
        push_handler(self.handler)
        self.recording = True
        ACTIVE = self
        self._t0 = _time_ns()
        self._cpu0 = time.process_time()

    def stop(self) -> Any:
        """Stop recording and return the :class:`ProfilerResult`."""
        global ACTIVE
        from pagaie.profiler.result import ProfilerResult
        if not self.recording:
            return None
        t1, cpu1 = _time_ns(), time.process_time()
        pop_handler(self.handler)
        self._uninstall()
        ACTIVE = None
        self.recording = False
        if self._nvtx is not None:
            self._nvtx.__exit__(None, None, None)
            self._nvtx = None
        prof, self.torch_prof = self.torch_prof, None
        if prof is not None:
            prof.__exit__(None, None, None)
        data = self._build(prof)
        wall = max(t1 - self._t0, 1)
        extra = {str(t): name for t, name in _thread_names().items() if t in data}
        extra["Process Cpu Utilization"] = f"{(cpu1 - self._cpu0) * 1e9 / wall:.6f}"
        extra["System Cpu Utilization"] = _system_utilization()
        return ProfilerResult(data, extra)

    def _start_torch(self) -> Any:
        from pagaie.profiler.profiler import ProfilerTarget
        acts = [torch.profiler.ProfilerActivity.CPU]
        if ProfilerTarget.GPU in self.targets and torch.cuda.is_available():
            acts.append(torch.profiler.ProfilerActivity.CUDA)
        try:
            prof = torch.profiler.profile(activities=acts, record_shapes=self.record_shapes,
                                          profile_memory=self.profile_memory,
                                          with_flops=bool(self.with_flops))
            prof.__enter__()
        except Exception as exc:  # noqa: BLE001 - degrade to our own op timing
            warnings.warn(f"paddle.profiler: kernel-level profiling is unavailable ({exc}); "
                          "recording operator times only")
            return None
        return prof

    # ---- Forward / Backward / Optimization / Dataloader marks ---------------------------
    def _patch(self, owner: Any, attr: str, make: Callable[[Callable], Callable]) -> None:
        had = attr in vars(owner)
        orig = getattr(owner, attr)
        setattr(owner, attr, make(orig))
        self._patches.append((owner, attr, orig, had))

    def _install(self) -> None:
        from pagaie import autograd
        from pagaie.nn import Layer
        from pagaie import optimizer as opt_mod

        def ranged(name_of: Callable[[Any], str], type_: TracerEventType) -> Callable:
            def make(orig: Callable) -> Callable:
                def wrapper(*args: Any, **kwargs: Any) -> Any:
                    rec = ACTIVE
                    if rec is None:
                        return orig(*args, **kwargs)
                    r = _Range(rec, name_of(args), type_)
                    try:
                        return orig(*args, **kwargs)
                    finally:
                        r.close()
                return wrapper
            return make

        self._patch(Layer, "__call__", ranged(lambda a: type(a[0]).__name__, TracerEventType.Forward))
        self._patch(Tensor, "backward", ranged(lambda a: "Gradient Backward", TracerEventType.Backward))
        self._patch(autograd, "backward", ranged(lambda a: "Gradient Backward", TracerEventType.Backward))
        seen = set()
        for cname in getattr(opt_mod, "__all__", ()):
            cls = getattr(opt_mod, cname, None)
            for klass in getattr(cls, "__mro__", ()):
                if "step" in vars(klass) and klass not in seen and klass.__module__.startswith("pagaie"):
                    seen.add(klass)
                    self._patch(klass, "step", ranged(lambda a: "Optimization Step",
                                                      TracerEventType.Optimization))

    def _uninstall(self) -> None:
        for owner, attr, orig, had in reversed(self._patches):
            if had:
                setattr(owner, attr, orig)
            else:
                delattr(owner, attr)
        self._patches = []

    # ---- merging into trees --------------------------------------------------------------
    def _build(self, prof: Any) -> dict[int, HostNode]:
        pid = os.getpid()
        by_tid: dict[int, list[HostNode]] = defaultdict(list)
        ours_by_name: dict[str, list[HostNode]] = defaultdict(list)
        for name, type_, start, end, tid, info in self.events:
            n = HostNode(name, type_, start, end, pid, tid)
            if info is not None:
                n.input_shapes, n.dtypes = info
            by_tid[tid].append(n)
            if name in self.rf_names:
                ours_by_name[name].append(n)
        if prof is not None:
            try:
                raw = prof.profiler.kineto_results.events()
            except Exception:  # noqa: BLE001 - no kernel detail then
                raw = []
            _merge_torch(raw, by_tid, ours_by_name, pid)
        data = {}
        for tid, nodes in by_tid.items():
            real = [n for n in nodes if not isinstance(n, _Pending)]
            if not real:
                continue
            root = HostNode(f"Thread {tid}", TracerEventType.UserDefined,
                            min(n.start_ns for n in real), max(n.end_ns for n in real), pid, tid)
            data[tid] = nest(real, root)
        for tid, nodes in by_tid.items():
            for p in nodes:
                if isinstance(p, _Pending):
                    p.attach(data.get(tid) or next(iter(data.values()), None))
        return data


class _Pending:
    """A device or memory event waiting for its host node."""

    def __init__(self, t_ns: int, item: Any, host: HostNode | None = None) -> None:
        self.t_ns = t_ns
        self.item = item
        self.host = host

    def attach(self, root: HostNode | None) -> None:
        node = self.host if self.host is not None else (innermost(root, self.t_ns) if root else None)
        if node is None:
            return
        (node.mem_node if isinstance(self.item, MemNode) else node.device_node).append(self.item)


_ENGINE = "autograd::engine::evaluate_function: "


def _merge_torch(raw: list, by_tid: dict, ours_by_name: dict, pid: int) -> None:
    """Add torch's events to our per-thread node lists, on our threads and clock."""
    cpu = torch.autograd.DeviceType.CPU
    host_raw, device_raw = [], []
    for e in raw:
        if e.name() == "[memory]" or e.device_type() == cpu:
            host_raw.append(e)
        else:
            device_raw.append(e)
    # Pair torch's record_function events with ours (same name, same order): this maps
    # torch's thread ids to ours, and each pair's start offset carries torch's events
    # inside it onto our clock.
    theirs_by_name: dict[str, list] = defaultdict(list)
    for e in host_raw:
        if e.name() in ours_by_name:
            theirs_by_name[e.name()].append(e)
    thread_map: dict[int, int] = {}
    pair_offset: dict[int, int] = {}
    for name, theirs in theirs_by_name.items():
        theirs.sort(key=lambda e: e.start_ns())
        ours = sorted(ours_by_name[name], key=lambda n: n.start_ns)
        for t, o in zip(theirs, ours):
            thread_map.setdefault(t.start_thread_id(), o.thread_id)
            pair_offset[id(t)] = o.start_ns - t.start_ns()
    offsets = sorted(pair_offset.values())
    shift = offsets[len(offsets) // 2] if offsets else 0
    main = next(iter(by_tid), _tid())
    engine_nodes = {e.name()[len(_ENGINE):] for e in host_raw if e.name().startswith(_ENGINE)}
    by_corr: dict[int, HostNode] = {}
    shift_of: dict[int, int] = {}
    stacks: dict[int, list] = defaultdict(list)
    mem: list[tuple[Any, int]] = []
    for e in sorted(host_raw, key=lambda e: (e.start_ns(), -e.end_ns())):
        stack = stacks[e.start_thread_id()]
        while stack and e.start_ns() > stack[-1][0]:
            stack.pop()
        off = pair_offset.get(id(e), stack[-1][1] if stack else shift)
        name = e.name()
        if name == "[memory]":
            mem.append((e, off))
            continue
        stack.append((e.end_ns(), off))
        if id(e) in pair_offset or name in engine_nodes:
            continue
        if name.startswith(_ENGINE):
            name, type_ = name[len(_ENGINE):], TracerEventType.Operator
        elif name.startswith(("cuda", "hip")):
            type_ = TracerEventType.CudaRuntime
        else:
            type_ = TracerEventType.OperatorInner
        tid = thread_map.get(e.start_thread_id())
        if tid is None:
            tid = thread_map[e.start_thread_id()] = -int(e.start_thread_id()) or main
        n = HostNode(name, type_, e.start_ns() + off, e.end_ns() + off, pid, tid)
        n.flops = int(e.flops() or 0)
        by_tid[tid].append(n)
        by_corr[e.correlation_id()] = n
        shift_of[e.correlation_id()] = off
    for e in device_raw:
        name = e.name()
        low = name.lower()
        type_ = (TracerEventType.Memcpy if low.startswith("memcpy") else
                 TracerEventType.Memset if low.startswith("memset") else TracerEventType.Kernel)
        off = shift_of.get(e.linked_correlation_id(), shift)
        d = DeviceNode(name, type_, e.start_ns() + off, e.end_ns() + off, int(e.device_index()),
                       int(e.device_resource_id()), int(e.linked_correlation_id()))
        host = by_corr.get(e.linked_correlation_id())
        tid = host.thread_id if host is not None else main
        by_tid[tid].append(_Pending(d.start_ns, d, host))
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for e, off in mem:
        nbytes = int(e.nbytes())
        place = "Place(cpu)" if e.device_type() == cpu else f"Place(gpu:{int(e.device_index())})"
        tot = totals[place]
        tot[0] += nbytes
        tot[1] = max(tot[1], tot[0])
        kind = TracerMemEventType.Allocate if nbytes >= 0 else TracerMemEventType.Free
        m = MemNode(e.start_ns() + off, kind, place, 0, nbytes, tot[0], 0, tot[1], 0)
        tid = thread_map.get(e.start_thread_id(), main)
        m.process_id, m.thread_id = pid, tid
        by_tid[tid].append(_Pending(m.timestamp_ns, m))


def _thread_names() -> dict[int, str]:
    return {t.native_id: t.name for t in threading.enumerate() if t.native_id is not None}


def _system_utilization() -> str:
    try:
        with open("/proc/loadavg") as f:
            load = float(f.read().split()[0])
        return f"{min(load / (os.cpu_count() or 1), 1.0):.6f}"
    except (OSError, ValueError, IndexError):
        return "0.000000"


class RangeHook:
    """Public-API side of ranges: open a range on the active recorder, if any."""

    @staticmethod
    def open(name: str, type_: TracerEventType) -> _Range | None:
        rec = ACTIVE
        return _Range(rec, name, type_) if rec is not None else None
