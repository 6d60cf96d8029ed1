"""``paddle.incubate.optimizer.functional``: quasi-Newton minimizers of a function of one
1-D Tensor, :func:`minimize_bfgs` and :func:`minimize_lbfgs`, with a strong-Wolfe line search."""
from pagaie.incubate.optimizer.functional.bfgs import minimize_bfgs
from pagaie.incubate.optimizer.functional.lbfgs import minimize_lbfgs

__all__ = ["minimize_bfgs", "minimize_lbfgs"]
