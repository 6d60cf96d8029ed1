"""``DistributedInfer``: inference with a parameter-server program.

pagaie has no parameter-server runtime (see ``paddle.distributed.fleet.init_server``), so the
object keeps the programs it is given and the steps that need the servers raise
NotImplementedError.
"""
from __future__ import annotations

from typing import Any

__all__ = ["DistributedInfer"]

_NO_PS = ("parameter-server training is not supported by pagaie (no server runtime); use collective "
          "training (paddle.distributed.fleet.init(is_collective=True)) and the program itself")


class DistributedInfer:
    """Distributed inference over parameter servers (the servers hold the sparse tables).

    Args:
        main_program (Program, optional): the program to run (a clone of the default main
            program when None).
        startup_program (Program, optional): its start-up program (the default one when None).

    Examples:
        >>> from pagaie.distributed.fleet.utils import DistributedInfer
        >>> infer = DistributedInfer()
        >>> infer.origin_main_program is not None
        True
    """

    def __init__(self, main_program: Any = None, startup_program: Any = None) -> None:
        from pagaie.static import default_main_program, default_startup_program
        self.origin_main_program = (main_program or default_main_program()).clone()
        self.origin_startup_program = startup_program or default_startup_program()
        self.sparse_table_maps = None

    def init_distributed_infer_env(self, exe: Any, loss: Any, role_maker: Any = None,
                                   dirname: str | None = None) -> None:
        """Start the servers or workers of the inference job (parameter servers: not supported)."""
        raise NotImplementedError(f"DistributedInfer.init_distributed_infer_env: {_NO_PS}")

    def get_dist_infer_program(self) -> Any:
        """The program with sparse look-ups served remotely (parameter servers: not supported)."""
        raise NotImplementedError(f"DistributedInfer.get_dist_infer_program: {_NO_PS}")
