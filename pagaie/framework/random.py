"""``paddle.framework.random``: the random-state functions, and the program-seed helper
Paddle's own unit tests call.

The public names of Paddle's module (``seed``, ``get_rng_state``, ``Generator``...) resolve
to pagaie's objects through :mod:`pagaie._module_paths`.
"""
from __future__ import annotations

__all__: list[str] = []


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
