"""``py_func`` (Python code as a program op) and the LoD sequence layers (unsupported)."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import torch

from pagaie._core.place import default_device
from pagaie._core.registry import suspended
from pagaie._core.tensor import Tensor, wrap
from pagaie._static.interpreter import register_graph_op
from pagaie._static.ir import Operator, Value

__all__ = ["py_func", "sequence_conv", "sequence_softmax", "sequence_pool", "sequence_first_step",
           "sequence_last_step", "sequence_expand"]

# Python callables of py_func ops: kept here (by id) because they cannot go into JSON.
_FUNCS: dict[int, Callable] = {}


def _to_torch(v: Any, like: torch.Tensor | None, api: str) -> torch.Tensor:
    if isinstance(v, Tensor):
        t = v._t.detach()
    elif isinstance(v, torch.Tensor):
        t = v.detach()
    else:
        t = torch.as_tensor(np.asarray(v))
    if like is not None:
        t = t.to(dtype=like.dtype if like.dtype != torch.float32 or t.is_floating_point() else like.dtype)
    return t


def _call(fn: Callable, tensors: list) -> list:
    with suspended(), torch.no_grad():
        res = fn(*[wrap(t.detach()) for t in tensors])
    if res is None:
        return []
    return list(res) if isinstance(res, (list, tuple)) else [res]


class _PyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, op, n_in, *tensors):  # noqa: ANN001 - torch's protocol
        ins = tensors[:n_in]
        outs = _call(_FUNCS[op.attrs["func"]], list(ins))
        ctx.op, ctx.ins = op, ins
        dev = _device_of(ins)
        res = tuple(_to_torch(o, None, "py_func").to(dev, _dtype(v)) for o, v in zip(outs, op.outputs))
        ctx.outs = res
        return res

    @staticmethod
    def backward(ctx, *grads):  # noqa: ANN001
        op = ctx.op
        skip = set(op.attrs.get("skip", []))
        xs = [t for t, v in zip(ctx.ins, op.args[0]) if v.name not in skip]
        os_ = [t for t, v in zip(ctx.outs, op.outputs) if v.name not in skip]
        res = _call(_FUNCS[op.attrs["backward_func"]], xs + os_ + list(grads))
        gs = [None if g is None else _to_torch(g, None, "py_func").to(t.device, t.dtype).reshape(t.shape)
              for g, t in zip(res, ctx.ins)]
        gs += [None] * (len(ctx.ins) - len(gs))
        return (None, None) + tuple(gs)


def _dtype(v: Value) -> torch.dtype:
    return v._t.dtype


def _device_of(tensors: Any) -> torch.device:
    # where the program runs: its inputs' device (arrays a Python function returns are on the CPU)
    return tensors[0].device if len(tensors) else default_device()


@register_graph_op("pagaie.py_func", side_effect=True)
def _run_py_func(op: Operator, args: list, kwargs: dict, plan: Any) -> list:
    if op.attrs.get("func") not in _FUNCS:
        raise RuntimeError("paddle.static.py_func: the Python function of this op is not available "
                           "(programs holding py_func ops cannot be reloaded in another process)")
    ins = args[0]
    if op.attrs.get("backward_func") is not None:
        return list(_PyFunc.apply(op, len(ins), *ins))
    outs = _call(_FUNCS[op.attrs["func"]], list(ins))
    dev = _device_of(ins)
    return [_to_torch(o, None, "py_func").to(dev, _dtype(v)) for o, v in zip(outs, op.outputs)]


def py_func(func: Callable, x: Any, out: Any, backward_func: Callable | None = None,
            skip_vars_in_backward_input: Any = None) -> Any:
    """Run a Python function as an op of the program.

    ``func`` receives the inputs as Tensors and returns arrays or Tensors, written into the
    ``out`` variables (which the caller creates with their shapes and dtypes).
    ``backward_func`` receives the inputs, the outputs and the outputs' gradients (minus
    ``skip_vars_in_backward_input``) and returns the inputs' gradients.

    Args:
        func (callable): the forward function.
        x (Tensor|list[Tensor]): its inputs.
        out (Tensor|list[Tensor]|None): the variables receiving its outputs.
        backward_func (callable, optional): the gradient function.
        skip_vars_in_backward_input (Tensor|list, optional): values not passed to backward_func.

    Returns:
        The ``out`` variables.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('pyf_x', [2], 'float32')
        ...     y = main.global_block().create_var(name='pyf_y', shape=[2], dtype='float32')
        ...     y = paddle.static.py_func(lambda t: np.asarray(t) * 2, x, y)
        >>> exe = paddle.static.Executor()
        >>> exe.run(main, feed={'pyf_x': np.ones(2, 'float32')}, fetch_list=[y])[0].tolist()
        [2.0, 2.0]
        >>> paddle.disable_static()
    """
    if not callable(func):
        raise TypeError("paddle.static.py_func: func must be callable")
    if backward_func is not None and not callable(backward_func):
        raise TypeError(f"paddle.static.py_func: backward_func must be callable, but received "
                        f"{type(backward_func).__name__}")
    xs = _tensor_list(x, "x")
    single = isinstance(out, Tensor)
    outs = _tensor_list(out, "out")
    if not any(isinstance(v, Value) for v in xs + outs):
        res = _call(func, [v._t for v in xs])
        for o, r in zip(outs, res):
            with torch.no_grad():
                o._t.copy_(_to_torch(r, None, "py_func").to(o._t.dtype).reshape(o._t.shape))
        return out
    from pagaie._static.control_flow import current_recorder
    from pagaie._static.recorder import capture
    rec = current_recorder()
    if rec is None:
        raise RuntimeError("paddle.static.py_func: needs a program being built")
    block = rec.block
    ins = [v if isinstance(v, Value) else capture(block, v) for v in xs]
    for o in outs:
        if not isinstance(o, Value):
            raise TypeError("paddle.static.py_func: out must be variables of the program")
    _FUNCS[id(func)] = func
    attrs = {"func": id(func), "backward_func": None, "skip": []}
    if backward_func is not None:
        _FUNCS[id(backward_func)] = backward_func
        attrs["backward_func"] = id(backward_func)
        skip = _tensor_list(skip_vars_in_backward_input, "skip_vars_in_backward_input")
        for v in skip:  # (ValueError, as Paddle's)
            if not any(v is u for u in ins + outs):
                raise ValueError(f"paddle.static.py_func: the variable {v.name!r} of "
                                 "skip_vars_in_backward_input is none of the inputs and outputs")
        attrs["skip"] = [v.name for v in skip]
        for o in outs:
            o.stop_gradient = all(v.stop_gradient for v in ins)
    block.append_op("pagaie.py_func", [ins], {}, outs, attrs)
    return outs[0] if single else out


def _tensor_list(v: Any, arg: str) -> list:
    """py_func's ``arg`` as a list of tensors: None is none, a Tensor one (TypeError, as
    Paddle's, for anything else)."""
    items = [] if v is None else [v] if isinstance(v, Tensor) else \
        list(v) if isinstance(v, (list, tuple)) else None
    if items is None or not all(isinstance(e, Tensor) for e in items):
        raise TypeError(f"paddle.static.py_func: {arg} must be a Tensor or a list or tuple of "
                        f"Tensors, but received {type(v).__name__}")
    return items


class _NoLoDError(NotImplementedError, AssertionError):
    """The LoD sequence layers: an ``AssertionError``, as Paddle 3 raises for them in PIR and
    dynamic mode, and a ``NotImplementedError``."""


def _no_lod(api: str) -> _NoLoDError:
    return _NoLoDError(f"paddle.static.nn.{api}: sequence layers need LoD (variable-length "
                       "sequence) tensors, which pagaie does not have (nor Paddle's PIR mode); pad the "
                       "sequences and use the dense layers")


def sequence_conv(input: Any, num_filters: int, filter_size: int = 3, filter_stride: int = 1,
                  padding: bool = True, padding_start: Any = None, bias_attr: Any = None,
                  param_attr: Any = None, act: Any = None, name: Any = None) -> Any:
    """LoD sequence convolution (not supported: raises, as Paddle's PIR mode does)."""
    raise _no_lod("sequence_conv")


def sequence_softmax(input: Any, use_cudnn: bool = False, name: Any = None) -> Any:
    """LoD sequence softmax (not supported: raises, as Paddle's PIR mode does)."""
    raise _no_lod("sequence_softmax")


def sequence_pool(input: Any, pool_type: str, is_test: bool = False, pad_value: float = 0.0) -> Any:
    """LoD sequence pooling (not supported: raises, as Paddle's PIR mode does)."""
    raise _no_lod("sequence_pool")


def sequence_first_step(input: Any) -> Any:
    """First step of each LoD sequence (not supported: raises, as Paddle's PIR mode does)."""
    raise _no_lod("sequence_first_step")


def sequence_last_step(input: Any) -> Any:
    """Last step of each LoD sequence (not supported: raises, as Paddle's PIR mode does)."""
    raise _no_lod("sequence_last_step")


def sequence_expand(x: Any, y: Any, ref_level: int = -1, name: Any = None) -> Any:
    """LoD sequence expansion (not supported: raises, as Paddle's PIR mode does)."""
    raise _no_lod("sequence_expand")
