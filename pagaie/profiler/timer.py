"""Step timing for ``Profiler.step_info`` and ``timer_only`` profiling.

:func:`benchmark` is the process-wide timer. ``Profiler.start`` opens a timing
session, ``Profiler.step`` closes one step (batch cost, throughput), the data
loader reports its reading time (reader cost), and ``Profiler.stop`` prints a
performance summary of the steps after the first ten (warm-up), as Paddle does.
"""
from __future__ import annotations

import timeit
from typing import Any

__all__ = ["benchmark", "Benchmark"]

_SKIP = 10  # warm-up steps left out of the final summary


class _Averager:
    """Running totals between two ``step_info`` calls."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.iters = 0
        self.time = 0.0
        self.samples = 0

    def record(self, t: float, num_samples: int | None = None) -> None:
        self.iters += 1
        self.time += t
        if num_samples:
            self.samples += num_samples

    def average(self) -> float:
        return self.time / self.iters if self.iters else 0.0

    def ips(self) -> float:
        return self.samples / self.time if self.samples and self.iters else 0.0

    def steps_per_second(self) -> float:
        return self.iters / self.time if self.iters else 0.0


class _Session:
    """Timing of one ``start``..``stop`` span."""

    def __init__(self) -> None:
        self.reader = _Averager()
        self.batch = _Averager()
        self.iters = 0
        self.samples = 0
        self.reader_rec = {"max": 0.0, "min": float("inf"), "total": 0.0}
        self.batch_rec = {"max": 0.0, "min": float("inf"), "total": 0.0}
        self.speed_rec = {"max": 0.0, "min": float("inf")}
        self.per_sample = True  # False once a step comes without num_samples: steps/s
        self.unit = "samples/s"

    @staticmethod
    def _track(v: float, rec: dict) -> None:
        rec["max"] = max(rec["max"], v)
        rec["min"] = min(rec["min"], v)
        if "total" in rec:
            rec["total"] += v

    def record_reader(self, t: float) -> None:
        self.reader.record(t)
        if self.iters >= _SKIP:
            self._track(t, self.reader_rec)

    def record_batch(self, t: float, num_samples: int | None) -> None:
        if num_samples is None:
            self.per_sample = False
            self.unit = "steps/s"
        self.batch.record(t, num_samples)
        self.iters += 1
        if self.iters >= _SKIP and t > 0:
            self._track(t, self.batch_rec)
            if self.per_sample:
                self.samples += num_samples or 0
                self._track((num_samples or 0) / t, self.speed_rec)
            else:
                self._track(1.0 / t, self.speed_rec)

    def summary(self) -> dict | None:
        n = self.iters - _SKIP
        if n <= 0 or self.batch_rec["total"] <= 0:
            return None
        reader_avg = self.reader_rec["total"] / n
        batch_avg = self.batch_rec["total"] / n
        speed_avg = (self.samples if self.per_sample else n) / self.batch_rec["total"]
        return {"reader": {**self.reader_rec, "avg": reader_avg}, "batch": {**self.batch_rec, "avg": batch_avg},
                "ips": {**self.speed_rec, "avg": speed_avg}, "reader_ratio": reader_avg / batch_avg * 100}


class Benchmark:
    """The step timer behind ``Profiler.step_info`` (one per process: :func:`benchmark`)."""

    def __init__(self) -> None:
        self.sessions: list[_Session] = []
        self.current: _Session | None = None
        self._step_start = timeit.default_timer()
        self._reader_start = timeit.default_timer()

    def begin(self) -> None:
        """Open a timing session (``Profiler.start``)."""
        self.current = _Session()
        self.sessions.append(self.current)
        self._step_start = timeit.default_timer()

    def step(self, num_samples: int | None = None) -> None:
        """Close one step (``Profiler.step``)."""
        if self.current is None:
            return
        now = timeit.default_timer()
        self.current.record_batch(now - self._step_start, num_samples)
        self._step_start = timeit.default_timer()

    def before_reader(self) -> None:
        """The data loader starts reading a batch."""
        self._reader_start = timeit.default_timer()

    def after_reader(self) -> None:
        """The data loader has a batch: its reading time is the step's reader cost."""
        cost = timeit.default_timer() - self._reader_start
        if self.current is not None and cost > 0:
            self.current.record_reader(cost)

    def step_info(self, unit: str) -> str:
        """Average costs and throughput since the last call, as text."""
        cur = self.current
        if cur is None:
            return ""
        msg = ""
        reader = cur.reader.average()
        batch = cur.batch.average()
        if reader:
            msg += f" reader_cost: {reader:.5f} s"
        if batch:
            cur.unit = "steps/s" if not cur.per_sample else unit + "/s"
            msg += f" batch_cost: {batch:.5f} s"
        speed = cur.batch.ips() if cur.per_sample else cur.batch.steps_per_second()
        if speed:
            msg += f" ips: {speed:.3f} {cur.unit}"
        cur.reader.reset()
        cur.batch.reset()
        return msg

    def end(self) -> None:
        """Close the session (``Profiler.stop``), printing its summary after 10+ steps."""
        if self.current is None:
            return
        s = self.current.summary()
        if s is not None:
            _print_summary(s, self.current.unit)
        self.sessions.pop()
        self.current = self.sessions[-1] if self.sessions else None
        self._step_start = timeit.default_timer()


def _print_summary(s: dict[str, Any], unit: str) -> None:
    print("Perf Summary".center(100, "="))
    if s["reader_ratio"] != 0:
        print(f"Reader Ratio: {s['reader_ratio']:.3f}%")
    print(f"Time Unit: s, IPS Unit: {unit}")
    print("|", "".center(15), "|", "avg".center(15), "|", "max".center(15), "|", "min".center(15), "|")
    rows = ([("reader_cost", s["reader"])] if s["reader"]["avg"] != 0 else []) + \
        [("batch_cost", s["batch"]), ("ips", s["ips"])]
    for name, r in rows:
        print("|", name.center(15), "|", f"{r['avg']:.5f}".center(15), "|", f"{r['max']:.5f}".center(15),
              "|", f"{r['min']:.5f}".center(15), "|")


_BENCHMARK = Benchmark()


def benchmark() -> Benchmark:
    """The process-wide step timer.

    Examples:
        >>> from pagaie.profiler.timer import benchmark
        >>> b = benchmark()
        >>> b.begin(); b.step(8); b.step(8)
        >>> 'samples/s' in b.step_info('samples')
        True
        >>> b.end()
    """
    return _BENCHMARK
