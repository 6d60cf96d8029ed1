"""``paddle.amp.decorate``: low-precision parameters (O2) with float32 master weights."""
from __future__ import annotations

from typing import Any

import torch

from pagaie._core import dtype as _dt
from pagaie.amp.grad_scaler import _params_of
from pagaie.amp.state import place_supported as _place_supported, set_amp_dtype

__all__ = ["decorate"]

# Layers whose parameters stay float32 at O2 (their statistics need the range).
_KEEP_FP32 = ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm",
              "LayerNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D", "GroupNorm",
              "RMSNorm")


def _excluded(layer: Any, excluded: list) -> bool:
    if type(layer).__name__ in _KEEP_FP32:
        return True
    for e in excluded:
        if (isinstance(e, type) and isinstance(layer, e)) or layer is e:
            return True
    return False


def _cast_model(model: Any, low: torch.dtype, excluded: list) -> None:
    skip: set = set()
    for layer in model.sublayers(include_self=True):
        if _excluded(layer, excluded):
            skip.update(id(p) for p in layer.parameters())
    for p in model.parameters():
        if id(p) in skip or p._t.dtype is not torch.float32:
            continue
        p._t = p._t.detach().to(low).requires_grad_(p._t.requires_grad)


def _add_master_weights(optimizer: Any) -> None:
    """Make ``optimizer`` update float32 copies of its low-precision parameters.

    Before each step the low-precision gradient is copied into a float32 master
    tensor, the master is swapped into the Parameter object so the unchanged
    optimizer rule (and its state) works in float32, and afterwards the rounded
    result is written back into the low-precision tensor in place.
    """
    if getattr(optimizer, "_pagaie_master_weights", None) is not None:
        return
    masters: dict = {}
    optimizer._pagaie_master_weights = masters
    inner_step = optimizer.step

    def step() -> None:
        params = _params_of(optimizer)
        swapped = []
        for p in params:
            t = p._t
            if t.dtype in (torch.float16, torch.bfloat16):
                m = masters.get(id(p))
                if m is None:
                    m = masters[id(p)] = t.detach().float().requires_grad_(t.requires_grad)
                m.grad = None if t.grad is None else t.grad.float()
                p._t = m
                swapped.append((p, t, m))
        try:
            inner_step()
        finally:
            for p, low, m in swapped:
                with torch.no_grad():
                    low.copy_(m)
                p._t = low

    optimizer.step = step


def _cast_state_dict_on_save(model: Any, save_dtype: torch.dtype) -> None:
    inner = model.state_dict

    def state_dict(*args: Any, **kwargs: Any) -> Any:
        sd = inner(*args, **kwargs)
        for k, v in sd.items():
            if hasattr(v, "_t") and v._t.is_floating_point():
                sd[k] = v.astype(_dt.from_torch_dtype(save_dtype).name)
        return sd

    model.state_dict = state_dict


def decorate(models: Any, optimizers: Any = None, level: str = "O1", dtype: str = "float16",
             master_weight: bool | None = None, save_dtype: str | None = None,
             master_grad: bool = False, excluded_layers: Any = None) -> Any:
    """Prepare models (and optimizers) for mixed precision.

    At ``O2`` the parameters become ``dtype`` except in normalisation layers and
    ``excluded_layers``; optimizers then keep float32 master weights (unless
    ``master_weight=False``). At ``O1`` nothing is cast.

    Args:
        models (Layer|list[Layer]): the model(s).
        optimizers (Optimizer|list[Optimizer], optional): their optimizer(s).
        level (str, optional): 'O1' or 'O2'. Default 'O1'.
        dtype (str, optional): 'float16' or 'bfloat16'. Default 'float16'.
        master_weight (bool, optional): keep float32 master weights at O2 (default True).
        save_dtype (str, optional): dtype of tensors returned by ``state_dict()``.
        master_grad (bool, optional): accepted; gradients reach master weights in float32 anyway.
        excluded_layers (Layer|type|list, optional): layers kept in float32.

    Returns:
        The models, or ``(models, optimizers)`` when optimizers were given.

    As in Paddle, nothing changes when the current place is the CPU, unless CPU AMP was
    turned on with ``pagaie.amp.state.allow_cpu()`` (a pagaie extension).

    Examples:
        >>> import pagaie as paddle
        >>> prev = paddle.amp.state.allow_cpu(True)   # pagaie extension: AMP on the CPU
        >>> model = paddle.nn.Linear(2, 2)
        >>> opt = paddle.optimizer.SGD(parameters=model.parameters())
        >>> model, opt = paddle.amp.decorate(model, opt, level='O2', dtype='bfloat16')
        >>> model.weight.dtype
        <DataType.BFLOAT16: 16>
        >>> _ = paddle.amp.state.allow_cpu(prev)
    """
    level = str(level).upper()
    if level not in ("O1", "O2"):
        raise ValueError(f"paddle.amp.decorate: level must be 'O1' or 'O2', but received {level!r}")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"paddle.amp.decorate: dtype must be 'float16' or 'bfloat16', but received {dtype!r}")
    if save_dtype is not None and save_dtype not in ("float16", "bfloat16", "float32", "float64"):
        raise ValueError("paddle.amp.decorate: save_dtype must be one of float16, bfloat16, float32, "
                         f"float64, but received {save_dtype!r}")
    if _place_supported() is not None:   # Paddle leaves everything as is on the CPU
        return models if optimizers is None else (models, optimizers)
    set_amp_dtype(dtype)
    model_list = models if isinstance(models, (list, tuple)) else [models]
    opt_list = [] if optimizers is None else (
        optimizers if isinstance(optimizers, (list, tuple)) else [optimizers])
    if excluded_layers is None:
        excluded = []
    elif isinstance(excluded_layers, (list, tuple)):
        excluded = list(excluded_layers)
    else:
        excluded = [excluded_layers]
    if level == "O2":
        low = _dt.to_torch_dtype(dtype)
        for m in model_list:
            _cast_model(m, low, excluded)
        if master_weight is not False:
            for o in opt_list:
                _add_master_weights(o)
    if save_dtype is not None:
        for m in model_list:
            _cast_state_dict_on_save(m, _dt.to_torch_dtype(save_dtype))
    if optimizers is None:
        return models
    return models, optimizers
