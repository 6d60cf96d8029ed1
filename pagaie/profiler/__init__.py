"""``paddle.profiler``: op-level profiling over torch's profiler, with Paddle's API and tables.

While a :class:`Profiler` records, every op call is timed under its Paddle name and
wrapped in a ``torch.profiler.record_function``, so torch's profiler captures the
kernels below it; results print as Paddle's summary tables and export as Chrome
traces. Nothing is installed when no profiler records.

    >>> import pagaie as paddle
    >>> import pagaie.profiler as profiler
    >>> with profiler.Profiler(on_trace_ready=lambda p: None) as prof:
    ...     y = paddle.matmul(paddle.ones([2, 2]), paddle.ones([2, 2]))
    >>> 'matmul dygraph' in {e.name for e in prof.profiler_result.events()}
    True
"""
from pagaie.profiler._nodes import TracerEventType  # noqa: F401
from pagaie.profiler.profiler import (Profiler, ProfilerState, ProfilerTarget, RecordEvent,
                                      export_chrome_tracing, export_protobuf, make_scheduler)
from pagaie.profiler.result import load_profiler_result
from pagaie.profiler.statistic import SortedKeys, SummaryView

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing", "export_protobuf",
           "Profiler", "RecordEvent", "load_profiler_result", "SortedKeys", "SummaryView"]
