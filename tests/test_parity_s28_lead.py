"""Differential tests against real Paddle (round 28, lead): the private Tensor methods
that share or release memory, flip with one axis named twice, 1-D unpooling with a string
padding, and sequence_mask with dtype=None."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _outcome(f):
    try:
        out = f()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e).__name__
    return out.numpy().tolist() if hasattr(out, "numpy") else out


def _both(f):
    return [_outcome(lambda: f(mod)) for mod in (paddle, pagaie)]


def _rows(mod):
    return mod.to_tensor(np.arange(12, dtype="float32").reshape(4, 3))


@pytest.mark.parametrize("begin,end", [(1, 3), (0, 4), (2, 2), (3, 2), (-1, 2), (0, 9)])
def test_slice_rows(begin, end):
    p, q = _both(lambda mod: _rows(mod)._slice(begin, end))
    assert p == q


def test_slice_shares_memory():
    got = []
    for mod in (paddle, pagaie):
        t = _rows(mod)
        s = t._slice(1, 3)
        s[0, 0] = 100.0
        got.append((float(t[1, 0]), s.stop_gradient, t._is_shared_buffer_with(s)))
    assert got[0] == got[1]


@pytest.mark.parametrize("dst_shape,dst_dtype", [([2], "float32"), ([3], "int64"), ([2, 2], "float32")])
def test_share_buffer_to(dst_shape, dst_dtype):
    got = []
    for mod in (paddle, pagaie):
        t = _rows(mod)
        u = mod.zeros(dst_shape, dst_dtype)
        t._share_buffer_to(u)
        before = (u.shape, str(u.dtype).split(".")[-1], u.numpy().tolist())
        u[0] = 7
        got.append((before, float(t[0, 0]), t._is_shared_buffer_with(u),
                    t._is_shared_underline_tensor_with(u)))
    assert got[0] == got[1]


@pytest.mark.parametrize("dst_stop", [True, False])
def test_share_underline_tensor_to(dst_stop):
    got = []
    for mod in (paddle, pagaie):
        t = mod.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        v = mod.zeros([5])
        v.stop_gradient = dst_stop
        t._share_underline_tensor_to(v)
        state = (v.shape, v.stop_gradient, v.name == t.name, t._is_shared_underline_tensor_with(v))
        with mod.no_grad():
            v[0, 0] = 9.0
        got.append((state, float(t[0, 0])))
    assert got[0] == got[1]


def test_clear():
    got = []
    for mod in (paddle, pagaie):
        w = mod.to_tensor([1.0, 2.0])
        w._clear()
        got.append((w._is_initialized(), list(w.shape)))
    assert got[0] == got[1]


@pytest.mark.parametrize("axis", [[1, -2], [0, -3, 2], (2, -1), [0, 0], (1, 1, 2), [-1]])
def test_flip_axis_named_twice(axis):
    data = np.arange(24).reshape(2, 3, 4)
    p, q = _both(lambda mod: mod.flip(mod.to_tensor(data), axis))
    assert p == q


def test_flip_axis_named_twice_in_program():
    got = []
    for mod in (paddle, pagaie):
        mod.enable_static()
        try:
            main = mod.static.Program()
            with mod.static.program_guard(main, mod.static.Program()):
                x = mod.static.data("x", [2, 3, 4], "int64")
                out = mod.flip(x, [1, -2])
            exe = mod.static.Executor(mod.CPUPlace())
            got.append(exe.run(main, feed={"x": np.arange(24).reshape(2, 3, 4)}, fetch_list=[out])[0].tolist())
        finally:
            mod.disable_static()
    assert got[0] == got[1]


@pytest.mark.parametrize("padding", ["SAME", "VALID", "same", "valid", "foo", [0], 0])
def test_max_unpool1d_string_padding(padding):
    data = np.arange(8, dtype="float32").reshape(1, 1, 8)

    def run(mod):
        out, idx = mod.nn.functional.max_pool1d(mod.to_tensor(data), 2, return_mask=True)
        return mod.nn.functional.max_unpool1d(out, idx, 2, padding=padding)
    p, q = _both(run)
    assert p == q


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_max_unpool2d_string_padding_refused(padding):
    data = np.arange(36, dtype="float32").reshape(1, 1, 6, 6)

    def run(mod):
        out, idx = mod.nn.functional.max_pool2d(mod.to_tensor(data), 2, return_mask=True)
        return mod.nn.functional.max_unpool2d(out, idx, 2, padding=padding)
    p, q = _both(run)
    assert p == q == "ValueError"


@pytest.mark.parametrize("kwargs", [{}, {"dtype": None}, {"dtype": "float32"}, {"dtype": "bool"}])
def test_sequence_mask_dtype(kwargs):
    got = []
    for mod in (paddle, pagaie):
        m = mod.nn.functional.sequence_mask(mod.to_tensor([1, 3]), 4, **kwargs)
        got.append((str(m.dtype).split(".")[-1], m.numpy().tolist()))
    assert got[0] == got[1]
