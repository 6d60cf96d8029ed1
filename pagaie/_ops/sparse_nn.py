"""``paddle.sparse.nn.functional``: activations, softmax, convolutions, max pooling,
batch norm and attention over sparse tensors.

Activations map the stored values. Softmax normalises over the entries stored along an
axis. Convolutions and pooling are computed densely (a sparse COO input ``[N, *spatial, C]``
is scattered into a dense array) and re-sparsified with Paddle's output rules: a regular
sparse convolution or pooling keeps every output site that some stored input site reaches
through the kernel (sorted), a submanifold convolution keeps exactly the input's sites (in
their order) with a centred kernel and stride 1. Dense work costs memory proportional to the
full dense size.
"""
from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn.functional as TF

from pagaie._core.registry import defop
from pagaie._ops import _sparse_core as sc
from pagaie._ops.nn_norm import batch_norm as _bn
from pagaie._ops.sparse_math import map_values

_dense_batch_norm = _bn.op_record.kernel

_T = torch.Tensor
_COO, _CSR = torch.sparse_coo, torch.sparse_csr

__all__ = ["sparse_relu", "sparse_relu6", "sparse_leaky_relu", "sparse_softmax",
           "sparse_conv2d", "sparse_conv3d", "sparse_subm_conv2d", "sparse_subm_conv3d",
           "sparse_subm_conv2d_igemm", "sparse_subm_conv3d_igemm", "sparse_max_pool3d",
           "sparse_batch_norm", "sparse_attention_csr"]


def _float_values(api: str, x: Any) -> None:
    """Paddle's CPU kernels of the activations and softmax take float32/float64 values only."""
    sc.check_sparse(api, x)
    sc.value_kernel(api, x, sc.FLOATS)


@defop("sparse_relu", method=False, paddle_types=("sparse_relu",))
def sparse_relu(x, name=None):
    """``max(x, 0)`` of the stored values (pattern and layout kept).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [-1.0, 2.0], [3])
        >>> paddle.sparse.nn.functional.relu(x).values().tolist()
        [0.0, 2.0]
    """
    _float_values("sparse.nn.functional.relu", x)
    return map_values(x, torch.relu, "sparse.nn.functional.relu")


@defop("sparse_relu6", method=False, paddle_types=("sparse_relu6",))
def sparse_relu6(x, name=None):
    """``min(max(x, 0), 6)`` of the stored values (pattern and layout kept).

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [-1.0, 8.0], [3])
        >>> paddle.sparse.nn.functional.relu6(x).values().tolist()
        [0.0, 6.0]
    """
    _float_values("sparse.nn.functional.relu6", x)
    return map_values(x, TF.relu6, "sparse.nn.functional.relu6")


@defop("sparse_leaky_relu", method=False, paddle_types=("sparse_leaky_relu",))
def sparse_leaky_relu(x, negative_slope=0.01, name=None):
    """Leaky ReLU of the stored values: ``x`` if positive, else ``negative_slope * x``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 2]], [-1.0, 2.0], [3])
        >>> paddle.sparse.nn.functional.leaky_relu(x, 0.5).values().tolist()
        [-0.5, 2.0]
    """
    _float_values("sparse.nn.functional.leaky_relu", x)
    return map_values(x, lambda v: TF.leaky_relu(v, negative_slope), "sparse.nn.functional.leaky_relu")


def _segment_softmax(v: torch.Tensor, groups: torch.Tensor) -> torch.Tensor:
    """Softmax of ``v`` within each group id (dim 0), other dims independent."""
    uniq, inv = torch.unique(groups, return_inverse=True)
    shape = (uniq.numel(),) + tuple(v.shape[1:])
    mx = v.new_full(shape, -math.inf).scatter_reduce(
        0, inv.reshape((-1,) + (1,) * (v.dim() - 1)).expand_as(v), v.detach(), "amax")
    e = torch.exp(v - mx[inv])
    return e / v.new_zeros(shape).index_add(0, inv, e)[inv]


@defop("sparse_softmax", method=False, amp="black", paddle_types=("sparse_softmax",))
def sparse_softmax(x, axis=-1, name=None):
    """Softmax over the stored entries along ``axis`` (missing entries do not take part).

    COO tensors take any axis; CSR tensors only the last one.

    Args:
        x (Tensor): a sparse COO or CSR tensor.
        axis (int, optional): the axis to normalise along. Default -1.
        name (str, optional): unused.

    Returns:
        Tensor: a sparse tensor of the same layout and pattern.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 1.0, 5.0], [2, 3])
        >>> paddle.sparse.nn.functional.softmax(x).values().tolist()
        [0.5, 0.5, 1.0]
    """
    api = "sparse.nn.functional.softmax"
    _float_values(api, x)
    n = x.dim()
    if not -n <= axis < n:
        raise ValueError(f"paddle.{api}: axis must be in [{-n}, {n}), but received {axis}")
    axis %= n
    if x.layout is _CSR:
        if axis != n - 1:
            raise NotImplementedError(f"paddle.{api}: a sparse CSR tensor only supports axis=-1, "
                                      f"but received axis={axis}")
        coo = sc.csr_to_coo(x)
        rows = sc.linear_keys(coo._indices()[:-1], list(x.shape[:-1]))
        return map_values(x, lambda v: _segment_softmax(v.reshape(-1), rows).reshape(v.shape), api)
    sdim = x.sparse_dim()
    idx, v = x._indices(), sc.coo_values(x)
    if axis >= sdim:
        out = torch.softmax(v, axis - sdim + 1)
    else:
        keep = [d for d in range(sdim) if d != axis]
        out = _segment_softmax(v, sc.linear_keys(idx[keep], [x.shape[d] for d in keep]))
    out = sc.coo(idx, out, x.shape, x.is_coalesced())  # Paddle keeps the input's flag
    return sc.keep_index_dtype(out, x)


# ---- convolution and pooling -------------------------------------------------------

def _tuple(v: Any, nd: int, what: str, api: str) -> list[int]:
    if isinstance(v, int):
        return [v] * nd
    v = sc.shape_list(v)
    if len(v) != nd:
        raise ValueError(f"paddle.{api}: {what} must be an int or {nd} ints, but received {v}")
    return v


def _pads(padding: Any, nd: int, ksize: list, stride: list, dilation: list, spatial: list,
          api: str) -> list[tuple[int, int]]:
    """(before, after) padding per spatial axis, from Paddle's padding forms."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "VALID":
            return [(0, 0)] * nd
        if mode != "SAME":
            raise ValueError(f"paddle.{api}: padding must be 'SAME' or 'VALID', but received "
                             f"{padding!r}")
        out = []
        for n, k, s, d in zip(spatial, ksize, stride, dilation):
            total = max((math.ceil(n / s) - 1) * s + (k - 1) * d + 1 - n, 0)
            out.append((total // 2, total - total // 2))
        return out
    if isinstance(padding, int):
        return [(padding, padding)] * nd
    p = list(padding)
    if p and isinstance(p[0], (list, tuple)):
        p = [tuple(q) for q in p]
        if len(p) == nd + 2:  # batch and channel entries included (channel last)
            p = p[1:-1]
        return [(int(a), int(b)) for a, b in p]
    p = sc.shape_list(p)
    if len(p) == nd:
        return [(a, a) for a in p]
    if len(p) == 2 * nd:
        return [(p[2 * i], p[2 * i + 1]) for i in range(nd)]
    raise ValueError(f"paddle.{api}: padding must be an int, {nd} ints or {2 * nd} ints, but "
                     f"received {p}")


def _conv_input(x: torch.Tensor, nd: int, fmt: str, want: str, api: str) -> None:
    if fmt != want:
        raise ValueError(f"paddle.{api}: data_format must be '{want}', but received {fmt!r}")
    if isinstance(x, _T) and x.dim() != nd + 2:  # checked first in Paddle (a CSR is 2-D/3-D)
        raise ValueError(f"paddle.{api}: x must be a {nd + 2}-D tensor, but received shape "
                         f"{list(x.shape)}")
    if not isinstance(x, _T) or x.layout is not _COO:
        raise NotImplementedError(f"paddle.{api}: x must be a sparse COO tensor, but received "
                                  f"{sc.layout_name(x)}")
    if x.sparse_dim() != nd + 1:
        raise ValueError(f"paddle.{api}: x must be a {nd + 2}-D sparse tensor with {nd + 1} "
                         f"sparse dimensions ({want}, values [nnz, C]), but received shape "
                         f"{list(x.shape)} with {x.sparse_dim()} sparse dimensions")


def _channels_first(d: torch.Tensor, nd: int) -> torch.Tensor:
    return d.permute(0, nd + 1, *range(1, nd + 1))


def _padded(d: torch.Tensor, pads: list, value: float = 0.0) -> torch.Tensor:
    flat = []
    for a, b in reversed(pads):
        flat += [a, b]
    return TF.pad(d, flat, value=value) if any(flat) else d


def _conv(x, weight, bias, stride, padding, dilation, groups, data_format, subm, nd, api):
    want = "NHWC" if nd == 2 else "NDHWC"
    _conv_input(x, nd, data_format, want, api)
    sc.value_kernel(api, x, sc.FLOATS)
    if groups != 1:
        raise AssertionError(f"paddle.{api}: only groups=1 is supported, but received {groups}")
    ksize = list(weight.shape[:nd])
    if weight.dim() != nd + 2 or weight.shape[nd] != x.shape[-1]:
        raise ValueError(f"paddle.{api}: weight must be [{', '.join(['k'] * nd)}, in_channels="
                         f"{x.shape[-1]}, out_channels], but received {list(weight.shape)}")
    stride = _tuple(stride, nd, "stride", api)
    dilation = _tuple(dilation, nd, "dilation", api)
    conv = TF.conv2d if nd == 2 else TF.conv3d
    w = weight.permute(nd + 1, nd, *range(nd))                     # [Cout, Cin, *k]
    if subm and not sc.is_ordered(x):  # Paddle's result holds the input's sites sorted, once each
        x = sc.coalesce(x)
    dense = _channels_first(sc.coo_to_dense(x), nd)
    idx = x._indices()
    if subm and any(d != 1 for d in dilation):
        raise NotImplementedError(f"paddle.{api}: a submanifold convolution with dilation "
                                  f"{dilation} is not supported (Paddle's own result drops input "
                                  "sites there); use dilation=1")
    if subm:
        # Paddle's rule: out[q] = sum_o w[o] * x[q - k // 2 + o * dilation] at the input sites,
        # and the reported size of each spatial axis is n + 2 * (k // 2) - dilation * (k - 1)
        pads = [(k // 2, (k - 1) * d - k // 2) for k, d in zip(ksize, dilation)]
        out = conv(_padded(dense, pads), w, None, 1, 0, dilation)
        vals = out.permute(0, *range(2, nd + 2), 1)[tuple(idx)]
        spatial = [n + 2 * (k // 2) - d * (k - 1)
                   for n, k, d in zip(x.shape[1:-1], ksize, dilation)]
        shape = [x.shape[0]] + spatial + [weight.shape[-1]]
        res_idx, coalesced = idx, True
    else:
        pads = _pads(padding, nd, ksize, stride, dilation, list(x.shape[1:-1]), api)
        out = conv(_padded(dense, pads), w, None, stride, 0, dilation)
        occ = torch.zeros((x.shape[0], 1) + tuple(x.shape[1:-1]), dtype=out.dtype, device=out.device)
        occ[(idx[0], torch.zeros_like(idx[0])) + tuple(idx[1:])] = 1
        reach = conv(_padded(occ, pads), torch.ones((1, 1) + tuple(ksize), dtype=out.dtype,
                                                    device=out.device), None, stride, 0, dilation)
        res_idx = (reach[:, 0] > 0).nonzero().T
        last = out.permute(0, *range(2, nd + 2), 1)
        vals = last[tuple(res_idx)]
        shape = list(last.shape)
        coalesced = True
    if bias is not None:  # Paddle adds the bias as a separate op, whose result is uncoalesced
        vals, coalesced = vals + bias, False
    return sc.coo(res_idx, vals, shape, coalesced=coalesced)


def _conv_doc(fn, nd: int, subm: bool, igemm: bool = False):
    kind = "submanifold " if subm else ""
    fmt = "NHWC" if nd == 2 else "NDHWC"
    rule = ("The output keeps exactly the input's sites (the kernel is centred with k // 2 "
            "padding; stride and padding do not move them)." if subm else
            "The output holds every site that some stored input site reaches through the kernel.")
    extra = " (the implicit-GEMM backend of Paddle: same result)" if igemm else ""
    fn.__doc__ = f"""Sparse {kind}{nd}-D convolution{extra} of a sparse COO tensor ``[N, {', '.join(fmt[1:-1])}, C]``.

    {rule}

    Args:
        x (Tensor): the sparse COO input, {nd + 1} sparse dimensions, values ``[nnz, C]``.
        weight (Tensor): the kernel ``[{', '.join(['k' + c.lower() for c in fmt[1:-1]])}, C, out_channels]``.
        bias (Tensor, optional): ``[out_channels]``, added to every output entry.
        stride (int|list, optional): the stride. Default 1.
        padding (int|list|str, optional): the padding. Default 0.
        dilation (int|list, optional): the dilation. Default 1.
        groups (int, optional): must be 1.
        data_format (str, optional): must be ``'{fmt}'``.
        name (str, optional): unused.

    Returns:
        Tensor: the sparse COO output ``[N, ..., out_channels]``.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 0]{', [1, 2]' * nd}], [[1.0], [2.0]], [1{', 4' * nd}, 1])
        >>> w = paddle.ones([{'3, ' * nd}1, 2])
        >>> y = paddle.sparse.nn.functional.{'subm_' if subm else ''}conv{nd}d{'_igemm' if igemm else ''}(x, w, padding=1)
        >>> y.shape
        paddle.Size([1{', 4' * nd}, 2])
    """
    return fn


def _conv_op(nd: int, subm: bool, igemm: bool = False):
    name = f"{'subm_' if subm else ''}conv{nd}d{'_igemm' if igemm else ''}"
    api = f"sparse.nn.functional.{name}"
    fmt = "NHWC" if nd == 2 else "NDHWC"
    if subm:
        def kernel(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                   data_format=fmt, key=None, name=None):
            return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, True,
                         nd, api)
    else:
        def kernel(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
                   data_format=fmt, name=None):
            return _conv(x, weight, bias, stride, padding, dilation, groups, data_format, False,
                         nd, api)
    kernel.__name__ = f"sparse_{name}"
    _conv_doc(kernel, nd, subm, igemm)
    types = ("sparse_conv3d_implicit_gemm",) if igemm else ("sparse_conv3d",)
    return defop(f"sparse_{name}", method=False, amp="white", paddle_types=types)(kernel)


sparse_conv2d = _conv_op(2, False)
sparse_conv3d = _conv_op(3, False)
sparse_subm_conv2d = _conv_op(2, True)
sparse_subm_conv3d = _conv_op(3, True)
sparse_subm_conv2d_igemm = _conv_op(2, True, True)
sparse_subm_conv3d_igemm = _conv_op(3, True, True)


@defop("sparse_max_pool3d", method=False, paddle_types=("sparse_maxpool",))
def sparse_max_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False,
                      data_format="NDHWC", name=None):
    """3-D max pooling of a sparse COO tensor ``[N, D, H, W, C]`` over stored sites only.

    An output site exists where its window holds at least one stored input site; its value
    is the maximum over those sites (missing sites are not zeros here).

    Args:
        x (Tensor): the sparse COO input, 4 sparse dimensions, values ``[nnz, C]``.
        kernel_size (int|list): the window size.
        stride (int|list, optional): the stride; ``kernel_size`` when None.
        padding (int|list|str, optional): the padding. Default 0.
        ceil_mode (bool, optional): checked only (it must be False with a 'VALID' padding):
            as in Paddle, output sizes are rounded down. Default False.
        data_format (str, optional): must be ``'NDHWC'``.
        name (str, optional): unused.

    Returns:
        Tensor: the sparse COO output.

    Examples:
        >>> import pagaie as paddle
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 0], [0, 1], [0, 1], [0, 1]], [[-1.0], [-2.0]], [1, 2, 2, 2, 1])
        >>> paddle.sparse.nn.functional.max_pool3d(x, 2).values().tolist()
        [[-1.0]]
    """
    api = "sparse.nn.functional.max_pool3d"
    if data_format != "NDHWC":  # Paddle asserts here (ValueError only for the convolutions)
        raise AssertionError(f"paddle.{api}: data_format must be 'NDHWC', but received "
                             f"{data_format!r}")
    if not isinstance(x, _T) or x.layout is not _COO:  # Paddle asserts this too
        raise AssertionError(f"paddle.{api}: x must be a sparse COO tensor, but received "
                             f"{sc.layout_name(x)}")
    _conv_input(x, 3, data_format, "NDHWC", api)
    if ceil_mode and isinstance(padding, str) and padding.upper() == "VALID":
        raise ValueError(f"paddle.{api}: when padding is 'VALID', ceil_mode must be False, but "
                         "received ceil_mode=True")
    sc.value_kernel(api, x, sc.FLOATS)
    ksize = _tuple(kernel_size, 3, "kernel_size", api)
    stride = ksize if stride is None else _tuple(stride, 3, "stride", api)
    pads = _pads(padding, 3, ksize, stride, [1, 1, 1], list(x.shape[1:-1]), api)
    cx = x if x.is_coalesced() else sc.coalesce(x)
    idx, v = cx._indices(), sc.coo_values(cx)
    dense = v.new_full(tuple(x.shape), -math.inf).index_put(tuple(idx), v)
    dense = _padded(_channels_first(dense, 3), pads, -math.inf)
    # Paddle's kernel does not take ceil_mode: output sizes are always rounded down
    out = TF.max_pool3d(dense, ksize, stride, 0)
    occ = torch.zeros((x.shape[0], 1) + tuple(x.shape[1:-1]), dtype=v.dtype, device=v.device)
    occ[(idx[0], torch.zeros_like(idx[0])) + tuple(idx[1:])] = 1
    reach = TF.max_pool3d(_padded(occ, pads), ksize, stride, 0)
    res_idx = (reach[:, 0] > 0).nonzero().T
    last = out.permute(0, 2, 3, 4, 1)
    return sc.coo(res_idx, last[tuple(res_idx)], list(last.shape), coalesced=True)


@defop("sparse_batch_norm", method=False, amp="black", paddle_types=("sparse_batch_norm",))
def sparse_batch_norm(x, running_mean, running_var, weight, bias, training=False, momentum=0.9,
                      epsilon=1e-05, data_format="NDHWC", use_global_stats=None, name=None,
                      constant_stats=False):
    """Batch normalisation of a sparse COO tensor's values ``[nnz, C]`` over the stored entries.

    Running statistics are updated in place in training (Paddle's momentum convention:
    ``running = momentum * running + (1 - momentum) * batch``). ``constant_stats`` (Paddle's test
    mode with batch statistics) normalises with the batch statistics but differentiates as if
    the updated running statistics had been used.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._ops.sparse_nn import sparse_batch_norm
        >>> x = paddle.sparse.sparse_coo_tensor([[0, 1]], [[1.0], [3.0]], [2, 1])
        >>> y = sparse_batch_norm(x, paddle.zeros([1]), paddle.ones([1]),
        ...     paddle.ones([1]), paddle.zeros([1]), training=True)
        >>> [round(v, 3) for v in y.values().reshape([-1]).tolist()]
        [-1.0, 1.0]
    """
    api = "sparse.nn.functional.batch_norm"
    sc.check_sparse(api, x, coo_only=True)
    v = sc.coo_values(x)
    v2 = v.reshape(v.shape[0], -1)
    if constant_stats:
        with torch.no_grad():
            mean, var = v2.mean(0), v2.var(0, unbiased=False)
            running_mean.mul_(momentum).add_(mean, alpha=1 - momentum)
            running_var.mul_(momentum).add_(var, alpha=1 - momentum)
        # forward with the batch statistics, gradients as with the (updated) running ones
        glob = TF.batch_norm(v2, running_mean.clone(), running_var.clone(), weight, bias, False,
                             0.0, epsilon)
        out = glob + (TF.batch_norm(v2, mean, var, weight, bias, False, 0.0, epsilon) - glob).detach()
    else:
        out = _dense_batch_norm(v2, running_mean, running_var, weight, bias, training, momentum,
                                epsilon, "NC", use_global_stats)
    return sc.keep_index_dtype(sc.coo(x._indices(), out.reshape(v.shape), x.shape), x)


@defop("sparse_attention_csr", method=False, amp="black", paddle_types=("sparse_fused_attention",))
def sparse_attention_csr(query, key, value, sparse_mask, key_padding_mask=None, attn_mask=None,
                         name=None):
    """Attention whose score matrix only exists on the pattern of a 3-D CSR ``sparse_mask``.

    ``softmax(Q K^T / sqrt(head_dim)) V`` where the softmax runs over each row's stored
    entries; an entry is also left out where ``key_padding_mask[b, col]`` or
    ``attn_mask[row, col]`` is 0.

    Args:
        query (Tensor): ``[batch, heads, seq_len, head_dim]``.
        key (Tensor): same shape as ``query``.
        value (Tensor): same shape as ``query``.
        sparse_mask (Tensor): a CSR tensor ``[batch * heads, seq_len, seq_len]``.
        key_padding_mask (Tensor, optional): ``[batch, seq_len]``.
        attn_mask (Tensor, optional): ``[seq_len, seq_len]``.
        name (str, optional): unused.

    Returns:
        Tensor: ``[batch, heads, seq_len, head_dim]``.

    Examples:
        >>> import pagaie as paddle
        >>> q = paddle.ones([1, 1, 2, 4])
        >>> mask = paddle.to_tensor([[[1.0, 0.0], [1.0, 1.0]]]).to_sparse_csr()
        >>> paddle.sparse.nn.functional.attention(q, q, q, mask).shape
        paddle.Size([1, 1, 2, 4])
    """
    api = "sparse.nn.functional.attention"
    for nm, t in (("query", query), ("key", key), ("value", value)):
        if t.dim() != 4:
            raise ValueError(f"paddle.{api}: '{nm}' must be a 4-D tensor, but received shape "
                             f"{list(t.shape)}")
    b, h, m, d = query.shape
    if not isinstance(sparse_mask, _T) or sparse_mask.layout is not _CSR:
        raise NotImplementedError(f"paddle.{api}: sparse_mask must be a sparse CSR tensor, but "
                                  f"received {sc.layout_name(sparse_mask)}")
    if list(sparse_mask.shape) != [b * h, m, m]:
        raise ValueError(f"paddle.{api}: the dense shape of sparse_mask must be [batch_size * "
                         f"num_heads, seq_len, seq_len] = {[b * h, m, m]}, but received "
                         f"{list(sparse_mask.shape)}")
    idx = sc.csr_to_coo(sparse_mask.detach())._indices()
    bh, row, col = idx[0], idx[1], idx[2]
    q, k, v = query.reshape(b * h, m, d), key.reshape(b * h, m, d), value.reshape(b * h, m, d)
    scores = (q[bh, row] * k[bh, col]).sum(-1) / math.sqrt(d)
    masked = torch.zeros_like(scores, dtype=torch.bool)
    if key_padding_mask is not None:
        masked |= key_padding_mask[torch.div(bh, h, rounding_mode="floor"), col] == 0
    if attn_mask is not None:
        masked |= attn_mask[row, col] == 0
    scores = scores.masked_fill(masked, -math.inf)
    p = _segment_softmax(scores, bh * m + row)
    out = q.new_zeros(b * h * m, d).index_add(0, bh * m + row, p.unsqueeze(-1) * v[bh, col])
    return out.reshape(b, h, m, d)
