"""``paddle.random``: the seed of the default CPU generator.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie import random
    >>> _ = paddle.seed(7)
    >>> random.initial_seed()
    7
"""
from __future__ import annotations

import torch

__all__ = ["initial_seed"]


def initial_seed() -> int:
    """The seed the default CPU generator was last seeded with: the value given to
    :func:`paddle.seed`, the one :func:`paddle.compat.seed` chose, or the generator's
    start-up seed.

    Returns:
        int: a 64-bit seed.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie import random
        >>> _ = paddle.seed(2024)
        >>> random.initial_seed()
        2024
    """
    from pagaie._core.random import default_generator
    return default_generator(torch.device("cpu")).initial_seed()
