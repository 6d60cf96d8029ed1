"""Differential sweep of ``paddle.optimizer`` against real Paddle 3.3.1 (eager): the state
dict after 0, 1 and 3 steps, checkpoints moving both ways, parameter groups and the
argument checks."""
import numpy as np
import pytest

from tests.reference import assert_same, both, paddle_ref, same_exception

X = np.random.RandomState(1).randn(4, 3).astype("float32")
W0 = np.array([[0.3, -0.7], [0.45, 0.12], [-0.5, 0.9]], dtype="float32")
B0 = np.array([0.1, -0.2], dtype="float32")

OPTIMIZERS = {
    "SGD": lambda fw, p: fw.optimizer.SGD(0.1, parameters=p),
    "Momentum": lambda fw, p: fw.optimizer.Momentum(0.1, parameters=p, use_nesterov=True, weight_decay=0.1),
    "Adam": lambda fw, p: fw.optimizer.Adam(fw.optimizer.lr.StepDecay(0.1, 2, 0.5), parameters=p),
    "AdamW": lambda fw, p: fw.optimizer.AdamW(0.1, parameters=p, amsgrad=True,
                                              apply_decay_param_fun=lambda n: n.endswith("w_0")),
    "Adamax": lambda fw, p: fw.optimizer.Adamax(0.1, parameters=p, weight_decay=0.1),
    "Adagrad": lambda fw, p: fw.optimizer.Adagrad(0.1, parameters=p, initial_accumulator_value=0.3),
    "Adadelta": lambda fw, p: fw.optimizer.Adadelta(0.5, parameters=p),
    "RMSProp": lambda fw, p: fw.optimizer.RMSProp(0.1, parameters=p, centered=True, momentum=0.5),
    "Lamb": lambda fw, p: fw.optimizer.Lamb(0.1, parameters=p, lamb_weight_decay=0.1),
    "NAdam": lambda fw, p: fw.optimizer.NAdam(0.1, parameters=p),
    "RAdam": lambda fw, p: fw.optimizer.RAdam(0.1, parameters=p),
    "ASGD": lambda fw, p: fw.optimizer.ASGD(0.1, batch_num=2, parameters=p),
    "Rprop": lambda fw, p: fw.optimizer.Rprop(0.1, parameters=p),
}


def _linear(fw):
    layer = fw.nn.Linear(3, 2)
    layer.weight.set_value(W0)
    layer.bias.set_value(B0)
    return layer


def _loss(fw, layer):
    loss = (layer(fw.to_tensor(X)) ** 2).mean()
    loss.backward()
    return loss


def _train(fw, layer, opt, steps):
    losses = []
    for _ in range(steps):
        losses.append(float(_loss(fw, layer)))
        opt.step()
        opt.clear_grad()
        sched = opt._learning_rate
        if isinstance(sched, fw.optimizer.lr.LRScheduler):
            sched.step()
    return losses


def _describe(state):
    """Keys, kinds, dtypes, shapes and values of a state dict, framework-neutral."""
    out = {}
    for k, v in state.items():
        if isinstance(v, dict):
            out[k] = _describe(v)
        elif hasattr(v, "numpy"):
            out[k] = (str(v.dtype).replace("paddle.", ""), list(v.shape), np.asarray(v.numpy()))
        else:
            out[k] = v
    return out


def _assert_same_state(ours, theirs, path="state"):
    assert list(ours) == list(theirs), f"{path}: keys {list(ours)} vs Paddle's {list(theirs)}"
    for k, b in theirs.items():
        a = ours[k]
        if isinstance(b, dict):
            _assert_same_state(a, b, f"{path}[{k!r}]")
        elif isinstance(b, tuple):
            assert a[:2] == b[:2], f"{path}[{k!r}]: {a[:2]} vs Paddle's {b[:2]}"
            np.testing.assert_allclose(a[2], b[2], rtol=1e-5, atol=1e-6, err_msg=f"{path}[{k!r}]")
        else:
            assert a == b, f"{path}[{k!r}]: {a} vs Paddle's {b}"


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_state_dict_after_0_1_3_steps_matches_paddle(name):
    def f(fw):
        with fw.utils.unique_name.guard():
            layer = _linear(fw)
            opt = OPTIMIZERS[name](fw, layer.parameters())
            states = [_describe(opt.state_dict())]
            losses = _train(fw, layer, opt, 1)
            states.append(_describe(opt.state_dict()))
            losses += _train(fw, layer, opt, 2)
            states.append(_describe(opt.state_dict()))
            return states, losses, layer.weight.numpy()

    (ours, l_ours, w_ours), (theirs, l_theirs, w_theirs) = both(f)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        _assert_same_state(a, b, f"{name} state after step {[0, 1, 3][i]}")
    np.testing.assert_allclose(l_ours, l_theirs, rtol=1e-5)
    np.testing.assert_allclose(w_ours, w_theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["Adam", "Momentum", "AdamW", "Rprop"])
@pytest.mark.parametrize("direction", ["paddle_to_pagaie", "pagaie_to_paddle"])
def test_checkpoint_moves_between_frameworks(name, direction, tmp_path):
    """A .pdopt/.pdparams written by one framework resumes training in the other with the
    losses the writer itself gets."""
    import pagaie
    ref = paddle_ref()
    writer, reader = (ref, pagaie) if direction == "paddle_to_pagaie" else (pagaie, ref)
    with writer.utils.unique_name.guard():
        layer = _linear(writer)
        opt = OPTIMIZERS[name](writer, layer.parameters())
        _train(writer, layer, opt, 2)
        writer.save(layer.state_dict(), str(tmp_path / "m.pdparams"))
        writer.save(opt.state_dict(), str(tmp_path / "m.pdopt"))
        expected = _train(writer, layer, opt, 2)
    with reader.utils.unique_name.guard():
        layer = _linear(reader)
        opt = OPTIMIZERS[name](reader, layer.parameters())
        layer.set_state_dict(reader.load(str(tmp_path / "m.pdparams")))
        opt.set_state_dict(reader.load(str(tmp_path / "m.pdopt")))
        got = _train(reader, layer, opt, 2)
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_adamw_parameter_groups_carry_all_defaults_like_paddle():
    # Paddle's AdamW fills every group with beta1, beta2, epsilon, lazy_mode, weight_decay
    # and grad_clip; a group's own beta1 / weight_decay / learning_rate still win.
    def f(fw):
        with fw.utils.unique_name.guard():
            layer = _linear(fw)
            opt = fw.optimizer.AdamW(0.1, weight_decay=0.01, parameters=[
                {"params": [layer.weight], "beta1": 0.5, "weight_decay": 0.3},
                {"params": [layer.bias], "learning_rate": 0.5}])
            keys = [sorted(g) for g in opt._param_groups]
            values = [(g["beta1"], g["beta2"], g["epsilon"], g["lazy_mode"], g["weight_decay"])
                      for g in opt._param_groups]
            _train(fw, layer, opt, 2)
            return keys, values, layer.weight.numpy(), layer.bias.numpy()

    ours, theirs = both(f)
    assert ours[:2] == theirs[:2]
    assert_same(list(ours[2:]), list(theirs[2:]), rtol=1e-5)


@pytest.mark.parametrize("opt_name", ["SGD", "Adam", "Momentum", "RMSProp", "Lamb"])
def test_group_learning_rate_tensor_is_the_rate_itself(opt_name):
    # A float group learning_rate scales the global rate; a Tensor one replaces it.
    def f(fw):
        w = fw.create_parameter([2], "float32",
                                default_initializer=fw.nn.initializer.Assign(np.array([1.0, 2.0], "float32")))
        opt = getattr(fw.optimizer, opt_name)(0.1, parameters=[{"params": [w], "learning_rate": fw.to_tensor(2.0)}])
        for _ in range(2):
            (w * w * fw.to_tensor([1.0, 3.0])).sum().backward()
            opt.step()
            opt.clear_grad()
        return w

    assert_same(*both(f), rtol=1e-5)


BAD = {
    "adamw_lr_ratio_not_callable": lambda fw: fw.optimizer.AdamW(0.1, lr_ratio=0.5,
                                                                 parameters=_linear(fw).parameters()),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_arguments_raise_like_paddle(name):
    same_exception(BAD[name])


@pytest.mark.parametrize("when", ["after_step", "before_step"])
def test_set_state_dict_wrong_shape_asserts_like_paddle(when):
    def f(fw):
        with fw.utils.unique_name.guard():
            layer = _linear(fw)
            opt = fw.optimizer.Adam(0.1, parameters=layer.parameters())
            _train(fw, layer, opt, 1)
            state = dict(opt.state_dict())
            key = next(k for k in state if k.endswith("w_0_moment1_0"))
            state[key] = np.zeros([5], dtype="float32")
        if when == "before_step":  # loaded into a fresh optimizer: checked on creation
            with fw.utils.unique_name.guard():
                layer = _linear(fw)
                opt = fw.optimizer.Adam(0.1, parameters=layer.parameters())
        opt.set_state_dict(state)
        _train(fw, layer, opt, 1)

    err = same_exception(f)
    assert "[3, 2]" in str(err) and "w_0_moment1_0" in str(err)


@pytest.mark.parametrize("cls", ["CyclicLR", "OneCycleLR", "CosineAnnealingWarmRestarts"])
def test_cyclic_schedulers_live_in_optimizer_lr(cls):
    args = {"CyclicLR": (0.1, 0.5, 3), "OneCycleLR": (0.5, 10), "CosineAnnealingWarmRestarts": (0.5, 3)}[cls]
    ours, theirs = both(lambda fw: type(getattr(fw.optimizer.lr, cls)(*args)).__module__)
    assert ours.replace("pagaie", "paddle") == theirs
