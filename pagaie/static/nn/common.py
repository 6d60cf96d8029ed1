"""``paddle.static.nn`` layers: functions that create their parameters and apply an op.

Each function creates its parameters (named ``<prefix>_<n>.w_<k>`` / ``.b_<k>`` like
Paddle's static layers, ``prefix`` being the layer kind or ``name``) and calls the
``paddle.nn.functional`` op, so the same code records ops in a static program and
computes in dynamic mode. Parameters are captured by the program and read when it runs;
batch_norm's moving statistics are persistable buffers updated in place by the run.
"""
from __future__ import annotations

import math

import numpy as np
from typing import Any, Sequence

from pagaie.nn.param import make_parameter as _make_parameter
from pagaie.utils import _mark_deprecated, unique_name

__all__ = ["fc", "conv2d", "conv2d_transpose", "conv3d", "conv3d_transpose", "deform_conv2d",
           "batch_norm", "layer_norm", "group_norm", "instance_norm", "embedding",
           "sparse_embedding", "prelu", "spectral_norm", "bilinear_tensor_product", "row_conv",
           "nce"]


def _attr_name(attr: Any) -> str | None:
    if isinstance(attr, str):
        return attr
    return getattr(attr, "name", None) if attr is not None and attr is not False else None


def make_parameter(shape: Any, attr: Any, dtype: Any, is_bias: bool, default_initializer: Any,
                   prefix: str, device: Any = None) -> Any:
    """``pagaie.nn.param.make_parameter``, except that in static mode a parameter named by
    its attribute that a static layer of the current main program already created is
    shared, as Paddle's static layers share a name (``param_attr='embed'`` used twice)."""
    from pagaie.static import framework as _fw
    name = _attr_name(attr)
    if name is None or not _fw._S.enabled:
        return _make_parameter(shape, attr, dtype, is_bias, default_initializer, prefix, device)
    table = _fw._S.main.__dict__.setdefault("_static_nn_params", {})
    p = table.get(name)
    if p is not None:
        want = [int(s) for s in shape]
        if list(p.shape) != want:
            raise ValueError(f"paddle.static.nn: parameter {name!r} already exists with shape "
                             f"{list(p.shape)}, but a layer asks for shape {want}")
        return p
    p = _make_parameter(shape, attr, dtype, is_bias, default_initializer, prefix, device)
    table[name] = p
    return p


def _F():
    import pagaie.nn.functional as F
    return F


def _act(out: Any, act: str | None, api: str) -> Any:
    if act is None:
        return out
    fn = getattr(_F(), act, None) if isinstance(act, str) else None
    if fn is None:  # (AttributeError, as Paddle's look-up of the activation op)
        raise AttributeError(f"paddle.static.nn.{api}: unknown activation {act!r}")
    return fn(out)


def _prefix(name: str | None, kind: str) -> str:
    return name if name is not None else unique_name.generate(kind)


def _constant(v: float) -> Any:
    from pagaie.nn.initializer import Constant
    return Constant(v)


def _dtype_of(x: Any) -> str:
    return x.dtype.name


def _weight(shape: list, attr: Any, dtype: str, default_init: Any, prefix: str) -> Any:
    """A weight parameter. A ``WeightNormParamAttr`` is refused while a program is being built
    (see :meth:`pagaie.framework.param_attr.ParamAttr._to_attr`), as in Paddle 3."""
    return make_parameter(shape, attr, dtype, False, default_init, prefix)


def fc(x: Any, size: int, num_flatten_dims: int = 1, weight_attr: Any = None, bias_attr: Any = None,
       activation: str | None = None, name: str | None = None) -> Any:
    """Fully connected layer: ``activation(sum_i flatten(x_i) @ W_i + b)``.

    Each input is flattened to 2-D at ``num_flatten_dims`` (the leading dims are kept, the
    rest multiplied into the feature dim); a negative value counts from the end (``-1``
    flattens at the last axis) and ``0`` flattens the whole input into one row.

    Args:
        x (Tensor|list[Tensor]): input(s), float32 or float64.
        size (int): the number of output units.
        num_flatten_dims (int, optional): how many leading dims to keep. Default 1.
        weight_attr (ParamAttr, optional): weight attributes (Xavier-uniform by default).
        bias_attr (ParamAttr|bool, optional): bias attributes; False for no bias.
        activation (str, optional): an activation name from ``paddle.nn.functional``.
        name (str, optional): the prefix of the parameter names.

    Returns:
        Tensor: shape ``x.shape[:num_flatten_dims] + [size]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('fc_doc_x', [None, 2, 3], 'float32')
        >>> paddle.static.nn.fc(x, 4, num_flatten_dims=1).shape
        paddle.Size([-1, 4])
        >>> paddle.disable_static()
    """
    from pagaie._core.tensor import Tensor
    inputs = list(x) if isinstance(x, (list, tuple)) else [x]
    if not inputs:  # (TypeError, as Paddle's dtype check of an empty input list)
        raise TypeError("paddle.static.nn.fc: x must hold at least one tensor")
    for i, xi in enumerate(inputs):  # (TypeErrors, as Paddle's input checks)
        if not isinstance(xi, Tensor):
            raise TypeError(f"paddle.static.nn.fc: x[{i}] must be a Tensor, but received "
                            f"{type(xi).__name__}")
        if _dtype_of(xi) not in ("float16", "bfloat16", "float32", "float64"):
            raise TypeError(f"paddle.static.nn.fc: the data type of x must be float16, bfloat16, "
                            f"float32 or float64, but received {_dtype_of(xi)}")
    if len({_dtype_of(xi) for xi in inputs}) > 1:
        raise ValueError(f"paddle.static.nn.fc: all inputs must have one data type, but received "
                         f"{[_dtype_of(xi) for xi in inputs]}")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"paddle.static.nn.fc: size must be an int, but received {size!r}")
    if size < 0:  # (AssertionError, as Paddle's parameter-shape check; 0 units is allowed)
        raise AssertionError(f"paddle.static.nn.fc: size must be >= 0, but received {size}")
    size = int(size)
    prefix = _prefix(name, "fc")
    import pagaie as paddle
    attrs = weight_attr if isinstance(weight_attr, (list, tuple)) else [weight_attr] * len(inputs)
    total = None
    for xi, wa in zip(inputs, attrs):
        nd = len(xi.shape)
        # as Paddle, a negative value counts from the end and 0 flattens the whole input
        k = num_flatten_dims + nd if num_flatten_dims < 0 else num_flatten_dims
        if not 0 <= k < nd + (1 if nd == 1 else 0):
            raise ValueError(f"paddle.static.nn.fc: num_flatten_dims must be in [{-nd}, {nd - 1}] "
                             f"for a {nd}-D input, but received {num_flatten_dims}")
        feat = xi.shape[k:]
        if any(d < 0 for d in feat):  # (AssertionError, as Paddle's parameter-shape check)
            raise AssertionError(f"paddle.static.nn.fc: the flattened dims {list(feat)} of the input "
                                 "must be known")
        in_features = int(math.prod(feat))
        w = _weight([in_features, size], wa, _dtype_of(xi), None, prefix)
        flat = xi if k == nd - 1 else paddle.flatten(xi, start_axis=k, stop_axis=-1)
        y = paddle.matmul(flat, w)
        total = y if total is None else total + y
    if bias_attr is not False:
        b = make_parameter([size], bias_attr, _dtype_of(inputs[0]), True, None, prefix)
        total = total + b
    return _act(total, activation, "fc")


def _conv_nd(kind: str, nd: int, input: Any, num_filters: int, filter_size: Any, stride: Any,
             padding: Any, dilation: Any, groups: Any, param_attr: Any, bias_attr: Any, act: Any,
             name: Any, data_format: str) -> Any:
    api = kind
    channel_last = data_format[-1] == "C"
    c = input.shape[-1 if channel_last else 1]
    if c < 0:
        raise ValueError(f"paddle.static.nn.{api}: the channel dim of the input must be known")
    groups = 1 if groups is None else int(groups)
    if c % groups:
        raise ValueError(f"paddle.static.nn.{api}: the channel number {c} must be divisible by "
                         f"groups {groups}")
    fs = [filter_size] * nd if isinstance(filter_size, int) else list(filter_size)
    from pagaie.nn.initializer import Normal
    fan_in = (c // groups) * math.prod(fs)
    prefix = _prefix(name, kind)
    w = _weight([num_filters, c // groups] + fs, param_attr, _dtype_of(input),
                Normal(0.0, (2.0 / fan_in) ** 0.5), prefix)
    b = None if bias_attr is False else make_parameter([num_filters], bias_attr, _dtype_of(input),
                                                        True, None, prefix)
    fn = getattr(_F(), f"conv{nd}d")
    out = fn(input, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups,
             data_format=data_format)
    return _act(out, act, api)


def conv2d(input: Any, num_filters: int, filter_size: Any, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int | None = None, param_attr: Any = None, bias_attr: Any = None,
           use_cudnn: bool = True, act: str | None = None, name: str | None = None,
           data_format: str = "NCHW") -> Any:
    """2-D convolution layer with its own filter ``[num_filters, C/groups, kh, kw]``
    (normal init, std ``sqrt(2 / fan_in)``) and bias.

    Args:
        input (Tensor): 4-D input.
        num_filters (int): output channels.
        filter_size (int|tuple): kernel size.
        stride, padding, dilation: as in ``paddle.nn.functional.conv2d``.
        groups (int, optional): channel groups. Default 1.
        param_attr, bias_attr (ParamAttr, optional): filter and bias attributes.
        use_cudnn (bool): unused.
        act (str, optional): activation name.
        name (str, optional): parameter name prefix.
        data_format (str): ``'NCHW'`` or ``'NHWC'``.

    Returns:
        Tensor: the convolved output.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('conv_doc_x', [None, 3, 8, 8], 'float32')
        >>> paddle.static.nn.conv2d(x, 4, 3).shape
        paddle.Size([-1, 4, 6, 6])
        >>> paddle.disable_static()
    """
    return _conv_nd("conv2d", 2, input, num_filters, filter_size, stride, padding, dilation, groups,
                    param_attr, bias_attr, act, name, data_format)


conv2d = _mark_deprecated(  # as Paddle's, each call warns
    conv2d, "paddle.static.nn.common.conv2d", update_to="paddle.nn.Conv2D", since="3.0.0",
    reason="This API will be deprecated in the future, because it's just for old statics mode, "
           "please use paddle.nn.Conv2D instead.")


def conv3d(input: Any, num_filters: int, filter_size: Any, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int | None = None, param_attr: Any = None, bias_attr: Any = None,
           use_cudnn: bool = True, act: str | None = None, name: str | None = None,
           data_format: str = "NCDHW") -> Any:
    """3-D convolution layer (see :func:`conv2d`); filter ``[num_filters, C/groups, kd, kh, kw]``.

    Returns:
        Tensor: the convolved output.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('conv3_doc_x', [None, 2, 4, 4, 4], 'float32')
        >>> paddle.static.nn.conv3d(x, 3, 3).shape
        paddle.Size([-1, 3, 2, 2, 2])
        >>> paddle.disable_static()
    """
    return _conv_nd("conv3d", 3, input, num_filters, filter_size, stride, padding, dilation, groups,
                    param_attr, bias_attr, act, name, data_format)


def _conv_transpose_nd(kind: str, nd: int, input: Any, num_filters: int, output_size: Any,
                       filter_size: Any, padding: Any, stride: Any, dilation: Any, groups: Any,
                       param_attr: Any, bias_attr: Any, act: Any, name: Any, data_format: str) -> Any:
    channel_last = data_format[-1] == "C"
    c = input.shape[-1 if channel_last else 1]
    groups = 1 if groups is None else int(groups)
    as_list = (lambda v: [v] * nd if isinstance(v, int) else list(v))
    if filter_size is None:
        if output_size is None:
            raise ValueError(f"paddle.static.nn.{kind}: output_size and filter_size cannot both be None")
        osz, st, pd, dl = as_list(output_size), as_list(stride), as_list(padding), as_list(dilation)
        spatial = input.shape[1:1 + nd] if channel_last else input.shape[2:2 + nd]
        if any(d < 0 for d in spatial) or len(pd) != nd:
            raise ValueError(f"paddle.static.nn.{kind}: filter_size cannot be derived; give it explicitly")
        fs = [(o - (i - 1) * s + 2 * p - 1) // d + 1 for o, i, s, p, d in zip(osz, spatial, st, pd, dl)]
    else:
        fs = as_list(filter_size)
    prefix = _prefix(name, kind)
    w = make_parameter([c, num_filters // groups] + fs, param_attr, _dtype_of(input), False, None, prefix)
    b = None if bias_attr is False else make_parameter([num_filters], bias_attr, _dtype_of(input),
                                                        True, None, prefix)
    fn = getattr(_F(), f"conv{nd}d_transpose")
    out = fn(input, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups,
             output_size=output_size if filter_size is not None else None, data_format=data_format)
    return _act(out, act, kind)


def conv2d_transpose(input: Any, num_filters: int, output_size: Any = None, filter_size: Any = None,
                     padding: Any = 0, stride: Any = 1, dilation: Any = 1, groups: int | None = None,
                     param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True,
                     act: str | None = None, name: str | None = None, data_format: str = "NCHW") -> Any:
    """2-D transposed convolution layer; filter ``[C, num_filters/groups, kh, kw]``. When
    ``filter_size`` is None it is derived from ``output_size``.

    Returns:
        Tensor: the output.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('convt_doc_x', [None, 3, 4, 4], 'float32')
        >>> paddle.static.nn.conv2d_transpose(x, 2, filter_size=3).shape
        paddle.Size([-1, 2, 6, 6])
        >>> paddle.disable_static()
    """
    return _conv_transpose_nd("conv2d_transpose", 2, input, num_filters, output_size, filter_size,
                              padding, stride, dilation, groups, param_attr, bias_attr, act, name,
                              data_format)


def conv3d_transpose(input: Any, num_filters: int, output_size: Any = None, filter_size: Any = None,
                     padding: Any = 0, stride: Any = 1, dilation: Any = 1, groups: int | None = None,
                     param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True,
                     act: str | None = None, name: str | None = None, data_format: str = "NCDHW") -> Any:
    """3-D transposed convolution layer (see :func:`conv2d_transpose`).

    Returns:
        Tensor: the output.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('convt3_doc_x', [None, 2, 2, 2, 2], 'float32')
        >>> paddle.static.nn.conv3d_transpose(x, 1, filter_size=2).shape
        paddle.Size([-1, 1, 3, 3, 3])
        >>> paddle.disable_static()
    """
    return _conv_transpose_nd("conv3d_transpose", 3, input, num_filters, output_size, filter_size,
                              padding, stride, dilation, groups, param_attr, bias_attr, act, name,
                              data_format)


def deform_conv2d(x: Any, offset: Any, mask: Any, num_filters: int, filter_size: Any, stride: Any = 1,
                  padding: Any = 0, dilation: Any = 1, groups: int = 1, deformable_groups: int = 1,
                  im2col_step: int = 1, weight_attr: Any = None, bias_attr: Any = None,
                  name: str | None = None) -> Any:
    """Deformable convolution layer (v2 modulated by ``mask``, v1 when ``mask`` is None) with
    its own filter ``[num_filters, C/groups, kh, kw]`` (normal, std ``sqrt(2 / (kh*kw*C))``)
    and bias (zeros; none when ``bias_attr`` is False). The batch size may be unknown (-1).

    Args:
        x (Tensor): ``[N, C, H, W]`` input.
        offset (Tensor): ``[N, 2 * deformable_groups * kh * kw, Ho, Wo]`` sampling offsets.
        mask (Tensor|None): ``[N, deformable_groups * kh * kw, Ho, Wo]`` modulation, or None.
        num_filters (int): output channels.
        filter_size (int|list|tuple): kernel size.
        stride, padding, dilation (int|list|tuple, optional): as in conv2d.
        groups (int): convolution groups. deformable_groups (int): offset groups.
        im2col_step (int): unused (a CUDA batching knob).
        weight_attr, bias_attr (ParamAttr, optional): filter and bias attributes.
        name (str, optional): parameter name prefix.

    Returns:
        Tensor: ``[N, num_filters, Ho, Wo]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('dcn_doc_x', [None, 3, 8, 8], 'float32')
        >>> off = paddle.static.data('dcn_doc_off', [None, 18, 8, 8], 'float32')
        >>> paddle.static.nn.deform_conv2d(x, off, None, 2, 3, padding=1).shape
        paddle.Size([-1, 2, 8, 8])
        >>> paddle.disable_static()
    """
    api = "deform_conv2d"
    if len(x.shape) != 4:
        raise ValueError(f"paddle.static.nn.{api}: the input should be of [N, C, H, W] format, "
                         f"but received shape {list(x.shape)}")
    if weight_attr is False:
        raise AssertionError("param_attr should not be False here.")
    c = x.shape[1]
    groups = 1 if groups is None else int(groups)
    if groups == 0:
        raise ValueError(f"paddle.static.nn.{api}: groups should not be 0")
    if c < 0 or c % groups:
        raise ValueError(f"paddle.static.nn.{api}: num_channels ({c}) must be known and divisible "
                         f"by groups ({groups})")
    fs = [filter_size] * 2 if isinstance(filter_size, int) else [int(f) for f in filter_size]
    from pagaie.nn.initializer import Normal
    prefix = _prefix(name, "deformable_conv")
    w = _weight([num_filters, c // groups] + fs, weight_attr, _dtype_of(x),
                Normal(0.0, (2.0 / (fs[0] * fs[1] * c)) ** 0.5), prefix)
    b = None if bias_attr is False else make_parameter([num_filters], bias_attr, _dtype_of(x),
                                                        True, None, prefix)
    from pagaie.vision.ops import deform_conv2d as _deform
    return _deform(x, offset, w, b, stride=stride, padding=padding, dilation=dilation,
                   deformable_groups=deformable_groups, groups=groups, mask=mask)


def batch_norm(input: Any, act: str | None = None, is_test: bool = False, momentum: float = 0.9,
               epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
               data_layout: str = "NCHW", in_place: bool = False, name: str | None = None,
               moving_mean_name: str | None = None, moving_variance_name: str | None = None,
               do_model_average_for_mean_and_var: bool = True, use_global_stats: bool = False) -> Any:
    """Batch normalisation layer with scale (ones), shift (zeros) and moving statistics.

    In training (``is_test=False``) the batch statistics normalise the input and the moving
    mean / variance (persistable, non-trainable) are updated in place every time the program
    runs: ``moving = momentum * moving + (1 - momentum) * batch``. ``Program.clone(for_test=True)``
    switches the op to the moving statistics.

    Args:
        input (Tensor): 2-D to 5-D input.
        act (str, optional): activation name.
        is_test (bool): use the moving statistics.
        momentum (float): weight of the old moving statistics.
        epsilon (float): added to the variance.
        param_attr, bias_attr (ParamAttr, optional): scale and shift attributes.
        data_layout (str): ``'NCHW'`` (channel axis 1) or ``'NHWC'`` (last).
        in_place (bool): unused.
        name (str, optional): parameter name prefix.
        moving_mean_name, moving_variance_name (str, optional): names of the statistics.
        do_model_average_for_mean_and_var (bool): unused.
        use_global_stats (bool): always use the moving statistics.

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('bn_doc_x', [None, 3, 4, 4], 'float32')
        >>> paddle.static.nn.batch_norm(x).shape
        paddle.Size([-1, 3, 4, 4])
        >>> paddle.disable_static()
    """
    from pagaie.framework.param_attr import ParamAttr
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"paddle.static.nn.batch_norm: data_layout must be 'NCHW' or 'NHWC', but "
                         f"received {data_layout!r}")
    nd = len(input.shape)
    if not 2 <= nd <= 5:
        raise ValueError(f"paddle.static.nn.batch_norm: the input must be 2-D to 5-D, but it is {nd}-D")
    last = data_layout == "NHWC"
    c = input.shape[-1 if last else 1]
    dt = _dtype_of(input)
    stat_dt = "float32" if dt in ("float16", "bfloat16") else dt
    prefix = _prefix(name, "batch_norm")
    scale = make_parameter([c], param_attr, stat_dt, False, _constant(1.0), prefix)
    shift = make_parameter([c], bias_attr, stat_dt, True, None, prefix)
    mean = make_parameter([c], ParamAttr(name=moving_mean_name, initializer=_constant(0.0),
                                         trainable=False), stat_dt, False, None, prefix)
    var = make_parameter([c], ParamAttr(name=moving_variance_name, initializer=_constant(1.0),
                                        trainable=False), stat_dt, False, None, prefix)
    fmt = {2: "NC", 3: "NLC" if last else "NCL", 4: data_layout, 5: "NDHWC" if last else "NCDHW"}[nd]
    out = _F().batch_norm(input, mean, var, scale, shift, training=not is_test, momentum=momentum,
                          epsilon=epsilon, data_format=fmt,
                          use_global_stats=True if (use_global_stats or is_test) else None)
    return _act(out, act, "batch_norm")


def layer_norm(input: Any, scale: bool = True, shift: bool = True, begin_norm_axis: int = 1,
               epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
               act: str | None = None, name: str | None = None) -> Any:
    """Layer normalisation over the axes from ``begin_norm_axis`` on, with a 1-D scale (ones)
    and shift (zeros) of ``prod(input.shape[begin_norm_axis:])`` elements.

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('ln_doc_x', [None, 3, 4], 'float32')
        >>> paddle.static.nn.layer_norm(x, begin_norm_axis=1).shape
        paddle.Size([-1, 3, 4])
        >>> paddle.disable_static()
    """
    if not 0 < begin_norm_axis < len(input.shape):  # (ValueError, as Paddle's op check)
        raise ValueError(f"paddle.static.nn.layer_norm: begin_norm_axis must be in [1, "
                         f"{len(input.shape) - 1}] for a {len(input.shape)}-D input, but received "
                         f"{begin_norm_axis}")
    shape = list(input.shape[begin_norm_axis:])
    if any(d < 0 for d in shape):
        raise ValueError("paddle.static.nn.layer_norm: the normalised dims must be known")
    n = int(math.prod(shape))
    prefix = _prefix(name, "layer_norm")
    dt = _dtype_of(input)
    w = make_parameter([n], param_attr, dt, False, _constant(1.0), prefix) if scale else None
    b = make_parameter([n], bias_attr, dt, True, None, prefix) if shift else None
    out = _F().layer_norm(input, shape, w, b, epsilon)
    return _act(out, act, "layer_norm")


def group_norm(input: Any, groups: int, epsilon: float = 1e-05, param_attr: Any = None,
               bias_attr: Any = None, act: str | None = None, data_layout: str = "NCHW",
               name: str | None = None) -> Any:
    """Group normalisation with per-channel scale (ones) and shift (zeros).

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('gn_doc_x', [None, 4, 2, 2], 'float32')
        >>> paddle.static.nn.group_norm(x, groups=2).shape
        paddle.Size([-1, 4, 2, 2])
        >>> paddle.disable_static()
    """
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"paddle.static.nn.group_norm: data_layout must be 'NCHW' or 'NHWC', but "
                         f"received {data_layout!r}")
    c = input.shape[-1 if data_layout == "NHWC" else 1]
    prefix = _prefix(name, "group_norm")
    dt = _dtype_of(input)
    w = None if param_attr is False else make_parameter([c], param_attr, dt, False, _constant(1.0), prefix)
    b = None if bias_attr is False else make_parameter([c], bias_attr, dt, True, None, prefix)
    out = _F().group_norm(input, groups, epsilon, w, b, data_format=data_layout)
    return _act(out, act, "group_norm")


def instance_norm(input: Any, epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
                  name: str | None = None) -> Any:
    """Instance normalisation with per-channel scale (ones) and shift (zeros).

    Returns:
        Tensor: the normalised input.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('in_doc_x', [None, 3, 4, 4], 'float32')
        >>> paddle.static.nn.instance_norm(x).shape
        paddle.Size([-1, 3, 4, 4])
        >>> paddle.disable_static()
    """
    c = input.shape[1]
    prefix = _prefix(name, "instance_norm")
    dt = _dtype_of(input)
    w = None if param_attr is False else make_parameter([c], param_attr, dt, False, _constant(1.0), prefix)
    b = None if bias_attr is False else make_parameter([c], bias_attr, dt, True, None, prefix)
    return _F().instance_norm(input, weight=w, bias=b, eps=epsilon)


def embedding(input: Any, size: Sequence[int], is_sparse: bool = False, is_distributed: bool = False,
              padding_idx: int | None = None, param_attr: Any = None, dtype: str = "float32") -> Any:
    """Embedding lookup with its own table ``[size[0], size[1]]`` (Xavier init).

    Args:
        input (Tensor): int64 ids.
        size (tuple[int, int]): vocabulary size and embedding width.
        is_sparse, is_distributed (bool): unused (gradients are dense).
        padding_idx (int, optional): an id whose output is zeros and gets no gradient.
        param_attr (ParamAttr, optional): table attributes.
        dtype (str): table dtype.

    Returns:
        Tensor: ``input.shape + [size[1]]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> ids = paddle.static.data('emb_doc_ids', [None, 5], 'int64')
        >>> paddle.static.nn.embedding(ids, size=[10, 3]).ndim
        3
        >>> paddle.disable_static()
    """
    if len(size) != 2:
        raise ValueError(f"paddle.static.nn.embedding: size must be [vocab, width], but received {size}")
    if _dtype_of(input) != "int64":  # (TypeError, as Paddle's dtype check: int64 ids only)
        raise TypeError(f"paddle.static.nn.embedding: the data type of input must be int64, but "
                        f"received {_dtype_of(input)}")
    w = make_parameter(list(size), param_attr, dtype, False, None, unique_name.generate("embedding"))
    if padding_idx is not None and padding_idx < 0:
        padding_idx += size[0]
    if padding_idx is not None and not 0 <= padding_idx < size[0]:
        padding_idx = None  # (as Paddle's static layer: an index no id equals pads nothing)
    return _F().embedding(input, w, padding_idx=padding_idx)


def sparse_embedding(input: Any, size: Sequence[int], padding_idx: int | None = None,
                     is_test: bool = False, entry: Any = None, table_class: str = "MemorySparseTable",
                     param_attr: Any = None, dtype: str = "float32", slot: Any = None) -> Any:
    """Embedding for parameter-server training; pagaie keeps the table dense and local, so
    this is :func:`embedding` (same results, dense gradients).

    Returns:
        Tensor: ``input.shape + [size[1]]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> ids = paddle.static.data('semb_doc_ids', [None, 2], 'int64')
        >>> paddle.static.nn.sparse_embedding(ids, size=[8, 4]).ndim
        3
        >>> paddle.disable_static()
    """
    return embedding(input, size, padding_idx=padding_idx, param_attr=param_attr, dtype=dtype)


def prelu(x: Any, mode: str, param_attr: Any = None, data_format: str = "NCHW",
          name: str | None = None) -> Any:
    """PReLU with a learned slope (0.25 initially): one for ``'all'``, one per channel for
    ``'channel'``, one per element of a sample for ``'element'``.

    Returns:
        Tensor: ``max(0, x) + alpha * min(0, x)``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('prelu_doc_x', [None, 3, 2], 'float32')
        >>> paddle.static.nn.prelu(x, 'channel').shape
        paddle.Size([-1, 3, 2])
        >>> paddle.disable_static()
    """
    if _dtype_of(x) not in ("float16", "float32", "float64"):  # (TypeError, as Paddle's check)
        raise TypeError(f"paddle.static.nn.prelu: the data type of x must be float16, float32 or "
                        f"float64, but received {_dtype_of(x)}")
    if mode not in ("all", "channel", "element"):
        raise ValueError(f"paddle.static.nn.prelu: mode must be 'all', 'channel' or 'element', but "
                         f"received {mode!r}")
    prefix = _prefix(name, "prelu")
    dt = _dtype_of(x)
    # The slope's shape is Paddle's (so that saved parameters move both ways): [1] for 'all',
    # [1, C, 1, 1] (or [1, 1, 1, C] channels-last) for 'channel', [1, *x.shape[1:]] for 'element'.
    if mode == "all":
        shape = [1]
    elif mode == "channel":
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"paddle.static.nn.prelu: data_format must be one of 'NC', 'NCL', "
                             f"'NCHW', 'NCDHW', 'NLC', 'NHWC', 'NDHWC', but received {data_format!r}")
        assert len(x.shape) >= 2, (f"paddle.static.nn.prelu: x must have at least 2 dimensions when "
                                   f"mode is 'channel', but its shape is {list(x.shape)}")
        last = data_format[1] != "C"
        shape = [1, 1, 1, x.shape[-1]] if last else [1, x.shape[1], 1, 1]
    else:
        assert len(x.shape) >= 1, (f"paddle.static.nn.prelu: x must have at least 1 dimension when "
                                   f"mode is 'element', but its shape is {list(x.shape)}")
        shape = [1, *list(x.shape)[1:]]
    alpha = make_parameter(shape, param_attr, dt, False, _constant(0.25), prefix)
    if mode == "element":
        import pagaie as paddle
        return paddle.where(x > 0, x, alpha * x)
    weight = alpha.reshape([-1])
    return _F().prelu(x, weight, data_format="NHWC" if mode == "channel" and last else "NCHW")


def spectral_norm(weight: Any, dim: int = 0, power_iters: int = 1, eps: float = 1e-12,
                  name: str | None = None) -> Any:
    """``weight / sigma``, sigma the largest singular value of ``weight`` viewed as a matrix
    with ``dim`` as rows, estimated by ``power_iters`` power iterations from the vectors ``u``
    and ``v`` (non-trainable, normal init): Paddle's ``spectral_norm`` op, its gradient too.

    Returns:
        Tensor: the normalised weight (same shape).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> w = paddle.static.data('sn_doc_w', [4, 3], 'float32')
        >>> paddle.static.nn.spectral_norm(w, power_iters=2).shape
        paddle.Size([4, 3])
        >>> paddle.disable_static()
    """
    from pagaie.framework.param_attr import ParamAttr
    from pagaie.nn.initializer import Normal
    if _dtype_of(weight) not in ("float32", "float64"):  # (TypeError, as Paddle's dtype check)
        raise TypeError(f"paddle.static.nn.spectral_norm: the data type of weight must be float32 or "
                        f"float64, but received {_dtype_of(weight)}")
    if dim not in (0, 1):
        raise ValueError(f"paddle.static.nn.spectral_norm: dim must be 0 (the weight of fc) or 1 (the "
                         f"weight of conv), but received {dim}")
    shape = list(weight.shape)
    nd = len(shape)
    if nd < 2:
        raise ValueError(f"paddle.static.nn.spectral_norm: weight must have at least 2 dimensions, "
                         f"but its shape is {shape}")
    h = shape[dim]
    w_ = int(math.prod(shape)) // h
    prefix = _prefix(name, "spectral_norm")
    dt = _dtype_of(weight)
    u = make_parameter([h], ParamAttr(initializer=Normal(0.0, 1.0), trainable=False), dt, False, None, prefix)
    v = make_parameter([w_], ParamAttr(initializer=Normal(0.0, 1.0), trainable=False), dt, False, None, prefix)
    from pagaie._ops.nn_norm import spectral_norm as spectral_norm_op
    return spectral_norm_op(weight, u, v, dim, power_iters, eps)


def bilinear_tensor_product(x: Any, y: Any, size: int, act: str | None = None, name: str | None = None,
                            param_attr: Any = None, bias_attr: Any = None) -> Any:
    """``out[:, i] = x @ W[i] @ y^T + b[i]`` with a learned ``W`` of ``[size, dx, dy]``.

    Returns:
        Tensor: ``[batch, size]``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('btp_doc_x', [None, 3], 'float32')
        >>> y = paddle.static.data('btp_doc_y', [None, 2], 'float32')
        >>> paddle.static.nn.bilinear_tensor_product(x, y, 4).shape
        paddle.Size([-1, 4])
        >>> paddle.disable_static()
    """
    prefix = _prefix(name, "bilinear_tensor_product")
    dt = _dtype_of(x)
    w = make_parameter([size, x.shape[1], y.shape[1]], param_attr, dt, False, None, prefix)
    b = None if bias_attr is False else make_parameter([1, size], bias_attr, dt, True, None, prefix)
    return _act(_F().bilinear(x, y, w, b), act, "bilinear_tensor_product")


def row_conv(input: Any, future_context_size: int, param_attr: Any = None, act: str | None = None) -> Any:
    """Lookahead (row) convolution over time for padded ``[batch, time, dim]`` input, or
    ``[time, dim]`` for one sequence (a tensor without LoD, as Paddle reads it):
    ``out[t] = sum_{i=0..k} input[t + i] * filter[i]`` (zeros past the end), filter
    ``[k + 1, dim]``.

    Returns:
        Tensor: same shape as ``input``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> x = paddle.static.data('rc_doc_x', [None, 5, 3], 'float32')
        >>> paddle.static.nn.row_conv(x, 2).shape
        paddle.Size([-1, 5, 3])
        >>> paddle.disable_static()
    """
    nd = len(input.shape)
    if nd not in (2, 3):
        raise ValueError(f"paddle.static.nn.row_conv: input must be [batch, time, dim] or [time, dim] "
                         f"(there are no LoD tensors), but its shape is {list(input.shape)}")
    import pagaie as paddle
    k = int(future_context_size)
    d = input.shape[-1]
    f = make_parameter([k + 1, d], param_attr, _dtype_of(input), False, None,
                       unique_name.generate("row_conv"))
    seqs = input if nd == 3 else paddle.unsqueeze(input, 0)
    xt = paddle.transpose(seqs, [0, 2, 1])
    xt = _F().pad(xt, [0, k], data_format="NCL")
    w = paddle.unsqueeze(paddle.transpose(f, [1, 0]), 1)
    out = paddle.transpose(_F().conv1d(xt, w, groups=d), [0, 2, 1])
    if nd == 2:
        out = paddle.squeeze(out, 0)
    return _act(out, act, "row_conv")


def nce(input: Any, label: Any, num_total_classes: int, sample_weight: Any = None,
        param_attr: Any = None, bias_attr: Any = None, num_neg_samples: int | None = None,
        name: str | None = None, sampler: str = "uniform", custom_dist: Any = None, seed: int = 0,
        is_sparse: bool = False) -> Any:
    """Noise-contrastive estimation loss: not available (Paddle's PIR mode rejects it with a
    ``TypeError``; pagaie raises an error that is both that and a ``NotImplementedError``)."""
    raise _NoNCEError("paddle.static.nn.nce: noise-contrastive estimation is not implemented in "
                      "pagaie (nor in Paddle's PIR mode)")


class _NoNCEError(NotImplementedError, TypeError):
    """``nce`` is unavailable (a ``TypeError`` as in Paddle's PIR mode)."""
