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


def check_position(x: torch.Tensor, dtype: torch.dtype, api: str) -> None:
    """The starting point: a 1-D floating-point tensor of the working ``dtype``."""
    where = f"paddle.incubate.optimizer.functional.{api}"
    if not x.is_floating_point():
        # Paddle fails taking the gradient of an integer tensor
        raise NotImplementedError(f"{where}: gradients of 'initial_position' of dtype "
                                  f"{str(x.dtype).replace('torch.', '')} are not supported")
    if x.dtype != dtype:
        raise ValueError(f"{where}: 'initial_position' must have the dtype given by 'dtype' "
                         f"({str(dtype).replace('torch.', '')}), but received "
                         f"{str(x.dtype).replace('torch.', '')}")
    if x.dim() != 1:
        raise ValueError(f"{where}: 'initial_position' must be 1-D, but received shape "
                         f"{list(x.shape)}")


def check_inverse_hessian(h: torch.Tensor, api: str, like: torch.Tensor) -> None:
    """The initial inverse Hessian estimate must be symmetric positive definite, ``[N, N]`` of
    the dtype of the ``N``-element starting point ``like``."""
    if h.dtype != like.dtype or list(h.shape) != [like.shape[0]] * 2:
        raise ValueError(f"paddle.incubate.optimizer.functional.{api}: "
                         "'initial_inverse_hessian_estimate' must be "
                         f"{[like.shape[0]] * 2} of dtype {str(like.dtype).replace('torch.', '')}"
                         f", but received {list(h.shape)} of dtype "
                         f"{str(h.dtype).replace('torch.', '')}")
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


def _inf_norm(t: torch.Tensor) -> torch.Tensor:
    # 0 for an empty tensor (a 0-element problem has converged from the start)
    return t.abs().amax() if t.numel() else torch.zeros((), dtype=t.dtype)


def stop_flags(g: torch.Tensor, pk: torch.Tensor, alpha: torch.Tensor, tolerance_grad: float,
               tolerance_change: float) -> tuple[bool, bool]:
    """``(converged, stop)``: converged when the gradient or the direction is small (inf-norm);
    also stop, without convergence, when the line search found no step."""
    converged = bool(_inf_norm(g) < tolerance_grad) or bool(_inf_norm(pk) < tolerance_change)
    return converged, converged or bool((alpha == 0.0).all())


def inverse_curvature(yk: torch.Tensor, sk: torch.Tensor) -> torch.Tensor:
    """``1 / (y.s)``, or 1000 when ``y.s`` is exactly 0 (Paddle's guard)."""
    ys = torch.dot(yk, sk)
    return torch.full([1], 1000.0, dtype=ys.dtype, device=ys.device) if bool(ys == 0.0) else 1.0 / ys
