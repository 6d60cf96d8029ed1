"""``paddle.profiler.Profiler``: the state machine over profiling steps, and its helpers."""
from __future__ import annotations

import datetime
import enum
import os
import socket
import warnings
from types import TracebackType
from typing import Any, Callable, Iterable, Literal, Sequence

import torch

from pagaie.profiler import _recorder
from pagaie.profiler._nodes import TracerEventType
from pagaie.profiler.result import ProfilerResult
from pagaie.profiler.statistic import SortedKeys, SummaryView, build_table, flops_table
from pagaie.profiler.timer import benchmark

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing", "export_protobuf",
           "Profiler", "RecordEvent"]


class ProfilerState(enum.Enum):
    """Where a :class:`Profiler` is in its cycle at a step.

    - ``CLOSED``: not profiling.
    - ``READY``: about to record; nothing is recorded yet (keeps start-up overhead out).
    - ``RECORD``: recording.
    - ``RECORD_AND_RETURN``: the last recorded step of a period; the result is handed to
      ``on_trace_ready`` when it ends.

    Examples:
        >>> import pagaie.profiler as profiler
        >>> profiler.ProfilerState.RECORD.value
        2
    """

    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


class ProfilerTarget(enum.Enum):
    """The devices a :class:`Profiler` records: ``CPU``, ``GPU``, ``XPU``, ``CUSTOM_DEVICE``.

    Examples:
        >>> import pagaie.profiler as profiler
        >>> profiler.ProfilerTarget.GPU.value
        1
    """

    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


_ALLOWED_RECORD_TYPES = (TracerEventType.Dataloader, TracerEventType.ProfileStep, TracerEventType.Forward,
                         TracerEventType.Backward, TracerEventType.Optimization, TracerEventType.PythonOp,
                         TracerEventType.PythonUserDefined)


class RecordEvent:
    """A named time range defined by the user; it appears in the trace and in the summary.

    Use it as a context manager, a decorator, or with :meth:`begin` / :meth:`end`. It
    records only while a :class:`Profiler` is in a recording state.

    Args:
        name (str): the range's name.
        event_type (TracerEventType, optional): the kind of range; keep the default
            ``PythonUserDefined`` (other kinds are for the framework's own use).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.profiler as profiler
        >>> with profiler.Profiler(on_trace_ready=lambda p: None) as prof:
        ...     with profiler.RecordEvent('add_two'):
        ...         y = paddle.ones([3]) + 2
        >>> [e.name for e in prof.profiler_result.events() if e.name == 'add_two']
        ['add_two']
    """

    def __init__(self, name: str, event_type: TracerEventType = TracerEventType.PythonUserDefined) -> None:
        self.name = name
        self.event_type = event_type
        self.event: Any = None

    def __enter__(self) -> RecordEvent:
        self.begin()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc_value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.end()

    def __call__(self, func: Callable) -> Callable:
        import functools

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with RecordEvent(self.name, self.event_type):
                return func(*args, **kwargs)
        return wrapper

    def begin(self) -> None:
        """Mark the start of the range (no effect unless a Profiler records).

        Examples:
            >>> import pagaie.profiler as profiler
            >>> ev = profiler.RecordEvent('load')
            >>> ev.begin()
            >>> ev.end()
        """
        if _recorder.ACTIVE is None:
            return
        if self.event_type not in _ALLOWED_RECORD_TYPES:
            warnings.warn("paddle.profiler.RecordEvent: only event types "
                          f"{[t.name for t in _ALLOWED_RECORD_TYPES]} can be recorded, but received "
                          f"{getattr(self.event_type, 'name', self.event_type)}")
            self.event = None
            return
        self.event = _recorder.RangeHook.open(self.name, self.event_type)

    def end(self) -> None:
        """Mark the end of the range.

        Examples:
            >>> import pagaie.profiler as profiler
            >>> ev = profiler.RecordEvent('load')
            >>> ev.begin()
            >>> ev.end()
        """
        if self.event is not None:
            self.event.close()
            self.event = None


def make_scheduler(*, closed: int, ready: int, record: int, repeat: int = 0,
                   skip_first: int = 0) -> Callable[[int], ProfilerState]:
    """Build a scheduler: a function from step number to :class:`ProfilerState`.

    After ``skip_first`` CLOSED steps, a period of ``closed`` CLOSED steps, ``ready``
    READY steps and ``record`` recording steps (the last one RECORD_AND_RETURN) repeats
    ``repeat`` times, then everything is CLOSED; ``repeat=0`` repeats until the end.

    Args:
        closed (int): CLOSED steps per period.
        ready (int): READY steps per period.
        record (int): recording steps per period (at least 1).
        repeat (int, optional): number of periods; 0 (default) means no limit.
        skip_first (int, optional): steps skipped (CLOSED) before the first period.

    Returns:
        Callable[[int], ProfilerState]: the scheduler.

    Examples:
        >>> import pagaie.profiler as profiler
        >>> s = profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1)
        >>> [s(i).name for i in range(5)]
        ['CLOSED', 'READY', 'RECORD', 'RECORD_AND_RETURN', 'CLOSED']
    """
    if not (closed >= 0 and ready >= 0 and record > 0 and repeat >= 0 and skip_first >= 0):
        raise AssertionError("paddle.profiler.make_scheduler: invalid arguments: closed, ready, repeat "
                             "and skip_first must be >= 0 and record > 0, but received "
                             f"closed={closed}, ready={ready}, record={record}, repeat={repeat}, "
                             f"skip_first={skip_first}")
    if ready == 0:
        warnings.warn("paddle.profiler.make_scheduler: with ready=0 the profiler records right after "
                      "it is enabled, so the first recorded data may include its start-up overhead")
    period = closed + ready + record

    def getScheduleState(step: int) -> ProfilerState:  # noqa: N802 - Paddle's name
        if step < 0:
            raise AssertionError(f"paddle.profiler scheduler: step must be >= 0, but received {step}")
        if step < skip_first:
            return ProfilerState.CLOSED
        step -= skip_first
        if repeat > 0 and step // period >= repeat:
            return ProfilerState.CLOSED
        pos = step % period
        if pos < closed:
            return ProfilerState.CLOSED
        if pos < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD if pos < period - 1 else ProfilerState.RECORD_AND_RETURN

    return getScheduleState


def _default_scheduler(step: int) -> ProfilerState:
    return ProfilerState.RECORD


def _make_dir(dir_name: str) -> None:
    if not isinstance(dir_name, (str, bytes, os.PathLike, int)) or isinstance(dir_name, bool):
        raise TypeError(f"paddle.profiler: dir_name should be a path (str), but received "
                        f"{type(dir_name).__name__}")
    try:
        os.makedirs(dir_name, exist_ok=True)
    except (OSError, TypeError):
        raise RuntimeError(f"paddle.profiler: cannot create directory {dir_name!r} for saving "
                           "profiling results") from None


def _trace_file(dir_name: str, worker_name: str | None, ext: str) -> str:
    worker = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
    stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
    return os.path.join(dir_name, f"{worker}_time_{stamp}.paddle_trace.{ext}")


def export_chrome_tracing(dir_name: str, worker_name: str | None = None) -> Callable[[Profiler], None]:
    """An ``on_trace_ready`` callback that writes each result as a Chrome trace JSON file.

    Files go to ``dir_name`` (created now) as ``{worker_name}_time_{timestamp}.paddle_trace.json``;
    ``worker_name`` defaults to ``host_{hostname}pid_{pid}``. Open them in chrome://tracing or Perfetto.

    Args:
        dir_name (str): the output directory.
        worker_name (str, optional): the file name prefix.

    Returns:
        Callable[[Profiler], None]: the callback.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> import pagaie.profiler as profiler
        >>> d = tempfile.mkdtemp()
        >>> with profiler.Profiler(on_trace_ready=profiler.export_chrome_tracing(d, 'w')) as p:
        ...     y = paddle.ones([2]) * 3
        >>> [f.endswith('.paddle_trace.json') for f in os.listdir(d)]
        [True]
    """
    _make_dir(dir_name)

    def handle(prof: Profiler) -> None:
        prof.export(_trace_file(dir_name, worker_name, "json"), "json")

    return handle


def export_protobuf(dir_name: str, worker_name: str | None = None) -> Callable[[Profiler], None]:
    """An ``on_trace_ready`` callback for Paddle's protobuf trace format, which pagaie cannot write.

    The directory is created as Paddle does; the callback raises NotImplementedError when a
    result is ready. Use :func:`export_chrome_tracing` instead.

    Args:
        dir_name (str): the output directory.
        worker_name (str, optional): the file name prefix.

    Returns:
        Callable[[Profiler], None]: the callback.

    Examples:
        >>> import tempfile
        >>> import pagaie.profiler as profiler
        >>> callback = profiler.export_protobuf(tempfile.mkdtemp())
        >>> callable(callback)
        True
    """
    _make_dir(dir_name)

    def handle(prof: Profiler) -> None:
        prof.export(_trace_file(dir_name, worker_name, "pb"), "pb")

    return handle


def _supported_targets() -> list[ProfilerTarget]:
    if torch.cuda.is_available():
        return [ProfilerTarget.CPU, ProfilerTarget.GPU, ProfilerTarget.CUSTOM_DEVICE]
    return [ProfilerTarget.CPU, ProfilerTarget.CUSTOM_DEVICE]


_READER_PATCHED: list[tuple[type, Callable]] = []


def _hook_data_loader(on: bool) -> None:
    """Time the data loader (reader cost, Dataloader ranges) while a Profiler runs."""
    from pagaie.io import dataloader as dl
    if on and not _READER_PATCHED:
        names = {"_SingleProcessIter": "_DataLoaderIterSingleProcess",
                 "_MultiProcessIter": "_DataLoaderIterMultiProcess"}
        for cname, label in names.items():
            cls = getattr(dl, cname, None)
            if cls is None:
                continue
            orig = cls.__next__

            def timed(self: Any, _orig: Callable = orig, _label: str = label) -> Any:
                bench = benchmark()
                ev = _recorder.RangeHook.open(_label, TracerEventType.Dataloader)
                bench.before_reader()
                try:
                    return _orig(self)
                finally:
                    bench.after_reader()
                    if ev is not None:
                        ev.close()
            cls.__next__ = timed
            _READER_PATCHED.append((cls, orig))
    elif not on:
        while _READER_PATCHED:
            cls, orig = _READER_PATCHED.pop()
            cls.__next__ = orig


_RUNNING: list[Profiler] = []


class Profiler:
    """Profile a program: op times, kernels underneath, user ranges, step timing.

    Between :meth:`start` and :meth:`stop` (or inside ``with``), each :meth:`step` moves
    to the next step, whose state the ``scheduler`` decides. In recording states every
    op call is timed under its Paddle name and torch's profiler captures the kernels
    below; when a recording period ends (``RECORD_AND_RETURN``, or :meth:`stop`),
    ``on_trace_ready`` gets the profiler, whose result :meth:`summary` prints and
    :meth:`export` writes.

    Args:
        targets (list, optional): the :class:`ProfilerTarget` devices to record; all
            supported ones by default.
        scheduler (Callable|tuple, optional): a function from step number to
            :class:`ProfilerState` (see :func:`make_scheduler`), or ``(start, end)`` to
            record steps ``[start, end)``; by default every step is recorded.
        on_trace_ready (Callable, optional): called with the profiler when a result is
            ready; defaults to ``export_chrome_tracing('./profiler_log/')``.
        record_shapes (bool, optional): record op input shapes and dtypes.
        profile_memory (bool, optional): record memory allocations and releases.
        timer_only (bool, optional): only time the steps (see :meth:`step_info`), no profiling.
        emit_nvtx (bool, optional): also emit NVTX ranges (for Nsight) on CUDA.
        custom_device_types (list, optional): accepted for compatibility.
        with_flops (bool, optional): estimate the FLOPs of matrix products and convolutions.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.profiler as profiler
        >>> lin = paddle.nn.Linear(4, 2)
        >>> prof = profiler.Profiler(scheduler=(1, 3), on_trace_ready=lambda p: None)
        >>> prof.start()
        >>> for i in range(4):
        ...     loss = lin(paddle.ones([2, 4])).mean()
        ...     loss.backward()
        ...     prof.step()
        >>> prof.stop()
        >>> names = {e.name for e in prof.profiler_result.events()}
        >>> sorted(n for n in names if n.startswith('ProfileStep'))
        ['ProfileStep#1', 'ProfileStep#2']
        >>> 'linear dygraph' in names and 'Gradient Backward' in names
        True
    """

    def __init__(self, *, targets: Iterable[ProfilerTarget] | None = None,
                 scheduler: Callable[[int], ProfilerState] | tuple[int, int] | None = None,
                 on_trace_ready: Callable[[Profiler], None] | None = None, record_shapes: bool = False,
                 profile_memory: bool = False, timer_only: bool = False, emit_nvtx: bool = False,
                 custom_device_types: list[str] = [], with_flops: bool = False) -> None:  # noqa: B006
        supported = _supported_targets()
        if targets:
            self.targets = set(targets)
            for t in list(targets):
                if t not in supported:
                    self.targets.discard(t)
                    warnings.warn(f"Profiling {t} is not supported in current context.")
        else:
            self.targets = set(supported)
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)):
            if not (len(scheduler) == 2 and scheduler[1] > scheduler[0]):
                raise AssertionError("paddle.profiler.Profiler: scheduler as a range must be "
                                     f"(start_batch, end_batch) with end_batch > start_batch, "
                                     f"but received {tuple(scheduler)}")
            start, end = max(scheduler[0], 0), scheduler[1]
            if start >= 1:
                self.scheduler = make_scheduler(closed=start - 1, ready=1, record=end - start, repeat=1)
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    self.scheduler = make_scheduler(closed=0, ready=0, record=end - start, repeat=1)
        elif scheduler is None:
            self.scheduler = _default_scheduler
        else:
            raise TypeError("paddle.profiler.Profiler: scheduler must be a callable, a (start, end) "
                            f"tuple or None, but received {type(scheduler).__name__}")
        self.on_trace_ready = on_trace_ready if on_trace_ready is not None \
            else export_chrome_tracing("./profiler_log/")
        self.custom_device_types = list(custom_device_types or [])
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.timer_only = timer_only
        self.emit_nvtx = emit_nvtx
        self.with_flops = with_flops
        self.profiler = _recorder.Recorder(self.targets, record_shapes, profile_memory, bool(with_flops),
                                           emit_nvtx)
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.record_event: RecordEvent | None = None
        self.profiler_result: ProfilerResult | None = None
        self._span = 0

    def __enter__(self) -> Profiler:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc_val: BaseException | None,
                 exc_tb: TracebackType | None) -> None:
        self.stop()

    # ---- the state machine ------------------------------------------------------------
    def _begin_step_range(self) -> None:
        self.record_event = RecordEvent(f"ProfileStep#{self.step_num}", TracerEventType.ProfileStep)
        self.record_event.begin()

    def _end_step_range(self) -> None:
        if self.record_event is not None:
            self.record_event.end()
            self.record_event = None

    def _collect(self) -> None:
        result = self.profiler.stop()
        if result is not None:
            result._span = self._span
            self._span += 1
            self.profiler_result = result

    def start(self) -> None:
        """Start profiling at step 0, in the state the scheduler gives it.

        Examples:
            >>> import pagaie.profiler as profiler
            >>> prof = profiler.Profiler(on_trace_ready=lambda p: None)
            >>> prof.start()
            >>> prof.current_state.name
            'RECORD'
            >>> prof.stop()
        """
        benchmark().begin()
        _RUNNING.append(self)
        _hook_data_loader(True)
        if self.timer_only:
            return
        if self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self.profiler.start()
        self._begin_step_range()

    def stop(self) -> None:
        """Stop profiling; a recording in progress ends and goes to ``on_trace_ready``.

        Examples:
            >>> import pagaie.profiler as profiler
            >>> prof = profiler.Profiler(on_trace_ready=lambda p: print('ready'))
            >>> prof.start()
            >>> prof.stop()
            ready
        """
        if (self not in _RUNNING and not self.timer_only
                and self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)):
            raise RuntimeError("paddle.profiler.Profiler.stop: the profiler is not recording (stop() "
                               "without a start() before it); call start() first")
        benchmark().end()
        if self in _RUNNING:
            _RUNNING.remove(self)
        if not _RUNNING:
            _hook_data_loader(False)
        if self.timer_only:
            return
        self._end_step_range()
        if self.current_state == ProfilerState.READY:
            warnings.warn("Improper Profiler state transform: READY->CLOSED, profiler will start and "
                          "stop without saving data")
        if self.current_state in (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN):
            self._collect()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def step(self, num_samples: int | None = None) -> None:
        """Move to the next step (call once per iteration).

        Args:
            num_samples (int, optional): the batch size of the step, for the throughput
                in :meth:`step_info`; without it throughput is in steps/s.

        Examples:
            >>> import pagaie.profiler as profiler
            >>> prof = profiler.Profiler(scheduler=profiler.make_scheduler(closed=1, ready=0, record=1),
            ...                          on_trace_ready=lambda p: None)
            >>> prof.start()
            >>> prof.step()
            >>> prof.current_state.name
            'RECORD_AND_RETURN'
            >>> prof.stop()
        """
        benchmark().step(num_samples)
        if self.timer_only:
            return
        self._end_step_range()
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._transition()
        self._begin_step_range()

    def _transition(self) -> None:
        prev, cur = self.previous_state, self.current_state
        recording = (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)
        if prev == ProfilerState.CLOSED or prev == ProfilerState.READY:
            if prev == ProfilerState.READY and cur == ProfilerState.CLOSED:
                warnings.warn("Improper schedule: READY->CLOSED, profiler will start and stop "
                              "without saving data")
            if cur in recording:
                self.profiler.start()
        elif prev == ProfilerState.RECORD:
            if cur == ProfilerState.CLOSED:
                warnings.warn("Improper schedule: RECORD->CLOSED, profiler will not saving data")
                self.profiler.stop()
            elif cur == ProfilerState.READY:
                warnings.warn("Improper schedule: RECORD->READY, profiler will stop and re-prepare")
                self.profiler.stop()
        else:  # RECORD_AND_RETURN: the period ends here
            self._collect()
            if cur in recording:
                self.profiler.start()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    # ---- results -------------------------------------------------------------------------
    def step_info(self, unit: str | None = None) -> str:
        """Average reader cost, batch cost and throughput since the last call, as text.

        Args:
            unit (str, optional): the unit of ``num_samples`` (``'images'`` gives
                ``images/s``); ``'samples'`` by default.

        Returns:
            str: e.g. ``' batch_cost: 0.00100 s ips: 1000.000 samples/s'``.

        Examples:
            >>> import pagaie.profiler as profiler
            >>> prof = profiler.Profiler(timer_only=True, on_trace_ready=lambda p: None)
            >>> prof.start()
            >>> prof.step(num_samples=32)
            >>> info = prof.step_info(unit='images')
            >>> 'batch_cost' in info and 'images/s' in info
            True
            >>> prof.stop()
        """
        return benchmark().step_info("samples" if unit is None else unit)

    def export(self, path: str = "", format: str = "json") -> None:
        """Write the latest result to ``path`` as a Chrome trace (``format='json'``).

        Args:
            path (str): the output file.
            format (str, optional): ``'json'``; Paddle's protobuf ``'pb'`` raises NotImplementedError.

        Examples:
            >>> import os, tempfile, json
            >>> import pagaie as paddle
            >>> import pagaie.profiler as profiler
            >>> path = os.path.join(tempfile.mkdtemp(), 'trace.json')
            >>> with profiler.Profiler(on_trace_ready=lambda p: None) as prof:
            ...     y = paddle.ones([2]) + 1
            >>> prof.export(path)
            >>> 'traceEvents' in json.load(open(path))
            True
        """
        if self.profiler_result is not None:
            self.profiler_result.save(path, format)

    def summary(self, sorted_by: SortedKeys = SortedKeys.CPUTotal, op_detail: bool = True,
                thread_sep: bool = False, time_unit: Literal["s", "ms", "us", "ns"] = "ms",
                views: SummaryView | Sequence[SummaryView] | None = None) -> None:
        """Print Paddle-style summary tables of the latest result.

        Args:
            sorted_by (SortedKeys, optional): the order of table rows; CPU total time by default.
            op_detail (bool, optional): list what runs inside each operator.
            thread_sep (bool, optional): one operator table per thread.
            time_unit (str, optional): ``'s'``, ``'ms'`` (default), ``'us'`` or ``'ns'``.
            views (SummaryView|list, optional): the tables to print; all by default.

        Examples:
            >>> import pagaie as paddle
            >>> import pagaie.profiler as profiler
            >>> with profiler.Profiler(on_trace_ready=lambda p: None) as prof:
            ...     y = paddle.ones([2]) + 1
            >>> prof.summary(views=profiler.SummaryView.OperatorView, op_detail=False)  # doctest: +ELLIPSIS
            -...Operator Summary...
            ...
        """
        if isinstance(views, SummaryView):
            views = [views]
        if time_unit not in ("s", "ms", "us", "ns"):
            raise ValueError(f"paddle.profiler.Profiler.summary: time_unit must be one of 's', 'ms', "
                             f"'us', 'ns', but received {time_unit!r}")
        if self.profiler_result is not None:
            print(build_table(self.profiler_result, sorted_by=sorted_by, op_detail=op_detail,
                              thread_sep=thread_sep, time_unit=time_unit, views=views))
            if self.with_flops:
                print(flops_table(self.profiler_result))
