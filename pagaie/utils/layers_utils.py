"""Nested-structure and shape helpers of ``paddle.utils`` (Paddle's ``layers_utils``).

A *structure* is a value nested in lists, tuples (named tuples too) and dicts; every
other value (a Tensor, a number, a string) is a leaf. Dict entries are visited in sorted
key order, so dict keys must be sortable.

Examples:
    >>> import pagaie as paddle
    >>> s = {'b': [1, 2], 'a': (3,)}
    >>> paddle.utils.flatten(s)
    [3, 1, 2]
    >>> paddle.utils.map_structure(lambda v: v * 10, s)
    {'b': [10, 20], 'a': (30,)}
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Callable, Iterator

__all__ = ["is_sequence", "to_sequence", "flatten", "pack_sequence_as", "map_structure",
           "hold_mutable_vars", "copy_mutable_vars", "assert_same_structure",
           "padding_to_same_structure", "convert_to_list", "convert_shape_to_list", "check_shape",
           "is_same_shape", "NotSupportedTensorArgumentError"]


class NotSupportedTensorArgumentError(TypeError):
    """A Tensor was given where only Python numbers are accepted; ``name`` is the argument.

    Examples:
        >>> from pagaie.utils.layers_utils import NotSupportedTensorArgumentError
        >>> NotSupportedTensorArgumentError('no tensors here', 'stride').name
        'stride'
    """

    def __init__(self, msg: str, name: str) -> None:
        super().__init__(msg)
        self.name = name


def is_sequence(seq: Any) -> bool:
    """Whether ``seq`` is a container the structure helpers descend into: a dict, or a
    sequence other than a string.

    Args:
        seq (Any): the value.

    Returns:
        bool: True for dicts, lists, tuples and other non-string sequences.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.is_sequence([1]), paddle.utils.is_sequence('ab')
        (True, False)
    """
    if isinstance(seq, dict):
        return True
    return isinstance(seq, Sequence) and not isinstance(seq, str)


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d.keys())
    except TypeError:
        raise TypeError("nest only supports dicts with sortable keys.") from None


def _children(nest: Any) -> Iterator[Any]:
    if isinstance(nest, dict):
        for k in _sorted_keys(nest):
            yield nest[k]
    else:
        yield from nest


def _leaves(nest: Any) -> Iterator[Any]:
    for child in _children(nest):
        if is_sequence(child):
            yield from _leaves(child)
        else:
            yield child


def to_sequence(nest: Any) -> Any:
    """``nest`` itself if it is a sequence (see :func:`is_sequence`), else ``[nest]``.

    Args:
        nest (Any): the value.

    Returns:
        the sequence.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.to_sequence(3), paddle.utils.to_sequence((3,))
        ([3], (3,))
    """
    return nest if is_sequence(nest) else [nest]


def flatten(nest: Any) -> list:
    """All leaves of a nested structure, in order, in one list (dicts by sorted key).

    Args:
        nest (Any): the structure; a leaf gives a one-element list.

    Returns:
        list: the leaves.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.flatten([1, (2, [3]), {'y': 5, 'x': 4}])
        [1, 2, 3, 4, 5]
        >>> paddle.utils.flatten(7)
        [7]
    """
    return list(_leaves(nest)) if is_sequence(nest) else [nest]


def _rebuild_like(instance: Any, values: list) -> Any:
    """A container of ``instance``'s type holding ``values`` (dicts: in sorted key order)."""
    if isinstance(instance, dict):
        by_key = dict(zip(_sorted_keys(instance), values))
        return type(instance)((k, by_key[k]) for k in instance)
    fields = getattr(instance, "_fields", None)
    if isinstance(instance, tuple) and isinstance(fields, Sequence) and \
            all(isinstance(f, str) for f in fields):
        return type(instance)(*values)  # a named tuple
    return type(instance)(values)


def _pack(structure: Any, flat: Sequence, index: int) -> tuple[int, list]:
    packed = []
    for child in _children(structure):
        if is_sequence(child):
            index, sub = _pack(child, flat, index)
            packed.append(_rebuild_like(child, sub))
        else:
            packed.append(flat[index])
            index += 1
    return index, packed


def pack_sequence_as(structure: Any, flat_sequence: Sequence) -> Any:
    """Put the values of ``flat_sequence`` into the shape of ``structure`` (the inverse of
    :func:`flatten`).

    Args:
        structure (Any): the nested structure to copy the shape from.
        flat_sequence (list|tuple): as many values as ``structure`` has leaves.

    Returns:
        a structure like ``structure`` holding the new values.

    Raises:
        TypeError: ``flat_sequence`` is not a sequence.
        ValueError: the number of values does not match.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.pack_sequence_as([0, (0, 0)], ['a', 'b', 'c'])
        ['a', ('b', 'c')]
    """
    if not is_sequence(flat_sequence):
        raise TypeError("flat_sequence must be a sequence")
    if isinstance(flat_sequence, dict):
        flat_sequence = list(flat_sequence.values())
    if not is_sequence(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat_sequence)} > 1")
        return flat_sequence[0]
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {n} elements, but flat_sequence had "
                         f"{len(flat_sequence)} elements. Structure: {structure}, "
                         f"flat_sequence: {flat_sequence}.")
    return _rebuild_like(structure, _pack(structure, flat_sequence, 0)[1])


def map_structure(func: Callable[..., Any], *structure: Any) -> Any:
    """Apply ``func`` leaf by leaf to one or more structures of the same shape.

    Args:
        func (callable): called with one leaf from each structure.
        *structure: the structures (the first gives the shape of the result).

    Returns:
        a structure like the first one holding ``func``'s results.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)])
        [11, (22, 33)]
    """
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)])


def hold_mutable_vars(structure: Any) -> bool:
    """Whether any element of ``structure`` (one level down) is itself a sequence or dict.

    Args:
        structure (Sequence): the outer container.

    Returns:
        bool

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.hold_mutable_vars([1, [2]]), paddle.utils.hold_mutable_vars([1, 2])
        (True, False)
    """
    return any(is_sequence(s) for s in structure)


def copy_mutable_vars(structure: Any) -> Any:
    """A copy of the containers of ``structure`` (the leaves are shared, not copied).

    Args:
        structure (Any): the structure.

    Returns:
        the new structure.

    Examples:
        >>> import pagaie as paddle
        >>> s = [1, [2]]
        >>> c = paddle.utils.copy_mutable_vars(s)
        >>> c == s, c[1] is s[1]
        (True, False)
    """
    return pack_sequence_as(structure, copy.copy(flatten(structure)))


def _same_structure(a: Any, b: Any, check_types: bool, skip_if: Callable | None) -> None:
    if skip_if is not None and (skip_if(a) or skip_if(b)):
        return
    seq_a = is_sequence(a)
    if seq_a != is_sequence(b):
        raise ValueError("The two structures don't have the same nested structure.\n\n"
                         f"First structure: {a}\n\nSecond structure: {b}.")
    if not seq_a:
        return
    if check_types:
        if type(a) is not type(b):
            raise TypeError("The two structures don't have the same sequence type. First structure "
                            f"has type {type(a)}, while second structure has type {type(b)}.")
        if isinstance(a, dict) and set(a) != set(b):
            raise ValueError("The two dictionaries don't have the same set of keys. First structure "
                             f"has keys {set(a)}, while second structure has keys {set(b)}.")
    ca, cb = list(_children(a)), list(_children(b))
    if len(ca) != len(cb):
        raise ValueError("The two structures don't have the same number of elements.\n\n"
                         f"First structure ({len(ca)} elements): {a}\n\n"
                         f"Second structure ({len(cb)} elements): {b}")
    for x, y in zip(ca, cb):
        _same_structure(x, y, check_types, skip_if)


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True,
                          skip_if: Callable[[Any], bool] | None = None) -> None:
    """Raise unless two structures nest the same way.

    Args:
        nest1 (Any): the first structure.
        nest2 (Any): the second structure.
        check_types (bool, optional): also require the same container types (and dict
            keys). Default True.
        skip_if (callable, optional): sub-structures for which it returns True are not
            compared.

    Raises:
        ValueError: different nesting or number of elements.
        TypeError: different container types (with ``check_types``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.assert_same_structure([1, (2, 3)], ['a', ('b', 'c')])
        >>> paddle.utils.assert_same_structure([1, 2], (1, 2), check_types=False)
    """
    if skip_if is not None and (skip_if(nest1) or skip_if(nest2)):
        return
    n1 = len(flatten(nest1)) if is_sequence(nest1) else 1
    n2 = len(flatten(nest2)) if is_sequence(nest2) else 1
    if n1 != n2 and skip_if is None:
        raise ValueError("The two structures don't have the same number of elements.\n\n"
                         f"First structure ({n1} elements): {nest1}\n\n"
                         f"Second structure ({n2} elements): {nest2}")
    _same_structure(nest1, nest2, check_types, skip_if)


def padding_to_same_structure(nest1: Any, nest2: Any, obj: Any = None) -> tuple[Any, Any]:
    """Both structures with every ``None`` leaf replaced by ``obj``.

    Args:
        nest1 (Any): the first structure.
        nest2 (Any): the second structure.
        obj (Any, optional): the replacement. Default None.

    Returns:
        tuple: the two new structures.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.padding_to_same_structure([1, None], None, obj=0)
        ([1, 0], 0)
    """
    def fill(v: Any) -> Any:
        if is_sequence(v):
            return pack_sequence_as(v, [obj if e is None else e for e in flatten(v)])
        return obj if v is None else v

    return fill(nest1), fill(nest2)


def convert_to_list(value: Any, n: int, name: str, dtype: type = int) -> list:
    """``value`` as a list of ``n`` numbers: a single number is repeated ``n`` times.

    Args:
        value (int|float|Sequence): one number, or ``n`` of them.
        n (int): the length wanted.
        name (str): the argument's name, for error messages.
        dtype (type, optional): the number type. Default int.

    Returns:
        list: ``n`` values.

    Raises:
        NotSupportedTensorArgumentError: ``value`` (or an element) is a Tensor (a TypeError).
        ValueError: wrong length or an element that is not a number.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.convert_to_list(3, 2, 'stride'), paddle.utils.convert_to_list((1, 2), 2, 'stride')
        ([3, 3], [1, 2])
    """
    from pagaie._core.tensor import Tensor
    if isinstance(value, dtype):
        return [value] * n
    if isinstance(value, Tensor):
        raise NotSupportedTensorArgumentError(
            f"`{name}` required numerical type with `{dtype}`, but received Tensor.", name)
    try:
        values = list(value)
    except TypeError:
        raise ValueError(f"The {name}'s type must be list or tuple. Received: {value}") from None
    if len(values) != n:
        raise ValueError(f"The {name}'s length must be {n}. Received: {value}")
    for v in values:
        if isinstance(v, Tensor):
            raise NotSupportedTensorArgumentError(
            f"`{name}` required numerical type with `{dtype}`, but received Tensor.", name)
        try:
            dtype(v)
        except (ValueError, TypeError):
            raise ValueError(f"The {name}'s type must be a list or tuple of {n} {dtype}. Received: "
                             f"{value} including element {v} of type {type(v)}") from None
    return values


def convert_shape_to_list(shape: Any) -> Any:
    """A shape given as a list/tuple (possibly holding 1-element Tensors) or as a Tensor,
    as a list of Python ints. Empty Tensor entries are dropped, as in Paddle.

    Args:
        shape (list|tuple|Tensor): the shape.

    Returns:
        list: the shape.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.convert_shape_to_list([2, paddle.to_tensor([3])])
        [2, 3]
        >>> paddle.utils.convert_shape_to_list(paddle.to_tensor([4, 5]))
        [4, 5]
    """
    from pagaie._core.tensor import Tensor
    if isinstance(shape, (list, tuple)):
        return [x.item(0) if isinstance(x, Tensor) else x for x in shape
                if not (isinstance(x, Tensor) and 0 in x.shape)]
    return shape.astype("int64").tolist()


def check_shape(shape: Any) -> None:
    """Check a shape argument: an int32/int64 Tensor, or a list/tuple of non-negative ints
    and int32/int64 Tensors. As in Paddle, the dtype of Tensors is only checked in static
    mode.

    Args:
        shape (list|tuple|Tensor): the shape.

    Raises:
        ValueError: a negative element.
        TypeError: an element that is neither an int nor an integer Tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.check_shape([2, 3])
        >>> paddle.utils.check_shape([2, -1])
        Traceback (most recent call last):
        ...
        ValueError: All elements in ``shape`` must be positive when it's a list or tuple
    """
    from pagaie._core.tensor import Tensor

    import pagaie

    def check_int_tensor(t: Tensor, what: str) -> None:
        if pagaie.in_dynamic_mode():
            return
        if str(t.dtype).replace("paddle.", "") not in ("int32", "int64"):
            raise TypeError(f"The data type of '{what}' in fill_constant must be ['int32', 'int64'], "
                            f"but received {str(t.dtype).replace('paddle.', '')}.")

    if isinstance(shape, Tensor):
        check_int_tensor(shape, "shape")
    elif isinstance(shape, (list, tuple)):
        for e in shape:
            if isinstance(e, Tensor):
                check_int_tensor(e, "element of shape")
                continue
            if e < 0:
                raise ValueError("All elements in ``shape`` must be positive when it's a list or tuple")
            if not isinstance(e, int):
                raise TypeError("All elements in ``shape`` must be integers when it's a list or tuple")


def is_same_shape(shape1: Sequence[int], shape2: Sequence[int]) -> bool:
    """Whether two shapes are equal (dims of -1 match anything in static mode, as Paddle).

    Args:
        shape1 (list|tuple): the first shape.
        shape2 (list|tuple): the second shape.

    Returns:
        bool

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.is_same_shape([2, 3], [2, 3]), paddle.utils.is_same_shape([2, 3], [3, 2])
        (True, False)
    """
    import pagaie
    if pagaie.in_dynamic_mode():
        return shape1 == shape2
    from pagaie._core.tensor import Tensor
    if isinstance(shape1, Tensor) or isinstance(shape2, Tensor):
        return True
    if len(shape1) != len(shape2):
        return False
    return all(a == b or a == -1 or b == -1 or isinstance(a, Tensor) or isinstance(b, Tensor)
               for a, b in zip(shape1, shape2))
