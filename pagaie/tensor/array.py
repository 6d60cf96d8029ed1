"""``paddle.tensor.array``: tensor-array helpers usable in dynamic mode.

``create_array``, ``array_write``, ``array_read`` and ``array_length`` (defined in
:mod:`pagaie.tensor._extras`) treat a tensor array as a Python list of Tensors; the other
names are the same objects as the ops of that name in pagaie.
"""
from pagaie.tensor._extras import array_length, array_read, array_write, create_array
from pagaie.tensor._names import export

__all__ = export(globals(), "array") + ["array_length", "array_read", "array_write", "create_array"]
