"""Program rewrites and helpers of bfloat16 static mixed precision."""
from __future__ import annotations

from typing import Any

import numpy as np

from pagaie.static.amp.fp16_utils import cast_model_to_fp16, cast_parameters_to_fp16, fp16_guard
from pagaie.static.amp.fp16_utils import rewrite_program as _rewrite

__all__ = ["bf16_guard", "cast_model_to_bf16", "cast_parameters_to_bf16", "convert_float_to_uint16",
           "rewrite_program_bf16"]

bf16_guard = fp16_guard


def convert_float_to_uint16(in_list: Any) -> np.ndarray:
    """The bfloat16 bit patterns (as uint16) of float32 values (truncating the low half).

    Examples:
        >>> from pagaie.static.amp.bf16 import convert_float_to_uint16
        >>> convert_float_to_uint16([1.0, -2.0]).tolist()
        [16256, 49152]
    """
    a = np.asarray(in_list, dtype=np.float32)
    return np.right_shift(a.view(np.uint32), 16).astype(np.uint16)


def rewrite_program_bf16(main_prog: Any, amp_lists: Any = None) -> None:
    """O1 bfloat16 rewrite of ``main_prog`` (see :func:`pagaie.static.amp.fp16_utils.rewrite_program`).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.static.amp.bf16 import rewrite_program_bf16
        >>> paddle.enable_static()
        >>> prog = paddle.static.Program()
        >>> with paddle.static.program_guard(prog):
        ...     x = paddle.static.data('x', [2, 3], 'float32')
        ...     y = paddle.matmul(x, x, transpose_y=True)
        >>> rewrite_program_bf16(prog)
        >>> y.dtype == paddle.bfloat16
        True
        >>> paddle.disable_static()
    """
    from pagaie.static.amp.bf16.amp_lists import AutoMixedPrecisionListsBF16
    _rewrite(main_prog, amp_lists or AutoMixedPrecisionListsBF16(), "O1", "bfloat16")


def cast_model_to_bf16(program: Any, startup_prog: Any = None, amp_lists: Any = None,
                       use_bf16_guard: bool = True) -> list:
    """Pure bfloat16 (O2) rewrite of ``program``; see ``cast_model_to_fp16``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> prog = paddle.static.Program()
        >>> with paddle.static.program_guard(prog):
        ...     x = paddle.static.data('x', [2, 3], 'float32')
        ...     y = paddle.nn.functional.relu(x)
        >>> _ = paddle.static.amp.bf16.cast_model_to_bf16(prog, use_bf16_guard=False)
        >>> y.dtype == paddle.bfloat16
        True
        >>> paddle.disable_static()
    """
    return cast_model_to_fp16(program, amp_lists, use_bf16_guard, "bfloat16", "O2")


def cast_parameters_to_bf16(place: Any, program: Any, scope: Any = None,
                            to_bf16_var_names: Any = None) -> None:
    """See ``cast_parameters_to_fp16``: parameters stay float32 masters in pagaie.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.static.amp.bf16.cast_parameters_to_bf16(paddle.CPUPlace(), paddle.static.Program())
    """
    cast_parameters_to_fp16(place, program, scope, to_bf16_var_names, "bfloat16")
