"""``paddle.static.amp``: mixed-precision training of static programs."""
from pagaie.static.amp import bf16, debugging, decorator, fp16_lists, fp16_utils  # noqa: F401
from pagaie.static.amp.decorator import decorate  # noqa: F401
from pagaie.static.amp.fp16_lists import AutoMixedPrecisionLists, CustomOpLists  # noqa: F401
from pagaie.static.amp.fp16_utils import cast_model_to_fp16, cast_parameters_to_fp16, fp16_guard  # noqa: F401

__all__: list[str] = []
