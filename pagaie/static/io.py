"""Saving and loading static programs and their persistable values.

- ``save`` / ``load``: ``<path>.pdparams`` (parameters) and ``<path>.pdopt`` (optimizer
  state) written with ``paddle.save`` (pickled dicts of arrays, readable by Paddle), plus
  ``<path>.json`` (the test-mode program).
- ``save_inference_model`` / ``load_inference_model``: ``<prefix>.json`` (the program pruned
  to the feed -> fetch subgraph, with the feed and fetch names) and ``<prefix>.pdiparams``
  (the persistable values in Paddle's binary layout, ordered by name).
"""
from __future__ import annotations

import json
import os
from typing import Any, Sequence

import numpy as np
import torch

from pagaie._core.tensor import Tensor
from pagaie._formats.atomic_file import atomic_open
from pagaie._formats.pdiparams import deserialize_tensors, serialize_tensor
from pagaie._static.ir import Program, Value
from pagaie._static.program_tools import (optimizer_steps, program_state_dict, prune_program,
                                          set_program_state_dict)
from pagaie.static.framework import default_main_program, global_scope

__all__ = ["save", "load", "load_program_state", "set_program_state", "save_inference_model",
           "load_inference_model", "normalize_program", "serialize_program", "deserialize_program",
           "serialize_persistables", "deserialize_persistables", "save_to_file", "load_from_file",
           "save_vars", "load_vars"]


class _ModelFileError(ValueError, RuntimeError):
    """A missing or unreadable inference model file: a ValueError, and the RuntimeError
    Paddle's loader raises."""


class _PathPrefixError(ValueError, AssertionError):
    """A model path without a file prefix (``'dir/'``)."""


def _as_list(v: Any) -> list:
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _check_vars(vs: Any, what: str, api: str, error: type = ValueError) -> list[Value]:
    # As Paddle: a Variable or a *list* of Variables (a tuple is one bad item); ValueError
    # (normalize_program raises TypeError)
    out = vs if isinstance(vs, list) else [vs]
    for v in out:
        if not isinstance(v, Value):
            raise error(f"paddle.static.{api}: {what} must be a Variable or a list of "
                        f"Variables, but received {type(vs).__name__}"
                        + (f" holding a {type(v).__name__}" if vs is not v else ""))
    return out


def _numpy(t: Tensor) -> np.ndarray:
    return t._t.detach().cpu().numpy()


def _optimizer_state(program: Program) -> dict[str, np.ndarray]:
    """What Paddle writes to ``.pdopt``: the accumulators and each fixed ``learning_rate_<n>``."""
    return {k: _numpy(t) for k, t in program_state_dict(program, "opt").items()}


def _set_state(program: Program, state: dict, api: str, check_dtype: bool) -> list[str]:
    """Check shapes (and dtypes) as Paddle does, then copy ``state`` into the program's
    parameters and optimizers (see ``set_program_state_dict``); returns the unused keys."""
    params = program_state_dict(program, "param")
    for name, value in state.items():
        t = params.get(name)
        if t is None:
            continue
        shape = list(value.shape) if isinstance(value, Tensor) else list(np.shape(value))
        if shape != list(t.shape):  # AssertionError, as Paddle
            raise AssertionError(f"paddle.static.{api}: the program requires {name!r} with shape "
                                 f"{list(t.shape)}, but the loaded value has shape {shape}")
        if check_dtype and not isinstance(value, Tensor):
            try:
                want = torch.empty(0, dtype=t._t.dtype).numpy().dtype
            except TypeError:  # (bfloat16 has no numpy dtype: values are cast)
                want = np.asarray(value).dtype
            if np.asarray(value).dtype != want:
                raise AssertionError(f"paddle.static.{api}: the program requires {name!r} with dtype "
                                     f"{want}, but the loaded value has dtype {np.asarray(value).dtype}")
    return set_program_state_dict(program, state)


# ---- save / load --------------------------------------------------------------------------
def save(program: Program, model_path: str, protocol: int = 4, **configs: Any) -> None:
    """Save the parameters and optimizer state of ``program``.

    Writes ``model_path + '.pdparams'`` (persistable parameters and buffers),
    ``model_path + '.pdopt'`` (optimizer accumulators) and ``model_path + '.json'``
    (the program in test mode).

    Args:
        program (Program): the program.
        model_path (str): the path prefix.
        protocol (int, optional): the pickle protocol (2 to 4). Default 4.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('sv_x', [None, 2], 'float32')
        ...     y = paddle.static.nn.fc(x, 1)
        >>> path = os.path.join(tempfile.mkdtemp(), 'model')
        >>> paddle.static.save(main, path)
        >>> sorted(os.listdir(os.path.dirname(path)))
        ['model.json', 'model.pdopt', 'model.pdparams']
        >>> paddle.disable_static()
    """
    from pagaie.framework.io import save as _save
    if not isinstance(program, Program):  # (Paddle fails reading its variables: AttributeError)
        from pagaie.static.executor import _NotAProgramError
        raise _NotAProgramError(f"paddle.static.save: program must be a Program, but received "
                                f"{type(program).__name__}")
    if not isinstance(protocol, int) or not 2 <= protocol <= 4:
        raise ValueError(f"paddle.static.save: protocol must be an int in [2, 4], but received {protocol!r}")
    base = os.path.basename(model_path)
    if base == "":  # (AssertionError in Paddle; a ValueError too, for pagaie's earlier callers)
        raise _PathPrefixError("paddle.static.save: model_path must be a path prefix like 'dir/model', "
                         f"but received {model_path!r}")
    d = os.path.dirname(model_path)
    if d:
        os.makedirs(d, exist_ok=True)
    params = {k: _numpy(t) for k, t in program_state_dict(program, "param").items()}
    opt = _optimizer_state(program)
    _save(params, model_path + ".pdparams", protocol=protocol)
    _save(opt, model_path + ".pdopt", protocol=protocol)
    with atomic_open(model_path + ".json", "w") as f:
        f.write(program.clone(for_test=True).to_json())


def _strip(model_path: str) -> str:
    for ext in (".pdparams", ".pdopt", ".pdmodel", ".json"):
        if model_path.endswith(ext):
            return model_path[: -len(ext)]
    return model_path


def load_program_state(model_path: str, var_list: Sequence | None = None) -> dict:
    """The values saved by :func:`save` (parameters and optimizer state) as numpy arrays.

    Args:
        model_path (str): the path prefix given to ``save``.
        var_list (list, optional): ignored for the files ``save`` writes (all values are read),
            as in Paddle.

    Returns:
        dict: name -> numpy array.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('lps_x', [None, 2], 'float32')
        ...     y = paddle.static.nn.fc(x, 1, name='lps_fc')
        >>> path = os.path.join(tempfile.mkdtemp(), 'm')
        >>> paddle.static.save(main, path)
        >>> sorted(paddle.static.load_program_state(path))
        ['lps_fc.b_0', 'lps_fc.w_0']
        >>> paddle.disable_static()
    """
    from pagaie.framework.io import load as _load
    base = _strip(model_path)
    if not os.path.exists(base + ".pdparams"):
        return _per_variable_state(model_path, var_list)
    state = {}
    for ext in (".pdparams", ".pdopt"):
        if os.path.exists(base + ext):
            for k, v in _load(base + ext, return_numpy=True).items():
                state[k] = v
    # As Paddle: a ``.pdparams`` file is read whole; ``var_list`` only selects variables of
    # the one-file-per-variable format, which ``save`` does not write.
    return state


def _per_variable_state(model_path: str, var_list: Sequence | None) -> dict:
    """Values in Paddle's older layouts, read when there is no ``.pdparams`` file: a directory
    of one file per variable (named by its path under the directory), or one file of
    consecutive records named by ``var_list``. As Paddle, a missing path gives ``{}`` and a
    directory's unreadable files are skipped with a warning (with ``var_list``: an error)."""
    import warnings
    from pagaie._formats.pdiparams import first_tensor
    api = "paddle.static.load_program_state"
    if os.path.isfile(model_path):
        if var_list is None:
            raise ValueError(f"{api}: var_list cannot be None when model_path {model_path!r} is a file")
        names = [v.name for v in var_list]
        with open(model_path, "rb") as f:
            try:
                arrays = deserialize_tensors(f.read())
            except ValueError:
                arrays = []
        if len(arrays) < len(names):
            raise RuntimeError(f"{api}: {model_path!r} holds {len(arrays)} readable tensors, but "
                               f"var_list names {len(names)}: {names}")
        return dict(zip(names, arrays))
    if var_list is not None:
        names = [v.name for v in var_list]
    else:
        names = sorted(os.path.relpath(os.path.join(root, f), model_path).replace(os.sep, "/")
                       for root, _, files in os.walk(model_path) for f in files)
    state = {}
    for name in names:
        try:
            with open(os.path.join(model_path, name), "rb") as f:
                state[name] = first_tensor(f.read(), raw_bits=True)
        except (OSError, ValueError) as exc:
            if var_list is not None:
                raise RuntimeError(f"{api}: cannot load variable {name!r} from {model_path!r}: "
                                   f"{exc}") from None
            warnings.warn(f"{api}: skipped {name!r} under {model_path!r}: not a saved variable",
                          RuntimeWarning)
    return state


def set_program_state(program: Program, state_dict: dict) -> None:
    """Copy ``state_dict`` (from :func:`load_program_state`) into ``program``'s values.

    Args:
        program (Program): the program whose parameters and optimizer state are set.
        state_dict (dict): ``{name: numpy array}``; names the program lacks are warned about.

    Raises:
        TypeError: ``state_dict`` is no dict.
        AssertionError: a value's shape or dtype differs from its variable's.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('sps_x', [None, 2], 'float32')
        ...     y = paddle.static.nn.fc(x, 1, name='sps_fc', bias_attr=False)
        >>> paddle.static.set_program_state(main, {'sps_fc.w_0': np.ones([2, 1], 'float32')})
        >>> np.array(main.state_dict()['sps_fc.w_0']).tolist()
        [[1.0], [1.0]]
        >>> paddle.disable_static()
    """
    import warnings
    if not isinstance(state_dict, dict):  # (TypeError, as Paddle's)
        raise TypeError(f"paddle.static.set_program_state: state_dict must be a dict of numpy "
                        f"arrays, but received {type(state_dict).__name__}")
    unused = _set_state(program, state_dict, "set_program_state", check_dtype=True)
    if unused:
        warnings.warn(f"paddle.static.set_program_state: these values have no variable in the "
                      f"program: {unused}")


def load(program: Program, model_path: str, executor: Any = None, var_list: Sequence | None = None) -> None:
    """Load what :func:`save` wrote into ``program``'s parameters and optimizer state.

    Args:
        program (Program): the program (same structure as the saved one).
        model_path (str): the path prefix given to ``save``.
        executor (Executor, optional): unused.
        var_list (list, optional): only these variables.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('ld_x', [None, 2], 'float32')
        ...     y = paddle.static.nn.fc(x, 1, name='ld_fc')
        >>> path = os.path.join(tempfile.mkdtemp(), 'm')
        >>> paddle.static.save(main, path)
        >>> paddle.static.load(main, path)
        >>> paddle.disable_static()
    """
    base = _strip(model_path)
    for ext in (".pdparams", ".pdopt"):
        # Paddle opens the files: a missing one is a FileNotFoundError (.pdopt only matters
        # for a program with an optimizer, and is then checked with an assertion).
        if not os.path.exists(base + ext) and (ext == ".pdparams" or optimizer_steps(program)):
            if ext == ".pdparams":
                raise FileNotFoundError(f"paddle.static.load: no parameter file {base + ext!r}")
            raise AssertionError(f"paddle.static.load: the program has an optimizer but there is no "
                                 f"optimizer file {base + ext!r}")
    state = load_program_state(model_path)
    params = program_state_dict(program, "param")
    wanted = params if var_list is None else {getattr(v, "name", v): None for v in var_list}
    if var_list is not None:  # only these variables are set
        state = {k: v for k, v in state.items() if k in wanted}
    missing = sorted(n for n in wanted if n in params and n not in state)
    if missing:  # AssertionError, as Paddle
        raise AssertionError(f"paddle.static.load: the saved file {base!r} has no value for {missing}")
    _set_state(program, state, "load", check_dtype=False)


# ---- inference models -----------------------------------------------------------------------
def normalize_program(program: Program, feed_vars: Any, fetch_vars: Any, **kwargs: Any) -> Program:
    """The inference form of ``program``: test mode, pruned to what computes ``fetch_vars``
    from ``feed_vars``.

    Returns:
        Program: a new program.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('np_x', [None, 2], 'float32')
        ...     y = x * 2
        ...     z = y + 1
        >>> len(paddle.static.normalize_program(main, [x], [y]).global_block().ops)
        1
        >>> paddle.disable_static()
    """
    if not isinstance(program, Program):
        raise TypeError(f"paddle.static.normalize_program: program must be a Program, but received "
                        f"{type(program).__name__}")
    feeds = _check_vars(feed_vars, "feed_vars", "normalize_program", TypeError)
    fetches = _check_vars(fetch_vars, "fetch_vars", "normalize_program", TypeError)
    if not program.global_block().ops:
        raise ValueError("paddle.static.normalize_program: the program must not be empty (at least "
                         "one operator is required)")
    return prune_program(program, feeds, fetches, inference=True, api="normalize_program")


def _program_bytes(program: Program) -> bytes:
    data = json.loads(program.to_json())
    data["feed_names"] = program.__dict__.get("_feed_names", [])
    data["fetch_names"] = program.__dict__.get("_fetch_names", [])
    return json.dumps(data).encode()


def _persistables(program: Program) -> list[Value]:
    return sorted((v for v in program.global_block().vars.values() if v.persistable and not v.is_data),
                  key=lambda v: v.name)


def _persistable_bytes(program: Program) -> bytes:
    out = []
    for v in _persistables(program):
        if v.source is None:
            raise ValueError(f"paddle.static: persistable variable {v.name!r} holds no value")
        out.append(serialize_tensor(_numpy(v.source)))
    return b"".join(out)


def _program_of(kwargs: dict, api: str) -> Program:
    program = kwargs.get("program") or default_main_program()
    if not isinstance(program, Program):
        program = getattr(program, "_program", None)
        if not isinstance(program, Program):
            raise TypeError(f"paddle.static.{api}: program must be a Program")
    return program


def serialize_program(feed_vars: Any, fetch_vars: Any, **kwargs: Any) -> bytes:
    """The normalised program (see :func:`normalize_program`) as bytes.

    Args:
        feed_vars, fetch_vars (Variable|list): inputs and outputs.
        program (Program, optional keyword): default_main_program() when absent.

    Returns:
        bytes: the serialised program.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('sp_x', [None, 2], 'float32')
        ...     y = x * 2
        >>> prog = paddle.static.deserialize_program(paddle.static.serialize_program([x], [y], program=main))
        >>> len(prog.global_block().ops)
        1
        >>> paddle.disable_static()
    """
    feeds = _check_vars(feed_vars, "feed_vars", "serialize_program")
    fetches = _check_vars(fetch_vars, "fetch_vars", "serialize_program")
    return _program_bytes(prune_program(_program_of(kwargs, "serialize_program"), feeds, fetches))


def deserialize_program(data: bytes) -> Program:
    """Rebuild a program from :func:`serialize_program` bytes.

    Returns:
        Program: the program (its persistable values are empty until
        :func:`deserialize_persistables`).
    """
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"paddle.static.deserialize_program: data must be bytes, but received "
                        f"{type(data).__name__}")
    text = bytes(data).decode("utf-8", errors="replace")
    prog = Program.from_json(text)
    meta = json.loads(text)
    prog.__dict__["_feed_names"] = list(meta.get("feed_names", []))
    prog.__dict__["_fetch_names"] = list(meta.get("fetch_names", []))
    return prog


def serialize_persistables(feed_vars: Any, fetch_vars: Any, executor: Any, **kwargs: Any) -> bytes:
    """The persistable values the normalised program needs, in Paddle's ``.pdiparams`` layout.

    Returns:
        bytes: the serialised values (ordered by name).
    """
    feeds = _check_vars(feed_vars, "feed_vars", "serialize_persistables")
    fetches = _check_vars(fetch_vars, "fetch_vars", "serialize_persistables")
    return _persistable_bytes(prune_program(_program_of(kwargs, "serialize_persistables"), feeds, fetches))


def deserialize_persistables(program: Program, data: bytes, executor: Any) -> None:
    """Give ``program``'s persistable values the contents of :func:`serialize_persistables` bytes."""
    from pagaie._core.parameter import Parameter
    arrays = deserialize_tensors(bytes(data))
    values = _persistables(program)
    if len(arrays) != len(values):
        raise ValueError(f"paddle.static.deserialize_persistables: the data holds {len(arrays)} "
                         f"tensors but the program has {len(values)} persistable variables")
    scope = global_scope()
    for v, a in zip(values, arrays):
        if list(a.shape) != [d for d in v.shape]:
            raise ValueError(f"paddle.static.deserialize_persistables: {v.name!r} has shape "
                             f"{list(v.shape)} but the data holds {list(a.shape)}")
        t = torch.from_numpy(np.ascontiguousarray(a)).to(v._t.dtype)
        if v.source is None:
            v.source = Parameter(t, trainable=not v.stop_gradient, name=v.name)
            program.__dict__.setdefault("_captured", {})[id(v.source)] = v
        else:
            with torch.no_grad():
                v.source._t.copy_(t)
        scope.set(v.name, v.source)


def _scope_tensor(v: Any, api: str, error: type) -> Tensor:
    """The tensor the scope (else the program) holds for variable ``v``."""
    var = global_scope().find_var(v.name)
    t = var.tensor if var is not None else None
    t = getattr(v, "source", None) if t is None else t
    if t is None:
        raise error(f"paddle.static.{api}: variable {v.name!r} holds no value in the scope "
                    "(run the startup program first; data variables hold none)")
    return t


def _program_vars(main_program: Any, vars: Any) -> list:
    """``vars`` as a list, or the persistable variables of the program (parameters and
    optimizer states) when None (Paddle's PIR form ignores ``predicate``)."""
    if vars is not None:
        return list(vars)
    prog = default_main_program() if main_program is None else main_program
    if not isinstance(prog, Program):
        raise TypeError(f"The type of input main_program is invalid, expected type is "
                        f"paddle.static.Program, but received {type(prog)}")
    return _persistables(prog)


def save_vars(executor: Any, dirname: str | None, main_program: Program | None = None,
              vars: Sequence | None = None, predicate: Any = None,
              filename: str | None = None) -> bytes | None:
    """Save variables' values: one file per variable (named after it) in ``dirname``, or all
    of them in the file ``filename`` (Paddle's ``.pdiparams`` layout, ordered by name), or
    as returned bytes when both are None.

    Args:
        executor (Executor): unused (the values come from the global scope).
        dirname (str|None): the directory.
        main_program (Program, optional): whose persistable variables to save when ``vars``
            is None; the default main program when None.
        vars (list[Variable], optional): the variables to save.
        predicate (callable, optional): ignored, as in Paddle's PIR mode.
        filename (str, optional): one file for all of them.

    Returns:
        bytes|None: the serialised values when ``dirname`` and ``filename`` are None.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main, start = paddle.static.Program(), paddle.static.Program()
        >>> with paddle.static.program_guard(main, start):
        ...     y = paddle.nn.Linear(3, 2)(paddle.static.data('x', [1, 3], 'float32'))
        >>> exe = paddle.static.Executor(paddle.CPUPlace())
        >>> _ = exe.run(start)
        >>> d = tempfile.mkdtemp()
        >>> paddle.static.save_vars(exe, d, main_program=main)
        >>> len(os.listdir(d))
        2
        >>> paddle.disable_static()
    """
    del executor, predicate
    values = _program_vars(main_program, vars)
    if not values:
        import warnings
        warnings.warn("no variable in your model, please ensure there are any variables in "
                      "your model to save")
        return None
    tensors = {v.name: _scope_tensor(v, "save_vars", AttributeError) for v in values}
    if filename is None and dirname is not None:
        os.makedirs(dirname, exist_ok=True)
        for name, t in tensors.items():
            with atomic_open(os.path.join(os.path.normpath(dirname), name)) as f:
                f.write(serialize_tensor(t._t))
        return None
    data = b"".join(serialize_tensor(tensors[n]._t) for n in sorted(tensors))
    if filename is None:
        return data
    os.makedirs(dirname or ".", exist_ok=True)
    with atomic_open(os.path.join(os.path.normpath(dirname or "."), filename)) as f:
        f.write(data)
    return None


def load_vars(executor: Any, dirname: str | None, main_program: Program | None = None,
              vars: Sequence | None = None, predicate: Any = None,
              filename: str | None = None) -> None:
    """Load variables' values saved by :func:`save_vars` into the global scope (and so into
    the parameters the programs read).

    Args:
        executor (Executor): an Executor (or None).
        dirname (str): the directory.
        main_program (Program, optional): whose persistable variables to load when ``vars``
            is None; the default main program when None.
        vars (list[Variable], optional): the variables to load.
        predicate (callable, optional): ignored, as in Paddle's PIR mode.
        filename (str, optional): the one file holding all of them.

    Examples:
        >>> import tempfile
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main, start = paddle.static.Program(), paddle.static.Program()
        >>> with paddle.static.program_guard(main, start):
        ...     lin = paddle.nn.Linear(3, 2)
        ...     y = lin(paddle.static.data('x', [1, 3], 'float32'))
        >>> exe = paddle.static.Executor(paddle.CPUPlace())
        >>> _ = exe.run(start)
        >>> d = tempfile.mkdtemp()
        >>> w = lin.weight.numpy().copy()
        >>> paddle.static.save_vars(exe, d, vars=[lin.weight])
        >>> paddle.static.global_scope().find_var(lin.weight.name).get_tensor().set(
        ...     np.zeros([3, 2], 'float32'), paddle.CPUPlace())
        >>> paddle.static.load_vars(exe, d, vars=[lin.weight])
        >>> bool((lin.weight.numpy() == w).all())
        True
        >>> paddle.disable_static()
    """
    from pagaie.static.executor import Executor
    assert executor is None or isinstance(executor, Executor), \
        f"paddle.static.load_vars: executor must be an Executor, but received {type(executor).__name__}"
    del predicate
    values = _program_vars(main_program, vars)
    filename = filename or None
    if filename is None and dirname is None:
        raise ValueError("The directory path and params cannot be None at the same time.")
    base = os.path.normpath(dirname) if dirname is not None else "."

    def read(path: str) -> bytes:
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as exc:
            raise RuntimeError(f"paddle.static.load_vars: cannot open the file {path!r} "
                               f"({exc.strerror})") from None

    if filename is None:
        arrays = {v.name: deserialize_tensors(read(os.path.join(base, v.name)))[0] for v in values}
    else:
        names = sorted({v.name for v in values})
        found = deserialize_tensors(read(os.path.join(base, filename)))
        if len(found) != len(names):
            raise RuntimeError(f"paddle.static.load_vars: {filename!r} holds {len(found)} "
                               f"tensors, but {len(names)} variables are loaded")
        arrays = dict(zip(names, found))
    scope = global_scope()
    for v in values:
        scope.set(v.name, _scope_tensor(v, "load_vars", AssertionError))
        scope.find_var(v.name).get_tensor().set(arrays[v.name], None)   # in place: the parameter too


def save_to_file(path: str, content: bytes) -> None:
    """Write ``content`` (bytes) to ``path``."""
    if not isinstance(content, (bytes, bytearray)):
        raise ValueError(f"paddle.static.save_to_file: content must be bytes, but received "
                         f"{type(content).__name__}")
    with atomic_open(path) as f:
        f.write(content)


def load_from_file(path: str) -> bytes:
    """The bytes of the file at ``path``."""
    with open(path, "rb") as f:
        return f.read()


def save_inference_model(path_prefix: str, feed_vars: Any, fetch_vars: Any, executor: Any,
                         **kwargs: Any) -> None:
    """Save the inference program (``<prefix>.json``) and its parameters (``<prefix>.pdiparams``).

    Args:
        path_prefix (str): directory and file name prefix.
        feed_vars (Variable|list): the inputs.
        fetch_vars (Variable|list): the outputs.
        executor (Executor): the executor (unused: values are read directly).
        program (Program, optional keyword): default_main_program() when absent.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('sim_x', [None, 2], 'float32')
        ...     y = paddle.static.nn.fc(x, 1)
        >>> exe = paddle.static.Executor()
        >>> prefix = os.path.join(tempfile.mkdtemp(), 'inf')
        >>> paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
        >>> prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        >>> feeds
        ['sim_x']
        >>> exe.run(prog, feed={'sim_x': np.ones([3, 2], 'float32')}, fetch_list=fetches)[0].shape
        (3, 1)
        >>> paddle.disable_static()
    """
    if not isinstance(path_prefix, str) or not os.path.basename(path_prefix):
        raise ValueError(f"paddle.static.save_inference_model: path_prefix must be like "
                         f"'dirname/file_prefix', but received {path_prefix!r}")
    feeds = _check_vars(feed_vars, "feed_vars", "save_inference_model")
    fetches = _check_vars(fetch_vars, "fetch_vars", "save_inference_model")
    pruned = prune_program(_program_of(kwargs, "save_inference_model"), feeds, fetches,
                           inference=True, api="save_inference_model")
    d = os.path.dirname(path_prefix)
    if d:
        os.makedirs(d, exist_ok=True)
    save_to_file(path_prefix + ".json", _program_bytes(pruned))
    if _persistables(pruned):  # (as Paddle: no parameter file for a program without any)
        save_to_file(path_prefix + ".pdiparams", _persistable_bytes(pruned))


def load_inference_model(path_prefix: str, executor: Any, **kwargs: Any) -> list:
    """Load what :func:`save_inference_model` wrote.

    Args:
        path_prefix (str): the prefix given to ``save_inference_model`` (or a directory with
            ``model_filename`` / ``params_filename`` keywords).
        executor (Executor): the executor (its scope receives the parameters).

    Returns:
        list: ``[program, feed_target_names, fetch_targets]``.
    """
    if not isinstance(path_prefix, str):  # (ValueError, as Paddle's)
        raise ValueError(f"paddle.static.load_inference_model: path_prefix must be a str, but "
                         f"received {type(path_prefix).__name__}")
    unknown = sorted(set(kwargs) - {"model_filename", "params_filename"})
    if unknown:
        raise ValueError(f"paddle.static.load_inference_model: unsupported argument(s) {unknown}; "
                         f"only 'model_filename' and 'params_filename' are supported")
    model_file = kwargs.get("model_filename")
    params_file = kwargs.get("params_filename")
    if model_file is not None:
        model_path = os.path.join(path_prefix, model_file)
        params_path = os.path.join(path_prefix, params_file) if params_file else None
    else:
        prefix = _strip(path_prefix)
        model_path, params_path = prefix + ".json", prefix + ".pdiparams"
        if not os.path.exists(model_path) and os.path.exists(prefix + ".pdmodel"):
            model_path = prefix + ".pdmodel"  # a legacy (protobuf) Paddle program
    if not os.path.exists(model_path):
        raise _ModelFileError(f"paddle.static.load_inference_model: there is no model file "
                              f"{model_path!r}")
    if params_path is not None and os.path.exists(params_path):
        _check_loading_executor(executor)
    model = load_from_file(model_path)
    if not _is_pagaie_program(model):  # a model exported by real Paddle (PIR JSON or .pdmodel)
        try:
            return _load_paddle_inference_model(model, params_path, model_path)
        except _ModelFileError:
            raise
        except ValueError as exc:  # (an unreadable file: RuntimeError too, as Paddle's loader)
            raise _ModelFileError(str(exc)) from None
    program = deserialize_program(model)
    if params_path is not None and os.path.exists(params_path):
        deserialize_persistables(program, load_from_file(params_path), executor)
    elif _persistables(program):
        raise _ModelFileError(f"paddle.static.load_inference_model: there is no parameter file "
                              f"{params_path!r}")
    gb = program.global_block()
    fetch = [gb.var(n) for n in program.__dict__.get("_fetch_names", [])]
    program._inference_fetch = fetch   # Paddle's program has their fetch ops (see Executor.run)
    return [program, list(program.__dict__.get("_feed_names", [])), fetch]


def _check_loading_executor(executor: Any) -> None:
    """The executor that receives a model's parameters must be an Executor, as Paddle's
    loader asserts (AssertionError); None fails there as an AttributeError."""
    from pagaie.static.executor import Executor
    if executor is None:
        raise AttributeError("paddle.static.load_inference_model: executor must be an Executor to "
                             "load the model's parameters, but received None")
    if not isinstance(executor, Executor):
        raise AssertionError(f"paddle.static.load_inference_model: executor must be an Executor, "
                             f"but received {type(executor).__name__}")


def _is_pagaie_program(model: bytes) -> bool:
    head = model.lstrip()[:200]
    return head.startswith(b"{") and b'"pagaie.program"' in head


def _load_paddle_inference_model(model: bytes, params_path: str | None, model_path: str) -> list:
    """``[program, feed names, fetch targets]`` of a program saved by real Paddle."""
    from pagaie._formats.paddle_program import load_program_file
    from pagaie._formats.pdiparams import tensors_from_bytes
    params = []
    if params_path is not None and os.path.exists(params_path):
        params = tensors_from_bytes(load_from_file(params_path))
    imported = load_program_file(model, params, repr(model_path))
    imported.program._inference_fetch = list(imported.fetch_values)
    return [imported.program, list(imported.feed_names), list(imported.fetch_values)]
