"""VGG 11/13/16/19 (Simonyan & Zisserman, 2014), optionally with batch norm."""
from __future__ import annotations

from typing import Any, Sequence

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import load_pretrained, model_urls_of

__all__ = ["VGG", "vgg11", "vgg13", "vgg16", "vgg19"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("vgg")

# Channels per 3x3 conv; "M" is a 2x2 max pool.
cfgs: dict[str, list] = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M",
          512, 512, 512, 512, "M"],
}


class VGG(nn.Layer):
    """VGG classifier over a given feature extractor.

    Args:
        features (Layer): the convolutional part (see :func:`make_layers`).
        num_classes (int, optional): output classes; ``<= 0`` drops the classifier. Default: 1000.
        with_pool (bool, optional): apply a 7x7 adaptive average pool. Default: True.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import VGG
        >>> from pagaie.vision.models.vgg import make_layers
        >>> model = VGG(make_layers([8, "M"]), num_classes=0)
        >>> model(paddle.rand([1, 3, 16, 16])).shape
        paddle.Size([1, 8, 7, 7])
    """

    def __init__(self, features: nn.Layer, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, 4096), nn.ReLU(), nn.Dropout(),
                nn.Linear(4096, num_classes))

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(pagaie.flatten(x, 1))
        return x


def make_layers(cfg: Sequence, batch_norm: bool = False) -> nn.Sequential:
    """The VGG feature extractor for a channel list (``"M"`` marks a max pool)."""
    layers: list = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2D(in_channels, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2D(v))
        layers.append(nn.ReLU())
        in_channels = v
    return nn.Sequential(*layers)


def _vgg(arch: str, cfg: str, batch_norm: bool, pretrained: bool, **kwargs: Any) -> VGG:
    model = VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)
    if pretrained:
        load_pretrained(model, arch + ("_bn" if batch_norm else ""), model_urls)
    return model


_DOC = """Build VGG-{d}{extra}.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (Paddle publishes them for vgg16 and vgg19 without batch norm). Default: False.
        batch_norm (bool, optional): add BatchNorm2D after every convolution. Default: False.
        **kwargs: passed to :class:`VGG` (``num_classes``, ``with_pool``).

    Returns:
        VGG: the model.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import vgg{d}
        >>> model = vgg{d}(num_classes=0, with_pool=False)
        >>> model(paddle.rand([1, 3, 32, 32])).shape
        paddle.Size([1, 512, 1, 1])
    """


def vgg11(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg("vgg11", "A", batch_norm, pretrained, **kwargs)


def vgg13(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg("vgg13", "B", batch_norm, pretrained, **kwargs)


def vgg16(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg("vgg16", "D", batch_norm, pretrained, **kwargs)


def vgg19(pretrained: bool = False, batch_norm: bool = False, **kwargs: Any) -> VGG:
    return _vgg("vgg19", "E", batch_norm, pretrained, **kwargs)


for _f, _d in ((vgg11, 11), (vgg13, 13), (vgg16, 16), (vgg19, 19)):
    _f.__doc__ = _DOC.format(d=_d, extra="")
