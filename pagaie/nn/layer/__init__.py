"""The Layer classes of paddle.nn.

As in Paddle, the package itself also exposes most layer classes
(``paddle.nn.layer.Linear`` is ``paddle.nn.Linear``); they resolve lazily, since the
submodules are still loading while ``paddle.nn`` imports this package.

Examples:
    >>> import pagaie as paddle
    >>> paddle.nn.layer.Linear is paddle.nn.Linear
    True
"""
from __future__ import annotations

from typing import Any

# the names Paddle 3.3.1's ``paddle/nn/layer/__init__.py`` imports
_EXPORTS = frozenset("""
CELU LeakyReLU LogSoftmax PReLU ReLU ReLU6 RReLU Sigmoid Softmax Softmax2D
AlphaDropout Bilinear ConstantPad1D ConstantPad2D ConstantPad3D CosineSimilarity Dropout
Dropout2D Dropout3D Embedding FeatureAlphaDropout Flatten Fold Identity Linear Pad1D Pad2D
Pad3D ReflectionPad1D ReflectionPad2D ReflectionPad3D ReplicationPad1D ReplicationPad2D
ReplicationPad3D Unflatten Upsample UpsamplingBilinear2D UpsamplingNearest2D ZeroPad2D
LayerDict Conv1D Conv1DTranspose Conv2D Conv2DTranspose Conv3D Conv3DTranspose
PairwiseDistance Layer
AdaptiveLogSoftmaxWithLoss BCELoss BCEWithLogitsLoss CrossEntropyLoss CTCLoss GaussianNLLLoss
HingeEmbeddingLoss KLDivLoss L1Loss MarginRankingLoss MSELoss MultiLabelMarginLoss
MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss PoissonNLLLoss RNNTLoss SmoothL1Loss
SoftMarginLoss TripletMarginLoss TripletMarginWithDistanceLoss
BatchNorm1D BatchNorm2D BatchNorm3D GroupNorm LayerNorm LocalResponseNorm SpectralNorm
SyncBatchNorm
AdaptiveAvgPool1D AdaptiveAvgPool2D AdaptiveAvgPool3D AdaptiveMaxPool1D AdaptiveMaxPool2D
AdaptiveMaxPool3D AvgPool1D AvgPool2D AvgPool3D FractionalMaxPool2D FractionalMaxPool3D
LPPool1D LPPool2D MaxPool1D MaxPool2D MaxPool3D MaxUnPool1D MaxUnPool2D MaxUnPool3D
ChannelShuffle PixelShuffle PixelUnshuffle
""".split())

__all__: list[str] = []


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import pagaie.nn
        return getattr(pagaie.nn, name)
    raise AttributeError(f"module 'paddle.nn.layer' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _EXPORTS)
