"""Convolutions vs Paddle: padding forms, strides, dilation, groups, layouts, transposes."""
from tests.ops.samples import OpSample, T

C = "nn.functional."
X2 = T((2, 3, 7, 6))
W2 = T((4, 3, 3, 2))
B4 = T((4,))
XT = T((2, 3, 5, 4))
WT = T((3, 2, 3, 3))

SAMPLES = [
    OpSample(C + "conv1d", [T((2, 3, 9)), T((4, 3, 3)), B4], {"stride": 2, "padding": 1}),
    OpSample(C + "conv1d", [T((2, 9, 3)), T((4, 3, 3))], {"padding": "SAME", "data_format": "NLC"},
             id="conv1d_same_nlc"),
    OpSample(C + "conv2d", [X2, W2, B4], {"padding": 1}, rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d", [X2, W2], {"stride": [2, 1], "padding": [1, 0, 2, 1], "dilation": 2},
             id="conv2d_asym_dilated", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d", [X2, W2], {"stride": 2, "padding": "SAME"}, id="conv2d_same",
             rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d", [X2, W2], {"padding": "VALID"}, id="conv2d_valid", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d", [X2, W2], {"padding": [[0, 0], [0, 0], [1, 2], [0, 1]]},
             id="conv2d_pairs", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d", [T((2, 7, 6, 3)), W2, B4], {"padding": 1, "data_format": "NHWC"},
             id="conv2d_nhwc", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d", [X2, T((6, 1, 3, 3))], {"groups": 3, "padding": 1}, id="conv2d_groups",
             rtol=1e-4, atol=1e-5),
    OpSample(C + "conv3d", [T((1, 2, 5, 4, 6)), T((3, 2, 2, 3, 2)), T((3,))],
             {"stride": 2, "padding": [0, 1, 1, 0, 1, 1]}, rtol=1e-4, atol=1e-5),
    OpSample(C + "conv1d_transpose", [T((2, 3, 5)), T((3, 2, 3)), T((2,))], {"stride": 2, "padding": 1}),
    OpSample(C + "conv2d_transpose", [XT, WT, T((2,))], {"stride": 2, "padding": 1,
                                                         "output_padding": 1}, rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d_transpose", [XT, WT], {"stride": [2, 3], "padding": [1, 0, 2, 1]},
             id="conv2d_transpose_asym", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d_transpose", [XT, WT], {"stride": 2, "padding": "SAME", "dilation": 2},
             id="conv2d_transpose_same", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d_transpose", [XT, WT], {"stride": 2, "output_size": [12, 10]},
             id="conv2d_transpose_output_size", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d_transpose", [T((2, 5, 4, 3)), WT], {"stride": 2, "data_format": "NHWC"},
             id="conv2d_transpose_nhwc", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv2d_transpose", [T((2, 4, 3, 3)), T((4, 1, 2, 2))], {"groups": 2, "stride": 2},
             id="conv2d_transpose_groups", rtol=1e-4, atol=1e-5),
    OpSample(C + "conv3d_transpose", [T((1, 2, 3, 3, 2)), T((2, 3, 2, 2, 2))], {"stride": 2},
             rtol=1e-4, atol=1e-5),
]
