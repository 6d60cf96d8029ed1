"""Optimizers against Paddle 3.3.1: the float16/bfloat16 accumulation warning, the INFO log
when a parameter's own regularizer overrides the optimizer's weight_decay, and Adam's
lazy_mode over the row-sparse gradient of an Embedding(sparse=True)."""
import logging
import warnings

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402

# (optimizer, takes multi_precision)
_OPTS = [("SGD", True), ("Momentum", True), ("Adam", True), ("AdamW", True), ("Lamb", True),
         ("ASGD", True), ("Rprop", True), ("Adamax", False), ("Adagrad", False),
         ("Adadelta", False), ("RMSProp", False), ("NAdam", False), ("RAdam", False)]


def _warnings(mod, name, dtype, mp, steps=2):
    """The optimizer's warnings over ``steps`` steps of a bfloat16/float32 weight (Paddle's
    CPU kernels are missing for most low-precision updates: the warnings come first)."""
    lin = mod.nn.Linear(4, 3)
    lin.to(dtype=dtype)
    w = lin.weight
    kw = {"multi_precision": mp} if mp is not None else {}
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        opt = getattr(mod.optimizer, name)(0.1, parameters=[w], **kw)
        try:
            for _ in range(steps):
                (w.astype("float32") ** 2).sum().backward()
                opt.step()
                opt.clear_grad()
        except RuntimeError:
            pass
    return [str(r.message) for r in rec if "Accumulating" in str(r.message)]


@pytest.mark.parametrize("name,has_mp", _OPTS)
@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
def test_low_precision_accumulation_warning(name, has_mp, dtype):
    for mp in ((False, True) if has_mp else (None,)):
        got = _warnings(pagaie, name, dtype, mp)
        assert got == _warnings(paddle, name, dtype, mp)
    if dtype == "bfloat16" and name != "Lamb":
        assert _warnings(pagaie, name, dtype, False if has_mp else None)


def test_sgd_warns_at_every_step():
    # SGD has no state to create, so Paddle looks at (and warns about) the parameter each step
    assert len(_warnings(pagaie, "SGD", "bfloat16", False, steps=3)) == 3
    assert len(_warnings(paddle, "SGD", "bfloat16", False, steps=3)) == 3


class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.mark.parametrize("decay", [0.01, "l1", None])
@pytest.mark.parametrize("grouped", [False, True])
def test_overridden_weight_decay_is_logged(decay, grouped):
    root = logging.getLogger()
    handler, level = _Records(), root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        logs = []
        for mod in (paddle, pagaie):
            handler.messages.clear()
            reg = mod.regularizer.L2Decay(0.1)
            lin = mod.nn.Linear(2, 2, weight_attr=mod.ParamAttr(regularizer=reg))
            wd = mod.regularizer.L1Decay(0.2) if decay == "l1" else decay
            params = [{"params": lin.parameters()}] if grouped else lin.parameters()
            mod.optimizer.Adam(0.1, parameters=params, weight_decay=wd)
            logs.append([m for m in handler.messages if "weight_decay[" in m])
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    assert logs[1] == logs[0]
    assert bool(logs[1]) == (decay is not None and not grouped)


def _lazy_run(mod, lazy, sparse=True):
    """Per step, which rows of an Embedding's weight and moment1 changed, and the weight."""
    emb = mod.nn.Embedding(4, 2, sparse=sparse)
    emb.weight.set_value(mod.ones([4, 2]))
    opt = mod.optimizer.Adam(0.1, parameters=emb.parameters(), lazy_mode=lazy)
    changed, prev_w, prev_m = [], emb.weight.numpy().copy(), 0.0
    for ids in ([0, 2], [1], [2, 2]):
        (emb(mod.to_tensor(ids)) * mod.to_tensor([[1.0, 2.0]])).sum().backward()
        opt.step()
        opt.clear_grad()
        w = emb.weight.numpy().copy()
        m = next(v for k, v in opt.state_dict().items() if "moment1" in k).numpy().copy()
        changed.append(((w != prev_w).any(1).tolist(), (m != prev_m).any(1).tolist()))
        prev_w, prev_m = w, m
    return changed, prev_w


@pytest.mark.parametrize("lazy", [False, True])
def test_adam_lazy_mode_updates_only_looked_up_rows(lazy):
    got, w = _lazy_run(pagaie, lazy)
    assert got == _lazy_run(paddle, lazy)[0]
    if not lazy:  # without lazy mode a row-sparse gradient updates as a dense one does
        np.testing.assert_allclose(w, _lazy_run(paddle, False, sparse=False)[1], rtol=1e-6)
