"""paddle.profiler: scheduler vs real Paddle, op events, traces, ranges, summary, zero cost when off."""
from __future__ import annotations

import json
import os
import warnings

import pytest

import pagaie as paddle
import pagaie.profiler as profiler
from pagaie._core import registry
from pagaie._core.tensor import Tensor
from pagaie.nn import Layer
from tests.reference import paddle_ref

SCHEDULES = [
    dict(closed=1, ready=1, record=4, repeat=1),
    dict(closed=1, ready=1, record=4, skip_first=1),
    dict(closed=0, ready=0, record=1),
    dict(closed=2, ready=0, record=3, repeat=2, skip_first=3),
    dict(closed=0, ready=2, record=2, repeat=0, skip_first=0),
]


def _quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **k)


@pytest.mark.parametrize("cfg", SCHEDULES, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_scheduler_matches_paddle(cfg):
    real = paddle_ref()
    ours = _quiet(profiler.make_scheduler, **cfg)
    theirs = _quiet(real.profiler.make_scheduler, **cfg)
    assert [ours(i).name for i in range(30)] == [theirs(i).name for i in range(30)]


@pytest.mark.parametrize("bad", [dict(closed=1, ready=1, record=0), dict(closed=-1, ready=0, record=1),
                                 dict(closed=0, ready=0, record=1, repeat=-1)])
def test_scheduler_bad_args_raise_like_paddle(bad):
    real = paddle_ref()
    with pytest.raises(AssertionError):
        _quiet(real.profiler.make_scheduler, **bad)
    with pytest.raises(AssertionError, match="paddle.profiler.make_scheduler"):
        _quiet(profiler.make_scheduler, **bad)


def test_enums_match_paddle():
    real = paddle_ref()
    for name in ("ProfilerState", "ProfilerTarget", "SortedKeys", "SummaryView"):
        ours = {m.name: m.value for m in getattr(profiler, name)}
        theirs = {m.name: m.value for m in getattr(real.profiler, name)}
        assert ours == theirs, name
    assert sorted(profiler.__all__) == sorted(real.profiler.__all__)


def test_range_scheduler_matches_paddle():
    real = paddle_ref()
    for rng in [(2, 5), (0, 3), (1, 2)]:
        ours = profiler.Profiler(scheduler=rng, on_trace_ready=lambda p: None)
        theirs = _quiet(real.profiler.Profiler, scheduler=rng, on_trace_ready=lambda p: None)
        assert [ours.scheduler(i).name for i in range(8)] == [theirs.scheduler(i).name for i in range(8)]
    with pytest.raises(AssertionError):
        profiler.Profiler(scheduler=(3, 3), on_trace_ready=lambda p: None)


class _MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 8)
        self.fc2 = paddle.nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def _train(prof, steps, record_range=True):
    model = _MLP()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    for _ in range(steps):
        x = paddle.randn([3, 4])
        if record_range:
            with profiler.RecordEvent("fwd_range"):
                out = model(x)
        else:
            out = model(x)
        loss = paddle.add(paddle.matmul(out, out, transpose_y=True), paddle.ones([3, 3])).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        prof.step(num_samples=3)


def test_training_loop_records_ops_and_writes_chrome_trace(tmp_path):
    ready = []
    prof = profiler.Profiler(scheduler=profiler.make_scheduler(closed=1, ready=1, record=2, repeat=1),
                             on_trace_ready=profiler.export_chrome_tracing(str(tmp_path), "worker"))
    prof.on_trace_ready, export = (lambda p: (ready.append(p.step_num), export(p))), prof.on_trace_ready
    with prof:
        _train(prof, 5)
    assert ready == [4]  # the period [2, 3] ends when step 4 begins
    names = [e.name for e in prof.profiler_result.events()]
    for op in ("matmul dygraph", "add dygraph", "relu dygraph", "mean dygraph", "linear dygraph"):
        assert op in names, op
    assert sorted({n for n in names if n.startswith("ProfileStep")}) == ["ProfileStep#2", "ProfileStep#3"]
    assert {"Gradient Backward", "Optimization Step", "_MLP", "Linear"} <= set(names)
    # torch's profiler captured the kernels underneath the ops
    mm = next(e for e in prof.profiler_result.events() if e.name == "matmul dygraph")
    assert any(c.name.startswith("aten::") for c in mm.children_node)

    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].startswith("worker_time_") and files[0].endswith(".paddle_trace.json")
    trace = json.loads((tmp_path / files[0]).read_text())
    assert isinstance(trace["traceEvents"], list)
    ops = [e for e in trace["traceEvents"] if e.get("cat") == "Operator"]
    assert any(e["name"].startswith("matmul dygraph[") for e in ops)
    assert all({"ts", "dur", "pid", "tid", "ph"} <= set(e) for e in ops)

    loaded = profiler.load_profiler_result(str(tmp_path / files[0]))
    assert sorted(e.name for e in loaded.events()) == sorted(names)


def test_record_event_ranges_and_summary(capsys):
    with profiler.Profiler(on_trace_ready=lambda p: None, record_shapes=True) as prof:
        with profiler.RecordEvent("outer"):
            ev = profiler.RecordEvent("inner")
            ev.begin()
            y = paddle.ones([2, 3]) * 2
            ev.end()
        _train(prof, 1)
    events = prof.profiler_result.events()
    outer = next(e for e in events if e.name == "outer")
    assert outer.type == profiler.TracerEventType.PythonUserDefined
    inner = next(c for c in outer.children_node if c.name == "inner")
    assert any(c.name == "multiply dygraph" for c in inner.walk())
    mul = next(c for c in inner.walk() if c.name == "multiply dygraph")
    assert mul.input_shapes["x"] == [[2, 3]]
    prof.summary()
    out = capsys.readouterr().out
    for title in ("Device Summary", "Overview Summary", "Model Summary", "Operator Summary",
                  "UserDefined Summary"):
        assert title in out, title
    assert "matmul dygraph" in out and "outer" in out and "fwd_range" in out
    prof.summary(sorted_by=profiler.SortedKeys.CPUMin, op_detail=False, thread_sep=True, time_unit="us",
                 views=[profiler.SummaryView.OperatorView])
    out = capsys.readouterr().out
    assert "Operator Summary" in out and "Model Summary" not in out and "Time unit: us" in out
    assert "  aten::" not in out  # op_detail=False hides what runs inside the ops


def test_record_event_outside_profiler_is_a_no_op():
    ev = profiler.RecordEvent("nothing")
    with ev:
        paddle.ones([1])
    assert ev.event is None


def test_memory_view(capsys):
    with profiler.Profiler(on_trace_ready=lambda p: None, profile_memory=True) as prof:
        y = paddle.ones([64, 64]) + 1
    prof.summary(views=profiler.SummaryView.MemoryView)
    out = capsys.readouterr().out
    assert "Memory Summary - Place(cpu)" in out and "Peak Allocated Memory" in out


def test_no_handler_or_patch_when_off():
    layer_call, backward = Layer.__call__, Tensor.backward
    handlers = list(registry.STATE.handlers)
    prof = profiler.Profiler(scheduler=(1, 2), on_trace_ready=lambda p: None)
    prof.start()  # step 0 is READY: nothing installed yet
    assert registry.STATE.handlers == handlers
    prof.step()  # RECORD
    assert prof.profiler.handler in registry.STATE.handlers
    assert Layer.__call__ is not layer_call
    prof.step()  # CLOSED again
    prof.stop()
    assert registry.STATE.handlers == handlers
    assert Layer.__call__ is layer_call and Tensor.backward is backward
    if not handlers:
        assert registry.STATE.intercept is None


def test_timer_only_and_step_info(capsys):
    prof = profiler.Profiler(timer_only=True, on_trace_ready=lambda p: None)
    prof.start()
    assert prof.profiler.handler not in registry.STATE.handlers
    for _ in range(12):
        paddle.ones([4]) + 1
        prof.step(num_samples=4)
    info = prof.step_info(unit="images")
    assert info.startswith(" batch_cost: ") and info.endswith(" images/s")
    prof.step()
    assert prof.step_info().endswith(" steps/s")
    prof.stop()
    assert prof.profiler_result is None
    assert "Perf Summary" in capsys.readouterr().out


def test_reader_cost_from_data_loader():
    data = paddle.io.TensorDataset([paddle.randn([8, 2])])
    loader = paddle.io.DataLoader(data, batch_size=2)
    with profiler.Profiler(on_trace_ready=lambda p: None) as prof:
        for _ in loader:
            prof.step()
        info = prof.step_info()
    assert "reader_cost" in info
    names = {e.name for e in prof.profiler_result.events()}
    assert "_DataLoaderIterSingleProcess" in names


def test_export_protobuf_is_not_supported(tmp_path):
    prof = profiler.Profiler(on_trace_ready=profiler.export_protobuf(str(tmp_path)))
    prof.start()
    paddle.ones([1])
    with pytest.raises(NotImplementedError, match="protobuf"):
        prof.stop()


def test_load_rejects_foreign_files(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("not json")
    with pytest.raises(ValueError, match="load_profiler_result"):
        profiler.load_profiler_result(str(bad))


@pytest.mark.gpu
def test_gpu_kernels_are_recorded(capsys):
    with profiler.Profiler(on_trace_ready=lambda p: None) as prof:
        a = paddle.ones([256, 256]).cuda()
        (a @ a).sum().numpy()
    kernels = [d for e in prof.profiler_result.events() for d in e.device_node]
    assert kernels
    prof.summary(views=[profiler.SummaryView.KernelView, profiler.SummaryView.OperatorView])
    out = capsys.readouterr().out
    assert "Kernel Summary" in out
