"""Shared AMP state: the AMP dtype last chosen by ``auto_cast`` or ``decorate`` (read by the
loss scaler), and whether AMP takes effect on the current place.

As in Paddle, eager AMP (``auto_cast``, ``decorate``, ``GradScaler``) only takes effect when
the expected place is a GPU: on the CPU it makes no effect (with Paddle's warning), so
Paddle programs print the same float32 results on a CPU machine. Setting the environment
variable ``PAGAIE_AMP_ON_CPU=1`` (or calling :func:`allow_cpu`) turns CPU AMP on, a pagaie
extension (bfloat16 autocast works well on CPUs).
"""
from __future__ import annotations

import os

from pagaie._ops._helpers import CPU_AS_GPU

_AMP_DTYPE = ["float32"]
# (the ops' kernel dtype checks read the same switch)
CPU_AS_GPU["amp"] = os.environ.get("PAGAIE_AMP_ON_CPU", "").strip().lower() not in ("", "0", "false", "no")


def amp_dtype() -> str:
    return _AMP_DTYPE[0]


def set_amp_dtype(name: str) -> None:
    _AMP_DTYPE[0] = name


def allow_cpu(flag: bool = True) -> bool:
    """Let AMP take effect on the CPU (a pagaie extension; Paddle ignores AMP there).
    Returns the previous setting."""
    prev = CPU_AS_GPU["amp"]
    CPU_AS_GPU["amp"] = bool(flag)
    return prev


def cpu_amp_on() -> bool:
    """Whether CPU AMP is on: CPU kernels then take the dtypes a GPU's do."""
    return CPU_AS_GPU["amp"]


def place_supported() -> str | None:
    """None when AMP takes effect on the current expected place; otherwise the place's
    name (``'Place(cpu)'``) for the warning. Static mode is never restricted (as in Paddle,
    the program's AMP pass does not look at the place)."""
    from pagaie._core.place import default_device
    if CPU_AS_GPU["amp"] or default_device().type != "cpu":
        return None
    from pagaie.static.framework import in_dynamic_mode
    if not in_dynamic_mode():
        return None
    return "Place(cpu)"
