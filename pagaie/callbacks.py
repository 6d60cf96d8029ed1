"""``paddle.callbacks``: hooks into ``paddle.Model``'s training loop."""
from pagaie.hapi.callbacks import (Callback, EarlyStopping, LRScheduler, ModelCheckpoint,
                                   ProgBarLogger, ReduceLROnPlateau, VisualDL, WandbCallback)

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau", "WandbCallback"]
