"""linalg_basic ops."""
from __future__ import annotations

__all__: list[str] = []
