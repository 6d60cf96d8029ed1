"""Models saved by real Paddle 3.3.1 (``paddle.jit.save``, PIR ``.json`` + ``.pdiparams``)
loaded by pagaie: ops whose import was missing or wrong (slice assignment, argmax over the
flattened input, lp_pool2d, instance_norm's scale and shift, linear algebra, fft, histogram,
bit shifts, random ops...), slices that drop the unknown batch axis, float attributes holding infinities,
a loop over an ``assign_value`` constant; and corrupt files raising Paddle's RuntimeError.
"""
import os
import warnings

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _flat(v):
    if isinstance(v, (list, tuple)):
        return [e for x in v for e in _flat(x)]
    return [v]


def _spd(x):
    return paddle.matmul(x, x, transpose_y=True) + paddle.eye(3) * 3


def _models():
    nn, F = paddle.nn, paddle.nn.functional
    T = paddle.to_tensor

    class Fn(nn.Layer):
        def __init__(self, f):
            super().__init__()
            self.f = f

        def forward(self, x):
            return self.f(x)

    class Loop(nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            s = paddle.zeros([1])
            i = paddle.to_tensor(0)
            while i < paddle.shape(x)[0]:
                s = s + self.lin(x[i]).sum()
                i = i + 1
            return s

    def setitem(x):
        y = x.clone()
        y[:, 0] = 5.0
        y[:, 1:, ::2] = y[:, 1:, ::2] * 3
        y[y > 0.8] = -1.0
        y[0] = x[0] + 1
        y[..., -1] = T([7.0, 8.0, 9.0])
        y[:, T([0, 2])] = 0.5
        return y

    return {
        "setitem": Fn(setitem),
        "attrs": Fn(lambda x: (
            paddle.argmax(x), paddle.argmin(x, keepdim=True), paddle.argmax(x, 1, dtype="int32"),
            F.lp_pool2d(x.unsqueeze(1), 3, 2), F.lp_pool1d(x, 2, 2),
            F.instance_norm(x, weight=T([1.0, 2.0, 3.0]), bias=T([0.5, 0.0, -0.5])),
            paddle.full_like(x, float("inf")), paddle.clip(x, float("-inf"), 0.3),
            paddle.nan_to_num(x / (x - x)), x[0], x[-1, 1:], paddle.linalg.corrcoef(x[0]),
            F.interpolate(x.unsqueeze(1), size=[paddle.shape(x)[1] * 2, 5], mode="bilinear"),
            F.interpolate(x.unsqueeze(1), scale_factor=T([2.0, 1.5])),
            F.interpolate(x.unsqueeze(1), scale_factor=T(2.0), mode="bilinear"))),
        "linalg": Fn(lambda x: (
            paddle.dist(x, x * 2, 3), paddle.dist(x, x * 0.5, float("inf")), paddle.linalg.inv(_spd(x)),
            paddle.linalg.solve(_spd(x), x),
            paddle.linalg.triangular_solve(paddle.triu(_spd(x)), x, upper=True, transpose=True),
            paddle.linalg.cholesky(_spd(x), upper=True),
            paddle.linalg.cholesky_solve(x, paddle.linalg.cholesky(_spd(x))),
            paddle.linalg.qr(_spd(x))[1].abs(), paddle.linalg.svd(_spd(x))[1], paddle.linalg.pinv(_spd(x)),
            paddle.linalg.slogdet(_spd(x)), paddle.linalg.eigvalsh(_spd(x), UPLO="U"),
            paddle.linalg.lstsq(_spd(x), x)[0], paddle.baddbmm(x, x, x, beta=0.5, alpha=2.0))),
        "misc": Fn(lambda x: (
            paddle.multiplex([x[0], x[0] * 2], T([[1], [0], [1]], dtype="int32")),
            paddle.unique_consecutive(paddle.cast(x * 2, "int64").flatten()),
            paddle.gammaln(x.abs() + 0.5), paddle.polygamma(x.abs() + 0.5, 2),
            paddle.bitwise_left_shift(paddle.cast(x * 5, "int32").abs(), paddle.full([1], 2, "int32")),
            paddle.bitwise_right_shift(paddle.cast(x * 50, "int32"), paddle.full([1], 2, "int32"),
                                       is_arithmetic=False),
            paddle.complex(x, x * 2).abs(), paddle.copysign(x, -x), paddle.nextafter(x, x + 1),
            paddle.reduce_as(x, x[:1, :, :1]), paddle.crop(x, [2, 2, 2], [0, 1, 0]),
            paddle.shard_index(paddle.cast(x * 5, "int64").abs()[:, :, :1], 20, 2, 1),
            paddle.histogram(x, bins=4, min=-1, max=1),
            paddle.bincount(paddle.cast(x.abs() * 3, "int64").flatten(), minlength=5),
            paddle.frexp(x)[0], paddle.broadcast_tensors([x, x[:1]])[1], paddle.meshgrid(x[0, 0], x[1, 1])[0])),
        "random_lu": Fn(lambda x: (   # random ops with one possible outcome; LU
            paddle.uniform(paddle.shape(x), min=2.0, max=2.0) + x, paddle.normal(3.0, 0.0, [2, 2]),
            paddle.randn([paddle.shape(x)[0], 2]) * 0, paddle.randint(4, 5, [paddle.shape(x)[0], 2]),
            paddle.randperm(5).sort(), paddle.zeros_like(paddle.empty([paddle.shape(x)[0], 2], "float64")),
            paddle.vander(x[0, 0], 3), paddle.linalg.lu(_spd(x))[0],
            paddle.linalg.lu_unpack(*paddle.linalg.lu(_spd(x)))[1])),
        "fft": Fn(lambda x: (
            paddle.as_real(paddle.fft.rfft(x, norm="ortho")), paddle.as_real(paddle.fft.fft(x)),
            paddle.as_real(paddle.fft.ifftn(paddle.complex(x, -x), axes=[1, 2], norm="ortho")),
            paddle.fft.irfft(paddle.complex(x, x * 0.5), n=5, axis=1),
            paddle.fft.irfft2(paddle.complex(x, x), s=[4, 6]), paddle.fft.hfft(paddle.complex(x, x), n=4),
            paddle.as_real(paddle.fft.ihfft(x, norm="forward")),
            paddle.as_real(paddle.fft.rfftn(x, s=[2, 5], axes=[1, 2])))),
        "loop": Loop(),
    }


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """{name: (prefix, {batch: (input, Paddle's outputs)})}: each model saved with a None
    batch dim and run by Paddle's own ``jit.load`` at two batch sizes."""
    d = tmp_path_factory.mktemp("s26_hJ")
    rng = np.random.RandomState(0)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, layer in _models().items():
            prefix = str(d / name)
            layer.eval()
            paddle.jit.save(layer, prefix, [paddle.static.InputSpec([None, 3, 3], "float32", "x")])
            theirs = paddle.jit.load(prefix)
            runs = {}
            for b in (2, 3):
                x = (rng.rand(b, 3, 3) * 2 - 1).astype("float32")
                runs[b] = (x, [r.numpy() for r in _flat(theirs(paddle.to_tensor(x)))])
            out[name] = (prefix, runs)
    return out


def _check(got, want, name):
    assert len(got) == len(want), f"{name}: {len(got)} outputs vs Paddle's {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert (g.shape, g.dtype) == (w.shape, w.dtype), f"{name}[{i}]: {g.shape} {g.dtype} vs {w.shape} {w.dtype}"
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=f"{name}[{i}]")


@pytest.mark.parametrize("name", ["setitem", "attrs", "linalg", "misc", "random_lu", "fft", "loop"])
def test_jit_load_matches_paddle(exported, name):
    prefix, runs = exported[name]
    layer = pagaie.jit.load(prefix)
    for b, (x, want) in runs.items():
        got = [g.numpy() for g in _flat(layer(pagaie.to_tensor(x)))]
        _check(got, want, f"{name} (batch {b})")


@pytest.mark.parametrize("name", ["setitem", "attrs", "misc", "loop"])
def test_predictor_matches_paddle(exported, name):
    prefix, runs = exported[name]
    params = prefix + ".pdiparams"
    config = pagaie.inference.Config(prefix + ".json", params if os.path.exists(params) else "")
    pred = pagaie.inference.create_predictor(config)
    for b, (x, want) in runs.items():
        h = pred.get_input_handle(pred.get_input_names()[0])
        h.reshape(list(x.shape))
        h.copy_from_cpu(x)
        pred.run()
        _check([pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()], want, name)


def test_nan_attribute(tmp_path):
    """Paddle writes a NaN float attribute as ``{"VD": "NaN"}`` (and cannot read it back)."""
    class M(paddle.nn.Layer):
        def forward(self, x):
            return paddle.full_like(x, float("nan")), paddle.full([2], float("-inf"))

    prefix = str(tmp_path / "nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.jit.save(M(), prefix, [paddle.static.InputSpec([None, 2], "float32", "x")])
    a, b = pagaie.jit.load(prefix)(pagaie.ones([3, 2]))
    assert a.shape == [3, 2] and np.isnan(a.numpy()).all()
    np.testing.assert_array_equal(b.numpy(), [-np.inf, -np.inf])


def test_as_real_of_conjugate_view():
    x = np.random.RandomState(1).rand(2, 6).astype("float32")
    want = paddle.as_real(paddle.fft.ihfft(paddle.to_tensor(x))).numpy()
    got = pagaie.as_real(pagaie.fft.ihfft(pagaie.to_tensor(x))).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("damage", ["json_cut", "json_empty", "params_cut", "params_extra"])
def test_corrupt_files_raise_runtime_error(exported, tmp_path, damage):
    prefix, _ = exported["loop"]
    raw, params = open(prefix + ".json", "rb").read(), open(prefix + ".pdiparams", "rb").read()
    raw = raw[: len(raw) // 2] if damage == "json_cut" else b"" if damage == "json_empty" else raw
    params = {"params_cut": params[:10], "params_extra": params + b"\0" * 64}.get(damage, params)
    bad = str(tmp_path / "bad")
    open(bad + ".json", "wb").write(raw)
    open(bad + ".pdiparams", "wb").write(params)
    for lib in (paddle, pagaie):
        with warnings.catch_warnings(), pytest.raises(RuntimeError):
            warnings.simplefilter("ignore")
            lib.jit.load(bad)(lib.ones([2, 3, 3]))
    with pytest.raises(ValueError, match="does not exist"):
        pagaie.jit.load(os.path.join(str(tmp_path), "missing"))


def test_other_methods_of_a_paddle_saved_layer(tmp_path):
    """``jit.save`` writes each ``to_static`` method as ``<path>.<method>.json``; ``jit.load``
    gives them back as methods sharing the Layer's parameters."""
    spec = [paddle.static.InputSpec([None, 3], "float32", "x")]

    class M(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = paddle.nn.Linear(3, 2)

        @paddle.jit.to_static(input_spec=spec)
        def forward(self, x):
            return self.lin(x)

        @paddle.jit.to_static(input_spec=spec)
        def scaled(self, x):
            return self.lin(x) * 3

    prefix = str(tmp_path / "m")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.jit.save(M(), prefix)
    x = np.random.RandomState(2).rand(4, 3).astype("float32")
    theirs, ours = paddle.jit.load(prefix), pagaie.jit.load(prefix)
    for method in ("forward", "scaled"):
        np.testing.assert_allclose(getattr(ours, method)(pagaie.to_tensor(x)).numpy(),
                                   getattr(theirs, method)(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-6)
    assert [(n, p.shape) for n, p in ours.named_parameters()] == \
        [(n, list(p.shape)) for n, p in theirs.named_parameters()]
