"""Session-20 sweep of static graphs against real Paddle 3.3.1 (PIR): how ``Executor.run``
converts Python feed data (numpy reads it, then casts it to the input's dtype; other types
are refused), a program Value's ``item()`` (in programs and ``to_static(full_graph=True)``),
gradients that stop at ``no_grad_set`` values, and ``minimize`` training loops."""
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


# ---- training loops -----------------------------------------------------------------------------
@pytest.mark.parametrize("make_opt", [
    lambda fw: fw.optimizer.Momentum(0.05, momentum=0.9, use_nesterov=True,
                                     weight_decay=fw.regularizer.L1Decay(0.01)),
    lambda fw: fw.optimizer.AdamW(0.01, grad_clip=fw.nn.ClipGradByGlobalNorm(0.5)),
    lambda fw: fw.optimizer.Adam(fw.optimizer.lr.StepDecay(0.05, 1, 0.5)),
])
def test_minimize_loops_give_paddles_losses(make_opt):
    """The same parameters (set through the scope) train to the same losses, with the
    learning-rate scheduler stepped between runs."""
    def build(fw):
        x = fw.static.data("x", [-1, 4], "float32")
        y = fw.static.data("y", [-1, 1], "float32")
        net = fw.nn.Sequential(fw.nn.Linear(4, 8), fw.nn.LayerNorm(8), fw.nn.GELU(), fw.nn.Linear(8, 1))
        loss = fw.nn.functional.mse_loss(net(x), y)
        opt = make_opt(fw)
        opt.minimize(loss)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(fw.static.default_startup_program())
        rng = np.random.RandomState(1)
        params = fw.static.default_main_program().global_block().all_parameters()
        for p in sorted((p for p in params if not p.stop_gradient), key=lambda p: p.name):
            fw.static.global_scope().find_var(p.name).get_tensor().set(
                rng.uniform(-0.5, 0.5, p.shape).astype("float32"), fw.CPUPlace())
        xs, ys = rng.rand(8, 4).astype("float32"), rng.rand(8, 1).astype("float32")
        losses = []
        for _ in range(4):
            losses += exe.run(feed={"x": xs, "y": ys}, fetch_list=[loss])
            if isinstance(opt._learning_rate, fw.optimizer.lr.LRScheduler):
                opt._learning_rate.step()
        return losses
    ours, theirs = _both(lambda fw: _named_afresh(fw, build))
    assert_same(ours, theirs, rtol=1e-4, atol=1e-6)


def _named_afresh(fw, build):
    """``build(fw)`` with fresh unique names (the parameters sort the same way in both)."""
    with fw.utils.unique_name.guard():
        return build(fw)
