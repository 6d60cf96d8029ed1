"""Session-28 cases from Paddle's own hapi / metric unit tests, run through real Paddle 3.3.1
and pagaie side by side: the progress bar's counter for a float step or total (Paddle prints it
with ``%d``, so it is truncated, never an error)."""
from __future__ import annotations

import contextlib
import importlib
import io
import re

import numpy as np
import pytest

import pagaie

paddle = pytest.importorskip("paddle")


def _printed(fn) -> str:
    """What ``fn()`` prints, with the timings (the only run-dependent part) and the blanks
    padding a line to the width of the one before (which depends on them) removed."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn()
    text = re.sub(r"\d+(s|ms|us)/step", "T/step", buf.getvalue())
    return "\n".join(line.rstrip(" ") for line in text.split("\n"))


def _progress_bar(fw):
    return importlib.import_module(fw.__name__ + ".hapi.progressbar").ProgressBar


@pytest.mark.parametrize("verbose", [1, 2, 3])
@pytest.mark.parametrize("num,steps", [(50, [1e4, 3.7]), (None, [2.5, 0.0]), (1, [1 + 1e-4]),
                                       (7.9, [3.2, 7.0])])
def test_progress_bar_float_steps(verbose, num, steps):
    def run(fw):
        bar = _progress_bar(fw)(num, verbose=verbose)
        bar._dynamic_display = False   # one line per update, whatever stdout is
        for s in steps:
            bar.update(s, [["loss", 0.5], ["acc", np.array([0.25])]])

    assert _printed(lambda: run(pagaie)) == _printed(lambda: run(paddle))
