"""``paddle.autograd``: gradients over torch.autograd.

``backward`` and ``grad`` differentiate; ``PyLayer`` (alias ``Function``) declares a
custom backward; ``jacobian``/``hessian`` return lazily evaluated matrices;
``saved_tensors_hooks`` transforms what autograd keeps for backward.
"""
from pagaie.autograd.backward_mode import backward, grad
from pagaie.autograd.functional import Hessian, Jacobian, hessian, jacobian
from pagaie.autograd import ir_backward
from pagaie.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from pagaie.autograd.py_layer import Function, PyLayer, PyLayerContext
from pagaie.autograd.saved_tensors_hooks import saved_tensors_hooks

__all__ = ["Function", "PyLayer", "PyLayerContext", "backward", "hessian", "jacobian",
           "saved_tensors_hooks"]
