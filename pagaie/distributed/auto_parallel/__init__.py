"""Auto-parallel API: process meshes, placements and distributed tensors.

pagaie runs each process's part eagerly over torch. A distributed tensor is an ordinary Tensor
that records its ``process_mesh`` and ``placements`` (``is_dist()`` is then True). What maps onto
one process works: any mesh with ``Replicate`` placements, and ``Shard``/``Partial`` along mesh
dimensions of size 1 (the local value is the whole value). Splitting a tensor over several
processes needs real multi-device semantics and raises NotImplementedError.
"""
from __future__ import annotations

import enum
from typing import Any, Callable, Sequence

import numpy as np
import torch

from pagaie._core.parameter import Parameter
from pagaie._core.tensor import Tensor

__all__ = ["ReduceType", "Placement", "Shard", "Replicate", "Partial", "ProcessMesh", "DistAttr", "get_mesh",
           "set_mesh", "shard_tensor", "dtensor_from_fn", "reshard", "unshard_dtensor", "shard_layer",
           "shard_optimizer", "shard_scaler", "shard_dataloader", "ShardingStage1", "ShardingStage2",
           "ShardingStage3", "LocalLayer", "local_map"]


class ReduceType(enum.IntEnum):
    """How the partial values of a ``Partial`` placement combine.

    Examples:
        >>> import pagaie.distributed as dist
        >>> int(dist.ReduceType.kRedMax)
        1
    """

    kRedSum = 0
    kRedMax = 1
    kRedMin = 2
    kRedProd = 3
    kRedAvg = 4
    kRedAny = 5
    kRedAll = 6

    def __str__(self) -> str:
        return f"ReduceType.{self.name}"


class Placement:
    """How a tensor lies along one dimension of a process mesh."""

    def is_shard(self, dim: int | None = None) -> bool:
        return False

    def is_replicated(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return False

    def __eq__(self, other: Any) -> bool:
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(sorted(self.__dict__.items()))))

    def __repr__(self) -> str:
        return ""  # as Paddle's bare Placement

    def __str__(self) -> str:
        return repr(self)


class Shard(Placement):
    """The tensor is split along its dimension ``dim`` over this mesh dimension.

    Args:
        dim (int): the tensor dimension that is split.
        split_factor (int, keyword-only): how many pieces each process's part is further cut
            into (1 by default).

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.Shard(0), dist.Shard(0).get_dim(), dist.Shard(0).is_shard()
        (Shard(dim=0), 0, True)
        >>> dist.Shard(1, split_factor=2)
        Shard(dim=1, split_factor=2)
    """

    def __init__(self, dim: int, *, split_factor: int = 1) -> None:
        for arg, v in (("dim", dim), ("split_factor", split_factor)):
            if not isinstance(v, (int, np.integer)):
                raise TypeError(f"paddle.distributed.Shard: {arg} must be an int, but received "
                                f"{type(v).__name__} {v!r}")
        self._dim = int(dim)
        self._split_factor = int(split_factor)

    def get_dim(self) -> int:
        return self._dim

    def get_split_factor(self) -> int:
        return self._split_factor

    def set_split_factor(self, split_factor: int) -> None:
        self._split_factor = int(split_factor)

    def is_shard(self, dim: int | None = None) -> bool:
        return dim is None or dim == self._dim

    def __repr__(self) -> str:
        extra = f", split_factor={self._split_factor}" if self._split_factor != 1 else ""
        return f"Shard(dim={self._dim}{extra})"


class Replicate(Placement):
    """Every process of this mesh dimension holds the whole tensor.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.Replicate(), dist.Replicate().is_replicated()
        (Replicate(), True)
    """

    def is_replicated(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "Replicate()"


class Partial(Placement):
    """Each process holds a partial value; the tensor is their reduction (sum by default).

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.Partial(), dist.Partial(dist.ReduceType.kRedMax)
        (Partial(reduce_type=SUM), Partial(reduce_type=MAX))
    """

    def __init__(self, reduce_type: ReduceType = ReduceType.kRedSum) -> None:
        if not isinstance(reduce_type, ReduceType):
            raise TypeError(f"paddle.distributed.Partial: reduce_type must be a paddle.distributed.ReduceType, "
                            f"but received {type(reduce_type).__name__} {reduce_type!r}")
        self._reduce_type = reduce_type

    def reduce_type(self) -> ReduceType:
        return self._reduce_type

    def is_partial(self) -> bool:
        return True

    def __repr__(self) -> str:
        name = self._reduce_type.name[4:].upper()
        return f"Partial(reduce_type={'PRODUCT' if name == 'PROD' else name})"


class _MeshError(AssertionError, ValueError):
    """A bad ProcessMesh argument: Paddle fails an assertion; also a ValueError."""


_MESH_IDS: dict = {}  # (shape, process ids) -> unique id, as Paddle numbers its meshes


class ProcessMesh:
    """A (multi-dimensional) array of process ids, with a name per dimension.

    Args:
        mesh (array-like, optional): the process ids laid out in the mesh's shape.
        dim_names (list[str], optional): a name per dimension ('d0', 'd1'... by default).
        shape, process_ids (optional): the shape and flat ids, instead of ``mesh``.

    Examples:
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["x", "y"])
        >>> print(mesh)
        shape [2, 2], process_ids [0, 1, 2, 3], dim_names ['x', 'y']
        >>> mesh.get_dim_size("y"), mesh.ndim
        (2, 2)
    """

    def __init__(self, mesh: Any = None, dim_names: list[str] | None = None, shape: Any = None,
                 process_ids: Any = None) -> None:
        if mesh is None:
            if shape is None or process_ids is None:
                raise _MeshError("paddle.distributed.ProcessMesh: give mesh, or both shape and process_ids")
            mesh = np.asarray(list(process_ids)).reshape(list(shape))
        if not isinstance(mesh, (list, np.ndarray)):  # as Paddle: not a tuple, not a ProcessMesh
            raise ValueError(f"paddle.distributed.ProcessMesh: mesh must be a list or a numpy.ndarray, "
                             f"but received {type(mesh).__name__}")
        if dim_names is not None and not isinstance(dim_names, list):
            raise ValueError(f"paddle.distributed.ProcessMesh: dim_names must be a list, "
                             f"but received {type(dim_names).__name__}")
        arr = np.asarray(mesh)
        if arr.size == 0:
            raise ValueError("paddle.distributed.ProcessMesh: mesh must hold at least one process id, "
                             f"but received {mesh!r}")
        if arr.dtype.kind not in "iu":
            raise _MeshError(f"paddle.distributed.ProcessMesh: mesh must hold integer process ids, "
                             f"but received dtype {arr.dtype}")
        if arr.min() < 0:
            raise _MeshError(f"paddle.distributed.ProcessMesh: process ids must be >= 0, "
                             f"but received {arr.flatten().tolist()}")
        if len(set(arr.flatten().tolist())) != arr.size:
            raise _MeshError("paddle.distributed.ProcessMesh: the process ids in mesh must be unique")
        self._mesh = arr.astype(np.int64)
        names = list(dim_names) if dim_names is not None else [f"d{i}" for i in range(arr.ndim)]
        if len(names) != arr.ndim:
            raise _MeshError(f"paddle.distributed.ProcessMesh: dim_names must have {arr.ndim} names, "
                             f"but received {len(names)}")
        if len(set(names)) != len(names):
            raise _MeshError(f"paddle.distributed.ProcessMesh: dim_names must be unique, but received {names}")
        self._dim_names = names
        key = (tuple(self.shape), tuple(self.process_ids))
        self._unique_id = _MESH_IDS.setdefault(key, len(_MESH_IDS) + 1)

    @property
    def unique_id(self) -> int:
        """An id shared by all meshes of the same shape and process ids (from 1)."""
        return self._unique_id

    @property
    def mesh(self) -> np.ndarray:
        return self._mesh

    @property
    def shape(self) -> list[int]:
        return list(self._mesh.shape)

    @property
    def process_ids(self) -> list[int]:
        return self._mesh.flatten().tolist()

    @property
    def dim_names(self) -> list[str]:
        return self._dim_names

    @property
    def ndim(self) -> int:
        return self._mesh.ndim

    @property
    def size(self) -> int:
        return int(self._mesh.size)

    def _dim(self, dim: int | str) -> int:
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise _MeshError(f"paddle.distributed.ProcessMesh: dim must be one of {self._dim_names}, "
                                 f"but received {dim!r}")
            return self._dim_names.index(dim)
        if not isinstance(dim, (int, np.integer)):
            raise ValueError(f"paddle.distributed.ProcessMesh: dim must be a str or an int, "
                             f"but received {type(dim).__name__}")
        return int(dim)

    def get_dim_size(self, dim: int | str | None) -> int:
        """The number of processes along dimension ``dim`` (a name or an index; None: 1)."""
        if dim is None:
            return 1
        return self.shape[self._dim(dim)]

    def dim_size(self, dim: int | str) -> int:
        """The number of processes along ``dim`` (a name, or an index that may be negative)."""
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise ValueError(f"paddle.distributed.ProcessMesh.dim_size: dim must be one of "
                                 f"{self._dim_names}, but received {dim!r}")
            return self.shape[self._dim_names.index(dim)]
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
            raise TypeError(f"paddle.distributed.ProcessMesh.dim_size: dim must be a str or an int, "
                            f"but received {type(dim).__name__}")
        if not -self.ndim <= dim < self.ndim:
            raise ValueError(f"paddle.distributed.ProcessMesh.dim_size: dim must be in "
                             f"[{-self.ndim}, {self.ndim}), but received {dim}")
        return self.shape[int(dim)]

    def contains(self, process_id: int) -> bool:
        """Whether ``process_id`` is one of the mesh's processes."""
        if not isinstance(process_id, (int, np.integer)) or isinstance(process_id, bool):
            raise TypeError(f"paddle.distributed.ProcessMesh.contains: process_id must be an int, "
                            f"but received {type(process_id).__name__}")
        return int(process_id) in self.process_ids

    def empty(self) -> bool:
        """Whether the mesh holds no process (never, as a mesh needs at least one)."""
        return self.size == 0

    def get_rank_by_dim_and_process_id(self, dim: int | str | None, process_id: int) -> int:
        """The coordinate of ``process_id`` along ``dim`` (-1 when the process is not in the mesh;
        0 for ``dim=None``)."""
        if process_id not in self.process_ids:
            return -1
        if dim is None:
            return 0
        if isinstance(dim, (int, np.integer)) and not isinstance(dim, bool):
            axis = self._dim_names.index(self._dim_names[dim])
        elif isinstance(dim, str):
            if dim not in self._dim_names:
                raise ValueError(f"paddle.distributed.ProcessMesh.get_rank_by_dim_and_process_id: dim must be "
                                 f"one of {self._dim_names}, but received {dim!r}")
            axis = self._dim_names.index(dim)
        else:
            raise ValueError(f"paddle.distributed.ProcessMesh.get_rank_by_dim_and_process_id: dim must be a "
                             f"str or an int, but received {type(dim).__name__}")
        return int(np.argwhere(self._mesh == process_id)[0][axis])

    def get_mesh_with_dim(self, dim_name: str, index: int | None = None) -> "ProcessMesh":
        """The mesh with ``dim_name`` moved first (and, given ``index``, that slice of it)."""
        axis = self._dim(dim_name)
        order = [axis] + [i for i in range(self.ndim) if i != axis]
        arr = self._mesh.transpose(order)
        names = [self._dim_names[i] for i in order]
        if index is None:
            return ProcessMesh(arr, names)
        if self.ndim > 1:
            return ProcessMesh(arr[index], names[1:])
        return ProcessMesh(np.atleast_1d(arr[index]), names)

    def get_submesh_with_dim(self, dim_name: str) -> "ProcessMesh":
        """The one-dimensional mesh along ``dim_name`` that holds this process."""
        from pagaie.distributed._env import get_rank
        axis = self._dim(dim_name)
        coord = list(zip(*np.nonzero(self._mesh == get_rank())))
        if not coord:  # as Paddle: a warning and None
            import warnings
            warnings.warn(f"paddle.distributed.ProcessMesh.get_submesh_with_dim: rank {get_rank()} is not in the "
                          f"process mesh {self.process_ids}; returning None")
            return None
        idx = list(coord[0])
        idx[axis] = slice(None)
        return ProcessMesh(self._mesh[tuple(idx)], [dim_name])

    def get_group(self, dim_name: str | None = None) -> Any:
        """The communication group of this process along ``dim_name`` (needs ``init_parallel_env``)."""
        from pagaie.distributed import _env
        if not _env.is_initialized():
            raise AssertionError("paddle.distributed.ProcessMesh.get_group: call "
                                 "paddle.distributed.init_parallel_env first to initialize the distributed "
                                 "environment")
        if self.ndim > 1 and dim_name is None:
            raise ValueError(f"paddle.distributed.ProcessMesh.get_group: give dim_name for a mesh of "
                             f"{self.ndim} dimensions {self._dim_names}")
        if dim_name is not None and dim_name not in self._dim_names:
            raise ValueError(f"paddle.distributed.ProcessMesh.get_group: dim_name {dim_name!r} is not in the "
                             f"dimension names {self._dim_names}")
        if self.ndim > 1:
            return self.get_submesh_with_dim(dim_name).get_group(dim_name)
        return _env.new_group(self.process_ids)

    def __getitem__(self, index: Any) -> "ProcessMesh":
        if isinstance(index, str):
            return self.get_submesh_with_dim(index)
        arr = self._mesh[index]
        if isinstance(index, tuple):
            kept = [n for n, i in zip(self._dim_names, index) if isinstance(i, slice)]
            kept += self._dim_names[len(index):]
        else:
            kept = self._dim_names[1:] if not isinstance(index, slice) else self._dim_names
        return ProcessMesh(np.atleast_1d(arr), kept if np.ndim(arr) else kept[:1] or ["d0"])

    def __contains__(self, rank: int) -> bool:
        return rank in self.process_ids

    def __eq__(self, other: Any) -> bool:
        # As Paddle: the dimension names do not count.
        return isinstance(other, ProcessMesh) and self.shape == other.shape and self.process_ids == other.process_ids

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((tuple(self.shape), tuple(self.process_ids)))

    def __deepcopy__(self, memo: dict) -> "ProcessMesh":
        return ProcessMesh(self._mesh.copy(), list(self._dim_names))

    def __str__(self) -> str:
        return f"shape {self.shape}, process_ids {self.process_ids}, dim_names {self.dim_names}"


_global_mesh: ProcessMesh | None = None


def get_mesh() -> ProcessMesh | None:
    """The global mesh set by :func:`set_mesh` (None before).

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.set_mesh(dist.ProcessMesh([0], dim_names=["x"]))
        >>> print(dist.get_mesh())
        shape [1], process_ids [0], dim_names ['x']
    """
    return _global_mesh


def set_mesh(mesh: ProcessMesh | None) -> None:
    """Set the global mesh (read back with :func:`get_mesh`); None clears it, as in Paddle."""
    global _global_mesh
    if mesh is not None and not isinstance(mesh, ProcessMesh):
        raise TypeError(f"paddle.distributed.set_mesh: mesh must be a ProcessMesh, but received {type(mesh).__name__}")
    _global_mesh = mesh


class DistAttr:
    """A mesh and, per tensor dimension, the mesh dimension it is split over (or None).

    Examples:
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> dist.DistAttr(mesh, ["x", None]).placements
        [Shard(dim=0)]
    """

    def __init__(self, mesh: ProcessMesh, sharding_specs: list[str | None]) -> None:
        if not isinstance(mesh, ProcessMesh):
            raise ValueError(f"paddle.distributed.DistAttr: mesh must be a ProcessMesh, "
                             f"but received {type(mesh).__name__}")
        for s in sharding_specs:
            if s is not None and s not in mesh.dim_names:
                raise ValueError(f"paddle.distributed.DistAttr: sharding_specs entries must be None or one of "
                                 f"{mesh.dim_names}, but received {s!r}")
        self.process_mesh = mesh
        self.sharding_specs = list(sharding_specs)

    @property
    def dims_mapping(self) -> list[int]:
        """Per tensor dimension, the index of the mesh dimension it is split over (-1: none)."""
        names = list(self.process_mesh.dim_names)
        return [-1 if s is None else names.index(s) for s in self.sharding_specs]

    def __str__(self) -> str:
        mesh = self.process_mesh
        join = lambda xs: ",".join(str(x) for x in xs)  # noqa: E731
        dims = "".join(f"[{m}] " if m >= 0 else "[] " for m in self.dims_mapping)
        return (f"{{process_mesh: {{shape: [{join(mesh.shape)}], process_ids: [{join(mesh.process_ids)}], "
                f"dim_names: [{join(mesh.dim_names)}]}}, dim_mappings: [{dims}], batch_dim: 0, "
                f"chunk_id: 0, skip_check_mesh: 0, dynamic_dims: [{join([0] * len(self.sharding_specs))}], "
                f"annotated: [dims_mapping: 1,process_mesh: 1], partial: [], split_factor: .}}")

    @property
    def placements(self) -> list[Placement]:
        out: list[Placement] = [Replicate() for _ in range(self.process_mesh.ndim)]
        for tensor_dim, name in enumerate(self.sharding_specs):
            if name is not None:
                out[self.process_mesh.dim_names.index(name)] = Shard(tensor_dim)
        return out


# ---- distributed tensors ----------------------------------------------------------------
class _PlacementDimError(IndexError, ValueError):
    """A Shard dimension outside the tensor: Paddle fails an index look-up; also a ValueError."""


class _NotTensorError(TypeError, ValueError):
    """A dist API given a non-Tensor: Paddle raises ValueError there; also a TypeError."""


def _check_placements(mesh: Any, placements: Sequence[Placement], ndim: int, api: str) -> list[Placement]:
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"paddle.distributed.{api}: mesh must be a ProcessMesh, but received {type(mesh).__name__}")
    placements = list(placements)
    if len(placements) > mesh.ndim:
        raise ValueError(f"paddle.distributed.{api}: placements must have at most one entry per mesh dimension "
                         f"({mesh.ndim}), but received {len(placements)}")
    # As Paddle, the mesh dimensions without a placement are replicated.
    placements += [Replicate() for _ in range(mesh.ndim - len(placements))]
    for i, p in enumerate(placements):
        if not isinstance(p, Placement):
            raise TypeError(f"paddle.distributed.{api}: placements must be Shard, Replicate or Partial, "
                            f"but received {type(p).__name__}")
        if isinstance(p, Shard) and not -ndim <= p.get_dim() < ndim:
            raise _PlacementDimError(f"paddle.distributed.{api}: {p!r} is out of range for a {ndim}-D tensor "
                                     f"(dims 0..{ndim - 1})")
        if not p.is_replicated() and mesh.shape[i] > 1:
            raise NotImplementedError(f"paddle.distributed.{api}: {p!r} over mesh dimension "
                                      f"{mesh.dim_names[i]!r} of size {mesh.shape[i]} needs a tensor split over "
                                      f"several processes, which pagaie does not support; use Replicate() "
                                      f"or a mesh dimension of size 1")
    return placements


class _TensorMesh(ProcessMesh):
    """The ``process_mesh`` of a distributed tensor: the same mesh, printed as Paddle prints the
    C++ mesh a tensor holds (``{shape: [1], process_ids: [0], dim_names: [x]}``)."""

    @classmethod
    def of(cls, mesh: ProcessMesh) -> "_TensorMesh":
        if isinstance(mesh, cls):
            return mesh
        out = object.__new__(cls)
        out.__dict__.update(mesh.__dict__)
        return out

    def __str__(self) -> str:
        from pagaie._core.printing import mesh_text
        return mesh_text(self)


def _mark(t: Tensor, mesh: ProcessMesh, placements: list[Placement]) -> Tensor:
    d = t.__dict__
    d["process_mesh"] = _TensorMesh.of(mesh)
    d["placements"] = placements
    d["is_dist"] = lambda: True
    # The local part of a tensor on one process is its whole value: as Paddle, a dense tensor
    # that shares the storage and is outside the autograd graph (stop_gradient=True).
    d["_local_value"] = lambda: Tensor(t._t.detach())
    return t


def _check_dist(t: Any, api: str) -> None:
    if not isinstance(t, Tensor):
        raise _NotTensorError(f"paddle.distributed.{api}: dist_tensor must be a Tensor, "
                              f"but received {type(t).__name__}")
    if not t.is_dist():
        raise ValueError(f"paddle.distributed.{api}: the input should be a distributed tensor (made by "
                         "paddle.distributed.shard_tensor), but received a dense Tensor")


def shard_tensor(data: Any, mesh: ProcessMesh, placements: Sequence[Placement], dtype: Any = None,
                 place: Any = None, stop_gradient: bool | None = None) -> Tensor:
    """Make a distributed tensor of ``data`` on ``mesh`` with one placement per mesh dimension.

    Args:
        data (Tensor|array-like): the global value.
        mesh (ProcessMesh): the processes holding it.
        placements (list[Placement]): Shard / Replicate / Partial per mesh dimension.
        dtype, place (optional): conversions, as in ``paddle.to_tensor``.
        stop_gradient (bool, optional): for converted data (default True); a Tensor taken as it is
            (``dtype`` None) keeps its own, as in Paddle.

    Returns:
        Tensor: the tensor, with ``process_mesh`` and ``placements`` recorded.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> t = dist.shard_tensor(paddle.ones([2, 2]), mesh, [dist.Shard(0)])
        >>> t.placements, t.is_dist()
        ([Shard(dim=0)], True)
    """
    from pagaie._ops.creation import to_tensor
    if isinstance(data, Tensor) and dtype is None and place is None:
        src = data
    else:
        src = to_tensor(data.numpy() if isinstance(data, Tensor) and data._t.device.type == "meta" else data,
                        dtype=dtype, place=place)
    placements = _check_placements(mesh, placements, src.ndim, "shard_tensor")
    # As in Paddle, a Tensor taken as it is keeps its own stop_gradient.
    if isinstance(data, Tensor) and dtype is None:
        sg = data.stop_gradient
    else:
        sg = True if stop_gradient is None else stop_gradient
    if isinstance(data, Parameter):
        # As Paddle: the distributed copy of a parameter is named after it, with ".dist" added.
        name = data.name if data.is_dist() else data.name + ".dist"
        out: Tensor = Parameter(src, trainable=not sg, name=name, optimize_attr=data.optimize_attr,
                                regularizer=data.regularizer, need_clip=data.need_clip)
    else:
        out = Tensor(src._t.detach(), stop_gradient=sg)
    return _mark(out, mesh, placements)


def dtensor_from_fn(fn: Callable, mesh: ProcessMesh, placements: Sequence[Placement], *args: Any,
                    **kwargs: Any) -> Tensor:
    """Call ``fn(*args, **kwargs)`` (a creation function) and shard the result.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> dist.dtensor_from_fn(paddle.ones, mesh, [dist.Replicate()], shape=[3]).shape
        paddle.Size([3])
    """
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def reshard(dist_tensor: Tensor, mesh: ProcessMesh, placements: Sequence[Placement]) -> Tensor:
    """Redistribute ``dist_tensor`` to ``mesh`` and ``placements`` (differentiable).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> t = dist.shard_tensor(paddle.ones([2]), mesh, [dist.Shard(0)])
        >>> dist.reshard(t, mesh, [dist.Replicate()]).placements
        [Replicate()]
    """
    _check_dist(dist_tensor, "reshard")
    placements = _check_placements(mesh, placements, dist_tensor.ndim, "reshard")
    return _mark(Tensor(dist_tensor._t.view_as(dist_tensor._t)), mesh, placements)


def unshard_dtensor(dist_tensor: Tensor) -> Tensor:
    """The dense (global) tensor of a distributed tensor.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> dist.unshard_dtensor(dist.shard_tensor(paddle.ones([2]), mesh, [dist.Shard(0)])).is_dist()
        False
    """
    _check_dist(dist_tensor, "unshard_dtensor")
    if isinstance(dist_tensor, Parameter):
        return Parameter(dist_tensor, trainable=dist_tensor.trainable, name=dist_tensor.name)
    # As Paddle: a new dense tensor (stop_gradient=True) holding the global value.
    return Tensor(dist_tensor._t.detach())


def shard_layer(layer: Any, process_mesh: ProcessMesh, shard_fn: Callable | None = None,
                input_fn: Callable | None = None, output_fn: Callable | None = None) -> Any:
    """Make the parameters of ``layer`` distributed tensors on ``process_mesh``.

    ``shard_fn(name, sublayer, process_mesh)`` places the parameters of each sublayer; those it
    leaves dense are replicated. ``input_fn(inputs, process_mesh)`` and
    ``output_fn(outputs, process_mesh)`` become forward pre- and post-hooks.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> layer = dist.shard_layer(paddle.nn.Linear(2, 2), mesh)
        >>> layer.weight.placements
        [Replicate()]
    """
    if not isinstance(process_mesh, ProcessMesh):
        raise ValueError(f"paddle.distributed.shard_layer: process_mesh must be a ProcessMesh, "
                         f"but received {type(process_mesh).__name__}")
    for name, sub in layer.named_sublayers(include_self=True):
        if shard_fn is not None:
            shard_fn(name, sub, process_mesh)
        for pname, p in list(sub._parameters.items()):
            if p is not None and not p.is_dist():
                sub._parameters[pname] = shard_tensor(p, process_mesh, [Replicate()] * process_mesh.ndim)
        for bname, b in list(sub._buffers.items()):
            if b is not None and not b.is_dist():
                _mark(b, process_mesh, [Replicate()] * process_mesh.ndim)
    if input_fn is not None:
        layer.register_forward_pre_hook(lambda _layer, inputs: input_fn(inputs, process_mesh))
    if output_fn is not None:
        layer.register_forward_post_hook(lambda _layer, inputs, outputs: output_fn(outputs, process_mesh))
    return layer


class _ShardingStage:
    def __init__(self, sharding_mesh_dim: int | str, mesh: ProcessMesh | None = None) -> None:
        self._sharding_mesh_dim = sharding_mesh_dim
        self._mesh = mesh

    def _degree(self) -> int:
        mesh = self._mesh or get_mesh()
        return 1 if mesh is None else mesh.get_dim_size(self._sharding_mesh_dim)

    def __call__(self, key: str, param: Tensor, accumulator: Tensor) -> Tensor:
        if self._degree() > 1:
            raise NotImplementedError(f"paddle.distributed.{type(self).__name__}: sharding optimizer state over "
                                      f"{self._degree()} processes is not supported by pagaie")
        return accumulator


class ShardingStage1(_ShardingStage):
    """Shard optimizer states over a mesh dimension (ZeRO-1); a no-op when that dimension has size 1.

    Examples:
        >>> import pagaie.distributed as dist
        >>> stage = dist.ShardingStage1("x", dist.ProcessMesh([0], dim_names=["x"]))
    """


class ShardingStage2(_ShardingStage):
    """Shard optimizer states and gradients (ZeRO-2); a no-op when the dimension has size 1."""


class ShardingStage3(_ShardingStage):
    """Shard optimizer states, gradients and parameters (ZeRO-3); a no-op when the dimension has size 1."""


def _optimizer_base() -> type:
    from pagaie.optimizer.optimizer import Optimizer
    return Optimizer


class _ShardOptimizer(_optimizer_base()):
    """An optimizer whose states follow its distributed parameters (what ``shard_optimizer`` returns).

    Everything but the sharding settings is the wrapped optimizer's own: attributes and methods
    are read from and written to it.
    """

    _OWN = frozenset({"_inner_opt", "_shard_fn", "_sharding_axis", "_sharding_degree",
                      "gradient_accumulation_steps", "state_dict", "_mark_states", "_check_sharding"})

    def __init__(self, optimizer: Any, shard_fn: Any = None, gradient_accumulation_steps: int = 1) -> None:
        from pagaie.optimizer import SGD, AdamW
        if optimizer is None:
            raise AssertionError("paddle.distributed.shard_optimizer: the argument optimizer cannot be None")
        if not isinstance(optimizer, (AdamW, SGD)):
            raise AssertionError(f"paddle.distributed.shard_optimizer: only AdamW and SGD optimizers are "
                                 f"supported, but received {type(optimizer).__name__}")
        if shard_fn is not None and not isinstance(shard_fn, _ShardingStage):
            raise AssertionError(f"paddle.distributed.shard_optimizer: shard_fn must be None or a ShardingStage1/"
                                 f"2/3, but received {type(shard_fn).__name__}")
        own = object.__setattr__
        own(self, "_inner_opt", optimizer)
        own(self, "_shard_fn", shard_fn)
        own(self, "_sharding_axis", None)
        own(self, "_sharding_degree", None)
        own(self, "gradient_accumulation_steps", gradient_accumulation_steps)
        if shard_fn is not None:
            self._check_sharding(shard_fn, optimizer)

    def _check_sharding(self, stage: "_ShardingStage", optimizer: Any) -> None:
        mesh = get_mesh() or stage._mesh
        if mesh is None:
            raise ValueError(f"paddle.distributed.{type(stage).__name__}: set the global mesh "
                             "(paddle.distributed.set_mesh) or give the stage a mesh")
        degree = mesh.get_dim_size(stage._sharding_mesh_dim)
        if degree > 1:
            raise NotImplementedError(f"paddle.distributed.{type(stage).__name__}: sharding optimizer state over "
                                      f"{degree} processes is not supported by pagaie")
        # As Paddle: the sharding axis is mesh dimension 0, else the parameter's last replicated one;
        # parameters must be replicated along it.
        axis = 0
        for param in optimizer._parameter_list:
            if not param.is_dist():
                continue
            pls = param.placements
            if not pls[axis].is_replicated():
                for d, pl in enumerate(pls):
                    if pl.is_replicated():
                        axis = d
            if not pls[axis].is_replicated():
                raise AssertionError(f"paddle.distributed.{type(stage).__name__}: parameter {param.name!r} "
                                     f"has placements {pls}; the placement on the sharding axis ({axis}) "
                                     f"should be Replicate")
        object.__setattr__(self, "_sharding_axis", axis)
        object.__setattr__(self, "_sharding_degree", degree)

    def __getattribute__(self, name: str) -> Any:
        if name in _ShardOptimizer._OWN or (name.startswith("__") and name.endswith("__")):
            return object.__getattribute__(self, name)
        return getattr(object.__getattribute__(self, "_inner_opt"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _ShardOptimizer._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self._inner_opt, name, value)

    def _mark_states(self, state: dict) -> None:
        # The states of a distributed parameter are distributed like it (same-shaped ones such as
        # moments) or replicated on its mesh (scalars such as beta powers).
        for param in self._inner_opt._parameter_list:
            if not param.is_dist():
                continue
            for key, value in state.items():
                if isinstance(value, Tensor) and not value.is_dist() and key.startswith(f"{param.name}_"):
                    same = list(value.shape) == list(param.shape)
                    _mark(value, param.process_mesh, list(param.placements) if same
                          else [Replicate() for _ in range(param.process_mesh.ndim)])

    def state_dict(self) -> dict:
        state = self._inner_opt.state_dict()
        self._mark_states(state)
        return state


def shard_optimizer(optimizer: Any, shard_fn: Callable | None = None,
                    gradient_accumulation_steps: int = 1) -> _ShardOptimizer:
    """Make ``optimizer`` keep its states like its (distributed) parameters.

    Args:
        optimizer (Optimizer): an ``AdamW`` or ``SGD`` optimizer (as in Paddle, others raise
            AssertionError).
        shard_fn (ShardingStage1|ShardingStage2|ShardingStage3, optional): shard the states over a
            mesh dimension; on one process (that dimension of size 1) the states stay whole.
        gradient_accumulation_steps (int): micro-steps per optimizer step (recorded).

    Returns:
        _ShardOptimizer: a wrapper that reads and writes everything else on ``optimizer``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> layer = paddle.nn.Linear(2, 2)
        >>> opt = dist.shard_optimizer(paddle.optimizer.SGD(parameters=layer.parameters()))
        >>> type(opt).__name__, opt.get_lr()
        ('_ShardOptimizer', 0.001)
    """
    return _ShardOptimizer(optimizer, shard_fn, gradient_accumulation_steps)


def shard_scaler(scaler: Any) -> Any:
    """Make an AMP ``GradScaler`` agree on found-inf over the mesh (one process: unchanged).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> s = paddle.amp.GradScaler()
        >>> dist.shard_scaler(s) is s
        True
    """
    return scaler


class _ShardDataloader:
    """Batches of a DataLoader turned into distributed tensors on the given meshes."""

    def __init__(self, dataloader: Any, meshes: list[ProcessMesh], input_keys: Any, shard_dims: Any) -> None:
        self._dataloader = dataloader
        self._meshes = meshes
        self._input_keys = input_keys
        self._shard_dims = shard_dims
        self.batch_sampler = getattr(dataloader, "batch_sampler", None)

    def __len__(self) -> int:
        return len(self._dataloader)

    def _placements(self, i: int) -> tuple[ProcessMesh, list[Placement]]:
        mesh = self._meshes[min(i, len(self._meshes) - 1)]
        dims = self._shard_dims
        dim = dims[min(i, len(dims) - 1)] if isinstance(dims, (list, tuple)) else dims
        placements: list[Placement] = [Replicate() for _ in range(mesh.ndim)]
        if dim is not None:
            placements[mesh._dim(dim)] = Shard(0)
        return mesh, placements

    def _convert(self, item: Any, i: int) -> Any:
        if isinstance(item, Tensor):
            mesh, placements = self._placements(i)
            return shard_tensor(item, mesh, placements)
        if isinstance(item, (list, tuple)):
            return type(item)(self._convert(x, i if len(self._meshes) == 1 else j) for j, x in enumerate(item))
        if isinstance(item, dict):
            keys = list(self._input_keys or item.keys())
            return {k: self._convert(v, keys.index(k) if k in keys else 0) for k, v in item.items()}
        return item

    def __iter__(self):
        for batch in self._dataloader:
            yield self._convert(batch, 0)

    def __call__(self):
        return self.__iter__()


def shard_dataloader(dataloader: Any, meshes: Any, input_keys: Any = None, shard_dims: Any = None,
                     is_dataset_splitted: bool = False, dense_tensor_idx: Any = None) -> Any:
    """Wrap a DataLoader so its batches come as distributed tensors (split along ``shard_dims``).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> data = paddle.io.TensorDataset([paddle.ones([4, 2])])
        >>> loader = paddle.io.DataLoader(data, batch_size=2)
        >>> mesh = dist.ProcessMesh([0], dim_names=["dp"])
        >>> batch = next(iter(dist.shard_dataloader(loader, mesh, shard_dims="dp")))
        >>> batch[0].placements
        [Shard(dim=0)]
    """
    if is_dataset_splitted and shard_dims is None:
        raise ValueError("paddle.distributed.shard_dataloader: shard_dims must be set when is_dataset_splitted "
                         "is True")
    meshes = [meshes] if isinstance(meshes, ProcessMesh) else list(meshes or [])
    if not meshes:
        raise ValueError(f"paddle.distributed.shard_dataloader: meshes must be set, but received {meshes!r}")
    for m in meshes:
        dims = shard_dims if isinstance(shard_dims, (list, tuple)) else [shard_dims]
        for d in dims:
            if d is not None and m.get_dim_size(d) > 1:
                raise NotImplementedError(f"paddle.distributed.shard_dataloader: splitting batches over "
                                          f"{m.get_dim_size(d)} processes of mesh dimension {d!r} is not "
                                          "supported; use paddle.io.DistributedBatchSampler with DataParallel")
    return _ShardDataloader(dataloader, meshes, input_keys, shard_dims)


def _mark_outputs(outputs: Any, attrs: Sequence[tuple[ProcessMesh, list[Placement]]]) -> Any:
    single = isinstance(outputs, Tensor)
    outs = [outputs] if single else list(outputs)
    marked = []
    for o, attr in zip(outs, attrs):
        mesh, placements = attr if isinstance(attr, (tuple, list)) else (attr.process_mesh, attr.placements)
        marked.append(_mark(Tensor(o._t.view_as(o._t)), mesh, _check_placements(mesh, placements, o.ndim,
                                                                               "LocalLayer")))
    marked += outs[len(marked):]
    return marked[0] if single else type(outputs)(marked) if isinstance(outputs, tuple) else marked


def local_map(func: Callable, out_placements: Any, in_placements: Any = None, process_mesh: ProcessMesh | None = None,
              reshard_inputs: bool = False) -> Callable:
    """Wrap ``func`` to run on local tensors and return distributed tensors with ``out_placements``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> f = dist.local_map(lambda x: x * 2, [[dist.Replicate()]], process_mesh=mesh)
        >>> f(paddle.ones([2])).placements
        [Replicate()]
    """
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        out = func(*args, **kwargs)
        mesh = process_mesh or get_mesh()
        if mesh is None or out_placements is None:
            return out
        return _mark_outputs(out, [(mesh, list(p)) for p in out_placements])
    return wrapped


def _layer_base() -> type:
    from pagaie.nn.layer.layers import Layer
    return Layer


class LocalLayer(_layer_base()):
    """A Layer whose ``forward`` computes on local tensors; outputs get ``out_dist_attrs``.

    Args:
        out_dist_attrs (list[tuple[ProcessMesh, list[Placement]]]): per output.
        grad_dist_attrs (list): per input, the placements of its gradient (recorded).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["x"])
        >>> class Double(dist.LocalLayer):
        ...     def __init__(self):
        ...         super().__init__([(mesh, [dist.Replicate()])], [None])
        ...     def forward(self, x):
        ...         return x * 2
        >>> Double()(paddle.ones([2])).placements
        [Replicate()]
    """

    def __init__(self, out_dist_attrs: list, grad_dist_attrs: list) -> None:
        super().__init__()
        self.out_dist_attrs = out_dist_attrs
        self.grad_dist_attrs = grad_dist_attrs

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        return _mark_outputs(super().__call__(*inputs, **kwargs), self.out_dist_attrs)
