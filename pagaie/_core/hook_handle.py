"""The handle returned by ``Tensor.register_hook``."""
from __future__ import annotations

import warnings
from typing import Any


class TensorHookRemoveHelper:
    """The handle returned by :meth:`Tensor.register_hook`; ``remove()`` unregisters the hook.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0], stop_gradient=False)
        >>> h = x.register_hook(lambda g: g * 2)
        >>> h.remove()
        True
    """

    __slots__ = ("_tensor", "_handle", "_hook_id")

    def __init__(self, tensor: Any, handle: Any) -> None:
        self._tensor = tensor
        self._handle = handle
        self._hook_id = handle.id

    def __repr__(self) -> str:
        return ("<paddle.base.dygraph.tensor_patch_methods.TensorHookRemoveHelper object at "
                f"{id(self):#x}>")

    def remove(self) -> bool:
        """Unregister the hook: True when it was registered, else False with a RuntimeWarning."""
        h = self._handle
        hooks = h.hooks_dict_ref()
        if hooks is not None and self._hook_id in hooks:
            h.remove()
            return True
        warnings.warn(f"The backward hook (ID: {self._hook_id}) of Tensor `{self._tensor.name}` "
                      "you want to remove does not exist or has been removed.", RuntimeWarning,
                      stacklevel=2)
        return False
