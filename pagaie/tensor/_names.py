"""The names each ``paddle.tensor.<submodule>`` offers, in Paddle 3.3.1's grouping.

Every name is an alias of an object pagaie already has (a top-level op, a
``paddle.linalg`` / ``paddle.signal`` function, or a Tensor method for the in-place
variants Paddle keeps only in these modules); :func:`export` looks them up.
"""
from __future__ import annotations

import sys
from typing import Any

GROUPS: dict[str, tuple[str, ...]] = {
    'array': (
        'in_dynamic_mode',
    ),
    'attribute': (
        'assign', 'imag', 'is_complex', 'is_floating_point', 'is_integer', 'rank', 'real',
        'shape',
    ),
    'creation': (
        'BFloat16Tensor', 'BoolTensor', 'ByteTensor', 'CharTensor', 'DoubleTensor',
        'FloatTensor', 'HalfTensor', 'IntTensor', 'LongTensor', 'ShortTensor',
        'arange', 'asarray', 'assign', 'cauchy_', 'clone', 'complex', 'create_parameter',
        'create_tensor', 'diag', 'diag_embed', 'diagflat', 'empty', 'empty_like', 'eye',
        'from_numpy', 'full', 'full_like', 'geometric_', 'in_dynamic_mode', 'linspace',
        'logspace', 'meshgrid', 'ones', 'ones_like', 'polar', 'range', 'resize_', 'set_',
        'split_with_sizes', 'to_tensor', 'tril', 'tril_', 'tril_indices', 'triu', 'triu_',
        'triu_indices', 'zeros', 'zeros_like',
    ),
    'einsum': (
        'einsum', 'matmul', 'multiply', 'reshape', 'squeeze', 'transpose', 'unsqueeze',
    ),
    'linalg': (
        'bincount', 'bmm', 'broadcast_shape', 'cast', 'cdist', 'cholesky', 'cholesky_inverse',
        'cholesky_solve', 'cond', 'corrcoef', 'cov', 'cross', 'det', 'diagonal', 'dist', 'dot',
        'eig', 'eigh', 'eigvals', 'eigvalsh', 'fp8_fp8_half_gemm_fused', 'full', 'histogram',
        'histogram_bin_edges', 'histogramdd', 'householder_product', 'in_dynamic_mode', 'lstsq',
        'lu', 'lu_solve', 'lu_unpack', 'matmul', 'matrix_exp', 'matrix_norm', 'matrix_power',
        'matrix_rank', 'matrix_transpose', 'multi_dot', 'mv', 'norm', 'ormqr', 'pca_lowrank',
        'permute', 'pinv', 'qr', 'slogdet', 'solve', 'svd', 'svd_lowrank', 'svdvals', 't', 't_',
        'transpose', 'transpose_', 'triangular_solve', 'vecdot', 'vector_norm',
    ),
    'logic': (
        'allclose', 'bitwise_and', 'bitwise_and_', 'bitwise_invert', 'bitwise_invert_',
        'bitwise_not', 'bitwise_not_', 'bitwise_or', 'bitwise_or_', 'bitwise_xor',
        'bitwise_xor_', 'broadcast_shape', 'equal', 'equal_', 'equal_all', 'full',
        'greater_equal', 'greater_equal_', 'greater_than', 'greater_than_', 'gt',
        'in_dynamic_mode', 'is_empty', 'is_tensor', 'isclose', 'less_', 'less_equal',
        'less_equal_', 'less_than', 'less_than_', 'logical_and', 'logical_and_', 'logical_not',
        'logical_not_', 'logical_or', 'logical_or_', 'logical_xor', 'logical_xor_', 'not_equal',
        'not_equal_',
    ),
    'manipulation': (
        'as_complex', 'as_real', 'as_strided', 'atleast_1d', 'atleast_2d', 'atleast_3d',
        'block_diag', 'broadcast_tensors', 'broadcast_to', 'cast', 'cast_', 'chunk',
        'column_stack', 'concat', 'crop', 'diagonal_scatter', 'dsplit', 'dstack', 'expand',
        'expand_as', 'fill_', 'fill_diagonal_', 'fill_diagonal_tensor', 'fill_diagonal_tensor_',
        'flatten', 'flatten_', 'flip', 'gather', 'gather_nd', 'hsplit', 'hstack',
        'in_dynamic_mode', 'index_add', 'index_add_', 'index_fill', 'index_fill_', 'index_put',
        'index_put_', 'masked_fill', 'masked_fill_', 'masked_scatter', 'masked_scatter_',
        'moveaxis', 'narrow', 'put_along_axis', 'put_along_axis_', 'ravel', 'repeat',
        'repeat_interleave', 'reshape', 'reshape_', 'roll', 'rot90', 'row_stack', 'scatter',
        'scatter_', 'scatter_add', 'scatter_add_', 'scatter_nd', 'scatter_nd_add',
        'scatter_reduce', 'select_scatter', 'shard_index', 'slice', 'slice_scatter', 'split',
        'squeeze', 'squeeze_', 'stack', 'strided_slice', 'take_along_axis', 'tensor_split',
        'tensordot', 'tile', 'tolist', 'transpose', 'unbind', 'unflatten', 'unfold', 'unique',
        'unique_consecutive', 'unsqueeze', 'unsqueeze_', 'unstack', 'view', 'view_as',
        'view_as_complex', 'view_as_real', 'vsplit', 'vstack', 'zero_', 'zeros',
    ),
    'math': (
        'abs', 'abs_', 'acos', 'acos_', 'acosh', 'acosh_', 'add', 'add_', 'add_n', 'addmm',
        'addmm_', 'all', 'amax', 'amin', 'angle', 'any', 'asin', 'asin_', 'asinh', 'asinh_',
        'atan', 'atan2', 'atan_', 'atanh', 'atanh_', 'baddbmm', 'baddbmm_',
        'bitwise_left_shift', 'bitwise_left_shift_', 'bitwise_right_shift',
        'bitwise_right_shift_', 'broadcast_shape', 'broadcast_shapes', 'cartesian_prod', 'cast',
        'cast_', 'ceil', 'ceil_', 'clip', 'clip_', 'combinations', 'conj', 'copysign',
        'copysign_', 'cos', 'cos_', 'cosh', 'cosh_', 'count_nonzero', 'cummax', 'cummin',
        'cumprod', 'cumprod_', 'cumsum', 'cumsum_', 'cumulative_trapezoid', 'deg2rad', 'diff',
        'digamma', 'digamma_', 'divide', 'divide_', 'erf', 'erf_', 'erfinv', 'erfinv_', 'exp',
        'exp_', 'expm1', 'expm1_', 'floor', 'floor_', 'floor_divide', 'floor_divide_',
        'floor_mod', 'floor_mod_', 'fmax', 'fmin', 'frac', 'frac_', 'frexp', 'gammainc',
        'gammainc_', 'gammaincc', 'gammaincc_', 'gammaln', 'gammaln_', 'gcd', 'gcd_',
        'heaviside', 'hypot', 'hypot_', 'i0', 'i0_', 'i0e', 'i1', 'i1e', 'in_dynamic_mode',
        'increment', 'inner', 'inverse', 'isfinite', 'isin', 'isinf', 'isnan', 'isneginf',
        'isposinf', 'isreal', 'kron', 'lcm', 'lcm_', 'ldexp', 'ldexp_', 'lerp', 'lerp_',
        'lgamma', 'lgamma_', 'log', 'log10', 'log10_', 'log1p', 'log1p_', 'log2', 'log2_',
        'log_', 'logaddexp', 'logcumsumexp', 'logit', 'logit_', 'logsumexp', 'max', 'maximum',
        'min', 'minimum', 'mm', 'mod', 'mod_', 'mul', 'multigammaln', 'multigammaln_',
        'multiplex', 'multiply', 'multiply_', 'nan_to_num', 'nan_to_num_', 'nanmean', 'nansum',
        'neg', 'neg_', 'negative', 'nextafter', 'outer', 'polygamma', 'polygamma_', 'positive',
        'pow', 'pow_', 'prod', 'rad2deg', 'reciprocal', 'reciprocal_', 'reduce_as', 'remainder',
        'remainder_', 'renorm', 'renorm_', 'round', 'round_', 'rsqrt', 'rsqrt_', 'scale',
        'scale_', 'sgn', 'sigmoid', 'sigmoid_', 'sign', 'signbit', 'sin', 'sin_', 'sinc',
        'sinc_', 'sinh', 'sinh_', 'sqrt', 'sqrt_', 'square', 'square_', 'stanh', 'subtract',
        'subtract_', 'sum', 'take', 'tan', 'tan_', 'tanh', 'tanh_', 'trace', 'trapezoid',
        'true_divide', 'trunc', 'trunc_', 'vander',
    ),
    'ops': (
        'abs', 'abs_', 'acos', 'acos_', 'acosh', 'acosh_', 'asin', 'asin_', 'asinh', 'asinh_',
        'atan', 'atan_', 'atanh', 'atanh_', 'ceil', 'ceil_', 'cos', 'cos_', 'cosh', 'cosh_',
        'erf', 'erf_', 'exp', 'exp_', 'expm1', 'expm1_', 'floor', 'floor_', 'reciprocal',
        'reciprocal_', 'round', 'round_', 'rsqrt', 'rsqrt_', 'sigmoid', 'sigmoid_', 'sin',
        'sin_', 'sinh', 'sinh_', 'sqrt', 'sqrt_', 'square', 'square_', 'tan', 'tan_',
    ),
    'random': (
        'bernoulli', 'bernoulli_', 'binomial', 'check_shape', 'exponential_', 'in_dynamic_mode',
        'log_normal', 'log_normal_', 'multinomial', 'normal', 'normal_', 'poisson', 'rand',
        'rand_like', 'randint', 'randint_like', 'randn', 'randn_like', 'random_', 'randperm',
        'standard_gamma', 'standard_normal', 'uniform', 'uniform_',
    ),
    'search': (
        'argmax', 'argmin', 'argsort', 'argwhere', 'assign', 'bucketize', 'in_dynamic_mode',
        'index_sample', 'index_select', 'kthvalue', 'masked_select', 'mode', 'msort', 'nonzero',
        'searchsorted', 'sort', 'top_p_sampling', 'topk', 'where', 'where_',
    ),
    'stat': (
        'cast', 'in_dynamic_mode', 'mean', 'median', 'nanmedian', 'nanquantile', 'numel',
        'quantile', 'std', 'var',
    ),
    'to_string': (
        'set_printoptions',
    ),
}

# In the ``paddle.tensor`` namespace itself but in none of the submodules above.
EXTRA: tuple[str, ...] = (
    "MmapStorage", "clamp", "clamp_", "div", "div_", "eq", "ge", "greater", "istft", "le", "less",
    "lt", "mul_", "ne", "reverse", "softmax", "stft", "sub", "sub_", "swapaxes", "swapdims",
    "take_along_dim",
)


def resolve(name: str) -> Any:
    """The pagaie object Paddle's ``paddle.tensor.*.<name>`` stands for, or None."""
    import pagaie
    from pagaie import linalg, signal
    from pagaie.nn import functional
    for ns in (pagaie, linalg, signal, functional, pagaie.Tensor):
        obj = getattr(ns, name, None)
        if obj is not None and not isinstance(obj, property):
            return obj
    return None


def export(namespace: dict, group: str) -> list[str]:
    """Put the names of ``group`` into ``namespace``; returns them (the module's ``__all__``)."""
    names = []
    for name in GROUPS[group]:
        obj = resolve(name)
        if obj is not None:
            namespace[name] = obj
            names.append(name)
    return names
