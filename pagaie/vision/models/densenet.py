"""DenseNet 121/161/169/201/264 (Huang et al., 2016)."""
from __future__ import annotations

import math
from typing import Any

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import load_pretrained, model_urls_of

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201", "densenet264"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("densenet")


class BNACConvLayer(nn.Layer):
    """BatchNorm with activation, then a bias-free Conv2D (pre-activation order)."""

    def __init__(self, num_channels: int, num_filters: int, filter_size: int, stride: int = 1, pad: int = 0,
                 groups: int = 1, act: str = "relu") -> None:
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad,
                               groups=groups, weight_attr=pagaie.ParamAttr(), bias_attr=False)

    def forward(self, input: pagaie.Tensor) -> pagaie.Tensor:
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    """1x1 bottleneck and 3x3 conv whose output is concatenated to the input."""

    def __init__(self, num_channels: int, growth_rate: int, bn_size: int, dropout: float) -> None:
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1, pad=0, stride=1)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, pad=1, stride=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input: pagaie.Tensor) -> pagaie.Tensor:
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return pagaie.concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    """``num_layers`` DenseLayers, each seeing all previous feature maps."""

    def __init__(self, num_channels: int, num_layers: int, bn_size: int, growth_rate: int, dropout: float,
                 name: str | None = None) -> None:
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        channels = num_channels
        for i in range(num_layers):
            self.dense_layer_func.append(self.add_sublayer(
                f"{name}_{i + 1}", DenseLayer(channels, growth_rate, bn_size, dropout)))
            channels += growth_rate

    def forward(self, input: pagaie.Tensor) -> pagaie.Tensor:
        for layer in self.dense_layer_func:
            input = layer(input)
        return input


class TransitionLayer(nn.Layer):
    """BN-ReLU-1x1 conv, then 2x2 average pooling."""

    def __init__(self, num_channels: int, num_output_features: int) -> None:
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1, pad=0, stride=1)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input: pagaie.Tensor) -> pagaie.Tensor:
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    """Bias-free Conv2D, then BatchNorm with activation."""

    def __init__(self, num_channels: int, num_filters: int, filter_size: int, stride: int = 1, pad: int = 0,
                 groups: int = 1, act: str = "relu") -> None:
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride, padding=pad,
                               groups=groups, weight_attr=pagaie.ParamAttr(), bias_attr=False)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input: pagaie.Tensor) -> pagaie.Tensor:
        return self._batch_norm(self._conv(input))


# layers -> (initial features, growth rate, layers per dense block)
_SPEC = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]), 169: (64, 32, [6, 12, 32, 32]),
         201: (64, 32, [6, 12, 48, 32]), 264: (64, 32, [6, 12, 64, 48])}


class DenseNet(nn.Layer):
    """DenseNet classifier.

    Args:
        layers (int, optional): 121, 161, 169, 201 or 264. Default: 121.
        bn_size (int, optional): bottleneck width multiplier. Default: 4.
        dropout (float, optional): dropout rate after each dense layer. Default: 0.0.
        num_classes (int, optional): output classes; ``<= 0`` drops the fc layer. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import DenseNet
        >>> model = DenseNet(121, num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, layers: int = 121, bn_size: int = 4, dropout: float = 0.0, num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported = list(_SPEC)
        assert layers in supported, f"supported layers are {supported} but input layer is {layers}"
        num_features, growth_rate, block_config = _SPEC[layers]
        self.conv1_func = ConvBNLayer(3, num_features, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        for i, num_layers in enumerate(block_config):
            self.dense_block_func_list.append(self.add_sublayer(
                f"db_conv_{i + 2}", DenseBlock(num_features, num_layers, bn_size, growth_rate, dropout,
                                               name=f"conv{i + 2}")))
            num_features += num_layers * growth_rate
            if i != len(block_config) - 1:
                self.transition_func_list.append(self.add_sublayer(
                    f"tr_conv{i + 2}_blk", TransitionLayer(num_features, num_features // 2)))
                num_features //= 2
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(num_features * 1.0)
            self.out = nn.Linear(num_features, num_classes,
                                 weight_attr=pagaie.ParamAttr(initializer=nn.initializer.Uniform(-stdv, stdv)),
                                 bias_attr=pagaie.ParamAttr())

    def forward(self, input: pagaie.Tensor) -> pagaie.Tensor:
        x = self.pool2d_max(self.conv1_func(input))
        for i in range(len(self.block_config)):
            x = self.dense_block_func_list[i](x)
            if i != len(self.block_config) - 1:
                x = self.transition_func_list[i](x)
        x = self.batch_norm(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.out(pagaie.flatten(x, start_axis=1, stop_axis=-1))
        return x


def _factory(depth: int):
    arch = f"densenet{depth}"

    def build(pretrained: bool = False, **kwargs: Any) -> DenseNet:
        model = DenseNet(layers=depth, **kwargs)
        return load_pretrained(model, arch, model_urls) if pretrained else model

    build.__name__ = build.__qualname__ = arch
    build.__module__ = __name__
    build.__doc__ = f"""Build DenseNet-{depth}.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache. Default: False.
        **kwargs: passed to :class:`DenseNet` (``bn_size``, ``dropout``, ``num_classes``, ``with_pool``).

    Returns:
        DenseNet: the model.

    Examples:
        >>> from pagaie.vision.models import {arch}
        >>> model = {arch}(num_classes=10)
        >>> model.out.weight.shape[1]
        10
    """
    return build


densenet121 = _factory(121)
densenet161 = _factory(161)
densenet169 = _factory(169)
densenet201 = _factory(201)
densenet264 = _factory(264)
