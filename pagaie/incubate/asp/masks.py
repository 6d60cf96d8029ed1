"""n:m structured-sparsity masks over numpy arrays (``paddle.incubate.asp``'s utilities).

An ``n:m`` pattern keeps at most ``m - n`` non-zeros in every group of ``m`` values: along each
row for the 1-D pattern, along each row *and* column of every ``m x m`` block for the 2-D one.
Rows whose length is not a multiple of ``m`` are zero-padded first. Everything is vectorised
over the groups; ties between equal magnitudes are broken as numpy's default ``argsort`` and
``argmax`` break them, and the candidate 2-D patterns are enumerated in Paddle's order, so the
masks are the ones Paddle produces.
"""
from __future__ import annotations

import functools
import itertools
from enum import Enum
from typing import Any

import numpy as np

__all__ = ["MaskAlgo", "CheckMethod", "calculate_density", "check_mask_1d", "get_mask_1d",
           "check_mask_2d", "get_mask_2d_greedy", "get_mask_2d_best", "create_mask",
           "check_sparsity"]


class MaskAlgo(Enum):
    """The mask-generating algorithms: ``MASK_1D``, ``MASK_2D_GREEDY`` and ``MASK_2D_BEST``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.asp.MaskAlgo.MASK_1D.value
        'get_mask_1d'
    """

    MASK_1D = "get_mask_1d"
    MASK_2D_GREEDY = "get_mask_2d_greedy"
    MASK_2D_BEST = "get_mask_2d_best"


class CheckMethod(Enum):
    """The sparsity checks: ``CHECK_1D`` and ``CHECK_2D``.

    Examples:
        >>> from pagaie.incubate.asp import CheckMethod, MaskAlgo
        >>> print(CheckMethod.get_checking_method(MaskAlgo.MASK_2D_BEST))
        CheckMethod.CHECK_2D
    """

    CHECK_1D = "check_mask_1d"
    CHECK_2D = "check_mask_2d"

    @staticmethod
    def get_checking_method(mask_algo: MaskAlgo) -> "CheckMethod":
        """The check that matches the mask algorithm ``mask_algo`` (1-D for ``MASK_1D``)."""
        if not isinstance(mask_algo, MaskAlgo):
            raise AssertionError("mask_algo should be MaskAlgo type")
        return CheckMethod.CHECK_1D if mask_algo == MaskAlgo.MASK_1D else CheckMethod.CHECK_2D


def calculate_density(x: np.ndarray) -> float:
    """The fraction of non-zero entries of ``x``.

    Args:
        x (numpy.ndarray): the array.

    Returns:
        float: non-zeros / size.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.incubate.asp.calculate_density(np.array([[0, 1, 3, 0], [1, 1, 0, 1]]))
        0.625
    """
    flat = x.flatten()
    return float(np.count_nonzero(flat)) / flat.size


def _as_2d(mat: np.ndarray) -> None:
    if len(mat.shape) != 2:
        raise AssertionError("The input mat should be a 2D matrix!")


def _row_groups(mat: np.ndarray, m: int) -> tuple[np.ndarray, tuple[int, int]]:
    """``mat`` zero-padded on the right to a multiple of ``m`` columns, as rows of ``m`` values,
    and the padded shape. Padding makes a float64 copy, as in Paddle."""
    _as_2d(mat)
    rem = mat.shape[1] % m
    if rem:
        padded = np.zeros((mat.shape[0], mat.shape[1] + m - rem))
        padded[:, :mat.shape[1]] = mat
        return padded.reshape(-1, m), padded.shape
    return mat.reshape(-1, m), mat.shape


def _blocks(mat: np.ndarray, m: int) -> tuple[np.ndarray, tuple[int, int]]:
    """The ``m x m`` blocks of ``mat`` (zero-padded to multiples of ``m``, float64), one
    row-major flattened block per row, blocks in row-major order; and the padded shape."""
    _as_2d(mat)
    rows = -(-mat.shape[0] // m) * m
    cols = -(-mat.shape[1] // m) * m
    padded = np.zeros((rows, cols))
    padded[:mat.shape[0], :mat.shape[1]] = mat
    flat = padded.reshape(rows // m, m, cols // m, m).transpose(0, 2, 1, 3).reshape(-1, m * m)
    return np.ascontiguousarray(flat), (rows, cols)


def _unblock(blocks: np.ndarray, shape: tuple[int, int], m: int, out: tuple[int, int]) -> np.ndarray:
    """Inverse of :func:`_blocks`, cropped to ``out``."""
    rows, cols = shape
    full = blocks.reshape(rows // m, cols // m, m, m).transpose(0, 2, 1, 3).reshape(rows, cols)
    return np.ascontiguousarray(full[:out[0], :out[1]])


def check_mask_1d(mat: np.ndarray, n: int, m: int) -> bool:
    """Whether every group of ``m`` consecutive values in each row of ``mat`` holds at least
    ``n`` zeros (the row is zero-padded to a multiple of ``m``; a 1-D ``mat`` is one row).

    Args:
        mat (numpy.ndarray): a 1-D or 2-D array.
        n (int): zeros required per group.
        m (int): group size.

    Returns:
        bool: True when ``mat`` follows the 1-D ``n:m`` pattern.

    Examples:
        >>> import numpy as np
        >>> import pagaie.incubate.asp as sparsity
        >>> sparsity.check_mask_1d(np.array([[0, 1, 3, 0], [1, 0, 0, 1]]), 2, 4)
        True
        >>> sparsity.check_mask_1d(np.array([[0, 1, 5, 4], [1, 0, 0, 1]]), 2, 4)
        False
    """
    if len(mat.shape) <= 1:
        mat = mat.reshape(1, mat.shape[0])
    groups, _ = _row_groups(mat, m)
    return not bool((np.count_nonzero(groups, axis=1) > m - n).any())


def get_mask_1d(mat: np.ndarray, n: int, m: int) -> np.ndarray:
    """The 1-D ``n:m`` mask of a 2-D array: in every group of ``m`` consecutive values of a
    row, the ``n`` smallest magnitudes get 0 and the others 1.

    Args:
        mat (numpy.ndarray): a 2-D array.
        n (int): values pruned per group.
        m (int): group size.

    Returns:
        numpy.ndarray: the mask, with ``mat``'s shape and dtype.

    Examples:
        >>> import numpy as np
        >>> import pagaie.incubate.asp as sparsity
        >>> print(sparsity.get_mask_1d(np.array([[0, 1, 5, 4], [2, 7, 3, 6]]), 2, 4))
        [[0 0 1 1]
         [0 1 0 1]]
    """
    groups, shape = _row_groups(mat, m)
    order = np.argsort(np.absolute(groups), axis=1)
    keep = np.ones_like(groups)
    np.put_along_axis(keep, order[:, :n], 0, axis=1)
    mask = np.ones_like(mat)
    mask[:, :] = keep.reshape(shape)[:, :mat.shape[1]]
    return mask


def check_mask_2d(mat: np.ndarray, n: int, m: int) -> bool:
    """Whether every ``m x m`` block of ``mat`` (zero-padded to multiples of ``m``) follows
    the 2-D ``n:m`` pattern. As in Paddle, a block fails only when some row *and* some column
    of it hold more than ``m - n`` non-zeros.

    Args:
        mat (numpy.ndarray): a 2-D array.
        n (int): zeros required per row and column of a block.
        m (int): block size.

    Returns:
        bool: True when every block passes.

    Examples:
        >>> import numpy as np
        >>> import pagaie.incubate.asp as sparsity
        >>> x = np.array([[0, 8, 9, 0], [9, 0, 0, 10], [5, 0, 0, 6], [0, 4, 6, 0]])
        >>> sparsity.check_mask_2d(x, 2, 4)
        True
    """
    blocks, _ = _blocks(mat, m)
    nz = (np.absolute(blocks) > 0).reshape(-1, m, m)
    bad_rows = (nz.sum(axis=2) > m - n).any(axis=1)
    bad_cols = (nz.sum(axis=1) > m - n).any(axis=1)
    return not bool((bad_rows & bad_cols).any())


def get_mask_2d_greedy(mat: np.ndarray, n: int, m: int) -> np.ndarray:
    """A 2-D ``n:m`` mask built greedily: in each ``m x m`` block, values are kept from the
    largest magnitude down while their row and column each hold fewer than ``n`` kept values.

    Args:
        mat (numpy.ndarray): a 2-D array.
        n (int): values kept per row and column of a block.
        m (int): block size.

    Returns:
        numpy.ndarray: the float64 mask, with ``mat``'s shape.

    Examples:
        >>> import numpy as np
        >>> import pagaie.incubate.asp as sparsity
        >>> mat = np.array([[9, 8, 3, 7], [9, 2, 1, 10], [5, 1, 3, 6], [2, 4, 6, 1]])
        >>> print(sparsity.get_mask_2d_greedy(mat, 2, 4))
        [[1. 1. 0. 0.]
         [1. 0. 0. 1.]
         [0. 0. 1. 1.]
         [0. 1. 1. 0.]]
    """
    blocks, shape = _blocks(mat, m)
    order = np.argsort(np.absolute(blocks), axis=1)
    nb = blocks.shape[0]
    idx = np.arange(nb)
    keep = np.zeros((nb, m, m))
    row_count = np.zeros((nb, m), dtype=np.int64)
    col_count = np.zeros((nb, m), dtype=np.int64)
    for k in range(m * m - 1, -1, -1):   # largest magnitude first
        r, c = order[:, k] // m, order[:, k] % m
        ok = (row_count[idx, r] < n) & (col_count[idx, c] < n)
        keep[idx[ok], r[ok], c[ok]] = 1.0
        row_count[idx[ok], r[ok]] += 1
        col_count[idx[ok], c[ok]] += 1
    return _unblock(keep, shape, m, mat.shape)


@functools.lru_cache(maxsize=None)
def _valid_2d_patterns(n: int, m: int) -> np.ndarray:
    """Every ``m x m`` 0/1 block whose rows each keep ``n`` values and whose columns keep at
    most ``n``, shape ``(K, m, m)``, enumerated in the order Paddle's search uses (which
    decides ties in :func:`get_mask_2d_best`)."""
    row = [1.0] * n + [0.0] * (m - n)
    rows = list(set(itertools.permutations(row)))
    cands = np.asarray(list(set(itertools.permutations(rows + rows, m))))
    return cands[(cands.sum(axis=1) <= n).all(axis=1)]


def get_mask_2d_best(mat: np.ndarray, n: int, m: int) -> np.ndarray:
    """The 2-D ``n:m`` mask that, block by block, picks the valid pattern with the largest
    sum of the kept values (as in Paddle, the signed values: prune magnitudes first with
    ``numpy.abs`` when weights can be negative).

    Args:
        mat (numpy.ndarray): a 2-D array.
        n (int): values kept per row of a block.
        m (int): block size.

    Returns:
        numpy.ndarray: the float64 mask, with ``mat``'s shape.

    Examples:
        >>> import numpy as np
        >>> import pagaie.incubate.asp as sparsity
        >>> mat = np.array([[2, 8, 9, 9], [9, 1, 3, 9], [5, 6, 3, 9], [2, 4, 6, 9]])
        >>> float((mat * sparsity.get_mask_2d_best(mat, 2, 4)).sum())
        61.0
    """
    patterns = _valid_2d_patterns(n, m)
    blocks, shape = _blocks(mat, m)
    best = np.argmax(np.matmul(blocks, patterns.reshape(patterns.shape[0], m * m).T), axis=1)
    return _unblock(patterns[best], shape, m, mat.shape)


_MASK_FUNCS = {MaskAlgo.MASK_1D: get_mask_1d, MaskAlgo.MASK_2D_GREEDY: get_mask_2d_greedy,
               MaskAlgo.MASK_2D_BEST: get_mask_2d_best}
_CHECK_FUNCS = {CheckMethod.CHECK_1D: check_mask_1d, CheckMethod.CHECK_2D: check_mask_2d}


def _as_matrix(t: np.ndarray, shape: tuple, api: str) -> np.ndarray:
    """The 2-D view the mask functions see: 3-D merges the leading axes; 4-D (a convolution
    kernel read as ``[.., .., rows, cols]``) groups along axis 2."""
    if len(shape) == 1:
        return t.reshape(1, shape[0])
    if len(shape) == 2:
        return t
    if len(shape) == 3:
        return t.reshape(shape[0] * shape[1], shape[2])
    if len(shape) == 4:
        return t.transpose([0, 1, 3, 2]).reshape(shape[0] * shape[1] * shape[3], shape[2])
    raise ValueError(f"paddle.incubate.asp.{api}: only tensors of 1 to 4 dimensions are "
                     f"supported, but got a tensor of {len(shape)} dimensions")


def create_mask(tensor: np.ndarray, func_name: MaskAlgo = MaskAlgo.MASK_1D, n: int = 2,
                m: int = 4) -> np.ndarray:
    """The ``n:m`` mask of an array of 1 to 4 dimensions, by the algorithm ``func_name``.

    Args:
        tensor (numpy.ndarray): the array.
        func_name (MaskAlgo, optional): the algorithm. Default ``MaskAlgo.MASK_1D``.
        n (int, optional): n of the pattern. Default 2.
        m (int, optional): m of the pattern. Default 4.

    Returns:
        numpy.ndarray: the mask, with ``tensor``'s shape and dtype.

    Examples:
        >>> import numpy as np
        >>> import pagaie.incubate.asp as sparsity
        >>> t = np.array([[2, 8, 9, 9], [9, 1, 3, 9], [5, 6, 3, 9], [2, 4, 6, 9]])
        >>> print(sparsity.create_mask(t, func_name=sparsity.MaskAlgo.MASK_2D_BEST))
        [[0 1 1 0]
         [1 0 0 1]
         [1 1 0 0]
         [0 0 1 1]]
    """
    shape, dtype = tensor.shape, tensor.dtype
    t = tensor.astype(float)
    if not isinstance(func_name, MaskAlgo):
        raise AssertionError("func_name argument of create_mask is only accepted as type "
                             f"MaskAlgo. But got {type(func_name)}")
    mask = _MASK_FUNCS[func_name](_as_matrix(t, shape, "create_mask"), n=n, m=m)
    if len(shape) == 4:
        mask = mask.reshape([shape[0], shape[1], shape[3], shape[2]]).transpose([0, 1, 3, 2])
    return mask.reshape(shape).astype(dtype)


def check_sparsity(tensor: np.ndarray, func_name: CheckMethod = CheckMethod.CHECK_1D, n: int = 2,
                   m: int = 4) -> bool:
    """Whether an array of 1 to 4 dimensions follows the ``n:m`` pattern checked by
    ``func_name`` (viewed as a matrix the way :func:`create_mask` views it).

    Args:
        tensor (numpy.ndarray): the array.
        func_name (CheckMethod, optional): the check. Default ``CheckMethod.CHECK_1D``.
        n (int, optional): n of the pattern. Default 2.
        m (int, optional): m of the pattern. Default 4.

    Returns:
        bool: the result of the check.

    Examples:
        >>> import numpy as np
        >>> import pagaie.incubate.asp as sparsity
        >>> mask = sparsity.create_mask(np.arange(1, 17).reshape(4, 4))
        >>> sparsity.check_sparsity(mask, func_name=sparsity.CheckMethod.CHECK_1D)
        True
    """
    shape = tensor.shape
    t = tensor.astype(float)
    if type(func_name) is not CheckMethod:
        raise AssertionError("func_name argument of check_sparsity is only accepted as type "
                             f"CheckMethod. But got {type(func_name)}")
    return _CHECK_FUNCS[func_name](_as_matrix(t, shape, "check_sparsity"), n=n, m=m)
