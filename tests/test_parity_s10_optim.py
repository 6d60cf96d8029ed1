"""Session-10 differential sweep of optimizers, schedulers, clipping and regularizers against
real Paddle 3.3.1: the corners the earlier sweeps (s8, tests/optimizer/) left open --
``set_lr`` with a bool, Rprop's rounding with bfloat16 parameters, LBFGS's line-search step
kept as Paddle's int, plus trajectories with per-group hyper-parameters and clipping,
parameters without a gradient in some steps, and ``clear_grad(set_to_zero=False)``."""
import numpy as np
import pytest

from tests.reference import both, same_exception

_RS = np.random.RandomState(10)
W0 = _RS.randn(3, 2).astype("float32")
B0 = _RS.randn(2).astype("float32")
E0 = _RS.randn(4).astype("float32")
GRADS = [[_RS.randn(*v.shape).astype("float32") for v in (W0, B0, E0)] for _ in range(4)]


def _params(fw, dtype="float32"):
    ps = []
    for v in (W0, B0, E0):
        p = fw.create_parameter(list(v.shape), dtype, default_initializer=fw.nn.initializer.Constant(0.0))
        p.set_value(fw.to_tensor(v).astype(dtype))
        ps.append(p)
    return ps


def _backward(fw, ps, k, skip=()):
    terms = [(p.astype("float32") * fw.to_tensor(g)).sum()
             for i, (p, g) in enumerate(zip(ps, GRADS[k])) if i not in skip]
    if terms:
        sum(terms[1:], terms[0]).backward()


def _trajectory(fw, make, dtype="float32", skip=lambda k: (), set_to_zero=True):
    with fw.utils.unique_name.guard():
        ps = _params(fw, dtype)
        opt = make(fw, ps)
        out = []
        for k in range(len(GRADS)):
            _backward(fw, ps, k, skip(k))
            opt.step()
            opt.clear_grad(set_to_zero=set_to_zero)
            out.append([p.astype("float32").numpy().copy() for p in ps])
        state = {k: v.astype("float32").numpy() for k, v in opt.state_dict().items() if hasattr(v, "numpy")}
        return out, state


def _assert_same_trajectory(make, rtol=2e-5, atol=2e-6, **kw):
    (ours, s_ours), (theirs, s_theirs) = both(lambda fw: _trajectory(fw, make, **kw))
    for k, (a, b) in enumerate(zip(ours, theirs)):
        for i, (x, y) in enumerate(zip(a, b)):
            np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=f"step {k}, parameter {i}")
    assert sorted(s_ours) == sorted(s_theirs)
    for k in s_theirs:
        np.testing.assert_allclose(s_ours[k], s_theirs[k], rtol=rtol, atol=atol, err_msg=k)


# ---- set_lr ------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [True, False, 2, np.float64(0.25)])
def test_set_lr_takes_what_paddle_takes(value):
    """Paddle's check is isinstance(value, (int, float)): a bool is an int."""
    def f(fw):
        with fw.utils.unique_name.guard():
            opt = fw.optimizer.SGD(0.1, parameters=_params(fw))
            opt.set_lr(value)
            return opt.get_lr(), type(opt.get_lr()).__name__
    ours, theirs = both(f)
    assert ours == theirs


def test_set_lr_true_drives_the_update_like_paddle():
    def make(fw, ps):
        opt = fw.optimizer.SGD(0.1, parameters=ps)
        opt.set_lr(True)
        return opt
    _assert_same_trajectory(make)


# ---- Rprop with bfloat16 parameters ---------------------------------------------------------
@pytest.mark.parametrize("etas", [(0.5, 1.2), (0.3, 1.7)])
def test_rprop_bfloat16_rounds_etas_and_step_sizes_like_paddle(etas):
    """Paddle's kernel multiplies the bfloat16 step sizes by etas stored in bfloat16
    (1.2 -> 1.203125) and moves the parameter by the rounded, stored step size."""
    def make(fw, ps):
        return fw.optimizer.Rprop(0.1, parameters=ps, etas=etas)
    _assert_same_trajectory(make, dtype="bfloat16", rtol=0, atol=0)


def test_rprop_float32_unchanged_by_the_bfloat16_rounding():
    def make(fw, ps):
        return fw.optimizer.Rprop(0.05, parameters=ps, learning_rate_range=(1e-3, 0.2), etas=(0.4, 1.3))
    _assert_same_trajectory(make)


# ---- LBFGS --------------------------------------------------------------------------------
_A = np.random.RandomState(5).randn(5, 3).astype("float32")
_Y = np.random.RandomState(6).randn(5, 2).astype("float32")


def test_lbfgs_strong_wolfe_step_keeps_paddles_int_type():
    """With an int learning rate the line search's step stays an int (0 when it falls back
    to the bracket's start), as in Paddle's state."""
    def f(fw):
        with fw.utils.unique_name.guard():
            ps = _params(fw)[:2]
            opt = fw.optimizer.LBFGS(parameters=ps, learning_rate=1, max_iter=10, line_search_fn="strong_wolfe")

            def closure():
                opt.clear_grad()
                loss = ((fw.to_tensor(_A) @ ps[0] + ps[1] - fw.to_tensor(_Y)) ** 2).mean()
                loss.backward()
                return loss
            alphas, first = [], None
            for _ in range(2):
                opt.step(closure)
                alpha = opt.state_dict()["state"]["alpha"]
                alphas.append((type(alpha).__name__, alpha) if isinstance(alpha, (int, float)) else "tensor")
                first = first or [p.numpy() for p in ps]
            return alphas, first
    (a_ours, p_ours), (a_theirs, p_theirs) = both(f)
    # the first step (value and parameters), and every step's type: whether the second step's
    # search falls back to the bracket's start (0) turns on float32 rounding that differs
    # between CPUs
    assert a_ours[0] == a_theirs[0] and [t for t, _ in a_ours] == [t for t, _ in a_theirs]
    for x, y in zip(p_ours, p_theirs):   # ten float32 iterations: a few 1e-4 apart on some CPUs
        np.testing.assert_allclose(x, y, rtol=1e-3, atol=1e-3)


# ---- trajectories the earlier sweeps did not run --------------------------------------------
ALL = ["SGD", "Momentum", "Adam", "AdamW", "Adamax", "Adagrad", "Adadelta", "RMSProp", "Lamb",
       "NAdam", "RAdam", "ASGD", "Rprop"]


@pytest.mark.parametrize("name", ALL)
def test_parameter_without_gradient_in_some_steps_is_left_alone_like_paddle(name):
    def make(fw, ps):
        return getattr(fw.optimizer, name)(0.1, parameters=ps)
    _assert_same_trajectory(make, skip=lambda k: (2,) if k in (0, 2) else ())


@pytest.mark.parametrize("name", ["Momentum", "Adam", "RMSProp", "ASGD", "Rprop", "Adadelta"])
def test_clear_grad_without_zeroing_skips_gradless_steps_like_paddle(name):
    def make(fw, ps):
        return getattr(fw.optimizer, name)(0.1, parameters=ps)
    _assert_same_trajectory(make, skip=lambda k: (0, 1, 2) if k == 2 else (), set_to_zero=False)


_GROUP_KW = {
    "Adam": dict(beta1=0.5, beta2=0.9, epsilon=1e-3),
    "AdamW": dict(beta1=0.5, beta2=0.9, epsilon=1e-3, weight_decay=0.3),
    "Adagrad": dict(epsilon=1e-2, initial_accumulator_value=0.5),
    "Adadelta": dict(epsilon=1e-2, rho=0.5),
    "RMSProp": dict(rho=0.5, epsilon=1e-2, momentum=0.3, centered=True),
    "Momentum": dict(momentum=0.3, use_nesterov=True),
    "Lamb": dict(beta1=0.5, beta2=0.9, epsilon=1e-3, lamb_weight_decay=0.3),
    "NAdam": dict(beta1=0.5, beta2=0.9, epsilon=1e-3, momentum_decay=0.01),
}


@pytest.mark.parametrize("name", sorted(_GROUP_KW))
def test_group_hyperparameters_apply_to_their_group_only_like_paddle(name):
    def make(fw, ps):
        groups = [{"params": ps[1:]}, dict(params=[ps[0]], learning_rate=0.5, **_GROUP_KW[name])]
        return getattr(fw.optimizer, name)(0.1, parameters=groups)
    _assert_same_trajectory(make)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "Momentum", "Lamb"])
@pytest.mark.parametrize("clip", ["global", "norm", "value"])
def test_group_grad_clip_overrides_the_optimizers_like_paddle(name, clip):
    def make(fw, ps):
        c = {"global": fw.nn.ClipGradByGlobalNorm(0.5), "norm": fw.nn.ClipGradByNorm(0.5),
             "value": fw.nn.ClipGradByValue(0.1)}[clip]
        groups = [dict(params=[ps[0]], grad_clip=c), dict(params=ps[1:])]
        return getattr(fw.optimizer, name)(0.1, parameters=groups, grad_clip=fw.nn.ClipGradByGlobalNorm(1.0))
    _assert_same_trajectory(make)


def test_adamw_takes_a_tensor_weight_decay_like_paddle():
    def make(fw, ps):
        return fw.optimizer.AdamW(0.05, parameters=ps, weight_decay=fw.to_tensor(0.1))
    _assert_same_trajectory(make)


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "Adamax", "RMSProp", "NAdam", "ASGD"])
def test_tensor_weight_decay_fails_on_the_first_step_like_paddle(name):
    def f(fw):
        with fw.utils.unique_name.guard():
            ps = _params(fw)
            opt = getattr(fw.optimizer, name)(0.05, parameters=ps, weight_decay=fw.to_tensor(0.1))
            _backward(fw, ps, 0)
            opt.step()
    err = same_exception(f)
    assert name in str(err) and "weight_decay" in str(err)


@pytest.mark.parametrize("make", [
    lambda fw, ps: fw.optimizer.SGD(fw.to_tensor(0.05), parameters=ps),
    lambda fw, ps: fw.optimizer.Adam(0.05, parameters=ps).set_lr(np.float32(0.1)),
    lambda fw, ps: fw.optimizer.Adam(0.05, parameters=ps).set_lr(fw.to_tensor(0.1)),
    lambda fw, ps: fw.optimizer.Adam(0.05, parameters=ps).set_lr_scheduler(None),
    lambda fw, ps: fw.optimizer.Adam(fw.optimizer.lr.StepDecay(0.1, 2), parameters=ps).set_lr(True),
])
def test_learning_rate_errors_like_paddle(make):
    def f(fw):
        with fw.utils.unique_name.guard():
            make(fw, _params(fw))
    same_exception(f)
