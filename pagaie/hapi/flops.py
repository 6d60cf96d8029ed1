"""``paddle.flops``: count the multiply-accumulate operations of a network's forward pass."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import pagaie as paddle

__all__ = ["flops"]  # also public: dynamic_flops, the count_* rules, register_hooks


def count_convNd(m: Any, x: Any, y: Any) -> None:
    """Convolutions: ``out_elements * (in_channels / groups * kernel_size + bias)``."""
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    m.total_ops += abs(int(int(y.numel()) * (x[0].shape[1] / m._groups * kernel_ops + bias_ops)))


def count_leaky_relu(m: Any, x: Any, y: Any) -> None:
    """LeakyReLU: one operation per input element."""
    m.total_ops += int(x[0].numel())


def count_bn(m: Any, x: Any, y: Any) -> None:
    """Batch norm in eval mode: two operations per input element (none while training)."""
    if not m.training:
        m.total_ops += abs(int(2 * int(x[0].numel())))


def count_linear(m: Any, x: Any, y: Any) -> None:
    """Linear: ``in_features`` multiply-adds per output element."""
    m.total_ops += abs(int(m.weight.shape[0] * int(y.numel())))


def count_avgpool(m: Any, x: Any, y: Any) -> None:
    """Average pooling: one operation per output element."""
    m.total_ops += int(y.numel())


def count_adap_avgpool(m: Any, x: Any, y: Any) -> None:
    """Adaptive average pooling: ``kernel_size + 1`` operations per output element."""
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((np.prod(kernel) + 1) * int(y.numel())))


def count_zero_ops(m: Any, x: Any, y: Any) -> None:
    """Layers counted as free (ReLU, ReLU6, Dropout)."""
    m.total_ops += 0


def count_parameters(m: Any, x: Any, y: Any) -> None:
    """Store the layer's parameter count in its ``total_params`` buffer."""
    n = abs(int(sum(int(np.prod(p.shape)) for p in m.parameters())))
    m.total_params = paddle.to_tensor([n], dtype="int64")


def count_io_info(m: Any, x: Any, y: Any) -> None:
    """Store the shapes of the layer's first input and (first) output as buffers."""
    out = y[0] if isinstance(y, (list, tuple)) else y
    m.register_buffer("input_shape", paddle.to_tensor(list(x[0].shape), dtype="int64"))
    m.register_buffer("output_shape", paddle.to_tensor(list(out.shape), dtype="int64"))


# {layer class: rule}: the built-in rules (Paddle's ``dynamic_flops.register_hooks``); filled
# on first use, since pagaie.nn is not importable yet when this module loads.
register_hooks: dict = {}


def _default_rules() -> dict:
    if not register_hooks:
        nn = paddle.nn
        for names, fn in ((("Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
                            "Conv3DTranspose"), count_convNd),
                          (("BatchNorm2D", "BatchNorm"), count_bn),
                          (("ReLU", "ReLU6", "Dropout"), count_zero_ops),
                          (("LeakyReLU",), count_leaky_relu),
                          (("Linear",), count_linear),
                          (("AvgPool1D", "AvgPool2D", "AvgPool3D"), count_avgpool),
                          (("AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D"),
                           count_adap_avgpool)):
            for n in names:
                cls = getattr(nn, n, None)
                if cls is not None:
                    register_hooks[cls] = fn
    return register_hooks


class _Table:
    """A boxed text table (``+----+`` borders, centred cells)."""

    def __init__(self, heads: list[str]) -> None:
        self.heads = heads
        self.widths = [len(h) for h in heads]
        self.rows: list[list] = []

    def add_row(self, row: list) -> None:
        self.widths = [max(w, len(str(v))) for w, v in zip(self.widths, row)]
        self.rows.append(row)

    def _line(self, row: list) -> str:
        return "".join("|" + str(v).center(w + 2) for v, w in zip(row, self.widths)) + "|"

    def print_table(self) -> None:
        shelf = "".join("+" + "-" * (w + 2) for w in self.widths) + "+"
        print(shelf)
        print(self._line(self.heads))
        print(shelf)
        for row in self.rows:
            print(self._line(row))
        print(shelf)


def flops(net: Any, input_size: list[int], custom_ops: dict | None = None,
          print_detail: bool = False) -> int:
    """Count the FLOPs of one forward pass of ``net`` on a random input of ``input_size``.

    Only leaf layers are counted: convolutions, linear layers, batch norm, average pooling
    and leaky ReLU have built-in rules; other layers count as zero unless ``custom_ops``
    gives a rule. The totals are printed as ``Total Flops: ...     Total Params: ...``.

    Args:
        net (paddle.nn.Layer): the network.
        input_size (list[int]): the input shape, batch included.
        custom_ops (dict, optional): ``{LayerClass: fn(layer, inputs, output)}`` rules; a rule
            adds to ``layer.total_ops`` (an int64 Tensor of shape [1]) and, as a forward
            post-hook, may return a replacement output.
        print_detail (bool, optional): also print a per-layer table. Default False.

    Returns:
        int: the total FLOPs.

    Examples:
        >>> import pagaie as paddle
        >>> net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU())
        >>> paddle.flops(net, [2, 4])  # doctest: +ELLIPSIS
        <class 'paddle.nn.layer.common.Linear'>'s flops has been counted
        <class 'paddle.nn.layer.activation.ReLU'>'s flops has been counted
        Total Flops: 24     Total Params: 15
        24
    """
    if not isinstance(net, paddle.nn.Layer):
        warnings.warn("Your model must be an instance of paddle.nn.Layer or paddle.static.Program.")
        return -1
    return dynamic_flops(net, paddle.randn(input_size), custom_ops, print_detail)


def _shown(t: type) -> str:
    """A layer class as Paddle's log lines show it: pagaie's classes under Paddle's module
    paths (``<class 'paddle.nn.layer.conv.Conv2D'>``), a user's class as Python shows it."""
    mod = t.__module__
    if mod == "pagaie" or mod.startswith("pagaie."):
        mod = "paddle" + mod[len("pagaie"):]
    return f"<class '{mod}.{t.__qualname__}'>"


_FLOPS_BUFFERS = ("total_ops", "total_params", "input_shape", "output_shape")


def dynamic_flops(model: Any, inputs: Any, custom_ops: dict | None = None,
                  print_detail: bool = False) -> int:
    """Count the FLOPs of ``model(inputs)``: the engine of :func:`flops` for a Layer.

    Each leaf layer gets ``total_ops`` and ``total_params`` buffers (int64, shape [1]) for
    the pass and three forward post-hooks: its counting rule (a ``custom_ops`` rule first,
    then the built-in ones), :func:`count_parameters` and :func:`count_io_info`. A rule adds
    to ``layer.total_ops``; like any post-hook, a value it returns replaces the layer's
    output. The buffers are removed afterwards.

    Args:
        model (paddle.nn.Layer): the network (run once, in eval mode, without gradients).
        inputs (Tensor): its input.
        custom_ops (dict, optional): ``{LayerClass: rule(layer, inputs, output)}``.
        print_detail (bool, optional): also print a per-layer table. Default False.

    Returns:
        int: the total FLOPs.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.hapi.dynamic_flops import dynamic_flops
        >>> def count_tanh(m, x, y):
        ...     m.total_ops += int(y.numel())
        >>> net = paddle.nn.Sequential(paddle.nn.Tanh())
        >>> dynamic_flops(net, paddle.ones([2, 3]), {paddle.nn.Tanh: count_tanh})
        Customize Function has been applied to <class 'paddle.nn.layer.activation.Tanh'>
        Total Flops: 6     Total Params: 0
        6
    """
    custom_ops = custom_ops or {}
    rules = _default_rules()
    seen_types: set = set()
    handles = []
    leaves = []

    def add_hooks(m: Any) -> None:
        if len(list(m.children())) > 0:
            return
        m.register_buffer("total_ops", paddle.zeros([1], dtype="int64"))
        m.register_buffer("total_params", paddle.zeros([1], dtype="int64"))
        leaves.append(m)
        t = type(m)
        if t in custom_ops:
            fn = custom_ops[t]
            if t not in seen_types:
                print(f"Customize Function has been applied to {_shown(t)}")
        elif t in rules:
            fn = rules[t]
            if t not in seen_types:
                print(f"{_shown(t)}'s flops has been counted")
        else:
            fn = None
            if t not in seen_types:
                print(f"Cannot find suitable count function for {_shown(t)}. Treat it as zero FLOPs.")
        if fn is not None:
            handles.append(m.register_forward_post_hook(fn))
        handles.append(m.register_forward_post_hook(count_parameters))
        handles.append(m.register_forward_post_hook(count_io_info))
        seen_types.add(t)

    def value(t: Any) -> Any:
        return np.asarray(t.numpy()).reshape(-1)[0]

    training = model.training
    model.eval()
    try:
        model.apply(add_hooks)
        with paddle.no_grad():
            model(inputs)
        for h in handles:
            h.remove()
        handles.clear()
        table = _Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
        total_ops = total_params = 0
        for _, m in model.named_sublayers():
            if len(list(m.children())) > 0 or not set(_FLOPS_BUFFERS) <= set(m._buffers):
                continue
            ops, params = value(m.total_ops), value(m.total_params)
            total_ops += ops
            total_params += params
            table.add_row([m.full_name(), m.input_shape.numpy().tolist(),
                           m.output_shape.numpy().tolist(), int(params), int(ops)])
    finally:
        for h in handles:
            h.remove()
        for m in leaves:
            for name in _FLOPS_BUFFERS:
                m._buffers.pop(name, None)
                m._non_persistable_buffer_names_set.discard(name)
        if training:
            model.train()
    if print_detail:
        table.print_table()
    print(f"Total Flops: {int(total_ops)}     Total Params: {int(total_params)}")
    return int(total_ops)
