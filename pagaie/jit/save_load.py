"""``paddle.jit.save`` / ``paddle.jit.load`` and :class:`TranslatedLayer`.

``save(layer, path, input_spec)`` traces the layer's forward in its current modes (as
Paddle: Python branches on ``self.training`` stay as taken; ops with a test form are
switched to it) and writes:

- ``path.json``: the inference program (pruned to the inputs -> outputs subgraph,
  test-mode ops) in pagaie's Program JSON, with ``feed_names`` / ``fetch_names``
  (so ``paddle.static.load_inference_model`` reads it too) and a ``jit`` section: the
  parameters' trainable flags;
- ``path.pdiparams``: every value the program reads from the layer (parameters,
  buffers, captured constants), in Paddle's binary layout, sorted by name.

``load(path)`` rebuilds a :class:`TranslatedLayer` from those two files alone: its
parameters are Parameters (fine-tuning works), and its forward runs the program. As in
Paddle, that is the inference program in both modes: after ``.train()`` gradients reach
the parameters, while dropout stays off and batch norm keeps normalising with (and not
updating) its running statistics.
"""
from __future__ import annotations

import functools
import inspect
import json
import os
import types
import warnings
from typing import Any

import numpy as np
import torch

from pagaie._core.parameter import Parameter
from pagaie._core.place import default_device
from pagaie._core.tensor import Tensor, flag_grad, wrap
from pagaie._formats.atomic_file import atomic_open
from pagaie._formats.pdiparams import load_tensors, write_pdiparams
from pagaie._static import ast_runtime
from pagaie._static.ir import FORMAT_VERSION, Program, Value, map_values
from pagaie._static.program_tools import clone_program, prune_program
from pagaie._static.recorder import _to_values, active_recorder, capture
from pagaie.static.framework import current_recorder
from pagaie.jit.api import ConcreteProgram, StaticFunction, make_runner, run_program
from pagaie.nn import Layer
from pagaie.utils import unique_name
from pagaie.utils.layers_utils import flatten

__all__ = ["save", "load", "TranslatedLayer"]

JIT_FORMAT_VERSION = 1
_CONFIGS = {"output_spec", "with_hook", "combine_params", "clip_extra", "skip_forward",
            "input_names_after_prune", "skip_prune_program", "separate_parameters"}


def check_save_configs(api: str, configs: dict) -> None:
    """The ``**configs`` of ``jit.save`` (or of ``api``, which takes the same ones): an unknown
    one is a ValueError (as Paddle's), an ``output_spec`` that is no list a TypeError."""
    for k in configs:
        if k not in _CONFIGS:
            raise ValueError(f"{api}: the additional config ({k}) of `{api}` is not supported "
                             f"(expected one of {sorted(_CONFIGS)})")
    output_spec = configs.get("output_spec")
    if output_spec is not None and not isinstance(output_spec, list):
        raise TypeError(f"{api}: the config output_spec must be a list, but received "
                        f"{type(output_spec).__name__}")


def _check_path(path: Any, api: str) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"paddle.jit.{api}: path must be a str, but received {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.basename(path):
        raise ValueError(f"paddle.jit.{api}: the path must be of the form 'dirname/file_prefix', "
                         f"but received {path!r} (no file prefix)")
    return path


def _static_function(layer: Any, api: str) -> StaticFunction:
    if isinstance(layer, Layer):
        fwd = layer.__dict__.get("forward")
        if isinstance(fwd, StaticFunction):
            return fwd
        cls_fwd = getattr(type(layer), "forward")
        if isinstance(cls_fwd, StaticFunction):
            return cls_fwd.__get__(layer, type(layer))
        from pagaie._static.ast_runtime import forward_function
        return StaticFunction(forward_function(layer), instance=layer)
    if isinstance(layer, StaticFunction):
        return layer
    if callable(layer):
        return StaticFunction(layer)
    raise TypeError(f"paddle.jit.{api}: the input must be a Layer or a function, but received "
                    f"{type(layer).__name__}")


def _with_outer_hooks(sf: StaticFunction) -> StaticFunction:
    """``sf`` when its Layer has no forward hooks; else a function that calls the Layer (its
    pre/post hooks around the converted forward), as Paddle saves the outermost Layer's hooks
    into the program (sublayers' hooks run as their calls are traced anyway)."""
    inst = sf._instance
    if not isinstance(inst, Layer) or not (inst._forward_pre_hooks or inst._forward_post_hooks):
        return sf
    fn = sf.dygraph_function

    def hooked(self: Layer, *args: Any, **kwargs: Any) -> Any:
        own = self.__dict__.get("forward")
        self.__dict__["forward"] = types.MethodType(ast_runtime.converted(fn), self)
        try:
            return self(*args, **kwargs)
        finally:
            if own is None:
                self.__dict__.pop("forward", None)
            else:
                self.__dict__["forward"] = own

    # the forward's parameters name the inputs (not ``functools.wraps``: the trace would read
    # the forward's source through ``__wrapped__``)
    hooked.__signature__ = inspect.signature(fn)
    hooked.__qualname__ = fn.__qualname__
    return StaticFunction(hooked, sf.input_spec, instance=inst, **sf._kwargs)


def _trace_mode(sf: StaticFunction, spec: list, training: bool | None) -> ConcreteProgram:
    """The program of ``sf`` traced with every sublayer in ``training`` mode (None: the
    modes they are in), with ``full_graph=True``: Paddle converts what it saves in its AST
    mode, whatever mode ``to_static`` was given (a ``print`` runs once, on the symbolic values)."""
    if not sf._kwargs.get("full_graph"):
        plain = sf
        sf = StaticFunction(plain.dygraph_function, plain.input_spec, plain._build_strategy,
                            plain._backend, instance=plain._instance,
                            **{**plain._kwargs, "full_graph": True})
        sf._training = plain._training
    inst = sf._instance
    flags = [(layer, layer.training) for layer in inst.sublayers(include_self=True)] \
        if isinstance(inst, Layer) and training is not None else []
    try:
        for layer, _ in flags:
            layer.__dict__["training"] = training
        entry = sf._specify(spec)
    finally:
        for layer, mode in flags:
            layer.__dict__["training"] = mode
    if not isinstance(entry, ConcreteProgram):
        exc = getattr(entry, "exc", None)
        if isinstance(exc, ast_runtime.Unconvertible):
            raise exc  # an error Paddle's converter raises too, as it is
        reason = getattr(entry, "reason", "no program")
        msg = (f"paddle.jit.save: {sf.dygraph_function.__qualname__} cannot be converted to a static "
               f"program ({reason})")
        # an error of the function itself keeps its type, as Paddle's conversion raises it;
        # what only the converter cannot do is a ValueError
        kind = type(exc) if isinstance(exc, Exception) and type(exc).__module__ == "builtins" \
            else ValueError
        raise kind(msg) from exc
    return entry


def _program_dict(program: Program) -> dict:
    return json.loads(program.to_json())


def _hashable(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(map(_hashable, v))
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    try:
        hash(v)
        return v
    except TypeError:
        return None


def _specs_compatible(given: list, declared: list) -> bool:
    """Whether jit.save's input_spec agrees with the to_static one (Paddle's rule): a
    shorter list must be a subset; same length: tensor specs match in rank, dtype and
    known dims, other values are equal."""
    from pagaie.static.input_spec import InputSpec
    if len(given) != len(declared):
        return all(s in declared for s in given)
    for a, b in zip(given, declared):
        if isinstance(a, InputSpec) or isinstance(b, InputSpec):
            if not (isinstance(a, InputSpec) and isinstance(b, InputSpec)) \
                    or len(a.shape) != len(b.shape) or a.dtype != b.dtype:
                return False
            if any(i is not None and j is not None and i >= 0 and j >= 0 and i != j
                   for i, j in zip(a.shape, b.shape)):
                return False
        elif _hashable(a) != _hashable(b):
            return False
    return True


def save(layer: Any, path: str, input_spec: Any = None, **configs: Any) -> None:
    """Save a Layer (or function) as an inference program plus its parameters.

    Args:
        layer (Layer|function): what to save; its ``forward`` is traced.
        path (str): ``'dirname/file_prefix'``; writes ``path.json`` and ``path.pdiparams``.
        input_spec (list[InputSpec|Tensor], optional): the inputs; defaults to the
            ``to_static`` input_spec, else the shapes of the last call. With a ``to_static``
            input_spec, naming fewer inputs than it has keeps only those (and any other the
            saved outputs need) as the saved program's inputs.
        **configs: ``output_spec`` (list of output positions: the outputs to keep),
            ``skip_prune_program`` (bool), ``skip_forward`` (bool: leave out a forward that
            ``to_static`` did not convert), ``input_names_after_prune`` (the names of the
            inputs to keep) and Paddle's other options (accepted).

    Raises:
        RuntimeError: ``paddle.jit.enable_to_static(False)`` is in effect, or ``output_spec``
            is given for a Layer with forward pre/post hooks.
        TypeError: ``layer`` is no Layer or function, ``input_spec`` no list or tuple, or
            ``output_spec`` no list.
        ValueError: no input_spec and no call yet, an input_spec for a Layer with to_static
            methods besides ``forward``, a bad ``output_spec`` entry, or an input the saved
            outputs do not use.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> net = paddle.nn.Linear(2, 1)
        >>> path = os.path.join(tempfile.mkdtemp(), 'net')
        >>> paddle.jit.save(net, path, [paddle.static.InputSpec([None, 2], 'float32', 'x')])
        >>> loaded = paddle.jit.load(path)
        >>> x = paddle.ones([3, 2])
        >>> bool(paddle.allclose(loaded(x), net(x)))
        True
    """
    _check_save_args(layer, input_spec)
    check_save_configs("paddle.jit.save", configs)
    path = _check_path(path, "save")
    if configs.get("skip_forward") and isinstance(layer, Layer) \
            and not isinstance(layer.__dict__.get("forward"), StaticFunction) \
            and not isinstance(getattr(type(layer), "forward"), StaticFunction):
        # as Paddle, skip_forward leaves out a forward that to_static did not convert
        _save_other_methods(layer, path, configs)
        return
    sf = _static_function(layer, "save")
    given = None if input_spec is None else _as_specs(list(input_spec))
    spec = given if given is not None else sf.input_spec
    if given is not None and sf.input_spec is not None:  # the decorator's spec wins
        # (as Paddle, checked only while to_static has traced no program yet)
        if not sf._cache and not _specs_compatible(flatten(given), flatten(sf.input_spec)):
            raise ValueError(f"paddle.jit.save: the input_spec {given} conflicts with the "
                             f"input_spec {sf.input_spec} given to paddle.jit.to_static")
        spec = sf.input_spec
    if spec is None:
        last = sf._last  # the program of the last call
        if last is None:
            raise ValueError(f"paddle.jit.save: no program to save for "
                             f"{sf.dygraph_function.__qualname__}: give input_spec, or call the "
                             "to_static layer once before saving")
        from pagaie.static.input_spec import InputSpec
        spec = [InputSpec(v.shape, v.dtype, v.name) for v in last.inputs]
    inst = sf._instance
    if configs.get("output_spec") and isinstance(inst, Layer) \
            and (inst._forward_pre_hooks or inst._forward_post_hooks):
        raise RuntimeError("paddle.jit.save: output_spec cannot be given when the outermost Layer "
                           "has forward pre/post hooks (they are saved into the program)")
    _save_program(_with_outer_hooks(sf), path, spec, configs, given)
    if isinstance(layer, Layer):
        _save_other_methods(layer, path, configs)


def _as_specs(spec: Any) -> Any:
    """jit.save's input_spec with each tensor (an eager one, or a program's input value as
    ``to_static(...).inputs`` gives) replaced by its InputSpec, as Paddle reads them."""
    from pagaie.static.input_spec import InputSpec
    if isinstance(spec, Tensor):
        return InputSpec.from_tensor(spec)
    if type(spec) in (list, tuple):
        return type(spec)(_as_specs(e) for e in spec)
    if type(spec) is dict:
        return {k: _as_specs(e) for k, e in spec.items()}
    return spec


def _inputs_to_keep(given: Any, names_after_prune: Any, feed_names: list[str]) -> list[str]:
    """The feeds of the saved program, by Paddle's rule: the InputSpecs of jit.save's
    input_spec (those ``input_names_after_prune`` lists, when given), each of which must name
    an input of the program; all the inputs when they are as many as the program has."""
    from pagaie.static.input_spec import InputSpec
    if given is None:
        return [n for n in feed_names if names_after_prune is None or n in names_after_prune]
    names = [s.name for s in flatten(given) if isinstance(s, InputSpec)
             and (names_after_prune is None or s.name in names_after_prune)]
    if len(names) == len(feed_names):
        return list(feed_names)
    for name in names:
        if name is None:
            raise ValueError("paddle.jit.save: an InputSpec in input_spec has no name, so the "
                             "inputs cannot be pruned to it; name the InputSpecs of to_static's "
                             "and jit.save's input_spec alike")
        if name not in feed_names:
            raise ValueError(f"paddle.jit.save: the input {name!r} of input_spec is not an input "
                             f"of the program (its inputs are {feed_names}); name the InputSpecs "
                             "of to_static's and jit.save's input_spec alike")
    return names


def _save_other_methods(layer: Layer, path: str, configs: dict) -> None:
    """As Paddle, the Layer's to_static methods other than forward go to ``<path>.<method>``."""
    for name, attr in sorted(_other_static_methods(layer).items()):
        method = attr.__get__(layer, type(layer))
        if method.is_property:  # (a value: Paddle keeps it only in combine_params' .meta file)
            continue
        mspec = method.input_spec
        if mspec is None and method._last is not None:
            from pagaie.static.input_spec import InputSpec
            mspec = [InputSpec(v.shape, v.dtype, v.name) for v in method._last.inputs]
        if mspec is not None:
            _save_program(method, f"{path}.{name}", list(mspec), configs)


def _check_save_args(layer: Any, input_spec: Any) -> None:
    """Paddle's checks of what ``jit.save`` is given, in its order."""
    from pagaie.jit.api import _STATE
    if not _STATE.enabled:
        raise RuntimeError("paddle.jit.save: saving needs to_static, which "
                           "paddle.jit.enable_to_static(False) turned off")
    if not (isinstance(layer, (Layer, StaticFunction)) or inspect.isfunction(layer)):
        raise TypeError(f"paddle.jit.save: the input must be a Layer or a function, but received "
                        f"{type(layer).__name__}")
    if not isinstance(layer, Layer):
        warnings.warn("paddle.jit.save: saving a function; paddle.jit.load gives a TranslatedLayer "
                      "that computes it")
    if input_spec is None:
        return
    if isinstance(layer, Layer) and _other_static_methods(layer):
        raise ValueError(f"paddle.jit.save: input_spec must be None when the Layer has to_static "
                         f"methods other than forward ({sorted(_other_static_methods(layer))}), "
                         f"but received {type(input_spec).__name__}")
    if not isinstance(input_spec, (list, tuple)):
        raise TypeError(f"paddle.jit.save: input_spec must be a list or tuple, but received "
                        f"{type(input_spec).__name__}")


def _other_static_methods(layer: Layer) -> dict:
    found: dict = {}
    for klass in reversed(type(layer).__mro__):
        for name, attr in vars(klass).items():
            if name != "forward" and isinstance(attr, StaticFunction):
                found[name] = attr
    return found


def _save_program(traced: StaticFunction, path: str, spec: list, configs: dict,
                  given: Any = None) -> None:
    """Trace ``traced`` with ``spec`` and write its inference program and parameters to
    ``path``; the feeds are pruned to the inputs ``given`` (jit.save's input_spec) names."""
    # Paddle traces the inference program in the layer's current modes (Python branches on
    # ``self.training`` stay as taken, e.g. AlphaDropout's), then switches the ops that have a
    # test form (dropout, batch_norm...) to it
    infer = _trace_mode(traced, spec, training=None)
    if _contains_dict(ast_runtime._unflatten(infer.skeleton, infer.leaves)):
        warnings.warn("paddle.jit.save: Found 'dict' in given outputs, the values will be returned "
                      "in a sequence sorted in lexicographical order by their keys.")
    keep = _kept_outputs(infer.outputs, configs.get("output_spec"))
    # an output returned again (a GRUCell's ``h, h``) is fetched once, as in Paddle's programs
    keep = [i for n, i in enumerate(keep) if all(infer.outputs[i] is not infer.outputs[j] for j in keep[:n])]
    fetch = [infer.outputs[i] for i in keep]
    feed_names = _inputs_to_keep(given, configs.get("input_names_after_prune"), infer.feed_names)
    if configs.get("skip_prune_program"):
        infer_prog = clone_program(infer.main_program, for_test=True)
    else:
        infer_prog = prune_program(infer.main_program, infer.inputs, fetch)
        used = {n for op in infer_prog.global_block().ops for n in op.input_names()}
        used |= {v.name for v in fetch}
        unused = [n for n in feed_names if n not in used]
        if unused:
            raise ValueError(f"paddle.jit.save: the input {unused[0]!r} is not used to compute the "
                             "outputs; remove it from input_spec (or from the saved outputs' inputs)")
        if len(feed_names) < len(infer.feed_names):
            # as Paddle's pruning, an input the outputs need stays a feed, named or not
            feed_names = [n for n in infer.feed_names if n in used]
            infer_prog = prune_program(infer.main_program,
                                       [v for v in infer.inputs if v.name in feed_names], fetch)
    infer_prog.__dict__["_feed_names"] = list(feed_names)
    infer_prog.__dict__["_fetch_names"] = [v.name for v in fetch]
    sources: dict[str, Tensor] = {}
    for v in infer_prog.global_block().vars.values():
        if v.source is None:
            continue
        other = sources.get(v.name)
        if other is not None and other is not v.source:
            raise ValueError(f"paddle.jit.save: two different tensors are both named {v.name!r}")
        sources[v.name] = v.source
        v.persistable = True
    names = sorted(sources)
    data = _program_dict(infer_prog)
    data["feed_names"] = list(feed_names)
    data["fetch_names"] = [v.name for v in fetch]
    data["jit"] = {
        "version": JIT_FORMAT_VERSION,
        "params": [{"name": n,
                    "trainable": isinstance(sources[n], Parameter) and not sources[n].stop_gradient,
                    "dtype": sources[n].dtype.name, "shape": list(sources[n].shape)} for n in names],
    }
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with atomic_open(path + ".json", "w") as f:
        json.dump(data, f)
    if names:  # (as Paddle, a program without parameters is saved without a .pdiparams file)
        write_pdiparams(path + ".pdiparams", [sources[n]._t.detach().cpu() for n in names])


def _contains_dict(out: Any) -> bool:
    """Whether a (nested) output structure holds a dict."""
    if isinstance(out, dict):
        return True
    return isinstance(out, (list, tuple)) and any(_contains_dict(o) for o in out)


def _kept_outputs(outputs: list, output_spec: Any, api: str = "paddle.jit.save") -> list[int]:
    """Positions of the outputs ``jit.save`` (or ``api``) keeps: all of them without
    ``output_spec`` or when it lists as many entries as there are outputs (as Paddle); else
    those it names by position (``int``) or by program value."""
    every = list(range(len(outputs)))
    if output_spec is None or len(output_spec) == len(outputs):
        return every
    keep = []
    for e in output_spec:
        if isinstance(e, Value) and any(e is v for v in outputs):
            keep.append(next(i for i, v in enumerate(outputs) if v is e))
        elif isinstance(e, int) and not isinstance(e, bool):
            if not -len(outputs) <= e < len(outputs):
                raise ValueError(f"{api}: output_spec position {e} is out of range for "
                                 f"{len(outputs)} outputs")
            keep.append(every[e])
        else:
            raise ValueError(f"{api}: output_spec entries must be output positions (int) "
                             f"or output values of the static program, but received "
                             f"{type(e).__name__}")
    return keep


# ---- loading -----------------------------------------------------------------------------
class TranslatedLayer(Layer):
    """A Layer rebuilt from files written by :func:`save`: no Python class needed.

    Its parameters are real Parameters (trainable ones receive gradients); ``forward``
    runs the saved inference program in both modes, as Paddle's (after ``.train()``
    gradients flow; dropout and batch norm keep their test forms).
    Called while another program is recorded (a ``to_static`` trace, ``jit.save`` of this
    layer or of a Layer holding it), it copies the saved program's ops into that program.

    Args:
        programs (dict): ``{'forward': {'infer': Program, 'feed_names': [...],
            'fetch_names': [...]}}``.
        persistable_vars (dict): ``{name: Parameter}``, the values the programs read.
    """

    def __init__(self, programs: dict, persistable_vars: dict) -> None:
        super().__init__()
        if not isinstance(programs, dict) or "forward" not in programs:
            raise ValueError("paddle.jit.TranslatedLayer: programs must be a dict with a 'forward' entry")
        self.__dict__["_programs"] = programs
        self.__dict__["_runners"] = {}
        for i, (name, p) in enumerate(sorted(persistable_vars.items())):
            self.add_parameter(f"param_{i}", p)
        for name in programs:
            if name != "forward":  # another saved to_static method of the Layer
                self.__dict__[name] = functools.partial(self._run_method, name)
        for holder in programs.values():
            for v in holder["infer"].global_block().vars.values():
                if v.persistable and v.name in persistable_vars:
                    v.source = persistable_vars[v.name]
        self.eval()

    def train(self, mode: bool = True) -> None:  # type: ignore[override]
        """Switch to training mode (gradients reach the parameters); returns None, as in Paddle."""
        Layer.train(self, mode)

    def eval(self) -> None:  # type: ignore[override]
        """Switch to evaluation mode (the inference program); returns None, as in Paddle."""
        Layer.train(self, False)

    def program(self, method_name: str = "forward") -> Program:
        """The inference program of ``method_name``."""
        return self._holder(method_name)["infer"]

    def _holder(self, method_name: str) -> dict:
        holder = self._programs.get(method_name)
        if holder is None:
            raise ValueError(f"paddle.jit.TranslatedLayer.program: no method named {method_name!r}; "
                             f"saved methods: {sorted(self._programs)}")
        return holder

    def _input_spec(self, method_name: str = "forward") -> list:
        """InputSpecs of the saved inputs of ``method_name`` (names, shapes, dtypes)."""
        from pagaie.static.input_spec import InputSpec
        gb = self.program(method_name).global_block()
        return [InputSpec(list(v.shape), v.dtype, v.name)
                for v in (gb.var(n) for n in self._programs[method_name]["feed_names"])]

    def _output_spec(self, method_name: str = "forward") -> list:
        """InputSpecs describing the outputs of ``method_name`` (named ``output_<i>``)."""
        from pagaie.static.input_spec import InputSpec
        values = _fetch_values(self._holder(method_name))
        return [InputSpec(list(v.shape), v.dtype, f"output_{i}") for i, v in enumerate(values)]

    def _runner(self, holder: dict) -> tuple:
        hit = self._runners.get(id(holder))
        if hit is None:
            runner = make_runner(holder["infer"], holder["feed_names"], _fetch_values(holder), None)
            hit = (runner, holder["feed_names"])
            self._runners[id(holder)] = hit
        return hit

    def forward(self, *inputs: Any) -> Any:
        return self._run_method("forward", *inputs)

    def _run_method(self, method_name: str, *inputs: Any) -> Any:
        holder = self._programs[method_name]
        feed_names = holder["feed_names"]
        for x in inputs:
            if not isinstance(x, (Tensor, np.ndarray)):
                raise TypeError(f"paddle.jit.TranslatedLayer: the inputs of {method_name} must be "
                                f"Tensors or numpy arrays, but received {type(x).__name__}")
        if len(inputs) != len(feed_names):
            raise ValueError(f"paddle.jit.TranslatedLayer: {method_name} takes {len(feed_names)} inputs "
                             f"({feed_names}), but received {len(inputs)}")
        rec = active_recorder() or current_recorder()
        if rec is not None:
            # called while another program is recorded (a to_static trace, jit.save of this
            # layer or of a Layer holding it, static mode): its ops join that program
            outs = _inline(rec, holder, list(inputs))
            return outs[0] if len(outs) == 1 else outs
        runner, feed_names = self._runner(holder)
        if self.training:
            outs = _zero_grads_for_all(run_program(runner, feed_names, list(inputs)), self.parameters())
        else:
            # Paddle's inference program has no backward: nothing reaches the parameters
            # or the inputs in eval mode
            with torch.no_grad():
                outs = run_program(runner, feed_names, list(inputs))
        # Paddle's outputs say what the saved program's values say (a comparison's, a shape's
        # or a constant's stop gradients, whatever the inputs); a program written by Paddle
        # itself does not carry that here: its outputs say stop_gradient=False
        stops = holder.get("fetch_stop_gradient") or [False] * len(outs)
        for o, stop in zip(outs, stops):
            if not isinstance(o, Tensor):
                continue
            if stop:
                o.stop_gradient = True
            elif o.stop_gradient:
                flag_grad(o._t, carried=True)
        return outs[0] if len(outs) == 1 else outs


# attributes of control-flow ops (pagaie.cond / while / pylayer) that hold value names
_VALUE_NAME_ATTRS = frozenset({"true_outputs", "false_outputs", "loop_vars", "body_outputs",
                               "cond_output", "captured", "forward_inputs", "forward_outputs",
                               "backward_inputs", "backward_outputs"})


def _fetch_values(holder: dict) -> list:
    """The values a loaded method returns."""
    return holder.get("fetch_values") or [holder["infer"].global_block().var(n) for n in holder["fetch_names"]]


def _inline(rec: Any, holder: dict, inputs: list) -> list:
    """Copy a loaded program's ops into the program ``rec`` records: the feeds become
    ``inputs``, the persistable values read this layer's parameters, the other values (and
    the control-flow blocks) are renamed where their names are taken; returns the fetches."""
    src = holder["infer"]
    fetch = _fetch_values(holder)
    target, here = rec.program, rec.block
    blocks = {0: here}
    for b in src.blocks[1:]:
        blocks[b.idx] = target.create_block(blocks[b.parent_idx].idx)
    feeds = dict(zip(holder["feed_names"], inputs))
    values: dict[int, Value] = {}
    names: dict[str, str] = {}
    for b in src.blocks:
        for v in b.vars.values():
            if b.idx == 0 and v.name in feeds:
                nv = _to_values(here, feeds[v.name])
            elif v.persistable and v.source is not None:
                nv = capture(here, v.source)
            else:
                taken = any(v.name in tb.vars for tb in target.blocks)
                nv = blocks[b.idx].create_var(target.unique_name(v.name) if taken else v.name,
                                              list(v.shape), v.dtype, v.stop_gradient)
            values[id(v)] = nv
            names[v.name] = getattr(nv, "name", v.name)

    def remap(x: Any) -> Any:
        return map_values(x, lambda v: values[id(v)])

    def rename(a: Any) -> Any:
        if isinstance(a, str):
            return names.get(a, a)
        if isinstance(a, (list, tuple)):
            return type(a)(rename(e) for e in a)
        return a

    for b in src.blocks:
        for op in b.ops:
            attrs = dict(op.attrs)
            for k, a in op.attrs.items():   # control-flow ops name their blocks and values
                if k in _VALUE_NAME_ATTRS:
                    attrs[k] = rename(a)
                elif k.endswith("_block") and isinstance(a, int):
                    attrs[k] = blocks[a].idx
            blocks[b.idx].append_op(op.type, remap(op.args), remap(op.kwargs), remap(op.outputs), attrs)
    return [values[id(v)] for v in fetch]


class _ZeroGrads(torch.autograd.Function):
    """Identity on ``out``; its backward also gives every parameter a zero gradient."""

    @staticmethod
    def forward(ctx: Any, out: torch.Tensor, *params: torch.Tensor) -> torch.Tensor:
        ctx.specs = [(p.shape, p.dtype, p.device) for p in params]
        return out.clone()

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple:
        return (grad, *[torch.zeros(s, dtype=d, device=v) for s, d, v in ctx.specs])


def _zero_grads_for_all(outs: list, params: list) -> list:
    """Paddle runs a loaded program's backward as one program: after ``backward()`` every
    trainable parameter has a gradient, zeros where the loss does not depend on it (an
    optimizer then also steps those: weight decay, momentum), not None."""
    trainable = [p._t for p in params if not p.stop_gradient and p._t.requires_grad]
    if not trainable or not torch.is_grad_enabled():
        return outs
    res = []
    for o in outs:
        if isinstance(o, Tensor) and o._t.requires_grad and o._t.dtype.is_floating_point:
            t = wrap(_ZeroGrads.apply(o._t, *trainable))
            t.stop_gradient = o.stop_gradient
            o = t
        res.append(o)
    return res


def _corrupt(path: str, what: str) -> ValueError:
    return ValueError(f"paddle.jit.load: {path!r} is not a valid saved model ({what})")


def _jit_section_of_inference_model(text: str) -> dict:
    """The ``jit`` section for a model written by ``paddle.static.save_inference_model``
    (inference program only): its persistable values, in the parameter file's (name) order,
    trainable unless they stop gradients."""
    prog = Program.from_json(text)
    values = sorted((v for v in prog.global_block().vars.values() if v.persistable and not v.is_data),
                    key=lambda v: v.name)
    return {"version": JIT_FORMAT_VERSION,
            "params": [{"name": v.name, "trainable": not v.stop_gradient, "dtype": v.dtype.name,
                        "shape": list(v.shape)} for v in values]}


def _load_paddle_program(raw: bytes, model_path: str, params_path: str, shared: dict) -> tuple[dict, dict]:
    """The program holder and new parameters of a program written by PaddlePaddle itself (PIR
    ``.json`` or legacy ``.pdmodel``): its ops translated to pagaie's, one program for both
    modes (Paddle's exported program is its inference form: dropout off and batch norm on its
    running statistics also after ``.train()``), gradients flowing to the trainable
    parameters. ``shared``: the parameters of the Layer's other methods, by Paddle name (a
    method reading one of them uses it)."""
    from pagaie._formats.paddle_program import load_program_file

    tensors = load_tensors(params_path) if os.path.exists(params_path) else []
    imported = load_program_file(raw, tensors, repr(model_path))
    persistable: dict[str, Parameter] = {}
    for n, p in imported.parameters.items():
        if n not in shared:
            persistable[n] = Parameter(p._t.detach().to(default_device()), trainable=bool(p.trainable),
                                      name=unique_name.generate(n))
    holder = {"infer": imported.program, "feed_names": list(imported.feed_names),
              "fetch_names": list(imported.fetch_names), "fetch_values": list(imported.fetch_values)}
    return holder, persistable


def _json_object(raw: bytes) -> dict | None:
    """``raw`` read as a JSON object, or None when it is not one."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _is_pir(data: dict) -> bool:
    """Whether the JSON object ``data`` is a PIR program written by PaddlePaddle (it has
    ``base_code.magic``)."""
    return isinstance(data.get("base_code"), dict) and data["base_code"].get("magic") == "pir"


def load(path: str, **configs: Any) -> TranslatedLayer:
    """Load what :func:`save` (or ``paddle.static.save_inference_model``) wrote as a
    :class:`TranslatedLayer`; models saved by PaddlePaddle itself (PIR ``path.json`` or
    legacy ``path.pdmodel``, with ``path.pdiparams``) load too.

    Args:
        path (str): the ``'dirname/file_prefix'`` given to ``save``.
        **configs: ``model_filename`` / ``params_filename``: the file names in the directory
            ``path`` (a model saved by ``static.save_inference_model``); ignored, with a warning,
            when ``path`` is a saved file prefix.

    Raises:
        ValueError: an unknown config, no saved model at ``path``, or both ``path.json`` and a
            directory ``path``.
        RuntimeError: a corrupt or truncated file, or parameters that do not fit the program.

    Returns:
        TranslatedLayer: evaluation mode; call ``.train()`` to fine-tune.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> path = os.path.join(tempfile.mkdtemp(), 'm')
        >>> paddle.jit.save(paddle.nn.Linear(2, 2), path, [paddle.static.InputSpec([None, 2])])
        >>> layer = paddle.jit.load(path)
        >>> layer(paddle.ones([1, 2])).shape
        paddle.Size([1, 2])
    """
    if current_recorder() is not None:  # (an AssertionError, as Paddle's dygraph-only check)
        raise AssertionError("paddle.jit.load: loading works in dynamic graph mode only; call "
                             "paddle.disable_static() first")
    path = _check_path(path, "load")
    model, params = _load_filenames(path, configs)
    model_path = os.path.join(path, model) if model else path + ".json"
    params_path = os.path.join(path, params) if params else path + ".pdiparams"
    if not model and not os.path.exists(model_path) and os.path.exists(path + ".pdmodel"):
        model_path = path + ".pdmodel"  # a legacy program written by PaddlePaddle
    if not os.path.exists(model_path):
        raise ValueError(f"paddle.jit.load: the model file {model_path!r} does not exist")
    try:
        return _read_model(path, model, model_path, params_path)
    except ValueError as exc:   # a corrupt or unreadable file: Paddle's readers raise RuntimeError
        raise RuntimeError(str(exc)) from None


def _read_model(path: str, model: str | None, model_path: str, params_path: str) -> TranslatedLayer:
    """:func:`load` of the files found (ValueError where one is corrupt): the model and the
    Layer's other ``to_static`` methods, saved as ``<path>.<method>.json``."""
    with open(model_path, "rb") as f:
        raw = f.read()
    if raw.lstrip()[:1] != b"{":   # a legacy program written by PaddlePaddle
        holder, persistable = _load_paddle_program(raw, model_path, params_path, {})
        return TranslatedLayer({"forward": holder}, persistable)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _corrupt(model_path, f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _corrupt(model_path, "not a program")
    paddle_written = _is_pir(data)
    if paddle_written:
        holder, persistable = _load_paddle_program(raw, model_path, params_path, {})
    else:
        holder, persistable = _load_pagaie(raw, data, model_path, params_path, {})
    methods = {"forward": holder}
    d, base = os.path.split(path)
    if not model:
        for f in sorted(os.listdir(d or ".")):
            name = f[len(base) + 1:-len(".json")] if f.startswith(base + ".") and f.endswith(".json") else ""
            if not name.isidentifier() or name == "forward":
                continue
            mp, mparams = os.path.join(d, f), f"{path}.{name}.pdiparams"
            with open(mp, "rb") as fh:
                mraw = fh.read()
            mdata = _json_object(mraw)
            if mdata is None:
                continue
            if paddle_written:
                if not _is_pir(mdata):
                    continue
                methods[name], more = _load_paddle_program(mraw, mp, mparams, persistable)
            elif isinstance(mdata.get("jit"), dict):
                methods[name], more = _load_pagaie(mraw, mdata, mp, mparams, persistable)
            else:
                continue
            persistable.update(more)
    return TranslatedLayer(methods, persistable)


def _load_filenames(path: str, configs: dict) -> tuple:
    """``model_filename`` / ``params_filename`` of ``jit.load``'s configs, checked as Paddle
    checks them: they name files in the directory ``path`` and are ignored (with a warning)
    when ``path`` is a saved file prefix."""
    for key, value in configs.items():
        if key not in ("model_filename", "params_filename"):
            raise ValueError(f"paddle.jit.load: the additional config ({key}) of `paddle.jit.load` "
                             "is not supported")
        if value is not None and not isinstance(value, str):
            raise TypeError(f"paddle.jit.load: the config {key} must be a str, but received "
                            f"{type(value).__name__}")
        if value == "":
            raise ValueError(f"paddle.jit.load: the config {key} is an empty string")
    prefix = any(os.path.exists(path + suffix) for suffix in (".json", ".pdmodel"))
    if prefix and os.path.isdir(path):
        raise ValueError(f"paddle.jit.load: both the saved model {path!r}.json and the directory "
                         f"{path!r} exist; make the path name one of them")
    if not prefix:
        return configs.get("model_filename"), configs.get("params_filename")
    for key in ("model_filename", "params_filename"):
        if configs.get(key) is not None:
            warnings.warn(f"paddle.jit.load: {path!r} is a saved file prefix, so the {key} config "
                          "does not take effect")
    return None, None


def _load_pagaie(raw: bytes, data: dict, model_path: str, params_path: str, shared: dict) -> tuple:
    """The holder of one program file written by :func:`save` and its parameters (those named
    in ``shared`` are shared, as a Layer's methods share them)."""
    jit = data.get("jit")
    if jit is None and isinstance(data.get("feed_names"), list) and isinstance(data.get("fetch_names"), list):
        jit = _jit_section_of_inference_model(raw.decode("utf-8"))
    if not isinstance(jit, dict) or not isinstance(jit.get("version"), int):
        raise _corrupt(model_path, "no 'jit' section")
    if jit["version"] > JIT_FORMAT_VERSION or data.get("version", 0) > FORMAT_VERSION:
        raise ValueError(f"paddle.jit.load: {model_path!r} was written by a newer pagaie (format "
                         f"{data.get('version')}/{jit['version']}; this one reads up to "
                         f"{FORMAT_VERSION}/{JIT_FORMAT_VERSION}); upgrade pagaie")
    infer = Program.from_json(raw.decode("utf-8"))
    try:
        feed_names = list(data["feed_names"])
        fetch_names = list(data["fetch_names"])
        entries = list(jit["params"])
        names = [e["name"] for e in entries]
        trainable = {e["name"]: bool(e["trainable"]) for e in entries}
    except (KeyError, TypeError) as exc:
        raise _corrupt(model_path, f"{type(exc).__name__}: {exc}") from None
    gb = infer.global_block()
    for n in feed_names + fetch_names:
        if not gb.has_var(n):
            raise _corrupt(model_path, f"the program has no variable {n!r}")
    tensors: list[torch.Tensor] = []
    if names:
        if not os.path.exists(params_path):
            raise ValueError(f"paddle.jit.load: the parameter file {params_path!r} does not exist")
        tensors = load_tensors(params_path)
        if len(tensors) != len(names):
            raise ValueError(f"paddle.jit.load: {params_path!r} holds {len(tensors)} tensors, but the "
                             f"program needs {len(names)}")
    persistable: dict[str, Parameter] = {}
    for e, t in zip(entries, tensors):
        n = e["name"]
        if list(t.shape) != list(e["shape"]):
            raise ValueError(f"paddle.jit.load: parameter {n!r} has shape {list(t.shape)} in "
                             f"{params_path!r}, but the program expects {e['shape']}")
        if infer.global_block().has_var(n):
            v = infer.global_block().var(n)
            if v._t.dtype != t.dtype:
                raise ValueError(f"paddle.jit.load: parameter {n!r} has dtype {t.dtype} in the "
                                 f"parameter file, but the program expects {v.dtype.name}")
        # as Paddle, a loaded parameter's name is a new unique name: <saved name>_<n>
        p = shared[n] if n in shared else Parameter(t.to(default_device()), trainable=trainable[n],
                                                    name=unique_name.generate(n))
        persistable[n] = p
    for v in infer.global_block().vars.values():
        if v.persistable and not v.is_data and v.name not in persistable and v.op is None:
            raise _corrupt(model_path, f"no saved value for persistable {v.name!r}")
    holder = {"infer": infer, "feed_names": feed_names, "fetch_names": fetch_names,
              "fetch_stop_gradient": [infer.global_block().var(n).stop_gradient for n in fetch_names]}
    return holder, persistable

