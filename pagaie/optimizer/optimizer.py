"""The optimizer shell shared by every algorithm in ``paddle.optimizer``.

``Optimizer`` owns what all algorithms have in common: the parameter list or parameter
groups, the learning rate (a float or an ``LRScheduler``), weight decay (an ``L1Decay`` /
``L2Decay`` regularizer; a parameter's own ``regularizer`` wins), gradient clipping, the
per-parameter accumulators (named as Paddle names them, e.g. ``linear_0.w_0_moment1_0``)
and the state dict. An algorithm only says which accumulators one parameter needs
(``_init_state``) and how a group of parameters is updated (``_update`` over torch
tensors, in place, under ``torch.no_grad``).

Gradient clipping interface: ``grad_clip`` is any ``paddle.nn.ClipGradBy*`` object, called
as ``grad_clip([(param, grad), ...])`` and returning the list of ``(param, new_grad)``.
"""
from __future__ import annotations

import logging
import warnings
from collections import defaultdict
from typing import Any, Sequence

import numpy as np
import torch

from pagaie._core.tensor import Tensor, as_torch, wrap
from pagaie._ops._helpers import dtype_name
from pagaie.optimizer.lr import LRScheduler
from pagaie.regularizer import L1Decay, L2Decay, WeightDecayRegularizer

__all__ = ["Optimizer"]

_LOW_PRECISION = (torch.float16, torch.bfloat16)


def _unique_name(key: str) -> str:
    from pagaie.utils import unique_name
    return unique_name.generate(key)


def _to_torch_value(value: Any) -> torch.Tensor:
    if isinstance(value, (Tensor, torch.Tensor)):
        return as_torch(value).detach()
    return torch.as_tensor(np.asarray(value))


def _loaded_value(value: Any, var_name: str, shape: torch.Size, dtype: torch.dtype | None = None) -> torch.Tensor:
    """A loaded accumulator value as a torch tensor of ``shape`` (Paddle's ``set_value``
    accepts the same number of elements only when the shapes agree). With ``dtype`` (the
    accumulator's), the value must be a Tensor or a numpy array of that dtype, as Paddle's
    ``set_value`` asserts; a numpy uint16 array holds a bfloat16 state's bit patterns."""
    if dtype is not None:
        if not isinstance(value, (Tensor, torch.Tensor, np.ndarray)):
            raise AssertionError(f"paddle.optimizer.Optimizer.set_state_dict: the value of {var_name!r} "
                                 f"should be a Tensor or a numpy array, but received {type(value).__name__}")
    t = _to_torch_value(value)
    if dtype is not None and t.dtype != dtype:
        if dtype == torch.bfloat16 and t.dtype == torch.uint16 and isinstance(value, np.ndarray):
            t = t.view(torch.bfloat16)   # how a bfloat16 state comes out of .numpy()
        else:
            raise AssertionError(f"paddle.optimizer.Optimizer.set_state_dict: the dtype of {var_name!r} "
                                 f"should be {str(dtype).replace('torch.', '')}, but the state dict "
                                 f"holds {dtype_name(t)}")
    if tuple(t.shape) != tuple(shape):
        if t.numel() == 1 and len(shape) <= 1 and (not shape or shape[0] == 1):
            return t.reshape(shape)  # a 0-D and a [1] scalar state are interchangeable
        raise AssertionError(f"paddle.optimizer.Optimizer.set_state_dict: the shape of {var_name!r} "
                             f"should be {list(shape)}, but the state dict holds shape {list(t.shape)}")
    return t


# The attribute marking a parameter whose gradients Paddle keeps row-sparse (SelectedRows):
# the weight of an Embedding(sparse=True). pagaie's gradients are dense; optimizers that refuse
# sparse gradients in some configuration read the mark.
SPARSE_GRAD = "_pagaie_sparse_grad"


def _check_grad_clip(grad_clip: Any) -> None:
    if grad_clip is None:
        return
    base = None
    try:
        from pagaie.nn import clip as _clip
        base = getattr(_clip, "ClipGradBase", None) or getattr(_clip, "GradientClipBase", None)
    except ImportError:
        pass
    ok = isinstance(grad_clip, base) if base is not None else callable(grad_clip)
    if not ok:
        raise TypeError("paddle.optimizer: 'grad_clip' should be an instance of GradientClipBase's "
                        f"derived class, but received {type(grad_clip).__name__}")


def _update_passes(params: list) -> list[list[int]]:
    """Indices of ``params`` in update passes. Paddle runs one update per entry of its list, so
    a parameter listed twice is updated twice, the second time from the state the first left;
    the rules here update a pass's tensors together, so the k-th entry of a parameter goes to
    the k-th pass."""
    seen: dict[int, int] = {}
    passes: list[list[int]] = []
    for i, p in enumerate(params):
        k = seen.get(id(p), 0)
        seen[id(p)] = k + 1
        if k == len(passes):
            passes.append([])
        passes[k].append(i)
    return passes


class Optimizer:
    r"""Base class of the optimizers: holds parameters, learning rate, weight decay,
    gradient clipping and the optimizer state. Use a subclass such as
    :class:`pagaie.optimizer.SGD` or :class:`pagaie.optimizer.Adam`.

    Args:
        learning_rate (float|LRScheduler): the learning rate, or a scheduler that gives it.
        parameters (list|tuple|None): the Tensors to update, or a list of dicts (parameter
            groups) each with ``'params'`` and optional per-group options such as
            ``'learning_rate'`` (a scale of the base learning rate) and ``'weight_decay'``.
        weight_decay (float|L1Decay|L2Decay|None, optional): regularization; a float means
            ``L2Decay(float)``. A parameter's own ``regularizer`` overrides it. Default None.
        grad_clip (ClipGradBase|None, optional): gradient clipping, e.g.
            ``paddle.nn.ClipGradByGlobalNorm``. Default None.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0, 2.0]), name="doc_opt_w")
        >>> opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w])
        >>> paddle.multiply(w, paddle.to_tensor([1.0, 1.0])).backward(paddle.to_tensor([1.0, -1.0]))
        >>> opt.step()
        >>> w.tolist()
        [0.5, 2.5]
        >>> opt.clear_grad()
        >>> w.grad.tolist()
        [0.0, 0.0]
    """

    # Names of the accumulators of one parameter, in creation order (subclasses).
    _acc_names: tuple[str, ...] = ()
    # Whether the update reads the learning rate (Rprop only uses it to fill its step sizes).
    _steps_with_lr = True

    def __init__(self, learning_rate: float | LRScheduler,
                 parameters: Sequence[Tensor] | Sequence[dict] | None = None,
                 weight_decay: float | WeightDecayRegularizer | None = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        from pagaie.static.framework import in_static_mode
        if parameters is None:
            if not in_static_mode():  # Paddle's own rule: static programs find their parameters
                raise AttributeError("paddle.optimizer: the 'parameters' argument given to the Optimizer "
                                     "should not be None in dynamic graph mode")
            parameters = []
        if isinstance(parameters, Tensor):
            raise TypeError("paddle.optimizer: 'parameters' should be an iterable of Tensors, "
                            f"but received {type(parameters).__name__}")
        if isinstance(parameters, dict):
            raise TypeError("paddle.optimizer: 'parameters' should not be a dict; to use parameter "
                            "groups, pass a list of dicts")
        self._parameter_list = list(parameters)
        if not self._parameter_list and weight_decay is not None and not in_static_mode():
            # Paddle looks at the first parameter (a Tensor or a group?) to apply a weight decay
            raise IndexError(f"paddle.optimizer.{type(self).__name__}: 'parameters' is empty, so "
                             f"the weight_decay {weight_decay} has nothing to apply to")
        self._name = name
        self.helper = None  # Paddle's static-graph layer helper; None in dynamic mode
        if weight_decay is not None and self._parameter_list and not isinstance(self._parameter_list[0], dict):
            _note_overridden_decay(self._parameter_list, weight_decay)
        if not isinstance(learning_rate, (float, LRScheduler)):
            raise TypeError("paddle.optimizer: learning rate should be float or LRScheduler, "
                            f"but received {type(learning_rate).__name__}")
        _check_grad_clip(grad_clip)
        if isinstance(weight_decay, bool):
            raise TypeError("paddle.optimizer: 'weight_decay' should be a float or a regularizer")
        if isinstance(weight_decay, (int, float)):
            weight_decay = L2Decay(float(weight_decay))
        self.regularization = weight_decay
        self._grad_clip = grad_clip
        self._learning_rate = learning_rate
        # the value of Paddle's learning-rate variable (see _global_lr); None before a step
        self._lr_value: float | None = None
        # the tensors behind the programs' fetched ``learning_rate_<n>`` variables, by name;
        # each program run writes the rate it uses into them
        self._lr_holders: dict[str, Tensor] = {}
        self._dtype = None
        self._grouped = bool(self._parameter_list) and isinstance(self._parameter_list[0], dict)
        if self._parameter_list:
            if self._grouped:
                for group in self._parameter_list:
                    # as Paddle, which asks each entry for 'params': a value that cannot be
                    # asked (an int) is a TypeError, any other non-group an AssertionError
                    if not isinstance(group, dict) and not hasattr(group, "__contains__") \
                            and not hasattr(group, "__iter__"):
                        raise TypeError("paddle.optimizer: 'parameters' mixes parameter groups (dicts) "
                                        f"with other values; received a {type(group).__name__} "
                                        "after a dict")
                    if not isinstance(group, dict):
                        raise AssertionError("paddle.optimizer: 'parameters' mixes parameter groups "
                                             "(dicts) with other values; each group must be a dict "
                                             f"with a 'params' entry, but received a {type(group).__name__}")
                    if "params" not in group:
                        raise AssertionError("paddle.optimizer: each parameter group needs a 'params' "
                                             f"entry, but received a group with keys {sorted(group)}")
        self._accumulators: dict[str, dict[str, Tensor]] = defaultdict(dict)
        self._accumulators_holder: dict[str, Any] = {}
        self._opti_name_list: list[str] = []
        self._already_create_accumulator: set[str] = set()
        self._master_weights: dict[str, Tensor] = {}
        self._multi_precision = False
        self._state: dict[int, dict[str, torch.Tensor]] = {}
        self._creating_param_dtype: torch.dtype | None = None
        self._auxiliary_vars: dict[str, Any] = {}
        self.clear_gradients = self.clear_grad
        self._default_dict: dict[str, Any] = {"weight_decay": self.regularization, "grad_clip": grad_clip}
        self._param_groups: list = []
        if self._grouped:
            for group in self._parameter_list:
                self._add_param_group(dict(group))
        else:
            self._param_groups = self._parameter_list
        # the first parameter's dtype (read after the groups turned their 'params' into lists,
        # so that an iterator given as a group's 'params' is consumed only once)
        first = self._param_groups[0]["params"] if self._grouped else self._parameter_list
        if self._grouped and not first:  # Paddle reads the first group's first parameter dtype
            raise IndexError(f"paddle.optimizer.{type(self).__name__}: the first parameter group "
                             "has no parameters")
        if first:
            self._dtype = first[0].dtype
        self._use_fusion_storage = False
        self._need_refuse = False
        self.fusion_storage = None
        self._fuse_buffer_version = 0
        self.merged_model_params = None

    # ---- parameter groups -----------------------------------------------------------
    def _add_param_group(self, param_group: dict) -> None:
        if "params" not in param_group:
            raise AssertionError("paddle.optimizer: each parameter group needs a 'params' entry, "
                                 f"but received a group with keys {sorted(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("paddle.optimizer: parameters should be in an ordered collection, "
                            "but received a set; use a list instead")
        else:
            param_group["params"] = list(params)
        for k, v in self._default_dict.items():
            param_group.setdefault(k, v)
        seen: set[int] = {id(p) for g in self._param_groups for p in g["params"]}
        if any(id(p) in seen for p in param_group["params"]):
            raise ValueError("paddle.optimizer: some parameters appear in more than one parameter group")
        self._bind_group_options(param_group)
        self._param_groups.append(param_group)

    def _bind_group_options(self, param_group: dict) -> None:
        """Paddle records a group's weight decay and learning-rate scale on its parameters."""
        decay = param_group["weight_decay"]
        reg = L2Decay(decay) if isinstance(decay, float) else decay
        for p in param_group["params"]:
            p.regularizer = reg
            self._optimize_attr(p)["learning_rate"] = param_group.get("learning_rate", 1.0)

    @staticmethod
    def _optimize_attr(p: Tensor) -> dict:
        attr = getattr(p, "optimize_attr", None)
        if attr is None:
            attr = {"learning_rate": 1.0}
            p.optimize_attr = attr
        return attr

    def _group_hparams(self, group: dict | None) -> dict:
        if group is None:
            return self._default_dict
        hp = dict(self._default_dict)
        hp.update((k, v) for k, v in group.items() if k != "params")
        return hp

    # ---- learning rate --------------------------------------------------------------
    def get_lr(self) -> float:
        """The current learning rate (the scheduler's value when one is used).

        Returns:
            float: the learning rate.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_get_lr_w")
            >>> sched = paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=2, gamma=0.1)
            >>> opt = paddle.optimizer.SGD(sched, parameters=[w])
            >>> opt.get_lr()
            0.5
        """
        lr = self._learning_rate
        return lr if isinstance(lr, float) else lr()

    def set_lr(self, value: float) -> None:
        """Set a float learning rate by hand (not allowed when a scheduler is used).

        Args:
            value (float): the new learning rate.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_set_lr_w")
            >>> opt = paddle.optimizer.Adam(0.1, parameters=[w])
            >>> opt.set_lr(0.2)
            >>> opt.get_lr()
            0.2
        """
        _dynamic_only("set_lr")
        self._assign_lr(value)

    def _assign_lr(self, value: float) -> None:
        """``set_lr`` without its dynamic-mode check (loading a program's state sets the rate)."""
        if not isinstance(value, (int, float)):  # a bool is an int to Paddle too
            raise TypeError("paddle.optimizer.Optimizer.set_lr: 'value' must be a float, "
                            f"but received {type(value).__name__}")
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError("paddle.optimizer.Optimizer.set_lr: the learning rate is an LRScheduler; "
                               "setting a float would conflict with it")
        self._learning_rate = float(value)
        if self._lr_value is not None:
            self._lr_value = float(value)

    def set_lr_scheduler(self, scheduler: LRScheduler) -> None:
        """Replace the learning rate by ``scheduler``.

        Args:
            scheduler (LRScheduler): the new scheduler.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_set_sched_w")
            >>> opt = paddle.optimizer.Adam(0.1, parameters=[w])
            >>> opt.set_lr_scheduler(paddle.optimizer.lr.StepDecay(learning_rate=0.5, step_size=5))
            >>> opt.get_lr()
            0.5
        """
        _dynamic_only("set_lr_scheduler")
        if not isinstance(scheduler, LRScheduler):
            raise TypeError("paddle.optimizer.Optimizer.set_lr_scheduler: 'scheduler' must be an "
                            f"LRScheduler, but received {type(scheduler).__name__}")
        self._learning_rate = scheduler

    def _global_lr(self) -> float:
        """The learning rate the update uses. Paddle keeps it in a variable made at the first
        step; a scheduler's value is written into it at every step and ``set_lr`` writes its
        own, but a float later put in ``_learning_rate`` (hapi's ReduceLROnPlateau does that)
        only shows in ``get_lr()``: the steps keep the variable's value."""
        if self._lr_value is None or isinstance(self._learning_rate, LRScheduler):
            self._lr_value = self.get_lr()
        return self._lr_value

    def _global_learning_rate(self, program: Any = None) -> Any:
        """Paddle's learning-rate variable: the rate the last step used (a 0-D float32
        Tensor), None before the first step. While a program is built, the program's
        persistable ``learning_rate_<n>`` variable once :meth:`minimize` added the step
        (fetching it gives the rate of that run), else None.

        Args:
            program (Program|None, optional): the program whose variable to return (static
                mode). Default None: the default main program.

        Returns:
            Tensor|Variable|None: the learning-rate variable.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_glr_w")
            >>> opt = paddle.optimizer.SGD(0.5, parameters=[w])
            >>> opt._global_learning_rate() is None
            True
            >>> (w * 2.0).sum().backward()
            >>> opt.step()
            >>> opt._global_learning_rate().item()
            0.5
        """
        from pagaie.static.framework import default_main_program, in_static_mode
        if program is None and not in_static_mode():
            if self._lr_value is None:
                return None
            return Tensor(torch.tensor(self._lr_value, dtype=torch.float32))
        program = program or default_main_program()
        step = next((op for op in program.global_block().ops if op.type == "pagaie.optimizer_step"
                     and op.attrs.get("optimizer") is self and "lr_name" in op.attrs), None)
        if step is None:
            return None
        from pagaie._static.recorder import capture
        holder = self._lr_holders.get(step.attrs["lr_name"])
        if holder is None:
            holder = Tensor(torch.tensor(self._static_lr_value, dtype=torch.float32),
                            name=step.attrs["lr_name"])
            holder.persistable = True
            self._lr_holders[holder.name] = holder
        return capture(program.global_block(), holder)

    # ---- accumulators ---------------------------------------------------------------
    def _add_accumulator(self, name: str, param: Tensor, dtype: Any = None, fill_value: float = 0.0,
                         shape: Sequence[int] | None = None, type: Any = None, device: Any = None) -> Tensor:
        """Create (or return) the accumulator ``name`` of ``param``, named as Paddle names it."""
        if self._name is not None:
            name = f"{self._name}_{name}"
        existing = self._accumulators.get(name, {}).get(param.name)
        if existing is not None:
            return existing
        var_name = _unique_name(f"{param.name}_{name}")
        self._opti_name_list.append(var_name)
        pt = param._t
        if dtype is None:
            tdtype = pt.dtype
        elif isinstance(dtype, torch.dtype):
            tdtype = dtype
        else:
            from pagaie._core.dtype import to_torch_dtype
            tdtype = to_torch_dtype(dtype)
        dev = pt.device if device is None else torch.device(device)
        fill_value = float(fill_value)  # as Paddle: a str is a ValueError, a Tensor gives its value
        t = torch.full(list(pt.shape) if shape is None else list(shape), fill_value, dtype=tdtype, device=dev)
        if self._accumulators_holder:
            key = self._holder_key(var_name, param.name, name)
            if key is None:
                raise AssertionError(f"paddle.optimizer: the loaded state dict has no entry {var_name!r} "
                                     f"(accumulator {name!r} of parameter {param.name!r})")
            value = _loaded_value(self._accumulators_holder.pop(key), var_name, t.shape, tdtype)
            t = value.to(dtype=tdtype, device=dev).clone()
        acc = Tensor(t, name=var_name)
        acc.persistable = True
        self._accumulators[name][param.name] = acc
        return acc

    def _holder_key(self, var_name: str, param_name: str, acc_name: str) -> str | None:
        """The loaded entry for an accumulator: its exact name, else the same parameter and
        accumulator with another unique-name suffix (e.g. a second optimizer in one process)."""
        if var_name in self._accumulators_holder:
            return var_name
        stem = f"{param_name}_{acc_name}_"
        for k in self._accumulators_holder:
            if k.startswith(stem) and k[len(stem):].isdigit():
                return k
        return None

    def _get_accumulator(self, name: str, param: Tensor) -> Tensor:
        if self._name is not None:
            name = f"{self._name}_{name}"
        try:
            return self._accumulators[name][param.name]
        except KeyError:
            raise KeyError(f"paddle.optimizer: accumulator {name!r} does not exist for parameter "
                           f"{param.name!r}") from None

    def _get_accumulator_master(self, name: str, param: Tensor) -> Tensor:
        target = self._master_weights.get(param.name) if self._use_master(param) else None
        return self._get_accumulator(name, target if target is not None else param)

    def _use_master(self, param: Tensor) -> bool:
        return self._multi_precision and param._t.dtype in _LOW_PRECISION

    def _create_master_weight(self, param: Tensor) -> Tensor:
        mw = self._master_weights.get(param.name)
        if mw is None:
            var_name = _unique_name(f"{param.name}_fp32_master")
            mw = Tensor(param._t.detach().float().clone(), name=var_name)
            mw.persistable = True
            self._master_weights[param.name] = mw
        return mw

    # What Paddle warns when a float16/bfloat16 parameter is updated without float32 master
    # weights (see _low_precision_note); None: no warning (Lamb).
    _low_precision_warning: str | None = None

    # Paddle keeps some algorithms' accumulators in the parameter's own dtype (float16 /
    # bfloat16 too: Momentum without master weights, Adagrad, Adadelta, RMSProp); the others
    # accumulate in float32 for low-precision parameters.
    _acc_in_param_dtype = False

    def _init_state(self, target: Tensor, hp: dict) -> None:
        """Create the accumulators of one parameter (default: zeros shaped like it)."""
        dt = target._t.dtype if self._acc_in_param_dtype else self._acc_dtype(target)
        for acc in self._acc_names:
            self._add_accumulator(acc, target, dtype=dt)

    @staticmethod
    def _acc_dtype(target: Tensor) -> torch.dtype:
        dt = target._t.dtype
        return torch.float32 if dt in _LOW_PRECISION else dt

    def _create_accumulators(self, params: Sequence[Tensor], hp: dict | None = None) -> None:
        hp = self._default_dict if hp is None else hp
        for p in params:
            if p.name in self._already_create_accumulator:
                continue
            target = self._create_master_weight(p) if self._use_master(p) else p
            warned = target is p and p._t.dtype in _LOW_PRECISION and self._low_precision_warning
            if warned:
                warnings.warn(self._low_precision_warning)
            self._creating_param_dtype = p._t.dtype  # the parameter's own dtype (not its master's)
            self._init_state(target, hp)
            if self._acc_names or not warned:
                # as in Paddle, a warned-about parameter with no state to create (SGD without
                # master weights) is looked at again at every step, and warned about again;
                # any other is looked at once (the step's hot path)
                self._already_create_accumulator.add(p.name)

    def _param_state(self, p: Tensor) -> dict[str, torch.Tensor]:
        """The accumulators of ``p`` as torch tensors, keyed by their short names."""
        st = self._state.get(id(p))
        if st is None:
            target = self._master_weights.get(p.name) if self._use_master(p) else None
            pname = (target if target is not None else p).name
            prefix = f"{self._name}_" if self._name is not None else ""
            st = {}
            for acc in self._acc_names:
                holder = self._accumulators.get(prefix + acc)
                if holder is not None and pname in holder:
                    st[acc] = holder[pname]._t
            self._state[id(p)] = st
        return st

    # ---- the step -------------------------------------------------------------------
    def step(self) -> None:
        """Update every parameter that has a gradient, once.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0, 1.0]), name="doc_step_w")
            >>> opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=[w])
            >>> paddle.multiply(w, paddle.to_tensor([2.0, 2.0])).backward(paddle.to_tensor([1.0, 1.0]))
            >>> opt.step()
            >>> [round(v, 6) for v in w.tolist()]
            [0.8, 0.8]
        """
        if not self._parameter_list:  # Paddle reads the first entry to tell Tensors from groups
            raise IndexError(f"paddle.optimizer.{type(self).__name__}.step: the optimizer has no "
                             "parameters")
        with torch.no_grad():
            if not self._grouped:
                pairs = [(p, p._t.grad) for p in self._param_groups
                         if p._t.requires_grad and p._t.grad is not None]
                self._apply_optimize(pairs, None)
            else:
                for group in self._param_groups:
                    pairs = [(p, p._t.grad) for p in group["params"]
                             if p._t.requires_grad and p._t.grad is not None]
                    self._apply_optimize(pairs, group)

    def _apply_optimize(self, pairs: list, group: dict | None) -> None:
        """Clip, regularize, create missing accumulators and run the update rule."""
        lr = self._global_lr()
        clip = self._grad_clip if group is None else group.get("grad_clip")
        if clip is not None and pairs:
            clipped = clip([(p, wrap(g)) for p, g in pairs])
            pairs = [(p, _param_shaped(p, as_torch(g))) for p, g in clipped if g is not None]
        pairs = self._regularize(pairs)
        if not pairs:
            return
        params = [p for p, _ in pairs]
        for p in params:
            if p._t.is_complex():  # Paddle registers its update kernels for real dtypes only
                raise RuntimeError(f"paddle.optimizer.{type(self).__name__}: the parameter '{p.name}' is "
                                   f"{dtype_name(p._t)}, but the update rules take real floating-point "
                                   "parameters only")
        hp = self._group_hparams(group)
        self._create_accumulators(params, hp)
        targets, grads, states, lrs = [], [], [], []
        masters = []
        for p, g in pairs:
            attr = getattr(p, "optimize_attr", None)
            scale = attr.get("learning_rate", 1.0) if attr else 1.0
            if isinstance(scale, Tensor):  # as in Paddle, a Tensor is the learning rate itself
                lrs.append(_scalar(scale))
            elif isinstance(scale, np.ndarray) and scale.size == 1:
                lrs.append(lr * float(scale.reshape(-1)[0]))
            elif not isinstance(scale, (int, float, np.number)):
                if self._steps_with_lr:
                    _bad_group_lr(p, scale)
                lrs.append(lr)
            else:
                lrs.append(lr * scale if scale != 1.0 else lr)
            if self._use_master(p):
                mw = self._master_weights[p.name]
                targets.append(mw._t)
                grads.append(g.float())
                masters.append((p, mw))
            else:
                targets.append(p._t)
                grads.append(g)
            states.append(self._param_state(p))
        # low-precision state only exists for float16/bfloat16 parameters
        low = any(p._t.dtype in _LOW_PRECISION for p in params) and any(
            v.dtype in _LOW_PRECISION for st in states for v in st.values())
        if low:
            # float16/bfloat16 accumulators: the rule computes in float32 (as Paddle's kernels
            # compute in their float32 "MPType") and the results are rounded back into them
            stored = states
            states = [{k: (v.float() if v.dtype in _LOW_PRECISION else v) for k, v in st.items()}
                      for st in stored]
        for idx in _update_passes(params):
            if len(idx) == len(params):
                self._update(targets, grads, states, lrs, hp, params)
            else:
                self._update(*([seq[i] for i in idx] for seq in (targets, grads, states, lrs)), hp,
                             [params[i] for i in idx])
        self._finish_update(states, hp)
        if low:
            for st, work in zip(stored, states):
                for k, v in st.items():
                    if work[k] is not v:
                        v.copy_(work[k])
        for p, mw in masters:
            p._t.copy_(mw._t)

    def _update(self, params: list[torch.Tensor], grads: list[torch.Tensor],
                states: list[dict[str, torch.Tensor]], lrs: list[float], hp: dict,
                tensors: list[Tensor]) -> None:
        """Apply the rule to a group: ``params`` are updated in place. Default: one by one."""
        for p, g, st, lr, t in zip(params, grads, states, lrs, tensors):
            self._update_one(p, g, st, lr, hp, t)

    def _finish_update(self, states: list[dict[str, torch.Tensor]], hp: dict) -> None:
        """Work Paddle does after every update of a step, once per entry (default: none)."""

    def _update_one(self, p: torch.Tensor, g: torch.Tensor, state: dict[str, torch.Tensor],
                    lr: float, hp: dict, param: Tensor) -> None:
        raise NotImplementedError('paddle.optimizer: class "Optimizer" cannot be used directly as an '
                                  'optimizer; use a subclass such as "Adam"')

    # ---- regularization -------------------------------------------------------------
    def _regularizer_of(self, param: Tensor, regularization: Any) -> Any:
        reg = getattr(param, "regularizer", None)
        return reg if reg is not None else regularization

    def _regularize(self, pairs: list) -> list:
        reg_default = self.regularization
        out = []
        for p, g in pairs:
            reg = self._regularizer_of(p, reg_default)
            if reg is None:
                out.append((p, g))
                continue
            target = p._t
            if target.dtype != g.dtype:
                mw = self._master_weights.get(p.name)
                target = mw._t if mw is not None else target.to(g.dtype)
            if isinstance(reg, (L1Decay, L2Decay)):
                term = reg._term(target)
            elif isinstance(reg, Tensor):  # Paddle fails calling it: a TypeError on the first step
                raise TypeError(f"paddle.optimizer.{type(self).__name__}: weight_decay should be a float, "
                                "L1Decay or L2Decay (only AdamW takes a Tensor), but received Tensor")
            else:
                term = as_torch(reg(wrap(target), wrap(g), None))
            out.append((p, g + term))
        return out

    def append_regularization_ops(self, parameters_and_grads: list, regularization: Any = None) -> list:
        """Add each parameter's weight-decay term to its gradient.

        Args:
            parameters_and_grads (list[tuple[Tensor, Tensor]]): (parameter, gradient) pairs.
            regularization (WeightDecayRegularizer|None, optional): used for parameters
                without their own ``regularizer``.

        Returns:
            list[tuple[Tensor, Tensor]]: the pairs with regularized gradients.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0, -2.0]), name="doc_reg_w")
            >>> opt = paddle.optimizer.SGD(0.1, parameters=[w])
            >>> pairs = opt.append_regularization_ops([(w, paddle.to_tensor([0.0, 0.0]))],
            ...                                       paddle.regularizer.L2Decay(0.5))
            >>> pairs[0][1].tolist()
            [0.5, -1.0]
        """
        api = "paddle.optimizer.Optimizer.append_regularization_ops"
        out = []
        for p, g in parameters_and_grads:
            reg = self._regularizer_of(p, regularization)
            if g is None or reg is None:
                out.append((p, g))  # unchanged: the same gradient object, as Paddle
                continue
            _check_grad(api, p, g)
            saved = self.regularization
            self.regularization = regularization
            try:
                with torch.no_grad():
                    (_, new_g), = self._regularize([(p, as_torch(g))])
            finally:
                self.regularization = saved
            new_g = wrap(new_g)
            # Paddle's sum of the gradient and a term of the parameter is tracked
            new_g.stop_gradient = bool(p.stop_gradient and g.stop_gradient)
            out.append((p, new_g))
        return out

    # ---- gradients ------------------------------------------------------------------
    def _all_params(self) -> list[Tensor]:
        if self._grouped:
            return [p for g in self._param_groups for p in g["params"]]
        return list(self._parameter_list)

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset the gradients of all trainable parameters: to zeros (default) or to None.

        Args:
            set_to_zero (bool, optional): zero the gradients instead of deleting them. Default True.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_clear_w")
            >>> opt = paddle.optimizer.SGD(0.1, parameters=[w])
            >>> paddle.multiply(w, paddle.to_tensor([3.0])).backward(paddle.to_tensor([1.0]))
            >>> opt.clear_grad(set_to_zero=False)
            >>> w.grad is None
            True
        """
        if not self._parameter_list:  # Paddle reads the first entry to tell Tensors from groups
            raise IndexError(f"paddle.optimizer.{type(self).__name__}.clear_grad: the optimizer has "
                             "no parameters")
        for p in self._all_params():
            if p._t.requires_grad:
                p.clear_gradient(set_to_zero)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients (PyTorch spelling): to None by default, else to zeros.

        Args:
            set_to_none (bool, optional): delete the gradients instead of zeroing them. Default True.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_zero_w")
            >>> opt = paddle.optimizer.SGD(0.1, parameters=[w])
            >>> paddle.multiply(w, paddle.to_tensor([3.0])).backward(paddle.to_tensor([1.0]))
            >>> opt.zero_grad()
            >>> w.grad is None
            True
        """
        self.clear_grad(set_to_zero=not set_to_none)

    def backward(self, loss: Tensor, startup_program: Any = None, parameters: list | None = None,
                 no_grad_set: set | None = None, callbacks: list | None = None) -> list:
        """The (parameter, gradient) pairs of the parameters that have gradients. In dynamic
        mode the gradients come from an earlier ``loss.backward()``; a static program's loss
        gets its backward added to the program (``paddle.static.append_backward``).

        Args:
            loss (Tensor): the loss (already back-propagated).
            startup_program (Program|None, optional): in a static program, where the
                optimizer state's initial values go (the default startup program when None);
                unused in dynamic mode.
            parameters (list|None, optional): the parameters (or names) to collect; all by default.
            no_grad_set (set|None, optional): ignored in dynamic mode, as in Paddle (every
                parameter with a gradient is returned).
            callbacks (list|None, optional): unused in dynamic mode.

        Returns:
            list[tuple[Tensor, Tensor]]: (parameter, gradient) pairs.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_backward_w")
            >>> opt = paddle.optimizer.SGD(0.1, parameters=[w])
            >>> y = paddle.multiply(w, paddle.to_tensor([3.0]))
            >>> y.backward(paddle.to_tensor([1.0]))
            >>> [(p.name, g.tolist()) for p, g in opt.backward(y)]
            [('doc_backward_w', [3.0])]
        """
        from pagaie._static.ir import Value
        if isinstance(loss, Value):  # a static program's loss: add its backward to the program
            from pagaie.static.backward import optimizer_backward
            return optimizer_backward(loss, parameters, no_grad_set)
        params = self._select(parameters)
        return [(p, p.grad) for p in params if p._t.grad is not None]

    def _select(self, parameters: list | None) -> list[Tensor]:
        all_params = self._all_params()
        if not parameters:
            return all_params
        by_name = {p.name: p for p in all_params}
        return [by_name[x] if isinstance(x, str) else x for x in parameters]

    def apply_gradients(self, params_grads: list) -> list:
        """Clip, regularize and apply the given (parameter, gradient) pairs. Pairs from a
        static program (``paddle.static.append_backward`` or :meth:`backward` of a static
        loss) add the update step to that program instead.

        Args:
            params_grads (list[tuple[Tensor, Tensor]]): the pairs to apply.

        Returns:
            list: the operators appended to a static program (its one update step op); empty
            in dynamic mode.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_apply_w")
            >>> opt = paddle.optimizer.SGD(0.5, parameters=[w])
            >>> _ = opt.apply_gradients([(w, paddle.to_tensor([1.0]))])
            >>> w.tolist()
            [0.5]
        """
        from pagaie._static.ir import Value
        api = "paddle.optimizer.Optimizer.apply_gradients"
        for p, g in params_grads:
            if g is not None:
                _check_grad(api, p, g)
        if any(isinstance(x, Value) for pair in params_grads for x in pair):
            # pairs from a static program (append_backward): add the update step to it
            from pagaie.static.backward import append_optimizer_step
            return append_optimizer_step(self, params_grads)
        pairs = sorted(((p, as_torch(g)) for p, g in params_grads if g is not None), key=lambda x: x[0].name)
        with torch.no_grad():
            self._apply_optimize(pairs, None)
        return []

    def minimize(self, loss: Tensor, startup_program: Any = None, parameters: list | None = None,
                 no_grad_set: set | None = None) -> tuple[list, list]:
        """Update the parameters from the gradients of ``loss`` (call ``loss.backward()`` first).

        Args:
            loss (Tensor): the loss.
            startup_program (Program|None, optional): in a static program, where the
                optimizer state's initial values go (the default startup program when None);
                unused in dynamic mode.
            parameters (list|None, optional): the parameters (or names) to update; all by default.
            no_grad_set (set|None, optional): used by static programs; ignored in dynamic
                mode, as in Paddle.

        Returns:
            tuple: (the operators appended: a static program's update step op, none in
            dynamic mode; the (parameter, gradient) pairs used).

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_minimize_w")
            >>> opt = paddle.optimizer.SGD(0.5, parameters=[w])
            >>> loss = paddle.multiply(w, paddle.to_tensor([2.0]))
            >>> loss.backward()
            >>> _ = opt.minimize(loss)
            >>> w.tolist()
            [0.0]
        """
        from pagaie._static.ir import Value
        if isinstance(loss, Value):  # a static program's loss: add backward + update ops to it
            from pagaie.static.backward import minimize as _static_minimize
            return _static_minimize(self, loss, parameters, no_grad_set, startup_program)
        if not isinstance(loss, Tensor):
            raise AssertionError(f"paddle.optimizer.Optimizer.minimize: the loss should be a Tensor, "
                                 f"but received {type(loss).__name__}")
        params_grads = self.backward(loss, startup_program, parameters, no_grad_set)
        with torch.no_grad():
            self._apply_optimize([(p, as_torch(g)) for p, g in params_grads], None)
        return [], params_grads

    # ---- state dict -----------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The optimizer state: every accumulator under its Paddle name, plus
        ``'master_weights'`` (multi-precision) and ``'LR_Scheduler'`` (when a scheduler is used).

        Returns:
            dict: the state.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_sd_w")
            >>> opt = paddle.optimizer.Momentum(0.1, parameters=[w])
            >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
            >>> opt.step()
            >>> list(opt.state_dict())
            ['doc_sd_w_velocity_0']
        """
        state: dict[str, Any] = {}
        if not self._accumulators and self._accumulators_holder:
            state.update(self._accumulators_holder)
        else:
            for accs in self._accumulators.values():
                for t in accs.values():
                    state[t.name] = t
        if self._master_weights:
            state["master_weights"] = self._master_weights
        if isinstance(self._learning_rate, LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a state from :meth:`state_dict` (also one saved by Paddle). Accumulators not
        created yet are filled when they are created.

        Args:
            state_dict (dict): the state.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_ssd_w")
            >>> opt = paddle.optimizer.Adam(0.1, parameters=[w])
            >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
            >>> opt.step()
            >>> opt2 = paddle.optimizer.Adam(0.1, parameters=[w])
            >>> opt2.set_state_dict(opt.state_dict())
            >>> opt2.step()
            >>> [round(v.item(), 4) for k, v in opt2.state_dict().items() if "beta1_pow" in k]
            [0.729]
        """
        from pagaie.optimizer.lr import LambdaDecay
        if not isinstance(state_dict, dict):  # Paddle fails on state_dict.copy(): an AttributeError
            raise AttributeError(f"paddle.optimizer.{type(self).__name__}.set_state_dict: state_dict should be "
                                 f"a dict, but received {type(state_dict).__name__}")
        if isinstance(self._learning_rate, LRScheduler):
            lr_state = state_dict.get("LR_Scheduler")
            if lr_state is None and not isinstance(self._learning_rate, LambdaDecay):
                raise AssertionError("paddle.optimizer: the state dict must contain 'LR_Scheduler' "
                                     "when the learning rate is an LRScheduler (except LambdaDecay)")
            if lr_state:
                self._learning_rate.set_state_dict(lr_state)
        state = dict(state_dict)
        state.pop("LR_Scheduler", None)
        masters = state.pop("master_weights", None)
        if masters is not None:
            for pname, value in masters.items():
                mw = self._master_weights.get(pname)
                if mw is not None:
                    mw._t.copy_(_loaded_value(value, mw.name, mw._t.shape).to(mw._t.dtype))
                else:
                    t = _to_torch_value(value).float().clone()
                    self._master_weights[pname] = Tensor(t, name=getattr(value, "name", None) or f"{pname}_fp32_master_0")
        self._accumulators_holder = state
        missing = []
        for accs in self._accumulators.values():
            for t in accs.values():
                if t.name not in state:
                    missing.append(t.name)
                    continue
                value = _loaded_value(state[t.name], t.name, t._t.shape, t._t.dtype)
                with torch.no_grad():
                    t._t.copy_(value.to(dtype=t._t.dtype, device=t._t.device))
        if missing:
            raise AssertionError(f"paddle.optimizer: the state dict has no entries {missing}")

    load_state_dict = set_state_dict

    def get_opti_var_name_list(self) -> list[str]:
        """Names of the accumulators created so far.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_names_w")
            >>> opt = paddle.optimizer.SGD(0.1, parameters=[w])
            >>> opt.get_opti_var_name_list()
            []
        """
        return self._opti_name_list

    # ---- fused-storage knobs (Paddle's AdamW buffer fusion; no-ops here) --------------
    def set_merged_model_params(self, merged_model_params: Any) -> None:
        """Record merged model parameters (used by Paddle's fused AdamW storage)."""
        self.merged_model_params = merged_model_params
        self.need_refuse()

    def use_fusion_storage(self) -> None:
        """Ask for fused optimizer-state storage (a flag here: state is already contiguous per tensor)."""
        self._use_fusion_storage = True
        self.need_refuse()

    def need_refuse(self) -> None:
        """Mark the fused storage as needing a rebuild (when fusion storage is in use)."""
        self._need_refuse = self._use_fusion_storage

    def reset_need_refuse(self) -> None:
        """Clear the rebuild mark of the fused storage."""
        self._need_refuse = False

    @property
    def fused_buffer_version(self) -> int:
        """How many times the fused storage was rebuilt."""
        return self._fuse_buffer_version

    @property
    def fused_states_buffer(self) -> Any:
        """The fused state buffer (None: no fusion storage)."""
        return None if self.fusion_storage is None else self.fusion_storage.buffer

    @property
    def fused_states_buffer_ipc_meta(self) -> Any:
        """IPC metadata of the fused buffer (None: no fusion storage)."""
        return None if self.fusion_storage is None else self.fusion_storage.buffer_ipc_meta

    @property
    def fused_states_accumulators_meta(self) -> Any:
        """Layout of the accumulators in the fused buffer (None: no fusion storage)."""
        return None if self.fusion_storage is None else self.fusion_storage.accumulators_meta

    @property
    def fused_states_master_weights_meta(self) -> Any:
        """Layout of the master weights in the fused buffer (None: no fusion storage)."""
        return None if self.fusion_storage is None else self.fusion_storage.master_weights_meta

    def _set_auxiliary_var(self, key: str, val: Any) -> None:
        self._auxiliary_vars[key] = val

    def _get_auxiliary_var(self, key: str) -> Any:
        return self._auxiliary_vars.get(key)


def _note_overridden_decay(params: list, weight_decay: Any) -> None:
    """Log (at INFO level, once) that a parameter's own ``regularizer`` wins over the
    optimizer's ``weight_decay``, as Paddle does."""
    if any(getattr(p, "regularizer", None) is not None for p in params):
        logging.info("If regularizer of a Parameter has been set by 'paddle.ParamAttr' or "
                     "'static.WeightNormParamAttr' already. The weight_decay"
                     f"[{weight_decay}] in Optimizer will not take effect, and it will only "
                     "be applied to other Parameters!")


def _low_precision_note(dtypes: str, optimizer: str) -> str:
    """The warning Paddle gives when an algorithm accumulates in float16/bfloat16
    (``dtypes`` and ``optimizer`` are worded per algorithm, as in Paddle)."""
    return (f"Accumulating with {dtypes} in optimizer can lead to poor accuracy or slow "
            f"convergence.Consider using multi_precision=True option of the {optimizer} optimizer.")


def _dynamic_only(api: str) -> None:
    """Paddle runs ``Optimizer.<api>`` only eagerly: its AssertionError while a program is built."""
    from pagaie.static.framework import in_static_mode
    if in_static_mode():
        raise AssertionError(f"paddle.optimizer.Optimizer.{api}: this API can only run in dynamic graph "
                             "mode; call paddle.disable_static() first")


def _check_grad(api: str, param: Tensor, grad: Any) -> None:
    """A gradient given by hand must be a Tensor of its parameter's shape."""
    if not isinstance(grad, Tensor):
        raise ValueError(f"{api}: the gradient of parameter '{param.name}' must be a Tensor, but "
                         f"received {type(grad).__name__}")
    if list(grad.shape) != list(param.shape):
        raise ValueError(f"{api}: the gradient of parameter '{param.name}' has shape "
                         f"{list(grad.shape)}, but the parameter's shape is {list(param.shape)}")


def _bad_group_lr(param: Tensor, scale: Any) -> None:
    """A parameter group's 'learning_rate' that is neither a number nor a Tensor: Paddle
    fails on the step, with a ValueError for a str or a sequence and a TypeError otherwise."""
    exc = ValueError if isinstance(scale, (str, list, tuple)) else TypeError
    raise exc(f"paddle.optimizer: the 'learning_rate' of the parameter group of '{param.name}' should "
              f"be a float or a Tensor, but received {type(scale).__name__}")


def _param_shaped(param: Tensor, g: torch.Tensor) -> torch.Tensor:
    """A clipped gradient in its parameter's shape (global-norm clipping turns a 0-D
    gradient into shape [1], as Paddle's does)."""
    shape = param._t.shape
    return g if g.shape == shape else g.reshape(shape)


def _scalar(x: Any, what: str = "a hyper-parameter", many: type[Exception] | None = TypeError) -> float:
    """A Python float from a number or a one-element Tensor (betas may be Tensors; in a static
    program a persistable variable, read from the eager tensor that holds its value). A Tensor
    of several elements raises ``many`` (Paddle's kernels take a C++ double: TypeError), or
    gives its first element when ``many`` is None (as Paddle's Adam reads its betas)."""
    if isinstance(x, (Tensor, torch.Tensor)):
        src = getattr(x, "source", None)
        t = as_torch(x if src is None else src)
        if t.numel() != 1 and many is not None:
            raise many(f"paddle.optimizer: {what} should be a float or a Tensor of one element, "
                       f"but received a Tensor of shape {list(t.shape)}")
        return float(t.reshape(-1)[0].item())
    return _number(x, what)


def _number(x: Any, what: str) -> float:
    """``x`` as a float; Paddle hands these to its kernels as C++ doubles, so anything but a
    number (a str, a list, None) is a TypeError when the step runs."""
    if not isinstance(x, (int, float, np.number)):  # bool is an int
        raise TypeError(f"paddle.optimizer: {what} should be a float, but received "
                        f"{type(x).__name__} ({x!r})")
    return float(x)


def _flag(x: Any, what: str) -> bool:
    """A switch Paddle hands to its kernels as a C++ bool: True, False or None (off) pass; an
    int or a numpy bool is a TypeError when the step runs, as in Paddle."""
    if x is None:
        return False
    if not isinstance(x, bool):
        raise TypeError(f"paddle.optimizer: {what} should be a bool, but received "
                        f"{type(x).__name__} ({x!r})")
    return x


def _check_range(api: str, name: str, value: Any, low: float, high: float | None = None,
                 low_open: bool = False, high_open: bool = True, tensors: bool = True) -> None:
    """Raise ValueError when hyper-parameter ``value`` is outside its range. A one-element
    Tensor is checked by its value (as Paddle compares it) and a larger one is an
    AssertionError, unless ``tensors`` is False (Adam takes any Tensor unchecked); a variable
    of a static program is not checked."""
    if isinstance(value, (Tensor, torch.Tensor)):
        from pagaie._static.ir import Value
        if not tensors or isinstance(value, Value):  # a program variable has no value yet
            return
        if value.numel() != 1:  # Paddle's range test takes the truth value of the Tensor
            raise AssertionError(f"paddle.optimizer.{api}: {name} should be a float or a Tensor of one "
                                 f"element, but received a Tensor of shape {list(value.shape)}")
        value = value.item()
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"paddle.optimizer.{api}: {name} should be a number, but received "
                        f"{type(value).__name__}") from None
    bad = (v <= low) if low_open else (v < low)
    if high is not None:
        bad = bad or ((v >= high) if high_open else (v > high))
    if bad:
        lo = "(" if low_open else "["
        hi = "" if high is None else f", {high}{')' if high_open else ']'}"
        rng = f"in {lo}{low}{hi}" if high is not None else f"{'>' if low_open else '>='} {low}"
        raise ValueError(f"paddle.optimizer.{api}: invalid value of {name}, expect {name} {rng}, "
                         f"but received {value}")



def _f32(x: Any, what: str = "a hyper-parameter") -> float:
    """``x`` rounded to float32 (Paddle passes most optimizer attributes as C++ floats)."""
    return float(np.float32(_scalar(x, what)))


def _in_dtype(x: float, dtype: torch.dtype) -> float:
    """``x`` as a kernel computing in ``dtype`` holds it (float32 unless float64)."""
    return float(x) if dtype == torch.float64 else float(np.float32(x))
