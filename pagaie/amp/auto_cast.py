"""``paddle.amp.auto_cast``: autocast implemented once, as a dispatcher handler.

While an ``auto_cast`` region is active, every op call passes through
:func:`_autocast_handler`, which casts the call's floating tensor arguments by the
op's policy before handing the call on:

- white ops (matmul, conv...) run in the low-precision dtype;
- black ops (exp, log, softmax, losses, reductions...) run in float32;
- other ops follow their inputs: with ``use_promote`` they run in float32 when any
  floating input is float32 ("promote to the widest"); at O2 without ``use_promote``
  they run in the low-precision dtype.

Only float32 and the low-precision dtype are touched; float64 and integer inputs
pass unchanged. Casts of leaf tensors (parameters) are cached for the duration of the
outermost region, as they are reused by every step's forward.
"""
from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, Iterable

import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import OpRecord, pop_handler, push_handler
from pagaie._core.tensor import Tensor, wrap
from pagaie.amp.lists import CALL_RULES, LATE_BIAS, call_arg, call_policy, normalise_custom, policy_of
from pagaie.amp.state import place_supported, set_amp_dtype

__all__ = ["auto_cast", "autocast", "amp_guard", "is_autocast_enabled", "get_autocast_dtype",
           "get_autocast_cpu_dtype", "get_autocast_gpu_dtype", "current_state"]

_LOW = {"float16": torch.float16, "bfloat16": torch.bfloat16}


class _AmpState:
    __slots__ = ("level", "low", "white", "black", "use_promote", "policies", "cache")

    def __init__(self, level: str, low: torch.dtype, white: frozenset, black: frozenset,
                 use_promote: bool) -> None:
        self.level = level
        self.low = low
        self.white = white
        self.black = black
        self.use_promote = use_promote
        self.policies: dict[str, str] = {}
        self.cache: dict = {}

    def policy(self, rec: OpRecord, args: tuple = (), kwargs: dict | None = None) -> str:
        p = self.policies.get(rec.name)
        if p is None:
            if rec.name in CALL_RULES:
                return call_policy(rec, args, kwargs or {}, self.level, self.white, self.black)
            p = self.policies[rec.name] = policy_of(rec, self.level, self.white, self.black)
        return p


_STACK: list[_AmpState | None] = []


def current_state() -> _AmpState | None:
    """The innermost active autocast configuration (None when autocast is off)."""
    return _STACK[-1] if _STACK else None


def _floating_dtypes(values: Iterable[Any], out: set) -> None:
    for v in values:
        if isinstance(v, Tensor):
            d = v._t.dtype
            if d.is_floating_point:
                out.add(d)
        elif type(v) in (list, tuple):
            _floating_dtypes(v, out)


_AMP_FLOATS = (torch.float32, torch.float16, torch.bfloat16)


def _cast_value(v: Any, dst: torch.dtype, cache: dict) -> Any:
    """``v`` with its float32/float16/bfloat16 tensors cast to ``dst`` (as Paddle's AMP casts
    every such input to the op's chosen dtype; float64 and integers pass unchanged)."""
    if isinstance(v, Tensor):
        t = v._t
        d = t.dtype
        if d is dst or d not in _AMP_FLOATS:
            return v
        if t.is_meta:
            return _recorded_cast(v, dst)
        if t.is_leaf and t.requires_grad:
            key = (id(t), t._version, dst)
            hit = cache.get(key)
            if hit is None or hit[0] is not t:
                hit = cache[key] = (t, t.to(dst))
            return wrap(hit[1])
        return wrap(t.to(dst))
    if type(v) in (list, tuple):
        return type(v)(_cast_value(e, dst, cache) for e in v)
    return v


def _recorded_cast(v: Tensor, dst: torch.dtype) -> Tensor:
    """The cast of a program's symbolic value (a static program or a ``to_static`` trace
    being built): a ``cast`` op recorded into the program, as Paddle's AMP inserts one (a
    direct conversion would leave the program a constant without data). Autocast is paused
    for it so that the cast itself is not cast."""
    from pagaie._ops.manipulation import cast
    _STACK.append(None)
    try:
        return cast(v, _dt.from_torch_dtype(dst).name)
    finally:
        _STACK.pop()


def _cast_call(args: tuple, kwargs: dict, dst: torch.dtype, cache: dict):
    args = tuple(_cast_value(a, dst, cache) for a in args)
    kwargs = {k: _cast_value(v, dst, cache) for k, v in kwargs.items()}
    return args, kwargs


def _split_amp_inputs(rec: OpRecord, args: tuple, kwargs: dict, names: tuple):
    """For records with ``extra['amp_inputs']`` (e.g. batch_norm: only ``x``), the call split
    into the arguments autocast looks at and a function putting the call back together."""
    params = list(rec.signature.parameters)
    pos = [i for i, _ in enumerate(args) if i < len(params) and params[i] in names]
    kws = [k for k in kwargs if k in names]
    chosen = tuple(args[i] for i in pos)
    chosen_kw = {k: kwargs[k] for k in kws}

    def rebuild(new_args: tuple, new_kwargs: dict):
        a = list(args)
        for i, v in zip(pos, new_args):
            a[i] = v
        return tuple(a), {**kwargs, **new_kwargs}
    return chosen, chosen_kw, rebuild


def _autocast_handler(rec: OpRecord, args: tuple, kwargs: dict, proceed: Callable) -> Any:
    st = _STACK[-1]
    if st is None:  # an inner auto_cast(enable=False)
        return proceed(args, kwargs)
    if rec.name in LATE_BIAS:
        bias = call_arg(rec, args, kwargs, "bias")
        if bias is not None or (rec.name == "conv1d" and st.level == "OD"):
            return _conv_then_bias(st, rec, args, kwargs, proceed, bias)
    elif rec.name == "linear" and _linear_in_program(rec, args, kwargs):
        # as Paddle's program: a matmul op, then an add of the bias, each decided on its own
        import pagaie
        out = pagaie.matmul(call_arg(rec, args, kwargs, "x"), call_arg(rec, args, kwargs, "weight"))
        bias = call_arg(rec, args, kwargs, "bias")
        return out if bias is None else pagaie.add(out, bias)
    return _cast_and_run(st, rec, args, kwargs, proceed)


def _linear_in_program(rec: OpRecord, args: tuple, kwargs: dict) -> bool:
    """Whether Paddle's ``linear`` would be a matmul op (then a separate ``add`` of the
    bias): in a program (static or ``to_static``; its values are symbolic) built by a Paddle
    without CUDA. Eagerly, and in programs of CUDA builds, it is one fused op."""
    x = call_arg(rec, args, kwargs, "x")
    return isinstance(x, Tensor) and x._t.is_meta and torch.version.cuda is None


def _cast_and_run(st: "_AmpState", rec: OpRecord, args: tuple, kwargs: dict, proceed: Callable) -> Any:
    """Run one op call with its inputs cast as the op's policy decides."""
    names = rec.extra.get("amp_inputs")
    if names:
        # Only some inputs take part (a norm's float32 statistics and affine parameters
        # stay as they are, as in Paddle): decide and cast on those alone.
        sub_args, sub_kwargs, rebuild = _split_amp_inputs(rec, args, kwargs, names)
        dst = _destination(st, rec, sub_args, sub_kwargs)
        if dst is None:
            return proceed(args, kwargs)
        if dst is torch.float32:
            # a float32 x (these are norms): low-precision scale and bias go up too, the norm
            # runs in float32
            return proceed(*_cast_call(args, kwargs, dst, st.cache))
        return proceed(*rebuild(*_cast_call(sub_args, sub_kwargs, dst, st.cache)))
    dst = _destination(st, rec, args, kwargs)
    if dst is None:
        return proceed(args, kwargs)
    return proceed(*_cast_call(args, kwargs, dst, st.cache))


def _conv_then_bias(st: "_AmpState", rec: OpRecord, args: tuple, kwargs: dict, proceed: Callable,
                    bias: Tensor | None) -> Any:
    """A convolution as Paddle's API runs it: the convolution op (conv2d is white) without
    the bias, then a separate ``add`` of the reshaped bias, which autocast decides on its
    own (a float32 bias promotes a low-precision result to float32 at O1). Paddle's conv1d
    squeezes the conv2d result first, which at OD runs in float32."""
    import pagaie

    bound = rec.signature.bind_partial(*args, **kwargs)
    bound.arguments["bias"] = None
    out = _cast_and_run(st, rec, bound.args, bound.kwargs, proceed)
    if rec.name == "conv1d" and st.level == "OD":
        out = pagaie.cast(out, "float32")
    if bias is None:
        return out
    fmt = str(call_arg(rec, args, kwargs, "data_format", ""))
    if not fmt.endswith("C"):   # channels first (the default too): the bias runs along axis 1
        bias = pagaie.reshape(bias, [1, -1] + [1] * (out.ndim - 2))
    return pagaie.add(out, bias)


def _destination(st: "_AmpState", rec: OpRecord, args: tuple, kwargs: dict) -> torch.dtype | None:
    """The dtype one call runs in (None: nothing to cast), as Paddle chooses it: white ops
    run in the AMP dtype, black ones in float32; at OD every other op runs in float32; at O2
    without use_promote in the AMP dtype; otherwise in float32 when any input is float32,
    else in the AMP dtype."""
    pol = st.policy(rec, args, kwargs)
    if pol == "keep":
        return None
    if pol == "white":
        return st.low
    if pol == "black" or st.level == "OD":
        return torch.float32
    if st.level == "O2" and not st.use_promote:
        return st.low
    seen: set = set()
    _floating_dtypes(args, seen)
    _floating_dtypes(kwargs.values(), seen)
    if torch.float32 in seen:
        return torch.float32
    if torch.float16 in seen or torch.bfloat16 in seen:
        return st.low
    return None


class auto_cast:
    """Run the ops inside in mixed precision (context manager or decorator).

    Args:
        enable (bool, optional): turn autocast on. Default True.
        custom_white_list (set[str], optional): op names to run in low precision.
        custom_black_list (set[str], optional): op names to keep in float32.
        level (str, optional): ``'O1'`` (lists decide, others follow inputs), ``'O2'``
            (nearly everything low precision) or ``'OD'`` (only white ops). Default 'O1'.
        dtype (str, optional): ``'float16'`` or ``'bfloat16'``. Default 'float16'.
        use_promote (bool, optional): ops with any float32 input run in float32. Default True.

    As in Paddle, autocast only takes effect when the current place is a GPU: on the CPU
    the region runs in float32 and a warning says so (``PAGAIE_AMP_ON_CPU=1`` or
    ``pagaie.amp.state.allow_cpu()`` turns CPU autocast on, a pagaie extension).

    Examples:
        >>> import pagaie as paddle
        >>> prev = paddle.amp.state.allow_cpu(True)   # pagaie extension: autocast on the CPU
        >>> x = paddle.rand([2, 4]); w = paddle.rand([4, 3])
        >>> with paddle.amp.auto_cast(dtype='bfloat16'):
        ...     y = paddle.matmul(x, w)
        >>> y.dtype
        <DataType.BFLOAT16: 16>
        >>> _ = paddle.amp.state.allow_cpu(prev)
    """

    def __init__(self, enable: bool = True, custom_white_list: Any = None,
                 custom_black_list: Any = None, level: str = "O1", dtype: str = "float16",
                 use_promote: bool = True) -> None:
        # As in Paddle, the arguments are checked when the region is entered.
        self._args = (enable, custom_white_list, custom_black_list, level, dtype, use_promote)

    def _configure(self) -> _AmpState | None:
        """Check the arguments; the region's state (None when it casts nothing)."""
        enable, custom_white, custom_black, level, dtype, use_promote = self._args
        level = str(level).upper()
        if level not in ("O0", "OD", "O1", "O2"):
            raise ValueError(f"paddle.amp.auto_cast: level should be O0, OD, O1 or O2, but received {level!r}")
        if isinstance(dtype, _dt.DType):
            dname = dtype.name.lower()
        elif isinstance(dtype, str):
            dname = dtype.lower()
        else:
            # Paddle calls ``dtype.lower()``: any other object is an AttributeError
            raise AttributeError(f"paddle.amp.auto_cast: dtype should be 'float16' or 'bfloat16', but "
                                 f"received {type(dtype).__name__} {dtype!r}")
        if enable and dname not in _LOW:
            raise ValueError(f"paddle.amp.auto_cast: if enable amp, dtype should be 'float16' or 'bfloat16', "
                             f"but received {dtype!r}")
        white = normalise_custom(custom_white)
        black = normalise_custom(custom_black)
        if level != "O0" and white & black:
            raise ValueError(f"paddle.amp.auto_cast: custom white list overlap custom black list: "
                             f"{sorted(white & black)}")
        if dname in _LOW:
            set_amp_dtype(dname)   # read by GradScaler, even when the region casts nothing
        if not enable or level == "O0":
            return None
        return _AmpState(level, _LOW[dname], white, black, bool(use_promote))

    def __enter__(self) -> None:
        was_on = any(_STACK)
        state = self._configure()
        if self._args[0]:
            where = place_supported()
            if where is not None:
                warnings.warn(f"amp_guard can only be enabled on CUDAPlace, XPUPlace, and CustomPlace, "
                              f"current place is {where}, so it makes no effect.")
                state = None
        _STACK.append(state)
        if not was_on and state is not None:
            push_handler(_autocast_handler)

    def __exit__(self, *exc: Any) -> bool:
        was_on = any(_STACK)
        st = _STACK.pop()
        if was_on and not any(_STACK):
            pop_handler(_autocast_handler)
            st.cache.clear()
        return False   # exceptions raised inside the region propagate

    def __call__(self, func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with auto_cast(*self._args):
                return func(*args, **kwargs)
        return wrapper


amp_guard = auto_cast


def autocast(device_type: str | None, dtype: str = "float16", enabled: bool = True,
             cache_enabled: bool = True) -> auto_cast:
    """torch-style spelling of :class:`auto_cast` (``paddle.autocast('cuda', dtype=...)``).

    Args:
        device_type (str): 'cuda', 'gpu' or 'cpu'; one autocast state serves every device.
        dtype (str, optional): 'float16' or 'bfloat16'. Default 'float16'.
        enabled (bool, optional): turn autocast on. Default True.
        cache_enabled (bool, optional): accepted; parameter casts are always cached.

    Examples:
        >>> import pagaie as paddle
        >>> prev = paddle.amp.state.allow_cpu(True)   # pagaie extension: autocast on the CPU
        >>> with paddle.autocast('cpu', dtype='bfloat16'):
        ...     paddle.matmul(paddle.ones([2, 2]), paddle.ones([2, 2])).dtype
        <DataType.BFLOAT16: 16>
        >>> _ = paddle.amp.state.allow_cpu(prev)
    """
    return auto_cast(enable=enabled, dtype=dtype)


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether an autocast region is active now.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.amp.is_autocast_enabled()
        False
    """
    return current_state() is not None


def get_autocast_dtype(device_type: str | None = None) -> str:
    """The name of the low-precision dtype of the active autocast region ('float16' when
    none), a string as in Paddle.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.amp.get_autocast_dtype()
        'float16'
    """
    st = current_state()
    return str(_dt.from_torch_dtype(st.low if st is not None else torch.float16)).replace("paddle.", "")


def get_autocast_cpu_dtype(device_type: str | None = None) -> str:
    """Same as :func:`get_autocast_dtype` (one autocast state serves every device)."""
    return get_autocast_dtype()


def get_autocast_gpu_dtype(device_type: str | None = None) -> str:
    """Same as :func:`get_autocast_dtype` (one autocast state serves every device)."""
    return get_autocast_dtype()
