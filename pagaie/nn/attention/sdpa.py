"""``paddle.nn.attention.sdpa``: the backend switch of ``scaled_dot_product_attention``.

pagaie's attention kernel is torch's ``scaled_dot_product_attention``, so
:func:`sdpa_kernel` keeps Paddle's record of enabled backends (what
``_cur_sdpa_kernel_backends`` reports) and also enters torch's own
``torch.nn.attention.sdpa_kernel`` with the same backends, which is what picks the kernel.
"""
from __future__ import annotations

import contextlib
from enum import IntEnum
from typing import Any, Iterator

import torch
from torch.nn import attention as _torch_attention

__all__ = ["SDPBackend", "sdpa_kernel", "sdp_kernel"]


class SDPBackend(IntEnum):
    """The backends of scaled dot product attention, for :func:`sdpa_kernel`.

    ``ERROR`` (-1) marks a failed choice; ``MATH`` (0) is the reference implementation,
    ``FLASH_ATTENTION`` (1) and ``EFFICIENT_ATTENTION`` (2) the fused GPU kernels.

    Examples:
        >>> from pagaie.nn.attention import SDPBackend
        >>> int(SDPBackend.FLASH_ATTENTION), SDPBackend(0).name
        (1, 'MATH')
    """

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2


_TORCH = {SDPBackend.MATH: _torch_attention.SDPBackend.MATH,
          SDPBackend.FLASH_ATTENTION: _torch_attention.SDPBackend.FLASH_ATTENTION,
          SDPBackend.EFFICIENT_ATTENTION: _torch_attention.SDPBackend.EFFICIENT_ATTENTION}

# Fused kernels count as available with CUDA only, as Paddle's flags say.
_AVAILABLE = {SDPBackend.MATH: True,
              SDPBackend.FLASH_ATTENTION: torch.cuda.is_available(),
              SDPBackend.EFFICIENT_ATTENTION: torch.cuda.is_available()}
_enabled = dict(_AVAILABLE)
_priority = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]


def _cur_sdpa_kernel_backends(with_priority: bool = False) -> list:
    """The enabled backends (ordered by priority when ``with_priority``)."""
    backends = [b for b, on in _enabled.items() if on]
    if with_priority:
        backends.sort(key=lambda b: _priority.index(b) if b in _priority else len(_priority))
    return backends


def _apply(backends: list, set_priority: bool) -> None:
    global _priority
    for b in _enabled:
        _enabled[b] = b in backends
    if set_priority:
        _priority = list(backends) + [b for b in _priority if b not in backends]


def _validate(backends: Any) -> list:
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, (list, tuple)):
        raise TypeError("paddle.nn.attention.sdpa_kernel: 'backends' must be an SDPBackend or a list "
                        f"of SDPBackend, but received {type(backends).__name__}")
    for b in backends:
        if not isinstance(b, SDPBackend):
            raise TypeError("paddle.nn.attention.sdpa_kernel: all backends must be SDPBackend "
                            f"instances, but received {type(b)}")
    return list(dict.fromkeys(backends))


@contextlib.contextmanager
def sdpa_kernel(backends: list | SDPBackend, set_priority: bool = False) -> Iterator[dict]:
    """Context manager that restricts scaled dot product attention to some backends.

    Inside the block, ``paddle.nn.functional.scaled_dot_product_attention`` only uses the
    given backends (tried in the given order when ``set_priority``); the previous choice
    comes back on exit.

    Args:
        backends (SDPBackend | list[SDPBackend]): the backend(s) to enable.
        set_priority (bool): whether the order of ``backends`` is their priority.

    Yields:
        dict: an empty dict (as Paddle's).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.attention import SDPBackend, sdpa_kernel
        >>> q = paddle.rand([2, 8, 4, 16])
        >>> with sdpa_kernel(SDPBackend.MATH):
        ...     out = paddle.nn.functional.scaled_dot_product_attention(q, q, q)
        >>> out.shape
        paddle.Size([2, 8, 4, 16])
    """
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             "instances")
    backends = _validate(backends)
    if not backends:
        raise ValueError("paddle.nn.attention.sdpa_kernel: at least one backend must be specified")
    previous = _cur_sdpa_kernel_backends(with_priority=set_priority)
    # Paddle has the fused kernels only on GPUs: with none of the chosen backends available
    # the attention call fails (torch's cuDNN backend cannot run there either).
    torch_backends = [_TORCH[b] for b in backends if b in _TORCH and _AVAILABLE[b]]
    if not torch_backends and any(b in _TORCH for b in backends):
        torch_backends = [_torch_attention.SDPBackend.CUDNN_ATTENTION]
    try:
        _apply(backends, set_priority)
        if torch_backends:
            with _torch_attention.sdpa_kernel(torch_backends, set_priority=set_priority):
                yield {}
        else:
            yield {}
    finally:
        _apply(previous, set_priority)


@contextlib.contextmanager
def sdp_kernel(enable_math: bool = False, enable_flash: bool = True,
               enable_mem_efficient: bool = True) -> Iterator[dict]:
    """``paddle.nn.functional.sdp_kernel``: :func:`sdpa_kernel` with the backends given as
    switches (flash first, then memory-efficient, then math).

    Args:
        enable_math (bool): allow the reference implementation. Default False.
        enable_flash (bool): allow the flash-attention kernel. Default True.
        enable_mem_efficient (bool): allow the memory-efficient kernel. Default True.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.rand([1, 4, 2, 8])
        >>> with paddle.nn.functional.sdp_kernel(enable_math=True, enable_flash=False,
        ...                                      enable_mem_efficient=False):
        ...     out = paddle.nn.functional.scaled_dot_product_attention(q, q, q)
        >>> out.shape
        paddle.Size([1, 4, 2, 8])
    """
    backends = [b for b, on in ((SDPBackend.FLASH_ATTENTION, enable_flash),
                                (SDPBackend.EFFICIENT_ATTENTION, enable_mem_efficient),
                                (SDPBackend.MATH, enable_math)) if on]
    if not backends:
        raise ValueError("paddle.nn.functional.sdp_kernel: at least one backend must be enabled")
    with sdpa_kernel(backends) as ctx:
        yield ctx
