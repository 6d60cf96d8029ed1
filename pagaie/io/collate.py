"""Batching samples (collate), and turning a collated batch into what the DataLoader yields.

Collating follows Paddle: numpy arrays are stacked with numpy, numbers become a numpy array,
Tensors are stacked, strings are kept as a list, dicts and sequences are collated field by
field. The DataLoader then gives every array and tensor leaf as a Tensor, every sequence as a
list and every mapping as a dict; strings, numbers and other objects pass through unchanged.
"""
from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any, Callable

import numpy as np
import torch

from pagaie._core.tensor import Tensor, wrap

__all__ = ["default_collate_fn", "default_convert_fn"]

# Set in worker processes that move batches through shared memory: allocates the output of
# a large ``np.stack`` directly in shared memory (see ``pagaie.io.worker``).
_stack_out: Callable[[tuple, np.dtype], np.ndarray | None] | None = None


def _stack_tensors(batch: Sequence[Any]) -> Tensor:
    # Paddle stacks with paddle.stack, which wants Tensors of one dtype (ValueError otherwise).
    # torch.stack is called directly so that collating never records ops in static mode.
    ts = []
    for i, b in enumerate(batch):
        t = b._t if isinstance(b, Tensor) else b
        if not isinstance(t, torch.Tensor):
            raise ValueError("paddle.io.DataLoader: default_collate_fn stacks the Tensor field of every sample, "
                             f"but sample {i} gives {type(b).__name__} there")
        if ts and t.dtype != ts[0].dtype:
            raise ValueError("paddle.io.DataLoader: default_collate_fn stacks Tensors of one dtype, but sample 0 "
                             f"gives {wrap(ts[0]).dtype} and sample {i} gives {wrap(t).dtype}")
        if ts and t.shape != ts[0].shape:
            raise ValueError("paddle.io.DataLoader: default_collate_fn stacks Tensors of one shape, but sample 0 "
                             f"gives shape {list(ts[0].shape)} and sample {i} gives {list(t.shape)}")
        ts.append(t)
    return wrap(torch.stack(ts, 0))


def default_collate_fn(batch: Sequence[Any]) -> Any:
    """Merge a list of samples into one batch, field by field.

    Args:
        batch (list): the samples; each a numpy array, number, string, Tensor, or a
            dict / list / tuple of those (nested freely, the same layout in every sample).

    Returns:
        The batch: arrays and numbers stacked into numpy arrays, Tensors stacked into a
        Tensor, strings kept as a list, dicts as dicts and sequences as lists of batches.

    Examples:
        >>> import numpy as np
        >>> from pagaie.io.collate import default_collate_fn
        >>> out = default_collate_fn([{'x': np.zeros([2]), 'y': 1}, {'x': np.ones([2]), 'y': 2}])
        >>> out['x'].shape, out['y'].tolist()
        ((2, 2), [1, 2])
    """
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        shapes = {tuple(np.shape(b)) for b in batch}  # a Tensor field's shape is a paddle.Size
        if len(shapes) > 1:
            raise ValueError("paddle.io.DataLoader: default_collate_fn stacks numpy arrays of one shape, but the "
                             f"samples give shapes {sorted(shapes)}")
        out = _stack_out((len(batch),) + sample.shape, sample.dtype) if _stack_out is not None else None
        return np.stack(batch, axis=0, out=out) if out is not None else np.stack(batch, axis=0)
    if isinstance(sample, (Tensor, torch.Tensor)):
        return _stack_tensors(batch)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([d[key] for d in batch]) for key in sample}
    if isinstance(sample, Sequence):
        n = len(sample)
        if any(len(s) != n for s in batch):
            raise RuntimeError("paddle.io.DataLoader: fields number not same among samples in a batch, got "
                               f"{[len(s) for s in batch]}")
        return [default_collate_fn(fields) for fields in zip(*batch)]
    raise TypeError("paddle.io.DataLoader: batch data can only contain Tensor, numpy.ndarray, dict, list, "
                    f"number or str, but got {type(sample)}")


def default_convert_fn(batch: Any) -> Any:
    """The collate function used without automatic batching (``batch_size=None``): the sample
    is kept as is, with sequences made lists.

    Args:
        batch: one sample.

    Returns:
        The sample, sequences given as lists and mappings as dicts.

    Examples:
        >>> from pagaie.io.collate import default_convert_fn
        >>> default_convert_fn((1, ('a', 2.5)))
        [1, ['a', 2.5]]
    """
    if isinstance(batch, (Tensor, torch.Tensor, np.ndarray, str, bytes)):
        return batch
    if isinstance(batch, Mapping):
        return {k: default_convert_fn(v) for k, v in batch.items()}
    if isinstance(batch, Sequence):
        return [default_convert_fn(d) for d in batch]
    return batch


def _leaf_to_torch(x: Any) -> torch.Tensor:
    if isinstance(x, Tensor):
        return x._t.detach()
    if isinstance(x, torch.Tensor):
        return x.detach()
    if not (x.flags.c_contiguous and x.flags.writeable):
        x = np.array(x, order="C", copy=True)
    if x.dtype == np.uint16:  # Paddle's convention: uint16 arrays hold bfloat16 bit patterns
        return torch.from_numpy(x.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(x)


def to_output(batch: Any, device: torch.device | None = None) -> Any:
    """Give a collated batch the form the DataLoader yields: array and tensor leaves as
    Tensors (on ``device`` when given), sequences as lists, mappings as dicts."""
    if isinstance(batch, (np.ndarray, Tensor, torch.Tensor)):
        if isinstance(batch, np.ndarray) and batch.dtype.kind not in "biufc":
            return batch
        t = _leaf_to_torch(batch)
        if device is not None and t.device != device:
            t = t.to(device)
        return wrap(t)
    if isinstance(batch, (str, bytes, numbers.Number)):
        return batch
    if isinstance(batch, Mapping):
        return {k: to_output(v, device) for k, v in batch.items()}
    if isinstance(batch, Sequence):
        return [to_output(v, device) for v in batch]
    return batch
