"""Recurrent layers: the cells (SimpleRNNCell, LSTMCell, GRUCell), the wrappers that run a
cell over time (RNN, BiRNN) and the stacked networks (SimpleRNN, LSTM, GRU).

Parameter names, shapes, gate orders and state layouts are Paddle's, so state dicts move both
ways. The stacked networks run torch's fused kernels through the ``rnn`` op record; the
wrappers step a cell in Python (any user cell works) and use the fused kernel for a built-in
cell when no ``sequence_length`` is given (same result, one call).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import pagaie as _pg
from pagaie._core import dtype as _dt
from pagaie._ops import nn_rnn as _r
from pagaie._ops._helpers import ALL_DTYPES, F32_F64, kernel_dtypes
from pagaie._ops.nn_misc import sequence_mask as _sequence_mask
from pagaie.framework.tensor_methods import create_tensor
from pagaie.nn.layer.container import LayerList
from pagaie.nn.layer.layers import Layer

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN",
           "LSTM", "GRU"]


# ---- nested structures (a Tensor, or lists/tuples of them) ----------------------------------
def _is_seq(x: Any) -> bool:
    return isinstance(x, (list, tuple))


def _flatten(x: Any) -> list:
    if _is_seq(x):
        return [e for item in x for e in _flatten(item)]
    return [x]


def _map(fn: Callable, *xs: Any) -> Any:
    if _is_seq(xs[0]):
        out = [_map(fn, *items) for items in zip(*xs)]
        return type(xs[0])(out) if not hasattr(xs[0], "_fields") else type(xs[0])(*out)
    return fn(*xs)


# ---- cells ------------------------------------------------------------------------------------

def _full_batch_like(ref: Any, batch_dim_idx: int, shape: list, batch_pos: int, value: float,
                     dtype: Any) -> Any:
    """``full(shape, value)`` whose ``batch_pos`` dim is ``ref``'s ``batch_dim_idx`` dim: built
    from ``ref`` itself when that size is unknown (-1) in a static program, as Paddle's
    batch-size-like fill does."""
    batch = int(ref.shape[batch_dim_idx])
    if batch >= 0:
        shape = list(shape)
        shape[batch_pos] = batch
        return _pg.full(shape, value, dtype)
    perm = [batch_dim_idx] + [i for i in range(ref.ndim) if i != batch_dim_idx]
    col = _pg.reshape(_pg.transpose(ref, perm), [0, -1])[:, :1]          # [batch, 1]
    col = _pg.full_like(col, value, dtype)
    col = _pg.reshape(col, [1] * batch_pos + [-1] + [1] * (len(shape) - batch_pos - 1))
    return _pg.tile(col, [1 if i == batch_pos else int(d) for i, d in enumerate(shape)])

_COALESCE_CPU_DTYPES = ALL_DTYPES - {_dt.to_torch_dtype("float16"), _dt.to_torch_dtype("bfloat16")}


class RNNCellBase(Layer):
    """Base class of RNN cells: maps ``(inputs, states)`` to ``(outputs, new_states)``.

    Subclasses define ``forward`` and the ``state_shape`` property (a shape, or a nested
    structure of shapes, without the batch dimension) used by :meth:`get_initial_states`.

    Examples:
        >>> import pagaie as paddle
        >>> cell = paddle.nn.GRUCell(4, 3)
        >>> cell.get_initial_states(paddle.ones([5, 4])).shape
        paddle.Size([5, 3])
    """

    def get_initial_states(self, batch_ref: Any, shape: Any = None, dtype: Any = None,
                           init_value: float = 0.0, batch_dim_idx: int = 0) -> Any:
        """States filled with ``init_value``, batch size taken from ``batch_ref``.

        Args:
            batch_ref (Tensor): its ``shape[batch_dim_idx]`` is the batch size (the first
                tensor of a nested structure is used).
            shape (list|tuple, optional): a shape or nested shapes; ``-1`` (batch) is
                prepended to a shape that does not start with it. ``state_shape`` when None.
            dtype (str|list, optional): dtype(s); ``state_dtype`` or the default dtype when None.
            init_value (float): fill value. Default 0.
            batch_dim_idx (int): which axis of ``batch_ref`` is the batch. Default 0.

        Returns:
            Tensor|tuple: the states, structured like ``shape``.

        Examples:
            >>> import pagaie as paddle
            >>> h, c = paddle.nn.LSTMCell(4, 3).get_initial_states(paddle.ones([2, 4]))
            >>> h.shape, c.shape
            (paddle.Size([2, 3]), paddle.Size([2, 3]))
        """
        ref = _flatten(batch_ref)[0]
        shapes = self.state_shape if shape is None else shape

        def is_shape(s: Any) -> bool:
            return _is_seq(s) and all(isinstance(e, int) for e in s)

        def fill_shapes(s: Any) -> Any:
            if is_shape(s):
                s = list(s)
                return s if s[0] == -1 else [-1] + s   # (an empty shape: IndexError, as in Paddle)
            if isinstance(s, dict):
                raise AttributeError(f"{type(self).__name__}.get_initial_states: 'shape' must be a "
                                     f"shape or a list/tuple of shapes, but received a dict")
            return type(s)(fill_shapes(e) for e in s)

        shapes = fill_shapes(shapes)
        # Paddle puts the batch size into a single shape, into each shape of a tuple, and into
        # each shape of a list's first item only: the rest keep -1 and fail to fill
        if is_shape(shapes):
            batched = [shapes]
        elif isinstance(shapes, tuple):
            batched = list(shapes)
        elif is_shape(shapes[0]):
            raise TypeError(f"{type(self).__name__}.get_initial_states: a list of shapes must hold "
                            f"lists/tuples of shapes, but its first item is the shape {shapes[0]}")
        else:
            batched = list(shapes[0])
        for b in batched:
            if not is_shape(b):
                raise AttributeError(f"{type(self).__name__}.get_initial_states: expected a shape, "
                                     f"but received the nested {type(b).__name__} {b}")
        batched_ids = {id(b) for b in batched}
        if dtype is None:
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                dtype = _dt.get_default_dtype()
        dts = _flatten(dtype)

        def make(s: Any, k: list) -> Any:
            if is_shape(s):
                dt = dts[0] if len(dts) == 1 else dts[k[0]]
                k[0] += 1
                if id(s) not in batched_ids:
                    return _pg.full(s, init_value, dt)
                return _full_batch_like(ref, batch_dim_idx, s, 0, init_value, dt)
            return type(s)(make(e, k) for e in s)

        return make(shapes, [0])

    @property
    def state_shape(self) -> Any:
        """The states' shape(s) without the batch dimension (abstract)."""
        raise NotImplementedError("Please add implementation for `state_shape` in the used cell.")

    @property
    def state_dtype(self) -> Any:
        """The states' dtype(s) (abstract; the default dtype is used when not defined)."""
        raise NotImplementedError("Please add implementation for `state_dtype` in the used cell.")


def _uniform(hidden_size: int) -> Any:
    from pagaie.nn.initializer import Uniform
    std = 1.0 / math.sqrt(hidden_size)
    return Uniform(-std, std)


def _make_cell_params(cell: Layer, gates: int, input_size: int, hidden_size: int, h_in: int,
                      weight_ih_attr: Any, weight_hh_attr: Any, bias_ih_attr: Any, bias_hh_attr: Any) -> None:
    """Paddle's cell parameters: Uniform(-1/sqrt(hidden), 1/sqrt(hidden)); an attr of False
    gives a frozen constant (1 for weights, 0 for biases)."""
    from pagaie.nn.initializer import Constant
    init = _uniform(hidden_size)
    dtype = _dt.get_default_dtype()  # Paddle: the global default, not the layer's dtype
    spec = [("weight_ih", (gates * hidden_size, input_size), weight_ih_attr, False),
            ("weight_hh", (gates * hidden_size, h_in), weight_hh_attr, False),
            ("bias_ih", (gates * hidden_size,), bias_ih_attr, True),
            ("bias_hh", (gates * hidden_size,), bias_hh_attr, True)]
    for name, shape, attr, is_bias in spec:
        if attr is not False:
            p = cell.create_parameter(shape, attr, dtype, is_bias=is_bias, default_initializer=init)
        else:
            p = cell.create_parameter(shape, None, dtype, is_bias=is_bias,
                                      default_initializer=Constant(0.0 if is_bias else 1.0))
            p.stop_gradient = True
        setattr(cell, name, p)


def _check_hidden(cls: type, hidden_size: int) -> None:
    if hidden_size <= 0:
        raise ValueError(f"paddle.nn.{cls.__name__}: hidden_size must be greater than 0, but "
                         f"received {hidden_size}")


class SimpleRNNCell(RNNCellBase):
    r"""Elman cell ``h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)``; output = new state.

    Args:
        input_size (int): input size.
        hidden_size (int): hidden size.
        activation (str): 'tanh' (default) or 'relu'.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr (ParamAttr, optional):
            parameter attributes; weights ``[hidden, input]`` / ``[hidden, hidden]``, biases
            ``[hidden]``, all Uniform(-1/sqrt(hidden), 1/sqrt(hidden)) by default.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> cell = paddle.nn.SimpleRNNCell(16, 32)
        >>> y, h = cell(paddle.randn((4, 16)), paddle.randn((4, 32)))
        >>> y.shape
        paddle.Size([4, 32])
    """

    def __init__(self, input_size: int, hidden_size: int, activation: str = "tanh",
                 weight_ih_attr: Any = None, weight_hh_attr: Any = None, bias_ih_attr: Any = None,
                 bias_hh_attr: Any = None, name: str | None = None) -> None:
        super().__init__()
        _check_hidden(type(self), hidden_size)
        _make_cell_params(self, 1, input_size, hidden_size, hidden_size, weight_ih_attr,
                          weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.input_size, self.hidden_size = input_size, hidden_size
        if activation not in ("tanh", "relu"):
            raise ValueError(f"paddle.nn.SimpleRNNCell: activation should be 'tanh' or 'relu', but "
                             f"received {activation!r}")
        self.activation = activation

    def forward(self, inputs: Any, states: Any = None) -> tuple:
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = _r.simple_rnn_cell(inputs, states, self.weight_ih, self.weight_hh, self.bias_ih,
                               self.bias_hh, self.activation)
        return h, h

    @property
    def state_shape(self) -> tuple:
        return (self.hidden_size,)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        return s + (f", activation={self.activation}" if self.activation != "tanh" else "")


class LSTMCell(RNNCellBase):
    r"""LSTM cell. Gates ``i, f, g, o`` (in this order in the weights):
    ``c' = f * c + i * tanh(g)``, ``h' = o * tanh(c')`` (then ``h' @ weight_ho`` when
    ``proj_size > 0``). Returns ``(h', (h', c'))``.

    Args:
        input_size (int): input size.
        hidden_size (int): hidden size.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr (ParamAttr, optional):
            parameter attributes; weights ``[4*hidden, input]`` / ``[4*hidden, proj or hidden]``,
            biases ``[4*hidden]``.
        proj_size (int): size of the projected hidden state (0: none); adds ``weight_ho``
            ``[hidden, proj_size]``.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> cell = paddle.nn.LSTMCell(16, 32)
        >>> y, (h, c) = cell(paddle.randn((4, 16)))
        >>> y.shape, c.shape
        (paddle.Size([4, 32]), paddle.Size([4, 32]))
    """

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 proj_size: int = 0, name: str | None = None) -> None:
        super().__init__()
        _check_hidden(type(self), hidden_size)
        if proj_size < 0:
            raise ValueError(f"paddle.nn.{type(self).__name__}: proj_size must not be negative, but "
                             f"received {proj_size}")
        if proj_size >= hidden_size:
            raise ValueError(f"paddle.nn.{type(self).__name__}: proj_size ({proj_size}) must be "
                             f"smaller than hidden_size ({hidden_size})")
        _make_cell_params(self, 4, input_size, hidden_size, proj_size or hidden_size, weight_ih_attr,
                          weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.proj_size = proj_size
        if proj_size > 0:
            self.weight_ho = self.create_parameter((hidden_size, proj_size), weight_hh_attr,
                                                   _dt.get_default_dtype(),
                                                   default_initializer=_uniform(hidden_size))
        self.hidden_size, self.input_size = hidden_size, input_size

    def forward(self, inputs: Any, states: Any = None) -> tuple:
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        if _is_seq(states) and len(states) != 2:   # a Tensor [2, batch, size] unpacks, as in Paddle
            raise ValueError(f"paddle.nn.LSTMCell: 'states' must be a pair (h, c) of Tensors, but "
                             f"received a {type(states).__name__} of length {len(states)}")
        pre_h, pre_c = states
        if self.proj_size > 0:
            h, c = _r.lstm_cell(inputs, pre_h, pre_c, self.weight_ih, self.weight_hh, self.bias_ih,
                                self.bias_hh)
            h = _pg.matmul(h, self.weight_ho)
        else:
            h, c = _r.lstm_cell(inputs, pre_h, pre_c, self.weight_ih, self.weight_hh, self.bias_ih,
                                self.bias_hh)
        return h, (h, c)

    @property
    def state_shape(self) -> tuple:
        """``((hidden_size,), (proj_size or hidden_size,))``, Paddle's value. With a projection
        these are not the states' true sizes (``h`` is ``proj_size`` wide, ``c`` is
        ``hidden_size``), so default states then fail in the first matmul, as in Paddle."""
        return ((self.hidden_size,), (self.proj_size or self.hidden_size,))

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(RNNCellBase):
    r"""GRU cell, Paddle's formula (gates ``r, z, c`` in this order in the weights):
    ``r = σ(x_r + h_r)``, ``z = σ(x_z + h_z)``, ``c = tanh(x_c + r * h_c)``,
    ``h' = (h - c) * z + c`` where ``x_* = x W_i*^T + b_i*`` and ``h_* = h W_h*^T + b_h*``.

    Args:
        input_size (int): input size.
        hidden_size (int): hidden size.
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr (ParamAttr, optional):
            parameter attributes; weights ``[3*hidden, input]`` / ``[3*hidden, hidden]``.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> cell = paddle.nn.GRUCell(16, 32)
        >>> y, h = cell(paddle.randn((4, 16)), paddle.randn((4, 32)))
        >>> h.shape
        paddle.Size([4, 32])
    """

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        _check_hidden(type(self), hidden_size)
        _make_cell_params(self, 3, input_size, hidden_size, hidden_size, weight_ih_attr,
                          weight_hh_attr, bias_ih_attr, bias_hh_attr)
        self.hidden_size, self.input_size = hidden_size, input_size

    def forward(self, inputs: Any, states: Any = None) -> tuple:
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = _r.gru_cell(inputs, states, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return h, h

    @property
    def state_shape(self) -> tuple:
        return (self.hidden_size,)

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


# ---- running a cell over time -----------------------------------------------------------------
_MODES = {SimpleRNNCell: None, LSTMCell: "LSTM", GRUCell: "GRU"}


def _fused_single(cell: Layer, inputs: Any, initial_states: Any, time_major: bool,
                  is_reverse: bool) -> tuple:
    """A built-in cell over a whole sequence in one fused call (no sequence_length)."""
    x = inputs if time_major else _pg.transpose(inputs, [1, 0, 2])
    if is_reverse:
        x = _pg.flip(x, [0])
    mode = _MODES[type(cell)] or ("RNN_TANH" if cell.activation == "tanh" else "RNN_RELU")
    # Paddle steps the cell, whose CPU matmul kernel is chosen by the weight and reads x in its dtype
    if cell.weight_ih._t.dtype not in F32_F64:
        kernel_dtypes(f"nn.{type(cell).__name__}", cell.weight_ih._t, F32_F64, "weight_ih")
    if x.dtype != cell.weight_ih.dtype:
        raise ValueError(f"paddle.nn.{type(cell).__name__}: the dtype of 'inputs' "
                         f"({str(x.dtype).replace('paddle.', '')}) must be the parameters' dtype "
                         f"({str(cell.weight_ih.dtype).replace('paddle.', '')})")
    if initial_states is None:
        initial_states = cell.get_initial_states(x, batch_dim_idx=1, dtype=x.dtype)
    states = [s.unsqueeze(0) for s in _flatten(initial_states)]
    out, finals = _r.rnn(x, states, [cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh], None,
                         0.0, False, cell.input_size, cell.hidden_size, 1, mode, 0, False)
    if is_reverse:
        out = _pg.flip(out, [0])
    if not time_major:
        out = _pg.transpose(out, [1, 0, 2])
    finals = [s.squeeze(0) for s in finals]
    return out, (tuple(finals) if mode == "LSTM" else finals[0])


def _copy_where(old: Any, new: Any, m: Any) -> Any:
    """Per batch row: ``new`` where the step is valid (m = 1), ``old`` elsewhere."""
    m = m.reshape([-1] + [1] * (len(new.shape) - 1))
    return new * m + old * (1 - m)


def rnn_loop(cell: Layer, inputs: Any, initial_states: Any = None, sequence_length: Any = None,
             time_major: bool = False, is_reverse: bool = False, **kwargs: Any) -> tuple:
    """Run ``cell`` step by step over ``inputs`` (Paddle's ``paddle.nn.layer.rnn.rnn``).

    With ``sequence_length``, states stop changing after each sequence's last valid step;
    the outputs at padded steps are whatever the cell returns there (as in Paddle).
    """
    x0 = _flatten(inputs)[0]
    if hasattr(x0, "shape") and len(x0.shape) > 1 and int(x0.shape[0 if time_major else 1]) == 0:
        # Paddle's step loop never runs, and reading the states it would have set fails
        # (a mask of the lengths, made first, already fails for 0 steps)
        if sequence_length is not None:
            _sequence_mask(sequence_length, 0, x0.dtype)
        raise UnboundLocalError(f"paddle.nn.RNN: 'inputs' has no time steps (shape "
                                f"{list(x0.shape)}), so no cell step sets the final states")
    if (not kwargs and sequence_length is None and type(cell) in _MODES and not _is_seq(inputs)
            and getattr(cell, "proj_size", 0) == 0 and len(inputs.shape) == 3
            # states of another structure: the cell itself reports them
            and (initial_states is None or _is_seq(initial_states) == (type(cell) is LSTMCell)
                 and len(_flatten(initial_states)) == len(_flatten(cell.state_shape)))
            and not cell._forward_pre_hooks and not cell._forward_post_hooks  # hooks see each step
            # the fused backward needs every weight's gradient; Paddle steps the cell here
            and not any(p.stop_gradient for p in (cell.weight_ih, cell.weight_hh, cell.bias_ih,
                                                  cell.bias_hh))):
        return _fused_single(cell, inputs, initial_states, time_major, is_reverse)
    t_axis = 0 if time_major else 1
    steps = int(_flatten(inputs)[0].shape[t_axis])
    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=inputs, batch_dim_idx=t_axis ^ 1)
    if not time_major:
        inputs = _map(lambda x: _pg.transpose(x, [1, 0] + list(range(2, len(x.shape)))), inputs)
    mask = None
    if sequence_length is not None:
        mask = _pg.transpose(_sequence_mask(sequence_length, steps, _flatten(inputs)[0].dtype), [1, 0])
    if is_reverse:
        inputs = _map(lambda x: _pg.flip(x, [0]), inputs)
        mask = None if mask is None else _pg.flip(mask, [0])
    states = initial_states
    outs: list = []
    for i in range(steps):
        step_out, new_states = cell(_map(lambda x: x[i], inputs), states, **kwargs)
        if mask is not None:
            m = mask[i]
            new_states = _map(lambda old, new: _copy_where(old, new, m), states, new_states)
        states = new_states
        outs.append(step_out)
    if _is_seq(outs[0]):
        final = _map(lambda *xs: _pg.stack(list(xs), axis=t_axis), *outs)
    else:
        final = _pg.stack(outs, axis=t_axis)
    if is_reverse:
        final = _map(lambda x: _pg.flip(x, [t_axis]), final)
    return final, states


class RNN(Layer):
    """Runs a cell over the time steps of a sequence.

    Args:
        cell (RNNCellBase): the cell.
        is_reverse (bool): run from the last step to the first. Default False.
        time_major (bool): inputs are ``[time, batch, ...]`` rather than ``[batch, time, ...]``.

    Call ``rnn(inputs, initial_states=None, sequence_length=None, **kwargs)``; returns
    ``(outputs, final_states)``. With ``sequence_length``, each sequence's final state is the
    one after its last valid step.

    Examples:
        >>> import pagaie as paddle
        >>> rnn = paddle.nn.RNN(paddle.nn.SimpleRNNCell(16, 32))
        >>> outputs, final_states = rnn(paddle.rand((4, 23, 16)), paddle.randn((4, 32)))
        >>> outputs.shape, final_states.shape
        (paddle.Size([4, 23, 32]), paddle.Size([4, 32]))
    """

    def __init__(self, cell: Layer, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        self.cell = cell
        if not hasattr(self.cell, "call"):
            self.cell.call = self.cell.forward
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None,
                **kwargs: Any) -> tuple:
        return rnn_loop(self.cell, inputs, initial_states, sequence_length, self.time_major,
                        self.is_reverse, **kwargs)


class BiRNN(Layer):
    """Runs a forward cell and a backward cell over a sequence and concatenates their outputs
    on the last axis.

    Args:
        cell_fw (RNNCellBase): the forward cell.
        cell_bw (RNNCellBase): the backward cell (same input size).
        time_major (bool): inputs are ``[time, batch, ...]``.

    Call ``birnn(inputs, initial_states=None, sequence_length=None, **kwargs)``; returns
    ``(outputs, (final_states_fw, final_states_bw))``.

    Examples:
        >>> import pagaie as paddle
        >>> rnn = paddle.nn.BiRNN(paddle.nn.LSTMCell(16, 32), paddle.nn.LSTMCell(16, 32))
        >>> outputs, final_states = rnn(paddle.rand((2, 23, 16)))
        >>> outputs.shape, final_states[0][0].shape
        (paddle.Size([2, 23, 64]), paddle.Size([2, 32]))
    """

    def __init__(self, cell_fw: Layer, cell_bw: Layer, time_major: bool = False) -> None:
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not equals"
                             f"that of backward cell({cell_bw.input_size})")
        for cell in (self.cell_fw, self.cell_bw):
            if not hasattr(cell, "call"):
                cell.call = cell.forward
        self.time_major = time_major

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None,
                **kwargs: Any) -> tuple:
        if _is_seq(initial_states):
            assert len(initial_states) == 2, "length of initial_states should be 2 when it is a list/tuple"
        return birnn(self.cell_fw, self.cell_bw, inputs, initial_states, sequence_length,
                     self.time_major, **kwargs)


rnn = rnn_loop   # Paddle's name in this module


def birnn(cell_fw: Layer, cell_bw: Layer, inputs: Any, initial_states: Any = None,
          sequence_length: Any = None, time_major: bool = False, **kwargs: Any) -> tuple:
    """Run ``cell_fw`` forward and ``cell_bw`` backward over ``inputs`` and concatenate their
    outputs on the last axis (Paddle's ``paddle.nn.layer.rnn.birnn``).

    Returns:
        tuple: ``(outputs, (final_states_fw, final_states_bw))``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.layer.rnn import birnn
        >>> y, (h_fw, h_bw) = birnn(paddle.nn.GRUCell(4, 3), paddle.nn.GRUCell(4, 3), paddle.ones([2, 5, 4]))
        >>> y.shape, h_bw.shape
        (paddle.Size([2, 5, 6]), paddle.Size([2, 3]))
    """
    if initial_states is None:
        # both from the forward cell, as Paddle does
        b = 1 if time_major else 0
        states_fw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=b)
        states_bw = cell_fw.get_initial_states(batch_ref=inputs, batch_dim_idx=b)
    else:
        states_fw, states_bw = initial_states
    out_fw, states_fw = rnn_loop(cell_fw, inputs, states_fw, sequence_length, time_major, False, **kwargs)
    out_bw, states_bw = rnn_loop(cell_bw, inputs, states_bw, sequence_length, time_major, True, **kwargs)
    outputs = _map(lambda x, y: _pg.concat([x, y], -1), out_fw, out_bw)
    return outputs, (states_fw, states_bw)


# ---- stacked networks -------------------------------------------------------------------------
_BIDIRECTIONAL = ("bidirectional", "bidirect")


class RNNBase(LayerList):
    """Shared body of SimpleRNN, LSTM and GRU: a LayerList of per-layer RNN / BiRNN wrappers whose
    parameters are also exposed as ``weight_ih_l{k}[_reverse]`` etc. (Paddle's names)."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 direction: str = "forward", time_major: bool = False, dropout: float = 0.0,
                 weight_ih_attr: Any = None, weight_hh_attr: Any = None, bias_ih_attr: Any = None,
                 bias_hh_attr: Any = None, proj_size: int = 0) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.dropout = dropout
        self.num_directions = 2 if direction in _BIDIRECTIONAL else 1
        self.time_major = time_major
        self.num_layers = num_layers
        self.state_components = 2 if mode == "LSTM" else 1
        kwargs: dict = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr,
                        "bias_ih_attr": bias_ih_attr, "bias_hh_attr": bias_hh_attr}
        self.proj_size = proj_size
        if proj_size > 0:
            assert mode == "LSTM"
        if mode == "LSTM":
            cls: type = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            cls = GRUCell
        else:
            cls = SimpleRNNCell
            kwargs["activation"] = "relu" if mode == "RNN_RELU" else "tanh"
        in_size = proj_size or hidden_size
        # the first layer is built whatever num_layers is (as Paddle does): with num_layers < 1
        # the network has that one layer, and its forward fails
        if direction == "forward":
            for i in range(max(num_layers, 1)):
                self.append(RNN(cls(input_size if i == 0 else in_size, hidden_size, **kwargs), False,
                                time_major))
        elif direction in _BIDIRECTIONAL:
            for i in range(max(num_layers, 1)):
                size = input_size if i == 0 else 2 * in_size
                self.append(BiRNN(cls(size, hidden_size, **kwargs), cls(size, hidden_size, **kwargs),
                                  time_major))
        else:
            raise ValueError(f"paddle.nn.{type(self).__name__}: direction should be 'forward' or "
                             f"'bidirect' (or 'bidirectional'), but received {direction!r}")
        self.could_use_cudnn = len(self.parameters()) == num_layers * 4 * self.num_directions
        if self.could_use_cudnn:
            # Paddle makes a flat copy of the weights here (discarded: pagaie keeps no flat
            # buffer); under set_global_initializer that copy draws from the random stream, so
            # the draw is made too and later random ops get what Paddle's get
            from pagaie.nn.initializer import Constant
            ps = self.parameters()
            # Paddle's coalesce_tensor, which makes that copy, has no float16/bfloat16 CPU kernel
            kernel_dtypes(f"nn.{type(self).__name__}", ps[0]._t, _COALESCE_CPU_DTYPES, "weight")
            if input_size == 0:   # nor takes the empty weight_ih of a zero input size
                raise ValueError(f"paddle.nn.{type(self).__name__}: input_size must be greater "
                                 f"than 0, but received {input_size}")
            self.create_parameter([sum(p.size for p in ps)], dtype=ps[0].dtype,
                                  default_initializer=Constant(0.0))
            # Paddle's cuDNN dropout state: a uint8 buffer that holds no values
            # (``Tensor(Not initialized)``), never saved (absent where its cuDNN path cannot
            # apply, e.g. with an LSTM projection)
            state = create_tensor("uint8", name=f"{self.full_name()}.dropout_state__non_persistable")
            self.register_buffer("_dropout_state", state, persistable=False)
        names: list[str] = []
        for layer in range(num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                names += [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                if bias_ih_attr is not False:
                    names.append(f"bias_ih_l{layer}{suffix}")
                if bias_hh_attr is not False:
                    names.append(f"bias_hh_l{layer}{suffix}")
        for name, param in zip(names, self.parameters()):
            setattr(self, name, param)
        # A bias attr of False still makes a (frozen) bias in every cell but drops its name, so
        # Paddle lays out fewer named parameters than the fused kernel reads: its layout step
        # indexes past the list (IndexError), or the kernel later fails on the holes
        self._incomplete_weights = self.could_use_cudnn and len(names) < len(self.parameters())
        if self.could_use_cudnn:
            # Paddle's cuDNN layout of the named parameters, kept as ``_all_weights``: every
            # weight, then every bias
            cells = num_layers * self.num_directions
            self._all_weights = [None] * len(names)
            for i, name in enumerate(names):
                at = (0 if i % 4 < 2 else 2 * cells) + (i // 4) * 2 + i % 2
                if at >= len(names):
                    raise IndexError(f"paddle.nn.{type(self).__name__}: with bias_ih_attr="
                                     f"{bias_ih_attr} and bias_hh_attr={bias_hh_attr}, the fused "
                                     f"weight layout of {len(names)} named parameters has no "
                                     f"place {at}")
                self._all_weights[at] = getattr(self, name)

    def _cells(self) -> list:
        cells = []
        for layer in self:
            cells += [layer.cell_fw, layer.cell_bw] if isinstance(layer, BiRNN) else [layer.cell]
        return cells

    def flatten_parameters(self) -> None:
        """Kept for Paddle compatibility: the fused kernel reads the parameters where they are."""

    def _fused(self, inputs: Any, initial_states: Sequence, sequence_length: Any) -> tuple:
        if getattr(self, "_incomplete_weights", False):
            raise RuntimeError(f"paddle.nn.{type(self).__name__}: the fused kernel reads "
                               f"{len(self.parameters())} weights, but a bias attr of False left "
                               "only the named ones in its weight list (some are missing)")
        cells = self._cells()
        weights = [w for c in cells for w in (c.weight_ih, c.weight_hh)]
        biases = [b for c in cells for b in (c.bias_ih, c.bias_hh)]
        x = inputs if self.time_major else _pg.transpose(inputs, [1, 0, 2])
        out, states = _r.rnn(x, list(initial_states), weights + biases, sequence_length, self.dropout,
                             self.num_directions == 2, self.input_size, self.hidden_size,
                             self.num_layers, self.mode, 0, not self.training)
        if not self.time_major:
            out = _pg.transpose(out, [1, 0, 2])
        return out, (tuple(states) if len(states) > 1 else states[0])

    def forward(self, inputs: Any, initial_states: Any = None, sequence_length: Any = None) -> tuple:
        if self.num_layers < 1:
            # Paddle builds such a network, then its forward fails: negative sizes of the
            # initial states (ValueError), or splitting no states (AttributeError; IndexError
            # for LSTM's two)
            err = ValueError if self.num_layers < 0 else (
                AttributeError if self.state_components == 1 else IndexError)
            raise err(f"paddle.nn.{type(self).__name__}: num_layers must be at least 1 to run "
                      f"the network, but it is {self.num_layers}")
        if initial_states is None:
            dims = (self.proj_size or self.hidden_size, self.hidden_size)
            initial_states = tuple(
                _full_batch_like(inputs, 1 if self.time_major else 0,
                                 [self.num_layers * self.num_directions, -1, dims[i]], 1, 0,
                                 inputs.dtype)
                for i in range(self.state_components))
        elif not _is_seq(initial_states):
            initial_states = [initial_states]
        if self.could_use_cudnn:
            return self._fused(inputs, initial_states, sequence_length)
        self._check_states(inputs, initial_states)
        bidir = self.num_directions == 2
        states = _split_states(initial_states, bidir, self.state_components)
        finals = []
        from pagaie._ops.nn_common import dropout
        for i, layer in enumerate(self):
            if i > 0:
                inputs = dropout(inputs, self.dropout, training=self.training, mode="upscale_in_train")
            outputs, final = layer(inputs, states[i], sequence_length)
            finals.append(final)
            inputs = outputs
        return outputs, _concat_states(finals, bidir, self.state_components)

    def _check_states(self, inputs: Any, states: Sequence) -> None:
        """The per-step path's states: ``[num_layers * num_directions, batch, size]`` each."""
        api = f"paddle.nn.{type(self).__name__}"
        if len(states) != self.state_components:   # Paddle's split_states asserts
            raise AssertionError(f"{api}: expected {self.state_components} initial state(s), but "
                                 f"received {len(states)}")
        batch = int(inputs.shape[1 if self.time_major else 0])
        sizes = (self.proj_size or self.hidden_size, self.hidden_size)
        for k, h in enumerate(states):
            want = [self.num_layers * self.num_directions, batch, sizes[k]]
            got = [int(d) for d in h.shape]
            if len(got) != 3 or any(0 <= g != w >= 0 for g, w in zip(got, want)):
                # too few rows for the layers: Paddle's per-layer lookup fails (IndexError)
                err = IndexError if got and got[0] < want[0] else ValueError
                raise err(f"{api}: initial_states[{k}] must have shape [num_layers * "
                          f"num_directions, batch_size, hidden_size] = {want}, but received {got}")

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


def split_states(states: Any, bidirectional: bool = False, state_components: int = 1) -> list:
    """Stacked states ``[num_layers * num_directions, batch, size]`` (one tensor per component)
    -> one entry per layer: a state, or a ``(forward, backward)`` pair when ``bidirectional``
    (Paddle's ``paddle.nn.layer.rnn.split_states``).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.layer.rnn import split_states
        >>> len(split_states(paddle.zeros([4, 2, 3]), bidirectional=True))
        2
    """
    if state_components != 1:
        assert len(states) == state_components
    return _split_states(states, bidirectional, state_components)


def concat_states(states: Any, bidirectional: bool = False, state_components: int = 1) -> Any:
    """The inverse of :func:`split_states`: per-layer states stacked back to
    ``[num_layers * num_directions, batch, size]`` (a tuple of them for several components).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.nn.layer.rnn import concat_states
        >>> concat_states([paddle.zeros([2, 3]), paddle.zeros([2, 3])]).shape
        paddle.Size([2, 2, 3])
    """
    return _concat_states(states, bidirectional, state_components)


def _split_states(states: Sequence, bidirectional: bool, components: int) -> list:
    if components == 1:
        parts = _pg.unstack(states[0] if _is_seq(states) else states)
        return list(zip(parts[::2], parts[1::2])) if bidirectional else parts
    per = list(zip(*[_pg.unstack(s) for s in states]))
    return list(zip(per[::2], per[1::2])) if bidirectional else per


def _concat_states(states: list, bidirectional: bool, components: int) -> Any:
    flat = _flatten(states)
    if components == 1:
        return _pg.stack(flat)
    return tuple(_pg.stack(flat[i::components]) for i in range(components))


_NET_ARGS = """
    Args:
        input_size (int): input size.
        hidden_size (int): hidden size.
        num_layers (int): stacked layers. Default 1.
        direction (str): 'forward' or 'bidirect' / 'bidirectional'.
        time_major (bool): inputs are ``[time, batch, input_size]``. Default False.
        dropout (float): dropout on the inputs of every layer but the first (training only).
        weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr (ParamAttr, optional):
            attributes of every cell's parameters.
        name (str, optional): unused.

    Call ``net(inputs, initial_states=None, sequence_length=None)``; returns
    ``(outputs, final_states)``, states ``[num_layers * num_directions, batch, hidden]``.
    With ``sequence_length``, outputs past each sequence's length are zeros and the final
    states are taken at its last valid step.
"""


class SimpleRNN(RNNBase):
    __doc__ = """Multi-layer Elman network (``activation`` 'tanh' or 'relu').
""" + _NET_ARGS + """
    Examples:
        >>> import pagaie as paddle
        >>> rnn = paddle.nn.SimpleRNN(16, 32, 2)
        >>> y, h = rnn(paddle.randn((4, 23, 16)))
        >>> y.shape, h.shape
        (paddle.Size([4, 23, 32]), paddle.Size([2, 4, 32]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, activation: str = "tanh",
                 weight_ih_attr: Any = None, weight_hh_attr: Any = None, bias_ih_attr: Any = None,
                 bias_hh_attr: Any = None, name: str | None = None) -> None:
        if activation == "tanh":
            mode = "RNN_TANH"
        elif activation == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"paddle.nn.SimpleRNN: activation should be 'tanh' or 'relu', but "
                             f"received {activation!r}")
        self.activation = activation
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)


class LSTM(RNNBase):
    __doc__ = """Multi-layer LSTM; states are ``(h, c)``. ``proj_size > 0`` projects each hidden
state to that size (``weight_ho``).
""" + _NET_ARGS + """
    Examples:
        >>> import pagaie as paddle
        >>> lstm = paddle.nn.LSTM(16, 32, 2, direction='bidirect')
        >>> y, (h, c) = lstm(paddle.randn((4, 23, 16)))
        >>> y.shape, h.shape
        (paddle.Size([4, 23, 64]), paddle.Size([4, 4, 32]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 proj_size: int = 0, name: str | None = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, proj_size)


class GRU(RNNBase):
    __doc__ = """Multi-layer GRU (Paddle's formula, see :class:`GRUCell`).
""" + _NET_ARGS + """
    Examples:
        >>> import pagaie as paddle
        >>> gru = paddle.nn.GRU(16, 32, 2)
        >>> y, h = gru(paddle.randn((4, 23, 16)))
        >>> y.shape, h.shape
        (paddle.Size([4, 23, 32]), paddle.Size([2, 4, 32]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr: Any = None,
                 weight_hh_attr: Any = None, bias_ih_attr: Any = None, bias_hh_attr: Any = None,
                 name: str | None = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major, dropout,
                         weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)
