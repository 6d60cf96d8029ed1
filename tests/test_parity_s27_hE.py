"""Differential tests against real Paddle for the nn.functional j..z parity round (cases
mined from Paddle's own unit tests: torch-style softmax arguments, in-place activations given
a non-Tensor, the window arguments of pools and unpools, int attributes given bools)."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _outcome(mod, fn):
    """('ok', value) or ('err', exception type name)."""
    try:
        return "ok", fn(mod)
    except Exception as exc:  # noqa: BLE001 - the type is what is compared
        return "err", type(exc).__name__


def _same(fn, rtol=1e-5, atol=1e-6):
    """Run ``fn`` on both frameworks: the same exception type, or the same values and dtype."""
    want, got = _outcome(paddle, fn), _outcome(pagaie, fn)
    assert want[0] == got[0], (want, got)
    if want[0] == "err":
        assert want[1] == got[1], (want, got)
        return
    w, g = want[1], got[1]
    if isinstance(w, (list, tuple)):
        assert len(w) == len(g)
        pairs = zip(w, g)
    else:
        pairs = [(w, g)]
    for a, b in pairs:
        assert str(a.dtype).replace("paddle.", "") == str(b.dtype).replace("paddle.", "")
        assert list(a.shape) == list(b.shape)
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=rtol, atol=atol)


_X = np.random.RandomState(0).uniform(-1, 1, [2, 3, 4]).astype("float32")
_X4 = np.random.RandomState(1).randn(2, 4, 6, 6).astype("float32")
_X3 = _X4[:, :, 0]


def _t(p, a):
    return p.to_tensor(a)


# ----------------------------------------------------------------- torch-style softmax
@pytest.mark.parametrize("call", [
    lambda p: p.softmax(input=_t(p, _X), dim=-1, _stacklevel=3),
    lambda p: p.softmax(_t(p, _X), -1, 3),
    lambda p: p.softmax(_t(p, _X), 1, 3, "float64"),
    lambda p: p.softmax(_t(p, _X), dim=0, _stacklevel=3, dtype=np.float64),
    lambda p: _t(p, _X).softmax(dim=-1, _stacklevel=3),
    lambda p: _t(p, _X).softmax(-1, 3),
    lambda p: p.compat.nn.functional.softmax(_t(p, _X), 1, 5),
    lambda p: p.softmax(_t(p, _X), 1, None, 3),
    lambda p: p.softmax(_t(p, _X), axis=1),
    lambda p: p.softmax(_t(p, _X), 1, bogus=1),
])
def test_softmax_stacklevel(call):
    _same(call)


def test_softmax_one_object():
    assert pagaie.softmax is pagaie.Tensor.softmax is pagaie.compat.nn.functional.softmax


# ------------------------------------------------------- in-place APIs given a non-Tensor
@pytest.mark.parametrize("bad", [[1.0, 2.0], np.ones(2, "float32"), None])
@pytest.mark.parametrize("call", [
    lambda p, b: p.nn.functional.relu_(b),
    lambda p, b: p.nn.functional.softmax_(b),
    lambda p, b: p.nn.functional.leaky_relu_(b),
    lambda p, b: p.nn.functional.thresholded_relu_(b),
    lambda p, b: p.nn.functional.tanh_(b),
    lambda p, b: p.tanh_(b),
    lambda p, b: p.multiply_(b),                         # argument count first: TypeError
    lambda p, b: p.multiply_(b, p.to_tensor([1.0, 2.0])),  # x.shape read in Python
    lambda p, b: p.cumsum_(b),
    lambda p, b: p.sinc_(b),
    lambda p, b: p.nan_to_num_(b),
    lambda p, b: p.hypot_(b, p.to_tensor([1.0, 2.0])),
])
def test_inplace_non_tensor(call, bad):
    _same(lambda p: call(p, bad))


# ----------------------------------------------------------- pool and unpool windows
_POOLS = [("max_pool1d", _X3), ("avg_pool2d", _X4), ("max_pool2d", _X4), ("lp_pool1d", _X3)]


def _pool(p, name, x, *args, **kwargs):
    fn = getattr(p.nn.functional, name)
    lead = (2.0,) if name.startswith("lp") else ()
    return fn(p.to_tensor(np.abs(x) if lead else x), *lead, *args, **kwargs)


@pytest.mark.parametrize("name,x", _POOLS)
@pytest.mark.parametrize("args", [
    lambda p, n: ([p.to_tensor(2)] * n,),                  # Tensor in the list: TypeError
    lambda p, n: (2, [p.to_tensor(2)] * n),
    lambda p, n: (np.int64(2),),                           # numpy scalar: ValueError
    lambda p, n: (2, np.int32(2)),
    lambda p, n: (np.array([2] * n),),                     # 1-D array: accepted
    lambda p, n: (True,),                                  # bool: TypeError
    lambda p, n: ([2] * (n + 1),),
    lambda p, n: (2, 2, np.int64(1)),                      # padding: ValueError
    lambda p, n: (2, 2, [np.int64(1)] * n),
    lambda p, n: (2, 2, [p.to_tensor(1)] * n),
    lambda p, n: (3, 2, [1] * n),
])
def test_pool_window_arguments(name, x, args):
    _same(lambda p: _pool(p, name, x, *args(p, x.ndim - 2)))


def test_pool_length_one_list_2d():
    _same(lambda p: p.nn.functional.max_pool2d(p.to_tensor(_X4), [2]))
    _same(lambda p: p.nn.functional.avg_pool2d(p.to_tensor(_X4), 2, [2]))


@pytest.mark.parametrize("kwargs", [
    lambda p: {"kernel_size": p.to_tensor(2)},
    lambda p: {"kernel_size": [p.to_tensor(2), 2]},
    lambda p: {"kernel_size": 2.0},
    lambda p: {"kernel_size": [2.0, 2.0]},
    lambda p: {"kernel_size": np.int64(2)},
    lambda p: {"kernel_size": True},
    lambda p: {"kernel_size": [2]},
    lambda p: {"kernel_size": np.array([2, 2])},
    lambda p: {"kernel_size": 2, "stride": p.to_tensor(2)},
    lambda p: {"kernel_size": 2, "stride": 2.0},
    lambda p: {"kernel_size": 2, "padding": 0.0},
    lambda p: {"kernel_size": 2, "padding": p.to_tensor(0)},
    lambda p: {"kernel_size": 2, "padding": [np.int64(0)] * 2},
    lambda p: {"kernel_size": 2, "stride": 2, "output_size": [6, 6]},
])
def test_max_unpool2d_window_arguments(kwargs):
    def run(p):
        out, idx = p.nn.functional.max_pool2d(p.to_tensor(_X4), 2, 2, return_mask=True)
        return p.nn.functional.max_unpool2d(out, idx, **kwargs(p))
    _same(run)


def test_max_unpool_layers_refuse_tensor_kernel():
    def run(p):
        out, idx = p.nn.functional.max_pool1d(p.to_tensor(_X3), 2, 2, return_mask=True)
        return p.nn.MaxUnPool1D(p.to_tensor(2))(out, idx)
    _same(run)


# ------------------------------------------------------------ int attributes given bools
@pytest.mark.parametrize("call", [
    lambda p: p.nn.functional.unfold(p.to_tensor(_X4), [True, 2]),
    lambda p: p.nn.functional.unfold(p.to_tensor(_X4), 2, 1, True),
    lambda p: p.nn.functional.unfold(p.to_tensor(_X4), [np.array(2), 2]),
    lambda p: p.nn.functional.unfold(p.to_tensor(_X4), [np.int64(2), 2], paddings=[1, np.int32(0)]),
    lambda p: p.nn.functional.maxout(p.to_tensor(_X4), True),
    lambda p: p.nn.functional.maxout(p.to_tensor(_X4), np.array(2)),
    lambda p: p.nn.functional.maxout(p.to_tensor(_X4), np.int64(2)),
    lambda p: p.nn.Maxout(True)(p.to_tensor(_X4)),
    lambda p: p.nn.Linear(True, 3),
    lambda p: p.nn.PReLU(True),
])
def test_int_attributes_refuse_bools(call):
    _same(call)


# -------------------------------------------------------------- loss scalar arguments
_A = np.random.RandomState(2).rand(4, 5).astype("float32")
_B = np.random.RandomState(3).rand(4, 5).astype("float32")
_S = np.sign(np.random.RandomState(4).randn(4, 5)).astype("float32")
_LAB = np.array([1, 0, 4, 2])


@pytest.mark.parametrize("call", [
    lambda p: p.nn.functional.nll_loss(_t(p, np.log(_A)), _t(p, _LAB), ignore_index=p.to_tensor(0)),
    lambda p: p.nn.functional.nll_loss(_t(p, np.log(_A)), _t(p, _LAB), ignore_index=p.to_tensor(4),
                                       reduction="sum"),
    lambda p: p.nn.functional.smooth_l1_loss(_t(p, _A), _t(p, _B), delta=None),
    lambda p: p.nn.functional.smooth_l1_loss(_t(p, _A), _t(p, _B), delta="a"),
    lambda p: p.nn.functional.triplet_margin_loss(_t(p, _A), _t(p, _B), _t(p, _S), p="a"),
    lambda p: p.nn.functional.triplet_margin_loss(_t(p, _A), _t(p, _B), _t(p, _S), epsilon=None),
    lambda p: p.nn.functional.pairwise_distance(_t(p, _A), _t(p, _B), keepdim=None),
    lambda p: p.nn.functional.pairwise_distance(_t(p, _A), _t(p, _B), epsilon=None),
    lambda p: p.nn.functional.pairwise_distance(_t(p, _A), _t(p, _B), keepdim="a"),
    lambda p: p.nn.functional.margin_ranking_loss(_t(p, _A), _t(p, _B), _t(p, _S), margin=None),
])
def test_loss_scalar_arguments(call):
    _same(call)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_npair_loss_static_label_dtype(dtype):
    def run(p):
        p.enable_static()
        try:
            with p.static.program_guard(p.static.Program(), p.static.Program()):
                a = p.static.data("a", [2, 4], "float32")
                lab = p.static.data("lab", [2], dtype)
                return p.nn.functional.npair_loss(a, a, lab)
        finally:
            p.disable_static()
    want, got = _outcome(paddle, run), _outcome(pagaie, run)
    assert want[0] == got[0] and (want[0] == "ok" or want[1] == got[1]), (want, got)


@pytest.mark.parametrize("grad", [False, True])
def test_relu_inplace_counts_one_version(grad):
    def run(p):
        t = p.to_tensor(_X, stop_gradient=not grad) * 1.0   # (a non-leaf when grad)
        p.nn.functional.relu_(t)
        view = p.to_tensor(_X)
        p.nn.functional.relu_(view[0])
        return t.inplace_version, view.inplace_version
    assert run(paddle) == run(pagaie)
