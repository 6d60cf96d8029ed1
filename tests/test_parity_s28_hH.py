"""Differential tests against real Paddle: 0-D tensors and indexing (retained gradients of
0-D results, bool masks and Tensor-bounded slices in static programs' getitem)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

paddle.set_device("cpu")


# ---- retain_grads: the kept gradient is not the buffer a leaf's .grad goes on adding into ----

def _retained_after_more_backwards(mod, make):
    x = mod.full([], 0.3)
    x.stop_gradient = False
    y = make(mod, x)
    y.retain_grads()
    y.backward()
    mod.cumsum(x, axis=0).backward()   # another backward into x
    (x * 3).backward()
    return y.grad.numpy(), x.grad.numpy()


@pytest.mark.parametrize("make", [
    lambda m, x: m.cumsum(x),              # 0-D in, [1] out: a view of the incoming gradient
    lambda m, x: x.reshape([1]) * 1,
])
def test_retained_grad_of_a_0d_result_stays_put(make):
    for a, b in zip(_retained_after_more_backwards(paddle, make),
                    _retained_after_more_backwards(pagaie, make)):
        np.testing.assert_array_equal(a, b)


# ---- static getitem: a bool mask's count is unknown and broadcasts; Tensor-bounded slices --

_DATA = np.arange(3 * 4 * 5 * 6 * 7).reshape([3, 4, 5, 6, 7]).astype("float32")
_MASK = np.array([True, False, True])


def _static_getitem(mod, index):
    mod.enable_static()
    try:
        main, start = mod.static.Program(), mod.static.Program()
        with mod.static.program_guard(main, start):
            x = mod.static.data("x", [3, 4, 5, 6, 7], "float32")
            m = mod.static.data("m", [3], "bool")
            i = mod.static.data("i", [], "int32")
            y = x[index(m, i)]
            exe = mod.static.Executor(mod.CPUPlace())
            out, = exe.run(main, feed={"x": _DATA, "m": _MASK, "i": np.array(1, "int32")},
                           fetch_list=[y])
        return list(y.shape), out
    finally:
        mod.disable_static()


@pytest.mark.parametrize("index", [
    lambda m, i: [True, False, True],
    lambda m, i: (slice(None), [True, False, True, False], 4),
    lambda m, i: (slice(None), [False] * 4, 4),
    lambda m, i: ([True, False, True], [False, False, False, True]),
    lambda m, i: ([True, False, True], [1]),
    lambda m, i: ([True, False, True], [1, 2]),     # the known size wins the broadcast
    lambda m, i: (1, [True, False, True, True]),
    lambda m, i: (Ellipsis, [True, False, True, True, False, False, True]),
    lambda m, i: np.array([[True, False, True, False]] * 3),
    lambda m, i: [[True, False, True, False]] * 3,
    lambda m, i: True,
    lambda m, i: (1, False, 0),
    lambda m, i: (slice(None), True),
    lambda m, i: (m, [1, 0]),                        # a bool Value beside an int list
    lambda m, i: m,
    lambda m, i: slice(i, i + 1),                 # bounds the program computes
    lambda m, i: (slice(None), slice(0, i)),
    lambda m, i: (i, slice(None), slice(i, None), [1, 0]),
])
def test_static_getitem_unknown_sizes(index):
    (shape_a, a), (shape_b, b) = _static_getitem(paddle, index), _static_getitem(pagaie, index)
    assert shape_a == shape_b
    np.testing.assert_array_equal(a, b)


# ---- static index lists: ints beside Values stack; the static parser's error types --------

def _static_index(mod, index, write):
    mod.enable_static()
    try:
        main, start = mod.static.Program(), mod.static.Program()
        with mod.static.program_guard(main, start):
            x = mod.arange(60, dtype="float32").reshape([3, 4, 5])
            i = mod.static.data("i", [], "int64")
            if write:
                x[index(mod, i)] = 1.0
                y = x
            else:
                y = x[index(mod, i)]
            exe = mod.static.Executor(mod.CPUPlace())
            out, = exe.run(main, feed={"i": np.array(1)}, fetch_list=[y])
        return list(y.shape), out
    except Exception as exc:  # noqa: BLE001 - the exception type is compared
        return type(exc)
    finally:
        mod.disable_static()


@pytest.mark.parametrize("write", [False, True])
@pytest.mark.parametrize("index", [
    lambda mod, i: [0, i],
    lambda mod, i: [i, 2],
    lambda mod, i: [0, None],                 # RuntimeError
    lambda mod, i: [0, slice(None)],
    lambda mod, i: [0, "a"],                  # TypeError
    lambda mod, i: [0, [1, 2]],               # ragged: ValueError
    lambda mod, i: [1.0, 2.0],                # float: TypeError to getitem, ValueError to setitem
    lambda mod, i: np.array([1.0, 2.0]),
    lambda mod, i: slice(1, "a"),             # slice bounds: the static parser's TypeError
    lambda mod, i: slice(None, None, 2.0),
    lambda mod, i: slice(None, None, mod.full([], 1.0)),
    lambda mod, i: np.int64(1),          # numpy scalars: the static parser's IndexError
    lambda mod, i: (1, np.int32(-1)),
])
def test_static_list_index(index, write):
    a, b = _static_index(paddle, index, write), _static_index(pagaie, index, write)
    if isinstance(a, type):
        assert a is b
    else:
        assert a[0] == b[0]
        np.testing.assert_array_equal(a[1], b[1])


def test_static_getitem_negative_index_out_of_range():
    # (Paddle's program ignores x[-4] = v: not followed)
    assert _static_index(paddle, lambda mod, i: -4, False) is ValueError
    assert _static_index(pagaie, lambda mod, i: -4, False) is ValueError


# ---- append_backward: no gradient through ops without a backward --------------------------

def _grads_present(mod, make):
    mod.enable_static()
    try:
        with mod.static.program_guard(mod.static.Program(), mod.static.Program()):
            b = mod.to_tensor(True)
            b.stop_gradient = False
            f = mod.full([2], 0.5)
            f.stop_gradient = False
            out = make(mod, b, f)
            loss = out.sum() if out.dtype != mod.bool else out
            pairs = mod.static.append_backward(loss, parameter_list=[b, f])
        return [g is None for _, g in pairs]
    finally:
        mod.disable_static()


@pytest.mark.parametrize("make", [
    lambda m, b, f: m.all(b),
    lambda m, b, f: m.any(b),
    lambda m, b, f: m.isnan(f),
    lambda m, b, f: m.argmax(f),
    lambda m, b, f: m.is_empty(f),
    lambda m, b, f: m.sign(f),          # one with a backward: f gets a gradient
])
def test_append_backward_skips_ops_without_backward(make):
    assert _grads_present(paddle, make) == _grads_present(pagaie, make)


# ---- index errors name the indexing API --------------------------------------------------

@pytest.mark.parametrize("index", [3, -4, (0, 4), slice(0, 1, 0)])
@pytest.mark.parametrize("write", [False, True])
def test_index_errors_name_the_api(index, write):
    errors = []
    for mod in (paddle, pagaie):
        x = mod.ones([3, 4])
        with pytest.raises((IndexError, ValueError)) as info:
            if write:
                x[index] = 1.0
            else:
                x[index]
        errors.append(info)
    assert errors[0].type is errors[1].type
    assert str(errors[1].value).startswith(
        "paddle.Tensor.__setitem__:" if write else "paddle.Tensor.__getitem__:")
