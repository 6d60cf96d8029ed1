"""Session-23 sweep of the recurrent layers against real Paddle 3.3.1, for what the earlier
sweeps (s11_rnn, s21_attention, nn/test_rnn.py) left out: ``LSTMCell.state_shape`` with a
projection (and the failing default states it gives), ``RNNCellBase.get_initial_states`` with
nested shapes.

Layers are built in real Paddle and their parameters copied into pagaie's, so the same
weights run in both."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


@pytest.fixture(scope="module", autouse=True)
def _cpu():
    paddle_ref().set_device("cpu")
    pagaie.set_device("cpu")


def _arr(shape, seed=0, dtype="float32"):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


X = _arr((2, 5, 3))


# ---- LSTMCell with a projection ---------------------------------------------------------------
def test_lstm_cell_projection_state_shape():
    """Paddle's state_shape lists the hidden size first and the projection second (the states'
    true sizes are the other way round)."""
    ours, theirs = both(lambda fw: fw.nn.LSTMCell(3, 4, proj_size=2).state_shape)
    assert ours == theirs


@pytest.mark.parametrize("run", [
    lambda fw: fw.nn.LSTMCell(3, 4, proj_size=2)(fw.to_tensor(X[:, 0])),
    lambda fw: fw.nn.RNN(fw.nn.LSTMCell(3, 4, proj_size=2), is_reverse=True)(fw.to_tensor(X)),
    lambda fw: fw.nn.LSTMCell(3, 4, proj_size=2)(fw.to_tensor(X[:, 0]),
                                                 (fw.ones([2, 2]), fw.ones([2, 2]))),
], ids=["cell", "wrapper", "small-cell-state"])
def test_lstm_cell_projection_default_states_fail(run):
    """So the default states (h hidden_size wide) fail in the hidden state's matmul."""
    same_exception(run)
