"""Keep freed host memory in the process, as Paddle's own CPU allocator does.

Paddle serves CPU tensors from its auto-growth allocator, which keeps the chunks it
has handed out. pagaie's tensors come from torch's CPU allocator, that is from the C
library's ``malloc``; glibc's defaults map every large block (over 128 KiB, rising
with use) straight from the kernel and give the top of the heap back once more than
a few MiB of it are free. A training step allocates and frees its activations every
iteration, so with those defaults the same memory is unmapped and faulted in again
at each step: several thousand page faults a step for a small Transformer, a fifth
of its step time.

:func:`configure` raises glibc's mmap threshold to its maximum (32 MiB) and its trim
threshold to 1 GiB, so freed blocks stay in the heap for the next step. Peak memory is
unchanged (the same tensors are live at the peak); memory freed after the peak is
kept for reuse instead of being returned. It is applied when pagaie is imported, on
Linux with glibc, unless ``FLAGS_use_system_allocator`` is true (Paddle's switch for
its plain system allocator) or the process sets glibc's own ``MALLOC_MMAP_THRESHOLD_`` /
``MALLOC_TRIM_THRESHOLD_`` variables. Other platforms and C libraries are left alone.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

__all__ = ["configure"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 32 * 2 ** 20   # glibc's upper limit on 64-bit systems
_TRIM_THRESHOLD = 2 ** 30


def configure() -> bool:
    """Tune glibc's ``malloc`` to keep freed blocks; returns whether it was applied.

    Examples:
        >>> from pagaie._core import host_allocator
        >>> isinstance(host_allocator.configure(), bool)
        True
    """
    if not sys.platform.startswith("linux") or \
            any(k in os.environ for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # only glibc has both
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and \
        bool(mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
