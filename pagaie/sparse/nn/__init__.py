"""``paddle.sparse.nn``: layers over sparse tensors."""
from pagaie.sparse.nn import functional  # noqa: F401
from pagaie.sparse.nn.layers import (  # noqa: F401
    BatchNorm, Conv2D, Conv3D, LeakyReLU, MaxPool3D, ReLU, ReLU6, Softmax, SubmConv2D,
    SubmConv3D, SyncBatchNorm,
)

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "Softmax", "BatchNorm", "SyncBatchNorm", "Conv2D",
           "Conv3D", "SubmConv2D", "SubmConv3D", "MaxPool3D"]
