"""``paddle.compat`` tensor functions with PyTorch's argument names and results:
``split``, ``sort``, ``unique``, ``equal``, ``slogdet`` and ``seed``.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.compat import tensor_ops
    >>> [t.shape for t in tensor_ops.split(paddle.zeros([5, 2]), 2)]
    [paddle.Size([2, 2]), paddle.Size([2, 2]), paddle.Size([1, 2])]
"""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie.compat._keywords import check_out, forbid_keywords
from pagaie.compat.results import SlogdetResult, SortRetType

__all__ = ["split", "sort", "unique", "equal", "slogdet", "seed"]


@forbid_keywords({"x", "num_or_sections", "axis", "name"}, "paddle.compat.split", "paddle.split")
def split(tensor: Any, split_size_or_sections: int | Sequence[int], dim: int = 0) -> tuple:
    """Split a tensor into chunks (PyTorch's rule).

    An int gives chunks of that size along ``dim`` (the last one smaller when the size does
    not divide); a list gives the size of each chunk, which must add up to the dim's size.

    Args:
        tensor (Tensor): the tensor to split.
        split_size_or_sections (int|list[int]|tuple[int]): chunk size, or the chunk sizes.
        dim (int, optional): the dim to split along. Default 0.

    Returns:
        tuple[Tensor, ...]: the chunks.

    Raises:
        ValueError: ``dim`` out of range, or a negative chunk size.
        TypeError: ``split_size_or_sections`` neither an int nor a list/tuple.
        AssertionError: an int chunk size that is not positive (as Paddle).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.arange(6).reshape([2, 3])
        >>> [t.tolist() for t in paddle.compat.split(x, [1, 2], dim=1)]
        [[[0], [3]], [[1, 2], [4, 5]]]
    """
    import pagaie
    from pagaie._core.tensor import Tensor
    sizes = split_size_or_sections
    if isinstance(sizes, (list, tuple)):
        sizes = [int(s.item()) if isinstance(s, Tensor) else s for s in sizes]
        for i, s in enumerate(sizes):
            if s < 0:
                raise ValueError(f"paddle.compat.split expects split_sizes have only non-negative "
                                 f"entries, but got size = {s} on dim {i}")
    if isinstance(dim, Tensor):
        dim = int(dim.item())
    rank = len(tensor.shape)
    if not -rank <= dim < rank:
        raise ValueError(f"paddle.compat.split: (InvalidArgument) The dim is expected to be in "
                         f"range of [-{rank}, {rank}), but got {dim}")
    dim = dim + rank if dim < 0 else dim
    if isinstance(sizes, (list, tuple)):
        return tuple(pagaie.split(tensor, list(sizes), axis=dim))
    if not isinstance(sizes, int) or isinstance(sizes, bool):
        raise TypeError("paddle.compat.split: the type of 'split_size_or_sections' must be int, "
                        f"list or tuple, but received {type(sizes)}.")
    if sizes <= 0:
        raise AssertionError("paddle.compat.split: split_size_or_sections must be greater than 0, "
                             f"but got {sizes}.")
    length = tensor.shape[dim]
    full, rest = divmod(length, sizes)
    if rest == 0:
        return tuple(pagaie.split(tensor, full, axis=dim))
    return tuple(pagaie.split(tensor, [sizes] * full + [rest], axis=dim))


@forbid_keywords({"x", "axis"}, "paddle.compat.sort", "paddle.sort")
def sort(input: Any, dim: int = -1, descending: bool = False, stable: bool = False,
         out: Any = None) -> SortRetType:
    """Sort along a dim; returns the sorted values and their original indices.

    Args:
        input (Tensor): the tensor to sort.
        dim (int, optional): the dim to sort along. Default -1.
        descending (bool, optional): largest first. Default False.
        stable (bool, optional): keep the order of equal elements. Default False.
        out (tuple[Tensor, Tensor], optional): two tensors that receive the result.

    Returns:
        SortRetType: ``(values, indices)``, indices int64.

    Examples:
        >>> import pagaie as paddle
        >>> r = paddle.compat.sort(paddle.to_tensor([3.0, 1.0, 2.0]), descending=True)
        >>> r.values.tolist(), r.indices.tolist()
        ([3.0, 2.0, 1.0], [0, 2, 1])
    """
    import pagaie
    check_out(out, pair=True)
    indices = pagaie.argsort(input, axis=dim, descending=descending, stable=stable)
    values = pagaie.take_along_axis(input, indices, axis=dim) if input.ndim else input.clone()
    if out is not None:
        pagaie.assign(values, out[0])
        pagaie.assign(indices, out[1])
    return SortRetType(values=values, indices=indices)


@forbid_keywords({"x", "axis"}, "paddle.compat.unique", "paddle.unique")
def unique(input: Any, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None) -> Any:
    """The unique elements of ``input`` (or unique slices along ``dim``), in PyTorch's order of
    arguments and results.

    Args:
        input (Tensor): the input tensor.
        sorted (bool, optional): return the unique values in ascending order. Default True.
        return_inverse (bool, optional): also return, for each input element, the index of its
            unique value. Default False.
        return_counts (bool, optional): also return how often each unique value occurs.
        dim (int, optional): the dim whose slices are compared; None flattens the input.

    Returns:
        Tensor|tuple[Tensor, ...]: ``values``, then ``inverse`` and ``counts`` when asked for.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([3, 1, 3, 2])
        >>> [t.tolist() for t in paddle.compat.unique(x, return_counts=True)]
        [[1, 2, 3], [1, 1, 2]]
    """
    import pagaie
    return pagaie.unique(input, return_inverse=return_inverse, return_counts=return_counts,
                         axis=dim, sorted=sorted)


@forbid_keywords({"x", "y"}, "paddle.compat.equal", "paddle.equal")
def equal(input: Any, other: Any) -> bool:
    """Whether two tensors have the same shape and the same elements (NaN never equals NaN).
    Tensors of different dtypes are compared after promotion to a common dtype.

    Args:
        input (Tensor): a tensor.
        other (Tensor): another tensor.

    Returns:
        bool: True when shapes and all elements agree.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.compat.equal(paddle.to_tensor([1, 2]), paddle.to_tensor([1.0, 2.0]))
        True
        >>> paddle.compat.equal(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2, 3]))
        False
    """
    import pagaie
    from pagaie._core.dtype import from_torch_dtype
    if input.dtype != other.dtype:
        common = from_torch_dtype(torch.promote_types(input._t.dtype, other._t.dtype))
        if input.dtype != common:
            input = input.astype(common)
        if other.dtype != common:
            other = other.astype(common)
    return bool(pagaie.equal_all(input, other).item())


def slogdet(x: Any, out: Any = None) -> SlogdetResult:
    """Sign and natural log of the absolute determinant of square matrices (batched).

    Args:
        x (Tensor): a tensor of shape ``[*, n, n]``.
        out (tuple[Tensor, Tensor], optional): two tensors that receive sign and logabsdet.

    Returns:
        SlogdetResult: ``(sign, logabsdet)``, each of shape ``[*]``; a singular matrix gives
        sign 0 and logabsdet ``-inf``.

    Examples:
        >>> import pagaie as paddle
        >>> r = paddle.compat.slogdet(paddle.to_tensor([[2.0, 0.0], [0.0, -3.0]]))
        >>> r.sign.item(), round(r.logabsdet.item(), 4)
        (-1.0, 1.7918)
    """
    import pagaie
    both = pagaie.linalg.slogdet(x)
    sign, logabsdet = both[0], both[1]
    if out is not None:
        check_out(out, pair=True)
        pagaie.assign(sign, out[0])
        pagaie.assign(logabsdet, out[1])
    return SlogdetResult(sign, logabsdet)


def seed() -> int:
    """Seed every device's default generator from a non-deterministic source.

    Returns:
        int: the 64-bit seed chosen (also what :func:`paddle.random.initial_seed` reports).

    Examples:
        >>> import pagaie as paddle
        >>> s = paddle.compat.seed()
        >>> isinstance(s, int)
        True
    """
    import pagaie
    from pagaie._core.random import default_generator
    s = default_generator(torch.device("cpu")).seed()
    pagaie.seed(s)
    return s
