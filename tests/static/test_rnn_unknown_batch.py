"""RNN layers in a static program whose batch size is unknown (-1): zero initial states."""
from __future__ import annotations

import numpy as np

import pagaie as paddle


def test_lstm_and_cell_states_with_unknown_batch():
    paddle.seed(0)
    lstm = paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    cell = paddle.nn.GRUCell(3, 4)
    data = np.random.default_rng(0).standard_normal((2, 5, 3)).astype("float32")
    y_eager, (h_eager, _) = lstm(paddle.to_tensor(data))
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [None, 5, 3], "float32")
            y, (h, c) = lstm(x)
            h0 = cell.get_initial_states(x, shape=[4])
        assert y.shape == [-1, 5, 8] and h.shape == [4, -1, 4] and h0.shape == [-1, 4]
        out = paddle.static.Executor().run(main, feed={"x": data}, fetch_list=[y, h, h0])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out[0], y_eager.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[1], h_eager.numpy(), rtol=1e-5, atol=1e-6)
    assert out[2].shape == (2, 4) and not out[2].any()
