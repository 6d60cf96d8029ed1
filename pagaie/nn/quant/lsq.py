"""``paddle.nn.quant.lsq``: LSQ+ fake quantizers (Paddle's legacy imperative API).

Not implemented in pagaie: building :class:`FakeQuantActLSQPlus` or
:class:`FakeQuantWeightLSQPlus` raises ``NotImplementedError``.
"""
from __future__ import annotations

from pagaie.nn.quant.quant_layers import _unsupported

__all__ = ["FakeQuantActLSQPlus", "FakeQuantWeightLSQPlus"]

FakeQuantActLSQPlus = _unsupported("FakeQuantActLSQPlus", "lsq")
FakeQuantWeightLSQPlus = _unsupported("FakeQuantWeightLSQPlus", "lsq")
