"""``paddle.static.Executor``: runs programs with the interpreter."""
from __future__ import annotations

import warnings
import weakref
from typing import Any, Sequence

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import replace_data
from pagaie._core.place import Place, place_of, to_torch_device
from pagaie._core.registry import suspended
from pagaie._core.tensor import Tensor, wrap
from pagaie._static.interpreter import MissingFeedError, Plan
from pagaie._static.ir import Program, Value
from pagaie._static.program_tools import program_errors
from pagaie._static.recorder import capture
from pagaie.static.framework import DenseTensor, _ScopeVar, default_main_program, global_scope

__all__ = ["Executor", "global_plan_cache"]


def _as_feed_tensor(value: Any, var: Value, device: torch.device) -> torch.Tensor:
    typed = True  # arrays and tensors must have the declared dtype; Python lists are converted
    if isinstance(value, Value):  # a symbolic value has no data to feed (TypeError, as Paddle)
        raise TypeError(f"paddle.static.Executor.run: feed data of {var.name!r} must be a numpy "
                        f"array or a Tensor with data, but received the symbolic Value {value.name!r}")
    if isinstance(value, DenseTensor):  # (a typed container, as an array)
        value = np.asarray(value)
    if isinstance(value, Tensor):
        t = value._t.detach()
    elif isinstance(value, torch.Tensor):
        t = value.detach()
    else:
        typed = isinstance(value, np.ndarray)
        a = value if typed else _python_feed_array(value, var)
        if a.dtype.kind not in "biufc":
            raise TypeError(f"paddle.static.Executor.run: feed data of {var.name!r} must be numeric, "
                            f"but received an array of {a.dtype}")
        if not a.dtype.isnative:  # (a big-endian array: the same values in native order)
            a = a.astype(a.dtype.newbyteorder("="))
        # (ascontiguousarray would turn a 0-D array into 1-D)
        t = torch.as_tensor(a if a.flags.c_contiguous else a.copy())
    want = var._t.dtype
    if want is torch.bfloat16 and t.dtype is torch.uint16 and typed:
        t = t.view(torch.bfloat16)  # Paddle's bfloat16 arrays: the bits as numpy uint16
    if t.dtype != want:
        if typed:
            raise ValueError(f"paddle.static.Executor.run: the data type of feed variable "
                             f"{var.name!r} must be {_dt.from_torch_dtype(want).name}, but received "
                             f"{_dt.from_torch_dtype(t.dtype).name}")
        t = t.to(want)
    # As Paddle's executor, the fed shape is not checked against the declared one: the
    # kernels see the real shapes (and raise if they cannot work with them).
    return t.to(device)


def _python_feed_array(value: Any, var: Value) -> np.ndarray:
    """Python feed data (a number, a string, a list or tuple) as an array of ``var``'s dtype.

    As Paddle's executor: numpy reads the data with its own dtype, which is then cast
    (numpy's casting rules: a complex number keeps its real part, an int wraps around);
    data of any other type (None, a dict, a set...) and lists numpy can only hold as
    objects (``[1, None]``) are a TypeError."""
    want = _dt.from_torch_dtype(var._t.dtype).name
    if not (np.isscalar(value) or isinstance(value, (list, tuple))):
        raise TypeError(f"paddle.static.Executor.run: feed data of {var.name!r} must be a numpy "
                        f"array, a number or a list, but received {type(value).__name__}")
    try:
        a = np.array(value)
        if a.dtype == np.object_:
            raise TypeError(f"paddle.static.Executor.run: feed data of {var.name!r} is not a "
                            f"regular array of numbers (nested lists of different lengths or "
                            f"other objects): {value!r:.80}")
        want_np = _numpy_dtype(var._t.dtype)
        with warnings.catch_warnings():   # (numpy's casting warnings: the cast is the rule)
            warnings.simplefilter("ignore")
            return a if want_np is None else a.astype(want_np)
    except ValueError as exc:   # 'ab' into a float input, a ragged list
        raise ValueError(f"paddle.static.Executor.run: feed data of {var.name!r} cannot be "
                         f"converted to {want}: {exc}") from None


def _numpy_dtype(dtype: torch.dtype) -> Any:
    """numpy's dtype for a torch dtype (None where numpy has none, as bfloat16)."""
    try:
        return torch.empty(0, dtype=dtype).numpy().dtype
    except (TypeError, RuntimeError):
        return None


def _fetch_targets(fetch_list: Any) -> list:
    """``fetch_list`` as a flat list, as Paddle reads it: one target alone, or a list/tuple
    whose items are targets or lists/tuples of targets."""
    if fetch_list is None:
        return []
    if isinstance(fetch_list, (str, Tensor)):  # one fetch target, not in a list
        return [fetch_list]
    assert isinstance(fetch_list, (list, tuple)), (
        f"paddle.static.Executor.run: fetch_list must be a list or tuple, but received "
        f"{type(fetch_list).__name__}")
    out = []
    for f in fetch_list:
        if isinstance(f, (list, tuple)) and all(isinstance(e, (str, Tensor)) for e in f):
            out.extend(f)
        else:
            out.append(f)
    return out


class _NotAProgramError(TypeError, AttributeError):
    """``Executor.run`` (or ``static.save``) of something that is not a program: a TypeError,
    and the AttributeError Paddle raises when it looks for the program's description."""


class _ProgramCache:
    """Values derived from a program, keyed by the program's identity and more.

    A key holds ``id(program)``, which a later program may reuse once this one is freed; each
    entry keeps a weak reference to its program and is rebuilt when that is no longer the
    program asked about, so a new program never runs with another's plan or state."""

    def __init__(self, limit: int = 64) -> None:
        self.entries: dict = {}
        self.limit = limit

    def get(self, program: Program, key: tuple, build: Any) -> Any:
        key = (id(program),) + key
        entry = self.entries.get(key)
        if entry is None or entry[0]() is not program:
            if len(self.entries) > self.limit:
                self.entries.clear()
            entry = self.entries[key] = (weakref.ref(program), build())
        return entry[1]

    def clear(self) -> None:
        self.entries.clear()


class _PlanCache(_ProgramCache):
    def get_plan(self, program: Program, feed_names: tuple, fetch: list[Value]) -> Plan:
        # Paddle's executor reuses dead buffers by default (BuildStrategy.enable_inplace).
        return self.get(program, (program.version, feed_names, tuple(v.name for v in fetch)),
                        lambda: Plan(program, list(feed_names), fetch, reuse_buffers=True))


global_plan_cache = _PlanCache()


def _fetched_array(a: np.ndarray) -> np.ndarray:
    """A fetched array as Paddle's executor hands it out: its int64 arrays come with numpy's
    ``longlong`` type (the same values; numpy then shows ``dtype=int64`` in their repr)."""
    if a.dtype == np.int64 and a.dtype.char != "q":
        return a.view(np.longlong)
    return a


class Executor:
    """Runs static programs.

    Args:
        place (Place|str, optional): where to run; the current device by default.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('x', [None, 2], 'float32')
        ...     y = x * 3
        >>> exe = paddle.static.Executor(paddle.CPUPlace())
        >>> exe.run(main, feed={'x': np.ones([1, 2], 'float32')}, fetch_list=[y])[0].tolist()
        [[3.0, 3.0]]
        >>> paddle.disable_static()
    """

    def __init__(self, place: Any = None) -> None:
        self._device = to_torch_device(place, "paddle.static.Executor")
        # as Paddle: ``exe.place`` is a Place (the current device's when none is given)
        self.place = place if isinstance(place, Place) else place_of(self._device)
        self._states = _ProgramCache()
        self._closed = False

    def run(self, program: Any = None, feed: dict | None = None, fetch_list: Sequence | None = None,
            feed_var_name: str = "feed", fetch_var_name: str = "fetch", scope: Any = None,
            return_numpy: bool = True, use_program_cache: bool = False, use_prune: bool = False) -> list:
        """Run ``program`` with ``feed`` and return the values of ``fetch_list``.

        Args:
            program (Program|CompiledProgram, optional): default_main_program() when None.
            feed (dict|list[dict], optional): input name -> numpy array or Tensor (a list holds
                one such dict, as a DataLoader with ``return_list=False`` gives it).
            fetch_list (list, optional): Values (or their names) to return.
            scope (Scope, optional): where persistable values are published.
            return_numpy (bool, optional): numpy arrays (True) or Paddle's ``DenseTensor``
                views (``np.array(t)``, ``t.shape()``, ``t._dtype()``).

        Returns:
            list: the fetched values, in ``fetch_list`` order.
        """
        if self._closed:
            raise RuntimeError("paddle.static.Executor.run: attempted to use a closed Executor")
        program = default_main_program() if program is None else program
        runner = getattr(program, "_run", None)
        if runner is not None:  # a CompiledProgram or another runnable
            prog = program._program
        elif isinstance(program, Program):
            prog = program
        else:
            raise _NotAProgramError(f"paddle.static.Executor.run: program must be a Program or "
                                    f"CompiledProgram, but received {type(program).__name__}")
        if isinstance(feed, (list, tuple)):   # one feed dict per place (DataLoader, return_list=False)
            assert len(feed) == 1, "Not compiled with data parallel"
            feed = feed[0]
        if feed is not None and not isinstance(feed, dict):
            raise TypeError(f"feed requires dict as its Parameter. But you passed in {type(feed)}")
        feed = dict(feed or {})
        block = prog.global_block()
        fetch = []
        # a program loaded by load_inference_model has Paddle's fetch ops, named fetch_name_<i>:
        # an empty fetch_list fetches them, and a name picks one
        saved = prog.__dict__.get("_inference_fetch") or []
        for i, f in enumerate(_fetch_targets(fetch_list) or saved):
            if isinstance(f, str):
                k = f[11:] if f.startswith("fetch_name_") else ""
                if not block.has_var(f) and k.isdigit() and int(k) < len(saved):
                    fetch.append(saved[int(k)])
                    continue
                if not block.has_var(f):
                    raise ValueError(f"paddle.static.Executor.run: fetch_list[{i}] {f!r} is not a "
                                     "variable or a fetch target of the program")
                fetch.append(block.var(f))
            elif isinstance(f, Value):
                fetch.append(f)
            elif isinstance(f, Tensor):  # a parameter (or other eager tensor) the program reads
                fetch.append(capture(block, f))
            else:
                raise TypeError(f"paddle.static.Executor.run: fetch_list[{i}] must be a Value or a "
                                f"str, but received {type(f).__name__}")
        # As Paddle's executor: every input of the program (a non-persistable data value of
        # its global block) must be fed, whether or not the fetched values need it.
        for name, var in block.vars.items():
            if var.is_data and not var.persistable and name not in feed:
                raise MissingFeedError(f"paddle.static.Executor.run: the program input {name!r} "
                                       "is not fed")
        tensors = {}
        for name, value in feed.items():
            # Names that are not values of the program are dropped with Paddle's warning (a
            # test program pruned of its label input still accepts the training feed).
            var = block.vars.get(name)
            if var is not None:
                tensors[name] = _as_feed_tensor(value, var, self._device)
            else:
                warnings.warn(f"The value {name} is not found in program. It is not declared or "
                              "is pruned.")
        sc = scope or global_scope()
        for name, src in self._state_of(prog):
            # The program's state lives on the executor's place, as Paddle's scope
            # variables do: parameters built on another device move there once.
            if src._t.device != self._device:
                replace_data(src, src._t.to(self._device))
            sc.set(name, src)
        for name, t in tensors.items():   # the fed inputs live in the scope, as in Paddle's
            sc.set(name, wrap(t))
        with suspended(), program_errors("paddle.static.Executor.run"):
            if runner is not None:
                outs = runner(tensors, fetch)
            else:
                plan = global_plan_cache.get_plan(prog, tuple(sorted(tensors)), fetch)
                outs = plan.run(tensors)
        results = []
        for o in outs:
            if o is None:
                results.append(None)
            elif return_numpy:
                results.append(_fetched_array(wrap(o.detach()).numpy()))
            else:   # Paddle's DenseTensor (np.array(t), t.shape(), t._dtype())
                results.append(DenseTensor(_ScopeVar("", wrap(o.detach()))))
        return results

    def _state_of(self, prog: Program) -> list:
        """(name, eager tensor) of the program's persistable values, listed once per version."""
        key = (prog.version, sum(len(b.vars) for b in prog.blocks))   # (vars come without ops)
        return self._states.get(prog, key, lambda: [(v.name, v.source) for v in prog.list_vars()
                                                    if v.persistable and v.source is not None])

    def close(self) -> None:
        """Release resources; the executor cannot run afterwards (RuntimeError, as Paddle)."""
        self._closed = True
        self._states.clear()
