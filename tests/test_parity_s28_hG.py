"""Differential tests against real Paddle for paddle.geometric, paddle.audio and paddle.text:
the cases of Paddle's own unit tests where pagaie differed."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _err(lib, fn):
    try:
        fn(lib)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e).__name__
    return None


def _same_error(fn):
    want = _err(paddle, fn)
    assert want is not None
    assert _err(pagaie, fn) == want


def _static_build(lib, build):
    lib.enable_static()
    try:
        with lib.static.program_guard(lib.static.Program(), lib.static.Program()):
            build(lib)
    finally:
        lib.disable_static()


_X = np.arange(9, dtype="float32").reshape(3, 3)


def _edges(P):
    return P.to_tensor([0, 0, 1]), P.to_tensor([0, 1, 1])


@pytest.mark.parametrize("call", [
    lambda P: P.geometric.send_u_recv(P.to_tensor(1.0), *_edges(P)),
    lambda P: P.geometric.send_ue_recv(P.to_tensor(1.0), P.ones([3]), *_edges(P)),
    lambda P: P.geometric.send_ue_recv(P.to_tensor(_X), P.to_tensor(1.0), *_edges(P)),
    lambda P: P.geometric.send_uv(P.to_tensor(1.0), P.to_tensor(_X), *_edges(P)),
    lambda P: P.geometric.send_uv(P.to_tensor(_X), P.to_tensor(1.0), *_edges(P)),
])
def test_message_passing_0d_operand_error(call):
    _same_error(call)


@pytest.mark.parametrize("op", ["send_u_recv", "send_ue_recv", "send_uv", "segment_sum"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "complex64"])
def test_geometric_static_bad_value_dtype(op, dtype):
    def build(P):
        x = P.static.data("x", [3, 3], dtype)
        s = P.static.data("s", [3], "int32")
        d = P.static.data("d", [3], "int32")
        fn = getattr(P.geometric, op)
        if op == "send_u_recv":
            fn(x, s, d)
        elif op == "segment_sum":
            fn(x, s)
        else:
            fn(x, x, s, d)
    _same_error(lambda P: _static_build(P, build))


_E32, _E64 = np.zeros(0, "int32"), np.zeros(0, "int64")


@pytest.mark.parametrize("call", [
    lambda P: P.geometric.reindex_graph(P.to_tensor(_E64), P.to_tensor(_E64), P.to_tensor(_E32)),
    lambda P: P.geometric.reindex_graph(P.to_tensor(_E64), P.to_tensor([1, 2]),
                                        P.to_tensor([2], "int32")),
    lambda P: P.geometric.reindex_heter_graph(P.to_tensor(_E64), [P.to_tensor(_E64)],
                                              [P.to_tensor(_E32)]),
    lambda P: P.incubate.graph_reindex(P.to_tensor(_E32), P.to_tensor(_E32), P.to_tensor(_E32),
                                       P.to_tensor(_E32), P.to_tensor(_E32), False),
])
def test_reindex_empty_x_error(call):
    _same_error(call)


def test_reindex_no_counts():
    def call(P):
        return [t.numpy() for t in P.geometric.reindex_graph(P.to_tensor([1]), P.to_tensor(_E64),
                                                             P.to_tensor(_E32))]
    for want, got in zip(call(paddle), call(pagaie)):
        assert want.dtype == got.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("norm", ["slaney", None, 2.0])
def test_compute_fbank_matrix_static_shape(norm):
    def shape(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                w = P.audio.functional.compute_fbank_matrix(16000, 256, 20, norm=norm)
                return list(w.shape)
        finally:
            P.disable_static()
    assert shape(pagaie) == shape(paddle) == [20, 129]


@pytest.mark.parametrize("dtype", ["int8", "int16", "uint8", "bool", "int32"])
@pytest.mark.parametrize("center", [True, False])
def test_spectrogram_integer_waveform_error(dtype, center):
    _same_error(lambda P: P.audio.features.Spectrogram(n_fft=16, center=center)(
        P.to_tensor(np.ones((1, 64))).astype(dtype)))


@pytest.mark.parametrize("dtype", ["int8", "int16", "uint8"])
def test_stft_no_kernel_dtypes(dtype):
    _same_error(lambda P: P.signal.stft(P.to_tensor(np.arange(64.0)).astype(dtype), 16))


def test_power_to_db_complex_static_error():
    _same_error(lambda P: _static_build(
        P, lambda P: P.audio.functional.power_to_db(P.static.data("s", [3], "complex64"))))


@pytest.mark.parametrize("path, name", [
    ("geometric.math", "segment_sum"), ("geometric.message_passing", "send_u_recv"),
    ("geometric.message_passing.send_recv", "send_uv"), ("geometric.reindex", "reindex_graph"),
    ("geometric.sampling", "sample_neighbors"),
    ("geometric.sampling.neighbors", "weighted_sample_neighbors"),
])
def test_geometric_implementation_module_paths(path, name):
    import importlib
    for lib in (paddle, pagaie):
        mod = importlib.import_module(f"{lib.__name__}.{path}")
        assert getattr(mod, name) is getattr(lib.geometric, name)


_ROW = [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]
_COLPTR = [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]


@pytest.mark.parametrize("api, call", [
    ("geometric.sample_neighbors", lambda P: P.geometric.sample_neighbors(
        P.to_tensor(_ROW), P.to_tensor(_COLPTR), P.to_tensor([0, 1]), 2, return_eids=True)),
    ("geometric.reindex_graph", lambda P: P.geometric.reindex_graph(
        P.to_tensor(_E64), P.to_tensor(_E64), P.to_tensor(_E32))),
])
def test_geometric_sampling_errors_name_the_api(api, call):
    _same_error(call)
    with pytest.raises(ValueError, match=f"paddle.{api}:"):
        call(pagaie)
