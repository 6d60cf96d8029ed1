"""``paddle.amp.amp_lists``: Paddle's default autocast op lists, under Paddle's names.

The lists are Paddle program op names; :mod:`pagaie.amp.lists` holds them and decides each
op's policy.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.amp.amp_lists import FP16_WHITE_LIST, white_list
    >>> 'matmul_v2' in FP16_WHITE_LIST, white_list()['float16']['O1'] == FP16_WHITE_LIST
    (True, True)
"""
from __future__ import annotations

from pagaie.amp.lists import (PADDLE_BLACK_O1, PADDLE_BLACK_O2, PADDLE_WHITE, PADDLE_WHITE_FP16_ONLY,
                              black_list, white_list)

__all__ = ["white_list", "black_list", "WHITE_LIST", "ONLY_FP16_WHITE_LIST", "FP16_WHITE_LIST",
           "FP16_BLACK_LIST", "EXTRA_BLACK_LIST", "BF16_WHITE_LIST", "BF16_BLACK_LIST"]

WHITE_LIST = set(PADDLE_WHITE)
ONLY_FP16_WHITE_LIST = set(PADDLE_WHITE_FP16_ONLY)
FP16_WHITE_LIST = WHITE_LIST | ONLY_FP16_WHITE_LIST
# the O2 list: ops kept in float32 at every level
EXTRA_BLACK_LIST = set(PADDLE_BLACK_O2)
# the O1 list less the O2 ones
FP16_BLACK_LIST = set(PADDLE_BLACK_O1 - PADDLE_BLACK_O2)
BF16_WHITE_LIST = set(WHITE_LIST)
BF16_BLACK_LIST = set(FP16_BLACK_LIST)
