"""``paddle.amp.debugging``: NaN/Inf checks and per-op dtype statistics.

Both are dispatcher handlers, installed only while switched on, so they cost nothing
when off: ``FLAGS_check_nan_inf`` (flag or environment variable) and
``enable_tensor_checker`` check every op's outputs; ``enable_operator_stats_collection``
counts op calls by dtype.
"""
from __future__ import annotations

import contextlib
import enum
import functools
from collections import defaultdict
from typing import Any, Callable, Iterator, Sequence

import torch

from pagaie._core import flags as _flags
from pagaie._core.dtype import default_float, from_torch_dtype
from pagaie._core.registry import OpRecord, pop_handler, push_handler
from pagaie._core.tensor import Tensor, wrap
from pagaie.amp.lists import call_arg

__all__ = ["DebugMode", "TensorCheckerConfig", "check_numerics", "enable_operator_stats_collection",
           "disable_operator_stats_collection", "collect_operator_stats", "enable_tensor_checker",
           "disable_tensor_checker", "compare_accuracy", "check_layer_numerics"]


class DebugMode(enum.Enum):
    """What the tensor checker looks for and whether it stops at the first problem."""

    CHECK_NAN_INF_AND_ABORT = 0
    CHECK_NAN_INF = 1
    CHECK_ALL_FOR_OVERFLOW = 2
    CHECK_ALL = 3


_SHORT = {torch.float16: "fp16", torch.bfloat16: "bf16", torch.float32: "fp32", torch.float64: "fp64"}


def _op_label(rec: OpRecord) -> str:
    """The op name operator stats count under: Paddle's legacy name (``elementwise_div``)."""
    legacy = [n for n in rec.paddle_types if not n.startswith("pd_op.")]
    return legacy[0] if legacy else rec.name


def _kernel_label(rec: OpRecord) -> str:
    """The op name a NaN/Inf report shows: Paddle's eager kernel name (its ``pd_op.`` name,
    e.g. ``divide``), else the legacy one."""
    for n in rec.paddle_types:
        if n.startswith("pd_op."):
            return n[len("pd_op."):]
    return _op_label(rec)


def _stats(t: torch.Tensor) -> tuple[int, int, int, float, float, float]:
    # counted in the tensor's own precision (a float64 1e39 is finite); max/min/mean are
    # reported as float32, as Paddle's ``values`` output is
    f = t.detach()
    f = f if f.dtype == torch.float64 else f.float()
    nan = int(torch.isnan(f).sum())
    inf = int(torch.isinf(f).sum())
    zero = int((f == 0).sum())
    if f.numel() == 0:
        return nan, inf, zero, 0.0, 0.0, 0.0

    def f32(v: torch.Tensor) -> float:
        return float(v.float())
    finite_or_inf = f[~torch.isnan(f)]  # Paddle's max/min skip NaN; the mean does not
    if finite_or_inf.numel() == 0:
        return nan, inf, zero, float("nan"), float("nan"), f32(f.mean())
    return nan, inf, zero, f32(finite_or_inf.max()), f32(finite_or_inf.min()), f32(f.mean())


def _report(t: torch.Tensor, op: str, var: str, abort: bool, print_all: bool) -> tuple:
    nan, inf, zero, mx, mn, mean = _stats(t)
    where = f"[device={t.device.type}, op={op}, tensor={var}, dtype={_SHORT.get(t.dtype, str(t.dtype))}]"
    bad = nan or inf
    if bad:
        print(f"[PRECISION] [ERROR] in {where}, numel={t.numel()}, num_nan={nan}, num_inf={inf}, "
              f"num_zero={zero}, max={mx:e}, min={mn:e}, mean={mean:e}")
    elif print_all and t.numel():
        # Paddle's line for a clean tensor names no level and no NaN/Inf counts
        print(f"[PRECISION] in {where}, numel={t.numel()}, num_zero={zero}, max={mx:e}, min={mn:e}, "
              f"mean={mean:e}")
    if bad and abort:
        first = (~torch.isfinite(t.detach())).nonzero()[0].tolist() if t.dim() else []
        raise RuntimeError(f"There are NAN or INF (num_nan={nan}, num_inf={inf}, num_zero={zero}) in "
                           f"{where}; the first one is at index {first}")
    return (nan, inf, zero), (mx, mn, mean)


def check_numerics(tensor: Tensor, op_type: str, var_name: str,
                   debug_mode: DebugMode = DebugMode.CHECK_NAN_INF_AND_ABORT) -> tuple[Tensor, Tensor]:
    """Count NaN, Inf and zeros in ``tensor``; raise on NaN/Inf in the abort mode.

    Args:
        tensor (Tensor): the values to check.
        op_type (str): the op name to report.
        var_name (str): the tensor name to report.
        debug_mode (DebugMode, optional): CHECK_NAN_INF_AND_ABORT (default) raises.

    Returns:
        (stats, values): int64 ``[num_nan, num_inf, num_zero]`` and float32 ``[max, min, mean]``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.amp import debugging
        >>> stats, values = debugging.check_numerics(paddle.to_tensor([1.0, 0.0]), 'op', 'x',
        ...                                          debugging.DebugMode.CHECK_ALL)
        [PRECISION] in [device=cpu, op=op, tensor=x, dtype=fp32], numel=2, num_zero=1, max=1.000000e+00, min=0.000000e+00, mean=5.000000e-01
        >>> stats.tolist()
        [0, 0, 1]
    """
    if not isinstance(tensor, Tensor):
        raise ValueError(f"paddle.amp.debugging.check_numerics: 'tensor' must be a Tensor, but "
                        f"received {type(tensor).__name__}")
    t = tensor._t
    if not (t.is_floating_point() or t.is_complex()):
        # Paddle's check_numerics kernel exists for floating and complex dtypes only
        raise RuntimeError(f"paddle.amp.debugging.check_numerics: the tensor's dtype must be a "
                           f"floating or complex dtype, but received {from_torch_dtype(t.dtype).name}")
    if t.is_complex():
        # Paddle's kernel neither prints nor fills its outputs for a complex tensor; counted
        # here over the real and imaginary parts
        t = torch.view_as_real(t.detach())
    abort = debug_mode is DebugMode.CHECK_NAN_INF_AND_ABORT
    counts, values = _report(t, op_type, var_name, abort,
                             debug_mode is DebugMode.CHECK_ALL and not tensor._t.is_complex())
    return (wrap(torch.tensor(counts, dtype=torch.int64)),
            wrap(torch.tensor(values, dtype=torch.float32)))


# ---- the NaN/Inf checker: FLAGS_check_nan_inf and enable_tensor_checker -----------------
class TensorCheckerConfig:
    """Configuration of :func:`enable_tensor_checker`.

    Args:
        enable (bool): whether checking is on. As in Paddle, an enabled config reseeds
            ``paddle`` and numpy with the default generator's initial seed (123 when that
            seed does not fit in 32 bits), so checked runs are reproducible.
        debug_mode (DebugMode, optional): what to check and whether to abort.
        output_dir (str, optional): not used by pagaie (reports are printed).
        checked_op_list (list[str], optional): check only these ops. As in Paddle, the
            names join one process-wide list the moment a config is made (enabled or not),
            and that list stays: every later check, ``FLAGS_check_nan_inf`` included, looks
            only at the ops named in it once it is not empty.
        skipped_op_list (list[str], optional): never check these ops (also process-wide and
            lasting; a skipped op is skipped even when it is also checked).
        debug_step (list[int], optional): ``[start, end)`` of steps to check.
        stack_height_limit (int, optional): accepted for compatibility.

    Examples:
        >>> from pagaie.amp import debugging
        >>> cfg = debugging.TensorCheckerConfig(enable=False)
        >>> cfg.enable, cfg.checked_op_list
        (False, None)
    """

    # the number of checker steps so far (enable_tensor_checker calls of enabled configs with a
    # debug_step window), shared by every config as Paddle's class attribute is
    current_step_id: int = 0

    def __init__(self, enable: bool, debug_mode: DebugMode = DebugMode.CHECK_NAN_INF_AND_ABORT,
                 output_dir: str | None = None, checked_op_list: Sequence[str] | None = None,
                 skipped_op_list: Sequence[str] | None = None, debug_step: Sequence[int] | None = None,
                 stack_height_limit: int = 1) -> None:
        self.enable = enable
        self.debug_mode = debug_mode
        self.output_dir = output_dir
        self.checked_op_list = checked_op_list
        self.skipped_op_list = skipped_op_list
        self.debug_step = debug_step
        self.stack_height_limit = stack_height_limit
        self.start_step: int | None = None
        self.end_step: int | None = None
        self.seed = 123
        self.initial_seed = 123
        if debug_step is not None:
            if not isinstance(debug_step, (tuple, list)):
                raise ValueError("paddle.amp.debugging.TensorCheckerConfig: debug_step must be list or "
                                 f"tuple, but received {type(debug_step).__name__}")
            if not (len(debug_step) == 2 and debug_step[1] > debug_step[0]):
                raise AssertionError("paddle.amp.debugging.TensorCheckerConfig: debug_step must be "
                                     f"[start, end) with start < end, but received {debug_step!r}")
            self.start_step, self.end_step = max(debug_step[0], 0), debug_step[1]
        if not isinstance(debug_mode, DebugMode):
            # Paddle reads ``debug_mode.name``: an object without one is an AttributeError
            err = ValueError if hasattr(debug_mode, "name") else AttributeError
            raise err(f"paddle.amp.debugging.TensorCheckerConfig: debug_mode must be a DebugMode, "
                      f"but received {debug_mode!r}")
        for what, ops in (("checked_op_list", checked_op_list), ("skipped_op_list", skipped_op_list)):
            if ops is not None and not isinstance(ops, (list, tuple)):
                raise ValueError(f"paddle.amp.debugging.TensorCheckerConfig: {what} must be list or "
                                 f"tuple, but received {type(ops).__name__}")
        _CHECKED_OPS.update(checked_op_list or ())
        _SKIPPED_OPS.update(skipped_op_list or ())
        from pagaie.random import initial_seed
        self.initial_seed = initial_seed()
        if self.enable:
            self._set_seed()

    def _set_seed(self) -> None:
        import numpy as np
        import pagaie
        self.seed = self.initial_seed
        if not 0 <= self.seed <= np.iinfo(np.uint32).max:
            print("[Warning: Seed must be between 0 and 2**32 - 1")
            self.seed = 123
        pagaie.seed(self.seed)
        np.random.seed(self.seed)
        print("AMP Debugging TensorCheckerConfig: seed ", self.seed)

    def update_and_check_step_id(self) -> bool:
        """Count one step and say whether it is to be checked: always for an enabled config
        without ``debug_step``, inside ``[start, end)`` with it; never for a disabled one.
        The count stops at ``end``, as Paddle's. (Paddle counts only the steps inside the
        window, so one starting after step 0 never opens; here every step before ``end``
        counts.)"""
        if not self.enable:
            return False
        if self.start_step is None or self.end_step is None:
            return True
        step = TensorCheckerConfig.current_step_id
        if step >= self.end_step:
            return False
        TensorCheckerConfig.current_step_id += 1
        return self.start_step <= step

    def start_check_nan_inf(self) -> None:
        """Turn the checks on as this config says (``FLAGS_check_nan_inf`` and its level,
        as Paddle sets them); nothing for a disabled config."""
        if not self.enable:
            return
        if not isinstance(self.stack_height_limit, int):
            raise ValueError("paddle.amp.debugging.TensorCheckerConfig: stack_height_limit must be "
                             f"int, but received {type(self.stack_height_limit).__name__}")
        _flags.set_flags({"FLAGS_check_nan_inf_level": self.debug_mode.value, "FLAGS_check_nan_inf": True})

    def stop_check_nan_inf(self) -> None:
        """Turn the checks off (``FLAGS_check_nan_inf`` back to False)."""
        _flags.set_flags({"FLAGS_check_nan_inf": False})


class _Checker:
    """The active NaN/Inf check, on while ``FLAGS_check_nan_inf`` is; what it does on a bad
    tensor follows ``FLAGS_check_nan_inf_level`` (a DebugMode value: abort, report, or report
    every tensor), and the ops it looks at the process-wide checked/skipped op lists."""

    def __init__(self) -> None:
        self.on = False
        self.level = 0
        self.installed = False

    def refresh(self) -> None:
        if self.on and not self.installed:
            push_handler(self.handler)
        elif not self.on and self.installed:
            pop_handler(self.handler)
        self.installed = self.on

    def handler(self, rec: OpRecord, args: tuple, kwargs: dict, proceed: Callable) -> Any:
        out = proceed(args, kwargs)
        if not _wanted(rec):
            return out
        abort = self.level == DebugMode.CHECK_NAN_INF_AND_ABORT.value
        print_all = self.level == DebugMode.CHECK_ALL.value
        for i, t in enumerate(_tensors(out)):
            if t.is_floating_point() or t.is_complex():
                if print_all or not bool(torch.isfinite(t).all()):
                    try:
                        _report(t, _kernel_label(rec), f"out[{i}]", abort, print_all)
                    except RuntimeError as exc:
                        shapes = [list(a._t.shape) for a in _tensor_args(args, kwargs)]
                        raise RuntimeError(f"paddle.{rec.name}: {exc} (input shapes: {shapes})") from None
        return out


def _tensors(out: Any) -> list[torch.Tensor]:
    if isinstance(out, Tensor):
        return [out._t]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _tensors(o)]
    return []


def _tensor_args(args: tuple, kwargs: dict) -> list[Tensor]:
    vals = list(args) + list(kwargs.values())
    found = []
    for v in vals:
        if isinstance(v, Tensor):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            found.extend(e for e in v if isinstance(e, Tensor))
    return found


_CHECKER = _Checker()
# the op lists every TensorCheckerConfig adds to, kept for the whole process as Paddle's are
_CHECKED_OPS: set[str] = set()
_SKIPPED_OPS: set[str] = set()
# ops the checks never look at: Paddle's eager to_tensor copies the data in without a kernel
_NEVER_CHECKED = frozenset({"to_tensor"})


def _wanted(rec: OpRecord) -> bool:
    if rec.name in _NEVER_CHECKED:
        return False
    return _wanted_names({rec.name, *rec.paddle_types})


def _wanted_names(names: set[str]) -> bool:
    """Whether an op known by ``names`` passes the checked/skipped op lists."""
    if names & _SKIPPED_OPS:
        return False
    return not _CHECKED_OPS or bool(names & _CHECKED_OPS)


def _on_flag(value: Any) -> None:
    _CHECKER.on = bool(value)
    _CHECKER.refresh()


def _on_level(value: Any) -> None:
    _CHECKER.level = int(value)


_flags.on_change("check_nan_inf", _on_flag)
_flags.on_change("check_nan_inf_level", _on_level)


def enable_tensor_checker(checker_config: TensorCheckerConfig) -> None:
    """Start one checker step: if ``checker_config`` is enabled and the step is in its
    ``debug_step`` window, every op's outputs are checked for NaN/Inf as it says (Paddle's
    ``FLAGS_check_nan_inf`` goes on); otherwise the checks stop.

    Args:
        checker_config (TensorCheckerConfig): what to check.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.amp import debugging
        >>> _ = paddle.seed(2024)
        >>> cfg = debugging.TensorCheckerConfig(enable=True)   # reseeds with 2024, as Paddle
        AMP Debugging TensorCheckerConfig: seed  2024
        >>> debugging.enable_tensor_checker(cfg)
        >>> paddle.get_flags("FLAGS_check_nan_inf")
        {'FLAGS_check_nan_inf': True}
        >>> debugging.disable_tensor_checker()
    """
    if not isinstance(checker_config, TensorCheckerConfig):
        raise TypeError("paddle.amp.debugging.enable_tensor_checker: 'checker_config' must be a "
                        f"TensorCheckerConfig, but received {type(checker_config).__name__}")
    if checker_config.update_and_check_step_id():
        checker_config.start_check_nan_inf()
    else:
        checker_config.stop_check_nan_inf()


def disable_tensor_checker() -> None:
    """Stop the NaN/Inf checks (``FLAGS_check_nan_inf`` back to False, as in Paddle).

    Examples:
        >>> from pagaie.amp import debugging
        >>> debugging.disable_tensor_checker()
    """
    _flags.set_flags({"FLAGS_check_nan_inf": False})


# ---- operator statistics ----------------------------------------------------------------
class _OpStats:
    def __init__(self) -> None:
        self.counts: dict = defaultdict(lambda: [0, 0, 0, 0])
        self.on = False

    def handler(self, rec: OpRecord, args: tuple, kwargs: dict, proceed: Callable) -> Any:
        out = proceed(args, kwargs)
        if rec.name in _NOT_AN_OP:
            return out
        # the dtype of the kernel that ran, as Paddle counts it: the first input's
        # (a cast from float32 is a float32 call), else the first output's (creation ops)
        key = _KERNEL_INPUT.get(rec.name)
        chosen = call_arg(rec, args, kwargs, key) if key else None
        ts = ([chosen._t] if isinstance(chosen, Tensor) else
              (_tensors(out) if rec.name in _KERNEL_OUTPUT else [])
              or [a._t for a in _tensor_args(args, kwargs)] or _tensors(out))
        dt = ts[0].dtype if ts else None
        for label, d in _paddle_calls(rec, args, kwargs, dt):
            self.counts[label][{torch.float16: 0, torch.bfloat16: 1, torch.float32: 2}.get(d, 3)] += 1
        return out

    def print_table(self) -> None:
        print("<{:-^120}>".format(" op list "))
        print("<--------------- Op Name ---------------- | -- FP16 Calls --- | -- BF16 Calls --- "
              "| --- FP32 Calls--- | -- Other Calls -->")
        for name in sorted(self.counts):
            c = self.counts[name]
            print(f"  {name:<40}|  {c[0]:<17}|  {c[1]:<17}|  {c[2]:<17}|  {c[3]:<17}")
        # Paddle's last line is followed by an empty one
        print("<{:-^120}>\n".format(f" op count: {len(self.counts)} "))


# How Paddle's eager mode (CPU build) names the calls of an op in its statistics, where
# that differs from the op's first program name.
_STAT_LABELS = {"reshape": "reshape", "getitem": "slice", "neg": "scale", "sort": "argsort",
                "isnan": "isnan_v2", "zeros_like": "fill_any_like", "ones_like": "fill_any_like",
                "empty_like": "empty", "tril": "tril", "triu": "triu", "shape": "shape64"}
# Ops whose kernel dtype Paddle takes from the output (made like the input, maybe another dtype).
_KERNEL_OUTPUT = frozenset({"zeros_like", "ones_like", "empty_like"})
# Ops whose kernel dtype Paddle takes from an input other than the first tensor.
_KERNEL_INPUT = {"where": "x", "embedding": "weight"}
# Records that are no op in Paddle's eager mode (to_tensor copies data in Python).
_NOT_AN_OP = frozenset({"to_tensor", "detach"})


# Binary ops that Paddle's Tensor operators (``x * 2``, ``1 / x``, ``x < 1``) call with a
# Python number; pagaie's functional APIs take Tensors only, so a number operand means an operator.
_SCALAR_OPERATORS = frozenset({"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow",
                               "less_than", "less_equal", "greater_than", "greater_equal", "equal",
                               "not_equal"})


def _scalar_operator_calls(rec: OpRecord, args: tuple, dt: Any) -> list | None:
    """Paddle's calls for a Tensor operator with a Python number, None for anything else. An
    integer tensor is first cast to the default float dtype when the result is float (a
    float number, or a true division); then ``+ - *`` are one ``scale``, ``x / number`` one
    ``div_scale``; the other operators make the number a
    tensor (``fill_constant``) and call the op."""
    if rec.name not in _SCALAR_OPERATORS or len(args) < 2 or dt is None:
        return None
    first = isinstance(args[0], Tensor)
    num = args[1] if first else args[0]
    if isinstance(num, Tensor) or not isinstance(num, (bool, int, float)) or (first and rec.name == "pow"):
        return None  # ``x ** number`` is paddle.pow(x, number): one ``pow``
    calls = []
    if not (dt.is_floating_point or dt.is_complex) and (isinstance(num, float) or rec.name == "divide"):
        calls.append(("cast", dt))
        dt = default_float()
    elif dt == torch.bool and not isinstance(num, bool) and rec.name in ("add", "subtract", "multiply"):
        calls.append(("cast", dt))   # a bool tensor and an int: cast to int64 first
        dt = torch.int64
    if isinstance(num, bool):
        pass
    elif rec.name in ("add", "subtract", "multiply"):
        return calls + [("scale", dt)]
    elif first and rec.name == "divide":
        return calls + [("div_scale", dt)]
    return calls + [(_op_label(rec), dt), ("fill_constant", dt)]


def _paddle_calls(rec: OpRecord, args: tuple, kwargs: dict, dt: Any) -> list:
    """The (op name, dtype) calls Paddle's eager API makes for one call of ``rec``."""
    name = rec.name
    scalar = _scalar_operator_calls(rec, args, dt)
    if scalar is not None:
        return scalar
    if name == "divide" and all(isinstance(a, Tensor) for a in args[:2]) and \
            not (dt.is_floating_point or dt.is_complex):
        # integer tensors are divided in the default float dtype: each is cast first
        other = args[1]._t.dtype
        casts = [("cast", a._t.dtype) for a in args[:2] if not (a._t.is_floating_point() or a._t.is_complex())]
        return casts + [(_op_label(rec), other if other.is_floating_point else default_float())]
    if name in ("linear", "conv2d"):
        bias = call_arg(rec, args, kwargs, "bias")
        if name == "linear":  # the CPU build's linear: matmul, then add the bias
            calls = [("matmul_v2", dt)]
        else:
            calls = [(_op_label(rec), dt)]
            if bias is not None:
                calls.append(("reshape", bias._t.dtype))
        if bias is not None:
            calls.append(("elementwise_add", dt))
        return calls
    if name in ("arange", "linspace"):
        # the bounds (and linspace's count, an int32) that are numbers become tensors first
        bounds = ("start", "end", "step") if name == "arange" else ("start", "stop", "num")
        fills = [("fill_constant", torch.int32 if b == "num" else dt) for b in bounds
                 if not isinstance(call_arg(rec, args, kwargs, b), Tensor)]
        return fills + [(_op_label(rec), dt)]
    if name == "split":
        sections = call_arg(rec, args, kwargs, "num_or_sections")
        return [("split_with_num" if isinstance(sections, int) else "split", dt)]
    if name == "pow":
        return [("elementwise_pow" if isinstance(call_arg(rec, args, kwargs, "y"), Tensor)
                 else "pow", dt)]
    if name == "interpolate":
        mode = str(call_arg(rec, args, kwargs, "mode") or "nearest").lower()
        return [(f"{mode}_interp_v2", dt)]
    return [(_STAT_LABELS.get(name) or _op_label(rec), dt)]


_STATS = _OpStats()


def enable_operator_stats_collection() -> None:
    """Start counting op calls by dtype (printed by :func:`disable_operator_stats_collection`).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.amp import debugging
        >>> debugging.enable_operator_stats_collection()
        >>> _ = paddle.to_tensor([1.0]) + 1
        >>> debugging.disable_operator_stats_collection()  # doctest: +ELLIPSIS
        <...op list...>
        ...
    """
    _STATS.counts.clear()   # as Paddle, a second call starts the counts afresh
    if not _STATS.on:
        push_handler(_STATS.handler)
        _STATS.on = True


def disable_operator_stats_collection() -> None:
    """Stop counting and print the table of op calls by dtype."""
    if _STATS.on:
        pop_handler(_STATS.handler)
        _STATS.on = False
        _STATS.print_table()


@contextlib.contextmanager
def collect_operator_stats() -> Iterator[None]:
    """Count op calls by dtype inside the ``with`` block and print the table at its end.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.amp import debugging
        >>> with debugging.collect_operator_stats():  # doctest: +ELLIPSIS
        ...     _ = paddle.to_tensor([1.0]) * 2
        <...op list...>
        ...
    """
    enable_operator_stats_collection()
    try:
        yield
    finally:
        disable_operator_stats_collection()


def compare_accuracy(dump_path: str, another_dump_path: str, output_filename: str,
                     loss_scale: float = 1, dump_all_tensors: bool = False) -> None:
    """Not supported: it compares Paddle's on-disk tensor dump files, which pagaie does not write."""
    raise NotImplementedError("paddle.amp.debugging.compare_accuracy reads Paddle's tensor dump "
                              "directories, which pagaie's checker does not produce; use "
                              "check_numerics or enable_tensor_checker instead")


def check_layer_numerics(func: Callable) -> Callable:
    """Decorate a Layer's ``forward`` to check its data for NaN/Inf: the first input, and the
    output of every op the forward runs (as ``FLAGS_check_nan_inf`` does, and following
    ``FLAGS_check_nan_inf_level``: by default the first bad tensor raises a RuntimeError that
    names its op). The checks are on only while the forward runs.

    Args:
        func (callable): the ``forward`` method to decorate. Its first positional input
            must be a Tensor, and it must return a Tensor.

    Returns:
        callable: the decorated ``forward``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.amp import debugging
        >>> class M(paddle.nn.Layer):
        ...     @debugging.check_layer_numerics
        ...     def forward(self, x):
        ...         return x * 2
        >>> M()(paddle.to_tensor([1.0])).tolist()
        [2.0]
    """
    @functools.wraps(func)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        api = "paddle.amp.debugging.check_layer_numerics"
        if not args:
            raise RuntimeError(f"{api}: the decorated forward got no positional input; its first "
                               "input must be a Tensor")
        if not isinstance(args[0], Tensor):
            raise RuntimeError(f"{api}: the first input of the layer must be a Tensor, but "
                               f"received {type(args[0]).__name__}")
        was_on = bool(_flags.flag("check_nan_inf"))
        _flags.set_flags({"FLAGS_check_nan_inf": True})
        try:
            first = args[0]._t
            # Paddle checks the first input with its op of this name, under the op lists
            if (first.is_floating_point() or first.is_complex()) and \
                    _wanted_names({"enable_check_model_nan_inf"}):
                level = _CHECKER.level
                if level == DebugMode.CHECK_ALL.value or not bool(torch.isfinite(first).all()):
                    _report(first, "enable_check_model_nan_inf", f"{type(self).__name__}.input[0]",
                            level == DebugMode.CHECK_NAN_INF_AND_ABORT.value,
                            level == DebugMode.CHECK_ALL.value)
            out = func(self, *args, **kwargs)
        finally:
            _flags.set_flags({"FLAGS_check_nan_inf": was_on})
        if not isinstance(out, Tensor):
            raise ValueError(f"{api}: the decorated forward must return a Tensor, but returned "
                             f"{type(out).__name__}")
        return out
    return wrapper
