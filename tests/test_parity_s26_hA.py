"""Differential tests against real Paddle for the fixes of the doc-example audit (session 26, hA).

* ``vision.ops.deform_conv2d`` samples the whole batch and all offset groups at once: values
  and gradients of every input still match Paddle's kernel (batches, offset groups,
  convolution groups, strides, dilations, masks, an empty batch);
* ``static.nn.deform_conv2d`` builds with an unknown batch size (it raised
  NotImplementedError), and the program's result matches Paddle's eager kernel on the same
  filter.
"""
from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

# n, c, h, w, co, k, deformable_groups, groups, stride, padding, dilation, with mask
_CASES = [(2, 4, 6, 6, 4, 3, 2, 2, 1, 1, 1, True),
          (1, 2, 5, 5, 3, 3, 1, 1, 2, 0, 1, False),
          (3, 6, 7, 5, 6, 2, 3, 1, 1, 1, 2, True),
          (0, 2, 5, 5, 2, 3, 1, 1, 1, 1, 1, True)]


def _deform(fw, arrays, case):
    n, c, h, w, co, k, dg, g, st, pd, dl, use_mask = case
    x, off, wt, m, b = (fw.to_tensor(a, stop_gradient=False) if a is not None else None
                        for a in arrays)
    out = fw.vision.ops.deform_conv2d(x, off, wt, b, stride=st, padding=pd, dilation=dl,
                                      deformable_groups=dg, groups=g, mask=m)
    out.sum().backward()
    grads = [t.grad.numpy() if t is not None and t.grad is not None else None
             for t in (x, off, wt, m, b)]
    return out.numpy(), grads


@pytest.mark.parametrize("case", _CASES, ids=lambda c: f"n{c[0]}dg{c[6]}g{c[7]}s{c[8]}d{c[10]}")
def test_deform_conv2d_batched_matches_paddle(case):
    n, c, h, w, co, k, dg, g, st, pd, dl, use_mask = case
    ho = (h + 2 * pd - (dl * (k - 1) + 1)) // st + 1
    wo = (w + 2 * pd - (dl * (k - 1) + 1)) // st + 1
    r = np.random.RandomState(sum(case))
    arrays = [r.randn(n, c, h, w).astype("float32"),
              (r.randn(n, 2 * dg * k * k, ho, wo) * 2).astype("float32"),
              r.randn(co, c // g, k, k).astype("float32"),
              r.rand(n, dg * k * k, ho, wo).astype("float32") if use_mask else None,
              r.randn(co).astype("float32")]
    ours, our_grads = _deform(pagaie, arrays, case)
    theirs, their_grads = _deform(paddle, arrays, case)
    assert ours.shape == theirs.shape == (n, co, ho, wo)
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4)
    for a, b in zip(our_grads, their_grads):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("with_mask", [False, True])
def test_static_deform_conv2d_unknown_batch(with_mask):
    r = np.random.RandomState(3)
    x, off, m = (r.rand(2, 3, 8, 8).astype("float32"),
                 r.rand(2, 18, 8, 8).astype("float32") - 0.5, r.rand(2, 9, 8, 8).astype("float32"))
    w = r.rand(2, 3, 3, 3).astype("float32")
    pagaie.enable_static()
    try:
        main, start = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, start):
            xv = pagaie.static.data("x", [None, 3, 8, 8], "float32")
            ov = pagaie.static.data("off", [None, 18, 8, 8], "float32")
            mv = pagaie.static.data("m", [None, 9, 8, 8], "float32") if with_mask else None
            out = pagaie.static.nn.deform_conv2d(
                xv, ov, mv, 2, 3, padding=1,
                weight_attr=pagaie.ParamAttr(initializer=pagaie.nn.initializer.Assign(w)),
                bias_attr=False)
        assert list(out.shape) == [-1, 2, 8, 8]
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        exe.run(start)
        feed = {"x": x, "off": off, **({"m": m} if with_mask else {})}
        ours, = exe.run(main, feed=feed, fetch_list=[out])
    finally:
        pagaie.disable_static()
    t = paddle.to_tensor
    theirs = paddle.vision.ops.deform_conv2d(t(x), t(off), t(w), padding=1,
                                             mask=t(m) if with_mask else None).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)
