"""``paddle.inference``: load an exported model and run it (see :mod:`.predictor`).

Reads Paddle's own exports (PIR ``.json`` and legacy ``.pdmodel`` with ``.pdiparams``)
and pagaie's ``paddle.jit.save`` / ``paddle.static.save_inference_model`` output.
"""
from pagaie.inference.config import Config, DataType, PlaceType, PrecisionType, XpuConfig
from pagaie.inference.mixed_precision import convert_to_mixed_precision
from pagaie.inference.predictor import (Predictor, PredictorPool, Tensor, create_predictor,
                                        get_num_bytes_of_data_type, get_trt_compile_version,
                                        get_trt_runtime_version, get_version)

__all__ = ["Config", "DataType", "PlaceType", "PrecisionType", "Predictor", "PredictorPool", "Tensor",
           "XpuConfig", "convert_to_mixed_precision", "create_predictor", "get_num_bytes_of_data_type",
           "get_trt_compile_version", "get_trt_runtime_version", "get_version"]
