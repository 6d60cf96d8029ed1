"""Normalisations vs Paddle (values and gradients; running-stat updates are in tests/nn)."""
from tests.ops.samples import OpSample, T

N = "nn.functional."
X = T((4, 3, 5, 2))
C3 = T((3,))

SAMPLES = [
    OpSample(N + "batch_norm", [X, T((3,), grad=False), T((3,), kind="pos", grad=False), C3, C3],
             {"training": True}, rtol=1e-4, atol=1e-5),
    OpSample(N + "batch_norm", [X, T((3,), grad=False), T((3,), kind="pos", grad=False), C3, C3],
             id="batch_norm_eval", rtol=1e-4, atol=1e-5),
    OpSample(N + "batch_norm", [T((4, 5, 3)), T((3,), grad=False), T((3,), kind="pos", grad=False)],
             {"training": True, "data_format": "NLC"}, id="batch_norm_nlc", rtol=1e-4, atol=1e-5),
    OpSample(N + "batch_norm", [T((4, 3)), T((3,), grad=False), T((3,), kind="pos", grad=False)],
             {"training": True, "data_format": "NC"}, id="batch_norm_2d", rtol=1e-4, atol=1e-5),
    OpSample(N + "layer_norm", [X, [5, 2], T((10,)), T((10,))], rtol=1e-4, atol=1e-5),
    OpSample(N + "layer_norm", [T((3, 4)), 4], id="layer_norm_int", rtol=1e-4, atol=1e-5),
    OpSample(N + "group_norm", [T((2, 4, 3, 3)), 2], {"weight": T((4,)), "bias": T((4,))},
             rtol=1e-4, atol=1e-5),
    OpSample(N + "group_norm", [T((2, 3, 3, 4)), 2], {"data_format": "NHWC"}, id="group_norm_nhwc",
             rtol=1e-4, atol=1e-5, grad=False),  # Paddle's NHWC group_norm gradient is wrong
    OpSample(N + "instance_norm", [X], {"weight": C3, "bias": C3}, rtol=1e-4, atol=1e-5),
    OpSample(N + "instance_norm", [T((2, 5, 3))], {"data_format": "NLC"}, id="instance_norm_nlc",
             rtol=1e-4, atol=1e-5),
    OpSample(N + "local_response_norm", [T((2, 6, 3, 3)), 3], rtol=1e-4, atol=1e-5),
    OpSample(N + "local_response_norm", [T((2, 3, 3, 6)), 4], {"data_format": "NHWC"},
             id="local_response_norm_nhwc", rtol=1e-4, atol=1e-5),
]
