"""AlexNet (Krizhevsky et al., 2012), with Paddle's layer names."""
from __future__ import annotations

import math
from typing import Any

import pagaie
from pagaie import nn
from pagaie.nn import functional as F
from pagaie.vision.models._utils import load_pretrained, model_urls_of

__all__ = ["AlexNet", "alexnet"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("alexnet")


class ConvPoolLayer(nn.Layer):
    """Conv2D, optional ReLU, then a 3x3 stride-2 max pool."""

    def __init__(self, input_channels: int, output_channels: int, filter_size: Any, stride: Any,
                 padding: Any, stdv: float, groups: int = 1, act: str | None = None) -> None:
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        init = nn.initializer.Uniform(-stdv, stdv)
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, stride=stride,
                               padding=padding, groups=groups,
                               weight_attr=pagaie.ParamAttr(initializer=init),
                               bias_attr=pagaie.ParamAttr(initializer=init))
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet image classifier (expects 224x224 inputs when ``num_classes > 0``).

    Args:
        num_classes (int, optional): output classes; ``<= 0`` drops the fully connected
            head. Default: 1000.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import AlexNet
        >>> model = AlexNet(num_classes=0)
        >>> model(paddle.rand([1, 3, 224, 224])).shape
        paddle.Size([1, 256, 6, 6])
    """

    def __init__(self, num_classes: int = 1000) -> None:
        super().__init__()
        self.num_classes = num_classes

        def attr(fan_in: int) -> Any:
            stdv = 1.0 / math.sqrt(fan_in)
            return pagaie.ParamAttr(initializer=nn.initializer.Uniform(-stdv, stdv))

        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, 1.0 / math.sqrt(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, 1.0 / math.sqrt(64 * 5 * 5), act="relu")
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1, weight_attr=attr(192 * 9),
                                bias_attr=attr(192 * 9))
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1, weight_attr=attr(384 * 9),
                                bias_attr=attr(384 * 9))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, 1.0 / math.sqrt(256 * 3 * 3), act="relu")
        if num_classes > 0:
            fan = 256 * 6 * 6
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(fan, 4096, weight_attr=attr(fan), bias_attr=attr(fan))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, weight_attr=attr(fan), bias_attr=attr(fan))
            self._fc8 = nn.Linear(4096, num_classes, weight_attr=attr(fan), bias_attr=attr(fan))

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = pagaie.flatten(x, start_axis=1, stop_axis=-1)
            x = F.relu(self._fc6(self._drop1(x)))
            x = F.relu(self._fc7(self._drop2(x)))
            x = self._fc8(x)
        return x


def alexnet(pretrained: bool = False, **kwargs: Any) -> AlexNet:
    """Build :class:`AlexNet`.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (see :func:`pagaie.vision.models._utils.load_pretrained`). Default: False.
        **kwargs: passed to :class:`AlexNet`.

    Returns:
        AlexNet: the model.

    Examples:
        >>> from pagaie.vision.models import alexnet
        >>> model = alexnet(num_classes=10)
        >>> model._fc8.weight.shape
        paddle.Size([4096, 10])
    """
    model = AlexNet(**kwargs)
    return load_pretrained(model, "alexnet", model_urls) if pretrained else model
