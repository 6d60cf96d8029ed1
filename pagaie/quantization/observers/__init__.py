"""Built-in observers for post-training quantization.

Observers pass their input through unchanged and record statistics; after
calibration, ``scales()`` gives the quantization scale(s).

- ``AbsmaxObserver``: the largest absolute value seen over all calibration batches
  (one scale per tensor, a 0-D tensor).
- ``GroupWiseWeightObserver``: for a 2-D weight ``[in, out]``, the largest absolute
  value of each group of ``group_size`` input rows in each column (shape
  ``[in / group_size, out]``, zeros replaced by 1e-8).
"""
from pagaie.quantization.observers.abs_max import AbsmaxObserver, AbsmaxObserverLayer
from pagaie.quantization.observers.groupwise import (GroupWiseWeightObserver,
                                                     GroupWiseWeightObserverLayer)

__all__ = ["AbsmaxObserver", "GroupWiseWeightObserver"]
