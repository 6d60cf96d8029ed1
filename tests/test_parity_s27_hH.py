"""Session-27 cases mined from Paddle's own optimizer, clipping and initializer tests, run
against real Paddle 3.3.1: what ``print`` shows for an AdamW; the gradient-norm clippers
refusing gradients that are not floating point (Paddle's norm kernels have none for them);
Adamax and RAdam on 0-D and empty parameters; LBFGS and ``clip_grad_norm_(norm_type=inf)``
over gradients without elements; optimizers refusing complex parameters; TruncatedNormal's
bounds when ``a > b``."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception

pytest.importorskip("paddle")


def _linear(fw):
    fw.seed(1)
    return fw.nn.Linear(3, 2)


@pytest.mark.parametrize("kwargs", [{}, {"apply_decay_param_fun": lambda name: True, "weight_decay": 0.3}])
def test_adamw_str(kwargs):
    def printed(fw):
        lin = _linear(fw)
        opt = fw.optimizer.AdamW(learning_rate=0.1, parameters=lin.parameters(), **kwargs)
        before = str(opt)
        lin(fw.ones([1, 3])).sum().backward()
        opt.step()
        return before, str(opt)
    ours, theirs = both(printed)
    assert ours == theirs


@pytest.mark.parametrize("clip", ["ClipGradByNorm", "ClipGradByGlobalNorm"])
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool"])
def test_norm_clippers_refuse_non_float_gradients(clip, dtype):
    def call(fw):
        grad = fw.to_tensor(np.array([2, 3])).astype(dtype)
        return getattr(fw.nn, clip)(0.8)([(fw.ones([2]), grad)])
    err = same_exception(call)
    assert clip in str(err) and dtype in str(err)


@pytest.mark.parametrize("clip", ["ClipGradByNorm", "ClipGradByGlobalNorm"])
def test_norm_clippers_float_gradients_unchanged(clip):
    def call(fw):
        pairs = [(fw.ones([2]), fw.to_tensor(np.array([2.0, 3.0], "float32"))),
                 (fw.ones([1]), fw.to_tensor(np.array([4.0], "float32")))]
        return [g.numpy() for _, g in getattr(fw.nn, clip)(0.8)(pairs)]
    ours, theirs = both(call)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("cls", ["Adamax", "RAdam"])
@pytest.mark.parametrize("shape", [[], [0, 3], [1]])
def test_optimizers_step_0d_and_empty_parameters(cls, shape):
    def train(fw):
        w = fw.create_parameter(shape, "float32", default_initializer=fw.nn.initializer.Constant(0.7))
        v = fw.create_parameter([2], "float32", default_initializer=fw.nn.initializer.Constant(-0.4))
        opt = getattr(fw.optimizer, cls)(learning_rate=0.1, parameters=[w, v])
        for _ in range(3):
            ((w * w * 3.0).sum() + (v * v).sum()).backward()
            opt.step()
            opt.clear_grad()
        return [w.numpy(), v.numpy()]
    ours, theirs = both(train)
    for a, b in zip(ours, theirs):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5)


def test_lbfgs_on_parameters_without_elements():
    def train(fw):
        w = fw.create_parameter([0, 3], "float32")
        opt = fw.optimizer.LBFGS(learning_rate=0.5, parameters=[w], max_iter=3)

        def closure():
            opt.clear_grad()
            loss = (w * w).sum()
            loss.backward()
            return loss
        opt.step(closure)
    same_exception(train)


def _with_grad(fw, shape, value):
    x = fw.to_tensor(np.ones(shape, "float32"))
    x.grad = fw.to_tensor(np.full(shape, value, "float32"))
    return x


@pytest.mark.parametrize("shape", [[0], [0, 3]])
def test_clip_grad_norm_inf_of_empty_gradients(shape):
    err = same_exception(lambda fw: fw.nn.utils.clip_grad_norm_(_with_grad(fw, shape, 2.0), 0.5,
                                                                norm_type=float("inf")))
    assert "clip_grad_norm_" in str(err)


def test_clip_grad_norm_inf_skips_an_empty_gradient():
    # Paddle fails taking the max of the empty gradient; the others decide the norm, as they
    # do for Paddle when the empty parameter is left out
    def clip(fw, with_empty):
        params = [_with_grad(fw, [2], -3.0)] + ([_with_grad(fw, [0, 3], 1.0)] if with_empty else [])
        total = fw.nn.utils.clip_grad_norm_(params, 0.5, norm_type=float("inf"))
        return total.numpy(), params[0].grad.numpy()
    ours, theirs = both(lambda fw: clip(fw, fw.__name__ == "pagaie"))
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("cls", ["SGD", "Adam", "Adagrad", "RAdam", "Rprop"])
def test_optimizers_refuse_complex_parameters(cls):
    def step(fw):
        w = fw.to_tensor(np.array([1 + 1j, 2 - 1j], "complex64"))
        w.stop_gradient = False
        opt = getattr(fw.optimizer, cls)(learning_rate=0.1, parameters=[w])
        (w.abs() ** 2).sum().backward()
        opt.step()
    err = same_exception(step)
    assert cls in str(err) and "complex64" in str(err)


@pytest.mark.parametrize("a, b", [(2.0, -2.0), (-1.0, 0.5)])
def test_truncated_normal_bounds(a, b):
    def draw(fw):
        fw.seed(7)
        init = fw.nn.initializer.TruncatedNormal(0.0, 1.0, a=a, b=b)
        return fw.create_parameter([4, 6], "float32", default_initializer=init).numpy()
    ours, theirs = both(draw)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_global_learning_rate_dygraph():
    def rates(fw):
        fw.seed(1)
        lin = fw.nn.Linear(2, 2)
        opt = fw.optimizer.Adam(fw.optimizer.lr.StepDecay(0.5, 1), parameters=lin.parameters())
        out = [opt._global_learning_rate() is None]
        for _ in range(2):
            lin(fw.ones([1, 2])).sum().backward()
            opt.step()
            lr = opt._global_learning_rate()
            out += [str(lr.dtype), list(lr.shape), float(lr)]
            opt._learning_rate.step()
        out.append(float(opt._global_learning_rate()))   # the rate of the last step
        return out
    ours, theirs = both(rates)
    assert ours == theirs


def test_global_learning_rate_fetched_from_a_program():
    def fetched(fw):
        fw.enable_static()
        try:
            main, startup = fw.static.Program(), fw.static.Program()
            sched = fw.optimizer.lr.PiecewiseDecay([1, 2], [0.3, 0.2, 0.1])
            with fw.static.program_guard(main, startup):
                x = fw.static.data("x", [3, 4], "float32")
                loss = fw.mean(fw.nn.Linear(4, 2)(x))
                opt = fw.optimizer.Adam(sched)
                before = opt._global_learning_rate()
                opt.minimize(loss)
                lr = opt._global_learning_rate()
            exe = fw.static.Executor(fw.CPUPlace())
            exe.run(startup)
            got = []
            for _ in range(3):
                got.append(exe.run(main, feed={"x": np.ones([3, 4], "float32")}, fetch_list=[lr])[0])
                sched.step()
            return before is None, list(lr.shape), np.array(got)
        finally:
            fw.disable_static()
    ours, theirs = both(fetched)
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)


@pytest.mark.parametrize("method", ["set_lr", "set_lr_scheduler"])
def test_lr_setters_are_dynamic_only(method):
    def call(fw):
        fw.enable_static()
        try:
            opt = fw.optimizer.Adam(0.1)
            arg = 0.3 if method == "set_lr" else fw.optimizer.lr.StepDecay(0.1, 1)
            getattr(opt, method)(arg)
        finally:
            fw.disable_static()
    assert method in str(same_exception(call))
