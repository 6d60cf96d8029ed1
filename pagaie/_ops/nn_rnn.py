"""Recurrent kernels behind ``paddle.nn.SimpleRNN/LSTM/GRU`` and their cells.

Paddle's recurrences are the same as torch's (gate order i, f, g, o for LSTM; r, z, c for GRU
with the reset gate applied to ``W_hc h + b_hc``, "linear before reset"), so the fused torch
kernels compute them. ``rnn`` mirrors Paddle's program op ``rnn``: time-major input, the
initial states stacked ``[num_layers * num_directions, batch, hidden]`` and the weights in
Paddle's flat order (every ``weight_ih, weight_hh`` pair first, then every bias pair).

Not a top-level family: the layers in :mod:`pagaie.nn.layer.rnn` call these records.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pad_packed_sequence

from pagaie._core.registry import NoKernelError, defop
from pagaie._ops._helpers import F32_F64, kernel_dtypes
from pagaie._ops._random_mask import keep_mask, upscale_kept

__all__: list[str] = []

_FUSED = {"LSTM": torch._VF.lstm, "GRU": torch._VF.gru, "RNN_TANH": torch._VF.rnn_tanh,
          "RNN_RELU": torch._VF.rnn_relu}


def _torch_params(weight_list, n):
    """Paddle's flat order (weights, then biases) -> torch's per-cell (w_ih, w_hh, b_ih, b_hh)."""
    ws, bs = weight_list[:2 * n], weight_list[2 * n:]
    params = []
    for i in range(n):
        params += [ws[2 * i], ws[2 * i + 1]]
        if bs:
            params += [bs[2 * i], bs[2 * i + 1]]
    return params, bool(bs)


@defop(paddle_types=("rnn", "pd_op.rnn"), method=False)
def rnn(input, pre_state, weight_list, sequence_length=None, dropout_prob=0.0, is_bidirec=False,
        input_size=10, hidden_size=100, num_layers=1, mode="RNN_TANH", seed=0, is_test=False):
    """Multi-layer fused recurrence (Paddle's ``rnn`` op), time-major.

    Args:
        input (Tensor): ``[time_steps, batch, input_size]``.
        pre_state (list[Tensor]): initial states, each ``[num_layers * D, batch, hidden]``
            (``[h]``, or ``[h, c]`` for LSTM).
        weight_list (list[Tensor]): all ``weight_ih, weight_hh`` pairs (layer-major, forward
            direction first), then all ``bias_ih, bias_hh`` pairs in the same order.
        sequence_length (Tensor, optional): ``[batch]`` valid lengths; outputs past a sequence's
            length are zeros and its final state is the one at its last valid step.
        dropout_prob (float): dropout between layers (training only): one keep-mask, drawn
            as Paddle's CPU kernel draws it before the second layer, serves every later layer.
        is_bidirec (bool): two directions, outputs concatenated on the last axis.
        input_size, hidden_size (int): sizes (informational).
        num_layers (int): stacked layers.
        mode (str): 'LSTM', 'GRU', 'RNN_TANH' or 'RNN_RELU'.
        seed (int): unused.
        is_test (bool): inference (no dropout).

    Returns:
        tuple: ``(output, [final states...])``.

    Examples:
        >>> import pagaie as paddle
        >>> lstm = paddle.nn.LSTM(4, 3)
        >>> y, (h, c) = lstm(paddle.ones([2, 5, 4]))
        >>> y.shape, h.shape
        (paddle.Size([2, 5, 3]), paddle.Size([1, 2, 3]))
    """
    if mode not in _FUSED:
        raise ValueError(f"paddle.rnn: 'mode' must be one of LSTM, GRU, RNN_TANH, RNN_RELU, "
                         f"but received {mode!r}")
    if input.dim() != 3:
        raise ValueError(f"paddle.rnn: 'input' must be 3-D [time_steps, batch_size, input_size], "
                         f"but received a {input.dim()}-D input of shape {list(input.shape)}")
    if weight_list and input.shape[-1] != weight_list[0].shape[-1]:
        raise ValueError(f"paddle.rnn: the last dimension of 'input' must be input_size "
                         f"{weight_list[0].shape[-1]}, but received input of shape {list(input.shape)}")
    d = 2 if is_bidirec else 1
    _check_args(input, list(pre_state), list(weight_list), num_layers * d, mode, sequence_length)
    if input.device.type == "meta":
        # shapes only (a static program's record): torch's meta recurrence steps through
        # every time step, thousands for an unknown (-1) sequence length
        size = pre_state[0].shape[-1] if pre_state else weight_list[1].shape[-1]
        out = input.new_empty([input.shape[0], input.shape[1], d * size])
        return out, [h.new_empty(h.shape) for h in pre_state]
    out, states = _rnn(input, list(pre_state), list(weight_list), sequence_length, dropout_prob,
                       is_bidirec, num_layers, mode, is_test)
    return _guard_backward(out, states, list(pre_state), list(weight_list), input, mode, is_test)


class _FailingBackward(torch.autograd.Function):
    """Passes tensors through; their backward raises ``exc(msg)``."""

    @staticmethod
    def forward(ctx, exc, msg, *ts):
        ctx.exc, ctx.msg = exc, msg
        return tuple(t.view_as(t) for t in ts)

    @staticmethod
    def backward(ctx, *grads):
        raise ctx.exc(ctx.msg)


def _guard_backward(out, states, pre_state, weight_list, input, mode, is_test):
    """Paddle's CPU ``rnn`` backward writes every weight's gradient and reads what the forward
    saved for training: with a weight that takes no gradient (stop_gradient) it fails
    (ValueError), and after an inference forward (``is_test``) too (RuntimeError)."""
    if not torch.is_grad_enabled() or not any(
            t.requires_grad for t in [input, *pre_state, *weight_list]):
        return out, states
    api = "paddle.nn." + ("SimpleRNN" if mode.startswith("RNN") else mode)
    if not all(w.requires_grad for w in weight_list):
        exc, msg = ValueError, (f"{api}: the backward of the fused recurrence needs the gradient of "
                                "every weight, but some have stop_gradient=True")
    elif is_test:
        exc, msg = RuntimeError, (f"{api}: the fused recurrence ran in inference mode (eval), "
                                  "which keeps nothing for its backward; call train() first")
    else:
        return out, states
    res = _FailingBackward.apply(exc, msg, out, *states)
    return res[0], list(res[1:])


def _rnn(input, pre_state, weight_list, sequence_length, dropout_prob, is_bidirec, num_layers, mode,
         is_test):
    d = 2 if is_bidirec else 1
    params, has_bias = _torch_params(list(weight_list), num_layers * d)
    per_cell = 4 if has_bias else 2
    train = not is_test
    p = float(dropout_prob) if train else 0.0
    if p == 0.0 or num_layers == 1:
        out, states = _run(mode, input, list(pre_state), params, has_bias, num_layers, train,
                           is_bidirec, sequence_length)
        return out, states
    # Paddle's CPU kernel draws one keep-mask (shape of a layer's output) before the second
    # layer and applies that same mask to the input of every later layer
    finals: list = []
    x, keep = input, None
    for layer in range(num_layers):
        if layer > 0:
            if p >= 1.0:  # no draws; zeros with zero gradients
                x = x * 0
            else:
                if keep is None:
                    keep = keep_mask(x.shape, p, x.device)
                x = upscale_kept(x, keep, p)
        rows = slice(layer * d, (layer + 1) * d)
        x, states = _run(mode, x, [h[rows] for h in pre_state],
                         params[layer * d * per_cell:(layer + 1) * d * per_cell], has_bias, 1, train,
                         is_bidirec, sequence_length)
        finals.append(states)
    return x, [torch.cat([f[k] for f in finals]) for k in range(len(pre_state))]


def _check_args(input, pre_state, weight_list, rows, mode, sequence_length=None):
    """Paddle's checks of the ``rnn`` op: a float input and states
    ``[num_layers * num_directions, batch, size]``, and integer lengths ``[batch]``."""
    api = "paddle.nn." + ("SimpleRNN" if mode.startswith("RNN") else mode)
    if not input.dtype.is_floating_point:
        raise NoKernelError(f"{api}: the dtype of 'inputs' must be float16, bfloat16, float32 or "
                            f"float64, but received {str(input.dtype).replace('torch.', '')}")
    if input.dtype not in F32_F64:
        kernel_dtypes(api[7:], input, F32_F64, "inputs")   # Paddle's CPU rnn kernel
    if input.shape[0] == 0:
        raise ValueError(f"{api}: 'inputs' must have at least one time step, but received shape "
                         f"{list(input.shape)} (time-major)")
    want = 2 if mode == "LSTM" else 1
    if len(pre_state) != want:
        raise ValueError(f"{api}: expected {want} initial state tensor(s), but received "
                         f"{len(pre_state)}")
    if sequence_length is not None:
        if not isinstance(sequence_length, torch.Tensor):
            raise ValueError(f"{api}: 'sequence_length' must be a Tensor, but received "
                             f"{type(sequence_length).__name__}")
        if sequence_length.dtype not in (torch.int32, torch.int64):
            raise ValueError(f"{api}: the dtype of 'sequence_length' must be int32 or int64, but "
                             f"received {str(sequence_length.dtype).replace('torch.', '')}")
        if list(sequence_length.shape) != [input.shape[1]]:
            raise ValueError(f"{api}: 'sequence_length' must have shape [batch_size] = "
                             f"[{input.shape[1]}], but received {list(sequence_length.shape)}")
    if not weight_list:
        return
    for name, t in [("weights", weight_list[0])] + [(f"initial_states[{k}]", h)
                                                    for k, h in enumerate(pre_state)]:
        if t.dtype != input.dtype:
            raise ValueError(f"{api}: the dtype of {name} ({str(t.dtype).replace('torch.', '')}) "
                             f"must be the dtype of 'inputs' "
                             f"({str(input.dtype).replace('torch.', '')})")
    sizes = [weight_list[1].shape[-1], weight_list[0].shape[0] // 4]   # h, then LSTM's c
    for k, h in enumerate(pre_state):
        want = [rows, input.shape[1], sizes[k]]
        if list(h.shape) != want:
            raise ValueError(f"{api}: initial_states[{k}] must have shape [num_layers * "
                             f"num_directions, batch_size, hidden_size] = {want}, but received "
                             f"{list(h.shape)}")


def _run(mode, input, pre_state, params, has_bias, num_layers, train, is_bidirec, sequence_length):
    """torch's fused recurrence (no dropout) over time-major ``input``, padded steps masked."""
    fn = _FUSED[mode]
    hx = tuple(pre_state) if mode == "LSTM" else pre_state[0]
    if sequence_length is None:
        res = fn(input, hx, params, has_bias, num_layers, 0.0, train, is_bidirec, False)
        return res[0], list(res[1:])
    steps = input.shape[0]
    if (is_bidirec and torch.is_grad_enabled()
            and bool((sequence_length.to("cpu", torch.int64) < steps).any())):
        return _run_bidirec_padded(mode, input, pre_state, params, has_bias, num_layers, train,
                                   sequence_length)
    # lengths past the last step mean the whole sequence (Paddle's CPU kernel reads out of
    # bounds there; its step-wise RNN wrapper masks nothing, as here)
    lengths = sequence_length.to("cpu", torch.int64).clamp(max=steps)
    empty = lengths <= 0
    if bool(empty.any()):
        lengths = lengths.clamp(min=1)
    packed = pack_padded_sequence(input, lengths, enforce_sorted=False)
    order, back = packed.sorted_indices, packed.unsorted_indices
    hs = tuple(h.index_select(1, order) for h in pre_state)
    res = fn(packed.data, packed.batch_sizes, hs if mode == "LSTM" else hs[0], params, has_bias,
             num_layers, 0.0, train, is_bidirec)
    out, _ = pad_packed_sequence(PackedSequence(res[0], packed.batch_sizes, order, back),
                                 total_length=steps)
    states = [s.index_select(1, back) for s in res[1:]]
    if bool(empty.any()):  # a zero-length sequence: zero outputs, states left as given
        keep = (~empty).to(input.device)
        out = out * keep.view(1, -1, 1).to(out.dtype)
        states = [torch.where(keep.view(1, -1, 1), s, h0) for s, h0 in zip(states, pre_state)]
    return out, states


def _run_bidirec_padded(mode, input, pre_state, params, has_bias, num_layers, train, sequence_length):
    """Two directions over padded sequences, with the gradients of Paddle's CPU kernel: its
    backward direction takes the previous hidden state of a step from the previous step's
    (masked) output, so at the first valid step of a shorter sequence it uses zeros instead of
    the initial state wherever the previous hidden state enters a gradient formula (the
    hidden-to-hidden weights' gradient; for GRU also the update gate's). Values are unchanged."""
    per_cell = 4 if has_bias else 2
    steps = input.shape[0]
    lengths = sequence_length.to(input.device, torch.int64).clamp(max=steps)
    valid = torch.arange(steps, device=input.device).unsqueeze(1) < lengths   # [T, B]
    x, finals = input, [[] for _ in pre_state]
    for layer in range(num_layers):
        cell = params[2 * layer * per_cell:(2 * layer + 2) * per_cell]
        rows = slice(2 * layer, 2 * layer + 1)
        out_fw, st_fw = _run(mode, x, [h[rows] for h in pre_state], cell[:per_cell], has_bias, 1,
                             train, False, sequence_length)
        w_ih, w_hh = cell[per_cell], cell[per_cell + 1]
        b_ih, b_hh = (cell[per_cell + 2], cell[per_cell + 3]) if has_bias else (None, None)
        states = [h[2 * layer + 1] for h in pre_state]
        outs = [None] * steps
        prev_out = torch.zeros_like(states[0])   # what Paddle's backward reads as the last state
        for t in range(steps - 1, -1, -1):
            m = valid[t].unsqueeze(1)
            hp = states[0]
            hp_g = (hp if t == steps - 1 else prev_out).detach()
            new = _paddle_grad_step(mode, x[t], hp, hp_g, states, w_ih, w_hh, b_ih, b_hh)
            out = new[0] * m.to(new[0].dtype)
            states = [torch.where(m, n, o) for n, o in zip(new, states)]
            outs[t], prev_out = out, out
        x = torch.cat([out_fw, torch.stack(outs)], -1)
        for k, s in enumerate(states):
            finals[k] += [st_fw[k], s.unsqueeze(0)]
    return x, [torch.cat(f) for f in finals]


def _hh(h, h_g, w, b):
    """``h @ w.T + b`` whose gradient for ``w`` is taken with ``h_g`` in place of ``h``."""
    wd = w.detach()
    return F.linear(h, wd, b) + F.linear(h_g, w - wd)


def _paddle_grad_step(mode, x, hp, hp_g, states, w_ih, w_hh, b_ih, b_hh):
    gi, gh = F.linear(x, w_ih, b_ih), _hh(hp, hp_g, w_hh, b_hh)
    if mode == "LSTM":
        i, f, g, o = (gi + gh).chunk(4, -1)
        c = torch.sigmoid(f) * states[1] + torch.sigmoid(i) * torch.tanh(g)
        return [torch.sigmoid(o) * torch.tanh(c), c]
    if mode == "GRU":
        (x_r, x_z, x_c), (h_r, h_z, h_c) = gi.chunk(3, -1), gh.chunk(3, -1)
        r, z = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
        c = torch.tanh(x_c + r * h_c)
        zd = z.detach()
        # value (hp - c) * z + c; the update gate's gradient reads hp_g for hp
        return [hp * zd + hp_g * (z - zd) + c * (1 - z)]
    pre = gi + gh
    return [torch.tanh(pre) if mode == "RNN_TANH" else torch.relu(pre)]


def _check_cell(api, input, states, weight_ih):
    """A cell step's input ``[batch, input_size]`` and states share the weights' float dtype."""
    if weight_ih.dtype not in F32_F64:   # Paddle's CPU matmul, its first step, keyed by the weight
        kernel_dtypes(api[7:], weight_ih, F32_F64, "weight_ih")
    for name, t in (("inputs", input),) + tuple((f"states[{i}]", h) for i, h in enumerate(states)):
        if not isinstance(t, torch.Tensor):
            raise ValueError(f"{api}: '{name}' must be a Tensor, but received {type(t).__name__}")
        if t.dtype != weight_ih.dtype:
            raise ValueError(f"{api}: the dtype of '{name}' ({str(t.dtype).replace('torch.', '')}) "
                             f"must be the parameters' dtype "
                             f"({str(weight_ih.dtype).replace('torch.', '')})")
    if input.dim() < 1 or input.shape[-1] != weight_ih.shape[-1]:
        raise ValueError(f"{api}: 'inputs' must be [batch_size, input_size] with input_size "
                         f"{weight_ih.shape[-1]}, but received shape {list(input.shape)}")


def _fused_shapes(input, states) -> bool:
    """Whether torch's fused cell takes these shapes: a 2-D input and states of its batch.
    Paddle's cells are matmuls that broadcast (a 1-D or N-D input, a [1, size] state)."""
    return input.dim() == 2 and all(h.dim() == 2 and h.shape[0] == input.shape[0] for h in states)


def _gates(input, hidden, weight_ih, weight_hh, bias_ih, bias_hh):
    # Paddle's matmul form: the input and hidden projections, each plus its bias, broadcast
    return F.linear(input, weight_ih, bias_ih), F.linear(hidden, weight_hh, bias_hh)


@defop(paddle_types=("lstm_cell",), method=False)
def lstm_cell(input, hidden, cell, weight_ih, weight_hh, bias_ih=None, bias_hh=None):
    """One LSTM step: gates ``i, f, g, o`` from ``input @ weight_ih.T + hidden @ weight_hh.T``.

    Returns:
        tuple: ``(new_hidden, new_cell)``.

    Examples:
        >>> import pagaie as paddle
        >>> cell = paddle.nn.LSTMCell(4, 3)
        >>> h, (h2, c) = cell(paddle.ones([2, 4]))
        >>> h.shape, c.shape
        (paddle.Size([2, 3]), paddle.Size([2, 3]))
    """
    _check_cell("paddle.nn.LSTMCell", input, (hidden, cell), weight_ih)
    # Paddle's matmul of the hidden state and its elementwise update of the cell state
    # (LSTMCell's own default states with a projection fail here: its state_shape swaps them)
    if hidden.dim() < 1 or hidden.shape[-1] != weight_hh.shape[-1]:
        raise ValueError(f"paddle.nn.LSTMCell: the hidden state must be [batch_size, "
                         f"{weight_hh.shape[-1]}] (weight_hh is {list(weight_hh.shape)}), but "
                         f"received shape {list(hidden.shape)}")
    if cell.dim() < 1 or cell.shape[-1] not in (1, weight_ih.shape[0] // 4):
        raise ValueError(f"paddle.nn.LSTMCell: the cell state must be [batch_size, "
                         f"{weight_ih.shape[0] // 4}], but received shape {list(cell.shape)}")
    if hidden.shape[-1] * 4 != weight_ih.shape[0] or not _fused_shapes(input, (hidden, cell)):
        # a projected hidden state or broadcasting shapes: no fused cell
        gates = sum(_gates(input, hidden, weight_ih, weight_hh, bias_ih, bias_hh))
        i, f, g, o = gates.chunk(4, -1)
        c = torch.sigmoid(f) * cell + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c
    return tuple(torch._VF.lstm_cell(input, (hidden, cell), weight_ih, weight_hh, bias_ih, bias_hh))


@defop(paddle_types=("gru_cell",), method=False)
def gru_cell(input, hidden, weight_ih, weight_hh, bias_ih=None, bias_hh=None):
    """One GRU step, Paddle's formula: ``c = tanh(x_c + r * (W_hc h + b_hc))``,
    ``h' = (h - c) * z + c``.

    Examples:
        >>> import pagaie as paddle
        >>> cell = paddle.nn.GRUCell(4, 3)
        >>> y, h = cell(paddle.ones([2, 4]))
        >>> y.shape
        paddle.Size([2, 3])
    """
    _check_cell("paddle.nn.GRUCell", input, (hidden,), weight_ih)
    if not _fused_shapes(input, (hidden,)):
        if input.dim() < 2 or hidden.dim() < 2:   # Paddle splits the gates along axis 1
            raise ValueError(f"paddle.nn.GRUCell: 'inputs' and 'states' must be at least 2-D, but "
                             f"received shapes {list(input.shape)} and {list(hidden.shape)}")
        (x_r, x_z, x_c), (h_r, h_z, h_c) = (g.chunk(3, 1) for g in _gates(
            input, hidden, weight_ih, weight_hh, bias_ih, bias_hh))
        r, z = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
        c = torch.tanh(x_c + r * h_c)
        return (hidden - c) * z + c
    return torch._VF.gru_cell(input, hidden, weight_ih, weight_hh, bias_ih, bias_hh)


@defop(paddle_types=("simple_rnn_cell",), method=False)
def simple_rnn_cell(input, hidden, weight_ih, weight_hh, bias_ih=None, bias_hh=None, activation="tanh"):
    """One Elman step ``act(input @ weight_ih.T + b_ih + hidden @ weight_hh.T + b_hh)``.

    Examples:
        >>> import pagaie as paddle
        >>> cell = paddle.nn.SimpleRNNCell(4, 3, activation='relu')
        >>> y, h = cell(paddle.ones([2, 4]))
        >>> bool((y >= 0).all())
        True
    """
    _check_cell("paddle.nn.SimpleRNNCell", input, (hidden,), weight_ih)
    if not _fused_shapes(input, (hidden,)):
        h = sum(_gates(input, hidden, weight_ih, weight_hh, bias_ih, bias_hh))
        return torch.tanh(h) if activation == "tanh" else torch.relu(h)
    fn = torch._VF.rnn_tanh_cell if activation == "tanh" else torch._VF.rnn_relu_cell
    return fn(input, hidden, weight_ih, weight_hh, bias_ih, bias_hh)
