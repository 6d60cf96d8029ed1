"""``paddle.tensor.manipulation``: shape and layout manipulation (reshape, concat, gather, scatter ...).

Every name here is the same object as the op of that name in pagaie (e.g. the top-level
``paddle.<name>``); the module only reproduces Paddle's grouping. ``fill_constant`` and
``tensor_array_to_tensor`` are defined in :mod:`pagaie.tensor._extras`.
"""
from pagaie.tensor._extras import fill_constant, tensor_array_to_tensor
from pagaie.tensor._names import export

__all__ = export(globals(), "manipulation") + ["fill_constant", "tensor_array_to_tensor"]
