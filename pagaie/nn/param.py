"""Parameter creation shared by ``Layer.create_parameter`` and ``paddle.create_parameter``."""
from __future__ import annotations

import copy
import weakref
from typing import Any

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import Parameter
from pagaie._core.place import default_device, to_torch_device
from pagaie.utils import unique_name

__all__ = ["create_parameter", "make_parameter"]

_DEFAULT_INIT_DTYPES = (torch.float16, torch.float32, torch.float64, torch.bfloat16, torch.int8)


def make_parameter(shape: Any, attr: Any, dtype: Any, is_bias: bool, default_initializer: Any,
                   prefix: str, device: Any = None) -> Parameter | None:
    """Create and initialise a parameter named ``<prefix>.w_<n>`` / ``<prefix>.b_<n>``.

    Precedence of initializers: the ParamAttr's, then the global one
    (``set_global_initializer``), then ``default_initializer``, then Xavier-uniform
    for weights / zeros for biases. ``attr=False`` creates nothing (returns None).
    """
    from pagaie.framework.param_attr import ParamAttr
    from pagaie.nn.initializer import Constant, XavierUniform
    from pagaie.nn.initializer.initializer import global_initializer
    attr = ParamAttr._to_attr(copy.deepcopy(attr))
    if attr is False:
        return None
    dims = shape.tolist() if hasattr(shape, "tolist") else shape
    # a bool is not a size (Paddle's argument parser refuses it: TypeError)
    if not isinstance(dims, (list, tuple)) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
        raise TypeError(f"paddle.create_parameter: 'shape' must be a list or tuple of int, but "
                        f"received {shape!r}")
    shape = [int(d) for d in dims]
    for i, s in enumerate(shape):
        if s < 0:
            raise AssertionError("Expected every dim's size to be larger than or equal to 0, "
                                 f"but the size of the {i}-th dim is {s}")
    tdt = _dt.to_torch_dtype(dtype if dtype is not None else "float32", "paddle.create_parameter")
    init = global_initializer(is_bias) or default_initializer
    name = attr.name if attr.name is not None else \
        unique_name.generate(f"{prefix}.{'b' if is_bias else 'w'}")
    if attr.initializer is None and init is None:
        if tdt not in _DEFAULT_INIT_DTYPES:
            raise TypeError("Can not create parameter with default initializer when dtype is not "
                            "['float16', 'float32', 'float64', 'bfloat16', 'float'] type. Set "
                            "default_initializer to fit the parameter dtype!")
        init = Constant(0.0) if is_bias else XavierUniform()
    init = attr.initializer or init
    shared, startup = _static_parameter(attr.name, shape, tdt)
    if shared is not None:
        # Paddle's static programs share a parameter by name (one scope variable). Its
        # initializer runs again at startup: another startup program re-initialises it; a
        # second one in the same startup program makes its draws and drops them.
        if _STATIC_PARAMETERS[name][1]() is startup:
            init(Parameter(torch.empty(shape, dtype=tdt, device=shared._t.device),
                           name=unique_name.generate(f"{name}@shared")), None)
        else:
            kept = shared._t.detach().clone()   # its values stay until that startup runs
            init(shared, None)
            with torch.no_grad():
                shared._t.copy_(kept)
            _STATIC_PARAMETERS[name] = (_STATIC_PARAMETERS[name][0], weakref.ref(startup),
                                        _STATIC_PARAMETERS[name][2])
        return shared
    clash = _static_clash(attr.name)
    if clash is not None:
        # Paddle's static programs: another shape or dtype under a name the program already
        # holds is an error; one held by another program makes a new variable of that name.
        if clash == "same program":
            raise ValueError(f"paddle.create_parameter: duplicate parameter {name} with a "
                             f"different shape or dtype in one program (now {shape}, "
                             f"{str(tdt).replace('torch.', '')})")
    elif not _building_program() and unique_name._parameter_name_used(name):
        # (a static program makes a variable of a used name again, as Paddle's does)
        raise ValueError(f"parameter name [{name}] have be been used. In dygraph mode, the name of "
                         "parameter can't be same.Please check the parameter attr value passed to "
                         "self.create_parameter or constructor of dygraph Layers")
    if not isinstance(name, str):   # as Paddle, checked once the name is recorded as used
        raise TypeError(f"paddle.create_parameter: the name of a parameter (ParamAttr.name) must be "
                        f"a str, but received {type(name).__name__} {name!r:.40}")
    dev = default_device() if device is None else to_torch_device(device, "paddle.create_parameter")
    p = Parameter(torch.empty(shape, dtype=tdt, device=dev), trainable=attr.trainable, name=name,
                  optimize_attr={"learning_rate": attr.learning_rate}, regularizer=attr.regularizer,
                  need_clip=attr.need_clip, do_model_average=attr.do_model_average)
    from pagaie.static import framework as _fw
    from pagaie.framework import lazy_init_active
    if lazy_init_active() and not _fw._S.enabled:
        # as Paddle under LazyGuard: nothing is drawn until Parameter.initialize()
        with torch.no_grad():
            p._t.zero_()
        p._defer_init(init)
    else:
        init(p, None)   # as Paddle: initializer(param, block)
    if _fw._S.enabled and attr.name:
        _STATIC_PARAMETERS[name] = (weakref.ref(p), weakref.ref(_fw.default_startup_program()),
                                    weakref.ref(_fw.default_main_program()))
    return p


# Parameters named by their ParamAttr while static programs are built (Paddle's scope
# variables, shared by name), with (weakly) the startup program that last initialised each and
# the main program that created it. Generated names are left out: they meet again only across
# unique_name.guard blocks.
_STATIC_PARAMETERS: dict[str, tuple[weakref.ref, weakref.ref, weakref.ref]] = {}


def _building_program() -> bool:
    from pagaie.static import framework as _fw
    return bool(_fw._S.enabled)


def _static_clash(name: str | None) -> str | None:
    """While a static program is being built, for a name given by a ParamAttr that a live
    parameter of another shape or dtype already has: ``'same program'`` when the current main
    program created it, ``'other program'`` otherwise; None when there is no such parameter."""
    from pagaie.static import framework as _fw
    entry = _STATIC_PARAMETERS.get(name) if name and _fw._S.enabled else None
    if entry is None or entry[0]() is None:
        return None
    return "same program" if entry[2]() is _fw.default_main_program() else "other program"


def _static_parameter(name: str, shape: list, dtype: torch.dtype) -> tuple[Parameter | None, Any]:
    """While a static program is being built: the live parameter of that name and shape
    created by an earlier one (None if none; another shape makes a new variable), and the
    current startup program."""
    from pagaie.static import framework as _fw
    if not name or not _fw._S.enabled:
        return None, None
    entry = _STATIC_PARAMETERS.get(name)
    p = entry[0]() if entry is not None else None
    if p is None or list(p._t.shape) != shape or p._t.dtype is not dtype:
        return None, None
    return p, _fw.default_startup_program()


def create_parameter(shape: Any, dtype: Any, name: str | None = None, attr: Any = None,
                     is_bias: bool = False, default_initializer: Any = None) -> Parameter:
    """Create a trainable parameter outside any Layer.

    Args:
        shape (list[int]): its shape.
        dtype (str|dtype): its dtype.
        name (str, optional): its name; generated (``create_parameter_<n>.w_0``) when None.
        attr (ParamAttr, optional): its attributes.
        is_bias (bool): a bias (zeros by default) rather than a weight (Xavier-uniform).
        default_initializer (Initializer, optional): used when ``attr`` names none.

    Returns:
        Parameter: the parameter.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([3, 2], 'float32', is_bias=True)
        >>> w.tolist(), w.stop_gradient
        ([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], False)
    """
    from pagaie.framework.param_attr import ParamAttr
    # Paddle's public API checks the dtype strictly (no None, 'float' or 'int' aliases, which
    # Layer.create_parameter takes) and the items of the shape (an int, not a bool)
    tdt = _dt.checked_dtype(dtype, "paddle.create_parameter")
    if tdt.is_complex and _building_program():   # Paddle's static API takes no complex dtype
        raise TypeError(f"paddle.create_parameter: dtype {str(tdt).replace('torch.', '')} is not "
                        "supported while a static program is built (it takes bool, float16, "
                        "bfloat16, float32, float64, int8, int16, int32, int64 and uint8)")
    if isinstance(shape, (list, tuple)) and any(isinstance(d, (bool, np.bool_)) for d in shape):
        raise TypeError(f"paddle.create_parameter: 'shape' must be a list or tuple of int, but "
                        f"received {shape!r}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"paddle.create_parameter: 'name' must be a str or None, but received "
                        f"{type(name).__name__} {name!r}")
    if attr is not None and not isinstance(attr, ParamAttr) and _building_program():
        # (Paddle's static API takes a ParamAttr or None only; its eager one also a name)
        raise TypeError(f"paddle.create_parameter: 'attr' must be a ParamAttr or None while a "
                        f"static program is built, but received {type(attr).__name__} {attr!r}")
    if attr is None:
        attr = ParamAttr(name=name)
    prefix = name if name is not None else unique_name.generate("create_parameter")
    return make_parameter(shape, attr, dtype, is_bias, default_initializer, prefix)
