"""Functions Paddle keeps only under ``paddle.tensor``: the tensor-array helpers
(``create_array``, ``array_write``, ``array_read``, ``array_length``) and ``fill_constant``.

Tensor arrays have their eager (dynamic-mode) meaning: an array is a Python ``list`` of
Tensors, and the index ``i`` is an integer Tensor of shape ``[1]`` whose value is read.
They are plain Python over public ops. While a program is built, an index or array that
is a program value makes the array one value instead (the stack of its elements, written in
place), as Paddle's static tensor arrays, so loops can carry it.
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as np

from pagaie._core.tensor import Tensor

__all__ = ["create_array", "array_write", "array_read", "array_length", "fill_constant",
           "tensor_array_to_tensor"]


def create_array(dtype: Any, initialized_list: Sequence[Tensor] | None = None) -> list[Tensor]:
    """Create a tensor array: a Python list of Tensors, to use with :func:`array_write`,
    :func:`array_read` and :func:`array_length`.

    Args:
        dtype (str|paddle.dtype): the intended dtype of the elements. As in Paddle's dynamic
            mode it is not checked or enforced.
        initialized_list (list|tuple, optional): Tensors the array starts with.

    Returns:
        list: the array (a new list).

    Raises:
        TypeError: ``initialized_list`` is not a list/tuple, or holds a non-Tensor.

    Examples:
        >>> import pagaie as paddle
        >>> arr = paddle.tensor.create_array('float32', [paddle.ones([2])])
        >>> len(arr), arr[0].tolist()
        (1, [1.0, 1.0])
    """
    array: list[Tensor] = []
    if initialized_list is not None:
        if not isinstance(initialized_list, (list, tuple)):
            raise TypeError("paddle.tensor.create_array: Require type(initialized_list) should be "
                            f"list/tuple, but received {type(initialized_list)}")
        array = list(initialized_list)
    for val in array:
        if not isinstance(val, Tensor):
            raise TypeError("paddle.tensor.create_array: All values in `initialized_list` should be "
                            f"Tensor, but received {type(val)}.")
    return array


def _symbolic(*args: Any) -> bool:
    """Whether an index or array is a value of a program being built: the array is then one
    program value (the stack of its elements, see :mod:`pagaie._ops.tensor_array`) that loops
    can carry and gradients flow through, as Paddle's static tensor arrays."""
    from pagaie._static.ir import Value
    return any(isinstance(a, Value) for a in args)


def _as_program_array(array: Any) -> Tensor:
    """``array`` as one program value: a list's elements are stacked (as written so far)."""
    if not isinstance(array, list):
        return array
    from pagaie import stack
    if not array:
        raise ValueError("paddle.tensor.array_read: the array is empty")
    return stack(array)


def _program_write(x: Tensor, i: Any, array: Any) -> Any:
    """``array_write`` while a program is built with a symbolic index or array: a new array
    (``array`` None or a list, whose elements come first) or an in-place write into the
    array value, which later reads, loops and the returned value all see."""
    from pagaie._ops import tensor_array as _ta
    if isinstance(array, Tensor):
        # (the array keeps its stop_gradient, as Paddle's: gradients reach what was written
        # only through an array marked stop_gradient=False)
        return _ta._write.inplace(array, x, i)
    base = _ta._create(str(x.dtype).replace("paddle.", "")) if not array else _as_program_array(array)
    return _ta._write(base, x, i)


def _index(i: Any, api: str) -> int:
    """The Python int held by the ``[1]``-shaped integer Tensor ``i``."""
    assert isinstance(i, Tensor), f"The index 'i' in {api} must be Variable in dygraph mode"
    assert list(i.shape) == [1], "The shape of index 'i' should be [1] in dygraph mode"
    v = i.item(0)
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"paddle.tensor.{api}: the index 'i' must be an integer Tensor, but received "
                        f"dtype {i.dtype}")
    return v


def array_write(x: Tensor, i: Tensor, array: list[Tensor] | None = None) -> list[Tensor]:
    """Write ``x`` at position ``i`` of ``array`` (appending when ``i == len(array)``).

    Args:
        x (Tensor): the value to store.
        i (Tensor): the position, an integer Tensor of shape ``[1]``.
        array (list, optional): the array to write into (changed in place); None creates
            a new one.

    Returns:
        list: the array.

    Raises:
        AssertionError: ``x``/``i`` are not Tensors, ``i`` is not of shape ``[1]``,
            ``array`` is not a list, or ``i > len(array)`` (as Paddle).

    Examples:
        >>> import pagaie as paddle
        >>> i = paddle.zeros([1], dtype='int64')
        >>> arr = paddle.tensor.array_write(paddle.full([1, 3], 5.0), i)
        >>> arr = paddle.tensor.array_write(paddle.full([2], 7.0), i + 1, arr)
        >>> [a.tolist() for a in arr]
        [[[5.0, 5.0, 5.0]], [7.0, 7.0]]
    """
    assert isinstance(x, Tensor), "The input data 'x' in array_write must be Variable in dygraph mode"
    if _symbolic(i, array):
        return _program_write(x, i, array)
    idx = _index(i, "array_write")
    if array is None:
        array = create_array(x.dtype)
    assert isinstance(array, list), "The 'array' in array_write must be a list in dygraph mode"
    assert idx <= len(array), ("The index 'i' should not be greater than the length of 'array' in "
                               "dygraph mode")
    if idx < len(array):
        array[idx] = x
    else:
        array.append(x)
    return array


def array_read(array: list[Tensor], i: Tensor) -> Tensor:
    """The element at position ``i`` of ``array`` (the stored Tensor itself).

    Args:
        array (list): the array.
        i (Tensor): the position, an integer Tensor of shape ``[1]``; negative positions
            count from the end, as Python lists do.

    Returns:
        Tensor: the element.

    Raises:
        AssertionError: ``array`` is not a list, or ``i`` is not a ``[1]``-shaped Tensor.
        IndexError: ``i`` is out of range.

    Examples:
        >>> import pagaie as paddle
        >>> arr = paddle.tensor.create_array('float32', [paddle.ones([2]), paddle.zeros([3])])
        >>> paddle.tensor.array_read(arr, paddle.ones([1], dtype='int64')).tolist()
        [0.0, 0.0, 0.0]
    """
    if _symbolic(i, array):
        from pagaie._ops import tensor_array as _ta
        return _ta._read(_as_program_array(array), i)
    assert isinstance(array, list), "The 'array' in array_read must be list in dygraph mode"
    idx = _index(i, "array_read")
    try:
        return array[idx]
    except IndexError:
        raise IndexError(f"paddle.tensor.array_read: index {idx} is out of range for an array of "
                         f"length {len(array)}") from None


def array_length(array: list[Tensor]) -> int:
    """The number of elements of a tensor array.

    Args:
        array (list): the array.

    Returns:
        int: its length (a Python int, as in Paddle's dynamic mode).

    Raises:
        AssertionError: ``array`` is not a list.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.tensor.array_length(paddle.tensor.create_array('float32', [paddle.ones([1])]))
        1
    """
    if _symbolic(array):
        from pagaie._ops import tensor_array as _ta
        return _ta._array_length(array)
    assert isinstance(array, list), "The 'array' in array_length must be a list in dygraph mode"
    return len(array)


def fill_constant(shape: Any, dtype: Any, value: bool | float | Tensor, force_cpu: bool = False,
                  out: Tensor | None = None, place: Any = None, name: str | None = None) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` filled with ``value`` (Paddle's legacy form of
    :func:`paddle.full`, with ``dtype`` required).

    Args:
        shape (int|list|tuple|Tensor): the shape; list entries may be integer Tensors.
        dtype (str|paddle.dtype|np.dtype): the dtype.
        value (bool|int|float|complex|Tensor): the fill value (cast to ``dtype``).
        force_cpu (bool, optional): put the result on the CPU. Default False.
        out (Tensor, optional): a Tensor of dtype ``dtype`` to overwrite (it takes ``shape``)
            and return.
        place (str|Place, optional): the device; default: the current device.
        name (str, optional): unused, for compatibility.

    Returns:
        Tensor: the filled tensor (``stop_gradient=True``); ``out`` when given.

    Raises:
        TypeError: bad ``shape``, ``dtype`` or ``value``, or ``out`` of another dtype.
        ValueError: a negative dimension.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.tensor.fill_constant([2, 2], 'int64', 3).tolist()
        [[3, 3], [3, 3]]
        >>> paddle.tensor.fill_constant(3, 'float32', 0.5).tolist()
        [0.5, 0.5, 0.5]
    """
    from pagaie import full
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = [shape]
    elif isinstance(shape, np.ndarray):
        shape = shape.tolist()
    if value is None or not isinstance(value, (numbers.Number, np.generic, Tensor)):
        raise TypeError(f"paddle.tensor.fill_constant: 'value' must be a bool, int, float, complex or "
                        f"Tensor, but received {type(value).__name__}")
    device = "cpu" if force_cpu else place
    if out is not None and out.dtype != _dtype_of(dtype):
        raise TypeError(f"paddle.tensor.fill_constant: Required out.dtype == dtype if specifying "
                        f"out, but received {out.dtype} != {_dtype_of(dtype)}")
    try:
        res = full(shape, value, dtype=_dtype_of(dtype), device=device, out=out)
    except (TypeError, ValueError) as e:  # name this API, not the op it calls
        raise type(e)(str(e).replace("paddle.full", "paddle.tensor.fill_constant")) from None
    if out is not None:
        res = out
    res.stop_gradient = True
    return res


def _dtype_of(dtype: Any) -> Any:
    from pagaie._core.dtype import to_dtype
    try:
        return to_dtype(dtype)
    except (TypeError, ValueError, KeyError):
        raise TypeError(f"paddle.tensor.fill_constant: data type {dtype!r} not understood") from None


def tensor_array_to_tensor(input: list[Tensor], axis: int = 1, use_stack: bool = False,
                           name: str | None = None) -> tuple[Tensor, Tensor]:
    """Join the Tensors of a tensor array into one, by :func:`paddle.concat` (default) or
    :func:`paddle.stack` along ``axis``.

    Args:
        input (list): the array (a list of Tensors).
        axis (int, optional): the axis to join along. Default 1.
        use_stack (bool, optional): stack instead of concatenate. Default False.
        name (str, optional): unused, for compatibility.

    Returns:
        tuple: (the joined Tensor, an int64 Tensor with each input's size along ``axis``).

    Raises:
        AssertionError: ``input`` is not a list.

    Examples:
        >>> import pagaie as paddle
        >>> arr = [paddle.ones([2, 1]), paddle.zeros([2, 2])]
        >>> out, sizes = paddle.tensor.manipulation.tensor_array_to_tensor(arr)
        >>> out.shape, sizes.tolist()
        (paddle.Size([2, 3]), [1, 2])
    """
    from pagaie import concat, stack, to_tensor
    assert isinstance(input, list), "The 'input' in tensor_array_to_tensor must be list"
    res = (stack if use_stack else concat)(input, axis=axis)
    sizes = to_tensor(np.array([int(x.shape[axis]) for x in input], dtype=np.int64))
    return res, sizes
