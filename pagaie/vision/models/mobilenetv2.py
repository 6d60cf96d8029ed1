"""MobileNetV2 (Sandler et al., 2018): inverted residuals with linear bottlenecks."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import ConvNormActivation, _make_divisible, load_pretrained, model_urls_of

__all__ = ["MobileNetV2", "mobilenet_v2"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("mobilenetv2_")


class InvertedResidual(nn.Layer):
    """Optional 1x1 expansion, 3x3 depthwise conv, 1x1 linear projection; residual when shapes allow."""

    def __init__(self, inp: int, oup: int, stride: int, expand_ratio: float,
                 norm_layer: Any = nn.BatchNorm2D) -> None:
        super().__init__()
        self.stride = stride
        assert stride in [1, 2]
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers: list = []
        if expand_ratio != 1:
            layers.append(ConvNormActivation(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer,
                                             activation_layer=nn.ReLU6))
        layers += [ConvNormActivation(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim,
                                      norm_layer=norm_layer, activation_layer=nn.ReLU6),
                   nn.Conv2D(hidden_dim, oup, 1, 1, 0, bias_attr=False),
                   norm_layer(oup)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


# expansion t, channels c, repeats n, first stride s
_SETTING = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1],
            [6, 160, 3, 2], [6, 320, 1, 1]]


class MobileNetV2(nn.Layer):
    """MobileNetV2 classifier.

    Args:
        scale (float, optional): channel multiplier. Default: 1.0.
        num_classes (int, optional): output classes; ``<= 0`` drops the classifier. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import MobileNetV2
        >>> model = MobileNetV2(scale=0.5, num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        norm_layer = nn.BatchNorm2D
        input_channel = _make_divisible(32 * scale, 8)
        self.last_channel = _make_divisible(1280 * max(1.0, scale), 8)
        features = [ConvNormActivation(3, input_channel, stride=2, norm_layer=norm_layer,
                                       activation_layer=nn.ReLU6)]
        for t, c, n, s in _SETTING:
            output_channel = _make_divisible(c * scale, 8)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel, s if i == 0 else 1,
                                                 expand_ratio=t, norm_layer=norm_layer))
                input_channel = output_channel
        features.append(ConvNormActivation(input_channel, self.last_channel, kernel_size=1,
                                           norm_layer=norm_layer, activation_layer=nn.ReLU6))
        self.features = nn.Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(self.last_channel, num_classes))

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.classifier(pagaie.flatten(x, 1))
        return x


def mobilenet_v2(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV2:
    """Build :class:`MobileNetV2`.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (published for ``scale=1.0`` only). Default: False.
        scale (float, optional): channel multiplier. Default: 1.0.
        **kwargs: passed to :class:`MobileNetV2` (``num_classes``, ``with_pool``).

    Returns:
        MobileNetV2: the model.

    Examples:
        >>> from pagaie.vision.models import mobilenet_v2
        >>> model = mobilenet_v2(num_classes=10)
        >>> model.classifier[1].weight.shape
        paddle.Size([1280, 10])
    """
    model = MobileNetV2(scale=scale, **kwargs)
    return load_pretrained(model, "mobilenetv2_" + str(scale), model_urls) if pretrained else model
