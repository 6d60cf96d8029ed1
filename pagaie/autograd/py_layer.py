"""``PyLayer``: custom forward/backward pairs, built on ``torch.autograd.Function``.

A PyLayer subclass gets one torch Function subclass (made on first use). Its
forward calls the user's ``forward(ctx, *args, **kwargs)`` with the caller's own
Tensor objects; its backward wraps the incoming gradients as Tensors, calls the
user's ``backward(ctx, *grads)`` and hands one gradient per Tensor input back to
torch. Because the user's backward runs pagaie ops, it is itself recorded when a
higher-order gradient is requested (``create_graph=True``).
"""
from __future__ import annotations

import functools
from typing import Any

import torch

from pagaie._core.tensor import GRAD_FLAG, Tensor, flag_grad, wrap
from pagaie.autograd.saved_tensors_hooks import hooks_active

__all__ = ["PyLayer", "PyLayerContext", "Function", "once_differentiable"]


class PyLayerContext:
    """The ``ctx`` handed to ``forward`` and ``backward`` of a :class:`PyLayer`.

    Attributes may be set on it freely to pass values from forward to backward.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.autograd import PyLayer
        >>> class Square(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         (x,) = ctx.saved_tensor()
        ...         return 2 * x * dy
        >>> x = paddle.to_tensor([3.0], stop_gradient=False)
        >>> Square.apply(x).backward()
        >>> x.grad.tolist()
        [6.0]
    """

    def __init__(self) -> None:
        self._tctx: Any = None
        self._saved: tuple | None = None
        self.materialize_grads = True
        self.grad_in_dtype_consistent = True
        self.not_inplace_tensors: tuple = ()
        self.non_differentiable: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep ``tensors`` (Tensors, None or other values) for ``backward``; call it once in forward."""
        saved, ts = [], []
        for v in tensors:
            if isinstance(v, Tensor):
                saved.append(("t", len(ts), v))
                # ``.data``: an alias with its own version counter, as Paddle does not check
                # whether a saved tensor was modified in place before backward reads it; under
                # saved_tensors_hooks the pack hook is given the tensor itself (its stop_gradient)
                ts.append(v._t if hooks_active() else v._t.data)
            else:
                saved.append(("v", v, None))
        self._saved = tuple(saved)
        self._tctx.save_for_backward(*ts)

    def saved_tensor(self) -> tuple | None:
        """The values given to :meth:`save_for_backward`, in order (None when nothing was saved,
        as in Paddle). As in Paddle, a saved Tensor comes back as the very object that was
        saved (unless a ``saved_tensors_hooks`` unpack hook made another one); it may also be
        read in ``forward`` itself."""
        if self._saved is None:
            return None
        if getattr(self._tctx, "pagaie_in_forward", False):
            return tuple(v if kind == "t" else s for kind, s, v in self._saved)
        ts = self._tctx.saved_tensors
        out = []
        for kind, s, v in self._saved:
            if kind != "t":
                out.append(s)
            elif _same_tensor(ts[s], v._t):
                out.append(v)
            else:
                out.append(wrap(ts[s]))
        return tuple(out)

    def mark_not_inplace(self, *args: Tensor) -> None:
        """Declare that outputs which are also inputs must not be treated as in-place results."""
        self.not_inplace_tensors = args

    def mark_non_differentiable(self, *args: Tensor) -> None:
        """Declare outputs that carry no gradient: they get ``stop_gradient=True`` and zero
        gradients in backward."""
        self.non_differentiable = args
        self._tctx.mark_non_differentiable(*[a._t for a in args if isinstance(a, Tensor)])

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = bool(value)

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
        """Whether the gradients that reach this layer's backward are cast to the dtypes of
        its forward outputs (default True). With False, a gradient that the backward of a
        following PyLayer returned in another dtype arrives in that dtype."""
        self.grad_in_dtype_consistent = bool(flag)


def _same_tensor(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether ``a`` (unpacked by autograd) is ``b`` itself or the same data seen as ``b``
    (a saved output comes back as a new object over the same memory)."""
    if a is b:
        return True
    return (a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride() and a.device == b.device
            and a.data_ptr() == b.data_ptr() and a.storage_offset() == b.storage_offset())


def once_differentiable(backward: Any) -> Any:
    """Decorate a PyLayer ``backward`` that is not itself differentiable: it runs without
    recording gradients, so its results are constants for any higher-order gradient.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.autograd.py_layer import PyLayer, once_differentiable
        >>> class Square(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     @once_differentiable
        ...     def backward(ctx, dy):
        ...         (x,) = ctx.saved_tensor()
        ...         return 2 * x * dy
        >>> x = paddle.to_tensor([3.0], stop_gradient=False)
        >>> Square.apply(x).backward()
        >>> x.grad.tolist()
        [6.0]
    """
    @functools.wraps(backward)
    def wrapper(ctx: Any, *grads: Any) -> Any:
        with torch.no_grad():
            return backward(ctx, *grads)
    return wrapper


def _mark_when_accumulated(leaf: torch.Tensor, given: torch.Tensor) -> None:
    """Once ``leaf.grad`` is first filled, flag it stop_gradient=True when it is exactly the
    gradient a PyLayer's backward returned (no other contribution was added to it). One
    pending hook per leaf: paddle.grad never accumulates, so a later call only updates it."""
    pending = getattr(leaf, "_pagaie_pylayer_grad", None)
    if pending is not None:
        pending[0] = given
        return
    pending = [given]
    leaf._pagaie_pylayer_grad = pending

    def hook(t: torch.Tensor) -> None:
        handle.remove()
        del t._pagaie_pylayer_grad
        g, want = t.grad, pending[0]
        if g is not None and not hasattr(g, GRAD_FLAG) and g.shape == want.shape and torch.equal(g, want):
            setattr(g, GRAD_FLAG, False)
    handle = leaf.register_post_accumulate_grad_hook(hook)


class _Call:
    """One ``apply`` call: the user's arguments and where their Tensors sit."""

    __slots__ = ("layer", "args", "kwargs", "inputs", "ctx", "n_out", "single", "tensor_pos", "groups",
                 "as_list", "in_place", "out_meta", "non_diff", "needs_grad", "out_objs", "raw_grads")

    def __init__(self, layer: type, args: tuple, kwargs: dict, inputs: list) -> None:
        self.layer = layer
        self.args = args
        self.kwargs = kwargs
        self.inputs = inputs
        self.ctx = layer._ctx_class()
        self.n_out = 0
        self.single = False
        self.tensor_pos: list | None = None
        self.groups: list | None = None  # set when a list argument holds Tensors
        self.as_list = False  # forward returned a list (apply returns one too)
        self.in_place: list = []  # (output position, input Tensor) for inputs returned as outputs
        self.out_meta: list = []  # (shape, dtype, device) per output, to materialise gradients
        self.non_diff: list = []  # output positions marked non-differentiable
        self.needs_grad = [not t.stop_gradient for t in inputs]  # per input, at the call
        self.out_objs: list = []  # what forward returned (apply hands back these very Tensors)
        # per output position, a gradient of another dtype that a consumer PyLayer returned
        # (kept when this layer turned set_grad_in_dtype_consistent off)
        self.raw_grads: dict = {}


def _tensor_inputs(values: Any, out: list, groups: list) -> None:
    """Collect the Tensor arguments into ``out``, also those inside list/tuple arguments (as
    Paddle counts them); ``groups`` gets None per lone Tensor and the count per list."""
    for v in values:
        if isinstance(v, Tensor):
            out.append(v)
            groups.append(None)
        elif isinstance(v, (list, tuple)):
            ts = [e for e in v if isinstance(e, Tensor)]
            if ts:
                out.extend(ts)
                groups.append(len(ts))


def _flatten_grads(res: tuple, groups: list, name: str) -> tuple[list, int]:
    """Backward's results, one per argument group (a list of gradients for a list argument),
    flattened to one per Tensor input; also how many of them backward actually gave."""
    if len(res) > len(groups):
        raise ValueError(f"paddle.autograd.PyLayer: {name}.backward returned {len(res)} gradients, "
                         f"but forward received only {len(groups)} Tensor argument(s)")
    flat: list = []
    given = 0
    for j, size in enumerate(groups):
        g = res[j] if j < len(res) else None
        if size is None:
            flat.append(g)
        elif g is None:
            flat.extend([None] * size)
        elif not isinstance(g, (list, tuple)):
            raise ValueError(f"paddle.autograd.PyLayer: {name}.backward must return a list or tuple "
                             f"of gradients at position {j}, for the list argument there, but "
                             f"returned {type(g).__name__}")
        else:
            flat.extend(list(g)[:size] + [None] * (size - len(g)))
        if j < len(res):
            given = len(flat)
    return flat, given


def _unwrap_out(out: Any, api: str) -> Any:
    if isinstance(out, Tensor):
        return out._t
    if isinstance(out, (tuple, list)) and any(isinstance(o, Tensor) for o in out):
        return tuple(o._t if isinstance(o, Tensor) else o for o in out)
    raise ValueError(f"paddle.autograd.PyLayer: {api}.forward must return at least one Tensor, "
                     f"but returned {type(out).__name__}")


def _returned_inputs(call: _Call, outs: list) -> None:
    """Note the inputs that forward returned as outputs. As in Paddle, such an output is the
    input Tensor itself (its gradient node becomes this layer's) unless ``mark_not_inplace``
    named it; a leaf that needs a gradient cannot be taken over that way (ValueError)."""
    ctx = call.ctx
    for pos, o in enumerate(outs):
        if not any(o is i for i in call.inputs) or any(o is m for m in ctx.not_inplace_tensors):
            continue
        if o._t.is_leaf and o._t.requires_grad:
            raise ValueError(f"paddle.autograd.PyLayer: {call.layer.__name__}.forward returned its "
                             f"input {o.name!r} as an output, but that input is a leaf tensor that "
                             "does not stop gradient, so it cannot be updated in place; call "
                             "ctx.mark_not_inplace on it or return a new tensor")
        # an in-place write, as Paddle counts it: ops that saved the input before now fail in
        # backward (their saved version is stale); counted before torch makes the output
        torch.autograd.graph.increment_version(o._t)
        call.in_place.append((pos, o))


def _forward(tctx: Any, call: _Call, *ts: torch.Tensor) -> Any:
    ctx = call.ctx
    ctx._tctx = tctx
    tctx.pagaie_call = call
    # pagaie materialises missing gradients itself (as zeros that say stop_gradient=True)
    tctx.set_materialize_grads(False)
    tctx.pagaie_in_forward = True
    try:
        out = call.layer.forward(ctx, *call.args, **call.kwargs)
    finally:
        tctx.pagaie_in_forward = False
    call.single = isinstance(out, Tensor)
    call.as_list = isinstance(out, list)
    r = _unwrap_out(out, call.layer.__name__)
    outs = [out] if call.single else list(out)
    call.out_objs = outs
    _returned_inputs(call, outs)
    if ctx.non_differentiable:
        call.non_diff = [i for i, o in enumerate(outs) if any(o is m for m in ctx.non_differentiable)]
    call.n_out = 1 if call.single else len(r)
    if not call.single and not all(isinstance(o, torch.Tensor) for o in r):
        call.tensor_pos = [i for i, o in enumerate(r) if isinstance(o, torch.Tensor)]
    call.out_meta = [(o.shape, o.dtype, o.device) for o in ((r,) if call.single else r)
                     if isinstance(o, torch.Tensor)]
    return r


def _incoming_grads(call: _Call, grads: tuple) -> list:
    """The output gradients as Tensors for the user's backward. Paddle's gradients say
    stop_gradient=False; the zeros made for outputs that got none say True (None instead
    when the layer turned materialisation off)."""
    out: list = []
    for i, g in enumerate(grads):
        if g is None:
            if call.ctx.materialize_grads:
                shape, dtype, device = call.out_meta[i]
                out.append(wrap(torch.zeros(shape, dtype=dtype, device=device)))
            else:
                out.append(None)
            continue
        raw = call.raw_grads.pop(i, None)
        if raw is not None and not call.ctx.grad_in_dtype_consistent and \
                torch.equal(raw.to(g.dtype), g):
            g = raw
        if not g.requires_grad and not hasattr(g, GRAD_FLAG):
            setattr(g, GRAD_FLAG, True)
        out.append(wrap(g))
    return out


def _backward(tctx: Any, *grads: torch.Tensor | None) -> tuple:
    call: _Call = tctx.pagaie_call
    ctx = call.ctx
    name = call.layer.__name__
    if call.tensor_pos is not None:  # backward receives gradients of the Tensor outputs only
        grads = tuple(grads[i] for i in call.tensor_pos)
    try:
        res = call.layer.backward(ctx, *_incoming_grads(call, grads))
    except Exception as exc:  # noqa: BLE001
        raise _external_error(f"paddle.autograd.PyLayer: {name}.backward", exc) from exc
    # As in Paddle, only a tuple lists one gradient per argument; anything else (a Tensor,
    # None, or a list for a list argument) is the gradient of the first argument.
    if not isinstance(res, tuple):
        res = (res,)
    if call.groups is not None:
        res, given = _flatten_grads(res, call.groups, name)
    else:
        given = len(res)
        n = len(call.inputs)
        if given > n:
            raise ValueError(f"paddle.autograd.PyLayer: {name}.backward returned {given} gradients, "
                             f"but forward received only {n} Tensor input(s)")
    out = [None]
    for i, inp in enumerate(call.inputs):
        g = res[i] if i < len(res) else None
        if g is None:
            if i >= given and call.needs_grad[i]:
                raise ValueError(f"paddle.autograd.PyLayer: {name}.backward should not return an "
                                 f"empty gradient at position {i}: that input needs a gradient "
                                 "(stop_gradient=False)")
            out.append(None)
            continue
        if not isinstance(g, Tensor):
            raise ValueError(f"paddle.autograd.PyLayer: {name}.backward can only return a Tensor or "
                             f"None as the gradient at position {i}, but returned "
                             f"{type(g).__name__}")
        if not call.needs_grad[i]:
            raise ValueError(f"paddle.autograd.PyLayer: {name}.backward should return None at "
                             f"position {i}, because that forward input has stop_gradient=True, "
                             f"but returned a Tensor")
        if not _edge_runs(tctx, i):
            # as in Paddle, an input that this backward pass does not lead to (paddle.grad asked
            # for other inputs only) counts as one that stops gradient
            raise ValueError(f"paddle.autograd.PyLayer: {name}.backward should return None at "
                             f"position {i}, because no gradient is asked for that forward input "
                             f"in this backward pass (it counts as stop_gradient=True), but "
                             f"returned a Tensor")
        gt = g._t
        if not _reducible(gt.shape, inp._t.shape):
            raise ValueError(f"paddle.autograd.PyLayer: {name}.backward returned a gradient of shape "
                             f"{list(gt.shape)} at position {i}, which does not match the shape "
                             f"{list(inp._t.shape)} of that forward input")
        if gt.dtype != inp._t.dtype and (inp._t.is_floating_point() or inp._t.is_complex()):
            _keep_raw_grad(tctx, i, gt)
            gt = gt.to(inp._t.dtype)
        if not gt.requires_grad and not any(gt is x for x in grads):
            # A gradient that comes straight from a PyLayer's backward says stop_gradient=True
            # in Paddle (it then lands unchanged in the leaf's ``grad``).
            if gt is g._t:
                gt = gt.detach()
            setattr(gt, GRAD_FLAG, False)
            leaf = inp._t
            if leaf.is_leaf and leaf.requires_grad and leaf.grad is None:
                _mark_when_accumulated(leaf, gt)
        out.append(gt)
    return tuple(out)


def _keep_raw_grad(tctx: Any, i: int, grad: torch.Tensor) -> None:
    """Keep ``grad`` (about to be cast to the dtype of forward input ``i``) for the PyLayer
    that produced that input, when it turned ``set_grad_in_dtype_consistent`` off."""
    node, pos = tctx.next_functions[i]
    producer = getattr(node, "pagaie_call", None)
    if producer is not None and not producer.ctx.grad_in_dtype_consistent:
        # its backward sees the gradients of its Tensor outputs only
        tensor_pos = producer.tensor_pos
        producer.raw_grads[pos if tensor_pos is None else tensor_pos.index(pos)] = grad.detach()


def _edge_runs(tctx: Any, i: int) -> bool:
    """Whether the running backward pass goes on into forward input ``i`` (the gradient of a
    requested input, or a path to one); torch keeps one edge per Tensor input, in order."""
    node = tctx.next_functions[i][0]
    if node is None:
        return True
    try:
        return bool(torch._C._will_engine_execute_node(node))
    except (RuntimeError, AttributeError):  # not inside an engine run (or no such hook): nothing to prune
        return True


def _external_error(where: str, exc: Exception) -> OSError:
    """What an error raised by user code run inside the backward pass (a PyLayer's backward,
    a gradient hook) becomes: as in Paddle, an OSError ("External") naming the original type.
    An error that already is one passes unchanged (a nested PyLayer)."""
    if isinstance(exc, OSError) and getattr(exc, "_pagaie_external", False):
        return exc
    out = OSError(f"(External) {where} raised {type(exc).__name__}: {exc}")
    out._pagaie_external = True
    return out


def _reducible(grad: torch.Size, want: torch.Size) -> bool:
    """Whether a gradient of shape ``grad`` sums down to ``want`` (``want`` broadcasts to it)."""
    if grad == want:
        return True
    if len(want) > len(grad):
        return False
    return all(w == g or w == 1 for w, g in zip(reversed(want), reversed(grad)))


def _output(o: Any, returned: Any) -> Any:
    """An output of ``apply``: as in Paddle, the Tensor object forward returned (now part of
    the graph), a new one only where torch made another tensor."""
    if not isinstance(o, torch.Tensor):
        return o
    if isinstance(returned, Tensor) and returned._t is o:
        return returned
    return wrap(o)


class _PyLayerMeta(type):
    """Gives every PyLayer subclass its own torch Function and context class."""

    def __init__(cls, name: str, bases: tuple, ns: dict) -> None:
        super().__init__(name, bases, ns)
        cls._ctx_class = type(f"{name}_backward", (PyLayerContext,), {})
        fn = type(f"GradNodePyLayer_{name}", (torch.autograd.Function,),
                  {"forward": staticmethod(_forward), "backward": staticmethod(_backward)})
        fn._backward_cls._pagaie_name = f"GradNodePyLayer_{name}"
        cls._torch_fn = fn


class PyLayer(metaclass=_PyLayerMeta):
    """Base class of custom operations with a user-written backward.

    Subclass it with two static methods: ``forward(ctx, *args, **kwargs)`` computes the
    outputs from the inputs with pagaie ops; ``backward(ctx, *grads)`` receives one
    gradient per output and returns one gradient per Tensor input (None, or fewer
    values, for inputs that stop gradient). Call it with ``MyLayer.apply(...)``.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.autograd import PyLayer
        >>> class Tanh(PyLayer):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         y = paddle.tanh(x)
        ...         ctx.save_for_backward(y)
        ...         return y
        ...     @staticmethod
        ...     def backward(ctx, dy):
        ...         (y,) = ctx.saved_tensor()
        ...         return dy * (1 - y * y)
        >>> x = paddle.to_tensor([0.0], stop_gradient=False)
        >>> Tanh.apply(x).backward()
        >>> x.grad.tolist()
        [1.0]
    """

    @staticmethod
    def forward(ctx: PyLayerContext, *args: Any, **kwargs: Any) -> Any:
        """Compute the outputs; override in a subclass."""
        raise NotImplementedError("paddle.autograd.PyLayer: you must implement the forward "
                                  "function of your PyLayer subclass")

    @staticmethod
    def backward(ctx: PyLayerContext, *args: Any) -> Any:
        """Compute the input gradients from the output gradients; override in a subclass."""
        raise NotImplementedError("paddle.autograd.PyLayer: you must implement the backward "
                                  "function of your PyLayer subclass")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward`` and record ``backward`` for the gradient computation.

        Returns:
            What ``forward`` returns (Tensors carry gradients back through ``backward``).
        """
        if cls.forward is PyLayer.forward:
            raise NotImplementedError("paddle.autograd.PyLayer: you must implement the forward "
                                      "function of your PyLayer subclass")
        inputs: list = []
        groups: list = []
        _tensor_inputs(args, inputs, groups)
        if kwargs:
            _tensor_inputs(kwargs.values(), inputs, groups)
        call = _Call(cls, args, kwargs, inputs)
        if any(g is not None for g in groups):
            call.groups = groups
        out = cls._torch_fn.apply(call, *[t._t for t in inputs])
        outs = [_output(o, call.out_objs[i] if i < len(call.out_objs) else None)
                for i, o in enumerate((out,) if call.single else out)]
        for pos, inp in call.in_place:  # an input returned as is: it is the output, as in Paddle
            inp._t = outs[pos]._t
            outs[pos] = inp
        if torch.is_grad_enabled() and any(not t.stop_gradient for t in inputs):
            # Integer outputs cannot carry torch gradients but say stop_gradient=False in Paddle
            # (unless marked non-differentiable).
            for i, o in enumerate(outs):
                if isinstance(o, Tensor) and not o._t.requires_grad and \
                        not (o._t.is_floating_point() or o._t.is_complex()) and i not in call.non_diff:
                    flag_grad(o._t, carried=True)   # an op result, not a leaf
        if call.single:
            return outs[0]
        return outs if call.as_list else tuple(outs)


Function = PyLayer
