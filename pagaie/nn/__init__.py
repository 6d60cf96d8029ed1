"""paddle.nn: layers, containers, initializers, clipping and the functional API."""
from pagaie._core.parameter import Parameter  # noqa: F401
from pagaie.nn import functional, initializer  # noqa: F401
from pagaie.nn.param import create_parameter  # noqa: F401
from pagaie.nn.layer.layers import Layer  # noqa: F401
from pagaie.nn.layer.container import (  # noqa: F401
    Sequential, LayerList, LayerDict, ParameterList, ParameterDict,
)
from pagaie.nn.layer.common import *  # noqa: F401,F403
from pagaie.nn.layer.activation import *  # noqa: F401,F403
from pagaie.nn.layer.conv import *  # noqa: F401,F403
from pagaie.nn.layer.pooling import *  # noqa: F401,F403
from pagaie.nn.layer.norm import *  # noqa: F401,F403
from pagaie.nn.layer.loss import *  # noqa: F401,F403
from pagaie.nn.layer.rnn import *  # noqa: F401,F403
from pagaie.nn.layer.transformer import *  # noqa: F401,F403
from pagaie.nn.decode import BeamSearchDecoder, dynamic_decode  # noqa: F401
from pagaie.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue  # noqa: F401
from pagaie.nn import utils  # noqa: F401
from pagaie.nn.layer import loss  # noqa: F401,E402  (Paddle: paddle.nn.loss is paddle.nn.layer.loss)

from pagaie.nn import init, parameter  # noqa: F401,E402
from pagaie.nn.utils import spectral_norm  # noqa: F401,E402

Module = Layer
ModuleList = LayerList
ModuleDict = LayerDict
# PyTorch spellings Paddle also accepts (outside its __all__).
AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D  # noqa: F405
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = MaxUnPool1D, MaxUnPool2D, MaxUnPool3D  # noqa: F405
UpsamplingBilinear2d, UpsamplingNearest2d = UpsamplingBilinear2D, UpsamplingNearest2D  # noqa: F405
ZeroPad1d, ZeroPad2d, ZeroPad3d = ZeroPad1D, ZeroPad2D, ZeroPad3D  # noqa: F405
HuberLoss = SmoothL1Loss  # noqa: F405

__all__: list[str] = []
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = ["create_parameter"]

# Paddle also exposes a few functional ops at the top level.
conv1d, conv2d, conv3d = functional.conv1d, functional.conv2d, functional.conv3d
layer_norm, group_norm = functional.layer_norm, functional.group_norm
adaptive_avg_pool1d = functional.adaptive_avg_pool1d
__paddle_toplevel__ += ["conv1d", "conv2d", "conv3d", "layer_norm", "group_norm", "adaptive_avg_pool1d"]
from pagaie.nn import quant  # noqa: F401,E402
from pagaie.nn import attention  # noqa: F401,E402
from pagaie.nn import modules  # noqa: F401,E402
