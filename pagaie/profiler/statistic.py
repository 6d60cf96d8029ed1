"""Summary tables of a profiling result, laid out as Paddle's ``Profiler.summary`` prints them."""
from __future__ import annotations

import enum
import re
from collections import defaultdict
from typing import TYPE_CHECKING, Iterable, Sequence

from pagaie.profiler._nodes import DeviceNode, HostNode, TracerEventType, TracerMemEventType

if TYPE_CHECKING:
    from pagaie.profiler.result import ProfilerResult

__all__ = ["SortedKeys", "SummaryView", "build_table", "flops_table"]


class SortedKeys(enum.Enum):
    """How :meth:`Profiler.summary` orders table rows: by CPU or GPU total, average, max or min time.

    Examples:
        >>> import pagaie.profiler as profiler
        >>> profiler.SortedKeys.GPUTotal.value
        4
    """

    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class SummaryView(enum.Enum):
    """The tables :meth:`Profiler.summary` can print.

    Examples:
        >>> import pagaie.profiler as profiler
        >>> profiler.SummaryView.OperatorView.value
        5
    """

    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


_SPACING = 2
_NS = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}
_KERNEL_NAME = re.compile(r"(.+?)(<.*>)(\(.*\))")


class _Table:
    """Fixed-width columns separated by two spaces, as Paddle's tables."""

    def __init__(self, widths: Sequence[int]) -> None:
        self.fmt = "".join("{:<" + str(w) + "}" + " " * _SPACING for w in widths)
        self.sep = "".join("-" * w + " " * _SPACING for w in widths)
        self.width = sum(widths) + _SPACING * (len(widths) - 1)

    def title(self, text: str) -> str:
        left = self.width - len(text)
        return "-" * (left // 2) + text + "-" * (left - left // 2)

    def row(self, *values: object) -> str:
        return self.fmt.format(*[str(v) for v in values])


class _Stat:
    """Call count and CPU / GPU time totals of a group of events."""

    __slots__ = ("calls", "cpu", "cpu_max", "cpu_min", "gpu", "gpu_max", "gpu_min", "flops", "children")

    def __init__(self) -> None:
        self.calls = 0
        self.cpu = 0
        self.cpu_max = 0
        self.cpu_min = float("inf")
        self.gpu = 0
        self.gpu_max = 0
        self.gpu_min = float("inf")
        self.flops = 0
        self.children: dict[str, _Stat] = {}

    def add(self, cpu: int, gpu: int, flops: int = 0) -> None:
        self.calls += 1
        self.cpu += cpu
        self.cpu_max = max(self.cpu_max, cpu)
        self.cpu_min = min(self.cpu_min, cpu)
        self.gpu += gpu
        self.gpu_max = max(self.gpu_max, gpu)
        self.gpu_min = min(self.gpu_min, gpu)
        self.flops += flops

    @property
    def cpu_avg(self) -> float:
        return self.cpu / self.calls if self.calls else 0

    @property
    def gpu_avg(self) -> float:
        return self.gpu / self.calls if self.calls else 0

    def key(self, sorted_by: object) -> tuple[float, bool]:
        """Sort value and whether larger comes first."""
        name = getattr(sorted_by, "name", "CPUTotal")
        value = {"CPUTotal": self.cpu, "CPUAvg": self.cpu_avg, "CPUMax": self.cpu_max, "CPUMin": self.cpu_min,
                 "GPUTotal": self.gpu, "GPUAvg": self.gpu_avg, "GPUMax": self.gpu_max,
                 "GPUMin": self.gpu_min}[name]
        return value, not name.endswith("Min")


def _fmt(ns: float, unit: str) -> str:
    return "-" if ns == float("inf") else f"{ns / _NS[unit]:.2f}"


def _ratio(part: float, whole: float) -> str:
    return f"{(part / whole * 100 if whole else 0):.2f}"


def _cols(s: _Stat, whole_cpu: float, whole_gpu: float, unit: str) -> tuple[str, str]:
    cpu = (f"{_fmt(s.cpu, unit)} / {_fmt(s.cpu_avg, unit)} / {_fmt(s.cpu_max, unit)} / "
           f"{_fmt(s.cpu_min if s.calls else 0, unit)} / {_ratio(s.cpu, whole_cpu)}")
    gpu = (f"{_fmt(s.gpu, unit)} / {_fmt(s.gpu_avg, unit)} / {_fmt(s.gpu_max, unit)} / "
           f"{_fmt(s.gpu_min if s.calls else 0, unit)} / {_ratio(s.gpu, whole_gpu)}")
    return cpu, gpu


def _merged(ranges: Iterable[tuple[int, int]]) -> int:
    """Total length of the union of ``ranges``."""
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(ranges):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def _devices(node: HostNode) -> list[DeviceNode]:
    return [d for n in node.walk() for d in n.device_node]


def _gpu_time(node: HostNode) -> int:
    return sum(d.duration for d in _devices(node) if d.type == TracerEventType.Kernel)


def _outermost(roots: Iterable[HostNode], types: set) -> list[HostNode]:
    """Nodes of the given types that are not inside another such node."""
    found = []
    stack = list(roots)
    while stack:
        n = stack.pop()
        if n.type in types:
            found.append(n)
        else:
            stack.extend(n.children_node)
    return found


class _Data:
    """Everything the tables need, computed once from a result."""

    def __init__(self, result: ProfilerResult) -> None:
        self.roots = list(result.get_data().values())
        self.extra = result.get_extra_info()
        self.hosts = [n for r in self.roots for n in r.walk() if n is not r]
        self.devices = [d for n in self.hosts for d in n.device_node]
        steps = [(n.start_ns, n.end_ns) for n in self.hosts if n.type == TracerEventType.ProfileStep]
        if steps:
            self.total = _merged(steps)
        else:
            self.total = _merged((r.start_ns, r.end_ns) for r in self.roots)
        self.gpu_total = _merged((d.start_ns, d.end_ns) for d in self.devices
                                 if d.type == TracerEventType.Kernel)


def build_table(result: ProfilerResult, sorted_by: SortedKeys = SortedKeys.CPUTotal, op_detail: bool = True,
                thread_sep: bool = False, time_unit: str = "ms",
                views: Sequence[SummaryView] | None = None) -> str:
    """The summary tables of ``result`` as one string (what :meth:`Profiler.summary` prints)."""
    d = _Data(result)
    want = (lambda v: True) if views is None else (lambda v: v in views)
    out: list[str] = []
    if want(SummaryView.DeviceView):
        out += _device_view(d)
    if want(SummaryView.OverView):
        out += _overview(d, time_unit)
    if want(SummaryView.ModelView):
        out += _model_view(d, time_unit)
    if want(SummaryView.OperatorView):
        out += _operator_view(d, sorted_by, op_detail, thread_sep, time_unit)
    if want(SummaryView.KernelView):
        out += _device_items_view(d, "Kernel Summary", {TracerEventType.Kernel}, sorted_by, time_unit)
    if want(SummaryView.MemoryManipulationView):
        out += _device_items_view(d, "Memory Manipulation Summary",
                                  {TracerEventType.Memcpy, TracerEventType.Memset}, sorted_by, time_unit)
    if want(SummaryView.UDFView):
        out += _udf_view(d, sorted_by, thread_sep, time_unit)
    if want(SummaryView.MemoryView):
        out += _memory_view(d)
    return "\n".join(out)


def _device_view(d: _Data) -> list[str]:
    t = _Table([30, 20])
    lines = [t.title("Device Summary"), t.sep, t.row("Device", "Utilization (%)"), t.sep]
    proc = float(d.extra.get("Process Cpu Utilization", 0) or 0)
    system = float(d.extra.get("System Cpu Utilization", 0) or 0)
    lines.append(t.row("CPU(Process)", f"{proc * 100:.2f}"))
    lines.append(t.row("CPU(System)", f"{system * 100:.2f}"))
    for dev in sorted({x.device_id for x in d.devices}):
        busy = _merged((x.start_ns, x.end_ns) for x in d.devices
                       if x.device_id == dev and x.type == TracerEventType.Kernel)
        lines.append(t.row(f"GPU{dev}", _ratio(busy, d.total)))
    lines += [t.sep, "Note:",
              "CPU(Process) Utilization = Current process CPU time over all cpu cores / elapsed time, so "
              "max utilization can be reached 100% * number of cpu cores.",
              "CPU(System) Utilization = All processes CPU time over all cpu cores(busy time) / "
              "(busy time + idle time).",
              "GPU Utilization = Current process GPU time / elapsed time.", "-" * t.width, "", ""]
    return lines


def _overview(d: _Data, unit: str) -> list[str]:
    t = _Table([25, 25, 25, 25])
    ranges: dict[TracerEventType, list[tuple[int, int]]] = defaultdict(list)
    for n in d.hosts:
        ranges[n.type].append((n.start_ns, n.end_ns))
    lines = [t.title("Overview Summary"), f"Time unit: {unit}", t.sep,
             t.row("Event Type", "Calls", "CPU Time", "Ratio (%)"), t.sep]
    if TracerEventType.ProfileStep in ranges:
        r = ranges.pop(TracerEventType.ProfileStep)
        lines.append(t.row("ProfileStep", len(r), _fmt(d.total, unit), "100.00"))
    rows = sorted(((k, len(v), _merged(v)) for k, v in ranges.items()), key=lambda x: -x[2])
    for k, calls, total in rows:
        lines.append(t.row("  " + k.name, calls, _fmt(total, unit), _ratio(total, d.total)))
    lines += [t.sep, t.row("", "Calls", "GPU Time", "Ratio (%)"), t.sep]
    dev: dict[TracerEventType, list[tuple[int, int]]] = defaultdict(list)
    for x in d.devices:
        dev[x.type].append((x.start_ns, x.end_ns))
    for k, v in sorted(dev.items(), key=lambda kv: -_merged(kv[1])):
        total = _merged(v)
        lines.append(t.row("  " + k.name, len(v), _fmt(total, unit), _ratio(total, d.total)))
    lines += [t.sep, "Note:",
              "In this table, We sum up all collected events in terms of event type.",
              "The time of events collected on host are presented as CPU Time, and as GPU Time if on device.",
              "Events with different types may overlap or inclusion, e.g. Operator includes OperatorInner, "
              "so the sum of ratios is not 100%.",
              "The time of events in the same type with overlap will not calculate twice, and all time is "
              "summed after merged.", "Example:", "Thread 1:", "  Operator: |___________|     |__________|",
              "Thread 2:", "  Operator:   |____________|     |___|", "After merged:",
              "  Result:   |______________|  |__________|", "", "-" * t.width, "", ""]
    return lines


def _model_view(d: _Data, unit: str) -> list[str]:
    steps = [n for n in d.hosts if n.type == TracerEventType.ProfileStep]
    phases = {TracerEventType.Dataloader, TracerEventType.Forward, TracerEventType.Backward,
              TracerEventType.Optimization}
    # Like Paddle, the table only appears when some step phase (not just the steps) was recorded.
    if not steps or not any(n.type in phases for n in d.hosts):
        return []
    t = _Table([15, 6, 40, 40])
    step_stat = _Stat()
    for n in steps:
        step_stat.add(n.duration, _gpu_time(n))
    lines = [t.title("Model Summary"), f"Time unit: {unit}", t.sep,
             t.row("Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                   "GPU Total / Avg / Max / Min / Ratio(%)"), t.sep]
    lines.append(t.row("ProfileStep", step_stat.calls, *_cols(step_stat, d.total, step_stat.gpu, unit)))
    covered_cpu, covered_gpu = 0, 0
    for type_ in (TracerEventType.Dataloader, TracerEventType.Forward, TracerEventType.Backward,
                  TracerEventType.Optimization):
        nodes = _outermost(steps, {type_})
        if not nodes:
            continue
        s = _Stat()
        for n in nodes:
            s.add(n.duration, _gpu_time(n))
        covered_cpu += s.cpu
        covered_gpu += s.gpu
        lines.append(t.row("  " + type_.name, s.calls, *_cols(s, d.total, step_stat.gpu, unit)))
    other_cpu = max(step_stat.cpu - covered_cpu, 0)
    other_gpu = max(step_stat.gpu - covered_gpu, 0)
    lines.append(t.row("  Others", "-", f"{_fmt(other_cpu, unit)} / - / - / - / {_ratio(other_cpu, d.total)}",
                       f"{_fmt(other_gpu, unit)} / - / - / - / {_ratio(other_gpu, step_stat.gpu)}"))
    lines += [t.sep, "Note:",
              "In this table, GPU time is the sum of all device(GPU) events called in the phase.",
              "Unlike overview summary, if two device(GPU) events execute on different streams with overlap "
              "time, we sum them directly here.", "-" * t.width, "", ""]
    return lines


def _op_stats(roots: list[HostNode]) -> dict[str, _Stat]:
    stats: dict[str, _Stat] = {}
    for op in _outermost(roots, {TracerEventType.Operator}):
        s = stats.setdefault(op.name, _Stat())
        s.add(op.duration, _gpu_time(op), sum(n.flops for n in op.walk()))
        for c in op.children_node:
            s.children.setdefault(c.name, _Stat()).add(c.duration, _gpu_time(c))
        for dev in op.device_node:
            s.children.setdefault(dev.name, _Stat()).add(0, dev.duration)
    return stats


def _sorted(items: dict[str, _Stat], sorted_by: object) -> list[tuple[str, _Stat]]:
    desc = _Stat().key(sorted_by)[1]
    return sorted(items.items(), key=lambda kv: kv[1].key(sorted_by)[0], reverse=desc)


def _operator_view(d: _Data, sorted_by: object, op_detail: bool, thread_sep: bool, unit: str) -> list[str]:
    groups = ([(str(r.thread_id), [r]) for r in d.roots] if thread_sep else [("All threads merged", d.roots)])
    blocks = [(label, _op_stats(roots)) for label, roots in groups]
    if not any(stats for _, stats in blocks):
        return []
    t = _Table([52, 6, 40, 40, 10])
    lines = [t.title("Operator Summary"), f"Time unit: {unit}", t.sep,
             t.row("Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                   "GPU Total / Avg / Max / Min / Ratio(%)", "FLOPs"), t.sep]
    for label, stats in blocks:
        if not stats:
            continue
        lines.append(t.title(f"Thread: {label}"))
        all_cpu = sum(s.cpu for s in stats.values())
        all_gpu = sum(s.gpu for s in stats.values())
        for name, s in _sorted(stats, sorted_by):
            lines.append(t.row(_clip(name, 52), s.calls, *_cols(s, all_cpu, all_gpu, unit), s.flops))
            if op_detail:
                for cname, c in _sorted(s.children, sorted_by):
                    lines.append(t.row(_clip("  " + cname, 52), c.calls, *_cols(c, s.cpu, s.gpu, unit), "-"))
    lines += [t.sep, "", ""]
    return lines


def _clip(name: str, width: int) -> str:
    return name if len(name) <= width else name[:width - 3] + "..."


def _device_items_view(d: _Data, title: str, types: set, sorted_by: object, unit: str) -> list[str]:
    stats: dict[str, _Stat] = {}
    for x in d.devices:
        if x.type in types:
            m = _KERNEL_NAME.match(x.name)
            name = m.group(1) + m.group(2) if m else x.name
            stats.setdefault(name, _Stat()).add(0, x.duration)
    if not stats:
        return []
    by = sorted_by if getattr(sorted_by, "name", "").startswith("GPU") else SortedKeys.GPUTotal
    total = sum(s.gpu for s in stats.values())
    t = _Table([90, 6, 40])
    lines = [t.title(title), f"Time unit: {unit}", t.sep,
             t.row("Name", "Calls", "GPU Total / Avg / Max / Min / Ratio(%)"), t.sep]
    for name, s in _sorted(stats, by):
        lines.append(t.row(_clip(name, 90), s.calls, _cols(s, 0, total, unit)[1]))
    lines += [t.sep, "", ""]
    return lines


def _udf_view(d: _Data, sorted_by: object, thread_sep: bool, unit: str) -> list[str]:
    groups = ([(str(r.thread_id), [r]) for r in d.roots] if thread_sep else [("All threads merged", d.roots)])
    blocks = []
    for label, roots in groups:
        stats: dict[str, _Stat] = {}
        for r in roots:
            for n in r.walk():
                if n.type == TracerEventType.PythonUserDefined:
                    stats.setdefault(n.name, _Stat()).add(n.duration, _gpu_time(n))
        blocks.append((label, stats))
    if not any(s for _, s in blocks):
        return []
    t = _Table([max(len(n) for _, s in blocks for n in s), 6, 40, 40])  # Paddle's width: the longest name
    lines = [t.title("UserDefined Summary"), f"Time unit: {unit}", t.sep,
             t.row("Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                   "GPU Total / Avg / Max / Min / Ratio(%)"), t.sep]
    for label, stats in blocks:
        if stats:
            lines.append(t.title(f"Thread: {label}"))
            for name, s in _sorted(stats, sorted_by):
                lines.append(t.row(name, s.calls, *_cols(s, d.total, d.gpu_total, unit)))
    lines += ["", ""]
    return lines


def _memory_view(d: _Data) -> list[str]:
    per_place: dict[str, dict[str, list[int]]] = defaultdict(dict)
    peaks: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for n in d.hosts:
        for m in n.mem_node:
            row = per_place[m.place].setdefault(n.name, [0, 0, 0, 0])
            if m.type in (TracerMemEventType.Allocate, TracerMemEventType.ReservedAllocate):
                row[0] += 1
                row[2] += m.increase_bytes
            else:
                row[1] += 1
                row[3] += -m.increase_bytes
            pk = peaks[m.place]
            pk[0] = max(pk[0], m.peak_allocated)
            pk[1] = max(pk[1], m.peak_reserved)
    lines: list[str] = []
    for place, rows in per_place.items():
        t = _Table([50, 12, 15, 15, 15, 15, 15])
        lines += [t.title(f"Memory Summary - {place}"), f"Peak Allocated Memory: {peaks[place][0]}",
                  f"Peak Reserved Memory: {peaks[place][1]}", t.sep,
                  t.row("Name", "Type", "Allocation Count", "Free Count", "Allocation Size", "Free Size",
                        "Increased Size"), t.sep]
        for name, (na, nf, sa, sf) in sorted(rows.items(), key=lambda kv: -(kv[1][2] - kv[1][3])):
            lines.append(t.row(_clip(name, 50), "Allocated", na, nf, sa, sf, sa - sf))
        lines += ["", ""]
    return lines


def flops_table(result: ProfilerResult) -> str:
    """Estimated FLOPs per operator (``with_flops=True``)."""
    stats = _op_stats(list(result.get_data().values()))
    t = _Table([52, 6, 20])
    lines = [" Flops Profiler Begin ".center(100, "-"), t.sep, t.row("Name", "Calls", "FLOPs"), t.sep]
    for name, s in sorted(stats.items(), key=lambda kv: -kv[1].flops):
        lines.append(t.row(_clip(name, 52), s.calls, s.flops))
    lines += [t.sep, "- Flops Profiler End -".center(100, "-")]
    return "\n".join(lines)
