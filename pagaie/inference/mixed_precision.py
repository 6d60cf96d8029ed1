"""``paddle.inference.convert_to_mixed_precision``: rewrite a model to run in float16/bfloat16.

The model (any format the predictor reads) is re-recorded op by op into a new program
in which floating-point parameters and activations are low precision. Ops in
``black_list`` (record names or Paddle op names) run in float32 between casts; with
``keep_io_types`` the inputs and outputs stay float32 (casts are inserted at the
edges). The result is written in pagaie's inference format (program JSON + ``.pdiparams``),
which :func:`~pagaie.inference.create_predictor` and ``paddle.static.load_inference_model``
read.
"""
from __future__ import annotations

import json
import os
from typing import Any

import torch

from pagaie._core.parameter import Parameter
from pagaie._core.registry import REGISTRY
from pagaie._formats.atomic_file import atomic_open
from pagaie._formats.pdiparams import write_pdiparams
from pagaie._ops._helpers import cpu_as_gpu
from pagaie._static.ir import Program, Value, _values_in, map_values
from pagaie._static.recorder import Recorder
from pagaie.inference.config import Config, PrecisionType

__all__ = ["convert_to_mixed_precision"]

_LOW = {PrecisionType.Half: torch.float16, PrecisionType.Bfloat16: torch.bfloat16}


def convert_to_mixed_precision(model_file: str, params_file: str, mixed_model_file: str,
                               mixed_params_file: str, mixed_precision: PrecisionType, backend: Any,
                               keep_io_types: bool = True, black_list: set = set(), **kwargs: Any) -> None:
    """Write a low-precision copy of an inference model.

    Args:
        model_file, params_file (str): the model to convert.
        mixed_model_file, mixed_params_file (str): where to write the converted model.
        mixed_precision (PrecisionType): ``Half`` (float16) or ``Bfloat16``.
        backend (PlaceType): the target device kind (kept for Paddle compatibility).
        keep_io_types (bool): keep float32 inputs and outputs. Default True.
        black_list (set[str]): ops that stay in float32.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> from pagaie import inference as pi
        >>> d = tempfile.mkdtemp()
        >>> paddle.jit.save(paddle.nn.Linear(4, 2), os.path.join(d, 'm'),
        ...                 [paddle.static.InputSpec([None, 4], 'float32', 'x')])
        >>> pi.convert_to_mixed_precision(os.path.join(d, 'm.json'), os.path.join(d, 'm.pdiparams'),
        ...     os.path.join(d, 'h.json'), os.path.join(d, 'h.pdiparams'),
        ...     pi.PrecisionType.Bfloat16, pi.PlaceType.CPU)
        >>> p = pi.create_predictor(pi.Config(os.path.join(d, 'h.json'), os.path.join(d, 'h.pdiparams')))
        >>> p.run([paddle.ones([1, 4])])[0].dtype
        <DataType.FLOAT32: 10>
    """
    from pagaie.inference.predictor import load_model
    if not isinstance(mixed_precision, PrecisionType):
        raise TypeError(f"paddle.inference.convert_to_mixed_precision: mixed_precision must be a "
                        f"PrecisionType, but received {mixed_precision!r}")
    precision = mixed_precision
    if precision == PrecisionType.Int8:
        raise NotImplementedError("paddle.inference.convert_to_mixed_precision: int8 needs "
                                  "quantisation, which pagaie does not do")
    low = _LOW.get(precision, torch.float32)
    model = load_model(Config(model_file, params_file))
    flow = sorted({op.type for op in model.program.global_block().ops if op.type not in REGISTRY})
    if flow:
        raise NotImplementedError(f"paddle.inference.convert_to_mixed_precision: {model_file} holds "
                                  f"control flow ({', '.join(flow)}), which pagaie cannot convert yet")
    black = set(black_list or ())
    old_gb = model.program.global_block()
    new = Program()
    gb = new.global_block()
    rec = Recorder(new)
    cast = REGISTRY["cast"]
    mapping: dict[str, Value] = {}

    def to(v: Value, dtype: torch.dtype) -> Value:
        if not v._t.is_floating_point() or v._t.dtype == dtype:
            return v
        return rec.record(cast, (v, dtype), {})

    for n in model.feed_names:
        old = old_gb.var(n)
        dt = old._t.dtype if keep_io_types or not old._t.is_floating_point() else low
        v = gb.create_var(n, list(old.shape), dt)
        v.is_data = True
        mapping[n] = to(v, low)

    def value_of(old: Value) -> Value:
        hit = mapping.get(old.name)
        if hit is not None:
            return hit
        if old.source is None:
            raise ValueError(f"paddle.inference.convert_to_mixed_precision: value {old.name!r} has "
                             "no producer")
        t = old.source._t.detach()
        t = t.to(low) if t.dtype == torch.float32 else t
        v = gb.create_var(old.name, list(t.shape), t.dtype, persistable=True)
        v.source = Parameter(t, trainable=False, name=old.name)
        mapping[old.name] = v
        return v

    # the ops are re-recorded for the target device, as Paddle's pass rewrites them: the
    # build-time dtype checks of its Python APIs do not apply
    with cpu_as_gpu():
        for op in old_gb.ops:
            record = REGISTRY[op.type]
            keep32 = op.type in black or any(t in black for t in record.paddle_types)
            args = map_values(op.args, value_of)
            kwargs = map_values(op.kwargs, value_of)
            if keep32:
                args = map_values(args, lambda v: to(v, torch.float32))
                kwargs = map_values(kwargs, lambda v: to(v, torch.float32))
            out = rec.record(record, tuple(args), kwargs)
            if keep32:
                out = map_values(out, lambda v: to(v, low))
            for o, n in zip(_values_in(op.outputs), _values_in(out)):
                mapping[o.name] = n
    fetch = [mapping[v.name] for v in model.fetch_values]
    if keep_io_types:
        fetch = [to(v, torch.float32) for v in fetch]
    for v, want in zip(fetch, model.fetch_names):  # keep the model's output names
        if v.name != want and want not in gb.vars and not v.is_data:
            del gb.vars[v.name]
            v._name = want
            gb.vars[want] = v
    data = json.loads(new.to_json())
    data["feed_names"] = list(model.feed_names)
    data["fetch_names"] = [v.name for v in fetch]
    for d in (os.path.dirname(mixed_model_file), os.path.dirname(mixed_params_file)):
        if d:
            os.makedirs(d, exist_ok=True)
    with atomic_open(mixed_model_file, "w") as f:
        json.dump(data, f)
    params = sorted((v for v in gb.vars.values() if v.persistable and not v.is_data), key=lambda v: v.name)
    write_pdiparams(mixed_params_file, [v.source._t.detach().cpu() for v in params])
