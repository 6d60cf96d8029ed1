"""``jacobian`` and ``hessian`` (Paddle 3's lazy ``Jacobian`` / ``Hessian`` objects).

A Jacobian is computed row by row on demand: indexing it (``J[:]``, ``J[0]``,
``J[:, 2]``) evaluates only the rows the index selects, one vector-Jacobian product
each, and caches them. Rows are built with ``create_graph=True`` so results can
be differentiated again (that is how a Hessian is the Jacobian of a gradient).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import torch

from pagaie._core.tensor import Tensor, require_grad, wrap

__all__ = ["jacobian", "hessian", "Jacobian", "Hessian"]


def _check_batch_axis(batch_axis: Any, api: str) -> None:
    if batch_axis is not None and batch_axis != 0:
        raise ValueError(f"paddle.autograd.{api}: batch_axis should be None or 0, but got "
                         f"{batch_axis}.")


class Jacobian:
    """The Jacobian of ``ys`` with respect to ``xs``, evaluated lazily by indexing.

    Without batching, ``ys`` has shape ``[]`` or ``[M]`` and ``xs`` ``[]`` or ``[N]``
    (more axes are flattened); the matrix is ``[M, N]`` (``[N]`` for a 0-D ``ys``).
    With ``batch_axis=0`` both lead with a batch axis ``B`` and the result is ``[B, M, N]``.

    Attributes:
        shape (list[int]): the shape of the full Jacobian.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> J = paddle.autograd.jacobian(x * x, x)
        >>> J.shape
        [2, 2]
        >>> J[:].tolist()
        [[2.0, 0.0], [0.0, 4.0]]
    """

    def __init__(self, ys: Tensor, xs: Tensor, is_batched: bool = False) -> None:
        self._batched = is_batched
        y, x = ys._t, xs._t
        nd_ok = (1, 2) if is_batched else (0, 1)
        # Paddle checks xs first without a batch axis, ys first with one.
        for arg, t in ((("ys", y), ("xs", x)) if is_batched else (("xs", x), ("ys", y))):
            if t.dim() not in nd_ok:
                self._fail(arg, t, is_batched)
        self._y = y
        self._x = x
        # values of a program being built: rows are backward ops (static.gradients) over them
        self._symbolic = y.is_meta or x.is_meta
        self._ys, self._xs = ys, xs
        if is_batched:
            b = x.shape[0]  # as Paddle: the batch size is that of xs
            self._m = y.shape[1] if y.dim() == 2 else 0
            self._n = x.shape[1] if x.dim() == 2 else 0
            self.shape = [b] + ([self._m] if y.dim() == 2 else []) + ([self._n] if x.dim() == 2 else [])
            self._rows_axis = 1 if y.dim() == 2 else None
        else:
            self._m = y.numel() if y.dim() == 1 else 0
            self._n = x.numel() if x.dim() >= 1 else 0
            self.shape = ([self._m] if y.dim() == 1 else []) + ([self._n] if x.dim() >= 1 else [])
            self._rows_axis = 0 if y.dim() == 1 else None
        self._rows: dict[int, torch.Tensor] = {}

    @staticmethod
    def _fail(arg: str, t: torch.Tensor, batched: bool) -> None:
        allowed = "1 or 2" if batched else "0 or 1"
        raise ValueError(f"paddle.autograd.jacobian: {arg}.ndim should be {allowed} when "
                         f"is_batched={batched} but got {t.dim()}")

    def _grad(self, out: Any) -> Any:
        """d(out)/d(xs), zeros where xs is unused, keeping the graph for higher orders."""
        if self._symbolic:
            import pagaie
            g = None
            if not (out.stop_gradient or self._xs.stop_gradient):
                (g,) = pagaie.static.gradients([out], [self._xs])
            return pagaie.zeros_like(self._xs) if g is None else g
        if not (out.requires_grad and self._x.requires_grad):
            # as Paddle: zeros where ys does not depend on xs, also when xs stops gradient
            return torch.zeros_like(self._x)
        (g,) = torch.autograd.grad(out, self._x, retain_graph=True, create_graph=True,
                                   allow_unused=True)
        return torch.zeros_like(self._x) if g is None else g

    def _row(self, i: int | None) -> torch.Tensor:
        """Row ``i`` of the Jacobian (the whole thing for a 0-D/1-D-batched ``ys``)."""
        key = -1 if i is None else i
        r = self._rows.get(key)
        if r is None:
            y = self._ys if self._symbolic else self._y   # (the same methods either way)
            if self._batched:
                out = (y if i is None else y[:, i]).sum()
                r = self._grad(out)
                r = r.reshape([r.shape[0], -1]) if self._x.dim() == 2 else r
            else:
                out = y if i is None else y.reshape([-1])[i]
                r = self._grad(out).reshape([-1]) if self._x.dim() >= 1 else self._grad(out)
            if not self._symbolic and not r.requires_grad and self._x.requires_grad:
                # Paddle's Jacobian entries do not stop gradient, constant ones included, unless
                # xs itself stops gradient.
                r = require_grad(r.detach())
            self._rows[key] = r
        return r

    def _full_rows(self, rows: Sequence[int]) -> Any:
        if not rows:   # an empty selection (or an empty ys): no row to differentiate
            shape = list(self.shape)
            shape[self._rows_axis] = 0
            empty = torch.zeros(shape, dtype=self._x.dtype, device=self._x.device)
            return require_grad(empty) if self._x.requires_grad else empty
        if self._symbolic:
            import pagaie
            return pagaie.stack([self._row(i) for i in rows], axis=self._rows_axis)
        return torch.stack([self._row(i) for i in rows], dim=self._rows_axis)

    def __getitem__(self, index: Any) -> Tensor:
        idx = self._parse_index(index)
        ax = self._rows_axis
        if ax is None or len(idx) <= ax:
            return self._evaluate_all()[idx]
        sel = idx[ax]
        if isinstance(sel, int) and not isinstance(sel, bool):
            if not -self._m <= sel < self._m:
                raise IndexError(f"paddle.autograd.Jacobian: index {sel} is out of range for "
                                 f"axis {ax} of size {self._m} (Jacobian shape {self.shape})")
            rest = idx[:ax] + idx[ax + 1:]
            block = wrap(self._row(sel % self._m))
            return block[rest] if rest else block
        if isinstance(sel, slice):
            # only the selected rows are evaluated; the other axes are indexed as a Tensor is
            block = wrap(self._full_rows(range(self._m)[sel]))
            return block[idx[:ax] + (slice(None),) + idx[ax + 1:]]
        return wrap(self._full_rows(range(self._m)))[idx]

    def _parse_index(self, index: Any) -> tuple:
        """``index`` as a tuple of ints and slices, checked as Paddle's Jacobian checks it."""
        _check_index(index)
        if not self.shape:
            raise IndexError("paddle.autograd.Jacobian: a 0-D Jacobian cannot be indexed")
        several = isinstance(index, tuple)
        if several and len(self.shape) == 1:
            raise TypeError(f"paddle.autograd.Jacobian: a Jacobian of shape {self.shape} takes one "
                            f"int or slice as its index, but got {index!r}")
        idx = tuple(index) if several else (index,)
        if len(idx) > len(self.shape):
            raise IndexError(f"paddle.autograd.Jacobian: too many indices ({len(idx)}) for a "
                             f"Jacobian of shape {self.shape}")
        return idx

    def _evaluate_all(self) -> Tensor:
        """The whole matrix as a Tensor (every row evaluated)."""
        if self._rows_axis is None:
            return wrap(self._row(None))
        return wrap(self._full_rows(range(self._m)))

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        """The fully evaluated matrix as a numpy array (``np.asarray(J)``), as in Paddle."""
        return self._evaluate_all().__array__(dtype)

    def __getattr__(self, name: str) -> Any:
        # As in Paddle, other attributes (dtype, numpy, stop_gradient, sum...) are those of
        # the fully evaluated matrix.
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._evaluate_all(), name)

    def __repr__(self) -> str:
        return f"<paddle.autograd.Jacobian shape={self.shape}>"


def _operator(op: str) -> Any:
    def method(self: Jacobian, other: Any) -> Any:
        rhs = other._evaluate_all() if isinstance(other, Jacobian) else other
        return getattr(self._evaluate_all(), op)(rhs)
    method.__name__ = op
    method.__doc__ = f"``{op}`` of the fully evaluated matrix."
    return method


# Arithmetic and comparisons work on the evaluated matrix, as Paddle's Jacobian does.
for _op in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__mod__", "__floordiv__",
            "__matmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(Jacobian, _op, _operator(_op))
Jacobian.__div__ = Jacobian.__truediv__  # type: ignore[attr-defined]
Jacobian.__hash__ = None  # type: ignore[assignment]


class Hessian(Jacobian):
    """The Hessian of a scalar ``ys`` (one per batch row with ``batch_axis=0``) with respect
    to ``xs``: the Jacobian of its gradient, evaluated lazily by indexing.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> H = paddle.autograd.hessian((x * x * x).sum(), x)
        >>> H[:].tolist()
        [[6.0, 0.0], [0.0, 12.0]]
    """

    def __init__(self, ys: Tensor, xs: Tensor, is_batched: bool = False) -> None:
        ys = _scalar_ys(ys, is_batched)
        g = Jacobian(ys, xs, is_batched)._row(None)
        super().__init__(wrap(g), xs, is_batched)

    @classmethod
    def _of_gradient(cls, grad: Tensor, xs: Tensor, is_batched: bool) -> Hessian:
        """The Hessian block d(grad)/d(xs), ``grad`` being a gradient already computed."""
        h = cls.__new__(cls)
        Jacobian.__init__(h, grad, xs, is_batched)
        return h

    def __repr__(self) -> str:
        return f"<paddle.autograd.Hessian shape={self.shape}>"


def _scalar_ys(ys: Tensor, batched: bool) -> Tensor:
    """The ``ys`` of a Hessian as Paddle reads it: one element (per batch row with a batch
    axis, whatever ys's shape), reshaped to ``[]`` (``[B]``)."""
    y = ys._t
    if batched:
        if y.dim() == 0:
            raise IndexError("paddle.autograd.hessian: with batch_axis=0, ys must have a batch "
                             "axis to index, but ys is a 0-D tensor")
        if y[0].numel() != 1:
            raise ValueError(f"paddle.autograd.hessian: with batch_axis=0, ys must hold one element "
                             f"per batch row (ys[0].numel() == 1), but ys has shape {list(y.shape)}")
        return ys if y.dim() == 1 else ys.reshape([-1])
    if y.numel() != 1:
        raise ValueError(f"Only support ys.numel()({y.numel()})==1 when batch_axis is None "
                         "(paddle.autograd.hessian needs a scalar ys)")
    return ys if y.dim() == 0 else ys.reshape([])


def _check_index(index: Any) -> None:
    """Paddle indexes a Jacobian with ints and slices only: Ellipsis is its IndexError, any
    other index (None, a list, a Tensor, a numpy integer) its TypeError."""
    for i in ([index] if isinstance(index, list) else index if isinstance(index, tuple) else (index,)):
        if i is Ellipsis:
            raise IndexError("paddle.autograd.Jacobian: an Ellipsis index is not supported; "
                             "index with ints and slices")
        if not isinstance(i, (int, slice)):
            raise TypeError(f"paddle.autograd.Jacobian: an index of type {type(i).__name__} is not "
                            "supported; index with ints and slices")


def _as_seq(v: Any, api: str, arg: str) -> tuple[list, bool]:
    if isinstance(v, Tensor):
        return [v], False
    if isinstance(v, (list, tuple)) and all(isinstance(e, Tensor) for e in v):
        return list(v), True
    # Paddle's exception types: an array-like (it has a shape) reaches paddle.grad's
    # AssertionError; anything else fails reading its shape (AttributeError)
    bad = next((e for e in v if not isinstance(e, Tensor)), v) if isinstance(v, (list, tuple)) else v
    error = AssertionError if isinstance(bad, np.ndarray) else AttributeError
    raise error(f"paddle.autograd.{api}: {arg} should be a Tensor or a tuple of Tensors, but "
                f"received {type(v).__name__}")


def jacobian(ys: Tensor | Sequence[Tensor], xs: Tensor | Sequence[Tensor],
             batch_axis: int | None = None) -> Any:
    """Jacobians of ``ys`` with respect to ``xs``, evaluated lazily when indexed.

    Args:
        ys (Tensor|tuple[Tensor]): outputs, each 0-D or 1-D (1-D or 2-D with a batch axis).
        xs (Tensor|tuple[Tensor]): inputs with ``stop_gradient=False``.
        batch_axis (int, optional): None (no batch) or 0 (axis 0 is a batch axis).

    Returns:
        Jacobian, a tuple of them (when one of ``ys``/``xs`` is a tuple), or a tuple of
        tuples ``J[i][j]`` for ``ys[i]``, ``xs[j]`` (when both are).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        >>> J = paddle.autograd.jacobian(x * 2, x)
        >>> J[0].tolist()
        [2.0, 0.0, 0.0]
    """
    _check_batch_axis(batch_axis, "jacobian")
    batched = batch_axis is not None
    ys_l, ys_seq = _as_seq(ys, "jacobian", "ys")
    xs_l, xs_seq = _as_seq(xs, "jacobian", "xs")
    table = tuple(tuple(Jacobian(y, x, batched) for x in xs_l) for y in ys_l)
    return _shape_result(table, ys_seq, xs_seq)


def hessian(ys: Tensor, xs: Tensor | Sequence[Tensor], batch_axis: int | None = None) -> Any:
    """Hessians of a scalar ``ys`` with respect to ``xs``, evaluated lazily when indexed.

    Args:
        ys (Tensor): a scalar output (any shape of one element; one element per batch
            row with a batch axis: ``[B]``, ``[B, 1]``...).
        xs (Tensor|tuple[Tensor]): inputs with ``stop_gradient=False``.
        batch_axis (int, optional): None or 0.

    Returns:
        Hessian, or a tuple of tuples ``H[i][j]`` (d2 ys / dxs[i] dxs[j]) when ``xs`` is a tuple.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        >>> H = paddle.autograd.hessian((x * x).sum(), x)
        >>> H[:].tolist()
        [[2.0, 0.0], [0.0, 2.0]]
    """
    if batch_axis is not None and not isinstance(batch_axis, int):
        # (jacobian takes any value equal to 0; hessian wants an int)
        raise ValueError(f"paddle.autograd.hessian: batch_axis should be None or int, but got "
                         f"{type(batch_axis)}.")
    _check_batch_axis(batch_axis, "hessian")
    batched = batch_axis is not None
    if not isinstance(ys, Tensor):
        # Paddle fails reading its number of elements
        raise AttributeError(f"paddle.autograd.hessian: ys should be a Tensor, but received "
                             f"{type(ys).__name__}")
    xs_l, xs_seq = _as_seq(xs, "hessian", "xs")
    if not xs_seq:
        return Hessian(ys, xs_l[0], batched)
    ys = _scalar_ys(ys, batched)
    out = []
    for xi in xs_l:
        gi = Jacobian(ys, xi, batched)._row(None)
        out.append(tuple(Hessian._of_gradient(wrap(gi), xj, batched) for xj in xs_l))
    return tuple(out)


def _shape_result(table: tuple, ys_seq: bool, xs_seq: bool) -> Any:
    if ys_seq and xs_seq:
        return table
    if ys_seq:
        return tuple(row[0] for row in table)
    if xs_seq:
        return table[0]
    return table[0][0]
