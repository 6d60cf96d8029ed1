"""``paddle.incubate.cc.compile``: build one overload per combination of annotated dtypes.

Paddle traces the function to a static program for each dtype combination and hands it to
its GPU fusion compiler (AP/CINN). pagaie keeps the same contract (annotations required,
inference only, calls dispatched on the argument dtypes, fixed dims checked) and runs the
function itself for the matching overload; no fused kernel is generated.
"""
from __future__ import annotations

import inspect
import itertools
from typing import Any, Callable

from pagaie.incubate.cc import typing as pct

__all__ = ["compile"]


def _annotations(func: Callable) -> list[pct.Tensor]:
    spec = inspect.getfullargspec(func)
    hints = inspect.get_annotations(func, eval_str=True)  # also under postponed evaluation
    out = []
    for arg in spec.args:
        ann = hints.get(arg)
        if not isinstance(ann, pct.Tensor):
            raise AssertionError(f"paddle.incubate.cc.compile: argument {arg!r} must be annotated with "
                                 "paddle.incubate.cc.typing.Tensor(shape, dtype)")
        if not isinstance(ann.dtype, pct.DTypeVar):
            raise AssertionError("paddle.incubate.cc.compile: pct_type.dtype should be a DTypeVar, but "
                                 f"{type(ann.dtype)} were given")
        out.append(ann)
    return out


def _signatures(annotations: list[pct.Tensor]) -> list[tuple[str, ...]]:
    """Every assignment of candidates to the dtype variables, as per-argument dtype names."""
    variables: dict[str, tuple] = {}
    for ann in annotations:
        name, cands = ann.dtype.name, tuple(ann.dtype.candidates)
        if variables.setdefault(name, cands) != cands:
            raise AssertionError(f"paddle.incubate.cc.compile: dtype variable {name!r} is used with "
                                 "different candidate lists")
    if not variables:
        raise AssertionError("paddle.incubate.cc.compile: the function needs at least one annotated "
                             "Tensor argument")
    names = list(variables)
    sigs = []
    for combo in itertools.product(*(variables[n] for n in names)):
        chosen = dict(zip(names, combo))
        sigs.append(tuple(chosen[a.dtype.name] for a in annotations))
    return sigs


class OverloadedFunc:
    """The compiled function: calls with positional tensors dispatch on their dtypes.

    Args:
        func (callable): the function compiled.
        annotations (list): the argument annotations.
        signatures (list[tuple[str]]): the accepted dtype combinations.
    """

    def __init__(self, func: Callable, annotations: list, signatures: list) -> None:
        self._func = func
        self._annotations = annotations
        self._signatures = set(signatures)
        self._order = list(signatures)

    def __call__(self, *args: Any) -> Any:
        dtypes = tuple(a.dtype.name for a in args)
        if dtypes not in self._signatures:
            valid = "; ".join(f"[{i + 1}] {s}" for i, s in enumerate(self._order))
            raise AssertionError(f"paddle.incubate.cc.compile: input signature {dtypes} mismatched, "
                                 f"valid signatures are: {valid}")
        for i, (a, ann) in enumerate(zip(args, self._annotations)):
            self._check_shape(i, list(a.shape), ann.shape)
        return self._func(*args)

    @staticmethod
    def _check_shape(i: int, shape: list, spec: Any) -> None:
        fixed = [d if isinstance(d, int) else d.name_or_value if isinstance(d.name_or_value, int) else None
                 for d in spec]
        if len(shape) != len(fixed) or any(f is not None and f != s for f, s in zip(fixed, shape)):
            want = ["?" if f is None else f for f in fixed]
            raise ValueError(f"paddle.incubate.cc.compile: argument {i} must have shape {want}, but "
                             f"received {shape}")


def compile(func: Callable, *args: Any, **kwargs: Any) -> OverloadedFunc:  # noqa: A001
    """Compile an annotated function: one overload per combination of its dtype variables.

    Every argument must be annotated with ``paddle.incubate.cc.typing.Tensor(shape, dtype)``
    whose dtype is a ``DTypeVar``. Options (Paddle's): ``train`` (only False is supported),
    ``ap_path``, ``ap_workspace_dir``, ``backend_device``, ``target_framework`` and
    ``compile_engine`` ('PCC' or 'CINN'); on pagaie they select nothing, since the overloads
    run the function as written.

    Args:
        func (callable): the annotated function.
        *args: compile options, positionally.
        **kwargs: compile options by name.

    Returns:
        OverloadedFunc: call it with tensors of one of the annotated dtype combinations.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.incubate.cc.typing as pct
        >>> N = pct.DimVar('N')
        >>> T = pct.DTypeVar('T', 'float32', 'float64')
        >>> def axpy(x: pct.Tensor([N, 2], T), y: pct.Tensor([N, 2], T)):
        ...     return 2.0 * x + y
        >>> fast = paddle.incubate.cc.compile(axpy)
        >>> fast(paddle.ones([1, 2]), paddle.ones([1, 2])).tolist()
        [[3.0, 3.0]]
    """
    _options(*args, **kwargs)
    annotations = _annotations(func)
    return OverloadedFunc(func, annotations, _signatures(annotations))


def _options(train: bool = False, ap_path: str = "", ap_workspace_dir: str = "/tmp/paddle/ap",
             backend_device: str = "cuda", target_framework: str = "paddle",
             compile_engine: str = "PCC") -> None:
    if ap_path is None:
        raise AssertionError("paddle.incubate.cc.compile: 'ap_path' must not be None")
    if train:
        raise AssertionError("paddle.incubate.cc.compile: only support inference now (train=False)")
    if compile_engine not in ("CINN", "PCC"):
        raise AssertionError("paddle.incubate.cc.compile: 'compile_engine' must be 'CINN' or 'PCC', "
                             f"but received {compile_engine!r}")
