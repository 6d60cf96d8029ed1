"""Automatic SParsity (ASP) for dygraph training: prune supported weights to an ``n:m``
pattern (:func:`prune_model`) and keep them pruned while an optimizer trains them
(:func:`decorate`).

The state is kept per program, as in Paddle: in dygraph that is the default main program,
so masks and excluded layers are global to the process. Masks are non-trainable parameters
named ``<param>.asp_mask``; after each ``step()`` the decorated optimizer multiplies every
masked parameter by its mask in place.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable

import numpy as np
import torch

from pagaie.incubate.asp import supported_layers as _layers
from pagaie.incubate.asp.masks import MaskAlgo

__all__ = ["set_excluded_layers", "reset_excluded_layers", "decorate", "prune_model",
           "OptimizerWithSparsityGuarantee"]

MASK_SUFFIX = "asp_mask"
_MASK_ALGOS = {"mask_1d": MaskAlgo.MASK_1D, "mask_2d_greedy": MaskAlgo.MASK_2D_GREEDY,
               "mask_2d_best": MaskAlgo.MASK_2D_BEST}


class _ProgramInfo:
    """ASP's state for one program: mask parameters, the last masks, the excluded layers."""

    def __init__(self) -> None:
        self.mask_vars: dict[str, Any] = {}
        self.masks: dict[str, np.ndarray] = {}
        self.excluded_layers: list[str] = []


_INFO: dict[int, tuple[Any, _ProgramInfo]] = {}


def _main_program() -> Any:
    from pagaie.static import default_main_program
    return default_main_program()


def _info(program: Any = None) -> _ProgramInfo:
    program = _main_program() if program is None else program
    entry = _INFO.get(id(program))
    if entry is None or entry[0] is not program:
        entry = _INFO[id(program)] = (program, _ProgramInfo())
    return entry[1]


def _mask_name(param_name: str) -> str:
    return f"{param_name}.{MASK_SUFFIX}"


def _dygraph(api: str) -> None:
    from pagaie import in_dynamic_mode
    if not in_dynamic_mode():
        raise NotImplementedError(f"paddle.incubate.asp.{api}: static-graph ASP is not supported "
                                  "by pagaie; call it in dynamic mode (paddle.disable_static())")


def _flat_params(params: Iterable[Any] | None) -> list[Any]:
    out: list[Any] = []
    for p in params or ():
        if isinstance(p, dict):
            ps = p["params"]
            out.extend(ps if isinstance(ps, (list, tuple)) else [ps])
        else:
            out.append(p)
    return out


def set_excluded_layers(param_names: list[str], main_program: Any = None) -> None:
    """Leave the parameters of some layers dense. Call it before :func:`decorate`.

    Args:
        param_names (list[str]): layer names (e.g. ``layer.full_name()``); every parameter
            whose name contains one of them is excluded.
        main_program (Program, optional): the program whose ASP settings change; the
            default main program (the one dygraph uses) when None.

    Examples:
        >>> import pagaie as paddle
        >>> net = paddle.nn.Linear(8, 8)
        >>> paddle.incubate.asp.set_excluded_layers([net.full_name()])
        >>> paddle.incubate.asp.reset_excluded_layers()
    """
    _info(main_program).excluded_layers.extend(copy.deepcopy(list(param_names)))


def reset_excluded_layers(main_program: Any = None) -> None:
    """Forget the layers excluded with :func:`set_excluded_layers`.

    Args:
        main_program (Program, optional): the program to reset; every program when None.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.asp.reset_excluded_layers()
    """
    if main_program is None:
        for _, info in _INFO.values():
            info.excluded_layers = []
    else:
        _info(main_program).excluded_layers = []


def _supported(info: _ProgramInfo, name: str) -> bool:
    return _layers.is_supported(name, info.excluded_layers, MASK_SUFFIX)


def _create_masks(info: _ProgramInfo, params: Iterable[Any]) -> None:
    from pagaie._core.parameter import Parameter
    for p in params:
        if _supported(info, p.name) and p.name not in info.mask_vars:
            info.mask_vars[p.name] = Parameter(torch.ones_like(p._t.detach()), trainable=False,
                                               name=_mask_name(p.name))


def _apply_masks(info: _ProgramInfo, params: Iterable[Any]) -> None:
    with torch.no_grad():
        for p in params:
            mask = info.mask_vars.get(p.name)
            if mask is not None:
                p._t.mul_(mask._t.to(p._t.device, p._t.dtype))


class OptimizerWithSparsityGuarantee:
    """An optimizer wrapped by :func:`decorate`: each ``step()`` (or ``minimize``) is followed
    by re-applying the ASP masks, so pruned weights stay zero. Other attributes are the
    wrapped optimizer's.

    Args:
        optimizer (Optimizer): the optimizer to wrap.

    Examples:
        >>> import pagaie as paddle
        >>> net = paddle.nn.Linear(8, 8)
        >>> opt = paddle.incubate.asp.decorate(
        ...     paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters()))
        >>> type(opt).__name__
        'OptimizerWithSparsityGuarantee'
    """

    def __init__(self, optimizer: Any) -> None:
        self._optimizer = optimizer

    def __getattr__(self, item: str) -> Any:
        return getattr(self.__dict__["_optimizer"], item)

    def _params(self) -> list[Any]:
        return _flat_params(self._optimizer._parameter_list)

    def minimize(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None) -> Any:
        """Run the wrapped optimizer's ``minimize`` and re-apply the masks (dygraph only).

        Returns:
            what the wrapped ``minimize`` returns.
        """
        _dygraph("OptimizerWithSparsityGuarantee.minimize")
        out = self._optimizer.minimize(loss, startup_program, parameter_list, no_grad_set)
        _apply_masks(_info(), self._params())
        return out

    def step(self) -> None:
        """Run the wrapped optimizer's ``step`` and multiply every masked parameter by its mask."""
        _dygraph_only("step")
        self._optimizer.step()
        _apply_masks(_info(), self._params())

    def state_dict(self) -> dict[str, Any]:
        """The wrapped optimizer's state dict plus every ASP mask (``<param>.asp_mask``)."""
        _dygraph_only("state_dict")
        sd = self._optimizer.state_dict()
        for name, var in _info().mask_vars.items():
            sd[_mask_name(name)] = var
        return sd

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the ASP masks from ``state_dict``, then the wrapped optimizer's state."""
        _dygraph_only("set_state_dict")
        info = _info()
        for name, var in info.mask_vars.items():
            key = _mask_name(name)
            if key not in state_dict:
                raise AssertionError(f"The {key} is not found.")
            var.set_value(state_dict[key])
            info.masks[name] = var.numpy()
        return self._optimizer.set_state_dict(state_dict)


def _dygraph_only(method: str) -> None:
    from pagaie import in_dynamic_mode
    from pagaie._core.registry import dygraph_only_error
    if not in_dynamic_mode():
        raise dygraph_only_error(method)


def decorate(optimizer: Any) -> OptimizerWithSparsityGuarantee:
    """Wrap ``optimizer`` so that the weights ASP pruned stay pruned while it trains.

    In dygraph, a mask parameter of ones (``<param>.asp_mask``) is created for every
    supported weight the optimizer updates; :func:`prune_model` then fills the masks.

    Args:
        optimizer (Optimizer): the optimizer.

    Returns:
        OptimizerWithSparsityGuarantee: the wrapped optimizer.

    Examples:
        >>> import pagaie as paddle
        >>> net = paddle.nn.Linear(8, 8)
        >>> opt = paddle.incubate.asp.decorate(
        ...     paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters()))
        >>> _ = paddle.incubate.asp.prune_model(net)
        >>> net(paddle.randn([2, 8])).sum().backward()
        >>> opt.step()
        >>> paddle.incubate.asp.calculate_density(net.weight.numpy())
        0.5
    """
    from pagaie import in_dynamic_mode
    if in_dynamic_mode():
        _create_masks(_info(), _flat_params(optimizer._parameter_list))
    return OptimizerWithSparsityGuarantee(optimizer)


def prune_model(model: Any, n: int = 2, m: int = 4, mask_algo: str = "mask_1d",
                with_mask: bool = True) -> dict[str, np.ndarray]:
    """Prune the supported weights of ``model`` (Linear, Conv2D and layers added with
    :func:`add_supported_layer`) to the ``n:m`` pattern.

    Args:
        model (Layer): the model (a static ``Program`` is not supported by pagaie).
        n (int, optional): values pruned in each group of ``m``. Default 2.
        m (int, optional): group size. Default 4.
        mask_algo (str, optional): ``'mask_1d'``, ``'mask_2d_greedy'`` or ``'mask_2d_best'``.
            Default ``'mask_1d'``.
        with_mask (bool, optional): also store the masks in the mask parameters that
            :func:`decorate` created (needed for training). Default True.

    Returns:
        dict: parameter name -> its mask (numpy), for every weight pruned so far.

    Examples:
        >>> import pagaie as paddle
        >>> net = paddle.nn.Linear(8, 4)
        >>> masks = paddle.incubate.asp.prune_model(net, with_mask=False)
        >>> paddle.incubate.asp.calculate_density(net.weight.numpy())
        0.5
    """
    from pagaie.nn import Layer
    if mask_algo not in _MASK_ALGOS:
        raise AssertionError('The "mask_algo" should be one of ["mask_1d", "mask_2d_greedy", '
                             '"mask_2d_best"]')
    if not isinstance(model, Layer):
        from pagaie.static import Program
        if isinstance(model, Program):
            raise NotImplementedError("paddle.incubate.asp.prune_model: pruning a static Program "
                                      "is not supported by pagaie; prune the Layer in dygraph")
        raise TypeError("model should be paddle.nn.Layer or paddle.static.Program, but got "
                        f"{type(model)}")
    _dygraph("prune_model")
    algo = _MASK_ALGOS[mask_algo]
    info = _info()
    for p in model.parameters():
        if not _supported(info, p.name):
            continue
        weight = p.numpy()
        pruned, mask = _layers.prune_func_for(p.name)(weight, m, n, algo, p.name)
        p.set_value(pruned.astype(weight.dtype))
        if with_mask:
            mask_var = info.mask_vars.get(p.name)
            if mask_var is None:
                raise AssertionError(f"Cannot find {_mask_name(p.name)} variable, please call "
                                     "asp.decorate() to decorate your optimizer first!")
            mask_var.set_value(mask)
        info.masks[p.name] = mask
    return info.masks.copy()
