"""Quantization ops: simulated (fake) quantization and linear quantize / dequantize.

Symmetric uniform quantization with ``bin = 2**(bit_length - 1) - 1`` levels each side:
a value ``x`` with scale ``s`` maps to ``q = round(x * bin / s)`` and back to
``q * s / bin``. Two rounding rules exist, as in Paddle's kernels (``round_type``):

- ``0``: round half to even, then clip ``q`` to ``[-bin - 1, bin]``;
- ``1``: clip ``x`` to ``[-s, s]`` first, then round half away from zero.

``1 / s`` is taken as ``1 / (s + 1e-6)`` for ``s <= 1e-30`` so a zero scale gives zeros,
not NaN. The fake-quantize op passes gradients straight through (``dx = dout``).

These records are not part of the top-level namespace; :mod:`pagaie.quantization`
uses them. The moving-average op updates its scale / accumulator / state arguments in
place (like batch norm's running statistics), so the layers holding them need no
mode-dependent code.
"""
from __future__ import annotations

import torch

from pagaie._core.registry import NoKernelError, defop

__all__: list[str] = []  # internal ops: nothing goes to the top-level namespace


def _inverse(s: torch.Tensor) -> torch.Tensor:
    return torch.where(s <= 1e-30, 1.0 / (s + 1e-6), 1.0 / s)


def _round_half_away(v: torch.Tensor) -> torch.Tensor:
    t = torch.trunc(v)
    return torch.where((v - t).abs() >= 0.5, t + torch.sign(v), t)


def _per_axis(s: torch.Tensor, ndim: int, axis: int) -> torch.Tensor:
    """Broadcast a per-channel scale along ``axis`` of an ``ndim``-D tensor."""
    if axis < 0 or s.numel() == 1:
        return s.reshape(())
    shape = [1] * ndim
    shape[axis] = -1
    return s.reshape(shape)


def _quant(x: torch.Tensor, s: torch.Tensor, bin_cnt: int, round_type: int) -> torch.Tensor:
    """The integer levels of ``x`` (as floats) under scale ``s``."""
    k = bin_cnt * _inverse(s)
    if round_type == 0:
        return torch.clamp(torch.round(k * x), -bin_cnt - 1, bin_cnt)
    return _round_half_away(k * torch.minimum(torch.maximum(x, -s), s))


def _qdq(x: torch.Tensor, s: torch.Tensor, bit_length: int, round_type: int) -> torch.Tensor:
    bin_cnt = (1 << (bit_length - 1)) - 1
    s = s.to(x.dtype)
    return _quant(x, s, bin_cnt, round_type) * s / bin_cnt


class _StraightThrough(torch.autograd.Function):
    """Fake quantize-dequantize whose gradient is the identity."""

    @staticmethod
    def forward(ctx, x, scale, bit_length, round_type):  # noqa: D102
        return _qdq(x, scale, bit_length, round_type)

    @staticmethod
    def backward(ctx, grad):  # noqa: D102
        return grad, None, None, None


def _check_bits(bit_length, api: str) -> None:
    if not isinstance(bit_length, int) or isinstance(bit_length, bool) or not 2 <= bit_length <= 16:
        raise ValueError(f"paddle.{api}: 'bit_length' must be an int in [2, 16], but received "
                         f"{bit_length!r}")


@defop(method=False, amp="white", amp_inputs=("x",),
       writes_args=("in_scale", "in_accum", "in_state"),
       paddle_types=("fake_quantize_dequantize_moving_average_abs_max",
                     "pd_op.fake_quantize_dequantize_moving_average_abs_max"))
def fake_quantize_dequantize_moving_average_abs_max(x, in_scale, in_accum=None, in_state=None,
                                                    moving_rate=0.9, bit_length=8, is_test=False,
                                                    round_type=1, name=None):
    """Simulate quantization with a moving-average abs-max scale; straight-through gradient.

    In training (``is_test=False``) the statistics advance first::

        state = rate * state + 1
        accum = rate * accum + max(|x|)
        scale = accum / state

    (written into ``in_state``, ``in_accum`` and ``in_scale`` in place), then ``x`` is
    quantized and dequantized with the new scale. With ``is_test=True`` the given
    ``in_scale`` is used and nothing is updated.

    Args:
        x (Tensor): the input.
        in_scale (Tensor): the current scale, shape ``[1]``.
        in_accum (Tensor, optional): the accumulator, ``[1]``; needed in training.
        in_state (Tensor, optional): the state (a decayed count), ``[1]``; needed in training.
        moving_rate (float): the decay rate of the moving average.
        bit_length (int): the number of bits of a quantized value.
        is_test (bool): use ``in_scale`` without updating the statistics.
        round_type (int): 0 (half to even) or 1 (clip, then half away from zero).
        name (str, optional): unused.

    Returns:
        tuple: ``(out, out_scale, out_state, out_accum)``; in test mode the last three
        are the given ``in_scale``, ``in_state`` and ``in_accum``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.quant_ops import fake_quantize_dequantize_moving_average_abs_max as fq
        >>> x = paddle.to_tensor([-1.0, 0.25, 0.5])
        >>> scale, accum, state = paddle.to_tensor([0.001]), paddle.ones([1]), paddle.ones([1])
        >>> out, s, st, acc = fq(x, scale, accum, state)
        >>> st.tolist(), acc.tolist()
        ([1.899999976158142], [1.899999976158142])
        >>> [round(v, 4) for v in out.tolist()]
        [-1.0, 0.252, 0.5039]
        >>> scale.tolist()  # updated in place
        [1.0]
    """
    api = "quantization.fake_quantize_dequantize_moving_average_abs_max"
    _check_bits(bit_length, api)
    if not x.is_floating_point():
        # Paddle has no kernel for other dtypes and says so with a RuntimeError
        raise NoKernelError(f"paddle.{api}: 'x' must be a floating tensor, but received "
                            f"{str(x.dtype).replace('torch.', '')}")
    if is_test:
        out = _StraightThrough.apply(x, in_scale.detach().reshape(()), bit_length, round_type)
        return out, in_scale, in_state, in_accum
    if in_accum is None or in_state is None:
        raise ValueError(f"paddle.{api}: 'in_accum' and 'in_state' are required in training "
                         "(is_test=False)")
    with torch.no_grad():
        cur = x.detach().abs().max().to(in_accum.dtype) if x.numel() else in_accum.new_zeros(())
        state = moving_rate * in_state + 1
        accum = moving_rate * in_accum + cur
        scale = (accum / state).to(in_scale.dtype)
        in_state.copy_(state)
        in_accum.copy_(accum)
        in_scale.copy_(scale.reshape(in_scale.shape))
    out = _StraightThrough.apply(x, scale.reshape(()), bit_length, round_type)
    return out, scale.reshape(in_scale.shape).clone(), state.clone(), accum.clone()


def _levels(bit_length, qmax):
    return int(qmax) if qmax is not None else (1 << (bit_length - 1)) - 1


@defop(method=False, differentiable=False, paddle_types=("quantize_linear", "pd_op.quantize_linear"))
def quantize_linear(x, scale, zero_point=None, quant_axis=-1, bit_length=8, qmin=None, qmax=None,
                    round_type=0, name=None):
    """Quantize ``x`` to integer levels (stored in ``x``'s float dtype).

    ``q = clip(round(x * qmax / scale), -qmax - 1, qmax)`` with ``qmax`` defaulting to
    ``2**(bit_length - 1) - 1``; the scale is per tensor (``quant_axis=-1``) or one value
    per slice along ``quant_axis``. The zero point is accepted and ignored (symmetric
    quantization), as in Paddle's kernel; so is ``qmin``.

    Args:
        x (Tensor): the input.
        scale (Tensor): the scale(s): one value, or ``x.shape[quant_axis]`` values.
        zero_point (Tensor, optional): ignored.
        quant_axis (int): the channel axis of a per-channel scale, or -1.
        bit_length (int): bits of a quantized value.
        qmin (int, optional): ignored (the lower bound is ``-qmax - 1``).
        qmax (int, optional): the largest level.
        round_type (int): 0 (half to even) or 1 (clip, then half away from zero).
        name (str, optional): unused.

    Returns:
        Tensor: the levels, same shape and dtype as ``x``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.quant_ops import quantize_linear
        >>> quantize_linear(paddle.to_tensor([0.5, -2.0, 0.001]), paddle.to_tensor(1.0)).tolist()
        [64.0, -128.0, 0.0]
    """
    _check_bits(bit_length, "quantization.quantize_linear")
    b = _levels(bit_length, qmax)
    s = _per_axis(scale.detach().to(x.dtype), x.ndim, quant_axis)
    return _quant(x.detach(), s, b, round_type)  # no gradient, as in Paddle


@defop(method=False, differentiable=False,
       paddle_types=("dequantize_linear", "pd_op.dequantize_linear"))
def dequantize_linear(x, scale, zero_point=None, quant_axis=-1, bit_length=8, qmin=None, qmax=None,
                      name=None):
    """Map integer levels back to values: ``x * scale / qmax``.

    Args:
        x (Tensor): the levels (any float dtype).
        scale (Tensor): the scale(s), per tensor or along ``quant_axis``.
        zero_point (Tensor, optional): ignored (symmetric quantization).
        quant_axis (int): the channel axis of a per-channel scale, or -1.
        bit_length (int): bits of a quantized value.
        qmin (int, optional): ignored.
        qmax (int, optional): the largest level; default ``2**(bit_length - 1) - 1``.
        name (str, optional): unused.

    Returns:
        Tensor: the dequantized values.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.quant_ops import dequantize_linear
        >>> dequantize_linear(paddle.to_tensor([127.0, -64.0]), paddle.to_tensor(2.0)).tolist()
        [2.0, -1.0078740119934082]
    """
    _check_bits(bit_length, "quantization.dequantize_linear")
    b = _levels(bit_length, qmax)
    # no gradient, as in Paddle
    return x.detach() * _per_axis(scale.detach().to(x.dtype), x.ndim, quant_axis) / b
