"""P2POp/batch_isend_irecv, the communication submodule, rpc, sharding and fleet.utils.

Two gloo processes (one spawn for the module) for batched P2P, sharded data parallelism and RPC;
one process compared with real Paddle 3.3.1 for signatures, errors, LocalFS and recompute.
"""
from __future__ import annotations

import inspect
import os
import pickle
import stat
import sys
import textwrap

import numpy as np
import pytest

import pagaie as paddle
import pagaie.distributed as dist
from pagaie.distributed import rpc
from pagaie.distributed.fleet import utils as fleet_utils
from pagaie.distributed.sharding import group_sharded_parallel, save_group_sharded_model
from pagaie.distributed.spawn import free_ports
from tests.distributed import _workers_gaps as W
from tests.reference import paddle_ref, same_exception


@pytest.fixture(scope="module")
def P():
    return paddle_ref()


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("gaps"))
    dist.spawn(W.gaps, args=(d,), nprocs=2, backend="gloo")
    out = []
    for r in range(2):
        with open(os.path.join(d, f"rank{r}.pkl"), "rb") as f:
            out.append(pickle.load(f))
    return d, out


def _params(obj):
    return [(p.name, p.kind.name, None if p.default is inspect.Parameter.empty else repr(p.default))
            for p in inspect.signature(obj).parameters.values()]


# ---- two processes ---------------------------------------------------------------------
def test_batch_isend_irecv(two):
    _, (r0, r1) = two
    np.testing.assert_array_equal(r0["p2p_a"], [1, 2])   # rank 1 sent arange(2) + 1
    np.testing.assert_array_equal(r1["p2p_a"], [0, 1])
    np.testing.assert_allclose(r0["p2p_b"], [10, 11])
    np.testing.assert_allclose(r1["p2p_b"], [0, 1])
    assert r0["p2p_ntasks"] == 4 and set(r0["p2p_tasks"]) == {"Task"}
    # received into a transposed (non-contiguous) view: the peer's matrix lands in it
    np.testing.assert_allclose(r0["p2p_noncontig"], [[2, 2], [3, 4]])
    np.testing.assert_allclose(r1["p2p_noncontig"], [[1, 2], [3, 4]])


def _full_batch(init: dict) -> dict:
    model = W.make_model(paddle)
    model.set_state_dict({k: paddle.to_tensor(v) for k, v in init.items()})
    opt = paddle.optimizer.Adam(learning_rate=W.LR, parameters=model.parameters())
    X, Y = W.training_data()
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    for _ in range(W.STEPS):
        paddle.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        opt.clear_grad()
    return {k: v.numpy() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("level", ["os", "os_g", "p_g_os"])
def test_group_sharded_matches_full_batch_training(two, level):
    _, (r0, r1) = two
    a, b = r0["sharding"][level], r1["sharding"][level]
    want = _full_batch(a["init"])
    for k in a["init"]:
        np.testing.assert_array_equal(a["init"][k], b["init"][k])   # rank 0's weights broadcast
        np.testing.assert_allclose(a["final"][k], b["final"][k], rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(a["final"][k], want[k], rtol=1e-5, atol=1e-6)
        assert not np.allclose(a["final"][k], a["init"][k])
    assert a["types"] == (("GroupShardedStage3", "Adam") if level == "p_g_os"
                          else ("GroupShardedStage2", "GroupShardedOptimizerStage2"))


def test_saved_sharded_model_loads_in_paddle(two, P):
    d, (r0, _) = two
    saved = os.path.join(d, "saved")
    assert sorted(os.listdir(saved)) == ["model.pdmodel", "model.pdopt"]
    theirs = P.load(os.path.join(saved, "model.pdmodel"))
    final = r0["sharding"]["os_g"]["final"]
    assert list(theirs) == list(final)
    for k, v in final.items():
        np.testing.assert_array_equal(theirs[k].numpy(), v)
    opt_state = P.load(os.path.join(saved, "model.pdopt"))
    assert any("moment1" in k for k in opt_state)


def test_rpc_between_two_workers(two):
    _, (r0, r1) = two
    np.testing.assert_allclose(r0["rpc_sync"], [1, 3])     # computed on worker1 from rank 0's tensors
    np.testing.assert_allclose(r1["rpc_sync"], [2, 3])
    assert (r0["rpc_kwargs"], r1["rpc_kwargs"]) == (2, 5)
    assert (r0["rpc_whoami"], r1["rpc_whoami"]) == ("worker1", "worker0")
    assert r0["rpc_infos"] == r1["rpc_infos"] == [("worker0", 0), ("worker1", 1)]
    assert r0["rpc_peer"] == r1["rpc_me"] and r1["rpc_peer"] == r0["rpc_me"]
    assert r0["rpc_me"][2] == "127.0.0.1" and r0["rpc_me"][3] != r1["rpc_me"][3]
    assert (r0["rpc_error"], r1["rpc_error"]) == ("bad from 0", "bad from 1")


# ---- one process: P2POp and the communication namespace ----------------------------
def test_p2p_signatures_match_paddle(P):
    assert _params(dist.P2POp) == _params(P.distributed.P2POp)
    assert _params(dist.batch_isend_irecv) == _params(P.distributed.batch_isend_irecv)
    assert "P2POp" not in dist.__all__ and "batch_isend_irecv" not in dist.__all__   # as in Paddle


def test_p2p_errors_match_paddle(P):
    t = paddle.ones([2])
    same_exception(lambda p: p.distributed.P2POp(print, t if p is paddle else p.ones([2]), 0))
    same_exception(lambda p: p.distributed.batch_isend_irecv("ops"))
    same_exception(lambda p: p.distributed.batch_isend_irecv([1, 2]))
    exc = same_exception(lambda p: p.distributed.batch_isend_irecv([]))
    assert isinstance(exc, IndexError) and "batch_isend_irecv" in str(exc)
    # alone, there is no peer to talk to
    same_exception(lambda p: p.distributed.batch_isend_irecv(
        [p.distributed.P2POp(p.distributed.isend, p.ones([2]), 0)]))


def test_communication_submodule_names(P):
    ours, theirs = dist.communication, P.distributed.communication
    names = ["all_to_all", "P2POp", "batch_isend_irecv", "destroy_process_group", "get_backend", "get_group",
             "is_initialized", "group", "stream", "alltoall", "alltoall_single", "all_reduce", "isend", "irecv"]
    for n in names:
        a, b = getattr(ours, n), getattr(theirs, n)
        assert inspect.ismodule(a) == inspect.ismodule(b), n
    for sub in ("group", "all_to_all"):
        want = {n for n in dir(getattr(theirs, sub)) if not n.startswith("_") and n[0].islower()
                and callable(getattr(getattr(theirs, sub), n)) and n not in ("annotations",)}
        want -= {"dist", "framework", "paddle", "warnings"}
        assert want <= set(dir(getattr(ours, sub))), (sub, want - set(dir(getattr(ours, sub))))
    assert ours.stream is dist.stream and ours.P2POp is dist.P2POp
    assert ours.group.Group is dist.communication.group.Group is type(dist.get_group())
    assert ours.all_to_all.alltoall is dist.alltoall
    assert ours.is_initialized() == theirs.is_initialized() is False


# ---- rpc --------------------------------------------------------------------------------
def test_rpc_signatures_match_paddle(P):
    assert rpc.__all__ == P.distributed.rpc.__all__
    for n in rpc.__all__:
        assert _params(getattr(rpc, n)) == _params(getattr(P.distributed.rpc, n)), n


def test_rpc_single_worker():
    with pytest.raises(RuntimeError, match="init_rpc"):
        rpc.get_current_worker_info()
    rpc.init_rpc("solo", rank=0, world_size=1, master_endpoint=f"127.0.0.1:{free_ports(1)[0]}")
    try:
        with pytest.raises(RuntimeError, match="already"):
            rpc.init_rpc("solo", rank=0, world_size=1, master_endpoint="127.0.0.1:1")
        assert rpc.rpc_sync("solo", W.remote_add, args=(2, 3)) == 5
        fut = rpc.rpc_async("solo", W.remote_add, kwargs={"a": "x", "b": "y"})
        assert fut.wait() == "xy"
        out = rpc.rpc_sync("solo", W.remote_add, args=(paddle.to_tensor([1.0]), paddle.to_tensor([2.0])))
        assert isinstance(out, paddle.Tensor) and out.tolist() == [3.0]
        with pytest.raises(ValueError, match="boom"):
            rpc.rpc_sync("solo", W.remote_fail, args=("boom",))
        with pytest.raises(ValueError, match="'nobody'"):
            rpc.rpc_sync("nobody", W.remote_add, args=(1, 2))
        with pytest.raises(ValueError, match="'nobody'"):
            rpc.get_worker_info("nobody")
        me = rpc.get_current_worker_info()
        assert (me.name, me.rank, me.ip) == ("solo", 0, "127.0.0.1") and me.port > 0
        assert repr(me) == f"{{name: solo, rank: 0, ip: 127.0.0.1, port: {me.port}}}"
        assert rpc.get_all_worker_infos() == [me] and rpc.get_worker_info("solo") == me
        assert rpc.rpc_sync("solo", W.remote_whoami) == "solo"
    finally:
        rpc.shutdown()
    with pytest.raises(RuntimeError, match="init_rpc"):
        rpc.rpc_sync("solo", W.remote_add, args=(1, 2))


def test_rpc_reads_environment(monkeypatch):
    for k in ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_MASTER_ENDPOINT"):
        monkeypatch.delenv(k, raising=False)
    with pytest.raises(KeyError, match="PADDLE_TRAINER_ID"):
        rpc.init_rpc("w")
    port, worker_port = free_ports(2)
    monkeypatch.setenv("PADDLE_TRAINER_ID", "0")
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "1")
    monkeypatch.setenv("PADDLE_MASTER_ENDPOINT", f"127.0.0.1:{port}")
    monkeypatch.setenv("PADDLE_WORKER_ENDPOINT", f"127.0.0.1:{worker_port}")
    rpc.init_rpc("w")
    try:
        assert tuple(rpc.get_current_worker_info()) == ("w", 0, "127.0.0.1", worker_port)
    finally:
        rpc.shutdown()


# ---- sharding ---------------------------------------------------------------------------
def test_sharding_signatures_match_paddle(P):
    from pagaie.distributed import sharding
    assert sharding.__all__ == P.distributed.sharding.__all__
    for n in sharding.__all__:
        assert _params(getattr(sharding, n)) == _params(getattr(P.distributed.sharding, n)), n


@pytest.mark.parametrize("level", ["os", "os_g", "p_g_os"])
def test_sharding_world_of_one_trains_as_unwrapped(level):
    X, Y = W.training_data()
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    paddle.seed(5)
    ref = W.make_model(paddle)
    model = W.make_model(paddle)
    model.set_state_dict(ref.state_dict())
    model.custom_flag = "kept"
    ref_opt = paddle.optimizer.Momentum(learning_rate=0.1, parameters=ref.parameters())
    opt = paddle.optimizer.Momentum(learning_rate=0.1, parameters=model.parameters())
    wmodel, wopt, scaler = group_sharded_parallel(model, opt, level, sync_buffers=True)
    assert scaler is None and list(wmodel.state_dict()) == list(ref.state_dict())
    for _ in range(3):
        for m, o in ((ref, ref_opt), (wmodel, wopt)):
            paddle.nn.functional.mse_loss(m(x), y).backward()
            o.step()
            o.clear_grad()
    for k, v in ref.state_dict().items():
        np.testing.assert_array_equal(wmodel.state_dict()[k].numpy(), v.numpy())
    assert wopt.get_lr() == 0.1
    assert wmodel.custom_flag == "kept" and wmodel._layer is model   # the wrapped layer's attributes


def test_sharding_optimizer_wrapper():
    model = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    scaler = paddle.amp.GradScaler(init_loss_scaling=4.0)
    wmodel, wopt, wscaler = group_sharded_parallel(model, opt, "os", scaler=scaler)
    assert wscaler is scaler and isinstance(wopt, paddle.optimizer.Optimizer) and wopt._optim is opt
    with pytest.raises(RuntimeError, match="minimize"):
        wopt.minimize(wmodel(paddle.ones([1, 2])).sum())
    wopt.set_lr(0.5)
    assert opt.get_lr() == 0.5 and wopt.local_params == model.parameters()
    wmodel(paddle.ones([3, 2])).sum().backward()
    wopt.step()
    assert wopt.state_dict().keys() == opt.state_dict().keys()


def test_sharding_errors():
    model = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    for args in ((model, opt, "zero3"), ("model", opt, "os"), (model, "opt", "os")):
        with pytest.raises(AssertionError, match="group_sharded_parallel"):
            group_sharded_parallel(*args)


def test_save_group_sharded_model_errors_match_paddle(P, tmp_path):
    afile = tmp_path / "a_file"
    afile.write_text("x")
    same_exception(lambda p: p.distributed.sharding.save_group_sharded_model(
        p.nn.Linear(2, 1), str(tmp_path / ("ours" if p is paddle else "theirs"))))
    same_exception(lambda p: p.distributed.sharding.save_group_sharded_model(p.nn.Linear(2, 1), str(afile)))


def test_save_group_sharded_model_p_g_os(tmp_path, P):
    model = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    wmodel, wopt, _ = group_sharded_parallel(model, opt, "p_g_os")
    wmodel.get_all_parameters()
    save_group_sharded_model(wmodel, str(tmp_path / "out"))
    assert os.listdir(tmp_path / "out") == ["model.pdmodel"]
    loaded = P.load(str(tmp_path / "out" / "model.pdmodel"))
    np.testing.assert_array_equal(loaded["weight"].numpy(), model.weight.numpy())


# ---- fleet.utils ------------------------------------------------------------------------
def test_fleet_utils_names_match_paddle(P):
    theirs = P.distributed.fleet.utils
    assert fleet_utils.__all__ == theirs.__all__
    assert dist.fleet.utils is fleet_utils
    assert _params(fleet_utils.recompute) == _params(theirs.recompute)
    for cls in ("LocalFS", "HDFSClient", "DistributedInfer"):
        a, b = getattr(fleet_utils, cls), getattr(theirs, cls)
        public = sorted(n for n in dir(b) if not n.startswith("_"))
        assert public == sorted(n for n in dir(a) if not n.startswith("_") and n != "pre_commands"), cls
        for n in public + ["__init__"]:
            assert _params(getattr(a, n)) == _params(getattr(b, n)), (cls, n)


def _localfs_script(fs, root: str) -> list:
    j = lambda *p: os.path.join(root, *p)  # noqa: E731
    out = []

    def step(f):
        try:
            out.append(("ok", f()))
        except Exception as exc:  # noqa: BLE001
            out.append(("raise", type(exc).__name__))

    step(lambda: fs.ls_dir(j("missing")))
    step(lambda: fs.list_dirs(j("missing")))
    step(lambda: fs.mkdirs(j("a", "b")))
    step(lambda: fs.touch(j("a", "f.txt")))
    step(lambda: fs.touch(j("a", "f.txt")))
    step(lambda: fs.touch(j("a", "f.txt"), exist_ok=False))
    step(lambda: fs.mkdirs(j("a", "f.txt")))
    step(lambda: (sorted(fs.ls_dir(j("a"))[0]), sorted(fs.ls_dir(j("a"))[1])))
    step(lambda: fs.list_dirs(j("a")))
    step(lambda: (fs.is_file(j("a", "f.txt")), fs.is_dir(j("a")), fs.is_exist(j("a", "zz")), fs.is_file(j("a"))))
    step(lambda: fs.rename(j("a", "f.txt"), j("a", "g.txt")))
    step(lambda: fs.rename(j("a", "nope"), j("a", "x")))
    step(lambda: fs.mv(j("a", "nope"), j("a", "x")))
    step(lambda: fs.touch(j("a", "h.txt")))
    step(lambda: fs.mv(j("a", "g.txt"), j("a", "h.txt")))
    step(lambda: fs.mv(j("a", "g.txt"), j("a", "h.txt"), overwrite=True))
    step(lambda: sorted(fs.ls_dir(j("a"))[1]))
    step(lambda: fs.delete(j("a", "missing")))
    step(lambda: fs.delete(j("a", "h.txt")))
    step(lambda: fs.delete(j("a")))
    step(lambda: fs.is_exist(j("a")))
    step(lambda: fs.need_upload_download())
    step(lambda: fs.upload(j("x"), j("y")))
    step(lambda: fs.download(j("x"), j("y")))
    step(lambda: fs.upload_dir(j("x"), j("y")))
    step(lambda: fs.cat(j("x")))
    return out


def test_localfs_matches_paddle(P, tmp_path):
    ours = _localfs_script(fleet_utils.LocalFS(), str(tmp_path / "ours"))
    theirs = _localfs_script(P.distributed.fleet.utils.LocalFS(), str(tmp_path / "theirs"))
    assert ours == theirs
    assert ("raise", "FSFileExistsError") in ours and ("raise", "NotImplementedError") in ours


_FAKE_HADOOP = """\
#!{python}
# A stand-in for `hadoop fs` over a local directory (HDFS paths are relative to it).
import os, shutil, sys
root = {root!r}
args = [a for a in sys.argv[2:] if not a.startswith("-D")]
cmd, rest = args[0], args[1:]
p = lambda s: os.path.join(root, s.lstrip("/"))
if cmd == "-test":
    f = {{"-e": os.path.exists, "-d": os.path.isdir}}[rest[0]]
    sys.exit(0 if f(p(rest[1])) else 1)
if cmd == "-ls":
    for path in rest:
        names = sorted(os.listdir(p(path))) if os.path.isdir(p(path)) else [""]
        for n in names:
            full = os.path.join(p(path), n) if n else p(path)
            kind = "d" if os.path.isdir(full) else "-"
            size = 0 if kind == "d" else os.path.getsize(full)
            print(kind + "rwxr-xr-x", "3", "u", "g", size, "2024-01-01", "00:00", os.path.join(path, n).rstrip("/"))
elif cmd == "-mkdir":
    os.makedirs(p(rest[-1]), exist_ok=True)
elif cmd == "-touchz":
    open(p(rest[0]), "a").close()
elif cmd == "-cat":
    sys.stdout.write(open(p(rest[0])).read())
elif cmd == "-put":
    dst = p(rest[1])
    target = os.path.join(dst, os.path.basename(rest[0])) if os.path.isdir(dst) else dst
    (shutil.copytree if os.path.isdir(rest[0]) else shutil.copy)(rest[0], target)
elif cmd == "-get":
    shutil.copy(p(rest[0]), rest[1])
elif cmd == "-rm":
    path = p(rest[-1])
    shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
elif cmd == "-mv":
    os.rename(p(rest[0]), p(rest[1]))
else:
    sys.exit(2)
"""


def test_hdfs_client(tmp_path):
    with pytest.raises(NotImplementedError, match="Hadoop"):
        fleet_utils.HDFSClient(str(tmp_path / "nohadoop"), {"fs.default.name": "hdfs://x"})
    home, root, local = tmp_path / "hadoop", tmp_path / "hdfs", tmp_path / "local"
    (home / "bin").mkdir(parents=True)
    root.mkdir()
    local.mkdir()
    exe = home / "bin" / "hadoop"
    exe.write_text(textwrap.dedent(_FAKE_HADOOP.format(python=sys.executable, root=str(root))))
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    fs = fleet_utils.HDFSClient(str(home), {"fs.default.name": "hdfs://x", "hadoop.job.ugi": "u,p"},
                                time_out=200, sleep_inter=10)
    assert fs.need_upload_download() is True and fs.ls_dir("/d") == ([], [])
    fs.mkdirs("/d/sub")
    fs.touch("/d/empty")
    with pytest.raises(fleet_utils.fs.FSFileExistsError):
        fs.touch("/d/empty", exist_ok=False)
    (local / "f.txt").write_text("hello\nworld")
    fs.upload(str(local / "f.txt"), "/d")
    assert fs.ls_dir("/d") == (["sub"], ["empty", "f.txt"]) and fs.list_dirs("/d") == ["sub"]
    assert fs.is_file("/d/f.txt") and fs.is_dir("/d/sub") and not fs.is_exist("/nope")
    assert fs.cat("/d/f.txt") == "hello\nworld" and fs.cat("/d") == ""
    assert fs.list_files_info(["/d/f.txt"]) == [{"path": "/d/f.txt", "size": 11}]
    fs.mv("/d/f.txt", "/d/g.txt")
    with pytest.raises(fleet_utils.fs.FSFileNotExistsError):
        fs.mv("/d/f.txt", "/d/h.txt")
    fs.download("/d/g.txt", str(local / "back.txt"))
    assert (local / "back.txt").read_text() == "hello\nworld"
    fs.delete("/d")
    assert not fs.is_exist("/d")
    with pytest.raises(fleet_utils.fs.FSFileNotExistsError):
        fs.download("/d/g.txt", str(local))


def test_distributed_infer_needs_parameter_servers():
    infer = fleet_utils.DistributedInfer()
    assert infer.origin_main_program is not None and infer.sparse_table_maps is None
    with pytest.raises(NotImplementedError, match="parameter-server"):
        infer.get_dist_infer_program()
    with pytest.raises(NotImplementedError, match="parameter-server"):
        infer.init_distributed_infer_env(None, None)


def _recompute_case(p, weights, use_reentrant=True, x_grad=True):
    from importlib import import_module
    recompute = import_module(p.__name__ + ".distributed.fleet.utils").recompute
    block = p.nn.Sequential(p.nn.Linear(3, 4), p.nn.Tanh(), p.nn.Linear(4, 2))
    block.set_state_dict({k: p.to_tensor(v) for k, v in weights.items()})
    x = p.to_tensor(np.arange(6, dtype="float32").reshape(2, 3) / 6, stop_gradient=not x_grad)

    def fn(inp, scale=2.0):
        h = block(inp)
        return h * scale, h.sum()

    a, b = recompute(fn, x, scale=3.0, use_reentrant=use_reentrant)
    out = [a.numpy(), b.numpy(), a.stop_gradient]
    if not a.stop_gradient:
        (a.sum() + b).backward()
        out += [block[0].weight.grad.numpy(), block[2].bias.grad.numpy()]
        out += [x.grad.numpy()] if x_grad else []
    return out


@pytest.mark.parametrize("use_reentrant,x_grad", [(True, True), (False, True), (True, False), (False, False)])
def test_recompute_matches_paddle(P, use_reentrant, x_grad):
    rng = np.random.RandomState(3)
    weights = {"0.weight": rng.rand(3, 4).astype("float32"), "0.bias": rng.rand(4).astype("float32"),
               "2.weight": rng.rand(4, 2).astype("float32"), "2.bias": rng.rand(2).astype("float32")}
    ours = _recompute_case(paddle, weights, use_reentrant, x_grad)
    theirs = _recompute_case(P, weights, use_reentrant, x_grad)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_recompute_errors_match_paddle(P):
    def kw_only(p):
        def f(a, *, k=1):
            return a * k
        return p.distributed.fleet.utils.recompute(f, p.ones([1]), k=2)

    exc = same_exception(kw_only)
    assert "use_reentrant" in str(exc)

    def unknown(p):
        def f(a, b=2):
            return a * b
        return p.distributed.fleet.utils.recompute(f, p.ones([1]), c=2)

    same_exception(unknown)


def test_recompute_replays_dropout():
    paddle.seed(7)
    block = paddle.nn.Sequential(paddle.nn.Linear(8, 8), paddle.nn.Dropout(0.5), paddle.nn.Linear(8, 1))
    x = paddle.rand([4, 8])
    x.stop_gradient = False
    paddle.seed(11)
    block(x).sum().backward()
    want = block[0].weight.grad.numpy().copy()
    block[0].weight.clear_grad()
    paddle.seed(11)
    fleet_utils.recompute(block, x).sum().backward()
    np.testing.assert_allclose(block[0].weight.grad.numpy(), want, rtol=1e-6)
