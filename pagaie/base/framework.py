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

from pagaie._core.flags import flag
from pagaie._core.parameter import Parameter
from pagaie.static import (Program, Variable, default_main_program,  # noqa: F401
                           default_startup_program, device_guard, name_scope, program_guard)
from pagaie.static.framework import in_dynamic_mode

__all__ = ["Program", "Variable", "Parameter", "EagerParamBase", "default_main_program",
           "default_startup_program", "program_guard", "name_scope", "device_guard",
           "in_dygraph_mode", "in_dynamic_mode", "in_pir_mode", "in_dynamic_or_pir_mode"]

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
