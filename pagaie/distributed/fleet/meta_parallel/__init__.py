"""``paddle.distributed.fleet.meta_parallel``: the tensor-parallel layers and the RNG state tracker.

pagaie runs them with a model-parallel degree of 1 (the layers are then the plain Linear,
Embedding and softmax cross entropy, with Paddle's parameter shapes, initialisation and
attributes); a larger degree needs a weight split over processes, which pagaie does not
support. As in Paddle, the layers read the hybrid groups, so ``fleet.init(is_collective=True)``
comes first.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from pagaie._ops.nn_loss import softmax_with_cross_entropy
from pagaie.nn import Layer
from pagaie.nn import functional as F
from pagaie.nn.initializer import Constant

# This package has no files of its own below it: its submodules (``sharding``...) are Paddle's
# module paths, made by pagaie's module-path table on import or on attribute access.
__path__: list[str] = []

__all__ = ["ColumnParallelLinear", "RowParallelLinear", "VocabParallelEmbedding", "ParallelCrossEntropy",
           "RNGStatesTracker", "get_rng_state_tracker"]

MODEL_PARALLEL_RNG = "model_parallel_rng"


class _NoHybridGroupError(AttributeError, RuntimeError):
    """A tensor-parallel layer made before ``fleet.init``: Paddle fails an attribute look-up on the
    missing hybrid group."""


def _mp_group(api: str, mp_group: Any) -> tuple[Any, int]:
    """The model-parallel group and its size; pagaie runs a size of 1 only."""
    if mp_group is None:
        from pagaie.distributed.fleet import fleet
        if fleet._hcg is None:
            raise _NoHybridGroupError(f"paddle.distributed.fleet.meta_parallel.{api}: call "
                                      "fleet.init(is_collective=True) first (there is no model parallel group)")
        mp_group = fleet._hcg.get_model_parallel_group()
    size = mp_group.nranks
    if size > 1:
        raise NotImplementedError(f"paddle.distributed.fleet.meta_parallel.{api}: a model parallel degree of "
                                  f"{size} needs the weight split over processes, which pagaie does not support")
    return mp_group, size


class _ParallelLinear(Layer):
    """y = x @ weight + bias with weight [in_features, out_features] and a zero-initialised bias."""

    def __init__(self, api: str, in_features: int, out_features: int, weight_attr: Any, has_bias: Any,
                 mp_group: Any, name: str | None) -> None:
        super().__init__()
        self.model_parallel_group, self.world_size = _mp_group(api, mp_group)
        self.is_mp = self.world_size > 1
        self._name = name
        self._weight_attr = weight_attr
        self.weight = self.create_parameter(shape=[in_features, out_features], attr=weight_attr,
                                            dtype=self._dtype, is_bias=False)
        self.weight.is_distributed = False
        if has_bias:
            # As Paddle (and Megatron): the bias starts at zero.
            self.bias = self.create_parameter(shape=[out_features], attr=Constant(value=0.0), dtype=self._dtype,
                                              is_bias=True)
            self.bias.is_distributed = False
        else:
            self.bias = None

    def forward(self, x: Any) -> Any:
        return F.linear(x, self.weight, self.bias, name=self._name)


class ColumnParallelLinear(_ParallelLinear):
    """A Linear whose weight columns are split over the model-parallel group (one part here).

    Args:
        in_features, out_features (int): the weight's shape.
        weight_attr (ParamAttr, optional): the weight's attribute.
        has_bias (bool, optional): add a bias (default None: no bias, as in Paddle).
        gather_output (bool): concatenate the parts of the output (default True).
        fuse_matmul_bias (bool): use a fused kernel (not needed here).
        mp_group (Group, optional): the model-parallel group (the hybrid one by default).
        name (str, optional): a name for the output.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distributed import fleet
        >>> _ = fleet.init(is_collective=True)
        >>> layer = fleet.meta_parallel.ColumnParallelLinear(4, 6, has_bias=True)
        >>> layer(paddle.ones([2, 4])).shape, layer.weight.shape
        (paddle.Size([2, 6]), paddle.Size([4, 6]))
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, has_bias: bool | None = None,
                 gather_output: bool = True, fuse_matmul_bias: bool = False, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__("ColumnParallelLinear", in_features, out_features, weight_attr, has_bias, mp_group, name)
        self.gather_output = gather_output
        self.fuse_matmul_bias = fuse_matmul_bias
        self.output_size_per_partition = out_features


class RowParallelLinear(_ParallelLinear):
    """A Linear whose weight rows are split over the model-parallel group (one part here).

    Args:
        in_features, out_features (int): the weight's shape.
        weight_attr (ParamAttr, optional): the weight's attribute.
        has_bias (bool): add a bias (default True).
        input_is_parallel (bool): the input is already split along its last axis.
        fuse_matmul_bias (bool): use a fused kernel (not needed here).
        mp_group (Group, optional): the model-parallel group (the hybrid one by default).
        name (str, optional): a name for the output.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distributed import fleet
        >>> _ = fleet.init(is_collective=True)
        >>> fleet.meta_parallel.RowParallelLinear(4, 2)(paddle.ones([3, 4])).shape
        paddle.Size([3, 2])
    """

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None, has_bias: bool = True,
                 input_is_parallel: bool = False, fuse_matmul_bias: bool = False, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__("RowParallelLinear", in_features, out_features, weight_attr, has_bias, mp_group, name)
        self.input_is_parallel = input_is_parallel
        self.fuse_matmul_bias = fuse_matmul_bias
        self.input_size_per_partition = in_features


class VocabParallelEmbedding(Layer):
    """An Embedding whose vocabulary is split over the model-parallel group (one part here).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distributed import fleet
        >>> _ = fleet.init(is_collective=True)
        >>> emb = fleet.meta_parallel.VocabParallelEmbedding(10, 3)
        >>> emb(paddle.to_tensor([[1, 2]])).shape
        paddle.Size([1, 2, 3])
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, weight_attr: Any = None, mp_group: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        self.model_parallel_group, self.world_size = _mp_group("VocabParallelEmbedding", mp_group)
        self.is_mp = self.world_size > 1
        self.origin_num_embeddings = num_embeddings
        self.vocab_start_index = 0
        self._size = [num_embeddings, embedding_dim]
        self._weight_attr = weight_attr
        self._name = name
        self.weight = self.create_parameter(attr=weight_attr, shape=self._size, dtype=self._dtype, is_bias=False)
        self.weight.is_distributed = False

    def forward(self, x: Any) -> Any:
        return F.embedding(x, weight=self.weight, name=self._name)


class ParallelCrossEntropy(Layer):
    """Softmax cross entropy over logits split along the class axis (one part here): the loss per
    sample, shape ``[..., 1]``; labels equal to ``ignore_index`` give 0.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distributed import fleet
        >>> _ = fleet.init(is_collective=True)
        >>> loss = fleet.meta_parallel.ParallelCrossEntropy()
        >>> loss(paddle.zeros([2, 4]), paddle.to_tensor([[1], [3]])).shape
        paddle.Size([2, 1])
    """

    def __init__(self, mp_group: Any = None, name: str | None = None, ignore_index: int = -100) -> None:
        super().__init__()
        self.name = name
        self.model_parallel_group, self.world_size = _mp_group("ParallelCrossEntropy", mp_group)
        self.rank = self.model_parallel_group.rank
        self.ignore_index = ignore_index

    def forward(self, input: Any, label: Any) -> Any:
        # the op itself: Paddle's layer does not give the public function's deprecation warning
        return softmax_with_cross_entropy(input, label, ignore_index=self.ignore_index)


class RNGStatesTracker:
    """Named random-number states: ``add(name, seed)`` registers one, and inside
    ``with tracker.rng_state(name):`` random ops draw from it (the global state is put back after).

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.distributed.fleet import meta_parallel
        >>> tracker = meta_parallel.RNGStatesTracker()
        >>> tracker.add("mp", 123)
        >>> with tracker.rng_state("mp"):
        ...     a = paddle.rand([2])
        >>> _ = paddle.seed(123); bool((paddle.rand([2]) == a).all())
        True
    """

    def __init__(self) -> None:
        self.states_: dict[str, Any] = {}
        self.seeds_: set = set()

    def reset(self) -> None:
        self.states_ = {}
        self.seeds_ = set()

    def add(self, name: str, seed: int) -> None:
        """Register the state ``name`` seeded with ``seed`` (each name and seed once: ValueError)."""
        import pagaie
        if seed in self.seeds_:
            raise ValueError(f"RNGStatesTracker.add: seed {seed} already exists")
        self.seeds_.add(seed)
        if name in self.states_:
            raise ValueError(f"RNGStatesTracker.add: state {name!r} already exists")
        orig = pagaie.get_rng_state()
        pagaie.seed(seed)
        self.states_[name] = pagaie.get_rng_state()
        pagaie.set_rng_state(orig)

    def get_states_tracker(self) -> dict[str, Any]:
        """The saved states, by name."""
        return dict(self.states_)

    def set_states_tracker(self, states: dict[str, Any]) -> None:
        """Replace the saved states of registered names (an unknown name: ValueError)."""
        for name in states:
            if name not in self.states_:
                raise ValueError(f"RNGStatesTracker.set_states_tracker: state {name!r} does not exist")
            self.states_[name] = states[name]

    @contextlib.contextmanager
    def rng_state(self, name: str = MODEL_PARALLEL_RNG) -> Iterator[None]:
        """Draw random numbers from the state ``name`` inside the block."""
        import pagaie
        if name not in self.states_:
            raise ValueError(f"RNGStatesTracker.rng_state: state {name!r} does not exist")
        orig = pagaie.get_rng_state()
        pagaie.set_rng_state(self.states_[name])
        try:
            yield
        finally:
            self.states_[name] = pagaie.get_rng_state()
            pagaie.set_rng_state(orig)


_RNG_STATE_TRACKER = RNGStatesTracker()


def get_rng_state_tracker() -> RNGStatesTracker:
    """The process-wide :class:`RNGStatesTracker`.

    Examples:
        >>> from pagaie.distributed.fleet import meta_parallel
        >>> type(meta_parallel.get_rng_state_tracker()).__name__
        'RNGStatesTracker'
    """
    return _RNG_STATE_TRACKER


def __getattr__(name: str) -> Any:
    import importlib
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
