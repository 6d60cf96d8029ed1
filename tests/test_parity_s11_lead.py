"""Session 11, lead: what the sweep's reports asked of shared files, pinned against real Paddle 3.3.1.

A list of Tensors where one Tensor belongs is Paddle's ValueError naming the argument;
``paddle.base.core.DenseTensor`` can be made, set and fed; a slice bound that is a symbolic
value (``x[:, :n]``) runs through ``to_static``, the interpreter, ``jit.save``/``jit.load`` and
the compiled executor.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, same_exception


@pytest.mark.parametrize("call", [
    lambda P: P.unsqueeze([P.ones([2])], [1]),
    lambda P: P.abs([P.ones([2])]),
], ids=["unsqueeze", "abs"])
def test_a_list_of_tensors_for_x_is_a_value_error(call):
    """Paddle's argument parser: 'x' must be Tensor, but got list (ValueError)."""
    exc = same_exception(call)
    assert "'x'" in str(exc) and "list" in str(exc)


def test_base_core_dense_tensor_is_set_and_fed():
    """paddle.base.core.DenseTensor (alias LoDTensor) takes an array and feeds an executor."""
    def f(P):
        t = P.base.core.DenseTensor()
        t.set(np.arange(6, dtype="float32").reshape(2, 3), P.CPUPlace())
        P.enable_static()
        try:
            main = P.static.Program()
            with P.static.program_guard(main, P.static.Program()):
                x = P.static.data("x", [2, 3], "float32")
                y = x * 2
            out = P.static.Executor(P.CPUPlace()).run(main, feed={"x": t}, fetch_list=[y])[0]
        finally:
            P.disable_static()
        return t.shape(), P.base.core.LoDTensor is P.base.core.DenseTensor, out
    ours, theirs = both(f)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])


class _SliceBySize(pagaie.nn.Layer):
    def forward(self, x):
        n = pagaie.shape(x)[0]
        return x[:, :n] * 2


@pytest.mark.parametrize("backend", [None, "inductor"])
def test_a_value_as_a_slice_bound_through_to_static(backend, tmp_path):
    """x[:, :n] with n read from the input's shape: each batch size slices its own width,
    through the interpreter (and the compiled executor), and after jit.save / jit.load."""
    spec = [pagaie.static.InputSpec([None, 6], "float32", "x")]
    net = pagaie.jit.to_static(_SliceBySize(), input_spec=spec, backend=backend)
    x = np.arange(24, dtype="float32").reshape(4, 6)
    for rows in (4, 3):
        got = net(pagaie.to_tensor(x[:rows])).numpy()
        np.testing.assert_array_equal(got, x[:rows, :rows] * 2)
    if backend is None:
        path = os.path.join(str(tmp_path), "m")
        pagaie.jit.save(net, path, input_spec=spec)
        loaded = pagaie.jit.load(path)
        np.testing.assert_array_equal(loaded(pagaie.to_tensor(x[:2])).numpy(), x[:2, :2] * 2)
