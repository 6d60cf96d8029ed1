"""Differential sweep of ``paddle.Model``, its callbacks and the progress bar against real
Paddle 3.3.1: printed text, hook order, return structures and bad-input exception types."""
from __future__ import annotations

import importlib
import re
import sys
import time

import numpy as np
import pytest

import pagaie
from tests.hapi.helpers import X, Y, Loader, make_model
from tests.reference import paddle_ref, same_exception

try:  # import real Paddle now: its progress bar keeps the sys.stdout of its import time
    import paddle as _real_paddle  # noqa: F401
except ImportError:
    pass

_HOOKS = ["on_train_begin", "on_train_end", "on_eval_begin", "on_eval_end", "on_predict_begin",
          "on_predict_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
          "on_train_batch_end", "on_eval_batch_begin", "on_eval_batch_end",
          "on_predict_batch_begin", "on_predict_batch_end"]


def _progressbar(fw):
    return importlib.import_module(fw.__name__ + ".hapi.progressbar").ProgressBar


def _bar_text(fw, capsys, monkeypatch, verbose: int, num, values) -> str:
    """What ``ProgressBar.update`` prints for three steps under a fake clock."""
    clock = [1000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    bar = _progressbar(fw)(num=num, verbose=verbose, width=10, file=sys.stdout)
    capsys.readouterr()
    for i, dt in enumerate([0.5, 100.0, 4000.0]):
        clock[0] += dt
        bar.update(i + 1, list(values))
    return capsys.readouterr().out


@pytest.mark.parametrize("verbose", [1, 2, 3])
@pytest.mark.parametrize("num", [5, None])
def test_progress_bar_text_matches_paddle(verbose, num, capsys, monkeypatch):
    # one-element float arrays are unwrapped in the per-step lines (verbose 2, 3) but printed
    # as arrays in the redrawn bar (verbose 1), as Paddle does; ETA switches to m:ss and h:mm:ss
    ref = paddle_ref()
    values = [("loss", 0.00012345), ("acc", 1.5), ("n", 3), ("arr", np.array([0.5], "float32")),
              ("lst", [0.25, 2e-5]), ("s", "hi"), ("np", np.float32(2.5))]
    ours = _bar_text(pagaie, capsys, monkeypatch, verbose, num, values)
    theirs = _bar_text(ref, capsys, monkeypatch, verbose, num, values)
    assert ours == theirs


def test_progress_bar_bfloat16_loss_matches_paddle(capsys, monkeypatch):
    # a loss held as bfloat16 bits (numpy.uint16) is shown as its float value
    ref = paddle_ref()
    values = [("loss", [np.uint16(16256), np.uint16(16448)]), ("x", np.uint16(3))]
    ours = _bar_text(pagaie, capsys, monkeypatch, 2, 3, values)
    theirs = _bar_text(ref, capsys, monkeypatch, 2, 3, values)
    assert "loss: 1.0000 3.0000 - x: 3" in ours
    assert ours == theirs


def test_progress_bar_rejects_non_positive_num():
    same_exception(lambda fw: _progressbar(fw)(num=0))


def test_prepare_amp_configs_of_wrong_type_raises_type_error():
    def prep(fw, cfg):
        model = make_model(fw)
        model.prepare(fw.optimizer.SGD(parameters=model.parameters()), fw.nn.CrossEntropyLoss(),
                      amp_configs=cfg)

    err = same_exception(lambda fw: prep(fw, 5))
    assert "amp_configs" in str(err) and "int" in str(err)
    same_exception(lambda fw: prep(fw, "o1"))               # ValueError: unknown level
    same_exception(lambda fw: prep(fw, {"level": "O3"}))   # ValueError
    same_exception(lambda fw: prep(fw, {"level": "O1", "foo": 1}))


def _recorder(fw, events: list):
    def hook(name):
        def call(self, *args):
            logs = args[-1] if args and isinstance(args[-1], dict) else None
            step = args[0] if args and isinstance(args[0], int) else None
            # Paddle reuses one logs dict across runs (a mutable default argument), so
            # only the keys each run sets itself are compared
            # (set at batch end; at batch begin Paddle still shows the previous run's)
            seen = {k: logs[k] for k in ("step", "batch_size")
                    if logs and k in logs and name.endswith("batch_end")}
            events.append((name, step, seen))
        return call

    return type("Rec", (fw.callbacks.Callback,), {h: hook(h) for h in _HOOKS})()


def test_callback_hook_order_and_batch_logs_match_paddle():
    ref = paddle_ref()
    got = {}
    for fw in (pagaie, ref):
        events: list = []
        model = make_model(fw)
        model.fit(Loader(fw, X[:10], Y[:10]), Loader(fw, X[:6], Y[:6]), epochs=2, verbose=0,
                  callbacks=[_recorder(fw, events)])
        model.evaluate(Loader(fw, X[:5], Y[:5]), verbose=0, callbacks=_recorder(fw, events))
        model.predict(Loader(fw, X[:5]), verbose=0, callbacks=[_recorder(fw, events)])
        got[fw.__name__] = events
    assert got["pagaie"] == got["paddle"]


def _fit_text(fw, capsys, verbose: int) -> str:
    model = make_model(fw)
    capsys.readouterr()
    model.fit(Loader(fw, X[:12], Y[:12], batch_size=5), Loader(fw, X[:6], Y[:6]), epochs=2,
              log_freq=1, verbose=verbose)
    result = model.evaluate(Loader(fw, X[:6], Y[:6]), log_freq=1, verbose=verbose)
    model.predict(Loader(fw, X[:6]), verbose=verbose)
    out = capsys.readouterr().out
    out = re.sub(r"\d+(us|ms|s)/step", "T/step", re.sub("\b+", "", out))
    out = re.sub(r" +(\r|\n|$)", r"\1", out)   # the bar pads to the width of its timing text
    return out + str(sorted(result))


@pytest.mark.parametrize("verbose", [1, 2])
def test_fit_evaluate_predict_printed_text_matches_paddle(verbose, capsys):
    ref = paddle_ref()
    ours = _fit_text(pagaie, capsys, verbose)
    theirs = _fit_text(ref, capsys, verbose)
    ours = re.sub(r"(loss: \d\.\d{3})\d", r"\1", ours)  # float32 rounding in the last digit
    theirs = re.sub(r"(loss: \d\.\d{3})\d", r"\1", theirs)
    assert ours == theirs


def test_predict_structure_with_two_outputs_matches_paddle():
    ref = paddle_ref()

    def run(fw, stack):
        class Two(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = fw.nn.Linear(4, 2)

            def forward(self, x):
                return self.fc(x), self.fc(x) * 2

        net = Two()
        net.set_state_dict({k: fw.to_tensor(np.full(v.shape, 0.3, "float32"))
                            for k, v in net.state_dict().items()})
        model = fw.Model(net)
        model.prepare()
        return model.predict(Loader(fw, X[:5], batch_size=2), verbose=0, stack_outputs=stack)

    for stack in (False, True):
        ours, theirs = run(pagaie, stack), run(ref, stack)
        assert type(ours) is type(theirs) and len(ours) == len(theirs) == 2
        for a, b in zip(ours, theirs):
            assert type(a) is type(b)
            if stack:
                assert a.shape == b.shape == (5, 2)
                np.testing.assert_allclose(a, b, rtol=1e-6)
            else:
                assert [x.shape for x in a] == [x.shape for x in b]
                for x, y in zip(a, b):
                    np.testing.assert_allclose(x, y, rtol=1e-6)


def test_config_callbacks_order_matches_paddle(tmp_path):
    ref = paddle_ref()

    def names(fw, cbks, verbose):
        config = importlib.import_module(fw.__name__ + ".hapi.callbacks").config_callbacks
        user = [getattr(fw.callbacks, c)() for c in cbks]
        lst = config(user, model=make_model(fw), epochs=2, steps=3, verbose=verbose,
                     save_dir=str(tmp_path), metrics=["loss"])
        return [type(c).__name__ for c in lst.callbacks], lst.callbacks[0].params

    for cbks in ([], ["Callback"], ["ProgBarLogger"], ["ModelCheckpoint", "Callback"],
                 ["LRScheduler"], ["EarlyStopping", "ReduceLROnPlateau"]):
        for verbose in (0, 2):
            assert names(pagaie, cbks, verbose) == names(ref, cbks, verbose)
