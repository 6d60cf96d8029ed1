"""``paddle.distributed.sharding``: group-sharded (ZeRO) data parallelism.

See :mod:`pagaie.distributed.sharding.group_sharded` for how it is done here (full copies on
every rank, results identical to Paddle's sharded training).
"""
from pagaie.distributed.sharding.group_sharded import group_sharded_parallel, save_group_sharded_model

__all__ = ["group_sharded_parallel", "save_group_sharded_model"]
