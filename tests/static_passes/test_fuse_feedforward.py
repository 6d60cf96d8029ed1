"""The feed-forward fusion: linear -> activation -> dropout -> linear in training."""
from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import pagaie as paddle
from pagaie._ops import _random_mask
from pagaie._ops.fused_ffn import _FeedForward
from pagaie._static.passes import apply_build_strategy, clone_program, run_passes
from pagaie.static.build_strategy import BuildStrategy
from tests.static_passes.helpers import op_types, run, static_program


def _ffn_program(act="relu", p=0.25, training=True, mode="upscale_in_train", axis=None,
                 fetch_hidden=False):
    with static_program(seed=3) as main:
        x = paddle.static.data("x", [4, 6, 8], "float32")
        l1, l2 = paddle.nn.Linear(8, 16), paddle.nn.Linear(16, 8)
        h = l1(x)
        if act == "gelu_tanh":
            h = paddle.nn.functional.gelu(h, approximate=True)
        elif act is not None:
            h = getattr(paddle.nn.functional, act)(h)
        d = paddle.nn.functional.dropout(h, p, axis=axis, training=training, mode=mode)
        loss = l2(d).square().mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    keep = [loss.name] + ([d.name] if fetch_hidden else [])
    return main, loss, [l1, l2], keep


def _strategy(gemm: bool) -> BuildStrategy:
    bs = BuildStrategy()
    bs.fused_feedforward = True
    bs.fuse_gemm_epilogue = gemm
    return bs


@pytest.mark.parametrize("act", ["relu", "gelu", "gelu_tanh", "tanh", None])
@pytest.mark.parametrize("gemm", [True, False])
def test_fused_program_trains_like_the_original(act, gemm):
    main, loss, layers, keep = _ffn_program(act)
    fused = apply_build_strategy(main, _strategy(gemm), keep=keep, debug=True)
    assert "fused_feedforward_dropout" in op_types(fused)
    assert "dropout" not in op_types(fused) and "linear" not in op_types(fused)
    params = [p for layer in layers for p in layer.parameters()]
    start = [p._t.detach().clone() for p in params]
    feed = {"x": torch.randn(4, 6, 8)}

    def train(program):
        for p, v in zip(params, start):
            p._t.data.copy_(v)
        paddle.seed(11)    # the same dropout masks in both runs
        losses = [run(program, feed, [loss])[0].item() for _ in range(3)]
        return losses, [p._t.detach().clone() for p in params]

    losses_a, params_a = train(main)
    losses_b, params_b = train(fused)
    np.testing.assert_allclose(losses_b, losses_a, rtol=1e-5, atol=1e-6)
    for a, b in zip(params_a, params_b):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", [dict(training=False), dict(mode="downscale_in_infer"),
                                  dict(axis=[0]), dict(fetch_hidden=True)])
def test_not_fused(case):
    main, _, _, keep = _ffn_program(**case)
    stats = run_passes(clone_program(main), ["fuse_linear_act", "fuse_feedforward"], keep=keep)
    assert "fuse_feedforward" not in stats


def test_strategy_switch():
    main, _, _, keep = _ffn_program()
    assert "fused_feedforward_dropout" not in op_types(apply_build_strategy(main, BuildStrategy(),
                                                                             keep=keep))
    auto = BuildStrategy()
    auto.enable_auto_fusion = True
    assert "fused_feedforward_dropout" in op_types(apply_build_strategy(main, auto, keep=keep))


@pytest.mark.parametrize("act,kwargs", [("relu", None), ("gelu", None),
                                        ("gelu", {"approximate": True}), ("sigmoid", None),
                                        (None, None)])
@pytest.mark.parametrize("bias", [True, False])
def test_kernel_matches_torch_composition(act, kwargs, bias):
    torch.manual_seed(0)
    x = torch.randn(70, 16, dtype=torch.float64, requires_grad=True)
    w1 = torch.randn(16, 40, dtype=torch.float64, requires_grad=True)
    w2 = torch.randn(40, 8, dtype=torch.float64, requires_grad=True)
    b1 = torch.randn(40, dtype=torch.float64, requires_grad=True) if bias else None
    b2 = torch.randn(8, dtype=torch.float64, requires_grad=True) if bias else None
    p = 0.3
    paddle.seed(5)
    keep = _random_mask.keep_mask((70, 40), p, torch.device("cpu"))
    h = x @ w1 + (b1 if bias else 0)
    if act == "gelu":
        h = F.gelu(h, approximate="tanh" if kwargs else "none")
    elif act is not None:
        h = getattr(torch, act)(h)
    ref = (h * keep / (1 - p)) @ w2 + (b2 if bias else 0)
    paddle.seed(5)
    out = _FeedForward.apply(x, w1, b1, w2, b2, p, act, kwargs)
    torch.testing.assert_close(out, ref)
    g = torch.randn_like(out)
    ins = [t for t in (x, w1, b1, w2, b2) if t is not None]
    for a, b in zip(torch.autograd.grad(out, ins, g), torch.autograd.grad(ref, ins, g)):
        torch.testing.assert_close(a, b)


def test_eager_call_and_errors():
    from pagaie._ops.fused_ffn import fused_feedforward_dropout
    x = paddle.randn([2, 3, 4])
    w1, w2 = paddle.randn([4, 5]), paddle.randn([5, 2])
    out = fused_feedforward_dropout(x, w1, None, w2, None, 0.0, "relu")
    ref = paddle.matmul(paddle.nn.functional.relu(paddle.matmul(x, w1)), w2)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)
    assert out.shape == [2, 3, 2]
    with pytest.raises(ValueError, match="'p'"):
        fused_feedforward_dropout(x, w1, None, w2, None, 1.0, "relu")
