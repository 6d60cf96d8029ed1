"""Argument checks and the convergence test shared by the functional minimizers."""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core.tensor import Tensor


def check_dtype(dtype: Any, api: str) -> torch.dtype:
    if dtype not in ("float32", "float64"):
        raise ValueError(f"paddle.incubate.optimizer.functional.{api}: The dtype must be "
                         f"'float32' or 'float64', but the specified is {dtype}.")
    return torch.float32 if dtype == "float32" else torch.float64


def check_tensor(x: Any, name: str, api: str) -> torch.Tensor:
    if not isinstance(x, Tensor):
        raise ValueError(f"paddle.incubate.optimizer.functional.{api}: The input: {x} must be "
                         f"tensor (argument '{name}').")
    return x._t.detach()


def check_inverse_hessian(h: torch.Tensor, api: str) -> None:
    """The initial inverse Hessian estimate must be symmetric positive definite."""
    ok = bool(torch.equal(h, h.t()))
    if ok:
        ok = bool(torch.linalg.cholesky_ex(h).info == 0)
    if not ok:
        raise ValueError(f"paddle.incubate.optimizer.functional.{api}: The "
                         "initial_inverse_hessian_estimate should be symmetric and positive "
                         "definite, but the specified is not.")


def check_line_search(line_search_fn: str) -> None:
    if line_search_fn != "strong_wolfe":
        raise NotImplementedError("Currently only support line_search_fn = 'strong_wolfe', but "
                                  f"the specified is '{line_search_fn}'")


def stop_flags(g: torch.Tensor, pk: torch.Tensor, alpha: torch.Tensor, tolerance_grad: float,
               tolerance_change: float) -> tuple[bool, bool]:
    """``(converged, stop)``: converged when the gradient or the direction is small (inf-norm);
    also stop, without convergence, when the line search found no step."""
    converged = bool(torch.linalg.vector_norm(g, float("inf")) < tolerance_grad) or \
        bool(torch.linalg.vector_norm(pk, float("inf")) < tolerance_change)
    return converged, converged or bool((alpha == 0.0).all())


def inverse_curvature(yk: torch.Tensor, sk: torch.Tensor) -> torch.Tensor:
    """``1 / (y.s)``, or 1000 when ``y.s`` is exactly 0 (Paddle's guard)."""
    ys = torch.dot(yk, sk)
    return torch.full([1], 1000.0, dtype=ys.dtype, device=ys.device) if bool(ys == 0.0) else 1.0 / ys
