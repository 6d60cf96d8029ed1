"""LBFGS: limited-memory BFGS with an optional strong-Wolfe line search."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Sequence

import numpy as np
import torch

from pagaie._core.tensor import Tensor, wrap
from pagaie.optimizer.optimizer import Optimizer

__all__ = ["LBFGS"]


def _dot(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Inner product as a product then a sum (Paddle's LBFGS avoids its dot kernel)."""
    return (x * y).sum()


def _cubic_min(x1: float, f1: float, g1: float, x2: float, f2: float, g2: float,
               bounds: tuple[float, float] | None = None) -> float:
    """Minimizer of the cubic through (x1, f1, g1) and (x2, f2, g2), clipped to ``bounds``.
    The arguments may be numpy scalars of the parameters' dtype: the arithmetic then rounds
    as Paddle's does on its 0-D tensors (the minimizer is sensitive to that rounding)."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    with np.errstate(all="ignore"):  # inf / nan propagate silently, as on tensors
        d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
        disc = d1 * d1 - g1 * g2
        if not disc >= 0:
            return (lo + hi) / 2.0
        d2 = np.sqrt(disc) if isinstance(disc, np.generic) else disc ** 0.5
        if x1 <= x2:
            pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(pos, lo), hi)


def _scalar_of(dtype: torch.dtype) -> Callable:
    """How a 0-D result of ``dtype`` enters the line search's arithmetic: a Python float for
    float64, else a numpy scalar that rounds to the dtype as Paddle's 0-D tensors do."""
    if dtype == torch.float64:
        return float
    return np.float16 if dtype == torch.float16 else np.float32


def _strong_wolfe(evaluate: Callable, alpha: float, d: torch.Tensor, loss: float, grad: torch.Tensor,
                  gtd: float, c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, torch.Tensor, float, int]:
    """Line search along ``d`` satisfying the strong Wolfe conditions (bracket, then zoom).
    Directional derivatives, ``d``'s norm and the steps derived from them are numpy scalars
    of the parameters' dtype (Paddle keeps them as 0-D tensors); the losses are Python floats."""
    sc = _scalar_of(d.dtype)
    d_norm = sc(d.abs().max().item())

    def armijo(a: float) -> float:
        return loss + c1 * a * gtd

    curv = -c2 * gtd
    grad = grad.clone()
    f_new, g_new = evaluate(alpha)
    evals = 1
    gtd_new = sc(_dot(g_new, d).item())
    t_prev, f_prev, g_prev, gtd_prev = 0, loss, grad, gtd  # an int 0, as Paddle (it can become the step)
    done = False
    it = 0
    bracket: list = []
    while it < max_ls:
        if f_new > armijo(alpha) or (it > 1 and f_new >= f_prev):
            bracket, bf, bg, bgtd = [t_prev, alpha], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= curv:
            bracket, bf, bg = [alpha], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bf, bg, bgtd = [t_prev, alpha], [f_prev, f_new], [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        lo, hi = alpha + 0.01 * (alpha - t_prev), alpha * 10
        nxt = _cubic_min(t_prev, f_prev, gtd_prev, alpha, f_new, gtd_new, bounds=(lo, hi))
        t_prev, f_prev, g_prev, gtd_prev = alpha, f_new, g_new.clone(), gtd_new
        alpha = nxt
        f_new, g_new = evaluate(alpha)
        evals += 1
        gtd_new = sc(_dot(g_new, d).item())
        it += 1
    if it == max_ls:
        bracket, bf, bg = [0, alpha], [loss, f_new], [grad, g_new]
    insuf = False
    low, high = (0, 1) if bf[0] <= bf[-1] else (1, 0)
    while not done and it < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        alpha = _cubic_min(bracket[0], bf[0], bgtd[0], bracket[1], bf[1], bgtd[1])
        top, bot = max(bracket), min(bracket)
        eps = 0.1 * (top - bot)
        if min(top - alpha, alpha - bot) < eps:
            if insuf or alpha >= top or alpha <= bot:
                alpha = top - eps if abs(alpha - top) < abs(alpha - bot) else bot + eps
                insuf = False
            else:
                insuf = True
        else:
            insuf = False
        f_new, g_new = evaluate(alpha)
        evals += 1
        gtd_new = sc(_dot(g_new, d).item())
        it += 1
        if f_new > armijo(alpha) or f_new >= bf[low]:
            bracket[high], bf[high], bg[high], bgtd[high] = alpha, f_new, g_new.clone(), gtd_new
            low, high = (0, 1) if bf[0] <= bf[1] else (1, 0)
        else:
            if abs(gtd_new) <= curv:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bf[high], bg[high], bgtd[high] = bracket[low], bf[low], bg[low], bgtd[low]
            bracket[low], bf[low], bg[low], bgtd[low] = alpha, f_new, g_new.clone(), gtd_new
    return bf[low], bg[low], bracket[low], evals


class LBFGS(Optimizer):
    r"""Limited-memory BFGS. ``step(closure)`` runs up to ``max_iter`` iterations; the
    closure clears the gradients, recomputes the loss, calls ``backward`` and returns it.
    The search direction comes from the two-loop recursion over the last ``history_size``
    curvature pairs; the step is ``learning_rate`` or found by a strong-Wolfe line search.

    Args:
        learning_rate (float, optional): the step size. Default 1.0.
        max_iter (int, optional): iterations per ``step``. Default 20.
        max_eval (int|None, optional): function evaluations per ``step``; ``max_iter * 5 // 4``
            when None.
        tolerance_grad (float, optional): stop when the largest gradient entry is this small.
            Default 1e-7.
        tolerance_change (float, optional): stop when the loss or the step changes less.
            Default 1e-9.
        history_size (int, optional): curvature pairs kept. Default 100.
        line_search_fn (str|None, optional): None or 'strong_wolfe'. Default None.
        parameters (list|tuple|None): the Tensors to update.
        weight_decay, grad_clip: accepted for signature compatibility (unused, as in Paddle).
        name (str|None, optional): unused. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([3.0]), name="doc_lbfgs_w")
        >>> opt = paddle.optimizer.LBFGS(learning_rate=1.0, parameters=[w], line_search_fn='strong_wolfe')
        >>> def closure():
        ...     opt.clear_grad()
        ...     loss = ((w - 1.0) * (w - 1.0)).sum()
        ...     loss.backward()
        ...     return loss
        >>> _ = opt.step(closure)
        >>> round(w.item(), 4)
        1.0
    """

    def __init__(self, learning_rate: float = 1.0, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None, parameters: Sequence | None = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: str | None = None) -> None:
        if isinstance(parameters, Tensor):
            raise TypeError("paddle.optimizer.LBFGS: parameters should be an iterable of Tensors or "
                            f"dicts, but received {type(parameters).__name__}")
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        self.tolerance_grad = tolerance_grad
        self.tolerance_change = tolerance_change
        self.history_size = history_size
        self.line_search_fn = line_search_fn
        self.state: dict = defaultdict(dict)
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        if not self._parameter_list:  # Paddle reads the first entry to tell Tensors from groups
            raise IndexError("paddle.optimizer.LBFGS: 'parameters' is empty")
        if self._grouped:
            self._params = self._param_groups[-1]["params"]
        else:
            self._params = self._parameter_list

    def state_dict(self) -> dict:
        """``{'state': {...}}``: the iteration counters, direction, step and curvature history."""
        return {"state": {k: wrap(v) for k, v in self.state.items()}}

    def _flat_grad(self) -> torch.Tensor:
        if not self._params:  # an empty last group: Paddle fails concatenating no gradients
            raise ValueError("paddle.optimizer.LBFGS.step: the last parameter group has no "
                             "parameters to gather gradients from")
        views = []
        for p in self._params:
            g = p._t.grad
            views.append(torch.zeros(p._t.numel(), dtype=p._t.dtype, device=p._t.device) if g is None
                         else g.reshape(-1))
        flat = torch.cat(views)
        if flat.numel() == 0:  # Paddle's max of the gradient fails on no elements
            raise ValueError("paddle.optimizer.LBFGS.step: the parameters have no elements, so the "
                             "largest gradient cannot be taken")
        return flat

    def _move(self, alpha: float, d: torch.Tensor) -> None:
        offset = 0
        for p in self._params:
            n = p._t.numel()
            p._t.add_(d[offset:offset + n].view_as(p._t) * float(alpha))  # rounded as Paddle's two ops
            offset += n

    def _set(self, values: list[torch.Tensor]) -> None:
        for p, v in zip(self._params, values):
            p._t.copy_(v)

    def step(self, closure: Callable) -> Tensor:  # type: ignore[override]
        """Run the optimization for ``max_iter`` iterations (or until converged).

        Args:
            closure (callable): re-evaluates the model and returns the loss.

        Returns:
            Tensor: the loss before the step.
        """
        from pagaie.autograd import enable_grad
        with torch.no_grad():
            def evaluate() -> Any:
                with enable_grad():
                    return closure()

            st = self.state
            st.setdefault("func_evals", 0)
            st.setdefault("n_iter", 0)
            orig_loss = evaluate()
            loss = float(orig_loss)
            evals = 1
            st["func_evals"] += 1
            flat_grad = self._flat_grad()
            if flat_grad.abs().max().item() <= self.tolerance_grad:
                return orig_loss
            d, alpha = st.get("d"), st.get("alpha")
            old_yk, old_sk, ro = st.get("old_yk"), st.get("old_sk"), st.get("ro")
            h_diag, prev_flat_grad, prev_loss = st.get("H_diag"), st.get("prev_flat_grad"), st.get("prev_loss")
            n_iter = 0
            while n_iter < self.max_iter:
                n_iter += 1
                st["n_iter"] += 1
                if st["n_iter"] == 1:
                    d = flat_grad.neg()
                    old_yk, old_sk, ro = [], [], []
                    h_diag = torch.tensor(1.0, dtype=flat_grad.dtype, device=flat_grad.device)
                else:
                    y = flat_grad - prev_flat_grad
                    s = d * float(alpha)
                    ys = _dot(y, s)
                    if ys.item() > 1e-10:
                        if len(old_yk) == self.history_size:
                            old_yk.pop(0)
                            old_sk.pop(0)
                            ro.pop(0)
                        old_yk.append(y)
                        old_sk.append(s)
                        ro.append(1.0 / ys)
                        h_diag = ys / _dot(y, y)
                    al = st.setdefault("al", [None] * self.history_size)
                    q = flat_grad.neg()
                    for i in range(len(old_yk) - 1, -1, -1):
                        al[i] = _dot(old_sk[i], q) * ro[i]
                        q.add_(old_yk[i] * -al[i])
                    d = r = q * h_diag
                    for i in range(len(old_yk)):
                        be_i = _dot(old_yk[i], r) * ro[i]
                        r.add_(old_sk[i] * (al[i] - be_i))
                if prev_flat_grad is None:
                    prev_flat_grad = flat_grad.clone()
                else:
                    prev_flat_grad.copy_(flat_grad)
                prev_loss = loss
                if st["n_iter"] == 1:
                    sc = _scalar_of(flat_grad.dtype)
                    alpha = min(1.0, 1.0 / sc(flat_grad.abs().sum().item())) * self.learning_rate
                else:
                    alpha = self.learning_rate
                gtd = _scalar_of(d.dtype)(_dot(flat_grad, d).item())
                if gtd > -self.tolerance_change:
                    break
                ls_evals = 0
                if self.line_search_fn is not None:
                    if self.line_search_fn != "strong_wolfe":
                        raise RuntimeError("paddle.optimizer.LBFGS: only 'strong_wolfe' is supported as "
                                           f"line_search_fn, but received {self.line_search_fn!r}")
                    x0 = [p._t.clone() for p in self._params]

                    def along(a: float, x0=x0, d=d) -> tuple[float, torch.Tensor]:
                        self._move(a, d)
                        f = float(evaluate())
                        g = self._flat_grad()
                        self._set(x0)
                        return f, g

                    loss, flat_grad, alpha, ls_evals = _strong_wolfe(along, alpha, d, loss, flat_grad, gtd)
                    loss = float(loss)
                    self._move(alpha, d)
                    opt_cond = flat_grad.abs().max().item() <= self.tolerance_grad
                else:
                    self._move(alpha, d)
                    opt_cond = False
                    if n_iter != self.max_iter:
                        loss = float(evaluate())
                        flat_grad = self._flat_grad()
                        opt_cond = flat_grad.abs().max().item() <= self.tolerance_grad
                        ls_evals = 1
                evals += ls_evals
                st["func_evals"] += ls_evals
                if opt_cond or (d * float(alpha)).abs().max().item() <= self.tolerance_change \
                        or abs(loss - prev_loss) < self.tolerance_change or evals >= self.max_eval \
                        or n_iter == self.max_iter:
                    break
            if isinstance(alpha, np.generic):  # a step from the line search: a 0-D tensor, as in Paddle
                alpha = torch.tensor(alpha.item(), dtype=d.dtype)
            st.update(d=d, alpha=alpha, old_yk=old_yk, old_sk=old_sk, ro=ro, H_diag=h_diag,
                      prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss

    def minimize(self, loss: Tensor, startup_program: Any = None, parameters: list | None = None,
                 no_grad_set: set | None = None):
        """Not supported: call ``step(closure)`` instead."""
        raise NotImplementedError("paddle.optimizer.LBFGS: LBFGS does not support minimize(); "
                                  "call step(closure) instead")
