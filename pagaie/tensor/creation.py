"""``paddle.tensor.creation``: tensor creation (full, arange, eye, triangular parts ...).

Every name here is the same object as the op of that name in pagaie (e.g. the top-level
``paddle.<name>``); the module only reproduces Paddle's grouping. ``fill_constant`` (Paddle's legacy ``full``)
is defined in :mod:`pagaie.tensor._extras`.
"""
from pagaie.tensor._extras import fill_constant
from pagaie.tensor._names import export

__all__ = export(globals(), "creation") + ["fill_constant"]
