"""Dropout keep-masks: Paddle's draw (one engine word per element, kept when its float32
uniform is >= p), seeded by paddle.seed, and the compiler's opaque op draws the same."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import pagaie as paddle
from pagaie._core.mt64 import Engine
from pagaie._core.random import cpu_engine
from pagaie._ops import _random_mask as rm
from pagaie._ops._std_dists import canonical

CPU = torch.device("cpu")


@pytest.mark.parametrize("p", [1e-9, 0.05, 0.3, 0.5, 0.9, 0.999999])
def test_mask_is_the_float_uniform_compared_with_p(p):
    paddle.seed(7)
    m = rm.keep_mask([50, 100], p, CPU)
    u = canonical(Engine.from_seed(7), 5000)           # the same words as float32 uniforms
    assert np.array_equal(m.numpy().ravel(), u >= np.float32(p))
    assert int(cpu_engine().take(1)[0]) == int(Engine.from_seed(7).take(5001)[-1])


def test_seeded_masks_repeat_and_keep_the_rate():
    paddle.seed(3)
    a = rm.keep_mask([300, 1001], 0.2, CPU)
    paddle.seed(3)
    b = rm.keep_mask([300, 1001], 0.2, CPU)
    assert torch.equal(a, b)
    n = a.numel()
    assert abs(a.double().mean().item() - 0.8) < 6 * (0.16 / n) ** 0.5
    assert not torch.equal(rm.keep_mask([300, 1001], 0.2, CPU), a)


def test_op_seed_uses_a_fresh_engine():
    a = rm.keep_mask([64], 0.5, CPU, seed=42)
    b = rm.keep_mask([64], 0.5, CPU, seed=42)
    assert torch.equal(a, b)
    ref = canonical(Engine.from_op_seed(42), 64) >= np.float32(0.5)
    assert np.array_equal(a.numpy(), ref)


def test_edge_probabilities_still_draw():
    paddle.seed(1)
    assert rm.keep_mask([5], 0.0, CPU).all()
    assert not rm.keep_mask([5], 1.0, CPU).any()
    assert int(cpu_engine().take(1)[0]) == int(Engine.from_seed(1).take(11)[-1])
    assert rm.keep_mask([0, 3], 0.5, CPU).shape == (0, 3)


def test_divisor_and_scalars_are_rounded_as_paddle_rounds_them():
    assert rm.dropout_divisor(0.3, torch.float64) == float(np.float32(1) - np.float32(0.3))
    d32 = torch.tensor(float(np.float32(1) - np.float32(0.3)))
    assert rm.dropout_divisor(0.3, torch.bfloat16) == float(d32.to(torch.bfloat16))
    assert rm.as_scalar(1.9, torch.int64) == 1
    for dt in (torch.float16, torch.bfloat16, torch.float32):
        for v in (1 / 3, -2098.99995, 1.428571, 1e-5):
            assert rm.as_scalar(v, dt) == float(torch.tensor(v, dtype=torch.float64).to(dt))


def test_upscale_kept_divides_and_zeroes():
    x = torch.tensor([1.0, float("nan"), -3.0, float("inf")])
    keep = torch.tensor([True, False, True, False])
    out = rm.upscale_kept(x, keep, 0.3)
    d = np.float32(1) - np.float32(0.3)
    assert out.tolist() == [float(np.float32(1) / d), 0.0, float(np.float32(-3) / d), 0.0]
    assert rm.upscale_kept(torch.tensor([3, 4]), torch.tensor([True, False]), 0.5).tolist() == [6, 0]


@pytest.mark.parametrize("n", [1, 100, 70001])
def test_the_compilers_fill_op_writes_the_eager_mask(n):
    # the opaque op the compiled executor calls fills its buffer with the mask eager draws
    paddle.seed(5)
    ref = rm.keep_mask([n], 0.2, CPU)
    after = cpu_engine().peek(1)[0]
    out = torch.ones(n, dtype=torch.bool)
    paddle.seed(5)
    torch.ops.pagaie.fill_keep_mask_(out, 0.2, 0)
    assert torch.equal(out, ref) and cpu_engine().peek(1)[0] == after


def test_keep_mask_under_torch_compile_draws_from_the_engine():
    def f(x):
        return rm.upscale_kept(x, rm.keep_mask(x.shape, 0.4, x.device), 0.4)

    x = torch.randn(33, 7)
    paddle.seed(2)
    ref = f(x)
    compiled = torch.compile(f, backend="eager", fullgraph=True)
    paddle.seed(2)
    a = compiled(x)
    b = compiled(x)  # a second call draws new words, not the same mask
    assert torch.equal(a, ref) and not torch.equal(a, b)
