"""``python -m pagaie.distributed.launch``: start a training script on several local processes."""
from pagaie.distributed.launch.main import launch  # noqa: F401

__all__ = ["launch"]
