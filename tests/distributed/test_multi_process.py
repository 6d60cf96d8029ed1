"""Two local CPU processes over gloo: collectives, point-to-point, DataParallel, spawn errors, launch."""
from __future__ import annotations

import os
import pathlib
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pagaie as paddle
import pagaie.distributed as dist
from tests.distributed import _workers

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _load(outdir, n=2):
    out = []
    for r in range(n):
        with open(os.path.join(outdir, f"rank{r}.pkl"), "rb") as f:
            out.append(pickle.load(f))
    return out


@pytest.fixture(scope="module")
def coll(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("coll"))
    dist.spawn(_workers.collectives, args=(d,), nprocs=2, backend="gloo")
    return _load(d)


def test_environment(coll):
    r0, r1 = coll
    assert (r0["rank"], r1["rank"], r0["world"], r0["initialized"]) == (0, 1, 2, True)
    assert r0["group"] == "rank: 0, nranks: 2, id: 0, ranks: 0, 1; name: _default_pg"
    assert r1["group"] == "rank: 1, nranks: 2, id: 0, ranks: 0, 1; name: _default_pg"
    assert r0["backend"] == "GLOO"
    assert r0["env"]["PADDLE_TRAINERS_NUM"] == "2" and r1["env"]["PADDLE_TRAINER_ID"] == "1"
    eps = r0["env"]["PADDLE_TRAINER_ENDPOINTS"].split(",")
    assert [r0["env"]["PADDLE_CURRENT_ENDPOINT"], r1["env"]["PADDLE_CURRENT_ENDPOINT"]] == eps
    assert r0["after_destroy"] is False and r0["task_type"] == "Task"


def test_all_reduce_ops(coll):
    # rank r holds [r + 1, 2 (r + 1)]
    expect = {"SUM": [3, 6], "MAX": [2, 4], "MIN": [1, 2], "PROD": [2, 8], "AVG": [1.5, 3]}
    for res in coll:
        for name, want in expect.items():
            np.testing.assert_allclose(res[f"all_reduce_{name}"], want)
        np.testing.assert_allclose(res["all_reduce_async"][0], [3, 6])
        assert res["all_reduce_async"][1]
        vals, dtype = res["all_reduce_AVG_int"]
        assert dtype == "paddle.int64" and vals.tolist() == [1, 15]
        np.testing.assert_allclose(res["stream_all_reduce"], [3, 6])


def test_gather_family(coll):
    r0, r1 = coll
    for res in coll:
        np.testing.assert_allclose(res["all_gather"], [[1, 2], [2, 4]])
        assert res["all_gather_object"] == [{"rank": 0}, {"rank": 1}]
        np.testing.assert_allclose(res["broadcast"], [2, 4])
        assert res["broadcast_object_list"] == ["from1", 1]
        np.testing.assert_allclose(res["alltoall"], [[10 * 0 + res["rank"]], [10 * 1 + res["rank"]]])
        np.testing.assert_allclose(res["alltoall_single"], [res["rank"], 10 + res["rank"]])
        # the same exchanges by sends and receives, for backends without all_to_all
        np.testing.assert_allclose(res["alltoall_p2p"], res["alltoall"])
    # rank 0 sends [0] to itself and [1, 2] to rank 1; rank 1 sends [10, 11] to 0, [12] to 1
    np.testing.assert_allclose(coll[0]["alltoall_single_p2p"], [0, 10, 11])
    np.testing.assert_allclose(coll[1]["alltoall_single_p2p"], [1, 2, 12])
    np.testing.assert_allclose(r0["reduce"], [3, 6])
    np.testing.assert_allclose(r0["scatter"], [1, 2])
    np.testing.assert_allclose(r1["scatter"], [3, 4])
    assert r0["scatter_object_list"] == [{"a": 0}] and r1["scatter_object_list"] == [{"a": 1}]
    np.testing.assert_allclose(r0["gather"], [[1, 2], [2, 4]])
    # reduce_scatter: sum over ranks of (r + 1) * chunk_i -> 3 * chunk_i on rank i
    np.testing.assert_allclose(r0["reduce_scatter"], [3, 6])
    np.testing.assert_allclose(r1["reduce_scatter"], [9, 12])


def test_point_to_point_and_groups(coll):
    r0, r1 = coll
    np.testing.assert_allclose(r1["p2p"], [7, 8])
    np.testing.assert_allclose(r0["p2p"], [14, 16])
    assert r1["recv_object_list"] == [{"hello": 1}]
    for res in coll:
        vals, grank, nranks, gid, found = res["group_all_reduce"]
        np.testing.assert_allclose(vals, [3, 6])
        assert (grank, nranks, found) == (res["rank"], 2, True) and gid >= 10
    # new_group([1]): rank 0 is not a member (no-op, rank -1); rank 1 reduces alone
    np.testing.assert_allclose(r0["group1"][0], [1, 2])
    assert r0["group1"][1:] == (-1, False, -1)
    np.testing.assert_allclose(r1["group1"][0], [2, 4])
    assert r1["group1"][1:] == (0, True, 0)


def test_data_parallel_matches_full_batch(tmp_path):
    steps, lr = 3, 0.5
    dist.spawn(_workers.data_parallel, args=(str(tmp_path), steps, lr), nprocs=2, backend="gloo")
    r0, r1 = _load(str(tmp_path))
    assert r0["keys"] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert r0["named"] == ["_layers.0.weight", "_layers.0.bias", "_layers.2.weight", "_layers.2.bias"]
    for k in r0["keys"]:   # rank 0's initial weights were broadcast
        np.testing.assert_array_equal(r0["init"][k], r1["init"][k])
        np.testing.assert_allclose(r0["final"][k], r1["final"][k], rtol=1e-6, atol=1e-7)
    # the same training on the full batch in one process
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.Tanh(), paddle.nn.Linear(3, 1))
    model.set_state_dict({k: paddle.to_tensor(v) for k, v in r0["init"].items()})
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=model.parameters())
    rng = np.random.RandomState(0)
    x, y = paddle.to_tensor(rng.rand(8, 4).astype("float32")), paddle.to_tensor(rng.rand(8, 1).astype("float32"))
    for _ in range(steps):
        paddle.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        opt.clear_grad()
    for k, v in model.state_dict().items():
        np.testing.assert_allclose(r0["final"][k], v.numpy(), rtol=1e-5, atol=1e-6)
    assert not np.allclose(r0["final"]["0.weight"], r0["init"]["0.weight"])
    # no_sync accumulates locally; the next synced backward averages the accumulated total
    assert not np.allclose(r0["grad_no_sync"], r1["grad_no_sync"])
    np.testing.assert_allclose(r0["grad_after_sync"], r1["grad_after_sync"], rtol=1e-6)
    np.testing.assert_allclose(r0["grad_after_sync"], r0["grad_no_sync"] + r1["grad_no_sync"], rtol=1e-5)


def test_spawn_reports_child_error(tmp_path):
    with pytest.raises(Exception, match="boom from rank 1"):
        dist.spawn(_workers.failing, args=(str(tmp_path),), nprocs=2)


def test_launch_module(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import os, sys
        import pagaie as paddle
        import pagaie.distributed as dist
        dist.init_parallel_env()
        x = paddle.to_tensor([float(dist.get_rank() + 1)])
        dist.all_reduce(x)
        keys = ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_CURRENT_ENDPOINT", "PADDLE_MASTER")
        print("RESULT", dist.get_rank(), dist.get_world_size(), x.tolist(), sys.argv[1:],
              all(os.environ.get(k) for k in keys), os.environ["PADDLE_TRAINER_ENDPOINTS"].count(","))
    """))
    log_dir = tmp_path / "log"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "pagaie.distributed.launch", "--nproc_per_node", "2",
                           "--log_dir", str(log_dir), str(script), "--lr", "0.1"],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "RESULT 0 2 [3.0] ['--lr', '0.1'] True 1" in proc.stdout
    assert "RESULT 1 2 [3.0] ['--lr', '0.1'] True 1" in (log_dir / "workerlog.1").read_text()
    assert "RESULT 0 2" in (log_dir / "workerlog.0").read_text()


def test_launch_propagates_failure(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text("import os, sys\nsys.exit(3 if os.environ['PADDLE_TRAINER_ID'] == '1' else 0)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "pagaie.distributed.launch", "--nproc_per_node", "2",
                           "--log_dir", str(tmp_path / "log"), str(script)],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 3
