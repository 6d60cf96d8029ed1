"""Built-in quanters for quantization-aware training (``paddle.quantization.quanters``)."""
from pagaie.quantization.quanters.abs_max import (FakeQuanterWithAbsMaxObserver,
                                                  FakeQuanterWithAbsMaxObserverLayer)

__all__ = ["FakeQuanterWithAbsMaxObserver"]
