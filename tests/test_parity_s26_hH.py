"""Differential tests against real Paddle 3.3.1: paddle.geometric argument checks (a
non-Tensor where a Tensor belongs), and the other fixes of this parity sweep over
audio / signal / text / geometric / distribution transforms."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _raised(fn, mod):
    try:
        fn(mod)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e)
    return None


def _matches(fn):
    """Paddle's exception type for ``fn`` (None when it returns), after checking that pagaie
    raises the same type (or a subclass of it), or returns too."""
    want, got = _raised(fn, paddle), _raised(fn, pagaie)
    if want is None:
        assert got is None
    else:
        assert got is not None and issubclass(got, want), (got, want)
    return want


def _same_exception(fn):
    assert _matches(fn) is not None


_X = np.array([[1., 2.], [1., 5.], [3., 2.], [0., 0.]], "float32")
_IDX = np.array([0, 1, 2, 3])
_SEG = np.array([0, 0, 1, 1])
_ROW = np.array([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
_COLPTR = np.array([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
_NODES = np.array([0, 8, 1, 2])

_GRAPH_CALLS = {
    "send_u_recv": (lambda m: m.geometric.send_u_recv, [_X, _IDX, _IDX]),
    "send_ue_recv": (lambda m: m.geometric.send_ue_recv, [_X, _X, _IDX, _IDX]),
    "send_uv": (lambda m: m.geometric.send_uv, [_X, _X, _IDX, _IDX]),
    "segment_sum": (lambda m: m.geometric.segment_sum, [_X, _SEG]),
    "segment_max": (lambda m: m.geometric.segment_max, [_X, _SEG]),
    "incubate.segment_mean": (lambda m: m.incubate.segment_mean, [_X, _SEG]),
    "incubate.graph_send_recv": (lambda m: m.incubate.graph_send_recv, [_X, _IDX, _IDX]),
    "reindex_graph": (lambda m: m.geometric.reindex_graph,
                      [np.array([0, 1, 2]), np.array([8, 9, 0, 4, 7, 6, 7]),
                       np.array([2, 3, 2], "int32")]),
    "sample_neighbors": (lambda m: lambda a, b, c: m.geometric.sample_neighbors(
        a, b, c, sample_size=2), [_ROW, _COLPTR, _NODES]),
    "weighted_sample_neighbors": (lambda m: lambda a, b, w, c: (
        m.geometric.weighted_sample_neighbors(a, b, w, c, sample_size=2)),
        [_ROW, _COLPTR, np.ones(13, "float32"), _NODES]),
    "khop_sampler": (lambda m: lambda a, b, c: m.incubate.graph_khop_sampler(a, b, c, [2]),
                     [_ROW, _COLPTR, _NODES]),
}
_BAD = {"ndarray": lambda t: t.numpy(), "list": lambda t: t.numpy().tolist(),
        "None": lambda t: None}


@pytest.mark.parametrize("api", sorted(_GRAPH_CALLS))
@pytest.mark.parametrize("bad", sorted(_BAD))
def test_geometric_non_tensor_arguments(api, bad):
    get, arrays = _GRAPH_CALLS[api]
    for pos in range(len(arrays)):
        def call(m, pos=pos):
            args = [m.to_tensor(a) for a in arrays]
            args[pos] = _BAD[bad](args[pos])
            return get(m)(*args)
        _same_exception(call)


@pytest.mark.parametrize("api", ["send_u_recv", "send_uv", "segment_sum"])
def test_geometric_non_tensor_arguments_static(api):
    def call(m):
        m.enable_static()
        try:
            with m.static.program_guard(m.static.Program(), m.static.Program()):
                x = m.static.data("x", [4, 2], "float32")
                i = m.static.data("i", [4], "int64")
                if api == "send_u_recv":
                    m.geometric.send_u_recv(x, [0, 1, 2, 3], i)
                elif api == "send_uv":
                    m.geometric.send_uv(x, [1.0], i, i)
                else:
                    m.geometric.segment_sum(x, [0, 0, 1, 1])
        finally:
            m.disable_static()
    _same_exception(call)


def test_reindex_heter_graph_tensor_instead_of_lists():
    def call(m):
        return m.geometric.reindex_heter_graph(
            m.to_tensor([0, 1, 2]), m.to_tensor([8, 9, 0, 4, 7, 6, 7]),
            m.to_tensor([2, 3, 2], "int32"))
    _same_exception(call)


@pytest.mark.parametrize("kind", ["ndarray", "list"])
def test_audio_save_non_tensor(tmp_path, kind):
    wav = np.zeros((1, 100), "float32")
    src = wav if kind == "ndarray" else wav.tolist()
    _same_exception(lambda m: m.audio.save(str(tmp_path / f"{m.__name__}.wav"), src, 8000))


def _out_size(kind):
    return {"float_tensor": lambda m: m.to_tensor(6.7), "float64_tensor":
            lambda m: m.to_tensor(6, "float64"), "int16_tensor": lambda m: m.to_tensor(6, "int16"),
            "float": lambda m: 6.5, "bool": lambda m: True}[kind]


@pytest.mark.parametrize("kind", ["float_tensor", "float64_tensor", "int16_tensor", "float"])
@pytest.mark.parametrize("api", ["send_u_recv", "send_ue_recv", "graph_send_recv"])
def test_send_recv_out_size_read_as_paddle(kind, api):
    def call(m):
        x = m.to_tensor(_X)
        idx, dst = m.to_tensor(_IDX), m.to_tensor(np.array([0, 0, 0, 1]))
        size = _out_size(kind)(m)
        if api == "send_u_recv":
            return m.geometric.send_u_recv(x, idx, dst, "sum", size)
        if api == "send_ue_recv":
            return m.geometric.send_ue_recv(x, x, idx, dst, "mul", "max", size)
        return m.incubate.graph_send_recv(x, idx, dst, "mean", size)
    want, got = call(paddle), call(pagaie)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want.numpy())


def test_send_u_recv_bool_out_size_refused():
    _same_exception(lambda m: m.geometric.send_u_recv(
        m.to_tensor(_X), m.to_tensor(_IDX), m.to_tensor(_IDX), "sum", True))


@pytest.mark.parametrize("sizes", [2, (2,), [np.int64(2)], np.array([2]), None, 2.0, True, [2.0],
                                   ["2"], [True], (2, 2.0), []],
                         ids=lambda v: repr(v))
def test_khop_sampler_sample_sizes(sizes):
    def call(m):
        return m.incubate.graph_khop_sampler(m.to_tensor(_ROW), m.to_tensor(_COLPTR),
                                             m.to_tensor(_NODES), sizes)
    want = _matches(call)
    if want is None:
        for a, b in zip(call(paddle), call(pagaie)):
            np.testing.assert_array_equal(b.numpy(), a.numpy())


@pytest.mark.parametrize("n_mels", [2.5, True, -3, 0])
def test_compute_fbank_matrix_n_mels_checks(n_mels):
    def call(m):
        return m.audio.functional.compute_fbank_matrix(16000, 64, n_mels)
    want = _matches(call)
    if want is None:
        assert call(pagaie).shape == call(paddle).shape


@pytest.mark.parametrize("args", [(4.5, 10), (4.5, 10, None), (3.0, 8, "ortho", "float64"),
                                  (True, 10)])
def test_create_dct_float_n_mfcc(args):
    want = paddle.audio.functional.create_dct(*args)
    got = pagaie.audio.functional.create_dct(*args)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("tag", [1, 0, "a", 1.0, np.bool_(True), None, False])
@pytest.mark.parametrize("layer", [False, True])
def test_viterbi_include_bos_eos_tag_must_be_bool(tag, layer):
    rng = np.random.RandomState(0)
    pot, trans = rng.rand(2, 3, 4).astype("float32"), rng.rand(4, 4).astype("float32")

    def call(m):
        p, t, n = m.to_tensor(pot), m.to_tensor(trans), m.to_tensor(np.array([3, 2]))
        if layer:
            return m.text.ViterbiDecoder(t, tag)(p, n)
        return m.text.viterbi_decode(p, t, n, tag)
    want = _matches(call)
    if want is None:
        for a, b in zip(call(paddle), call(pagaie)):
            np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6)


_SIGNAL = np.random.RandomState(1).randn(2, 300).astype("float32")


def _same_result_or_exception(call, rtol=1e-4, atol=1e-4):
    want = _matches(call)
    if want is None:
        a, b = call(paddle), call(pagaie)
        assert b.shape == a.shape and str(b.dtype) == str(a.dtype)
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=rtol, atol=atol)


@pytest.mark.parametrize("value", [1, 0, "a", None, 1.0, np.bool_(True)], ids=repr)
@pytest.mark.parametrize("arg", ["normalized", "onesided", "center"])
def test_stft_flags_read_as_paddle(arg, value):
    _same_result_or_exception(lambda m: m.signal.stft(m.to_tensor(_SIGNAL), 64, **{arg: value}))


@pytest.mark.parametrize("value", [1, 0, "a", None, 1.0, np.bool_(True)], ids=repr)
@pytest.mark.parametrize("arg", ["center", "normalized", "onesided", "return_complex"])
def test_istft_flags_read_as_paddle(arg, value):
    def call(m):
        spec = m.signal.stft(m.to_tensor(_SIGNAL), 64)
        return m.signal.istft(spec, 64, **{arg: value})
    _same_result_or_exception(call)


@pytest.mark.parametrize("api,arg", [(api, arg) for api in ("stft", "istft")
                                      for arg in ("n_fft", "hop_length", "win_length")]
                         + [("istft", "length")])
def test_signal_size_arguments_not_numbers(api, arg):
    def call(m):
        kw = {"n_fft": 64, arg: "a"}
        x = m.to_tensor(_SIGNAL)
        if api == "stft":
            return m.signal.stft(x, **kw)
        return m.signal.istft(m.signal.stft(x, 64), **kw)
    _same_exception(call)


@pytest.mark.parametrize("value", [1, 0, "a", None, np.bool_(True)], ids=repr)
@pytest.mark.parametrize("api", ["sample_neighbors", "weighted_sample_neighbors",
                                 "graph_sample_neighbors"])
def test_sample_neighbors_return_eids_must_be_bool(api, value):
    def call(m):
        row, colptr, nodes = (m.to_tensor(a) for a in (_ROW, _COLPTR, _NODES))
        eids = m.to_tensor(np.arange(13))
        if api == "sample_neighbors":
            return m.geometric.sample_neighbors(row, colptr, nodes, sample_size=20, eids=eids,
                                                return_eids=value)
        if api == "graph_sample_neighbors":
            return m.incubate.graph_sample_neighbors(row, colptr, nodes, eids=eids,
                                                     sample_size=20, return_eids=value)
        return m.geometric.weighted_sample_neighbors(
            row, colptr, m.to_tensor(np.ones(13, "float32")), nodes, sample_size=20, eids=eids,
            return_eids=value)
    want = _matches(call)
    if want is None:
        for a, b in zip(call(paddle), call(pagaie)):
            np.testing.assert_array_equal(b.numpy(), a.numpy())


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_power_to_db_complex_spect(dtype):
    spect = np.array([1.0, 15.0, 30.0]).astype(dtype)
    _same_exception(lambda m: m.audio.functional.power_to_db(m.to_tensor(spect)))


@pytest.mark.parametrize("window", [("kaiser", "3"), ("tukey", "0.5"), ("gaussian", b"7")],
                         ids=repr)
def test_get_window_text_parameter(window):
    # exactly Paddle's TypeError, not numpy's UFuncTypeError subclass with its ufunc message
    call = lambda m: m.audio.functional.get_window(window, 8)  # noqa: E731
    assert _raised(call, pagaie) is _raised(call, paddle) is TypeError
