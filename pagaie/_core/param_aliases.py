"""Paddle 3's PyTorch-style keyword aliases: ``dim=`` for ``axis``, ``input=`` for ``x``...

Paddle 3.3 accepts, on many APIs, the PyTorch spelling of an argument as a keyword
(``paddle.sum(x, dim=0)``, ``paddle.abs(input=x)``, ``paddle.add(x, other=y)``,
``paddle.flatten(x, start_dim=1)``, ``paddle.zeros(size=[2])``), and so do the Tensor
methods of the same name. The table lists, per API, the aliases real Paddle 3.3.1 accepts:
it was found by calling every op sample of the test tables with each candidate spelling
(Paddle's names, PyTorch's names for the same function) against the real library. Some come
from Paddle's Python decorators, others from its C++ argument parser (``dot(x, tensor=y)``,
``argmax(x, keepdims=True)``), which ``inspect`` does not show.

The registry reads :data:`ALIASES_BY_NAME` when it generates an op's public function: the
aliases become extra keywords of that function (its ``__signature__`` stays Paddle's), so
calls without them cost nothing more.

Examples:
    >>> import pagaie as paddle
    >>> x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> paddle.sum(x, dim=0).tolist(), x.sum(dim=1).tolist(), paddle.abs(input=-x).shape
    ([4.0, 6.0], [3.0, 7.0], paddle.Size([2, 2]))
"""
from __future__ import annotations

import functools
from typing import Any, Callable

__all__ = ["ALIASES", "ALIASES_BY_NAME", "ALIAS_DEFAULTS", "keyword_aliases", "rename_aliases"]

# (alias -> parameter, [APIs relative to ``paddle``])
_TABLE = [
    # transpose(x, dim0=i, dim1=j) swaps two axes: the kernel's two-int form (perm, name)
    ({'axis0': 'perm', 'axis1': 'name', 'dim0': 'perm', 'dim1': 'name'},
     ['transpose']),
    ({'lambd': 'threshold'},
     ['nn.functional.hardshrink', 'nn.functional.softshrink']),
    ({'return_indices': 'return_mask'},
     ['nn.functional.adaptive_max_pool1d', 'nn.functional.adaptive_max_pool2d', 'nn.functional.adaptive_max_pool3d']),
    ({'eps': 'epsilon'},
     ['nn.functional.group_norm', 'nn.functional.pairwise_distance', 'nn.functional.layer_norm']),
    ({'dilation': 'dilations', 'kernel_size': 'kernel_sizes', 'output_size': 'output_sizes', 'padding': 'paddings',
      'stride': 'strides'},
     ['nn.functional.fold']),
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
     ['full', 'normal', 'ones', 'zeros']),
    ({'input': 'x'},
     ['multinomial', 'randn_like']),
    ({'lambd': 'lam'},
     ['Tensor.exponential_']),
    ({'from': 'min', 'to': 'max'},
     ['Tensor.uniform_']),
    ({'target': 'label'},
     ['nn.functional.cross_entropy']),
    # PyTorch's own names for the second operand and other arguments
    ({'exponent': 'y'},
     ['pow']),
    ({'mat2': 'y'},
     ['bmm']),
    ({'tensor': 'y'},
     ['dot']),
    ({'vec2': 'y'},
     ['ger', 'outer']),
    ({'A': 'x', 'ord': 'p'},
     ['linalg.norm', 'norm']),
    ({'ord': 'p'},
     ['linalg.vector_norm']),
    ({'A': 'x', 'B': 'y'},
     ['linalg.solve']),
    ({'tensors': 'x'},
     ['cat', 'concat', 'concatenate', 'stack']),
    ({'input': 'arr'},
     ['take_along_axis', 'take_along_dim']),
    ({'source': 'value'},
     ['index_add', 'Tensor.index_add_']),
    ({'values': 'value'},
     ['index_put']),
    ({'elements': 'x', 'test_elements': 'test_x'},
     ['isin']),
    ({'input': 'values'},
     ['searchsorted']),
    ({'boundaries': 'sorted_sequence'},
     ['bucketize']),
    ({'sizes': 'shape'},
     ['unflatten']),
    ({'dims': 'repeat_times'},
     ['tile']),
    ({'dimension': 'axis'},
     ['unfold']),
    ({'dim': 'axis'},
     ['unique_consecutive']),
    ({'indices_or_sections': 'num_or_indices', 'indices': 'num_or_indices', 'sections': 'num_or_indices'},
     ['tensor_split']),
    ({'keepdims': 'keepdim'},
     ['argmax', 'argmin']),
    ({'x1': 'x', 'x2': 'y'},
     ['nn.functional.pairwise_distance']),
    ({'eps': 'epsilon'},
     ['nn.functional.normalize']),
    ({'end': 'stop', 'steps': 'num'},
     ['linspace']),
    ({'n': 'num_rows', 'm': 'num_columns'},
     ['eye']),
    ({'input': 'x'},
     ['empty_like', 'gather', 'sparse.reshape']),
    ({'dim': 'axis', 'input': 'x'},
     ['Tensor.index_add_']),
    ({'input': 'x', 'other': 'y'},
     ['Tensor.add_', 'Tensor.subtract_', 'Tensor.multiply_', 'Tensor.divide_', 'Tensor.gcd_', 'Tensor.lcm_',
      'Tensor.bitwise_or_']),
]

# Public APIs whose op record has another name (the registry looks aliases up by record name).
_RECORD_NAMES = {"unfold": "tensor_unfold", "sparse.reshape": "sparse_reshape"}

# An API may appear in several rows (``input=`` in one, its own names in another): merge them.
ALIASES: dict[str, dict[str, str]] = {}
for _m, _apis in _TABLE:
    for _api in _apis:
        ALIASES.setdefault(_api, {}).update(_m)
# By op record name (the API's last component): the registry builds these into the generated
# functions themselves.
ALIASES_BY_NAME: dict[str, dict[str, str]] = {}
for _api, _m in ALIASES.items():
    ALIASES_BY_NAME.setdefault(_RECORD_NAMES.get(_api, _api.rsplit(".", 1)[-1]), {}).update(_m)

# Defaults that change when a call uses an alias (by record name): PyTorch's ``median`` gives
# the lower middle value with its index, so ``paddle.median(x, dim=1)`` is ``mode='min'``
# unless ``mode`` is passed.
ALIAS_DEFAULTS: dict[str, dict[str, object]] = {"median": {"mode": "min"}}


def rename_aliases(api: str, kwargs: dict, aliases: dict[str, str]) -> dict:
    """``kwargs`` with each alias keyword renamed to the parameter it stands for; giving a
    parameter and its alias together is Paddle's ValueError."""
    if not any(k in aliases for k in kwargs):
        return kwargs
    out = dict(kwargs)
    for alias, param in aliases.items():
        if alias in out:
            if param in out:
                raise ValueError(f"paddle.{api}() got values for both '{param}' and its alias '{alias}'")
            out[param] = out.pop(alias)
    return out


def keyword_aliases(**aliases: str) -> Callable[[Callable], Callable]:
    """Give a plain Python API (one that is not an op record) Paddle's alias keywords:
    ``@keyword_aliases(input="x")`` lets ``f(input=t)`` mean ``f(x=t)``; the signature shown
    stays Paddle's. Giving both spellings is Paddle's ValueError."""
    def deco(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def api(*args: Any, **kwargs: Any) -> Any:
            return fn(*args, **rename_aliases(fn.__name__, kwargs, aliases))
        return api
    return deco
