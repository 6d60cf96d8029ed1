"""Run in each of two processes by test_distributed_gaps.py: batched P2P, group sharding, RPC."""
from __future__ import annotations

import os
import pickle

import numpy as np

STEPS, LR = 3, 0.1


def remote_add(a, b):
    """Called by RPC on the other worker."""
    return a + b


def remote_whoami():
    from pagaie.distributed import rpc
    return rpc.get_current_worker_info().name


def remote_fail(msg):
    raise ValueError(msg)


def training_data():
    rng = np.random.RandomState(0)
    return rng.rand(8, 4).astype("float32"), rng.rand(8, 1).astype("float32")


def make_model(paddle):
    return paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.Tanh(), paddle.nn.Linear(3, 1))


def _p2p(paddle, dist, r: int) -> dict:
    peer = 1 - r
    send_a, send_b = paddle.arange(2) + r, paddle.to_tensor([10.0 * r, 10.0 * r + 1])
    recv_a, recv_b = paddle.zeros([2], dtype=send_a.dtype), paddle.zeros([2])
    ops = [dist.P2POp(dist.isend, send_a, peer), dist.P2POp(dist.irecv, recv_a, peer),
           dist.P2POp(dist.isend, send_b, peer), dist.P2POp(dist.irecv, recv_b, peer)]
    tasks = dist.batch_isend_irecv(ops)
    for t in tasks:
        t.wait()
    # the alias under paddle.distributed.communication, with a non-contiguous receive buffer
    big = paddle.zeros([2, 2])
    col = big.transpose([1, 0])
    comm = dist.communication
    tasks2 = comm.batch_isend_irecv([comm.P2POp(dist.isend, paddle.to_tensor([[1.0 + r, 2.0], [3.0, 4.0]]), peer),
                                     comm.P2POp(dist.irecv, col, peer)])
    for t in tasks2:
        t.wait()
    return {"p2p_a": recv_a.numpy(), "p2p_b": recv_b.numpy(), "p2p_tasks": [type(t).__name__ for t in tasks],
            "p2p_ntasks": len(tasks), "p2p_noncontig": col.numpy()}


def _sharding(paddle, dist, r: int, outdir: str) -> dict:
    from pagaie.distributed.sharding import group_sharded_parallel, save_group_sharded_model
    X, Y = training_data()
    x, y = paddle.to_tensor(X[4 * r:4 * r + 4]), paddle.to_tensor(Y[4 * r:4 * r + 4])
    res: dict = {}
    for level in ("os", "os_g", "p_g_os"):
        paddle.seed(100 + r)   # different weights per rank: the wrapper starts from rank 0's
        model = make_model(paddle)
        opt = paddle.optimizer.Adam(learning_rate=LR, parameters=model.parameters())
        model, opt, _ = group_sharded_parallel(model, opt, level)
        init = {k: v.numpy().copy() for k, v in model.state_dict().items()}
        for _ in range(STEPS):
            paddle.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
            opt.clear_grad()
        res[level] = {"init": init, "final": {k: v.numpy().copy() for k, v in model.state_dict().items()},
                      "types": (type(model).__name__, type(opt).__name__)}
        if level == "os_g" and r == 0:
            save_group_sharded_model(model, os.path.join(outdir, "saved"), opt)
    return {"sharding": res}


def _rpc(paddle, dist, r: int) -> dict:
    from pagaie.distributed import rpc
    from pagaie.distributed.spawn import free_ports
    port = [free_ports(1)[0] if r == 0 else None]
    dist.broadcast_object_list(port, src=0)
    rpc.init_rpc(f"worker{r}", rank=r, world_size=2, master_endpoint=f"127.0.0.1:{port[0]}")
    peer = f"worker{1 - r}"
    res = {"rpc_sync": rpc.rpc_sync(peer, remote_add, args=(paddle.to_tensor([1.0, 2.0]),
                                                             paddle.to_tensor([float(r), 1.0]))).numpy(),
           "rpc_kwargs": rpc.rpc_sync(peer, remote_add, kwargs={"a": 2, "b": 3 * r}),
           "rpc_whoami": rpc.rpc_async(peer, remote_whoami).wait(),
           "rpc_infos": [(w.name, w.rank) for w in rpc.get_all_worker_infos()],
           "rpc_me": tuple(rpc.get_current_worker_info()),
           "rpc_peer": tuple(rpc.get_worker_info(peer))}
    fut = rpc.rpc_async(peer, remote_fail, args=(f"bad from {r}",))
    try:
        fut.wait()
        res["rpc_error"] = None
    except ValueError as exc:
        res["rpc_error"] = str(exc)
    rpc.shutdown()
    return res


def gaps(outdir: str) -> None:
    import pagaie as paddle
    import pagaie.distributed as dist

    dist.init_parallel_env()
    r = dist.get_rank()
    res: dict = {"rank": r}
    res.update(_p2p(paddle, dist, r))
    res.update(_sharding(paddle, dist, r, outdir))
    res.update(_rpc(paddle, dist, r))
    dist.barrier()
    with open(os.path.join(outdir, f"rank{r}.pkl"), "wb") as f:
        pickle.dump(res, f)
