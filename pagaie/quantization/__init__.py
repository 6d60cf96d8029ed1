"""``paddle.quantization``: quantization-aware training and post-training quantization.

- :class:`QuantConfig` says which quanter (or observer) factories each layer gets.
- :class:`QAT` replaces ``Linear`` / ``Conv2D`` by quantized layers that fake-quantize
  their inputs and weights (straight-through gradients) and wraps leaf layers with
  quanters; train as usual, then ``convert`` for inference.
- :class:`PTQ` inserts observers instead; run calibration data in evaluation mode,
  then ``convert``.
- :mod:`pagaie.quantization.quanters` and :mod:`pagaie.quantization.observers` hold
  the built-in factories; :func:`quanter` declares a factory for a custom quanter.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.quantization import QAT, QuantConfig
    >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
    >>> quanter = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
    >>> qat = QAT(QuantConfig(activation=quanter, weight=quanter))
    >>> model = qat.quantize(paddle.nn.Sequential(paddle.nn.Linear(4, 2)))
    >>> x = paddle.rand([3, 4])
    >>> loss = model(x).sum()
    >>> loss.backward()
    >>> list(model[0].weight.grad.shape)
    [4, 2]
    >>> _ = model.eval()
    >>> converted = qat.convert(model)
    >>> list(converted(x).shape)
    [3, 2]
"""
from pagaie.quantization import observers, quanters, wrapper  # noqa: F401
from pagaie.quantization.base_observer import BaseObserver
from pagaie.quantization.base_quanter import BaseQuanter
from pagaie.quantization.config import QuantConfig
from pagaie.quantization.factory import quanter
from pagaie.quantization.ptq import PTQ
from pagaie.quantization.qat import QAT

__all__ = ["QuantConfig", "BaseQuanter", "BaseObserver", "quanter", "QAT", "PTQ"]
