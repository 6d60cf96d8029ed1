"""``minimize_lbfgs``: limited-memory BFGS with a strong-Wolfe line search
(Nocedal & Wright, Algorithms 7.4 and 7.5)."""
from __future__ import annotations

import torch

from pagaie._core.tensor import Tensor, wrap
from pagaie.incubate.optimizer.functional import _common as C
from pagaie.incubate.optimizer.functional.line_search import (Objective, strong_wolfe,
                                                              value_and_gradient)

__all__ = ["minimize_lbfgs"]


def _direction(g: torch.Tensor, h0: torch.Tensor, s: torch.Tensor, y: torch.Tensor,
               rho: torch.Tensor, head: int, tail: int, size: int) -> torch.Tensor:
    """The two-loop recursion over the ring of pairs ``tail+1 .. head-1`` (mod ``size``)."""
    q = g.clone()
    alphas = {}
    i = (head - 1) % size
    while i != tail:
        alphas[i] = rho[i] * torch.dot(s[i], q)
        q = q - alphas[i] * y[i]
        i = (i - 1) % size
    r = torch.matmul(h0, q)
    i = (tail + 1) % size
    while i != head:
        beta = rho[i] * torch.dot(y[i], r)
        r = r + s[i] * (alphas[i] - beta)
        i = (i + 1) % size
    return -r


def minimize_lbfgs(objective_func: Objective, initial_position: Tensor, history_size: int = 100,
                   max_iters: int = 50, tolerance_grad: float = 1e-8,
                   tolerance_change: float = 1e-8,
                   initial_inverse_hessian_estimate: Tensor | None = None,
                   line_search_fn: str = "strong_wolfe", max_line_search_iters: int = 50,
                   initial_step_length: float = 1.0, dtype: str = "float32",
                   name: str | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    r"""Minimise a differentiable function of a 1-D Tensor with L-BFGS.

    The direction comes from the two-loop recursion over the most recent curvature pairs
    :math:`(s_k, y_k)`, starting from ``initial_inverse_hessian_estimate``; the step from a
    strong-Wolfe line search. As in Paddle, the pairs are kept in a ring of ``history_size``
    slots, which holds up to ``history_size - 2`` of them.

    Args:
        objective_func (callable): takes a 1-D Tensor, returns a scalar Tensor.
        initial_position (Tensor): the starting point (1-D, of dtype ``dtype``).
        history_size (int, optional): ring size of the curvature history. Default 100.
        max_iters (int, optional): the most iterations. Default 50.
        tolerance_grad (float, optional): stop when the gradient's inf-norm is below it.
            Default 1e-8.
        tolerance_change (float, optional): stop when the direction's inf-norm is below it.
            Default 1e-8.
        initial_inverse_hessian_estimate (Tensor, optional): a symmetric positive definite
            ``[N, N]`` matrix; the identity when None.
        line_search_fn (str, optional): only ``'strong_wolfe'``. Default ``'strong_wolfe'``.
        max_line_search_iters (int, optional): the most line-search iterations. Default 50.
        initial_step_length (float, optional): the first trial step. Default 1.0.
        dtype (str, optional): ``'float32'`` or ``'float64'``. Default ``'float32'``.
        name (str, optional): unused.

    Returns:
        tuple: ``(is_converge, num_func_calls, position, objective_value,
        objective_gradient)``: a bool Tensor of shape [1], an int64 Tensor of shape [1], then
        Tensors at the last position.

    Examples:
        >>> import pagaie as paddle
        >>> def f(x):
        ...     return ((x - 2.0) ** 2).sum()
        >>> out = paddle.incubate.optimizer.functional.minimize_lbfgs(f, paddle.to_tensor([0.0, 1.0]))
        >>> bool(out[0]), out[2].tolist()
        (True, [2.0, 2.0])
    """
    api = "minimize_lbfgs"
    tdtype = C.check_dtype(dtype, api)
    x0 = C.check_tensor(initial_position, "initial_position", api)
    C.check_position(x0, tdtype, api)
    n = x0.shape[0]
    if initial_inverse_hessian_estimate is None:
        h0 = torch.eye(n, dtype=tdtype, device=x0.device)
    else:
        h0 = C.check_tensor(initial_inverse_hessian_estimate, "initial_inverse_hessian_estimate", api)
        C.check_inverse_hessian(h0, api, x0)
    size = int(history_size)
    s = torch.zeros(size + 1, n, dtype=tdtype, device=x0.device)
    y = torch.zeros_like(s)
    rho = torch.zeros(size + 1, 1, dtype=tdtype, device=x0.device)
    head, tail = 1, 0
    xk = x0.clone()
    value, g1 = value_and_gradient(objective_func, xk)
    calls, converged = 1, False
    with torch.no_grad():
        for _ in range(max_iters):
            pk = _direction(g1, h0, s, y, rho, head, tail, size)
            C.check_line_search(line_search_fn)
            alpha, value, g2, ls_calls = strong_wolfe(objective_func, xk, pk, max_line_search_iters,
                                                      initial_step_length=initial_step_length,
                                                      dtype=tdtype)
            calls += ls_calls
            sk, yk = alpha * pk, g2 - g1
            s[head], y[head], rho[head] = sk, yk, C.inverse_curvature(yk, sk)
            head = (head + 1) % size
            if head == tail:
                tail = (tail + 1) % size
            xk, g1 = xk + sk, g2
            converged, stop = C.stop_flags(g1, pk, alpha, tolerance_grad, tolerance_change)
            if stop:
                break
    return (wrap(torch.tensor([converged])), wrap(torch.tensor([calls], dtype=torch.int64)),
            wrap(xk), wrap(value), wrap(g1))
