"""``paddle.sysconfig``: where the C++ headers and libraries behind this installation are.

pagaie ships no C++ code of its own: every kernel comes from PyTorch. So the header and
library folders it reports are **torch's** (``<site-packages>/torch/include`` and
``<site-packages>/torch/lib``), the ones a C++ extension working on pagaie tensors (which
are torch tensors underneath) compiles and links against. Paddle's own answers would be
``<paddle>/include`` and ``<paddle>/libs``, which do not exist here.

Examples:
    >>> import os
    >>> import pagaie as paddle
    >>> os.path.isdir(paddle.sysconfig.get_include())
    True
"""
from __future__ import annotations

import os

import torch

__all__ = ["get_include", "get_lib"]


def _torch_dir() -> str:
    return os.path.dirname(os.path.abspath(torch.__file__))


def get_include() -> str:
    """The directory holding the C++ headers of the kernels pagaie runs on (torch's
    ``include`` folder).

    Returns:
        str: the directory.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.sysconfig.get_include().endswith('include')
        True
    """
    return os.path.join(_torch_dir(), "include")


def get_lib() -> str:
    """The directory holding the shared libraries of the kernels pagaie runs on (torch's
    ``lib`` folder, with ``libtorch`` and ``libc10``).

    Returns:
        str: the directory.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.sysconfig.get_lib().endswith('lib')
        True
    """
    return os.path.join(_torch_dir(), "lib")
