"""GoogLeNet / Inception v1 (Szegedy et al., 2014), with its two auxiliary heads."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie import nn
from pagaie.nn import functional as F
from pagaie.vision.models._utils import load_pretrained, model_urls_of

__all__ = ["GoogLeNet", "googlenet"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("googlenet")


def xavier(channels: int, filter_size: int) -> pagaie.ParamAttr:
    """A uniform initialiser scaled by the fan-in ``channels * filter_size**2``."""
    stdv = (3.0 / (filter_size ** 2 * channels)) ** 0.5
    return pagaie.ParamAttr(initializer=nn.initializer.Uniform(-stdv, stdv))


class ConvLayer(nn.Layer):
    """Bias-free "same" Conv2D (no activation)."""

    def __init__(self, num_channels: int, num_filters: int, filter_size: int, stride: int = 1,
                 groups: int = 1) -> None:
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride,
                               padding=(filter_size - 1) // 2, groups=groups, bias_attr=False)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        return self._conv(inputs)


class Inception(nn.Layer):
    """Four parallel branches (1x1; 1x1-3x3; 1x1-5x5; pool-1x1), concatenated then ReLU."""

    def __init__(self, input_channels: int, output_channels: int, filter1: int, filter3R: int, filter3: int,
                 filter5R: int, filter5: int, proj: int) -> None:
        super().__init__()
        self._conv1 = ConvLayer(input_channels, filter1, 1)
        self._conv3r = ConvLayer(input_channels, filter3R, 1)
        self._conv3 = ConvLayer(filter3R, filter3, 3)
        self._conv5r = ConvLayer(input_channels, filter5R, 1)
        self._conv5 = ConvLayer(filter5R, filter5, 5)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=1, padding=1)
        self._convprj = ConvLayer(input_channels, proj, 1)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        cat = pagaie.concat([self._conv1(inputs), self._conv3(self._conv3r(inputs)),
                             self._conv5(self._conv5r(inputs)), self._convprj(self._pool(inputs))], axis=1)
        return F.relu(cat)


class GoogLeNet(nn.Layer):
    """GoogLeNet classifier; returns ``(out, aux1, aux2)``.

    With ``num_classes > 0`` the auxiliary heads need 224x224 inputs.

    Args:
        num_classes (int, optional): output classes; ``<= 0`` drops the heads. Default: 1000.
        with_pool (bool, optional): apply the pooling before the heads. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import GoogLeNet
        >>> model = GoogLeNet(num_classes=0, with_pool=False)
        >>> out, aux1, aux2 = model(paddle.rand([1, 3, 64, 64]))
        >>> list(out.shape), list(aux1.shape)
        ([1, 1024, 1, 1], [1, 512, 3, 3])
    """

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._conv = ConvLayer(3, 64, 7, 2)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2)
        self._conv_1 = ConvLayer(64, 64, 1)
        self._conv_2 = ConvLayer(64, 192, 3)
        self._ince3a = Inception(192, 192, 64, 96, 128, 16, 32, 32)
        self._ince3b = Inception(256, 256, 128, 128, 192, 32, 96, 64)
        self._ince4a = Inception(480, 480, 192, 96, 208, 16, 48, 64)
        self._ince4b = Inception(512, 512, 160, 112, 224, 24, 64, 64)
        self._ince4c = Inception(512, 512, 128, 128, 256, 24, 64, 64)
        self._ince4d = Inception(512, 512, 112, 144, 288, 32, 64, 64)
        self._ince4e = Inception(528, 528, 256, 160, 320, 32, 128, 128)
        self._ince5a = Inception(832, 832, 256, 160, 320, 32, 128, 128)
        self._ince5b = Inception(832, 832, 384, 192, 384, 48, 128, 128)
        if with_pool:
            self._pool_5 = nn.AdaptiveAvgPool2D(1)
            self._pool_o1 = nn.AvgPool2D(kernel_size=5, stride=3)
            self._pool_o2 = nn.AvgPool2D(kernel_size=5, stride=3)
        if num_classes > 0:
            self._drop = nn.Dropout(p=0.4, mode="downscale_in_infer")
            self._fc_out = nn.Linear(1024, num_classes, weight_attr=xavier(1024, 1))
            self._conv_o1 = ConvLayer(512, 128, 1)
            self._fc_o1 = nn.Linear(1152, 1024, weight_attr=xavier(2048, 1))
            self._drop_o1 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out1 = nn.Linear(1024, num_classes, weight_attr=xavier(1024, 1))
            self._conv_o2 = ConvLayer(528, 128, 1)
            self._fc_o2 = nn.Linear(1152, 1024, weight_attr=xavier(2048, 1))
            self._drop_o2 = nn.Dropout(p=0.7, mode="downscale_in_infer")
            self._out2 = nn.Linear(1024, num_classes, weight_attr=xavier(1024, 1))

    def forward(self, inputs: pagaie.Tensor) -> tuple:
        x = self._pool(self._conv(inputs))
        x = self._pool(self._conv_2(self._conv_1(x)))
        x = self._pool(self._ince3b(self._ince3a(x)))
        out1 = self._ince4a(x)
        out2 = self._ince4d(self._ince4c(self._ince4b(out1)))
        x = self._pool(self._ince4e(out2))
        out = self._ince5b(self._ince5a(x))
        if self.with_pool:
            out, out1, out2 = self._pool_5(out), self._pool_o1(out1), self._pool_o2(out2)
        if self.num_classes > 0:
            out = self._fc_out(pagaie.squeeze(self._drop(out), axis=[2, 3]))
            out1 = pagaie.flatten(self._conv_o1(out1), start_axis=1, stop_axis=-1)
            out1 = self._out1(self._drop_o1(F.relu(self._fc_o1(out1))))
            out2 = pagaie.flatten(self._conv_o2(out2), start_axis=1, stop_axis=-1)
            out2 = self._out2(self._drop_o2(self._fc_o2(out2)))
        return out, out1, out2


def googlenet(pretrained: bool = False, **kwargs: Any) -> GoogLeNet:
    """Build :class:`GoogLeNet`.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache. Default: False.
        **kwargs: passed to :class:`GoogLeNet` (``num_classes``, ``with_pool``).

    Returns:
        GoogLeNet: the model.

    Examples:
        >>> from pagaie.vision.models import googlenet
        >>> model = googlenet(num_classes=10)
        >>> model._fc_out.weight.shape
        paddle.Size([1024, 10])
    """
    model = GoogLeNet(**kwargs)
    return load_pretrained(model, "googlenet", model_urls) if pretrained else model
