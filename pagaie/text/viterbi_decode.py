"""``paddle.text.viterbi_decode`` and ``ViterbiDecoder``: the best tag path of a linear-chain CRF."""
from __future__ import annotations

import torch

from pagaie._core.registry import NoKernelError, defop
from pagaie.nn import Layer

__all__ = ["viterbi_decode", "ViterbiDecoder"]


def _name(dtype: torch.dtype) -> str:
    return "paddle." + str(dtype).replace("torch.", "")


@defop(paddle_types=("viterbi_decode", "pd_op.viterbi_decode"), method=False, differentiable=False)
def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True, name=None):
    """Decode the highest-scoring tag sequence of each batch entry (Viterbi algorithm).

    Args:
        potentials (Tensor): Emission scores, shape [batch_size, seq_len, num_tags], float32 or float64.
        transition_params (Tensor): Transition scores [num_tags, num_tags]; entry (i, j) scores
            tag i followed by tag j.
        lengths (Tensor): int64 lengths of the sequences, shape [batch_size].
        include_bos_eos_tag (bool, optional): If True, the last tag is the start tag and the
            second to last the stop tag: their rows of ``transition_params`` are added at the
            first and last step of each sequence. Default: True.
        name (str, optional): Unused; kept for Paddle compatibility. Default: None.

    Returns:
        tuple: (scores, path): the best path scores [batch_size] (dtype of ``potentials``) and
        the int64 tag paths [batch_size, max(lengths)], zero-padded past each length.

    Examples:
        >>> import pagaie as paddle
        >>> emission = paddle.to_tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]])
        >>> transition = paddle.zeros([2, 2])
        >>> scores, path = paddle.text.viterbi_decode(emission, transition, paddle.to_tensor([3]), False)
        >>> scores.tolist(), path.tolist()
        ([3.0], [[0, 1, 0]])
    """
    for arg, value in (("potentials", potentials), ("transition_params", transition_params), ("lengths", lengths)):
        if not isinstance(value, torch.Tensor):
            raise ValueError(f"paddle.text.viterbi_decode: '{arg}' must be a Tensor, but received "
                             f"{type(value).__name__}")
    if include_bos_eos_tag is not None and not isinstance(include_bos_eos_tag, bool):
        raise TypeError(f"paddle.text.viterbi_decode: 'include_bos_eos_tag' must be a bool, but "
                        f"received {type(include_bos_eos_tag).__name__} {include_bos_eos_tag!r}")
    if potentials.dim() != 3:
        raise ValueError("paddle.text.viterbi_decode: 'potentials' must be 3-D [batch_size, seq_len, num_tags], "
                         f"but received shape {list(potentials.shape)}")
    batch, _, n = potentials.shape
    if transition_params.dim() != 2 or list(transition_params.shape) != [n, n]:
        raise ValueError(f"paddle.text.viterbi_decode: 'transition_params' must have shape [{n}, {n}] "
                         f"(num_tags of 'potentials'), but received {list(transition_params.shape)}")
    if lengths.dim() != 1 or lengths.shape[0] != batch:
        raise ValueError(f"paddle.text.viterbi_decode: 'lengths' must have shape [{batch}], "
                         f"but received {list(lengths.shape)}")
    if transition_params.dtype != potentials.dtype:
        raise ValueError(f"paddle.text.viterbi_decode: 'transition_params' must have the dtype of 'potentials' "
                         f"({_name(potentials.dtype)}), but received {_name(transition_params.dtype)}")
    if potentials.dtype not in (torch.float32, torch.float64):  # Paddle's CPU kernel: NotFound
        raise NoKernelError(f"paddle.text.viterbi_decode: 'potentials' must be float32 or float64, but "
                            f"received {_name(potentials.dtype)}")
    if lengths.dtype != torch.int64:  # Paddle's kernel reads int64 data only (even int32 fails)
        raise ValueError(f"paddle.text.viterbi_decode: 'lengths' must be an int64 tensor, "
                         f"but received {_name(lengths.dtype)}")
    if n < 2:  # Paddle's kernel splits the transitions into n - 2 rows, then stop and start
        raise ValueError(f"paddle.text.viterbi_decode: 'potentials' must have at least 2 tags, but received "
                         f"shape {list(potentials.shape)}")
    if lengths.numel():
        longest = int(lengths.max())
        # Paddle sizes the path by the longest length: a negative one fails to allocate
        # (RuntimeError); other negative lengths just mask every step, as zero lengths do.
        if longest < 0:
            raise RuntimeError(f"paddle.text.viterbi_decode: the longest of 'lengths' must be non-negative, "
                               f"but received {lengths.tolist()}")
        if longest > potentials.shape[1]:
            raise IndexError(f"paddle.text.viterbi_decode: 'lengths' must not exceed seq_len "
                             f"({potentials.shape[1]}) of 'potentials', but received {lengths.tolist()}")
    # The decoded path has no gradient; Paddle's scores never carry one either.
    potentials, transition_params = potentials.detach(), transition_params.detach()
    dtype = potentials.dtype
    trans = transition_params
    left = lengths.reshape(-1).to(torch.int64).clone()
    max_len = int(left.max()) if left.numel() else 0
    start, stop = trans[n - 1], trans[n - 2]
    alpha = potentials[:, 0]
    if include_bos_eos_tag:
        alpha = alpha + start + stop * (left == 1).to(dtype).unsqueeze(1)
    left -= 1
    history = []
    for i in range(1, max_len):
        best, arg = (alpha.unsqueeze(2) + trans.unsqueeze(0)).max(dim=1)
        history.append(arg)
        keep = (left > 0).to(dtype).unsqueeze(1)
        alpha = alpha * (1 - keep) + (best + potentials[:, i]) * keep
        if include_bos_eos_tag:
            alpha = alpha + stop * (left == 1).to(dtype).unsqueeze(1)
        left -= 1
    scores, last = alpha.max(dim=1)
    path = torch.zeros(max_len, batch, dtype=torch.int64, device=potentials.device)
    if max_len:
        path[max_len - 1] = last * (left >= 0)
    # Walk back; a sequence ending at step t gets its last tag there and zeros after it.
    for k, arg in enumerate(reversed(history)):
        left += 1
        prev = arg.gather(1, last.unsqueeze(1)).squeeze(1) * (left > 0)
        ends = left == 0
        prev = torch.where(ends, last, prev)
        last = prev + last * (left < 0)
        path[max_len - 2 - k] = prev
    return scores, path.t().contiguous()


class ViterbiDecoder(Layer):
    """A Layer holding CRF transition scores that decodes with :func:`viterbi_decode`.

    Args:
        transitions (Tensor): Transition scores [num_tags, num_tags].
        include_bos_eos_tag (bool, optional): See :func:`viterbi_decode`. Default: True.
        name (str, optional): Unused; kept for Paddle compatibility. Default: None.

    Examples:
        >>> import pagaie as paddle
        >>> decoder = paddle.text.ViterbiDecoder(paddle.zeros([3, 3]), include_bos_eos_tag=False)
        >>> scores, path = decoder(paddle.ones([2, 4, 3]), paddle.to_tensor([4, 2]))
        >>> path.shape
        paddle.Size([2, 4])
    """

    def __init__(self, transitions, include_bos_eos_tag: bool = True, name: str | None = None) -> None:
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name)
