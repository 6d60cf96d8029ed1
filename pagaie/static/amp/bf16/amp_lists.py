"""Op lists of bfloat16 static mixed precision."""
from __future__ import annotations

from typing import Iterable

from pagaie.static.amp.fp16_lists import AutoMixedPrecisionLists

__all__ = ["AutoMixedPrecisionListsBF16"]


class AutoMixedPrecisionListsBF16(AutoMixedPrecisionLists):
    """The bfloat16 op lists: ``bf16_list`` (low), ``fp32_list`` (float32), ``gray_list``.

    Args:
        custom_bf16_list (set, optional): op names to compute in bfloat16.
        custom_fp32_list (set, optional): op names to keep in float32.
        custom_fp32_varnames (set, optional): variable names whose ops stay float32.

    Examples:
        >>> from pagaie.static.amp.bf16 import AutoMixedPrecisionListsBF16
        >>> lists = AutoMixedPrecisionListsBF16(custom_fp32_list={'matmul'})
        >>> 'matmul' in lists.fp32_list
        True
    """

    def __init__(self, custom_bf16_list: Iterable[str] | None = None,
                 custom_fp32_list: Iterable[str] | None = None,
                 custom_fp32_varnames: Iterable[str] | None = None) -> None:
        super().__init__(custom_bf16_list, custom_fp32_list, custom_fp32_varnames, dtype="bfloat16")

    @property
    def bf16_list(self) -> set:
        return self.white_list

    @property
    def fp32_list(self) -> set:
        return self.black_list

    @property
    def fp32_varnames(self) -> set:
        return self.black_varnames
