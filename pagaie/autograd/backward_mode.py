"""``paddle.autograd.backward`` and ``paddle.grad`` over torch.autograd."""
from __future__ import annotations

import datetime
import os
from typing import Sequence

import torch

from torch.autograd.graph import get_gradient_edge

from pagaie._core import engine
from pagaie._core.registry import dygraph_only_error
from pagaie._core.tensor import GRAD_FLAG, RELEASED, GradNode, Tensor, as_torch, require_grad, wrap

__all__ = ["backward", "grad"]


def _as_list(v, api: str, arg: str) -> list:
    """``v`` as a list of tensors; Paddle asserts on anything else."""
    if v is None:
        return []
    if isinstance(v, Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return list(v)
    raise AssertionError(f"paddle.{api}: '{arg}' must be a Tensor or a list of Tensors, "
                         f"but received {type(v).__name__}")


def _tensors_arg(v, api: str, arg: str) -> list:
    """``outputs`` / ``inputs`` / ``tensors``: a Tensor or a non-empty list of Tensors; Paddle
    asserts on anything else (None, an empty list, a non-Tensor element)."""
    if v is None:
        raise AssertionError(f"paddle.{api}: '{arg}' should not be None")
    if isinstance(v, (list, tuple)):
        if not v:
            raise AssertionError(f"paddle.{api}: '{arg}' cannot be empty")
        for e in v:
            if not isinstance(e, Tensor):
                raise AssertionError(f"paddle.{api}: elements of '{arg}' must be Tensor, "
                                     f"but received {type(e).__name__}")
        return list(v)
    if not isinstance(v, Tensor):
        raise AssertionError(f"paddle.{api}: '{arg}' must be a Tensor or a list of Tensors, "
                             f"but received {type(v).__name__}")
    return [v]


def _check_bool(v, api: str, arg: str, none_ok: bool = False) -> None:
    if not (isinstance(v, bool) or (none_ok and v is None)):
        raise AssertionError(f"paddle.{api}: '{arg}' must be {'None, ' if none_ok else ''}True or "
                             f"False, but received {v!r}")


def _check_grad_tensor(g, out: Tensor, api: str, arg: str) -> None:
    if not isinstance(g, Tensor):
        raise AssertionError(f"paddle.{api}: each of '{arg}' must be None or a Tensor, "
                             f"but received {type(g).__name__}")
    # As in Paddle, a gradient of another shape is read as one of the output's shape (row
    # major); only its number of elements must match (Paddle reads past the end otherwise)
    if g._t.numel() != out._t.numel():
        raise AssertionError(f"paddle.{api}: '{arg}' has shape {list(g.shape)}, which does not match "
                             f"the shape {list(out.shape)} of the tensor it is the gradient of")


def _seed(g, t):
    """The torch seed gradient of output ``t`` from the user's Tensor ``g``."""
    v = as_torch(g, t.dtype)
    return v if v.shape == t.shape else v.reshape(t.shape)


def _reached_edges(outs: list, cut: set) -> set:
    """Gradient edges ``(node, output_nr)`` reachable from ``outs`` without crossing ``cut``."""
    todo = [(e.node, e.output_nr) for e in map(get_gradient_edge, outs)]
    seen: set = set()
    nodes: set = set()
    while todo:
        edge = todo.pop()
        if edge in seen or edge in cut:
            continue
        seen.add(edge)
        if edge[0] in nodes:
            continue
        nodes.add(edge[0])
        todo.extend(e for e in edge[0].next_functions if e[0] is not None)
    return seen


def _released_error(api: str) -> SystemError:
    """A backward over a graph a previous backward released (Paddle's fatal error: SystemError)."""
    return SystemError(f"paddle.{api}: the graph has already been released by a previous "
                       "backward; pass retain_graph=True to the first backward to run it again")


def _autograd_error(api: str, exc: RuntimeError) -> RuntimeError:
    msg = str(exc)
    if "modified by an inplace operation" in msg:
        return RuntimeError(f"paddle.{api}: a tensor needed to compute gradients was modified by an "
                            "in-place operation after it was used; use the out-of-place API instead")
    if "backward through the graph a second time" in msg or "freed" in msg:
        return _released_error(api)
    if "has changed the size of value" in msg or "has changed the type of value" in msg:
        return RuntimeError(f"paddle.{api}: a hook registered with register_hook returned a "
                            "gradient whose shape or dtype differs from the gradient it received")
    if "derivative for" in msg and "not implemented" in msg:
        # as Paddle's "The Op ... doesn't have any grad op" (also a RuntimeError)
        return RuntimeError(f"paddle.{api}: an operation in the graph has no higher-order gradient; "
                            "if you do not need higher-order derivatives, set create_graph=False")
    if "does not require grad" in msg:
        return RuntimeError(f"paddle.{api}: the output does not depend on any tensor with "
                            "stop_gradient=False, so there is no gradient to compute")
    return RuntimeError(f"paddle.{api}: {msg.splitlines()[0] if msg else exc!r}")


def _dump_graph(roots: list, path: str) -> str:
    """Write the backward graph reachable from ``roots`` as a Graphviz file in directory ``path``."""
    os.makedirs(path, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y-%m-%d_%H:%M:%S.%f")
    lines = ["digraph G {"]
    ids: dict = {}
    todo = [t.grad_fn for t in roots if t.grad_fn is not None]
    while todo:
        node = todo.pop()
        if node in ids:
            continue
        ids[node] = len(ids)
        label = GradNode(node).name()
        lines.append(f'\tnode_{ids[node]}[label="{label}" shape="box" style="rounded,filled,bold"]')
        todo.extend(f for f, _ in node.next_functions if f is not None)
    for node, i in ids.items():
        for f, _ in node.next_functions:
            if f is not None:
                lines.append(f"\tnode_{i}->node_{ids[f]}")
    lines.append("}")
    out = os.path.join(path, f"{stamp}_backward_graph.dot")
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return out


def initial_grad(t: torch.Tensor) -> torch.Tensor:
    """The gradient a backward starts from when none is given: ones like ``t``; for a sparse
    tensor, ones at its stored entries (Paddle's default), in its layout."""
    if t.layout is torch.sparse_coo:
        return torch.sparse_coo_tensor(t._indices(), torch.ones_like(t._values()), t.shape)
    if t.layout is torch.sparse_csr:
        return torch.sparse_csr_tensor(t.crow_indices(), t.col_indices(),
                                       torch.ones_like(t.values()), t.shape)
    return torch.ones_like(t)


def backward(tensors: Sequence[Tensor], grad_tensors: Sequence[Tensor | None] | None = None,
             retain_graph: bool = False, *, dump_backward_graph_path: str | None = None) -> None:
    """Compute gradients of ``tensors`` and accumulate them into the leaves' ``grad``.

    Args:
        tensors (list[Tensor]): the outputs to differentiate.
        grad_tensors (list[Tensor|None], optional): initial gradients; ones where None.
        retain_graph (bool, optional): keep the graph for another backward. Default False.
        dump_backward_graph_path (str, optional): a directory in which to write the backward
            graph as a Graphviz ``.dot`` file before running it.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([3.0], stop_gradient=False)
        >>> paddle.autograd.backward([x * x])
        >>> x.grad.tolist()
        [6.0]
    """
    outs = _tensors_arg(tensors, "autograd.backward", "tensors")
    grads = _as_list(grad_tensors, "autograd.backward", "grad_tensors") or [None] * len(outs)
    if len(grads) != len(outs):
        raise AssertionError(f"paddle.autograd.backward: got {len(outs)} tensors but {len(grads)} "
                             "grad_tensors; the lengths must match")
    if len({id(o) for o in outs}) != len(outs):
        raise AssertionError("paddle.autograd.backward: 'tensors' contains the same Tensor more than once")
    _check_bool(retain_graph, "autograd.backward", "retain_graph")
    ts, gs = [], []
    for o, g in zip(outs, grads):
        if not isinstance(o, Tensor):
            raise AssertionError("paddle.autograd.backward: each of 'tensors' must be a Tensor, "
                                 f"but received {type(o).__name__}")
        if g is not None:
            _check_grad_tensor(g, o, "autograd.backward", "grad_tensors")
        t = o._t
        if not t.requires_grad:
            continue  # Paddle silently does nothing for outputs that stop gradient
        ts.append(t)
        gs.append(initial_grad(t) if g is None else _seed(g, t))
    if not ts:
        return
    if dump_backward_graph_path is not None:
        _dump_graph(ts, dump_backward_graph_path)
    fns = [t.grad_fn for t in ts if t.grad_fn is not None]
    if any(fn.metadata.get(RELEASED) for fn in fns):
        raise _released_error("Tensor.backward")
    try:
        engine.backward(ts, gs, retain_graph=retain_graph)
    except RuntimeError as exc:
        raise _autograd_error("Tensor.backward", exc) from None
    if not retain_graph:
        for fn in fns:
            fn.metadata[RELEASED] = True


def _constant_grad(r: torch.Tensor) -> torch.Tensor:
    """A gradient ``r`` that does not depend on the inputs, as ``create_graph=True`` returns it:
    saying stop_gradient=False, and an op's result while gradients are recorded."""
    r = require_grad(r.detach())
    return r.view_as(r) if torch.is_grad_enabled() else r


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False, no_grad_vars=None, *, dump_backward_graph_path=None):
    """Gradients of ``outputs`` with respect to ``inputs``, returned rather than accumulated.

    Args:
        outputs (Tensor|list[Tensor]): the differentiated outputs.
        inputs (Tensor|list[Tensor]): the tensors to differentiate with respect to.
        grad_outputs (Tensor|list[Tensor|None], optional): initial gradients (ones where None).
        retain_graph (bool, optional): keep the graph; defaults to ``create_graph``.
        create_graph (bool, optional): build a graph of the gradient for higher orders.
        only_inputs (bool, optional): must be True (Paddle's only supported value).
        allow_unused (bool, optional): return None for inputs that outputs do not use,
            instead of raising.
        no_grad_vars (Tensor|list[Tensor], optional): tensors treated as constants.
        dump_backward_graph_path (str, optional): a directory in which to write the backward
            graph as a Graphviz ``.dot`` file before running it.

    Returns:
        list[Tensor|None]: one gradient per input.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([2.0], stop_gradient=False)
        >>> (g,) = paddle.grad(x * x * x, x)
        >>> g.tolist()
        [12.0]
    """
    from pagaie.static.framework import in_dynamic_mode
    if not in_dynamic_mode():   # Paddle's grad is dynamic-mode only (static: gradients())
        raise dygraph_only_error("grad")
    outs = _tensors_arg(outputs, "grad", "outputs")
    ins = _tensors_arg(inputs, "grad", "inputs")
    gos = _as_list(grad_outputs, "grad", "grad_outputs") or [None] * len(outs)
    for g in gos:
        if g is not None and not isinstance(g, Tensor):
            raise AssertionError("paddle.grad: 'grad_outputs' must be None, a Tensor or a list of "
                                 f"None or Tensors, but an element is {type(g).__name__}")
    if len(gos) != len(outs):
        raise AssertionError(f"paddle.grad: got {len(outs)} outputs but {len(gos)} grad_outputs; "
                             "the lengths must match")
    _check_bool(create_graph, "grad", "create_graph")
    _check_bool(retain_graph, "grad", "retain_graph", none_ok=True)
    _check_bool(allow_unused, "grad", "allow_unused")
    _check_bool(only_inputs, "grad", "only_inputs")
    if not only_inputs:
        raise AssertionError("paddle.grad: only_inputs=False is not supported")
    for arg, ts in (("outputs", outs), ("inputs", ins)):
        if len({id(t) for t in ts}) != len(ts):
            raise RuntimeError(f"paddle.grad: '{arg}' contains a duplicate tensor (the same Tensor "
                               "more than once)")
    if isinstance(no_grad_vars, set):
        no_grad_vars = list(no_grad_vars)
    ngv = _as_list(no_grad_vars, "grad", "no_grad_vars")
    for v in ngv:
        if not isinstance(v, Tensor):
            raise AssertionError("paddle.grad: 'no_grad_vars' can only contain Tensors, but an "
                                 f"element is {type(v).__name__}")
    # A no_grad_var that is also one of the outputs keeps its own seed gradient (Paddle cuts
    # the edges into it, not the gradient it starts from).
    out_ids = {id(o) for o in outs}
    cut = [v for v in ngv if v._t.requires_grad and id(v) not in out_ids]
    seeded = [v for v in ngv if v._t.requires_grad and id(v) in out_ids and v._t.grad_fn is not None]
    for o, g in zip(outs, gos):
        if g is not None:
            _check_grad_tensor(g, o, "grad", "grad_outputs")
    for i in ins:
        if not i._t.requires_grad and not allow_unused:
            why = "has stop_gradient=True" if i.stop_gradient else \
                f"has dtype {i.dtype.name}, and gradients flow only through floating-point and complex tensors"
            raise ValueError(f"paddle.grad: input tensor {i.name!r} {why}, so no gradient can be "
                             "computed for it")
    # Paddle's paddle.grad never releases the graph: a later backward over it still works,
    # whatever ``retain_graph`` says.
    del retain_graph
    ts, gs = [], []
    for o, g in zip(outs, gos):
        if o._t.requires_grad:
            ts.append(o._t)
            gs.append(initial_grad(o._t) if g is None else _seed(g, o._t))
    live = [i for i in ins if i._t.requires_grad]
    if not ts or not live:
        if allow_unused:
            return [None] * len(ins)
        raise ValueError("paddle.grad: none of the outputs depends on the inputs "
                         "(all outputs stop gradient); pass allow_unused=True to get None")
    if any(t.grad_fn is not None and t.grad_fn.metadata.get(RELEASED) for t in ts):
        raise _released_error("grad")
    if dump_backward_graph_path is not None:
        _dump_graph(ts, dump_backward_graph_path)
    hooks = []
    if cut:
        # no_grad_vars are constants: no gradient flows through them, and an input reached
        # only through them is unused.
        edges = {(e.node, e.output_nr) for e in map(get_gradient_edge, (v._t for v in cut))}
        reached = _reached_edges(ts, edges)
        live = [i for i in live if (lambda e: (e.node, e.output_nr))(get_gradient_edge(i._t)) in reached]
        hooks = [v._t.register_hook(torch.zeros_like) for v in cut if v._t.grad_fn is not None]
    if seeded:
        seeds = {id(o._t): g for o, g in zip((o for o in outs if o._t.requires_grad), gs)}
        hooks += [v._t.register_hook(lambda _g, s=seeds[id(v._t)]: s) for v in seeded]
    # torch returns a non-leaf input's gradient from before its hooks when the backward goes
    # on past it (to another input); Paddle's includes them: catch it after the last hook.
    hooked: dict = {}
    for i in live:
        if not i._t.is_leaf and i._t._backward_hooks:
            hooks.append(i._t.register_hook(lambda g, k=id(i): hooked.__setitem__(k, g)))
    # Paddle runs a leaf's hooks when its gradient is accumulated, which paddle.grad never
    # does: hide the hooks of leaf inputs for this call.
    hidden = [(h, dict(h)) for h in (i._t._backward_hooks for i in live if i._t.is_leaf) if h]
    for h, _ in hidden:
        h.clear()
    try:
        if live:
            # (under no_grad Paddle builds no graph of the gradient, create_graph or not)
            got = engine.grad(ts, [i._t for i in live], gs, retain_graph=True,
                              create_graph=create_graph and torch.is_grad_enabled())
        else:
            got = []
    except RuntimeError as exc:
        raise _autograd_error("grad", exc) from None
    finally:
        for h in hooks:
            h.remove()
        for h, saved in hidden:
            h.update(saved)
    # torch answers some second derivatives (of sgn, through norms) with an immutable
    # "zero tensor" that has no data; hand back real zeros.
    got = [torch.zeros_like(r) if r is not None and r._is_zerotensor() else r for r in got]
    by_id = {id(i): hooked.get(id(i), r) for i, r in zip(live, got)}
    res = [by_id.get(id(i)) for i in ins]
    if not allow_unused:
        unused = [i.name for i, r in zip(ins, res) if r is None]
        if unused:
            raise ValueError(f"paddle.grad: the inputs {unused} are not used to compute the outputs; "
                             "pass allow_unused=True to get None for them")
    if create_graph:
        # Paddle's gradients built with create_graph=True never stop gradient, also where
        # they are constant (the output is linear in the input): such a gradient is still
        # an op's result (not a leaf, no gradient of its own), unless gradients are off,
        # where Paddle records nothing and hands back leaves.
        res = [r if r is None or r.requires_grad else _constant_grad(r) for r in res]
    else:
        # a hook on an intermediate tensor marked the gradient it saw as not stopping gradient
        # (as Paddle's hooks see it); the gradients returned here stop gradient
        res = [r.detach() if r is not None and getattr(r, GRAD_FLAG, False) else r for r in res]
    return [None if r is None else wrap(r) for r in res]
