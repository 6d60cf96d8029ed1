"""Session-14 sweep of Paddle's layer test cases for the math APIs m-z (PaddleLT's
``math_sublayer``): each case runs eagerly, through ``jit.to_static`` with an InputSpec of
unknown (-1) sizes, and after ``jit.save``/``jit.load``, as real Paddle 3.3.1 does.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

from tests.reference import assert_same, both

RNG = np.random.RandomState(7)
X4 = (RNG.rand(2, 3, 4, 4) * 2 - 1).astype("float32")
MASK = RNG.randint(0, 2, [2, 3, 4, 4]).astype("bool")
INTS = RNG.randint(-1, 2, [2, 3, 4, 4]).astype("int32")


def _saved_and_loaded(fw, fn, arrays, path, spec_dims=None):
    """``fn`` as a Layer: its to_static result with an all -1 InputSpec (no fallback to eager
    execution), and its result after jit.save and jit.load."""
    class One(fw.nn.Layer):
        def forward(self, x):
            return fn(fw, x)

    class Two(fw.nn.Layer):
        def forward(self, x, y):
            return fn(fw, x, y)

    Case = One if len(arrays) == 1 else Two
    spec = [fw.static.InputSpec([-1] * a.ndim, str(a.dtype)) for a in arrays]
    xs = [fw.to_tensor(a) for a in arrays]
    st = fw.jit.to_static(Case(), input_spec=spec, full_graph=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = st(*xs)
    assert [str(w.message) for w in caught if "paddle.jit.to_static" in str(w.message)] == []
    fw.jit.save(st, path, input_spec=spec)
    return [out, fw.jit.load(path)(*xs)]


CASES = {
    # a fixed target shape for an input of unknown sizes (Paddle: the shape as given)
    "reshape": (lambda fw, x: fw.reshape(x, shape=[6, 4, 4]), [X4]),
    "reshape_zero": (lambda fw, x: fw.reshape(x, shape=[0, 12, 4]), [X4]),
    # data-dependent output sizes of inputs whose unknown sizes are all -1
    "nonzero": (lambda fw, x: fw.nonzero(x), [INTS]),
    "masked_select": (lambda fw, x, m: fw.masked_select(x, m), [X4, MASK]),
    "quantile": (lambda fw, x: fw.quantile(x, q=0.5, axis=0), [X4]),
    "put_along_axis": (lambda fw, x: fw.put_along_axis(
        x, indices=fw.to_tensor([[[[0]]]], dtype="int32"), values=21.0, axis=0), [X4]),
    "unique": (lambda fw, x: fw.unique(x), [INTS]),
    # the unknown size must match the repeats' length
    "repeat_interleave": (lambda fw, x: fw.repeat_interleave(
        x, repeats=fw.to_tensor([2, 3, 1], dtype="int32"), axis=1), [X4]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_unknown_sizes_trace_and_save(name, tmp_path):
    fn, arrays = CASES[name]
    ours, theirs = both(lambda fw: _saved_and_loaded(fw, fn, arrays,
                                                     os.path.join(str(tmp_path), fw.__name__)))
    assert_same(ours, theirs)


def test_array_made_into_a_tensor_inside_forward_is_saved(tmp_path):
    """``paddle.to_tensor(ndarray)`` inside a traced forward is a constant of the program
    (Paddle's assign_value): jit.save keeps its values and dtype."""
    vec = np.linspace(-1, 1, 4).astype("float32")
    ints = np.array([[2, 0], [1, 3]], dtype="int32")

    def run(fw):
        class Case(fw.nn.Layer):
            def forward(self, x):
                v = fw.to_tensor(vec, stop_gradient=False)
                i = fw.to_tensor(ints)
                return fw.mv(x, vec=v), i * 2

        st = fw.jit.to_static(Case(), full_graph=True)
        x = fw.to_tensor(X4[0, 0])
        out = st(x)
        path = os.path.join(str(tmp_path), fw.__name__)
        fw.jit.save(st, path)
        return [out, fw.jit.load(path)(x)]

    ours, theirs = both(run)
    assert_same(ours, theirs)
