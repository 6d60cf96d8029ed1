"""Session-8 differential sweep of optimizers, clipping and regularizers against real
Paddle 3.3.1: parameter trajectories over several steps with identical gradients, state
dicts (names, dtypes, shapes) including float16/bfloat16 parameters, checkpoints given as
Paddle-named numpy dicts, and the clipping / regularizer argument checks."""
import copy

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

ALL = ["SGD", "Momentum", "Adam", "AdamW", "Adamax", "Adagrad", "Adadelta", "RMSProp", "Lamb",
       "NAdam", "RAdam", "ASGD", "Rprop"]
_MP = ("SGD", "Momentum", "Adam", "AdamW", "Lamb", "ASGD", "Rprop")  # take multi_precision

_RS = np.random.RandomState(8)
W0 = _RS.randn(3, 2).astype("float32")
B0 = _RS.randn(2).astype("float32")
GRADS = [[_RS.randn(3, 2).astype("float32"), _RS.randn(2).astype("float32")] for _ in range(6)]


def _params(fw, dtype="float32", attrs=(None, None)):
    ps = []
    for value, attr in zip((W0, B0), attrs):
        kw = {} if attr is None else {"attr": attr(fw)}
        p = fw.create_parameter(list(value.shape), dtype, **kw)
        p.set_value(fw.to_tensor(value).astype(dtype))
        ps.append(p)
    return ps


def _steps(fw, ps, opt, k0, k1):
    for k in range(k0, k1):
        loss = sum((p.astype("float32") * fw.to_tensor(g)).sum() for p, g in zip(ps, GRADS[k]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched = opt._learning_rate
        if isinstance(sched, fw.optimizer.lr.LRScheduler):
            sched.step()
    return [p.astype("float32").numpy().copy() for p in ps]


def _trajectory(fw, make, attrs=(None, None), steps=6):
    with fw.utils.unique_name.guard():
        ps = _params(fw, attrs=attrs)
        opt = make(fw, ps)
        return [_steps(fw, ps, opt, k, k + 1) for k in range(steps)]


def _assert_trajectories(make, attrs=(None, None)):
    ours, theirs = both(lambda fw: _trajectory(fw, make, attrs))
    for k, (a, b) in enumerate(zip(ours, theirs)):
        for i, (x, y) in enumerate(zip(a, b)):
            np.testing.assert_allclose(x, y, rtol=2e-5, atol=2e-6, err_msg=f"step {k}, parameter {i}")


# ---- trajectories: weight decay forms, clipping, need_clip, parameter groups -------------
_CLIPS = {
    "value": lambda fw: fw.nn.ClipGradByValue(0.5, -0.2),
    "norm": lambda fw: fw.nn.ClipGradByNorm(0.7),
    "global": lambda fw: fw.nn.ClipGradByGlobalNorm(0.7, group_name="g"),
}


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "Adamax", "RMSProp", "NAdam", "ASGD"])
@pytest.mark.parametrize("decay", ["float", "L1", "attr_wins"])
def test_weight_decay_forms_follow_paddle_over_steps(name, decay):
    def make(fw, ps):
        wd = 0.05 if decay == "float" else fw.regularizer.L1Decay(0.05)
        return getattr(fw.optimizer, name)(learning_rate=0.1, parameters=ps, weight_decay=wd)
    attrs = ((lambda fw: fw.ParamAttr(regularizer=fw.regularizer.L2Decay(0.3))), None) \
        if decay == "attr_wins" else (None, None)
    _assert_trajectories(make, attrs)


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "AdamW", "Lamb", "RMSProp"])
@pytest.mark.parametrize("clip", sorted(_CLIPS))
@pytest.mark.parametrize("need_clip", [True, False])
def test_grad_clip_and_need_clip_follow_paddle_over_steps(name, clip, need_clip):
    def make(fw, ps):
        return getattr(fw.optimizer, name)(learning_rate=0.1, parameters=ps, grad_clip=_CLIPS[clip](fw))
    attrs = (None, None) if need_clip else ((lambda fw: fw.ParamAttr(need_clip=False)), None)
    _assert_trajectories(make, attrs)


@pytest.mark.parametrize("name", ALL)
def test_parameter_groups_with_own_lr_and_decay_follow_paddle(name):
    def make(fw, ps):
        # AdamW takes only a float decay per group (Paddle raises TypeError otherwise)
        decay = 0.2 if name == "AdamW" else fw.regularizer.L1Decay(0.2)
        groups = [{"params": [ps[0]], "learning_rate": 0.5, "weight_decay": decay},
                  {"params": [ps[1]]}]
        lr = 0.1 if name == "Rprop" else fw.optimizer.lr.ExponentialDecay(0.1, 0.9)
        return getattr(fw.optimizer, name)(learning_rate=lr, parameters=groups)
    _assert_trajectories(make)


# ---- state dicts --------------------------------------------------------------------------
def _describe(state):
    out = {}
    for k, v in state.items():
        if isinstance(v, dict):
            out[k] = _describe(v)
        elif hasattr(v, "numpy"):
            out[k] = (str(v.dtype).replace("paddle.", ""), list(v.shape), v.name)
        else:
            out[k] = v
    return out


def _low_precision_state(fw, name, dtype, mp):
    with fw.utils.unique_name.guard():
        p = fw.create_parameter([2, 2], dtype, default_initializer=fw.nn.initializer.Constant(0.5))
        kw = {"multi_precision": mp} if name in _MP else {}
        opt = getattr(fw.optimizer, name)(0.1, parameters=[p], **kw)
        (p.astype("float32") * 2).sum().backward()
        try:
            opt.step()  # Paddle's CPU build has no float16 kernels: its accumulators exist by then
        except RuntimeError:
            pass
        return _describe(opt.state_dict()), p.dtype


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("mp", [False, True])
def test_float16_accumulator_names_dtypes_shapes_match_paddle(name, mp):
    """Momentum (without master weights), Adagrad, Adadelta, RMSProp, Adamax's beta1 power and
    Rprop/ASGD (even with master weights) keep state in the parameter's dtype, as Paddle."""
    if mp and name not in _MP:
        pytest.skip("no multi_precision argument")
    (ours, odt), (theirs, tdt) = both(lambda fw: _low_precision_state(fw, name, "float16", mp))
    assert ours == theirs


@pytest.mark.parametrize("name", ["Momentum", "Adagrad", "Adadelta", "RMSProp", "Adamax", "Rprop", "ASGD"])
def test_bfloat16_accumulator_dtypes_match_paddle(name):
    def f(fw):
        with fw.utils.unique_name.guard():
            p = fw.create_parameter([3], "float32")  # Paddle cannot initialise bfloat16 itself
            p = fw.create_parameter([3], "bfloat16", default_initializer=fw.nn.initializer.Constant(0.5))
            opt = getattr(fw.optimizer, name)(0.1, parameters=[p])
            (p.astype("float32") * 2).sum().backward()
            try:
                opt.step()
            except RuntimeError:
                pass
            return _describe(opt.state_dict())
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("name", ["Momentum", "Adagrad", "Adadelta", "RMSProp", "Adamax", "Rprop", "ASGD"])
@pytest.mark.parametrize("mp", [False, True])
def test_float16_state_still_trains_like_float32(name, mp):
    """Low-precision state is computed in float32 and rounded back: the float16 trajectory
    stays within float16 rounding of the float32 one (pagaie only: Paddle's CPU build has
    no float16 optimizer kernels)."""
    if mp and name not in _MP:
        pytest.skip("no multi_precision argument")
    kw = {"multi_precision": mp} if name in _MP else {}

    def run(dtype):
        with pagaie.utils.unique_name.guard():
            ps = _params(pagaie, dtype)
            opt = getattr(pagaie.optimizer, name)(learning_rate=0.05, parameters=ps, **kw)
            return _steps(pagaie, ps, opt, 0, 4), opt
    ref, _ = run("float32")
    got, opt = run("float16")
    for a, b in zip(got, ref):
        np.testing.assert_allclose(a, b, atol=5e-3)


@pytest.mark.parametrize("name", ALL)
def test_paddle_named_numpy_state_resumes_both_ways(name):
    """A state dict turned into numpy arrays under Paddle's names, loaded into a fresh
    optimizer of either framework, continues with the trajectory its writer gets."""
    def make(fw):
        ps = _params(fw)
        kw = {"learning_rate": 0.1 if name == "Rprop" else fw.optimizer.lr.ExponentialDecay(0.1, 0.9)}
        kw.update({"ASGD": {"batch_num": 3}, "RMSProp": {"centered": True, "momentum": 0.4},
                   "Adam": {"amsgrad": True}}.get(name, {}))
        return ps, getattr(fw.optimizer, name)(parameters=ps, **kw)

    saved = {}
    for fw in (pagaie, paddle_ref()):
        with fw.utils.unique_name.guard():
            ps, opt = make(fw)
            _steps(fw, ps, opt, 0, 3)
            state = {k: (v.numpy().copy() if hasattr(v, "numpy") else copy.deepcopy(v))
                     for k, v in opt.state_dict().items()}
            values = [p.numpy().copy() for p in ps]
            saved[fw.__name__] = (state, values, _steps(fw, ps, opt, 3, 6))
    for writer in saved.values():
        state, values, expected = writer
        for fw in (pagaie, paddle_ref()):
            with fw.utils.unique_name.guard():
                ps, opt = make(fw)
                for p, v in zip(ps, values):
                    p.set_value(v)
                opt.set_state_dict(dict(state))
                got = _steps(fw, ps, opt, 3, 6)
            for a, b in zip(got, expected):
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# ---- clipping -----------------------------------------------------------------------------
def _pairs(fw, grads):
    out = []
    for g in grads:
        p = fw.create_parameter(list(np.shape(g)), "float32")
        out.append((p, fw.to_tensor(np.asarray(g, dtype="float32"))))
    return out


def test_clip_by_value_with_min_above_max_raises_on_use_like_paddle():
    clip_of = lambda fw: fw.nn.ClipGradByValue(1.0, 2.0)  # noqa: E731
    both(clip_of)  # constructing is accepted by both
    exc = same_exception(lambda fw: clip_of(fw)(_pairs(fw, [[3.0, -4.0]])))
    assert "ClipGradByValue" in str(exc) and "2.0" in str(exc)


@pytest.mark.parametrize("clip_norm", [0.0, -1.0])
def test_clip_by_norm_with_non_positive_bound_raises_on_use_like_paddle(clip_norm):
    exc = same_exception(lambda fw: fw.nn.ClipGradByNorm(clip_norm)(_pairs(fw, [[3.0, -4.0]])))
    assert "ClipGradByNorm" in str(exc) and "clip_norm" in str(exc)


def test_clip_by_norm_nan_gradient_becomes_all_nan_like_paddle():
    ours, theirs = both(lambda fw: [g for _, g in fw.nn.ClipGradByNorm(1.0)(_pairs(fw, [[np.nan, 1.0], [2.0]]))])
    assert_same(ours, theirs)


@pytest.mark.parametrize("bound", [1.0, 100.0])
def test_global_norm_clip_of_a_0d_gradient_has_shape_1_like_paddle(bound):
    ours, theirs = both(lambda fw: [g for _, g in fw.nn.ClipGradByGlobalNorm(bound)(_pairs(fw, [3.0, [4.0]]))])
    assert_same(ours, theirs)


@pytest.mark.parametrize("clip", sorted(_CLIPS))
@pytest.mark.parametrize("name", ["SGD", "Adam", "Momentum"])
def test_0d_parameter_trains_under_clipping_like_paddle(clip, name):
    def f(fw):
        with fw.utils.unique_name.guard():
            p = fw.create_parameter([], "float32")
            p.set_value(fw.to_tensor(2.0))
            q = fw.create_parameter([2], "float32")
            q.set_value(fw.to_tensor([1.0, 2.0]))
            opt = getattr(fw.optimizer, name)(0.1, parameters=[p, q], grad_clip=_CLIPS[clip](fw))
            for _ in range(3):
                (p * 3 + (q * q).sum()).backward()
                opt.step()
                opt.clear_grad()
            return [p, q]
    ours, theirs = both(f)
    assert_same(ours, theirs)


# ---- regularizers -------------------------------------------------------------------------
@pytest.mark.parametrize("cls", ["L1Decay", "L2Decay"])
def test_regularizer_coeff_none_asserts_like_paddle(cls):
    same_exception(lambda fw: getattr(fw.regularizer, cls)(None))


@pytest.mark.parametrize("cls", ["L1Decay", "L2Decay"])
@pytest.mark.parametrize("coeff", [np.float32(0.25), np.float64(0.5), np.int64(1)])
def test_regularizer_takes_numpy_scalars_like_paddle(cls, coeff):
    ours, theirs = both(lambda fw: str(getattr(fw.regularizer, cls)(coeff)))
    assert ours == theirs

    def make(fw, ps):
        return fw.optimizer.SGD(0.1, parameters=ps, weight_decay=getattr(fw.regularizer, cls)(coeff))
    _assert_trajectories(make)
