"""Type annotations for :func:`paddle.incubate.cc.compile`: symbolic dims, dtype variables and
annotated tensors."""
from __future__ import annotations

from typing import Any

__all__ = ["DimVar", "DTypeVar", "Tensor"]


class DimVar:
    """A dimension: a fixed size (an int) or a named symbolic size with optional bounds.

    Args:
        name_or_value (str|int): the symbol's name, or the fixed size.
        min (int, optional): smallest allowed size. Default None.
        max (int, optional): largest allowed size. Default None.

    Examples:
        >>> import pagaie.incubate.cc.typing as pct
        >>> pct.DimVar('N', min=2).name_or_value
        'N'
    """

    def __init__(self, name_or_value: str | int, min: int | None = None,  # noqa: A002
                 max: int | None = None) -> None:  # noqa: A002
        self.name_or_value = name_or_value
        self.min = min
        self.max = max


Dim = DimVar


class DTypeVar:
    """A dtype variable: one name, several candidate dtypes (one compiled overload each).

    Args:
        name (str): the variable's name; annotations using the same name vary together.
        *candidates (str): distinct dtype names such as ``'float32'``.

    Examples:
        >>> import pagaie.incubate.cc.typing as pct
        >>> pct.DTypeVar('T', 'float32', 'float64').candidates
        ('float32', 'float64')
    """

    def __init__(self, name: str, *candidates: str) -> None:
        if not candidates:
            raise AssertionError("paddle.incubate.cc.typing.DTypeVar: give at least one candidate dtype")
        if len(candidates) != len(set(candidates)):
            raise AssertionError("paddle.incubate.cc.typing.DTypeVar: candidate dtypes must be distinct, "
                                 f"but received {candidates}")
        for c in candidates:
            if not isinstance(c, str):
                raise AssertionError("paddle.incubate.cc.typing.DTypeVar: candidates must be dtype names "
                                     f"(str), but received {c!r}")
        self.name = name
        self.candidates = candidates


DType = DTypeVar


class Tensor:
    """The annotation of a tensor argument: a shape (ints or :class:`DimVar`) and a
    :class:`DTypeVar`.

    Args:
        shape (list): the dims.
        dtype (DTypeVar): the dtype variable.

    Examples:
        >>> import pagaie.incubate.cc.typing as pct
        >>> t = pct.Tensor([pct.DimVar('N'), 4], pct.DTypeVar('T', 'float32'))
        >>> len(t.shape)
        2
    """

    def __init__(self, shape: Any, dtype: Any) -> None:
        self.shape = shape
        self.dtype = dtype
