"""Loss scaling: ``paddle.amp.GradScaler`` and ``paddle.amp.AmpScaler``.

The loss is multiplied by ``scale`` before backward; before the optimizer steps, the
gradients are multiplied by ``1/scale`` and checked for Inf/NaN. A step with a
non-finite gradient is skipped; after ``decr_every_n_nan_or_inf`` such steps the scale
is multiplied by ``decr_ratio``, after ``incr_every_n_steps`` consecutive good steps by
``incr_ratio`` (Paddle's dygraph rule, counters reset as Paddle resets them).

As in Paddle, dynamic loss scaling is meant for float16: when the last autocast dtype
is not float16 (bfloat16 has float32's range), ``scale()`` switches the scaler off
with a warning and returns the loss unchanged.
"""
from __future__ import annotations

import enum
import warnings
from collections import defaultdict
from typing import Any

import torch

from pagaie._core.place import default_device
from pagaie._core.tensor import Tensor, wrap
from pagaie.amp import state as _amp_state

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]


class OptimizerState(enum.Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_state() -> dict:
    return {"state": OptimizerState.INIT}


def _params_of(optimizer: Any) -> list:
    groups = getattr(optimizer, "_param_groups", None)
    if groups and isinstance(groups[0], dict):
        return [p for g in groups for p in g["params"]]
    return list(getattr(optimizer, "_parameter_list", None) or [])


class AmpScaler:
    """Dynamic loss scaling for mixed-precision training (Paddle's original scaler API).

    Args:
        enable (bool, optional): turn scaling on. Default True.
        init_loss_scaling (float, optional): the initial scale. Default 2**15.
        incr_ratio (float, optional): growth factor (> 1). Default 2.0.
        decr_ratio (float, optional): shrink factor (< 1). Default 0.5.
        incr_every_n_steps (int, optional): grow after this many good steps. Default 1000.
        decr_every_n_nan_or_inf (int, optional): shrink after this many bad steps. Default 1.
        use_dynamic_loss_scaling (bool, optional): adapt the scale. Default True.

    As in Paddle, the scaler only works when the current place is a GPU: created on the
    CPU it is disabled (a warning says so; ``scale`` returns the loss unchanged), unless
    CPU AMP was turned on with ``pagaie.amp.state.allow_cpu()`` (a pagaie extension).

    Examples:
        >>> import pagaie as paddle
        >>> prev = paddle.amp.state.allow_cpu(True)   # pagaie extension: AMP on the CPU
        >>> scaler = paddle.amp.AmpScaler(init_loss_scaling=1024)
        >>> scaler.get_init_loss_scaling()
        1024
        >>> _ = paddle.amp.state.allow_cpu(prev)
    """

    def __init__(self, enable: bool = True, init_loss_scaling: float = 2.0 ** 15,
                 incr_ratio: float = 2.0, decr_ratio: float = 0.5, incr_every_n_steps: int = 1000,
                 decr_every_n_nan_or_inf: int = 1, use_dynamic_loss_scaling: bool = True) -> None:
        if enable:
            where = _amp_state.place_supported()
            if where is not None:
                warnings.warn(f"AmpScaler can only be enabled on CUDAPlace, XPUPlace and CustomPlace, "
                              f"current place is {where}, so it makes no effect.")
                enable = False
        self._enable = bool(enable)
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale: Tensor | None = None
        if self._enable:
            if not incr_ratio > 1.0:
                raise AssertionError(f"paddle.amp.GradScaler: the incr_ratio must be > 1.0, but received "
                                     f"{incr_ratio}")
            if not decr_ratio < 1.0:
                raise AssertionError(f"paddle.amp.GradScaler: the decr_ratio must be < 1.0, but received "
                                     f"{decr_ratio}")
            self._init_loss_scaling = init_loss_scaling
            self._incr_ratio = incr_ratio
            self._decr_ratio = decr_ratio
            self._incr_every_n_steps = incr_every_n_steps
            self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
            self._incr_count = 0
            self._decr_count = 0
            self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
            self._scale = _scale_tensor(init_loss_scaling)
            self._found_inf = False
            self._cache_found_inf: bool | None = None
            self._optimizer_states: defaultdict = defaultdict(_fresh_state)

    # ---- the training-step protocol ------------------------------------------------
    def scale(self, var: Tensor) -> Tensor:
        """Multiply ``var`` (the loss) by the current float32 scale (a float16 or bfloat16
        loss gives a float32 result, as in Paddle); ``var`` itself when disabled."""
        if self._enable and _amp_state.amp_dtype() != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn(f"It is not recommended to use dynamic loss scaling for "
                          f"{_amp_state.amp_dtype()}, so GradScaler is disabled")
        if not self._enable:
            return var
        if not isinstance(var, Tensor):
            raise TypeError(f"paddle.amp.GradScaler.scale: 'var' must be a Tensor, but received "
                            f"{type(var).__name__}")
        return var * self._scale   # Paddle's promotion: a low-precision loss gives float32

    def _unscale(self, optimizer: Any) -> None:
        if not self._enable:
            return
        st = self._optimizer_states[id(optimizer)]
        if st["state"] is OptimizerState.UNSCALED:
            raise RuntimeError("paddle.amp.GradScaler.unscale_: unscale_() has already been called "
                               "on this optimizer since the last update()")
        if st["state"] is OptimizerState.STEPPED:
            raise RuntimeError("paddle.amp.GradScaler.unscale_: unscale_() is being called after step()")
        grads = [p._t.grad for p in _params_of(optimizer) if p._t.grad is not None]
        self._found_inf = _unscale_and_check(grads, self._scale._t)
        st["state"] = OptimizerState.UNSCALED

    def minimize(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscale, step the optimizer unless a gradient is Inf/NaN, then update the scale.

        Args:
            optimizer: the optimizer.
            *args, **kwargs: passed to ``optimizer.minimize``.
        """
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        st = self._optimizer_states[id(optimizer)]
        if st["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        result: Any = (None, None)
        if self._found_inf:
            # Paddle's optimizer skips the update itself but still reports its
            # (parameter, gradient) pairs
            self._cache_found_inf = True
            if hasattr(optimizer, "backward"):
                result = ([], optimizer.backward(*args, **kwargs))
        else:
            result = optimizer.minimize(*args, **kwargs)
            self._cache_found_inf = False
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_fresh_state)
        return result

    def _update(self) -> None:
        if not self._enable:
            return
        if self._cache_found_inf:
            self._incr_count = 0
            self._decr_count += 1
            if self._decr_count == self._decr_every_n_nan_or_inf:
                cur = float(self._scale._t.reshape(-1)[0])
                print(f"Found inf or nan, current scale is: {cur}, decrease to: "
                      f"{cur}*{float(self._decr_ratio)}")
                self._scale = wrap(self._scale._t * self._decr_ratio)
                self._decr_count = 0
        else:
            self._decr_count = 0
            self._incr_count += 1
            if self._incr_count == self._incr_every_n_steps:
                self._scale = wrap(self._scale._t * self._incr_ratio)
                self._incr_count = 0

    # ---- settings ---------------------------------------------------------------
    def is_enable(self) -> bool:
        """Whether loss scaling is on."""
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        """Whether the scale adapts to Inf/NaN."""
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        """The initial scale."""
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling: float) -> None:
        """Reset the scale to a new initial value."""
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = _scale_tensor(new_init_loss_scaling)

    def get_incr_ratio(self) -> float:
        """The growth factor."""
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio: float) -> None:
        """Set the growth factor (must be > 1)."""
        if not new_incr_ratio > 1.0:
            raise AssertionError(f"paddle.amp.GradScaler.set_incr_ratio: incr_ratio must be > 1.0, "
                                 f"but received {new_incr_ratio}")
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self) -> float:
        """The shrink factor."""
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio: float) -> None:
        """Set the shrink factor (must be < 1)."""
        if not new_decr_ratio < 1.0:
            raise AssertionError(f"paddle.amp.GradScaler.set_decr_ratio: decr_ratio must be < 1.0, "
                                 f"but received {new_decr_ratio}")
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self) -> int:
        """Good steps before the scale grows."""
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps: int) -> None:
        """Set the good steps before the scale grows."""
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self) -> int:
        """Bad steps before the scale shrinks."""
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf: int) -> None:
        """Set the bad steps before the scale shrinks."""
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    def state_dict(self) -> dict:
        """The scaler's state (an empty dict when disabled), with Paddle's keys."""
        if not self._enable:
            return {}
        return {"scale": self._scale.numpy(), "incr_ratio": self._incr_ratio,
                "decr_ratio": self._decr_ratio, "incr_every_n_steps": self._incr_every_n_steps,
                "decr_every_n_nan_or_inf": self._decr_every_n_nan_or_inf,
                "incr_count": self._incr_count, "decr_count": self._decr_count,
                "use_dynamic_loss_scaling": self._use_dynamic_loss_scaling}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore a state from :meth:`state_dict`."""
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError("paddle.amp.GradScaler.load_state_dict: the state dict is empty, "
                               "possibly because it was saved from a disabled GradScaler")
        self._init_loss_scaling = state_dict["scale"][0]   # a numpy float32, as in Paddle
        self._scale = _scale_tensor(float(self._init_loss_scaling))
        for key in ("incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf",
                    "incr_count", "decr_count", "use_dynamic_loss_scaling"):
            setattr(self, "_" + key, state_dict[key])


class GradScaler(AmpScaler):
    """Dynamic loss scaling with the ``scale / step / update`` protocol.

    Args:
        enable (bool, optional): turn scaling on. Default True.
        init_loss_scaling (float, optional): the initial scale. Default 65536.0.
        incr_ratio (float, optional): growth factor. Default 2.0.
        decr_ratio (float, optional): shrink factor. Default 0.5.
        incr_every_n_steps (int, optional): good steps before growing. Default 2000.
        decr_every_n_nan_or_inf (int, optional): bad steps before shrinking. Default 1.
        use_dynamic_loss_scaling (bool, optional): adapt the scale. Default True.

    Examples:
        >>> import warnings
        >>> import pagaie as paddle
        >>> model = paddle.nn.Linear(4, 2)
        >>> opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")      # on the CPU, AMP makes no effect
        ...     scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
        ...     with paddle.amp.auto_cast(dtype='float16'):
        ...         loss = model(paddle.rand([3, 4])).mean()
        >>> loss.dtype, scaler.is_enable()
        (<DataType.FLOAT32: 10>, False)
        >>> scaler.scale(loss).backward()
        >>> scaler.step(opt); scaler.update(); opt.clear_grad()
    """

    def __init__(self, enable: bool = True, init_loss_scaling: float = 65536.0,
                 incr_ratio: float = 2.0, decr_ratio: float = 0.5, incr_every_n_steps: int = 2000,
                 decr_every_n_nan_or_inf: int = 1, use_dynamic_loss_scaling: bool = True) -> None:
        super().__init__(enable, init_loss_scaling, incr_ratio, decr_ratio, incr_every_n_steps,
                         decr_every_n_nan_or_inf, use_dynamic_loss_scaling)

    def step(self, optimizer: Any) -> None:
        """Unscale (unless done) and step the optimizer, skipping the step on Inf/NaN."""
        if not self._enable:
            return optimizer.step()
        st = self._optimizer_states[id(optimizer)]
        if st["state"] is OptimizerState.STEPPED:
            raise RuntimeError("paddle.amp.GradScaler.step: step() has already been called since "
                               "the last update()")
        if st["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        if self._found_inf:
            self._cache_found_inf = True
        else:
            optimizer.step()
            self._cache_found_inf = False
        st["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_fresh_state)

    def update(self) -> None:
        """Adapt the scale to the last step (dynamic scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_fresh_state)

    def unscale_(self, optimizer: Any) -> None:
        """Divide the optimizer's gradients by the scale now (e.g. before clipping)."""
        return self._unscale(optimizer)


def _scale_tensor(value: float) -> Tensor:
    # on the current device, as Paddle's scale variable
    return wrap(torch.tensor([float(value)], dtype=torch.float32, device=default_device()))


def _unscale_and_check(grads: list, scale: torch.Tensor) -> bool:
    """Multiply ``grads`` in place by 1/scale; True when any is Inf or NaN."""
    inv = (1.0 / scale.double()).float()
    groups: dict = defaultdict(list)
    for g in grads:
        groups[(g.device, g.dtype)].append(g)
    found_any = False
    for (dev, _), gs in groups.items():
        found = torch.zeros(1, dtype=torch.float32, device=dev)
        torch._amp_foreach_non_finite_check_and_unscale_(gs, found, inv.to(dev))
        found_any = found_any or bool(found.item() > 0)
    return found_any
