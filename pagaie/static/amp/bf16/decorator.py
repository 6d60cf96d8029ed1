"""``decorate_bf16``: bfloat16 mixed-precision training of static programs."""
from __future__ import annotations

from typing import Any

from pagaie.static.amp.decorator import OptimizerWithMixedPrecision, decorate

__all__ = ["decorate_bf16"]


def decorate_bf16(optimizer: Any, amp_lists: Any = None, use_pure_bf16: bool = False,
                  use_bf16_guard: bool | None = None) -> OptimizerWithMixedPrecision:
    """``decorate(optimizer, level='O2' if use_pure_bf16 else 'O1', dtype='bfloat16')``.

    Args:
        optimizer (Optimizer): the optimizer.
        amp_lists (AutoMixedPrecisionListsBF16, optional): the op lists.
        use_pure_bf16 (bool): compute all but float32-list ops in bfloat16 (O2).
        use_bf16_guard (bool, optional): only rewrite ops under ``bf16_guard``; defaults to
            ``use_pure_bf16``.

    Returns:
        OptimizerWithMixedPrecision: the wrapped optimizer.

    Examples:
        >>> import pagaie as paddle
        >>> opt = paddle.static.amp.bf16.decorate_bf16(paddle.optimizer.SGD(0.1, parameters=paddle.nn.Linear(2, 2).parameters()))
        >>> opt._amp_dtype, opt._amp_level
        ('bfloat16', 'O1')
    """
    if use_bf16_guard is None:
        use_bf16_guard = use_pure_bf16
    return decorate(optimizer, amp_lists, level="O2" if use_pure_bf16 else "O1", dtype="bfloat16",
                    use_amp_guard=use_bf16_guard)
