"""Dropout keep-masks: reproducible from paddle.seed, right keep rate, thread-count independent."""
from __future__ import annotations

import threading

import pytest
import torch

import pagaie as paddle
from pagaie._ops import _random_mask as rm

CPU = torch.device("cpu")


@pytest.fixture
def threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("n", [1, 7, rm._CHUNK - 1, rm._CHUNK + 3, 3 * rm._CHUNK + 1])
def test_seeded_masks_repeat_and_do_not_depend_on_thread_count(n, threads):
    masks = []
    for t in (1, 2, 3):
        torch.set_num_threads(t)
        paddle.seed(7)
        masks.append(rm.keep_mask([n], 0.3, CPU))
    assert all(torch.equal(masks[0], m) for m in masks[1:])
    paddle.seed(8)
    other = rm.keep_mask([n], 0.3, CPU)
    assert n < 64 or not torch.equal(other, masks[0])


@pytest.mark.parametrize("p", [0.05, 0.5, 0.9])
def test_keep_rate_and_chunk_independence(p):
    n = 4 * rm._CHUNK
    m = rm.keep_mask([n], p, CPU).double()
    tol = 6 * (p * (1 - p) / n) ** 0.5
    assert abs(m.mean().item() - (1 - p)) < tol
    # chunks are drawn from separate generator states: no chunk repeats another
    parts = m.view(4, -1)
    assert all(not torch.equal(parts[i], parts[j]) for i in range(4) for j in range(i))
    # neighbouring elements (the two halves of one 64-bit draw) are uncorrelated
    c = ((m[0::2] - (1 - p)) * (m[1::2] - (1 - p))).mean().item() / (p * (1 - p))
    assert abs(c) < 6 / (n / 2) ** 0.5


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_scaled_mask_is_the_keep_mask_scaled(dtype):
    paddle.seed(3)
    scaled = rm.scaled_keep_mask([300, 1001], 0.2, dtype, CPU)
    paddle.seed(3)
    keep = rm.keep_mask([300, 1001], 0.2, CPU)
    assert scaled.dtype == dtype and scaled.shape == keep.shape
    assert torch.equal(scaled, keep.to(dtype) * torch.tensor(1.25, dtype=dtype))


def test_edge_probabilities():
    assert rm.keep_mask([5], 0.0, CPU).all()
    assert not rm.keep_mask([5], 1.0, CPU).any()
    assert torch.equal(rm.scaled_keep_mask([4], 0.0, torch.float32, CPU), torch.ones(4))


def test_concurrent_callers_get_valid_masks():
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(rm.keep_mask([2 * rm._CHUNK + 5], 0.5, CPU).double().mean().item())
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors and len(results) == 15
    assert all(abs(r - 0.5) < 0.01 for r in results)


def test_small_masks_are_seeded_and_keep_the_rate():
    import pagaie as paddle
    from pagaie._ops._random_mask import _SMALL, keep_mask, scaled_keep_mask
    shape = (32, 64)   # under _SMALL elements: torch's integer draws
    assert 32 * 64 <= _SMALL
    paddle.seed(5)
    a = keep_mask(shape, 0.3, torch.device("cpu"))
    paddle.seed(5)
    b = keep_mask(shape, 0.3, torch.device("cpu"))
    assert torch.equal(a, b) and 0.62 < a.float().mean().item() < 0.78
    s = scaled_keep_mask(shape, 0.5, torch.float32, torch.device("cpu"))
    assert set(s.unique().tolist()) <= {0.0, 2.0}


@pytest.mark.parametrize("n", [100, rm._CHUNK + 5])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_the_compilers_fill_op_writes_the_eager_mask(n, dtype):
    # the opaque op the compiled executor calls fills its buffer with the mask eager draws
    paddle.seed(5)
    ref = rm.scaled_keep_mask([n], 0.2, dtype, CPU)
    out = torch.full((n,), -1.0, dtype=dtype)
    paddle.seed(5)
    torch.ops.pagaie.fill_scaled_keep_mask_(out, 0.2)
    assert torch.equal(out, ref)
