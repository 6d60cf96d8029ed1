"""Building blocks shared by the model zoo, and the local lookup of pretrained weights.

pagaie never downloads anything: ``pretrained=True`` reads the weights file from the
local cache directory Paddle itself uses (``~/.cache/paddle/hapi/weights``, or the folder
named by the ``PAGAIE_WEIGHTS_HOME`` environment variable), under the file name Paddle's
download would have given it.
"""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import Any, Callable

import pagaie
from pagaie import nn

__all__ = ["ConvNormActivation", "IntermediateLayerGetter", "weights_home", "load_pretrained"]

_BASE_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
_BASE_DYGRAPH = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"

# arch -> URL of Paddle's published weights (the cache file name is the URL's last part).
PRETRAINED_URLS: dict[str, str] = {
    "alexnet": _BASE_DYGRAPH + "AlexNet_pretrained.pdparams",
    "vgg16": _BASE_HAPI + "vgg16.pdparams",
    "vgg19": _BASE_HAPI + "vgg19.pdparams",
    **{a: _BASE_HAPI + a + ".pdparams" for a in (
        "resnet18", "resnet34", "resnet50", "resnet101", "resnet152",
        "resnext50_32x4d", "resnext50_64x4d", "resnext101_32x4d", "resnext101_64x4d",
        "resnext152_32x4d", "resnext152_64x4d", "wide_resnet50_2", "wide_resnet101_2",
        "shufflenet_v2_x0_25", "shufflenet_v2_x0_33", "shufflenet_v2_x0_5", "shufflenet_v2_x1_0",
        "shufflenet_v2_x1_5", "shufflenet_v2_x2_0", "shufflenet_v2_swish")},
    "mobilenetv1_1.0": _BASE_HAPI + "mobilenetv1_1.0.pdparams",
    "mobilenetv2_1.0": _BASE_HAPI + "mobilenet_v2_x1.0.pdparams",
    "mobilenet_v3_small_x1.0": _BASE_HAPI + "mobilenet_v3_small_x1.0.pdparams",
    "mobilenet_v3_large_x1.0": _BASE_HAPI + "mobilenet_v3_large_x1.0.pdparams",
    "squeezenet1_0": _BASE_DYGRAPH + "SqueezeNet1_0_pretrained.pdparams",
    "squeezenet1_1": _BASE_DYGRAPH + "SqueezeNet1_1_pretrained.pdparams",
    **{f"densenet{d}": _BASE_DYGRAPH + f"DenseNet{d}_pretrained.pdparams"
       for d in (121, 161, 169, 201, 264)},
    "googlenet": _BASE_DYGRAPH + "GoogLeNet_pretrained.pdparams",
    "inception_v3": _BASE_HAPI + "inception_v3.pdparams",
}


def weights_home() -> str:
    """The folder searched for pretrained weights: ``$PAGAIE_WEIGHTS_HOME`` or Paddle's cache.

    Returns:
        str: an absolute path (it need not exist).

    Examples:
        >>> from pagaie.vision.models._utils import weights_home
        >>> weights_home().endswith("weights") or "PAGAIE_WEIGHTS_HOME" in __import__("os").environ
        True
    """
    home = os.environ.get("PAGAIE_WEIGHTS_HOME")
    return os.path.abspath(os.path.expanduser(home or "~/.cache/paddle/hapi/weights"))


def load_pretrained(model: nn.Layer, arch: str) -> nn.Layer:
    """Load the pretrained weights of ``arch`` from the local cache into ``model``.

    Args:
        model: the freshly built model.
        arch: the architecture key (``'resnet50'``, ``'mobilenetv2_1.0'``...).

    Returns:
        The same model, with the weights loaded.

    Raises:
        AssertionError: Paddle publishes no weights for ``arch`` (as real Paddle).
        FileNotFoundError: the weights file is not in the cache; pagaie never downloads.
    """
    url = PRETRAINED_URLS.get(arch)
    if url is None:
        raise AssertionError(f"paddle.vision.models: {arch} model do not have a pretrained model now, "
                             "you should set pretrained=False")
    path = os.path.join(weights_home(), url.rsplit("/", 1)[-1])
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"paddle.vision.models: pretrained weights for '{arch}' were expected at '{path}', "
            f"which does not exist. pagaie does no network download: fetch {url} yourself and put it "
            "there (or point the PAGAIE_WEIGHTS_HOME environment variable at the folder holding it)")
    model.set_dict(pagaie.load(path))
    return model


class ConvNormActivation(nn.Sequential):
    """Conv2D, then an optional norm layer, then an optional activation, as one Sequential.

    Args:
        in_channels (int): input channels.
        out_channels (int): output channels.
        kernel_size (int|list|tuple, optional): kernel size. Default: 3.
        stride (int|list|tuple, optional): stride. Default: 1.
        padding (int|str|list|tuple|None, optional): padding; None gives
            ``(kernel_size - 1) // 2 * dilation``. Default: None.
        groups (int, optional): convolution groups. Default: 1.
        norm_layer (Callable|None, optional): norm layer class called with ``out_channels``;
            None for none. Default: ``nn.BatchNorm2D``.
        activation_layer (Callable|None, optional): activation class called with no
            argument; None for none. Default: ``nn.ReLU``.
        dilation (int, optional): dilation. Default: 1.
        bias (bool|None, optional): convolution bias; None means "only without a norm layer".

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.ops import ConvNormActivation
        >>> block = ConvNormActivation(3, 8)
        >>> block(paddle.ones([1, 3, 8, 8])).shape
        paddle.Size([1, 8, 8, 8])
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any = 3, stride: Any = 1,
                 padding: Any = None, groups: int = 1,
                 norm_layer: Callable[..., nn.Layer] | None = nn.BatchNorm2D,
                 activation_layer: Callable[..., nn.Layer] | None = nn.ReLU,
                 dilation: int = 1, bias: bool | None = None) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [nn.Conv2D(in_channels, out_channels, kernel_size, stride, padding,
                            dilation=dilation, groups=groups, bias_attr=None if bias else False)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)


def _make_divisible(v: float, divisor: int = 8, min_value: int | None = None) -> int:
    """Round a channel count to a multiple of ``divisor``, never losing more than 10%."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class IntermediateLayerGetter(nn.LayerDict):
    """Run a model's direct children in order and return the outputs of chosen ones.

    Args:
        model (Layer): the model; only its direct children are used, up to the last one named.
        return_layers (dict): ``{child name: output key}``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.vision.models import resnet18
        >>> from pagaie.vision.models._utils import IntermediateLayerGetter
        >>> getter = IntermediateLayerGetter(resnet18(), {"layer1": "feat1"})
        >>> getter(paddle.rand([1, 3, 64, 64]))["feat1"].shape
        paddle.Size([1, 64, 16, 16])
    """

    def __init__(self, model: nn.Layer, return_layers: dict) -> None:
        names = [n for n, _ in model.named_children()]
        if not set(return_layers).issubset(names):
            raise ValueError("return_layers are not present in model")
        wanted = {str(k): str(v) for k, v in return_layers.items()}
        layers = OrderedDict()
        for name, module in model.named_children():
            layers[name] = module
            wanted.pop(name, None)
            if not wanted:
                break
        super().__init__(layers)
        self.return_layers = return_layers

    def forward(self, x: Any) -> OrderedDict:
        out = OrderedDict()
        for name, module in self.items():
            subs = module.sublayers()
            if x.ndim == 4 and (isinstance(module, nn.Linear) or (subs and isinstance(subs[0], nn.Linear))):
                x = pagaie.flatten(x, 1)
            x = module(x)
            if name in self.return_layers:
                out[self.return_layers[name]] = x
        return out
