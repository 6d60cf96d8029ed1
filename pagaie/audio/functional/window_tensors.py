"""PyTorch-style window creators (``paddle.hann_window``, ``hamming_window``, ``kaiser_window``,
``blackman_window``, ``bartlett_window``): :func:`get_window` plus the creation keywords
``dtype``, ``device``, ``pin_memory`` and ``requires_grad``.

    >>> import pagaie.audio.functional.window_tensors as wt
    >>> wt.hann_window(4).numpy().tolist()
    [0.0, 0.5, 1.0, 0.5]
"""
from __future__ import annotations

import warnings
from typing import Any

import pagaie
from pagaie._core.place import to_torch_device
from pagaie._core.tensor import Tensor
from pagaie.audio.functional.window import get_window

__all__ = ["hann_window", "hamming_window", "kaiser_window", "blackman_window", "bartlett_window"]


def _finish(w: Tensor, api: str, layout: str | None, device: Any, pin_memory: bool,
            requires_grad: bool) -> Tensor:
    if layout is not None:
        warnings.warn("layout only supports 'strided' in Paddle; ignored")
    if device is not None:
        w = w.to(device=device)
    if pin_memory:
        if to_torch_device(w.place, api).type == "cpu":
            raise RuntimeError(f"Pinning memory is not supported for {w.place} ({api}: 'pin_memory' "
                               "needs a GPU place)")
        w = w.cpu().pin_memory()
    if requires_grad is True:
        w.stop_gradient = False
    return w


def hann_window(window_length: int, periodic: bool = True, *, dtype: str = "float32",
                layout: str | None = None, device: Any = None, pin_memory: bool = False,
                requires_grad: bool = False) -> Tensor:
    """The Hann window ``0.5 - 0.5 cos(2 pi n / N)``.

    Args:
        window_length (int): number of samples.
        periodic (bool, optional): periodic (True) or symmetric (False) window. Default: True.
        dtype (str, optional): floating dtype. Default: 'float32'.
        layout (str, optional): ignored (only strided tensors exist).
        device (PlaceLike, optional): where to create it. Default: the current device.
        pin_memory (bool, optional): page-locked host memory (needs a GPU place).
        requires_grad (bool, optional): make it a gradient leaf (``stop_gradient=False``).

    Returns:
        Tensor: shape ``[window_length]``.

    Examples:
        >>> import pagaie.audio.functional.window_tensors as wt
        >>> wt.hann_window(5, periodic=False).numpy().tolist()
        [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    w = get_window("hann", window_length, fftbins=periodic, dtype=dtype)
    return _finish(w, "paddle.hann_window", layout, device, pin_memory, requires_grad)


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype: str = "float32", layout: str | None = None, device: Any = None,
                   pin_memory: bool = False, requires_grad: bool = False) -> Tensor:
    """The generalised Hamming window ``alpha - beta cos(2 pi n / N)``.

    Args:
        window_length (int): number of samples.
        periodic (bool, optional): periodic (True) or symmetric (False) window. Default: True.
        alpha (float, optional): constant term. Default: 0.54.
        beta (float, optional): cosine coefficient. Default: 0.46.
        dtype, layout, device, pin_memory, requires_grad: as in :func:`hann_window`.

    Returns:
        Tensor: shape ``[window_length]``.

    Examples:
        >>> import pagaie.audio.functional.window_tensors as wt
        >>> wt.hamming_window(3, periodic=False, dtype='float64').numpy().round(2).tolist()
        [0.08, 1.0, 0.08]
    """
    w0 = get_window("hamming", window_length, fftbins=periodic, dtype=dtype)
    scale = beta / 0.46
    w = (alpha - scale * 0.54) + scale * w0
    return _finish(w, "paddle.hamming_window", layout, device, pin_memory, requires_grad)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype: str = "float32",
                  layout: str | None = None, device: Any = None, pin_memory: bool = False,
                  requires_grad: bool = False) -> Tensor:
    """The Kaiser window ``I0(beta sqrt(1 - (2n/N - 1)^2)) / I0(beta)``.

    Args:
        window_length (int): number of samples.
        periodic (bool, optional): periodic (True) or symmetric (False) window. Default: True.
        beta (float, optional): shape parameter. Default: 12.0.
        dtype, layout, device, pin_memory, requires_grad: as in :func:`hann_window`.

    Returns:
        Tensor: shape ``[window_length]``.

    Examples:
        >>> import pagaie.audio.functional.window_tensors as wt
        >>> wt.kaiser_window(3, periodic=False, dtype='float64').numpy().round(4).tolist()
        [0.0001, 1.0, 0.0001]
    """
    w = get_window(("kaiser", beta), window_length, fftbins=periodic, dtype=dtype)
    return _finish(w, "paddle.kaiser_window", layout, device, pin_memory, requires_grad)


def blackman_window(window_length: int, periodic: bool = True, *, dtype: str = "float32",
                    layout: str | None = None, device: Any = None, pin_memory: bool = False,
                    requires_grad: bool = False) -> Tensor:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)``.

    Args:
        window_length (int): number of samples.
        periodic (bool, optional): periodic (True) or symmetric (False) window. Default: True.
        dtype, layout, device, pin_memory, requires_grad: as in :func:`hann_window`.

    Returns:
        Tensor: shape ``[window_length]``.

    Examples:
        >>> import pagaie.audio.functional.window_tensors as wt
        >>> wt.blackman_window(3, periodic=False).numpy().round(4).tolist()
        [-0.0, 1.0, -0.0]
    """
    w = get_window("blackman", window_length, fftbins=periodic, dtype=dtype)
    return _finish(w, "paddle.blackman_window", layout, device, pin_memory, requires_grad)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype: str = "float32",
                    layout: str | None = None, device: Any = None, pin_memory: bool = False,
                    requires_grad: bool = False) -> Tensor:
    """The Bartlett (triangular, zero at the ends) window.

    Args:
        window_length (int): number of samples.
        periodic (bool, optional): periodic (True) or symmetric (False) window. Default: True.
        dtype, layout, device, pin_memory, requires_grad: as in :func:`hann_window`.

    Returns:
        Tensor: shape ``[window_length]``.

    Examples:
        >>> import pagaie.audio.functional.window_tensors as wt
        >>> wt.bartlett_window(5, periodic=False).numpy().tolist()
        [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    w = get_window("bartlett", window_length, fftbins=periodic, dtype=dtype)
    return _finish(w, "paddle.bartlett_window", layout, device, pin_memory, requires_grad)
