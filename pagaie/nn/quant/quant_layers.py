"""``paddle.nn.quant.quant_layers``: layers of Paddle's older imperative quantization API.

:class:`MovingAverageAbsMaxScale` (also ``QuantStub``) is implemented. The other classes
of this module (fake-quantize layers and the ``Quantized*`` wrappers of the
``ImperativeQuantAware`` flow, which Paddle keeps for old code) raise
``NotImplementedError`` when built: use :mod:`pagaie.quantization` (``QAT`` / ``PTQ``)
instead.
"""
from __future__ import annotations

from typing import Any

import pagaie
from pagaie.nn import Layer

__all__ = ["FakeQuantAbsMax", "FakeQuantMovingAverageAbsMax", "FakeQuantChannelWiseAbsMax",
           "QuantizedConv2D", "QuantizedConv2DTranspose", "QuantizedLinear", "MovingAverageAbsMaxScale",
           "MAOutputScaleLayer", "FakeQuantMAOutputScaleLayer", "QuantStub",
           "QuantizedRowParallelLinear", "QuantizedColumnParallelLinear", "QuantizedMatmul"]


class MovingAverageAbsMaxScale(Layer):
    r"""Track the output scale of a layer; the output is the input unchanged.

    In training mode each call updates ``state = moving_rate * state + 1``,
    ``accum = moving_rate * accum + max(|x|)`` and ``scale = accum / state``; in eval mode
    nothing changes. ``QuantStub`` is this class.

    Args:
        name (str, optional): prefix of the parameter names.
        moving_rate (float): the decay of the moving average.
        dtype (str): dtype of the scale, state and accumulator.
        reduce_type (str, optional): ``'max'`` all-reduces the scale across trainers.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import QuantStub
        >>> stub = QuantStub()
        >>> out = stub(paddle.to_tensor([1.0, -3.0]))
        >>> out.tolist(), stub._scale.tolist()
        ([1.0, -3.0], [3.0])
    """

    def __init__(self, name: str | None = None, moving_rate: float = 0.9, dtype: str = "float32",
                 reduce_type: str | None = None) -> None:
        super().__init__()
        self._moving_rate = moving_rate
        self._reduce_type = reduce_type
        prefix = name or "outscale"
        for what in ("scale", "state", "accum"):
            p = self.create_parameter([1], attr=pagaie.ParamAttr(
                name=pagaie.utils.unique_name.generate(f"{prefix}.{what}"),
                initializer=pagaie.nn.initializer.Constant(0.0), trainable=False), dtype=dtype)
            p.stop_gradient = True
            setattr(self, f"_{what}", p)

    def forward(self, input: Any) -> Any:
        """Return ``input``; in training mode update the moving scale first."""
        if self.training:
            with pagaie.no_grad():
                r = self._moving_rate
                self._state.set_value(self._state * r + 1)
                self._accum.set_value(self._accum * r + input.abs().max().astype(self._accum.dtype))
                self._scale.set_value(self._accum / self._state)
            if self._reduce_type == "max":
                pagaie.distributed.all_reduce(self._scale, op=pagaie.distributed.ReduceOp.MAX)
        return input


QuantStub = MovingAverageAbsMaxScale


def _unsupported(cls_name: str, module: str = "quant_layers") -> type:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            f"paddle.nn.quant.{module}.{cls_name} (the legacy imperative quantization API) is "
            f"not implemented in pagaie; use paddle.quantization.QAT / PTQ with QuantConfig instead")

    doc = (f"Paddle's legacy ``{cls_name}``: not implemented in pagaie (building one raises "
           f"NotImplementedError); use :mod:`pagaie.quantization` instead.\n\n"
           f"    Examples:\n"
           f"        >>> from pagaie.nn.quant import {module}\n"
           f"        >>> try:\n"
           f"        ...     {module}.{cls_name}()\n"
           f"        ... except NotImplementedError:\n"
           f"        ...     print('not implemented')\n"
           f"        not implemented\n")
    return type(cls_name, (Layer,), {"__init__": __init__, "__doc__": doc,
                                     "__module__": f"pagaie.nn.quant.{module}"})


FakeQuantAbsMax = _unsupported("FakeQuantAbsMax")
FakeQuantMovingAverageAbsMax = _unsupported("FakeQuantMovingAverageAbsMax")
FakeQuantChannelWiseAbsMax = _unsupported("FakeQuantChannelWiseAbsMax")
QuantizedConv2D = _unsupported("QuantizedConv2D")
QuantizedConv2DTranspose = _unsupported("QuantizedConv2DTranspose")
QuantizedLinear = _unsupported("QuantizedLinear")
QuantizedMatmul = _unsupported("QuantizedMatmul")
QuantizedRowParallelLinear = _unsupported("QuantizedRowParallelLinear")
QuantizedColumnParallelLinear = _unsupported("QuantizedColumnParallelLinear")
MAOutputScaleLayer = _unsupported("MAOutputScaleLayer")
FakeQuantMAOutputScaleLayer = _unsupported("FakeQuantMAOutputScaleLayer")
