"""``paddle.summary``: a table of a network's layers, output shapes and parameter counts."""
from __future__ import annotations

import numbers
import warnings
from collections import OrderedDict
from typing import Any

import numpy as np

import pagaie as paddle
from pagaie._core.tensor import Tensor
from pagaie._static.ir import Value
from pagaie.static.input_spec import InputSpec

__all__ = ["summary"]


def _is_shape(shape: Any) -> bool:
    return not any(isinstance(item, (list, tuple)) for item in shape)


def _all_numbers(items: Any) -> bool:
    return all(isinstance(item, numbers.Number) for item in items)


def _check_shape(shape: Any) -> tuple:
    unknown = 0
    out = []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {item}")
        out.append(item)
    return tuple(out)


def _check_input(input_size: Any) -> Any:
    if isinstance(input_size, (list, tuple)) and _is_shape(input_size):
        return _check_shape(input_size)
    return [_check_input(i) for i in input_size]


def _normalise_input_size(input_size: Any, input: Any) -> Any:
    if input_size is None:
        if input is None:
            raise ValueError("input_size and input cannot be None at the same time")
        if isinstance(input, Tensor):
            input_size = tuple(input.shape)
        elif isinstance(input, (list, tuple)):
            input_size = [tuple(x.shape) for x in input]
        elif isinstance(input, dict):
            input_size = [tuple(v.shape) for v in input.values()]
        else:
            raise ValueError("Input is not tensor, list, tuple and dict, unable to determine "
                             "input_size, please input input_size.")
    if isinstance(input_size, InputSpec):
        return tuple(input_size.shape)
    if isinstance(input_size, list):
        out = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            assert isinstance(item, (tuple, InputSpec)), \
                f"When input_size is list, expect item in input_size is a tuple or InputSpec, " \
                f"but got {type(item)}"
            out.append(tuple(item.shape) if isinstance(item, InputSpec) else item)
        return out
    if isinstance(input_size, int):
        return (input_size,)
    return input_size


def summary(net: Any, input_size: Any = None, dtypes: Any = None, input: Any = None) -> dict:
    """Print a table of the network's layers with their input and output shapes and
    parameter counts, followed by totals and memory estimates.

    The network is run once (in eval mode, without gradients) on random inputs of
    ``input_size`` or on ``input``. Layers are named ``<Class>-<n>`` after their unique
    names; containers (Sequential, LayerList) are not listed.

    Args:
        net (paddle.nn.Layer): the network.
        input_size (tuple|InputSpec|list, optional): the input shape, or a list of shapes for
            several inputs; a None or -1 batch dimension counts as 1.
        dtypes (str|list[str], optional): the input dtype(s). Default 'float32'.
        input (Tensor|list|dict, optional): actual inputs, used instead of random ones.

    Returns:
        dict: ``{'total_params': n, 'trainable_params': m}``.

    Examples:
        >>> import pagaie as paddle
        >>> net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU())
        >>> info = paddle.summary(net, (1, 4))  # doctest: +ELLIPSIS
        ---------------------------------------------------------------------------
         Layer (type)       Input Shape          Output Shape         Param #
        ===========================================================================
        ...
        Total params: 15
        Trainable params: 15
        Non-trainable params: 0
        ...
        >>> int(info['total_params'])
        15
    """
    size = _check_input(_normalise_input_size(input_size, input))
    if not paddle.in_dynamic_mode():
        warnings.warn("Your model was created in static graph mode, this may not get correct "
                      "summary information!")
        was_training = False
    else:
        was_training = net.training
    if was_training:
        net.eval()
    try:
        with paddle.no_grad():
            text, params_info = _summary_string(net, size, dtypes, input)
    finally:
        if was_training:
            net.train()
    print(text)
    return params_info


def _build_dtypes(input_size: Any, dtype: Any) -> list:
    dtype = dtype or "float32"
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        return [dtype]
    return [_build_dtypes(i, dtype) for i in input_size]


def _build_input(input_size: Any, dtypes: Any) -> Any:
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        dtype = dtypes[0] if isinstance(dtypes, (list, tuple)) else dtypes
        return paddle.cast(paddle.rand(list(input_size)), dtype)
    return [_build_input(i, d) for i, d in zip(input_size, dtypes)]


def _shape_of(x: Any) -> Any:
    if isinstance(x, Value):   # Paddle's summary does not recognise a static program's values
        return None
    if isinstance(x, Tensor):
        return list(x.shape)
    if isinstance(x, (list, tuple)):
        return [_shape_of(e) for e in x]
    return None


def _output_shape(output: Any) -> list:
    if isinstance(output, (list, tuple)):
        return [_output_shape(o) for o in output]
    return list(output.shape) if hasattr(output, "shape") else []


def _layer_record(layer: Any, inputs: Any, output: Any, index: int) -> tuple[str, dict]:
    try:
        idx = int(layer._full_name.split("_")[-1])
    except (AttributeError, ValueError):
        idx = index
    key = f"{type(layer).__name__}-{idx + 1}"
    rec: dict = OrderedDict()
    rec["input_shape"] = _shape_of(inputs)
    rec["output_shape"] = _output_shape(output)
    params = 0
    rec["trainable_params"] = 0
    trainable = False
    # as Paddle: a static program's layers count their whole state dict (sublayers included,
    # which are then no attributes of the layer: counted but not as trainable)
    entries = layer._parameters if paddle.in_dynamic_mode() else layer.state_dict()
    for name, p in entries.items():
        if p is None:
            continue
        n = np.prod(p.shape)
        params += n
        try:
            attr = getattr(layer, name)
            if attr.trainable and not attr.stop_gradient:
                rec["trainable_params"] += n
                rec["trainable"] = True
                trainable = True
            elif not trainable:
                rec["trainable"] = False
        except AttributeError:
            rec["trainable"] = True
    rec["nb_params"] = params
    return key, rec


def _summary_string(model: Any, input_size: Any, dtypes: Any, input: Any) -> tuple[str, dict]:
    if not isinstance(dtypes, (list, tuple)):
        dtypes = _build_dtypes(input_size, dtypes)
    depth = len(model.sublayers())
    table: dict = OrderedDict()
    handles = []

    def hook(layer: Any, inputs: Any, output: Any) -> None:
        key, rec = _layer_record(layer, inputs, output, len(table))
        table[key] = rec

    def register(layer: Any) -> None:
        if isinstance(layer, (paddle.nn.Sequential, paddle.nn.LayerList)) or (layer is model and depth >= 1):
            # The fused RNN layers (LSTM, GRU, SimpleRNN) are LayerLists but are listed.
            if getattr(layer, "could_use_cudnn", False):
                handles.append(layer.register_forward_post_hook(hook))
            return
        handles.append(layer.register_forward_post_hook(hook))

    if isinstance(input_size, tuple):
        input_size = [input_size]
    model.apply(register)
    try:
        if input is not None:
            model(input)
        else:
            model(*_build_input(input_size, dtypes))
    finally:
        for h in handles:
            h.remove()
    return _format_table(table, input_size)


def _format_table(table: dict, input_size: Any) -> tuple[str, dict]:
    widths = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for key, rec in table.items():
        widths["output"] = max(widths["output"], len(str(rec["output_shape"])))
        widths["input"] = max(widths["input"], len(str(rec["input_shape"])))
        widths["layer"] = max(widths["layer"], len(str(key)))
        widths["params"] = max(widths["params"], len(str(rec["nb_params"])))
    total_width = max(75, sum(widths.values()) + 5)

    def row(a: str, b: str, c: str, d: str) -> str:
        return (f"{a:^{widths['layer']}} {b:^{widths['input']}} {c:^{widths['output']}} "
                f"{d:^{widths['params']}}")

    lines = ["-" * total_width, row("Layer (type)", "Input Shape", "Output Shape", "Param #"),
             "=" * total_width]
    total_params = 0
    total_output = 0
    trainable_params = 0
    for key, rec in table.items():
        lines.append(row(key, str(rec["input_shape"]), str(rec["output_shape"]),
                         f"{rec['nb_params']:,}"))
        total_params += rec["nb_params"]
        try:
            total_output += np.sum(np.prod(rec["output_shape"], axis=-1))
        except ValueError:  # several outputs of different ranks
            for shape in rec["output_shape"]:
                total_output += np.sum(np.prod(shape, axis=-1))
        if rec.get("trainable"):
            trainable_params += rec["trainable_params"]

    def input_mb(size: Any) -> float:
        if isinstance(size, (list, tuple)) and _all_numbers(size):
            return abs(np.prod(size) * 4.0 / (1024 ** 2.0))
        return sum(input_mb(i) for i in size)

    input_size_mb = input_mb(input_size)
    output_mb = abs(2.0 * total_output * 4.0 / (1024 ** 2.0))  # x2 for the gradients
    params_mb = abs(total_params * 4.0 / (1024 ** 2.0))
    lines += ["=" * total_width,
              f"Total params: {total_params:,}",
              f"Trainable params: {trainable_params:,}",
              f"Non-trainable params: {total_params - trainable_params:,}",
              "-" * total_width,
              f"Input size (MB): {input_size_mb:0.2f}",
              f"Forward/backward pass size (MB): {output_mb:0.2f}",
              f"Params size (MB): {params_mb:0.2f}",
              f"Estimated Total Size (MB): {params_mb + output_mb + input_size_mb:0.2f}",
              "-" * total_width]
    return "\n".join(lines) + "\n", {"total_params": total_params,
                                     "trainable_params": trainable_params}
