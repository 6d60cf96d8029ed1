"""``paddle.static.amp.bf16``: the bfloat16 flavour of static mixed precision."""
from pagaie.static.amp.bf16 import amp_lists, amp_utils, decorator  # noqa: F401
from pagaie.static.amp.bf16.amp_lists import AutoMixedPrecisionListsBF16  # noqa: F401
from pagaie.static.amp.bf16.amp_utils import (bf16_guard, cast_model_to_bf16,  # noqa: F401
                                              cast_parameters_to_bf16, convert_float_to_uint16,
                                              rewrite_program_bf16)
from pagaie.static.amp.bf16.decorator import decorate_bf16  # noqa: F401

__all__: list[str] = []
