"""``paddle.incubate.DistributedFusedLamb``: Paddle's static-graph, multi-GPU LAMB that
shards optimizer state across NCCL ranks with one fused CUDA kernel. Dygraph is refused,
as in Paddle; pagaie has no fused kernel for the static graph either."""
from __future__ import annotations

from typing import Any, Callable, Sequence

__all__ = ["DistributedFusedLamb"]


class DistributedFusedLamb:
    """LAMB fused across GPUs (Paddle: static graph and CUDA only).

    Paddle refuses dygraph mode with an AssertionError; pagaie does the same, and raises
    NotImplementedError in static mode, where Paddle would need its fused multi-GPU
    ``distributed_fused_lamb`` kernel and NCCL communicators. Use
    ``paddle.optimizer.Lamb`` (with ``paddle.distributed`` data parallelism) instead.

    Args:
        learning_rate (float, optional): Default 0.001.
        lamb_weight_decay (float, optional): Default 0.01.
        beta1, beta2, epsilon (float, optional): Defaults 0.9, 0.999, 1e-6.
        parameters (list, optional), grad_clip (ClipGradByGlobalNorm, optional),
        exclude_from_weight_decay_fn (callable, optional), clip_after_allreduce (bool),
        is_grad_scaled_by_nranks (bool), alignment (int), use_master_param_norm (bool),
        gradient_accumulation_steps (int), use_master_acc_grad (bool),
        nproc_per_node (int, optional), use_hierarchical_allreduce (bool), name (str):
        Paddle's options, accepted for signature compatibility.

    Examples:
        >>> import pagaie as paddle
        >>> try:
        ...     paddle.incubate.DistributedFusedLamb()
        ... except AssertionError as e:
        ...     print(e)
        DistributedFusedLamb does not support dygraph mode
    """

    def __init__(self, learning_rate: float = 0.001, lamb_weight_decay: float = 0.01,
                 beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-6,
                 parameters: Sequence | None = None, grad_clip: Any = None,
                 exclude_from_weight_decay_fn: Callable | None = None,
                 clip_after_allreduce: bool = True, is_grad_scaled_by_nranks: bool = True,
                 alignment: int = 128, use_master_param_norm: bool = True,
                 gradient_accumulation_steps: int = 1, use_master_acc_grad: bool = True,
                 nproc_per_node: int | None = None, use_hierarchical_allreduce: bool = False,
                 name: str | None = None) -> None:
        from pagaie import in_dynamic_mode
        if in_dynamic_mode():
            raise AssertionError("DistributedFusedLamb does not support dygraph mode")
        raise NotImplementedError(
            "paddle.incubate.DistributedFusedLamb: the static-graph multi-GPU fused LAMB kernel "
            "is not available in pagaie; use paddle.optimizer.Lamb instead")
