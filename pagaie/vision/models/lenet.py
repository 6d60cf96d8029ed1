"""LeNet-5 style classifier for 28x28 single-channel images."""
from __future__ import annotations

import pagaie
from pagaie import nn

__all__ = ["LeNet"]


class LeNet(nn.Layer):
    """LeNet: two conv/ReLU/max-pool stages and three fully connected layers.

    Args:
        num_classes (int, optional): size of the last layer; ``<= 0`` drops the
            fully connected head and returns the features. Default: 10.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import LeNet
        >>> model = LeNet()
        >>> model(paddle.rand([2, 1, 28, 28])).shape
        paddle.Size([2, 10])
    """

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.ReLU(), nn.MaxPool2D(2, 2))
        if num_classes > 0:
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, num_classes))

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        x = self.features(inputs)
        if self.num_classes > 0:
            x = self.fc(pagaie.flatten(x, 1))
        return x
