"""The interpreter's buffer-reuse plan (BuildStrategy.enable_inplace / memory_optimize)."""
from __future__ import annotations

import torch

import pagaie as paddle
from pagaie._static.interpreter import Plan
from tests.static_passes.helpers import run, static_program


def _chain():
    with static_program() as main:
        x = paddle.static.data("x", [None, 16], "float32")
        h = paddle.exp(x) * 2.0
        h = paddle.nn.functional.relu(h - 3.0)
        out = paddle.tanh(h + x)
    return main, x, out


def test_reuse_gives_the_same_results_and_leaves_feeds_alone():
    main, x, out = _chain()
    plan = Plan(main, ["x"], [out], reuse_buffers=True)
    assert plan.reused >= 3          # multiply, subtract, relu, add, tanh write into dying inputs
    feed = torch.randn(4, 16)
    keep = feed.clone()
    ref = run(main, {"x": feed}, [out])[0]
    got = plan.run({"x": feed})[0]
    torch.testing.assert_close(got, ref)
    assert torch.equal(feed, keep)
    got2 = plan.run({"x": feed})[0]   # runs again the same (dynamic batch too)
    torch.testing.assert_close(got2, ref)
    torch.testing.assert_close(plan.run({"x": feed[:2]})[0], ref[:2])


def test_buffers_are_not_reused_while_a_view_or_alias_lives():
    with static_program() as main:
        x = paddle.static.data("x", [4, 4], "float32")
        h = paddle.exp(x)
        v = paddle.reshape(h, [16])            # a view of h's buffer, fetched
        r = paddle.nn.functional.relu(h - 1.0)  # h dies here, but v shares its storage
        w = paddle.exp(r)
        out = w * 1.0
    feed = {"x": torch.randn(4, 4)}
    ref = run(main, feed, [v, out])
    got = Plan(main, ["x"], [main.global_block().var(v.name), out], reuse_buffers=True).run(feed)
    for a, b in zip(got, ref):
        torch.testing.assert_close(a, b)


def test_no_reuse_when_the_plan_has_a_backward_op():
    with static_program() as main:
        x = paddle.static.data("x", [8, 4], "float32")
        loss = paddle.tanh(paddle.nn.Linear(4, 4)(x) * 2.0 + 1.0).mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    plan = Plan(main, ["x"], [loss], reuse_buffers=True)
    assert plan.has_backward and plan.reused == 0
