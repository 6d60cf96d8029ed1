"""Paddle 3's PyTorch-style keyword aliases: ``dim=`` for ``axis``, ``input=`` for ``x``...

Paddle 3.3 accepts, on many APIs, the PyTorch spelling of an argument as a keyword
(``paddle.sum(x, dim=0)``, ``paddle.abs(input=x)``, ``paddle.add(x, other=y)``,
``paddle.flatten(x, start_dim=1)``, ``paddle.zeros(size=[2])``), and so do the Tensor methods of the same name. The
table lists, per API, the aliases real Paddle 3.3.1 accepts: it was found by calling every
op sample of the test tables with each candidate spelling against the real library.

:func:`install` wraps those public functions (every module attribute and Tensor method that
is the same object) so that an alias keyword is renamed before the call; the wrapper keeps
the function's signature and name. Calls without keywords pay one Python call more.
"""
from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, Callable

__all__ = ["ALIASES", "install"]

# (alias -> parameter, [APIs relative to ``paddle``])
_TABLE = [
    ({'dim': 'axes', 'input': 'x'},
     ['fft.fft2', 'fft.fftn', 'fft.fftshift', 'fft.hfft2', 'fft.hfftn', 'fft.ifft2', 'fft.ifftn', 'fft.ifftshift', 'fft.ihfft2', 'fft.ihfftn', 'fft.irfft2', 'fft.irfftn', 'fft.rfft2', 'fft.rfftn']),
    ({'dim': 'axis'},
     ['concat', 'cross', 'linalg.vector_norm', 'nn.functional.cosine_similarity', 'stack', 'take_along_axis', 'take_along_dim', 'unbind']),
    ({'dim': 'axis', 'input': 'x'},
     ['all', 'amax', 'amin', 'any', 'argmax', 'argmin', 'argsort', 'chunk', 'cumsum', 'diff', 'fft.fft', 'fft.hfft', 'fft.ifft', 'fft.ihfft', 'fft.irfft', 'fft.rfft', 'index_add', 'index_select', 'linalg.norm', 'logsumexp', 'mean', 'median', 'nn.functional.glu', 'nn.functional.normalize', 'nn.functional.softmax', 'norm', 'prod', 'quantile', 'repeat_interleave', 'squeeze', 'sum', 'tensor_split', 'topk', 'unflatten', 'unsqueeze', 'var']),
    ({'dim1': 'axis1', 'dim2': 'axis2', 'input': 'x'},
     ['diagonal']),
    ({'dims': 'axis', 'input': 'x'},
     ['roll']),
    ({'end_dim': 'stop_axis', 'input': 'x', 'start_dim': 'start_axis'},
     ['flatten']),
    ({'input': 'x'},
     ['abs', 'acos', 'acosh', 'asin', 'atanh', 'bmm', 'bucketize', 'ceil', 'clip', 'cos', 'cosh', 'cumprod', 'dot', 'exp', 'expm1', 'floor', 'frac', 'full_like', 'ger', 'index_put', 'isfinite', 'isinf', 'isnan', 'log', 'log10', 'log1p', 'log2', 'logical_not', 'masked_select', 'nn.functional.adaptive_avg_pool1d', 'nn.functional.adaptive_avg_pool2d', 'nn.functional.adaptive_avg_pool3d', 'nn.functional.adaptive_max_pool1d', 'nn.functional.adaptive_max_pool2d', 'nn.functional.adaptive_max_pool3d', 'nn.functional.conv1d', 'nn.functional.conv2d', 'nn.functional.conv3d', 'nn.functional.dropout', 'nn.functional.embedding', 'nn.functional.fold', 'nn.functional.gelu', 'nn.functional.grid_sample', 'nn.functional.group_norm', 'nn.functional.hardshrink', 'nn.functional.interpolate', 'nn.functional.layer_norm', 'nn.functional.log_sigmoid', 'nn.functional.logsigmoid', 'nn.functional.lp_pool1d', 'nn.functional.lp_pool2d', 'nn.functional.one_hot', 'nn.functional.pad', 'nn.functional.sigmoid', 'nn.functional.silu', 'nn.functional.softplus', 'nn.functional.softshrink', 'nn.functional.tanh', 'nonzero', 'ones_like', 'outer', 'pow', 'reshape', 'round', 'rsqrt', 'sign', 'sin', 'sinh', 'sqrt', 'swapaxes', 'tanh', 'tile', 'trace', 'transpose', 'tril', 'triu', 'unique_consecutive', 'zeros_like']),
    ({'input': 'x', 'other': 'y'},
     ['add', 'bitwise_or', 'div', 'divide', 'eq', 'equal', 'expand_as', 'floor_divide', 'gcd', 'ge', 'greater', 'greater_equal', 'greater_than', 'gt', 'isclose', 'lcm', 'le', 'less', 'less_equal', 'less_than', 'logical_and', 'logical_or', 'logical_xor', 'lt', 'matmul', 'maximum', 'minimum', 'mul', 'multiply', 'ne', 'not_equal', 'remainder', 'sub', 'subtract', 'where']),
    ({'input': 'x', 'size': 'shape'},
     ['broadcast_to', 'expand']),
    ({'size': 'shape'},
     ['full', 'ones', 'zeros']),
    ({'target': 'label'},
     ['nn.functional.cross_entropy']),
]

ALIASES: dict[str, dict[str, str]] = {api: dict(m) for m, apis in _TABLE for api in apis}
# By op record name (the API's last component): the registry builds these into the generated
# functions themselves, at no cost to calls without aliases; install() wraps the rest.
ALIASES_BY_NAME: dict[str, dict[str, str]] = {}
for _api, _m in ALIASES.items():
    ALIASES_BY_NAME.setdefault(_api.rsplit(".", 1)[-1], {}).update(_m)


def _renamed(fn: Callable, aliases: dict[str, str], args: tuple, kwargs: dict) -> Any:
    for alias, param in aliases.items():
        if alias in kwargs:
            if param in kwargs:
                raise TypeError(f"paddle.{getattr(fn, '__name__', 'api')}() got values for both "
                                f"'{param}' and its alias '{alias}'")
            kwargs[param] = kwargs.pop(alias)
    return fn(*args, **kwargs)


def _with_aliases(fn: Callable, aliases: dict[str, str]) -> Callable:
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            return _renamed(fn, aliases, args, kwargs)
        return fn(*args)

    try:
        call.__signature__ = inspect.signature(fn)
    except (TypeError, ValueError):
        pass
    return call


def install(root: Any) -> int:
    """Wrap the aliased APIs of the package ``root``; returns how many functions were wrapped.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> paddle.sum(x, dim=0).tolist(), x.sum(dim=1).tolist(), paddle.abs(input=-x).shape
        ([4.0, 6.0], [3.0, 7.0], paddle.Size([2, 2]))
    """
    from pagaie._core.tensor import Tensor
    replaced: dict[int, Callable] = {}
    for api, aliases in ALIASES.items():
        obj = root
        try:
            for part in api.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            continue
        if not callable(obj) or isinstance(obj, type) or id(obj) in replaced or \
                set(aliases) <= set(getattr(obj, "accepts_aliases", ())):
            continue
        replaced[id(obj)] = _with_aliases(obj, aliases)
    if not replaced:
        return 0
    prefix = root.__name__
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == prefix or name.startswith(prefix + ".")):
            continue
        for attr, val in list(vars(mod).items()):
            new = replaced.get(id(val))
            if new is not None and new is not val:
                setattr(mod, attr, new)
    for attr, val in list(vars(Tensor).items()):
        new = replaced.get(id(val))
        if new is not None:
            setattr(Tensor, attr, new)
    return len(replaced)
