"""The strong-Wolfe line search shared by :func:`minimize_bfgs` and :func:`minimize_lbfgs`
(Nocedal & Wright, *Numerical Optimization*, Algorithms 3.5 and 3.6, with cubic
interpolation in the zoom phase).

It follows Paddle's implementation step for step, so both frameworks visit the same trial
steps and count the same function calls: the derivative at the left end of a later bracket
is the one at step 0, a rise in ``phi`` only stops the expansion from the third trial on,
and the call that ends the zoom is not counted. Step sizes and values are 1-element tensors
of the working dtype.
"""
from __future__ import annotations

from typing import Callable

import torch

from pagaie._core import engine
from pagaie._core.tensor import Tensor, wrap

Objective = Callable[[Tensor], Tensor]


def value_and_gradient(f: Objective, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``f(x)`` and its gradient with respect to ``x``, both detached."""
    leaf = x.detach().requires_grad_(True)
    with torch.enable_grad():
        out = f(wrap(leaf))
        v = out._t if isinstance(out, Tensor) else torch.as_tensor(out)
        if v.numel() != 1:
            # Paddle's loop condition on the value asserts a single element
            raise AssertionError("paddle.incubate.optimizer.functional: 'objective_func' must "
                                 f"return a single element Tensor, but returned shape "
                                 f"{list(v.shape)}")
        (g,) = engine.grad([v], [leaf], [torch.ones_like(v)])
    return v.detach(), g.detach()


def _cubic_min(x1, f1, g1, x2, f2, g2):
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clipped to
    [min(x1, x2), max(x1, x2)]; the midpoint when the cubic has no minimum."""
    lo, hi = (x1, x2) if bool(x1 <= x2) else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if not bool(d2_square >= 0.0):
        return (lo + hi) / 2.0
    d2 = d2_square.sqrt()
    if bool(x1 <= x2):
        pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return torch.minimum(torch.maximum(pos, lo), hi)


class _Point:
    """A trial step: step ``a``, ``phi(a)``, ``phi'(a)`` and the gradient of ``f`` there."""

    __slots__ = ("a", "phi", "dphi", "grad")

    def __init__(self, a, phi, dphi, grad) -> None:
        self.a, self.phi, self.dphi, self.grad = a, phi, dphi, grad


def strong_wolfe(f: Objective, xk: torch.Tensor, pk: torch.Tensor, max_iters: int = 20,
                 tolerance_change: float = 1e-8, initial_step_length: float = 1.0,
                 c1: float = 1e-4, c2: float = 0.9, alpha_max: float = 10.0,
                 dtype: torch.dtype = torch.float32):
    """A step along ``pk`` from ``xk`` meeting the strong Wolfe conditions.

    Returns:
        tuple: ``(alpha, phi(alpha), gradient of f there, function calls)``; ``alpha`` is 0
        when no step was found within ``max_iters`` (or ``phi`` became infinite).
    """
    def probe(a: torch.Tensor) -> _Point:
        v, g = value_and_gradient(f, xk + a * pk)
        return _Point(a, v, torch.dot(g, pk), g)

    def zoom(lo: _Point, hi: _Point, phi0, dphi0) -> tuple[_Point, int]:
        calls = 0
        while calls < max_iters:
            if bool(torch.abs(hi.a - lo.a) < tolerance_change):
                break
            aj = _cubic_min(lo.a, lo.phi, lo.dphi, hi.a, hi.phi, hi.dphi)
            if bool(torch.minimum(torch.abs(aj - lo.a), torch.abs(aj - hi.a))
                    < 0.1 * torch.abs(hi.a - lo.a)):
                aj = 0.5 * (lo.a + hi.a)
            pj = probe(aj)
            if bool((pj.phi > phi0 + c1 * aj * dphi0) | (pj.phi >= lo.phi)):
                hi = _Point(pj.a, pj.phi, pj.dphi, hi.grad)
            else:
                if bool(torch.abs(pj.dphi) <= -c2 * dphi0):
                    return pj, calls           # the final call is not counted, as in Paddle
                if bool(pj.dphi * (hi.a - lo.a) >= 0):
                    hi = lo
                lo = pj
            calls += 1
        return lo, calls

    start = probe(torch.zeros(1, dtype=dtype, device=xk.device))
    phi0, dphi0 = start.phi, start.dphi
    prev = start
    alpha_cap = torch.full([1], alpha_max, dtype=dtype, device=xk.device)
    a2 = torch.full([1], initial_step_length, dtype=dtype, device=xk.device)
    star = _Point(torch.zeros(1, dtype=dtype, device=xk.device), phi0, dphi0, start.grad)
    calls = 1
    for i in range(max_iters):
        cur = probe(a2)
        calls += 1
        if bool(torch.isinf(cur.phi).any()):
            break
        if bool((cur.phi > phi0 + c1 * a2 * dphi0) | ((cur.phi >= prev.phi) & (i > 1))):
            # Paddle keeps phi'(0) as the derivative at the bracket's left end.
            star, j = zoom(_Point(prev.a, prev.phi, dphi0, prev.grad), cur, phi0, dphi0)
            calls += j
            break
        if bool(torch.abs(cur.dphi) <= -c2 * dphi0):
            star = cur
            break
        if bool(cur.dphi >= 0):
            star, j = zoom(cur, _Point(prev.a, prev.phi, dphi0, prev.grad), phi0, dphi0)
            calls += j
            break
        prev = cur
        a2 = torch.minimum(2 * a2, alpha_cap)
    return star.a, star.phi, star.grad, calls
