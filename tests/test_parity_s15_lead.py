"""Session 15 lead fixes, compared with real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np

from tests.reference import both_same


def _split_grads(fw, which: str):
    x = fw.to_tensor(np.arange(8, dtype="float32").reshape(2, 4), stop_gradient=False)
    y = x * 3
    p1, p2 = fw.split(y, [1, 3], axis=1)
    seen = []
    p2.register_hook(lambda g: seen.append(g.numpy()))
    p1.retain_grads()
    p2.retain_grads()
    {"p1": p1.sum(), "p2": p2}[which].backward()
    return p1.grad, p2.grad, x.grad, seen


def test_unused_split_output_gets_zero_gradient_in_hooks_and_retain_grads():
    # the output backward never reached crashed pagaie's hooks (torch passes None)
    both_same(lambda fw: _split_grads(fw, "p1"))


def test_non_scalar_backward_of_one_split_output():
    both_same(lambda fw: _split_grads(fw, "p2"))


def test_imag_of_a_real_tensor_has_no_cpu_kernel():
    from tests.reference import same_exception
    same_exception(lambda fw: fw.imag(fw.to_tensor([1.0, 2.0])))
    same_exception(lambda fw: fw.to_tensor([1, 2]).imag())


def test_static_polar_and_tensordot_of_a_list_are_type_errors():
    from tests.reference import same_static_exception
    same_static_exception(lambda fw: fw.polar([[1.0, 2.0]], fw.static.data("x", [1, 2], "float32")))
    same_static_exception(lambda fw: fw.tensordot([[1.0, 2.0]], fw.static.data("x", [2, 2], "float32"), 1))


def test_where_operands_that_are_not_tensors_or_numbers():
    import numpy as np
    from tests.reference import same_exception
    for bad in ("a", [1.0, 2.0], np.array([1.0, 2.0], "float32")):
        same_exception(lambda fw: fw.where(fw.to_tensor([True, False]), bad, fw.to_tensor([1.0, 2.0])))


def test_integer_inputs_of_float_only_nn_kernels():
    from tests.reference import same_exception
    F = lambda fw: fw.nn.functional  # noqa: E731
    xi = lambda fw: fw.to_tensor([[1, 2], [3, 4]])  # noqa: E731
    same_exception(lambda fw: F(fw).dropout(xi(fw), 0.5))
    same_exception(lambda fw: F(fw).dropout(xi(fw), 0.5, training=False))
    same_exception(lambda fw: F(fw).dropout(fw.to_tensor([True, False]), 0.5))
    same_exception(lambda fw: F(fw).bilinear(xi(fw), xi(fw), fw.ones([1, 2, 2], "int64")))
    same_exception(lambda fw: F(fw).pairwise_distance(xi(fw), xi(fw)))
    same_exception(lambda fw: F(fw).binary_cross_entropy_with_logits(xi(fw), xi(fw)))
