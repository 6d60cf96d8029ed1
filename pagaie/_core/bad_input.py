"""Which exception Paddle raises when a tensor argument of an op is not a Tensor.

Paddle's C++ argument parser rejects ``paddle.abs([1.0, 2.0])`` with ``ValueError``
("argument 'x' (position 0) must be Tensor, but got list"); ops written in Python in Paddle
fail earlier, on an attribute (``AttributeError``: ``'list' object has no attribute 'dtype'``)
or on an explicit type check (``TypeError``). The tables name the ops of the second and third
kind; they were found by calling every op of the fuzz tables (``tests/audit``) with a Python
list and with None in place of its first tensor argument against real Paddle 3.3.1 (where
aliases sharing a record disagree, as ``neg``/``negative``, the primary name wins).
:func:`pagaie._core.registry.bad_argument` reads them, only when a call has already failed.

Examples:
    >>> import pagaie as paddle
    >>> try:
    ...     paddle.abs([1.0, -2.0])
    ... except ValueError as e:
    ...     print(e)
    paddle.abs: argument 'x' (position 0) must be Tensor, but got list
    >>> try:
    ...     paddle.reshape([1.0, 2.0], [2, 1])
    ... except AttributeError as e:
    ...     print(type(e).__name__)
    AttributeError
"""
from __future__ import annotations

ATTRIBUTE_ERROR_OPS = frozenset({
    'addmm', 'atan2', 'baddbmm', 'bernoulli_', 'bincount', 'cauchy_', 'cdist', 'cholesky', 'chunk', 'clip', 'clone',
    'combinations', 'cond', 'copysign', 'corrcoef', 'cov', 'crop', 'cummax', 'cummin',
    'cumprod', 'cumsum', 'cumulative_trapezoid', 'deg2rad', 'diagflat', 'diagonal_scatter',
    'diff', 'dsplit', 'frame', 'eigh', 'einsum', 'eigvals', 'eigvalsh', 'empty', 'empty_like', 'fft2', 'frac', 'frexp',
    'full_like', 'gammainc', 'gammaincc', 'gcd', 'ger', 'hfft2', 'histogram_bin_edges',
    'histogramdd', 'hsplit', 'ifft2', 'ihfft2', 'index_fill', 'inner', 'irfft2', 'lcm', 'lerp',
    'lstsq', 'masked_fill', 'masked_scatter', 'matrix_rank', 'matrix_transpose', 'moveaxis',
    'multigammaln', 'nan_to_num', 'nanmean', 'nansum', 'narrow', 'normal', 'ones_like',
    'ormqr', 'outer', 'pdist', 'polar', 'positive', 'put_along_axis', 'rad2deg', 'rand_like',
    'randint_like', 'randn_like', 'rank', 'renorm', 'repeat_interleave', 'reshape', 'rfft2',
    'scatter_nd', 'scatter_nd_add', 'scatter_reduce', 'select_scatter', 'sgn', 'slice',
    'slice_scatter', 'split', 'stft', 'istft', 't', 'take', 'take_along_axis', 'tensor_split',
    'tensordot', 'trapezoid',
    'unbind', 'unflatten', 'unique', 'unique_consecutive', 'unstack', 'vander', 'vecdot',
    'vsplit', 'where', 'zeros_like'
})

TYPE_ERROR_OPS = frozenset({
    'arange', 'atleast_1d', 'atleast_2d', 'atleast_3d', 'eye', 'fft', 'fftn', 'hfft', 'hfftn',
    'hypot', 'ihfftn',
    'ifft', 'ifftn', 'ihfft', 'irfft', 'irfftn', 'isin', 'isneginf', 'isposinf', 'isreal',
    'ldexp', 'linspace', 'logaddexp', 'matrix_exp', 'median', 'nanmedian', 'nanquantile',
    'norm', 'quantile', 'rfft', 'rfftn', 'rot90', 'signbit', 'sinc', 'to_tensor', 'vector_norm'
})


# Ops of ATTRIBUTE_ERROR_OPS / FUNCTIONAL_ATTRIBUTE_ERROR_OPS whose Python part checks its
# input's type first while a program is built (``check_variable_and_dtype``): there a
# non-Tensor is Paddle's TypeError instead of AttributeError (probed against Paddle 3.3.1).
STATIC_TYPE_ERROR_OPS = frozenset({
    'alpha_dropout', 'avg_pool1d', 'binary_cross_entropy_with_logits', 'bucketize', 'cdist',
    'crop', 'cumprod', 'feature_alpha_dropout', 'fold', 'glu',
    'histogram_bin_edges', 'lp_pool1d', 'nanmean', 'nansum', 'polar', 'rank', 'tensordot',
    'unfold', 'unique', 'unique_consecutive', 'vander',
})

# Ops whose Python part refuses a non-Tensor ``x`` with ValueError in both modes (``flatten``:
# "The input x should be a Tensor"), where a static program's parser would say TypeError.
STATIC_VALUE_ERROR_OPS = frozenset({'flatten'})

# Where another argument than the first fails otherwise: (op, parameter) -> exception type.
BY_PARAMETER: dict[tuple[str, str], type[Exception]] = {
    ("pow", "y"): TypeError, ("equal", "y"): TypeError, ("take", "index"): TypeError,
    ("lerp", "y"): ValueError, ("index_fill", "index"): ValueError,
    ("gather_nd", "index"): AttributeError, ("view_as", "other"): AttributeError,
    ("masked_fill", "value"): ValueError,
}


# Ops of ATTRIBUTE_ERROR_OPS whose Python part finds what it reads on a numpy array (it has a
# dtype and a shape), so Paddle's C++ parser rejects the array with ValueError (probed).
NUMPY_VALUE_ERROR_OPS = frozenset({
    'clip', 'cond', 'crop', 'cumsum', 'deg2rad', 'diagflat', 'diff', 'eigh', 'histogram_bin_edges',
    'einsum', 'frame', 'histogramdd', 'matrix_rank', 'nanmean', 'rad2deg', 't', 'unbind', 'unique',
    'unique_consecutive', 'unstack', 'where'
})


# nn.functional ops Paddle writes in Python: a list, None or str where a Tensor belongs fails
# on an attribute (``x.shape``, ``x.dtype``) with AttributeError; a numpy array has those, so
# the C++ parser rejects it with ValueError, except where NUMPY_BY_OP says otherwise (probed
# with the nn audit tables, /tmp probe over ``tests/audit_nn/cases_functional.py``).
# ``dropout``, ``log_softmax`` and ``embedding`` are not here: called plainly (no ``axis`` for
# dropout, no ``dtype`` for log_softmax) they reach Paddle's C++ parser first (ValueError).
FUNCTIONAL_ATTRIBUTE_ERROR_OPS = frozenset({
    'adaptive_avg_pool1d', 'adaptive_avg_pool2d', 'adaptive_avg_pool3d',
    'adaptive_log_softmax_with_loss', 'adaptive_max_pool1d', 'adaptive_max_pool2d',
    'adaptive_max_pool3d', 'alpha_dropout', 'avg_pool1d', 'batch_norm', 'channel_shuffle',
    'conv1d', 'cosine_embedding_loss',
    'conv1d_transpose', 'conv2d', 'conv2d_transpose', 'conv3d', 'conv3d_transpose',
    'cross_entropy', 'dice_loss', 'dropout1d', 'dropout2d', 'dropout3d',
    'fold', 'fractional_max_pool2d', 'fractional_max_pool3d', 'gaussian_nll_loss', 'glu',
    'hinge_embedding_loss', 'interpolate', 'kl_div', 'layer_norm', 'local_response_norm',
    'lp_pool1d', 'lp_pool2d', 'max_pool1d', 'multi_label_margin_loss',
    'multi_label_soft_margin_loss', 'multi_margin_loss', 'nll_loss', 'normalize', 'pad',
    'pairwise_distance', 'pixel_unshuffle', 'poisson_nll_loss', 'prelu', 'rnnt_loss',
    'soft_margin_loss', 'triplet_margin_loss', 'unfold', 'upsample', 'zeropad2d',
})

# What a numpy array in place of a Tensor raises, where it is not the op's list/None type
# (key: op, or (op, parameter)); probed against Paddle 3.3.1.
NUMPY_BY_OP: dict = {
    **{op: ValueError for op in (
        'addmm', 'atan2', 'baddbmm', 'cholesky', 'chunk', 'combinations', 'copysign',
        'diagonal_scatter', 'dsplit', 'eigvals', 'gcd', 'ger', 'hsplit', 'index_fill', 'inner',
        'lcm', 'lstsq', 'masked_fill', 'moveaxis', 'outer', 'put_along_axis', 'randint_like',
        'renorm', 'repeat_interleave', 'rot90', 'scatter_reduce', 'slice', 'slice_scatter',
        'split', 'take_along_axis', 'tensor_split', 'vsplit', 'logaddexp', 'reshape')},
    **{op: TypeError for op in (
        'bincount', 'cummax', 'cummin', 'cumulative_trapezoid', 'fft2', 'hfft2',
        'ifft2', 'ihfft2', 'irfft2', 'rfft2', 'frac', 'narrow', 'pdist', 'scatter_nd',
        'scatter_nd_add', 'sgn', 'tensordot', 'trapezoid')},
    ('select_scatter', 'x'): ValueError, ('select_scatter', 'index'): TypeError,
    ('slice_scatter', 'value'): TypeError, ('gather_nd', 'index'): ValueError,
    ('scatter_nd', 'index'): ValueError, ('scatter_nd_add', 'index'): ValueError,
    **{op: AttributeError for op in ('adaptive_avg_pool2d', 'adaptive_avg_pool3d',
                                     'adaptive_log_softmax_with_loss',
                                     'multi_label_margin_loss')},
    'dice_loss': AssertionError, 'masked_scatter': AssertionError, 'ormqr': AssertionError,
}


# Where one parameter of an op fails otherwise than the op's first tensor, whatever the
# non-Tensor value: (op, parameter) -> exception type (probed against Paddle 3.3.1).
PARAM_EXCEPTION: dict[tuple[str, str], type[Exception]] = {
    ("affine_grid", "theta"): TypeError,
    ("batch_norm", "running_mean"): ValueError, ("batch_norm", "running_var"): ValueError,
    ("layer_norm", "weight"): ValueError, ("layer_norm", "bias"): ValueError,
    ("lerp", "weight"): ValueError, ("bucketize", "sorted_sequence"): AttributeError,
}

# (op, parameter) pairs that Paddle's Python part reads first (a list, None or a string
# raises AttributeError; a numpy array reaches the C++ parser: ValueError), where the op's
# other tensors go straight to the parser.
ATTRIBUTE_ERROR_PARAMS = frozenset({
    ("softmax_with_cross_entropy", "logits"), ("softmax_with_cross_entropy", "label"),
    ("cosine_similarity", "x1"), ("cosine_similarity", "x2"), ("npair_loss", "anchor"),
    ("npair_loss", "positive"), ("npair_loss", "labels"), ("slice_scatter", "value"),
    ("lu_unpack", "y"), ("_embedding_renorm", "x"), ("binary_cross_entropy_with_logits", "logit"),
    ("feature_alpha_dropout", "x"),
    ("geometric_send_ue_recv", "x"), ("geometric_send_ue_recv", "y"),
    ("geometric_send_uv", "x"), ("geometric_send_uv", "y"),
})

# In-place binary ops whose Paddle wrapper reads ``y.shape`` (its broadcast check) before
# anything else: a ``y`` without a shape (a Python number, a list, None) is AttributeError
# (``x.add_(1)``, ``x.less_than_(None)``); ``copysign_`` takes a Python number there.
SHAPE_FIRST_INPLACE_OPS = frozenset({
    'add_', 'subtract_', 'multiply_', 'divide_', 'floor_divide_', 'remainder_', 'copysign_',
    'equal_', 'not_equal_', 'less_than_', 'less_equal_', 'greater_than_', 'greater_equal_',
    'bitwise_and_', 'bitwise_or_', 'bitwise_xor_', 'bitwise_left_shift_', 'bitwise_right_shift_',
    'logical_and_', 'logical_or_', 'logical_xor_',
})

# In-place ops whose Paddle wrapper fails on any non-Tensor ``x`` (a numpy array included) on
# an attribute before its out-of-place op sees it: ``neg_`` calls ``x.scale_``, ``t_`` reads
# ``x.ndim`` and ``x.shape``.
WRAPPER_FIRST_INPLACE_OPS = {'neg_': AttributeError, 't_': AttributeError}

# In-place functions that hand a non-Tensor straight to Paddle's C++ argument parser
# (ValueError) although the out-of-place op's Python part reads it first (probed).
PARSER_FIRST_INPLACE_OPS = frozenset({'cumsum_', 'gammainc_', 'gammaincc_'})
# ... and those that do so once the named argument is given, or for a numpy array, which has
# the ``x.shape`` they read otherwise (``cumprod_`` reads it to flatten ``x`` when ``dim`` is None)
PARSER_FIRST_WITH: dict[str, str] = {'cumprod_': 'dim'}


def inplace_exception_type(api: str, base: str, param: str, value: object,
                           arguments: dict | None = None) -> type[Exception]:
    """The exception type Paddle raises when the in-place function ``api`` (the in-place form
    of ``base``) gets ``value``, a non-Tensor, as the tensor to write into: its wrapper's own
    failure for ``WRAPPER_FIRST_INPLACE_OPS``; the C++ parser's ValueError for
    ``PARSER_FIRST_INPLACE_OPS``; AttributeError where the wrapper reads ``x.shape`` first
    (``SHAPE_FIRST_INPLACE_OPS``; a numpy array has a shape); else what the out-of-place op
    raises. ``arguments``: the call's other arguments by name."""
    if api in WRAPPER_FIRST_INPLACE_OPS:
        return WRAPPER_FIRST_INPLACE_OPS[api]
    is_array = type(value).__name__ == "ndarray"
    if api in PARSER_FIRST_INPLACE_OPS or (api in PARSER_FIRST_WITH and (
            is_array or (arguments or {}).get(PARSER_FIRST_WITH[api]) is not None)):
        return ValueError
    if api in SHAPE_FIRST_INPLACE_OPS and not is_array:
        return AttributeError
    return exception_type(base, param, value)


def exception_type(op: str, param: str = "x", value: object = None) -> type[Exception]:
    """The exception type Paddle raises when ``op`` gets ``value``, a non-Tensor, where a
    Tensor belongs (in its argument ``param``)."""
    kind = PARAM_EXCEPTION.get((op, param))
    if kind is not None:
        return kind
    if (op, param) in ATTRIBUTE_ERROR_PARAMS:
        if type(value).__name__ == "ndarray":
            return NUMPY_BY_OP.get((op, param), ValueError)
        return AttributeError
    if type(value).__name__ == "ndarray":
        kind = NUMPY_BY_OP.get((op, param)) or NUMPY_BY_OP.get(op)
        if kind is not None:
            return kind
        if op in FUNCTIONAL_ATTRIBUTE_ERROR_OPS:
            return ValueError
    elif op in FUNCTIONAL_ATTRIBUTE_ERROR_OPS:
        return AttributeError
    by_param = BY_PARAMETER.get((op, param))
    if by_param is not None:
        return by_param
    if op in ATTRIBUTE_ERROR_OPS:
        if op in NUMPY_VALUE_ERROR_OPS and type(value).__name__ == "ndarray":
            return ValueError
        return AttributeError
    if op in TYPE_ERROR_OPS:
        return TypeError
    return ValueError


def type_name(value: object) -> str:
    """The type of ``value`` as Paddle's argument checks name it: a builtin's bare name
    (``list``), any other type with its module (``numpy.float32``).

    Examples:
        >>> import numpy as np
        >>> from pagaie._core.bad_input import type_name
        >>> type_name([1]), type_name(np.float32(1))
        ('list', 'numpy.float32')
    """
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
