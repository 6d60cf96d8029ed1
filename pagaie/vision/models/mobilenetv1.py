"""MobileNetV1 (Howard et al., 2017): depthwise separable convolutions."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import ConvNormActivation, load_pretrained, model_urls_of

__all__ = ["MobileNetV1", "mobilenet_v1"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("mobilenetv1_")


class DepthwiseSeparable(nn.Layer):
    """A 3x3 depthwise conv/BN/ReLU followed by a 1x1 pointwise conv/BN/ReLU."""

    def __init__(self, in_channels: int, out_channels1: int, out_channels2: int, num_groups: int,
                 stride: int, scale: float) -> None:
        super().__init__()
        self._depthwise_conv = ConvNormActivation(in_channels, int(out_channels1 * scale), kernel_size=3,
                                                  stride=stride, padding=1, groups=int(num_groups * scale))
        self._pointwise_conv = ConvNormActivation(int(out_channels1 * scale), int(out_channels2 * scale),
                                                  kernel_size=1, stride=1, padding=0)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        return self._pointwise_conv(self._depthwise_conv(x))


# (sublayer name, in channels, out1, out2, groups, stride), channels before scaling.
_BLOCKS = [("conv2_1", 32, 32, 64, 32, 1), ("conv2_2", 64, 64, 128, 64, 2),
           ("conv3_1", 128, 128, 128, 128, 1), ("conv3_2", 128, 128, 256, 128, 2),
           ("conv4_1", 256, 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 256, 2)] + \
          [(f"conv5_{i}", 512, 512, 512, 512, 1) for i in range(1, 6)] + \
          [("conv5_6", 512, 512, 1024, 512, 2), ("conv6", 1024, 1024, 1024, 1024, 1)]


class MobileNetV1(nn.Layer):
    """MobileNetV1 classifier.

    Args:
        scale (float, optional): channel multiplier. Default: 1.0.
        num_classes (int, optional): output classes; ``<= 0`` drops the fc layer. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import MobileNetV1
        >>> model = MobileNetV1(scale=0.25, num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(3, int(32 * scale), kernel_size=3, stride=2, padding=1)
        self.dwsl = [self.add_sublayer(name, DepthwiseSeparable(int(cin * scale), o1, o2, g, s, scale))
                     for name, cin, o1, o2, g, s in _BLOCKS]
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(pagaie.flatten(x, 1))
        return x


def mobilenet_v1(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV1:
    """Build :class:`MobileNetV1`.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (published for ``scale=1.0`` only). Default: False.
        scale (float, optional): channel multiplier. Default: 1.0.
        **kwargs: passed to :class:`MobileNetV1` (``num_classes``, ``with_pool``).

    Returns:
        MobileNetV1: the model.

    Examples:
        >>> from pagaie.vision.models import mobilenet_v1
        >>> model = mobilenet_v1(scale=0.5, num_classes=10)
        >>> model.fc.weight.shape
        paddle.Size([512, 10])
    """
    model = MobileNetV1(scale=scale, **kwargs)
    return load_pretrained(model, "mobilenetv1_" + str(scale), model_urls) if pretrained else model
