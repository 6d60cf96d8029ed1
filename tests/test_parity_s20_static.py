"""Session-20 sweep of static graphs against real Paddle 3.3.1 (PIR): how ``Executor.run``
converts Python feed data (numpy reads it, then casts it to the input's dtype; other types
are refused), training loops, control flow and ``to_static``."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import assert_same, both_static, same_static_exception

pytest.importorskip("paddle")


def _both(fn):
    return both_static(fn, fresh_programs=True)


# ---- Python feed data ---------------------------------------------------------------------------
def _fed(data, shape=(-1, 3), dtype="float32"):
    """``fw -> the fetched x + 0`` of ``data`` fed to an input of ``shape`` and ``dtype``."""
    def build(fw):
        x = fw.static.data("x", list(shape), dtype)
        exe = fw.static.Executor(fw.CPUPlace())
        return exe.run(feed={"x": data}, fetch_list=[x + 0])
    return build


@pytest.mark.parametrize("data, shape, dtype", [
    (((1, 2, 3),), (-1, 3), "float32"),
    ([[1.7, 2, 3]], (-1, 3), "int32"),
    ([[2 ** 40, 1, 2]], (-1, 3), "int32"),      # numpy's cast wraps around
    (1 + 2j, (), "float32"),                    # ... and keeps the real part
    ([["1", "2.5", "3"]], (-1, 3), "float32"),
    (np.float64(2.5), (), "float32"),
    (True, (), "float32"),
    ([np.ones(3, "float32")], (-1, 3), "float64"),
])
def test_python_feed_data_is_cast_as_numpy_casts_it(data, shape, dtype):
    ours, theirs = _both(_fed(data, shape, dtype))
    assert_same(ours, theirs)


@pytest.mark.parametrize("data", [None, {1, 2, 3}, {"a": 1}, object(), [[1, None, 3]]])
def test_feed_data_numpy_cannot_read_as_numbers_is_a_type_error(data):
    same_static_exception(_fed(data))


@pytest.mark.parametrize("data", ["abc", [[1, 2], [3]]])
def test_feed_data_numpy_cannot_convert_is_a_value_error(data):
    same_static_exception(_fed(data))


# ---- Value.item ---------------------------------------------------------------------------------
_ARANGE = np.arange(6, dtype="float32").reshape(2, 3)


@pytest.mark.parametrize("shape, args", [
    ([1], ()), ([], ()), ([1], (0,)), ([2, 3], (4,)), ([2, 3], (1, 2)), ([2, 3], (0, -1)), ([6], (3,)),
])
def test_item_of_a_program_value_is_a_value(shape, args):
    """Paddle's program Values give ``item()`` as the Value itself (one element) or the element
    at ``args`` as a 0-D Value; the program goes on with it."""
    def build(fw):
        x = fw.static.data("x", shape, "float32")
        v = x.item(*args)
        out = v * fw.ones([2], "float32")
        exe = fw.static.Executor(fw.CPUPlace())
        return [list(v.shape), list(out.shape)] + exe.run(feed={"x": _ARANGE.reshape(-1)[:int(np.prod(shape))].reshape(shape)},
                                                          fetch_list=[v, out])
    ours, theirs = _both(build)
    assert_same(ours, theirs)


@pytest.mark.parametrize("shape, args", [
    ([2, 3], ()), ([1], (7,)), ([2, 3], (1, 1, 1)), ([2, 3], (1, 1.0)), ([2, 3], (2, 0)), ([-1, 3], ()),
])
def test_item_errors_of_program_values(shape, args):
    same_static_exception(lambda fw: fw.static.data("x", shape, "float32").item(*args))


def test_item_in_full_graph_to_static_keeps_the_gradient():
    """``to_static(full_graph=True)`` traces ``item()`` as the tensor itself (its gradient
    flows), while the default mode gives eager code's Python number."""
    from tests.reference import paddle_ref
    import pagaie
    out = []
    for fw in (pagaie, paddle_ref()):
        res = []
        for full_graph in (True, False):
            def f(x):
                return x * x.sum().item()
            g = fw.jit.to_static(f, full_graph=full_graph)
            x = fw.to_tensor(_ARANGE)
            x.stop_gradient = False
            y = g(x)
            res += [y.numpy(), fw.grad(y.sum(), x)[0].numpy()]
        out.append(res)
    assert_same(out[0], out[1])


# ---- no_grad_set values inside the graph ---------------------------------------------------------
def _fetch(fw, fetch):
    exe = fw.static.Executor(fw.CPUPlace())
    exe.run(fw.static.default_startup_program())
    return exe.run(feed={"x": _ARANGE - 2}, fetch_list=fetch)


def test_gradients_do_not_flow_through_no_grad_set_values():
    """An op result in ``no_grad_set`` is a constant for that ``gradients`` call only."""
    def build(fw):
        x = fw.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        y = x * 2
        y2 = fw.exp(x)
        z = (y * x + y2 * y).sum()
        gs = (fw.static.gradients([z], [x], no_grad_set=[y]) + fw.static.gradients([z], [x])
              + fw.static.gradients([z], [x], no_grad_set=[y, y2])
              + fw.static.gradients([z], [x, y2], no_grad_set=[y]))
        blocked = fw.static.gradients([fw.tanh(y).sum()], [x], no_grad_set=[y])
        return [blocked] + _fetch(fw, gs)
    ours, theirs = _both(build)
    assert_same(ours, theirs)


def test_append_backward_and_minimize_stop_at_no_grad_set_values():
    """Parameters reached only through a ``no_grad_set`` value get no gradient (None), so
    ``minimize`` leaves them as they are."""
    def build(fw):
        x = fw.static.data("x", [2, 3], "float32")
        w = fw.static.create_parameter([3], "float32", default_initializer=fw.nn.initializer.Constant(1.5))
        w2 = fw.static.create_parameter([3], "float32", default_initializer=fw.nn.initializer.Constant(0.5))
        y = x * w
        loss = (fw.tanh(y) * w2 * w).sum()
        pairs = fw.static.append_backward(loss, no_grad_set=[y])
        lin = fw.nn.Linear(3, 3, weight_attr=fw.ParamAttr(initializer=fw.nn.initializer.Constant(0.5)))
        h = lin(x)
        loss2 = (fw.nn.functional.sigmoid(h) * h).mean() + (lin.weight * 0.1).sum()
        fw.optimizer.SGD(0.5).minimize(loss2, no_grad_set=[h])
        grads = [g for _, g in pairs]
        return ([g is None for g in grads]
                + [_fetch(fw, [g for g in grads if g is not None] + [loss2]) for _ in range(2)])
    ours, theirs = _both(build)
    assert_same(ours, theirs)
