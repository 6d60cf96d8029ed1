"""The keyword guard of Paddle's torch-style APIs: a Paddle-style keyword (``x``, ``axis``...)
passed to a ``paddle.compat`` function raises ``TypeError`` naming the Paddle API meant."""
from __future__ import annotations

import functools
from typing import Any, Callable, Iterable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def forbid_keywords(illegal: Iterable[str], api: str, instead: str) -> Callable[[F], F]:
    """Decorate ``fn`` so that any keyword in ``illegal`` raises Paddle's ``TypeError``.

    Args:
        illegal (Iterable[str]): keywords of the Paddle-style API that this one rejects.
        api (str): the public name of the decorated function, e.g. ``paddle.compat.sort``.
        instead (str): the Paddle API that takes those keywords.

    Examples:
        >>> from pagaie.compat._keywords import forbid_keywords
        >>> @forbid_keywords({'axis'}, 'demo.f', 'demo.g')
        ... def f(input, dim=0):
        ...     return dim
        >>> try:
        ...     f(1, axis=2)
        ... except TypeError as e:
        ...     print(str(e).splitlines()[0])
        demo.f() received unexpected keyword argument 'axis'. 
    """
    bad = frozenset(illegal)

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if kwargs and not bad.isdisjoint(kwargs):
                found = sorted(k for k in kwargs if k in bad)
                keys = ", ".join(f"'{k}'" for k in found)
                plural = "s" if len(found) > 1 else ""
                raise TypeError(f"{api}() received unexpected keyword argument{plural} {keys}. "
                                f"\nDid you mean to use {instead}() instead?")
            return fn(*args, **kwargs)
        return guarded  # type: ignore[return-value]
    return wrap


def check_out(out: Any, pair: bool) -> None:
    """Validate an ``out=`` argument: one Tensor, or (``pair``) a list/tuple of two Tensors.

    Examples:
        >>> from pagaie.compat._keywords import check_out
        >>> check_out(None, pair=True)
    """
    if out is None:
        return
    from pagaie._core.tensor import Tensor
    if pair:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"Expected a list or tuple of two tensors for 'out', got "
                            f"{type(out).__name__} instead.")
        if not (isinstance(out[0], Tensor) and isinstance(out[1], Tensor)):
            raise TypeError(f"Expected Tensor type in the 'out' tuple/list, got "
                            f"({type(out[0]).__name__}, {type(out[1]).__name__}) instead.")
    elif not isinstance(out, Tensor):
        raise TypeError(f"Expected a Tensor for 'out', got {type(out).__name__} instead.")
