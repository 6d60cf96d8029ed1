"""The console progress bar of ``paddle.Model`` (``ProgBarLogger`` drives it).

verbose=1 redraws one line per epoch (``step 3/10 [=====>....] - loss: 0.1234 - ETA: 1s -
12ms/step``); verbose=2 (and 3) prints one plain line per logged step.
"""
from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Any, Sequence

import numpy as np

__all__: list[str] = []


def _format_value(v: Any, unwrap: bool = True) -> str:
    """One logged number as Paddle prints it (4 decimals, or scientific below 1e-3).

    ``unwrap`` turns a one-element float array into its number: Paddle does so in the
    one-line-per-step display (verbose 2, 3) and prints the array itself in the bar (verbose 1).
    """
    if unwrap and isinstance(v, np.ndarray) and v.size == 1 and v.dtype in (np.float32, np.float64):
        v = v.item()
    if isinstance(v, (float, np.float32, np.float64)):
        return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"
    return f" {v}"


def _bfloat16_to_float(values: Any) -> list:
    """bfloat16 numbers held as ``numpy.uint16`` (the raw bits) as float32 numbers."""
    bits = np.asarray(values, dtype=np.uint32) << 16
    return list(bits.view(np.float32).reshape(np.shape(values)))


def _format_eta(eta: int) -> str:
    if eta > 3600:
        return f"{eta // 3600}:{(eta % 3600) // 60:02}:{eta % 60:02}"
    if eta > 60:
        return f"{eta // 60}:{eta % 60:02}"
    return f"{eta}s"


class ProgressBar:
    """A text progress bar.

    Args:
        num (int, optional): total number of steps; None when unknown.
        width (int, optional): width of the bar in characters (capped by the terminal).
        verbose (int, optional): 1 redraws a bar in place, 2 or 3 print one line per update.
        start (bool, optional): start the clock now.
        file (IO, optional): kept for reference; output goes to the current ``sys.stdout``.
        name (str, optional): the unit shown before the counter. Default 'step'.

    Examples:
        >>> from pagaie.hapi.progressbar import ProgressBar
        >>> bar = ProgressBar(num=4, verbose=2)
        >>> bar.update(2, [('loss', 0.5)])  # doctest: +ELLIPSIS
        step 2/4 - loss: 0.5000 - ...s/step
    """

    def __init__(self, num: int | None = None, width: int = 30, verbose: int = 1,
                 start: bool = True, file: Any = sys.stdout, name: str = "step") -> None:
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        self._num = num
        columns = shutil.get_terminal_size().columns or 80
        self._width = min(width, min(int(columns * 0.6), columns - 50))
        self._total_width = 0
        self._verbose = verbose
        self.file = file
        self._start = time.time() if start else 0.0
        self._last_update = 0.0
        self.name = name
        # Like Paddle: redraw in place on any POSIX system, a terminal, or a notebook.
        self._dynamic_display = ((hasattr(file, "isatty") and file.isatty())
                                 or "ipykernel" in sys.modules or "posix" in sys.modules
                                 or "PYCHARM_HOSTED" in os.environ)

    def start(self) -> None:
        """Restart the clock."""
        self.file.flush()
        self._start = time.time()

    def _speed(self, current_num: int, now: float) -> tuple[float, str]:
        per_unit = (now - self._start) / current_num if current_num else 0.0
        if per_unit >= 1 or per_unit == 0:
            return per_unit, f" - {per_unit:.0f}s/{self.name}"
        if per_unit >= 1e-3:
            return per_unit, f" - {per_unit * 1e3:.0f}ms/{self.name}"
        return per_unit, f" - {per_unit * 1e6:.0f}us/{self.name}"

    def _counter(self, current_num: float) -> str:
        if self._num:
            # printf-style %d, as Paddle: a float step (or total) prints truncated to an integer
            digits = int(np.log10(self._num)) + 1
            return f"{self.name} %*d/%d" % (digits, current_num, self._num)
        return f"{self.name} {current_num:3}"

    def update(self, current_num: float, values: Sequence[tuple[str, Any]] = ()) -> None:
        """Show step ``current_num`` with ``values``, a list of (name, value) pairs."""
        now = time.time()
        per_unit, speed = self._speed(current_num, now)
        unwrap = self._verbose != 1
        info = ""
        for k, val in values:
            val = val if isinstance(val, list) else [val]
            if k == "loss" and val and isinstance(val[0], np.uint16):
                val = _bfloat16_to_float(val)
            info += f" - {k}:" + "".join(_format_value(v, unwrap) for v in val)
        out = sys.stdout
        if self._verbose == 1:
            prev_width = self._total_width
            out.write("\b" * prev_width + "\r" if self._dynamic_display else "\n")
            if self._num is not None:
                bar = self._counter(current_num) + " ["
                filled = int(self._width * float(current_num) / self._num)
                if filled > 0:
                    bar += "=" * (filled - 1) + (">" if current_num < self._num else "=")
                bar += "." * (self._width - filled) + "]"
            else:
                bar = f"{self.name} {current_num:3}"
            self._total_width = len(bar)
            out.write(bar)
            if self._num is not None and current_num < self._num:
                info += f" - ETA: {_format_eta(int(per_unit * (self._num - current_num)))}"
            info += speed
            self._total_width += len(info)
            if prev_width > self._total_width:
                info += " " * (prev_width - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(info)
            out.flush()
            self._last_update = now
        elif self._verbose in (2, 3):
            out.write(self._counter(current_num) + info + speed + "\n")
            out.flush()
