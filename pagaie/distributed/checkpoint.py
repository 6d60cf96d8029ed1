"""Distributed checkpoints: each rank saves its pieces with their global offsets; loading
assembles every key from all pieces and copies each rank's region into its tensors.

Files in ``path``: ``<rank>_0.distcp`` (a pickled dict key -> (global shape, offset, array)) and
``0.metadata`` (the keys).
"""
from __future__ import annotations

import glob
import os
import pickle
from dataclasses import dataclass
from typing import Any, Dict

import numpy as np
import torch

from pagaie._core.tensor import Tensor
from pagaie._formats.atomic_file import atomic_open
from pagaie.distributed import _env

__all__ = ["ShardedWeight", "ShardedStateDict", "build_sharded_state_dict", "shard_weight", "save_state_dict",
           "load_state_dict", "load_merged_state_dict"]


@dataclass
class ShardedWeight:
    """One rank's piece of a weight: its local tensor and where it lies in the global one.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> w = dist.ShardedWeight("w", paddle.ones([2]), (2,), (4,), (2,))
        >>> w.global_shape
        (4,)
    """

    key: str
    local_tensor: Tensor
    local_shape: tuple
    global_shape: tuple
    global_offset: tuple
    is_flattened: bool = False
    flattened_range: slice | None = None


ShardedStateDict = Dict[str, ShardedWeight]


def build_sharded_state_dict(state_dict: dict, shard_rules: dict | None = None, prefix: str = "") -> dict:
    """Describe each tensor of ``state_dict`` as a :class:`ShardedWeight` (``shard_rules``: key -> axis).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> sd = dist.build_sharded_state_dict(paddle.nn.Linear(2, 3).state_dict())
        >>> sd["weight"].global_shape
        (2, 3)
    """
    out = {}
    for k, v in state_dict.items():
        key = prefix + k
        axis = (shard_rules or {}).get(k)
        if axis is not None:
            out[key] = shard_weight(key, v, axis, None)
        else:
            shape = tuple(v.shape)
            out[key] = ShardedWeight(key, v, shape, shape, (0,) * len(shape))
    return out


def shard_weight(key: str, weight: Tensor, axis: int, group: Any) -> ShardedWeight:
    """Describe ``weight`` as this rank's slice along ``axis`` of a weight split over ``group``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> dist.shard_weight("w", paddle.ones([2, 3]), 0, None).global_offset
        (0, 0)
    """
    n = 1 if group is None else group.nranks
    r = 0 if group is None else max(group.rank, 0)
    local = tuple(weight.shape)
    glob_shape = tuple(d * n if i == axis else d for i, d in enumerate(local))
    offset = tuple(local[i] * r if i == axis else 0 for i in range(len(local)))
    return ShardedWeight(key, weight, local, glob_shape, offset)


def _pieces(state_dict: dict) -> dict:
    out = {}
    for k, v in state_dict.items():
        if isinstance(v, ShardedWeight):
            out[k] = (tuple(v.global_shape), tuple(v.global_offset), v.local_tensor.numpy())
        elif isinstance(v, Tensor):
            out[k] = (tuple(v.shape), (0,) * v.ndim, v.numpy())
        elif isinstance(v, dict):
            for kk, vv in _pieces(v).items():
                out[f"{k}.{kk}"] = vv
        else:
            out[k] = (None, None, v)
    return out


def _check_values(state_dict: dict, prefix: str) -> None:
    for k, v in state_dict.items():
        if isinstance(v, dict):
            _check_values(v, f"{prefix}{k}.")
        elif not isinstance(v, (Tensor, ShardedWeight)):
            raise ValueError(f"paddle.distributed.save_state_dict: the value of {prefix}{k!r} must be a dict or "
                             f"a paddle.Tensor, but received {type(v).__name__} {v!r}")


def save_state_dict(state_dict: dict, path: str, process_group: Any = None, coordinator_rank: int = 0,
                    unique_id: int | None = None, async_save: bool = False, safetensors: bool = False,
                    save_replicas: bool = False) -> None:
    """Save this rank's (possibly sharded) state dict into the directory ``path``.

    Examples:
        >>> import tempfile
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> layer = paddle.nn.Linear(2, 2)
        >>> d = tempfile.mkdtemp()
        >>> dist.save_state_dict(layer.state_dict(), d)
        >>> other = paddle.nn.Linear(2, 2)
        >>> dist.load_state_dict(other.state_dict(), d)
        >>> bool((other.weight == layer.weight).all())
        True
    """
    if not isinstance(state_dict, dict):
        raise AssertionError(f"paddle.distributed.save_state_dict: state_dict must be a dict, "
                             f"but received {type(state_dict).__name__}")
    _check_values(state_dict, "")
    os.makedirs(path, exist_ok=True)
    rank = _env.get_rank()
    uid = 0 if unique_id is None else unique_id
    with atomic_open(os.path.join(path, f"{rank}_{uid}.distcp")) as f:
        pickle.dump(_pieces(state_dict), f, protocol=4)
    if rank == coordinator_rank:
        with atomic_open(os.path.join(path, f"{uid}.metadata")) as f:
            pickle.dump({"keys": sorted(_pieces(state_dict))}, f, protocol=4)


def _assemble(path: str, unique_id: int | None) -> dict:
    uid = 0 if unique_id is None else unique_id
    if not os.path.isdir(path):
        raise FileNotFoundError(f"paddle.distributed.load_state_dict: the checkpoint directory {path!r} "
                                "does not exist")
    files = sorted(glob.glob(os.path.join(path, f"*_{uid}.distcp")))
    if not files:   # an AssertionError, as in Paddle (its metadata-file check)
        raise AssertionError(f"paddle.distributed.load_state_dict: no checkpoint files (*_{uid}.distcp, "
                             f"{uid}.metadata) in the checkpoint directory {path!r}")
    merged: dict = {}
    for fn in files:
        with open(fn, "rb") as f:
            for k, (gshape, offset, arr) in pickle.load(f).items():
                if gshape is None:
                    merged.setdefault(k, arr)
                    continue
                full = merged.get(k)
                if full is None:
                    full = merged[k] = np.zeros(gshape, dtype=arr.dtype)
                full[tuple(slice(o, o + s) for o, s in zip(offset, arr.shape))] = arr
    return merged


def load_state_dict(state_dict: dict, path: str, process_group: Any = None, coordinator_rank: int = 0,
                    unique_id: int | None = None, offload: bool = False, mw_name_compatibility: bool = True,
                    aoa_config: Any = None, safetensors: bool = False, worker_groups: Any = None,
                    comm_method: str = "broadcast") -> None:
    """Fill the tensors of ``state_dict`` in place from a checkpoint saved by :func:`save_state_dict`."""
    merged = _assemble(path, unique_id)
    _fill(state_dict, merged, "")


def _fill(state_dict: dict, merged: dict, prefix: str) -> None:
    for k, v in state_dict.items():
        key = prefix + k
        if not isinstance(v, (Tensor, ShardedWeight)):  # nested dicts too, as in Paddle
            raise ValueError(f"paddle.distributed.load_state_dict: the value of {key!r} must be a paddle.Tensor "
                             f"or a ShardedWeight, but received {type(v).__name__}")
        if key not in merged:
            raise KeyError(f"paddle.distributed.load_state_dict: key {key!r} is not in the checkpoint")
        full = merged[key]
        if isinstance(v, ShardedWeight):
            region = full[tuple(slice(o, o + s) for o, s in zip(v.global_offset, v.local_shape))]
            v.local_tensor._t.detach().copy_(torch.as_tensor(np.ascontiguousarray(region)))
        else:
            if tuple(full.shape) != tuple(v.shape):
                raise ValueError(f"paddle.distributed.load_state_dict: {key!r} has shape {list(v.shape)} but the "
                                 f"checkpoint holds {list(full.shape)}")
            v._t.detach().copy_(torch.as_tensor(np.ascontiguousarray(full)))


def load_merged_state_dict(path: str, prefix: str | None = None, unique_id: int | None = None,
                           offload: bool = False, aoa_config: Any = None, safetensors: bool = False) -> dict:
    """The whole (unsharded) state dict of a checkpoint, as Tensors; keys filtered by ``prefix``."""
    merged = _assemble(path, unique_id)
    return {k: (Tensor(torch.as_tensor(v)) if isinstance(v, np.ndarray) else v)
            for k, v in merged.items() if prefix is None or k.startswith(prefix)}
