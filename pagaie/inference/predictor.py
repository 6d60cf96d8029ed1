"""The predictor: loads an inference model and runs it with the static interpreter.

``create_predictor(config)`` reads the model named by a :class:`Config` (Paddle's PIR
``.json`` or legacy ``.pdmodel`` through :mod:`pagaie._formats.paddle_program`, or
pagaie's own ``jit.save`` / ``save_inference_model`` files), optionally rewrites it
with pagaie's inference passes (``switch_ir_optim``), and runs it with an
:class:`~pagaie._static.interpreter.Plan`. Inputs and outputs go through :class:`Tensor`
handles, as in Paddle: ``copy_from_cpu`` before :meth:`Predictor.run`, ``copy_to_cpu``
after. ``clone()`` shares the program and weights and has its own inputs and outputs.
"""
from __future__ import annotations

import json
import numbers
import os
import time
from typing import Any, Callable, Sequence

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import Parameter
from pagaie._core.registry import suspended
from pagaie._core.tensor import Tensor as _PTensor
from pagaie._formats.paddle_program import ImportedProgram, load_program_file
from pagaie._formats.pdiparams import tensors_from_bytes
from pagaie._static.interpreter import Plan
from pagaie._static.ir import Program
from pagaie.inference.config import Config, DataType, PlaceType

__all__ = ["Tensor", "Predictor", "PredictorPool", "create_predictor", "get_version",
           "get_num_bytes_of_data_type", "get_trt_compile_version", "get_trt_runtime_version",
           "load_model"]

_TO_DATATYPE = {torch.float32: DataType.FLOAT32, torch.int64: DataType.INT64,
                torch.int32: DataType.INT32, torch.uint8: DataType.UINT8, torch.int8: DataType.INT8,
                torch.float16: DataType.FLOAT16, torch.bool: DataType.BOOL,
                torch.float64: DataType.FLOAT64, torch.bfloat16: DataType.BFLOAT16}
# What Paddle 3.3.1 answers (it knows the sizes of four types only and says -1 for the rest).
_NUM_BYTES = {DataType.FLOAT32: 4, DataType.INT64: 8, DataType.INT32: 4, DataType.UINT8: 1}
# numpy dtypes copy_from_cpu takes as they are, and those Paddle's binding widens.
_NUMPY_OK = {np.dtype(n) for n in ("float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool")}
_WIDEN = {np.dtype("int16"): np.int32, np.dtype("uint16"): np.int32, np.dtype("uint32"): np.int64,
          np.dtype("uint64"): np.float64}


# ---- loading -------------------------------------------------------------------------
def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        raise RuntimeError(f"paddle.inference: cannot open file {path!r}, please check that the "
                           "file exists and is readable") from None


def _find_in_dir(d: str) -> tuple[str, str | None]:
    if not os.path.isdir(d):
        raise RuntimeError(f"paddle.inference: the model directory {d!r} does not exist")
    if os.path.exists(os.path.join(d, "__model__")):
        params = os.path.join(d, "__params__")
        return os.path.join(d, "__model__"), params if os.path.exists(params) else None
    models = sorted(f for f in os.listdir(d) if f.endswith((".json", ".pdmodel")))
    if len(models) != 1:
        raise RuntimeError(f"paddle.inference: the model directory {d!r} must hold '__model__' or "
                           f"exactly one .json/.pdmodel program, but holds {models}; use "
                           "Config(prog_file, params_file)")
    stem = os.path.splitext(models[0])[0]
    params = os.path.join(d, stem + ".pdiparams")
    return os.path.join(d, models[0]), params if os.path.exists(params) else None


def _read_pagaie(text: str, data: dict, params: list[torch.Tensor], source: str) -> ImportedProgram:
    program = Program.from_json(text)
    gb = program.global_block()
    jit = data.get("jit")
    if isinstance(jit, dict) and isinstance(jit.get("params"), list):
        names = [e["name"] for e in jit["params"]]
    else:
        names = sorted(v.name for v in gb.vars.values() if v.persistable and not v.is_data)
    if len(params) != len(names):
        raise ValueError(f"paddle.inference: the parameter file holds {len(params)} tensors, but "
                         f"{source} needs {len(names)}")
    for n, t in zip(names, params):
        if not gb.has_var(n):
            continue
        v = gb.var(n)
        if list(t.shape) != list(v.shape):
            raise ValueError(f"paddle.inference: parameter {n!r} has shape {list(t.shape)} in the "
                             f"parameter file, but {source} expects {list(v.shape)}")
        v.source = Parameter(t.to(v._t.dtype), trainable=False, name=n)
    for v in gb.vars.values():
        if v.persistable and not v.is_data and v.source is None and v.op is None:
            raise ValueError(f"paddle.inference: {source} has no saved value for {v.name!r}")
    feeds = list(data.get("feed_names", []))
    fetch = [gb.var(n) for n in data.get("fetch_names", [])]
    # Paddle's exporters name the outputs by their fetch ops, fetch_name_<i>, whatever the
    # values' names; the predictor's output names are those
    return ImportedProgram(program, feeds, [f"fetch_name_{i}" for i in range(len(fetch))], fetch)


def _parse(model: bytes, params: Callable[[], list[torch.Tensor]], source: str) -> ImportedProgram:
    if model.lstrip()[:1] == b"{":
        try:
            text = model.decode("utf-8")
            data = json.loads(text)
        except (UnicodeDecodeError, ValueError) as exc:
            raise ValueError(f"paddle.inference: {source} is not valid JSON ({exc})") from None
        if isinstance(data, dict) and data.get("format") == "pagaie.program":
            return _read_pagaie(text, data, params(), source)
    return load_program_file(model, params(), source)


def load_model(config: Config) -> ImportedProgram:
    """Read the model a config names (any supported format) into a pagaie program."""
    if config._buffers is not None:
        prog_bytes, param_bytes = config._buffers
        return _parse(prog_bytes, lambda: tensors_from_bytes(param_bytes) if param_bytes else [],
                      "the model buffer")
    if config.model_dir():
        prog, params = _find_in_dir(config.model_dir())
    else:
        if not config.prog_file():
            raise RuntimeError("paddle.inference.create_predictor: the config names no model; use "
                               "Config(prog_file, params_file) or Config(model_dir)")
        prog, params = config.prog_file(), config.params_file() or None
    model = _read(prog)
    if params is None:
        return _parse(model, list, prog)
    if os.path.exists(params):
        return _parse(model, lambda: tensors_from_bytes(_read(params)), prog)
    # Paddle runs a program without parameters when the parameter file is missing.
    try:
        return _parse(model, list, prog)
    except ValueError:
        _read(params)  # the model needs parameters: say the file is missing
        raise


# ---- handles -------------------------------------------------------------------------
class Tensor:
    """A predictor's input or output (Paddle's ``paddle.inference.Tensor`` handle).

    Obtained from :meth:`Predictor.get_input_handle` / :meth:`Predictor.get_output_handle`;
    it reads and writes the predictor's own storage under its name.
    """

    def __init__(self, predictor: "Predictor", name: str, is_input: bool) -> None:
        self._pred = predictor
        self._name = name
        self._input = is_input

    def _store(self) -> dict:
        # A name is an input or an output whichever getter made the handle, as in Paddle.
        return self._pred._inputs if self._name in self._pred._model.feed_names else self._pred._outputs

    def _data(self) -> torch.Tensor | None:
        return self._store().get(self._name)

    def copy_from_cpu(self, data: np.ndarray) -> None:
        """Set the tensor's contents from a numpy array (copied)."""
        if not isinstance(data, np.ndarray):
            raise TypeError("paddle.inference.Tensor.copy_from_cpu: only numpy.ndarray data is "
                            f"supported, but received {type(data).__name__}")
        kind = data.dtype
        if kind in _WIDEN:  # what Paddle's binding converts these to
            data = data.astype(_WIDEN[kind])
        elif kind not in _NUMPY_OK:
            raise TypeError(f"paddle.inference.Tensor.copy_from_cpu: numpy dtype {kind} is not supported; "
                            "use float32/float64/float16, int64/int32/int8/uint8 or bool")
        t = torch.from_numpy(np.array(data, copy=True, order="C"))
        self._store()[self._name] = t.to(self._pred._device)
        self._pred._shapes.pop(self._name, None)

    def share_external_data(self, data: Any) -> None:
        """Use a pagaie Tensor's storage as this input, without copying."""
        if not isinstance(data, _PTensor):
            raise TypeError("paddle.inference.Tensor.share_external_data: expected a paddle.Tensor, "
                            f"but received {type(data).__name__}")
        self._store()[self._name] = data._t.detach()
        self._pred._shapes.pop(self._name, None)

    def copy_to_cpu(self) -> np.ndarray:
        """The tensor's contents as a new numpy array."""
        t = self._data()
        shape = self._pred._shapes.get(self._name)
        if t is None:
            raise RuntimeError(f"paddle.inference.Tensor.copy_to_cpu: tensor {self._name!r} holds no "
                               "data yet" + (" (run the predictor first)" if not self._input else ""))
        if shape is not None:
            n = int(np.prod(shape))
            if n > t.numel():
                raise RuntimeError(f"paddle.inference.Tensor.copy_to_cpu: tensor {self._name!r} was "
                                   f"reshaped to {shape} ({n} elements) but holds {t.numel()}")
            t = t.reshape(-1)[:n].reshape(shape)
        if t.dtype == torch.bfloat16:
            t = t.view(torch.uint16) if hasattr(torch, "uint16") else t.float()
        return t.detach().cpu().numpy().copy()

    def reshape(self, shape: Sequence[int]) -> None:
        """Set the shape (before ``copy_from_cpu``, or to view held data differently)."""
        if isinstance(shape, numbers.Integral):
            raise ValueError(f"paddle.inference.Tensor.reshape: shape must be a list of ints, but received "
                             f"{shape!r}")
        if isinstance(shape, (str, bytes)) or not all(isinstance(d, numbers.Integral) for d in shape):
            raise TypeError(f"paddle.inference.Tensor.reshape: shape must be a list of ints, but received "
                            f"{shape!r}")
        shape = [int(d) for d in shape]
        t = self._data()
        if t is not None and t.numel() == int(np.prod(shape)):
            self._store()[self._name] = t.reshape(shape)
            self._pred._shapes.pop(self._name, None)
        else:
            self._pred._shapes[self._name] = shape

    def shape(self) -> list[int]:
        """The current shape (``[0]`` while the tensor holds nothing)."""
        s = self._pred._shapes.get(self._name)
        if s is not None:
            return list(s)
        t = self._data()
        return [0] if t is None else list(t.shape)

    def type(self) -> DataType:
        """The data type: of the held data, else the one the model declares."""
        t = self._data()
        dtype = t.dtype if t is not None else self._pred._declared_dtype(self._name, self._input)
        return _TO_DATATYPE.get(dtype, DataType.FLOAT32)

    def lod(self) -> list[list[int]]:
        return [list(level) for level in self._pred._lods.get(self._name, [])]

    def set_lod(self, lod: list[list[int]]) -> None:
        self._pred._lods[self._name] = [list(level) for level in lod]

    def place(self) -> PlaceType:
        return PlaceType.GPU if self._pred._device.type == "cuda" else PlaceType.CPU

    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"<paddle.inference.Tensor {self._name!r} shape={self.shape()}>"


# ---- predictor -----------------------------------------------------------------------
class _Model:
    """What clones share: the (optimised) program, its feeds and fetches, the plan."""

    def __init__(self, config: Config) -> None:
        imported = load_model(config)
        device = torch.device(f"cuda:{config.gpu_device_id()}") if config.use_gpu() else torch.device("cpu")
        program = imported.program
        fetch = imported.fetch_values
        gb = program.global_block()
        for v in gb.vars.values():
            if v.source is not None and v.source._t.device != device:
                v.source._t = v.source._t.to(device)
        passes = config.passes_to_run()
        if passes:
            from pagaie._static.passes import clone_program, optimize_for_inference, run_passes
            from pagaie._static.passes.strategy import INFERENCE_PASSES
            keep = [v.name for v in fetch]
            debug = config._ir_debug or config.pass_builder()._debug or None
            if passes == list(INFERENCE_PASSES):
                program = optimize_for_inference(program, keep=keep, debug=debug)
            else:
                program = clone_program(program)
                program.pass_stats = run_passes(program, passes, keep=keep, debug=debug)
            gb = program.global_block()
            fetch = [gb.var(n) for n in keep]
        self.program = program
        self.feed_names = list(imported.feed_names)
        self.fetch_names = list(imported.fetch_names)
        self.fetch_values = fetch
        self.device = device
        self.reuse = config._memory_optim
        self.threads = config._threads if config._threads > 1 else None
        self.profile = config._profile
        self.shape_log = config.shape_range_info_path()
        self.plan: Plan | None = None
        for n in self.feed_names:
            if not gb.has_var(n):
                raise RuntimeError(f"paddle.inference: the model's input {n!r} is not in its program")

    def get_plan(self) -> Plan:
        if self.plan is None:
            self.plan = Plan(self.program, self.feed_names, self.fetch_values, reuse_buffers=self.reuse)
        return self.plan


class Predictor:
    """Runs an inference model (create it with :func:`create_predictor`).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'net')
        >>> net = paddle.nn.Linear(4, 2)
        >>> paddle.jit.save(net, path, [paddle.static.InputSpec([None, 4], 'float32', 'x')])
        >>> config = paddle.inference.Config(path + '.json', path + '.pdiparams')
        >>> predictor = paddle.inference.create_predictor(config)
        >>> predictor.get_input_names()
        ['x']
        >>> x = np.ones([3, 4], 'float32')
        >>> predictor.get_input_handle('x').copy_from_cpu(x)
        >>> predictor.run()
        >>> out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
        >>> np.allclose(out, net(paddle.to_tensor(x)).numpy())
        True
    """

    def __init__(self, config: Config, _model: _Model | None = None) -> None:
        if _model is None:
            if not isinstance(config, Config):
                raise TypeError("paddle.inference.create_predictor: expected a paddle.inference.Config, "
                                f"but received {type(config).__name__}")
            if not config._valid:
                raise ValueError("paddle.inference.create_predictor: each Config can only be used for "
                                 "one predictor; create a new Config or use Predictor.clone()")
            try:
                _model = _Model(config)
            except ValueError as exc:
                raise RuntimeError(str(exc)) from None
            config._valid = False
        self._model = _model
        self._device = _model.device
        self._inputs: dict[str, torch.Tensor | None] = {}
        self._outputs: dict[str, torch.Tensor | None] = {}
        self._shapes: dict[str, list[int]] = {}
        self._lods: dict[str, list[list[int]]] = {}
        self._input_hooks: list[Callable] = []
        self._output_hooks: list[Callable] = []

    def get_input_names(self) -> list[str]:
        return list(self._model.feed_names)

    def get_output_names(self) -> list[str]:
        return list(self._model.fetch_names)

    def _handle(self, api: str, name: str) -> Tensor:
        if not isinstance(name, str):
            raise TypeError(f"paddle.inference.Predictor.{api}: name must be a str, but received {name!r}")
        if name not in self._model.feed_names and name not in self._model.fetch_names:
            raise RuntimeError(f"paddle.inference.Predictor.{api}: the model has no tensor named {name!r}; "
                               f"inputs: {self._model.feed_names}, outputs: {self._model.fetch_names}")
        return Tensor(self, name, name in self._model.feed_names)

    def get_input_handle(self, name: str) -> Tensor:
        """The handle of input ``name`` (an output's name also works, as in Paddle)."""
        return self._handle("get_input_handle", name)

    def get_output_handle(self, name: str) -> Tensor:
        """The handle of output ``name`` (an input's name also works, as in Paddle)."""
        return self._handle("get_output_handle", name)

    def _declared_dtype(self, name: str, is_input: bool) -> torch.dtype:
        if is_input:
            return self._model.program.global_block().var(name)._t.dtype
        return self._model.fetch_values[self._model.fetch_names.index(name)]._t.dtype

    def _feed(self) -> dict[str, torch.Tensor]:
        gb = self._model.program.global_block()
        feed = {}
        for n in self._model.feed_names:
            t = self._inputs.get(n)
            if t is None:
                raise ValueError(f"paddle.inference.Predictor.run: input {n!r} holds no data; call "
                                 "get_input_handle(name).copy_from_cpu(array) first")
            v = gb.var(n)
            if t.dtype != v._t.dtype:
                raise ValueError(f"paddle.inference.Predictor.run: input {n!r} must be "
                                 f"{_dt.from_torch_dtype(v._t.dtype).name}, but received "
                                 f"{_dt.from_torch_dtype(t.dtype).name}")
            want = list(v.shape)
            if len(want) != t.dim() or any(w >= 0 and w != d for w, d in zip(want, t.shape)):
                raise ValueError(f"paddle.inference.Predictor.run: input {n!r} must have shape {want} "
                                 f"(-1 = any), but received {list(t.shape)}")
            feed[n] = t
        return feed

    def run(self, inputs: Sequence[_PTensor] | None = None) -> list[_PTensor] | None:
        """Run the model.

        Args:
            inputs (list[Tensor], optional): the inputs in :meth:`get_input_names` order;
                when given, the outputs are returned as a list of Tensors. Without it,
                inputs come from the input handles and outputs go to the output handles.
        """
        if inputs is not None:
            if not isinstance(inputs, (list, tuple)) or any(not isinstance(t, _PTensor) for t in inputs):
                raise TypeError("paddle.inference.Predictor.run: inputs must be a list of paddle.Tensor")
            if len(inputs) != len(self._model.feed_names):
                raise ValueError(f"paddle.inference.Predictor.run: the model needs "
                                 f"{len(self._model.feed_names)} inputs, but received {len(inputs)}")
            for n, t in zip(self._model.feed_names, inputs):
                self._inputs[n] = t._t.detach().to(self._device)
        feed = self._feed()
        if self._model.shape_log:
            with open(self._model.shape_log, "a") as f:
                for n, t in feed.items():
                    f.write(f"{n}: {list(t.shape)}\n")
        saved = torch.get_num_threads()
        start = time.perf_counter()
        try:
            if self._model.threads:
                torch.set_num_threads(self._model.threads)
            with suspended(), torch.no_grad():
                if self._input_hooks or self._output_hooks:
                    outs = self._run_hooked(feed)
                else:
                    outs = self._model.get_plan().run(feed)
        finally:
            if self._model.threads:
                torch.set_num_threads(saved)
        if self._model.profile:
            print(f"paddle.inference: run took {(time.perf_counter() - start) * 1e3:.3f} ms")
        for n, t in zip(self._model.fetch_names, outs):
            self._outputs[n] = t
            self._shapes.pop(n, None)
        if inputs is not None:
            return [_PTensor(t) for t in outs]
        return None

    def _run_hooked(self, feed: dict[str, torch.Tensor]) -> list[torch.Tensor]:
        from pagaie._static.interpreter import _fill, _store
        plan = self._model.get_plan()
        slots: list = [None] * plan.n_slots
        for s, name in plan.feeds:
            slots[s] = feed[name]
        for s, src in plan.sources:
            slots[s] = src._t
        where = _slots_by_name(plan)
        for op, kernel, graph, args, kwargs, outs, frees in plan.steps:
            for v in op.input_values():
                for h in self._input_hooks:
                    h(op.type, v.name, _PTensor(slots[where[v.name]]))
            a, k = _fill(args, slots), _fill(kwargs, slots)
            result = graph(op, a, k, plan) if graph is not None else kernel(*a, **k)
            _store(outs, result, slots)
            for v in op.output_values():
                for h in self._output_hooks:
                    h(op.type, v.name, _PTensor(slots[where[v.name]]))
            for s in frees:
                slots[s] = None
        return [slots[s] for s in plan.fetch_slots]

    def register_input_hook(self, hookfunc: Callable[[str, str, _PTensor], None]) -> None:
        """Call ``hookfunc(op_type, tensor_name, tensor)`` for each op input before the op runs."""
        self._input_hooks.append(hookfunc)

    def register_output_hook(self, hookfunc: Callable[[str, str, _PTensor], None]) -> None:
        """Call ``hookfunc(op_type, tensor_name, tensor)`` for each op output after the op runs."""
        self._output_hooks.append(hookfunc)

    def clone(self, stream: Any = None) -> "Predictor":
        """A predictor sharing this one's program and weights, with its own inputs and outputs."""
        return Predictor(None, self._model)  # type: ignore[arg-type]

    def clear_intermediate_tensor(self) -> None:
        """Free intermediate results; inputs and outputs stay readable (pagaie already frees
        each intermediate after its last use, so there is nothing left to drop)."""

    def try_shrink_memory(self) -> int:
        """Release cached device memory; returns 0 (bytes still reserved by pagaie's pool)."""
        if self._device.type == "cuda":
            torch.cuda.empty_cache()
        return 0


def _slots_by_name(plan: Plan) -> dict[str, int]:
    cached = plan.__dict__.get("_slots_by_name")
    if cached is None:
        from pagaie._static.interpreter import _Slot

        cached = {}

        def walk(t: Any, vals: Any) -> None:
            if type(t) is _Slot:
                cached[vals.name] = t.i
            elif type(t) in (list, tuple) and isinstance(vals, (list, tuple)):
                for a, b in zip(t, vals):
                    walk(a, b)
            elif type(t) is dict and isinstance(vals, dict):
                for k in t:
                    walk(t[k], vals[k])
        for op, _, _, args, kwargs, outs, _ in plan.steps:
            walk(args, op.args)
            walk(kwargs, op.kwargs)
            walk(outs, op.outputs)
        plan.__dict__["_slots_by_name"] = cached
    return cached


class PredictorPool:
    """``size`` predictors of one model (the first from ``config``, the others its clones).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'net')
        >>> paddle.jit.save(paddle.nn.Linear(2, 2), path, [paddle.static.InputSpec([None, 2])])
        >>> config = paddle.inference.Config(path + '.json', path + '.pdiparams')
        >>> pool = paddle.inference.PredictorPool(config, 2)
        >>> type(pool.retrieve(1)).__name__
        'Predictor'
    """

    def __init__(self, config: Config, size: int) -> None:
        if not isinstance(size, numbers.Integral) or size < 0:
            raise TypeError(f"paddle.inference.PredictorPool: size must be a non-negative int, but "
                            f"received {size!r}")
        if size < 1:
            raise ValueError(f"paddle.inference.PredictorPool: size must be at least 1, but received {size}")
        first = Predictor(config)
        self._preds = [first] + [first.clone() for _ in range(int(size) - 1)]

    def retrieve(self, idx: int) -> Predictor:
        if not isinstance(idx, numbers.Integral) or idx < 0:
            raise TypeError(f"paddle.inference.PredictorPool.retrieve: idx must be a non-negative int, "
                            f"but received {idx!r}")
        if idx >= len(self._preds):
            raise ValueError(f"paddle.inference.PredictorPool.retrieve: the pool holds "
                             f"{len(self._preds)} predictors, but the index is {idx}")
        return self._preds[idx]


def create_predictor(config: Config) -> Predictor:
    """Build a :class:`Predictor` for the model ``config`` names (see :class:`Predictor`)."""
    return Predictor(config)


def get_version() -> str:
    """Version information, in Paddle's ``version: / commit: / branch:`` form.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.inference.get_version().splitlines()[0].startswith('version:')
        True
    """
    from pagaie._version import __version__
    return f"version: {__version__}\ncommit: pagaie\nbranch: HEAD\n"


def get_num_bytes_of_data_type(dtype: DataType) -> int:
    """Bytes per element of ``dtype``, as Paddle 3.3.1 answers (-1 for types it does not size).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.inference.get_num_bytes_of_data_type(paddle.inference.DataType.INT64)
        8
    """
    if not isinstance(dtype, DataType):
        raise TypeError(f"paddle.inference.get_num_bytes_of_data_type: expected a DataType, but "
                        f"received {type(dtype).__name__}")
    return _NUM_BYTES.get(dtype, -1)


def get_trt_compile_version() -> tuple[int, int, int]:
    """TensorRT version pagaie was built with: ``(0, 0, 0)`` (none)."""
    return (0, 0, 0)


def get_trt_runtime_version() -> tuple[int, int, int]:
    """TensorRT version found at run time: ``(0, 0, 0)`` (none)."""
    return (0, 0, 0)
