"""paddle.callbacks and the progress output of paddle.Model, against real Paddle 3.3.1."""
from __future__ import annotations

import os
import re
import struct

import numpy as np
import pytest

import pagaie
from tests.hapi.helpers import X, Y, Loader, assert_logs_close, make_model, recorder
from tests.reference import paddle_ref

try:  # import real Paddle now: its progress bar keeps the sys.stdout of its import time
    import paddle as _real_paddle  # noqa: F401
except ImportError:
    pass

CALLBACK_NAMES = ["Callback", "EarlyStopping", "LRScheduler", "ModelCheckpoint", "ProgBarLogger",
                  "ReduceLROnPlateau", "VisualDL", "WandbCallback"]


def _normalise(text: str) -> str:
    """Drop what depends on the clock: speeds and ETAs."""
    text = re.sub(r" - \d+(s|ms|us)/step", " - T/step", text)
    text = re.sub(r" - ETA: [0-9:]+s?", " - ETA", text)
    # verbose=1 redraws with backspaces and pads to the previous width, which depends on times
    return re.sub(r" *\x08+\r", "\r", re.sub(r" +\n", "\n", text))


def _fit_output(fw, capsys, verbose, **kw):
    model = make_model(fw)
    capsys.readouterr()
    model.fit(Loader(fw, X, Y), Loader(fw, X[:8], Y[:8]), epochs=2, verbose=verbose, log_freq=2,
              **kw)
    model.evaluate(Loader(fw, X[:8], Y[:8]), verbose=verbose, log_freq=1)
    model.predict(Loader(fw, X[:5], batch_size=2), verbose=verbose)
    return _normalise(capsys.readouterr().out)


def test_all_callback_names_exist():
    for name in CALLBACK_NAMES:
        assert issubclass(getattr(pagaie.callbacks, name), pagaie.callbacks.Callback)
    assert sorted(pagaie.callbacks.__all__) == sorted(CALLBACK_NAMES)


@pytest.mark.parametrize("verbose", [1, 2, 3])
def test_progress_output_matches_paddle(capsys, verbose):
    paddle = paddle_ref()
    ours = _fit_output(pagaie, capsys, verbose)
    theirs = _fit_output(paddle, capsys, verbose)
    if verbose == 3:  # reader/batch costs are timings too
        ours, theirs = (re.sub(r"\d+\.\d+ (sec|samples/sec)", "N", s) for s in (ours, theirs))
    assert ours == theirs
    if verbose == 2:
        assert "Epoch 1/2\nstep 2/6 - loss: " in ours and "Eval samples: 8" in ours


def test_verbose_0_is_silent(capsys):
    model = make_model(pagaie)
    capsys.readouterr()
    model.fit(Loader(pagaie, X, Y), epochs=1, verbose=0)
    model.evaluate(Loader(pagaie, X, Y), verbose=0)
    assert capsys.readouterr().out == ""


def _early_stop(fw, tmp, **kw):
    model = make_model(fw)
    rec = recorder(fw)
    stop = fw.callbacks.EarlyStopping(**kw)
    model.fit(Loader(fw, X, Y), Loader(fw, X[:8], Y[:8]), epochs=8, verbose=0,
              callbacks=[stop, rec], save_dir=tmp)
    return rec, stop


@pytest.mark.parametrize("kw", [dict(monitor="loss", patience=1, min_delta=0.02),
                                dict(monitor="acc_top1", mode="max", patience=0),
                                dict(monitor="loss", baseline=0.0, patience=2, verbose=0)])
def test_early_stopping_matches_paddle(tmp_path, capsys, kw):
    paddle = paddle_ref()
    ours, our_stop = _early_stop(pagaie, str(tmp_path / "ours"), **kw)
    our_out = capsys.readouterr().out.replace(str(tmp_path / "ours"), "DIR")
    theirs, their_stop = _early_stop(paddle, str(tmp_path / "theirs"), **kw)
    their_out = capsys.readouterr().out.replace(str(tmp_path / "theirs"), "DIR")
    assert len(ours.train) == len(theirs.train) < 8
    assert_logs_close(ours.eval, theirs.eval)
    assert our_stop.best_value == pytest.approx(their_stop.best_value, rel=1e-4)
    assert our_out == their_out
    assert sorted(os.listdir(tmp_path / "ours")) == sorted(os.listdir(tmp_path / "theirs"))


def test_model_checkpoint_files_match_paddle(tmp_path):
    paddle = paddle_ref()
    for fw, sub in ((pagaie, "ours"), (paddle, "theirs")):
        model = make_model(fw)
        model.fit(Loader(fw, X, Y), epochs=3, verbose=0, save_dir=str(tmp_path / sub),
                  save_freq=2)
    ours = sorted(os.listdir(tmp_path / "ours"))
    assert ours == sorted(os.listdir(tmp_path / "theirs"))
    assert ours == ["0.pdopt", "0.pdparams", "2.pdopt", "2.pdparams", "final.pdopt",
                    "final.pdparams"]
    ours = pagaie.load(str(tmp_path / "ours" / "final.pdparams"))
    theirs = paddle.load(str(tmp_path / "theirs" / "final.pdparams"))
    for k in theirs:
        np.testing.assert_allclose(ours[k].numpy(), theirs[k].numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("by", ["step", "epoch"])
def test_lr_scheduler_callback_matches_paddle(by):
    paddle = paddle_ref()
    lrs = {}
    for fw in (pagaie, paddle):
        model = fw.Model(fw.nn.Linear(4, 3))
        sched = fw.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5)
        model.prepare(fw.optimizer.SGD(sched, parameters=model.parameters()),
                      fw.nn.CrossEntropyLoss())
        cb = fw.callbacks.LRScheduler(by_step=by == "step", by_epoch=by == "epoch")
        model.fit(Loader(fw, X, Y), epochs=3, verbose=0, callbacks=[cb])
        lrs[fw] = (sched.last_epoch, model._optimizer.get_lr())
    assert lrs[pagaie] == pytest.approx(lrs[paddle])
    with pytest.raises(ValueError, match="mutually exclusive"):
        pagaie.callbacks.LRScheduler(by_step=True, by_epoch=True)


class _FakeOptimizer:
    def __init__(self, lr):
        self._learning_rate = lr

    def get_lr(self):
        return self._learning_rate


class _FakeModel:
    def __init__(self, lr):
        self._optimizer = _FakeOptimizer(lr)
        self.stop_training = False


@pytest.mark.parametrize("kw", [dict(factor=0.5, patience=1, min_delta=0.05),
                                dict(monitor="acc", factor=0.2, patience=0, cooldown=1,
                                     min_lr=0.01)])
def test_reduce_lr_on_plateau_decisions_match_paddle(capsys, kw):
    # Driven with the same evaluation results in both (in a real fit Paddle's dygraph SGD keeps
    # using its cached first learning rate, so the trajectories would differ).
    paddle = paddle_ref()
    values = [0.9, 0.8, 0.79, 0.78, 0.5, 0.49, 0.6, 0.6, 0.3]
    got = {}
    for fw in (pagaie, paddle):
        cb = fw.callbacks.ReduceLROnPlateau(**kw)
        cb.set_model(_FakeModel(0.5))
        cb.on_train_begin()
        lrs = []
        for v in values:
            cb.on_eval_end({"loss": [v], "acc": v})
            lrs.append(cb.model._optimizer.get_lr())
        got[fw] = lrs, capsys.readouterr().out
    assert got[pagaie][0] == pytest.approx(got[paddle][0])
    assert got[pagaie][1] == got[paddle][1]
    with pytest.raises(ValueError):
        pagaie.callbacks.ReduceLROnPlateau(factor=1.0)


def test_reduce_lr_on_plateau_lowers_only_the_reported_rate():
    # As Paddle: the callback puts the new float in the optimizer's ``_learning_rate``, which
    # get_lr() reports, while the steps keep the learning-rate variable made at the first step
    model = make_model(pagaie, lr=0.5, optimizer="SGD")
    cb = pagaie.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0,
                                            min_delta=10.0, verbose=0)
    model.fit(Loader(pagaie, X, Y), Loader(pagaie, X[:8], Y[:8]), epochs=2, verbose=0,
              callbacks=[cb])
    assert model._optimizer.get_lr() == 0.25  # the first evaluation sets the best value
    w = model.network[2].bias.numpy().copy()
    model.train_batch([X[:4]], [Y[:4]], update=False)
    grad = model.network[2].bias.grad.numpy().copy()
    model._optimizer.step()
    np.testing.assert_allclose(model.network[2].bias.numpy(), w - 0.5 * grad, rtol=1e-5,
                               atol=1e-7)


def _read_events(path: str) -> list:
    """Parse a TensorBoard event file record by record (length, crc, payload, crc)."""
    from tensorboardX.proto import event_pb2

    events = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        (length,) = struct.unpack("<Q", data[pos:pos + 8])
        payload = data[pos + 12:pos + 12 + length]
        pos += 12 + length + 4
        ev = event_pb2.Event()
        ev.ParseFromString(payload)
        events.append(ev)
    return events


def test_visualdl_writes_readable_event_files(tmp_path):
    model = make_model(pagaie)
    rec = recorder(pagaie)
    log_dir = str(tmp_path / "vdl")
    model.fit(Loader(pagaie, X, Y), Loader(pagaie, X[:8], Y[:8]), epochs=2, verbose=0,
              callbacks=[pagaie.callbacks.VisualDL(log_dir), rec])
    files = os.listdir(log_dir)
    assert len(files) == 1 and files[0].startswith("events.out.tfevents")
    scalars: dict = {}
    for ev in _read_events(os.path.join(log_dir, files[0])):
        for v in ev.summary.value:
            scalars.setdefault(v.tag, []).append((ev.step, v.simple_value))
    assert set(scalars) == {"train/loss", "train/acc_top1", "train/acc_top2", "eval/loss",
                            "eval/acc_top1", "eval/acc_top2"}
    assert [s for s, _ in scalars["train/loss"]] == list(range(1, 13))
    assert [s for s, _ in scalars["eval/acc_top1"]] == [0, 1]
    np.testing.assert_allclose([v for _, v in scalars["eval/loss"]],
                               [e["loss"][0] for e in rec.eval], rtol=1e-6)
    np.testing.assert_allclose(scalars["train/acc_top2"][5][1], rec.train[0]["acc_top2"],
                               rtol=1e-6)


def test_wandb_callback_needs_wandb():
    try:
        import wandb  # noqa: F401
        pytest.skip("wandb is installed")
    except ImportError:
        pass
    with pytest.raises(ImportError, match="wandb"):
        pagaie.callbacks.WandbCallback(project="x", mode="offline")
