"""``paddle.tensor.einsum``: Einstein summation (einsum) and the ops it is built from.

Every name here is the same object as the op of that name in pagaie (e.g. the top-level
``paddle.<name>``); the module only reproduces Paddle's grouping.
"""
from pagaie.tensor._names import export

__all__ = export(globals(), "einsum")
