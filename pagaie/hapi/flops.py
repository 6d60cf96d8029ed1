"""``paddle.flops``: count the multiply-accumulate operations of a network's forward pass."""
from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

import pagaie as paddle

__all__ = ["flops"]


def _count_conv(m: Any, x: Any, y: Any) -> int:
    x = x[0]
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    return abs(int(int(y.numel()) * (x.shape[1] / m._groups * kernel_ops + bias_ops)))


def _count_leaky_relu(m: Any, x: Any, y: Any) -> int:
    return int(x[0].numel())


def _count_bn(m: Any, x: Any, y: Any) -> int:
    return abs(int(2 * int(x[0].numel()))) if not m.training else 0


def _count_linear(m: Any, x: Any, y: Any) -> int:
    return abs(int(m.weight.shape[0] * int(y.numel())))


def _count_avgpool(m: Any, x: Any, y: Any) -> int:
    return int(y.numel())


def _count_adaptive_avgpool(m: Any, x: Any, y: Any) -> int:
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    return abs(int((np.prod(kernel) + 1) * int(y.numel())))


def _count_zero(m: Any, x: Any, y: Any) -> int:
    return 0


def _default_rules() -> dict:
    nn = paddle.nn
    rules: dict = {}
    for names, fn in ((("Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
                        "Conv3DTranspose"), _count_conv),
                      (("BatchNorm2D", "BatchNorm"), _count_bn),
                      (("ReLU", "ReLU6", "Dropout"), _count_zero),
                      (("LeakyReLU",), _count_leaky_relu),
                      (("Linear",), _count_linear),
                      (("AvgPool1D", "AvgPool2D", "AvgPool3D"), _count_avgpool),
                      (("AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D"),
                       _count_adaptive_avgpool)):
        for n in names:
            cls = getattr(nn, n, None)
            if cls is not None:
                rules[cls] = fn
    return rules


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
            adds to ``layer.total_ops`` (a Tensor) or returns the count.
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
    return _dynamic_flops(net, paddle.randn(input_size), custom_ops or {}, print_detail)


def _shown(t: type) -> str:
    """A layer class as Paddle's log lines show it: pagaie's classes under Paddle's module
    paths (``<class 'paddle.nn.layer.conv.Conv2D'>``), a user's class as Python shows it."""
    mod = t.__module__
    if mod == "pagaie" or mod.startswith("pagaie."):
        mod = "paddle" + mod[len("pagaie"):]
    return f"<class '{mod}.{t.__qualname__}'>"


def _dynamic_flops(model: Any, inputs: Any, custom_ops: dict, print_detail: bool) -> int:
    rules = _default_rules()
    seen_types: set = set()
    handles = []
    counts: dict[int, dict] = {}

    def make_hook(fn: Callable | None, custom: bool) -> Callable:
        def hook(m: Any, x: Any, y: Any) -> None:
            rec = counts[id(m)]
            if fn is not None:
                if custom:  # Paddle's protocol: the rule adds to ``m.total_ops``
                    m.total_ops = paddle.zeros([1], dtype="int64")
                    res = fn(m, x, y)
                    rec["ops"] += int(res) if res is not None else \
                        int(m.total_ops.numpy().reshape(-1)[0])
                    del m.total_ops
                else:
                    rec["ops"] += fn(m, x, y)
            rec["params"] = abs(int(sum(int(np.prod(p.shape)) for p in m.parameters())))
            rec["in"] = list(x[0].shape)
            rec["out"] = list((y[0] if isinstance(y, (list, tuple)) else y).shape)
        return hook

    def add_hooks(m: Any) -> None:
        if len(list(m.children())) > 0:
            return
        counts[id(m)] = {"ops": 0, "params": 0}
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
        handles.append(m.register_forward_post_hook(make_hook(fn, t in custom_ops)))
        seen_types.add(t)

    training = model.training
    model.eval()
    model.apply(add_hooks)
    try:
        with paddle.no_grad():
            model(inputs)
    finally:
        for h in handles:
            h.remove()
        if training:
            model.train()
    table = _Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    total_ops = total_params = 0
    for _, m in model.named_sublayers():
        rec = counts.get(id(m))
        if rec is None or "in" not in rec:
            continue
        total_ops += rec["ops"]
        total_params += rec["params"]
        table.add_row([m.full_name(), rec["in"], rec["out"], rec["params"], rec["ops"]])
    if print_detail:
        table.print_table()
    print(f"Total Flops: {int(total_ops)}     Total Params: {int(total_params)}")
    return int(total_ops)
