"""Shared helpers of the graph-pass tests: build small static programs, run them."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import torch

import pagaie as paddle
from pagaie._static.interpreter import Plan
from pagaie._static.ir import Program, Value


@contextmanager
def static_program(seed: int = 0) -> Iterator[Program]:
    """Record into a fresh program (static mode on inside, off after)."""
    paddle.seed(seed)
    paddle.enable_static()
    main = paddle.static.Program()
    try:
        with paddle.static.program_guard(main):
            yield main
    finally:
        paddle.disable_static()


def run(program: Program, feed: dict, fetch: Sequence[Value | str], **kw: Any) -> list[torch.Tensor]:
    """Run ``program`` with the interpreter; fetches given as Values or names."""
    gb = program.global_block()
    fetch_v = [gb.var(f if isinstance(f, str) else f.name) for f in fetch]
    from pagaie._core.place import default_device
    from pagaie._core.registry import suspended
    feed = {k: v.to(default_device()) for k, v in feed.items()}  # (PAGAIE_TEST_DEVICE=gpu)
    with suspended():
        return [t.detach().clone() for t in Plan(program, sorted(feed), fetch_v, **kw).run(feed)]


def assert_same_outputs(before: Program, after: Program, feed: dict, fetch: Sequence,
                        rtol: float = 1e-5, atol: float = 1e-6) -> None:
    a = run(before, feed, fetch)
    b = run(after, feed, fetch)
    for x, y in zip(a, b):
        np.testing.assert_allclose(y.cpu().numpy(), x.cpu().numpy(), rtol=rtol, atol=atol)


def op_types(program: Program, block: int = 0) -> list[str]:
    return [op.type for op in program.blocks[block].ops]


def randn(*shape: int) -> torch.Tensor:
    return torch.randn(*shape)
