"""``paddle.distributed.communication.all_to_all``: the all-to-all exchanges."""
from pagaie.distributed.communication import alltoall, alltoall_single

__all__ = ["alltoall", "alltoall_single"]
