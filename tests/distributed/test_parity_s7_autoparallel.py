"""Session-7 sweep: paddle.distributed's auto-parallel and fleet helpers in ONE process (meshes of
size 1, no launcher) against real Paddle 3.3.1: placements, meshes, shard_tensor / reshard,
shard_optimizer, Strategy, DistModel, checkpoints, data generators, role makers, UtilBase, entries."""
from __future__ import annotations

import contextlib
import io
import os

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


@pytest.fixture
def P():
    return paddle_ref()


def _mesh(F, shape=(1,), names=("x",)):
    return F.distributed.ProcessMesh(np.arange(int(np.prod(shape))).reshape(shape).tolist(), dim_names=list(names))


# ---- placements -----------------------------------------------------------------------------
def test_placement_reprs_and_methods_match_paddle():
    def f(F):
        d = F.distributed
        rt = d.ReduceType
        return ([repr(d.Partial(getattr(rt, k))) for k in ("kRedSum", "kRedMax", "kRedMin", "kRedProd", "kRedAvg",
                                                          "kRedAny", "kRedAll")],
                repr(d.Shard(1, split_factor=2)), d.Shard(0, split_factor=3).get_split_factor(),
                d.Shard(1).get_split_factor(), d.Shard(0) == d.Shard(0, split_factor=2), repr(d.Placement()),
                str(rt.kRedSum), d.Shard(1).is_shard(1), d.Shard(1).is_shard(0), d.Partial().reduce_type() == rt.kRedSum)
    ours, theirs = both(f)
    assert ours == theirs


def test_shard_set_split_factor():
    ours, theirs = both(lambda F: (lambda s: (s.set_split_factor(4), repr(s))[1])(F.distributed.Shard(0)))
    assert ours == theirs == "Shard(dim=0, split_factor=4)"


@pytest.mark.parametrize("build", [lambda d: d.Shard("a"), lambda d: d.Shard(None), lambda d: d.Shard(1.0),
                                   lambda d: d.Partial(1), lambda d: d.Partial("sum")])
def test_placement_bad_arguments_raise_type_error(build):
    same_exception(lambda F: build(F.distributed))


# ---- ProcessMesh ----------------------------------------------------------------------------
def test_process_mesh_eq_ignores_dim_names_and_unique_id():
    def f(F):
        d = F.distributed
        a, b = d.ProcessMesh([0], dim_names=["a"]), d.ProcessMesh([0])
        c = d.ProcessMesh([[0]], dim_names=["x", "y"])
        return (a == b, a != b, a == c, a.unique_id == b.unique_id, a.unique_id != c.unique_id,
                c.get_dim_size(None), str(c["y"]))
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("build", [
    lambda d: d.ProcessMesh(d.ProcessMesh([0])), lambda d: d.ProcessMesh((0, 1)), lambda d: d.ProcessMesh([]),
    lambda d: d.ProcessMesh([-1]), lambda d: d.ProcessMesh([0], dim_names="x"),
    lambda d: d.ProcessMesh([[0, 1]], dim_names=["x", "x"]), lambda d: d.ProcessMesh([0]).get_group(),
    lambda d: d.ProcessMesh([[0]], dim_names=["x", "y"]).get_dim_size("z"),
])
def test_process_mesh_errors_match_paddle(build):
    same_exception(lambda F: build(F.distributed))


# ---- shard_tensor / reshard / unshard -------------------------------------------------------
@pytest.mark.parametrize("pl", ["S0", "S1", "R", "P", "PMAX"])
def test_shard_tensor_values_and_attributes(pl):
    def f(F):
        d = F.distributed
        p = {"S0": d.Shard(0), "S1": d.Shard(1), "R": d.Replicate(), "P": d.Partial(),
             "PMAX": d.Partial(d.ReduceType.kRedMax)}[pl]
        x = F.arange(6, dtype="float32").reshape([2, 3])
        t = d.shard_tensor(x, _mesh(F), [p])
        return t, t._local_value(), (t.is_dist(), t._local_value().is_dist(), repr(t.placements),
                                     t.process_mesh.process_ids, t.process_mesh.shape, t.stop_gradient)
    (ot, ol, oi), (pt, pl_, pi) = both(f)
    assert_same(ot, pt)
    assert_same(ol, pl_)
    assert oi == pi


def test_shard_tensor_fills_missing_placements_with_replicate():
    def f(F):
        d = F.distributed
        x = F.ones([2, 3])
        m2 = _mesh(F, (1, 1), ("x", "y"))
        t = d.shard_tensor(x, m2, [d.Shard(1)])
        r = d.reshard(t, m2, [d.Shard(0)])
        return repr(t.placements), repr(r.placements)
    ours, theirs = both(f)
    assert ours == theirs == ("[Shard(dim=1), Replicate()]", "[Shard(dim=0), Replicate()]")


def test_shard_tensor_keeps_the_tensor_stop_gradient_and_converts_others():
    def f(F):
        d = F.distributed
        m = _mesh(F)
        a = d.shard_tensor(F.ones([2]), m, [d.Shard(0)], stop_gradient=False)   # a Tensor keeps its own
        b = d.shard_tensor(np.ones([2], "float32"), m, [d.Shard(0)], stop_gradient=False)
        c = d.shard_tensor([1, 2], m, [d.Replicate()])
        return a.stop_gradient, b.stop_gradient, str(c.dtype), c.stop_gradient
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("build", [
    lambda F, d, x: d.shard_tensor(x, _mesh(F), [d.Shard(0), d.Shard(1)]),
    lambda F, d, x: d.shard_tensor(x, [0], [d.Shard(0)]),
    lambda F, d, x: d.shard_tensor(x, _mesh(F), ["x"]),
    lambda F, d, x: d.reshard(x, _mesh(F), [d.Replicate()]),
    lambda F, d, x: d.reshard(np.ones(2), _mesh(F), [d.Replicate()]),
    lambda F, d, x: d.reshard(d.shard_tensor(x, _mesh(F), [d.Shard(0)]), _mesh(F), [d.Shard(5)]),
    lambda F, d, x: d.reshard(d.shard_tensor(x, _mesh(F), [d.Shard(0)]), _mesh(F), [d.Shard(0)] * 3),
    lambda F, d, x: d.unshard_dtensor(x),
    lambda F, d, x: d.dtensor_from_fn(F.ones, _mesh(F), [d.Shard(0), d.Shard(0)], shape=[2, 2]),
])
def test_dist_tensor_errors_match_paddle(build):
    same_exception(lambda F: build(F, F.distributed, F.ones([2, 3])))


def test_reshard_and_unshard_values():
    def f(F):
        d = F.distributed
        m = _mesh(F)
        x = F.arange(6, dtype="float32").reshape([2, 3])
        t = d.shard_tensor(x, m, [d.Partial()])
        outs = [d.reshard(t, m, [p]) for p in (d.Replicate(), d.Shard(1), d.Partial())]
        u = d.unshard_dtensor(d.shard_tensor(F.to_tensor([1.0, 2.0], stop_gradient=False), m, [d.Shard(0)]))
        return outs + [u], [repr(o.placements) for o in outs] + [u.is_dist(), u.stop_gradient]
    (ov, oi), (pv, pi) = both(f)
    assert_same(ov, pv)
    assert oi == pi


def test_dtensor_from_fn_matches_paddle():
    def f(F):
        d = F.distributed
        a = d.dtensor_from_fn(F.ones, _mesh(F), [d.Shard(0)], shape=[2, 2])
        b = d.dtensor_from_fn(F.full, _mesh(F), [d.Replicate()], [2], 3.0)
        return [a, b], [repr(a.placements), repr(b.placements), a.is_dist()]
    (ov, oi), (pv, pi) = both(f)
    assert_same(ov, pv)
    assert oi == pi


# ---- shard_layer / shard_optimizer ----------------------------------------------------------
def _model(F):
    F.seed(3)
    return F.nn.Sequential(F.nn.Linear(4, 3), F.nn.ReLU(), F.nn.Linear(3, 2))


def _shard_fn(F):
    def fn(name, sub, mesh):
        if isinstance(sub, F.nn.Linear):
            sub.weight = F.distributed.shard_tensor(sub.weight, mesh, [F.distributed.Shard(1)])
    return fn


def _train(F, shard: bool, opt_name: str = "AdamW", stage: str | None = None):
    d = F.distributed
    m = _model(F)
    mesh = _mesh(F)
    if shard:
        m = d.shard_layer(m, mesh, None if stage else _shard_fn(F))
    opt = getattr(F.optimizer, opt_name)(learning_rate=0.1, parameters=m.parameters())
    if shard:
        opt = d.shard_optimizer(opt, getattr(d, stage)("x", mesh) if stage else None)
    rng = np.random.RandomState(0)
    losses = []
    for _ in range(3):
        x = F.to_tensor(rng.rand(4, 4).astype("float32"))
        y = F.to_tensor(rng.rand(4, 2).astype("float32"))
        if shard:
            x = d.shard_tensor(x, mesh, [d.Shard(0)])
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses, type(opt).__name__


@pytest.mark.parametrize("opt_name,stage", [("AdamW", None), ("SGD", None), ("AdamW", "ShardingStage1"),
                                            ("AdamW", "ShardingStage2"), ("SGD", "ShardingStage3")])
def test_shard_optimizer_trains_like_plain_training(opt_name, stage):
    (ol, otype), (pl, ptype) = both(lambda F: _train(F, True, opt_name, stage))
    plain, _ = _train(paddle_ref(), False, opt_name)
    np.testing.assert_allclose(ol, pl, rtol=1e-5)
    np.testing.assert_allclose(ol, plain, rtol=1e-5)
    assert otype == ptype == "_ShardOptimizer"


def test_shard_optimizer_is_an_optimizer_and_forwards():
    def f(F):
        opt = F.distributed.shard_optimizer(F.optimizer.SGD(0.5, parameters=_model(F).parameters()))
        opt.set_lr(0.25)
        return isinstance(opt, F.optimizer.Optimizer), opt.get_lr(), opt._inner_opt.get_lr()
    ours, theirs = both(f)
    assert ours == theirs == (True, 0.25, 0.25)


def test_shard_optimizer_states_follow_parameter_placements():
    def f(F):
        d = F.distributed
        m = d.shard_layer(_model(F), _mesh(F), _shard_fn(F))
        opt = d.shard_optimizer(F.optimizer.AdamW(parameters=m.parameters()))
        m(F.ones([2, 4])).sum().backward()
        opt.step()
        state = opt.state_dict()
        out = []
        for i, p in enumerate(m.parameters()):   # parameter names differ between the frameworks
            for k in sorted(state):
                if k.startswith(p.name) and ("moment1" in k or "beta1_pow" in k):
                    v = state[k]
                    out.append((i, "moment1" in k, v.is_dist(), repr(v.placements)))
        return out
    ours, theirs = both(f)
    assert ours == theirs and ours


@pytest.mark.parametrize("case", ["not_optimizer", "adam", "stage_on_sharded", "stage_without_mesh"])
def test_shard_optimizer_errors_match_paddle(case, monkeypatch):
    # a global mesh left by another test (or a doctest) would give the stage its mesh
    monkeypatch.setattr(pagaie.distributed.auto_parallel, "_global_mesh", None)

    def f(F):
        d = F.distributed
        if case == "not_optimizer":
            return d.shard_optimizer(3)
        if case == "adam":
            return d.shard_optimizer(F.optimizer.Adam(parameters=_model(F).parameters()))
        if case == "stage_on_sharded":
            m = d.shard_layer(_model(F), _mesh(F), _shard_fn(F))
            return d.shard_optimizer(F.optimizer.AdamW(parameters=m.parameters()), d.ShardingStage1("x", _mesh(F)))
        m = d.shard_layer(_model(F), _mesh(F))
        return d.shard_optimizer(F.optimizer.AdamW(parameters=m.parameters()), d.ShardingStage1("x"))
    same_exception(f)


def test_shard_layer_places_parameters():
    def f(F):
        d = F.distributed
        m = d.shard_layer(_model(F), _mesh(F), _shard_fn(F))
        return [(n, p.is_dist(), repr(p.placements), p.stop_gradient) for n, p in m.named_parameters()
                if n.endswith("weight")]
    ours, theirs = both(f)
    assert ours == theirs


# ---- Strategy -------------------------------------------------------------------------------
def _strategy_view(s):
    d = s.to_dict()
    fp = s.fused_passes
    return d, (fp.enable, fp.gemm_epilogue, fp.dropout_add), s.full_graph, repr(s.gradient_merge), repr(s.sharding)


@pytest.mark.parametrize("config", [None, {"sharding": {"enable": True, "stage": 2, "unknown": 1}},
                                    {"seed": 3, "amp": {"enable": True, "level": "o2"}, "full_graph": False,
                                     "fused_passes": {"enable": True, "gemm_epilogue": True},
                                     "pipeline": {"enable": True, "micro_batch_size": 2}}])
def test_strategy_fields_and_defaults_match_paddle(config):
    ours, theirs = both(lambda F: _strategy_view(F.distributed.Strategy(config)))
    assert ours == theirs


def test_strategy_sections_and_get():
    def f(F):
        s = F.distributed.Strategy()
        return (type(s.sharding).__name__, type(s.amp).__name__, s.get("seed", 5), s.get("nope", 5),
                s.sharding.get("stage"), s._sp_optimization.enable, s._recompute.checkpoints)
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("config", [[1], {"amp": 3}, {"fused_passes": {"x": True}}])
def test_strategy_bad_config_raises_like_paddle(config):
    same_exception(lambda F: F.distributed.Strategy(config))


# ---- DistModel (to_static) ------------------------------------------------------------------
@pytest.mark.parametrize("call", ["call", "state_dict"])
def test_dist_model_needs_a_mode_first(call):
    def f(F):
        m = _model(F)
        loader = F.io.DataLoader(F.io.TensorDataset([F.ones([4, 4]), F.ones([4, 2])]), batch_size=2)
        dm = F.distributed.to_static(m, loader, F.nn.MSELoss(), F.optimizer.SGD(0.1, parameters=m.parameters()))
        return dm(F.ones([2, 4]), F.ones([2, 2])) if call == "call" else dm.state_dict()
    same_exception(f)


def test_dist_model_modes_train_eval_predict():
    m = _model(pagaie)
    ref = _model(pagaie)
    opt = pagaie.optimizer.SGD(0.1, parameters=m.parameters())
    ref_opt = pagaie.optimizer.SGD(0.1, parameters=ref.parameters())
    dm = pagaie.distributed.to_static(m, None, pagaie.nn.MSELoss(), opt)
    x, y = pagaie.ones([2, 4]), pagaie.zeros([2, 2])
    dm.train()
    loss = dm([x], [y])                       # lists are flattened; the last value is the label
    ref_loss = pagaie.nn.MSELoss()(ref(x), y)
    ref_loss.backward()
    ref_opt.step()
    np.testing.assert_allclose(float(loss), float(ref_loss), rtol=1e-6)
    dm.eval()
    np.testing.assert_allclose(float(dm(x, y)), float(pagaie.nn.MSELoss()(ref(x), y)), rtol=1e-6)
    dm.predict()
    np.testing.assert_allclose(dm(x).numpy(), ref(x).numpy(), rtol=1e-6)
    assert sorted(dm.state_dict("param")) == sorted(m.state_dict())
    with pytest.raises(TypeError):
        dm(3)


def test_to_static_rejects_a_non_layer_like_paddle():
    same_exception(lambda F: F.distributed.to_static(3))


# ---- checkpoints ----------------------------------------------------------------------------
def test_save_load_state_dict_round_trip_matches_paddle(tmp_path):
    def f(F):
        d = F.distributed
        path = str(tmp_path / F.__name__)
        m = _mesh(F)
        w = d.shard_tensor(F.arange(6, dtype="float32").reshape([2, 3]), m, [d.Shard(0)])
        d.save_state_dict({"w": w, "plain": F.ones([2]), "nested": {"b": F.full([1], 7.0)}}, path)
        tgt = {"w": d.shard_tensor(F.zeros([2, 3]), m, [d.Shard(0)]), "plain": F.zeros([2]),
               "nested": {"b": F.zeros([1])}}
        d.load_state_dict({"w": tgt["w"], "plain": tgt["plain"], "nested.b": tgt["nested"]["b"]}, path)
        merged = d.load_merged_state_dict(path)
        return ([tgt["w"], tgt["plain"], tgt["nested"]["b"]], sorted(os.listdir(path)), repr(tgt["w"].placements),
                sorted(merged))
    (ov, of, op, om), (pv, pf, pp, pm) = both(f)
    assert_same(ov, pv)
    assert (of, op, om) == (pf, pp, pm)


@pytest.mark.parametrize("case", ["not_dict", "bad_value", "missing_key", "no_dir", "nested_load"])
def test_checkpoint_errors_match_paddle(case, tmp_path):
    def f(F):
        d = F.distributed
        path = str(tmp_path / (F.__name__ + case))
        if case == "not_dict":
            return d.save_state_dict([1], path)
        if case == "bad_value":
            return d.save_state_dict({"a": 3}, path)
        if case == "missing_key":
            d.save_state_dict({"a": F.ones([2])}, path)
            return d.load_state_dict({"b": F.ones([2])}, path)
        if case == "nested_load":
            d.save_state_dict({"n": {"a": F.ones([2])}}, path)
            return d.load_state_dict({"n": {"a": F.ones([2])}}, path)
        return d.load_state_dict({"a": F.ones([2])}, path + "_none")
    same_exception(f)


# ---- fleet data generators ------------------------------------------------------------------
def _run_generator(F, string: bool, samples, batch=None):
    base = F.distributed.fleet.MultiSlotStringDataGenerator if string else F.distributed.fleet.MultiSlotDataGenerator

    class G(base):
        def generate_sample(self, line):
            def it():
                yield from samples
            return it
    g = G()
    if batch:
        g.set_batch(batch)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        g.run_from_memory()
    return buf.getvalue(), g._proto_info


@pytest.mark.parametrize("samples,batch", [
    ([[("words", [1, 2, 3]), ("label", [0])], [("words", [4]), ("label", [1])]], None),
    ([[("f", [1, 2])], [("f", [2.5])], None, [("f", [3])]], 2),
    ([(("a", [1]), ("b", [0.5]))], None),
])
def test_multislot_generator_output_and_proto_info(samples, batch):
    ours, theirs = both(lambda F: _run_generator(F, False, samples, batch))
    assert ours == theirs


def test_multislot_string_generator_output():
    ours, theirs = both(lambda F: _run_generator(F, True, [[("words", ["a", "b"]), ("label", ["1"])]]))
    assert ours == theirs


@pytest.mark.parametrize("string,samples", [
    (False, [[("words", []), ("label", [0])]]), (False, [[("words", ["a"])]]), (False, [{"words": [1]}]),
    (False, [[("a", [1])], [("b", [2])]]), (False, [[("a", [1])], [("a", [1]), ("b", [2])]]),
    (False, [[(1, [1])]]), (True, [[("words", [1, 2])]]),
])
def test_generator_errors_match_paddle(string, samples):
    same_exception(lambda F: _run_generator(F, string, samples))


def test_generator_base_generate_sample_raises():
    same_exception(lambda F: F.distributed.fleet.MultiSlotDataGenerator().generate_sample("x"))


# ---- role maker, UtilBase, entries, gloo, p2p -----------------------------------------------
_RM_METHODS = ("_is_worker", "_is_server", "_is_first_worker", "_worker_index", "_server_index", "_worker_num",
               "_server_num", "_get_trainer_endpoints", "_get_pserver_endpoints", "_node_num", "_role_id",
               "_is_non_distributed", "_is_heter_worker")


@pytest.mark.parametrize("collective,env", [
    (False, {}), (True, {}),
    (True, {"PADDLE_TRAINER_ID": "1", "PADDLE_TRAINERS_NUM": "2",
            "PADDLE_TRAINER_ENDPOINTS": "127.0.0.1:6170,127.0.0.1:6171", "PADDLE_CURRENT_ENDPOINT": "127.0.0.1:6171"}),
    (False, {"TRAINING_ROLE": "PSERVER", "PADDLE_PSERVERS_IP_PORT_LIST": "127.0.0.1:6000,127.0.0.1:6001",
             "PADDLE_TRAINERS_NUM": "2", "POD_IP": "127.0.0.1", "PADDLE_PORT": "6001",
             "PADDLE_TRAINER_ENDPOINTS": "127.0.0.1:6170,127.0.0.1:6171"}),
])
def test_paddle_cloud_role_maker_fields_match_paddle(collective, env, monkeypatch):
    for k in list(os.environ):
        if k.startswith(("PADDLE_", "TRAINING_ROLE", "POD_IP", "FLAGS_selected")):
            monkeypatch.delenv(k)
    for k, v in env.items():
        monkeypatch.setenv(k, v)

    def f(F):
        r = F.distributed.fleet.PaddleCloudRoleMaker(is_collective=collective)
        return {m: getattr(r, m)() for m in _RM_METHODS} | {"_is_collective": r._is_collective}
    ours, theirs = both(f)
    assert ours == theirs


def _util(F):
    u = F.distributed.fleet.UtilBase()
    u._set_role_maker(F.distributed.fleet.PaddleCloudRoleMaker(is_collective=True))
    return u


def test_util_base_single_process_helpers_match_paddle(monkeypatch):
    monkeypatch.delenv("PADDLE_TRAINER_ENDPOINTS", raising=False)

    def f(F):
        u = _util(F)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            u.print_on_rank("hi", 0)
            u.print_on_rank("no", 1)
        return (u.get_file_shard(["a", "b", "c"]), u.all_reduce([1, 2], "sum"), u.all_reduce([3], "avg"),
                u.all_gather(3), u.barrier(), buf.getvalue())
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("call", [lambda u: u.get_file_shard(["a"]), lambda u: u.all_reduce([1]),
                                  lambda u: u.all_gather(1), lambda u: u.barrier()])
def test_util_base_without_role_maker_raises_like_paddle(call):
    same_exception(lambda F: call(F.distributed.fleet.UtilBase()))


def test_util_base_file_shard_needs_a_list():
    same_exception(lambda F: _util(F).get_file_shard("abc"))


def test_entries_attr_strings_match_paddle():
    def f(F):
        d = F.distributed
        es = [d.CountFilterEntry(5), d.CountFilterEntry(0), d.ProbabilityEntry(0.5), d.ShowClickEntry("s", "c")]
        return [e._to_attr() for e in es], [repr(e).startswith("<") for e in es]
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("build", [lambda d: d.CountFilterEntry(-1), lambda d: d.CountFilterEntry(1.5),
                                   lambda d: d.ProbabilityEntry(1.0), lambda d: d.ProbabilityEntry(0.0),
                                   lambda d: d.ProbabilityEntry(1), lambda d: d.ShowClickEntry(1, 2)])
def test_entry_errors_match_paddle(build):
    same_exception(lambda F: build(F.distributed))


def test_parallel_mode_constants_match_paddle():
    ours, theirs = both(lambda F: {k: getattr(F.distributed.ParallelMode, k)
                                   for k in dir(F.distributed.ParallelMode) if not k.startswith("_")})
    assert ours == theirs


@pytest.mark.parametrize("call", [lambda d: d.gloo_init_parallel_env(0, 1, "127.0.0.1:0"),
                                  lambda d: d.gloo_barrier(),
                                  lambda d: d.send_object_list(3, dst=0),
                                  lambda d: d.send_object_list([1], dst=0),
                                  lambda d: d.shard_dataloader(None, [], shard_dims="dp"),
                                  lambda d: d.shard_dataloader(None, d.ProcessMesh([0]), is_dataset_splitted=True)])
def test_single_process_errors_match_paddle(call):
    same_exception(lambda F: call(F.distributed))


# ---- parallel plans -------------------------------------------------------------------------
_PLANS = ("ColWiseParallel", "RowWiseParallel", "ConvParallel", "SequenceParallelBegin", "SequenceParallelEnd",
          "SequenceParallelEnable", "SequenceParallelDisable", "ContextParallel", "PrepareContextParallel")


def test_parallel_plan_fields_match_paddle():
    ours, theirs = both(lambda F: [(n, vars(getattr(F.distributed, n)()), repr(getattr(F.distributed, n)())[0])
                                   for n in _PLANS])
    assert ours == theirs


@pytest.mark.parametrize("build", [lambda d: d.PrepareLayerInput(), lambda d: d.PrepareLayerOutput(None),
                                   lambda d: d.ConvParallel(1), lambda d: d.SequenceParallelEnable(True)])
def test_parallel_plan_bad_arguments_match_paddle(build):
    same_exception(lambda F: build(F.distributed))
