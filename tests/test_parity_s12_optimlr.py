"""Session-12 sweep of ``paddle.optimizer`` and ``paddle.optimizer.lr`` against real Paddle
3.3.1: the fluid-era learning-rate functions ``paddle.optimizer.lr`` still carries
(``noam_decay``, ``exponential_decay``...: each returns a scheduler), a parameter group whose
``'params'`` is an iterator (it must train, not be silently dropped), a parameter group's
``'learning_rate'`` of a wrong type, hyper-parameters Paddle hands to its kernels as doubles or
bools (the exception type its step raises for a str or an int switch), Lamb with a negative
decay (no trust ratio), and LBFGS without parameters."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception

_LEGACY = {
    "noam_decay": (64, 10, 2.0),
    "exponential_decay": (0.1, 10, 0.5),
    "natural_exp_decay": (0.1, 10, 0.5, True),
    "inverse_time_decay": (0.1, 10, 0.5),
    "polynomial_decay": (0.1, 10, 0.01, 2.0, True),
    "piecewise_decay": ([2, 4], [0.1, 0.2, 0.3]),
    "cosine_decay": (0.1, 10, 5),
    "linear_lr_warmup": (0.1, 3, 0.0, 0.1),
}


@pytest.mark.parametrize("name", sorted(_LEGACY))
def test_legacy_lr_functions_return_paddles_scheduler(name):
    """Paddle's dynamic-graph path of each fluid-era function builds the matching scheduler
    (the arguments only the old static formula used are ignored)."""
    def run(fw):
        s = getattr(fw.optimizer.lr, name)(*_LEGACY[name])
        seq = [s()]
        for _ in range(12):
            s.step()
            seq.append(s())
        return type(s).__name__, seq, str(s.state_dict())

    ours, theirs = both(run)
    assert ours[0] == theirs[0] and ours[2] == theirs[2]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)


def test_legacy_lr_function_drives_an_optimizer_like_paddle():
    """The returned scheduler is a learning rate an optimizer takes."""
    def run(fw):
        lin = fw.nn.Linear(2, 2)
        lin.weight.set_value(np.array([[0.1, 0.2], [0.3, 0.4]], "float32"))
        s = fw.optimizer.lr.piecewise_decay([1, 2], [0.5, 0.1, 0.01])
        opt = fw.optimizer.SGD(s, parameters=lin.parameters())
        lrs = []
        for _ in range(3):
            lin(fw.to_tensor([[1.0, 2.0]])).sum().backward()
            opt.step()
            opt.clear_grad()
            lrs.append(opt.get_lr())
            s.step()
        return lrs, lin.weight.numpy()

    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)


def _linear(fw):
    lin = fw.nn.Linear(2, 2)
    lin.weight.set_value(np.array([[0.1, 0.2], [0.3, 0.4]], "float32"))
    lin.bias.set_value(np.array([0.5, -0.5], "float32"))
    return lin


def _one_step(fw, lin, opt):
    (lin(fw.to_tensor([[1.0, 2.0]])) ** 2).sum().backward()
    opt.step()
    opt.clear_grad()
    return lin.weight.numpy(), lin.bias.numpy()


def test_iterator_params_in_a_later_group_train_like_paddle():
    """Paddle turns every group's 'params' into a list once: an iterator trains its
    parameters (pagaie used to exhaust the first group's iterator and skip it)."""
    def run(fw):
        with fw.utils.unique_name.guard():
            lin = _linear(fw)
            groups = [{"params": [lin.bias]}, {"params": iter([lin.weight]), "learning_rate": 0.5}]
            return _one_step(fw, lin, fw.optimizer.Momentum(0.1, parameters=groups))

    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_iterator_params_in_the_first_group_are_not_dropped():
    """Paddle fails on an iterator in the first group (it indexes it); pagaie trains it
    instead of silently leaving the parameters alone."""
    import pagaie
    with pagaie.utils.unique_name.guard():
        lin = _linear(pagaie)
        opt = pagaie.optimizer.SGD(0.1, parameters=[{"params": iter(lin.parameters())}])
        w, b = _one_step(pagaie, lin, opt)
    np.testing.assert_allclose(b, [0.26, -0.6], rtol=1e-6)
    assert opt._dtype == lin.weight.dtype


@pytest.mark.parametrize("name", ["SGD", "Adam", "Momentum", "AdamW", "Lamb", "NAdam", "ASGD"])
@pytest.mark.parametrize("value", ["a", [0.5], (0.5,), None, {"a": 1}])
def test_group_learning_rate_of_a_wrong_type_fails_on_step_like_paddle(name, value):
    """A group 'learning_rate' that is not a number or a Tensor fails on the step: a
    ValueError for a str or a sequence, a TypeError for anything else, as in Paddle."""
    def run(fw):
        with fw.utils.unique_name.guard():
            lin = _linear(fw)
            groups = [{"params": [lin.weight], "learning_rate": value}, {"params": [lin.bias]}]
            _one_step(fw, lin, getattr(fw.optimizer, name)(0.1, parameters=groups))

    err = same_exception(run)
    assert "learning_rate" in str(err)


def test_rprop_ignores_a_group_learning_rate_like_paddle():
    """Rprop's steps live in its accumulators: Paddle never reads a group's rate."""
    def run(fw):
        with fw.utils.unique_name.guard():
            lin = _linear(fw)
            groups = [{"params": [lin.weight], "learning_rate": "a"}, {"params": [lin.bias]}]
            return _one_step(fw, lin, fw.optimizer.Rprop(0.1, parameters=groups))

    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_group_learning_rate_numpy_scalar_and_bool_scale_like_paddle():
    """A 0-D array or a bool scales the learning rate, as in Paddle."""
    def run(fw):
        out = []
        for value in (np.array(0.5), True):
            with fw.utils.unique_name.guard():
                lin = _linear(fw)
                groups = [{"params": [lin.weight], "learning_rate": value}, {"params": [lin.bias]}]
                out.append(_one_step(fw, lin, fw.optimizer.SGD(0.1, parameters=groups)))
        return out

    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a[0], b[0], rtol=1e-6)
        np.testing.assert_allclose(a[1], b[1], rtol=1e-6)


def _step_with(fw, name, **kw):
    with fw.utils.unique_name.guard():
        lin = _linear(fw)
        return _one_step(fw, lin, getattr(fw.optimizer, name)(0.01, parameters=lin.parameters(), **kw))


@pytest.mark.parametrize("name,kw", [
    ("Momentum", {"momentum": "a"}), ("Momentum", {"rescale_grad": "a"}),
    ("Momentum", {"rescale_grad": [0.5]}), ("Lamb", {"lamb_weight_decay": "a"}),
    ("Lamb", {"epsilon": "a"}), ("Adagrad", {"epsilon": "a"}), ("Adadelta", {"rho": "a"}),
])
def test_str_hyperparameter_is_a_type_error_on_step_like_paddle(name, kw):
    """Paddle hands these to its kernel as doubles: a str or a list is a TypeError."""
    err = same_exception(lambda fw: _step_with(fw, name, **kw))
    assert next(iter(kw)) in str(err)


@pytest.mark.parametrize("name,kw", [
    ("Lamb", {"beta1": "a"}), ("Adagrad", {"initial_accumulator_value": "a"}),
])
def test_str_accumulator_start_is_a_value_error_like_paddle(name, kw):
    """An accumulator's starting value goes through float(): a str is a ValueError."""
    err = same_exception(lambda fw: _step_with(fw, name, **kw))
    assert "torch" not in str(err) and "full()" not in str(err)


def test_adagrad_tensor_initial_accumulator_value_like_paddle():
    """A one-element Tensor is taken for its value."""
    ours, theirs = both(lambda fw: _step_with(fw, "Adagrad", initial_accumulator_value=fw.to_tensor(0.5)))
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("name,flag", [("Adam", "lazy_mode"), ("Adam", "amsgrad"), ("AdamW", "lazy_mode"),
                                       ("AdamW", "amsgrad"), ("RMSProp", "centered"), ("Lamb", "always_adapt")])
@pytest.mark.parametrize("value", [1, 0, np.bool_(True), "a", 1.0])
def test_kernel_switch_must_be_a_bool_like_paddle(name, flag, value):
    """Paddle's kernels take these as C++ bools: an int, a float, a str or a numpy bool is a
    TypeError when the step runs."""
    err = same_exception(lambda fw: _step_with(fw, name, **{flag: value}))
    assert flag in str(err)


@pytest.mark.parametrize("name,flag", [("Adam", "amsgrad"), ("RMSProp", "centered"), ("Lamb", "always_adapt")])
def test_kernel_switch_none_means_off_like_paddle(name, flag):
    """None passes as False."""
    ours, theirs = both(lambda fw: _step_with(fw, name, **{flag: None}))
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("kw", [{"lamb_weight_decay": -0.5}, {"lamb_weight_decay": -0.05},
                                {"lamb_weight_decay": -0.5, "always_adapt": True}])
def test_lamb_negative_decay_skips_the_trust_ratio_like_paddle(kw):
    """Paddle's kernel adds the (negative) decay term but takes the trust ratio only for a
    positive decay or with always_adapt."""
    def run(fw):
        with fw.utils.unique_name.guard():
            lin = _linear(fw)
            opt = fw.optimizer.Lamb(0.1, parameters=lin.parameters(), **kw)
            return [_one_step(fw, lin, opt) for _ in range(3)]

    ours, theirs = both(run)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a[0], b[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(a[1], b[1], rtol=1e-5, atol=1e-6)


def test_lbfgs_step_without_parameters_raises_like_paddle():
    """An IndexError (Paddle indexes the empty list of gradients), in pagaie's own words."""
    same_exception(lambda fw: fw.optimizer.LBFGS(parameters=[]).step(lambda: fw.to_tensor(1.0)))
