"""Session-27 differential cases for the recurrent and Transformer layers and the Layer API,
drawn from the cases of Paddle's own unit tests (rnn nets/cells, transformer, base layer,
containers, hooks, named members), run through real Paddle 3.3.1 and pagaie side by side."""
from __future__ import annotations

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

import pagaie  # noqa: E402


def _raised(fn, fw):
    try:
        fn(fw)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)
    return None


@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("time_major", [False, True])
def test_rnn_rejects_non_3d_input(cls, time_major):
    """Paddle's fused ``rnn`` kernel checks the input rank is 3 (ValueError); a 4-D input whose
    leading axes the layer's transpose accepts must not run."""
    def run(fw):
        return getattr(fw.nn, cls)(3, 5, time_major=time_major)(fw.ones([1, 2, 4, 3]))

    theirs = _raised(run, paddle)
    assert theirs is ValueError
    with pytest.raises(ValueError, match="3-D"):
        run(pagaie)
