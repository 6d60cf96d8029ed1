"""Session-8 differential sweep of ``paddle.Model`` (hapi), its callbacks and ``paddle.metric``
against real Paddle 3.3.1: checkpoint files, EarlyStopping / LRScheduler / ReduceLROnPlateau
state after ``fit``, load with ``skip_mismatch``, predict structures, summary and the metrics'
values and bad-input exception types. Every run is seeded and tiny."""
from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception

try:  # import real Paddle up front: its progress bar keeps the sys.stdout of its import time
    import paddle as _real_paddle  # noqa: F401
except ImportError:
    pass

_RNG = np.random.RandomState(0)
_X = _RNG.rand(10, 4).astype("float32")
_Y = _RNG.randint(0, 3, (10, 1)).astype("int64")


def _dataset(fw, n: int = 10, offset: int = 0):
    x, y = _X[offset:offset + n], _Y[offset:offset + n]

    class DS(fw.io.Dataset):
        def __getitem__(self, i):
            return x[i], y[i]

        def __len__(self):
            return len(x)
    return DS()


def _model(fw, metrics=None, opt: str = "SGD", lr=0.1, out: int = 3):
    fw.seed(1)
    with fw.utils.unique_name.guard():
        net = fw.nn.Sequential(fw.nn.Linear(4, 8), fw.nn.ReLU(), fw.nn.Linear(8, out))
    model = fw.Model(net)
    model.prepare(getattr(fw.optimizer, opt)(lr, parameters=model.parameters()),
                  fw.nn.CrossEntropyLoss(), metrics)
    return model


def _files(d: str) -> list[str]:
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)


def test_fit_checkpoint_files_and_reload(tmp_path):
    def run(fw):
        with fw.utils.unique_name.guard():   # the optimizer's state names come from the counters
            return fit_and_reload(fw)

    def fit_and_reload(fw):
        d = str(tmp_path / fw.__name__)
        m = _model(fw, opt="Adam")
        m.fit(_dataset(fw), _dataset(fw, 4), batch_size=4, epochs=3, save_dir=d, save_freq=2,
              verbose=0, shuffle=False, eval_freq=2)
        files = _files(d)
        opt_keys = sorted(fw.load(os.path.join(d, "final.pdopt")).keys())
        m2 = _model(fw, opt="Adam")
        m2.load(os.path.join(d, "final"))
        ev = m2.evaluate(_dataset(fw, 4), batch_size=4, verbose=0)
        m.save(os.path.join(d, "inf"), training=False)
        return files, opt_keys, ev, sorted(set(_files(d)) - set(files))
    ours, theirs = both(run)
    assert ours[0] == theirs[0] and ours[1] == theirs[1] and ours[3] == theirs[3]
    assert list(ours[2]) == list(theirs[2])
    np.testing.assert_allclose(ours[2]["loss"], theirs[2]["loss"], rtol=1e-5)


def test_load_skip_mismatch_and_bad_paths(tmp_path):
    def run(fw):
        d = str(tmp_path / fw.__name__)
        _model(fw).save(os.path.join(d, "a"))
        m = _model(fw, out=2)
        try:
            m.load(os.path.join(d, "a"))
            strict = None
        except Exception as exc:  # noqa: BLE001
            strict = type(exc).__name__
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.load(os.path.join(d, "a.pdparams"), skip_mismatch=True)
        errors = []
        for bad in ("a.xyz", "missing"):
            try:
                m.load(os.path.join(d, bad))
                errors.append(None)
            except Exception as exc:  # noqa: BLE001
                errors.append(type(exc).__name__)
        return strict, errors, [p.numpy() for p in m.parameters()]
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2] == ("ValueError", ["AssertionError", "AssertionError"])
    assert_same(ours[2], theirs[2])


@pytest.mark.parametrize("kw", [
    dict(monitor="loss", mode="min", patience=0),
    dict(monitor="acc", mode="max", patience=1, min_delta=0.5),
    dict(monitor="acc", mode="auto", patience=0, baseline=0.9),
    dict(monitor="loss", mode="bogus", patience=1, save_best_model=True),
])
def test_early_stopping_state_and_files(kw, tmp_path, capsys):
    def run(fw):
        d = str(tmp_path / fw.__name__)
        m = _model(fw, fw.metric.Accuracy(), lr=0.5)
        es = fw.callbacks.EarlyStopping(**kw, verbose=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.fit(_dataset(fw), _dataset(fw, 6, 3), batch_size=5, epochs=4, verbose=0,
                  callbacks=[es], save_dir=d, shuffle=False)
        text = capsys.readouterr().out.replace(d, "DIR")
        return es.wait_epoch, es.stopped_epoch, float(es.best_value), _files(d), text
    ours, theirs = both(run)
    assert ours[:2] == theirs[:2] and ours[3:] == theirs[3:]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5)


@pytest.mark.parametrize("by_step", [True, False])
def test_lr_scheduler_callback_steps(by_step):
    def run(fw):
        fw.seed(1)
        with fw.utils.unique_name.guard():
            net = fw.nn.Linear(4, 3)
        sch = fw.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
        m = fw.Model(net)
        m.prepare(fw.optimizer.SGD(sch, parameters=m.parameters()), fw.nn.CrossEntropyLoss())
        m.fit(_dataset(fw), batch_size=5, epochs=2, verbose=0, shuffle=False,
              callbacks=[fw.callbacks.LRScheduler(by_step=by_step, by_epoch=not by_step)])
        return sch.last_lr, sch.last_epoch, net.weight.numpy()
    ours, theirs = both(run)
    assert ours[1] == theirs[1]
    assert_same(list(ours[::2]), list(theirs[::2]))
    same_exception(lambda fw: fw.callbacks.LRScheduler(by_step=True, by_epoch=True))


@pytest.mark.parametrize("kw", [
    dict(monitor="loss", factor=0.5, patience=0),
    dict(monitor="acc", mode="max", factor=0.1, patience=0, min_lr=0.02, cooldown=1),
    dict(monitor="loss", factor=0.5, patience=1, mode="bogus", min_delta=10),
])
def test_reduce_lr_on_plateau(kw, capsys):
    def run(fw):
        m = _model(fw, fw.metric.Accuracy(), lr=0.5)
        r = fw.callbacks.ReduceLROnPlateau(verbose=1, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.fit(_dataset(fw), _dataset(fw, 6, 3), batch_size=5, epochs=4, verbose=0,
                  callbacks=[r], shuffle=False)
        return m._optimizer.get_lr(), r.wait, float(r.best), r.cooldown_counter, \
            capsys.readouterr().out
    ours, theirs = both(run)
    assert ours[1] == theirs[1] and ours[3:] == theirs[3:]
    np.testing.assert_allclose(ours[:3:2], theirs[:3:2], rtol=1e-5)
    same_exception(lambda fw: fw.callbacks.ReduceLROnPlateau(factor=1.0))


def test_accumulate_grad_batches_and_num_iters(capsys):
    def run(fw):
        m = _model(fw, opt="Adam")
        m.fit(_dataset(fw), batch_size=3, epochs=1, verbose=2, accumulate_grad_batches=2,
              shuffle=False, log_freq=1)
        w1 = m.parameters()[0].numpy()
        m = _model(fw)
        m.fit(_dataset(fw), batch_size=3, epochs=1, verbose=2, num_iters=2, shuffle=False,
              log_freq=1)
        text = capsys.readouterr().out
        return w1, m.parameters()[0].numpy(), re.sub(r"\d+(ms|us|s)/step", "T", text)
    ours, theirs = both(run)
    assert_same(list(ours[:2]), list(theirs[:2]))
    assert ours[2] == theirs[2]


def test_predict_two_outputs_and_train_batch_update_false():
    x = _X[:5]

    def run(fw, nested=False):
        class Nest(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.l = fw.nn.Linear(4, 3)

            def forward(self, inp):
                y = self.l(inp)
                return (y, [y.sum(1), y.mean()]) if nested else (y, y.sum(1))
        fw.seed(1)
        with fw.utils.unique_name.guard():
            m = fw.Model(Nest())
        m.prepare()  # Paddle's predict needs prepare() (it sets the device)

        class DS(fw.io.Dataset):
            def __getitem__(self, i):
                return (x[i],)

            def __len__(self):
                return 5
        per_batch = m.predict(DS(), batch_size=2, verbose=0)
        # np.vstack of 1-D outputs: one batch gives [1, N]; uneven batches raise ValueError
        stacked = m.predict(DS(), batch_size=5, verbose=0, stack_outputs=True)
        try:
            m.predict(DS(), batch_size=2, verbose=0, stack_outputs=True)
            uneven = None
        except ValueError:
            uneven = "ValueError"
        m2 = _model(fw)
        m2.train_batch([x], [_Y[:5]], update=False)
        m2.train_batch([x], [_Y[:5]], update=False)
        grad = m2.parameters()[0].grad.numpy()
        return m.predict_batch([x]), per_batch, stacked, grad, uneven
    same_exception(lambda fw: run(fw, nested=True))  # nested outputs: 'not a variable'
    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert [len(o) for o in ours[1]] == [len(o) for o in theirs[1]]
    for a, b in zip(ours[1], theirs[1]):
        assert_same(list(a), list(b))
    assert_same(ours[2], theirs[2])
    assert_same(ours[3], theirs[3])
    assert ours[4] == theirs[4] == "ValueError"


def test_precision_recall_auc_values():
    p = np.array([0.5, 0.49, 0.51, 0.9, 0.1, 0.5], "float32")
    lab = np.array([1, 0, 1, 0, 1, 1])

    def run(fw):
        out = []
        for cls in (fw.metric.Precision, fw.metric.Recall):
            m = cls()
            m.update(p, lab)
            m.update(fw.to_tensor(p[:, None].astype("float64")), fw.to_tensor(lab[:, None]))
            out += [m.accumulate(), m.name()]
            m.reset()
            out.append(m.accumulate())
        for kw in ({}, {"num_thresholds": 10}, {"curve": "PR"}):
            m = fw.metric.Auc(**kw)
            m.update(np.stack([1 - p, p], 1), lab[:, None])
            m.update(fw.to_tensor(np.stack([1 - p, p], 1)), fw.to_tensor(lab))
            out += [m.accumulate(), m.name()]
        return out
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("case", ["prec_cols", "rec_labels_cols", "prec_list", "auc_list",
                                  "acc_k0", "acc_label_1d"])
def test_metric_bad_input_types(case):
    p = np.array([0.5, 0.49, 0.51, 0.9, 0.1, 0.5], "float32")
    lab = np.array([1, 0, 1, 0, 1, 1])
    pred = _X[:4, :3]

    def call(fw):
        if case == "prec_cols":
            fw.metric.Precision().update(p.reshape(2, 3), lab.reshape(2, 3))
        elif case == "rec_labels_cols":
            fw.metric.Recall().update(p.reshape(2, 3)[:, :1], lab.reshape(2, 3))
        elif case == "prec_list":
            fw.metric.Precision().update([0.1], [1])
        elif case == "auc_list":
            fw.metric.Auc().update(np.stack([1 - p, p], 1).tolist(), lab)
        elif case == "acc_k0":
            fw.metric.accuracy(fw.to_tensor(pred), fw.to_tensor(_Y[:4]), k=0)
        else:
            fw.metric.accuracy(fw.to_tensor(pred), fw.to_tensor(_Y[:4, 0]))
    same_exception(call)


def test_summary_of_several_networks(capsys):
    def run(fw):
        nn = fw.nn
        out = []
        with fw.utils.unique_name.guard():
            class DictOut(nn.Layer):
                def __init__(self):
                    super().__init__()
                    self.l = nn.Linear(3, 3)
                    self.f = nn.Linear(3, 1)

                def forward(self, x):
                    return {"a": self.l(x), "b": [self.f(x)]}

            class Frozen(nn.Layer):
                def __init__(self):
                    super().__init__()
                    self.l = nn.Linear(3, 3)
                    self.l.weight.stop_gradient = True
                    self.b = nn.BatchNorm1D(3)

                def forward(self, x):
                    return self.b(self.l(x))
            out.append(fw.summary(DictOut(), (2, 3)))
            out.append(fw.summary(Frozen(), (2, 3)))
            out.append(fw.summary(nn.LSTM(3, 4), (2, 5, 3)))
            out.append(fw.summary(nn.Linear(3, 3), (-1, 3)))
            out.append(fw.Model(nn.Linear(4, 2), fw.static.InputSpec([None, 4], "float32", "x"))
                       .summary())
        return out, capsys.readouterr().out
    ours, theirs = both(run)
    assert ours == theirs
