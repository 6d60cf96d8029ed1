"""``paddle.metric.accuracy``: the top-k accuracy of a batch, as an op record."""
from __future__ import annotations

import torch

from pagaie._core.registry import defop
from pagaie._core.registry import NoKernelError
from pagaie._ops._helpers import F32_F64, kernel_dtypes

__all__ = ["accuracy"]


def _write_count(out: torch.Tensor | None, value: torch.Tensor) -> None:
    """Store a count into a user-given ``correct``/``total`` tensor: as in Paddle, it
    becomes a 0-D int32 tensor whatever its shape and dtype were."""
    if out is None:
        return
    with torch.no_grad():
        out.data = value.detach().clone()


@defop(program_dtypes={"input": F32_F64}, paddle_types=("accuracy", "pd_op.accuracy"), method=False,
       differentiable=False)
def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """Fraction of samples whose label is among the ``k`` highest-scored classes.

    Args:
        input (Tensor): scores of shape ``[N, C]``, float32/float64 (float16/bfloat16 on GPU).
        label (Tensor): class indices of shape ``[N, 1]``, int32 or int64.
        k (int, optional): how many top classes count as a hit. Default 1.
        correct (Tensor, optional): receives the number of hits (int32, 0-D).
        total (Tensor, optional): receives the number of samples (int32, 0-D).
        name (str, optional): unused.

    Returns:
        Tensor: the accuracy, a float32 0-D tensor.

    Examples:
        >>> import pagaie as paddle
        >>> scores = paddle.to_tensor([[0.1, 0.9, 0.0], [0.8, 0.2, 0.0], [0.3, 0.3, 0.4]])
        >>> label = paddle.to_tensor([[1], [1], [0]])
        >>> float(paddle.metric.accuracy(scores, label))
        0.3333333432674408
        >>> float(paddle.metric.accuracy(scores, label, k=2))
        1.0
    """
    for what, out in (("correct", correct), ("total", total)):
        if out is not None and not isinstance(out, torch.Tensor):
            raise ValueError(f"paddle.metric.accuracy: '{what}' must be a Tensor, but received "
                             f"{type(out).__name__}")
    if input.dim() != 2:
        raise ValueError(f"paddle.metric.accuracy: 'input' must be 2-D [sample_number, class_dim], "
                         f"but received a tensor of shape {list(input.shape)}")
    if label.dim() != 2:
        raise ValueError(f"paddle.metric.accuracy: 'label' must be 2-D [sample_number, 1], but "
                         f"received a tensor of shape {list(label.shape)}")
    if label.shape[1] != 1:
        raise ValueError(f"paddle.metric.accuracy: the second dimension of 'label' must be 1, but "
                         f"received a tensor of shape {list(label.shape)}")
    if label.shape[0] != input.shape[0]:
        raise ValueError(f"paddle.metric.accuracy: 'input' and 'label' must have the same number of "
                         f"rows, but received {input.shape[0]} and {label.shape[0]}")
    if label.dtype not in (torch.int32, torch.int64):
        raise ValueError(f"paddle.metric.accuracy: 'label' must be int32 or int64, but received "
                         f"{str(label.dtype).replace('torch.', '')}")
    if not input.is_floating_point():
        # Paddle has no accuracy kernel for other dtypes and says so with a RuntimeError
        raise NoKernelError(f"paddle.metric.accuracy: 'input' must be a floating tensor, but "
                               f"received {str(input.dtype).replace('torch.', '')}")
    # (Paddle's CPU kernels, its topk's included, have no float16 or bfloat16 version)
    kernel_dtypes("metric.accuracy", input, F32_F64, arg="input")
    if label.numel() and label.device.type != "meta" and bool((label < 0).any()):
        raise ValueError(f"paddle.metric.accuracy: 'label' must be >= 0, but received "
                         f"{int(label.min())}")
    k = int(k)
    if not 0 < k <= input.shape[1]:
        raise ValueError(f"paddle.metric.accuracy: 'k' must be in [1, {input.shape[1]}], but "
                         f"received {k}")
    indices = torch.topk(input, k, dim=1).indices
    hits = (indices == label[:, :1].to(torch.int64)).any(dim=1).sum().to(torch.int32)
    n = torch.tensor(input.shape[0], dtype=torch.int32, device=input.device)
    _write_count(correct, hits)
    _write_count(total, n)
    return hits.to(torch.float32) / max(input.shape[0], 1)
