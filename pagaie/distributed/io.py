"""``paddle.distributed.io``: persistable-variable helpers of static-graph distributed training."""
from __future__ import annotations

from typing import Any

__all__ = ["is_persistable", "save_persistables", "load_persistables", "load_inference_model_distributed"]


def is_persistable(var: Any) -> bool:
    """Whether ``var`` is saved with the model (parameters and persistable buffers).

    Examples:
        >>> import pagaie as paddle
        >>> import pagaie.distributed as dist
        >>> dist.io.is_persistable(paddle.nn.Linear(2, 2).weight)
        True
    """
    return bool(getattr(var, "persistable", False))


def save_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> None:
    """Save a static program's persistable variables (use ``paddle.static.save``)."""
    from pagaie import static
    if main_program is None:
        main_program = static.default_main_program()
    import os
    static.save(main_program, os.path.join(dirname, filename or "persistables"))


def load_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> None:
    """Load variables saved by :func:`save_persistables` into ``main_program``."""
    from pagaie import static
    if main_program is None:
        main_program = static.default_main_program()
    import os
    static.load(main_program, os.path.join(dirname, filename or "persistables"), executor)


def load_inference_model_distributed(path_prefix: str, executor: Any, model_filename: str | None = None,
                                     params_filename: str | None = None) -> Any:
    """Load an inference model (same as ``paddle.static.load_inference_model``)."""
    from pagaie import static
    return static.load_inference_model(path_prefix, executor)
