"""Intermediate auto-parallel API: parallel plans, ``parallelize``, ``Strategy``, ``DistModel``.

The plans describe tensor/sequence/context parallelism. With a degree of 1 a plan computes as the
plain layer; ColWise/RowWise still give the parameters Paddle's placements, and ``parallelize``
makes every parameter and the model's outputs distributed tensors, as Paddle does (pre/post hooks
given by the user run). A degree above 1 needs tensors split over processes and raises
NotImplementedError. Data parallelism over several processes becomes
``paddle.DataParallel``.
"""
from __future__ import annotations

import enum
from typing import Any, Callable

from pagaie.distributed import _env
from pagaie.distributed._auto_strategy import Strategy
from pagaie.distributed.auto_parallel import ProcessMesh, get_mesh

__all__ = ["ColWiseParallel", "RowWiseParallel", "ConvParallel", "PrepareLayerInput", "PrepareLayerOutput",
           "SequenceParallelBegin", "SequenceParallelEnd", "SequenceParallelEnable", "SequenceParallelDisable",
           "ContextParallel", "PrepareContextParallel", "SplitPoint", "parallelize", "to_distributed", "split",
           "Strategy", "DistModel", "to_static"]


class _Plan:
    """A parallel plan for the sublayers matched by a key of ``parallelize_plan``."""

    def __init__(self) -> None:
        self.share_param_list: dict = {}

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        if degree > 1:
            raise NotImplementedError(f"paddle.distributed.{type(self).__name__}: model parallelism of degree "
                                      f"{degree} needs weights split over processes, which pagaie does not support")


def _place_in_place(param: Any, mesh: ProcessMesh, placements: list) -> None:
    """Make ``param`` a distributed parameter on ``mesh`` without replacing it (so an optimizer
    made before keeps training it), named '<name>.dist' as Paddle names its copy."""
    from pagaie.distributed.auto_parallel import _mark
    if param is None or param.is_dist():
        return
    param.name = param.name + ".dist"
    _mark(param, mesh, placements)


def _mp_placements(mesh: ProcessMesh, dim: int | None) -> list:
    """One placement per mesh dimension: Shard(dim) on the 'mp' dimension (the last one when no
    dimension is named 'mp'), Replicate elsewhere; all Replicate for ``dim`` None."""
    from pagaie.distributed.auto_parallel import Replicate, Shard
    out = [Replicate() for _ in range(mesh.ndim)]
    if dim is not None:
        out[mesh.dim_names.index("mp") if "mp" in mesh.dim_names else mesh.ndim - 1] = Shard(dim)
    return out


class ColWiseParallel(_Plan):
    """Split a Linear/Embedding's weight by columns over the model-parallel dimension.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.ColWiseParallel(gather_output=True).gather_output
        True
    """

    def __init__(self, gather_output: bool = False) -> None:
        super().__init__()
        self.gather_output = gather_output

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        super()._apply(layer, mesh, degree)
        # As Paddle: the weight ([in, out] or [vocab, dim]) splits along axis 1, the bias along 0.
        _place_in_place(getattr(layer, "weight", None), mesh, _mp_placements(mesh, 1))
        _place_in_place(getattr(layer, "bias", None), mesh, _mp_placements(mesh, 0))


class RowWiseParallel(_Plan):
    """Split a Linear/Embedding's weight by rows over the model-parallel dimension."""

    def __init__(self, is_input_parallel: bool = True) -> None:
        super().__init__()
        self.is_input_parallel = is_input_parallel

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        super()._apply(layer, mesh, degree)
        # As Paddle: the weight splits along axis 0; the bias (added after the sum) is replicated.
        _place_in_place(getattr(layer, "weight", None), mesh, _mp_placements(mesh, 0))
        _place_in_place(getattr(layer, "bias", None), mesh, _mp_placements(mesh, None))


class ConvParallel(_Plan):
    """Split a convolution's input along its spatial width over the model-parallel dimension."""


class _HookPlan(_Plan):
    def __init__(self, fn: Callable | None = None) -> None:
        super().__init__()
        if not callable(fn):  # an AssertionError, as in Paddle
            raise AssertionError(f"paddle.distributed.{type(self).__name__}: fn must be a callable taking "
                                 f"process_mesh and returning a hook, but received {fn!r}")
        self.fn = fn


class PrepareLayerInput(_HookPlan):
    """Run ``fn(process_mesh)`` -> a forward pre-hook on the layer's inputs."""

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        layer.register_forward_pre_hook(self.fn(process_mesh=mesh))


class PrepareLayerOutput(_HookPlan):
    """Run ``fn(process_mesh)`` -> a forward post-hook on the layer's outputs."""

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        layer.register_forward_post_hook(self.fn(process_mesh=mesh))


class _SeqPlan(_Plan):
    def __init__(self, need_transpose: bool = True) -> None:
        super().__init__()
        self.need_transpose = need_transpose


class SequenceParallelBegin(_SeqPlan):
    """Start sequence parallelism after this layer (split the sequence dimension)."""


class SequenceParallelEnd(_SeqPlan):
    """End sequence parallelism before this layer (gather the sequence dimension)."""


class SequenceParallelDisable(_SeqPlan):
    """Run this layer outside sequence parallelism."""


class SequenceParallelEnable(_Plan):
    """Run this layer under sequence parallelism."""


class ContextParallel(_Plan):
    """Split attention over the sequence dimension ('p2p' ring or 'all2all')."""

    def __init__(self, backend: str = "p2p") -> None:
        super().__init__()
        self.backend = backend


class PrepareContextParallel(ContextParallel):
    """Split the model inputs along the sequence for context parallelism."""


class SplitPoint(enum.Enum):
    """Where a pipeline stage boundary lies relative to a layer.

    Examples:
        >>> import pagaie.distributed as dist
        >>> list(dist.SplitPoint)
        [<SplitPoint.BEGINNING: 0>, <SplitPoint.END: 1>]
    """

    BEGINNING = 0
    END = 1


def _match(model: Any, pattern: str) -> list:
    import fnmatch
    return [layer for name, layer in model.named_sublayers() if fnmatch.fnmatch(name, pattern) or name == pattern]


def parallelize(model: Any, optimizer: Any = None, mesh: ProcessMesh | None = None,
                config: dict | None = None) -> tuple:
    """Apply data/model/pipeline parallel configs to ``model`` (and ``optimizer``).

    ``config`` holds ``dp_config`` ({'sharding_level': 0-3}), ``mp_config``
    ({'parallelize_plan': {sublayer pattern: plan}}) and ``pp_config``. Degrees come from the
    mesh dimensions named 'dp', 'mp' and 'pp'.

    Returns:
        tuple: ``(model, optimizer)``.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> mesh = dist.ProcessMesh([0], dim_names=["dp"])
        >>> model, opt = dist.parallelize(paddle.nn.Linear(2, 2), None, mesh, {"dp_config": {"sharding_level": 0}})
        >>> isinstance(model, paddle.nn.Linear)
        True
    """
    mesh = mesh or get_mesh()
    if mesh is None:
        raise ValueError("paddle.distributed.parallelize: give mesh or call paddle.distributed.set_mesh first")
    config = dict(config or {})

    def degree(name: str) -> int:
        return mesh.get_dim_size(name) if name in mesh.dim_names else 1

    mp = config.get("mp_config") or {}
    for pattern, plans in (mp.get("parallelize_plan") or {}).items():
        for plan in plans if isinstance(plans, (list, tuple)) else [plans]:
            for layer in _match(model, pattern):
                plan._apply(layer, mesh, degree("mp"))
    # As Paddle: every other parameter becomes a replicated distributed one, and the model's
    # outputs are replicated distributed tensors.
    for param in model.parameters():
        _place_in_place(param, mesh, _mp_placements(mesh, None))
    model.register_forward_post_hook(lambda _layer, _inputs, outputs: _replicated_outputs(outputs, mesh))
    if config.get("pp_config") and degree("pp") > 1:
        raise NotImplementedError("paddle.distributed.parallelize: pipeline parallelism over "
                                  f"{degree('pp')} stages is not supported by pagaie")
    dp = config.get("dp_config") or {}
    if dp.get("sharding_level", 0) and degree("dp") > 1:
        raise NotImplementedError("paddle.distributed.parallelize: sharding_level > 0 over several processes is "
                                  "not supported by pagaie; use sharding_level 0 (plain data parallelism)")
    if degree("dp") > 1:
        if degree("dp") != _env.get_world_size():
            raise NotImplementedError("paddle.distributed.parallelize: data parallelism must span the whole job")
        from pagaie.distributed.parallel import DataParallel
        model = DataParallel(model)
    if optimizer is not None:
        # As Paddle: the optimizer is wrapped by shard_optimizer (with the sharding stage of
        # dp_config's sharding_level over the 'dp' dimension).
        from pagaie.distributed import auto_parallel as ap
        stage = {1: ap.ShardingStage1, 2: ap.ShardingStage2, 3: ap.ShardingStage3}.get(
            int(dp.get("sharding_level", 0) or 0))
        optimizer = ap.shard_optimizer(optimizer, stage("dp", mesh) if stage is not None else None)
    return model, optimizer


def _replicated_outputs(outputs: Any, mesh: ProcessMesh) -> Any:
    from pagaie._core.tensor import Tensor
    from pagaie.distributed.auto_parallel import _mark
    if isinstance(outputs, Tensor):
        if not outputs.is_dist():
            _mark(outputs, mesh, _mp_placements(mesh, None))
    elif isinstance(outputs, (list, tuple)):
        for out in outputs:
            _replicated_outputs(out, mesh)
    return outputs


def to_distributed(model: Any, optimizer: Any, dataloader: Any, device_num: int, node_num: int = 1,
                   config: dict | None = None) -> tuple:
    """Choose a parallel strategy for ``device_num * node_num`` devices and apply it.

    One device: everything is returned unchanged. Several: data parallelism (the model wrapped in
    ``paddle.DataParallel``; the dataloader is returned as is, so give it a DistributedBatchSampler).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> m = paddle.nn.Linear(2, 2)
        >>> dist.to_distributed(m, None, None, device_num=1)[0] is m
        True
    """
    total = int(device_num) * int(node_num)
    if total != _env.get_world_size():
        raise ValueError(f"paddle.distributed.to_distributed: device_num * node_num ({total}) must equal the "
                         f"number of processes ({_env.get_world_size()})")
    if total == 1:
        return model, optimizer, dataloader
    from pagaie.distributed.parallel import DataParallel
    return DataParallel(model), optimizer, dataloader


class _SplitArgError(ValueError, AssertionError):
    """A bad ``size`` or ``operation`` for split: Paddle asserts on them."""


def split(x: Any, size: Any, operation: str, axis: int = 0, num_partitions: int = 1, gather_out: bool = True,
          weight_attr: Any = None, bias_attr: Any = None, name: str | None = None) -> Any:
    """Apply a new Linear or Embedding of ``size`` to ``x``, its weight split into ``num_partitions``.

    Only ``num_partitions=1`` (no split) is supported.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> dist.split(paddle.ones([3, 4]), (4, 2), "linear").shape
        paddle.Size([3, 2])
    """
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise _SplitArgError(f"paddle.distributed.split: size must be a list or tuple of two ints, "
                             f"but received {size!r}")
    if operation not in ("linear", "embedding"):
        raise _SplitArgError(f"paddle.distributed.split: operation must be 'linear' or 'embedding', "
                             f"but received {operation!r}")
    if operation == "embedding" and axis != 0:
        raise _SplitArgError(f"paddle.distributed.split: an embedding's weight splits along axis 0 only, "
                             f"but received axis={axis}")
    if operation == "linear" and axis not in (0, 1):
        raise ValueError(f"paddle.distributed.split: axis must be 0 or 1 for 'linear', but received {axis}")
    if num_partitions != 1:
        raise NotImplementedError(f"paddle.distributed.split: num_partitions={num_partitions} needs the weight "
                                  "split over processes, which pagaie does not support")
    from pagaie import nn
    if operation == "linear":
        layer = nn.Linear(size[0], size[1], weight_attr=weight_attr, bias_attr=bias_attr, name=name)
    else:
        layer = nn.Embedding(size[0], size[1], weight_attr=weight_attr, name=name)
    return layer(x)


class _NotLayerError(AttributeError, TypeError):
    """``to_static`` given something that is not a Layer: Paddle fails an attribute look-up."""


class DistModel:
    """A Layer with its loss and optimizer, run step by step in 'train', 'eval' or 'predict' mode.

    As in Paddle, no mode is set at first: call :meth:`train`, :meth:`eval` or :meth:`predict`.
    Then ``model(*inputs, label)`` runs forward, loss, backward and an optimizer step and returns
    the loss (train), returns the loss (eval), or returns the outputs (predict). Lists and tuples
    among the arguments are flattened; the last ``len(input_spec[1])`` values (one by default)
    are the labels.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> layer = paddle.nn.Linear(2, 1)
        >>> opt = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
        >>> m = dist.to_static(layer, None, paddle.nn.MSELoss(), opt)
        >>> m.train()
        >>> loss = m(paddle.ones([4, 2]), paddle.zeros([4, 1]))
        >>> m.predict(); m(paddle.ones([4, 2])).shape
        paddle.Size([4, 1])
    """

    def __init__(self, layer: Any, loader: Any, loss: Any = None, optimizer: Any = None, strategy: Any = None,
                 metrics: Any = None, input_spec: Any = None) -> None:
        if not hasattr(layer, "state_dict"):
            raise _NotLayerError(f"paddle.distributed.to_static: layer must be a paddle.nn.Layer, "
                                 f"but received {type(layer).__name__}")
        self._layer = layer
        self._loader = loader
        self._loss = loss
        self._optimizer = optimizer
        self._strategy = strategy
        self._metrics = metrics
        self._input_spec = input_spec
        self._mode: str | None = None

    def train(self) -> None:
        """Set 'train' mode: a call runs a training step and returns the loss."""
        self._mode = "train"
        self._layer.train()

    def eval(self) -> None:
        """Set 'eval' mode: a call returns the loss."""
        self._mode = "eval"
        self._layer.eval()

    def predict(self) -> None:
        """Set 'predict' mode: a call returns the outputs."""
        self._mode = "predict"
        self._layer.eval()

    def _validate_mode(self, mode: str | None, api: str) -> str:
        if mode is None and self._mode is None:
            raise ValueError(f"paddle.distributed.DistModel.{api}: set the mode or call train()/eval()/predict() "
                             "first")
        mode = self._mode if mode is None else mode
        if mode not in ("train", "eval", "predict"):
            raise ValueError(f"paddle.distributed.DistModel.{api}: mode must be 'train', 'eval' or 'predict', "
                             f"but received {mode!r}")
        return mode

    def __call__(self, *args: Any) -> Any:
        from pagaie._core.tensor import Tensor
        from pagaie.autograd import no_grad
        if self._mode is None:
            raise ValueError("paddle.distributed.DistModel: call train()/eval()/predict() first")
        if self._mode == "train" and (self._optimizer is None or self._loss is None):
            raise ValueError("paddle.distributed.DistModel: set the optimizer and the loss before training")
        if self._mode == "eval" and self._loss is None:
            raise ValueError("paddle.distributed.DistModel: set the loss before evaluation")
        feeds: list = []
        for a in args:
            if isinstance(a, (list, tuple)):
                feeds += list(a)
            elif isinstance(a, Tensor):
                feeds.append(a)
            else:
                raise TypeError(f"paddle.distributed.DistModel: the inputs must be Tensors or lists of Tensors, "
                                f"but received {type(a).__name__}")
        if self._mode == "predict":
            with no_grad():
                return self._layer(*feeds)
        n_labels = len(self._input_spec[1]) if self._input_spec is not None and len(self._input_spec) > 1 else 1
        inputs, labels = feeds[:len(feeds) - n_labels], feeds[len(feeds) - n_labels:]
        if self._mode == "eval":
            with no_grad():
                return self._loss(self._layer(*inputs), *labels)
        loss = self._loss(self._layer(*inputs), *labels)
        loss.backward()
        self._optimizer.step()
        self._optimizer.clear_grad()
        return loss

    def state_dict(self, mode: str = "all", split_fusion: bool = True) -> dict:
        """The parameters ('param'), optimizer states ('opt') or both ('all')."""
        self._validate_mode(None, "state_dict")
        if mode not in ("all", "param", "opt"):
            raise ValueError(f"paddle.distributed.DistModel.state_dict: mode must be 'all', 'param' or 'opt', "
                             f"but received {mode!r}")
        state = dict(self._layer.state_dict()) if mode in ("all", "param") else {}
        if mode in ("all", "opt") and self._optimizer is not None:
            state.update(self._optimizer.state_dict())
        return state

    def set_state_dict(self, state_dict: dict) -> None:
        self._layer.set_state_dict(state_dict)

    def _no_program(self, mode: str | None, api: str) -> Any:
        self._validate_mode(mode, api)
        raise NotImplementedError(f"paddle.distributed.DistModel.{api}: pagaie runs DistModel eagerly and builds "
                                  "no distributed program")

    def dist_main_program(self, mode: str | None = None) -> Any:
        return self._no_program(mode, "dist_main_program")

    def dist_startup_program(self, mode: str | None = None) -> Any:
        return self._no_program(mode, "dist_startup_program")

    def serial_main_program(self, mode: str | None = None) -> Any:
        return self._no_program(mode, "serial_main_program")

    def serial_startup_program(self, mode: str | None = None) -> Any:
        return self._no_program(mode, "serial_startup_program")


def to_static(layer: Any, loader: Any = None, loss: Any = None, optimizer: Any = None, strategy: Any = None,
              input_spec: Any = None) -> DistModel:
    """Wrap a (distributed) Layer with its loss and optimizer as a :class:`DistModel`.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> isinstance(dist.to_static(paddle.nn.Linear(2, 2)), dist.DistModel)
        True
    """
    return DistModel(layer, loader, loss, optimizer, strategy, input_spec=input_spec)
