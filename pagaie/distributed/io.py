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


def _static_only(api: str) -> None:
    """As Paddle: these helpers work on static programs and refuse to run in dynamic mode."""
    from pagaie import in_dynamic_mode
    if in_dynamic_mode():
        raise AssertionError(f"paddle.distributed.io.{api}: not supported in dynamic graph mode; "
                             "call paddle.enable_static() first")


def save_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> None:
    """Save a static program's persistable variables (use ``paddle.static.save``); static mode only."""
    _static_only("save_persistables")
    from pagaie import static
    if main_program is None:
        main_program = static.default_main_program()
    import os
    static.save(main_program, os.path.join(dirname, filename or "persistables"))


def load_persistables(executor: Any, dirname: str, main_program: Any = None, filename: str | None = None) -> None:
    """Load variables saved by :func:`save_persistables` into ``main_program``; static mode only."""
    _static_only("load_persistables")
    from pagaie import static
    if main_program is None:
        main_program = static.default_main_program()
    import os
    static.load(main_program, os.path.join(dirname, filename or "persistables"), executor)


def load_inference_model_distributed(dirname: str, executor: Any, model_filename: str | None = None,
                                     params_filename: str | None = None,
                                     pserver_endpoints: list[str] | None = None) -> Any:
    """Load an inference model saved under the path prefix ``dirname`` (as
    ``paddle.static.load_inference_model``); ``pserver_endpoints`` (parameter servers) is not used."""
    from pagaie import static
    return static.load_inference_model(dirname, executor)
