"""The rest of ``paddle.static``: Print, variables, metrics, places, EMA, weight norm, IPU names."""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import inplace_redefines, suspended
from pagaie._core.tensor import Tensor
from pagaie._static.interpreter import register_graph_op
from pagaie._static.ir import Operator, Value
from pagaie.framework.param_attr import WeightNormParamAttr

__all__ = ["Print", "create_parameter", "create_global_var", "accuracy", "auc", "ctr_metric_bundle",
           "device_guard", "cpu_places", "cuda_places", "xpu_places", "ipu_shard_guard",
           "set_ipu_shard", "IpuStrategy", "IpuCompiledProgram", "WeightNormParamAttr",
           "ExponentialMovingAverage"]


def _recorder() -> Any:
    from pagaie._static.control_flow import current_recorder
    return current_recorder()


def _as_value(t: Tensor) -> Any:
    """Inside a program being built, the program value standing for eager tensor ``t``."""
    rec = _recorder()
    if rec is None:
        return t
    from pagaie._static.recorder import capture
    return capture(rec.block, t)


# The dtypes Paddle's Print takes.
_PRINTABLE = ("bfloat16", "float16", "float32", "float64", "int32", "int64", "bool",
              "float8_e4m3fn", "float8_e5m2")


def Print(input: Any, first_n: int = -1, message: str | None = None, summarize: int = 20,
          print_tensor_name: bool = True, print_tensor_type: bool = True,
          print_tensor_shape: bool = True, print_tensor_layout: bool = True,
          print_tensor_lod: bool = True, print_phase: str = "both") -> Any:
    """Print a tensor's name, shape, dtype and first ``summarize`` values each time the
    program runs; returns the tensor. Static mode only (an AssertionError in dynamic mode,
    as Paddle).

    As Paddle 3's PIR programs, ``'forward'`` and ``'both'`` print the value when the
    program runs and ``'backward'`` prints nothing (pagaie does not print gradients).

    Args:
        input (Tensor): the tensor.
        first_n (int): print only the first ``first_n`` runs (-1: always).
        message (str, optional): printed before the tensor.
        summarize (int): how many elements (-1: all).
        print_tensor_name, print_tensor_type, print_tensor_shape, print_tensor_layout,
            print_tensor_lod (bool): which fields to print.
        print_phase (str): ``'forward'``, ``'backward'`` or ``'both'`` (in any case).

    Returns:
        Tensor: ``input``'s value.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('print_doc_x', [2], 'float32')
        ...     y = paddle.static.Print(x, message='x', print_tensor_lod=False,
        ...                             print_tensor_layout=False)
        >>> _ = paddle.static.Executor().run(main, feed={'print_doc_x': np.array([1.0, 2.0], 'float32')},
        ...                                  fetch_list=[y])  # doctest: +NORMALIZE_WHITESPACE
        Variable: var
          - message: x
          - place: Place(cpu)
          - shape: [2]
          - dtype: float32
          - data: [1.000000 2.000000]
        >>> paddle.disable_static()
    """
    phase = print_phase.lower() if isinstance(print_phase, str) else print_phase
    if phase not in ("forward", "backward", "both"):
        raise ValueError(f"paddle.static.Print: print_phase must be 'forward', 'backward' or 'both', "
                         f"but received {print_phase!r}")
    for arg, value, kind in (("first_n", first_n, int), ("summarize", summarize, int),
                             ("message", message, str), ("print_tensor_name", print_tensor_name, bool),
                             ("print_tensor_type", print_tensor_type, bool),
                             ("print_tensor_shape", print_tensor_shape, bool),
                             ("print_tensor_layout", print_tensor_layout, bool),
                             ("print_tensor_lod", print_tensor_lod, bool)):
        if value is not None and (isinstance(value, bool) is not (kind is bool)
                                  or not isinstance(value, kind)):
            raise TypeError(f"paddle.static.Print: {arg} must be {kind.__name__}, but received "
                            f"{type(value).__name__} {value!r}")  # (TypeError, as Paddle's op)
    print_phase = phase
    attrs = {"first_n": first_n, "message": message, "summarize": summarize,
             "print_tensor_name": print_tensor_name, "print_tensor_type": print_tensor_type,
             "print_tensor_shape": print_tensor_shape, "print_tensor_layout": print_tensor_layout,
             "print_tensor_lod": print_tensor_lod, "print_phase": print_phase}
    if not isinstance(input, Value):
        if _recorder() is None:  # (AssertionError, as Paddle's static-only APIs)
            raise AssertionError("paddle.static.Print: Print() only works in static mode (dynamic "
                                 "mode is the default); call paddle.enable_static() first")
        if not isinstance(input, Tensor):
            raise TypeError(f"paddle.static.Print: input must be a Tensor, but received "
                            f"{type(input).__name__}")
        input = _as_value(input)
    if input.dtype.name not in _PRINTABLE:  # (TypeError, as Paddle's dtype check)
        raise TypeError(f"paddle.static.Print: the data type of input must be one of "
                        f"{list(_PRINTABLE)}, but received {input.dtype.name}")
    if print_phase == "backward":
        return input
    block = _recorder().block
    out = block.create_var(block.program.unique_name("print"), list(input.shape), input.dtype,
                           stop_gradient=input.stop_gradient)
    block.append_op("pagaie.print", [input], {}, out, attrs)
    return out


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None,
                     is_bias: bool = False, default_initializer: Any = None) -> Any:
    """A new trainable parameter (see ``paddle.create_parameter``); inside a program being
    built, the program variable standing for it.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.static.create_parameter([2, 3], 'float32', is_bias=True).shape
        paddle.Size([2, 3])
    """
    from pagaie.nn.param import create_parameter as _create
    for i, d in enumerate(shape if isinstance(shape, (list, tuple)) else []):
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"paddle.static.create_parameter: shape[{i}] must be an int, but "
                            f"received {type(d).__name__} {d!r}")
    return _as_value(_create(shape, dtype, name, attr, is_bias, default_initializer))


_GLOBAL_VAR_DTYPES = frozenset({torch.bool, torch.float16, torch.bfloat16, torch.float32,
                                 torch.float64, torch.int8, torch.int16, torch.int32, torch.int64,
                                 torch.uint8})


def create_global_var(shape: Any, value: float, dtype: Any, persistable: bool = False,
                      force_cpu: bool = False, name: str | None = None) -> Any:
    """A global variable filled with ``value`` (a persistable one keeps in-place updates
    made by the program across runs).

    Examples:
        >>> import pagaie as paddle
        >>> v = paddle.static.create_global_var([2], 1.5, 'float32')
        >>> v.tolist()
        [1.5, 1.5]
    """
    import pagaie
    from pagaie.utils import unique_name
    if not isinstance(shape, (list, tuple, np.ndarray)):
        raise TypeError(f"paddle.static.create_global_var: shape must be a list, tuple or numpy "
                        f"array, but received {type(shape).__name__}")
    for d in shape:
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"paddle.static.create_global_var: every item of shape must be an int, "
                            f"but received {d!r} in {list(shape)}")
    tdt = _dt.to_torch_dtype(dtype)
    if tdt not in _GLOBAL_VAR_DTYPES:   # (Paddle's dtype check: no complex or float8 variable)
        raise TypeError(f"paddle.static.create_global_var: dtype must be one of bool, float16, "
                        f"bfloat16, float32, float64, int8, int16, int32, int64 and uint8, but "
                        f"received {str(tdt).replace('torch.', '')}")
    if isinstance(value, str):   # Paddle converts it with float(): ValueError
        raise ValueError(f"paddle.static.create_global_var: value must be a number, but received "
                         f"the string {value!r}")
    with suspended():
        t = pagaie.full([int(d) for d in shape], value, dtype)
    t.name = name or unique_name.generate("_generated_var")
    t.persistable = persistable
    return _as_value(t)


def accuracy(input: Any, label: Any, k: int = 1, correct: Any = None, total: Any = None) -> Any:
    """Top-``k`` accuracy of ``input`` (scores ``[N, C]``) against ``label`` (``[N, 1]``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[0.1, 0.9], [0.8, 0.2]])
        >>> paddle.static.accuracy(x, paddle.to_tensor([[1], [1]])).item()
        0.5
    """
    from pagaie._static.ir import Value
    from pagaie.metric import accuracy as _acc
    if isinstance(input, Value) and input.dtype.name not in ("float32", "float64"):
        # (a TypeError while the program is built, as the dtype check of Paddle's accuracy op)
        raise TypeError(f"paddle.static.accuracy: the data type of input must be float32 or "
                        f"float64, but received {input.dtype.name}")
    if isinstance(input, Value):
        # Paddle's PIR accuracy op has no correct/total outputs: in a program the given
        # tensors are left as they are (only eager calls write the counts into them)
        correct = total = None
    return _acc(input, label, k, correct, total)


def _auc_from_stats(pos: Any, neg: Any) -> Any:
    """The ROC AUC of per-bucket positive / negative counts: trapezoids from the highest
    bucket down, divided by ``positives * negatives`` (0 when either is 0)."""
    import pagaie
    pc = pagaie.cumsum(pagaie.flip(pos, [0]), 0).astype("float64")
    nc = pagaie.cumsum(pagaie.flip(neg, [0]), 0).astype("float64")
    zero = pagaie.zeros([1], "float64")
    pp = pagaie.concat([zero, pc[:-1]])
    np_ = pagaie.concat([zero, nc[:-1]])
    area = pagaie.sum((nc - np_) * (pc + pp) / 2.0)
    tp, tn = pc[-1], nc[-1]
    denom = tp * tn
    return pagaie.where(denom > 0, area / pagaie.where(denom > 0, denom, pagaie.ones_like(denom)),
                        pagaie.zeros_like(denom))


def _auc_state(shape: list, kind: str) -> Any:
    """A persistable int64 zeros value of the program (a fresh tensor in dynamic mode)."""
    import pagaie
    from pagaie.utils import unique_name
    with suspended():
        t = pagaie.zeros(shape, "int64")
    t.persistable = True
    t.name = unique_name.generate(kind)
    return _as_value(t)


def _window_auc(pos: Any, neg: Any, real: Any, n: int, steps: int) -> tuple:
    """Paddle's batch AUC over the last ``steps`` runs. Each state is
    ``[steps * n]`` ring of per-run counts, ``[n]`` window sum, ``[1]`` run counter; the run
    replaces the oldest slot of the ring (its counts leave the sum) and adds its own counts
    to the sum unless the batch is fake (``real`` 0)."""
    import pagaie
    states, sums = [], []
    for counts, kind in ((pos, "auc_batch_stat_pos"), (neg, "auc_batch_stat_neg")):
        st = _auc_state([(steps + 1) * n + 1], kind)
        ring = st[:steps * n].reshape([steps, n])
        count = st[(steps + 1) * n:]
        slot = (pagaie.arange(steps, dtype="int64") == count % steps).astype("int64").unsqueeze(1)
        total = st[steps * n:(steps + 1) * n] - pagaie.sum(ring * slot, 0) + counts * real
        ring = ring * (1 - slot) + slot * counts.unsqueeze(0)
        with inplace_redefines():   # the persistable state changes for the next run
            st = st.add_(pagaie.concat([ring.reshape([-1]), total, count + 1]) - st)
        states.append(st)
        sums.append(total)
    return _auc_from_stats(*sums), states


def auc(input: Any, label: Any, curve: str = "ROC", num_thresholds: int = 4095, topk: int = 1,
        slide_steps: int = 1, ins_tag_weight: Any = None) -> tuple:
    """Area under the ROC curve from bucketed positive / negative counts (Paddle's kernel
    computes that area for any ``curve`` name, ``'PR'`` included).

    The last column of ``input`` (``[N, 1]`` or ``[N, 2]``) is the positive-class
    probability, bucketed by ``int(p * num_thresholds)``; a label above 0 counts as a
    positive, 0 as a negative (others are skipped). The global AUC uses the counts of every
    run of the program (persistable ``[1, num_thresholds + 1]`` int64 values), the batch
    AUC those of the last ``slide_steps`` runs (every run when 0). A batch whose
    ``ins_tag_weight[0]`` is 0 is fake data: it is left out of both.

    Returns:
        tuple: ``(auc, batch_auc, [batch_stat_pos, batch_stat_neg, stat_pos, stat_neg])``.

    Examples:
        >>> import pagaie as paddle
        >>> p = paddle.to_tensor([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
        >>> a, b, _ = paddle.static.auc(p, paddle.to_tensor([[0], [1], [0], [1]]))
        >>> round(float(a), 4)
        1.0
    """
    if not isinstance(curve, str):  # (TypeError, as Paddle's str attribute)
        raise TypeError(f"paddle.static.auc: curve must be a str, but received "
                        f"{type(curve).__name__} {curve!r}")
    # As Paddle's kernel: the area is the ROC one whatever ``curve`` names ('PR' included).
    for arg, v, kinds in (("input", input, ("float32", "float64")), ("label", label, ("int32", "int64")),
                          ("ins_tag_weight", ins_tag_weight, ("float32", "float64"))):
        if v is not None and getattr(v, "dtype", None) is not None and v.dtype.name not in kinds:
            raise TypeError(f"paddle.static.auc: the data type of {arg} must be {' or '.join(kinds)}, "
                            f"but received {v.dtype.name}")
    if len(input.shape) != 2 or input.shape[1] > 2:  # (ValueError, as Paddle's shape check)
        raise ValueError(f"paddle.static.auc: input must be [N, 1] or [N, 2] (binary "
                         f"classification), but its shape is {list(input.shape)}")
    import pagaie
    n = num_thresholds + 1
    prob = input[:, -1]
    bucket = pagaie.clip((prob * num_thresholds).astype("int64"), 0, num_thresholds)
    # (a comparison with arange keeps the bucket axis size known to shape inference)
    onehot = (pagaie.unsqueeze(bucket, 1) == pagaie.arange(n, dtype="int64")).astype("int64")
    lab = label.reshape([-1, 1])
    pos = pagaie.sum(onehot * (lab > 0).astype("int64"), 0)
    neg = pagaie.sum(onehot * (lab == 0).astype("int64"), 0)
    real = pagaie.ones([], "int64") if ins_tag_weight is None else \
        (ins_tag_weight.reshape([-1])[0] != 0).astype("int64")
    if slide_steps:
        batch_auc, (bsp, bsn) = _window_auc(pos, neg, real, n, int(slide_steps))
    else:   # a window of every run: the global counts again
        bsp, bsn = _global_counts(pos, neg, real, n, "auc_batch_stat")
        batch_auc = _auc_from_stats(bsp[0], bsn[0])
    sp, sn = _global_counts(pos, neg, real, n, "auc_stat")
    return _auc_from_stats(sp[0], sn[0]), batch_auc, [bsp, bsn, sp, sn]


def _global_counts(pos: Any, neg: Any, real: Any, n: int, kind: str) -> tuple:
    """Persistable ``[1, n]`` positive / negative counts of every (real) run."""
    with inplace_redefines():   # the persistable counts change for the next run
        return tuple(_auc_state([1, n], f"{kind}_{k}").add_((c * real).unsqueeze(0))
                     for c, k in ((pos, "pos"), (neg, "neg")))


def ctr_metric_bundle(input: Any, label: Any, ins_tag_weight: Any = None) -> tuple:
    """CTR metrics accumulated over runs (persistable float32 values), as Paddle's legacy
    static graph computes them: the sums of squared and absolute errors ``input - label``, of
    the predictions, of ``sigmoid(input)`` (the q value) and of the labels, and the instance
    count. The q sum and the instance count are scaled by the first row of ``ins_tag_weight``
    (1 for real data, 0 for fake; 1 when absent), so they have its shape (``[1, 1]`` by default).

    Returns:
        tuple: ``(local_sqrerr, local_abserr, local_prob, local_q, local_pos_num, local_ins_num)``.

    Examples:
        >>> import pagaie as paddle
        >>> r = paddle.static.ctr_metric_bundle(paddle.to_tensor([[0.5], [0.2]]), paddle.to_tensor([[1.0], [0.0]]))
        >>> [round(v.item(), 4) for v in r]
        [0.29, 0.7, 0.7, 1.1723, 1.0, 2.0]
    """
    import pagaie
    from pagaie.utils import unique_name
    if list(input.shape) != list(label.shape):
        raise AssertionError(f"paddle.static.ctr_metric_bundle: input and label must have the same "
                             f"shape, but received {list(input.shape)} and {list(label.shape)}")
    if ins_tag_weight is None:
        w = pagaie.full([1, 1], 1.0, "float32")
    else:
        w = ins_tag_weight[0:1].astype("float32")     # the first row (Paddle's slice op)
    wshape = [1] if len(w.shape) <= 1 else [1] * len(w.shape)
    accs = []
    with suspended():
        for k, shape in (("sqrerr", [1]), ("abserr", [1]), ("prob", [1]), ("q", wshape),
                         ("pos_num", [1]), ("ins_num", wshape)):
            t = pagaie.zeros(shape, "float32")
            t.name, t.persistable = unique_name.generate(f"local_{k}"), True
            accs.append(t)
    vals = [_as_value(t) for t in accs]
    p = input.astype("float32")
    diff = p - label.astype("float32")
    count = pagaie.sum(pagaie.ones_like(p[:, :1] if len(p.shape) > 1 else p))
    terms = [pagaie.sum(diff * diff), pagaie.sum(diff.abs()), pagaie.sum(p),
             pagaie.sum(pagaie.nn.functional.sigmoid(p)) * w.reshape(wshape),
             pagaie.sum(label.astype("float32")), count * w.reshape(wshape)]
    with inplace_redefines():   # the persistable sums change for the next run
        return tuple(v.add_(t.reshape(v.shape)) for v, t in zip(vals, terms))


_DEVICES = ("cpu", "gpu", "xpu")


@contextmanager
def device_guard(device: str | None = None) -> Iterator[None]:
    """Accepted for compatibility: ops run on the executor's device.

    Args:
        device (str, optional): ``'cpu'``, ``'gpu'``, ``'gpu:<id>'``, ``'xpu'`` or
            ``'xpu:<id>'``.

    Raises:
        TypeError: ``device`` is no str.
        ValueError: an unknown device, or a device id given for the CPU.

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.static.device_guard('cpu'):
        ...     pass
    """
    if device is not None and not isinstance(device, str):
        raise TypeError(f"paddle.static.device_guard: device must be a str, but received "
                        f"{type(device).__name__}")
    kind, _, index = (device or "").partition(":")
    if kind == "cpu" and index:
        raise ValueError(f"paddle.static.device_guard: a device id cannot be set for the CPU, but "
                         f"received {device!r}")
    if device and kind not in _DEVICES:
        raise ValueError(f"paddle.static.device_guard: the device must be 'cpu', 'gpu', 'gpu:x', "
                         f"'xpu' or 'xpu:x', but received {device!r}")
    yield


def cpu_places(device_count: int | None = None) -> list:
    """``device_count`` CPU places (the ``CPU_NUM`` environment variable, 1 by default).

    Examples:
        >>> import pagaie as paddle
        >>> len(paddle.static.cpu_places(2))
        2
    """
    import pagaie
    n = device_count if device_count is not None else int(os.environ.get("CPU_NUM", "1"))
    return [pagaie.CPUPlace() for _ in range(n)]


def cuda_places(device_ids: Any = None) -> list:
    """The CUDA places of ``device_ids`` (all visible GPUs by default).

    As in a CPU build of Paddle, raises ``AssertionError`` when no CUDA device is usable.

    Examples:
        >>> import pagaie as paddle
        >>> places = paddle.static.cuda_places() if paddle.is_compiled_with_cuda() else []
    """
    import pagaie
    if not pagaie.is_compiled_with_cuda():
        raise AssertionError("paddle.static.cuda_places: not compiled with CUDA (no CUDA device is "
                             "usable), so there are no CUDA places")
    if device_ids is None:
        device_ids = list(range(torch.cuda.device_count()))
    elif not isinstance(device_ids, (list, tuple)):
        device_ids = [device_ids]
    return [pagaie.CUDAPlace(int(i)) for i in device_ids]


class _NoXPUError(NotImplementedError, AssertionError):
    """pagaie has no XPU support (an ``AssertionError``, as a Paddle build without XPU raises)."""


class _NoIPUError(NotImplementedError, ValueError):
    """pagaie has no IPU support (a ``ValueError``, as a Paddle build without IPU raises)."""


def xpu_places(device_ids: Any = None) -> list:
    """XPU places: pagaie has no XPU support, so this raises (an ``AssertionError``, as a
    Paddle build without XPU does, and a ``NotImplementedError``)."""
    raise _NoXPUError("paddle.static.xpu_places: not compiled with XPU (pagaie does not support "
                      "XPU devices)")


def _no_ipu(api: str) -> _NoIPUError:
    return _NoIPUError(f"paddle.static.{api}: can not be used since pagaie is not compiled with IPU "
                       "(Graphcore IPUs are not supported)")


@contextmanager
def ipu_shard_guard(index: int = -1, stage: int = -1) -> Iterator[None]:
    """IPU sharding: entering it raises ``ValueError`` (as in a Paddle build without IPU; also a
    ``NotImplementedError``)."""
    raise _no_ipu("ipu_shard_guard")
    yield  # pragma: no cover


def set_ipu_shard(call_func: Any, index: int = -1, stage: int = -1) -> Any:
    """Run ``call_func`` (a function or a Layer, changed in place) under
    :func:`ipu_shard_guard`: as in a Paddle build without IPU, calling the result raises
    ``ValueError``; a ``call_func`` that is neither raises ``TypeError``.

    Examples:
        >>> import pagaie as paddle
        >>> f = paddle.static.set_ipu_shard(lambda x: x)
        >>> callable(f)
        True
    """
    import functools

    from pagaie.nn import Layer

    if not isinstance(call_func, Layer):
        if not callable(call_func):
            raise TypeError(f"paddle.static.set_ipu_shard: 'call_func' must be a paddle.nn.Layer or "
                            f"a function, but received {type(call_func).__name__}")

        @functools.wraps(call_func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with ipu_shard_guard(index=index, stage=stage):
                return call_func(*args, **kwargs)
        return wrapper

    base = type(call_func)

    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        with ipu_shard_guard(index=index, stage=stage):
            return base.__call__(self, *args, **kwargs)
    call_func.__class__ = type(base.__name__, (base,), {"__call__": __call__,
                                                        "__module__": base.__module__})
    return call_func


class IpuStrategy:
    """IPU configuration: raises ``NotImplementedError`` (a ``RuntimeError``, as in a Paddle
    build without IPU)."""

    def __init__(self) -> None:
        raise NotImplementedError("paddle.static.IpuStrategy: can not be used in an environment without "
                           "IPU support (pagaie does not support Graphcore IPUs)")


class IpuCompiledProgram:
    """IPU compilation: raises ``ValueError``, as in a Paddle build without IPU."""

    def __init__(self, program: Any = None, scope: Any = None, ipu_strategy: Any = None) -> None:
        raise _no_ipu("IpuCompiledProgram")


@register_graph_op("pagaie.ema_update", side_effect=True)
def _run_ema_update(op: Operator, args: list, kwargs: dict, plan: Any) -> None:
    params, shadows, step = args
    decay = op.attrs["decay"]
    with torch.no_grad():
        step.add_(1)
        if op.attrs.get("thres_steps"):
            s = float(step.reshape(-1)[0])
            decay = min(decay, (1.0 + s) / (10.0 + s))
        for p, sh in zip(params, shadows):
            sh.mul_(decay).add_(p.detach().to(sh.dtype), alpha=1.0 - decay)
        op.attrs["_last_decay"] = decay
    return None


class ExponentialMovingAverage:
    """Exponential moving averages of the program's trainable parameters.

    ``update()`` adds an op keeping ``ema = decay * ema + (1 - decay) * param`` after each
    run; inside ``apply()`` the parameters hold the bias-corrected averages
    ``ema / (1 - decay ** t)`` and get their values back afterwards (``restore``).

    Args:
        decay (float): the decay rate.
        thres_steps (Tensor, optional): when given, the decay is
            ``min(decay, (1 + t) / (10 + t))``.
        name (str, optional): unused.

    Raises:
        RuntimeError: created in dynamic mode (Paddle supports it in static mode only).

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('ema_x', [None, 2], 'float32')
        ...     loss = paddle.mean(paddle.static.nn.fc(x, 1))
        ...     _ = paddle.optimizer.SGD(0.1).minimize(loss)
        ...     ema = paddle.static.ExponentialMovingAverage(0.9)
        ...     ema.update()
        >>> exe = paddle.static.Executor()
        >>> _ = exe.run(main, feed={'ema_x': np.ones([2, 2], 'float32')}, fetch_list=[loss])
        >>> with ema.apply(exe):
        ...     pass
        >>> paddle.disable_static()
    """

    def __init__(self, decay: float = 0.999, thres_steps: Any = None, name: str | None = None) -> None:
        if _recorder() is None:  # (as Paddle, which raises a plain Exception there)
            raise RuntimeError("paddle.static.ExponentialMovingAverage: dynamic mode does not "
                               "support ExponentialMovingAverage; create it in static mode")
        self._decay = float(decay)
        self._thres_steps = thres_steps
        self._name = name
        self._params: list = []
        self._shadows: list = []
        self._step = None
        self._backup: list = []

    def update(self) -> None:
        """Add the moving-average update to the current program (after the optimizer)."""
        import pagaie
        rec = _recorder()
        if rec is None:
            raise RuntimeError("paddle.static.ExponentialMovingAverage.update: call it while building "
                               "a static program")
        block = rec.program.global_block()
        params = [v for v in block.all_parameters() if not v.stop_gradient]
        with suspended():
            self._params = [v.source for v in params]
            self._shadows = [pagaie.zeros_like(p).detach() for p in self._params]
            self._step = pagaie.zeros([1], "int64")
        for p, s in zip(self._params, self._shadows):
            s.name, s.persistable = p.name + "_ema_0", True
        from pagaie._static.recorder import capture
        block.append_op("pagaie.ema_update", [params, [capture(block, s) for s in self._shadows],
                                              capture(block, self._step)], {}, None,
                        {"decay": self._decay, "thres_steps": self._thres_steps is not None})

    def _corrected(self) -> list:
        t = int(self._step._t.reshape(-1)[0]) if self._step is not None else 0
        d = self._decay
        scale = 1.0 - d ** t if t > 0 and self._thres_steps is None else 1.0
        return [s._t / scale for s in self._shadows]

    @contextmanager
    def apply(self, executor: Any = None, need_restore: bool = True) -> Iterator[None]:
        """Swap the averages into the parameters inside the ``with`` block."""
        self._backup = [p._t.detach().clone() for p in self._params]
        with torch.no_grad():
            for p, v in zip(self._params, self._corrected()):
                p._t.copy_(v)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor: Any = None) -> None:
        """Give the parameters back the values they had before ``apply``."""
        with torch.no_grad():
            for p, b in zip(self._params, self._backup):
                p._t.copy_(b)
