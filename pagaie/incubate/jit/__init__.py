"""``paddle.incubate.jit.inference``: run a Layer or function as an inference-only callable.

Paddle converts the function to a static program, saves it and runs it with Paddle
Inference (optionally TensorRT/CINN). pagaie runs the function itself with gradients off
(and, for a float16/bfloat16 ``precision_mode``, under autocast), which gives the same
outputs; the graph-optimisation switches are accepted and have nothing to tune. TensorRT
(``with_trt=True``) is not available and raises NotImplementedError.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

__all__ = ["inference"]

_PRECISIONS = ("float32", "float16", "bfloat16")


def _paddle_outputs(out: Any) -> Any:
    """Paddle's predictor returns a list of outputs, or the single output alone."""
    if isinstance(out, (list, tuple)):
        return list(out) if len(out) > 1 else out[0]
    return out


def inference(function: Callable | None = None, cache_static_model: bool = False,
              save_model_dir: str | None = None, memory_pool_init_size_mb: int = 1000,
              precision_mode: str = "float32", switch_ir_optim: bool = True,
              switch_ir_debug: bool = False, enable_cinn: bool = False, with_trt: bool = False,
              trt_precision_mode: str = "float32", trt_use_static: bool = False,
              collect_shape: bool = False, enable_new_ir: bool = False,
              exp_enable_use_cutlass: bool = False, delete_pass_lists: list | None = None,
              skip_prune_program: bool = False) -> Callable:
    """Turn a Layer (its ``forward``) or a function into an inference-only callable.

    Usable as ``inference(layer)``, ``inference(fn, **options)`` or as a decorator
    ``@inference(**options)``. The result computes without recording gradients; a function
    returning several tensors gives a list, one tensor gives that tensor.

    Args:
        function (callable|Layer, optional): what to run; None returns a decorator.
        cache_static_model (bool, optional): reuse a saved program (nothing to cache here).
        save_model_dir (str, optional): where Paddle saves the program (unused).
        memory_pool_init_size_mb (int, optional): predictor memory pool size (unused).
        precision_mode (str, optional): 'float32', 'float16' or 'bfloat16'. Default 'float32'.
        switch_ir_optim (bool, optional): graph optimisation switch (accepted).
        switch_ir_debug (bool, optional): graph debugging switch (accepted).
        enable_cinn (bool, optional): CINN compiler switch (accepted).
        with_trt (bool, optional): TensorRT; not available in pagaie. Default False.
        trt_precision_mode (str, optional): TensorRT precision (unused).
        trt_use_static (bool, optional): TensorRT static shapes (unused).
        collect_shape (bool, optional): TensorRT shape collection (unused).
        enable_new_ir (bool, optional): PIR switch (accepted).
        exp_enable_use_cutlass (bool, optional): CUTLASS switch (accepted).
        delete_pass_lists (list[str], optional): passes to skip (accepted).
        skip_prune_program (bool, optional): program pruning switch (accepted).

    Returns:
        callable: the inference function (or a decorator when ``function`` is None).

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.nn.Linear(2, 1)
        >>> x = paddle.ones([3, 2])
        >>> infer = paddle.incubate.jit.inference(layer)
        >>> bool((infer(x) == layer(x)).all()), infer(x).stop_gradient
        (True, True)
    """
    if getattr(function, "_paddle_inference_mode", False):
        return function
    if precision_mode not in _PRECISIONS:
        raise ValueError(f"paddle.incubate.jit.inference: 'precision_mode' must be one of "
                         f"{list(_PRECISIONS)}, but received {precision_mode!r}")
    if with_trt:
        raise NotImplementedError("paddle.incubate.jit.inference: TensorRT (with_trt=True) is not "
                                  "available in pagaie; use with_trt=False")

    def decorator(func: Callable) -> Callable:
        from pagaie.autograd import no_grad
        from pagaie.nn import Layer
        if isinstance(func, Layer):
            func = func.forward

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            with no_grad():
                if precision_mode == "float32":
                    return _paddle_outputs(func(*args, **kwargs))
                from pagaie.amp import auto_cast
                with auto_cast(True, dtype=precision_mode):
                    return _paddle_outputs(func(*args, **kwargs))

        run._paddle_inference_mode = True  # type: ignore[attr-defined]
        return run

    return decorator if function is None else decorator(function)
