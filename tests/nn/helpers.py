"""Shared helpers for layer tests: build the same layer in pagaie and in real Paddle,
give both Paddle's parameters, and compare outputs, parameter gradients and input
gradients.

Typical use::

    compare_layer(lambda nn: nn.Linear(3, 4), [np.random.rand(2, 3).astype('float32')])
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

import pagaie
from tests.reference import assert_same, paddle_ref

__all__ = ["copy_params", "compare_layer", "run_layer", "named_shapes"]


def copy_params(src: Any, dst: Any) -> None:
    """Copy every parameter and persistable buffer of Paddle layer ``src`` into pagaie
    layer ``dst`` (matched by structured name; shapes and dtypes must agree)."""
    theirs = src.state_dict()
    ours = dst.state_dict()
    assert list(ours) == list(theirs), f"state_dict keys differ:\n ours  {list(ours)}\n Paddle {list(theirs)}"
    missing, unexpected = dst.set_state_dict({k: v.numpy() for k, v in theirs.items()})
    assert not missing and not unexpected, (missing, unexpected)


def named_shapes(layer: Any) -> list:
    """``[(name, shape), ...]`` of a layer's parameters, in order."""
    return [(n, list(p.shape)) for n, p in layer.named_parameters()]


def run_layer(fw: Any, layer: Any, arrays: Sequence[np.ndarray], grad: bool = True,
              cot_seed: int = 1, **kwargs: Any) -> tuple:
    """Run ``layer`` on ``arrays`` in framework ``fw``; returns
    (output(s), {param name: grad}, [input grads]).

    Floating inputs get ``stop_gradient=False``; the backward pass uses a fixed random
    cotangent per floating output.
    """
    inputs = []
    for a in arrays:
        t = fw.to_tensor(a)
        if grad and a.dtype.kind == "f":
            t.stop_gradient = False
        inputs.append(t)
    out = layer(*inputs, **kwargs)
    if not grad:
        return out, {}, []
    outs = out if isinstance(out, (list, tuple)) else [out]
    fouts = [o for o in outs if hasattr(o, "dtype") and "float" in str(o.dtype) and not o.stop_gradient]
    if not fouts:
        return out, {}, []
    rng = np.random.default_rng(cot_seed)
    total = None
    for o in fouts:
        cot = fw.to_tensor(rng.standard_normal(o.shape).astype(str(o.dtype).replace("paddle.", "")))
        term = (o * cot).sum()
        total = term if total is None else total + term
    total.backward()
    pgrads = {n: (None if p.grad is None else p.grad.numpy()) for n, p in layer.named_parameters()}
    igrads = [None if (t.stop_gradient or t.grad is None) else t.grad.numpy() for t in inputs]
    return out, pgrads, igrads


def compare_layer(build: Callable[[Any], Any], arrays: Sequence[np.ndarray], rtol: float = 1e-5,
                  atol: float = 1e-6, grad: bool = True, train: bool | None = None,
                  check_repr: bool = True, **kwargs: Any) -> tuple:
    """Build ``build(nn)`` in both frameworks, copy Paddle's parameters into ours, run
    both on the same inputs and compare outputs, parameter names/shapes/gradients,
    input gradients and (optionally) the printed repr.

    Args:
        build: ``lambda nn: nn.Linear(3, 4)`` (receives ``paddle.nn`` or ``pagaie.nn``).
        arrays: numpy inputs (positional).
        rtol, atol: tolerances for values and gradients.
        grad: also compare gradients.
        train: call ``.train()`` (True) or ``.eval()`` (False) on both first.
        check_repr: compare ``repr(layer)``.
        **kwargs: passed to the layer call.

    Returns:
        (our layer, Paddle's layer).
    """
    paddle = paddle_ref()
    theirs = build(paddle.nn)
    ours = build(pagaie.nn)
    if train is not None:
        (theirs.train() if train else theirs.eval())
        (ours.train() if train else ours.eval())
    assert named_shapes(ours) == named_shapes(theirs), \
        f"parameters differ:\n ours  {named_shapes(ours)}\n Paddle {named_shapes(theirs)}"
    copy_params(theirs, ours)
    if check_repr:
        assert repr(ours) == repr(theirs), f"repr differs:\n ours:  {ours!r}\n Paddle: {theirs!r}"
    o_out, o_pg, o_ig = run_layer(pagaie, ours, arrays, grad, **kwargs)
    t_out, t_pg, t_ig = run_layer(paddle, theirs, arrays, grad, **kwargs)
    assert_same(o_out, t_out, rtol, atol, "layer output")
    if grad:
        assert set(o_pg) == set(t_pg)
        for name, tg in t_pg.items():
            og = o_pg[name]
            if tg is None:
                continue
            assert og is not None, f"no gradient for parameter {name}"
            np.testing.assert_allclose(og, tg, rtol=max(rtol, 1e-4), atol=max(atol, 1e-5),
                                       err_msg=f"grad of {name}")
        for i, (og, tg) in enumerate(zip(o_ig, t_ig)):
            if tg is None:
                continue
            assert og is not None, f"no gradient for input {i}"
            np.testing.assert_allclose(og, tg, rtol=max(rtol, 1e-4), atol=max(atol, 1e-5),
                                       err_msg=f"grad of input {i}")
    return ours, theirs
