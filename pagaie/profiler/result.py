"""Profiling results: the event trees of one run, written as and read from Chrome traces."""
from __future__ import annotations

import json
import os
import re
from typing import Any

from pagaie._formats.atomic_file import atomic_open
from pagaie.profiler._nodes import (DeviceNode, HostNode, MemNode, TracerEventType, TracerMemEventType,
                                    innermost, nest)

__all__ = ["ProfilerResult", "load_profiler_result"]

_PYTHON_TYPES = frozenset({TracerEventType.ProfileStep, TracerEventType.Forward, TracerEventType.Backward,
                           TracerEventType.Optimization, TracerEventType.PythonUserDefined,
                           TracerEventType.PythonOp, TracerEventType.Dataloader})
_DEVICE_TYPES = frozenset({TracerEventType.Kernel, TracerEventType.Memcpy, TracerEventType.Memset})
_SUFFIX = re.compile(r"\[[0-9.]+ (?:ns|us|ms|s)\]$")
_SCHEMA = "1.0.2"


class ProfilerResult:
    """What a profiling run collected: per-thread event trees and run information.

    Args:
        data (dict): thread id -> root :class:`HostNode` of that thread's events.
        extra_info (dict, optional): run information (thread names, CPU utilisation).
        span_index (int, optional): index of the profiling period.

    Examples:
        >>> from pagaie.profiler.result import ProfilerResult
        >>> ProfilerResult({}).get_data()
        {}
    """

    def __init__(self, data: dict[int, HostNode], extra_info: dict[str, str] | None = None,
                 span_index: int = 0) -> None:
        self._data = data
        self._extra = dict(extra_info or {})
        self._span = span_index

    def get_data(self) -> dict[int, HostNode]:
        """The event trees: thread id -> root node."""
        return self._data

    def get_extra_info(self) -> dict[str, str]:
        """Run information: thread names and CPU utilisation."""
        return self._extra

    def get_span_index(self) -> int:
        """Index of the profiling period this result covers."""
        return self._span

    def get_version(self) -> str:
        """Version of the trace schema."""
        return _SCHEMA

    def events(self) -> list[HostNode]:
        """All host events, every thread, in start order (roots excluded)."""
        out = [n for root in self._data.values() for n in root.walk() if n is not root]
        return sorted(out, key=lambda n: n.start_ns)

    def save(self, path: str, format: str = "json") -> None:
        """Write the result to ``path``: ``'json'`` is a Chrome trace (chrome://tracing, Perfetto).

        Args:
            path (str): the output file.
            format (str, optional): ``'json'``; Paddle's protobuf format ``'pb'`` is not supported.
        """
        if format == "pb":
            raise NotImplementedError(
                "paddle.profiler: exporting Paddle's protobuf trace format is not supported by "
                "pagaie; use format='json' (a Chrome trace, readable by load_profiler_result)")
        if format != "json":
            raise ValueError(f"paddle.profiler.Profiler.export: format must be 'json' or 'pb', "
                             f"but received {format!r}")
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        with atomic_open(path, "w") as f:
            json.dump(self.to_chrome_trace(), f, indent=1)

    def to_chrome_trace(self) -> dict[str, Any]:
        """The result as a Chrome trace dictionary (``traceEvents`` and Paddle's extra keys)."""
        events: list[dict] = []
        starts = [r.start_ns for r in self._data.values()]
        base = min(starts) if starts else 0
        corr = 0
        pids: set = set()
        threads: set = set()
        devices: set = set()

        def rel(t: int) -> str:
            return f"{(t - base) / 1000:.3f} us"

        for tid, root in self._data.items():
            for n in root.walk():
                if n is root:
                    continue
                lane = f"{n.thread_id}({'Python' if n.type in _PYTHON_TYPES else 'C++'})"
                pids.add(n.process_id)
                threads.add((n.process_id, lane, n.thread_id))
                dur = n.duration / 1000
                args: dict[str, Any] = {"start_time": rel(n.start_ns), "end_time": rel(n.end_ns)}
                if n.type == TracerEventType.Operator:
                    args.update(input_shapes=n.input_shapes, input_dtypes=n.dtypes, callstack=n.callstack)
                if n.flops:
                    args["flops"] = n.flops
                if n.device_node:
                    corr += 1
                    args["correlation id"] = corr
                events.append({"name": f"{n.name}[{dur:.3f} us]", "pid": n.process_id, "tid": lane,
                               "ts": n.start_ns / 1000, "dur": dur, "ph": "X", "cat": n.type.name,
                               "cname": "thread_state_runnable", "args": args})
                for dn in n.device_node:
                    devices.add((dn.device_id, dn.stream_id))
                    events.append({"name": f"{dn.name}[{dn.duration / 1000:.3f} us]",
                                   "pid": dn.device_id, "tid": f"stream {dn.stream_id}",
                                   "ts": dn.start_ns / 1000, "dur": dn.duration / 1000, "ph": "X",
                                   "cat": dn.type.name, "cname": "cq_build_running",
                                   "args": {"start_time": rel(dn.start_ns), "end_time": rel(dn.end_ns),
                                            "device": dn.device_id, "stream": dn.stream_id,
                                            "correlation id": corr}})
                for m in n.mem_node:
                    events.append({"name": "[memory]", "pid": n.process_id, "tid": lane,
                                   "ts": m.timestamp_ns / 1000, "ph": "i", "s": "t", "cat": m.type.name,
                                   "args": {"place": m.place, "addr": str(m.addr),
                                            "increase_bytes": m.increase_bytes,
                                            "current_allocated": m.current_allocated,
                                            "current_reserved": m.current_reserved,
                                            "peak_allocated": m.peak_allocated,
                                            "peak_reserved": m.peak_reserved}})
        # Metadata as Paddle writes it: a process name and a thread name per lane (the Python
        # lane of a thread before its C++ lane), then the sort indices, then an empty event.
        lanes = sorted(threads, key=lambda x: (x[0], x[2], not x[1].endswith("(Python)")))
        for pid, lane, _ in lanes:
            events.append({"name": "process_name", "pid": pid, "tid": lane, "ph": "M",
                           "args": {"name": f"Process {pid} (CPU)"}})
        for pid, lane, tid in lanes:
            tname = self._extra.get(str(tid), "")
            events.append({"name": "thread_name", "pid": pid, "tid": lane, "ph": "M",
                           "args": {"name": f"thread {tid}:{tname}{lane[len(str(tid)):]}"}})
        for dev in sorted({d for d, _ in devices}):
            events.append({"name": "process_name", "pid": dev, "tid": "", "ph": "M",
                           "args": {"name": f"Deivce {dev} (GPU)"}})
        for pid in sorted(pids):
            events.append({"name": "process_sort_index", "pid": pid, "tid": pid, "ph": "M",
                           "args": {"sort_index": pid}})
        for pid, lane, tid in lanes:
            events.append({"name": "thread_sort_index", "pid": pid, "tid": lane, "ph": "M",
                           "args": {"sort_index": 2 * tid + (0 if lane.endswith("(Python)") else 1)}})
        events.append({})
        return {"displayTimeUnit": "ms", "schemaVersion": _SCHEMA, "span_index": str(self._span),
                "traceEvents": events, "ExtraInfo": dict(self._extra)}

    def __repr__(self) -> str:
        return f"ProfilerResult({len(self.events())} host events, {len(self._data)} threads)"


def load_profiler_result(filename: str) -> ProfilerResult:
    """Read a profiling result written by :meth:`Profiler.export` (a Chrome trace JSON file).

    Args:
        filename (str): the trace file.

    Returns:
        ProfilerResult: the events, as the profiler had them; ``Profiler.summary``-style
        statistics can be computed from it.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> import pagaie.profiler as profiler
        >>> path = os.path.join(tempfile.mkdtemp(), 'trace.json')
        >>> with profiler.Profiler(on_trace_ready=lambda p: p.export(path)) as prof:
        ...     y = paddle.ones([2]) + 1
        >>> result = profiler.load_profiler_result(path)
        >>> any(e.name == 'add dygraph' for e in result.events())
        True
    """
    try:
        with open(filename) as f:
            trace = json.load(f)
    except OSError as exc:
        raise FileNotFoundError(f"paddle.profiler.load_profiler_result: cannot read {filename!r}: "
                                f"{exc.strerror}") from None
    except json.JSONDecodeError:
        raise ValueError(f"paddle.profiler.load_profiler_result: {filename!r} is not a JSON trace "
                         "written by Profiler.export (Paddle's protobuf files are not supported)") from None
    if not isinstance(trace, dict) or "traceEvents" not in trace:
        raise ValueError(f"paddle.profiler.load_profiler_result: {filename!r} has no 'traceEvents'")
    types = TracerEventType.__members__
    by_tid: dict[int, list[HostNode]] = {}
    by_corr: dict[int, HostNode] = {}
    devices: list[tuple[int, DeviceNode]] = []
    mems: list[tuple[int, MemNode]] = []
    for ev in trace["traceEvents"]:
        if not isinstance(ev, dict) or ev.get("ph") not in ("X", "i"):
            continue
        cat = ev.get("cat", "")
        args = ev.get("args", {}) or {}
        start = round(float(ev["ts"]) * 1000)
        if ev["ph"] == "i":
            if cat not in TracerMemEventType.__members__:
                continue
            m = MemNode(start, TracerMemEventType[cat], args.get("place", ""), int(args.get("addr", 0)),
                        args.get("increase_bytes", 0), args.get("current_allocated", 0),
                        args.get("current_reserved", 0), args.get("peak_allocated", 0),
                        args.get("peak_reserved", 0))
            m.thread_id = _tid_of(ev.get("tid"))
            mems.append((m.thread_id, m))
            continue
        if cat not in types:
            continue
        type_ = types[cat]
        end = start + round(float(ev.get("dur", 0)) * 1000)
        name = _SUFFIX.sub("", ev.get("name", ""))
        if type_ in _DEVICE_TYPES and "device" in args:
            devices.append((int(args.get("correlation id", 0)),
                            DeviceNode(name, type_, start, end, int(args["device"]), int(args.get("stream", 0)))))
            continue
        tid = _tid_of(ev.get("tid"))
        n = HostNode(name, type_, start, end, int(ev.get("pid", 0)), tid)
        n.input_shapes = args.get("input_shapes", {}) or {}
        n.dtypes = args.get("input_dtypes", {}) or {}
        n.callstack = args.get("callstack", "") or ""
        n.flops = int(args.get("flops", 0))
        if "correlation id" in args:
            by_corr[int(args["correlation id"])] = n
        by_tid.setdefault(tid, []).append(n)
    data = {}
    for tid, nodes in by_tid.items():
        root = HostNode(f"Thread {tid}", TracerEventType.UserDefined, min(n.start_ns for n in nodes),
                        max(n.end_ns for n in nodes), nodes[0].process_id, tid)
        data[tid] = nest(nodes, root)
    for corr, d in devices:
        host = by_corr.get(corr)
        if host is not None:
            host.device_node.append(d)
    for tid, m in mems:
        root = data.get(tid)
        if root is not None:
            innermost(root, m.timestamp_ns).mem_node.append(m)
    try:
        span = int(trace.get("span_index", 0))
    except (TypeError, ValueError):
        span = 0
    return ProfilerResult(data, trace.get("ExtraInfo", {}), span)


def _tid_of(lane: Any) -> int:
    m = re.match(r"-?\d+", str(lane))
    return int(m.group()) if m else 0
