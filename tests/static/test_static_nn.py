"""paddle.static.nn layers: a static run equals the eager call (same seed, so the same initial
parameters), recorded shapes are right, plus numeric checks of the layer formulas."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
import pagaie.static.nn as snn

RNG = np.random.default_rng(0)
X4 = RNG.standard_normal([2, 3, 5, 5]).astype("float32")
X3 = RNG.standard_normal([2, 4, 3]).astype("float32")
X2 = RNG.standard_normal([4, 6]).astype("float32")
X5 = RNG.standard_normal([2, 2, 3, 3, 3]).astype("float32")
IDS = RNG.integers(0, 10, [2, 3]).astype("int64")

CASES = {
    "fc": ([X3], lambda x: snn.fc(x, 5, num_flatten_dims=2, activation="tanh")),
    "fc_flatten": ([X4], lambda x: snn.fc(x, 3)),
    "fc_multi": ([X2, X2], lambda a, b: snn.fc([a, b], 2)),
    "conv2d": ([X4], lambda x: snn.conv2d(x, 4, 3, padding=1, act="relu")),
    "conv2d_groups": ([X4], lambda x: snn.conv2d(x, 6, [2, 3], stride=2, groups=3)),
    "conv2d_transpose": ([X4], lambda x: snn.conv2d_transpose(x, 2, filter_size=3, stride=2)),
    "conv2d_transpose_out": ([X4], lambda x: snn.conv2d_transpose(x, 2, output_size=[7, 7])),
    "conv3d": ([X5], lambda x: snn.conv3d(x, 2, 2)),
    "conv3d_transpose": ([X5], lambda x: snn.conv3d_transpose(x, 2, filter_size=2)),
    "batch_norm": ([X4], lambda x: snn.batch_norm(x, act="relu")),
    "batch_norm_test": ([X4], lambda x: snn.batch_norm(x, is_test=True)),
    "layer_norm": ([X3], lambda x: snn.layer_norm(x, begin_norm_axis=1)),
    "layer_norm_noaffine": ([X3], lambda x: snn.layer_norm(x, scale=False, shift=False, begin_norm_axis=2)),
    "group_norm": ([X4[:, :2]], lambda x: snn.group_norm(x, 2)),
    "instance_norm": ([X4], lambda x: snn.instance_norm(x)),
    "embedding": ([IDS], lambda i: snn.embedding(i, [10, 4], padding_idx=0)),
    "sparse_embedding": ([IDS], lambda i: snn.sparse_embedding(i, [10, 4])),
    "prelu_all": ([X4], lambda x: snn.prelu(x, "all")),
    "prelu_channel": ([X4], lambda x: snn.prelu(x, "channel")),
    "prelu_element": ([X4], lambda x: snn.prelu(x, "element")),
    "spectral_norm": ([X2], lambda w: snn.spectral_norm(w, dim=1, power_iters=3)),
    "bilinear_tensor_product": ([X2, X2[:, :3]], lambda a, b: snn.bilinear_tensor_product(a, b, 3)),
    "row_conv": ([X3], lambda x: snn.row_conv(x, 2)),
}


def _static(arrays, fn, exact=False):
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            ins = [pagaie.static.data(f"in{i}", [a.shape[0] if exact else None] + list(a.shape[1:]),
                                      str(a.dtype))
                   for i, a in enumerate(arrays)]
            out = fn(*ins)
    finally:
        pagaie.disable_static()
    got = pagaie.static.Executor().run(main, feed={f"in{i}": a for i, a in enumerate(arrays)},
                                       fetch_list=[out])[0]
    return out, got, main


@pytest.mark.parametrize("name", list(CASES))
def test_static_layer_equals_eager(name):
    arrays, fn = CASES[name]
    pagaie.seed(11)
    want = fn(*[pagaie.to_tensor(a) for a in arrays]).numpy()
    pagaie.seed(11)
    out, got, _ = _static(arrays, fn, exact=name.startswith("spectral"))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    rec = list(out.shape)
    assert len(rec) == got.ndim and all(d in (-1, g) for d, g in zip(rec, got.shape)), (rec, got.shape)


def test_fc_and_row_conv_formulas():
    out, got, main = _static([X3], lambda x: snn.fc(x, 5, num_flatten_dims=2))
    params = {v.name.split(".")[-1]: v.source.numpy() for v in main.all_parameters()}
    w, b = params["w_0"], params["b_0"]
    np.testing.assert_allclose(got, X3 @ w + b, rtol=1e-5, atol=1e-6)
    out, got, main = _static([X3], lambda x: snn.row_conv(x, 2))
    (f,) = [v.source.numpy() for v in main.all_parameters()]
    padded = np.concatenate([X3, np.zeros([2, 2, 3], "float32")], 1)
    want = sum(padded[:, i:i + 4] * f[i] for i in range(3))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_spectral_norm_converges_to_unit_spectral_norm():
    out, got, _ = _static([X2], lambda w: snn.spectral_norm(w, power_iters=50), exact=True)
    assert abs(np.linalg.svd(got.reshape(got.shape[0], -1), compute_uv=False)[0] - 1.0) < 1e-3


def test_unsupported_layers_raise_not_implemented():
    with pytest.raises(NotImplementedError):
        snn.nce(None, None, 10)
    with pytest.raises(NotImplementedError):
        snn.sequence_pool(None, "sum")
    with pytest.raises(NotImplementedError):
        pagaie.static.IpuStrategy()
