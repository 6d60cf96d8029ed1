"""paddle.fft: discrete Fourier transforms.

    >>> import pagaie as paddle
    >>> paddle.fft.ifft(paddle.fft.fft(paddle.to_tensor([1.0, 2.0]))).numpy().real.tolist()
    [1.0, 2.0]
"""
from pagaie._ops.fft import (  # noqa: F401
    fft, fft2, fftfreq, fftn, fftshift, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ifftshift, ihfft,
    ihfft2, ihfftn, irfft, irfft2, irfftn, rfft, rfft2, rfftfreq, rfftn,
)

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft", "ifft2",
           "ifftn", "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2", "irfftn", "rfft",
           "rfft2", "rfftfreq", "rfftn"]
