"""Pooling vs Paddle: padding forms, ceil mode, exclusive, divisor, masks, adaptive, unpool."""
import numpy as np

from tests.ops.samples import OpSample, T

P = "nn.functional."
X1 = T((2, 3, 9))
X2 = T((2, 3, 7, 6))
X3 = T((1, 2, 5, 6, 4))


def _unpool_input(fw, out):
    return out


SAMPLES = [
    OpSample(P + "max_pool1d", [X1, 3], {"stride": 2, "padding": 1, "return_mask": True}),
    OpSample(P + "max_pool2d", [X2, 3], {"stride": 2, "padding": 1}),
    OpSample(P + "max_pool2d", [X2, 2], {"padding": [1, 0, 0, 1], "ceil_mode": True},
             id="max_pool2d_asym_ceil"),
    OpSample(P + "max_pool2d", [X2, [3, 2]], {"stride": 2, "padding": "SAME"}, id="max_pool2d_same"),
    OpSample(P + "max_pool2d", [X2, 2], {"return_mask": True, "ceil_mode": True},
             id="max_pool2d_mask_ceil"),
    OpSample(P + "max_pool2d", [T((2, 7, 6, 3)), 3], {"stride": 2, "padding": 1, "data_format": "NHWC"},
             id="max_pool2d_nhwc"),
    OpSample(P + "max_pool3d", [X3, 2], {"stride": 2, "padding": 1, "return_mask": True}),
    OpSample(P + "avg_pool1d", [X1, 3], {"stride": 2, "padding": 1, "exclusive": False}),
    OpSample(P + "avg_pool2d", [X2, 3], {"stride": 2, "padding": 1}),
    OpSample(P + "avg_pool2d", [X2, 3], {"stride": 2, "padding": [0, 1, 1, 0], "exclusive": False,
                                        "ceil_mode": True}, id="avg_pool2d_asym_inclusive"),
    OpSample(P + "avg_pool2d", [X2, 2], {"padding": "SAME", "exclusive": False}, id="avg_pool2d_same"),
    OpSample(P + "avg_pool2d", [X2, 3], {"stride": 2, "padding": 1, "divisor_override": 4},
             id="avg_pool2d_divisor"),
    OpSample(P + "avg_pool3d", [X3, 2], {"stride": 2, "padding": 1, "ceil_mode": True}),
    OpSample(P + "lp_pool1d", [T((2, 3, 9), kind="pos"), 3, 2], {"stride": 2, "padding": 1}),
    OpSample(P + "lp_pool2d", [T((2, 3, 7, 6), kind="pos"), 2, 3], {"stride": 2, "ceil_mode": True}),
    OpSample(P + "adaptive_avg_pool1d", [X1, 4]),
    OpSample(P + "adaptive_avg_pool2d", [X2, [3, None]]),
    OpSample(P + "adaptive_avg_pool2d", [T((2, 7, 6, 3)), 2], {"data_format": "NHWC"},
             id="adaptive_avg_pool2d_nhwc"),
    OpSample(P + "adaptive_avg_pool3d", [X3, [2, 3, None]]),
    OpSample(P + "adaptive_max_pool1d", [X1, 4], {"return_mask": True}),
    OpSample(P + "adaptive_max_pool2d", [X2, [3, 4]], {"return_mask": True}),
    OpSample(P + "adaptive_max_pool3d", [X3, 2], {"return_mask": True}),
    OpSample(P + "fractional_max_pool2d", [T((2, 3, 10, 9)), [4, 3]],
             {"kernel_size": 3, "random_u": 0.9, "return_mask": True}),
    OpSample(P + "fractional_max_pool2d", [T((1, 2, 10, 10)), 4], {"random_u": 0.3},
             id="fractional_max_pool2d_disjoint"),
    OpSample(P + "fractional_max_pool3d", [T((1, 2, 6, 7, 5)), [3, 3, 2]],
             {"kernel_size": 2, "random_u": 0.4, "return_mask": True}),
    OpSample(P + "max_unpool1d", [T((2, 3, 4)), T((2, 3, 4), value=np.tile([0, 3, 5, 6], (2, 3, 1)),
                                                   dtype="int32"), 2]),
    OpSample(P + "max_unpool2d", [T((1, 2, 2, 2)), T((1, 2, 2, 2), value=np.tile([[1, 3], [8, 14]], (1, 2, 1, 1)),
                                                       dtype="int32"), 2], {"output_size": [4, 4]}),
    OpSample(P + "max_unpool3d", [T((1, 1, 1, 1, 2)), T((1, 1, 1, 1, 2), value=[[[[[0, 7]]]]], dtype="int32"),
                                  2]),
]
