"""Intermediate auto-parallel API: parallel plans, ``parallelize``, ``Strategy``, ``DistModel``.

The plans describe tensor/sequence/context parallelism. With a degree of 1 a plan is an identity
(pre/post hooks given by the user still run); a degree above 1 needs tensors split over processes
and raises NotImplementedError. Data parallelism over several processes becomes
``paddle.DataParallel``.
"""
from __future__ import annotations

import enum
from typing import Any, Callable

from pagaie.distributed import _env
from pagaie.distributed.auto_parallel import ProcessMesh, get_mesh

__all__ = ["ColWiseParallel", "RowWiseParallel", "ConvParallel", "PrepareLayerInput", "PrepareLayerOutput",
           "SequenceParallelBegin", "SequenceParallelEnd", "SequenceParallelEnable", "SequenceParallelDisable",
           "ContextParallel", "PrepareContextParallel", "SplitPoint", "parallelize", "to_distributed", "split",
           "Strategy", "DistModel", "to_static"]


class _Plan:
    """A parallel plan for the sublayers matched by a key of ``parallelize_plan``."""

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        if degree > 1:
            raise NotImplementedError(f"paddle.distributed.{type(self).__name__}: model parallelism of degree "
                                      f"{degree} needs weights split over processes, which pagaie does not support")

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({args})"


class ColWiseParallel(_Plan):
    """Split a Linear/Embedding's weight by columns over the model-parallel dimension.

    Examples:
        >>> import pagaie.distributed as dist
        >>> dist.ColWiseParallel(gather_output=True)
        ColWiseParallel(gather_output=True)
    """

    def __init__(self, gather_output: bool = False) -> None:
        self.gather_output = gather_output


class RowWiseParallel(_Plan):
    """Split a Linear/Embedding's weight by rows over the model-parallel dimension."""

    def __init__(self, is_input_parallel: bool = True) -> None:
        self.is_input_parallel = is_input_parallel


class ConvParallel(_Plan):
    """Split a convolution's input along its spatial width over the model-parallel dimension."""


class _HookPlan(_Plan):
    def __init__(self, fn: Callable | None = None) -> None:
        self.fn = fn


class PrepareLayerInput(_HookPlan):
    """Run ``fn(process_mesh)`` -> a forward pre-hook on the layer's inputs."""

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        if self.fn is not None:
            layer.register_forward_pre_hook(self.fn(process_mesh=mesh))


class PrepareLayerOutput(_HookPlan):
    """Run ``fn(process_mesh)`` -> a forward post-hook on the layer's outputs."""

    def _apply(self, layer: Any, mesh: ProcessMesh, degree: int) -> None:
        if self.fn is not None:
            layer.register_forward_post_hook(self.fn(process_mesh=mesh))


class _SeqPlan(_Plan):
    def __init__(self, need_transpose: bool = True) -> None:
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
    return model, optimizer


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
    if operation not in ("linear", "embedding"):
        raise ValueError(f"paddle.distributed.split: operation must be 'linear' or 'embedding', "
                         f"but received {operation!r}")
    if num_partitions != 1:
        raise NotImplementedError(f"paddle.distributed.split: num_partitions={num_partitions} needs the weight "
                                  "split over processes, which pagaie does not support")
    from pagaie import nn
    if operation == "linear":
        layer = nn.Linear(size[0], size[1], weight_attr=weight_attr, bias_attr=bias_attr, name=name)
    else:
        layer = nn.Embedding(size[0], size[1], weight_attr=weight_attr, name=name)
    return layer(x)


class _Section:
    def __init__(self, **defaults: Any) -> None:
        self.__dict__.update(defaults)

    def __repr__(self) -> str:
        return "{" + ",".join(f'"{k}":"{v}"' for k, v in self.__dict__.items()) + ",}"


class Strategy:
    """Auto-parallel configuration: sections ``sharding``, ``pipeline``, ``amp``, ``recompute``,
    ``gradient_merge``, ``fused_passes`` with attribute defaults, updated from ``config``.

    Examples:
        >>> import pagaie.distributed as dist
        >>> s = dist.Strategy({"sharding": {"enable": True, "stage": 2}})
        >>> s.sharding.enable, s.sharding.stage, s.pipeline.schedule_mode
        (True, 2, '1F1B')
    """

    def __init__(self, config: dict | None = None) -> None:
        self.sharding = _Section(enable=False, stage=1, degree=8, enable_overlap=False, comm_buffer_size_MB=256,
                                 enable_tensor_fusion=False, release_gradients=False)
        self.pipeline = _Section(enable=False, schedule_mode="1F1B", pp_degree=1, vpp_degree=1,
                                 micro_batch_size=1, accumulate_steps=1)
        self.amp = _Section(enable=False, dtype="float16", level="O1", init_loss_scaling=32768.0,
                            use_master_grad=False, custom_white_list=[], custom_black_list=[])
        self.recompute = _Section(enable=False, checkpoints=None, refined_ops_patterns=[])
        self.gradient_merge = _Section(enable=False, k_steps=1, avg=True)
        self.fused_passes = _Section(enable=False, fused_passes_list=[])
        self.mp_optimization = _Section(allreduce_matmul_grad_overlapping=False)
        self.dp_optimization = _Section(enable_allreduce_avg_in_gradinent_scale=False)
        self.sp_optimization = _Section(enable=False)
        for section, values in (config or {}).items():
            target = getattr(self, section, None)
            if not isinstance(target, _Section):
                raise ValueError(f"paddle.distributed.Strategy: unknown config section {section!r}")
            target.__dict__.update(values)


class DistModel:
    """A Layer with its loss and optimizer, run step by step in 'train', 'eval' or 'predict' mode.

    ``model(*inputs, label)`` in train mode runs forward, loss, backward and an optimizer step and
    returns the loss; in eval mode it returns the loss; in predict mode the outputs.

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> layer = paddle.nn.Linear(2, 1)
        >>> opt = paddle.optimizer.SGD(0.1, parameters=layer.parameters())
        >>> m = dist.to_static(layer, None, paddle.nn.MSELoss(), opt)
        >>> loss = m(paddle.ones([4, 2]), paddle.zeros([4, 1]))
        >>> m.predict(); m(paddle.ones([4, 2])).shape
        paddle.Size([4, 1])
    """

    def __init__(self, layer: Any, loader: Any, loss: Any = None, optimizer: Any = None, strategy: Any = None,
                 metrics: Any = None, input_spec: Any = None) -> None:
        self._layer = layer
        self._loader = loader
        self._loss = loss
        self._optimizer = optimizer
        self._strategy = strategy
        self._metrics = metrics
        self._input_spec = input_spec
        self._mode = "train" if loss is not None and optimizer is not None else (
            "eval" if loss is not None else "predict")

    def train(self) -> None:
        if self._loss is None or self._optimizer is None:
            raise ValueError("paddle.distributed.DistModel.train: needs both loss and optimizer")
        self._mode = "train"
        self._layer.train()

    def eval(self) -> None:
        if self._loss is None:
            raise ValueError("paddle.distributed.DistModel.eval: needs a loss")
        self._mode = "eval"
        self._layer.eval()

    def predict(self) -> None:
        self._mode = "predict"
        self._layer.eval()

    def __call__(self, *args: Any) -> Any:
        from pagaie.autograd import no_grad
        if self._mode == "predict":
            with no_grad():
                return self._layer(*args)
        *inputs, label = args
        if self._mode == "eval":
            with no_grad():
                return self._loss(self._layer(*inputs), label)
        loss = self._loss(self._layer(*inputs), label)
        loss.backward()
        self._optimizer.step()
        self._optimizer.clear_grad()
        return loss

    def state_dict(self, mode: str = "all") -> dict:
        state = dict(self._layer.state_dict()) if mode in ("all", "param") else {}
        if mode in ("all", "opt") and self._optimizer is not None:
            state.update(self._optimizer.state_dict())
        return state

    def set_state_dict(self, state_dict: dict) -> None:
        self._layer.set_state_dict(state_dict)

    def dist_main_program(self, mode: str | None = None) -> Any:
        raise NotImplementedError("paddle.distributed.DistModel.dist_main_program: pagaie runs DistModel eagerly "
                                  "and builds no distributed program")

    dist_startup_program = dist_main_program
    serial_main_program = dist_main_program
    serial_startup_program = dist_main_program


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
