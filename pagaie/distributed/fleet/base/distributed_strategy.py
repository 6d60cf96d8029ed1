"""``paddle.distributed.fleet.base.distributed_strategy``: :class:`DistributedStrategy`."""
from pagaie.distributed.fleet.strategy import DistributedStrategy

__all__ = ["DistributedStrategy"]
