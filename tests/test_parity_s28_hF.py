"""Session-28 cases from Paddle's own hapi / metric unit tests, run through real Paddle 3.3.1
and pagaie side by side: the progress bar's counter for a float step or total (Paddle prints it
with ``%d``, so it is truncated, never an error), and ``Model.load`` of a network without
parameters (the file of its empty state dict still holds ``paddle.save``'s name table)."""
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


def _save_then_load(fw, tmp_path, make_file=None):
    """A parameter-free Model saved and loaded back (``make_file`` may replace the
    ``.pdparams`` file first); returns what the load returned or the exception type."""
    prefix = str(tmp_path / fw.__name__ / "ck")
    model = fw.Model(fw.nn.Sequential(fw.nn.ReLU()))
    model.prepare()
    model.save(prefix)
    if make_file is not None:
        make_file(prefix + ".pdparams")
    try:
        return model.load(prefix)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)


def _raw_empty_pickle(path: str) -> None:
    import pickle
    with open(path, "wb") as f:
        pickle.dump({}, f)


@pytest.mark.parametrize("make_file", [None, _raw_empty_pickle], ids=["saved", "raw-empty"])
def test_model_load_of_a_parameter_free_network(tmp_path, make_file):
    """Paddle tests the pickled dict, whose name table makes a saved empty state dict load;
    a file holding a bare empty dict fails the assertion in both."""
    with pytest.warns(UserWarning):   # (both warn that the state dict to save is empty)
        theirs = _save_then_load(paddle, tmp_path, make_file)
    with pytest.warns(UserWarning):
        ours = _save_then_load(pagaie, tmp_path, make_file)
    assert ours == theirs
