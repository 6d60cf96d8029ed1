"""Op lists of static mixed precision (``paddle.static.amp.fp16_lists``).

The default lists come from the op records' ``amp`` policies (the same source as dynamic
``paddle.amp``): white ops compute in the low dtype, black ops in float32, the rest
(gray) follow their inputs.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable

from pagaie._core.registry import REGISTRY
from pagaie.amp.lists import op_names

__all__ = ["AutoMixedPrecisionLists", "CustomOpLists", "white_list", "black_list", "gray_list",
           "check_amp_dtype"]


def _names(policy: str) -> set[str]:
    out: set[str] = set()
    for rec in REGISTRY.values():
        if rec.amp == policy and rec.inplace_of is None:
            out |= op_names(rec)
    return out


white_list = _names("white")
black_list = _names("black")
gray_list = _names("promote")


def check_amp_dtype(dtype: Any) -> str:
    """``'float16'`` or ``'bfloat16'`` (case-insensitive), else ``ValueError``.

    Examples:
        >>> from pagaie.static.amp.fp16_lists import check_amp_dtype
        >>> check_amp_dtype('BFloat16')
        'bfloat16'
    """
    if isinstance(dtype, str):
        dtype = dtype.lower()
    if dtype not in ("float16", "bfloat16"):
        raise ValueError("If enable AMP, dtype should be 'float16' or 'bfloat16'.")
    return dtype


class AutoMixedPrecisionLists:
    """The white / black / gray op lists of a static mixed-precision program.

    Args:
        custom_white_list (set, optional): op names to compute in the low dtype.
        custom_black_list (set, optional): op names to keep in float32.
        custom_black_varnames (set, optional): variable names whose ops stay in float32.
        dtype (str): ``'float16'`` or ``'bfloat16'``.

    Raises:
        ValueError: an op is in both custom lists, or the dtype is not a low float dtype.

    Examples:
        >>> from pagaie.static.amp import AutoMixedPrecisionLists
        >>> lists = AutoMixedPrecisionLists(custom_white_list={'exp'}, custom_black_list={'matmul'})
        >>> 'exp' in lists.white_list, 'matmul' in lists.black_list
        (True, True)
    """

    def __init__(self, custom_white_list: Iterable[str] | None = None,
                 custom_black_list: Iterable[str] | None = None,
                 custom_black_varnames: Iterable[str] | None = None, dtype: str = "float16") -> None:
        self.amp_dtype = check_amp_dtype(dtype)
        self._custom_white_list = custom_white_list
        self._custom_black_list = custom_black_list
        self.white_list = copy.copy(white_list)
        self.black_list = copy.copy(black_list)
        self.gray_list = copy.copy(gray_list)
        self.unsupported_list: set[str] = set()
        self.all_list = self.white_list | self.black_list | self.gray_list
        self.black_varnames = copy.copy(custom_black_varnames)
        self._update_list()

    def _update_list(self) -> None:
        white, black = self._custom_white_list, self._custom_black_list
        if white and black:
            for name in white:
                if name in black:
                    raise ValueError(f"The given custom_white_list overlaps custom_black_list with "
                                     f"< {name} >!")
        for name in white or ():
            self.black_list.discard(name)
            self.gray_list.discard(name)
            self.white_list.add(name)
        for name in black or ():
            self.white_list.discard(name)
            self.gray_list.discard(name)
            self.black_list.add(name)
            self.unsupported_list.add(name)


CustomOpLists = AutoMixedPrecisionLists
