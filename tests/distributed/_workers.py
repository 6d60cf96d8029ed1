"""Functions run in each process of the multi-process tests (importable by spawned children)."""
from __future__ import annotations

import os
import pickle

import numpy as np


def _dump(outdir: str, rank: int, results: dict) -> None:
    with open(os.path.join(outdir, f"rank{rank}.pkl"), "wb") as f:
        pickle.dump(results, f)


def collectives(outdir: str) -> None:
    import pagaie as paddle
    import pagaie.distributed as dist

    group = dist.init_parallel_env()
    r = dist.get_rank()
    res: dict = {"rank": r, "world": dist.get_world_size(), "initialized": dist.is_initialized(),
                 "group": repr(group), "backend": dist.get_backend(),
                 "env": {k: os.environ[k] for k in ("PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM",
                                                   "PADDLE_TRAINER_ENDPOINTS", "PADDLE_CURRENT_ENDPOINT")}}

    def base():
        return paddle.to_tensor([r + 1.0, 2.0 * (r + 1)])

    for name in ("SUM", "MAX", "MIN", "PROD", "AVG"):
        x = base()
        task = dist.all_reduce(x, op=getattr(dist.ReduceOp, name))
        res[f"all_reduce_{name}"] = x.numpy()
        res["task_type"] = type(task).__name__
    x = paddle.to_tensor([r + 1, 10 * (r + 1)])
    dist.all_reduce(x, op=dist.ReduceOp.AVG)
    res["all_reduce_AVG_int"] = (x.numpy(), str(x.dtype))
    x = base()
    task = dist.all_reduce(x, sync_op=False)
    task.wait()
    res["all_reduce_async"] = (x.numpy(), task.is_completed())
    out = []
    dist.all_gather(out, base())
    res["all_gather"] = [o.numpy() for o in out]
    objs = []
    dist.all_gather_object(objs, {"rank": r})
    res["all_gather_object"] = objs
    x = base()
    dist.broadcast(x, src=1)
    res["broadcast"] = x.numpy()
    lst = [f"from{r}", r]
    dist.broadcast_object_list(lst, src=1)
    res["broadcast_object_list"] = lst
    x = base()
    dist.reduce(x, dst=0)
    res["reduce"] = x.numpy()
    x = paddle.zeros([2])
    dist.scatter(x, [paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0])] if r == 0 else None, src=0)
    res["scatter"] = x.numpy()
    got = []
    dist.scatter_object_list(got, [{"a": 0}, {"a": 1}] if r == 0 else None, src=0)
    res["scatter_object_list"] = got
    gl = [] if r == 0 else None
    dist.gather(base(), gl, dst=0)
    res["gather"] = [g.numpy() for g in gl] if r == 0 else None
    out = []
    dist.alltoall(out, [paddle.to_tensor([10.0 * r]), paddle.to_tensor([10.0 * r + 1])])
    res["alltoall"] = [o.numpy() for o in out]
    o = paddle.zeros([2])
    dist.alltoall_single(o, paddle.to_tensor([10.0 * r, 10.0 * r + 1]))
    res["alltoall_single"] = o.numpy()
    res.update(_alltoall_without_backend_support(paddle, dist, r))
    o = paddle.zeros([2])
    dist.reduce_scatter(o, [paddle.to_tensor([1.0, 2.0]) * (r + 1), paddle.to_tensor([3.0, 4.0]) * (r + 1)])
    res["reduce_scatter"] = o.numpy()
    if r == 0:
        dist.send(paddle.to_tensor([7.0, 8.0]), dst=1)
        t = paddle.zeros([2])
        dist.irecv(t, src=1).wait()
        res["p2p"] = t.numpy()
        dist.send_object_list([{"hello": 1}], dst=1)
    else:
        t = paddle.zeros([2])
        dist.recv(t, src=0)
        res["p2p"] = t.numpy()
        dist.isend(t * 2, dst=0).wait()
        objs = [None]
        dist.recv_object_list(objs, src=0)
        res["recv_object_list"] = objs
    g01 = dist.new_group([0, 1])
    x = base()
    dist.all_reduce(x, group=g01)
    res["group_all_reduce"] = (x.numpy(), g01.rank, g01.nranks, g01.id, dist.get_group(g01.id) is g01)
    g1 = dist.new_group([1])
    x = base()
    dist.all_reduce(x, group=g1)
    res["group1"] = (x.numpy(), g1.rank, g1.is_member(), dist.get_rank(g1))
    x = base()
    dist.stream.all_reduce(x, use_calc_stream=True)
    res["stream_all_reduce"] = x.numpy()
    dist.barrier()
    dist.destroy_process_group()
    res["after_destroy"] = dist.is_initialized()
    _dump(outdir, r, res)


def data_parallel(outdir: str, steps: int, lr: float) -> None:
    import pagaie as paddle
    import pagaie.distributed as dist

    dist.init_parallel_env()
    r = dist.get_rank()
    paddle.seed(100 + r)   # different initial weights per rank: DataParallel broadcasts rank 0's
    model = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.Tanh(), paddle.nn.Linear(3, 1))
    dp = paddle.DataParallel(model)
    res: dict = {"init": {k: v.numpy().copy() for k, v in dp.state_dict().items()},
                 "keys": list(dp.state_dict()), "named": [n for n, _ in dp.named_parameters()]}
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=dp.parameters())
    rng = np.random.RandomState(0)
    X = rng.rand(8, 4).astype("float32")
    Y = rng.rand(8, 1).astype("float32")
    x, y = paddle.to_tensor(X[4 * r:4 * r + 4]), paddle.to_tensor(Y[4 * r:4 * r + 4])
    for _ in range(steps):
        loss = paddle.nn.functional.mse_loss(dp(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    res["final"] = {k: v.numpy().copy() for k, v in dp.state_dict().items()}
    with dp.no_sync():
        paddle.nn.functional.mse_loss(dp(x), y).backward()
    res["grad_no_sync"] = dp.parameters()[0].grad.numpy().copy()
    paddle.nn.functional.mse_loss(dp(x), y).backward()
    res["grad_after_sync"] = dp.parameters()[0].grad.numpy()
    _dump(outdir, r, res)


def failing(outdir: str) -> None:
    import pagaie.distributed as dist
    if dist.ParallelEnv().rank == 1:
        raise ValueError("boom from rank 1")


def _alltoall_without_backend_support(paddle, dist, r: int) -> dict:
    """alltoall/alltoall_single where the backend lacks all_to_all (gloo before torch 2.12)."""
    import torch.distributed as tdist

    def unsupported(*args, **kwargs):
        raise RuntimeError("Backend gloo does not support alltoall")

    saved = tdist.all_to_all, tdist.all_to_all_single
    tdist.all_to_all = tdist.all_to_all_single = unsupported
    try:
        out = []
        dist.alltoall(out, [paddle.to_tensor([10.0 * r]), paddle.to_tensor([10.0 * r + 1])])
        o = paddle.zeros([3])
        dist.alltoall_single(o, paddle.to_tensor([10.0 * r, 10.0 * r + 1, 10.0 * r + 2]),
                             in_split_sizes=[1, 2] if r == 0 else [2, 1],
                             out_split_sizes=[1, 2] if r == 0 else [2, 1])
        return {"alltoall_p2p": [x.numpy() for x in out], "alltoall_single_p2p": o.numpy()}
    finally:
        tdist.all_to_all, tdist.all_to_all_single = saved
