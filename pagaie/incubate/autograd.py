"""``paddle.incubate.autograd``: functional differentiation (``vjp``, ``jvp``, ``Jacobian``,
``Hessian``) over :func:`pagaie.grad`, and the static-graph-only primitive switches."""
from __future__ import annotations

from typing import Any, Callable

import pagaie as _p

__all__ = ["vjp", "jvp", "Jacobian", "Hessian", "enable_prim", "disable_prim", "prim_enabled",
           "forward_grad", "grad"]

_PRIM = {"enabled": False}


def _as_list(api: str, arg: str, xs, error: type[Exception] = TypeError) -> tuple[list, bool]:
    single = isinstance(xs, _p.Tensor)
    seq = [xs] if single else list(xs) if isinstance(xs, (list, tuple)) else None
    if seq is None or not all(isinstance(t, _p.Tensor) for t in seq):
        raise error(f"paddle.incubate.autograd.{api}: all elements of '{arg}' should be "
                    f"Tensor, but received {xs!r}")
    return seq, single


def _inputs(xs) -> list:
    """Fresh differentiable leaves with the values of ``xs`` (so ``xs`` collect no grad)."""
    out = []
    for x in xs:
        y = x.detach()
        y.stop_gradient = False
        out.append(y)
    return out


def _check_func(api: str, func) -> None:
    if not callable(func):
        raise TypeError(f"paddle.incubate.autograd.{api}: 'func' must be callable, but received "
                        f"{type(func).__name__}")


def _zeros_for(x):
    # As in Paddle, the zeros standing in for an unused input's gradient keep its
    # stop_gradient flag.
    z = _p.zeros_like(x)
    z.stop_gradient = x.stop_gradient
    return z


def _raw_grads(ys: list, xs: list, vs: list | None, create_graph: bool) -> list:
    """Gradients of ``ys`` (weighted by ``vs``) with respect to ``xs``, None where unused: as
    in Paddle, a program being built (static mode) gets backward ops appended instead."""
    if not _p.in_dynamic_mode():
        return list(_p.static.gradients(ys, xs, vs))
    return list(_p.grad(ys, xs, vs, retain_graph=True, create_graph=create_graph, allow_unused=True))


def _grads(ys: list, xs: list, vs: list | None, create_graph: bool = False) -> list:
    gs = _raw_grads(ys, xs, vs, create_graph)
    return [_zeros_for(x) if g is None else g for g, x in zip(gs, xs)]


def _check_v(api: str, vs: list, like: list) -> None:
    if len(vs) != len(like):
        raise RuntimeError(f"paddle.incubate.autograd.{api}: 'v' must have {len(like)} tensors, "
                           f"but received {len(vs)}")
    for i, (v, t) in enumerate(zip(vs, like)):
        if list(v.shape) != list(t.shape):
            raise RuntimeError(f"paddle.incubate.autograd.{api}: v[{i}] must have shape "
                               f"{list(t.shape)}, but received {list(v.shape)}")


def _pack(seq: list, single: bool):
    return seq[0] if single else tuple(seq)


def vjp(func: Callable, xs, v=None):
    """Vector-Jacobian product: ``(func(xs), v^T J)``, ``v`` defaulting to ones.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> ys, g = paddle.incubate.autograd.vjp(lambda x: x * x, x)
        >>> g.tolist()
        [2.0, 4.0]
    """
    _check_func("vjp", func)
    xs_l, x_single = _as_list("vjp", "xs", xs)
    xs_l = _inputs(xs_l)
    ys = func(*xs_l)
    ys_l, _ = _as_list("vjp", "func(xs)", ys, AssertionError)   # Paddle asserts them
    if v is None:
        vs = [_p.ones_like(y) for y in ys_l]
    else:
        vs, _ = _as_list("vjp", "v", v)
        _check_v("vjp", vs, ys_l)
    gs = _grads(ys_l, xs_l, vs, create_graph=True)
    return ys, _pack(gs, x_single)


def jvp(func: Callable, xs, v=None):
    """Jacobian-vector product: ``(func(xs), J v)``, ``v`` defaulting to ones.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> ys, t = paddle.incubate.autograd.jvp(lambda x: x * x, x)
        >>> t.tolist()
        [2.0, 4.0]
    """
    _check_func("jvp", func)
    xs_l, _ = _as_list("jvp", "xs", xs)
    xs_l = _inputs(xs_l)
    if v is None:
        vs = [_p.ones_like(x) for x in xs_l]
    else:
        vs, _ = _as_list("jvp", "v", v)
        _check_v("jvp", vs, xs_l)
    ys = func(*xs_l)
    ys_l, y_single = _as_list("jvp", "func(xs)", ys)
    us = []
    for y in ys_l:
        u = _p.zeros_like(y)
        u.stop_gradient = False
        us.append(u)
    gs = _grads(ys_l, xs_l, us, create_graph=True)  # linear in u: u -> J^T u
    ts = _raw_grads(gs, us, vs, create_graph=True)
    ts = [_p.zeros_like(y) if t is None else t for t, y in zip(ts, ys_l)]
    return ys, _pack(ts, y_single)


def _jacobian_matrix(ys: list, xs: list, is_batched: bool, create_graph: bool):
    if is_batched:
        b = ys[0].shape[0]
        flat = _p.concat([y.reshape([b, -1]) for y in ys], axis=1)
        rows = [_p.concat([g.reshape([b, -1]) for g in
                           _grads([flat[:, i].sum()], xs, None, create_graph)], axis=1)
                for i in range(flat.shape[1])]
        return _p.stack(rows, axis=1)
    flat = _p.concat([y.reshape([-1]) for y in ys])
    rows = [_p.concat([g.reshape([-1]) for g in _grads([flat[i]], xs, None, create_graph)])
            for i in range(flat.shape[0])]
    return _p.stack(rows)


class Jacobian:
    """The Jacobian matrix of ``func`` at ``xs``: outputs flattened and concatenated along
    rows, inputs along columns (``[batch, rows, cols]`` with ``is_batched``). Index it like a
    tensor (``J[:]`` is the whole matrix).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> J = paddle.incubate.autograd.Jacobian(lambda x: x * x, x)
        >>> J.shape, J[:].tolist()
        ((2, 2), [[2.0, 0.0], [0.0, 4.0]])
    """

    def __init__(self, func: Callable, xs, is_batched: bool = False) -> None:
        xs_l, single = _as_list("Jacobian", "xs", xs)
        xs_l = _inputs(xs_l)
        ys_l, _ = _as_list("Jacobian", "func(xs)", func(*xs_l))
        self._value = _jacobian_matrix(ys_l, xs_l, is_batched, create_graph=True)
        self.is_batched = is_batched
        # Paddle flattens the gradient of a lone (not listed) input by iterating over it: a
        # 0-D one gives no pieces, and reading any row fails (its concat of nothing).
        self._no_columns = single and not is_batched and xs_l[0].ndim == 0

    @property
    def shape(self) -> tuple:
        return tuple(self._value.shape)

    def __getitem__(self, index: Any):
        # Paddle takes ints and slices only, one per axis.
        index = index if isinstance(index, tuple) else (index,)
        for i in index:
            if i is Ellipsis:
                raise IndexError("paddle.incubate.autograd.Jacobian: Ellipsis indexes are not "
                                 "supported")
            if not isinstance(i, (int, slice)):
                raise TypeError("paddle.incubate.autograd.Jacobian: indexes must be ints or "
                                f"slices, but received {i!r}")
        if self._no_columns:
            if isinstance(index[0], int):
                self._value[int(index[0])]  # an out-of-range row is still an IndexError first
            raise ValueError("paddle.incubate.autograd.Jacobian: a single 0-D input (not in a "
                             "list) cannot be evaluated, as in Paddle; pass it as [x]")
        return self._value[tuple(int(i) if isinstance(i, int) else i for i in index)]


class Hessian(Jacobian):
    """The Hessian matrix of a scalar ``func`` at ``xs`` (inputs flattened and concatenated;
    ``[batch, n, n]`` with ``is_batched``, ``func`` then returning ``[batch, 1]``).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([1.0, 2.0])
        >>> H = paddle.incubate.autograd.Hessian(lambda x: (x * x * x).sum(), x)
        >>> H[:].tolist()
        [[6.0, 0.0], [0.0, 12.0]]
    """

    def __init__(self, func: Callable, xs, is_batched: bool = False) -> None:
        def gradient(*inner):
            out = func(*inner)
            if isinstance(out, (list, tuple)) and len(out) == 1:
                out = out[0]
            if isinstance(out, (list, tuple)):
                raise RuntimeError("paddle.incubate.autograd.Hessian: 'func' must return a single "
                                   f"Tensor, but returned {len(out)} values")
            if not isinstance(out, _p.Tensor):
                raise TypeError("paddle.incubate.autograd.Hessian: 'func' must return a Tensor, "
                                f"but returned {type(out).__name__}")
            per_row = out.size // max(out.shape[0], 1) if is_batched and out.ndim else out.size
            if per_row != 1:
                raise RuntimeError("paddle.incubate.autograd.Hessian: 'func' must return a single "
                                   "element Tensor (one per batch row when 'is_batched'), but "
                                   f"returned shape {list(out.shape)}")
            return _grads([out.sum() if is_batched else out], list(inner), None, True)
        super().__init__(gradient, xs, is_batched)


def _static_only(api: str) -> None:
    if _p.in_dynamic_mode():
        raise AssertionError(f"paddle.incubate.autograd.{api}: only supported in static graph "
                             "mode; call paddle.enable_static() first")


def enable_prim() -> None:
    """Turn on lowering to primitive ops (static graph mode only; pagaie's autograd needs no
    lowering, so this only records the switch).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> paddle.incubate.autograd.enable_prim()
        >>> paddle.incubate.autograd.prim_enabled()
        True
        >>> paddle.incubate.autograd.disable_prim()
        >>> paddle.disable_static()
    """
    _static_only("enable_prim")
    _PRIM["enabled"] = True


def disable_prim() -> None:
    """Turn off lowering to primitive ops (static graph mode only). See :func:`enable_prim`."""
    _static_only("disable_prim")
    _PRIM["enabled"] = False


def prim_enabled() -> bool:
    """Whether :func:`enable_prim` is on (static graph mode only). See :func:`enable_prim`."""
    _static_only("prim_enabled")
    return _PRIM["enabled"]


def grad(outputs, inputs, grad_outputs=None):
    """Reverse-mode gradients of ``outputs`` with respect to ``inputs`` (static graph mode
    only, as in Paddle; in dynamic mode use :func:`paddle.grad`).

    Args:
        outputs (Value|list[Value]): the program values to differentiate.
        inputs (Value|list[Value]): the values to differentiate with respect to.
        grad_outputs (list[Value], optional): the gradients of ``outputs`` (ones by default).

    Returns:
        Value|list[Value]: one gradient per input (None for an input ``outputs`` do not
        depend on), a single one when ``inputs`` is a single value.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main, startup = paddle.static.Program(), paddle.static.Program()
        >>> with paddle.static.program_guard(main, startup):
        ...     x = paddle.static.data('x', [2], 'float32')
        ...     x.stop_gradient = False
        ...     g = paddle.incubate.autograd.grad(x * x, x)
        >>> exe = paddle.static.Executor()
        >>> exe.run(main, feed={'x': np.array([1.0, 2.0], 'float32')}, fetch_list=[g])[0].tolist()
        [2.0, 4.0]
        >>> paddle.disable_static()
    """
    _static_only("grad")
    grads = _p.static.gradients(outputs, inputs, grad_outputs)
    return grads if isinstance(inputs, (list, tuple)) else grads[0]


def forward_grad(outputs, inputs, grad_inputs=None):
    """Forward-mode gradients: the Jacobian of ``outputs`` with respect to ``inputs`` times
    the tangents ``grad_inputs`` (static graph mode only, with :func:`enable_prim` on, as in
    Paddle, whose forward mode runs on primitive operators).

    Args:
        outputs (Value|list[Value]): the program values to differentiate.
        inputs (Value|list[Value]): the values to differentiate with respect to.
        grad_inputs (Value|list[Value], optional): one tangent per input (ones by default).

    Returns:
        Value|list[Value]: one tangent per output (zeros for an output that does not depend
        on ``inputs``), a single one when ``outputs`` is a single value.

    Raises:
        RuntimeError: :func:`enable_prim` is off.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> paddle.incubate.autograd.enable_prim()
        >>> main, startup = paddle.static.Program(), paddle.static.Program()
        >>> with paddle.static.program_guard(main, startup):
        ...     x = paddle.static.data('x', [2], 'float32')
        ...     x.stop_gradient = False
        ...     t = paddle.incubate.autograd.forward_grad(x * x, x)
        >>> exe = paddle.static.Executor()
        >>> exe.run(main, feed={'x': np.array([1.0, 2.0], 'float32')}, fetch_list=[t])[0].tolist()
        [2.0, 4.0]
        >>> paddle.incubate.autograd.disable_prim()
        >>> paddle.disable_static()
    """
    _static_only("forward_grad")
    if not _PRIM["enabled"]:
        raise RuntimeError("paddle.incubate.autograd.forward_grad: forward-mode gradients run on "
                           "primitive operators; call paddle.incubate.autograd.enable_prim() first")
    ys = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    xs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    if grad_inputs is None:
        vs = [_p.ones_like(x) for x in xs]
    else:
        vs = list(grad_inputs) if isinstance(grad_inputs, (list, tuple)) else [grad_inputs]
        if len(vs) != len(xs):
            raise ValueError("paddle.incubate.autograd.forward_grad: 'grad_inputs' must have one "
                             f"tangent per input ({len(xs)}), but received {len(vs)}")
    # J v as the gradient, with respect to a cotangent u, of the linear map u -> J^T u . v
    us = []
    for y in ys:
        u = _p.zeros_like(y)
        u.stop_gradient = False
        us.append(u)
    pulled = _p.static.gradients(ys, xs, us)
    pairs = [(g, v) for g, v in zip(pulled, vs) if g is not None]
    tangents = _p.static.gradients([g for g, _ in pairs], us, [v for _, v in pairs]) if pairs \
        else [None] * len(ys)
    tangents = [_p.zeros_like(y) if t is None else t for t, y in zip(tangents, ys)]
    return tangents if isinstance(outputs, (list, tuple)) else tangents[0]
