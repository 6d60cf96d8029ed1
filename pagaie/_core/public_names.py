"""The public path of an op, for error messages (``paddle.nn.functional.mse_loss``).

An op record is named after its kernel (``mse_loss``); users call it through one of
Paddle's public namespaces. :func:`public_name` finds that path by looking, once and only
when a first error message needs it, for the public functions that carry each record
(``op_record``) in the namespaces below, in order: a function named like its record wins
over an alias (``paddle.divide`` over ``paddle.div``), the top level over a sub-namespace
(``paddle.matmul`` over ``paddle.linalg.matmul``). Records that are only Tensor methods
(``add_``) are named ``paddle.Tensor.<name>``. Nothing of this runs on a successful call.
"""
from __future__ import annotations

import importlib

__all__ = ["public_name"]

# Paddle's public namespaces, most general first (paths relative to the package).
_NAMESPACES = ("", "linalg", "fft", "signal", "special", "nn.functional", "incubate",
               "incubate.nn.functional", "sparse", "sparse.nn.functional", "geometric",
               "vision.ops", "audio.functional", "text", "nn.utils", "static.nn", "metric")

_paths: dict[str, str] | None = None


def _build() -> dict[str, str]:
    found: dict[str, list[str]] = {}
    for ns in _NAMESPACES:
        try:
            mod = importlib.import_module(f"pagaie.{ns}" if ns else "pagaie")
        except Exception:   # noqa: BLE001 - an optional namespace that fails to import is skipped
            continue
        for attr, value in list(vars(mod).items()):
            rec = getattr(value, "op_record", None) if callable(value) else None
            name = getattr(rec, "name", None)
            if isinstance(name, str) and not attr.startswith("_"):
                found.setdefault(name, []).append(f"{ns}.{attr}" if ns else attr)
    paths = {}
    for name, candidates in found.items():
        exact = [c for c in candidates if c.rpartition(".")[2] == name]
        paths[name] = "paddle." + (exact or candidates)[0]
    return paths


def public_name(api: str) -> str:
    """``paddle.<public path>`` of the op record named ``api`` (``paddle.<api>`` when it
    is no public function: internal ops, Tensor-only methods, non-op API names)."""
    global _paths
    if _paths is None:
        _paths = _build()
    path = _paths.get(api)
    if path is not None:
        return path
    from pagaie._core.tensor import Tensor
    if api.endswith("_") and callable(getattr(Tensor, api, None)):
        return f"paddle.Tensor.{api}"
    return f"paddle.{api}"
