"""paddle.vision.ops: detection and RoI ops, deformable convolution, image file ops,
and their Layer forms.

The op records live in :mod:`pagaie._ops.vision`, :mod:`pagaie._ops.vision_deform`,
:mod:`pagaie._ops.vision_detect` and :mod:`pagaie._ops.vision_yolo`;
this module re-exports them with the Layer classes and the file/JPEG helpers.
"""
from __future__ import annotations

import io
from typing import Any

import numpy as np
import torch

from pagaie import nn
from pagaie._core.registry import defop
from pagaie._ops._nn_helpers import ntuple
from pagaie._ops.vision import box_coder, nms, prior_box, psroi_pool, roi_align, roi_pool, yolo_box
from pagaie._ops.vision_deform import deform_conv2d
from pagaie._ops.vision_detect import distribute_fpn_proposals, generate_proposals, matrix_nms
from pagaie._ops.vision_yolo import yolo_loss
from pagaie.vision.models._utils import ConvNormActivation  # noqa: F401  (Paddle keeps it here too)

__all__ = ["yolo_loss", "yolo_box", "prior_box", "box_coder", "deform_conv2d", "DeformConv2D",
           "distribute_fpn_proposals", "generate_proposals", "read_file", "decode_jpeg", "roi_pool", "RoIPool",
           "psroi_pool", "PSRoIPool", "roi_align", "RoIAlign", "nms", "matrix_nms"]


@defop(method=False, differentiable=False, paddle_types=("read_file", "pd_op.read_file"))
def read_file(filename, name=None):
    """Read a file's bytes into a 1-D uint8 tensor (on the CPU).

    Args:
        filename (str): path of the file.
        name (str, optional): unused.

    Returns:
        Tensor: uint8 ``[file size]``.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), "f.bin")
        >>> _ = open(path, "wb").write(bytes([1, 2, 255]))
        >>> paddle.vision.ops.read_file(path).tolist()
        [1, 2, 255]
    """
    if not isinstance(filename, str):
        raise TypeError(f"paddle.vision.ops.read_file: argument 'filename' must be str, but received "
                        f"{type(filename).__name__} {filename!r}")
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise _MissingFile(f"paddle.vision.ops.read_file: no such file {filename!r}") from None
    except OSError as exc:  # a directory, no permission...: the same error, naming the API
        raise type(exc)(f"paddle.vision.ops.read_file: cannot read {filename!r} ({exc.strerror})") from None
    if not data:  # frombuffer refuses an empty buffer; Paddle gives a [0] tensor
        return torch.zeros(0, dtype=torch.uint8)
    return torch.frombuffer(bytearray(data), dtype=torch.uint8)


class _MissingFile(FileNotFoundError, RuntimeError):
    """A missing file: Paddle raises RuntimeError (from its C++ kernel) there; this is both."""


def _decode_jpeg_static_shape(x, mode="unchanged", name=None) -> tuple:
    """Static rule: the image's channels and sizes are known once the bytes are read (-1)."""
    return [-1, -1, -1], torch.uint8


@defop(method=False, differentiable=False, paddle_types=("decode_jpeg", "pd_op.decode_jpeg"),
       static_shape=_decode_jpeg_static_shape)
def decode_jpeg(x, mode="unchanged", name=None):
    """Decode JPEG bytes (as from :func:`read_file`) into a ``[C, H, W]`` uint8 image.

    Decoding uses Pillow on the CPU (Paddle itself decodes on GPU only).

    Args:
        x (Tensor): 1-D uint8 tensor of the JPEG file's bytes.
        mode (str, optional): ``'unchanged'`` (keep the file's channels), ``'gray'`` or
            ``'rgb'``. Default: ``'unchanged'``.
        name (str, optional): unused.

    Returns:
        Tensor: uint8 ``[C, H, W]``.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), "a.jpg")
        >>> Image.fromarray(np.zeros((4, 6, 3), 'uint8')).save(path)
        >>> paddle.vision.ops.decode_jpeg(paddle.vision.ops.read_file(path)).shape
        paddle.Size([3, 4, 6])
    """
    try:
        from PIL import Image
    except ImportError as exc:  # pragma: no cover - Pillow is a dependency of vision
        raise ImportError("paddle.vision.ops.decode_jpeg needs Pillow (pip install pillow)") from exc
    modes = {"unchanged": None, "gray": "L", "rgb": "RGB"}
    if mode not in modes:
        raise ValueError(f"paddle.vision.ops.decode_jpeg: mode must be 'unchanged', 'gray' or 'rgb', "
                         f"but received {mode!r}")
    if x.dtype is not torch.uint8:  # Paddle registers the kernel for uint8 only (NotFound: RuntimeError)
        err = RuntimeError(f"paddle.vision.ops.decode_jpeg: 'x' must be a uint8 tensor of the file's bytes, but "
                           f"received {str(x.dtype).replace('torch.', '')}")
        err.static_type = TypeError   # the program builder's dtype check
        raise err
    try:
        img = Image.open(io.BytesIO(x.detach().cpu().numpy().tobytes()))
        img.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise ValueError(f"paddle.vision.ops.decode_jpeg: 'x' does not hold a decodable image "
                         f"({x.numel()} bytes): {type(exc).__name__}") from None
    if modes[mode] is not None:
        img = img.convert(modes[mode])
    a = np.asarray(img)
    a = a[:, :, None] if a.ndim == 2 else a
    return torch.from_numpy(np.ascontiguousarray(a.transpose(2, 0, 1))).to(x.device)


class DeformConv2D(nn.Layer):
    """Deformable convolution layer (v1, or v2 when a mask is passed to ``forward``).

    Args:
        in_channels (int): input channels.
        out_channels (int): output channels.
        kernel_size (int|list|tuple): kernel size.
        stride, padding, dilation (int|list|tuple, optional): as in Conv2D.
        deformable_groups (int, optional): channel groups sharing one offset field. Default: 1.
        groups (int, optional): convolution groups. Default: 1.
        weight_attr (ParamAttr, optional): filter attribute (default: normal, std sqrt(2 / fan_in)).
        bias_attr (ParamAttr|bool, optional): bias attribute; False for none.

    Examples:
        >>> import pagaie as paddle
        >>> conv = paddle.vision.ops.DeformConv2D(2, 4, 3)
        >>> out = conv(paddle.rand([1, 2, 5, 5]), paddle.zeros([1, 18, 3, 3]))
        >>> out.shape
        paddle.Size([1, 4, 3, 3])
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, deformable_groups: int = 1, groups: int = 1, weight_attr: Any = None,
                 bias_attr: Any = None) -> None:
        super().__init__()
        assert weight_attr is not False, "weight_attr should not be False in Conv."
        api = "vision.ops.DeformConv2D"
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self._deformable_groups = deformable_groups
        self._groups = groups
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._channel_dim = 1
        self._stride = ntuple(stride, 2, api, "stride")
        self._dilation = ntuple(dilation, 2, api, "dilation")
        self._kernel_size = ntuple(kernel_size, 2, api, "kernel_size")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups.")
        self._padding = ntuple(padding, 2, api, "padding")
        fan_in = int(np.prod(self._kernel_size)) * in_channels
        self.weight = self.create_parameter(
            shape=[out_channels, in_channels // groups, *self._kernel_size], attr=weight_attr,
            default_initializer=nn.initializer.Normal(0.0, (2.0 / fan_in) ** 0.5))
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels], is_bias=True)

    def forward(self, x: Any, offset: Any, mask: Any = None) -> Any:
        return deform_conv2d(x, offset, self.weight, self.bias, self._stride, self._padding, self._dilation,
                             self._deformable_groups, self._groups, mask)


class _RoILayer(nn.Layer):
    """Holds the ``output_size`` and ``spatial_scale`` of a RoI pooling layer."""

    def __init__(self, output_size: Any, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self._output_size = output_size
        self._spatial_scale = spatial_scale


class RoIPool(_RoILayer):
    """Layer form of :func:`roi_pool`.

    Args:
        output_size (int|tuple): ``(pooled_h, pooled_w)``.
        spatial_scale (float, optional): feature size / image size. Default: 1.0.

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.vision.ops.RoIPool(2)
        >>> pool(paddle.rand([1, 3, 8, 8]), paddle.to_tensor([[0., 0., 4., 4.]]),
        ...      paddle.to_tensor([1], 'int32')).shape
        paddle.Size([1, 3, 2, 2])
    """

    def forward(self, x: Any, boxes: Any, boxes_num: Any) -> Any:
        return roi_pool(x, boxes, boxes_num, self._output_size, self._spatial_scale)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, spatial_scale={self._spatial_scale}"


class RoIAlign(_RoILayer):
    """Layer form of :func:`roi_align` (sampling ratio chosen adaptively).

    Args:
        output_size (int|tuple): ``(pooled_h, pooled_w)``.
        spatial_scale (float, optional): feature size / image size. Default: 1.0.

    Examples:
        >>> import pagaie as paddle
        >>> align = paddle.vision.ops.RoIAlign(2)
        >>> align(paddle.rand([1, 3, 8, 8]), paddle.to_tensor([[0., 0., 4., 4.]]),
        ...       paddle.to_tensor([1], 'int32')).shape
        paddle.Size([1, 3, 2, 2])
    """

    def forward(self, x: Any, boxes: Any, boxes_num: Any, aligned: bool = True) -> Any:
        return roi_align(x, boxes, boxes_num, self._output_size, self._spatial_scale, aligned=aligned)


class PSRoIPool(nn.Layer):
    """Layer form of :func:`psroi_pool`.

    Args:
        output_size (int|tuple): ``(pooled_h, pooled_w)``.
        spatial_scale (float, optional): feature size / image size. Default: 1.0.

    Examples:
        >>> import pagaie as paddle
        >>> pool = paddle.vision.ops.PSRoIPool(2)
        >>> pool(paddle.rand([1, 8, 8, 8]), paddle.to_tensor([[0., 0., 4., 4.]]),
        ...      paddle.to_tensor([1], 'int32')).shape
        paddle.Size([1, 2, 2, 2])
    """

    def __init__(self, output_size: Any, spatial_scale: float = 1.0) -> None:
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, x: Any, boxes: Any, boxes_num: Any) -> Any:
        return psroi_pool(x, boxes, boxes_num, self.output_size, self.spatial_scale)
