"""Global random state: Paddle's generators.

The CPU default generator owns Paddle's CPU engine (:class:`pagaie._core.mt64.Engine`, a
``std::mt19937_64`` seeded as Paddle seeds it): the CPU samplers that follow Paddle's
kernels draw from it (:func:`cpu_engine`), so a seed gives the numbers Paddle gives.
Each device's generator also seeds torch's default generator of that device
(``torch.default_generator``, ``torch.cuda.default_generators[i]``), which GPU samplers,
compiled code and the few CPU paths without a Paddle counterpart draw from.
:func:`seed` seeds them all, making a whole run reproducible.

A :class:`Generator` is Paddle's handle on one device's default generator; a
:class:`GeneratorState` is a snapshot that :meth:`Generator.set_state` restores.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Sequence

import torch

from pagaie._core.mt64 import Engine
from pagaie._core.place import default_device, to_torch_device

__all__ = ["Generator", "GeneratorState", "seed", "manual_seed", "get_rng_state", "set_rng_state",
           "get_cuda_rng_state", "set_cuda_rng_state", "default_generator", "cpu_engine",
           "draws_discarded", "on_paddle_cpu"]

# Paddle seeds its generators with 53 random bits when the program does not.
_SEED_BITS = (1 << 53) - 1


class GeneratorState:
    """A snapshot of a generator's state, from :meth:`Generator.get_state`.

    Examples:
        >>> import pagaie as paddle
        >>> st = paddle.get_rng_state()[0]
        >>> isinstance(st.current_seed(), int)
        True
    """

    __slots__ = ("_state", "_seed", "_engine")

    def __init__(self, state: torch.Tensor, seed: int, engine: tuple | None = None) -> None:
        self._state = state
        self._seed = seed
        self._engine = engine

    def _copy(self) -> GeneratorState:
        return GeneratorState(self._state.clone(), self._seed, self._engine)

    def current_seed(self) -> int:
        """The seed the generator was last seeded with when this snapshot was taken."""
        return self._seed

    def __repr__(self) -> str:
        return f"GeneratorState(current_seed={self._seed})"


_DEFAULTS: dict[tuple, "Generator"] = {}


class Generator:
    """A random number generator: the default generator of a device.

    As in Paddle, ``Generator(device)`` does not make a new independent stream: it
    returns the device's default generator, the one random ops draw from.

    Args:
        device (str|int|Place, optional): ``'cpu'``, ``'gpu'``, ``'gpu:N'``, a GPU
            index or a Place; the current default device when None.

    Examples:
        >>> import pagaie as paddle
        >>> g = paddle.Generator('cpu')
        >>> _ = g.manual_seed(7)
        >>> a = paddle.rand([2])
        >>> _ = g.manual_seed(7)
        >>> bool((paddle.rand([2]) == a).all())
        True
    """

    __slots__ = ("_gen", "_states", "_index", "_engine", "_seed")

    def __new__(cls, device: Any = None) -> Generator:
        dev = default_device() if device is None else to_torch_device(device, "paddle.Generator")
        return default_generator(dev)

    @classmethod
    def _wrap(cls, gen: torch.Generator) -> Generator:
        self = object.__new__(cls)
        self._gen = gen
        self._states: list[GeneratorState | None] = [None]
        self._index = 0
        self._seed = int(gen.initial_seed()) & _SEED_BITS
        self._engine = Engine.from_seed(self._seed) if gen.device.type == "cpu" else None
        return self

    @property
    def device(self) -> torch.device:
        return self._gen.device

    def manual_seed(self, seed: int) -> Generator:
        """Seed the generator; returns the generator itself.

        Args:
            seed (int): an integer in [0, 2**64) (an object with ``__int__``, a 0-D Tensor or
                a numpy number, does too; a Python float or a string does not, as in Paddle).

        Examples:
            >>> import pagaie as paddle
            >>> paddle.seed(1).manual_seed(7).initial_seed()
            7
        """
        value = None
        if not isinstance(seed, (float, str, bytes)):
            try:
                value = int(seed)
            except (TypeError, ValueError):
                pass
        if value is None or not 0 <= value < 1 << 64:
            raise TypeError("paddle.Generator.manual_seed: 'seed' must be an integer in "
                            f"[0, 2**64), but received {seed!r}")
        self._reseed(value)
        return self

    def _reseed(self, seed: int) -> None:
        self._seed = seed & ((1 << 64) - 1)
        self._gen.manual_seed(self._seed)
        if self._engine is not None:
            self._engine.reseed(self._seed)

    def seed(self) -> int:
        """Seed from a non-deterministic source; returns the seed chosen."""
        self._reseed(int(torch.Generator().seed()) & _SEED_BITS)
        return self._seed

    def initial_seed(self) -> int:
        """The seed last set with :meth:`manual_seed` or :meth:`seed`."""
        return self._seed

    def random(self) -> int:
        """Draw a random 64-bit unsigned integer (advances the state)."""
        if self._engine is not None:
            return int(self._engine.take(1)[0])
        hi, lo = torch.randint(0, 2 ** 32, (2,), dtype=torch.int64, generator=self._gen,
                               device=self._gen.device).tolist()
        return (hi << 32) | lo

    def get_state(self) -> GeneratorState:
        """A snapshot of the current state."""
        return GeneratorState(self._gen.get_state(), self._seed,
                              None if self._engine is None else self._engine.get_state())

    def set_state(self, state: GeneratorState) -> None:
        """Restore a snapshot taken with :meth:`get_state`."""
        if not isinstance(state, GeneratorState):
            raise TypeError("paddle.Generator.set_state: 'state' must be a GeneratorState from "
                            f"get_state(), but received {type(state).__name__}")
        self._gen.set_state(state._state)
        self._seed = state._seed
        if self._engine is not None and state._engine is not None:
            self._engine.set_state(state._engine)

    # Paddle keeps several named states per generator (used by model-parallel RNG trackers).
    def register_state_index(self, state: GeneratorState) -> int:
        """Store ``state`` as an extra state slot and switch to it (as Paddle); returns its index."""
        self._states.append(state._copy())
        index = len(self._states) - 1
        self.set_state_index(index)
        return index

    def get_state_index(self) -> int:
        """The index of the state slot in use (0 unless :meth:`set_state_index` switched it)."""
        return self._index

    def set_state_index(self, index: int) -> None:
        """Switch to the state slot ``index``, saving the current state in its own slot."""
        if not 0 <= index < len(self._states):
            raise ValueError(f"paddle.Generator.set_state_index: index {index} is out of range; "
                             f"{len(self._states)} state(s) are registered")
        self._states[self._index] = self.get_state()
        self._index = index
        st = self._states[index]
        if st is not None:
            self.set_state(st)

    def __repr__(self) -> str:
        # Paddle's default generators are objects of its C++ extension type.
        return f"<paddle.base.libpaddle.Generator object at {id(self):#x}>"


def default_generator(device: torch.device | None = None) -> Generator:
    """The default Generator of ``device`` (the current default device when None)."""
    dev = default_device() if device is None else device
    key = (dev.type, dev.index or 0)
    g = _DEFAULTS.get(key)
    if g is None:
        if dev.type == "cuda":
            torch.cuda.init()
            gen = torch.cuda.default_generators[dev.index or 0]
        else:
            gen = torch.default_generator
        g = _DEFAULTS[key] = Generator._wrap(gen)
    return g


def cpu_engine(seed: int = 0) -> Engine:
    """The engine a Paddle CPU sampler draws from: the default one, or for an op given a
    non-zero ``seed``, a fresh engine seeded with it (so such an op repeats its values).

    Examples:
        >>> from pagaie._core.random import cpu_engine
        >>> bool((cpu_engine(5).take(2) == cpu_engine(5).take(2)).all())
        True
    """
    if seed:
        return Engine.from_op_seed(int(seed))
    if _scratch:
        return _scratch[0]
    return default_generator(torch.device("cpu"))._engine


# a non-empty list while draws are discarded: [the one scratch engine, and a marker per level]
_scratch: list[Any] = []


def on_paddle_cpu(device: Any) -> bool:
    """Whether a sampler for ``device`` draws Paddle's CPU stream from :func:`cpu_engine`
    (eager CPU code; compiled code and other devices keep torch's samplers).

    Examples:
        >>> from pagaie._core.random import on_paddle_cpu
        >>> on_paddle_cpu('cpu')
        True
    """
    return torch.device(device).type == "cpu" and not torch.compiler.is_compiling()


@contextmanager
def draws_discarded(engine: Engine | None = None) -> Iterator[None]:
    """Inside, CPU samplers draw from a scratch engine: building a static program runs
    kernels on placeholders to learn output shapes, and that must not move the stream
    the program's runs (and the code after the build) will draw from.

    Args:
        engine: the scratch engine (a fresh one when None); inside an outer block the outer
            scratch engine is kept.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._core.random import draws_discarded
        >>> _ = paddle.seed(1)
        >>> with draws_discarded():
        ...     _ = paddle.rand([3])
        >>> a = paddle.rand([2])
        >>> _ = paddle.seed(1)
        >>> bool((paddle.rand([2]) == a).all())
        True
    """
    _scratch.append(_scratch[0] if _scratch else engine or Engine.from_seed(0))
    try:
        yield
    finally:
        _scratch.pop()


def _cuda_count() -> int:
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def seed(seed: int) -> Generator:
    """Seed the default generators of every device, making random ops reproducible.

    Args:
        seed (int): the seed.

    Returns:
        Generator: the CPU default generator.

    Examples:
        >>> import pagaie as paddle
        >>> _ = paddle.seed(102)
        >>> a = paddle.randn([3])
        >>> _ = paddle.seed(102)
        >>> bool((paddle.randn([3]) == a).all())
        True
    """
    s = int(seed)
    if not 0 <= s < 1 << 64:   # Paddle's binding takes an unsigned 64-bit integer
        raise TypeError(f"paddle.seed: 'seed' must be an integer in [0, 2**64), but received {seed!r}")
    torch.default_generator.manual_seed(s)
    if torch.cuda.is_available():
        # Lazily for devices not yet initialised. (torch.manual_seed would queue that call on a
        # CPU-only machine too, recording a stack trace: a DataLoader worker forked while
        # another thread held a module lock deadlocked there.)
        torch.cuda.manual_seed_all(s)
    cpu = default_generator(torch.device("cpu"))
    cpu._reseed(s)
    return cpu


manual_seed = seed


def _place_kind(device: Any, api: str) -> str:
    dev = default_device() if device is None else to_torch_device(device, api)
    return dev.type


def get_rng_state(device: str | None = None) -> list[GeneratorState]:
    """The states of the default generators of a device kind.

    Args:
        device (str, optional): ``'cpu'`` or ``'gpu'``; the current device when None.

    Returns:
        list[GeneratorState]: one state for the CPU, or one per GPU.

    Examples:
        >>> import pagaie as paddle
        >>> sts = paddle.get_rng_state()
        >>> paddle.set_rng_state(sts)
    """
    if _place_kind(device, "paddle.get_rng_state") == "cuda":
        return get_cuda_rng_state()
    return [default_generator(torch.device("cpu")).get_state()]


def set_rng_state(state_list: Sequence[GeneratorState], device: str | None = None) -> None:
    """Restore generator states taken with :func:`get_rng_state`.

    Args:
        state_list (list|tuple): the states.
        device (str, optional): ``'cpu'`` or ``'gpu'``; the current device when None.

    Examples:
        >>> import pagaie as paddle
        >>> sts = paddle.get_rng_state()
        >>> a = paddle.rand([2])
        >>> paddle.set_rng_state(sts)
        >>> bool((paddle.rand([2]) == a).all())
        True
    """
    if _place_kind(device, "paddle.set_rng_state") == "cuda":
        n = _cuda_count()
        if len(state_list) != n:
            raise ValueError("paddle.set_rng_state: the length of the gpu state list should be "
                             f"equal to the gpu device count {n}, but received {len(state_list)}")
        set_cuda_rng_state(state_list)
        return
    if len(state_list) != 1:
        raise ValueError("paddle.set_rng_state: the length of the cpu state list should be 1, "
                         f"but received {len(state_list)}")
    default_generator(torch.device("cpu")).set_state(state_list[0])


def get_cuda_rng_state() -> list[GeneratorState]:
    """The states of every GPU's default generator (an empty list without GPUs).

    Returns:
        list[GeneratorState]: one per GPU.

    Examples:
        >>> import pagaie as paddle
        >>> sts = paddle.get_cuda_rng_state()
        >>> paddle.set_cuda_rng_state(sts)
    """
    return [default_generator(torch.device("cuda", i)).get_state() for i in range(_cuda_count())]


def set_cuda_rng_state(state_list: Sequence[GeneratorState]) -> None:
    """Restore the GPU generator states taken with :func:`get_cuda_rng_state`.

    Args:
        state_list (list|tuple): one state per GPU.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.set_cuda_rng_state(paddle.get_cuda_rng_state())
    """
    n = _cuda_count()
    if n == 0:
        return
    if len(state_list) != n:
        raise ValueError("paddle.set_cuda_rng_state: the length of the cuda state list should be "
                         f"equal to the cuda device count {n}, but received {len(state_list)}")
    for i, st in enumerate(state_list):
        default_generator(torch.device("cuda", i)).set_state(st)
