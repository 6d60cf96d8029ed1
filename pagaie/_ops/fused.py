"""Fused ops: several recorded ops run as one kernel, created by graph passes.

The fusion passes of :mod:`pagaie._static.passes` replace chains of recorded ops
with these records; each kernel runs the same torch computations as the chain it
replaces, in one call (so a Program carries fewer ops, fewer intermediate slots,
and the matmul + bias epilogue goes to ``addmm``). They are ordinary op records:
eager calls, static recording, meta shape inference and JSON round trips work as
for any other op. None is part of Paddle's public namespace.

- ``fused_linear_act``: ``act(x @ weight + bias)``.
- ``fused_conv2d_bn_act``: ``act(batch_norm(conv2d(x)) + residual)``, each stage optional.
- ``fused_elementwise``: a chain of elementwise ops, described as data.
"""
from __future__ import annotations

from typing import Any, Callable

import torch
import torch.nn.functional as F

from pagaie._core.broadcast import broadcast_shapes
from pagaie._core.registry import REGISTRY, defop
from pagaie._ops.onednn_conv import prepacked_conv2d

__all__: list[str] = []  # internal ops: nothing goes to the top-level namespace


def _act(y, act, act_args, act_kwargs):
    if act is None:
        return y
    rec = REGISTRY.get(act)
    if rec is None:
        raise ValueError(f"paddle.fused: unknown activation {act!r}")
    return rec.kernel(y, *(act_args or ()), **(act_kwargs or {}))


@defop(amp="white", method=False)
def fused_linear_act(x, weight, bias=None, act=None, act_args=None, act_kwargs=None, name=None):
    """``act(x @ weight + bias)`` in one call (the bias add rides on ``addmm``).

    Args:
        x (Tensor): the input, ``[..., in_features]``.
        weight (Tensor): ``[in_features, out_features]`` (Paddle's layout).
        bias (Tensor, optional): ``[out_features]``.
        act (str, optional): the name of an activation op (``'relu'``, ``'gelu'``...).
        act_args (list, optional): the activation's arguments after its input.
        act_kwargs (dict, optional): the activation's keyword arguments.
        name (str, optional): unused.

    Returns:
        Tensor: ``[..., out_features]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.fused import fused_linear_act
        >>> x = paddle.to_tensor([[1.0, -2.0]])
        >>> w = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
        >>> fused_linear_act(x, w, paddle.to_tensor([0.5, 0.5]), 'relu').tolist()
        [[1.5, 0.0]]
    """
    if x.dim() >= 2 and weight.dim() == 2:
        y = F.linear(x, weight.t(), bias)
    else:
        y = torch.matmul(x, weight)
        if bias is not None:
            y = y + bias
    return _act(y, act, act_args, act_kwargs)


@defop(amp="white", method=False)
def fused_conv2d_bn_act(x, weight=None, bias=None, running_mean=None, running_var=None,
                        bn_weight=None, bn_bias=None, residual=None, stride=1, padding=0,
                        dilation=1, groups=1, data_format="NCHW", training=False, momentum=0.9,
                        epsilon=1e-05, use_global_stats=None, act=None, act_args=None,
                        act_kwargs=None, use_bn=True, name=None):
    """``act(batch_norm(conv2d(x)) + residual)`` in one call; every stage is optional.

    The convolution runs when ``weight`` is given, the batch normalisation when
    ``use_bn`` is true (running statistics are updated in training as by
    ``batch_norm``), the residual is added when given, then the activation.

    Args:
        x (Tensor): the input.
        weight, bias (Tensor, optional): the convolution's filter and bias.
        running_mean, running_var, bn_weight, bn_bias (Tensor, optional): batch norm's tensors.
        residual (Tensor, optional): added after the normalisation.
        stride, padding, dilation, groups, data_format: as for ``conv2d``.
        training, momentum, epsilon, use_global_stats: as for ``batch_norm``.
        act (str, optional): the name of an activation op.
        act_args (list, optional), act_kwargs (dict, optional): its further arguments.
        use_bn (bool): whether the batch normalisation stage runs.
        name (str, optional): unused.

    Returns:
        Tensor: the result.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.fused import fused_conv2d_bn_act
        >>> x = paddle.ones([1, 1, 3, 3])
        >>> w = paddle.full([1, 1, 1, 1], -2.0)
        >>> fused_conv2d_bn_act(x, w, use_bn=False, act='relu').sum().item()
        0.0
    """
    if weight is not None and not use_bn and not act_args and not act_kwargs:
        # inference on the CPU: oneDNN with a prepacked weight and fused epilogues
        y = prepacked_conv2d(x, weight, bias, residual, stride, padding, dilation, groups,
                             data_format, act)
        if y is not None:
            return y
    y = x
    if weight is not None:
        y = REGISTRY["conv2d"].kernel(y, weight, bias, stride, padding, dilation, groups,
                                      data_format)
    if use_bn:
        y = REGISTRY["batch_norm"].kernel(y, running_mean, running_var, bn_weight, bn_bias,
                                          training, momentum, epsilon, data_format,
                                          use_global_stats)
    # The stages' results are fresh tensors: without autograd the residual and a plain
    # activation can update them in place (no allocation, one pass fewer).
    in_place = y is not x and not (torch.is_grad_enabled() and y.requires_grad)
    if residual is not None:
        fits = in_place and residual.dtype == y.dtype and \
            y.shape == broadcast_shapes(y.shape, residual.shape)
        y = y.add_(residual) if fits else y + residual
    if in_place and act in _INPLACE_ACTS and not act_args and not act_kwargs:
        return _INPLACE_ACTS[act](y)
    return _act(y, act, act_args, act_kwargs)


_INPLACE_ACTS = {"relu": torch.relu_, "sigmoid": torch.sigmoid_, "tanh": torch.tanh_}


# A chain is data: ``steps`` is a list of ``[op_name, args, kwargs]`` whose tensor
# arguments are ``{"$ref": k}``: ``k < len(inputs)`` is ``inputs[k]``, larger ``k``
# the result of step ``k - len(inputs)``. The last step's result is the output.
_CHAIN_CACHE: dict[str, Callable] = {}


def _is_ref(v: Any) -> bool:
    return type(v) is dict and len(v) == 1 and "$ref" in v


def _compile_chain(steps: list) -> Callable:
    """Python source for one chain: straight-line calls to the kernels (cached by content)."""
    key = repr(steps)
    fn = _CHAIN_CACHE.get(key)
    if fn is not None:
        return fn
    consts: dict[str, Any] = {}

    def lit(v: Any) -> str:
        if _is_ref(v):
            return f"t[{int(v['$ref'])}]"
        if type(v) in (list, tuple):
            inner = ", ".join(lit(e) for e in v)
            return f"[{inner}]" if type(v) is list else f"({inner}{',' if len(v) == 1 else ''})"
        if type(v) is dict:
            return "{" + ", ".join(f"{k!r}: {lit(e)}" for k, e in v.items()) + "}"
        if v is None or type(v) in (bool, int, str):
            return repr(v)
        name = f"_c{len(consts)}"
        consts[name] = v
        return name

    lines = ["def chain(t):"]
    for i, (op, args, kwargs) in enumerate(steps):
        if op not in REGISTRY:
            raise ValueError(f"paddle.fused_elementwise: unknown op {op!r} in the chain")
        kname = f"_k{i}"
        consts[kname] = REGISTRY[op].kernel
        call = ", ".join([lit(a) for a in args] + [f"{k}={lit(v)}" for k, v in kwargs.items()])
        lines.append(f"    t.append({kname}({call}))")
    lines.append("    return t[-1]")
    ns = dict(consts)
    exec(compile("\n".join(lines), "<pagaie fused_elementwise>", "exec"), ns)
    fn = ns["chain"]
    if len(_CHAIN_CACHE) > 4096:
        _CHAIN_CACHE.clear()
    _CHAIN_CACHE[key] = fn
    return fn


@defop(method=False)
def fused_elementwise(inputs, steps, name=None):
    """Run a chain of elementwise ops in one call.

    Args:
        inputs (list[Tensor]): the chain's tensor inputs.
        steps (list): ``[op_name, args, kwargs]`` per step; ``{"$ref": k}`` stands for
            ``inputs[k]`` (``k < len(inputs)``) or for the result of step
            ``k - len(inputs)``.
        name (str, optional): unused.

    Returns:
        Tensor: the last step's result.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.fused import fused_elementwise
        >>> x = paddle.to_tensor([-1.0, 2.0])
        >>> steps = [['multiply', [{'$ref': 0}, 3.0], {}], ['relu', [{'$ref': 1}], {}]]
        >>> fused_elementwise([x], steps).tolist()
        [0.0, 6.0]
    """
    if not steps:
        raise ValueError("paddle.fused_elementwise: the chain has no steps")
    return _compile_chain(steps)(list(inputs))
