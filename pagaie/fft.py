"""paddle.fft."""

__all__: list[str] = []
