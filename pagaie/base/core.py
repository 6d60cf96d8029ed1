"""``paddle.base.core``: the build queries and place classes of Paddle's core module.

Only the part of Paddle's compiled core that user code reaches for is here: the
``is_compiled_with_*`` queries, the place classes, the device count and ``eager.Tensor``.

Examples:
    >>> import pagaie as paddle
    >>> paddle.base.core.is_compiled_with_xpu()
    False
    >>> paddle.base.core.eager.Tensor is paddle.Tensor
    True
"""
from __future__ import annotations

from types import SimpleNamespace

from pagaie._core.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, Place  # noqa: F401
from pagaie._core.tensor import Tensor
from pagaie.device import (IPUPlace, XPUPlace, device_count,  # noqa: F401
                           is_compiled_with_cinn, is_compiled_with_cuda,
                           is_compiled_with_custom_device, is_compiled_with_distribute,
                           is_compiled_with_ipu, is_compiled_with_rocm, is_compiled_with_xpu)

__all__ = ["CPUPlace", "CUDAPlace", "CUDAPinnedPlace", "XPUPlace", "IPUPlace", "Place", "eager",
           "is_compiled_with_cuda", "is_compiled_with_rocm", "is_compiled_with_xpu",
           "is_compiled_with_ipu", "is_compiled_with_cinn", "is_compiled_with_custom_device",
           "is_compiled_with_distribute", "get_cuda_device_count"]

#: ``core.eager.Tensor`` is the dynamic-mode Tensor class.
eager = SimpleNamespace(Tensor=Tensor)


def get_cuda_device_count() -> int:
    """The number of visible CUDA GPUs (0 without CUDA).

    Returns:
        int: the GPU count.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.base.core.get_cuda_device_count(), int)
        True
    """
    import torch
    return torch.cuda.device_count() if torch.cuda.is_available() else 0
