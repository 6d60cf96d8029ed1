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

__all__ = ["ConvNormActivation", "IntermediateLayerGetter", "WeightsNotFoundError", "weights_home",
           "load_pretrained"]

_BASE_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
_BASE_DYGRAPH = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/"

# arch -> (URL of Paddle's published weights, their md5 sum); the cache file name is the
# URL's last part. Each model module exposes its own entries as ``model_urls``, as Paddle does.
_PRETRAINED: dict[str, tuple[str, str]] = {
    "alexnet": (_BASE_DYGRAPH + "AlexNet_pretrained.pdparams", "7f0f9f737132e02732d75a1459d98a43"),
    "densenet121": (_BASE_DYGRAPH + "DenseNet121_pretrained.pdparams", "db1b239ed80a905290fd8b01d3af08e4"),
    "densenet161": (_BASE_DYGRAPH + "DenseNet161_pretrained.pdparams", "62158869cb315098bd25ddbfd308a853"),
    "densenet169": (_BASE_DYGRAPH + "DenseNet169_pretrained.pdparams", "82cc7c635c3f19098c748850efb2d796"),
    "densenet201": (_BASE_DYGRAPH + "DenseNet201_pretrained.pdparams", "16ca29565a7712329cf9e36e02caaf58"),
    "densenet264": (_BASE_DYGRAPH + "DenseNet264_pretrained.pdparams", "3270ce516b85370bba88cfdd9f60bff4"),
    "googlenet": (_BASE_DYGRAPH + "GoogLeNet_pretrained.pdparams", "80c06f038e905c53ab32c40eca6e26ae"),
    "inception_v3": (_BASE_HAPI + "inception_v3.pdparams", "649a4547c3243e8b59c656f41fe330b8"),
    "mobilenetv1_1.0": (_BASE_HAPI + "mobilenetv1_1.0.pdparams", "3033ab1975b1670bef51545feb65fc45"),
    "mobilenetv2_1.0": (_BASE_HAPI + "mobilenet_v2_x1.0.pdparams", "0340af0a901346c8d46f4529882fb63d"),
    "mobilenet_v3_small_x1.0": (_BASE_HAPI + "mobilenet_v3_small_x1.0.pdparams",
                                "34fe0e7c1f8b00b2b056ad6788d0590c"),
    "mobilenet_v3_large_x1.0": (_BASE_HAPI + "mobilenet_v3_large_x1.0.pdparams",
                                "118db5792b4e183b925d8e8e334db3df"),
    "resnet18": (_BASE_HAPI + "resnet18.pdparams", "cf548f46534aa3560945be4b95cd11c4"),
    "resnet34": (_BASE_HAPI + "resnet34.pdparams", "8d2275cf8706028345f78ac0e1d31969"),
    "resnet50": (_BASE_HAPI + "resnet50.pdparams", "ca6f485ee1ab0492d38f323885b0ad80"),
    "resnet101": (_BASE_HAPI + "resnet101.pdparams", "02f35f034ca3858e1e54d4036443c92d"),
    "resnet152": (_BASE_HAPI + "resnet152.pdparams", "7ad16a2f1e7333859ff986138630fd7a"),
    "resnext50_32x4d": (_BASE_HAPI + "resnext50_32x4d.pdparams", "dc47483169be7d6f018fcbb7baf8775d"),
    "resnext50_64x4d": (_BASE_HAPI + "resnext50_64x4d.pdparams", "063d4b483e12b06388529450ad7576db"),
    "resnext101_32x4d": (_BASE_HAPI + "resnext101_32x4d.pdparams", "967b090039f9de2c8d06fe994fb9095f"),
    "resnext101_64x4d": (_BASE_HAPI + "resnext101_64x4d.pdparams", "98e04e7ca616a066699230d769d03008"),
    "resnext152_32x4d": (_BASE_HAPI + "resnext152_32x4d.pdparams", "18ff0beee21f2efc99c4b31786107121"),
    "resnext152_64x4d": (_BASE_HAPI + "resnext152_64x4d.pdparams", "77c4af00ca42c405fa7f841841959379"),
    "wide_resnet50_2": (_BASE_HAPI + "wide_resnet50_2.pdparams", "0282f804d73debdab289bd9fea3fa6dc"),
    "wide_resnet101_2": (_BASE_HAPI + "wide_resnet101_2.pdparams", "d4360a2d23657f059216f5d5a1a9ac93"),
    "shufflenet_v2_x0_25": (_BASE_HAPI + "shufflenet_v2_x0_25.pdparams", "1e509b4c140eeb096bb16e214796d03b"),
    "shufflenet_v2_x0_33": (_BASE_HAPI + "shufflenet_v2_x0_33.pdparams", "3d7b3ab0eaa5c0927ff1026d31b729bd"),
    "shufflenet_v2_x0_5": (_BASE_HAPI + "shufflenet_v2_x0_5.pdparams", "5e5cee182a7793c4e4c73949b1a71bd4"),
    "shufflenet_v2_x1_0": (_BASE_HAPI + "shufflenet_v2_x1_0.pdparams", "122d42478b9e81eb49f8a9ede327b1a4"),
    "shufflenet_v2_x1_5": (_BASE_HAPI + "shufflenet_v2_x1_5.pdparams", "faced5827380d73531d0ee027c67826d"),
    "shufflenet_v2_x2_0": (_BASE_HAPI + "shufflenet_v2_x2_0.pdparams", "cd3dddcd8305e7bcd8ad14d1c69a5784"),
    "shufflenet_v2_swish": (_BASE_HAPI + "shufflenet_v2_swish.pdparams", "adde0aa3b023e5b0c94a68be1c394b84"),
    "squeezenet1_0": (_BASE_DYGRAPH + "SqueezeNet1_0_pretrained.pdparams", "30b95af60a2178f03cf9b66cd77e1db1"),
    "squeezenet1_1": (_BASE_DYGRAPH + "SqueezeNet1_1_pretrained.pdparams", "a11250d3a1f91d7131fd095ebbf09eee"),
    "vgg16": (_BASE_HAPI + "vgg16.pdparams", "89bbffc0f87d260be9b8cdc169c991c4"),
    "vgg19": (_BASE_HAPI + "vgg19.pdparams", "23b18bb13d8894f60f54e642be79a0dd"),
}


def model_urls_of(*prefixes: str) -> dict[str, tuple[str, str]]:
    """A model module's ``model_urls``: the ``{arch: (url, md5)}`` entries whose arch starts
    with one of ``prefixes`` (a fresh dict, so a module's edits stay its own)."""
    return {k: v for k, v in _PRETRAINED.items() if k.startswith(prefixes)}


class WeightsNotFoundError(FileNotFoundError, RuntimeError):
    """The pretrained weights file is not in the local cache.

    A ``RuntimeError``, as real Paddle raises when it cannot download the file (offline, its
    download gives up with ``RuntimeError: Download from ... failed``), and a
    ``FileNotFoundError``, which is what happened here: pagaie never downloads.
    """


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


def load_pretrained(model: nn.Layer, arch: str, model_urls: dict) -> nn.Layer:
    """Load the pretrained weights of ``arch`` from the local cache into ``model``.

    Args:
        model: the freshly built model.
        arch: the architecture key (``'resnet50'``, ``'mobilenetv2_1.0'``...).
        model_urls: the calling module's ``{arch: (url, md5)}`` table.

    Returns:
        The same model, with the weights loaded.

    Raises:
        AssertionError: Paddle publishes no weights for ``arch`` (as real Paddle).
        WeightsNotFoundError: the weights file is not in the cache (pagaie never downloads); a
            ``RuntimeError`` like Paddle's failed download, and a ``FileNotFoundError``.
    """
    if arch not in model_urls:
        raise AssertionError(f"paddle.vision.models: {arch} model do not have a pretrained model now, "
                             "you should set pretrained=False")
    url = model_urls[arch][0]
    path = os.path.join(weights_home(), url.rsplit("/", 1)[-1])
    if not os.path.isfile(path):
        raise WeightsNotFoundError(
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
