"""``paddle.autograd.ir_backward``: Paddle's program-gradient entry points by their module path.

Paddle's own programs and tests call ``paddle.autograd.ir_backward.grad`` to add gradients
to a static program; here these are the ``paddle.static`` gradient functions under Paddle's
names and argument names.
"""
from __future__ import annotations

from typing import Any

__all__ = ["append_backward", "calc_gradient", "grad"]


def _outputs(outputs: Any, api: str) -> None:
    from pagaie._static.ir import Value
    items = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    if not all(isinstance(o, Value) for o in items):  # Paddle's check_type: TypeError
        raise TypeError(f"The type of 'outputs' in paddle.autograd.ir_backward.{api} must be Value "
                        f"or a list/tuple of Values, but received {type(outputs).__name__}")


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool | None = False, only_inputs: bool | None = True,
         allow_unused: bool | None = False, no_grad_vars: Any = None) -> list:
    """Add the gradients of ``outputs`` with respect to ``inputs`` to the current program.

    Args:
        outputs (Value|list[Value]): what to differentiate.
        inputs (Value|list[Value]): with respect to what.
        grad_outputs (Value|list[Value|None], optional): initial gradients of ``outputs``
            (ones where None).
        retain_graph, create_graph, only_inputs, allow_unused (bool, optional): accepted for
            Paddle's signature; a program keeps its graph and may be differentiated again.
        no_grad_vars (Value|list[Value]|set[Value], optional): values treated as constants.

    Returns:
        list[Value|None]: one gradient per input, None for an input the outputs do not
        depend on (as Paddle, whatever ``allow_unused`` says).

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('x', [2], 'float32')
        ...     x.stop_gradient = False
        ...     (g,) = paddle.autograd.ir_backward.grad((x * x).sum(), x)
        >>> exe = paddle.static.Executor()
        >>> exe.run(main, feed={'x': np.array([1.0, 3.0], 'float32')}, fetch_list=[g])[0].tolist()
        [2.0, 6.0]
        >>> paddle.disable_static()
    """
    _outputs(outputs, "grad")
    return calc_gradient(outputs, inputs, grad_outputs, no_grad_vars)


def calc_gradient(outputs: Any, inputs: Any, grad_outputs: Any = None, no_grad_set: Any = None) -> list:
    """:func:`grad` without its compatibility flags (``no_grad_set`` for ``no_grad_vars``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> with paddle.static.program_guard(paddle.static.Program()):
        ...     x = paddle.static.data('x', [2], 'float32')
        ...     x.stop_gradient = False
        ...     len(paddle.autograd.ir_backward.calc_gradient((x * x).sum(), [x]))
        1
        >>> paddle.disable_static()
    """
    from pagaie.static.backward import gradients
    _outputs(outputs, "calc_gradient")
    if no_grad_set is not None and not isinstance(no_grad_set, (list, tuple, set, frozenset)):
        no_grad_set = [no_grad_set]
    return gradients(outputs, inputs, grad_outputs, no_grad_set)


def append_backward(loss: Any, parameter_list: Any = None, no_grad_set: Any = None) -> list:
    """``paddle.static.append_backward`` by this module's name: ``(parameter, gradient)`` pairs.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> with paddle.static.program_guard(paddle.static.Program()):
        ...     x = paddle.static.data('x', [None, 2], 'float32')
        ...     loss = paddle.mean(paddle.nn.Linear(2, 1)(x))
        ...     len(paddle.autograd.ir_backward.append_backward(loss))
        2
        >>> paddle.disable_static()
    """
    from pagaie.static.backward import append_backward as static_append_backward
    return static_append_backward(loss, parameter_list, no_grad_set)
