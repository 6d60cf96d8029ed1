"""Recording op calls into a Program: the static-mode dispatcher handler.

While a recorder is active (``paddle.enable_static()``, or ``to_static`` tracing),
every op call is appended to the current block instead of being computed. Output
shapes and dtypes come from running the op's own kernel on ``meta`` tensors; when
a kernel needs data (``.item()``, data-dependent output sizes) it runs on zero
tensors instead and the output dimensions are marked unknown (-1).

Eager tensors passed to an op (parameters, constants) are captured into the
program as values that read the eager tensor when the program runs, so Paddle's
``nn`` layers work inside ``program_guard`` unchanged.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
import torch

from pagaie._core.bad_input import STATIC_TYPE_ERROR_OPS, STATIC_VALUE_ERROR_OPS
from pagaie._core.parameter import Parameter
from pagaie._core.public_names import public_name
from pagaie._core.random import draws_discarded
from pagaie._core.registry import REGISTRY as _REGISTRY
from pagaie._core.registry import (STATE, NoKernelError, OpRecord, bad_argument, dygraph_only_error,
                                   pop_handler, push_handler, translate_error)
from pagaie._core.tensor import GRAD_FLAG, Tensor, wrap
from pagaie._static.interpreter import _PROGRAM_SEEDED
from pagaie._ops._helpers import CPU_AS_GPU, cpu_as_gpu, program_constant
from pagaie._static.ir import UNKNOWN, UNKNOWN_ALT, Block, Program, Value, _shape_out, _values_in, map_values
from pagaie._static.meta_kernels import defer_dynamo_import

__all__ = ["Recorder", "capture", "recording"]

_MAX_FALLBACK_ELEMENTS = 50_000_000


def capture(block: Block, t: Tensor) -> Value:
    """The program value standing for eager tensor ``t`` (created once per tensor)."""
    prog = block.program
    cache = prog.__dict__.setdefault("_captured", {})
    hit = cache.get(id(t))
    if hit is not None and hit.source is t:
        return hit
    gb = prog.global_block()
    is_param = isinstance(t, Parameter)
    base = t.name if t._name is not None else ("param" if is_param else "constant")
    name = base if not any(base in b.vars for b in prog.blocks) else prog.unique_name(base)
    v = gb.create_var(name, list(t._t.shape), t.dtype, stop_gradient=t.stop_gradient,
                      persistable=is_param or bool(t.persistable))
    v.source = t
    cache[id(t)] = v
    if is_param:
        _declare_in_startup(prog, t, v)
    return v


def _declare_in_startup(prog: Program, t: Tensor, v: Value) -> None:
    """A parameter captured into the static-mode main program is also declared in the startup
    program (as Paddle's startup program creates it), so that running the startup program
    publishes it to the scope (``global_scope().find_var(name)``)."""
    from pagaie.static import framework as _fw
    st = _fw._S
    if not st.enabled or prog is not st.main or st.startup is prog:
        return
    sb = st.startup.global_block()
    if v.name in sb.vars:
        return
    sv = sb.create_var(v.name, list(t._t.shape), t.dtype, stop_gradient=t.stop_gradient,
                       persistable=True)
    sv.source = t


def _to_values(block: Block, v: Any) -> Any:
    if isinstance(v, Value):
        return v
    if isinstance(v, Tensor):
        return capture(block, v)
    if isinstance(v, int) and type(v) is not int and hasattr(v, "symbolic"):
        # ``x.shape[0]`` of an unknown size read in traced code (ast_runtime.UnknownDim): the
        # size as the program runs, as Paddle's shape op gives it (not the -1 it reads as)
        return v.symbolic()
    if type(v) in (list, tuple):
        conv = [_to_values(block, e) for e in v]
        return type(v)(conv)
    if type(v) is slice:   # x[:, :n] with n a Tensor
        return slice(*(_to_values(block, e) for e in (v.start, v.stop, v.step)))
    return v


# Ops whose Paddle shape rule reads the data of a constant input: a value a ``full`` op
# (``zeros``, ``ones``) made, or the sizes of ``paddle.shape(y)`` (its unknown ones stay
# unknown), also concatenated; inside a list only a 0-D int64 one (Paddle casts the others
# to int64 first, and reads no constant through the cast). ``arange(full(2), full(7))`` is
# [5] and ``reshape(x, paddle.shape(y))`` y's sizes; random ops, slices, ``split``,
# ``linspace`` and the data-dependent ops leave such sizes unknown, as their shape rules do.
_READS_CONSTANTS = frozenset({
    "arange", "full", "zeros", "ones", "empty", "eye", "reshape", "expand", "broadcast_to",
    "tile", "topk", "unsqueeze", "squeeze", "sum", "mean", "max", "min", "prod", "crop", "pad",
    "one_hot", "strided_slice"})

# Those of them whose Paddle rule also checks such constants while the program is built
# (the others build and fail when the program runs: topk's k, expand's sizes).
_CHECKS_CONSTANTS = frozenset({"reshape", "squeeze", "sum", "mean", "max", "min", "prod"})

# Value id -> (data, unknown mask) of the constant inputs of the op being recorded.
_CONSTANTS: dict = {}
_MAX_CONSTANT = 64


def _constant(v: Value) -> tuple[torch.Tensor, torch.Tensor] | None:
    """The data a value holds when the program is built (see ``_READS_CONSTANTS``) and which
    of its entries are unknown sizes; None for any other value."""
    op = v.op
    if op is None or v._t.dim() > 1:
        return None
    if op.type in ("full", "zeros", "ones") and not op.input_values():
        if v._t.numel() > _MAX_CONSTANT:
            return None
        data = op.record.kernel(*op.args, **op.kwargs).cpu()
        return data, torch.zeros(data.shape, dtype=torch.bool)
    if op.type == "shape":
        dims = op.input_values()[0]._known_dims()
        return (torch.tensor([max(d, 0) for d in dims], dtype=v._t.dtype),
                torch.tensor([d < 0 for d in dims], dtype=torch.bool))
    if op.type == "concat" and type(op.args[0]) in (list, tuple) and \
            all(isinstance(p, Value) for p in op.args[0]):
        parts = [_constant(p) for p in op.args[0]]
        if any(p is None or p[0].dim() != 1 for p in parts):
            return None
        return torch.cat([p[0].to(v._t.dtype) for p in parts]), torch.cat([p[1] for p in parts])
    return None


def _definite(constants: dict, vargs: list, vkwargs: dict) -> bool:
    """Whether a call that failed on its constants fails for good: every input size and
    constant entry is known and none is negative (Paddle reads a -1 as an unknown size)."""
    return not (_has_unknown(vargs) or _has_unknown(vkwargs.values())) and \
        all(not u.any() and not bool((d < 0).any()) for d, u in constants.values())


# Ops whose Paddle API casts a constant input of another dtype than the output's before its
# rule reads it (``arange(full([], 5, 'int32'))`` is [-1]: int64 output; int32 dtype: [5]).
_CASTS_CONSTANTS = frozenset({"arange"})

# Ops whose Paddle rule reads a constant entry of a list of any int dtype, 0-D or 1-D
# (``pad(x, [full([1], 1, 'int32'), 1])``); the others read 0-D int64 entries only.
_READS_LIST_CONSTANTS = frozenset({"pad"})


def _find_constants(v: Any, found: dict, in_list: bool = False, any_int: bool = False) -> None:
    if isinstance(v, Value):
        if not (in_list and (v._t.dim() != 0 or v._t.dtype is not torch.int64)) or (
                any_int and v._t.numel() == 1 and v._t.dtype in (torch.int32, torch.int64)):
            c = _constant(v)
            if c is not None:
                found[id(v)] = c
    elif type(v) in (list, tuple):
        for e in v:
            _find_constants(e, found, True, any_int)


def _constant_data(v: Value, size: int) -> torch.Tensor | None:
    c = _CONSTANTS.get(id(v))
    if c is None:
        return None
    data, unknown = c
    return torch.where(unknown, torch.tensor(size, dtype=data.dtype), data) if unknown.any() else data


def _rule_args(v: Any) -> Any:
    """``v`` for a ``static_shape`` rule: a constant input as its sizes, an unknown one as a
    0-D symbolic stand-in (which such rules read as -1)."""
    if isinstance(v, Value) and id(v) in _CONSTANTS:
        data, unknown = _CONSTANTS[id(v)]
        if not unknown.any():
            return wrap(data)
        return [wrap(torch.empty((), dtype=data.dtype, device="meta")) if u else int(d)
                for d, u in zip(data.tolist(), unknown.tolist())]
    if type(v) in (list, tuple):
        return type(v)(_rule_args(e) for e in v)
    return v


def _meta(v: Any) -> Any:
    if isinstance(v, Value) and _CONSTANTS:
        data = _constant_data(v, UNKNOWN)
        if data is not None:
            return data
    if isinstance(v, Tensor):  # Values too: their _t is already a meta tensor
        return v._t if v._t.device.type == "meta" else v._t.detach().to("meta")
    if type(v) in (list, tuple):
        return type(v)(_meta(e) for e in v)
    if type(v) is dict:   # keyword arguments
        return {k: _meta(e) for k, e in v.items()}
    if type(v) is slice:
        return slice(*(_meta(e) for e in (v.start, v.stop, v.step)))
    return v


def _has_unknown(values: Any) -> bool:
    for v in values:
        if isinstance(v, Value):
            if -1 in v._known_dims() or (id(v) in _CONSTANTS and bool(_CONSTANTS[id(v)][1].any())):
                return True
        elif type(v) in (list, tuple) and _has_unknown(v):
            return True
    return False


def _meta_alt(v: Any, size: int = UNKNOWN_ALT, sizes: dict | None = None) -> Any:
    """:func:`_meta` with ``size`` for the unknown sizes of symbolic values (the unknown size
    of axis ``i`` of value ``v`` at ``sizes[(id(v), i)]`` where given)."""
    if isinstance(v, Value):
        data = _constant_data(v, size) if _CONSTANTS else None
        if data is not None:
            return data
        return torch.empty([(sizes or {}).get((id(v), i), size) if d == -1 else d
                            for i, d in enumerate(v._known_dims())], dtype=v._t.dtype, device="meta")
    if type(v) in (list, tuple):
        return type(v)(_meta_alt(e, size, sizes) for e in v)
    if type(v) is dict:
        return {k: _meta_alt(e, size, sizes) for k, e in v.items()}
    return _meta(v)


# Placeholder sizes with many divisors, for ops that reject the prime ones (an unknown
# size split into equal parts, reshaped by a factor...).
_COMPOSITE = (9240, 7560)


def _shape_from_rule(rec: OpRecord, vargs: list, vkwargs: dict) -> tuple[Any, Any] | None:
    """The output of an op whose shape argument holds symbolic values (``reshape(x, [n, 6])``
    with ``n`` a Value): no made-up data can fit ``x`` there, so the record's
    ``static_shape`` rule gives the sizes (-1 for those read from the values); None when the
    record has no rule or it declines. A rule of an op with several outputs (``split``) gives
    a list of such size lists; every output has ``x``'s dtype, unless the rule gives
    ``(sizes, torch_dtype)`` (or, for several outputs, ``(sizes, [torch_dtype, ...])``). An
    output that is itself a list of tensors (``distribute_fpn_proposals``) has a list of size
    lists, all of its entry's dtype."""
    rule = rec.extra.get("static_shape")
    if rule is None:
        return None
    if _CONSTANTS:
        vargs, vkwargs = _rule_args(vargs), {k: _rule_args(v) for k, v in vkwargs.items()}
    try:
        dims = rule(*vargs, **vkwargs)
    except Exception:  # noqa: BLE001 - the rule declines; the generic fallbacks report
        return None
    if dims is None:
        return None
    if type(dims) is tuple and len(dims) == 2 and isinstance(dims[1], (torch.dtype, list)):
        dims, dtype = dims   # the rule names the dtype(s) (not taken from ``x``)
    else:
        x = vargs[0] if vargs else next(iter(vkwargs.values()))
        dtype = _meta(x).dtype

    def empty(sizes: list, dt: torch.dtype) -> Any:
        if sizes and all(isinstance(d, (list, tuple)) for d in sizes):  # a list of outputs
            parts = [empty(d, dt) for d in sizes]
            return [p[0] for p in parts], [p[1] for p in parts]
        return (torch.empty([UNKNOWN if d < 0 else d for d in sizes], dtype=dt, device="meta"),
                list(sizes))

    if dims and all(isinstance(d, (list, tuple)) for d in dims):
        dtypes = dtype if isinstance(dtype, list) else [dtype] * len(dims)
        parts = [empty(d, t) for d, t in zip(dims, dtypes)]
        return [p[0] for p in parts], [p[1] for p in parts]
    return empty(dims, dtype)


def _meta_on_composites(rec: OpRecord, vargs: list, vkwargs: dict) -> tuple[Any, Any] | None:
    """The outputs and known sizes of a call whose meta run failed on the prime placeholder,
    from two runs with divisible ones; None when the inputs have no unknown size or a run
    fails too."""
    if not (_has_unknown(vargs) or _has_unknown(vkwargs.values())):
        return None
    try:
        out = rec.kernel(*_meta_alt(vargs, _COMPOSITE[0]), **_meta_alt(vkwargs, _COMPOSITE[0]))
        alt = rec.kernel(*_meta_alt(vargs, _COMPOSITE[1]), **_meta_alt(vkwargs, _COMPOSITE[1]))
    except Exception:  # noqa: BLE001 - it needs data
        return None
    dims = _agreeing_dims(out, alt)
    return None if dims is None else (out, dims)


def _agreeing_dims(a: Any, b: Any) -> Any:
    """Per output tensor of the runs with two placeholder sizes: the sizes both agree on
    (the others follow an unknown input size: -1); None where the structures differ."""
    if isinstance(a, torch.Tensor):
        if not isinstance(b, torch.Tensor) or a.dim() != b.dim():
            return None
        return [int(d) if d == e else -1 for d, e in zip(a.shape, b.shape)]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        parts = [_agreeing_dims(x, y) for x, y in zip(a, b)]
        return None if any(p is None and isinstance(x, torch.Tensor) for p, x in zip(parts, a)) \
            else parts
    return None


def _meta_dims(rec: OpRecord, out: Any, vargs: list, vkwargs: dict) -> Any:
    """The output sizes of a call that ran on meta tensors: exact when no input size is
    unknown, else those a second run with other placeholder sizes agrees on (False: read
    them from the placeholders, when that run fails).

    A size computed from an unknown one stays unknown even where it does not grow with it
    (``x[0:1]``, ``min(n, 5)`` singular values along an unknown axis), as in Paddle's
    programs: a third run with the unknown sizes at 0, where it works, finds those."""
    if not (_has_unknown(vargs) or _has_unknown(vkwargs.values())):
        return _agreeing_dims(out, out)   # every size as it is
    try:
        alt = rec.kernel(*_meta_alt(vargs), **_meta_alt(vkwargs))
    except Exception:  # noqa: BLE001 - fall back to recognising the placeholder
        return False
    dims = _agreeing_dims(out, alt)
    if dims is None:
        return False
    try:
        empty = rec.kernel(*_meta_alt(vargs, 0), **_meta_alt(vkwargs, 0))
    except Exception:  # noqa: BLE001 - many ops reject empty inputs: keep the two runs' answer
        return dims
    return _merge_known(dims, _agreeing_dims(out, empty) or dims)


def _meta_broadcast_unknowns(rec: OpRecord, vargs: list, vkwargs: dict) -> tuple[Any, Any] | None:
    """The outputs and known sizes of a call that fails because an unknown size meets a
    known one it must broadcast with (``[-1, 3] + [4, 3]``, a [4, 5] label for a [-1, 5]
    input): Paddle takes the known size there. Unknown sizes are pinned to 1 one by one
    until the call works, then each pin that is not needed is released again; the released
    ones keep the placeholder sizes and the outputs that follow them are unknown. None when
    no pinning makes the call work."""
    inputs = list(vargs) + list(vkwargs.values())
    keys = [(id(v), i) for v in _values_in(inputs) for i, d in enumerate(v._known_dims()) if d == -1]
    if not keys:
        return None
    # Pin to 1 (a broadcast), else to one of the known sizes (a loss whose label must
    # match the input's shape exactly).
    known = sorted({d for v in _values_in(inputs) for d in v._known_dims() if d > 1})
    for pin in [1, *known[:4]]:
        got = _pinned_run(rec, vargs, vkwargs, keys, pin)
        if got is not None:
            return got
    return None


def _pinned_run(rec: OpRecord, vargs: list, vkwargs: dict, keys: list, pin: int) -> tuple[Any, Any] | None:
    """:func:`_meta_broadcast_unknowns` with the pinned sizes at ``pin``."""
    def run(pinned: set, size: int) -> Any:
        sizes = {k: pin for k in pinned}
        return rec.kernel(*_meta_alt(vargs, size, sizes), **_meta_alt(vkwargs, size, sizes))

    pinned: set = set()
    for key in keys:
        pinned.add(key)
        try:
            run(pinned, UNKNOWN)
            break
        except Exception:  # noqa: BLE001 - pin more
            continue
    else:
        return None
    for key in list(pinned):
        try:
            run(pinned - {key}, UNKNOWN)
        except Exception:  # noqa: BLE001 - this one is needed
            continue
        pinned.discard(key)
    try:
        out, alt = run(pinned, UNKNOWN), run(pinned, UNKNOWN_ALT)
    except Exception:  # noqa: BLE001
        return None
    dims = _agreeing_dims(out, alt)
    return None if dims is None else (out, dims)


_TOO_LARGE = ("paddle.static: cannot infer the output shape of this op symbolically, "
              "and the input is too large to probe")


def _zeros(v: Any, fill: Any = 0, _seen: list | None = None, _bound: bool = False) -> Any:
    """``v`` with symbolic tensors replaced by data: ``fill`` everywhere, ``"ramp"`` (distinct
    values 1, 2, 3...; alternating for bool), ``"ramp2"`` (2, 3, 4...), ``"spread"`` (the ramp
    of the k-th symbolic input starting k higher, so that no two inputs hold the same data)
    or ``"alt"`` (1, 0, 1, 0...). Eager tensors keep their data. (A ``full`` value bounding a
    slice, ``x[:, :n]``, stays made-up data: Paddle's programs give that dim -1.)"""
    seen = [0] if _seen is None else _seen
    if isinstance(v, Value) and _CONSTANTS:
        data = _constant_data(v, UNKNOWN)
        if data is not None:
            return data
    if isinstance(v, (Tensor, torch.Tensor)):   # torch: a meta tensor of _meta_alt's
        t = v._t if isinstance(v, Tensor) else v
        if t.numel() > _MAX_FALLBACK_ELEMENTS:
            raise ValueError(_TOO_LARGE)
        if t.device.type != "meta":
            return t.detach()
        if t.dim() == 0 and not _bound and (c := program_constant(v)) is not None:   # Paddle reads it at build time
            return torch.full((), c, dtype=t.dtype)
        if fill in ("ramp", "ramp2", "spread", "alt"):
            start = 2 if fill == "ramp2" else 1 + seen[0] if fill == "spread" else 1
            seen[0] += 1
            r = torch.arange(start, t.numel() + start).reshape(t.shape)
            if fill == "alt" or t.dtype == torch.bool:
                r = r % 2
            return r.to(t.dtype)
        return torch.full(t.shape, fill, dtype=t.dtype)
    if type(v) in (list, tuple):
        return type(v)(_zeros(e, fill, seen, _bound) for e in v)
    if type(v) is dict:
        return {k: _zeros(e, fill, seen, _bound) for k, e in v.items()}
    if type(v) is slice:
        return slice(*(_zeros(e, fill, seen, True) for e in (v.start, v.stop, v.step)))
    return v


def _known_dims(a: Any, b: Any) -> Any:
    """Per output tensor of two runs on different data: the dims both runs agree on (others
    depend on the data and are unknown, -1)."""
    if isinstance(a, torch.Tensor):
        if not isinstance(b, torch.Tensor) or a.dim() != b.dim():
            return [-1] * a.dim()
        return [d if d == e else -1 for d, e in zip(_shape_out(a.shape), _shape_out(b.shape))]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b):
        return [_known_dims(x, y) for x, y in zip(a, b)]
    return None


def _any_requires_grad(values: list) -> bool:
    return any(not v.stop_gradient for v in values if isinstance(v, Value))


def _mutates_first_input(rec: OpRecord) -> bool:
    """Records whose kernel writes into its first argument without being an ``inplace_of``
    variant: ``setitem`` and the in-place fills and samplers (``fill_``, ``uniform_``...)."""
    return rec.name == "setitem" or (rec.name.endswith("_") and rec.name != "assign_")


# Paddle's static (PIR) programs mark an op's results ``stop_gradient=False`` as soon as one
# input needs gradients, whatever their dtype and even for ops without a backward (argmax,
# cast to int, accuracy...), except for these, whose results always stop gradients.
_ALWAYS_STOP = frozenset({
    "equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal",
    "equal_all", "logical_and", "logical_or", "logical_xor", "logical_not", "shape", "rank",
    "detach", "rand_like", "randn_like", "randint_like"})


def _as_base_call(rec: OpRecord, args: tuple, kwargs: dict) -> tuple:
    """In-place record ``rec``'s call as a call of its out-of-place op. Their signatures may
    differ (``cumprod_(x, dim, dtype)`` where ``cumprod`` takes ``dtype`` by keyword only,
    ``bitwise_and_`` has no ``out``): the arguments after the shared positional ones go by name."""
    base = _REGISTRY[rec.inplace_of]
    ipos = [p.name for p in rec.signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    bpos = [p.name for p in base.signature.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    if len(args) > len(ipos) or ipos == bpos[:len(ipos)]:
        return base, args, kwargs
    keep = 0
    while keep < min(len(args), len(bpos)) and ipos[keep] == bpos[keep]:
        keep += 1
    return base, args[:keep], {**dict(zip(ipos[keep:], args[keep:])), **kwargs}


def base_name(rec: OpRecord) -> str:
    """The op a record is, in-place variants included (``equal_`` is ``equal``)."""
    return rec.inplace_of or rec.name


def _sparse_placeholder(out: torch.Tensor) -> torch.Tensor:
    """An entry-less CPU tensor in the layout of sparse output ``out``: the placeholder of a
    sparse value (torch's sparse kernels do not run on ``meta`` tensors, so the ops reading
    it infer their outputs from a run on this one)."""
    zeros = torch.zeros([max(d, 0) for d in out.shape], dtype=out.dtype)
    if out.layout is torch.sparse_coo:
        return zeros.to_sparse(out.sparse_dim())
    return zeros.to_sparse(layout=out.layout)


def _asks_grad(out: Any) -> bool:
    """Whether a kernel that takes a ``stop_gradient`` argument (``to_tensor``) made its result
    say ``stop_gradient=False``: its program Value says so too, as Paddle's."""
    return isinstance(out, torch.Tensor) and (out.requires_grad or bool(getattr(out, GRAD_FLAG, False)))


def _make_outputs(block: Block, out: Any, prefix: str, stop: bool, unknown: Any) -> Any:
    """Values for a kernel's outputs; ``unknown``: False (shapes exact), True (all dims
    unknown) or the per-output dims of :func:`_known_dims`."""
    if isinstance(out, torch.Tensor):
        if out.dim() >= UNKNOWN:
            # the rank came from an unknown size (a shape tensor of unknown length): Paddle
            # declares such a result as [-1]
            return block.create_var(block.program.unique_name(prefix), [-1], out.dtype,
                                    stop_gradient=stop)
        if unknown is False:
            shape = _shape_out(out.shape)
        elif isinstance(unknown, list) and len(unknown) == out.dim():
            shape = unknown
        else:
            shape = [-1] * out.dim()
        v = block.create_var(block.program.unique_name(prefix), shape, out.dtype, stop_gradient=stop)
        if out.layout is not torch.strided:
            v._t = _sparse_placeholder(out)
        return v
    if isinstance(out, (tuple, list)):
        # plain tuple/list (torch's named result tuples are not structures the IR walks)
        kind = list if isinstance(out, list) else tuple
        parts = unknown if isinstance(unknown, list) and len(unknown) == len(out) else \
            [unknown if isinstance(unknown, bool) else True] * len(out)
        return kind(_make_outputs(block, o, prefix, stop, u) for o, u in zip(out, parts))
    return out


# The words of pagaie's "not a tensor" errors (registry.bad_argument's, and the ops' own),
# for a value other than None.
_NOT_A_TENSOR = re.compile(r"must be (a )?Tensor( or a number)?, but (got|received) (?!None)"
                           r"|must be (a )?list of Tensors, but (element|got (?!None))"
                           r"|must be a list or tuple of Tensors, but received (?!None)"
                           r"|the value must be a Tensor, numpy\.ndarray, int, float")


def _recording_error(rec: OpRecord, exc: BaseException, vargs: list, vkwargs: dict) -> BaseException:
    """The error of an op that cannot be recorded, as the eager call would raise it (Paddle's
    exception type, ``paddle.<api>: ...``), unknown sizes shown as -1.

    One difference: where Paddle's argument parser refuses a non-tensor (a list, a number, a
    numpy array) for a tensor argument, eagerly with ValueError, its static-graph parser
    wants a program Value and raises TypeError (None still gives ValueError). Another: a
    dtype the op has no kernel for (eagerly Paddle's NotFound, a RuntimeError) is refused
    while the op is built, with TypeError."""
    static = getattr(exc, "static_type", None)   # Paddle's build-time check refuses it
    if static is not None:
        return static(str(exc).replace(str(UNKNOWN), "-1"))
    if isinstance(exc, (TypeError, AttributeError)):   # as the eager dispatcher sorts them
        err = bad_argument(rec, exc, tuple(vargs))
    else:
        err = translate_error(rec.name, exc, tuple(vargs), vkwargs)
    if type(err) is ValueError and _NOT_A_TENSOR.search(str(err)) and \
            rec.name not in STATIC_VALUE_ERROR_OPS:
        return TypeError(f"{err} (a static program takes its Values, or eager Tensors)")
    if type(err) is AttributeError and rec.name in STATIC_TYPE_ERROR_OPS:
        return TypeError(str(err))   # Paddle's static type check of the input comes first
    if isinstance(err, NoKernelError):   # Paddle refuses the dtype while building the op
        return err.static_type(str(err).replace(str(UNKNOWN), "-1"))
    try:
        return type(err)(str(err).replace(str(UNKNOWN), "-1"))
    except Exception:  # noqa: BLE001 - an exception type with another constructor
        return err


def _check_program_args(rec: OpRecord, args: tuple, kwargs: dict) -> None:
    """The checks Paddle's static API makes and its eager calls skip, for the records naming
    them: ``program_dtypes`` (argument -> the torch dtypes a Tensor there may have, as
    ``check_variable_and_dtype``) and ``program_no_arrays`` (arguments that may not be numpy
    arrays or numpy numbers, as ``check_type``). Both are TypeError."""
    names = list(rec.signature.parameters)

    def arg(name: str) -> Any:
        i = names.index(name)
        return args[i] if i < len(args) else kwargs.get(name)

    for name in rec.extra.get("program_no_arrays", ()):
        v = arg(name)
        if isinstance(v, (np.ndarray, np.generic)):
            raise TypeError(f"{public_name(rec.name)}: '{name}' must be a list, a tuple or a Tensor in a "
                            f"static program, but received numpy.{type(v).__name__}")
    for name, allowed in rec.extra.get("program_dtypes", {}).items():
        v = arg(name)
        if isinstance(v, Tensor) and v._t.dtype not in allowed:
            from pagaie._core.dtype import from_torch_dtype
            want = ", ".join(sorted(from_torch_dtype(d).name for d in allowed))
            raise TypeError(f"{public_name(rec.name)}: '{name}' of dtype {from_torch_dtype(v._t.dtype).name} "
                            f"is not supported in a static program (Paddle's static API takes {want})")


def _too_large(v: Any) -> bool:
    if isinstance(v, Tensor):
        return v._t.numel() > _MAX_FALLBACK_ELEMENTS
    return type(v) in (list, tuple) and any(_too_large(e) for e in v)


# Sizes for the unknown dims of inputs whose placeholder sizes make too much data to run on.
_SMALL_SIZES = (6, 12)


def _run_on_data(rec: OpRecord, vargs: list, vkwargs: dict) -> tuple[Any, Any]:
    """Run a kernel that needs data on made-up inputs: the outputs and, from a second run on
    other data, which of their dims do not depend on the data.

    Inputs with unknown sizes whose placeholders hold too many elements (``[-1, -1, -1]``)
    run with small sizes there instead, twice: the output dims that differ between the two
    follow the unknown sizes and are unknown (-1) too."""
    inputs = list(vargs) + list(vkwargs.values())
    if _too_large(inputs) and _has_unknown(inputs):
        try:
            runs = [_run_on_data_at(rec, _meta_alt(vargs, n), _meta_alt(vkwargs, n))
                    for n in _SMALL_SIZES]
        except Exception:  # noqa: BLE001 - the sizes do not fit the op: try the known ones
            pass
        else:
            (out, known), (alt, _) = runs
            dims = _known_dims(out, alt)
            return out, True if known is True or dims is None else _merge_known(known, dims)
        found = _run_at_known_sizes(rec, vargs, vkwargs, inputs)
        if found is not None:
            return found
        return _run_on_data_at(rec, vargs, vkwargs)
    try:
        return _run_on_data_at(rec, vargs, vkwargs)
    except Exception:  # noqa: BLE001 - unknown sizes may have to match a known one
        found = _run_at_known_sizes(rec, vargs, vkwargs, inputs) if _has_unknown(inputs) else None
        if found is None:
            raise
        return found


def _run_at_known_sizes(rec: OpRecord, vargs: list, vkwargs: dict, inputs: list) -> Any:
    """For a size the op needs the unknown ones to match (repeat_interleave's repeats along
    its axis, a [-1, 4] input with 3 counts): one run with all of them at a known size of the
    inputs, every output size unknown; None when no such size fits."""
    for n in sorted({d for v in _values_in(inputs) for d in v._known_dims() if d > 1})[:4]:
        try:
            return _run_on_data_at(rec, _meta_alt(vargs, n), _meta_alt(vkwargs, n))[0], True
        except Exception:  # noqa: BLE001 - the caller's error stands
            continue
    return None


@contextmanager
def _probing(rec: OpRecord) -> Iterator[None]:
    """Kernel runs on made-up CPU data follow the program's dtype rules, not eager CPU ones:
    a record with ``program_dtypes`` passed its build-time check (the CPU stands in for any
    device), another one's CPU tensors count as the program's placeholders (``static`` sets)."""
    if "program_dtypes" in rec.extra:
        with cpu_as_gpu():
            yield
        return
    CPU_AS_GPU["probes"] += 1
    try:
        yield
    finally:
        CPU_AS_GPU["probes"] -= 1


def _run_on_data_at(rec: OpRecord, vargs: list, vkwargs: dict) -> tuple[Any, Any]:
    """:func:`_run_on_data` with the inputs' sizes as they are."""
    with _probing(rec):
        return _run_on_data_probes(rec, vargs, vkwargs)


def _run_on_data_probes(rec: OpRecord, vargs: list, vkwargs: dict) -> tuple[Any, Any]:
    try:
        out = rec.kernel(*_zeros(vargs), **_zeros(vkwargs))
    except Exception as exc:  # noqa: BLE001
        try:  # zeros can be invalid data (integer division, normalising weights...)
            out = rec.kernel(*_zeros(vargs, 1), **_zeros(vkwargs, 1))
        except Exception:  # noqa: BLE001
            raise _recording_error(rec, exc, vargs, vkwargs) from None
    try:
        other = rec.kernel(*_zeros(vargs, "ramp"), **_zeros(vkwargs, "ramp"))
    except Exception:  # noqa: BLE001 - large values can be invalid (indices): try 1, 0, 1, 0...
        try:
            other = rec.kernel(*_zeros(vargs, "alt"), **_zeros(vkwargs, "alt"))
        except Exception:  # noqa: BLE001 - then no dim is trusted
            return out, True
    known = _known_dims(out, other)
    try:  # a third run: a dim two runs agree on by chance (a size read from the data) is unknown too
        third = rec.kernel(*_zeros(vargs, "ramp2"), **_zeros(vkwargs, "ramp2"))
    except Exception:  # noqa: BLE001
        third = None
    if known is not None and third is not None:
        known = _merge_known(known, _known_dims(out, third))
    try:  # a fourth: inputs that held the same data (``arange(a[0], b[0])``) now differ
        spread = rec.kernel(*_zeros(vargs, "spread"), **_zeros(vkwargs, "spread"))
    except Exception:  # noqa: BLE001
        spread = None
    if known is not None and spread is not None:
        known = _merge_known(known, _known_dims(out, spread))
    return out, True if known is None else known


def _merge_known(a: Any, b: Any) -> Any:
    """The dims known in both ``_known_dims`` results (-1 where either says unknown)."""
    if a is None or b is None or len(a) != len(b):
        return a
    if all(isinstance(d, int) for d in a):
        return [d if d == e else -1 for d, e in zip(a, b)]
    return [_merge_known(x, y) for x, y in zip(a, b)]


def _program_seed_attrs(rec: OpRecord, vargs: list, vkwargs: dict, recorder: "Recorder") -> dict | None:
    """The seed attributes of an op whose Paddle API reads the default main program's
    ``random_seed`` when called (element-wise dropout): ``{'seed': N}`` in a static program
    recorded under a non-zero seed (the executor pins it on every run), and
    ``{'seed_from_main': True}`` in a ``to_static`` trace (Paddle follows the seed set when
    each call runs); None otherwise."""
    name = rec.inplace_of or rec.name
    if name not in _PROGRAM_SEEDED:
        return None
    try:
        bound = rec.bind(vargs, vkwargs).arguments
    except TypeError:
        return None
    if bound.get("axis") is not None:    # the composite form draws through uniform()
        return None
    from pagaie.static import framework as _fw
    if _fw._S.recorder is not recorder:
        return {"seed_from_main": True}
    seed = int(getattr(_fw.default_main_program(), "random_seed", 0) or 0)
    if not -(1 << 31) <= seed < (1 << 31):   # Paddle's dropout seed attribute is an int32
        raise IndexError(f"paddle.nn.functional.dropout: the seed {seed} (Program.random_seed) "
                         f"exceeds the int32 range [-2147483648, 2147483647]")
    return {"seed": seed} if seed else None


class Recorder:
    """Appends op calls to ``program``'s current block while it is installed."""

    def __init__(self, program: Program, static_mode: bool = False) -> None:
        self.program = program
        self.block_stack: list[Block] = [program.global_block()]
        # The recorder of static mode (``paddle.enable_static``) refuses the records marked
        # ``dygraph_only``, as Paddle's decorator of those APIs does when dynamic mode is off;
        # a ``to_static`` trace (dynamic mode on) records them.
        self.static_mode = static_mode
        defer_dynamo_import()   # shapes come from meta kernels: no compiler import for them

    @property
    def block(self) -> Block:
        return self.block_stack[-1]

    def handler(self, rec: OpRecord, args: tuple, kwargs: dict, proceed: Any) -> Any:
        return self.record(rec, args, kwargs)

    handler.records_program = True   # (the registry's in-place APIs then run out of place)

    def record(self, rec: OpRecord, args: tuple, kwargs: dict) -> Any:
        if rec.inplace_of is not None and STATE.functional_inplace() and \
                not _REGISTRY[rec.inplace_of].extra.get("program_inplace"):
            # Paddle's programs record an in-place API as its out-of-place op (``tanh_`` is
            # ``tanh``: the input keeps its value); ``increment`` and ``index_put_`` stay in place
            rec, args, kwargs = _as_base_call(rec, args, kwargs)
        if "program_dtypes" in rec.extra or "program_no_arrays" in rec.extra:
            _check_program_args(rec, args, kwargs)
        if self.static_mode and rec.extra.get("dygraph_only"):
            api = rec.extra["dygraph_only"] if isinstance(rec.extra["dygraph_only"], str) else rec.name
            raise dygraph_only_error(api)
        block = self.block
        vargs = [_to_values(block, a) for a in args]
        vkwargs = {k: _to_values(block, v) for k, v in kwargs.items()}
        if "static_check" in rec.extra:   # the op's own checks of its program Values
            rec.extra["static_check"](*vargs, **vkwargs)
        constants: dict = {}
        if base_name(rec) in _READS_CONSTANTS:
            for a in [*vargs, *vkwargs.values()]:
                _find_constants(a, constants, any_int=base_name(rec) in _READS_LIST_CONSTANTS)
        saved = dict(_CONSTANTS)
        _CONSTANTS.clear()
        _CONSTANTS.update(constants)
        try:
            try:
                out, unknown = self._infer(rec, vargs, vkwargs)
            except Exception:  # noqa: BLE001 - a constant Paddle reads as unknown sizes (-1)
                if not constants or (base_name(rec) in _CHECKS_CONSTANTS and
                                     _definite(constants, vargs, vkwargs)):
                    raise   # (Paddle's build-time error: reshape to [12, 12], axis 5 of 2)
                _CONSTANTS.clear()
                out, unknown = self._infer(rec, vargs, vkwargs)
            if base_name(rec) in _CASTS_CONSTANTS and isinstance(out, torch.Tensor):
                other = [k for k, (d, _) in _CONSTANTS.items() if d.dtype is not out.dtype]
                if other:   # Paddle casts those first: a cast's value is unknown there
                    for k in other:
                        del _CONSTANTS[k]
                    out, unknown = self._infer(rec, vargs, vkwargs)
        finally:
            _CONSTANTS.clear()
            _CONSTANTS.update(saved)
        return self._append(rec, block, vargs, vkwargs, out, unknown)

    def _infer(self, rec: OpRecord, vargs: list, vkwargs: dict) -> tuple[Any, Any]:
        """The outputs of a call on placeholders and which of their sizes are known."""
        with draws_discarded():
            try:
                out = rec.kernel(*_meta(vargs), **_meta(vkwargs))
            except Exception as meta_exc:  # noqa: BLE001 - failing only means "needs data"
                if getattr(meta_exc, "static_type", None) is not None:   # a dtype check: no data helps
                    raise _recording_error(rec, meta_exc, vargs, vkwargs) from None
                try:
                    out, unknown = _shape_from_rule(rec, vargs, vkwargs) or \
                        _meta_on_composites(rec, vargs, vkwargs) or \
                        _meta_broadcast_unknowns(rec, vargs, vkwargs) or _run_on_data(rec, vargs, vkwargs)
                except ValueError as exc:
                    # inputs too large to run on: the op's own check of their sizes stands
                    if exc.args and exc.args[0] == _TOO_LARGE and str(meta_exc).startswith("paddle."):
                        raise meta_exc from None
                    raise
            else:
                unknown = _meta_dims(rec, out, vargs, vkwargs)
                first = rec.extra.get("static_shape_first")
                if first == "always" or (first and not _CONSTANTS and (
                        _has_unknown(vargs) or _has_unknown(vkwargs.values()))):
                    # Paddle's own size rule for unknown input sizes, where probing differs
                    # (its reshape copies an unknown size for a 0 and keeps a -1 unknown);
                    # "always": for any input (linspace's length is read when it runs)
                    out, unknown = _shape_from_rule(rec, vargs, vkwargs) or (out, unknown)
        return out, unknown

    def _append(self, rec: OpRecord, block: Block, vargs: list, vkwargs: dict, out: Any,
                unknown: Any) -> Any:
        inputs = list(vargs) + list(vkwargs.values())
        flat = [x for a in inputs for x in (a if isinstance(a, (list, tuple)) else [a])]
        # an op recorded under ``no_grad`` stops gradients where the program runs, as Paddle's
        cut = not torch.is_grad_enabled()
        stop = cut or base_name(rec) in _ALWAYS_STOP or not (
            _any_requires_grad(flat) or (rec.extra.get("own_stop_gradient") and _asks_grad(out)))
        base = rec.inplace_of or rec.name
        attrs = _program_seed_attrs(rec, vargs, vkwargs, self)
        if rec.inplace_of is not None:
            # In-place calls re-define their first input (the program stays in call order).
            target = vargs[0] if vargs else next(iter(vkwargs.values()))
            _, vargs, vkwargs = _as_base_call(rec, vargs, vkwargs)   # the op runs as ``base``
            block.append_op(base, vargs, vkwargs, target, attrs)
            return target
        if rec.inplace_of is None and _mutates_first_input(rec) and vargs and isinstance(vargs[0], Value):
            # A kernel that writes into its first argument (``x[i] = v``, ``x.fill_(v)``): it
            # runs on a copy, and the copy re-defines the argument, so the Python object seen
            # by later ops holds the new contents (aliases of the old one keep theirs).
            target = vargs[0]
            copy = self.record(_REGISTRY["assign"], (target,), {})
            block.append_op(base, [copy] + vargs[1:], vkwargs, target, attrs)
            return target
        outputs = _make_outputs(block, out, base, stop, unknown)
        if cut:
            map_values(outputs, lambda v: setattr(v, "_cut", True))
        block.append_op(base, vargs, vkwargs, outputs, attrs)
        return outputs

    @contextmanager
    def sub_block(self) -> Iterator[Block]:
        """Record into a new child block of the current one (for control flow)."""
        b = self.program.create_block(self.block.idx)
        self.block_stack.append(b)
        try:
            yield b
        finally:
            self.block_stack.pop()


_ACTIVE: list[Recorder] = []


def active_recorder() -> Recorder | None:
    return _ACTIVE[-1] if _ACTIVE else None


@contextmanager
def recording(program: Program) -> Iterator[Recorder]:
    """Record every op call into ``program`` inside the ``with`` block."""
    r = Recorder(program)
    _ACTIVE.append(r)
    push_handler(r.handler)
    try:
        yield r
    finally:
        pop_handler(r.handler)
        _ACTIVE.remove(r)

