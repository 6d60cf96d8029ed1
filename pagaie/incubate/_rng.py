"""``paddle.incubate.get_rng_state`` / ``set_rng_state`` / ``register_rng_state_as_index``:
the random states of every default generator of one device kind, as snapshots or as
*indices* of state slots.

A generator holds numbered state slots (slot 0 at start). Registering a state adds a slot
holding it and makes it the current one; switching slots (``set_rng_state(..., use_index=
True)``) keeps each slot's stream where it was left, so several independent streams can be
interleaved on one generator.
"""
from __future__ import annotations

from typing import Any, Sequence

import torch

from pagaie._core.place import default_device, to_torch_device
from pagaie._core.random import Generator, GeneratorState, default_generator

__all__ = ["get_rng_state", "set_rng_state", "register_rng_state_as_index"]


def _generators(device: Any, api: str) -> tuple[str, list[Generator]]:
    dev = default_device() if device is None else to_torch_device(device, f"paddle.incubate.{api}")
    if dev.type == "cuda":
        n = torch.cuda.device_count()
        return "gpu", [default_generator(torch.device("cuda", i)) for i in range(n)]
    if dev.type == "cpu":
        return "cpu", [default_generator(torch.device("cpu"))]
    raise ValueError(f"paddle.incubate.{api} is not implemented for current device: {dev}")


def _check_len(kind: str, gens: list, states: Sequence) -> None:
    if len(states) != len(gens):
        if kind == "cpu":
            raise ValueError("Length of cpu state list should be equal to 1")
        raise ValueError("Length of gpu state list should be equal to the gpu device count")


def get_rng_state(device: Any = None, use_index: bool = False) -> list[GeneratorState] | list[int]:
    """The states (or current slot indices) of a device kind's default generators.

    Args:
        device (str, optional): ``'cpu'`` or ``'gpu'``; the current device when None.
        use_index (bool, optional): return each generator's current slot index instead of a
            snapshot of its state. Default False.

    Returns:
        list: one entry for the CPU, one per GPU.

    Examples:
        >>> import pagaie as paddle
        >>> sts = paddle.incubate.get_rng_state()
        >>> a = paddle.rand([2])
        >>> paddle.incubate.set_rng_state(sts)
        >>> bool((paddle.rand([2]) == a).all())
        True
    """
    _, gens = _generators(device, "get_rng_state")
    return [g.get_state_index() if use_index else g.get_state() for g in gens]


def set_rng_state(state_list: Sequence[Any], device: Any = None, use_index: bool = False) -> None:
    """Restore states from :func:`get_rng_state`, or switch to state slots by index.

    Args:
        state_list (list|tuple): one state (or slot index) per generator.
        device (str, optional): ``'cpu'`` or ``'gpu'``; the current device when None.
        use_index (bool, optional): ``state_list`` holds slot indices. Default False.

    Examples:
        >>> import pagaie as paddle
        >>> old = paddle.incubate.get_rng_state(use_index=True)
        >>> new = paddle.incubate.register_rng_state_as_index()
        >>> paddle.incubate.set_rng_state(old, use_index=True)
    """
    kind, gens = _generators(device, "set_rng_state")
    _check_len(kind, gens, state_list)
    for g, st in zip(gens, state_list):
        if use_index:
            g.set_state_index(int(st))
        else:
            g.set_state(st)


def register_rng_state_as_index(state_list: Sequence[GeneratorState] | None = None,
                                device: Any = None) -> list[int]:
    """Add a state slot to each generator, holding the given state (the current one when
    None), and make it the current slot.

    Args:
        state_list (list|tuple, optional): one state per generator; the current states when None.
        device (str, optional): ``'cpu'`` or ``'gpu'``; the current device when None.

    Returns:
        list[int]: the new slot indices, for ``set_rng_state(..., use_index=True)``.

    Examples:
        >>> import pagaie as paddle
        >>> st = paddle.incubate.get_rng_state()
        >>> a = paddle.rand([2])
        >>> idx = paddle.incubate.register_rng_state_as_index(st)   # replays from st
        >>> bool((paddle.rand([2]) == a).all())
        True
    """
    kind, gens = _generators(device, "register_rng_state_as_index")
    if state_list is None:
        state_list = [g.get_state() for g in gens]
    _check_len(kind, gens, state_list)
    out = []
    for g, st in zip(gens, state_list):
        out.append(g.register_state_index(st))  # (switches to the new slot)
    return out
