"""Binary arithmetic ops and the Python operators of ``Tensor`` built on them."""
from __future__ import annotations

import torch

from pagaie._core.registry import defop
from pagaie._core.tensor import Tensor
from pagaie._ops._helpers import check_binary_dtypes

_T = torch.Tensor

__all__ = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "mod",
           "floor_mod", "pow"]


@defop(amp="promote", paddle_types=("elementwise_add", "add", "pd_op.add"),
       inplace=lambda x, y, name=None: x.add_(y))
def add(x, y, name=None):
    """Elementwise ``x + y`` with broadcasting.

    Args:
        x (Tensor): the first operand.
        y (Tensor|scalar): the second operand.
        name (str, optional): unused, for Paddle compatibility.

    Returns:
        Tensor: the sum.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.add(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])).tolist()
        [4.0, 6.0]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("add", x, y)
    return torch.add(x, y)


@defop(paddle_types=("elementwise_sub", "subtract", "pd_op.subtract"),
       inplace=lambda x, y, name=None: x.sub_(y))
def subtract(x, y, name=None):
    """Elementwise ``x - y`` with broadcasting.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.subtract(paddle.to_tensor([3.0]), paddle.to_tensor([1.0])).tolist()
        [2.0]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("subtract", x, y)
    return torch.sub(x, y)


@defop(paddle_types=("elementwise_mul", "multiply", "pd_op.multiply"),
       inplace=lambda x, y, name=None: x.mul_(y))
def multiply(x, y, name=None):
    """Elementwise ``x * y`` with broadcasting.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.multiply(paddle.to_tensor([2.0]), paddle.to_tensor([3.0])).tolist()
        [6.0]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("multiply", x, y)
    return torch.mul(x, y)


@defop(paddle_types=("elementwise_div", "divide", "pd_op.divide"), inplace=True)
def divide(x, y, rounding_mode=None, name=None):
    """Elementwise true division ``x / y``; integer inputs give a float result.

    Args:
        x (Tensor): dividend.
        y (Tensor|scalar): divisor.
        rounding_mode (str, optional): None (true division), ``'trunc'`` or ``'floor'``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.divide(paddle.to_tensor([3.0]), paddle.to_tensor([2.0])).tolist()
        [1.5]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("divide", x, y)
    return torch.div(x, y, rounding_mode=rounding_mode)


@defop(paddle_types=("elementwise_floordiv", "floor_divide", "pd_op.floor_divide"),
       inplace=True, differentiable=False)
def floor_divide(x, y, name=None):
    """Elementwise floor division ``x // y``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.floor_divide(paddle.to_tensor([7, -7]), paddle.to_tensor([2, 2])).tolist()
        [3, -4]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("floor_divide", x, y)
    if type(y) is torch.Tensor and not (y.is_floating_point() or y.is_complex()) and bool((y == 0).any()):
        raise ZeroDivisionError("paddle.floor_divide: integer division by zero")
    return torch.floor_divide(x, y)


@defop(paddle_types=("elementwise_mod", "remainder", "pd_op.remainder"), inplace=True)
def remainder(x, y, name=None):
    """Elementwise remainder with the sign of the divisor (Python's ``%``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.remainder(paddle.to_tensor([5, -5]), paddle.to_tensor([3, 3])).tolist()
        [2, 1]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("remainder", x, y)
    return torch.remainder(x, y)


mod = remainder
floor_mod = remainder


@defop(paddle_types=("elementwise_pow", "pow", "pd_op.pow"), inplace=True)
def pow(x, y, name=None):
    """Elementwise power ``x ** y``; ``y`` is a scalar or a Tensor.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.pow(paddle.to_tensor([2.0, 3.0]), 2).tolist()
        [4.0, 9.0]
    """
    if type(x) is _T and type(y) is _T and x.dtype is not y.dtype:
        check_binary_dtypes("pow", x, y)
    return torch.pow(x, y)


def _reflected(fn):
    def op(self, other):
        return fn(other, self)
    op.__name__ = f"r{fn.__name__}"
    return op


def _matmul_op(self, other):
    from pagaie._ops.linalg_basic import matmul
    return matmul(self, other)


for _name, _fn in (("add", add), ("sub", subtract), ("mul", multiply), ("truediv", divide),
                   ("div", divide), ("floordiv", floor_divide), ("mod", remainder), ("pow", pow)):
    setattr(Tensor, f"__{_name}__", _fn)
    setattr(Tensor, f"__r{_name}__", _reflected(_fn))
Tensor.mod = Tensor.floor_mod = remainder
Tensor.mod_ = Tensor.floor_mod_ = remainder.inplace
