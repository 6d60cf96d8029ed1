"""Differential helpers for the nn audit: run one call or one layer in pagaie and in real
Paddle 3.3.1 and compare everything observable (outputs, dtypes, gradients, state dicts,
reprs, exception types).

A functional case is ``F(id, fn, inputs, ...)``: ``fn(fw, *tensors)`` is called with
``fw`` = ``pagaie`` or ``paddle``; ``inputs`` are shapes (filled with normal floats of the
dtype under test) or fixed numpy arrays. A layer case is ``L(id, build, inputs, ...)``:
``build(nn)`` makes the layer; Paddle's parameters are copied into ours by state-dict name.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np

import pagaie
from tests.reference import assert_same, dtype_name, paddle_ref

FLOATS = ("float32", "float64")


@dataclasses.dataclass
class F:
    """One functional call compared with Paddle."""

    id: str
    fn: Callable
    inputs: list
    dtypes: tuple = FLOATS
    grad: bool = True
    rtol: float = 1e-5
    atol: float = 1e-6
    kind: str = "normal"  # how shapes are filled: normal | pos | unit
    slow: bool = False


@dataclasses.dataclass
class E:
    """A call that must raise the same exception type in both frameworks (or, where Paddle
    accepts it, must not raise in pagaie either)."""

    id: str
    fn: Callable


@dataclasses.dataclass
class L:
    """One layer compared with Paddle (repr, state dict, outputs, gradients)."""

    id: str
    build: Callable
    inputs: list
    dtypes: tuple = ("float32",)
    grad: bool = True
    rtol: float = 1e-5
    atol: float = 1e-6
    modes: tuple = ("train", "eval")
    kwargs: dict = dataclasses.field(default_factory=dict)
    check_repr: bool = True
    kind: str = "normal"
    slow: bool = False
    select: Callable | None = None  # picks the outputs compared (and differentiated)
    sync: Callable | None = None    # sync(ours, theirs): copies state not in the state dict
    eval_grad: bool = True          # also differentiate in eval mode


def make_inputs(specs: list, dtype: str, seed: int = 0, kind: str = "normal") -> list:
    rng = np.random.default_rng(seed)
    out = []
    for s in specs:
        if isinstance(s, np.ndarray):
            out.append(s)
        elif callable(s):
            out.append(s(rng, dtype))
        elif isinstance(s, tuple):
            if kind == "pos":
                a = rng.uniform(0.2, 1.0, s)
            elif kind == "unit":
                a = rng.uniform(0.05, 0.95, s)
            else:
                a = rng.standard_normal(s)
            out.append(a.astype(dtype))
        else:
            out.append(s)
    return out


def _tensors(fw: Any, arrays: list, grad: bool) -> list:
    ts = []
    for a in arrays:
        if isinstance(a, np.ndarray):
            t = fw.to_tensor(a)
            if grad and a.dtype.kind == "f":
                t.stop_gradient = False
            ts.append(t)
        else:
            ts.append(a)
    return ts


def _flat(out: Any) -> list:
    if isinstance(out, (list, tuple)):
        r = []
        for o in out:
            r.extend(_flat(o))
        return r
    if isinstance(out, dict):
        r = []
        for k in sorted(out):
            r.extend(_flat(out[k]))
        return r
    return [out]


def _backward(fw: Any, out: Any, seed: int = 1) -> bool:
    outs = [o for o in _flat(out) if hasattr(o, "stop_gradient") and "float" in str(o.dtype)
            and not o.stop_gradient]
    if not outs:
        return False
    rng = np.random.default_rng(seed)
    total = None
    for o in outs:
        cot = fw.to_tensor(rng.standard_normal(o.shape).astype(dtype_name(o)))
        term = (o * cot).sum()
        total = term if total is None else total + term
    total.backward()
    return True


def run_fn(fw: Any, fn: Callable, arrays: list, grad: bool) -> tuple:
    ts = _tensors(fw, arrays, grad)
    out = fn(fw, *ts)
    grads = []
    if grad and _backward(fw, out):
        grads = [None if (not hasattr(t, "grad") or t.grad is None) else t.grad.numpy() for t in ts]
    return out, grads


def _grads_close(ours: list, theirs: list, rtol: float, atol: float, what: str) -> None:
    for i, tg in enumerate(theirs):
        og = ours[i] if i < len(ours) else None
        if tg is None:
            continue
        assert og is not None, f"{what}: no gradient for input {i}"
        np.testing.assert_allclose(og, tg, rtol=max(rtol, 1e-4), atol=max(atol, 1e-5),
                                   err_msg=f"{what}: grad of input {i}")


def check_fn(case: F, dtype: str) -> None:
    paddle = paddle_ref()
    arrays = make_inputs(case.inputs, dtype, kind=case.kind)
    t_out, t_g = run_fn(paddle, case.fn, arrays, case.grad)
    o_out, o_g = run_fn(pagaie, case.fn, arrays, case.grad)
    assert_same(o_out, t_out, case.rtol, case.atol, case.id)
    if case.grad:
        _grads_close(o_g, t_g, case.rtol, case.atol, case.id)


def check_error(case: E) -> None:
    paddle = paddle_ref()
    theirs = ours = None
    try:
        case.fn(paddle)
    except Exception as exc:  # noqa: BLE001
        theirs = exc
    try:
        case.fn(pagaie)
    except Exception as exc:  # noqa: BLE001
        ours = exc
    if theirs is None:
        assert ours is None, f"{case.id}: pagaie raised {type(ours).__name__}: {ours}, Paddle accepts the call"
        return
    assert ours is not None, f"{case.id}: pagaie did not raise (Paddle: {type(theirs).__name__}: {theirs})"
    assert isinstance(ours, type(theirs)), (
        f"{case.id}: pagaie raised {type(ours).__name__}: {ours}\n Paddle raised {type(theirs).__name__}: {theirs}")


def state_summary(layer: Any) -> list:
    return [(k, list(v.shape), dtype_name(v)) for k, v in layer.state_dict().items()]


def copy_state(src: Any, dst: Any) -> None:
    dst.set_state_dict({k: v.numpy() for k, v in src.state_dict().items()})


def check_layer(case: L, dtype: str) -> None:
    paddle = paddle_ref()
    if dtype != "float32":
        paddle.set_default_dtype(dtype)
        pagaie.set_default_dtype(dtype)
    try:
        theirs = case.build(paddle.nn)
        ours = case.build(pagaie.nn)
    finally:
        paddle.set_default_dtype("float32")
        pagaie.set_default_dtype("float32")
    assert state_summary(ours) == state_summary(theirs), (
        f"{case.id}: state_dict differs\n ours   {state_summary(ours)}\n Paddle {state_summary(theirs)}")
    assert [(n, p.stop_gradient) for n, p in ours.named_parameters()] == \
        [(n, p.stop_gradient) for n, p in theirs.named_parameters()], f"{case.id}: parameters differ"
    if case.check_repr:
        assert repr(ours) == repr(theirs), f"{case.id}: repr differs\n ours:   {ours!r}\n Paddle: {theirs!r}"
    copy_state(theirs, ours)
    if case.sync is not None:
        case.sync(ours, theirs)
    arrays = make_inputs(case.inputs, dtype, kind=case.kind)
    sel = case.select or (lambda o: o)
    for mode in case.modes:
        (theirs.train() if mode == "train" else theirs.eval())
        (ours.train() if mode == "train" else ours.eval())
        assert ours.training == theirs.training
        for lay in (ours, theirs):
            lay.clear_gradients()
        grad = case.grad and (mode == "train" or case.eval_grad)
        keep = []  # Paddle's fused RNN backward crashes if an unused output was freed

        def call(layer):
            return lambda fw, *a: sel(keep.append(layer(*a, **case.kwargs)) or keep[-1])
        t_out, t_g = run_fn(paddle, call(theirs), arrays, grad)
        o_out, o_g = run_fn(pagaie, call(ours), arrays, grad)
        what = f"{case.id}[{mode}]"
        assert_same(o_out, t_out, case.rtol, case.atol, what)
        if grad:
            _grads_close(o_g, t_g, case.rtol, case.atol, what)
            tp = {n: p.grad for n, p in theirs.named_parameters()}
            op = {n: p.grad for n, p in ours.named_parameters()}
            for n, g in tp.items():
                if g is None:
                    continue
                assert op[n] is not None, f"{what}: no gradient for parameter {n}"
                np.testing.assert_allclose(op[n].numpy(), g.numpy(), rtol=max(case.rtol, 1e-4),
                                           atol=max(case.atol, 1e-5), err_msg=f"{what}: grad of {n}")
        # buffers updated by the forward (running statistics) agree
        ts, os_ = theirs.state_dict(), ours.state_dict()
        for k, v in ts.items():
            np.testing.assert_allclose(os_[k].numpy(), v.numpy(), rtol=max(case.rtol, 1e-5),
                                       atol=max(case.atol, 1e-6), err_msg=f"{what}: state {k} after forward")
