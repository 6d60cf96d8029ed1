"""Session-11 sweep of paddle.distributed in one process against real Paddle 3.3.1: ProcessMesh's
C++-side methods, what a distributed tensor's ``process_mesh`` prints and ``_local_value`` gives,
the ``.dist`` names of sharded parameters (and so of their optimizer states), spawn's option and
backend checks, split's axis checks, io's static-only helpers, and DistributedStrategy's nested
hybrid configs and remaining fields."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception


def _mesh(P, ids=(0,), names=("x",)):
    return P.distributed.ProcessMesh(list(ids) if len(names) == 1 else np.array(ids).reshape(1, -1).tolist(),
                                     dim_names=list(names))


# -- ProcessMesh -------------------------------------------------------------------------------

def test_process_mesh_contains_dim_size_empty():
    """Paddle's mesh has contains(pid), dim_size(name or index, negative allowed) and empty()."""
    def f(P):
        m = P.distributed.ProcessMesh(np.arange(6).reshape(2, 3), dim_names=["dp", "mp"])
        return (m.contains(4), m.contains(7), m.dim_size(0), m.dim_size(-1), m.dim_size("mp"), m.empty())
    ours, theirs = both(f)
    assert ours == theirs == (True, False, 2, 3, 3, False)
    mesh = lambda P: P.distributed.ProcessMesh([[0, 1, 2]], dim_names=["a", "b"])  # noqa: E731
    same_exception(lambda P: mesh(P).dim_size("zz"))
    same_exception(lambda P: mesh(P).dim_size(5))
    same_exception(lambda P: mesh(P).contains("a"))


def test_process_mesh_get_rank_by_dim_and_process_id():
    """-1 for a process outside the mesh, 0 for dim=None, else its coordinate along dim (Paddle's
    own lookup of a present id fails under numpy 2, so that part is checked by value)."""
    def f(P):
        m = P.distributed.ProcessMesh(np.arange(6).reshape(2, 3), dim_names=["dp", "mp"])
        return m.get_rank_by_dim_and_process_id("mp", 9), m.get_rank_by_dim_and_process_id(None, 4)
    ours, theirs = both(f)
    assert ours == theirs == (-1, 0)
    m = pagaie.distributed.ProcessMesh(np.arange(6).reshape(2, 3), dim_names=["dp", "mp"])
    assert [m.get_rank_by_dim_and_process_id("mp", i) for i in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [m.get_rank_by_dim_and_process_id(0, i) for i in range(6)] == [0, 0, 0, 1, 1, 1]
    same_exception(lambda P: P.distributed.ProcessMesh([0, 1]).get_rank_by_dim_and_process_id(1.0, 0))


# -- distributed tensors -----------------------------------------------------------------------

def test_dist_tensor_process_mesh_prints_as_the_cpp_mesh():
    """A dist tensor's process_mesh prints '{shape: [1,1], process_ids: [0], dim_names: [x,y]}' and
    still equals the Python mesh it was made on."""
    def f(P):
        d = P.distributed
        m = d.ProcessMesh([[0]], dim_names=["x", "y"])
        t = d.shard_tensor(P.ones([2, 3]), m, [d.Shard(0), d.Replicate()])
        pm = t.process_mesh
        return str(pm), pm == m, m == pm, pm.shape, pm.dim_names, pm.process_ids
    ours, theirs = both(f)
    assert ours == theirs
    assert ours[0] == "{shape: [1,1], process_ids: [0], dim_names: [x,y]}"


def test_local_value_is_outside_autograd_and_shares_storage():
    """_local_value() of a dist tensor says stop_gradient=True and writes through to the tensor."""
    def f(P):
        d = P.distributed
        t = d.shard_tensor(np.ones((2, 3), "float32"), _mesh(P), [d.Shard(0)], stop_gradient=False)
        lv = t._local_value()
        flags = (lv.stop_gradient, lv.is_dist())
        lv.set_value(np.zeros((2, 3), "float32"))
        return flags, t.numpy().tolist()
    ours, theirs = both(f)
    assert ours == theirs


def test_sharded_parameter_is_named_with_dist_suffix():
    """shard_tensor of a parameter names the copy '<name>.dist' (so do shard_layer's), and the
    optimizer's state keys follow that name."""
    def f(P):
        d = P.distributed
        w = P.create_parameter([2, 3], "float32", name="myw")
        dw = d.shard_tensor(w, _mesh(P), [d.Shard(0)])
        lin = P.nn.Linear(2, 3)
        plain = lin.weight.name
        d.shard_layer(lin, _mesh(P))
        opt = d.shard_optimizer(P.optimizer.AdamW(parameters=lin.parameters()))
        lin(P.ones([1, 2])).sum().backward()
        opt.step()
        keys = sorted(k.replace(plain.split(".")[0], "L") for k in opt.state_dict() if k != "LR_Scheduler")
        return dw.name, dw.trainable, lin.weight.name == plain + ".dist", keys
    ours, theirs = both(f)
    assert ours == theirs
    assert ours[0] == "myw.dist"


# -- spawn / split / io --------------------------------------------------------------------------

def _job():  # pragma: no cover - never started: the checks fail first
    pass


@pytest.mark.parametrize("options", [{"foo": 1}, {"backend": "xyz"}, {"backend": "bkcl"}])
def test_spawn_checks_options_and_backend_before_starting(options):
    """An unknown option, or a backend outside Paddle's list or for missing hardware: ValueError."""
    same_exception(lambda P: P.distributed.spawn(_job, nprocs=1, **options))


def test_spawn_warns_on_a_deprecated_option():
    """A deprecated option (selected_devices...) only warns."""
    with pytest.warns(UserWarning, match="deprecated"):
        with pytest.raises(ValueError):  # the warning comes first, the bad backend after
            pagaie.distributed.spawn(_job, nprocs=1, selected_devices="0", backend="xyz")


@pytest.mark.parametrize("kwargs", [{"operation": "linear", "axis": 2}, {"operation": "linear", "axis": -1},
                                    {"operation": "embedding", "axis": 1}])
def test_split_rejects_a_bad_axis(kwargs):
    """split checks the axis: 0 or 1 for linear, 0 for embedding (Paddle refuses dygraph first,
    with the same ValueError)."""
    same_exception(lambda P: P.distributed.split(P.ones([2, 4]), (4, 6), **kwargs))


@pytest.mark.parametrize("api", ["save_persistables", "load_persistables"])
def test_io_persistables_are_static_only(api, tmp_path):
    """distributed.io.save/load_persistables refuse dynamic mode with an AssertionError."""
    same_exception(lambda P: getattr(P.distributed.io, api)(None, str(tmp_path)))


def test_io_persistables_round_trip_in_static_mode(tmp_path):
    """In static mode the persistables of a program are saved and loaded back."""
    P = pagaie
    P.enable_static()
    try:
        main, start = P.static.Program(), P.static.Program()
        with P.static.program_guard(main, start):
            x = P.static.data("x", [None, 2], "float32")
            P.static.nn.fc(x, 3)
        exe = P.static.Executor(P.CPUPlace())
        exe.run(start)
        params = [v for v in main.list_vars() if P.distributed.io.is_persistable(v)]
        before = [np.array(P.static.global_scope().find_var(v.name).get_tensor()) for v in params]
        P.distributed.io.save_persistables(exe, str(tmp_path), main)
        exe.run(start)  # fresh values
        P.distributed.io.load_persistables(exe, str(tmp_path), main)
        after = [np.array(P.static.global_scope().find_var(v.name).get_tensor()) for v in params]
    finally:
        P.disable_static()
    assert len(params) == 2
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)


# -- fleet.DistributedStrategy -------------------------------------------------------------------

def _strategy(P):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return P.distributed.fleet.DistributedStrategy()


def test_strategy_remaining_fields_and_defaults():
    """adam_d2sum, auto_search, is_with_coordinator, sync_param_name, hybrid_parallel_order and
    trainer_desc_configs exist with Paddle's defaults."""
    def f(P):
        s = _strategy(P)
        return (s.adam_d2sum, s.auto_search, s.is_with_coordinator, s.sync_param_name,
                s.hybrid_parallel_order, s.trainer_desc_configs)
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda P: setattr(_strategy(P), "adam_d2sum", 1))
    same_exception(lambda P: setattr(_strategy(P), "trainer_desc_configs", {"zz": 1}))

    def g(P):
        s = _strategy(P)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s.auto_search = 1  # not a bool: ignored (with a warning)
        s.is_with_coordinator = True
        s.trainer_desc_configs = {"dump_fields": ["a"]}
        return s.auto_search, s.is_with_coordinator, s.trainer_desc_configs
    ours, theirs = both(g)
    assert ours == theirs


def test_strategy_hybrid_nested_configs_are_messages():
    """hybrid_configs['pp_configs'] (mp_configs, sharding_configs...) reads and sets fields as
    attributes and prints the fields that were set; a dict for mp/pp_configs sets its known keys."""
    def f(P):
        s = _strategy(P)
        out = [str(s.hybrid_configs["sharding_configs"]), s.hybrid_configs["mp_configs"].sync_param,
               s.hybrid_configs["pp_configs"].use_batch_p2p_comm, str(s.hybrid_configs["dp_configs"])]
        s.hybrid_configs = {"pp_configs": {"dp_comm_overlap": 1, "not_a_field": 2}}
        s.hybrid_configs["pp_configs"].use_dualpipev = True
        s.hybrid_configs = {"mp_configs": {"sync_mode": "average"}}
        s.hybrid_configs["sharding_configs"].accumulate_steps = 4
        out += [s.hybrid_configs["pp_configs"].dp_comm_overlap, str(s.hybrid_configs["pp_configs"]),
                str(s.hybrid_configs["mp_configs"]), str(s.hybrid_configs["sharding_configs"]),
                s.hybrid_configs["pp_configs"] == _strategy(P).hybrid_configs["pp_configs"],
                _strategy(P).hybrid_configs["pp_configs"] == _strategy(P).hybrid_configs["pp_configs"]]
        return out
    ours, theirs = both(f)
    assert ours == theirs
    assert ours[5] == "dp_comm_overlap: true\nuse_dualpipev: true\n"
    same_exception(lambda P: _strategy(P).hybrid_configs["pp_configs"].zz)
    same_exception(lambda P: setattr(_strategy(P).hybrid_configs["pp_configs"], "zz", True))
    same_exception(lambda P: setattr(_strategy(P).hybrid_configs["sharding_configs"], "accumulate_steps", 2.5))
    same_exception(lambda P: setattr(_strategy(P).hybrid_configs["sharding_configs"], "tensor_fusion", "x"))
    same_exception(lambda P: setattr(_strategy(P), "hybrid_configs", {"mp_configs": {"sync_mode": 3}}))
    same_exception(lambda P: setattr(_strategy(P), "hybrid_configs", {"pp_configs": 3}))


def test_strategy_hybrid_order_and_sync_param_name_keys():
    """hybrid_configs' 'order' key sets hybrid_parallel_order and mp_configs' 'sync_param_name'
    sets sync_param_name; neither is a hybrid_configs field."""
    def f(P):
        s = _strategy(P)
        s.hybrid_configs = {"dp_degree": 1, "order": ["mp", "dp", "pp", "sharding", "sep", "cp"],
                            "mp_configs": {"sync_param_name": ["a"], "sync_grad": True}}
        return (s.hybrid_parallel_order, s.sync_param_name, s.hybrid_configs["mp_configs"].sync_grad,
                "order" in s.hybrid_configs, s.hybrid_configs["dp_degree"])
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda P: setattr(_strategy(P), "hybrid_configs", {"order": ["dp"], "zz": 1}))


def test_strategy_prototxt_round_trip_keeps_nested_configs(tmp_path):
    """A strategy saved and loaded back keeps the fields set in its nested hybrid configs."""
    s = _strategy(pagaie)
    s.hybrid_configs = {"mp_degree": 1, "pp_configs": {"use_dualpipev": True}}
    path = str(tmp_path / "s.prototxt")
    s.save_to_prototxt(path)
    t = _strategy(pagaie)
    t.load_from_prototxt(path)
    assert t.hybrid_configs["pp_configs"].use_dualpipev is True
    assert str(t.hybrid_configs["pp_configs"]) == "use_dualpipev: true\n"


def test_reference_is_real_paddle():
    """Guard: the comparisons above ran against real Paddle."""
    assert paddle_ref().__name__ == "paddle"


def test_io_load_inference_model_distributed_signature():
    """Paddle's argument names: (dirname, executor, model_filename, params_filename, pserver_endpoints)."""
    import inspect
    ours, theirs = both(lambda P: list(inspect.signature(P.distributed.io.load_inference_model_distributed).parameters))
    assert ours == theirs


def test_auto_strategy_get_takes_k_and_d():
    """Strategy sections' get(k, d=None), with Paddle's argument names."""
    ours, theirs = both(lambda P: (P.distributed.Strategy().sharding.get(k="enable"),
                                   P.distributed.Strategy().sharding.get("zz", d=4)))
    assert ours == theirs == (False, 4)


# -- fleet.meta_parallel (model-parallel degree 1) --------------------------------------------------

def _init_fleet(P):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = P.distributed.fleet.DistributedStrategy()
        s.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}
        P.distributed.fleet.init(is_collective=True, strategy=s)
    return P.distributed.fleet.meta_parallel


def test_meta_parallel_layers_match_paddle():
    """ColumnParallelLinear / RowParallelLinear / VocabParallelEmbedding: Paddle's parameter shapes,
    seeded values, names, attributes and outputs (has_bias defaults: None for column, True for row)."""
    def f(P):
        mp = _init_fleet(P)
        P.seed(7)
        col = mp.ColumnParallelLinear(4, 3, has_bias=True)
        row = mp.RowParallelLinear(4, 3)
        emb = mp.VocabParallelEmbedding(5, 2)
        x = P.to_tensor(np.arange(8, dtype="float32").reshape(2, 4) / 8)
        y = col(x)
        y.sum().backward()
        return (col.weight, col.bias, row.weight, row.bias, emb.weight, y, col.weight.grad, row(x),
                emb(P.to_tensor([[1, 4]])), [n for n, _ in col.named_parameters()],
                mp.ColumnParallelLinear(4, 3).bias is None, mp.RowParallelLinear(4, 3, has_bias=False).bias is None,
                (col.gather_output, col.is_mp, col.weight.is_distributed, row.input_is_parallel, emb.is_mp))
    ours, theirs = both(f)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if hasattr(b, "numpy"):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6, err_msg=str(i))
            assert a.shape == b.shape and str(a.dtype) == str(b.dtype)
        else:
            assert a == b, i


def test_parallel_cross_entropy_is_softmax_cross_entropy():
    """ParallelCrossEntropy over one part is softmax cross entropy with ignore_index (Paddle's own
    returns None in a world of one, so the value is checked against softmax_with_cross_entropy)."""
    P = pagaie
    mp = _init_fleet(P)
    logits = P.to_tensor(np.random.default_rng(0).standard_normal((3, 5)).astype("float32"))
    label = P.to_tensor([[1], [4], [0]])
    got = mp.ParallelCrossEntropy(ignore_index=0)(logits, label)
    ref = paddle_ref()
    want = ref.nn.functional.softmax_with_cross_entropy(ref.to_tensor(logits.numpy()), ref.to_tensor(label.numpy()),
                                                        ignore_index=0)
    assert got.shape == [3, 1]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_rng_state_tracker_matches_paddle():
    """A tracked state draws as paddle.seed(seed) would and leaves the global stream alone; a
    repeated name or seed, or an unknown state, is a ValueError."""
    def f(P):
        tk = P.distributed.fleet.meta_parallel.RNGStatesTracker()
        tk.add("a", 11)
        P.seed(5)
        with tk.rng_state("a"):
            a = P.rand([3]).numpy()
        b = P.rand([2]).numpy()
        P.seed(5)
        return a.tolist(), b.tolist() == P.rand([2]).numpy().tolist(), sorted(tk.get_states_tracker())
    ours, theirs = both(f)
    assert ours[1:] == theirs[1:]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    def add_twice(P, names, seeds):
        tk = P.distributed.fleet.meta_parallel.RNGStatesTracker()
        for n, s in zip(names, seeds):
            tk.add(n, s)
    same_exception(lambda P: add_twice(P, "ab", (1, 1)))
    same_exception(lambda P: add_twice(P, "aa", (1, 2)))
    same_exception(lambda P: P.distributed.fleet.meta_parallel.RNGStatesTracker().rng_state("zz").__enter__())
    ours, theirs = both(lambda P: type(P.distributed.fleet.meta_parallel.get_rng_state_tracker()).__name__)
    assert ours == theirs


def test_distributed_model_of_none_fails_an_assertion():
    """fleet.distributed_model(None): AssertionError, before anything else."""
    same_exception(lambda P: (_init_fleet(P), P.distributed.fleet.distributed_model(None)))


# -- parallelize -----------------------------------------------------------------------------------

class _Net:
    """A model built in either framework: Embedding -> Linear -> Linear -> Linear."""

    @staticmethod
    def make(P):
        class Net(P.nn.Layer):
            def __init__(self):
                super().__init__()
                self.emb = P.nn.Embedding(8, 4)
                self.l1 = P.nn.Linear(4, 4)
                self.l2 = P.nn.Linear(4, 2)
                self.l3 = P.nn.Linear(2, 2)

            def forward(self, x):
                return self.l3(self.l2(self.l1(self.emb(x))))
        P.seed(1)
        return Net()


@pytest.mark.parametrize("mesh_dims,config", [
    (("mp",), {"mp_config": {"parallelize_plan": {"emb": "col", "l1": "col", "l2": "row"}}}),
    (("dp", "mp"), {"mp_config": {"parallelize_plan": {"emb": "col", "l1": "col", "l2": "row"}}}),
    (("dp", "mp"), {"dp_config": {"sharding_level": 0}}),
    (("mp",), {"mp_config": {"parallelize_plan": {"emb": "row", "l1": "colgather"}}}),
])
def test_parallelize_places_parameters_and_outputs(mesh_dims, config):
    """parallelize makes every parameter a '.dist' distributed one: ColWise splits weight axis 1 and
    bias axis 0, RowWise the weight axis 0 (bias replicated), the rest replicated; the output is a
    replicated dist tensor, and the optimizer comes back wrapped by shard_optimizer."""
    def f(P):
        d = P.distributed
        mesh = d.ProcessMesh(np.zeros([1] * len(mesh_dims), "int64").tolist(), dim_names=list(mesh_dims))
        plans = {"col": lambda: d.ColWiseParallel(), "row": lambda: d.RowWiseParallel(),
                 "colgather": lambda: d.ColWiseParallel(gather_output=True)}
        cfg = {k: dict(v) for k, v in config.items()}
        if "mp_config" in cfg:
            cfg["mp_config"] = {"parallelize_plan": {k: plans[v]() for k, v in
                                                     config["mp_config"]["parallelize_plan"].items()}}
        net = _Net.make(P)
        opt = P.optimizer.AdamW(0.1, parameters=net.parameters())
        before = d.get_mesh()
        try:
            model, opt = d.parallelize(net, opt, mesh=mesh, config=cfg)
        finally:   # parallelize sets the global mesh: later tests must not see it
            d.auto_parallel.set_mesh(before)
        y = model(P.to_tensor([[1, 2]]))
        y.mean().backward()
        opt.step()
        return (y.shape, y.is_dist(), repr(y.placements), type(opt).__name__, float(net.l1.weight.sum()),
                [(n, repr(p.placements), p.name.split(".", 1)[1]) for n, p in model.named_parameters()])
    ours, theirs = both(f)
    assert ours[:4] == theirs[:4]
    assert abs(ours[4] - theirs[4]) < 1e-5
    assert ours[5] == theirs[5]


def test_parallelize_optimizer_must_be_adamw_or_sgd():
    """As shard_optimizer: another optimizer fails an assertion."""
    def f(P):
        net = _Net.make(P)
        mesh = P.distributed.ProcessMesh([0], dim_names=["mp"])
        before = P.distributed.get_mesh()
        try:
            P.distributed.parallelize(net, P.optimizer.Adam(parameters=net.parameters()), mesh=mesh,
                                      config={"dp_config": {"sharding_level": 0}})
        finally:   # parallelize sets the global mesh: later tests must not see it
            P.distributed.auto_parallel.set_mesh(before)
    same_exception(f)


def test_dense_tensor_local_value_is_none():
    """A dense tensor's _local_value() is None in Paddle (pagaie has no such method on dense tensors)."""
    ours, theirs = both(lambda P: P.ones([2])._local_value())
    assert ours is None and theirs is None
