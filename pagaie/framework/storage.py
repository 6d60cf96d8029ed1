"""``paddle.MmapStorage``: read typed slices of a raw binary file through a memory map."""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core import dtype as _dt
from pagaie._core.tensor import Tensor

__all__ = ["MmapStorage"]


class MmapStorage:
    """Map the first ``nbytes`` bytes of a file into memory (read-only, copy-on-write) and
    read typed tensors out of it without copying the file.

    Args:
        filename (str): the file to map, e.g. raw array data written with ``ndarray.tofile``.
        nbytes (int): how many bytes to map; the file must be at least this long.

    Raises:
        RuntimeError: the file cannot be opened or is shorter than ``nbytes``.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'w.bin')
        >>> np.arange(6, dtype='float32').tofile(path)
        >>> st = paddle.MmapStorage(path, 24)
        >>> st.get_slice(paddle.float32, 0, 6).reshape([2, 3]).tolist()
        [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    """

    def __init__(self, filename: str, nbytes: int) -> None:
        try:
            self._bytes = torch.from_file(str(filename), shared=False, size=int(nbytes),
                                          dtype=torch.uint8)
        except RuntimeError as exc:
            raise RuntimeError(f"paddle.MmapStorage: {exc}") from None
        self._filename = str(filename)

    def get_slice(self, dtype: Any = "uint8", start: int = 0, stop: int = -1,
                  step: int = 1) -> Tensor:
        """Read elements of ``dtype`` from the mapping, sharing its memory.

        As in Paddle, ``start`` is a *byte* offset into the mapping, and the number of
        elements read is ``ceil((stop - start) / step)`` (contiguous, ``step`` only divides
        the count); a ``stop`` below 0 reads one element, a negative ``start`` or
        ``stop <= start`` none.

        Args:
            dtype (str|paddle.dtype): the element type. Default ``'uint8'``.
            start (int): byte offset of the first element. Default 0.
            stop (int): end of the range (see above). Default -1.
            step (int): divisor of the element count; must be positive. Default 1.

        Returns:
            Tensor: a 1-D tensor (``stop_gradient=True``).

        Raises:
            ValueError: ``step`` is not positive, or the slice runs past the mapped bytes.

        Examples:
            >>> import os, tempfile
            >>> import numpy as np
            >>> import pagaie as paddle
            >>> path = os.path.join(tempfile.mkdtemp(), 'w.bin')
            >>> np.arange(6, dtype='int32').tofile(path)
            >>> paddle.MmapStorage(path, 24).get_slice('int32', 8, 11).tolist()
            [2, 3, 4]
        """
        tdt = _dt.to_torch_dtype(dtype, "paddle.MmapStorage.get_slice")
        start, stop, step = int(start), int(stop), int(step)
        if step <= 0:
            raise ValueError(f"paddle.MmapStorage.get_slice: step must be positive, but received {step}")
        if stop < 0:
            count = 1
        elif start < 0 or stop <= start:
            count = 0
        else:
            count = -(-(stop - start) // step)
        size = tdt.itemsize
        begin = max(start, 0)
        end = begin + count * size
        if end > self._bytes.numel():
            raise ValueError(f"paddle.MmapStorage.get_slice: reading {count} {_dt.from_torch_dtype(tdt).name} "
                             f"element(s) from byte {begin} needs {end} bytes, but only "
                             f"{self._bytes.numel()} bytes of {self._filename!r} are mapped")
        chunk = self._bytes[begin:end]
        if begin % size:
            chunk = chunk.clone()  # an unaligned view cannot be reinterpreted in place
        return Tensor(chunk.view(tdt))

    def __repr__(self) -> str:
        return f"MmapStorage({self._filename!r}, nbytes={self._bytes.numel()})"
