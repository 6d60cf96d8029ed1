"""Session-22 sweep of the optimizers, learning-rate handling, hapi ``Model`` / callbacks and
``paddle.metric`` against real Paddle 3.3.1: the logs dict ``fit`` hands its callbacks (one dict
shared by every epoch, so ``on_train_end`` sees the last evaluation), and the learning rate a
step uses once Paddle's learning-rate variable exists (a float put in ``_learning_rate``, as
hapi's ReduceLROnPlateau does, only shows in ``get_lr()``)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.hapi.helpers import X, Y, Loader, make_model
from tests.reference import assert_same, both

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
