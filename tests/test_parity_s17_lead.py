"""Cases found while reviewing other differences from Paddle 3.3.1 (session 17)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, same_static_exception


@pytest.mark.parametrize("api", ["irfft", "hfft", "irfft2", "hfft2", "irfftn", "hfftn"])
@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_complex_to_real_transforms_refuse_integer_input(api, dtype):
    # Paddle casts integers to float32, for which its complex-to-real kernel has no entry
    x = np.arange(12).reshape(3, 4).astype(dtype)
    assert isinstance(same_exception(lambda P: getattr(P.fft, api)(P.to_tensor(x))), RuntimeError)

    def program(P):
        getattr(P.fft, api)(P.static.data("x", [3, 4], dtype))
    same_static_exception(program)


@pytest.mark.parametrize("api", ["fft", "rfft", "ihfft", "fft2", "rfftn"])
def test_other_transforms_take_integer_input(api):
    x = np.arange(12).reshape(3, 4).astype("int64")
    both_same(lambda P: getattr(P.fft, api)(P.to_tensor(x)))
