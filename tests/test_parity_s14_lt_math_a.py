"""Session-14 sweep of math layer cases (APIs a to l) in dygraph, ``jit.to_static`` with
InputSpecs of unknown (-1) sizes and ``jit.save``/``jit.load``, against real Paddle 3.3.1.

PYTEST_DONT_REWRITE: Paddle's default mode translates bytecode.
"""
from __future__ import annotations

import os

import numpy as np

from tests.reference import assert_same, both

RS = np.random.RandomState(7)
X3 = RS.uniform(-1, 1, [2, 3, 4]).astype("float32")
IDX = np.array([3, 0, 2, 2, 1], "int64")
A = RS.randint(-50, 50, [2, 3]).astype("int32")
B = RS.randint(1, 5, [3]).astype("int32")


def _saved_and_loaded(fw, layer, specs, path, inputs):
    """The outputs of ``layer`` saved with ``specs`` and loaded again, on ``inputs``."""
    fw.jit.save(fw.jit.to_static(layer, input_spec=specs, full_graph=True), path, input_spec=specs)
    return fw.jit.load(path)(*[fw.to_tensor(a) for a in inputs])


def test_to_static_op_without_backward_gives_zero_gradients():
    """In a to_static program the floating result of an op without a backward (bincount's
    weighted counts, linspace with tensor bounds, full_like) says stop_gradient=False when an
    input needs gradients, and the backward gives those inputs zeros (Paddle's program
    backward); the eager call stops gradients (pagaie's program backward failed on bincount
    and gave no gradient through the others)."""
    def run(fw):
        class Net(fw.nn.Layer):
            def forward(self, x, w, lo):
                return (fw.bincount(x, w, minlength=6), fw.linspace(lo, lo * 2, 3),
                        fw.full_like(w, 2.0))

        f = fw.jit.to_static(Net(), full_graph=True)
        w = fw.to_tensor(np.array([0.5, 1.0, 2.0, 3.0], "float32"), stop_gradient=False)
        lo = fw.to_tensor(np.array(1.5, "float32"), stop_gradient=False)
        outs = f(fw.to_tensor(np.array([1, 2, 2, 5], "int32")), w, lo)
        flags = [o.stop_gradient for o in outs]
        (outs[0].sum() + outs[1].sum() + outs[2].sum()).backward()
        return [flags, outs[0], outs[1], w.grad, lo.grad]

    ours, theirs = both(run)
    assert ours[0] == theirs[0] == [False, False, False]
    assert_same(ours[1:], theirs[1:])


def test_save_ops_whose_shapes_need_data_with_several_unknown_sizes(tmp_path):
    """jit.save of index_select / gather / gather_nd / index_sample / floor_divide on inputs
    with several unknown sizes: the output shapes cannot come from meta tensors (the kernels
    check index values or divisors) and the placeholder-sized data was too large to make, so
    the save failed; Paddle saves them."""
    def run(fw):
        class Net(fw.nn.Layer):
            def forward(self, x, i, a, b):
                return (fw.index_select(x, i, axis=-1), fw.gather(x, i[:2], axis=2),
                        fw.gather_nd(x, fw.stack([i[:2] % 2, i[:2] % 3], axis=-1)),
                        fw.index_sample(x[0], fw.zeros_like(x[0], "int64")),
                        fw.floor_divide(a, b))

        S = fw.static.InputSpec
        specs = [S([-1, -1, -1], "float32"), S([-1], "int64"), S([-1, -1], "int32"), S([-1], "int32")]
        return _saved_and_loaded(fw, Net(), specs, os.path.join(str(tmp_path), fw.__name__),
                                 [X3, IDX, A, B])

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_save_cross_with_unknown_sizes(tmp_path):
    """cross with its default axis (the first of size 3) on inputs of unknown sizes: which
    axis that is is only known when the program runs; the result has the inputs' shape
    (pagaie could not record it for jit.save)."""
    x, y = RS.uniform(-1, 1, [2, 3, 4]).astype("float32"), RS.uniform(-1, 1, [2, 3, 4]).astype("float32")

    def run(fw):
        class Net(fw.nn.Layer):
            def forward(self, x, y):
                return fw.cross(x, y)

        S = fw.static.InputSpec
        out = _saved_and_loaded(fw, Net(), [S([-1, -1, -1], "float32"), S([-1, -1, -1], "float32")],
                                os.path.join(str(tmp_path), fw.__name__), [x, y])
        return out, out.shape

    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert list(ours[1]) == list(theirs[1]) == [2, 3, 4]


def test_save_a_numpy_constant_made_in_forward(tmp_path):
    """``to_tensor(np.array(...))`` inside a saved forward is a constant of the program (Paddle's
    assign_value); pagaie could not serialise the numpy array."""
    def run(fw):
        class Net(fw.nn.Layer):
            def forward(self, x):
                t = fw.to_tensor(np.arange(6, dtype="float64").reshape(2, 3) / 7, dtype="float32")
                return x * t + fw.to_tensor(np.array([1, 0, 1], "bool")).astype("float32")

        return _saved_and_loaded(fw, Net(), [fw.static.InputSpec([-1, 3], "float32")],
                                 os.path.join(str(tmp_path), fw.__name__), [X3[0, :2, :3]])

    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_save_sizes_read_from_unknown_dims(tmp_path):
    """``x.shape[i]`` of an InputSpec's unknown size used as an op argument or in arithmetic
    (``arange(x.shape[0])``, ``x.shape[1] * x.shape[2]``, ``x[: x.shape[0] // 2]``) is the
    size the program runs with, as Paddle's shape op gives it; a saved program took it as -1
    (an empty arange, a [24, 1] reshape, ``x[:-1]``)."""
    x = np.arange(24, dtype="float32").reshape(4, 3, 2)

    def run(fw):
        class Net(fw.nn.Layer):
            def forward(self, x):
                return (fw.arange(x.shape[0], dtype="float32"), x.reshape([-1, x.shape[1] * x.shape[2]]),
                        x[: x.shape[0] // 2], fw.full([x.shape[1] - 1], 3.0), fw.eye(x.shape[0], x.shape[2]))

        outs = _saved_and_loaded(fw, Net(), [fw.static.InputSpec([-1, -1, -1], "float32")],
                                 os.path.join(str(tmp_path), fw.__name__), [x])
        return list(outs) + [[list(o.shape) for o in outs]]

    ours, theirs = both(run)
    assert_same(ours, theirs)
