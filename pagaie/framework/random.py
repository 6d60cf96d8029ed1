"""``paddle.framework.random``: the random-state functions, and the program-seed helper
Paddle's own unit tests call.

The public names of Paddle's module (``seed``, ``get_rng_state``, ``Generator``...) resolve
to pagaie's objects through :mod:`pagaie._module_paths`.
"""
from __future__ import annotations

from typing import Any

__all__: list[str] = []

# Named generators (``set_random_seed_generator``), independent of the devices' default ones.
_named: dict[str, Any] = {}


def set_random_seed_generator(name: str, seed: int) -> None:
    """Create a CPU random generator called ``name``, seeded with ``seed``, apart from the
    default generators; :func:`get_random_seed_generator` returns it. A name can be set only once.

    Args:
        name (str): the generator's name.
        seed (int): its seed (a non-negative integer).

    Raises:
        RuntimeError: a generator called ``name`` exists already.

    Examples:
        >>> from pagaie.framework import random
        >>> random.set_random_seed_generator('dropout_rng', 7)
        >>> random.get_random_seed_generator('dropout_rng').initial_seed()
        7
    """
    import torch
    from pagaie._core.random import Generator
    if not isinstance(name, str):
        raise TypeError(f"paddle.framework.random.set_random_seed_generator: name must be a str, "
                        f"but received {type(name).__name__}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise TypeError(f"paddle.framework.random.set_random_seed_generator: seed must be an integer in "
                        f"[0, 2**64), but received {seed!r}")
    if name in _named:
        raise RuntimeError(f"paddle.framework.random.set_random_seed_generator: a random generator named "
                           f"{name!r} exists already")
    gen = Generator._wrap(torch.Generator())
    gen.manual_seed(seed)
    _named[name] = gen


def get_random_seed_generator(name: str) -> Any:
    """The generator made by :func:`set_random_seed_generator` under ``name``.

    Raises:
        RuntimeError: no generator has that name.

    Examples:
        >>> from pagaie.framework import random
        >>> random.set_random_seed_generator('init_rng', 3)
        >>> type(random.get_random_seed_generator('init_rng')).__name__
        'Generator'
    """
    if not isinstance(name, str):
        raise TypeError(f"paddle.framework.random.get_random_seed_generator: name must be a str, "
                        f"but received {type(name).__name__}")
    if name not in _named:
        raise RuntimeError(f"paddle.framework.random.get_random_seed_generator: no random generator named "
                           f"{name!r}; create it with set_random_seed_generator first")
    return _named[name]


def _manual_program_seed(seed: int) -> None:
    """Give the default main and startup programs, and every program made later, the random
    seed ``seed`` (``Program.random_seed``: static dropout and parameter initialisation then
    repeat their draws).

    Args:
        seed: the seed.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.framework.random import _manual_program_seed
        >>> _manual_program_seed(7)
        >>> paddle.static.default_startup_program().random_seed, paddle.static.Program().random_seed
        (7, 7)
        >>> _manual_program_seed(0)
    """
    from pagaie import static
    static.default_main_program().random_seed = seed
    static.default_startup_program().random_seed = seed
    static.Program().global_seed(seed)
