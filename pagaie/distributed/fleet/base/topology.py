"""``paddle.distributed.fleet.base.topology``: the hybrid-parallel topology classes."""
from pagaie.distributed.fleet.topology import (CommunicateTopology, HybridCommunicateGroup,
                                               ParallelMode)

__all__ = ["CommunicateTopology", "HybridCommunicateGroup", "ParallelMode"]
