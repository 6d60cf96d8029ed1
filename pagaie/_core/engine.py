"""torch's autograd engine, called without ``torch.autograd``'s Python front end.

``torch.autograd.grad`` and ``torch.autograd.backward`` compare each seed gradient given to
them with its output through torch's symbolic-shape helpers, whose first use imports sympy
(about 30 MB of memory and half a second). pagaie checks seed gradients itself, with
Paddle's rules and messages, so its calls go straight to the engine: the same gradients,
without that import. The engine still reduces a seed broadcast to its output's shape.
"""
from __future__ import annotations

from typing import Sequence

import torch

__all__ = ["grad", "backward"]

_run_backward = torch.autograd.Variable._execution_engine.run_backward


def grad(outputs: Sequence[torch.Tensor], inputs: Sequence[torch.Tensor],
         seeds: Sequence[torch.Tensor], retain_graph: bool = False, create_graph: bool = False,
         allow_unused: bool = True) -> tuple:
    """The gradients of ``outputs`` (seeded with ``seeds``, one tensor each) with respect to
    ``inputs``, as ``torch.autograd.grad`` computes them; None for an unused input when
    ``allow_unused``.

    Examples:
        >>> import torch
        >>> from pagaie._core import engine
        >>> x = torch.tensor([3.0], requires_grad=True)
        >>> engine.grad([x * x], [x], [torch.ones(1)])[0].tolist()
        [6.0]
    """
    return _run_backward(tuple(outputs), tuple(seeds), retain_graph, create_graph,
                         tuple(inputs), allow_unused, False)


def backward(outputs: Sequence[torch.Tensor], seeds: Sequence[torch.Tensor],
             retain_graph: bool = False) -> None:
    """Accumulate the gradients of ``outputs`` (seeded with ``seeds``) into the leaves'
    ``.grad``, as ``torch.autograd.backward`` does.

    Examples:
        >>> import torch
        >>> from pagaie._core import engine
        >>> x = torch.tensor([2.0], requires_grad=True)
        >>> engine.backward([x * x], [torch.ones(1)])
        >>> x.grad.tolist()
        [4.0]
    """
    _run_backward(tuple(outputs), tuple(seeds), retain_graph, False, (), True, True)
