"""``paddle.compat`` reductions with PyTorch's calling forms: ``min``, ``max``, ``median``,
``nanmedian``. Along a dim they return ``(values, indices)`` named tuples.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.compat import reduce
    >>> reduce.max(paddle.to_tensor([[1, 5], [7, 2]]), dim=1).indices.tolist()
    [1, 0]
"""
from __future__ import annotations

from typing import Any

from pagaie.compat._keywords import check_out, forbid_keywords
from pagaie.compat.results import MedianRetType, MinMaxRetType

__all__ = ["min", "max", "median", "nanmedian"]

_INTEGRAL = ("int16", "int32", "int64", "uint8")


def _bad_args(name: str, args: tuple, kwargs: dict, extra: str = "") -> TypeError:
    seen = [type(v).__name__ for v in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
    return TypeError(
        f"Invalid arguments for `paddle.compat.{name}`:\n{extra}"
        f"Got: (paddle.Tensor input, {', '.join(seen)}), but expect one of:\n"
        f" - (input: paddle.Tensor) for reduce_{name} on all dims.\n"
        f" - (input: paddle.Tensor, other: paddle.Tensor) -> see paddle.{name}imum\n"
        f" - (input: paddle.Tensor, int dim (cannot be None), bool keepdim = False)\n")


def _parse(name: str, args: tuple, kwargs: dict) -> tuple[Any, bool]:
    """Sort the call into (dim or other tensor or None, keepdim), as PyTorch's overloads do."""
    from pagaie._core.tensor import Tensor
    if len(args) + len(kwargs) > 2 or set(kwargs) - {"dim", "keepdim", "other"}:
        raise _bad_args(name, args, kwargs)
    dim_or_other: Any = None
    keepdim = False
    if len(args) + len(kwargs) == 2:
        if len(args) == 2:
            dim_or_other, keepdim = args
        elif "keepdim" not in kwargs or (not args and "dim" not in kwargs):
            raise _bad_args(name, args, kwargs)
        else:
            dim_or_other = args[0] if args else kwargs["dim"]
            keepdim = kwargs["keepdim"]
        if dim_or_other is None or isinstance(dim_or_other, Tensor):
            raise _bad_args(name, args, kwargs)
    elif args or kwargs:
        if args:
            dim_or_other = args[0]
        elif "dim" in kwargs:
            dim_or_other = kwargs["dim"]
        elif "other" in kwargs:
            dim_or_other = kwargs["other"]
            if not isinstance(dim_or_other, Tensor):
                raise _bad_args(name, args, kwargs)
        if dim_or_other is None:
            raise _bad_args(name, args, kwargs)
    if dim_or_other is not None and not isinstance(dim_or_other, Tensor) \
            and type(dim_or_other) is not int:
        raise _bad_args(name, args, kwargs,
                        f"The second input must be int or Tensor or implicit None in "
                        f"compat.{name}, but received {type(dim_or_other)}.\n")
    return dim_or_other, keepdim


def _min_max(name: str, input: Any, args: tuple, out: Any, kwargs: dict) -> Any:
    import pagaie
    from pagaie._core.tensor import Tensor
    if not isinstance(input, Tensor):
        raise TypeError(f"paddle.compat.{name}: input should be a tensor, but got an instance "
                        f"with type '{type(input).__name__}'")
    if str(input.dtype).replace("paddle.", "") in _INTEGRAL and not input.stop_gradient:
        raise TypeError(f"paddle.compat.{name}: Tensors with integral type: '{input.dtype}' "
                        "should stop gradient.")
    dim_or_other, keepdim = _parse(name, args, kwargs)
    if dim_or_other is None:
        check_out(out, pair=False)
        ret = getattr(pagaie, name)(input)
    elif isinstance(dim_or_other, int):
        check_out(out, pair=True)
        if input.ndim == 0:
            ret = MinMaxRetType(values=input, indices=pagaie.zeros([], dtype="int64"))
        else:
            arg = pagaie.argmin if name == "min" else pagaie.argmax
            indices = arg(input, axis=dim_or_other, keepdim=True)
            values = pagaie.take_along_axis(input, indices, axis=dim_or_other)
            if not keepdim:
                values = values.squeeze(axis=dim_or_other)
                indices = indices.squeeze(axis=dim_or_other)
            ret = MinMaxRetType(values=values, indices=indices)
    else:
        check_out(out, pair=False)
        ret = (pagaie.minimum if name == "min" else pagaie.maximum)(input, dim_or_other)
    if out is not None:
        if isinstance(ret, MinMaxRetType):
            pagaie.assign(ret.values, out[0])
            pagaie.assign(ret.indices, out[1])
        else:
            pagaie.assign(ret, out)
    return ret


@forbid_keywords({"x", "axis"}, "paddle.compat.min", "paddle.min")
def min(input: Any, *args: Any, out: Any = None, **kwargs: Any) -> Any:
    """Minimum of a tensor, in PyTorch's three forms.

    - ``min(input)``: the smallest element, a 0-D Tensor;
    - ``min(input, dim, keepdim=False)``: :class:`MinMaxRetType` ``(values, indices)`` along
      ``dim`` (the gradient flows to the element at ``indices`` only);
    - ``min(input, other)``: the element-wise minimum (see :func:`paddle.minimum`).

    Args:
        input (Tensor): the input tensor.
        *args: ``dim`` (int, never None) and ``keepdim`` (bool), or ``other`` (Tensor).
        out (Tensor|tuple[Tensor, Tensor], optional): tensor(s) that receive the result.
        **kwargs: ``dim``, ``keepdim`` or ``other`` given by name.

    Returns:
        Tensor|MinMaxRetType: see the forms above; ``indices`` are int64.

    Raises:
        TypeError: for any other combination of arguments, or Paddle-style ``x`` / ``axis``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[3.0, 1.0], [0.0, 5.0]])
        >>> paddle.compat.min(x).item()
        0.0
        >>> r = paddle.compat.min(x, dim=1)
        >>> r.values.tolist(), r.indices.tolist()
        ([1.0, 0.0], [1, 0])
    """
    return _min_max("min", input, args, out, kwargs)


@forbid_keywords({"x", "axis"}, "paddle.compat.max", "paddle.max")
def max(input: Any, *args: Any, out: Any = None, **kwargs: Any) -> Any:
    """Maximum of a tensor, in PyTorch's three forms (see :func:`min`).

    Args:
        input (Tensor): the input tensor.
        *args: ``dim`` (int, never None) and ``keepdim`` (bool), or ``other`` (Tensor).
        out (Tensor|tuple[Tensor, Tensor], optional): tensor(s) that receive the result.
        **kwargs: ``dim``, ``keepdim`` or ``other`` given by name.

    Returns:
        Tensor|MinMaxRetType: the largest element, ``(values, indices)`` along ``dim``, or
        the element-wise maximum with ``other``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[3.0, 1.0], [0.0, 5.0]])
        >>> paddle.compat.max(x, 0).values.tolist()
        [3.0, 5.0]
        >>> paddle.compat.max(x, paddle.full([2, 2], 2.0)).tolist()
        [[3.0, 2.0], [2.0, 5.0]]
    """
    return _min_max("max", input, args, out, kwargs)


def _median(fn_name: str, input: Any, dim: int | None, keepdim: bool, out: Any) -> Any:
    import pagaie
    fn = getattr(pagaie, fn_name)
    if dim is None:
        check_out(out, pair=False)
        result = fn(input, axis=None, keepdim=keepdim, mode="min")
        if out is not None:
            pagaie.assign(result, out)
            return out
        return result
    check_out(out, pair=True)
    values, indices = fn(input, axis=dim, keepdim=keepdim, mode="min")
    if out is not None:
        pagaie.assign(values, out[0])
        pagaie.assign(indices, out[1])
        return MedianRetType(values=out[0], indices=out[1])
    return MedianRetType(values=values, indices=indices)


@forbid_keywords({"x", "axis"}, "paddle.compat.median", "paddle.median")
def median(input: Any, dim: int | None = None, keepdim: bool = False, *,
           out: Any = None) -> Any:
    """Median of ``input``; for an even count, the lower of the two middle values (PyTorch's rule).

    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the dim to reduce; None reduces all elements.
        keepdim (bool, optional): keep the reduced dim with size 1. Default False.
        out (Tensor|tuple[Tensor, Tensor], optional): receives the result (one tensor when
            ``dim`` is None, a pair otherwise).

    Returns:
        Tensor|MedianRetType: a 0-D tensor when ``dim`` is None, else ``(values, indices)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.median(paddle.to_tensor([1.0, 2.0, 3.0, 4.0])).item()
        2.0
        >>> paddle.compat.median(paddle.to_tensor([[1, 9, 5]]), dim=1).indices.tolist()
        [2]
    """
    return _median("median", input, dim, keepdim, out)


@forbid_keywords({"x", "axis"}, "paddle.compat.nanmedian", "paddle.nanmedian")
def nanmedian(input: Any, dim: int | None = None, keepdim: bool = False, *,
              out: Any = None) -> Any:
    """Median ignoring NaN values (lower middle value for an even count), as :func:`median`.

    Args:
        input (Tensor): the input tensor.
        dim (int, optional): the dim to reduce; None reduces all elements.
        keepdim (bool, optional): keep the reduced dim with size 1. Default False.
        out (Tensor|tuple[Tensor, Tensor], optional): receives the result.

    Returns:
        Tensor|MedianRetType: a 0-D tensor when ``dim`` is None, else ``(values, indices)``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, float('nan'), 3.0, 4.0])
        >>> paddle.compat.nanmedian(x).item()
        3.0
    """
    return _median("nanmedian", input, dim, keepdim, out)
