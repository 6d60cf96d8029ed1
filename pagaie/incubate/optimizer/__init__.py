"""``paddle.incubate.optimizer``: :class:`LookAhead` and :class:`ModelAverage`
(:mod:`.averaging`), the deprecated :class:`LBFGS`, :class:`DistributedFusedLamb`, and the
functional quasi-Newton minimizers in :mod:`.functional`."""
from pagaie.incubate.optimizer import functional  # noqa: F401
from pagaie.incubate.optimizer.averaging import LookAhead, ModelAverage
from pagaie.incubate.optimizer.distributed_fused_lamb import DistributedFusedLamb
from pagaie.incubate.optimizer.lbfgs import LBFGS

__all__ = ["LBFGS"]
