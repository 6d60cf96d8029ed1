"""Default parameter initialisation of layers and every ``paddle.nn.initializer``:
statistics (mean, std, range) compared with real Paddle; deterministic ones exactly."""
from __future__ import annotations

import math

# (id, build(nn) -> layer); big enough for stable statistics
INIT_LAYERS = [
    ("Linear", lambda nn: nn.Linear(300, 200)),
    ("Bilinear", lambda nn: nn.Bilinear(40, 30, 20)),
    ("Conv1D", lambda nn: nn.Conv1D(32, 64, 5)),
    ("Conv2D", lambda nn: nn.Conv2D(16, 64, 3)),
    ("Conv2D_groups", lambda nn: nn.Conv2D(16, 64, 3, groups=4)),
    ("Conv3D", lambda nn: nn.Conv3D(8, 32, 3)),
    ("Conv1DTranspose", lambda nn: nn.Conv1DTranspose(32, 64, 5)),
    ("Conv2DTranspose", lambda nn: nn.Conv2DTranspose(32, 16, 3)),
    ("Conv2DTranspose_groups", lambda nn: nn.Conv2DTranspose(32, 16, 3, groups=4)),
    ("Conv3DTranspose", lambda nn: nn.Conv3DTranspose(16, 8, 3)),
    ("Embedding", lambda nn: nn.Embedding(500, 64)),
    ("Embedding_pad", lambda nn: nn.Embedding(500, 64, padding_idx=3)),
    ("BatchNorm2D", lambda nn: nn.BatchNorm2D(64)),
    ("BatchNorm", lambda nn: nn.BatchNorm(64)),
    ("LayerNorm", lambda nn: nn.LayerNorm(64)),
    ("GroupNorm", lambda nn: nn.GroupNorm(4, 64)),
    ("InstanceNorm2D", lambda nn: nn.InstanceNorm2D(64)),
    ("PReLU", lambda nn: nn.PReLU(64, 0.3)),
    ("SimpleRNN", lambda nn: nn.SimpleRNN(64, 128)),
    ("LSTM", lambda nn: nn.LSTM(64, 128)),
    ("GRU", lambda nn: nn.GRU(64, 128, direction="bidirect")),
    ("LSTMCell", lambda nn: nn.LSTMCell(64, 128)),
    ("MultiHeadAttention", lambda nn: nn.MultiHeadAttention(128, 4)),
    ("TransformerEncoderLayer", lambda nn: nn.TransformerEncoderLayer(64, 4, 256)),
    ("HSigmoidLoss", lambda nn: nn.HSigmoidLoss(64, 200)),
    ("SpectralNorm", lambda nn: nn.SpectralNorm([64, 128])),
    ("AdaptiveLogSoftmaxWithLoss", lambda nn: nn.AdaptiveLogSoftmaxWithLoss(64, 100, [20, 50])),
]


def _conv_w(fw, shape=(64, 16, 3, 3)):
    return shape


# (id, make(fw) -> initializer, parameter shape)
INITIALIZERS = [
    ("Constant", lambda fw: fw.nn.initializer.Constant(0.7), [30, 40]),
    ("Normal", lambda fw: fw.nn.initializer.Normal(0.5, 2.0), [200, 300]),
    ("Uniform", lambda fw: fw.nn.initializer.Uniform(-0.3, 0.8), [200, 300]),
    ("TruncatedNormal", lambda fw: fw.nn.initializer.TruncatedNormal(0.2, 1.5), [200, 300]),
    ("TruncatedNormal_ab", lambda fw: fw.nn.initializer.TruncatedNormal(0.0, 1.0, a=-0.5, b=1.0), [200, 300]),
    ("XavierNormal", lambda fw: fw.nn.initializer.XavierNormal(), [200, 300]),
    ("XavierUniform", lambda fw: fw.nn.initializer.XavierUniform(), [200, 300]),
    ("XavierUniform_conv", lambda fw: fw.nn.initializer.XavierUniform(), [64, 16, 3, 3]),
    ("XavierNormal_fans", lambda fw: fw.nn.initializer.XavierNormal(fan_in=10, fan_out=40, gain=2.0), [200, 300]),
    ("XavierUniform_gain", lambda fw: fw.nn.initializer.XavierUniform(gain=math.sqrt(2)), [200, 300]),
    ("KaimingNormal", lambda fw: fw.nn.initializer.KaimingNormal(), [200, 300]),
    ("KaimingUniform", lambda fw: fw.nn.initializer.KaimingUniform(), [200, 300]),
    ("KaimingNormal_conv", lambda fw: fw.nn.initializer.KaimingNormal(), [64, 16, 3, 3]),
    ("KaimingNormal_fanout", lambda fw: fw.nn.initializer.KaimingNormal(mode="fan_out"), [200, 300]),
    ("KaimingUniform_leaky", lambda fw: fw.nn.initializer.KaimingUniform(negative_slope=0.2,
                                                                          nonlinearity="leaky_relu"), [200, 300]),
    ("KaimingNormal_fanin", lambda fw: fw.nn.initializer.KaimingNormal(fan_in=50, nonlinearity="tanh"), [200, 300]),
    ("KaimingUniform_fanout_conv", lambda fw: fw.nn.initializer.KaimingUniform(mode="fan_out"), [32, 16, 3, 3]),
    ("Orthogonal", lambda fw: fw.nn.initializer.Orthogonal(), [40, 60]),
    ("Orthogonal_gain_tall", lambda fw: fw.nn.initializer.Orthogonal(gain=2.0), [60, 40]),
    ("Orthogonal_conv", lambda fw: fw.nn.initializer.Orthogonal(), [16, 4, 3, 3]),
    ("Dirac", lambda fw: fw.nn.initializer.Dirac(), [8, 4, 3, 3]),
    ("Dirac_groups", lambda fw: fw.nn.initializer.Dirac(groups=2), [8, 4, 3]),
    ("Bilinear", lambda fw: fw.nn.initializer.Bilinear(), [4, 1, 4, 4]),
    ("Assign", lambda fw: fw.nn.initializer.Assign([[1.0, 2.0], [3.0, 4.0]]), [2, 2]),
    ("Assign_np", lambda fw: fw.nn.initializer.Assign(__import__("numpy").arange(6.0).reshape(2, 3)), [2, 3]),
]

GAINS = [("sigmoid", None), ("linear", None), ("conv2d", None), ("tanh", None), ("relu", None),
         ("leaky_relu", None), ("leaky_relu", 0.3), ("selu", None), ("conv1d", None), ("conv3d", None)]
