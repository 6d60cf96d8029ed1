"""Suite-wide set-up for the tests and the doctests: each starts from the same global state.

The expectations are written for the CPU, which is also what Paddle's CPU build starts on.
On a CUDA machine pagaie starts on gpu:0, as Paddle's CUDA build does; set
``PAGAIE_TEST_DEVICE=gpu`` to run the suite that way.
"""
import os

import pytest

_TEST_DEVICE = os.environ.get("PAGAIE_TEST_DEVICE", "cpu")


@pytest.fixture(autouse=True)
def _fresh_global_state():
    # A test that skips or fails half-way must not leave static mode, a default dtype or
    # no-grad mode behind for the tests after it.
    import torch
    import pagaie
    pagaie.device.set_device(_TEST_DEVICE)
    yield
    if not pagaie.in_dynamic_mode():
        pagaie.disable_static()
    pagaie.set_default_dtype("float32")
    torch.set_grad_enabled(True)
