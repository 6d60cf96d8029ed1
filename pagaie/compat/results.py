"""The named tuples that ``paddle.compat`` functions return (PyTorch's return types).

Examples:
    >>> from pagaie.compat.results import SortRetType
    >>> r = SortRetType(values=1, indices=0)
    >>> r.values, r[1]
    (1, 0)
"""
from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["MinMaxRetType", "SortRetType", "MedianRetType", "SlogdetResult"]


class MinMaxRetType(NamedTuple):
    """``(values, indices)`` of :func:`paddle.compat.min` / :func:`paddle.compat.max` along a dim."""
    values: Any
    indices: Any


class SortRetType(NamedTuple):
    """``(values, indices)`` of :func:`paddle.compat.sort`."""
    values: Any
    indices: Any


class MedianRetType(NamedTuple):
    """``(values, indices)`` of :func:`paddle.compat.median` / ``nanmedian`` along a dim."""
    values: Any
    indices: Any


class SlogdetResult(NamedTuple):
    """``(sign, logabsdet)`` of :func:`paddle.compat.slogdet`."""
    sign: Any
    logabsdet: Any

