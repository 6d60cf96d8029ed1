"""MobileNetV3 Small and Large (Howard et al., 2019)."""
from __future__ import annotations

from functools import partial
from typing import Any

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import ConvNormActivation, _make_divisible, load_pretrained, model_urls_of

__all__ = ["MobileNetV3Small", "MobileNetV3Large", "mobilenet_v3_small", "mobilenet_v3_large"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("mobilenet_v3_")


class SqueezeExcitation(nn.Layer):
    """Channel attention: global pool, 1x1 squeeze, activation, 1x1 excite, gate."""

    def __init__(self, input_channels: int, squeeze_channels: int, activation: Any = nn.ReLU,
                 scale_activation: Any = nn.Sigmoid) -> None:
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2D(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def forward(self, input: pagaie.Tensor) -> pagaie.Tensor:
        s = self.fc2(self.activation(self.fc1(self.avgpool(input))))
        return self.scale_activation(s) * input


class InvertedResidualConfig:
    """One block's settings, channels already scaled and rounded to multiples of 8."""

    def __init__(self, in_channels: int, kernel: int, expanded_channels: int, out_channels: int,
                 use_se: bool, activation: str | None, stride: int, scale: float = 1.0) -> None:
        self.in_channels = self.adjust_channels(in_channels, scale=scale)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, scale=scale)
        self.out_channels = self.adjust_channels(out_channels, scale=scale)
        self.use_se = use_se
        acts = {None: None, "relu": nn.ReLU, "hardswish": nn.Hardswish}
        if activation not in acts:
            raise RuntimeError(f"The activation function is not supported: {activation}")
        self.activation_layer = acts[activation]
        self.stride = stride

    @staticmethod
    def adjust_channels(channels: int, scale: float = 1.0) -> int:
        return _make_divisible(channels * scale, 8)


class InvertedResidual(nn.Layer):
    """Expansion, depthwise conv, optional squeeze-excitation, linear projection, residual."""

    def __init__(self, in_channels: int, expanded_channels: int, out_channels: int, filter_size: int,
                 stride: int, use_se: bool, activation_layer: Any, norm_layer: Any) -> None:
        super().__init__()
        self.use_res_connect = stride == 1 and in_channels == out_channels
        self.use_se = use_se
        self.expand = in_channels != expanded_channels
        if self.expand:
            self.expand_conv = ConvNormActivation(in_channels, expanded_channels, kernel_size=1, stride=1,
                                                  padding=0, norm_layer=norm_layer,
                                                  activation_layer=activation_layer)
        self.bottleneck_conv = ConvNormActivation(expanded_channels, expanded_channels,
                                                  kernel_size=filter_size, stride=stride,
                                                  padding=int((filter_size - 1) // 2),
                                                  groups=expanded_channels, norm_layer=norm_layer,
                                                  activation_layer=activation_layer)
        if self.use_se:
            self.mid_se = SqueezeExcitation(expanded_channels, _make_divisible(expanded_channels // 4),
                                            scale_activation=nn.Hardsigmoid)
        self.linear_conv = ConvNormActivation(expanded_channels, out_channels, kernel_size=1, stride=1,
                                              padding=0, norm_layer=norm_layer, activation_layer=None)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        identity = x
        if self.expand:
            x = self.expand_conv(x)
        x = self.bottleneck_conv(x)
        if self.use_se:
            x = self.mid_se(x)
        x = self.linear_conv(x)
        return identity + x if self.use_res_connect else x


class MobileNetV3(nn.Layer):
    """MobileNetV3 body shared by the Small and Large variants."""

    def __init__(self, config: list, last_channel: int, scale: float = 1.0, num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        self.config = config
        self.scale = scale
        self.last_channel = last_channel
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.firstconv_in_channels = config[0].in_channels
        self.lastconv_in_channels = config[-1].in_channels
        self.lastconv_out_channels = self.lastconv_in_channels * 6
        norm_layer = partial(nn.BatchNorm2D, epsilon=0.001, momentum=0.99)
        self.conv = ConvNormActivation(3, self.firstconv_in_channels, kernel_size=3, stride=2, padding=1,
                                       groups=1, activation_layer=nn.Hardswish, norm_layer=norm_layer)
        self.blocks = nn.Sequential(*[
            InvertedResidual(c.in_channels, c.expanded_channels, c.out_channels, c.kernel, c.stride,
                             c.use_se, c.activation_layer, norm_layer) for c in config])
        self.lastconv = ConvNormActivation(self.lastconv_in_channels, self.lastconv_out_channels,
                                           kernel_size=1, stride=1, padding=0, groups=1,
                                           norm_layer=norm_layer, activation_layer=nn.Hardswish)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(self.lastconv_out_channels, self.last_channel), nn.Hardswish(),
                nn.Dropout(p=0.2), nn.Linear(self.last_channel, num_classes))

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        x = self.lastconv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(pagaie.flatten(x, 1))
        return x


_SMALL = [(16, 3, 16, 16, True, "relu", 2), (16, 3, 72, 24, False, "relu", 2),
          (24, 3, 88, 24, False, "relu", 1), (24, 5, 96, 40, True, "hardswish", 2),
          (40, 5, 240, 40, True, "hardswish", 1), (40, 5, 240, 40, True, "hardswish", 1),
          (40, 5, 120, 48, True, "hardswish", 1), (48, 5, 144, 48, True, "hardswish", 1),
          (48, 5, 288, 96, True, "hardswish", 2), (96, 5, 576, 96, True, "hardswish", 1),
          (96, 5, 576, 96, True, "hardswish", 1)]
_LARGE = [(16, 3, 16, 16, False, "relu", 1), (16, 3, 64, 24, False, "relu", 2),
          (24, 3, 72, 24, False, "relu", 1), (24, 5, 72, 40, True, "relu", 2),
          (40, 5, 120, 40, True, "relu", 1), (40, 5, 120, 40, True, "relu", 1),
          (40, 3, 240, 80, False, "hardswish", 2), (80, 3, 200, 80, False, "hardswish", 1),
          (80, 3, 184, 80, False, "hardswish", 1), (80, 3, 184, 80, False, "hardswish", 1),
          (80, 3, 480, 112, True, "hardswish", 1), (112, 3, 672, 112, True, "hardswish", 1),
          (112, 5, 672, 160, True, "hardswish", 2), (160, 5, 960, 160, True, "hardswish", 1),
          (160, 5, 960, 160, True, "hardswish", 1)]


class MobileNetV3Small(MobileNetV3):
    """MobileNetV3-Small classifier.

    Args:
        scale (float, optional): channel multiplier. Default: 1.0.
        num_classes (int, optional): output classes; ``<= 0`` drops the classifier. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import MobileNetV3Small
        >>> model = MobileNetV3Small(num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        config = [InvertedResidualConfig(*c, scale) for c in _SMALL]
        super().__init__(config, last_channel=_make_divisible(1024 * scale, 8), scale=scale,
                         with_pool=with_pool, num_classes=num_classes)


class MobileNetV3Large(MobileNetV3):
    """MobileNetV3-Large classifier.

    Args:
        scale (float, optional): channel multiplier. Default: 1.0.
        num_classes (int, optional): output classes; ``<= 0`` drops the classifier. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import MobileNetV3Large
        >>> model = MobileNetV3Large(scale=0.5, num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True) -> None:
        config = [InvertedResidualConfig(*c, scale) for c in _LARGE]
        super().__init__(config, last_channel=_make_divisible(1280 * scale, 8), scale=scale,
                         with_pool=with_pool, num_classes=num_classes)


def _mobilenet_v3(arch: str, pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV3:
    cls = MobileNetV3Large if arch == "mobilenet_v3_large" else MobileNetV3Small
    model = cls(scale=scale, **kwargs)
    return load_pretrained(model, f"{arch}_x{scale}", model_urls) if pretrained else model


def mobilenet_v3_small(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV3Small:
    """Build :class:`MobileNetV3Small`.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (published for ``scale=1.0`` only). Default: False.
        scale (float, optional): channel multiplier. Default: 1.0.
        **kwargs: passed to :class:`MobileNetV3Small` (``num_classes``, ``with_pool``).

    Returns:
        MobileNetV3Small: the model.

    Examples:
        >>> from pagaie.vision.models import mobilenet_v3_small
        >>> model = mobilenet_v3_small(num_classes=10)
        >>> model.classifier[3].weight.shape
        paddle.Size([1024, 10])
    """
    return _mobilenet_v3("mobilenet_v3_small", scale=scale, pretrained=pretrained, **kwargs)


def mobilenet_v3_large(pretrained: bool = False, scale: float = 1.0, **kwargs: Any) -> MobileNetV3Large:
    """Build :class:`MobileNetV3Large`.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (published for ``scale=1.0`` only). Default: False.
        scale (float, optional): channel multiplier. Default: 1.0.
        **kwargs: passed to :class:`MobileNetV3Large` (``num_classes``, ``with_pool``).

    Returns:
        MobileNetV3Large: the model.

    Examples:
        >>> from pagaie.vision.models import mobilenet_v3_large
        >>> model = mobilenet_v3_large(num_classes=10)
        >>> model.classifier[3].weight.shape
        paddle.Size([1280, 10])
    """
    return _mobilenet_v3("mobilenet_v3_large", scale=scale, pretrained=pretrained, **kwargs)
