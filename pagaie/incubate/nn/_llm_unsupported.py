"""Names of ``paddle.incubate.nn.functional`` that pagaie does not implement: float8
quantisation kernels (torch on the CPU has no block-scaled float8 arithmetic matching
Paddle's CUDA kernels bit for bit) and undocumented backward/routing kernels. Each keeps
Paddle's signature and raises NotImplementedError naming the op and the reason."""
from __future__ import annotations

_API = "paddle.incubate.nn.functional"


def _refuse(api: str, why: str):
    raise NotImplementedError(f"{_API}.{api} is not supported in pagaie: it is {why}, which "
                              "Paddle provides only as a CUDA kernel")


def fused_act_dequant(x, x_scale):
    """Not supported: ``fused_act_dequant`` is float8 dequantisation (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fused_act_dequant  # doctest: +ELLIPSIS
        <function fused_act_dequant at ...>
    """
    _refuse("fused_act_dequant", "float8 dequantisation")


def fp8_quant_blockwise(x, epsilon=0.0, input_transpose=False, output_scale_transpose=True,
                        return_transpose_only=False, using_pow2_scale=True,
                        using_ue8m0_scale=False, quant_method='1x128', output_type='e4m3',
                        name=None):
    """Not supported: ``fp8_quant_blockwise`` is float8 quantisation (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fp8_quant_blockwise  # doctest: +ELLIPSIS
        <function fp8_quant_blockwise at ...>
    """
    _refuse("fp8_quant_blockwise", "float8 quantisation")


def fp8_gemm_blockwise(a, a_decode_scale, b, b_decode_scale, out_dtype, out=None, bias=None,
                       accumulate=False, use_split_accumulator=True, is_a_1d_scaled=True,
                       is_b_1d_scaled=True):
    """Not supported: ``fp8_gemm_blockwise`` is float8 block-scaled GEMM (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fp8_gemm_blockwise  # doctest: +ELLIPSIS
        <function fp8_gemm_blockwise at ...>
    """
    _refuse("fp8_gemm_blockwise", "float8 block-scaled GEMM")


def fused_stack_transpose_quant(x, transpose=True):
    """Not supported: ``fused_stack_transpose_quant`` is float8 quantisation (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fused_stack_transpose_quant  # doctest: +ELLIPSIS
        <function fused_stack_transpose_quant at ...>
    """
    _refuse("fused_stack_transpose_quant", "float8 quantisation")


def fused_transpose_split_quant(x, input_scales, tokens_per_expert, pow_2_scales=False):
    """Not supported: ``fused_transpose_split_quant`` is float8 quantisation (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fused_transpose_split_quant  # doctest: +ELLIPSIS
        <function fused_transpose_split_quant at ...>
    """
    _refuse("fused_transpose_split_quant", "float8 quantisation")


def fused_transpose_wlch_split_quant(x, tokens_per_expert, pow_2_scales=False):
    """Not supported: ``fused_transpose_wlch_split_quant`` is float8 quantisation (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fused_transpose_wlch_split_quant  # doctest: +ELLIPSIS
        <function fused_transpose_wlch_split_quant at ...>
    """
    _refuse("fused_transpose_wlch_split_quant", "float8 quantisation")


def fused_swiglu_weighted_bwd(o1, do2_s, unzipped_probs, name=None):
    """Not supported: ``fused_swiglu_weighted_bwd`` is a hand-written backward kernel whose output layout Paddle does not document (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fused_swiglu_weighted_bwd  # doctest: +ELLIPSIS
        <function fused_swiglu_weighted_bwd at ...>
    """
    _refuse("fused_swiglu_weighted_bwd", "a hand-written backward kernel whose output layout Paddle does not document")


def fused_weighted_swiglu_act_quant(x, prob=None, using_pow2_scaling=False, name=None):
    """Not supported: ``fused_weighted_swiglu_act_quant`` is float8 quantisation (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.fused_weighted_swiglu_act_quant  # doctest: +ELLIPSIS
        <function fused_weighted_swiglu_act_quant at ...>
    """
    _refuse("fused_weighted_swiglu_act_quant", "float8 quantisation")


def cross_entropy_with_softmax_bwd_w_downcast(label, softmax, loss_grad, name=None):
    """Not supported: ``cross_entropy_with_softmax_bwd_w_downcast`` is a backward kernel whose output dtype Paddle does not document (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.cross_entropy_with_softmax_bwd_w_downcast  # doctest: +ELLIPSIS
        <function cross_entropy_with_softmax_bwd_w_downcast at ...>
    """
    _refuse("cross_entropy_with_softmax_bwd_w_downcast", "a backward kernel whose output dtype Paddle does not document")


def moe_gate_dispatch_and_quant(x, gate_logits, corr_bias, k, capacity, use_pad, use_pow2_scale):
    """Not supported: ``moe_gate_dispatch_and_quant`` is float8 quantisation (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.moe_gate_dispatch_and_quant  # doctest: +ELLIPSIS
        <function moe_gate_dispatch_and_quant at ...>
    """
    _refuse("moe_gate_dispatch_and_quant", "float8 quantisation")


def moe_gate_dispatch_partial_nosoftmaxtopk(x, combine_weights, expert_id, k, capacity,
                                            num_experts, use_pad, expert_start_index,
                                            expert_end_index, reverse_token_drop, name=None):
    """Not supported: ``moe_gate_dispatch_partial_nosoftmaxtopk`` is a routing variant (partial expert range, reverse token drop) whose semantics Paddle does not document (Paddle: CUDA only).

    Raises:
        NotImplementedError: always.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.nn.functional.moe_gate_dispatch_partial_nosoftmaxtopk  # doctest: +ELLIPSIS
        <function moe_gate_dispatch_partial_nosoftmaxtopk at ...>
    """
    _refuse("moe_gate_dispatch_partial_nosoftmaxtopk", "a routing variant (partial expert range, reverse token drop) whose semantics Paddle does not document")
