"""paddle.version, paddle.sysconfig, paddle.special, paddle.utils.{dlpack, download, nest helpers}
and the legacy paddle.tensor functions, each compared with real Paddle 3.3.1."""
from __future__ import annotations

import functools
import hashlib
import http.server
import io
import os
import tarfile
import threading
import zipfile
from collections import namedtuple

import numpy as np
import pytest
import torch

import pagaie
import pagaie.special  # noqa: F401  (the lead registers these at the top level)
import pagaie.sysconfig  # noqa: F401
import pagaie.utils.dlpack  # noqa: F401
import pagaie.utils.download  # noqa: F401
import pagaie.version  # noqa: F401
from tests.reference import assert_same, both, paddle_ref, same_exception

CPU_TORCH = not torch.version.cuda and not torch.version.hip


def _sub(P, dotted):
    """``P.<dotted>``, importing submodules of real Paddle as needed."""
    import importlib
    return importlib.import_module(f"{P.__name__}.{dotted}")


# ---- paddle.version ------------------------------------------------------------------

def test_version_all_and_toplevel_consistency():
    paddle = paddle_ref()
    v = pagaie.version
    assert v.__all__ == paddle.version.__all__
    assert v.full_version == pagaie.__version__
    assert ".".join([v.major, v.minor, v.patch]) == v.full_version.split("rc")[0].rstrip(".-")
    assert v.paddle_api_version == paddle.__version__ == "3.3.1"
    for name in ("full_version", "major", "minor", "patch", "rc", "commit", "with_mkl"):
        assert isinstance(getattr(v, name), str)
    assert isinstance(v.is_tagged, bool)


@pytest.mark.skipif(not CPU_TORCH, reason="Paddle reference is a CPU build")
def test_version_matches_cpu_build():
    paddle = paddle_ref()
    for fn in ("cuda", "cudnn", "nccl", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "cinn",
               "tensorrt", "cuda_archs", "hml"):
        assert getattr(pagaie.version, fn)() == getattr(paddle.version, fn)(), fn
    for attr in ("cuda_version", "cudnn_version", "nccl_version", "hip_version", "xpu_xre_version",
                 "xpu_xccl_version", "xpu_xhpc_version", "cinn_version", "tensorrt_version",
                 "compiled_cuda_archs", "with_pip_tensorrt", "hip"):
        assert getattr(pagaie.version, attr) == getattr(paddle.version, attr), attr
    assert pagaie.version.cuda == "False" and repr(pagaie.version.cuda) == repr(paddle.version.cuda)
    assert pagaie.version.mkl() == ("ON" if torch.backends.mkl.is_available() else "OFF")


def test_version_cuda_is_callable_string():
    v = pagaie.version
    assert isinstance(v.cuda, str) and v.cuda() == str(v.cuda)
    assert v.cuda() == (torch.version.cuda or "False")
    import inspect
    assert list(inspect.signature(v.cuda).parameters) == []
    with pytest.raises(AttributeError):
        v.no_such_attribute  # noqa: B018


def test_version_show_lines(capsys):
    paddle = paddle_ref()
    paddle.version.show()
    theirs = [line.split(":")[0] for line in capsys.readouterr().out.splitlines()]
    pagaie.version.show()
    out = capsys.readouterr().out
    ours = [line.split(":")[0] for line in out.splitlines()]
    assert ours == theirs
    assert f"full_version: {pagaie.__version__}" in out


def test_version_formats():
    from pagaie import version as v
    assert v._split_version("3.3.1") == ("3", "3", "1", "0")
    assert v._split_version("2.6.0rc1") == ("2", "6", "0", "1")
    assert v._cudnn_version() == ("False" if not torch.backends.cudnn.version() else v.cudnn())
    if torch.backends.cudnn.version():
        assert v.cudnn().count(".") == 2


# ---- paddle.sysconfig ----------------------------------------------------------------

def test_sysconfig():
    paddle = paddle_ref()
    assert pagaie.sysconfig.__all__ == paddle.sysconfig.__all__
    inc, lib = pagaie.sysconfig.get_include(), pagaie.sysconfig.get_lib()
    torch_dir = os.path.dirname(torch.__file__)
    assert inc == os.path.join(torch_dir, "include") and os.path.isdir(inc)
    assert lib == os.path.join(torch_dir, "lib") and os.path.isdir(lib)
    assert os.path.isfile(os.path.join(inc, "torch", "extension.h"))


# ---- paddle.special ------------------------------------------------------------------

def test_special_names_are_the_shared_ops():
    paddle = paddle_ref()
    assert pagaie.special.__all__ == paddle.special.__all__
    assert pagaie.special.expm1 is pagaie.expm1
    assert pagaie.special.logsumexp is pagaie.logsumexp
    assert pagaie.special.softmax is pagaie.softmax is pagaie.tensor.softmax


X3 = np.random.RandomState(0).randn(2, 3, 4).astype("float32")


@pytest.mark.parametrize("call", [
    lambda P, x: P.special.expm1(x),
    lambda P, x: P.special.logsumexp(x),
    lambda P, x: P.special.logsumexp(x, axis=1),
    lambda P, x: P.special.logsumexp(x, axis=[0, 2], keepdim=True),
    lambda P, x: P.special.softmax(x),
    lambda P, x: P.special.softmax(x, dim=-1),
    lambda P, x: P.special.softmax(x, 2, "float64"),
    lambda P, x: P.special.softmax(x[0]),
    lambda P, x: P.special.softmax(x[0, 0]),
    lambda P, x: P.special.softmax(x.reshape([1, 2, 3, 4])),
])
def test_special_values(call):
    ours, theirs = both(lambda P: call(P, P.to_tensor(X3)))
    assert_same(ours, theirs)


def test_special_errors():
    same_exception(lambda P: P.special.softmax(P.to_tensor(X3), axis=1))
    same_exception(lambda P: P.special.softmax(x=P.to_tensor(X3)))


# ---- paddle.utils.dlpack -------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: np.arange(6, dtype="int32").reshape(2, 3),
    lambda: np.ones(2, dtype="float16"),
    lambda: np.array([True, False]),
    lambda: np.array([1 + 2j], dtype="complex64"),
    lambda: np.array(3.0),
    lambda: np.zeros((0, 3), dtype="float32"),
    lambda: np.arange(6.0).reshape(2, 3).T,
    lambda: np.broadcast_to(np.arange(3.0), (2, 3)),
    lambda: torch.arange(3),
])
def test_from_dlpack_exporters(make):
    ours, theirs = both(lambda P: P.utils.dlpack.from_dlpack(make()))
    assert_same(ours, theirs)
    assert ours.stop_gradient and str(ours.place) == str(theirs.place)


def test_from_dlpack_uint16_is_bfloat16():
    ours, theirs = both(lambda P: P.utils.dlpack.from_dlpack(np.array([16256, 16384], dtype="uint16")))
    assert str(ours.dtype) == str(theirs.dtype) == "paddle.bfloat16"
    assert ours.astype("float32").tolist() == [1.0, 2.0]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "complex64", "bfloat16"])
def test_dlpack_round_trip(dtype):
    def run(P):
        x = P.to_tensor([[1, 0], [3, 4]]).astype(dtype)
        return P.utils.dlpack.from_dlpack(P.utils.dlpack.to_dlpack(x)).astype("float64")
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_dlpack_shares_memory_and_copies():
    a = np.arange(3.0)
    t = pagaie.utils.dlpack.from_dlpack(a)
    c = pagaie.utils.dlpack.from_dlpack(a, copy=True)
    a[0] = 10.0
    assert t.tolist() == [10.0, 1.0, 2.0] and c.tolist() == [0.0, 1.0, 2.0]
    x = pagaie.to_tensor([1.0, 2.0], stop_gradient=False)
    y = pagaie.utils.dlpack.from_dlpack(pagaie.utils.dlpack.to_dlpack(x))
    assert y.stop_gradient
    assert torch.utils.dlpack.from_dlpack(pagaie.utils.dlpack.to_dlpack(x)).tolist() == [1.0, 2.0]
    assert np.from_dlpack(pagaie.to_tensor([1, 2])).tolist() == [1, 2]
    s = pagaie.to_tensor([[1.0, 2.0], [3.0, 4.0]])[:, 1]
    assert pagaie.utils.dlpack.from_dlpack(pagaie.utils.dlpack.to_dlpack(s)).tolist() == [2.0, 4.0]
    for dev in ("cpu", pagaie.CPUPlace()):
        assert pagaie.utils.dlpack.from_dlpack(np.arange(2.0), device=dev).tolist() == [0.0, 1.0]


def test_from_dlpack_negative_strides():
    # Real Paddle fails with MemoryError here (a bug); DLPack cannot share such an array,
    # so pagaie copies it, or refuses when copy=False.
    a = np.arange(6.0)[::-1]
    assert pagaie.utils.dlpack.from_dlpack(a).tolist() == a.tolist()
    with pytest.raises(BufferError):
        pagaie.utils.dlpack.from_dlpack(a, copy=False)


def test_dlpack_errors():
    same_exception(lambda P: P.utils.dlpack.to_dlpack(np.arange(3.0)))
    same_exception(lambda P: P.utils.dlpack.to_dlpack([1, 2]))
    same_exception(lambda P: P.utils.dlpack.from_dlpack([1, 2]))
    same_exception(lambda P: P.utils.dlpack.from_dlpack(3))

    def reuse(P):
        cap = P.utils.dlpack.to_dlpack(P.to_tensor([1.0]))
        P.utils.dlpack.from_dlpack(cap)
        P.utils.dlpack.from_dlpack(cap)
    same_exception(reuse)


def test_dlpack_all():
    paddle = paddle_ref()
    assert pagaie.utils.dlpack.__all__ == paddle.utils.dlpack.__all__


# ---- paddle.utils.download -----------------------------------------------------------

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: D401
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A local HTTP server on 127.0.0.1 serving a folder of test files; yields (url, folder)."""
    root = tmp_path_factory.mktemp("srv")
    (root / "w.pdparams").write_bytes(b"weights-bytes")
    (root / "plain.txt").write_bytes(b"hello")

    def tar_of(name, entries, dirs=()):
        with tarfile.open(root / name, "w:gz") as tar:
            for d in dirs:
                info = tarfile.TarInfo(d)
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            for arc, data in entries:
                info = tarfile.TarInfo(arc)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))

    tar_of("single.tar.gz", [("only.txt", b"1")])
    tar_of("onedir.tar.gz", [("pkg/a.txt", b"a"), ("pkg/b.txt", b"b")], dirs=("pkg",))
    tar_of("many.tar.gz", [("a.txt", b"a"), ("b.txt", b"b")])
    with zipfile.ZipFile(root / "onedir.zip", "w") as zf:
        zf.writestr("zdir/", b"")
        zf.writestr("zdir/x.txt", b"x")
    with zipfile.ZipFile(root / "many.zip", "w") as zf:
        zf.writestr("p.txt", b"p")
        zf.writestr("q.txt", b"q")
    handler = functools.partial(_QuietHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()
    httpd.server_close()


def _fetch(P, url, root, **kw):
    path = _sub(P, "utils.download").get_path_from_url(url, str(root), **kw)
    return os.path.relpath(path, root)


@pytest.mark.parametrize("name", ["w.pdparams", "single.tar.gz", "onedir.tar.gz", "many.tar.gz",
                                  "onedir.zip", "many.zip"])
def test_get_path_from_url_matches_paddle(server, tmp_path, name):
    paddle = paddle_ref()
    url, _ = server
    ours = _fetch(pagaie, f"{url}/{name}", tmp_path / "ours")
    theirs = _fetch(paddle, f"{url}/{name}", tmp_path / "theirs")
    assert ours == theirs

    def tree(d):
        return sorted(os.path.relpath(os.path.join(p, f), d) for p, _, fs in os.walk(d) for f in fs)
    assert tree(tmp_path / "ours") == tree(tmp_path / "theirs")


def test_download_md5_cache_and_no_decompress(server, tmp_path):
    url, root = server
    dl = pagaie.utils.download
    md5 = hashlib.md5(b"hello").hexdigest()
    path = dl.get_path_from_url(f"{url}/plain.txt", str(tmp_path), md5sum=md5)
    assert open(path, "rb").read() == b"hello"
    with open(path, "wb") as f:  # a cached file is reused without downloading
        f.write(b"changed")
    assert dl.get_path_from_url(f"{url}/plain.txt", str(tmp_path)) == path
    assert open(path, "rb").read() == b"changed"
    dl.get_path_from_url(f"{url}/plain.txt", str(tmp_path), md5sum=md5)  # md5 mismatch: fetched again
    assert open(path, "rb").read() == b"hello"
    p = dl.get_path_from_url(f"{url}/many.zip", str(tmp_path), decompress=False)
    assert p.endswith("many.zip") and not os.path.exists(os.path.join(tmp_path, "many"))


def test_download_failures(server, tmp_path, monkeypatch):
    url, _ = server
    paddle = paddle_ref()
    import time
    monkeypatch.setattr(time, "sleep", lambda s: None)
    monkeypatch.setattr(pagaie.utils.download, "DOWNLOAD_RETRY_LIMIT", 1)
    monkeypatch.setattr(_sub(paddle, "utils.download"), "DOWNLOAD_RETRY_LIMIT", 1)
    for bad in (f"{url}/missing.bin", f"{url}/plain.txt"):
        exc = same_exception(lambda P: _sub(P, "utils.download").get_path_from_url(
            bad, str(tmp_path / P.__name__), md5sum="0" * 32))
        assert "Retry limit" in str(exc)
    same_exception(lambda P: _sub(P, "utils.download").get_path_from_url("/tmp/x.bin", str(tmp_path)))
    same_exception(lambda P: _sub(P, "utils.download").get_path_from_url(
        f"{url}/nothere.bin", str(tmp_path / "m"), method="wget"))


def test_get_weights_path_from_url(server, tmp_path, monkeypatch):
    url, _ = server
    dl = pagaie.utils.download
    assert dl.__all__ == _sub(paddle_ref(), "utils.download").__all__
    monkeypatch.setattr(dl, "WEIGHTS_HOME", str(tmp_path))
    path = dl.get_weights_path_from_url(f"{url}/w.pdparams", hashlib.md5(b"weights-bytes").hexdigest())
    assert path == os.path.join(tmp_path, "w.pdparams") and open(path, "rb").read() == b"weights-bytes"


def test_download_unsafe_tar_and_helpers(tmp_path):
    dl = pagaie.utils.download
    bad = tmp_path / "bad.tar"
    with tarfile.open(bad, "w") as tar:
        info = tarfile.TarInfo("../evil.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"e"))
    with pytest.raises(ValueError):
        dl._decompress(str(bad))
    assert not (tmp_path.parent / "evil.txt").exists()
    assert dl.is_url("https://a/b") and not dl.is_url("file:///a")
    with pytest.raises(NotADirectoryError):
        dl.check_and_create_dir(str(bad))


def test_download_leader_election(monkeypatch):
    dl = pagaie.utils.download
    monkeypatch.setenv("PADDLE_TRAINER_ENDPOINTS", "10.0.0.1:6171,10.0.0.1:6170,10.0.0.2:6170")
    monkeypatch.setenv("PADDLE_CURRENT_ENDPOINT", "10.0.0.1:6170")
    assert dl._is_download_leader()
    monkeypatch.setenv("PADDLE_CURRENT_ENDPOINT", "10.0.0.1:6171")
    assert not dl._is_download_leader()
    monkeypatch.setenv("PADDLE_CURRENT_ENDPOINT", "10.0.0.2:6170")
    assert dl._is_download_leader()


# ---- paddle.tensor legacy functions --------------------------------------------------

def test_tensor_namespace_has_paddles_names():
    paddle = paddle_ref()
    internal = {"layer_function_generator", "magic_method_func", "tensor_method_func"}
    public = {n for n in dir(paddle.tensor) if not n.startswith("_")} - internal
    assert public <= set(dir(pagaie.tensor))
    for sub, name in (("array", "create_array"), ("array", "array_write"), ("array", "array_read"),
                      ("array", "array_length"), ("creation", "fill_constant"),
                      ("manipulation", "fill_constant"), ("manipulation", "tensor_array_to_tensor"),
                      ("compat_softmax", "softmax"), ("creation", "FloatTensor")):
        assert getattr(getattr(pagaie.tensor, sub), name) is not None


def _array_case(P):
    T = P.tensor
    i0 = P.zeros([1], "int64")
    arr = T.create_array("float32")
    T.array_write(P.full([1, 3], 5.0), i0, arr)
    T.array_write(P.full([2], 7.0), P.ones([1], "int64"), arr)
    T.array_write(P.full([2], 9.0), P.full([1], -1, "int64"), arr)  # negative: from the end
    T.array_write(P.full([2], 1, "int32"), P.full([1], 2, "int32"), arr)
    new = T.array_write(P.ones([2]), i0)
    read = [T.array_read(arr, P.full([1], k, "int64")) for k in (0, 1, -1)]
    return [arr[0], arr[1], arr[2], new[0], T.array_length(arr), *read]


def test_tensor_array_ops():
    ours, theirs = both(_array_case)
    assert_same(ours, theirs)
    arr = pagaie.tensor.create_array("float32", (pagaie.ones([2]),))
    assert pagaie.tensor.array_read(arr, pagaie.zeros([1], "int64")) is arr[0]


@pytest.mark.parametrize("call", [
    lambda P: P.tensor.create_array("float32", P.ones([2])),
    lambda P: P.tensor.create_array("float32", [1.0]),
    lambda P: P.tensor.create_array("float32", [np.ones(2)]),
    lambda P: P.tensor.array_write(P.ones([2]), P.full([1], 3, "int64"), [P.ones([2])]),
    lambda P: P.tensor.array_write(P.ones([2]), P.to_tensor(0), []),
    lambda P: P.tensor.array_write(P.ones([2]), 0, []),
    lambda P: P.tensor.array_write(np.ones(2), P.zeros([1], "int64"), []),
    lambda P: P.tensor.array_write(P.ones([2]), P.zeros([1]), [P.ones([2])]),
    lambda P: P.tensor.array_write(P.ones([2]), P.zeros([1], "int64"), (P.ones([1]),)),
    lambda P: P.tensor.array_read([P.ones([2])], P.full([1], 5, "int64")),
    lambda P: P.tensor.array_read([P.ones([2])], 0),
    lambda P: P.tensor.array_read([P.ones([2])], P.zeros([1])),
    lambda P: P.tensor.array_read((P.ones([2]),), P.zeros([1], "int64")),
    lambda P: P.tensor.array_length((1, 2)),
])
def test_tensor_array_errors(call):
    same_exception(call)


@pytest.mark.parametrize("call", [
    lambda P: P.tensor.fill_constant([2, 3], "float32", 1.5),
    lambda P: P.tensor.fill_constant(3, "int64", 2),
    lambda P: P.tensor.fill_constant([2], "int32", 2.7),
    lambda P: P.tensor.fill_constant([2], "bool", 1),
    lambda P: P.tensor.fill_constant([2], "float32", P.to_tensor(3.0)),
    lambda P: P.tensor.fill_constant([2], "float32", P.to_tensor([3.0])),
    lambda P: P.tensor.fill_constant([P.to_tensor(2), 3], "float32", 1.0),
    lambda P: P.tensor.fill_constant(P.to_tensor([2, 3]), "float32", 1.0),
    lambda P: P.tensor.fill_constant(np.array([2, 1]), "float32", 1.0),
    lambda P: P.tensor.fill_constant([2], np.float64, 1.0),
    lambda P: P.tensor.fill_constant([2], P.float16, 1.0),
    lambda P: P.tensor.fill_constant([2], "float32", 1.0, force_cpu=True),
    lambda P: P.tensor.fill_constant([2], "float32", 1.0, place="cpu"),
    lambda P: P.tensor.fill_constant([2], "complex64", 1 + 2j),
    lambda P: P.tensor.fill_constant([1], "int64", 2 ** 40),
    lambda P: P.tensor.fill_constant([1], "float32", P.to_tensor(1.0, stop_gradient=False)),
    lambda P: P.tensor.creation.fill_constant([0, 2], "float32", float("inf")),
])
def test_fill_constant(call):
    ours, theirs = both(call)
    assert_same(ours, theirs)
    assert ours.stop_gradient == theirs.stop_gradient


def test_fill_constant_out():
    def run(P):
        o = P.zeros([5], "float32")
        r = P.tensor.fill_constant([2, 2], "float32", 4.0, out=o)
        return [r, o, P.to_tensor(r is o)]
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("call", [
    lambda P: P.tensor.fill_constant([2, 2], "float64", 4.0, out=P.zeros([5], "float32")),
    lambda P: P.tensor.fill_constant([2], "foo", 1.0),
    lambda P: P.tensor.fill_constant("a", "float32", 1.0),
    lambda P: P.tensor.fill_constant([-1], "float32", 1.0),
    lambda P: P.tensor.fill_constant([2], "float32", None),
    lambda P: P.tensor.fill_constant([2.0], "float32", 1.0),
])
def test_fill_constant_errors(call):
    same_exception(call)


@pytest.mark.parametrize("use_stack,axis", [(False, 1), (True, 1), (False, 0), (True, -1)])
def test_tensor_array_to_tensor(use_stack, axis):
    data = np.arange(8.0, dtype="float32").reshape(2, 2, 2)

    def run(P):
        arr = [P.to_tensor(data[0]), P.to_tensor(data[1])]
        return list(_sub(P, "tensor.manipulation").tensor_array_to_tensor(arr, axis=axis,
                                                                          use_stack=use_stack))
    ours, theirs = both(run)
    assert_same(ours, theirs)


# ---- paddle.utils nest and shape helpers ---------------------------------------------

Point = namedtuple("Point", ["x", "y"])
NEST = [1, (2, [3, 4]), {"b": 5, "a": Point(6, 7)}, "s"]


@pytest.mark.parametrize("call", [
    lambda U: U.flatten(NEST),
    lambda U: U.flatten(3),
    lambda U: U.flatten({}),
    lambda U: U.pack_sequence_as(NEST, list(range(10, 18))),
    lambda U: U.pack_sequence_as(5, ["x"]),
    lambda U: U.pack_sequence_as([0, 0], {"k": 1, "j": 2}),
    lambda U: U.map_structure(lambda a, b: a * b, [1, (2, 3)], [4, (5, 6)]),
    lambda U: U.map_structure(str, NEST),
    lambda U: U.is_sequence({}), lambda U: U.is_sequence("ab"), lambda U: U.is_sequence(b"ab"),
    lambda U: U.to_sequence(1), lambda U: U.to_sequence((1,)),
    lambda U: U.hold_mutable_vars([1, [2]]), lambda U: U.hold_mutable_vars((1, 2)),
    lambda U: U.copy_mutable_vars(NEST),
    lambda U: U.padding_to_same_structure([1, None, (None,)], None, obj=0),
    lambda U: U.assert_same_structure(NEST, NEST),
    lambda U: U.assert_same_structure([1, 2], (3, 4), check_types=False),
    lambda U: U.assert_same_structure([1, [2]], [1, 2], skip_if=lambda s: s == [2]),
    lambda U: U.convert_to_list(3, 2, "stride"),
    lambda U: U.convert_to_list((1, 2.0), 2, "stride"),
    lambda U: U.convert_to_list([1.5, 2], 2, "k", dtype=float),
    lambda U: U.check_shape([2, 3]),
    lambda U: U.is_same_shape([2, 3], [2, 3]), lambda U: U.is_same_shape([2, -1], [2, 3]),
    lambda U: U.strtobool("Yes"), lambda U: U.strtobool("off"),
])
def test_utils_helpers(call):
    ours, theirs = both(lambda P: call(P.utils))
    assert ours == theirs and type(ours) is type(theirs)


def test_utils_shape_helpers_with_tensors():
    ours, theirs = both(lambda P: [P.utils.convert_shape_to_list([2, P.to_tensor([3]), P.to_tensor([])]),
                                   P.utils.convert_shape_to_list(P.to_tensor([4, 5], "int32"))])
    assert ours == theirs
    ours, theirs = both(lambda P: [P.utils.check_shape(P.to_tensor([1.0])),
                                   P.utils.check_shape([2, P.to_tensor(1.0)])])
    assert ours == theirs == [None, None]


@pytest.mark.parametrize("call", [
    lambda P: P.utils.pack_sequence_as([1, 2], 3),
    lambda P: P.utils.pack_sequence_as(1, [1, 2]),
    lambda P: P.utils.pack_sequence_as([1, (2,)], [1]),
    lambda P: P.utils.flatten({1: "a", "b": 2}),
    lambda P: P.utils.assert_same_structure([1, 2], [1]),
    lambda P: P.utils.assert_same_structure([1, [2]], [1, 2]),
    lambda P: P.utils.assert_same_structure([1, 2], (1, 2)),
    lambda P: P.utils.assert_same_structure({"a": 1}, {"b": 1}),
    lambda P: P.utils.convert_to_list(None, 2, "stride"),
    lambda P: P.utils.convert_to_list([1, 2, 3], 2, "stride"),
    lambda P: P.utils.convert_to_list([1, "a"], 2, "stride"),
    lambda P: P.utils.check_shape([2, -1]),
    lambda P: P.utils.check_shape([2, 1.5]),
    lambda P: P.utils.strtobool("maybe"),
])
def test_utils_helper_errors(call):
    same_exception(call)


@pytest.mark.parametrize("value", [lambda P: P.to_tensor(1), lambda P: [1, P.to_tensor(1)]])
def test_convert_to_list_rejects_tensors(value):
    paddle = paddle_ref()
    errors = []
    for P in (paddle, pagaie):
        with pytest.raises(TypeError) as info:
            P.utils.convert_to_list(value(P), 2, "stride")
        errors.append(info.value)
    assert [type(e).__name__ for e in errors] == ["NotSupportedTensorArgumentError"] * 2
    assert [e.name for e in errors] == ["stride", "stride"]


def test_utils_public_names():
    paddle = paddle_ref()
    assert sorted(pagaie.utils.__all__) == sorted(paddle.utils.__all__)
    for name in ("flatten", "pack_sequence_as", "map_structure", "assert_same_structure", "is_sequence",
                 "to_sequence", "padding_to_same_structure", "hold_mutable_vars", "copy_mutable_vars",
                 "convert_to_list", "convert_shape_to_list", "check_shape", "is_same_shape", "strtobool",
                 "dlpack", "download", "unique_name", "deprecated", "require_version", "try_import",
                 "run_check"):
        assert hasattr(paddle.utils, name) and hasattr(pagaie.utils, name), name
