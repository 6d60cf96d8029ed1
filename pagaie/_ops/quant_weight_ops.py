"""Weight-only and LLM.int8 quantization ops (``paddle.nn.quant``).

``weight_quantize`` turns a float16 / bfloat16 weight ``[k, n]`` (``k`` inputs, ``n``
outputs) into int8 levels with one scale per output column (``group_size=-1``) or per
group of ``group_size`` input rows:

- ``scale = max|w| / bound`` (``bound`` 127 for int8, 7 for int4), kept in ``w``'s dtype
  (float32 for ``'llm.int8'``);
- ``q = clip(round_half_away(w / scale), -bound, bound)``.

``'llm.int8'`` returns ``q`` transposed (``[n, k]`` int8). The weight-only algorithms
return the layout the mixed-precision GEMM kernels read for the target ``arch``:

- ``arch=70``: the row-major levels made unsigned (``+128`` / ``+8`` for int4) with the
  elements of each 32-bit register reordered;
- ``arch`` 75 / 80 / 86 / 89 / 90 / 100: rows permuted in MMA tiles, transposed,
  columns interleaved in 64-row tiles, then made unsigned and reordered per register.

int4 levels are packed two a byte (first element in the low nibble), so the int4 output
is ``[n / 2, k]``. The layout is an index permutation of the levels
(:func:`_layout_perm`, cached per shape), so the dequantize and linear ops undo it
exactly. Paddle runs only ``weight_quantize`` on the CPU; the other kernels here follow
the semantics of its GPU kernels, computed in float32 and cast to the activation dtype.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from pagaie._core.registry import defop

__all__: list[str] = []  # public through pagaie.nn.quant

ALGOS = ("weight_only_int8", "weight_only_int4", "llm.int8", "w4a8", "w4afp8")
ARCHS = (70, 75, 80, 86, 89, 90, 100)
_LOW = (torch.float16, torch.bfloat16)


def default_arch() -> int:
    """The compute capability of the current CUDA device, or 80 without one (see module doc)."""
    if torch.cuda.is_available():
        major, minor = torch.cuda.get_device_capability()
        return major * 10 + minor
    return 80


def check_group_size(group_size, what: str = "group_size") -> None:
    """Paddle asserts (``AssertionError``) that the group size is -1, 64 or 128."""
    if group_size not in (-1, 64, 128):
        raise AssertionError(f"Currently {what} only support -1/64/128. but got {group_size} ")


def _check_arch(arch: int, api: str) -> None:
    if arch not in ARCHS:
        raise ValueError(f"paddle.nn.quant.{api}: 'arch' only supports 70, 75, 80, 86, 89, 90, "
                         f"100, but received {arch!r}")


def _bits(algo: str) -> int:
    return 4 if algo == "weight_only_int4" else 8


# ---------------------------------------------------------------------------------------------
# layout
# ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _layout_perm(k: int, n: int, bits: int, arch: int) -> torch.Tensor:
    """``out_flat[i] = levels_flat[perm[i]]`` for the row-major ``[k, n]`` levels."""
    regs = 32 // bits                                  # elements per 32-bit register
    idx = np.arange(k * n, dtype=np.int64)
    if arch != 70:
        rows = idx.reshape(k, n)
        tile = 8 * (16 // bits)                        # B rows of one MMA
        t = np.arange(tile)
        src = 8 * ((t % regs) // 2) + t % 2 + 2 * (t // regs)
        rows = rows.reshape(k // tile, tile, n)[:, src, :].reshape(k, n)
        cols = rows.T.reshape(n, k // regs, regs)      # transposed: [n, k] in registers
        inter = 16 // bits                             # columns interleaved together
        vtile = 64 // regs                             # registers in a 64-row tile
        c = np.arange(n)[:, None]
        r = np.arange(k // regs)[None, :]
        dest = ((c // inter) * (k // regs) * inter + inter * (r // vtile) * vtile
                + vtile * (c % inter) + r % vtile)
        out = np.empty(cols.shape, dtype=np.int64)
        out.reshape(-1, regs)[dest.reshape(-1)] = cols.reshape(-1, regs)
        idx = out.reshape(-1)
    order = np.array([0, 2, 1, 3] if bits == 8 else [0, 2, 4, 6, 1, 3, 5, 7])
    idx = idx.reshape(-1, regs)[:, order].reshape(-1)
    return torch.from_numpy(idx)


def _check_layout_shape(k: int, n: int, bits: int, arch: int, api: str) -> None:
    if arch == 70:
        ok = (k * n) % (32 // bits) == 0 and (bits == 8 or n % 2 == 0)
    else:
        ok = k % 64 == 0 and n % (32 if bits == 8 else 64) == 0
    if not ok:
        need = ("k * n divisible by 4 (8 for int4)" if arch == 70 else
                f"k divisible by 64 and n divisible by {32 if bits == 8 else 64}")
        raise ValueError(f"paddle.nn.quant.{api}: the weight-only layout for arch {arch} needs {need}, "
                         f"but the weight has shape [{k}, {n}]")


def _pack(levels: torch.Tensor, bits: int, arch: int) -> torch.Tensor:
    """Levels ``[k, n]`` (int) -> the kernel layout (int8 ``[n, k]`` or ``[n/2, k]``)."""
    k, n = levels.shape
    flat = levels.reshape(-1)[_layout_perm(k, n, bits, arch).to(levels.device)]
    if bits == 8:
        return (flat + 128).to(torch.uint8).view(torch.int8).reshape(n, k)
    nib = (flat + 8).to(torch.uint8).reshape(-1, 2)
    return (nib[:, 0] | (nib[:, 1] << 4)).view(torch.int8).reshape(n // 2, k)


def _unpack(packed: torch.Tensor, bits: int, arch: int, k: int) -> torch.Tensor:
    """Inverse of :func:`_pack`: the levels ``[k, n]`` (int32)."""
    raw = packed.reshape(-1).view(torch.uint8).to(torch.int32)
    if bits == 8:
        flat = raw - 128
    else:
        flat = torch.stack([raw & 0xF, raw >> 4], dim=1).reshape(-1) - 8
    n = flat.numel() // k
    levels = torch.empty_like(flat)
    levels[_layout_perm(k, n, bits, arch).to(flat.device)] = flat
    return levels.reshape(k, n)


# ---------------------------------------------------------------------------------------------
# scales
# ---------------------------------------------------------------------------------------------

def _scales(w: torch.Tensor, bound: float, group_size: int, dtype: torch.dtype) -> torch.Tensor:
    a = w.float().abs()
    if group_size == -1:
        return (a.amax(0) / bound).to(dtype)
    k, n = a.shape
    groups = -(-k // group_size)
    pad = groups * group_size - k
    if pad:
        a = torch.cat([a, a.new_zeros(pad, n)])
    return (a.reshape(groups, group_size, n).amax(1) / bound).to(dtype)


def _row_scales(scale: torch.Tensor, k: int, group_size: int) -> torch.Tensor:
    """A scale broadcast over the ``[k, n]`` weight."""
    s = scale.float()
    if group_size == -1:
        return s.reshape(1, -1)
    return s.reshape(-1, s.shape[-1]).repeat_interleave(group_size, 0)[:k]


def _round_half_away(v: torch.Tensor) -> torch.Tensor:
    return torch.sign(v) * torch.floor(v.abs() + 0.5)


# ---------------------------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------------------------

@defop(method=False, differentiable=False, paddle_types=("weight_quantize", "pd_op.weight_quantize"))
def weight_quantize(x, algo="weight_only_int8", arch=None, group_size=-1):
    """The kernel of :func:`pagaie.nn.quant.weight_quantize` (documented there)."""
    arch = default_arch() if arch is None else arch
    check_group_size(group_size)
    if algo not in ALGOS:
        raise ValueError(f"paddle.nn.quant.weight_quantize: 'algo' must be in {list(ALGOS)}, "
                         f"but received {algo!r}")
    if algo in ("w4a8", "w4afp8"):
        raise NotImplementedError(f"paddle.nn.quant.weight_quantize: algo {algo!r} (the W4A8 GEMM "
                                  f"layout) is not implemented in pagaie")
    _check_arch(arch, "weight_quantize")
    if x.dtype not in _LOW:
        raise RuntimeError(f"paddle.nn.quant.weight_quantize: 'x' must be float16 or bfloat16, "
                           f"but received {str(x.dtype).replace('torch.', '')}")
    if x.ndim != 2:
        raise ValueError(f"paddle.nn.quant.weight_quantize: 'x' must be 2-D, but received a "
                         f"{x.ndim}-D tensor")
    bits = _bits(algo)
    bound = 127.0 if bits == 8 else 7.0
    scale = _scales(x, bound, group_size, torch.float32 if algo == "llm.int8" else x.dtype)
    k = x.shape[0]
    levels = _round_half_away(x.float() / _row_scales(scale, k, group_size))
    levels = levels.clamp(-bound, bound).to(torch.int32)
    if algo == "llm.int8":
        return levels.t().contiguous().to(torch.int8), scale
    _check_layout_shape(k, x.shape[1], bits, arch, "weight_quantize")
    return _pack(levels, bits, arch), scale


def _weight_levels(weight: torch.Tensor, algo: str, arch: int, k: int | None, api: str) -> torch.Tensor:
    """The ``[k, n]`` integer levels held by a quantized weight."""
    if weight.dtype != torch.int8 or weight.ndim != 2:
        raise ValueError(f"paddle.nn.quant.{api}: 'weight' must be a 2-D int8 tensor, but received "
                         f"{list(weight.shape)} {str(weight.dtype).replace('torch.', '')}")
    if algo == "llm.int8":
        return weight.t().to(torch.int32)
    bits = _bits(algo)
    k = weight.shape[1] if k is None else k
    n = weight.shape[0] * (2 if bits == 4 else 1)
    _check_layout_shape(k, n, bits, arch, api)
    return _unpack(weight, bits, arch, k)


@defop(method=False, differentiable=False,
       paddle_types=("weight_dequantize", "pd_op.weight_dequantize"))
def weight_dequantize(x, scale, algo="weight_only_int8", out_dtype="float16", group_size=-1):
    """The kernel of :func:`pagaie.nn.quant.weight_dequantize` (documented there)."""
    check_group_size(group_size)
    if algo not in ("weight_only_int8", "weight_only_int4", "llm.int8"):
        raise ValueError(f"paddle.nn.quant.weight_dequantize: 'algo' must be in ['weight_only_int8', "
                         f"'weight_only_int4', 'llm.int8'], but received {algo!r}")
    levels = _weight_levels(x, algo, default_arch(), None, "weight_dequantize")
    w = levels.float() * _row_scales(scale, levels.shape[0], group_size)
    return w.to(scale.dtype)


@defop(method=False, amp="white", paddle_types=("weight_only_linear", "pd_op.weight_only_linear"))
def weight_only_linear(x, weight, bias=None, weight_scale=None, weight_dtype="int8", arch=None,
                       group_size=-1):
    """The kernel of :func:`pagaie.nn.quant.weight_only_linear` (documented there)."""
    arch = default_arch() if arch is None else arch
    _check_arch(arch, "weight_only_linear")
    check_group_size(group_size)
    if weight_dtype not in ("int8", "int4"):
        raise ValueError(f"paddle.nn.quant.weight_only_linear: 'weight_dtype' must be 'int8' or "
                         f"'int4', but received {weight_dtype!r}")
    if weight_scale is None:
        raise ValueError("paddle.nn.quant.weight_only_linear: 'weight_scale' is required")
    algo = "weight_only_int8" if weight_dtype == "int8" else "weight_only_int4"
    levels = _weight_levels(weight, algo, arch, x.shape[-1], "weight_only_linear")
    w = levels.float() * _row_scales(weight_scale, levels.shape[0], group_size)
    out = torch.matmul(x.float(), w)
    if bias is not None:
        out = out + bias.float()
    return out.to(x.dtype)


@defop(method=False, amp="white", paddle_types=("llm_int8_linear", "pd_op.llm_int8_linear"))
def llm_int8_linear(x, weight, bias=None, weight_scale=None, threshold=6.0):
    """The kernel of :func:`pagaie.nn.quant.llm_int8_linear` (documented there)."""
    if weight_scale is None:
        raise ValueError("paddle.nn.quant.llm_int8_linear: 'weight_scale' is required")
    levels = _weight_levels(weight, "llm.int8", 80, None, "llm_int8_linear").float()  # [k, n]
    ws = weight_scale.float().reshape(1, -1)
    xf = x.float()
    outlier = (xf.abs() >= threshold).reshape(-1, xf.shape[-1]).any(0)         # input features
    regular = torch.where(outlier, torch.zeros_like(xf), xf)
    row_max = regular.abs().amax(-1, keepdim=True)
    row_scale = torch.where(row_max > 0, row_max / 127.0, torch.ones_like(row_max))
    xq = _round_half_away(regular / row_scale).clamp(-127, 127)
    out = torch.matmul(xq, levels) * row_scale * ws
    if bool(outlier.any()):
        out = out + torch.matmul(xf[..., outlier], levels[outlier] * ws)
    if bias is not None:
        out = out + bias.float()
    return out.to(x.dtype)


@defop(method=False, paddle_types=("apply_per_channel_scale", "pd_op.apply_per_channel_scale"))
def apply_per_channel_scale(x, scales):
    """The kernel of :func:`pagaie.nn.quant.apply_per_channel_scale` (documented there)."""
    if scales.ndim != 1 or scales.shape[0] != x.shape[-1]:
        raise ValueError(f"paddle.nn.quant.apply_per_channel_scale: 'scales' must be 1-D with "
                         f"{x.shape[-1]} values (the last dimension of 'x'), but received shape "
                         f"{list(scales.shape)}")
    return (x * scales.to(x.dtype))
