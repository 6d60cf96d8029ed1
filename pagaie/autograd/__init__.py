"""``paddle.autograd``: gradients over torch.autograd."""
from pagaie.autograd.backward_mode import backward, grad
from pagaie.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled

__all__ = ["backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]
