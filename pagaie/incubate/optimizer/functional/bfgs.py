"""``minimize_bfgs``: BFGS with a strong-Wolfe line search (Nocedal & Wright, Algorithm 6.1)."""
from __future__ import annotations

import torch

from pagaie._core.tensor import Tensor, wrap
from pagaie.incubate.optimizer.functional import _common as C
from pagaie.incubate.optimizer.functional.line_search import (Objective, strong_wolfe,
                                                              value_and_gradient)

__all__ = ["minimize_bfgs"]


def minimize_bfgs(objective_func: Objective, initial_position: Tensor, max_iters: int = 50,
                  tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9,
                  initial_inverse_hessian_estimate: Tensor | None = None,
                  line_search_fn: str = "strong_wolfe", max_line_search_iters: int = 50,
                  initial_step_length: float = 1.0, dtype: str = "float32",
                  name: str | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    r"""Minimise a differentiable function of a 1-D Tensor with BFGS.

    Each iteration moves along :math:`p_k = -H_k \nabla f(x_k)` by a step found with a
    strong-Wolfe line search, then updates the inverse Hessian estimate

    .. math::

        H_{k+1} = (I - \rho_k y_k s_k^T) H_k (I - \rho_k s_k y_k^T) + \rho_k s_k s_k^T,
        \qquad \rho_k = 1 / (y_k^T s_k)

    with :math:`s_k` the step and :math:`y_k` the change of gradient. (Paddle's update, whose
    outer factors are the transposes of the textbook's; its iterates, call counts and
    estimates are what this gives.)

    Args:
        objective_func (callable): takes a 1-D Tensor, returns a scalar Tensor.
        initial_position (Tensor): the starting point (1-D, of dtype ``dtype``).
        max_iters (int, optional): the most iterations. Default 50.
        tolerance_grad (float, optional): stop when the gradient's inf-norm is below it.
            Default 1e-7.
        tolerance_change (float, optional): stop when the direction's inf-norm is below it.
            Default 1e-9.
        initial_inverse_hessian_estimate (Tensor, optional): a symmetric positive definite
            ``[N, N]`` start for :math:`H`; the identity when None.
        line_search_fn (str, optional): only ``'strong_wolfe'``. Default ``'strong_wolfe'``.
        max_line_search_iters (int, optional): the most line-search iterations. Default 50.
        initial_step_length (float, optional): the first trial step. Default 1.0.
        dtype (str, optional): ``'float32'`` or ``'float64'``. Default ``'float32'``.
        name (str, optional): unused.

    Returns:
        tuple: ``(is_converge, num_func_calls, position, objective_value,
        objective_gradient, inverse_hessian_estimate)``: a bool Tensor of shape [1], an
        int64 Tensor of shape [1], then Tensors at the last position.

    Examples:
        >>> import pagaie as paddle
        >>> def f(x):
        ...     return ((x - 2.0) ** 2).sum()
        >>> out = paddle.incubate.optimizer.functional.minimize_bfgs(f, paddle.to_tensor([0.0]))
        >>> bool(out[0]), out[2].tolist()
        (True, [2.0])
    """
    api = "minimize_bfgs"
    tdtype = C.check_dtype(dtype, api)
    x0 = C.check_tensor(initial_position, "initial_position", api)
    C.check_position(x0, tdtype, api)
    eye = torch.eye(x0.shape[0], dtype=tdtype, device=x0.device)
    if initial_inverse_hessian_estimate is None:
        h = eye.clone()
    else:
        h = C.check_tensor(initial_inverse_hessian_estimate, "initial_inverse_hessian_estimate", api)
        C.check_inverse_hessian(h, api, x0)
        h = h.clone()
    xk = x0.clone()
    value, g1 = value_and_gradient(objective_func, xk)
    calls, converged = 1, False
    with torch.no_grad():
        for _ in range(max_iters):
            pk = -torch.matmul(h, g1)
            C.check_line_search(line_search_fn)
            alpha, value, g2, ls_calls = strong_wolfe(objective_func, xk, pk, max_line_search_iters,
                                                      initial_step_length=initial_step_length,
                                                      dtype=tdtype)
            calls += ls_calls
            sk, yk = alpha * pk, g2 - g1
            xk, g1 = xk + sk, g2
            rho = C.inverse_curvature(yk, sk)
            left = eye - rho * torch.outer(yk, sk)
            h = left @ h @ left.t() + rho * torch.outer(sk, sk)
            converged, stop = C.stop_flags(g1, pk, alpha, tolerance_grad, tolerance_change)
            if stop:
                break
    return (wrap(torch.tensor([converged])), wrap(torch.tensor([calls], dtype=torch.int64)),
            wrap(xk), wrap(value), wrap(g1), wrap(h))
