"""Run an optimizer / LR scheduler in pagaie and in real Paddle and compare parameters after
each step and the optimizer / scheduler state dicts."""
from __future__ import annotations

from typing import Any

import numpy as np

import pagaie
from tests.reference import paddle_ref

X = np.random.default_rng(7).standard_normal((6, 4)).astype("float32")
Y = np.random.default_rng(8).standard_normal((6, 2)).astype("float32")


def build_model(fw: Any) -> Any:
    with fw.utils.unique_name.guard():
        return fw.nn.Sequential(fw.nn.Linear(4, 3), fw.nn.Tanh(), fw.nn.Linear(3, 2))


def _resolve(fw: Any, kwargs: dict, model: Any) -> dict:
    out = {}
    for k, v in kwargs.items():
        if k == "parameters" and v == "groups":
            out[k] = [{"params": model[0].parameters(), "learning_rate": 0.5, "weight_decay": 0.01},
                      {"params": model[2].parameters()}]
        elif callable(v):
            out[k] = v(fw)
        else:
            out[k] = v
    out.setdefault("parameters", model.parameters())
    return out


def run_optimizer(fw: Any, cls: str, kwargs: dict, steps: int = 3, model_state: dict | None = None) -> tuple:
    with fw.utils.unique_name.guard():  # fresh names for parameters and accumulators
        return _run_optimizer(fw, cls, kwargs, steps, model_state)


def _run_optimizer(fw: Any, cls: str, kwargs: dict, steps: int, model_state: dict | None,
                   opt_state: dict | None = None) -> tuple:
    model = build_model(fw)
    if model_state is not None:
        model.set_state_dict(model_state)
    kw = _resolve(fw, kwargs, model)
    opt = getattr(fw.optimizer, cls)(**kw)
    if opt_state is not None:
        opt.set_state_dict(opt_state)
    sched = kw.get("learning_rate") if not isinstance(kw.get("learning_rate"), (int, float)) else None
    history = []
    x, y = fw.to_tensor(X), fw.to_tensor(Y)
    for _ in range(steps):
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        if sched is not None:
            sched.step()
        history.append({n: p.numpy().copy() for n, p in model.named_parameters()})
        history[-1]["lr"] = opt.get_lr()
    return history, opt.state_dict(), model


def _value(v: Any) -> Any:
    if hasattr(v, "numpy"):
        return np.asarray(v.numpy())
    if isinstance(v, dict):
        return {k: _value(e) for k, e in v.items()}
    return v


def compare_state(ours: Any, theirs: Any, what: str, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    ours, theirs = _value(ours), _value(theirs)
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), f"{what}: expected a dict, got {type(ours).__name__}"
        assert sorted(ours) == sorted(theirs), f"{what}: keys differ\n ours   {sorted(ours)}\n Paddle {sorted(theirs)}"
        for k in theirs:
            compare_state(ours[k], theirs[k], f"{what}[{k}]", rtol, atol)
        return
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), f"{what}: expected an array, got {type(ours).__name__}"
        assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} vs Paddle's {theirs.shape}"
        assert ours.dtype == theirs.dtype, f"{what}: dtype {ours.dtype} vs Paddle's {theirs.dtype}"
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, err_msg=what)
        return
    if isinstance(theirs, float) or isinstance(ours, float):
        assert np.isclose(ours, theirs, rtol=rtol, atol=atol), f"{what}: {ours!r} vs Paddle's {theirs!r}"
        return
    if isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs), f"{what}: {ours!r} vs Paddle's {theirs!r}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            compare_state(a, b, f"{what}[{i}]", rtol, atol)
        return
    assert ours == theirs, f"{what}: {ours!r} vs Paddle's {theirs!r}"


def check_optimizer(cls: str, kwargs: dict, steps: int = 3) -> None:
    paddle = paddle_ref()
    start = _fixed_start(paddle)  # both start from the same parameters
    t_hist, t_state, _ = run_optimizer(paddle, cls, kwargs, steps, model_state=start)
    o_hist, o_state, _ = run_optimizer(pagaie, cls, kwargs, steps, model_state=start)
    for i, (o, t) in enumerate(zip(o_hist, t_hist)):
        for k in t:
            compare_state(o[k], t[k], f"{cls} step {i + 1}: {k}", rtol=1e-4, atol=1e-6)
    compare_state(o_state, t_state, f"{cls} state_dict", rtol=1e-4, atol=1e-6)


def run_scheduler(fw: Any, cls: str, args: tuple, kwargs: dict, steps: int, metrics: list | None) -> tuple:
    args = tuple(fw.optimizer.lr.ExponentialDecay(0.5, 0.9) if a == "SCHED" else a for a in args)
    s = getattr(fw.optimizer.lr, cls)(*args, **kwargs)
    lrs = [s()]
    for i in range(steps):
        if metrics is not None:
            s.step(metrics[i])
        else:
            s.step()
        lrs.append(s())
    return lrs, s.state_dict(), s.last_epoch


def check_scheduler(cls: str, args: tuple, kwargs: dict, steps: int = 10, metrics: list | None = None) -> None:
    paddle = paddle_ref()
    t = run_scheduler(paddle, cls, args, kwargs, steps, metrics)
    o = run_scheduler(pagaie, cls, args, kwargs, steps, metrics)
    compare_state(o[0], t[0], f"{cls} learning rates", rtol=1e-6, atol=1e-9)
    compare_state(o[1], t[1], f"{cls} state_dict", rtol=1e-6, atol=1e-9)
    assert o[2] == t[2], f"{cls}: last_epoch {o[2]} vs Paddle's {t[2]}"


def _numpy_state(state: Any) -> Any:
    if hasattr(state, "numpy"):
        return state.numpy()
    if isinstance(state, dict):
        return {k: _numpy_state(v) for k, v in state.items()}
    return state


def check_optimizer_resume(cls: str, kwargs: dict) -> None:
    """Paddle trains 2 steps; its model and optimizer state dicts are loaded into pagaie; both
    train 2 more steps and must agree (state-dict interoperability)."""
    paddle = paddle_ref()
    start = _fixed_start(paddle)
    with paddle.utils.unique_name.guard():
        _, t_state, t_model = _run_optimizer(paddle, cls, kwargs, 2, start)
        mid = {k: v.numpy() for k, v in t_model.state_dict().items()}
        opt_state = _numpy_state(t_state)
    with paddle.utils.unique_name.guard():
        t_hist, t_state2, _ = _run_optimizer(paddle, cls, kwargs, 2, mid, opt_state)
    with pagaie.utils.unique_name.guard():
        o_hist, o_state2, _ = _run_optimizer(pagaie, cls, kwargs, 2, mid, opt_state)
    for i, (o, t) in enumerate(zip(o_hist, t_hist)):
        for k in t:
            compare_state(o[k], t[k], f"{cls} resumed step {i + 1}: {k}", rtol=1e-4, atol=1e-6)
    compare_state(o_state2, t_state2, f"{cls} resumed state_dict", rtol=1e-4, atol=1e-6)


def _fixed_start(paddle: Any) -> dict:
    rng = np.random.default_rng(21)
    return {k: (rng.standard_normal(v.shape) * 0.5).astype("float32")
            for k, v in build_model(paddle).state_dict().items()}


def check_lbfgs(kwargs: dict, steps: int = 2) -> None:
    paddle = paddle_ref()
    start = _fixed_start(paddle)
    res = []
    for fw in (paddle, pagaie):
        with fw.utils.unique_name.guard():
            model = build_model(fw)
            model.set_state_dict(start)
            opt = fw.optimizer.LBFGS(parameters=model.parameters(), **kwargs)
            x, y = fw.to_tensor(X), fw.to_tensor(Y)

            def closure():
                opt.clear_grad()
                loss = ((model(x) - y) ** 2).mean()
                loss.backward()
                return loss
            losses = [float(opt.step(closure)) for _ in range(steps)]
            res.append((losses, {n: p.numpy() for n, p in model.named_parameters()}, opt.state_dict()))
    (ol, op, os_), (tl, tp, ts) = res
    compare_state(ol, tl, "LBFGS losses", rtol=1e-4, atol=1e-6)
    # many inner iterations amplify float32 rounding differences a little
    compare_state(op, tp, "LBFGS parameters", rtol=1e-3, atol=2e-4)
    compare_state(sorted(os_), sorted(ts), "LBFGS state_dict keys")
