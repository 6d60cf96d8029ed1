"""The compiled executor: fx lowering, torch.compile, training through autograd, fallback."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import pagaie as paddle
from pagaie._static.compiled import CompiledPlan, StrategyRunner
from pagaie._static.interpreter import Plan
from tests.static_passes.helpers import run, static_program


def _classifier(seed: int = 0):
    with static_program(seed) as main:
        x = paddle.static.data("x", [None, 3, 8, 8], "float32")
        label = paddle.static.data("label", [None, 1], "int64")
        conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
        bn = paddle.nn.BatchNorm2D(4)
        h = paddle.flatten(paddle.nn.functional.relu(bn(conv(x))), 1)
        logits = paddle.nn.Linear(256, 10)(h)
        loss = paddle.nn.functional.cross_entropy(logits, label)
        paddle.optimizer.Momentum(0.05, momentum=0.9).minimize(loss)
    return main, loss, logits, bn


def _batches(n: int = 5):
    g = torch.Generator().manual_seed(1)
    return [{"x": torch.randn(8, 3, 8, 8, generator=g),
             "label": torch.randint(0, 10, (8, 1), generator=g)} for _ in range(n)]


def _train(plan_factory, seed: int = 0):
    main, loss, _, bn = _classifier(seed)
    plan = plan_factory(main, loss)
    dev = paddle.device.get_device().replace("gpu", "cuda")
    losses = [float(plan.run({k: v.to(dev) for k, v in b.items()})[0].detach()) for b in _batches()]
    return losses, [p.source._t.detach().clone() for p in main.all_parameters()], bn._mean._t.clone()


@pytest.mark.parametrize("backend", [None, "eager"])
def test_training_matches_the_interpreter(backend):
    ref = _train(lambda m, l: Plan(m, ["label", "x"], [l]))
    got = _train(lambda m, l: CompiledPlan(m, ["label", "x"], [l], backend=backend))
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-5, atol=1e-6)
    for a, b in zip(got[1], ref[1]):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(got[2], ref[2], rtol=1e-4, atol=1e-5)


def test_inference_matches_the_interpreter_and_segments_split_at_graph_ops():
    with static_program() as main:
        x = paddle.static.data("x", [None, 6], "float32")
        h = paddle.nn.functional.relu(paddle.nn.Linear(6, 6)(x))
        h = paddle.static.Print(h) if hasattr(paddle.static, "Print") else h
        out = paddle.tanh(h * 2.0) + paddle.exp(x)
    feed = {"x": torch.randn(3, 6)}
    plan = CompiledPlan(main, ["x"], [out], backend=None)
    ref = run(main, feed, [out])[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = plan.run(feed)[0]
    torch.testing.assert_close(got, ref)
    n_graph = sum(kind == "graph" for kind, _ in plan.schedule)
    assert len(plan.segments) == n_graph + 1


def test_inductor_compiles_a_small_program():
    with static_program() as main:
        x = paddle.static.data("x", [4, 8], "float32")
        out = paddle.nn.functional.relu(paddle.nn.Linear(8, 8)(x) * 2.0 - 1.0)
    feed = {"x": torch.randn(4, 8)}
    plan = CompiledPlan(main, ["x"], [out], backend="inductor")
    torch.testing.assert_close(plan.run(feed)[0], run(main, feed, [out])[0])
    assert plan.segments[0].compiled


def test_dropout_and_layer_norm_trace_without_graph_breaks():
    """A dropout (training) and a layer norm lower to one dynamo graph: their scalar
    checks (float32 rounding of p and epsilon) are constants at trace time, not numpy calls
    that split the graph; the masks are Paddle's, as in the interpreter."""
    from torch._dynamo.utils import counters
    with static_program() as main:
        x = paddle.static.data("x", [4, 16], "float32")
        h = paddle.nn.functional.dropout(paddle.nn.LayerNorm(16)(x), 0.25)
        out = paddle.nn.functional.layer_norm(h * 2.0, 16, epsilon=1e-6)
    feed = {"x": torch.randn(4, 16)}
    torch._dynamo.reset()
    counters.clear()
    paddle.seed(5)
    got = CompiledPlan(main, ["x"], [out], backend="eager").run(feed)[0]
    assert not counters["graph_break"], dict(counters["graph_break"])
    paddle.seed(5)
    torch.testing.assert_close(got, run(main, feed, [out])[0])


def _pooling_losses(plan_factory):
    with static_program() as main:
        x = paddle.static.data("x", [2, 3, 8, 8], "float32")
        h = paddle.nn.functional.relu(paddle.nn.Conv2D(3, 4, 3, padding=1)(x))
        h = paddle.nn.functional.avg_pool2d(paddle.nn.functional.max_pool2d(h, 2), 2)
        loss = h.mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    plan = plan_factory(main, loss)
    feeds = torch.randn(3, 2, 3, 8, 8, generator=torch.Generator().manual_seed(0))
    return [float(plan.run({"x": f})[0].detach()) for f in feeds]


def test_pooling_trains_without_graph_breaks():
    """Pools in a training program lower to one dynamo graph (their eager double-grad
    wrapper is left out of compiled code) and train as the interpreter does."""
    _assert_one_graph_trains_as_interpreter(_pooling_losses)


def _assert_one_graph_trains_as_interpreter(losses):
    """``losses(plan_factory)`` gives the interpreter's losses, and the compiled plan's
    without a dynamo graph break."""
    from torch._dynamo.utils import counters
    ref = losses(lambda m, l: Plan(m, ["x"], [l]))
    torch._dynamo.reset()
    counters.clear()
    got = losses(lambda m, l: CompiledPlan(m, ["x"], [l], backend="eager"))
    assert not counters["graph_break"], dict(counters["graph_break"])
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


def test_compile_failure_falls_back_with_a_warning():
    with static_program() as main:
        x = paddle.static.data("x", [3], "float32")
        out = paddle.exp(x) + 1.0
    plan = CompiledPlan(main, ["x"], [out], backend="no_such_backend")
    feed = {"x": torch.randn(3)}
    with pytest.warns(RuntimeWarning, match="running it uncompiled"):
        got = plan.run(feed)[0]
    torch.testing.assert_close(got, torch.exp(feed["x"]) + 1.0)
    assert not plan.segments[0].compiled
    torch.testing.assert_close(plan.run(feed)[0], got)   # no second warning, same result


def test_program_errors_still_raise():
    with static_program() as main:
        x = paddle.static.data("x", [None, 3], "float32")
        out = paddle.matmul(x, paddle.ones([3, 2]))
    plan = CompiledPlan(main, ["x"], [out], backend=None)
    with pytest.raises(Exception):
        plan.run({"x": torch.randn(2, 5)})


@pytest.mark.slow
def test_inductor_training_matches_the_interpreter():
    ref = _train(lambda m, l: Plan(m, ["label", "x"], [l]))
    got = _train(lambda m, l: CompiledPlan(m, ["label", "x"], [l], backend="inductor"))
    np.testing.assert_allclose(got[0], ref[0], rtol=1e-4, atol=1e-5)


def test_strategy_runner_through_the_executor():
    from pagaie.static.build_strategy import BuildStrategy
    main, loss, logits, _ = _classifier()
    ref_main, ref_loss, _, _ = _classifier()
    bs = BuildStrategy()
    bs.fuse_elewise_add_act_ops = bs.fuse_bn_act_ops = bs.fuse_gemm_epilogue = True
    runner = StrategyRunner(main, bs)
    exe = paddle.static.Executor(paddle.CPUPlace())
    for b in _batches(3):
        feed = {k: v.numpy() for k, v in b.items()}
        (a,) = exe.run(runner, feed=feed, fetch_list=[loss])
        (r,) = exe.run(ref_main, feed=feed, fetch_list=[ref_loss])
        np.testing.assert_allclose(a, r, rtol=1e-5, atol=1e-6)
    plan = next(iter(runner._plans.values()))
    assert any(op.type == "fused_conv2d_bn_act" for op, *_ in plan.steps)


def _fast_path_losses(plan_factory):
    F = paddle.nn.functional
    with static_program() as main:
        x = paddle.static.data("x", [2, 3, 6, 6], "float32")
        h = F.leaky_relu(paddle.nn.Conv2D(3, 4, 3, padding=1)(x), 0.1)
        h = F.softshrink(h, 0.1) + F.thresholded_relu(h, 0.2) + F.elu(h) + F.prelu(h, paddle.full([1], 0.2))
        h = F.interpolate(F.interpolate(h, scale_factor=2, mode="nearest"), scale_factor=0.5, mode="bilinear")
        loss = F.smooth_l1_loss(h, h * 0.5) + F.cross_entropy(
            h.reshape([2, -1]), paddle.zeros([2], "int64"), label_smoothing=0.1)
        paddle.optimizer.SGD(0.1).minimize(loss)
    plan = plan_factory(main, loss)
    feeds = torch.randn(2, 2, 3, 6, 6, generator=torch.Generator().manual_seed(0))
    return [float(plan.run({"x": f})[0].detach()) for f in feeds]


def test_cpu_fast_path_kernels_trace_without_graph_breaks():
    """The kernels that replaced torch.where (masks, resize guards, label smoothing's values)
    keep their scalar logic at trace time: one graph, the interpreter's losses."""
    _assert_one_graph_trains_as_interpreter(_fast_path_losses)
