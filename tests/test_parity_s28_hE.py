"""Session-28 parity of ``paddle.optimizer.lr`` and the optimizers against real Paddle 3.3.1,
on cases taken from Paddle's own unit tests (``test_lr_scheduler.py``, ``test_adam_op.py``,
``test_adamw_op.py``, ``test_adadelta_op.py``...): LinearWarmup's warm-up values to the last
bit (they are printed with ``verbose``), Adadelta's update as two separate roots, and the
AssertionError of a scheduler's ``state_dict`` on a Tensor entry of several elements."""
from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")


@pytest.mark.parametrize("start_lr,end_lr,steps", [(0.0, 0.1, 10), (0.0, 0.5, 10), (0.01, 0.3, 7)])
def test_linear_warmup_values_bit_exact(start_lr, end_lr, steps):
    def run(fw):
        inner = fw.optimizer.lr.NaturalExpDecay(learning_rate=0.5, gamma=0.1)
        s = fw.optimizer.lr.LinearWarmup(inner, steps, start_lr, end_lr, verbose=True)
        out = io.StringIO()
        values = []
        with contextlib.redirect_stdout(out):
            for _ in range(steps + 3):
                values.append(s())
                s.step()
        return values, out.getvalue()

    ours, theirs = both(run)
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]


@pytest.mark.parametrize("epsilon", [1e-6, 0.3, -0.01])
def test_adadelta_update_roots(epsilon):
    def run(fw):
        w = fw.create_parameter([64], "float32")
        w.set_value(np.linspace(-1, 1, 64).astype("float32"))
        opt = fw.optimizer.Adadelta(learning_rate=1.0, epsilon=epsilon, rho=0.9, parameters=[w])
        g = fw.to_tensor(np.linspace(-6, 6, 64).astype("float32"))
        for _ in range(2):
            (w * g).sum().backward()
            opt.step()
            opt.clear_grad()
        return w.numpy()

    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


def _scheduler_with(fw, value):
    class Scheduler(fw.optimizer.lr.LRScheduler):
        def __init__(self):
            self.extra = value(fw)
            super().__init__(0.5)

        def get_lr(self):
            return self.base_lr * 0.5 ** self.last_epoch

        def state_keys(self):
            self.keys = ["last_epoch", "last_lr", "extra"]

    return Scheduler()


def test_scheduler_state_dict_rejects_multi_element_tensor():
    same_exception(lambda fw: _scheduler_with(fw, lambda f: f.to_tensor([2.0, 3.0])).state_dict())


@pytest.mark.parametrize("value", [lambda f: f.to_tensor(2.0), lambda f: f.to_tensor(3)])
def test_scheduler_state_dict_one_element_tensor_is_float(value):
    ours, theirs = both(lambda fw: _scheduler_with(fw, value).state_dict())
    assert ours == theirs
    assert type(ours["extra"]) is type(theirs["extra"]) is float


# (a Tensor after a group is left out: Paddle's answer depends on the Tensor's values, as it
# asks ``'params' in tensor``)
@pytest.mark.parametrize("extra", ["list", "str", "int", "none"])
def test_parameter_groups_followed_by_a_non_group(extra):
    def build(fw):
        lin = fw.nn.Linear(3, 2)
        other = {"list": [lin.bias], "str": "abc", "int": 1, "none": None}[extra]
        fw.optimizer.SGD(0.1, parameters=[{"params": [lin.weight]}, other])

    same_exception(build)


def _asgd_run(fw, batch_num, steps=3):
    lin = fw.nn.Linear(3, 2)
    lin.weight.set_value(np.linspace(-1, 1, 6).reshape(3, 2).astype("float32"))
    lin.bias.set_value(np.array([0.1, -0.2], "float32"))
    opt = fw.optimizer.ASGD(0.1, batch_num=batch_num(fw), parameters=lin.parameters())
    x = fw.to_tensor(np.linspace(0, 1, 6).reshape(2, 3).astype("float32"))
    for _ in range(steps):
        (lin(x) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()
    return [p.numpy() for p in lin.parameters()]


def test_asgd_batch_num_zero_dim_tensor():
    ours, theirs = both(lambda fw: _asgd_run(fw, lambda f: f.to_tensor(2)))
    assert_same(ours, theirs)


@pytest.mark.parametrize("batch_num", [2.0, 2.5, True])
def test_asgd_batch_num_not_an_int(batch_num):
    exc = same_exception(lambda fw: _asgd_run(fw, lambda f: batch_num))
    assert "batch_num" in str(exc)


def _hparam_run(fw, name, key, value):
    lin = fw.nn.Linear(3, 2)
    lin.weight.set_value(np.linspace(-1, 1, 6).reshape(3, 2).astype("float32"))
    kwargs = {key: value(fw)}
    if key != "learning_rate":
        kwargs["learning_rate"] = 0.1
    opt = getattr(fw.optimizer, name)(parameters=lin.parameters(), **kwargs)
    x = fw.to_tensor(np.linspace(0, 1, 6).reshape(2, 3).astype("float32"))
    for _ in range(2):
        (lin(x) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()
    return [p.numpy() for p in lin.parameters()]


# Paddle range-checks one-element Tensor hyper-parameters by value (Adam alone does not)
@pytest.mark.parametrize("name,key,value", [("AdamW", "beta1", 1), ("AdamW", "beta2", -1.0), ("Adamax", "beta1", 1),
                                            ("Adamax", "epsilon", -1.0), ("NAdam", "beta2", 1), ("RAdam", "beta1", -1.0),
                                            ("RMSProp", "rho", -1.0), ("RMSProp", "epsilon", -1.0)])
def test_tensor_hyper_parameter_out_of_range(name, key, value):
    same_exception(lambda fw: _hparam_run(fw, name, key, lambda f: f.to_tensor(value)))


def test_adam_tensor_beta_not_range_checked():
    ours, theirs = both(lambda fw: _hparam_run(fw, "Adam", "beta1", lambda f: f.to_tensor(1.0)))
    assert_same(ours, theirs)


# a Tensor of several elements: Adam reads its betas' first element, other kernels refuse it
@pytest.mark.parametrize("name,key", [("Adam", "beta1"), ("Adam", "epsilon"), ("AdamW", "beta2"),
                                      ("Momentum", "momentum"), ("Lamb", "beta1"), ("Adagrad", "epsilon"),
                                      ("NAdam", "momentum_decay")])
def test_multi_element_tensor_hyper_parameter(name, key):
    def run(fw):
        return _hparam_run(fw, name, key, lambda f: f.to_tensor([0.5, 0.6]))
    if (name, key) == ("Adam", "beta1"):
        ours, theirs = both(run)
        assert_same(ours, theirs)
    else:
        same_exception(run)
