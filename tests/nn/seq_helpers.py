"""Run a sequence layer (RNN, attention) in pagaie and in real Paddle with the same
parameters and inputs; compare outputs, parameter gradients and input gradients.

Unlike ``helpers.compare_layer`` the call is a function of the framework, so it can pass
keyword tensors (``sequence_length``, masks, caches) built in that framework.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

import pagaie
from tests.nn.helpers import copy_params
from tests.reference import assert_same, paddle_ref

__all__ = ["compare_seq", "flat"]


def flat(v: Any) -> list:
    if isinstance(v, (list, tuple)):
        return [e for item in v for e in flat(item)]
    return [v]


def _run(fw: Any, layer: Any, call: Callable, arrays: list, grad: bool, train: bool) -> tuple:
    layer.train() if train else layer.eval()
    inputs = []
    for a in arrays:
        t = fw.to_tensor(a)
        if grad and a.dtype.kind == "f":
            t.stop_gradient = False
        inputs.append(t)
    out = call(fw, layer, *inputs)
    if not grad:
        return out, {}, []
    rng = np.random.default_rng(7)
    total = None
    for o in flat(out):
        if hasattr(o, "dtype") and "float" in str(o.dtype) and not o.stop_gradient:
            cot = fw.to_tensor(rng.standard_normal(o.shape).astype(str(o.dtype).replace("paddle.", "")))
            term = (o * cot).sum()
            total = term if total is None else total + term
    total.backward()
    pg = {n: (None if p.grad is None else p.grad.numpy()) for n, p in layer.named_parameters()}
    ig = [None if t.stop_gradient or t.grad is None else t.grad.numpy() for t in inputs]
    return out, pg, ig


def compare_seq(build: Callable[[Any], Any], call: Callable, arrays: list, rtol: float = 1e-5,
                atol: float = 1e-5, grad: bool = True, train: bool = False,
                check_repr: bool = True) -> tuple:
    """``build(nn)`` in both frameworks, copy Paddle's state into ours, then compare
    ``call(fw, layer, *tensors)`` (tensors made from ``arrays``) and its gradients."""
    paddle = paddle_ref()
    theirs = build(paddle.nn)
    ours = build(pagaie.nn)
    copy_params(theirs, ours)
    if check_repr:
        assert repr(ours) == repr(theirs), f"repr differs:\n ours:  {ours!r}\n Paddle: {theirs!r}"
    o_out, o_pg, o_ig = _run(pagaie, ours, call, arrays, grad, train)
    t_out, t_pg, t_ig = _run(paddle, theirs, call, arrays, grad, train)
    assert_same(o_out, t_out, rtol, atol, "layer output")
    if grad:
        assert set(o_pg) == set(t_pg), (sorted(o_pg), sorted(t_pg))
        for name, tg in t_pg.items():
            if tg is None:
                continue
            assert o_pg[name] is not None, f"no gradient for parameter {name}"
            np.testing.assert_allclose(o_pg[name], tg, rtol=max(rtol, 1e-4), atol=max(atol, 1e-4),
                                       err_msg=f"grad of {name}")
        for i, (og, tg) in enumerate(zip(o_ig, t_ig)):
            if tg is not None:
                assert og is not None, f"no gradient for input {i}"
                np.testing.assert_allclose(og, tg, rtol=max(rtol, 1e-4), atol=max(atol, 1e-4),
                                           err_msg=f"grad of input {i}")
    return ours, theirs
