"""``paddle.incubate.multiprocessing``: Python's :mod:`multiprocessing` API, with pagaie
Tensors passed between processes through shared memory instead of being copied.

Everything of the standard module is re-exported; importing this module registers the
Tensor reductions (:mod:`.reductions`) with ``multiprocessing``'s pickler, so a Tensor put in
a ``Queue`` arrives in the other process as a Tensor over the same memory. The sharing
strategy is torch's (``torch.multiprocessing.get_sharing_strategy()``).

Examples:
    >>> import pagaie as paddle
    >>> import pagaie.incubate.multiprocessing as mp
    >>> q = mp.get_context("fork").SimpleQueue()
    >>> q.put(paddle.to_tensor([1.0, 2.0]))
    >>> q.get().tolist()
    [1.0, 2.0]
"""
from multiprocessing import *  # noqa: F401,F403

from pagaie.incubate.multiprocessing.reductions import init_reductions

__all__: list[str] = []

init_reductions()
