"""``paddle.amp.decorate``: low-precision parameters (O2) with float32 master weights.

At O2 the floating parameters and buffers of every layer are cast, except in batch norms,
in layer/instance norms when the dtype is float16, and in ``excluded_layers``; the
optimizers' ``_multi_precision`` is switched on, so they keep (and save) float32 master
weights, as Paddle's do.
"""
from __future__ import annotations

from typing import Any

from pagaie.amp.state import place_supported as _place_supported

__all__ = ["decorate"]

# Layers whose parameters and buffers stay float32 at O2: batch norms always; layer and
# instance norms only for float16 (at bfloat16 they are cast too, as in Paddle).
_KEEP_FP32_ALWAYS = ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm")
_KEEP_FP32_FOR_FP16 = ("LayerNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D")
_EXCLUDED_MSG = ("paddle.amp.decorate: excluded_layers must be either a nn.Layer instance/type or a "
                 "list of nn.Layer instances/types, but received {!r}")


def _isinstance_of(layer: Any, names: tuple) -> bool:
    from pagaie import nn
    return isinstance(layer, tuple(getattr(nn, n) for n in names if hasattr(nn, n)))


def _mark_excluded(models: list, excluded_layers: Any) -> None:
    """Set ``_cast_to_low_precision = False`` on the excluded layers (and their sublayers)."""
    from pagaie.nn import Layer
    if excluded_layers is None:
        items: list = []
    elif isinstance(excluded_layers, list):
        items = excluded_layers
    else:
        items = [excluded_layers]
    instances, types = [], []
    for item in items:
        if isinstance(item, Layer):
            instances.append(item)
        elif isinstance(item, type) and issubclass(item, Layer):
            types.append(item)
        else:
            raise TypeError(_EXCLUDED_MSG.format(excluded_layers))
    for inst in instances:
        for layer in inst.sublayers(include_self=True):
            layer._cast_to_low_precision = False
    if types:
        for m in models:
            for layer in m.sublayers(include_self=True):
                if isinstance(layer, tuple(types)):
                    layer._cast_to_low_precision = False


def _keeps_fp32(layer: Any, dtype: str) -> bool:
    if not layer._cast_to_low_precision or _isinstance_of(layer, _KEEP_FP32_ALWAYS):
        return True
    if str(layer._dtype).replace("paddle.", "") == "float16":
        return True
    return dtype == "float16" and _isinstance_of(layer, _KEEP_FP32_FOR_FP16)


def _cast_model(model: Any, dtype: str) -> None:
    """Cast the floating parameters and buffers of every layer not kept in float32."""
    for layer in model.sublayers(include_self=True):
        if _keeps_fp32(layer, dtype):
            continue
        layer._apply_transform(None, dtype, False, True)
        layer.__dict__["_dtype"] = dtype


class _SaveDtypeHook:
    """A state-dict hook casting the floating tensors to ``save_dtype``."""

    def __init__(self, save_dtype: str) -> None:
        self._save_dtype = save_dtype

    def __call__(self, state_dict: dict) -> None:
        for k, v in state_dict.items():
            if hasattr(v, "_t") and v._t.is_floating_point():
                cast = v.astype(self._save_dtype)
                cast.name = v.name
                state_dict[k] = cast


def _as_list(value: Any, is_one: Any, what: str, kind: str) -> tuple[list, bool]:
    if is_one(value):
        return [value], False
    if isinstance(value, list):
        for v in value:
            if not is_one(v):
                raise RuntimeError(f"paddle.amp.decorate: at level O2 every entry of {what} must be a "
                                   f"{kind}, but received {type(v).__name__}")
        return value, True
    raise TypeError(f"paddle.amp.decorate: {what} must be either a single {kind} or a list of "
                    f"{kind}s, but received {type(value).__name__}")


def decorate(models: Any, optimizers: Any = None, level: str = "O1", dtype: str = "float16",
             master_weight: bool | None = None, save_dtype: str | None = None,
             master_grad: bool = False, excluded_layers: Any = None) -> Any:
    """Prepare models (and optimizers) for mixed precision.

    At ``O2`` the floating parameters and buffers become ``dtype``, except in batch norms,
    in layer/instance norms for float16 and in ``excluded_layers``; the optimizers then keep
    float32 master weights (``optimizer._multi_precision``, unless ``master_weight=False``).
    At ``O1`` nothing changes (``save_dtype`` included).

    Args:
        models (Layer|list[Layer]): the model(s).
        optimizers (Optimizer|list[Optimizer], optional): their optimizer(s).
        level (str, optional): 'O1' or 'O2'. Default 'O1'.
        dtype (str, optional): 'float16' or 'bfloat16'. Default 'float16'.
        master_weight (bool, optional): keep float32 master weights at O2 (default True).
        save_dtype (str, optional): dtype of the floating tensors returned by ``state_dict()``
            (O2 only).
        master_grad (bool, optional): accepted; the optimizer casts low-precision gradients
            to float32 for the master weights anyway (the parameters' ``.grad`` keep their dtype).
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
        >>> model.weight.dtype, opt._multi_precision
        (<DataType.BFLOAT16: 16>, True)
        >>> _ = paddle.amp.state.allow_cpu(prev)
    """
    if level not in ("O1", "O2"):
        raise ValueError("paddle.amp.decorate: level should be O1 or O2, O1 represent AMP train mode, "
                         f"O2 represent Pure fp16 train mode, but received {level!r}")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"paddle.amp.decorate: dtype only support float16 or bfloat16, but received {dtype!r}")
    if level == "O1" or _place_supported() is not None:
        # O1 casts nothing; on the CPU Paddle leaves everything as is (save_dtype included)
        return models if optimizers is None else (models, optimizers)
    from pagaie.nn import Layer
    from pagaie.optimizer import Optimizer
    model_list, models_is_list = _as_list(models, lambda m: isinstance(m, Layer), "models", "model")
    _mark_excluded(model_list, excluded_layers)
    for m in model_list:
        _cast_model(m, dtype)
    opt_list: list = []
    optimizers_is_list = False
    if optimizers is not None:
        opt_list, optimizers_is_list = _as_list(optimizers, lambda o: isinstance(o, Optimizer),
                                                "optimizers", "optimizer")
        for o in opt_list:
            if hasattr(o, "_multi_precision"):
                o._multi_precision = master_weight is not False
    if save_dtype is not None:
        if save_dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise ValueError("paddle.amp.decorate: save_dtype can only be float16, bfloat16, float32 "
                             f"or float64, but received {save_dtype!r}")
        for m in model_list:
            for layer in m.sublayers(include_self=True):
                layer.register_state_dict_hook(_SaveDtypeHook(save_dtype))
    out_models = model_list if models_is_list else model_list[0]
    if optimizers is None:
        return out_models
    return out_models, (opt_list if optimizers_is_list else opt_list[0])
