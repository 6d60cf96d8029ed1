"""static.gradients twice on one forward, and gradients of gradients (second order)."""
from __future__ import annotations

import numpy as np

import pagaie as paddle


def _run(build):
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [3], "float32")
            x.stop_gradient = False
            fetch = build(x)
        exe = paddle.static.Executor(paddle.CPUPlace())
        return exe.run(main, feed={"x": np.array([1.0, 2.0, -3.0], "float32")}, fetch_list=fetch)
    finally:
        paddle.disable_static()


def test_two_gradient_passes_over_one_forward():
    def build(x):
        y = (x * x * x).sum()
        (g1,) = paddle.static.gradients([y], [x])
        (g2,) = paddle.static.gradients([y], [x])
        return [g1, g2]
    g1, g2 = _run(build)
    np.testing.assert_allclose(g1, 3 * np.array([1.0, 4.0, 9.0]), rtol=1e-6)
    np.testing.assert_allclose(g2, g1)


def test_second_order_gradient():
    def build(x):
        y = (x * x * x).sum()
        (g,) = paddle.static.gradients([y], [x])
        (gg,) = paddle.static.gradients([g.sum()], [x])
        return [g, gg]
    g, gg = _run(build)
    np.testing.assert_allclose(g, [3.0, 12.0, 27.0], rtol=1e-6)
    np.testing.assert_allclose(gg, [6.0, 12.0, -18.0], rtol=1e-6)
