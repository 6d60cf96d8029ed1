"""``paddle.base.framework``: program, variable and mode helpers of Paddle's legacy layer.

These are the same objects as in :mod:`paddle.static` (``Program``, ``Variable``,
``default_main_program`` ...) plus the mode queries Paddle keeps here.

Examples:
    >>> import pagaie as paddle
    >>> paddle.base.framework.in_dygraph_mode()
    True
    >>> paddle.base.framework.Program is paddle.static.Program
    True
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from pagaie._core.flags import flag
from pagaie._core.parameter import Parameter
from pagaie._core.registry import dygraph_only_error
from pagaie.static import (Program, Variable, default_main_program,  # noqa: F401
                           default_startup_program, device_guard, name_scope, program_guard)
from pagaie.static.framework import in_dynamic_mode

__all__ = ["Program", "Variable", "Parameter", "EagerParamBase", "default_main_program",
           "default_startup_program", "program_guard", "name_scope", "device_guard",
           "in_dygraph_mode", "in_dynamic_mode", "in_pir_mode", "in_dynamic_or_pir_mode",
           "use_pir_api", "convert_np_dtype_to_dtype_", "dtype_is_floating", "grad_var_name",
           "dygraph_only", "static_only", "core", "unique_name"]

from pagaie.base import core, unique_name  # noqa: E402  (Paddle's framework module re-exports them)

#: Paddle's class of dynamic-mode parameters.
EagerParamBase = Parameter


def in_dygraph_mode() -> bool:
    """Whether ops run eagerly (dynamic graph mode) rather than building a program.

    Returns:
        bool: True in dynamic mode.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework.in_dygraph_mode()
        True
    """
    return in_dynamic_mode()


def in_pir_mode() -> bool:
    """Whether ops build a PIR program: static mode with ``FLAGS_enable_pir_api`` on.

    Returns:
        bool: True in static mode under the PIR API (Paddle's default).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework.in_pir_mode()
        False
    """
    return not in_dynamic_mode() and bool(flag("enable_pir_api"))


def in_dynamic_or_pir_mode() -> bool:
    """``in_dygraph_mode() or in_pir_mode()``.

    Returns:
        bool: True in dynamic mode and in static mode under the PIR API.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework.in_dynamic_or_pir_mode()
        True
    """
    return in_dynamic_mode() or in_pir_mode()


def use_pir_api() -> bool:
    """Whether static programs are built with the PIR API (``FLAGS_enable_pir_api``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework.use_pir_api()
        True
    """
    return bool(flag("enable_pir_api"))


def _global_flags() -> Any:
    """The registry of global flags (``paddle.base.core.globals()``).

    Examples:
        >>> import pagaie as paddle
        >>> 'FLAGS_check_nan_inf' in paddle.base.framework._global_flags()
        True
    """
    return core.globals()


def _current_expected_place() -> Any:
    """The Place new tensors go to (``paddle.device.get_device()`` as a Place).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework._current_expected_place()
        Place(cpu)
    """
    from pagaie._core.place import default_device, place_of
    return place_of(default_device())


_current_expected_place_ = _current_expected_place


def _set_expected_place(place: Any) -> None:
    """Make ``place`` (a Place or a device string) the device of new tensors."""
    from pagaie.base.dygraph import _set_place
    _set_place(place)


_PLACE_HINT = ("Paddle supports CPUPlace, CUDAPlace, CUDAPinnedPlace, XPUPlace, XPUPinnedPlace, "
               "IPUPlace and CustomPlace")


def _get_paddle_place(place: Any) -> Any:
    """A Place from a Place, None, or a device string (``'cpu'``, ``'gpu:0'``, any case).

    Raises:
        ValueError: for a string that names no device, a device this build lacks, or
            anything that is neither a Place nor a string.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework._get_paddle_place('CPU')
        Place(cpu)
    """
    from pagaie._core.place import CPUPlace, CUDAPinnedPlace, Place, to_torch_device
    if place is None or isinstance(place, Place):
        return place
    if not isinstance(place, str):
        raise ValueError("paddle.base.framework._get_paddle_place: place should be a Place or "
                         f"a device string such as 'cpu' or 'gpu:0', but got {place!r}")
    s = place.strip().lower()
    if s == "cpu":
        return CPUPlace()
    import re
    m = re.fullmatch(r"(gpu|xpu|ipu)(_pinned)?(?::(\d+))?", s)
    if m is None:
        raise ValueError(f"{_PLACE_HINT}, but received {place}.")
    kind, pinned, index = m.group(1), m.group(2), m.group(3)
    import torch
    if kind != "gpu" or not torch.cuda.is_available():
        name = {"gpu": "CUDA", "xpu": "XPU", "ipu": "IPU"}[kind]
        raise ValueError(f"The device should not be {place}, since PaddlePaddle is not compiled "
                         f"with {name}")
    if pinned:
        return CUDAPinnedPlace()
    from pagaie._core.place import place_of
    return place_of(to_torch_device(f"gpu:{int(index or 0)}", "paddle.base.framework."
                                    "_get_paddle_place"))


def convert_np_dtype_to_dtype_(np_dtype: Any) -> Any:
    """The paddle dtype of a numpy dtype, a numpy/Python scalar type or a dtype name.

    Raises:
        TypeError: for what numpy cannot read as a data type.
        ValueError: for a numpy type Paddle does not support (``uint32``, strings ...).

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.base.framework.convert_np_dtype_to_dtype_(np.int64)
        <DataType.INT64: 9>
    """
    from pagaie._core import dtype as _dt
    if isinstance(np_dtype, core.VarType):
        raise TypeError("paddle.base.framework.convert_np_dtype_to_dtype_: cannot interpret "
                        f"{np_dtype!r} as a data type")
    return _dt.to_dtype(_dt.to_torch_dtype(np_dtype,
                                           "paddle.base.framework.convert_np_dtype_to_dtype_"))


def dtype_is_floating(dtype: Any) -> bool:
    """Whether a legacy ``VarDesc.VarType`` code is a floating type (FP16, BF16, FP32, FP64).

    Paddle's helper only knows the legacy codes: dtype objects and names give False.

    Examples:
        >>> import pagaie as paddle
        >>> VT = paddle.base.core.VarDesc.VarType
        >>> paddle.base.framework.dtype_is_floating(VT.FP64), paddle.base.framework.dtype_is_floating(VT.INT64)
        (True, False)
    """
    VT = core.VarType
    return isinstance(dtype, VT) and dtype in (VT.FP16, VT.BF16, VT.FP32, VT.FP64)


def grad_var_name(var_name: str) -> str:
    """The name of the gradient variable of ``var_name`` (``'x@GRAD'``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework.grad_var_name('x')
        'x@GRAD'
    """
    return var_name + "@GRAD"


def dygraph_only(func: Callable) -> Callable:
    """Decorator: ``func`` raises AssertionError when called in static graph mode.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.base.framework.dygraph_only(lambda: 1)()
        1
    """
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not in_dynamic_mode():
            raise dygraph_only_error(func.__name__)
        return func(*args, **kwargs)
    return wrapper


def static_only(func: Callable) -> Callable:
    """Decorator: ``func`` raises AssertionError when called in dynamic graph mode.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.base.framework.static_only(lambda: 1)()
        ... except AssertionError:
        ...     print('static only')
        static only
    """
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        assert not in_dynamic_mode(), (
            f"'{func.__name__}()' is only supported in static graph mode; call "
            "'paddle.enable_static()' to switch to it.")
        return func(*args, **kwargs)
    return wrapper
