"""ResNet, ResNeXt and Wide ResNet (He et al., 2015; Xie et al., 2016; Zagoruyko & Komodakis, 2016)."""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie import nn
from pagaie.vision.models._utils import load_pretrained, model_urls_of

__all__ = ["ResNet", "resnet18", "resnet34", "resnet50", "resnet101", "resnet152",
           "resnext50_32x4d", "resnext50_64x4d", "resnext101_32x4d", "resnext101_64x4d",
           "resnext152_32x4d", "resnext152_64x4d", "wide_resnet50_2", "wide_resnet101_2"]

# {arch: (url, md5)} of Paddle's published weights, read from the local cache only.
model_urls = model_urls_of("resnet", "resnext", "wide_resnet")


class BasicBlock(nn.Layer):
    """Two 3x3 conv/BN stages with a residual connection (ResNet-18/34)."""

    expansion = 1

    def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample: nn.Layer | None = None,
                 groups: int = 1, base_width: int = 64, dilation: int = 1, norm_layer: Any = None) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        self.conv1 = nn.Conv2D(inplanes, planes, 3, padding=1, stride=stride, bias_attr=False)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2D(planes, planes, 3, padding=1, bias_attr=False)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class BottleneckBlock(nn.Layer):
    """1x1 reduce, 3x3 (grouped) and 1x1 expand conv/BN stages with a residual connection."""

    expansion = 4

    def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample: nn.Layer | None = None,
                 groups: int = 1, base_width: int = 64, dilation: int = 1, norm_layer: Any = None) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = nn.Conv2D(inplanes, width, 1, bias_attr=False)
        self.bn1 = norm_layer(width)
        self.conv2 = nn.Conv2D(width, width, 3, padding=dilation, stride=stride, groups=groups,
                               dilation=dilation, bias_attr=False)
        self.bn2 = norm_layer(width)
        self.conv3 = nn.Conv2D(width, planes * self.expansion, 1, bias_attr=False)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


_DEPTHS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3]}


class ResNet(nn.Layer):
    """ResNet family classifier.

    Args:
        block (BasicBlock|BottleneckBlock): the residual block class.
        depth (int, optional): 18, 34, 50, 101 or 152. Default: 50.
        width (int, optional): base width of the bottleneck (64 for ResNet, 4 for ResNeXt
            with groups, 128 for Wide ResNet). Default: 64.
        num_classes (int, optional): output classes; ``<= 0`` drops the fc layer. Default: 1000.
        with_pool (bool, optional): apply global average pooling. Default: True.
        groups (int, optional): groups of the 3x3 convolutions (ResNeXt cardinality). Default: 1.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import ResNet
        >>> from pagaie.vision.models.resnet import BasicBlock
        >>> model = ResNet(BasicBlock, 18, num_classes=10)
        >>> model(paddle.rand([1, 3, 64, 64])).shape
        paddle.Size([1, 10])
    """

    def __init__(self, block: type, depth: int = 50, width: int = 64, num_classes: int = 1000,
                 with_pool: bool = True, groups: int = 1) -> None:
        super().__init__()
        layers = _DEPTHS[depth]
        self.groups = groups
        self.base_width = width
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._norm_layer = nn.BatchNorm2D
        self.inplanes = 64
        self.dilation = 1
        self.conv1 = nn.Conv2D(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias_attr=False)
        self.bn1 = self._norm_layer(self.inplanes)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block: type, planes: int, blocks: int, stride: int = 1,
                    dilate: bool = False) -> nn.Sequential:
        norm_layer = self._norm_layer
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        downsample = None
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2D(self.inplanes, planes * block.expansion, 1, stride=stride, bias_attr=False),
                norm_layer(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width,
                        previous_dilation, norm_layer)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                                norm_layer=norm_layer))
        return nn.Sequential(*layers)

    def forward(self, x: pagaie.Tensor) -> pagaie.Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.fc(pagaie.flatten(x, 1))
        return x


def _resnet(arch: str, block: type, depth: int, pretrained: bool, **kwargs: Any) -> ResNet:
    model = ResNet(block, depth, **kwargs)
    return load_pretrained(model, arch, model_urls) if pretrained else model


def _factory(arch: str, block: type, depth: int, desc: str, **fixed: Any):
    def build(pretrained: bool = False, **kwargs: Any) -> ResNet:
        kwargs.update(fixed)
        return _resnet(arch, block, depth, pretrained, **kwargs)

    build.__name__ = build.__qualname__ = arch
    build.__module__ = __name__
    build.__doc__ = f"""Build {desc}.

    Args:
        pretrained (bool, optional): load Paddle's ImageNet weights from the local cache
            (``{arch}.pdparams``). Default: False.
        **kwargs: passed to :class:`ResNet` (``num_classes``, ``with_pool``).

    Returns:
        ResNet: the model.

    Examples:
        >>> from pagaie.vision.models import {arch}
        >>> model = {arch}(num_classes=10)
        >>> model.fc.weight.shape
        paddle.Size([{512 * block.expansion}, 10])
    """
    return build


resnet18 = _factory("resnet18", BasicBlock, 18, "ResNet-18")
resnet34 = _factory("resnet34", BasicBlock, 34, "ResNet-34")
resnet50 = _factory("resnet50", BottleneckBlock, 50, "ResNet-50")
resnet101 = _factory("resnet101", BottleneckBlock, 101, "ResNet-101")
resnet152 = _factory("resnet152", BottleneckBlock, 152, "ResNet-152")
resnext50_32x4d = _factory("resnext50_32x4d", BottleneckBlock, 50, "ResNeXt-50 32x4d", groups=32, width=4)
resnext50_64x4d = _factory("resnext50_64x4d", BottleneckBlock, 50, "ResNeXt-50 64x4d", groups=64, width=4)
resnext101_32x4d = _factory("resnext101_32x4d", BottleneckBlock, 101, "ResNeXt-101 32x4d", groups=32, width=4)
resnext101_64x4d = _factory("resnext101_64x4d", BottleneckBlock, 101, "ResNeXt-101 64x4d", groups=64, width=4)
resnext152_32x4d = _factory("resnext152_32x4d", BottleneckBlock, 152, "ResNeXt-152 32x4d", groups=32, width=4)
resnext152_64x4d = _factory("resnext152_64x4d", BottleneckBlock, 152, "ResNeXt-152 64x4d", groups=64, width=4)
wide_resnet50_2 = _factory("wide_resnet50_2", BottleneckBlock, 50, "Wide ResNet-50-2", width=128)
wide_resnet101_2 = _factory("wide_resnet101_2", BottleneckBlock, 101, "Wide ResNet-101-2", width=128)
