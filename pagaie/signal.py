"""paddle.signal: short-time Fourier transform and its inverse, framing and overlap-add.

    >>> import pagaie as paddle
    >>> x = paddle.to_tensor([[float(i % 5) for i in range(64)]])
    >>> spec = paddle.signal.stft(x, n_fft=16)
    >>> spec.shape
    paddle.Size([1, 9, 17])
    >>> paddle.signal.istft(spec, n_fft=16).shape
    paddle.Size([1, 64])
"""
from __future__ import annotations

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.bad_input import type_name
from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import kernel_dtypes

__all__ = ["stft", "istft"]


def _int_arg(api: str, arg: str, v, exc: type) -> int:
    """An integer argument; Paddle rejects a float one (even 16.0) with ``exc``, and what is
    not a number (its arithmetic fails) with TypeError."""
    if not isinstance(v, (int, float, np.integer, np.floating, np.bool_, torch.Tensor)):
        raise TypeError(f"paddle.signal.{api}: '{arg}' must be an integer, but received "
                        f"{type(v).__name__} {v!r}")
    if isinstance(v, (float, np.floating)) or (
            isinstance(v, torch.Tensor) and (v.is_floating_point() or v.is_complex())):
        raise exc(f"paddle.signal.{api}: '{arg}' must be an integer, but received {v!r}")
    return int(v)


def _frames(api: str, n_fft: int, hop_length, win_length, window):
    n_fft = _int_arg(api, "n_fft", n_fft, TypeError)
    if hop_length is not None:
        hop_length = _int_arg(api, "hop_length", hop_length, ValueError)
    if win_length is not None:
        win_length = _int_arg(api, "win_length", win_length, TypeError)
    hop = n_fft // 4 if hop_length is None else int(hop_length)
    win = n_fft if win_length is None else int(win_length)
    if hop <= 0:
        raise AssertionError(f"paddle.signal.{api}: 'hop_length' must be positive, but received {hop}")
    if not 0 < win <= n_fft:
        raise AssertionError(f"paddle.signal.{api}: 'win_length' must be in (0, n_fft({n_fft})], but received {win}")
    if window is not None and not isinstance(window, torch.Tensor):
        # Paddle reads ``window.shape`` first (AttributeError); a numpy array has one and then
        # fails in stft's multiply (ValueError) or istft's type check (TypeError)
        kind = AttributeError if not isinstance(window, np.ndarray) else ValueError if api == "stft" \
            else TypeError
        raise kind(f"paddle.signal.{api}: argument 'window' must be Tensor, but got "
                   f"{type_name(window)}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise AssertionError(f"paddle.signal.{api}: 'window' must be 1-D of length win_length({win}), but "
                             f"received shape {list(window.shape)}")
    return n_fft, hop, win


# the dtypes of x that Paddle's CPU padding and framing kernels do not take
_NO_STFT_KERNEL = (torch.float16, torch.bfloat16, torch.bool, torch.int8, torch.int16, torch.uint8)


@defop(amp="black", paddle_types=("pd_op.stft",))
def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, name=None):
    """Short-time Fourier transform: the DFT of overlapping, windowed frames of ``x``.

    Args:
        x (Tensor): real or complex signal, ``[L]`` or ``[B, L]``.
        n_fft (int): frame length (DFT size).
        hop_length (int, optional): step between frames (default ``n_fft // 4``).
        win_length (int, optional): window length, at most ``n_fft`` (default ``n_fft``);
            a shorter window is zero-padded on both sides.
        window (Tensor, optional): 1-D window of length ``win_length`` (default all ones).
        center (bool, optional): pad ``x`` by ``n_fft // 2`` on both sides so frames are
            centred on their time stamps.
        pad_mode (str, optional): ``'reflect'`` or ``'constant'`` padding when centring.
        normalized (bool, optional): scale the result by ``1 / sqrt(n_fft)``.
        onesided (bool, optional): keep only the ``n_fft // 2 + 1`` non-negative
            frequencies (default True for real input; not allowed for complex input).
        name (str, optional): unused.

    Returns:
        Tensor: complex ``[..., freqs, frames]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.signal.stft(paddle.to_tensor([1.0] * 32), n_fft=8, center=False).shape
        paddle.Size([5, 13])
    """
    if x.dim() not in (1, 2):
        raise AssertionError(f"paddle.signal.stft: 'x' must be a 1-D or 2-D tensor, but received {x.dim()}-D")
    if center and pad_mode not in ("reflect", "constant"):  # Paddle checks it only when it pads
        raise AssertionError(f"paddle.signal.stft: 'pad_mode' must be 'reflect' or 'constant', but received "
                             f"{pad_mode!r}")
    n_fft, hop, win = _frames("stft", n_fft, hop_length, win_length, window)
    if not 0 < n_fft <= x.shape[-1]:  # Paddle checks the unpadded length, even with center=True
        raise AssertionError(f"paddle.signal.stft: 'n_fft' must be in (0, seq_length({x.shape[-1]})], "
                             f"but received {n_fft}")
    complex_window = window is not None and window.is_complex()
    if onesided and (x.is_complex() or complex_window):
        raise AssertionError("paddle.signal.stft: 'onesided' must be False when 'x' or 'window' is complex")
    if not (x.is_complex() or complex_window or onesided is None or isinstance(onesided, bool)):
        # the real-to-complex transform's argument parser takes only a bool there
        raise TypeError(f"paddle.signal.stft: 'onesided' must be a bool, but received "
                        f"{type(onesided).__name__} {onesided!r}")
    if x.dtype in _NO_STFT_KERNEL:  # no CPU pad/frame kernel in Paddle: NotFound
        raise NoKernelError(f"paddle.signal.stft: 'x' must be float32, float64, complex, int32 or int64, but "
                            f"received {str(x.dtype).replace('torch.', '')}")
    if complex_window and not x.is_complex():
        # Paddle picks its real-to-complex transform by x, then feeds it the complex frames
        raise NoKernelError("paddle.signal.stft: a complex 'window' needs a complex 'x' (the transform of a real "
                            f"'x' takes real frames only), but received 'x' of dtype "
                            f"{str(x.dtype).replace('torch.', '')}")
    # the frames are multiplied by the window: Paddle promotes floats with floats and anything
    # with a complex dtype, and refuses other mixed pairs
    if window is not None and window.dtype != x.dtype and not (
            x.is_complex() or complex_window or (x.is_floating_point() and window.is_floating_point())):
        raise TypeError(f"paddle.signal.stft: 'window' ({str(window.dtype).replace('torch.', '')}) cannot multiply "
                        f"frames of 'x' ({str(x.dtype).replace('torch.', '')}): only floating dtypes, or a complex "
                        "one with any other, promote")
    if not (x.is_floating_point() or x.is_complex()):  # Paddle transforms integers in the default float
        x = x.to(_dt.default_float())
        if window is not None and not complex_window:
            window = window.to(x.dtype)
    if window is not None and x.is_complex() and not (window.is_floating_point() or window.is_complex()):
        window = window.to(x.real.dtype)  # an integer or bool window scales complex frames as numbers
    if window is None:  # Paddle's default; torch would warn about the rectangular window it implies
        window = torch.ones(win, dtype=x.real.dtype, device=x.device)
    empty = x.numel() == 0  # an empty batch: the per-row shape of a one-row batch
    if empty:
        x = x.new_zeros(1, x.shape[-1])
    out = torch.stft(x, n_fft, hop_length=hop, win_length=win, window=window, center=bool(center),
                     pad_mode=pad_mode, normalized=bool(normalized),
                     onesided=None if onesided is None else bool(onesided), return_complex=True)
    return out[:0] if empty else out


# the dtypes of the CPU kernels istft runs its window through (multiply, tile, overlap_add)
_WINDOW_DTYPES = frozenset({torch.int32, torch.int64, torch.float32, torch.float64, torch.complex64,
                            torch.complex128})


@defop(amp="black", paddle_types=("pd_op.istft",),
       program_dtypes={"x": frozenset({torch.complex64, torch.complex128})})
def istft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=True, length=None, return_complex=False, name=None):
    """Inverse short-time Fourier transform by weighted overlap-add of the inverse DFTs.

    Args:
        x (Tensor): complex spectrogram ``[freqs, frames]`` or ``[B, freqs, frames]``.
        n_fft (int): frame length (DFT size).
        hop_length (int, optional): step between frames (default ``n_fft // 4``).
        win_length (int, optional): window length (default ``n_fft``).
        window (Tensor, optional): 1-D window of length ``win_length`` (default all ones).
        center (bool, optional): the forward transform centred its frames.
        normalized (bool, optional): the forward transform was normalised.
        onesided (bool, optional): ``x`` holds only the non-negative frequencies.
        length (int, optional): trim or pad the signal to this length.
        return_complex (bool, optional): return a complex signal (needs ``onesided=False``).
        name (str, optional): unused.

    Returns:
        Tensor: the signal, ``[L]`` or ``[B, L]``.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([float(i % 3) for i in range(32)])
        >>> y = paddle.signal.istft(paddle.signal.stft(x, n_fft=8), n_fft=8)
        >>> np.allclose(y.numpy(), x.numpy(), atol=1e-5)
        True
    """
    if x.dim() not in (2, 3):
        raise AssertionError(f"paddle.signal.istft: 'x' must be a 2-D or 3-D tensor, but received {x.dim()}-D")
    # Paddle tests the flags for truth only
    center, normalized, onesided, return_complex = (bool(center), bool(normalized), bool(onesided),
                                                    bool(return_complex))
    n_fft, hop, win = _frames("istft", n_fft, hop_length, win_length, window)
    if hop > win:
        raise AssertionError(f"paddle.signal.istft: 'hop_length' must be in (0, win_length({win})], but "
                             f"received {hop}")
    if x.numel() == 0:
        raise AssertionError(f"paddle.signal.istft: 'x' must not be empty, but received shape {list(x.shape)}")
    freqs = n_fft // 2 + 1 if onesided else n_fft
    if x.shape[-2] != freqs:
        raise AssertionError(f"paddle.signal.istft: 'x' must have {freqs} frequency rows for n_fft={n_fft} "
                             f"and onesided={onesided}, but received shape {list(x.shape)}")
    if return_complex and onesided:
        raise AssertionError("paddle.signal.istft: 'onesided' must be False when 'return_complex' is True")
    if not return_complex and window is not None and window.is_complex():
        raise AssertionError("paddle.signal.istft: 'window' must be real when 'return_complex' is False, but "
                             f"received {str(window.dtype).replace('torch.', '')}")
    if window is not None:
        # the real frames are multiplied by the window first: Paddle refuses an integer or bool
        # one there (a complex signal promotes it); the window's own square and overlap-add then
        # need a CPU kernel for its dtype
        if not return_complex and not window.is_floating_point():
            raise TypeError(f"paddle.signal.istft: 'window' of dtype {str(window.dtype).replace('torch.', '')} "
                            "cannot multiply the real frames: only floating dtypes promote with them")
        kernel_dtypes("signal.istft", window, _WINDOW_DTYPES, arg="window")
    if not x.is_complex():  # Paddle reads a float32/float64 spectrogram as one with zero imaginary part
        if x.dtype not in (torch.float32, torch.float64):  # its complex-to-real kernel: NotFound
            raise NoKernelError("paddle.signal.istft: 'x' must be complex64, complex128, float32 or float64, "
                                f"but received {str(x.dtype).replace('torch.', '')}")
        x = torch.complex(x, torch.zeros_like(x))
    if length is not None:  # Paddle meets `length` last, when it trims the signal
        length = _int_arg("istft", "length", length, ValueError)
    if window is None:
        window = torch.ones(win, dtype=x.real.dtype, device=x.device)
    if not onesided and not return_complex:  # Paddle inverts only the non-negative frequencies
        x, onesided = x[..., : n_fft // 2 + 1, :], True
    start = n_fft // 2 if center else 0
    full = n_fft + hop * (x.shape[-1] - 1)
    if length is not None:  # Paddle trims to `length` but never pads
        length = min(int(length), full - start)
    out_len = full - 2 * start if length is None else length
    if out_len <= 0:  # Paddle's overlap-add check fails on the empty signal: ValueError
        raise ValueError(f"paddle.signal.istft: the signal would be empty: {x.shape[-1]} frame(s) of n_fft={n_fft}, "
                         f"hop_length={hop}, center={center} and length={length} leave {out_len} samples")
    try:
        return torch.istft(x, n_fft, hop_length=hop, win_length=win, window=window, center=center,
                           normalized=normalized, onesided=onesided, length=length,
                           return_complex=return_complex)
    except RuntimeError as exc:
        if "overlap add" not in str(exc):
            raise
        raise ValueError("paddle.signal.istft: the window fails the nonzero overlap-add (NOLA) condition for "
                         f"hop_length={hop}, win_length={win}, center={center}") from None


_FRAME_DTYPES = (torch.int32, torch.int64, torch.float32, torch.float64, torch.complex64, torch.complex128)


def _frame_args(api: str, x, axis, hop_length, frame_length=None) -> None:
    x.dim()  # a list or an array: the registry raises Paddle's error for a non-Tensor 'x'
    if axis not in (0, -1):
        raise ValueError(f"paddle.signal.{api}: Unexpected axis: {axis}. It should be 0 or -1.")
    for arg, v in (("frame_length", frame_length), ("hop_length", hop_length)):
        if (arg == "hop_length" or frame_length is not None) and (not isinstance(v, int) or v <= 0):
            raise ValueError(f"paddle.signal.{api}: Unexpected {arg}: {v}. It should be an positive integer.")
    if frame_length is not None and frame_length > x.shape[axis]:  # checked before the kernel's dtype
        raise ValueError(f"paddle.signal.{api}: Attribute frame_length should be less equal than sequence "
                         f"length, but got ({frame_length}) > ({x.shape[axis]}).")
    if x.dtype not in _FRAME_DTYPES:  # Paddle's CPU kernels: NotFound (RuntimeError)
        raise NoKernelError(f"paddle.signal.{api}: 'x' must be int32, int64, float32, float64, complex64 or "
                            f"complex128, but received {str(x.dtype).replace('torch.', '')}")


@defop(amp="black", paddle_types=("pd_op.frame",))
def frame(x, frame_length, hop_length, axis=-1, name=None):
    """Slice ``x`` into overlapping frames of ``frame_length`` samples, ``hop_length`` apart.

    Args:
        x (Tensor): the signal, framed along its last axis (``axis=-1``) or its first (``axis=0``).
        frame_length (int): samples per frame, at most the signal's length.
        hop_length (int): samples between the starts of two frames.
        axis (int, optional): ``-1`` gives ``[..., frame_length, num_frames]``, ``0`` gives
            ``[num_frames, frame_length, ...]``. Default -1.
        name (str, optional): unused.

    Returns:
        Tensor: the frames, with ``num_frames = 1 + (seq_length - frame_length) // hop_length``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.signal.frame(paddle.arange(6), frame_length=4, hop_length=2).tolist()
        [[0, 2], [1, 3], [2, 4], [3, 5]]
    """
    _frame_args("frame", x, axis, hop_length, frame_length)
    if axis == 0:
        return x.unfold(0, frame_length, hop_length).movedim(-1, 1).contiguous()
    return x.unfold(-1, frame_length, hop_length).transpose(-1, -2).contiguous()


@defop(amp="black", paddle_types=("pd_op.overlap_add",))
def overlap_add(x, hop_length, axis=-1, name=None):
    """Sum overlapping frames back into a signal (the inverse layout of :func:`frame`).

    Args:
        x (Tensor): frames ``[..., frame_length, num_frames]`` (``axis=-1``) or
            ``[num_frames, frame_length, ...]`` (``axis=0``), at least 2-D.
        hop_length (int): samples between the starts of two frames, at most ``frame_length``.
        axis (int, optional): -1 or 0, as above. Default -1.
        name (str, optional): unused.

    Returns:
        Tensor: the signal of ``(num_frames - 1) * hop_length + frame_length`` samples.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.signal.overlap_add(paddle.ones([4, 3]), hop_length=2).tolist()
        [1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 1.0, 1.0]
    """
    _frame_args("overlap_add", x, axis, hop_length)
    if x.dim() < 2:
        raise ValueError("paddle.signal.overlap_add: Input(X) should be a tensor which contains at least 2 "
                         f"dimensions, but got rank {x.dim()}.")
    if axis == 0:
        n_frames, frame_length = x.shape[0], x.shape[1]
        src = x.reshape(n_frames * frame_length, *x.shape[2:])
    else:
        frame_length, n_frames = x.shape[-2], x.shape[-1]
        src = x.transpose(-1, -2).reshape(*x.shape[:-2], n_frames * frame_length)
    if hop_length > frame_length:
        raise ValueError("paddle.signal.overlap_add: Attribute(hop_length) should be less or equal than "
                         f"frame_length, but got hop_length({hop_length}) > frame_length({frame_length}).")
    seq = (n_frames - 1) * hop_length + frame_length
    index = (torch.arange(n_frames, device=x.device)[:, None] * hop_length
             + torch.arange(frame_length, device=x.device)).reshape(-1)
    shape = [seq, *x.shape[2:]] if axis == 0 else [*x.shape[:-2], seq]
    return x.new_zeros(shape).index_add(axis, index, src)
