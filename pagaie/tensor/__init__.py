"""``paddle.tensor``: the op functions, grouped as in Paddle's ``paddle.tensor`` package.

The submodules (``math``, ``manipulation``, ``creation``, ``linalg``, ``logic``, ``search``,
``stat``, ``random``, ``attribute``, ``einsum``, ``ops``, ``array``, ``to_string``,
``compat_softmax``) hold the same objects as the top-level namespace, so
``paddle.tensor.math.add is paddle.add``. A few legacy functions exist only here:
``create_array``, ``array_write``, ``array_read``, ``array_length`` (tensor arrays as Python
lists) and ``fill_constant`` (see :mod:`pagaie.tensor._extras`).

As in Paddle, ``paddle.tensor`` is also callable: ``paddle.tensor(data, dtype=None,
device=None, requires_grad=False, pin_memory=False)`` builds a Tensor like
:func:`paddle.as_tensor`.

Examples:
    >>> import pagaie as paddle
    >>> x = paddle.to_tensor([[1, 2], [3, 4]])
    >>> paddle.tensor.triu(x).tolist()
    [[1, 2], [0, 4]]
    >>> paddle.tensor.math.add(x, x).tolist()
    [[2, 4], [6, 8]]
    >>> t = paddle.tensor(1.5, requires_grad=True)
    >>> t.stop_gradient, t.dtype
    (False, <DataType.FLOAT32: 10>)
"""
from __future__ import annotations

import sys
import types
from typing import Any

from pagaie.tensor._names import EXTRA, GROUPS, resolve


class _CallableModule(types.ModuleType):
    """The module type of ``paddle.tensor``: a package that can also be called."""

    def __call__(self, data: Any, dtype: Any = None, device: Any = None,
                 requires_grad: bool = False, pin_memory: bool = False) -> Any:
        from pagaie import as_tensor
        return as_tensor(data, dtype=dtype, device=device, requires_grad=requires_grad,
                         pin_memory=pin_memory)


sys.modules[__name__].__class__ = _CallableModule

from pagaie.tensor import (array, attribute, compat_softmax, creation, einsum,  # noqa: E402
                           linalg, logic, manipulation, math, ops, random, search, stat,
                           to_string)

_submodules = (array, attribute, compat_softmax, creation, einsum, linalg, logic, manipulation,
               math, ops, random, search, stat, to_string)
__all__: list[str] = []
for _mod in _submodules:
    for _name in _mod.__all__:
        if _name not in globals():
            globals()[_name] = getattr(_mod, _name)
            __all__.append(_name)
for _name in EXTRA:
    _obj = resolve(_name)
    if _obj is not None and _name not in globals():
        globals()[_name] = _obj
        __all__.append(_name)
del _mod, _name, _obj, _submodules, GROUPS
