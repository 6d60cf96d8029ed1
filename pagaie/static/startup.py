"""Parameter initialisation through the startup program, as Paddle's static graphs do it.

In Paddle a parameter created while a static program is being built gets no value: its
initializer appends an op (``uniform``, ``gaussian``, ``full``...) to the startup program, and
the values are drawn when ``exe.run(startup)`` runs those ops, in the order the parameters
were created. A random initializer whose own seed is 0 adopts the startup program's
``random_seed`` at that moment (and keeps it); an op with a non-zero seed draws from a fresh
engine seeded with it on every run (so parameters of one shape get the same values, and
running the startup program again gives them again), one with seed 0 from the global
stream where it stands when the startup program runs (``paddle.seed`` between building and
running matters; a second run draws the next values).

pagaie records one graph op ``pagaie.init_param`` per parameter (its ``attrs`` hold the
initializer, its seed fixed) and runs the initializer on the parameter's tensor when the
startup program runs. Until then the parameter holds placeholder values: what the startup
program would draw if it ran at once (drawn from a copy of the global engine, so building
does not move the stream), which keeps a main program run without its startup program
working as before.
"""
from __future__ import annotations

import copy
from typing import Any

from pagaie._core.parameter import Parameter
from pagaie._core.random import default_generator, draws_discarded
from pagaie._core.registry import NoKernelError
from pagaie._core.mt64 import Engine
from pagaie._static.interpreter import register_graph_op
from pagaie._static.ir import ATTR_CODECS, Operator, Value
from pagaie.nn.initializer import initializer as _initializer

__all__ = ["INIT_OP", "OPTIMIZER_INIT_OP", "record_optimizer_state"]

INIT_OP = "pagaie.init_param"

# The engine placeholders are drawn from: a copy of the global CPU engine, re-taken whenever
# the global engine has moved or been re-seeded (a re-seed loads a new start tuple, so
# ``paddle.seed(s)`` twice is seen even though the state is the same) since the copy.
_SHADOW: dict[str, Any] = {"state": None, "start": None, "engine": None}


def _shadow_engine() -> Engine:
    import torch
    glob = default_generator(torch.device("cpu"))._engine
    state = glob.get_state()
    if _SHADOW["start"] is not glob.load_token or _SHADOW["state"] != state:
        _SHADOW.update(state=state, start=glob.load_token, engine=Engine(*state))
    return _SHADOW["engine"]


def _defer(init: Any, param: Any, block: Any) -> bool:
    """Record ``init(param)`` into the startup program when a static program is being built
    and ``param`` is a parameter being created; returns whether it did."""
    from pagaie.static import framework as _fw
    if not _fw._S.enabled or not isinstance(param, Parameter) or isinstance(param, Value):
        return False
    startup = _fw.default_startup_program()
    sb = startup.global_block()
    name = param.name
    if name in sb.vars or id(param) in _fw.default_main_program().__dict__.get("_captured", {}):
        return False   # an existing parameter: an explicit re-initialisation fills it now
    if type(init).forward is not _initializer.Initializer.forward:
        # Paddle's static programs cannot run a user-defined forward either (its ops want
        # program Values, not the parameter): TypeError
        raise TypeError(f"paddle.nn.initializer: the user-defined {type(init).__name__}.forward "
                        "cannot fill a parameter while a static program is built")
    allowed = init._program_dtypes
    if allowed is not None and param._t.dtype not in allowed:
        names = ", ".join(sorted(str(d).replace("torch.", "") for d in allowed))
        raise TypeError(f"paddle.nn.initializer.{type(init).__name__}: a parameter of dtype "
                        f"{str(param._t.dtype).replace('torch.', '')} is not supported in a static "
                        f"program (it takes {names})")
    init._take_program_seed(startup.random_seed)
    frozen = copy.copy(init)      # the op keeps the seed it was recorded with
    try:
        with draws_discarded(_shadow_engine()):
            frozen._fill_param(param)
    except NoKernelError as err:   # Paddle's build-time dtype check refuses it
        raise err.static_type(str(err)) from None
    v = sb.create_var(name, list(param._t.shape), param.dtype, stop_gradient=param.stop_gradient,
                      persistable=True)
    v.source = param
    sb.append_op(INIT_OP, [v], {}, None, {"initializer": frozen})
    return True


_initializer._DEFER[:] = [_defer]


def _init_to_json(init: Any) -> dict:
    """An initializer as JSON: its class (a pagaie.nn.initializer one) and its fields, arrays
    and tensors as nested lists with their dtype."""
    import numpy as np
    from pagaie._core.tensor import Tensor

    def enc(x: Any) -> Any:
        if isinstance(x, Tensor):
            x = x.numpy()
        if isinstance(x, np.ndarray):
            return {"$array": [x.tolist(), x.dtype.name]}
        if isinstance(x, (list, tuple)):
            return [enc(e) for e in x]
        if isinstance(x, np.generic):
            return x.item()
        return x
    return {"class": type(init).__name__, "state": {k: enc(v) for k, v in vars(init).items()}}


def _init_from_json(data: dict) -> Any:
    import numpy as np
    import pagaie.nn.initializer as _inits
    cls = getattr(_inits, data["class"], None)
    if not (isinstance(cls, type) and issubclass(cls, _initializer.Initializer)):
        raise ValueError(f"paddle.static: unknown initializer {data['class']!r} in a startup program")

    def dec(x: Any) -> Any:
        if isinstance(x, dict) and "$array" in x:
            return np.asarray(x["$array"][0], dtype=x["$array"][1])
        if isinstance(x, list):
            return [dec(e) for e in x]
        return x
    init = cls.__new__(cls)
    init.__dict__.update({k: dec(v) for k, v in data["state"].items()})
    return init


ATTR_CODECS["initializer"] = (_initializer.Initializer, _init_to_json, _init_from_json)


@register_graph_op(INIT_OP, side_effect=True)
def _run_init(op: Operator, args: list, kwargs: dict, plan: Any) -> None:
    param = op.args[0].source
    op.attrs["initializer"]._fill_param(param)
    return None


# Paddle's ``minimize`` also fills the optimizer's accumulators (moments, beta powers...) in
# the startup program: running it again restarts the optimizer state with the parameters.
OPTIMIZER_INIT_OP = "pagaie.init_optimizer_state"


def record_optimizer_state(optimizer: Any, params: list, startup: Any) -> None:
    """Append to ``startup`` an op that puts the accumulators of ``params`` (already created)
    back to their initial values: a constant fill where the value is one number, else a copy."""
    names = {p.name for p in params}
    names |= {optimizer._master_weights[n].name for n in list(names) if n in optimizer._master_weights}
    state = []
    for holder in optimizer._accumulators.values():
        for pname, acc in holder.items():
            if pname in names:
                t = acc._t.detach()
                flat = t.reshape(-1)
                const = flat.numel() > 0 and bool((flat == flat[0]).all())
                state.append((acc, flat[0].item() if const else t.clone()))
    if state:
        startup.global_block().append_op(OPTIMIZER_INIT_OP, [], {}, None,
                                         {"optimizer": optimizer, "state": _InitialState(state)})


class _InitialState(list):
    """(accumulator, initial value) pairs; printed as the accumulators' names."""

    def __repr__(self) -> str:
        return "[" + ", ".join(acc.name for acc, _ in self) + "]"


@register_graph_op(OPTIMIZER_INIT_OP, side_effect=True)
def _run_optimizer_init(op: Operator, args: list, kwargs: dict, plan: Any) -> None:
    import torch
    with torch.no_grad():
        for acc, init in op.attrs["state"]:
            if isinstance(init, torch.Tensor):
                acc._t.copy_(init)
            else:
                acc._t.fill_(init)
    return None
