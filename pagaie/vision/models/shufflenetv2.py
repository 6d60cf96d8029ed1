"""ShuffleNetV2 (Ma et al., 2018) at Paddle's published widths, with ReLU or Swish."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import ConvNormActivation, load_pretrained, model_urls_of

__all__ = ["ShuffleNetV2", "shufflenet_v2_x0_25", "shufflenet_v2_x0_33", "shufflenet_v2_x0_5",
           "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0", "shufflenet_v2_swish"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("shufflenet_v2_")


def create_activation_layer(act: str | None) -> Any:
    """The activation class for ``'relu'``, ``'swish'`` or None."""
    table = {"swish": nn.Swish, "relu": nn.ReLU, None: None}
    if act not in table:
        raise RuntimeError(f"The activation function is not supported: {act}")
    return table[act]


def channel_shuffle(x: pagaie.Tensor, groups: int) -> pagaie.Tensor:
    """Interleave the channels of ``groups`` equal channel groups."""
    n, c, h, w = x.shape[0:4]
    x = pagaie.reshape(x, [n, groups, c // groups, h, w])
    x = pagaie.transpose(x, perm=[0, 2, 1, 3, 4])
    return pagaie.reshape(x, [n, c, h, w])


class InvertedResidual(nn.Layer):
    """Stride-1 unit: split channels, transform one half, concatenate, shuffle."""

    def __init__(self, in_channels: int, out_channels: int, stride: int, activation_layer: Any = nn.ReLU) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_pw = ConvNormActivation(in_channels // 2, half, kernel_size=1, stride=1, padding=0,
                                           groups=1, activation_layer=activation_layer)
        self._conv_dw = ConvNormActivation(half, half, kernel_size=3, stride=stride, padding=1,
                                           groups=half, activation_layer=None)
        self._conv_linear = ConvNormActivation(half, half, kernel_size=1, stride=1, padding=0, groups=1,
                                               activation_layer=activation_layer)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        c = inputs.shape[1] // 2
        x1, x2 = pagaie.split(inputs, num_or_sections=[c, c], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(pagaie.concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """Downsampling unit: two strided branches over the whole input, concatenated and shuffled."""

    def __init__(self, in_channels: int, out_channels: int, stride: int, activation_layer: Any = nn.ReLU) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = ConvNormActivation(in_channels, in_channels, kernel_size=3, stride=stride, padding=1,
                                             groups=in_channels, activation_layer=None)
        self._conv_linear_1 = ConvNormActivation(in_channels, half, kernel_size=1, stride=1, padding=0,
                                                 groups=1, activation_layer=activation_layer)
        self._conv_pw_2 = ConvNormActivation(in_channels, half, kernel_size=1, stride=1, padding=0, groups=1,
                                             activation_layer=activation_layer)
        self._conv_dw_2 = ConvNormActivation(half, half, kernel_size=3, stride=stride, padding=1, groups=half,
                                             activation_layer=None)
        self._conv_linear_2 = ConvNormActivation(half, half, kernel_size=1, stride=1, padding=0, groups=1,
                                                 activation_layer=activation_layer)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(pagaie.concat([x1, x2], axis=1), 2)


_STAGE_CHANNELS = {0.25: [-1, 24, 24, 48, 96, 512], 0.33: [-1, 24, 32, 64, 128, 512],
                   0.5: [-1, 24, 48, 96, 192, 1024], 1.0: [-1, 24, 116, 232, 464, 1024],
                   1.5: [-1, 24, 176, 352, 704, 1024], 2.0: [-1, 24, 224, 488, 976, 2048]}


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2 classifier.

    Args:
        scale (float, optional): width: 0.25, 0.33, 0.5, 1.0, 1.5 or 2.0. Default: 1.0.
        act (str, optional): ``'relu'`` or ``'swish'``. Default: ``'relu'``.
        num_classes (int, optional): output classes; ``<= 0`` drops the fc layer. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import ShuffleNetV2
        >>> model = ShuffleNetV2(scale=0.25, num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, scale: float = 1.0, act: str = "relu", num_classes: int = 1000,
                 with_pool: bool = True) -> None:
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        activation_layer = create_activation_layer(act)
        if scale not in _STAGE_CHANNELS:
            raise NotImplementedError("This scale size:[" + str(scale) + "] is not implemented!")
        ch = _STAGE_CHANNELS[scale]
        self._conv1 = ConvNormActivation(3, ch[1], kernel_size=3, stride=2, padding=1,
                                         activation_layer=activation_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                if i == 0:
                    block = InvertedResidualDS(ch[stage + 1], ch[stage + 2], 2, activation_layer)
                else:
                    block = InvertedResidual(ch[stage + 2], ch[stage + 2], 1, activation_layer)
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = ConvNormActivation(ch[-2], ch[-1], kernel_size=1, stride=1, padding=0,
                                             activation_layer=activation_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = ch[-1]
            self._fc = nn.Linear(ch[-1], num_classes)

    def forward(self, inputs: pagaie.Tensor) -> pagaie.Tensor:
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(pagaie.flatten(x, start_axis=1, stop_axis=-1))
        return x


def _factory(arch: str, scale: float, act: str = "relu"):
    def build(pretrained: bool = False, **kwargs: Any) -> ShuffleNetV2:
        extra = {"act": act} if act != "relu" else {}
        model = ShuffleNetV2(scale=scale, **extra, **kwargs)
        return load_pretrained(model, arch, model_urls) if pretrained else model

    build.__name__ = build.__qualname__ = arch
    build.__module__ = __name__
    build.__doc__ = f"""Build ShuffleNetV2 with width {scale} and {act} activations.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (``{arch}.pdparams``). Default: False.
        **kwargs: passed to :class:`ShuffleNetV2` (``num_classes``, ``with_pool``).

    Returns:
        ShuffleNetV2: the model.

    Examples:
        >>> from pagaie.vision.models import {arch}
        >>> model = {arch}(num_classes=10)
        >>> model._fc.weight.shape
        paddle.Size([{_STAGE_CHANNELS[scale][-1]}, 10])
    """
    return build


shufflenet_v2_x0_25 = _factory("shufflenet_v2_x0_25", 0.25)
shufflenet_v2_x0_33 = _factory("shufflenet_v2_x0_33", 0.33)
shufflenet_v2_x0_5 = _factory("shufflenet_v2_x0_5", 0.5)
shufflenet_v2_x1_0 = _factory("shufflenet_v2_x1_0", 1.0)
shufflenet_v2_x1_5 = _factory("shufflenet_v2_x1_5", 1.5)
shufflenet_v2_x2_0 = _factory("shufflenet_v2_x2_0", 2.0)
shufflenet_v2_swish = _factory("shufflenet_v2_swish", 1.0, "swish")
