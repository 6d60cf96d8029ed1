"""``paddle.distributed.fleet.base``: Paddle's module paths for fleet's role makers,
topology and strategy (``fleet.base.role_maker.Role`` ...).

Examples:
    >>> from pagaie.distributed.fleet.base.role_maker import Role
    >>> import pagaie.distributed.fleet as fleet
    >>> Role is fleet.Role
    True
"""
from pagaie.distributed.fleet.base import distributed_strategy, role_maker, topology  # noqa: F401

__all__: list[str] = []
