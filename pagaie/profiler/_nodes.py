"""The profiler's data: event types and the event tree a profiling run produces.

A run yields, per host thread, a tree of :class:`HostNode` (profile steps, user
ranges, layer forwards, operators and the ATen calls underneath), with device
activity (:class:`DeviceNode`: GPU kernels, copies) and memory events
(:class:`MemNode`) hanging from the host node that caused them. Times are
nanoseconds on the ``time.time_ns`` clock.
"""
from __future__ import annotations

import enum
from typing import Any


class TracerEventType(enum.IntEnum):
    """The kinds of events the profiler records (same numbering as Paddle's)."""

    def __str__(self) -> str:  # Paddle prints 'TracerEventType.Operator', not the number
        return f"{type(self).__name__}.{self.name}"

    Operator = 0
    Dataloader = 1
    ProfileStep = 2
    CudaRuntime = 3
    Kernel = 4
    Memcpy = 5
    Memset = 6
    UserDefined = 7
    OperatorInner = 8
    Forward = 9
    Backward = 10
    Optimization = 11
    Communication = 12
    PythonOp = 13
    PythonUserDefined = 14
    DygraphKernelLaunch = 15
    StaticKernelLaunch = 16


class TracerMemEventType(enum.IntEnum):
    """Kinds of memory events."""

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    Allocate = 0
    Free = 1
    ReservedAllocate = 2
    ReservedFree = 3


class HostNode:
    """One host (CPU) event and what happened inside it."""

    __slots__ = ("name", "type", "start_ns", "end_ns", "process_id", "thread_id", "children_node",
                 "device_node", "runtime_node", "mem_node", "input_shapes", "dtypes", "callstack",
                 "attributes", "flops")

    def __init__(self, name: str, type: TracerEventType, start_ns: int, end_ns: int,
                 process_id: int = 0, thread_id: int = 0) -> None:
        self.name = name
        self.type = type
        self.start_ns = int(start_ns)
        self.end_ns = int(end_ns)
        self.process_id = process_id
        self.thread_id = thread_id
        self.children_node: list[HostNode] = []
        self.device_node: list[DeviceNode] = []
        self.runtime_node: list[HostNode] = []
        self.mem_node: list[MemNode] = []
        self.input_shapes: dict[str, list] = {}
        self.dtypes: dict[str, list] = {}
        self.callstack = ""
        self.attributes: dict[str, Any] = {}
        self.flops = 0

    @property
    def duration(self) -> int:
        return self.end_ns - self.start_ns

    def walk(self):
        """This node and all nodes below it, depth first."""
        stack = [self]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children_node))

    def __repr__(self) -> str:
        return f"HostNode({self.name!r}, {self.type.name}, {self.duration} ns)"


class DeviceNode:
    """One device activity: a kernel, a copy or a memset."""

    __slots__ = ("name", "type", "start_ns", "end_ns", "device_id", "context_id", "stream_id",
                 "correlation_id")

    def __init__(self, name: str, type: TracerEventType, start_ns: int, end_ns: int,
                 device_id: int = 0, stream_id: int = 0, correlation_id: int = 0) -> None:
        self.name = name
        self.type = type
        self.start_ns = int(start_ns)
        self.end_ns = int(end_ns)
        self.device_id = device_id
        self.context_id = 0
        self.stream_id = stream_id
        self.correlation_id = correlation_id

    @property
    def duration(self) -> int:
        return self.end_ns - self.start_ns

    def __repr__(self) -> str:
        return f"DeviceNode({self.name!r}, {self.type.name}, {self.duration} ns)"


class MemNode:
    """One allocation or release, with the running totals after it."""

    __slots__ = ("timestamp_ns", "type", "place", "addr", "increase_bytes", "current_allocated",
                 "current_reserved", "peak_allocated", "peak_reserved", "process_id", "thread_id")

    def __init__(self, timestamp_ns: int, type: TracerMemEventType, place: str, addr: int,
                 increase_bytes: int, current_allocated: int = 0, current_reserved: int = 0,
                 peak_allocated: int = 0, peak_reserved: int = 0) -> None:
        self.timestamp_ns = int(timestamp_ns)
        self.type = type
        self.place = place
        self.addr = addr
        self.increase_bytes = int(increase_bytes)
        self.current_allocated = int(current_allocated)
        self.current_reserved = int(current_reserved)
        self.peak_allocated = int(peak_allocated)
        self.peak_reserved = int(peak_reserved)
        self.process_id = 0
        self.thread_id = 0


def nest(nodes: list[HostNode], root: HostNode) -> HostNode:
    """Arrange ``nodes`` (one thread's events) under ``root`` by time containment."""
    nodes = sorted(nodes, key=lambda n: (n.start_ns, -n.end_ns))
    stack = [root]
    for n in nodes:
        while len(stack) > 1 and not (n.start_ns >= stack[-1].start_ns and n.end_ns <= stack[-1].end_ns):
            stack.pop()
        stack[-1].children_node.append(n)
        stack.append(n)
    return root


def innermost(root: HostNode, t_ns: int) -> HostNode:
    """The deepest node under ``root`` whose time range contains ``t_ns`` (``root`` if none)."""
    node = root
    while True:
        for c in node.children_node:
            if c.start_ns <= t_ns <= c.end_ns:
                node = c
                break
        else:
            return node
