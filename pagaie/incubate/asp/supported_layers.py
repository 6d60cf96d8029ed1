"""Which layers ASP prunes, and how: a table from a layer name (``'linear'``, ``'conv2d'``,
``'fc'`` or a user's) to a pruning function ``(weight, m, n, mask_algo, param_name) ->
(pruned_weight, mask)``. Parameters are matched by Paddle's naming, ``<layer>_<k>.w_<j>``."""
from __future__ import annotations

import copy
import logging
import threading
from typing import Any, Callable

import numpy as np

from pagaie.incubate.asp.masks import CheckMethod, MaskAlgo, check_sparsity, create_mask

__all__ = ["add_supported_layer"]

_logger = logging.getLogger(__name__)

PruneFunc = Callable[[np.ndarray, int, int, MaskAlgo, str], "tuple[np.ndarray, np.ndarray]"]


def _default_pruning(weight: np.ndarray, m: int, n: int, func_name: MaskAlgo,
                     param_name: str) -> tuple[np.ndarray, np.ndarray]:
    """Prune ``weight`` along its input dimension (rows of a Linear weight ``[in, out]``,
    input channels of a convolution kernel); weights with fewer than ``m`` inputs are kept."""
    shape = weight.shape
    if (len(shape) == 2 and shape[0] < m) or (len(shape) == 4 and shape[1] < m):
        dim = "first" if len(shape) == 2 else "second"
        _logger.warning("%s is not pruned because the %s dimension of %s is smaller than %s",
                        param_name, dim, list(shape), m)
        return copy.deepcopy(weight), np.ones_like(weight)
    mask = create_mask(weight.T, func_name=func_name, n=n, m=m).T
    pruned = np.multiply(weight, mask)
    if not check_sparsity(pruned.T, n=n, m=m, func_name=CheckMethod.get_checking_method(func_name)):
        raise AssertionError(f"Pruning {param_name} weight matrix failure!!!")
    return pruned, mask


_lock = threading.Lock()
_PRUNE_FUNCS: dict[str, PruneFunc] = {}


def _layer_name(layer: Any) -> str:
    from pagaie.nn import Layer
    from pagaie.nn.layer.layers import _camel_to_snake
    if isinstance(layer, str):
        return layer
    if isinstance(layer, Layer):
        return _camel_to_snake(type(layer).__name__)
    if isinstance(layer, type) and issubclass(layer, Layer):
        return _camel_to_snake(layer.__name__)
    raise TypeError("paddle.incubate.asp.add_supported_layer: 'layer' should be a str, a Layer "
                    f"or a Layer class, but got {type(layer).__name__}")


def add_supported_layer(layer: Any, pruning_func: PruneFunc | None = None) -> None:
    """Let ASP prune the weights of another kind of layer.

    Args:
        layer (str|Layer|type): the layer name that parameter names start with (``'linear'``
            matches ``linear_0.w_0``), or a Layer (instance or class) whose class name in
            snake case is that name.
        pruning_func (callable, optional): ``(weight, m, n, mask_algo, param_name)`` returning
            ``(pruned_weight, mask)`` as numpy arrays; the default prunes along the input
            dimension with :func:`create_mask`.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.asp.add_supported_layer('my_dense')
    """
    name = _layer_name(layer)
    with _lock:
        _PRUNE_FUNCS[name] = _default_pruning if pruning_func is None else pruning_func


for _name in ("fc", "linear", "conv2d"):
    add_supported_layer(_name)
del _name


def _split(param_name: str) -> tuple[list[str], str]:
    parts = param_name.split(".")
    base = parts[0]
    return parts, base[:base.rfind("_")]


def is_supported(param_name: str, excluded: list[str], mask_suffix: str) -> bool:
    """Whether ASP prunes the parameter ``param_name`` (``excluded`` holds layer names whose
    parameters are left dense; a name excludes every parameter name containing it)."""
    parts, layer = _split(param_name)
    if mask_suffix in parts or any(e in param_name for e in excluded):
        return False
    if param_name in _PRUNE_FUNCS:
        return True
    if len(parts) == 1 or "w_" not in parts[1]:
        return False
    return parts[0] in _PRUNE_FUNCS or layer in _PRUNE_FUNCS


def prune_func_for(param_name: str) -> PruneFunc:
    """The pruning function of a parameter: by full name, then by ``<layer>_<k>``, then by
    layer name; the default one otherwise."""
    parts, layer = _split(param_name)
    for key in (param_name, parts[0], layer):
        func = _PRUNE_FUNCS.get(key)
        if func is not None:
            return func
    return _default_pruning
