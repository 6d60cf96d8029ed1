"""``paddle.distributed.fleet.utils``: recomputation, file systems and inference helpers."""
from pagaie.distributed.fleet.utils import fs  # noqa: F401
from pagaie.distributed.fleet.utils.fs import HDFSClient, LocalFS
from pagaie.distributed.fleet.utils.ps_util import DistributedInfer
from pagaie.distributed.fleet.utils.recompute import recompute

__all__ = ["LocalFS", "recompute", "DistributedInfer", "HDFSClient"]
