"""Inception v3 (Szegedy et al., 2015)."""
from __future__ import annotations

import math
from typing import Any

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import ConvNormActivation, load_pretrained, model_urls_of

__all__ = ["InceptionV3", "inception_v3"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("inception_v3")


def _cbr(cin: int, cout: int, kernel: Any, stride: int = 1, padding: Any = 0) -> ConvNormActivation:
    """Conv2D (no bias) + BatchNorm2D + ReLU."""
    return ConvNormActivation(cin, cout, kernel_size=kernel, stride=stride, padding=padding,
                              activation_layer=nn.ReLU)


def _avg3() -> nn.AvgPool2D:
    return nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)


class InceptionStem(nn.Layer):
    """Five conv stages and two max pools: 299x299x3 to 35x35x192."""

    def __init__(self) -> None:
        super().__init__()
        self.conv_1a_3x3 = _cbr(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _cbr(32, 32, 3)
        self.conv_2b_3x3 = _cbr(32, 64, 3, padding=1)
        self.max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _cbr(64, 80, 1)
        self.conv_4a_3x3 = _cbr(80, 192, 3)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        x = self.max_pool(self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x))))
        return self.max_pool(self.conv_4a_3x3(self.conv_3b_1x1(x)))


class InceptionA(nn.Layer):
    """35x35 block: 1x1, 5x5, double 3x3 and pooled branches."""

    def __init__(self, num_channels: int, pool_features: int) -> None:
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 64, 1)
        self.branch5x5_1 = _cbr(num_channels, 48, 1)
        self.branch5x5_2 = _cbr(48, 64, 5, padding=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, padding=1)
        self.branch_pool = _avg3()
        self.branch_pool_conv = _cbr(num_channels, pool_features, 1)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        return pagaie.concat([
            self.branch1x1(x),
            self.branch5x5_2(self.branch5x5_1(x)),
            self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x))),
            self.branch_pool_conv(self.branch_pool(x))], axis=1)


class InceptionB(nn.Layer):
    """Grid reduction 35x35 -> 17x17."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3 = _cbr(num_channels, 384, 3, stride=2)
        self.branch3x3dbl_1 = _cbr(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cbr(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cbr(96, 96, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        return pagaie.concat([
            self.branch3x3(x),
            self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x))),
            self.branch_pool(x)], axis=1)


class InceptionC(nn.Layer):
    """17x17 block with factorised 7x7 convolutions."""

    def __init__(self, num_channels: int, channels_7x7: int) -> None:
        super().__init__()
        c7 = channels_7x7
        self.branch1x1 = _cbr(num_channels, 192, 1)
        self.branch7x7_1 = _cbr(num_channels, c7, 1)
        self.branch7x7_2 = _cbr(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7_3 = _cbr(c7, 192, (7, 1), padding=(3, 0))
        self.branch7x7dbl_1 = _cbr(num_channels, c7, 1)
        self.branch7x7dbl_2 = _cbr(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_3 = _cbr(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7dbl_4 = _cbr(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_5 = _cbr(c7, 192, (1, 7), padding=(0, 3))
        self.branch_pool = _avg3()
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        b7 = self.branch7x7_3(self.branch7x7_2(self.branch7x7_1(x)))
        d = self.branch7x7dbl_1(x)
        for layer in (self.branch7x7dbl_2, self.branch7x7dbl_3, self.branch7x7dbl_4, self.branch7x7dbl_5):
            d = layer(d)
        return pagaie.concat([self.branch1x1(x), b7, d, self.branch_pool_conv(self.branch_pool(x))], axis=1)


class InceptionD(nn.Layer):
    """Grid reduction 17x17 -> 8x8."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3_1 = _cbr(num_channels, 192, 1)
        self.branch3x3_2 = _cbr(192, 320, 3, stride=2)
        self.branch7x7x3_1 = _cbr(num_channels, 192, 1)
        self.branch7x7x3_2 = _cbr(192, 192, (1, 7), padding=(0, 3))
        self.branch7x7x3_3 = _cbr(192, 192, (7, 1), padding=(3, 0))
        self.branch7x7x3_4 = _cbr(192, 192, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        b3 = self.branch3x3_2(self.branch3x3_1(x))
        b7 = self.branch7x7x3_4(self.branch7x7x3_3(self.branch7x7x3_2(self.branch7x7x3_1(x))))
        return pagaie.concat([b3, b7, self.branch_pool(x)], axis=1)


class InceptionE(nn.Layer):
    """8x8 block with split 1x3 / 3x1 branches."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch1x1 = _cbr(num_channels, 320, 1)
        self.branch3x3_1 = _cbr(num_channels, 384, 1)
        self.branch3x3_2a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3_2b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = _cbr(num_channels, 448, 1)
        self.branch3x3dbl_2 = _cbr(448, 384, 3, padding=1)
        self.branch3x3dbl_3a = _cbr(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = _cbr(384, 384, (3, 1), padding=(1, 0))
        self.branch_pool = _avg3()
        self.branch_pool_conv = _cbr(num_channels, 192, 1)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        b3 = self.branch3x3_1(x)
        b3 = pagaie.concat([self.branch3x3_2a(b3), self.branch3x3_2b(b3)], axis=1)
        d = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        d = pagaie.concat([self.branch3x3dbl_3a(d), self.branch3x3dbl_3b(d)], axis=1)
        return pagaie.concat([self.branch1x1(x), b3, d, self.branch_pool_conv(self.branch_pool(x))], axis=1)


class InceptionV3(nn.Layer):
    """Inception v3 classifier (designed for 299x299 inputs; 75x75 is the smallest).

    Args:
        num_classes (int, optional): output classes; ``<= 0`` drops the fc layer. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import InceptionV3
        >>> model = InceptionV3(num_classes=10)
        >>> model(paddle.rand([2, 3, 75, 75])).shape
        paddle.Size([2, 10])
    """

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.layers_config = {"inception_a": [[192, 256, 288], [32, 64, 64]], "inception_b": [288],
                              "inception_c": [[768, 768, 768, 768], [128, 160, 160, 192]],
                              "inception_d": [768], "inception_e": [1280, 2048]}
        cfg = self.layers_config
        self.inception_stem = InceptionStem()
        blocks = [InceptionA(c, p) for c, p in zip(*cfg["inception_a"])]
        blocks += [InceptionB(c) for c in cfg["inception_b"]]
        blocks += [InceptionC(c, c7) for c, c7 in zip(*cfg["inception_c"])]
        blocks += [InceptionD(c) for c in cfg["inception_d"]]
        blocks += [InceptionE(c) for c in cfg["inception_e"]]
        self.inception_block_list = nn.LayerList(blocks)
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            stdv = 1.0 / math.sqrt(2048 * 1.0)
            self.fc = nn.Linear(2048, num_classes,
                                weight_attr=pagaie.ParamAttr(initializer=nn.initializer.Uniform(-stdv, stdv)),
                                bias_attr=pagaie.ParamAttr())

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(pagaie.reshape(x, shape=[-1, 2048])))
        return x


def inception_v3(pretrained: bool = False, **kwargs: Any) -> InceptionV3:
    """Build :class:`InceptionV3`.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache. Default: False.
        **kwargs: passed to :class:`InceptionV3` (``num_classes``, ``with_pool``).

    Returns:
        InceptionV3: the model.

    Examples:
        >>> from pagaie.vision.models import inception_v3
        >>> model = inception_v3(num_classes=10)
        >>> model.fc.weight.shape
        paddle.Size([2048, 10])
    """
    model = InceptionV3(**kwargs)
    return load_pretrained(model, "inception_v3", model_urls) if pretrained else model
