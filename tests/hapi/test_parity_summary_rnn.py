"""paddle.summary of networks with recurrent layers: pagaie vs real Paddle 3.3.1."""
import contextlib
import io

import pytest

import pagaie
from tests.reference import paddle_ref


def _lstm_net(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = fw.nn.Embedding(20, 8)
            self.rnn = fw.nn.LSTM(8, 16)
            self.fc = fw.nn.Linear(16, 2)

        def forward(self, x):
            y, _ = self.rnn(self.emb(x))
            return self.fc(y[:, -1])
    return Net(), (2, 5), "int64"


def _gru_stack(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.rnn = fw.nn.GRU(8, 16, num_layers=2, direction="bidirect")
            self.s = fw.nn.SimpleRNN(32, 4)

        def forward(self, x):
            y, _ = self.rnn(x)
            return self.s(y)
    return Net(), (2, 5, 8), None


def _cell_loop(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.rnn = fw.nn.RNN(fw.nn.LSTMCell(8, 16))

        def forward(self, x):
            return self.rnn(x)[0]
    return Net(), (2, 5, 8), None


def _bare_lstm(fw):
    return fw.nn.LSTM(8, 16), (2, 5, 8), None


@pytest.mark.parametrize("build", [_lstm_net, _gru_stack, _cell_loop, _bare_lstm])
def test_summary_lists_rnn_layers_like_paddle(build):
    ref = paddle_ref()
    outs = []
    for fw in (pagaie, ref):
        with fw.utils.unique_name.guard(), contextlib.redirect_stdout(io.StringIO()) as buf:
            net, size, dtype = build(fw)
            info = fw.summary(net, size, dtypes=dtype)
        outs.append((buf.getvalue(), {k: int(v) for k, v in info.items()}))
    assert outs[0] == outs[1]


def test_cell_hooks_fire_once_per_step():
    cell = pagaie.nn.LSTMCell(8, 16)
    calls = []
    cell.register_forward_post_hook(lambda layer, inputs, outputs: calls.append(1))
    pagaie.nn.RNN(cell)(pagaie.ones([2, 5, 8]))
    assert len(calls) == 5
