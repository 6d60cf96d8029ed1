"""paddle.nn.init: PyTorch-style in-place initialisation functions over ``paddle.nn.initializer``.

Each function fills ``tensor`` in place and returns None (Paddle's eager behaviour).
"""
from __future__ import annotations

from typing import Any

import torch

from pagaie.nn.initializer import (  # noqa: F401  (calculate_gain is re-exported, as in Paddle)
    Constant, Dirac, KaimingNormal, KaimingUniform, Normal, Orthogonal, TruncatedNormal, Uniform,
    XavierNormal, XavierUniform, calculate_gain,
)

__all__: list[str] = []


def kaiming_uniform_(tensor: Any, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu") -> None:
    """Fill ``tensor`` in place from Kaiming (He) uniform: ``U(-b, b)`` with
    ``b = gain * sqrt(3 / fan)``.

    Args:
        tensor (Tensor): the tensor to fill.
        a (float): the negative slope of the rectifier after this layer. Default 0.
        mode (str): ``'fan_in'`` or ``'fan_out'``. Default ``'fan_in'``.
        nonlinearity (str): the nonlinearity the gain is computed for. Default ``'leaky_relu'``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([64, 32])
        >>> paddle.nn.init.kaiming_uniform_(w)
        >>> bool(w.abs().max() <= (6.0 / 64) ** 0.5)
        True
    """
    return KaimingUniform(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def kaiming_normal_(tensor: Any, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu") -> None:
    """Fill ``tensor`` in place from Kaiming (He) normal: ``N(0, (gain / sqrt(fan))^2)``.

    Args:
        tensor (Tensor): the tensor to fill.
        a (float): the negative slope of the rectifier after this layer. Default 0.
        mode (str): ``'fan_in'`` or ``'fan_out'``. Default ``'fan_in'``.
        nonlinearity (str): the nonlinearity the gain is computed for. Default ``'leaky_relu'``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([256, 128])
        >>> paddle.nn.init.kaiming_normal_(w)
        >>> round(float(w.std()), 1)
        0.1
    """
    return KaimingNormal(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def xavier_uniform_(tensor: Any, gain: float = 1.0, fan_in: float | None = None,
                    fan_out: float | None = None) -> None:
    """Fill ``tensor`` in place from Xavier (Glorot) uniform:
    ``U(-b, b)`` with ``b = gain * sqrt(6 / (fan_in + fan_out))``.

    Args:
        tensor (Tensor): the tensor to fill.
        gain (float): scaling factor. Default 1.0.
        fan_in (float, optional): fan-in; inferred from the shape when None.
        fan_out (float, optional): fan-out; inferred from the shape when None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([3, 5])
        >>> paddle.nn.init.xavier_uniform_(w)
        >>> bool(w.abs().max() <= (6.0 / 8) ** 0.5)
        True
    """
    return XavierUniform(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def xavier_normal_(tensor: Any, gain: float = 1.0, fan_in: float | None = None,
                   fan_out: float | None = None) -> None:
    """Fill ``tensor`` in place from Xavier (Glorot) normal:
    ``N(0, gain^2 * 2 / (fan_in + fan_out))``.

    Args:
        tensor (Tensor): the tensor to fill.
        gain (float): scaling factor. Default 1.0.
        fan_in (float, optional): fan-in; inferred from the shape when None.
        fan_out (float, optional): fan-out; inferred from the shape when None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([300, 500])
        >>> paddle.nn.init.xavier_normal_(w)
        >>> round(float(w.std()), 2)
        0.05
    """
    return XavierNormal(gain=gain, fan_in=fan_in, fan_out=fan_out)(tensor)


def uniform_(tensor: Any, a: float = 0.0, b: float = 1.0) -> None:
    """Fill ``tensor`` in place from ``U(a, b)``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([100])
        >>> paddle.nn.init.uniform_(w, 2.0, 3.0)
        >>> bool(w.min() >= 2.0 and w.max() <= 3.0)
        True
    """
    return Uniform(low=a, high=b)(tensor)


def normal_(tensor: Any, mean: float = 0.0, std: float = 1.0) -> None:
    """Fill ``tensor`` in place from ``N(mean, std^2)``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([200, 200])
        >>> paddle.nn.init.normal_(w, 5.0, 0.1)
        >>> round(float(w.mean()), 1)
        5.0
    """
    return Normal(mean=mean, std=std)(tensor)


def trunc_normal_(tensor: Any, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0) -> None:
    """Fill ``tensor`` in place from ``N(mean, std^2)`` truncated to ``[a, b]``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([1000])
        >>> paddle.nn.init.trunc_normal_(w, a=-0.5, b=0.5)
        >>> bool(w.abs().max() <= 0.5)
        True
    """
    return TruncatedNormal(mean=mean, std=std, a=a, b=b)(tensor)


def constant_(tensor: Any, val: float) -> None:
    """Fill ``tensor`` in place with ``val``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([2])
        >>> paddle.nn.init.constant_(w, 0.5)
        >>> w.tolist()
        [0.5, 0.5]
    """
    return Constant(value=val)(tensor)


def ones_(tensor: Any) -> None:
    """Fill ``tensor`` in place with ones.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([2])
        >>> paddle.nn.init.ones_(w)
        >>> w.tolist()
        [1.0, 1.0]
    """
    return Constant(value=1.0)(tensor)


def zeros_(tensor: Any) -> None:
    """Fill ``tensor`` in place with zeros.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.ones([2])
        >>> paddle.nn.init.zeros_(w)
        >>> w.tolist()
        [0.0, 0.0]
    """
    return Constant(value=0.0)(tensor)


def dirac_(tensor: Any, groups: int = 1) -> None:
    """Fill the 3-D/4-D/5-D ``tensor`` in place with the Dirac delta (identity convolution).

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.ones([2, 2, 1])
        >>> paddle.nn.init.dirac_(w)
        >>> w[:, :, 0].tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    return Dirac(groups=groups)(tensor)


def eye_(tensor: Any) -> None:
    """Fill the 2-D ``tensor`` in place with the identity matrix.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.ones([2, 3])
        >>> paddle.nn.init.eye_(w)
        >>> w.tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    if len(tensor.shape) != 2:
        raise AssertionError(f"paddle.nn.init.eye_: only 2-D tensors are supported, but got "
                             f"{len(tensor.shape)}-D")
    t = tensor._t
    with torch.no_grad():
        t.copy_(torch.eye(t.shape[0], t.shape[1], dtype=t.dtype, device=t.device))
    return None


def orthogonal_(tensor: Any, gain: float = 1) -> None:
    """Fill ``tensor`` (2-D or more) in place with a (semi-)orthogonal matrix times ``gain``.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.zeros([3, 3])
        >>> paddle.nn.init.orthogonal_(w)
        >>> bool(paddle.allclose(w @ w.T, paddle.eye(3), atol=1e-5))
        True
    """
    return Orthogonal(gain=gain)(tensor)
