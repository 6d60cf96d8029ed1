"""Layers of a converted (inference) quantized model: explicit quantize / dequantize steps.

``Quantization.convert`` replaces each quanter or observer by a
:class:`LinearQuanterDequanter` holding its scales: a :class:`LinearQuanter`
(values -> integer levels, stored as floats) followed by a :class:`LinearDequanter`
(levels -> values). Weights are quantized once at conversion, so their
``LinearQuanterDequanter`` keeps only the dequantize step.

Scales may be per tensor, per channel (``quant_axis``), group-wise (2-D scales over
groups of rows) or, with ``bit_length`` ``(4, 3)`` / ``(5, 2)``, float8 ``e4m3`` /
``e5m2`` ranges.
"""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie._ops.quant_ops import dequantize_linear, quantize_linear
from pagaie.nn import Layer

__all__ = ["LinearQuanter", "LinearDequanter", "LinearQuanterDequanter",
           "fake_fp8_quant", "fake_fp8_dequant"]

_FP8 = {"e4m3": (448.0, "float8_e4m3fn"), "e5m2": (57344.0, "float8_e5m2")}


def _fp8_setup(input: Any, scale: Any, axis: int, type: str) -> tuple:
    """``(range, float8 dtype name, scale)`` for ``type``; a per-channel scale is reshaped
    to broadcast along ``axis``."""
    if type not in _FP8:
        raise NotImplementedError("only support e4m3 or e5m2 now")
    limit, fp8 = _FP8[type]
    if axis >= 0:
        shape = [1] * len(input.shape)
        shape[axis] = int(scale.numel())
        scale = scale.reshape(shape)
    return limit, fp8, scale


def fake_fp8_quant(input: Any, scale: Any, axis: int = -1, type: str = "e4m3") -> Any:
    """Scale ``input`` to the float8 range, round to float8 and back to ``input``'s dtype.

    Args:
        input (Tensor): the values.
        scale (Tensor): the scale (per tensor, or per channel along ``axis``).
        axis (int): the channel axis, or -1.
        type (str): ``'e4m3'`` (range 448) or ``'e5m2'`` (range 57344).

    Returns:
        Tensor: the float8 levels, in ``input``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.format import fake_fp8_quant
        >>> fake_fp8_quant(paddle.to_tensor([0.5, 2.0]), paddle.to_tensor(1.0)).tolist()
        [224.0, 448.0]
    """
    limit, fp8, scale = _fp8_setup(input, scale, axis, type)
    v = (input.astype("float32") * limit / scale).clip(-limit, limit)
    return pagaie.cast(v, fp8).astype(input.dtype)


def fake_fp8_dequant(input: Any, scale: Any, axis: int = -1, type: str = "e4m3") -> Any:
    """Map float8 levels back to values: ``input / range * scale``.

    Args:
        input (Tensor): the levels.
        scale (Tensor): the scale (per tensor, or per channel along ``axis``).
        axis (int): the channel axis, or -1.
        type (str): ``'e4m3'`` or ``'e5m2'``.

    Returns:
        Tensor: the values, in ``input``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.format import fake_fp8_dequant
        >>> fake_fp8_dequant(paddle.to_tensor([224.0]), paddle.to_tensor(1.0)).tolist()
        [0.5]
    """
    limit, _, scale = _fp8_setup(input, scale, axis, type)
    return (input.astype("float32") / limit * scale).astype(input.dtype)


class _LinearQuantBase(Layer):
    """Holds scales, zero points and the integer range shared by quantize and dequantize."""

    def __init__(self, scales: Any, zero_point: Any = None, quant_axis: int | None = None,
                 bit_length: Any = 8, group_size: int = 128) -> None:
        super().__init__()
        scales = pagaie.to_tensor(scales, dtype="float32")
        self._scales = self._fixed("quant_dequant.scale", scales, 1.0)
        self.in_accum = pagaie.to_tensor(0.0, dtype="float32")
        self.in_state = pagaie.to_tensor(0.0, dtype="float32")
        # Paddle 3.3.1 fails here on quanters without zero points (QAT's fake
        # quanters); they are symmetric, so zeros are the meaning.
        zp = pagaie.zeros_like(scales) if zero_point is None else \
            pagaie.to_tensor(zero_point, dtype="float32")
        self._zero_point = self._fixed("quant_dequant.zero_point", zp, 0.0)
        self._quant_axis = -1 if quant_axis is None else quant_axis
        self._group_size = group_size
        if isinstance(bit_length, tuple):
            if bit_length == (4, 3):
                self._qmin, self._qmax = -448, 448
            elif bit_length == (5, 2):
                self._qmin, self._qmax = -57344, 57344
            else:
                raise NotImplementedError(
                    "Currently, only float8_e4m3 and float8_e5m2 formats are supported. Please "
                    "set quant_bits to (4,3) or (5,2) for the corresponding format.")
            self._bit_length = bit_length[0] + bit_length[1] + 1
        else:
            self._bit_length = bit_length
            self._qmax = (1 << (bit_length - 1)) - 1
            self._qmin = -self._qmax - 1

    def _fixed(self, prefix: str, value: Any, init: float) -> Any:
        from pagaie.framework import ParamAttr
        from pagaie.nn.initializer import Constant
        from pagaie.utils import unique_name
        attr = ParamAttr(name=unique_name.generate(prefix), initializer=Constant(init),
                         trainable=False)
        p = self.create_parameter(shape=list(value.shape), attr=attr, dtype="float32")
        p.set_value(value)
        return p

    def _fp8_type(self) -> str | None:
        return {448: "e4m3", 57344: "e5m2"}.get(self._qmax)

    def _grouped(self) -> tuple:
        s = pagaie.repeat_interleave(self._scales, self._group_size, 0)
        zp = pagaie.repeat_interleave(self._zero_point, self._group_size, 0)
        return s, zp

    # The subclass's kernels: float8, per-tensor/per-channel, and group-wise (2-D scales).
    _fp8_kernel: Any = None
    _linear_kernel: Any = None

    def _grouped_forward(self, x: Any) -> Any:
        """The step for 2-D (group-wise) scales, in float32."""
        raise NotImplementedError

    def forward(self, input: Any) -> Any:
        """Apply the step to ``input``; the result has ``input``'s dtype."""
        fp8 = self._fp8_type()
        if fp8 is not None:
            return self._fp8_kernel(input, self._scales, self._quant_axis, type=fp8)
        x = input.cast("float32")
        if len(self._scales.shape) > 1:
            return self._grouped_forward(x).cast(input.dtype)
        return self._linear_kernel(x, self._scales, self._zero_point, self._quant_axis,
                                   self._bit_length, self._qmin, self._qmax).cast(input.dtype)

    @classmethod
    def from_quanter(cls, quanter: Any) -> Any:
        """A step with ``quanter``'s scales, zero points, axis and bit length."""
        return cls(quanter.scales(), zero_point=quanter.zero_points(),
                   quant_axis=quanter.quant_axis(), bit_length=quanter.bit_length())


class LinearQuanter(_LinearQuantBase):
    """Quantize values to integer levels (kept in the input's float dtype).

    Args:
        scales (Tensor|float): the scale(s).
        zero_point (Tensor|float, optional): the zero point(s); None means zeros.
        quant_axis (int, optional): the channel axis of per-channel scales; None/-1 per tensor.
        bit_length (int|tuple): bits of a level, or ``(4, 3)`` / ``(5, 2)`` for float8.
        group_size (int): rows per group for 2-D (group-wise) scales.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.format import LinearQuanter
        >>> LinearQuanter(2.0)(paddle.to_tensor([1.0, -3.0])).tolist()
        [64.0, -128.0]
    """

    _fp8_kernel = staticmethod(fake_fp8_quant)
    _linear_kernel = staticmethod(quantize_linear)

    def _grouped_forward(self, x: Any) -> Any:
        if float(self._zero_point.sum()) != 0:
            q = pagaie.round(x / self._scales) + self._zero_point
        else:
            s, zp = self._grouped()
            q = pagaie.round(x / s * self._qmax) + zp
        return pagaie.clip(q, self._qmin, self._qmax)


class LinearDequanter(_LinearQuantBase):
    """Map integer levels back to values (arguments as :class:`LinearQuanter`).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.format import LinearDequanter
        >>> LinearDequanter(2.0)(paddle.to_tensor([127.0])).tolist()
        [2.0]
    """

    _fp8_kernel = staticmethod(fake_fp8_dequant)
    _linear_kernel = staticmethod(dequantize_linear)

    def _grouped_forward(self, x: Any) -> Any:
        if float(self._zero_point.sum()) != 0:
            return (x - self._zero_point) * self._scales
        s, zp = self._grouped()
        return (x - zp) / self._qmax * s


class LinearQuanterDequanter(Layer):
    """A quantize step followed by a dequantize step; either may be None (skipped).

    Args:
        quanter (LinearQuanter|None): the quantize step.
        dequanter (LinearDequanter|None): the dequantize step.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization.format import LinearQuanterDequanter
        >>> from pagaie.quantization.observers import AbsmaxObserver
        >>> ob = AbsmaxObserver()._instance(None)
        >>> _ = ob(paddle.to_tensor([1.27]))
        >>> qdq = LinearQuanterDequanter.from_quanter(ob)
        >>> [round(v, 4) for v in qdq(paddle.to_tensor([0.5, 2.0])).tolist()]
        [0.5, 1.27]
    """

    def __init__(self, quanter: Any, dequanter: Any) -> None:
        super().__init__()
        self._quanter = quanter
        self._dequanter = dequanter

    def forward(self, input: Any) -> Any:
        """Quantize then dequantize ``input`` (each step if present)."""
        out = input
        if self._quanter is not None:
            out = self._quanter(out)
        if self._dequanter is not None:
            out = self._dequanter(out)
        return out

    @staticmethod
    def from_quanter(quanter: Any) -> "LinearQuanterDequanter":
        """Both steps built from a trained quanter or a calibrated observer."""
        assert quanter is not None
        return LinearQuanterDequanter(LinearQuanter.from_quanter(quanter),
                                      LinearDequanter.from_quanter(quanter))
