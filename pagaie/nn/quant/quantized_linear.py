"""Weight-only and LLM.int8 quantization (``paddle.nn.quant.quantized_linear``).

The kernels are op records in :mod:`pagaie._ops.quant_weight_ops` (its module docstring
states the quantization rule and the weight layouts). Paddle runs these only on GPUs
(``weight_quantize`` also on the CPU); pagaie runs them everywhere. Without ``arch`` the
layout is the current CUDA device's, or SM80's (A100) on a machine without one.
"""
from __future__ import annotations

from typing import Any

from pagaie._ops import quant_weight_ops as _ops

__all__: list[str] = []


def weight_quantize(x: Any, algo: str = "weight_only_int8", arch: int | None = None,
                    group_size: int = -1) -> tuple:
    """Quantize a float16 / bfloat16 weight ``[k, n]`` for weight-only or LLM.int8 GEMMs.

    Args:
        x (Tensor): the weight, float16 or bfloat16, 2-D ``[k, n]``.
        algo (str): ``'weight_only_int8'``, ``'weight_only_int4'`` or ``'llm.int8'``.
        arch (int, optional): target compute capability (70, 75, 80, 86, 89, 90, 100); it
            picks the layout of the weight-only output.
        group_size (int): -1 for one scale per output column, or 64 / 128 for one scale
            per group of input rows.

    Returns:
        tuple: ``(out, scale)``: ``out`` int8 ``[n, k]`` (``[n / 2, k]`` for int4, two
        levels a byte), ``scale`` ``[n]`` (or ``[ceil(k / group_size), n]``) in ``x``'s dtype
        (float32 for ``'llm.int8'``).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import weight_quantize
        >>> x = paddle.rand([64, 32]).astype('float16')
        >>> out, scale = weight_quantize(x, algo='weight_only_int8', arch=80)
        >>> out.shape, scale.shape
        (paddle.Size([32, 64]), paddle.Size([32]))
    """
    return _ops.weight_quantize(x, algo, arch, group_size)


def weight_dequantize(x: Any, scale: Any, algo: str = "weight_only_int8", out_dtype: Any = "float16",
                      group_size: int = -1) -> Any:
    """Undo :func:`weight_quantize`: the float weight ``[k, n]`` in ``scale``'s dtype.

    The weight-only layouts are read as the current device's (SM80's without CUDA), as
    :func:`weight_quantize` writes them by default.

    Args:
        x (Tensor): the int8 output of :func:`weight_quantize`.
        scale (Tensor): its scale.
        algo (str): the algorithm ``x`` was quantized with.
        out_dtype (str): unused (deprecated in Paddle: the output has ``scale``'s dtype).
        group_size (int): the group size ``x`` was quantized with.

    Returns:
        Tensor: the dequantized weight.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import weight_quantize, weight_dequantize
        >>> x = paddle.rand([64, 32]).astype('float16')
        >>> out, scale = weight_quantize(x)
        >>> w = weight_dequantize(out, scale)
        >>> w.shape, bool((w - x).astype('float32').abs().max() < 0.01)
        (paddle.Size([64, 32]), True)
    """
    return _ops.weight_dequantize(x, scale, algo, out_dtype, group_size)


def weight_only_linear(x: Any, weight: Any, bias: Any = None, weight_scale: Any = None,
                       weight_dtype: str = "int8", arch: int | None = None,
                       group_size: int = -1) -> Any:
    """``x @ dequantize(weight) + bias`` with a weight from :func:`weight_quantize`.

    Args:
        x (Tensor): the activations ``[..., k]`` (float16 / bfloat16 in Paddle).
        weight (Tensor): the int8 weight in ``arch``'s layout (``[n, k]``, ``[n / 2, k]`` int4).
        bias (Tensor, optional): ``[n]``, added to the product.
        weight_scale (Tensor): the weight's scale.
        weight_dtype (str): ``'int8'`` or ``'int4'``.
        arch (int, optional): the layout ``weight`` was quantized for.
        group_size (int): the group size of ``weight_scale``.

    Returns:
        Tensor: ``[..., n]`` in ``x``'s dtype (accumulated in float32).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import weight_quantize, weight_only_linear
        >>> w = paddle.rand([64, 32]).astype('float16')
        >>> qw, s = weight_quantize(w, arch=80)
        >>> x = paddle.rand([2, 64]).astype('float16')
        >>> weight_only_linear(x, qw, weight_scale=s, arch=80).shape
        paddle.Size([2, 32])
    """
    return _ops.weight_only_linear(x, weight, bias, weight_scale, weight_dtype, arch, group_size)


def llm_int8_linear(x: Any, weight: Any, bias: Any = None, weight_scale: Any = None,
                    threshold: float = 6.0) -> Any:
    """LLM.int8() matmul: int8 product for regular features, float for outliers.

    Input features (columns of ``x``) holding a value with ``|v| >= threshold`` are
    outliers: they multiply the dequantized weight in float. The other features are
    quantized per row (``absmax / 127``, rounding half away from zero), multiplied with
    the int8 weight and rescaled by the row and weight scales.

    Args:
        x (Tensor): activations ``[..., k]``.
        weight (Tensor): int8 ``[n, k]`` from ``weight_quantize(..., algo='llm.int8')``.
        bias (Tensor, optional): ``[n]``.
        weight_scale (Tensor): float32 ``[n]``.
        threshold (float): the outlier threshold.

    Returns:
        Tensor: ``[..., n]`` in ``x``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import weight_quantize, llm_int8_linear
        >>> w = paddle.rand([64, 32]).astype('float16')
        >>> qw, s = weight_quantize(w, algo='llm.int8')
        >>> llm_int8_linear(paddle.rand([2, 64]).astype('float16'), qw, weight_scale=s).shape
        paddle.Size([2, 32])
    """
    return _ops.llm_int8_linear(x, weight, bias, weight_scale, threshold)


def apply_per_channel_scale(x: Any, scales: Any) -> Any:
    """Multiply each channel (last axis) of ``x`` by its pre-quantization scale.

    Args:
        x (Tensor): activations ``[..., c]``.
        scales (Tensor): ``[c]``.

    Returns:
        Tensor: ``x * scales`` in ``x``'s dtype.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.quant import apply_per_channel_scale
        >>> apply_per_channel_scale(paddle.ones([2, 3]), paddle.to_tensor([1.0, 2.0, 3.0])).tolist()
        [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    """
    return _ops.apply_per_channel_scale(x, scales)
