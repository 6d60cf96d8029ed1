"""Session 24 (h2): the nn.Layer machinery, ``nn.utils``, ``nn.initializer``, ``ParamAttr`` and
``create_parameter`` against real Paddle 3.3.1."""
from __future__ import annotations

import pytest

from tests.reference import both

pytest.importorskip("paddle")


# -- Layer.create_tensor / create_variable: a placeholder that holds no values yet ----------------

@pytest.mark.parametrize("method", ["create_tensor", "create_variable"])
def test_layer_create_tensor_is_uninitialised(method):
    def run(P):
        with P.utils.unique_name.guard():
            t = getattr(P.nn.Linear(1, 1), method)(name="buf", persistable=True, dtype="int64")
        return t.name, t.persistable, str(t.dtype), t._is_initialized(), t.numpy().shape, repr(t)
    ours, theirs = both(run)
    assert ours == theirs
