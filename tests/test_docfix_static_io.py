"""Doc-example fixes (F4): metrics, AMP on CPU, static DataLoader feeds, jit.load of inference
models, static save/load, PIR-style Value printing, DistAttr printing, static.nn sharing."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref


def _static(fw):
    class _Guard:
        def __enter__(self):
            fw.enable_static()
            return fw

        def __exit__(self, *exc):
            fw.disable_static()
    return _Guard()


# ---- metrics ---------------------------------------------------------------------------
def test_auc_accumulate_type_and_value():
    paddle = paddle_ref()
    rng = np.random.default_rng(0)
    p0 = rng.random((50, 1))
    preds = np.concatenate([p0, 1 - p0], axis=1)
    labels = rng.integers(0, 2, (50, 1))
    out = []
    for fw in (pagaie, paddle):
        m = fw.metric.Auc()
        empty = m.accumulate()
        m.update(preds=preds, labels=labels)
        out.append((type(empty), m.accumulate()))
    assert out[0][0] is out[1][0] is float
    assert type(out[0][1]) is type(out[1][1]) is np.float64
    assert out[0][1] == out[1][1]


def test_metric_return_types_match_paddle():
    paddle = paddle_ref()
    for topk in ((1,), (1, 2)):
        kinds = []
        for fw in (pagaie, paddle):
            m = fw.metric.Accuracy(topk=topk)
            pred = fw.to_tensor([[0.1, 0.7, 0.2], [0.6, 0.3, 0.1], [0.2, 0.3, 0.5]])
            label = fw.to_tensor([[1], [1], [0]])
            u = m.update(m.compute(pred, label))
            a = m.accumulate()
            kinds.append([type(v) for v in (u if isinstance(u, list) else [u])] +
                         [type(v) for v in (a if isinstance(a, list) else [a])])
        assert kinds[0] == kinds[1]
    for name in ("Precision", "Recall"):
        got = [type(getattr(fw.metric, name)().accumulate()) for fw in (pagaie, paddle)]
        assert got[0] is got[1]


# ---- AMP on the CPU is a no-op, as in Paddle ---------------------------------------------
def test_amp_on_cpu_makes_no_effect():
    paddle = paddle_ref()
    res = []
    for fw in (pagaie, paddle):
        fw.seed(1)
        model = fw.nn.Conv2D(3, 2, 3)
        opt = fw.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            scaler = fw.amp.GradScaler(init_loss_scaling=1024)
            with fw.amp.auto_cast():
                conv = model(fw.rand([2, 3, 8, 8]))
                loss = fw.mean(conv)
        msgs = [str(x.message) for x in w if "makes no effect" in str(x.message)]
        scaled = scaler.scale(loss)
        scaled.backward()
        scaler.minimize(opt, scaled)
        dec = fw.amp.decorate(fw.nn.Linear(2, 2), level="O2")
        res.append((str(conv.dtype).split(".")[-1],
                    list(scaled.shape), scaler.is_enable(), scaler.get_init_loss_scaling(),
                    scaled is loss, len(msgs), str(dec.weight.dtype).split(".")[-1]))
    assert res[0] == res[1]
    assert res[0][0] == "float32" and res[0][1] == []


def test_cpu_amp_opt_in_still_works():
    prev = pagaie.amp.state.allow_cpu(True)
    try:
        with pagaie.amp.auto_cast(dtype="bfloat16"):
            y = pagaie.matmul(pagaie.ones([2, 2]), pagaie.ones([2, 2]))
        assert y.dtype == pagaie.bfloat16
        assert pagaie.amp.GradScaler().is_enable()
    finally:
        pagaie.amp.state.allow_cpu(prev)


# ---- static-mode DataLoader feeds, Executor list feeds --------------------------------------
class _DS:
    def __getitem__(self, i):
        return np.full([3], i, "float32"), np.array([i], "int64")

    def __len__(self):
        return 8


def test_static_dataloader_gives_feed_dicts():
    ds = type("DS", (_DS, pagaie.io.Dataset), {})()
    with _static(pagaie):
        main, start = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, start):
            image = pagaie.static.data(name="image", shape=[None, 3], dtype="float32")
            label = pagaie.static.data(name="label", shape=[None, 1], dtype="int64")
            out = pagaie.sum(image)
        with pytest.raises(AssertionError):
            pagaie.io.DataLoader(ds, batch_size=4, return_list=False)
        loader = pagaie.io.DataLoader(ds, feed_list=[image, label], batch_size=4, return_list=False)
        batches = list(loader())
        assert len(batches) == 2 and isinstance(batches[0], list) and len(batches[0]) == 1
        assert sorted(batches[0][0]) == ["image", "label"]
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        exe.run(start)
        got = [float(exe.run(main, feed=b, fetch_list=[out])[0]) for b in batches]
        assert got == [18.0, 66.0]
        with pytest.raises(TypeError):
            exe.run(main, feed=3, fetch_list=[out])


# ---- jit.load of a save_inference_model output -------------------------------------------
def test_jit_load_reads_static_inference_model(tmp_path):
    with _static(pagaie):
        main, start = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, start):
            x = pagaie.static.data(name="x", shape=[None, 4], dtype="float32")
            y = pagaie.static.nn.fc(x, 2)
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        exe.run(start)
        xs = np.random.rand(3, 4).astype("float32")
        want = exe.run(main, feed={"x": xs}, fetch_list=[y])[0]
        prefix = str(tmp_path / "m")
        pagaie.static.save_inference_model(prefix, [x], [y], exe, program=main)
    layer = pagaie.jit.load(prefix)
    assert layer.eval() is None and layer.train() is None
    np.testing.assert_allclose(layer(pagaie.to_tensor(xs)).numpy(), want, rtol=1e-6)
    assert all(not p.stop_gradient for p in layer.parameters())


# ---- static save / load: scope tensors, programs ----------------------------------------
def test_static_scope_and_save_load(tmp_path):
    with _static(pagaie):
        main, start = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, start):
            x = pagaie.static.data(name="x", shape=[None, 6], dtype="float32")
            pagaie.static.nn.fc(x, 5)
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        exe.run(start)
        w = next(v for v in main.list_vars() if list(v.shape) == [6, 5])
        t = pagaie.static.global_scope().find_var(w.name).get_tensor()
        arr = np.array(t)
        assert arr.shape == (6, 5)
        pagaie.save(t, str(tmp_path / "t.pdtensor"))
        # (in static mode, as Paddle, a loaded tensor is a DenseTensor)
        np.testing.assert_array_equal(np.array(pagaie.load(str(tmp_path / "t.pdtensor"))), arr)
        path = str(tmp_path / "main.pdmodel")
        pagaie.save(main, path)
        prog = pagaie.load(path)
        assert isinstance(prog, pagaie.static.Program)
        assert [op.type for op in prog.global_block().ops] == [op.type for op in main.global_block().ops]


# ---- PIR-style Value printing -------------------------------------------------------------
def _value_reprs(fw):
    with _static(fw):
        main, start = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, start):
            out = [fw.static.data("a", [2, -1], "float16"), fw.static.data("b", [], "float32"),
                   fw.static.data("c", [3, 2], "bool"), fw.static.data("d", [3], "int64")]
            out.append(fw.topk(fw.static.data("t", [3, 4]), 2)[1])
            x = fw.static.data("x", [None, 4, 5])
            z = fw.static.nn.fc(x, 10)
            out.append(z)
            loss = fw.mean(z)
            _, params_grads = fw.optimizer.SGD(learning_rate=0.1).minimize(loss)
            pg = sorted(params_grads, key=lambda p: len(p[0].shape))
        return [str(v) for v in out] + [str(v) for pair in pg for v in pair]


def test_value_prints_in_pir_form():
    paddle = paddle_ref()
    assert _value_reprs(pagaie) == _value_reprs(paddle)


# ---- distributed -----------------------------------------------------------------------
def test_dist_attr_str_matches_paddle():
    paddle = paddle_ref()
    for specs in (["x", "y"], [None, "y"], ["y", None, "x"], []):
        got = []
        for fw in (pagaie, paddle):
            mesh = fw.distributed.ProcessMesh([[2, 4, 5], [0, 1, 3]], dim_names=["x", "y"])
            got.append(str(fw.distributed.DistAttr(mesh=mesh, sharding_specs=specs)))
        assert got[0] == got[1]


def test_role_maker_module_path():
    from pagaie.distributed.fleet.base.role_maker import Role
    assert Role is pagaie.distributed.fleet.role_maker.Role


def test_load_state_dict_errors(tmp_path):
    sd = {"w": pagaie.ones([2])}
    with pytest.raises(FileNotFoundError):
        pagaie.distributed.load_state_dict(sd, str(tmp_path / "missing"))
    os.makedirs(tmp_path / "empty")
    with pytest.raises(AssertionError):
        pagaie.distributed.load_merged_state_dict(str(tmp_path / "empty"))


# ---- static.nn -------------------------------------------------------------------------
def test_static_nn_shares_named_parameters():
    with _static(pagaie):
        main, start = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, start):
            w1 = pagaie.static.data("w1", [-1, 1], "int64")
            w2 = pagaie.static.data("w2", [-1, 1], "int64")
            e1 = pagaie.static.nn.embedding(w1, size=[10, 4], param_attr="embed")
            e2 = pagaie.static.nn.embedding(w2, size=[10, 4], param_attr="embed")
            with pytest.raises(ValueError):
                pagaie.static.nn.embedding(w2, size=[11, 4], param_attr="embed")
        exe = pagaie.static.Executor(pagaie.CPUPlace())
        exe.run(start)
        ids = np.array([[3], [7]], "int64")
        a, b = exe.run(main, feed={"w1": ids, "w2": ids}, fetch_list=[e1, e2])
        np.testing.assert_array_equal(a, b)


def test_cond_dtype_mismatch_is_runtime_error():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        with _static(fw):
            main, start = fw.static.Program(), fw.static.Program()
            with fw.static.program_guard(main, start):
                p = fw.full([1], True, "bool")
                with pytest.raises(RuntimeError):
                    fw.static.nn.cond(p, lambda: fw.full([1, 2], 1.0, "float32"),
                                      lambda: fw.full([1, 2], 1, "int32"))
