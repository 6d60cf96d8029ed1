"""Compare initial parameter values of pagaie and Paddle statistically."""
from __future__ import annotations

from typing import Any

import numpy as np

from tests.reference import dtype_name


def compare_stats(ours: np.ndarray, theirs: np.ndarray, what: str) -> None:
    """Same shape/dtype; equal if Paddle's values are deterministic-looking (constant or
    few distinct values), else matching mean, std and range within sampling error."""
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} vs Paddle's {theirs.shape}"
    assert ours.dtype == theirs.dtype, f"{what}: dtype {ours.dtype} vs Paddle's {theirs.dtype}"
    t = theirs.astype("float64").ravel()
    o = ours.astype("float64").ravel()
    if t.size == 0:
        return
    if np.unique(t).size <= max(2, t.size // 50):  # constants, dirac, bilinear, ...
        np.testing.assert_allclose(o, t, rtol=1e-6, atol=1e-7, err_msg=f"{what}: deterministic values")
        return
    n = t.size
    sd = t.std()
    assert abs(o.mean() - t.mean()) < 6 * sd / np.sqrt(n) + 1e-7, \
        f"{what}: mean {o.mean():.5g} vs Paddle's {t.mean():.5g} (std {sd:.4g}, n {n})"
    assert abs(o.std() / sd - 1) < max(0.06, 8 / np.sqrt(n)), f"{what}: std {o.std():.5g} vs Paddle's {sd:.5g}"
    if n < 1000:  # the range of a small sample is too noisy to compare
        return
    rng_o, rng_t = o.max() - o.min(), t.max() - t.min()
    assert abs(rng_o / rng_t - 1) < 0.25, \
        f"{what}: range [{o.min():.4g}, {o.max():.4g}] vs Paddle's [{t.min():.4g}, {t.max():.4g}]"


def layer_params(layer: Any) -> dict:
    out = {n: p.numpy() for n, p in layer.named_parameters()}
    for i, pair in enumerate(getattr(layer, "tail_weights", []) or []):
        for j, p in enumerate(pair):
            out[f"tail_weights.{i}.{j}"] = p.numpy()
    return out


def param_flags(layer: Any) -> list:
    return [(n, list(p.shape), dtype_name(p), p.stop_gradient, bool(getattr(p, "trainable", True)))
            for n, p in layer.named_parameters()]
