"""Session-9 sweep: paddle.distributed in one process, paddle.device, framework utilities.

Real Paddle cannot run a collective without a launcher (its global group is uninitialised), so
the collective results below are pinned to what two gloo processes of real Paddle 3.3.1 return
(``python -m paddle.distributed.launch --nproc_per_node 2``), read for a world of one; the
exception types are compared with real Paddle directly where it raises before communicating.
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pagaie as paddle
import pagaie.distributed as dist
from tests.reference import paddle_ref, same_exception

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _no_torch_words(exc: BaseException) -> None:
    for word in ("torch", "aten::", "c10::", "size of tensor a"):
        assert word not in str(exc), str(exc)


# ---- collectives: the Tensor forms Paddle's plain APIs accept (they forward to stream.*) ------------
def test_all_gather_into_a_tensor():
    out = paddle.zeros([1, 2])
    task = dist.all_gather(out, paddle.to_tensor([1.0, 2.0]))
    assert task.is_completed() and out.tolist() == [[1.0, 2.0]]
    flat = paddle.zeros([1])
    dist.all_gather(flat, paddle.to_tensor(3.0))  # 0-D input: one element per rank
    assert flat.tolist() == [3.0]
    s = paddle.zeros([2])
    dist.stream.all_gather(s, paddle.to_tensor([4.0, 5.0]), use_calc_stream=True)
    assert s.tolist() == [4.0, 5.0]


def test_scatter_reduce_scatter_alltoall_accept_tensors():
    x = paddle.zeros([2])
    dist.scatter(x, paddle.to_tensor([5.0, 6.0]), src=0)
    assert x.tolist() == [5.0, 6.0]
    y = paddle.zeros([2])
    dist.reduce_scatter(y, paddle.to_tensor([7.0, 8.0]))
    assert y.tolist() == [7.0, 8.0]
    z = paddle.zeros([2])
    dist.alltoall(z, paddle.to_tensor([1.0, 9.0]))
    assert z.tolist() == [1.0, 9.0]
    with pytest.raises(ValueError) as e:
        dist.scatter(paddle.zeros([2]), paddle.to_tensor(5.0))  # a 0-D tensor cannot be split
    assert "paddle.distributed.scatter" in str(e.value)


@pytest.mark.parametrize("call", [
    lambda: dist.all_gather(paddle.zeros([3]), paddle.to_tensor([1.0, 2.0])),
    lambda: dist.all_gather([paddle.zeros([3])], paddle.to_tensor([1.0, 2.0])),
    lambda: dist.all_gather([paddle.zeros([2], "int64")], paddle.to_tensor([1.0, 2.0])),
    lambda: dist.scatter(paddle.zeros([3]), [paddle.to_tensor([1.0, 2.0])]),
    lambda: dist.scatter(paddle.zeros([2], "int64"), [paddle.to_tensor([1.0, 2.0])]),
    lambda: dist.gather(paddle.to_tensor([1.0, 2.0]), [paddle.zeros([5])], dst=0),
    lambda: dist.reduce_scatter(paddle.zeros([3]), [paddle.to_tensor([1.0, 2.0])]),
    lambda: dist.alltoall([paddle.zeros([2]), paddle.zeros([2])], [paddle.to_tensor([1.0, 2.0])]),
    lambda: dist.alltoall_single(paddle.zeros([2]), paddle.to_tensor([1.0, 2.0]), [1, 1], [1, 1]),
], ids=["ag-tensor", "ag-shape", "ag-dtype", "scatter-shape", "scatter-dtype", "gather-shape", "rs-shape",
        "a2a-count", "a2a-splits"])
def test_mismatched_buffers_raise_runtime_error_without_torch_text(call):
    # gloo under real Paddle enforces sizes with a RuntimeError; ValueError is kept for older callers
    with pytest.raises(RuntimeError) as e:
        call()
    assert isinstance(e.value, ValueError)
    _no_torch_words(e.value)
    assert "paddle.distributed." in str(e.value)


def test_reduce_scatter_bad_op_is_runtime_error_like_paddle():
    # Paddle checks reduce_scatter's op before anything else, with a RuntimeError
    same_exception(lambda P: P.distributed.reduce_scatter(P.zeros([2]), [P.ones([2])], op=9))
    with pytest.raises(ValueError):  # all_reduce / reduce keep ValueError, as in Paddle
        dist.all_reduce(paddle.ones([1]), op=9)


def test_gather_without_list_on_dst_asserts_like_paddle():
    same_exception(lambda P: P.distributed.gather(P.ones([2]), None, dst=0))


@pytest.mark.parametrize("args", [(None, "list"), ("list", None), ("tensor", "list"), ("list", "tensor")])
def test_alltoall_argument_kinds_checked_like_paddle(args):
    # Paddle checks these before looking for a process group: RuntimeError
    def call(P):
        make = {"list": lambda: [P.ones([2])], "tensor": lambda: P.ones([2]), None: lambda: None}
        return P.distributed.alltoall(make[args[0]](), make[args[1]]())
    same_exception(call)


@pytest.mark.parametrize("api", ["broadcast", "send", "recv"])
def test_stream_calc_stream_needs_sync_op_for_broadcast_and_p2p(api):
    err = same_exception(lambda P: getattr(P.distributed.stream, api)(P.ones([2]), 0, sync_op=False,
                                                                       use_calc_stream=True))
    assert "sync op" in str(err)


def test_gather_list_of_wrong_length_asserts():
    with pytest.raises(AssertionError) as e:
        dist.gather(paddle.ones([2]), [paddle.zeros([2]), paddle.zeros([2])], dst=0)
    assert isinstance(e.value, RuntimeError) and "gather_list must hold 1" in str(e.value)


@pytest.mark.parametrize("kwargs", [dict(size=(2, 2), operation="conv"), dict(size=3, operation="linear"),
                                    dict(size=(1, 2, 3), operation="linear")])
def test_split_bad_arguments_assert_like_paddle(kwargs):
    same_exception(lambda P: P.distributed.split(P.ones([2, 2]), **kwargs))


def test_distributed_extra_names():
    P = paddle_ref()
    assert dist.in_auto_parallel_align_mode() == P.distributed.in_auto_parallel_align_mode() is False
    assert dist.enable_auto_dp() is None
    assert dist.group_sharded_parallel is dist.sharding.group_sharded_parallel
    assert dist.save_group_sharded_model is dist.sharding.save_group_sharded_model


# ---- paddle.device without a GPU -------------------------------------------------------------------
@pytest.mark.skipif(paddle.device.cuda.device_count() > 0, reason="needs a machine without a GPU")
@pytest.mark.parametrize("api", ["synchronize", "Stream", "Event"])
def test_cuda_stream_apis_raise_runtime_error_without_gpu(api):
    # Paddle's CPU build: RuntimeError (Unavailable); the memory queries raise ValueError (kept)
    same_exception(lambda P: getattr(P.device.cuda, api)())
    same_exception(lambda P: P.device.cuda.max_memory_allocated())


# ---- framework utilities ---------------------------------------------------------------------------
def test_framework_pir_queries_match_paddle():
    P = paddle_ref()
    for name in ("in_pir_mode", "in_dynamic_or_pir_mode", "use_pir_api"):
        assert getattr(paddle.framework, name)() == getattr(P.framework, name)(), name
    paddle.enable_static()
    try:
        assert paddle.framework.in_pir_mode() is True and paddle.framework.in_dynamic_or_pir_mode() is True
    finally:
        paddle.disable_static()
    assert paddle.framework.Program is paddle.static.Program


def test_dlpack_device_type_enum_matches_paddle():
    P = paddle_ref()
    from pagaie.utils.dlpack import DLDeviceType
    theirs = P.utils.dlpack.DLDeviceType
    assert [(m.name, int(m)) for m in DLDeviceType] == [(m.name, int(m)) for m in theirs]
    assert DLDeviceType(paddle.ones([1]).__dlpack_device__()[0]) is DLDeviceType.kDLCPU


def test_cpp_extension_helpers_match_paddle(tmp_path, monkeypatch):
    P = paddle_ref()
    ours, theirs = paddle.utils.cpp_extension, P.utils.cpp_extension
    assert sorted(ours.__all__) == sorted(theirs.__all__)
    for fn in ("CppExtension", "CUDAExtension"):
        a = getattr(ours, fn)(["ops/relu_op.cc", "relu_op.cu", "other.cc"])
        b = getattr(theirs, fn)(["ops/relu_op.cc", "relu_op.cu", "other.cc"])
        assert (a.name, a.sources) == (b.name, b.sources)
        assert getattr(ours, fn)(["x.cc"], name="custom").name == "custom"
        same_exception(lambda M, fn=fn: getattr(M.utils.cpp_extension, fn)([]))
    monkeypatch.setenv("PADDLE_EXTENSION_DIR", str(tmp_path / "ext"))
    assert ours.get_build_directory() == theirs.get_build_directory() == str(tmp_path / "ext")
    with pytest.raises(NotImplementedError, match="cpp_extension.load"):
        ours.load(name="custom_relu", sources=["relu_op.cc"])
    with pytest.raises(NotImplementedError, match="cpp_extension.setup"):
        ours.setup(name="custom_ops")


# ---- two gloo processes: the Tensor forms of the plain collectives ----------------------------------
_WORKER = textwrap.dedent('''
    import importlib, json, os, sys, warnings
    warnings.simplefilter("ignore")
    P = importlib.import_module(sys.argv[1])
    dist = P.distributed
    dist.init_parallel_env()
    r = dist.get_rank()
    T = P.to_tensor([1.0, 2.0]) * (r + 1)
    out = {}
    o = P.zeros([2, 2]); dist.all_gather(o, T); out["all_gather"] = o.tolist()
    o = P.zeros([2]); dist.scatter(o, P.to_tensor([1.0, 2.0, 3.0, 4.0]) if r == 0 else None, src=0)
    out["scatter"] = o.tolist()
    got = [P.zeros([]), P.zeros([])]
    dist.all_gather(got, P.to_tensor(float(r)))
    out["ag0d"] = [g.tolist() for g in got]
    with open(os.path.join(sys.argv[2], f"{sys.argv[1]}_{r}.json"), "w") as f:
        json.dump(out, f)
''')


@pytest.mark.slow
def test_two_process_tensor_forms_match_paddle_launch(tmp_path):
    import json
    paddle_ref()
    script = tmp_path / "worker.py"
    script.write_text(_WORKER)
    outdir = tmp_path / "out"
    outdir.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PADDLE_DISTRI_BACKEND="gloo")
    for k in [k for k in env if k.startswith("PADDLE_TRAINER") or k == "PADDLE_RANK_IN_NODE"]:
        del env[k]
    for module in ("paddle", "pagaie"):
        proc = subprocess.run([sys.executable, "-m", f"{module}.distributed.launch", "--nproc_per_node", "2",
                               "--log_dir", str(tmp_path / f"log_{module}"), str(script), module, str(outdir)],
                              capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=150)
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    for r in (0, 1):
        theirs = json.loads((outdir / f"paddle_{r}.json").read_text())
        ours = json.loads((outdir / f"pagaie_{r}.json").read_text())
        assert ours == theirs, r
    np.testing.assert_equal(theirs["all_gather"], [[1.0, 2.0], [2.0, 4.0]])


@pytest.mark.parametrize("layers", [3, "linear"])
def test_data_parallel_non_layer_error_matches_paddle(layers):
    exc = same_exception(lambda P: P.DataParallel(layers))
    assert isinstance(exc, TypeError)  # kept for callers that catch TypeError


def test_hybrid_group_stage_attributes_match_paddle():
    P = paddle_ref()

    def info(M):
        M.distributed.fleet.init(is_collective=True)
        h = M.distributed.fleet.get_hybrid_communicate_group()
        return [h.stage_id, h.is_first_stage, h.is_last_stage, h.get_rank_from_stage(0),
                h.get_moe_sharding_parallel_world_size(), h.get_stage_id()]
    assert info(paddle) == info(P) == [0, True, True, 0, 0, 0]
    from pagaie.distributed import fleet
    h = fleet.HybridCommunicateGroup(fleet.CommunicateTopology())
    assert h.get_sep_parallel_group_src_rank() == 0


def test_fleet_init_non_strategy_error_matches_paddle():
    exc = same_exception(lambda P: P.distributed.fleet.init(is_collective=True, strategy=3))
    assert isinstance(exc, TypeError)


def test_named_random_seed_generators_match_paddle():
    P = paddle_ref()
    for M in (paddle, P):
        r = M.framework.random
        assert r.set_random_seed_generator("s9_h6_rng", 11) is None
        g = r.get_random_seed_generator("s9_h6_rng")
        assert type(g).__name__ == "Generator" and g.initial_seed() == 11
    same_exception(lambda M: M.framework.random.set_random_seed_generator("s9_h6_rng", 3))  # exists already
    same_exception(lambda M: M.framework.random.get_random_seed_generator("s9_h6_missing"))
    same_exception(lambda M: M.framework.random.set_random_seed_generator(3, 3))
    same_exception(lambda M: M.framework.random.set_random_seed_generator("s9_h6_neg", -1))
