"""Invertible transforms of random variables, with their log-det-Jacobians.

A transform maps ``x`` (its *domain*) to ``y = f(x)`` (its *codomain*); each side has an
``event_rank``: how many rightmost axes form one event (``SoftmaxTransform`` works on vectors,
so its rank is 1). ``TransformedDistribution`` uses these to push densities through ``f``.
"""
from __future__ import annotations

import enum
import math
import typing
from typing import Any, Sequence

import pagaie as P
from pagaie._core.tensor import Tensor
from pagaie.distribution._base import sum_rightmost
from pagaie.distribution import constraint as _constraint
from pagaie.distribution.variable import Independent as _Independent
from pagaie.distribution.variable import Stack as _Stack
from pagaie.distribution.variable import Variable as _Variable
from pagaie.distribution.variable import positive as _positive
from pagaie.distribution.variable import real as _real

__all__ = ["Transform", "AbsTransform", "AffineTransform", "ChainTransform", "ExpTransform",
           "IndependentTransform", "PowerTransform", "ReshapeTransform", "SigmoidTransform",
           "SoftmaxTransform", "StackTransform", "StickBreakingTransform", "TanhTransform"]


def _F():
    return P.nn.functional


class Type(enum.Enum):
    """How a transform maps its domain: bijection, injection, surjection or other."""

    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, kind: "Type") -> bool:
        return kind in (cls.BIJECTION, cls.INJECTION)


def _need_tensor(v: Any, arg: str, api: str) -> None:
    if not isinstance(v, Tensor):
        raise TypeError(f"paddle.distribution.{api}: '{arg}' must be a Tensor, but received "
                        f"{type(v).__name__}")


class Transform:
    r"""Base class of transforms ``y = f(x)``.

    Subclasses implement ``_forward``, ``_inverse`` and one of ``_forward_log_det_jacobian``
    / ``_inverse_log_det_jacobian`` (the other follows), plus ``_forward_shape`` /
    ``_inverse_shape`` when they change shapes. Calling a transform on a tensor applies
    ``forward``; on a distribution it gives a ``TransformedDistribution``; on another
    transform, a ``ChainTransform``.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.ExpTransform()
        >>> t(paddle.to_tensor([0.0, 1.0])).tolist()
        [1.0, 2.7182817459106445]
    """

    _type = Type.INJECTION

    def __init__(self) -> None:
        super().__init__()

    @classmethod
    def _is_injective(cls) -> bool:
        return Type.is_injective(cls._type)

    def __call__(self, input: Any) -> Any:
        from pagaie.distribution._base import Distribution
        from pagaie.distribution.transformed import TransformedDistribution
        if isinstance(input, Distribution):
            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def _api(self, method: str) -> str:
        return f"{type(self).__name__}.{method}"

    def _check_value(self, v: Any, method: str) -> None:
        """Raise unless ``v`` (``x`` for forward methods, ``y`` for inverse ones) is a Tensor
        with at least the event rank of the transform's domain (codomain)."""
        forward = method.startswith("forward")
        arg = "x" if forward else "y"
        _need_tensor(v, arg, self._api(method))
        rank = (self._domain if forward else self._codomain).event_rank
        if v.dim() < rank:
            raise ValueError(f"paddle.distribution.{self._api(method)}: the dimensions of "
                             f"{arg} ({v.dim()}) should be greater than or equal to {rank}")

    def _no_log_det_jacobian(self) -> NotImplementedError:
        return NotImplementedError("paddle.distribution.Transform: neither "
                                   "_forward_log_det_jacobian nor _inverse_log_det_jacobian is "
                                   "implemented; one of them is required")

    def forward(self, x: Tensor) -> Tensor:
        """``y = f(x)``."""
        self._check_value(x, "forward")
        return self._forward(x)

    def inverse(self, y: Tensor) -> Tensor:
        """``x = f^{-1}(y)``."""
        self._check_value(y, "inverse")
        return self._inverse(y)

    def forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        """``log|det J_f(x)|``, summed over the domain's event axes."""
        self._check_value(x, "forward_log_det_jacobian")
        if not self._is_injective():
            raise NotImplementedError(f"paddle.distribution.{self._api('forward_log_det_jacobian')}"
                                      ": forward_log_det_jacobian can't be implemented for "
                                      "non-injective transforms")
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return -self._inverse_log_det_jacobian(self.forward(x))
        raise self._no_log_det_jacobian()

    def inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        """``log|det J_{f^{-1}}(y)|``."""
        self._check_value(y, "inverse_log_det_jacobian")
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return -self._forward_log_det_jacobian(self._inverse(y))
        raise self._no_log_det_jacobian()

    def _check_shape(self, shape: Any, method: str) -> None:
        if not isinstance(shape, typing.Sequence):
            raise TypeError(f"paddle.distribution.{self._api(method)}: 'shape' must be "
                            f"a Sequence[int], but received {type(shape).__name__}")

    def forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        """The shape of ``forward(x)`` for an ``x`` of shape ``shape``."""
        self._check_shape(shape, "forward_shape")
        return self._forward_shape(shape)

    def inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        """The shape of ``inverse(y)`` for a ``y`` of shape ``shape``."""
        self._check_shape(shape, "inverse_shape")
        return self._inverse_shape(shape)

    @property
    def _domain(self) -> _Variable:
        return _real

    @property
    def _codomain(self) -> _Variable:
        return _real

    def _forward(self, x: Tensor) -> Tensor:
        raise NotImplementedError("paddle.distribution.Transform: forward is not implemented")

    def _inverse(self, y: Tensor) -> Tensor:
        raise NotImplementedError("paddle.distribution.Transform: inverse is not implemented")

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return shape

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return shape


class AbsTransform(Transform):
    r"""``y = |x|``. Not injective: ``inverse(y)`` returns both preimages ``(-y, y)``.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.AbsTransform()
        >>> t.forward(paddle.to_tensor([-1.0, 2.0])).tolist()
        [1.0, 2.0]
        >>> [v.tolist() for v in t.inverse(paddle.to_tensor([1.0]))]
        [[-1.0], [1.0]]
    """

    _type = Type.SURJECTION

    def _forward(self, x: Tensor) -> Tensor:
        return x.abs()

    def _inverse(self, y: Tensor) -> tuple:
        return -y, y

    def _inverse_log_det_jacobian(self, y: Tensor) -> tuple:
        zero = P.zeros([], dtype=y.dtype)
        return zero, zero

    @property
    def _codomain(self) -> _Variable:
        return _positive


class AffineTransform(Transform):
    r"""``y = loc + scale * x``.

    Args:
        loc (Tensor): the shift.
        scale (Tensor): the scale.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.AffineTransform(paddle.to_tensor(1.0), paddle.to_tensor(2.0))
        >>> t.forward(paddle.to_tensor([1.0])).tolist(), t.inverse(paddle.to_tensor([3.0])).tolist()
        ([3.0], [1.0])
    """

    _type = Type.BIJECTION

    def __init__(self, loc: Tensor, scale: Tensor) -> None:
        _need_tensor(loc, "loc", "AffineTransform")
        _need_tensor(scale, "scale", "AffineTransform")
        self._loc = loc
        self._scale = scale
        super().__init__()

    @property
    def loc(self) -> Tensor:
        """Tensor: the shift."""
        return self._loc

    @property
    def scale(self) -> Tensor:
        """Tensor: the scale."""
        return self._scale

    def _forward(self, x: Tensor) -> Tensor:
        return self._loc + self._scale * x

    def _inverse(self, y: Tensor) -> Tensor:
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return P.abs(self._scale).log()

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        s = P.broadcast_shape(list(shape), list(self._loc.shape))
        return tuple(P.broadcast_shape(s, list(self._scale.shape)))

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    r"""The composition of ``transforms``, applied first to last.

    Args:
        transforms (Sequence[Transform]): the transforms.

    Examples:
        >>> import pagaie as paddle
        >>> D = paddle.distribution
        >>> t = D.ChainTransform([D.AffineTransform(paddle.to_tensor(0.0), paddle.to_tensor(2.0)),
        ...                       D.ExpTransform()])
        >>> round(t.forward(paddle.to_tensor([1.0])).item(), 4)
        7.3891
    """

    def __init__(self, transforms: Sequence[Transform]) -> None:
        if not isinstance(transforms, typing.Sequence):
            raise TypeError("paddle.distribution.ChainTransform: 'transforms' must be a Sequence, "
                            f"but received {type(transforms).__name__}")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("paddle.distribution.ChainTransform: all elements of 'transforms' "
                            "should be Transform instances")
        self.transforms = transforms
        super().__init__()

    def _is_injective(self) -> bool:
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x: Tensor) -> Tensor:
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y: Tensor) -> Tensor:
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        value = 0.0
        rank = self._domain.event_rank
        for t in self.transforms:
            value += sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            x = t.forward(x)
            rank += t._codomain.event_rank - t._domain.event_rank
        return value

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        for t in self.transforms:
            shape = t.inverse_shape(shape)
        return shape

    @property
    def _domain(self) -> _Variable:
        domain = self.transforms[0]._domain
        rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            rank -= t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._domain.event_rank)
        return _Independent(domain, rank - domain.event_rank)

    @property
    def _codomain(self) -> _Variable:
        codomain = self.transforms[-1]._codomain
        rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            rank += t._codomain.event_rank - t._domain.event_rank
            rank = max(rank, t._codomain.event_rank)
        return _Independent(codomain, rank - codomain.event_rank)


class ExpTransform(Transform):
    r"""``y = exp(x)``.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.ExpTransform()
        >>> t.forward_log_det_jacobian(paddle.to_tensor([2.0])).tolist()
        [2.0]
    """

    _type = Type.BIJECTION

    @property
    def _codomain(self) -> _Variable:
        return _positive

    def _forward(self, x: Tensor) -> Tensor:
        return x.exp()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return x


class IndependentTransform(Transform):
    r"""``base`` with ``reinterpreted_batch_rank`` more rightmost axes counted as the event:
    the log-det-Jacobian is summed over them.

    Args:
        base (Transform): the transform.
        reinterpreted_batch_rank (int): how many batch axes join the event, > 0.

    Examples:
        >>> import pagaie as paddle
        >>> D = paddle.distribution
        >>> t = D.IndependentTransform(D.ExpTransform(), 1)
        >>> t.forward_log_det_jacobian(paddle.to_tensor([[1.0, 2.0]])).tolist()
        [3.0]
    """

    def __init__(self, base: Transform, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Transform):
            raise TypeError("paddle.distribution.IndependentTransform: 'base' must be a "
                            f"Transform, but received {type(base).__name__}")
        if reinterpreted_batch_rank <= 0:
            raise ValueError("paddle.distribution.IndependentTransform: "
                             "'reinterpreted_batch_rank' must be greater than zero, but received "
                             f"{reinterpreted_batch_rank}")
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__()

    def _is_injective(self) -> bool:
        return self._base._is_injective()

    def _forward(self, x: Tensor) -> Tensor:
        return self._base.forward(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._base.forward_log_det_jacobian(x).sum(
            list(range(-self._reinterpreted_batch_rank, 0)))

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._base.inverse_shape(shape)

    @property
    def _domain(self) -> _Variable:
        return _Independent(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self) -> _Variable:
        return _Independent(self._base._codomain, self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    r"""``y = x ** power``.

    Args:
        power (Tensor): the exponent.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.PowerTransform(paddle.to_tensor(2.0))
        >>> t.forward(paddle.to_tensor([3.0])).tolist(), t.inverse(paddle.to_tensor([4.0])).tolist()
        ([9.0], [2.0])
    """

    _type = Type.BIJECTION

    def __init__(self, power: Tensor) -> None:
        _need_tensor(power, "power", "PowerTransform")
        self._power = power
        super().__init__()

    @property
    def power(self) -> Tensor:
        """Tensor: the exponent."""
        return self._power

    @property
    def _codomain(self) -> _Variable:
        return _positive

    def _forward(self, x: Tensor) -> Tensor:
        return x.pow(self._power)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.pow(1 / self._power)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return (self._power * x.pow(self._power - 1)).abs().log()

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return tuple(P.broadcast_shape(list(shape), list(self._power.shape)))

    _inverse_shape = _forward_shape


class ReshapeTransform(Transform):
    r"""Reshapes the event from ``in_event_shape`` to ``out_event_shape`` (same size).

    Args:
        in_event_shape (Sequence[int]): the input event shape.
        out_event_shape (Sequence[int]): the output event shape.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.ReshapeTransform((2, 3), (3, 2))
        >>> t.forward(paddle.ones([4, 2, 3])).shape, t.forward_shape((4, 2, 3))
        (paddle.Size([4, 3, 2]), (4, 3, 2))
    """

    _type = Type.BIJECTION

    def __init__(self, in_event_shape: Sequence[int], out_event_shape: Sequence[int]) -> None:
        if not isinstance(in_event_shape, typing.Sequence) or \
                not isinstance(out_event_shape, typing.Sequence):
            raise TypeError("paddle.distribution.ReshapeTransform: 'in_event_shape' and "
                            "'out_event_shape' must be Sequence[int], but received "
                            f"{in_event_shape!r} and {out_event_shape!r}")
        n_in, n_out = math.prod(in_event_shape), math.prod(out_event_shape)
        if n_in != n_out:
            raise ValueError("paddle.distribution.ReshapeTransform: the numel of "
                             "'in_event_shape' should equal that of 'out_event_shape', but got "
                             f"{n_in} != {n_out}")
        self._in_event_shape = tuple(in_event_shape)
        self._out_event_shape = tuple(out_event_shape)
        super().__init__()

    @property
    def in_event_shape(self) -> tuple:
        """tuple: the input event shape."""
        return self._in_event_shape

    @property
    def out_event_shape(self) -> tuple:
        """tuple: the output event shape."""
        return self._out_event_shape

    @property
    def _domain(self) -> _Variable:
        return _Independent(_real, len(self._in_event_shape))

    @property
    def _codomain(self) -> _Variable:
        return _Independent(_real, len(self._out_event_shape))

    def _forward(self, x: Tensor) -> Tensor:
        return x.reshape(tuple(x.shape)[:x.dim() - len(self._in_event_shape)] + self._out_event_shape)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.reshape(tuple(y.shape)[:y.dim() - len(self._out_event_shape)] + self._in_event_shape)

    @staticmethod
    def _swap_event(shape: Sequence[int], old: tuple, new: tuple, which: str) -> tuple:
        if len(shape) < len(old):
            raise ValueError(f"paddle.distribution.ReshapeTransform.{which}: expected the length "
                             f"of 'shape' to be at least {len(old)}, but got {len(shape)}")
        # Paddle slices with -len(old): an empty event shape then takes the whole shape as its
        # tail (only () matches) and leaves no batch part.
        tail = tuple(shape[-len(old):])
        if tail != old:
            raise ValueError(f"paddle.distribution.ReshapeTransform.{which}: event shape "
                             f"mismatch, expected {old}, but got {tail}")
        return tuple(shape[:-len(old)]) + new

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._swap_event(shape, self._in_event_shape, self._out_event_shape, "forward_shape")

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._swap_event(shape, self._out_event_shape, self._in_event_shape, "inverse_shape")

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return P.zeros(list(x.shape[:x.dim() - len(self._in_event_shape)]), dtype=x.dtype)


class SigmoidTransform(Transform):
    r"""``y = 1 / (1 + exp(-x))``.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.SigmoidTransform()
        >>> t.forward(paddle.to_tensor([0.0])).tolist(), t.inverse(paddle.to_tensor([0.5])).tolist()
        ([0.5], [0.0])
    """

    @property
    def _codomain(self) -> _Variable:
        return _Variable(False, 0, _constraint.Range(0.0, 1.0))

    def _forward(self, x: Tensor) -> Tensor:
        return _F().sigmoid(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log() - (-y).log1p()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        F = _F()
        return -F.softplus(-x) - F.softplus(x)


class SoftmaxTransform(Transform):
    r"""``y = softmax(x)`` over the last axis (not injective; ``inverse`` returns ``log(y)``).

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.SoftmaxTransform()
        >>> t.forward(paddle.to_tensor([0.0, 0.0])).tolist()
        [0.5, 0.5]
    """

    _type = Type.OTHER

    @property
    def _domain(self) -> _Variable:
        return _Independent(_real, 1)

    @property
    def _codomain(self) -> _Variable:
        return _Variable(False, 1, _constraint.simplex)

    def _forward(self, x: Tensor) -> Tensor:
        e = (x - x.max(-1, keepdim=True)[0]).exp()
        return e / e.sum(-1, keepdim=True)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def _check_rank(self, shape: Sequence[int]) -> Sequence[int]:
        if len(shape) < 1:
            raise ValueError("paddle.distribution.SoftmaxTransform: expected the length of shape "
                             f"to be at least 1, but got {len(shape)}")
        return shape

    _forward_shape = _inverse_shape = _check_rank


class StackTransform(Transform):
    r"""Applies ``transforms[i]`` to slice ``i`` along ``axis``.

    Args:
        transforms (Sequence[Transform]): one transform per slice.
        axis (int, optional): the axis to split. Default 0.

    Examples:
        >>> import pagaie as paddle
        >>> D = paddle.distribution
        >>> t = D.StackTransform([D.ExpTransform(), D.PowerTransform(paddle.to_tensor(2.0))], 1)
        >>> t.forward(paddle.to_tensor([[0.0, 3.0]])).tolist()
        [[1.0, 9.0]]
    """

    def __init__(self, transforms: Sequence[Transform], axis: int = 0) -> None:
        if not transforms or not isinstance(transforms, typing.Sequence):
            raise TypeError("paddle.distribution.StackTransform: 'transforms' must be a non-empty "
                            f"Sequence[Transform], but received {type(transforms).__name__}")
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("paddle.distribution.StackTransform: all elements of 'transforms' "
                            "should be Transform instances")
        if not isinstance(axis, int):
            raise TypeError("paddle.distribution.StackTransform: 'axis' must be an int, but "
                            f"received {type(axis).__name__}")
        self._transforms = transforms
        self._axis = axis

    def _is_injective(self) -> bool:
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self) -> Sequence[Transform]:
        """Sequence[Transform]: the transforms."""
        return self._transforms

    @property
    def axis(self) -> int:
        """int: the stacking axis."""
        return self._axis

    def _map(self, v: Tensor, method: str) -> Tensor:
        if not -v.dim() <= self._axis < v.dim():
            raise ValueError(f"paddle.distribution.StackTransform: input dimensions {v.dim()} "
                             f"should be greater than the stack transform axis {self._axis}")
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(f"paddle.distribution.StackTransform: input size along axis "
                             f"{self._axis} ({v.shape[self._axis]}) should equal the number of "
                             f"transforms ({len(self._transforms)})")
        parts = P.unstack(v, self._axis)
        return P.stack([getattr(t, method)(p) for p, t in zip(parts, self._transforms)], self._axis)

    def _forward(self, x: Tensor) -> Tensor:
        return self._map(x, "forward")

    def _inverse(self, y: Tensor) -> Tensor:
        return self._map(y, "inverse")

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._map(x, "forward_log_det_jacobian")

    @property
    def _domain(self) -> _Variable:
        return _Stack([t._domain for t in self._transforms], self._axis)

    @property
    def _codomain(self) -> _Variable:
        return _Stack([t._codomain for t in self._transforms], self._axis)


class StickBreakingTransform(Transform):
    r"""Maps ``R^K`` onto the ``K+1``-simplex by stick breaking.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.StickBreakingTransform()
        >>> y = t.forward(paddle.to_tensor([0.0, 0.0]))
        >>> y.shape, round(y.sum().item(), 4)
        (paddle.Size([3]), 1.0)
    """

    _type = Type.BIJECTION

    @staticmethod
    def _log_offset(k: int) -> Tensor:
        return (k + 1 - P.ones([k]).cumsum(-1)).log()

    def _forward(self, x: Tensor) -> Tensor:
        F = _F()
        z = F.sigmoid(x - self._log_offset(x.shape[-1]))
        rest = (1 - z).cumprod(-1)
        lead = [0] * 2 * (x.ndim - 1)
        return F.pad(z, lead + [0, 1], value=1) * F.pad(rest, lead + [1, 0], value=1)

    def _inverse(self, y: Tensor) -> Tensor:
        head = y[..., :-1]
        offset = y.shape[-1] - P.ones([head.shape[-1]]).cumsum(-1)
        return head.log() - (1 - head.cumsum(-1)).log() + offset.log()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        y = self.forward(x)
        x = x - self._log_offset(x.shape[-1])
        return (-x + _F().log_sigmoid(x) + y[..., :-1].log()).sum(-1)

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        if not shape:
            raise ValueError(f"paddle.distribution.StickBreakingTransform: 'shape' must not be "
                             f"empty, but received {shape}")
        return (*shape[:-1], shape[-1] + 1)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        if not shape:
            raise ValueError(f"paddle.distribution.StickBreakingTransform: 'shape' must not be "
                             f"empty, but received {shape}")
        return (*shape[:-1], shape[-1] - 1)

    @property
    def _domain(self) -> _Variable:
        return _Independent(_real, 1)

    @property
    def _codomain(self) -> _Variable:
        return _Variable(False, 1, _constraint.simplex)


class TanhTransform(Transform):
    r"""``y = tanh(x)``.

    Examples:
        >>> import pagaie as paddle
        >>> t = paddle.distribution.TanhTransform()
        >>> t.forward_log_det_jacobian(paddle.to_tensor([0.0])).tolist()
        [0.0]
    """

    _type = Type.BIJECTION

    @property
    def _codomain(self) -> _Variable:
        return _Variable(False, 0, _constraint.Range(-1.0, 1.0))

    def _forward(self, x: Tensor) -> Tensor:
        return x.tanh()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.atanh()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        # log(1 - tanh(x)^2), written stably.
        return 2.0 * (math.log(2.0) - x - _F().softplus(-2.0 * x))
