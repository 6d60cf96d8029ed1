"""Session-14 sweep of the A-L layer classes of Paddle's layer test cases (dygraph, to_static
with -1 InputSpecs, jit.save + jit.load) against real Paddle 3.3.1.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os

import numpy as np

import pagaie
from tests.reference import assert_same, both, paddle_ref

X = (np.arange(12, dtype="float32").reshape(4, 3) - 5) / 4


def _saved(fw, tmp_path, tag, layer, specs, *inputs):
    """``layer`` (left in training mode) through to_static, jit.save and jit.load, called on
    ``inputs``."""
    f = fw.jit.to_static(layer, input_spec=specs, full_graph=True)
    path = os.path.join(str(tmp_path), f"{fw.__name__}_{tag}")
    fw.jit.save(f, path, input_spec=specs)
    loaded = fw.jit.load(path)
    return loaded(*[fw.to_tensor(a) for a in inputs])


def test_save_traces_in_the_layers_current_mode(tmp_path):
    # Paddle traces the saved program in the layer's modes: a branch on self.training stays
    # as taken (AlphaDropout(p=1) of a training layer gives zeros); dropout ops switch to
    # their test form
    def run(fw):
        class Branch(fw.nn.Layer):
            def forward(self, x):
                return x * 2 if self.training else x

        spec = [fw.static.InputSpec([-1, 3], "float32")]
        evaluated = Branch()
        evaluated.eval()
        return [_saved(fw, tmp_path, "alpha", fw.nn.AlphaDropout(p=1.0), spec, X),
                _saved(fw, tmp_path, "branch", Branch(), spec, X),
                _saved(fw, tmp_path, "branch_eval", evaluated, spec, X),
                _saved(fw, tmp_path, "dropout", fw.nn.Dropout(p=0.5), spec, X)]
    assert_same(*both(run))


def test_save_fetches_a_repeated_output_once(tmp_path):
    # GRUCell returns (h, h): Paddle's saved program fetches h once (a lone output is a Tensor)
    def run(fw):
        fw.seed(1)
        cell = fw.nn.GRUCell(2, 3)
        for p in cell.parameters():
            p.set_value(fw.to_tensor(np.linspace(-1, 1, int(np.prod(p.shape)), dtype="float32")
                                     .reshape(p.shape)))

        class Pair(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.lin = fw.nn.Linear(3, 3)

            def forward(self, x):
                y = self.lin(x)
                return [y, x, y]

        fw.seed(2)
        pair = _saved(fw, tmp_path, "pair", Pair(), [fw.static.InputSpec([-1, 3], "float32")], X)
        h = _saved(fw, tmp_path, "gru", cell, [fw.static.InputSpec([-1, 2], "float32"),
                                               fw.static.InputSpec([-1, 3], "float32")],
                   X[:2, :2], X[:2])
        return [type(h).__name__, h, len(pair)]
    assert_same(*both(run))


def test_rnn_with_unknown_time_steps_records_quickly():
    # an RNN layer's to_static with an unknown (-1) sequence length: its record took minutes
    # (the meta recurrence stepped through thousands of placeholder time steps)
    import threading

    h0 = np.linspace(-1, 1, 30, dtype="float32").reshape(3, 2, 5)
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(2, 3, 4)

    def run(fw):
        fw.seed(3)
        gru = fw.nn.GRU(4, 5, num_layers=3)
        for p in gru.parameters():
            p.set_value(fw.to_tensor(np.linspace(-0.5, 0.5, int(np.prod(p.shape)), dtype="float32")
                                     .reshape(p.shape)))
        f = fw.jit.to_static(gru, input_spec=[fw.static.InputSpec([-1, -1, 4], "float32"),
                                              fw.static.InputSpec([3, -1, 5], "float32")],
                             full_graph=True)
        y, h = f(fw.to_tensor(x), fw.to_tensor(h0))
        return [y, h]

    got = []
    t = threading.Thread(target=lambda: got.append(run(pagaie)), daemon=True)
    t.start()
    t.join(30)
    assert got, "to_static of a GRU with an unknown sequence length did not finish in 30 s"
    assert_same(got[0], run(paddle_ref()))
