"""Static mode, default programs, ``program_guard``, ``data`` and scopes."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.registry import pop_handler, push_handler
from pagaie._core.tensor import Tensor, reset_generated_names, wrap
from pagaie._static.ir import Program, Value
from pagaie._static.recorder import Recorder
from pagaie.utils import unique_name as _unique_name

__all__ = ["enable_static", "disable_static", "in_dynamic_mode", "in_static_mode",
           "default_main_program", "default_startup_program", "program_guard", "data",
           "Program", "Variable", "global_scope", "scope_guard", "Scope", "name_scope",
           "current_recorder"]

Variable = Value


class _StaticState:
    def __init__(self) -> None:
        self.enabled = False
        self.main = Program()
        self.startup = Program()
        self.recorder: Recorder | None = None
        # Static mode keeps its own unique-name counters across sessions (``fc_0``, ``fc_1``...);
        # each switch to dynamic mode starts fresh ones, as Paddle's dygraph guard does.
        self.static_names: tuple | None = None


_S = _StaticState()


def _install(program: Program) -> None:
    if _S.recorder is not None:
        pop_handler(_S.recorder.handler)
    _S.recorder = Recorder(program, static_mode=True)
    push_handler(_S.recorder.handler)


def current_recorder() -> Recorder | None:
    """The recorder of static mode (None in dynamic mode)."""
    return _S.recorder if _S.enabled else None


def enable_static() -> None:
    """Switch to static mode: op calls build ``default_main_program()`` instead of computing.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static(); paddle.in_dynamic_mode()
        False
        >>> paddle.disable_static(); paddle.in_dynamic_mode()
        True
    """
    if not _S.enabled:
        _S.enabled = True
        _install(_S.main)
        _unique_name.switch(*(_S.static_names or ()))


def disable_static(place: Any = None) -> None:
    """Switch back to dynamic (eager) mode.

    Args:
        place (optional): accepted for compatibility; use ``paddle.set_device``.
    """
    if _S.enabled:
        _S.enabled = False
        pop_handler(_S.recorder.handler)
        _S.recorder = None
        reset_generated_names()  # a new eager session numbers its tensors from 0, as Paddle
        _S.static_names = _unique_name.switch()  # ... and its parameters (linear_0...)


def in_dynamic_mode() -> bool:
    """True in dynamic (eager) mode, False in static mode.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.in_dynamic_mode()
        True
    """
    return not _S.enabled


def in_static_mode() -> bool:
    return _S.enabled


def default_main_program() -> Program:
    """The program that static-mode op calls are added to.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.static.default_main_program(), paddle.static.Program)
        True
    """
    return _S.recorder.program if _S.recorder is not None else _S.main


def default_startup_program() -> Program:
    """The startup program: a parameter created while a static program is built is filled
    when this program runs (one ``pagaie.init_param`` op each, see :mod:`pagaie.static.startup`).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main, startup = paddle.static.Program(), paddle.static.Program()
        >>> startup.random_seed = 33
        >>> with paddle.static.program_guard(main, startup):
        ...     fc = paddle.nn.Linear(2, 2)
        >>> [op.type for op in startup.global_block().ops]
        ['pagaie.init_param', 'pagaie.init_param']
        >>> paddle.disable_static()
    """
    return _S.startup


@contextmanager
def program_guard(main_program: Program, startup_program: Program | None = None) -> Iterator[None]:
    """Build ``main_program`` inside the ``with`` block.

    Args:
        main_program (Program): the program to add ops to.
        startup_program (Program, optional): the startup program to use.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('x', [None, 2], 'float32')
        ...     y = x * 2
        >>> len(main.global_block().ops)
        1
        >>> paddle.disable_static()
    """
    if not isinstance(main_program, Program):
        raise TypeError(f"paddle.static.program_guard: main_program must be a Program, but received "
                        f"{type(main_program).__name__}")
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(f"paddle.static.program_guard: startup_program must be a Program, but "
                        f"received {type(startup_program).__name__}")
    prev = (_S.main, _S.startup)
    _S.main = main_program
    if startup_program is not None:
        _S.startup = startup_program
    if _S.enabled:
        _install(main_program)
    try:
        yield
    finally:
        _S.main, _S.startup = prev
        if _S.enabled:
            _install(_S.main)


def data(name: str, shape: Any, dtype: Any = None, lod_level: int = 0) -> Value:
    """Declare an input of the current program (fed at ``Executor.run``).

    Args:
        name (str): the feed name.
        shape (list|tuple): the shape; None or -1 for unknown dimensions.
        dtype (str, optional): the dtype; the default float dtype when None.
        lod_level (int, optional): accepted for compatibility.

    Returns:
        Value: the symbolic input.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('x_data', [None, 3], 'float32')
        >>> x.shape
        paddle.Size([-1, 3])
        >>> paddle.disable_static()
    """
    from pagaie._static.recorder import active_recorder
    if not _S.enabled and active_recorder() is None:  # (AssertionError, as Paddle)
        raise AssertionError("paddle.static.data: data() only works in static mode (dynamic mode "
                             "is the default); call paddle.enable_static() first")
    if not isinstance(name, str):
        raise TypeError(f"paddle.static.data: name must be a str, but received {type(name).__name__}")
    if not isinstance(shape, (list, tuple)):
        raise TypeError(f"paddle.static.data: shape must be a list or tuple, but received "
                        f"{type(shape).__name__}")
    for i, d in enumerate(shape):  # (TypeError, as Paddle: a list of int)
        if d is not None and (isinstance(d, bool) or not isinstance(d, (int, np.integer))):
            raise TypeError(f"paddle.static.data: shape of {name!r} must be a list of int (or None), "
                            f"but shape[{i}] is {type(d).__name__} {d!r}")
    shape = [-1 if d is None else int(d) for d in shape]
    for d in shape:
        if d < -1:  # (ValueError, as Paddle: only -1 / None mark an unknown dim)
            raise ValueError(f"paddle.static.data: only -1 (or None) can mark an unknown dimension "
                             f"of {name!r}, but shape has {d}")
    dt = _dt.default_float() if dtype is None else _dt.to_torch_dtype(dtype, "paddle.static.data")
    block = default_main_program().global_block()
    # Declaring a name again makes a new input (as Paddle); ops built on the old value keep
    # it, and a feed under that name reaches both.
    block.vars.pop(name, None)
    v = block.create_var(name, shape, dt, stop_gradient=True)
    v.is_data = True
    return v



def setitem(x: Tensor, index: Any, value: Any) -> Tensor:
    """``x[index] = value`` as a function that returns the written tensor.

    ``x`` is written in place (in a program, its value is re-defined), as the ``[]=``
    statement does; the result is ``x``.

    Args:
        x (Tensor): the tensor to write into.
        index (int|slice|tuple|list|Tensor): where to write; several axes' indices go in a
            tuple (``(1, slice(None), 2)`` is ``x[1, :, 2]``).
        value (Tensor|number|numpy.ndarray): the value, broadcast to the indexed shape.

    Returns:
        Tensor: ``x`` after the write.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.zeros([2, 3])
        >>> paddle.static.setitem(x, (0, 1), 5.0).tolist()
        [[0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]
    """
    x[index] = value
    return x


class Scope:
    """Name -> tensor storage for static programs' persistable values.

    Examples:
        >>> import pagaie as paddle
        >>> scope = paddle.static.global_scope()
        >>> scope.find_var('nothing') is None
        True
    """

    def __init__(self, parent: "Scope | None" = None) -> None:
        self._vars: dict[str, "_ScopeVar"] = {}
        self._parent = parent
        self._kids: list[Scope] = []

    def var(self, name: str) -> "_ScopeVar":
        """The variable ``name`` of this scope, created (uninitialised) when missing."""
        return self._vars.setdefault(_var_name(name, "var"), _ScopeVar(name))

    def find_var(self, name: str) -> "_ScopeVar | None":
        """The variable ``name`` of this scope or of its parents (None when there is none)."""
        _var_name(name, "find_var")
        scope: Scope | None = self
        while scope is not None:
            if name in scope._vars:
                return scope._vars[name]
            scope = scope._parent
        return None

    def new_scope(self) -> "Scope":
        """A child scope: it finds its parent's variables, and its own stay in it."""
        kid = Scope(self)
        self._kids.append(kid)
        return kid

    def drop_kids(self) -> None:
        """Forget the child scopes made by :meth:`new_scope`."""
        self._kids.clear()

    def erase(self, names: list) -> None:
        """Remove the variables ``names`` from this scope (names it does not hold are skipped)."""
        for n in names:
            self._vars.pop(_var_name(n, "erase"), None)

    def set(self, name: str, tensor: Tensor) -> None:
        self.var(name).tensor = tensor

    def local_var_names(self) -> list[str]:
        return list(self._vars)

    def size(self) -> int:
        """How many variables this scope holds itself (its kids' not counted).

        Examples:
            >>> import pagaie as paddle
            >>> scope = paddle.static.Scope()
            >>> _ = scope.var('a')
            >>> scope.size()
            1
        """
        return len(self._vars)


def _var_name(name: Any, api: str) -> str:
    if not isinstance(name, str):  # (TypeError, as Paddle's bound signature)
        raise TypeError(f"paddle.static.Scope.{api}: the variable name must be a str, but received "
                        f"{type(name).__name__} {name!r}")
    return name


class _ScopeVar:
    """A variable of a :class:`Scope`: a tensor (``get_tensor``), or a Python int or float
    (``set_int``/``get_int``, ``set_float``/``get_float``), as Paddle's scope variables.

    Examples:
        >>> import pagaie as paddle
        >>> v = paddle.static.Scope().var('step')
        >>> v.set_int(10)
        >>> v.is_int(), v.get_int()
        (True, 10)
    """

    def __init__(self, name: str, tensor: Tensor | None = None) -> None:
        self.name = name
        self.tensor = tensor
        self._scalar: int | float | None = None

    def get_tensor(self) -> "DenseTensor":
        return DenseTensor(self)

    def set_int(self, value: int) -> None:
        if not isinstance(value, (int, np.integer)):  # (TypeError, as Paddle's bound signature)
            raise TypeError(f"paddle.static.Scope variable {self.name!r}: set_int takes an int, "
                            f"but received {type(value).__name__} {value!r}")
        self._scalar = self._kind_kept(int(value))

    def set_float(self, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"paddle.static.Scope variable {self.name!r}: set_float takes a float, "
                            f"but received {type(value).__name__} {value!r}")
        self._scalar = self._kind_kept(float(value))

    def is_int(self) -> bool:
        return type(self._scalar) is int

    def is_float(self) -> bool:
        return type(self._scalar) is float

    def get_int(self) -> int:
        return self._held(int)

    def get_float(self) -> float:
        return self._held(float)

    def _kind_kept(self, value: int | float) -> int | float:
        """``value``, when the variable holds nothing yet or a value of its kind (a variable
        keeps the type it was first given: ValueError, as Paddle)."""
        if self._scalar is not None and type(self._scalar) is not type(value):
            raise ValueError(f"paddle.static.Scope variable {self.name!r} holds a "
                             f"{type(self._scalar).__name__}, not a {type(value).__name__}")
        return value

    def _held(self, kind: type) -> Any:
        if self._scalar is None:  # (RuntimeError, as Paddle's uninitialised variable)
            raise RuntimeError(f"paddle.static.Scope variable {self.name!r} is not initialized "
                               f"(set it with set_{kind.__name__} first)")
        if type(self._scalar) is not kind:
            raise ValueError(f"paddle.static.Scope variable {self.name!r} holds a "
                             f"{type(self._scalar).__name__}, not a {kind.__name__}")
        return self._scalar


class DenseTensor:
    """Paddle's ``DenseTensor`` view of a scope variable (``scope.find_var(n).get_tensor()``):
    ``np.array(t)``, ``t.shape()``, ``t._dtype()`` and ``t.set(array, place)``.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> scope = paddle.static.Scope()
        >>> t = scope.var('dt_doc_v').get_tensor()
        >>> t._is_initialized(), t.shape()
        (False, [0])
        >>> t.set(np.array([[2.0, 2.5]], 'float32'), paddle.CPUPlace())
        >>> t.shape(), np.array(t).tolist()
        ([1, 2], [[2.0, 2.5]])
        >>> print(t)
          - shape: [1, 2]
          - layout: NCHW
          - place: Place(cpu)
          - dtype: float32
          - data: [2 2.5]
    """

    def __init__(self, var: _ScopeVar | None = None) -> None:
        self._var = _ScopeVar("") if var is None else var

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if self._var.tensor is None:  # (Paddle gives an empty array for an uninitialised one)
            return np.zeros([0], dtype=dtype or np.float64)
        a = self._var.tensor.numpy()
        return a if dtype is None else a.astype(dtype)

    def set(self, array: Any, place: Any) -> None:
        t = self._var.tensor
        array = np.asarray(array)
        if array.dtype.kind not in "biufc":  # (ValueError, as Paddle: no tensor of such data)
            raise ValueError(f"paddle DenseTensor.set: the data must be numbers, but received a "
                             f"numpy array of {array.dtype}")
        value = torch.as_tensor(array)
        if t is None:
            self._var.tensor = wrap(value)
        elif list(value.shape) == list(t._t.shape) and value.dtype == t._t.dtype:
            with torch.no_grad():
                t._t.copy_(value)
        else:  # as Paddle: the variable takes the new array, its shape and its dtype
            from pagaie._core.parameter import replace_data
            replace_data(t, value.to(device=t._t.device).clone())

    def shape(self) -> list[int]:
        return list(self._var.tensor._t.shape) if self._var.tensor is not None else [0]

    def _dtype(self) -> Any:
        """The data type (as Paddle's ``DenseTensor._dtype()``; float32 when uninitialised)."""
        t = self._var.tensor
        return _dt.from_torch_dtype(torch.float32 if t is None else t._t.dtype)

    def _is_initialized(self) -> bool:
        return self._var.tensor is not None

    def _held_tensor(self) -> Any:
        """The Tensor holding this DenseTensor's data (None when uninitialised); what
        ``paddle.to_tensor(dense_tensor)`` shares."""
        return self._var.tensor

    def _numel(self) -> int:
        return 0 if self._var.tensor is None else self._var.tensor._t.numel()

    def _place(self) -> Any:
        if self._var.tensor is None:  # (RuntimeError, as Paddle's uninitialised tensor)
            raise RuntimeError("paddle DenseTensor._place: the tensor is not initialized")
        return self._var.tensor.place

    def lod(self) -> list:
        return [list(level) for level in getattr(self._var, "lod", [])]

    def set_lod(self, lod: list) -> None:
        """Attach level-of-detail offsets (kept and printed; pagaie's ops do not read them)."""
        self._var.lod = [[int(i) for i in level] for level in lod]

    def _copy(self, place: Any = None) -> "DenseTensor":
        """A new DenseTensor holding a copy of the data."""
        t = self._var.tensor
        return DenseTensor(_ScopeVar("", None if t is None else wrap(t._t.detach().clone())))

    def _get_dims(self) -> list[int]:
        return self.shape()

    def _layout(self) -> str:
        return "NCHW"

    def _clear(self) -> None:
        """Release the data: the tensor is uninitialised again."""
        self._var.tensor = None

    def _get_float_element(self, index: int) -> float:
        return float(self._var.tensor._t.reshape(-1)[index])

    def _set_float_element(self, index: int, value: float) -> None:
        with torch.no_grad():
            self._var.tensor._t.view(-1)[index] = value

    _get_double_element = _get_float_element
    _set_double_element = _set_float_element

    def __str__(self) -> str:
        t = self._var.tensor
        if t is None:
            return "  - shape: []\n  - layout: NCHW\nuninited\n"
        a = t.numpy()
        data = " ".join(str(int(v)) if a.dtype == np.bool_ else format(v, "g") for v in a.reshape(-1))
        lod = self.lod()
        head = ("  - lod: {" + ", ".join("{" + ", ".join(map(str, level)) + "}" for level in lod)
                + "}\n") if lod else ""
        return (f"{head}  - shape: {list(a.shape)}\n  - layout: NCHW\n  - place: {t.place}\n"
                f"  - dtype: {_dt.from_torch_dtype(t._t.dtype).name}\n  - data: [{data}]")


_ScopeTensor = DenseTensor  # (the name pagaie.framework.io looks up)


_GLOBAL_SCOPE = [Scope()]


def global_scope() -> Scope:
    """The scope executors read and write by default."""
    return _GLOBAL_SCOPE[-1]


@contextmanager
def scope_guard(scope: Scope) -> Iterator[None]:
    """Use ``scope`` as the global scope inside the ``with`` block."""
    _GLOBAL_SCOPE.append(scope)
    try:
        yield
    finally:
        _GLOBAL_SCOPE.pop()


@contextmanager
def name_scope(prefix: str | None = None) -> Iterator[None]:
    """Accepted for compatibility: names of recorded values are unique per program anyway.

    Args:
        prefix (str, optional): the scope's name; while a program is built it must not be
            empty (Paddle's AssertionError).

    Examples:
        >>> import pagaie as paddle
        >>> with paddle.static.name_scope('block'):
        ...     pass
    """
    if not prefix and current_recorder() is not None:
        raise AssertionError(f"paddle.static.name_scope: the prefix must not be empty while a "
                             f"program is built, but received {prefix!r}")
    yield
