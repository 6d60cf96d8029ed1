"""Entry point of ``python -m pagaie.distributed.launch``."""
from pagaie.distributed.launch.main import launch

launch()
