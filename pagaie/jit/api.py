"""``paddle.jit.to_static``: a function or Layer run as a static Program.

A :class:`StaticFunction` converts its function's Python control flow
(:mod:`pagaie._static.ast_transform`), then *traces* it: the function runs once per
input signature with symbolic inputs (:class:`~pagaie._static.ir.Value`) while every
op call is recorded into a :class:`~pagaie._static.ir.Program`. Later calls with the
same signature (tensor shapes and dtypes, the other arguments' values, the Layer's
training flags) run the cached program with the interpreter
(:class:`~pagaie._static.interpreter.Plan`), or with the compiled executor for
``backend='inductor'``. Programs run under torch.autograd when gradients are enabled,
so ``loss.backward()`` reaches the Layer's parameters and the inputs.

When tracing fails (Python control flow over tensor data that cannot be converted,
``.numpy()`` on a symbolic value...) the call runs eagerly instead, with a warning
naming the file and line: never a wrong answer.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import os
import traceback
import types
import warnings
import weakref
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import inplace_redefines
from pagaie._core.tensor import Tensor, wrap
from pagaie._static import ast_runtime
from pagaie._static.ir import UNKNOWN_SHAPE_READS, Program, Value
from pagaie._static.program_tools import program_errors
from pagaie._static.recorder import active_recorder, recording

__all__ = ["to_static", "not_to_static", "ignore_module", "enable_to_static", "set_code_level",
           "set_verbosity", "StaticFunction", "ConcreteProgram"]

_log = logging.getLogger("pagaie.jit")


class _State:
    enabled = True
    code_level = int(os.environ.get("TRANSLATOR_CODE_LEVEL", "0") or 0)
    code_to_stdout = False
    verbosity = int(os.environ.get("TRANSLATOR_VERBOSITY", "0") or 0)
    verbosity_to_stdout = False


_STATE = _State()
_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_COMPILE_BACKENDS = ("inductor", "eager", "aot_eager", "cudagraphs")
_TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__))


def enable_to_static(enable_to_static_bool: bool) -> None:
    """Turn ``to_static`` on or off globally; when off, decorated functions run eagerly.

    Args:
        enable_to_static_bool (bool): True to convert, False to run dynamic code as written.

    Examples:
        >>> import pagaie as paddle
        >>> @paddle.jit.to_static
        ... def f(x):
        ...     return x * 2
        >>> paddle.jit.enable_to_static(False)
        >>> f(paddle.ones([2])).tolist()
        [2.0, 2.0]
        >>> paddle.jit.enable_to_static(True)
    """
    from pagaie.static.framework import in_dynamic_mode
    if not isinstance(enable_to_static_bool, bool) and not in_dynamic_mode():
        # Paddle type-checks the argument only in static mode; eagerly any value is truthy
        raise TypeError(f"paddle.jit.enable_to_static: the argument must be a bool, but received "
                        f"{type(enable_to_static_bool).__name__}")
    _STATE.enabled = bool(enable_to_static_bool)


def not_to_static(func: Callable | None = None) -> Callable:
    """Mark ``func`` to run as written (never converted) when called from a to_static function.

    Args:
        func (callable, optional): the function; without it, returns a decorator.

    Returns:
        callable: ``func`` itself, marked.

    Examples:
        >>> import pagaie as paddle
        >>> @paddle.jit.not_to_static
        ... def helper(x):
        ...     return x + 1
        >>> helper(paddle.ones([1])).tolist()
        [2.0]
    """
    if func is None:
        return not_to_static
    if not callable(func):
        raise TypeError(f"paddle.jit.not_to_static: func must be a function or a Layer class, but "
                        f"received {type(func).__name__}")
    target = getattr(func, "__func__", func)
    try:
        target.__jst_not_to_static__ = True
    except AttributeError:
        pass
    return func


def ignore_module(modules: list) -> None:
    """Never convert functions of these modules when a to_static function calls them.

    Args:
        modules (list): module objects (or names).

    Examples:
        >>> import json
        >>> import pagaie as paddle
        >>> paddle.jit.ignore_module([json])
    """
    if isinstance(modules, str):
        modules = [modules]
    elif not hasattr(modules, "__iter__"):
        raise TypeError(f"paddle.jit.ignore_module: modules must be a list of modules, but received "
                        f"{type(modules).__name__}")
    for m in modules:
        if m not in ast_runtime.IGNORED_MODULES:
            ast_runtime.IGNORED_MODULES.append(m)


def _log_level(level: Any, api: str, env: str) -> int:
    # Paddle takes an int, or None: the level its environment variable sets
    if level is None:
        return int(os.environ.get(env, "0") or 0)
    if not isinstance(level, int):
        raise TypeError(f"paddle.jit.{api}: level must be an int, but received "
                        f"{type(level).__name__}")
    return level


def _echo_flag(also_to_stdout: Any, api: str) -> bool:
    # (Paddle asserts the flag's type)
    if not isinstance(also_to_stdout, (bool, type(None))):
        raise AssertionError(f"paddle.jit.{api}: also_to_stdout must be a bool, but received "
                             f"{type(also_to_stdout).__name__}")
    return bool(also_to_stdout)


def set_code_level(level: int = 100, also_to_stdout: bool = False) -> None:
    """Log the converted source of functions (``level > 0``) when they are traced.

    Args:
        level (int): 0 turns it off; any positive level logs the converted code.
        also_to_stdout (bool): also print it.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.jit.set_code_level(0)
    """
    _STATE.code_level = _log_level(level, "set_code_level", "TRANSLATOR_CODE_LEVEL")
    _STATE.code_to_stdout = _echo_flag(also_to_stdout, "set_code_level")


def set_verbosity(level: int = 0, also_to_stdout: bool = False) -> None:
    """Log what to_static does (tracing, fallbacks) at ``level > 0``.

    Args:
        level (int): 0 is quiet.
        also_to_stdout (bool): also print the messages.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.jit.set_verbosity(0)
    """
    _STATE.verbosity = _log_level(level, "set_verbosity", "TRANSLATOR_VERBOSITY")
    _STATE.verbosity_to_stdout = _echo_flag(also_to_stdout, "set_verbosity")


def _say(level: int, msg: str) -> None:
    if _STATE.verbosity >= level:
        _log.info(msg)
        if _STATE.verbosity_to_stdout:
            print(msg)


# ---- input signatures -----------------------------------------------------------------------
def _spec_shape(spec: Any, t: Tensor | None) -> tuple[list[int], Any]:
    """The traced shape and dtype of a tensor argument given its InputSpec (if any)."""
    if spec is None:
        return list(t.shape), t.dtype
    shape = [-1 if d is None else int(d) for d in spec.shape]
    dtype = _dt.to_dtype(spec.dtype)  # the spec may keep a numpy scalar type
    if t is not None:
        ts = list(t.shape)
        if len(ts) != len(shape) or any(d >= 0 and d != e for d, e in zip(shape, ts)) or \
                t.dtype != dtype:
            return ts, t.dtype  # incompatible with the spec: a program of its own
    return shape, dtype


def _is_spec(x: Any) -> bool:
    from pagaie.static.input_spec import InputSpec
    return isinstance(x, InputSpec)


def _hashable(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return ("ndarray", x.shape, str(x.dtype), x.tobytes())
    try:
        hash(x)
        return x
    except TypeError:
        return ("id", id(x))


class _Feed:
    __slots__ = ("i",)

    def __init__(self, i: int) -> None:
        self.i = i


class _Signature:
    """Walks bound arguments: tensors become feeds (Values when tracing), the rest the key."""

    def __init__(self) -> None:
        self.key: list = []
        self.tensors: list[Tensor] = []
        self.feeds: list[tuple[str, list[int], Any, bool]] = []
        self.numpy_as_tensor = True

    def walk(self, v: Any, spec: Any, name: str) -> Any:
        """Record ``v``; returns it with each tensor replaced by a ``_Feed`` marker."""
        if isinstance(v, np.ndarray) and self.numpy_as_tensor:
            # numpy arguments are fed as tensors, as in Paddle (default values stay constants)
            v = wrap(torch.from_numpy(np.ascontiguousarray(v)))
        if isinstance(v, Tensor) or (v is None and _is_spec(spec)):
            shape, dtype = _spec_shape(spec if _is_spec(spec) else None, v)
            self.key.append(("T", tuple(shape), dtype.name))
            self.tensors.append(v)
            sg = v.stop_gradient if v is not None else bool(getattr(spec, "stop_gradient", False))
            self.feeds.append((getattr(spec, "name", None) or name, shape, dtype, sg))
            return _Feed(len(self.feeds) - 1)
        if type(v) in (list, tuple):
            self.key.append((type(v).__name__, len(v)))
            specs = spec if type(spec) in (list, tuple) and len(spec) == len(v) else [None] * len(v)
            return type(v)(self.walk(e, s, f"{name}_{i}") for i, (e, s) in enumerate(zip(v, specs)))
        if type(v) is dict:
            self.key.append(("dict", tuple(v)))
            specs = spec if type(spec) is dict else {}
            # a dict's entries are named by their keys (a list's by ``<name>_<i>``), as Paddle's
            return {k: self.walk(e, specs.get(k), str(k)) for k, e in v.items()}
        self.key.append(_hashable(v))
        return v


def _replace(v: Any, values: list) -> Any:
    """A walked template with its ``_Feed`` markers replaced by ``values``."""
    if type(v) is _Feed:
        return values[v.i]
    if type(v) in (list, tuple):
        return type(v)(_replace(e, values) for e in v)
    if type(v) is dict:
        return {k: _replace(e, values) for k, e in v.items()}
    return v


def _training_flags(instance: Any) -> tuple:
    from pagaie.nn import Layer
    if isinstance(instance, Layer):
        return tuple(layer.training for layer in instance.sublayers(include_self=True))
    return ()


def make_runner(program: Program, feed_names: list[str], fetch: list[Value], backend: Any) -> Any:
    """The executor of a traced/loaded program: the interpreter, or compiled for torch backends."""
    if backend in _COMPILE_BACKENDS:
        try:
            from pagaie._static.compiled import CompiledPlan
        except ImportError:
            raise NotImplementedError(f"paddle.jit.to_static: backend={backend!r} needs the compiled "
                                      "executor (pagaie._static.compiled), which is not available") from None
        return CompiledPlan(program, feed_names, fetch, backend=backend)
    from pagaie._static.interpreter import Plan
    return Plan(program, feed_names, fetch)


def run_program(runner: Any, feed_names: list[str], tensors: list) -> list:
    """Run ``runner`` on pagaie Tensors; outputs are attached to the autograd graph when
    gradients are enabled (so ``backward()`` reaches parameters and inputs)."""
    plan = getattr(runner, "plan", runner)
    # The interpreter enables autograd while running iff ``has_backward``: a traced
    # forward must record the graph whenever the caller's grad mode is on.
    plan.has_backward = torch.is_grad_enabled() or getattr(plan, "backward_ops", False)
    feed = {}
    for n, t in zip(feed_names, tensors):
        if not isinstance(t, Tensor):
            t = Tensor(np.asarray(t))
        feed[n] = t._t
    with program_errors("paddle.jit"):
        outs = runner.run(feed)
    return [wrap(o) for o in outs]


class ConcreteProgram:
    """One traced program of a :class:`StaticFunction` and how to call it.

    Attributes:
        main_program (Program): the recorded program.
        inputs (list[Value]): the fed values, in argument order.
        outputs (list): the fetched values.
        parameters (list): the eager parameters the program reads.
    """

    def __init__(self, program: Program, inputs: list[Value], skeleton: Any, leaves: list,
                 backend: Any, function: Callable) -> None:
        self.main_program = program
        self.inputs = inputs
        self.skeleton = skeleton
        self.leaves = leaves  # output leaves: Values (fetched) or constants
        self.outputs = [v for v in leaves if isinstance(v, Value)]
        self.feed_names = [v.name for v in inputs]
        self.parameters = [v.source for v in program.global_block().vars.values()
                           if v.source is not None and v.persistable]
        self.function = function
        self.backend = backend
        self._runner = None
        self.reads_unknown_dims = False  # set by the trace: a -1 size was read in Python
        self.updates: list[tuple[Tensor, Value]] = []  # Layer tensors re-assigned in forward
        self.detach_updates = False
        self.inplace_feeds: list[tuple[int, Value]] = []  # inputs written in place (x[0] = v)

    def run(self, tensors: list) -> Any:
        if self._runner is None:
            fetch = self.outputs + [v for _, v in self.updates] + [v for _, v in self.inplace_feeds]
            self._runner = make_runner(self.main_program, self.feed_names, fetch, self.backend)
        outs = run_program(self._runner, self.feed_names, tensors)
        k = len(self.outputs)
        for (t, _), new in zip(self.updates, outs[k:]):
            # ``self.buf = <tensor>`` in forward: the Layer's tensor takes the new value (a
            # detached one with full_graph=True, as Paddle writes it into its scope)
            t._rebind(new._t.detach() if self.detach_updates else new._t)
        for (i, _), new in zip(self.inplace_feeds, outs[k + len(self.updates):]):
            # ``x[0] = v`` / ``x.add_(y)`` on an input: the caller's tensor changes, as in Paddle
            t = tensors[i]
            if not isinstance(t, Tensor) or new._t is t._t:
                continue
            if new._t.requires_grad or t._t.requires_grad:
                t._rebind(new._t)
            else:
                with torch.no_grad():
                    t._t.copy_(new._t)
        outs = iter(outs[:k])
        leaves = [next(outs) if isinstance(v, Value) else v for v in self.leaves]
        if not self.detach_updates:
            # the default mode (Paddle's bytecode translation) returns an input, also one it
            # wrote in place, as the caller's very tensor
            fed = {id(v): i for i, v in enumerate(self.inputs)}
            fed.update((id(v), i) for i, v in self.inplace_feeds)
            leaves = [tensors[fed[id(v)]] if id(v) in fed and isinstance(tensors[fed[id(v)]], Tensor)
                      else o for v, o in zip(self.leaves, leaves)]
        return ast_runtime._unflatten(self.skeleton, leaves)


class _Fallback:
    def __init__(self, reason: str, exc: BaseException | None = None) -> None:
        self.reason = reason
        self.exc = exc


def _user_frame(exc: BaseException) -> tuple[str, int]:
    """The innermost traceback frame outside pagaie (the user's file and line)."""
    where = ("<unknown>", 0)
    for fs in traceback.extract_tb(exc.__traceback__):
        f = os.path.abspath(fs.filename)
        if not f.startswith(_PKG_DIR) and not f.startswith(_TORCH_DIR) and \
                not fs.filename.startswith("<"):
            where = (fs.filename, fs.lineno or 0)
    return where


def _reason(exc: BaseException) -> str:
    """Why a trace failed, in words (torch's messages about data-less tensors are not shown)."""
    msg = str(exc)
    if "meta tensor" in msg or "meta device" in msg or "aten::" in msg:
        return ("the function needs the value of a symbolic tensor (a Python number, bool or "
                "numpy array of it)")
    return f"{type(exc).__name__}: {msg}"


def _check_layer_method(instance: Any) -> None:
    from pagaie.nn import Layer
    if not isinstance(instance, Layer):
        raise TypeError("When using 'to_static' to convert method of a class, please ensure the "
                        "class inherits from nn.Layer")


def _check_init_mode(instance: Any) -> None:
    # a Layer built in static mode holds no parameter values to run its program with
    from pagaie.nn import Layer
    if isinstance(instance, Layer) and not instance.__dict__.get("_init_in_dynamic_mode", True):
        raise RuntimeError(" `paddle.jit.to_static` is only available in dynamic mode. Please call "
                           "`paddle.disable_static()` before initializing your Layer class "
                           f"`{type(instance).__name__}` . Because parameters of Layer class should "
                           "be initialized firstly in dynamic mode while applying transformation.")


class StaticFunction:
    """A function (or Layer method) run as a cached static program; see :func:`to_static`.

    Attributes:
        dygraph_function: the original Python function.
        code (str): the converted source.
        concrete_program (ConcreteProgram): the program of the last call.
    """

    __jst_static_function__ = True

    def __init__(self, function: Callable, input_spec: Any = None, build_strategy: Any = None,
                 backend: Any = None, instance: Any = None, **kwargs: Any) -> None:
        if isinstance(function, types.MethodType):
            instance, function = function.__self__, function.__func__
        if instance is not None:
            _check_layer_method(instance)
        if isinstance(function, StaticFunction):
            function = function.dygraph_function
        if not callable(function) or isinstance(function, (staticmethod, classmethod)):
            raise TypeError(f"paddle.jit.to_static: expected a function or Layer, but received "
                            f"{type(function).__name__}")
        if input_spec is not None and not isinstance(input_spec, (list, tuple)):
            raise TypeError(f"paddle.jit.to_static: input_spec must be a list or tuple of InputSpec, "
                            f"but received {type(input_spec).__name__}")
        if backend not in (None, "CINN") and backend not in _COMPILE_BACKENDS:
            raise ValueError(f"paddle.jit.to_static: backend must be None, 'CINN' or one of "
                             f"{list(_COMPILE_BACKENDS)}, but received {backend!r}")
        self.dygraph_function = function
        self._instance_ref = weakref.ref(instance) if instance is not None else None
        self._input_spec = list(input_spec) if input_spec is not None else None
        self._build_strategy = build_strategy
        self._backend = backend
        self._kwargs = kwargs
        self._cache: dict = {}
        self._last: ConcreteProgram | None = None
        self._bound: "weakref.WeakKeyDictionary[Any, StaticFunction]" = weakref.WeakKeyDictionary()
        self._signature = inspect.signature(function)
        # a plain function's own train/eval mode (a Layer method follows its Layer's)
        self._training = True
        functools.update_wrapper(self, function)

    # ---- binding to instances --------------------------------------------------------
    @property
    def _instance(self) -> Any:
        if self._instance_ref is None:
            return None
        inst = self._instance_ref()
        if inst is None:
            # a method converted on its own (``to_static(obj.method)``) holds its object weakly
            raise RuntimeError("The instance of class has been deleted, please re-create the "
                               "instance.")
        return inst

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None or self._instance_ref is not None:
            return self
        bound = self._bound.get(instance)
        if bound is None:
            bound = StaticFunction(self.dygraph_function, self._input_spec, self._build_strategy,
                                   self._backend, instance=instance, **self._kwargs)
            self._bound[instance] = bound
        return bound

    @property
    def input_spec(self) -> list | None:
        return self._input_spec

    @property
    def is_property(self) -> bool:
        """Whether ``to_static(property=True)`` marked the method: a value, not a program, which
        ``jit.save`` does not save as a program."""
        return bool(self._kwargs.get("property", False))

    def _switch_mode(self, training: bool) -> None:
        from pagaie.nn import Layer
        inst = self._instance
        if isinstance(inst, Layer) and inst.training is not training:
            mode, api = ("train", "train()") if training else ("eval", "eval()")
            method = types.MethodType(self.dygraph_function, inst)
            raise RuntimeError(f"Failed to switch {mode} mode. {method} is a Layer's method, please use Layer.{api} to switch {mode} mode.")
        self._training = training

    def train(self) -> None:
        """Put a converted function in train mode (its programs are cached per mode).

        Raises:
            RuntimeError: a Layer's method whose Layer is in eval mode; use ``Layer.train()``.
        """
        self._switch_mode(True)

    def eval(self) -> None:
        """Put a converted function in eval mode (its programs are cached per mode).

        Raises:
            RuntimeError: a Layer's method whose Layer is in train mode; use ``Layer.eval()``.
        """
        self._switch_mode(False)

    def _mode_key(self) -> tuple:
        # Paddle keys its program cache on the train mode: a Layer's sublayers' flags, or the
        # function's own
        if self._instance is None:
            return (self._training,)
        return _training_flags(self._instance)

    def _ast_only(self, what: str) -> None:
        # Paddle's default (bytecode) mode keeps no inspectable program: AST mode only
        if not self._kwargs.get("full_graph"):
            raise RuntimeError(f"paddle.jit.to_static: can't call {what} of "
                               f"{self.dygraph_function.__qualname__} when full_graph=False; use "
                               "paddle.jit.to_static(full_graph=True) instead")

    @property
    def code(self) -> str:
        self._ast_only("code")
        from pagaie._static.ast_transform import converted_source
        fn = ast_runtime.converted(self.dygraph_function)
        return converted_source(fn) or inspect.getsource(self.dygraph_function)

    @property
    def concrete_program(self) -> ConcreteProgram:
        """The program traced from ``input_spec`` when given, else the program of the last call.

        Raises:
            ValueError: never called and no ``input_spec``, or the function cannot be converted.
            RuntimeError: ``full_graph=False`` (as the other program attributes).
        """
        self._ast_only("concrete_program")
        if self._last is not None and self._input_spec is None:
            return self._last
        # with input_spec, the program traced from it (as Paddle), whatever was called since
        entry = self._specify() if self._input_spec is not None else None
        if entry is None or isinstance(entry, _Fallback):
            why = f" ({entry.reason})" if isinstance(entry, _Fallback) else ""
            raise ValueError(f"paddle.jit.to_static: no program for "
                             f"{self.dygraph_function.__qualname__} yet{why}: give input_spec, or "
                             "call the function with input tensors first")
        return entry

    @property
    def main_program(self) -> Program:
        self._ast_only("main_program")
        return self.concrete_program.main_program

    @property
    def inputs(self) -> list:
        """The fed values of :attr:`concrete_program` (named after the arguments or specs)."""
        self._ast_only("inputs")
        return list(self.concrete_program.inputs)

    @property
    def outputs(self) -> list:
        """The fetched values of :attr:`concrete_program`, in the returned structure's order."""
        self._ast_only("outputs")
        return [v for v in self.concrete_program.leaves if isinstance(v, Value)]

    @property
    def program_cache(self) -> dict:
        self._ast_only("program_cache")
        return self._cache

    def rollback(self) -> Callable:
        """Undo :func:`to_static`: the Layer's forward (or the function) runs eagerly again."""
        inst = self._instance
        if inst is None:
            return self.dygraph_function
        name = self.dygraph_function.__name__
        if inst.__dict__.get(name) is self:
            del inst.__dict__[name]
        if getattr(type(inst), name, None) is not None and \
                isinstance(inspect.getattr_static(type(inst), name), StaticFunction):
            # decorated in the class body: the instance's own attribute shadows it, as in Paddle
            inst.__dict__[name] = types.MethodType(self.dygraph_function, inst)
        return getattr(inst, name)

    def _call_args(self, args: tuple) -> tuple:
        inst = self._instance
        return (inst,) + tuple(args) if inst is not None else tuple(args)

    def _eager(self, *args: Any, **kwargs: Any) -> Any:
        return self.dygraph_function(*self._call_args(args), **kwargs)

    # ---- calling ---------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not _STATE.enabled:
            return self._eager(*args, **kwargs)
        if active_recorder() is not None:
            # Called while another to_static program is traced: inline the converted code.
            fn = ast_runtime.converted(self.dygraph_function)
            return fn(*self._call_args(args), **kwargs)
        if _static_mode():
            raise RuntimeError(f"paddle.jit.to_static: {self.dygraph_function.__qualname__} cannot be "
                               "called in static graph mode; call paddle.disable_static() first")
        self._check_spec_count(args, kwargs)
        bound, sig = self._bind(args, kwargs, None)
        flags = self._mode_key()
        key = (tuple(sig.key), flags)
        entry = self._cache.get(key)
        dynamic = any(-1 in shape for _, shape, _, _ in sig.feeds)
        if entry is None:
            entry = self._trace(bound, sig, warn=not dynamic, call=True)
            self._cache[key] = entry
        if dynamic and (isinstance(entry, _Fallback) or entry.reads_unknown_dims):
            # The function read a size that input_spec leaves unknown (``x.shape[0]``) as a
            # Python number, or cannot be traced with unknown sizes: a program for these very
            # shapes gives it the real values.
            bound, sig = self._bind(args, kwargs, [])
            key = (tuple(sig.key), flags)
            entry = self._cache.get(key)
            if entry is None:
                entry = self._trace(bound, sig, call=True)
                self._cache[key] = entry
        if isinstance(entry, _Fallback):
            return self._eager(*args, **kwargs)
        self._last = entry
        return entry.run(sig.tensors)

    def _check_spec_count(self, args: tuple, kwargs: dict) -> None:
        spec = self._input_spec
        if not spec:
            return
        params = self._signature.parameters
        names = [n for n, p in params.items()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if self._instance is not None:
            names = names[1:]
        extra = {k: v for k, v in kwargs.items() if k not in names[len(args):]}
        if extra:
            # keyword arguments beyond the named parameters have no place in the specs
            raise ValueError(f"{self.dygraph_function.__name__} got unexpected keyword arguments: "
                             f"{extra}. Cannot trace the function when `input_spec` is specified.")
        # Paddle counts the arguments with their defaults filled in
        given = len(args) + sum(1 for n in names[len(args):]
                                if n in kwargs or params[n].default is not params[n].empty)
        if len(spec) > given:
            raise ValueError(f"paddle.jit.to_static: {self.dygraph_function.__qualname__} was "
                             f"called with {given} arguments, fewer than the {len(spec)} "
                             "InputSpecs of input_spec")

    def _bind(self, args: tuple, kwargs: dict, specs: list | None) -> tuple:
        params = self._signature.parameters.values()
        named = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if self._instance is not None:
            named = named[1:]
        from pagaie.jit.save_load import TranslatedLayer
        if len(args) > len(named) and not isinstance(self._instance, TranslatedLayer):
            # Paddle binds the named parameters only: ``*args`` takes no argument, with or
            # without input_spec, in both modes
            raise ValueError(f"paddle.jit.to_static: {self.dygraph_function.__qualname__} takes "
                             f"{len(named)} positional arguments {named}, but received {len(args)}; "
                             "a converted function cannot take them through *args")
        try:
            bound = self._signature.bind(*self._call_args(args), **kwargs)
        except TypeError as exc:
            # Paddle reports missing or surplus arguments as ValueError, an unknown keyword
            # as TypeError (Python's own message)
            kind = ValueError if "missing" in str(exc) or "too many" in str(exc) else TypeError
            raise kind(f"paddle.jit.to_static: {self.dygraph_function.__qualname__}() {exc}") from None
        given = set(bound.arguments)
        bound.apply_defaults()
        spec = self._input_spec if specs is None else specs
        sig = _Signature()
        params = list(bound.arguments.items())
        if self._instance is not None:
            params = params[1:]
        positional = [n for n, p in self._signature.parameters.items()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if self._instance is not None:
            positional = positional[1:]
        for name, value in params:
            s = None
            if spec is not None and name in positional and positional.index(name) < len(spec):
                s = spec[positional.index(name)]
            if self._signature.parameters[name].kind is inspect.Parameter.VAR_POSITIONAL:
                s = spec[len(positional):] if spec is not None else None
            sig.numpy_as_tensor = name in given
            bound.arguments[name] = sig.walk(value, s, name)
        return bound, sig

    def _trace(self, bound: inspect.BoundArguments, sig: _Signature,
               warn: bool = True, call: bool = False) -> ConcreteProgram | _Fallback:
        _check_init_mode(self._instance)
        fn = ast_runtime.converted(self.dygraph_function)
        if _STATE.code_level > 0 and fn is not self.dygraph_function:
            from pagaie._static.ast_transform import converted_source
            msg = f"paddle.jit: converted code of {self.dygraph_function.__qualname__}:\n" \
                  f"{converted_source(fn)}"
            _log.info(msg)
            if _STATE.code_to_stdout:
                print(msg)
        program = Program()
        gb = program.global_block()
        inputs: list[Value] = []
        used: set[str] = set()
        for name, shape, dtype, sg in sig.feeds:
            n = name
            k = 0
            while n in used:
                k += 1
                n = f"{name}_{k}"
            used.add(n)
            v = gb.create_var(n, shape, dtype, stop_gradient=sg)
            v.is_data = True
            inputs.append(v)
        for name in list(bound.arguments):
            bound.arguments[name] = _replace(bound.arguments[name], inputs)
        reads = UNKNOWN_SHAPE_READS[0]
        snapshot = _layer_tensors(self._instance, bound, self.dygraph_function)
        updates: list = []
        try:
            full_graph = bool(self._kwargs.get("full_graph"))
            # the default mode keeps eager in-place semantics (Paddle's bytecode translation);
            # full_graph=True (its AST mode) records in-place APIs as their out-of-place ops
            # a caller's no_grad does not reach into the program (its own no_grad blocks do)
            # a call's trace in the default mode stops at a Python side effect (Paddle's
            # bytecode mode runs those on every call): that call runs eagerly
            with recording(program), torch.enable_grad(), \
                    ast_runtime.tracing(full_graph=full_graph, side_effects=call and not full_graph), \
                    (contextlib.nullcontext() if full_graph else inplace_redefines()):
                out = fn(*bound.args, **bound.kwargs)
                updates = _reassigned_tensors(snapshot)
                reads = UNKNOWN_SHAPE_READS[0] - reads
                if reads and call and not full_graph and \
                        not any(-1 in shape for _, shape, _, _ in sig.feeds):
                    # a size that only the data decides (nonzero's, a mask's, zeros([n])'s)
                    # was read as a Python number: Paddle's default mode reads the real one
                    # on every call, so this call runs eagerly
                    raise ast_runtime.SideEffect("the function reads a data-dependent size")
                leaves, skel = ast_runtime._flatten(out)
                for x in leaves:
                    if x is ast_runtime.UNDEFINED:
                        # ``return z`` where ``z`` is assigned only under a tensor condition:
                        # eager execution gives the value or Python's UnboundLocalError.
                        raise ast_runtime.Dy2StaticError("the function returns a variable that is "
                                                         "assigned only in some branches of a "
                                                         "tensor-dependent 'if' or loop")
        except Exception as exc:  # noqa: BLE001 - anything the trace cannot do runs eagerly
            _restore_layer_tensors(snapshot)
            return self._fallback(exc, warn)
        program.__dict__["_feed_names"] = [v.name for v in inputs]
        program.__dict__["_fetch_names"] = [v.name for v in leaves if isinstance(v, Value)]
        _say(1, f"paddle.jit: traced {self.dygraph_function.__qualname__} "
                f"({len(program.global_block().ops)} ops)")
        cp = ConcreteProgram(program, inputs, skel, leaves, self._backend, self.dygraph_function)
        cp.reads_unknown_dims = reads > 0 and any(-1 in shape for _, shape, _, _ in sig.feeds)
        cp.updates = updates
        written = {id(o) for op in gb.ops for o in op.output_values()}
        cp.inplace_feeds = [(i, v) for i, v in enumerate(inputs) if id(v) in written]
        cp.detach_updates = bool(self._kwargs.get("full_graph"))
        return cp

    def _fallback(self, exc: BaseException, warn: bool = True) -> _Fallback:
        file, line = _user_frame(exc)
        code = getattr(self.dygraph_function, "__code__", None)
        if file == "<unknown>" and code is not None:  # found after the call: name the function
            file, line = code.co_filename, code.co_firstlineno
        name = self.dygraph_function.__qualname__
        reason = _reason(exc)
        if not warn or isinstance(exc, ast_runtime.SideEffect) or getattr(exc, "graph_break", False):
            # no warning: Paddle's default mode runs it (a side effect, a value's data read)
            return _Fallback(reason, exc)
        warnings.warn(f"paddle.jit.to_static: {name} cannot be converted to a static graph "
                      f"({reason}) at {file}:{line}; it runs in dynamic (eager) mode instead",
                      UserWarning, stacklevel=4)
        return _Fallback(reason, exc)

    def get_concrete_program(self, *args: Any, **kwargs: Any) -> tuple:
        """Trace (or fetch from the cache) the program for these arguments (or InputSpecs).

        Returns:
            tuple: ``(ConcreteProgram, runner)``.
        """
        self._ast_only("get_concrete_program")
        specs = list(args) if args and all(_is_spec(a) or isinstance(a, (list, tuple)) for a in args) \
            and any(_is_spec(a) for a in args) else None
        entry = self._specify(specs) if specs is not None else None
        if entry is None:
            bound, sig = self._bind(args, kwargs, None)
            key = (tuple(sig.key), self._mode_key())
            entry = self._cache.get(key) or self._trace(bound, sig)
            self._cache[key] = entry
        if isinstance(entry, _Fallback):
            raise ValueError(f"paddle.jit: {self.dygraph_function.__qualname__} cannot be converted to "
                             f"a static program ({entry.reason})")
        return entry, entry.run

    def concrete_program_specify_input_spec(self, input_spec: list | None = None) -> Any:
        """Trace with ``input_spec`` (default: the decorator's) and no real tensors."""
        self._ast_only("concrete_program_specify_input_spec")
        return self._specify(input_spec)

    def _specify(self, input_spec: list | None = None) -> Any:
        spec = input_spec if input_spec is not None else self._input_spec
        if spec is None:
            return self._last
        spec = [s if not isinstance(s, Tensor) else _spec_of(s) for s in spec]
        args = [_placeholder_arg(s) for s in spec]
        bound, sig = self._bind(tuple(args), {}, spec)
        key = (tuple(sig.key), self._mode_key())
        entry = self._cache.get(key)
        if entry is None:
            entry = self._trace(bound, sig)
            self._cache[key] = entry
        return entry

    def __deepcopy__(self, memo: dict) -> "StaticFunction":
        inst = self._instance
        new_inst = memo.get(id(inst), inst) if inst is not None else None
        copy = StaticFunction(self.dygraph_function, self._input_spec, self._build_strategy,
                              self._backend, instance=new_inst, **self._kwargs)
        copy._training = self._training
        return copy

    def __repr__(self) -> str:
        return f"<StaticFunction {self.dygraph_function.__qualname__}>"


def _layer_tensors(instance: Any, bound: inspect.BoundArguments, function: Any = None) -> list:
    """``(layer, name, tensor)`` of the tensors held by the Layers a trace may re-assign
    (``self.count = self.count + 1``): the bound Layer's and its sublayers', and those of
    Layers passed as arguments or named by the function (globals and closure)."""
    from pagaie.nn import Layer
    roots = [instance] if isinstance(instance, Layer) else []
    roots += [v for v in bound.arguments.values() if isinstance(v, Layer) and v is not instance]
    code = getattr(function, "__code__", None)
    if code is not None:
        g = getattr(function, "__globals__", {})
        roots += [g[n] for n in code.co_names if isinstance(g.get(n), Layer)]
        for cell in getattr(function, "__closure__", None) or ():
            try:
                v = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if isinstance(v, Layer):
                roots.append(v)
    seen: set[int] = set()
    out = []
    for root in roots:
        for layer in root.sublayers(include_self=True):
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            for name, t in list(layer._buffers.items()):
                out.append((layer, name, t))
    return out


def _restore_layer_tensors(snapshot: list) -> None:
    """Put back the tensors a failed trace replaced by symbolic values."""
    for layer, name, t in snapshot:
        if isinstance(layer._buffers.get(name), Value):
            layer._buffers[name] = t
    for layer, _, _ in snapshot:
        for name, v in list(layer._buffers.items()):
            if isinstance(v, Value):
                del layer._buffers[name]


def _reassigned_tensors(snapshot: list) -> list:
    """The Layer tensors the traced function re-assigned to symbolic values, as
    ``(tensor, value)``; the Layers get their tensors back (the program updates them)."""
    updates = []
    try:
        for layer, name, t in snapshot:
            v = layer._buffers.get(name)
            if v is t or not isinstance(v, Value):
                continue
            layer._buffers[name] = t
            if not isinstance(t, Tensor) or list(v.shape) != list(t.shape) or v.dtype != t.dtype:
                raise ast_runtime.Dy2StaticError(
                    f"{type(layer).__name__}.{name} is re-assigned a tensor of another shape or "
                    f"dtype ({list(v.shape)}, {v.dtype.name}) than it holds")
            updates.append((t, v))
        for layer in {id(lay): lay for lay, _, _ in snapshot}.values():
            for name, v in list(layer._buffers.items()):
                if isinstance(v, Value):
                    raise ast_runtime.Dy2StaticError(
                        f"{type(layer).__name__}.{name} is a new tensor attribute assigned in the "
                        "converted function")
    except BaseException:
        _restore_layer_tensors(snapshot)
        raise
    return updates


def _spec_of(t: Tensor) -> Any:
    from pagaie.static.input_spec import InputSpec
    return InputSpec.from_tensor(t)


def _placeholder_arg(s: Any) -> Any:
    if _is_spec(s):
        return None
    if type(s) in (list, tuple):
        return type(s)(_placeholder_arg(e) for e in s)
    if type(s) is dict:  # input_spec=[{'a': InputSpec(...), ...}]
        return {k: _placeholder_arg(e) for k, e in s.items()}
    return s


def _static_mode() -> bool:
    from pagaie.static.framework import current_recorder
    return current_recorder() is not None


def to_static(function: Any = None, input_spec: Any = None, build_strategy: Any = None,
              backend: Any = "CINN", **kwargs: Any) -> Any:
    """Run a function or Layer as a static program (traced once per input signature).

    Args:
        function (callable|Layer, optional): what to convert; without it, returns a decorator.
        input_spec (list[InputSpec], optional): the inputs' shapes (None / -1 for any size),
            dtypes and names; one program then serves all matching inputs.
        build_strategy (BuildStrategy, optional): accepted for compatibility (another
            non-empty value: TypeError).
        backend (str, optional): ``'CINN'`` or None runs the interpreter; ``'inductor'``
            (or another torch.compile backend) the compiled executor.
        **kwargs: ``full_graph`` and other Paddle options, accepted.

    Returns:
        StaticFunction, or the Layer with its ``forward`` converted.

    Examples:
        >>> import pagaie as paddle
        >>> @paddle.jit.to_static
        ... def f(x):
        ...     if x.sum() > 0:
        ...         y = x * 2
        ...     else:
        ...         y = -x
        ...     return y
        >>> f(paddle.to_tensor([1.0, 2.0])).tolist()
        [2.0, 4.0]
        >>> f(paddle.to_tensor([-1.0, -2.0])).tolist()
        [1.0, 2.0]
    """
    from pagaie.static.build_strategy import BuildStrategy
    if build_strategy and not isinstance(build_strategy, BuildStrategy):
        # as Paddle, an empty value means the default strategy
        raise TypeError("paddle.jit.to_static: build_strategy must be a paddle.static.BuildStrategy, "
                        f"but received {type(build_strategy).__name__}")

    def decorate(fn: Any) -> Any:
        from pagaie.nn import Layer
        if input_spec is not None and not kwargs.get("full_graph"):
            # as Paddle: its default mode traces what each call gets (jit.save uses the spec)
            warnings.warn("paddle.jit.to_static: full_graph=False does not support input_spec; calls "
                          "behave as without it. Set full_graph=True to assign an input spec.",
                          UserWarning, stacklevel=3)
        if isinstance(fn, Layer):
            fwd = fn.__dict__.get("forward")
            base = fwd.dygraph_function if isinstance(fwd, StaticFunction) else \
                ast_runtime.forward_function(fn)
            fn.__dict__["forward"] = StaticFunction(base, input_spec, build_strategy, backend,
                                                    instance=fn, **kwargs)
            return fn
        if isinstance(fn, StaticFunction):
            if input_spec is None and backend == fn._backend:
                return fn
            return StaticFunction(fn.dygraph_function, input_spec or fn._input_spec, build_strategy,
                                  backend, instance=fn._instance, **kwargs)
        return StaticFunction(fn, input_spec, build_strategy, backend, **kwargs)

    if function is None:
        return decorate
    return decorate(function)

