"""Session-22 sweep of the optimizers, learning-rate handling and hapi ``Model`` / callbacks
against real Paddle 3.3.1: the logs dict ``fit`` hands its callbacks (one dict shared by every
epoch, so ``on_train_end`` sees the last evaluation); the learning rate a step uses once
Paddle's learning-rate variable exists (a float put in ``_learning_rate``, as hapi's
ReduceLROnPlateau does, only shows in ``get_lr()``); a Model never prepared; optimizers with
an empty parameter list or group (Paddle's IndexErrors) and with a parameter listed twice
(updated twice per step); labels handed to ``train_batch`` / ``eval_batch`` outside a list."""
from __future__ import annotations

import numpy as np
import pytest

from tests.hapi.helpers import X, Y, Loader, make_model, make_net
from tests.reference import assert_same, both, same_exception

pytest.importorskip("paddle")

_KEYS = ("loss", "acc_top1", "acc_top2", "step", "batch_size")


def _logs_recorder(fw, store: list):
    """A callback of ``fw`` that keeps the logs dicts it is given (not copies) and a copy of
    their values at the time of each call."""

    class Keep(fw.callbacks.Callback):
        def _keep(self, hook: str, logs) -> None:
            store.append((hook, logs, {k: logs[k] for k in _KEYS if k in logs}))

        def on_epoch_end(self, epoch, logs=None):
            self._keep("epoch_end", logs)

        def on_eval_end(self, logs=None):
            self._keep("eval_end", logs)

        def on_train_end(self, logs=None):
            self._keep("train_end", logs)

    return Keep()


def _fit_logs(fw) -> list:
    store: list = []
    model = make_model(fw, lr=0.05)
    model.fit(Loader(fw, X, Y), Loader(fw, X[:8], Y[:8]), epochs=2, verbose=0,
              callbacks=[_logs_recorder(fw, store)])
    # what each kept dict holds after fit, next to what it held when it was handed over
    return [(hook, {k: logs[k] for k in _KEYS if k in logs}, then) for hook, logs, then in store]


def test_fit_hands_every_callback_one_shared_logs_dict():
    ours, theirs = both(_fit_logs)
    assert [h for h, _, _ in ours] == [h for h, _, _ in theirs]
    for (hook, now_a, then_a), (_, now_b, then_b) in zip(ours, theirs):
        for got, want in ((now_a, now_b), (then_a, then_b)):
            assert sorted(got) == sorted(want), hook
            for k in want:
                np.testing.assert_allclose(np.ravel(got[k]), np.ravel(want[k]), rtol=1e-4,
                                           err_msg=f"{hook} {k}")
    # on_train_end is given the last evaluation's values, and so is a kept epoch dict
    last_eval = [then for h, _, then in theirs if h == "eval_end"][-1]
    train_end = [then for h, _, then in ours if h == "train_end"][0]
    assert train_end["step"] == last_eval["step"] == 1


# -- the learning rate a step uses ----------------------------------------------------------

def _lr_trajectory(fw, name: str, scenario: str) -> list:
    p = fw.create_parameter([2], "float32", default_initializer=fw.nn.initializer.Constant(1.0))
    sched = scenario.startswith("sched")
    opt = getattr(fw.optimizer, name)(fw.optimizer.lr.StepDecay(0.1, 1, 0.5) if sched else 0.1,
                                      parameters=[p])
    out = []
    for i in range(4):
        if i == 1 and scenario in ("float_attr", "sched_attr"):
            opt._learning_rate = 0.01
        if i == 2 and scenario == "float_attr":
            opt.set_lr(0.02)  # set_lr does write the variable
        if i == 0 and scenario == "attr_before_step":
            opt._learning_rate = 0.3  # no variable yet: the first step makes it from this
        (p * p).sum().backward()
        opt.step()
        opt.clear_grad()
        if isinstance(opt._learning_rate, fw.optimizer.lr.LRScheduler):
            opt._learning_rate.step()
        out.append((p.numpy().copy(), opt.get_lr()))
    return out


@pytest.mark.parametrize("name", ["SGD", "Momentum", "Adam", "AdamW", "RMSProp", "Lamb"])
@pytest.mark.parametrize("scenario", ["float_attr", "sched_attr", "attr_before_step"])
def test_a_float_put_in_learning_rate_after_a_step_only_shows_in_get_lr(name, scenario):
    ours, theirs = both(lambda fw: _lr_trajectory(fw, name, scenario))
    assert_same(ours, theirs)


def test_reduce_lr_on_plateau_fit_trajectory():
    def run(fw):
        model = make_model(fw, lr=0.5, optimizer="SGD")
        cb = fw.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0,
                                            min_delta=10.0, verbose=0)
        model.fit(Loader(fw, X, Y), Loader(fw, X[:8], Y[:8]), epochs=3, verbose=0,
                  callbacks=[cb])
        return [p.numpy() for p in model.parameters()], model._optimizer.get_lr()
    ours, theirs = both(run)
    assert_same(ours, theirs, rtol=1e-4, atol=1e-5)


# -- a Model that was never prepared --------------------------------------------------------

@pytest.mark.parametrize("call", ["fit", "evaluate", "predict", "eval_batch"])
def test_unprepared_model_raises_attribute_error(call):
    def run(fw):
        model = fw.Model(make_net(fw))
        if call == "fit":
            model.fit(Loader(fw, X, Y), epochs=1, verbose=0)
        elif call == "evaluate":
            model.evaluate(Loader(fw, X, Y), verbose=0)
        elif call == "predict":
            model.predict(Loader(fw, X), verbose=0)
        else:
            model.eval_batch([X[:4]], [Y[:4]])
    same_exception(run)


def test_unprepared_model_still_predicts_a_batch_and_saves(tmp_path):
    def run(fw):
        model = fw.Model(make_net(fw))
        out = model.predict_batch([X[:4]])
        model.save(str(tmp_path / fw.__name__ / "m"))
        return out
    assert_same(*both(run))


# -- an optimizer without parameters ---------------------------------------------------------
# Paddle reads the first entry of the parameter list (a Tensor or a group?) when it applies a
# weight decay at construction, in step() and in clear_grad(): an IndexError for an empty list.

_OPTIMIZERS = ["SGD", "Momentum", "Adam", "AdamW", "Adamax", "Adagrad", "Adadelta", "RMSProp",
               "Lamb", "NAdam", "RAdam", "ASGD", "Rprop"]


@pytest.mark.parametrize("name", _OPTIMIZERS)
@pytest.mark.parametrize("call", ["step", "clear_grad"])
def test_empty_parameter_list_step_and_clear_grad_raise_index_error(name, call):
    same_exception(lambda fw: getattr(getattr(fw.optimizer, name)(0.01, parameters=[]), call)())


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSProp", "NAdam", "ASGD"])
@pytest.mark.parametrize("decay", ["float", "L1"])
def test_empty_parameter_list_with_weight_decay_raises_index_error(name, decay):
    def make(fw):
        wd = 0.1 if decay == "float" else fw.regularizer.L1Decay(0.1)
        getattr(fw.optimizer, name)(0.01, parameters=[], weight_decay=wd)
    same_exception(make)


@pytest.mark.parametrize("name", ["Momentum", "Rprop", "LBFGS"])
def test_empty_parameter_list_refused_at_construction(name):
    same_exception(lambda fw: getattr(fw.optimizer, name)(parameters=[]))


@pytest.mark.parametrize("name", ["SGD", "Adam", "Momentum", "Lamb", "LBFGS"])
def test_empty_first_parameter_group_raises_index_error(name):
    def make(fw):
        p = fw.create_parameter([2], "float32")
        getattr(fw.optimizer, name)(parameters=[{"params": []}, {"params": [p]}])
    same_exception(make)


@pytest.mark.parametrize("name", ["SGD", "Adam", "Momentum", "Lamb"])
def test_empty_later_parameter_group_trains(name):
    def run(fw):
        p = fw.create_parameter([2], "float32", default_initializer=fw.nn.initializer.Constant(1.0))
        opt = getattr(fw.optimizer, name)(0.1, parameters=[{"params": [p]}, {"params": []}])
        for _ in range(2):
            (p * p).sum().backward()
            opt.step()
            opt.clear_grad()
        return p
    assert_same(*both(run))


def test_lbfgs_with_an_empty_last_group_raises_value_error():
    def run(fw):
        p = fw.create_parameter([2], "float32", default_initializer=fw.nn.initializer.Constant(1.0))
        opt = fw.optimizer.LBFGS(parameters=[{"params": [p]}, {"params": []}])
        opt.step(lambda: (p * p).sum())
    same_exception(run)


# -- a parameter listed twice ---------------------------------------------------------------

def _twice_listed_run(fw, name: str, extra: dict):
    rng = np.random.RandomState(0)
    ps = [fw.create_parameter([3, 2], "float32", default_initializer=fw.nn.initializer.Assign(
        rng.rand(3, 2).astype("float32"))) for _ in range(2)]
    kw = dict(extra)
    if kw.get("grad_clip") == "global":
        kw["grad_clip"] = fw.nn.ClipGradByGlobalNorm(0.5)
    opt = getattr(fw.optimizer, name)(0.1, parameters=[ps[0], ps[1], ps[0]], **kw)
    out = []
    for _ in range(3):
        sum((p * p).sum() for p in ps).backward()
        opt.step()
        opt.clear_grad()
        out.append([p.numpy().copy() for p in ps])
    return out, sorted(opt.state_dict())


@pytest.mark.parametrize("name", _OPTIMIZERS)
@pytest.mark.parametrize("extra", [{}, {"weight_decay": 0.1}, {"grad_clip": "global"}])
def test_a_parameter_listed_twice_is_updated_twice_per_step(name, extra):
    # Paddle runs one update per list entry, the second from the state the first left (Adamax
    # advances its beta1 power only after all of them)
    if name in ("Lamb", "Rprop") and "weight_decay" in extra:
        pytest.skip("no weight_decay argument")

    def run(fw):
        with fw.utils.unique_name.guard():  # the same parameter and accumulator names in both
            return _twice_listed_run(fw, name, extra)
    ours, theirs = both(run)
    assert ours[1] == theirs[1]
    np.testing.assert_allclose(np.array(ours[0]), np.array(theirs[0]), rtol=1e-5, atol=1e-6)


# -- labels given to train_batch / eval_batch outside a list ---------------------------------

def _prepared(fw):
    model = fw.Model(make_net(fw))
    model.prepare(fw.optimizer.SGD(0.1, parameters=model.parameters()), fw.nn.CrossEntropyLoss(),
                  fw.metric.Accuracy())
    return model


@pytest.mark.parametrize("call", ["train_batch", "eval_batch"])
@pytest.mark.parametrize("kind", ["numpy", "tensor"])
def test_bare_labels_of_several_samples_fail_the_truth_test(call, kind):
    # Paddle's ``labels or []`` asks for the truth value of the array / Tensor
    def run(fw):
        x, y = X[:4], Y[:4]
        if kind == "tensor":
            x, y = fw.to_tensor(x), fw.to_tensor(y)
        getattr(_prepared(fw), call)(x, y)
    same_exception(run)


@pytest.mark.parametrize("call", ["train_batch", "eval_batch"])
@pytest.mark.parametrize("label", [0, 1])
def test_a_bare_one_sample_label(call, label):
    # a truthy one-element label is used; a falsy one is dropped (the loss then lacks it)
    def run(fw):
        return getattr(_prepared(fw), call)(X[:1], np.array([[label]], "int64"))
    if label:
        assert_same(*both(run))
    else:
        same_exception(run)
