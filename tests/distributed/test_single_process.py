"""One process (world of one) compared with real Paddle 3.3.1, plus pagaie's identity collectives."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie as paddle
import pagaie.distributed as dist
from pagaie.distributed import fleet
from tests.reference import paddle_ref


@pytest.fixture(scope="module")
def P():
    return paddle_ref()


def test_environment_matches_paddle(P):
    pd = P.distributed
    assert dist.get_rank() == pd.get_rank() == 0
    assert dist.get_world_size() == pd.get_world_size() == 1
    assert dist.is_initialized() == pd.is_initialized() is False
    assert dist.is_available() == pd.is_available()
    a, b = dist.ParallelEnv(), pd.ParallelEnv()
    for attr in ("rank", "world_size", "local_rank", "nranks", "nrings", "trainer_endpoints", "current_endpoint"):
        assert getattr(a, attr) == getattr(b, attr), attr
    for name in ("SUM", "MAX", "MIN", "PROD", "AVG"):
        assert getattr(dist.ReduceOp, name) == getattr(pd.ReduceOp, name)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert dist.init_parallel_env() is None
    assert any("not a parallel execution environment" in str(x.message) for x in w)
    assert not dist.is_initialized()


def test_collectives_are_identities():
    x = paddle.to_tensor([1.0, -2.0])
    for op in (dist.ReduceOp.SUM, dist.ReduceOp.MAX, dist.ReduceOp.AVG):
        task = dist.all_reduce(x, op=op)
        assert task.wait() and task.is_completed()
    assert x.tolist() == [1.0, -2.0]
    out = []
    dist.all_gather(out, x)
    assert len(out) == 1 and out[0].tolist() == [1.0, -2.0] and out[0] is not x
    pre = [paddle.zeros([2])]
    dist.all_gather(pre, x)
    assert pre[0].tolist() == [1.0, -2.0]
    y = paddle.zeros([2])
    dist.reduce_scatter(y, [x])
    assert y.tolist() == [1.0, -2.0]
    objs = [None]
    dist.broadcast_object_list(objs, src=0)
    assert objs == [None]
    with pytest.raises(ValueError):
        dist.all_reduce(x, op=9)
    with pytest.raises(ValueError):
        dist.broadcast(x, src=1)
    with pytest.raises(RuntimeError):
        dist.send(x, dst=0)
    g = dist.get_group()
    assert repr(g) == "rank: 0, nranks: 1, id: 0, ranks: 0; name: _default_pg"
    # a group this process is not part of is skipped
    sub = dist.new_group([0])
    assert sub.id >= 10 and dist.get_group(sub.id) is sub
    dist.destroy_process_group(sub)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert dist.get_group(sub.id) is None


def test_data_parallel_single_process_matches_paddle(P):
    ours = paddle.DataParallel(paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 1)))
    theirs = P.DataParallel(P.nn.Sequential(P.nn.Linear(2, 3), P.nn.ReLU(), P.nn.Linear(3, 1)))
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_sublayers()] == [n for n, _ in theirs.named_sublayers()]
    assert ours.find_unused_parameters == theirs.find_unused_parameters
    assert ours.grad_need_sync == theirs.grad_need_sync
    ours.set_state_dict({k: paddle.to_tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    x = np.random.rand(4, 2).astype("float32")
    lo = ours(paddle.to_tensor(x)).mean()
    lt = theirs(P.to_tensor(x)).mean()
    assert ours.scale_loss(lo) is lo
    lo.backward()
    lt.backward()
    np.testing.assert_allclose(lo.numpy(), lt.numpy(), rtol=1e-6)
    for (n, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-5, atol=1e-7, err_msg=n)
    with ours.no_sync():
        assert not ours.grad_need_sync
    assert ours.grad_need_sync
    with pytest.raises(TypeError):
        paddle.DataParallel(object())


def test_fleet_single_process_matches_paddle(P):
    pf = P.distributed.fleet
    strategy, theirs = fleet.DistributedStrategy(), pf.DistributedStrategy()
    for name in ("amp", "recompute", "sharding", "pipeline", "gradient_merge", "lamb", "lars"):
        assert getattr(strategy, name) == getattr(theirs, name), name
    assert sorted(strategy.amp_configs) == sorted(theirs.amp_configs)
    assert sorted(strategy.hybrid_configs) == sorted(theirs.hybrid_configs)
    strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1}
    theirs.hybrid_configs = {"dp_degree": 1, "mp_degree": 1}
    assert strategy.hybrid_configs["dp_degree"] == theirs.hybrid_configs["dp_degree"] == 1
    strategy.amp_configs = {"init_loss_scaling": 1024}
    theirs.amp_configs = {"init_loss_scaling": 1024}
    assert strategy.amp_configs["init_loss_scaling"] == theirs.amp_configs["init_loss_scaling"] == 1024.0
    with pytest.raises(ValueError):
        strategy.amp_configs = {"no_such_key": 1}
    fleet.init(is_collective=True, strategy=strategy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pf.init(is_collective=True, strategy=theirs)
    for fn in ("worker_index", "worker_num", "is_first_worker", "is_worker", "is_server", "server_num"):
        assert getattr(fleet, fn)() == getattr(pf, fn)(), fn
    hcg, phcg = fleet.get_hybrid_communicate_group(), pf.get_hybrid_communicate_group()
    for fn in ("get_data_parallel_rank", "get_data_parallel_world_size", "get_model_parallel_rank",
               "get_model_parallel_world_size", "get_stage_id", "get_pipe_parallel_world_size",
               "get_sharding_parallel_world_size", "get_parallel_mode"):
        assert getattr(hcg, fn)() == getattr(phcg, fn)(), fn
    fleet.barrier_worker()
    model = paddle.nn.Linear(2, 2)
    opt = paddle.optimizer.SGD(parameters=model.parameters())
    assert fleet.distributed_optimizer(opt) is opt
    assert fleet.distributed_model(model) is model
    assert fleet.Role.WORKER == pf.Role.WORKER and fleet.Role.SERVER == pf.Role.SERVER


def test_topology_matches_paddle(P):
    pf = P.distributed.fleet
    names, dims = ["data", "pipe", "model"], [2, 3, 2]
    a, b = fleet.CommunicateTopology(names, dims), pf.CommunicateTopology(names, dims)
    assert a.world_size() == b.world_size()
    for n in names:
        assert a.get_dim(n) == b.get_dim(n)
        assert a.get_comm_list(n) == b.get_comm_list(n)
        assert a.get_axis_list(n, 1) == b.get_axis_list(n, 1)
    for r in range(a.world_size()):
        assert tuple(a.get_coord(r)) == tuple(b.get_coord(r))
    assert a.get_rank(data=1, pipe=2, model=0) == b.get_rank(data=1, pipe=2, model=0)


def test_auto_parallel_single_process_matches_paddle(P):
    pd = P.distributed
    m, pm = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["x", "y"]), pd.ProcessMesh([[0, 1], [2, 3]],
                                                                                       dim_names=["x", "y"])
    assert str(m) == str(pm)
    assert (m.shape, m.process_ids, m.dim_names, m.ndim) == (pm.shape, pm.process_ids, pm.dim_names, pm.ndim)
    assert str(m.get_mesh_with_dim("y")) == str(pm.get_mesh_with_dim("y"))
    for ours, theirs in [(dist.Shard(1), pd.Shard(1)), (dist.Replicate(), pd.Replicate()),
                         (dist.Partial(), pd.Partial()), (dist.Partial(dist.ReduceType.kRedMax),
                                                          pd.Partial(pd.ReduceType.kRedMax))]:
        assert repr(ours) == repr(theirs)
        assert (ours.is_shard(), ours.is_replicated(), ours.is_partial()) == \
            (theirs.is_shard(), theirs.is_replicated(), theirs.is_partial())
    m1, pm1 = dist.ProcessMesh([0], dim_names=["x"]), pd.ProcessMesh([0], dim_names=["x"])
    x = np.arange(6, dtype="float32").reshape(2, 3)
    a = dist.shard_tensor(paddle.to_tensor(x, stop_gradient=False), m1, [dist.Shard(0)])
    b = pd.shard_tensor(P.to_tensor(x, stop_gradient=False), pm1, [pd.Shard(0)])
    for sg in (None, False):
        assert dist.shard_tensor(paddle.ones([1]), m1, [dist.Replicate()], stop_gradient=sg).stop_gradient == \
            pd.shard_tensor(P.ones([1]), pm1, [pd.Replicate()], stop_gradient=sg).stop_gradient
        assert dist.shard_tensor(x, m1, [dist.Replicate()], stop_gradient=sg).stop_gradient == \
            pd.shard_tensor(x, pm1, [pd.Replicate()], stop_gradient=sg).stop_gradient
    assert repr(a.placements) == repr(b.placements) and a.is_dist() == b.is_dist()
    assert a.stop_gradient == b.stop_gradient and a.shape == list(b.shape)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    r = dist.reshard(a, m1, [dist.Replicate()])
    (r * r).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), 2 * x)
    assert not dist.unshard_dtensor(a).is_dist()
    with pytest.raises(NotImplementedError):
        dist.shard_tensor(paddle.ones([4]), dist.ProcessMesh([0, 1], dim_names=["x"]), [dist.Shard(0)])
    # replicating over a larger mesh keeps the whole value
    rep = dist.shard_tensor(paddle.ones([4]), dist.ProcessMesh([0, 1], dim_names=["x"]), [dist.Replicate()])
    assert rep.placements == [dist.Replicate()]
    with pytest.raises(ValueError):
        dist.shard_tensor(paddle.ones([4]), m1, [dist.Shard(0), dist.Shard(0)])


def test_shard_layer_and_checkpoint(tmp_path):
    mesh = dist.ProcessMesh([0], dim_names=["x"])

    def shard_fn(name, layer, process_mesh):
        if isinstance(layer, paddle.nn.Linear):
            layer.weight = dist.shard_tensor(layer.weight, process_mesh, [dist.Shard(1)])

    layer = dist.shard_layer(paddle.nn.Linear(3, 2), mesh, shard_fn)
    assert layer.weight.placements == [dist.Shard(1)] and layer.bias.placements == [dist.Replicate()]
    assert not layer.weight.stop_gradient and isinstance(layer.weight, paddle.Tensor)
    layer(paddle.ones([1, 3])).sum().backward()
    assert layer.weight.grad is not None
    dist.save_state_dict(layer.state_dict(), str(tmp_path))
    other = paddle.nn.Linear(3, 2)
    dist.load_state_dict(other.state_dict(), str(tmp_path))
    np.testing.assert_array_equal(other.weight.numpy(), layer.weight.numpy())
    merged = dist.load_merged_state_dict(str(tmp_path))
    np.testing.assert_array_equal(merged["bias"].numpy(), layer.bias.numpy())


def test_not_implemented_multi_device_paths():
    with pytest.raises(NotImplementedError):
        dist.InMemoryDataset()
    with pytest.raises(NotImplementedError):
        dist.split(paddle.ones([2, 4]), (4, 2), "linear", num_partitions=2)
    mesh = dist.ProcessMesh([0, 1], dim_names=["mp"])
    with pytest.raises(NotImplementedError):
        dist.parallelize(paddle.nn.Sequential(paddle.nn.Linear(2, 2)), None, mesh,
                         {"mp_config": {"parallelize_plan": {"0": dist.ColWiseParallel()}}})
    model, _ = dist.parallelize(paddle.nn.Sequential(paddle.nn.Linear(2, 2)), None, dist.ProcessMesh([0], dim_names=["mp"]),
                                {"mp_config": {"parallelize_plan": {"0": dist.ColWiseParallel()}}})
    assert model(paddle.ones([1, 2])).shape == [1, 2]
