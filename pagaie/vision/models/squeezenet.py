"""SqueezeNet 1.0 and 1.1 (Iandola et al., 2016)."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie import nn
from pagaie.nn import functional as F
from pagaie.vision.models._utils import load_pretrained, model_urls_of

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("squeezenet")


class MakeFireConv(nn.Layer):
    """Conv2D followed by ReLU."""

    def __init__(self, input_channels: int, output_channels: int, filter_size: int, padding: int = 0) -> None:
        super().__init__()
        self._conv = nn.Conv2D(input_channels, output_channels, filter_size, padding=padding,
                               weight_attr=pagaie.ParamAttr(), bias_attr=pagaie.ParamAttr())

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    """Fire module: 1x1 squeeze, then parallel 1x1 and 3x3 expands concatenated."""

    def __init__(self, input_channels: int, squeeze_channels: int, expand1x1_channels: int,
                 expand3x3_channels: int) -> None:
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        x = self._conv(inputs)
        return pagaie.concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


_FIRES = [(16, 64, 64), (16, 64, 64), (32, 128, 128), (32, 128, 128), (48, 192, 192), (48, 192, 192),
          (64, 256, 256), (64, 256, 256)]


class SqueezeNet(nn.Layer):
    """SqueezeNet classifier.

    Args:
        version (str): ``'1.0'`` or ``'1.1'``.
        num_classes (int, optional): output classes of the final 1x1 conv. Default: 1000.
        with_pool (bool, optional): apply ReLU and global average pooling, and drop the
            spatial axes. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import SqueezeNet
        >>> model = SqueezeNet("1.1", num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, version: str, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported = ["1.0", "1.1"]
        assert version in supported, f"supported versions are {supported} but input version is {version}"
        attr = pagaie.ParamAttr
        if version == "1.0":
            self._conv = nn.Conv2D(3, 96, 7, stride=2, weight_attr=attr(), bias_attr=attr())
            first = 96
        else:
            self._conv = nn.Conv2D(3, 64, 3, stride=2, padding=1, weight_attr=attr(), bias_attr=attr())
            first = 64
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        cin = first
        for i, (s, e1, e3) in enumerate(_FIRES):
            setattr(self, f"_conv{i + 1}", MakeFire(cin, s, e1, e3))
            cin = e1 + e3
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = nn.Conv2D(512, num_classes, 1, weight_attr=attr(), bias_attr=attr())
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        x = self._pool(F.relu(self._conv(inputs)))
        # Fire modules, with a max pool after the listed ones.
        pool_after = (3, 7) if self.version == "1.0" else (2, 4)
        for i in range(1, 9):
            x = getattr(self, f"_conv{i}")(x)
            if i in pool_after:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = self._avg_pool(F.relu(x))
            x = pagaie.squeeze(x, axis=[2, 3])
        return x


def squeezenet1_0(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    """Build SqueezeNet 1.0.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache. Default: False.
        **kwargs: passed to :class:`SqueezeNet` (``num_classes``, ``with_pool``).

    Returns:
        SqueezeNet: the model.

    Examples:
        >>> from pagaie.vision.models import squeezenet1_0
        >>> model = squeezenet1_0(num_classes=10)
        >>> model._conv9.weight.shape
        paddle.Size([10, 512, 1, 1])
    """
    model = SqueezeNet("1.0", **kwargs)
    return load_pretrained(model, "squeezenet1_0", model_urls) if pretrained else model


def squeezenet1_1(pretrained: bool = False, **kwargs: Any) -> SqueezeNet:
    """Build SqueezeNet 1.1 (fewer FLOPs than 1.0 at the same accuracy).

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache. Default: False.
        **kwargs: passed to :class:`SqueezeNet` (``num_classes``, ``with_pool``).

    Returns:
        SqueezeNet: the model.

    Examples:
        >>> from pagaie.vision.models import squeezenet1_1
        >>> model = squeezenet1_1(num_classes=10)
        >>> model._conv.weight.shape
        paddle.Size([64, 3, 3, 3])
    """
    model = SqueezeNet("1.1", **kwargs)
    return load_pretrained(model, "squeezenet1_1", model_urls) if pretrained else model
