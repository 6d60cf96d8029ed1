"""The AMP tests exercise autocast and loss scaling on this CPU-only machine: turn on
pagaie's CPU AMP (Paddle, and pagaie by default, make AMP a no-op on CPU places)."""
from __future__ import annotations

import pytest

from pagaie.amp import state


@pytest.fixture(autouse=True)
def _amp_on_cpu():
    prev = state.allow_cpu(True)
    yield
    state.allow_cpu(prev)
