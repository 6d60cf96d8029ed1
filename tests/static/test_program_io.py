"""Program.clone(for_test), state dicts, static.save/load, inference models, serialisation,
the .pdiparams format (against files written by real Paddle) and Executor.run semantics."""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import pagaie
from pagaie._formats.pdiparams import read_pdiparams, write_pdiparams
from tests.reference import paddle_ref


def _build(with_opt=True, dropout=0.5):
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [None, 3, 4, 4], "float32")
            y = pagaie.static.data("y", [None, 1], "float32")
            h = pagaie.static.nn.batch_norm(pagaie.static.nn.conv2d(x, 2, 3), act="relu")
            h = pagaie.nn.functional.dropout(pagaie.flatten(h, 1), p=dropout)
            out = pagaie.static.nn.fc(h, 1)
            loss = pagaie.mean((out - y) ** 2)
            if with_opt:
                pagaie.optimizer.Adam(0.01).minimize(loss)
        return main, x, y, out, loss
    finally:
        pagaie.disable_static()


def _feed(n=4, seed=0):
    rng = np.random.default_rng(seed)
    return {"x": rng.standard_normal([n, 3, 4, 4]).astype("float32"),
            "y": rng.standard_normal([n, 1]).astype("float32")}


def test_clone_for_test_drops_training_and_uses_running_stats():
    main, x, y, out, loss = _build()
    test = main.clone(for_test=True)
    types = [op.type for op in test.global_block().ops]
    assert "pagaie.backward" not in types and "pagaie.optimizer_step" not in types
    assert "pagaie.backward" in [op.type for op in main.global_block().ops]
    assert all(op.attrs.get("is_test") for op in test.global_block().ops
               if op.type in ("batch_norm", "dropout"))
    exe = pagaie.static.Executor()
    stats = {k: np.array(v) for k, v in main.state_dict("param").items() if ".w_1" in k or ".w_2" in k}
    a = exe.run(test, feed=_feed(), fetch_list=[out.name])[0]
    b = exe.run(test, feed=_feed(), fetch_list=[out.name])[0]
    np.testing.assert_array_equal(a, b)  # dropout off, running statistics used
    after = {k: np.array(v) for k, v in main.state_dict("param").items() if k in stats}
    for k in stats:  # the test program does not touch the moving statistics ...
        np.testing.assert_array_equal(after[k], stats[k])
    exe.run(main, feed=_feed(), fetch_list=[loss])
    moved = {k: np.array(v) for k, v in main.state_dict("param").items() if k in stats}
    assert any(not np.allclose(moved[k], stats[k]) for k in stats)  # ... training does


def test_state_dict_and_static_save_load(tmp_path):
    main, x, y, out, loss = _build()
    exe = pagaie.static.Executor()
    for i in range(3):
        exe.run(main, feed=_feed(seed=i), fetch_list=[loss])
    sd = main.state_dict()
    assert any(k.endswith("_moment1_0") for k in sd)  # optimizer state, Paddle's names
    path = str(tmp_path / "ckpt" / "model")
    pagaie.static.save(main, path)
    assert sorted(os.listdir(tmp_path / "ckpt")) == ["model.json", "model.pdopt", "model.pdparams"]
    before = exe.run(main.clone(for_test=True), feed=_feed(seed=9), fetch_list=[out.name])[0]
    exe.run(main, feed=_feed(seed=5), fetch_list=[loss])  # changes parameters
    pagaie.static.load(main, path, exe)
    after = exe.run(main.clone(for_test=True), feed=_feed(seed=9), fetch_list=[out.name])[0]
    np.testing.assert_allclose(after, before, rtol=1e-6)
    state = pagaie.static.load_program_state(path)
    assert set(main.state_dict("param")) <= set(state)
    main.set_state_dict({k: np.zeros_like(v) for k, v in state.items() if k in main.state_dict("param")})
    assert all(not np.array(v).any() for v in main.state_dict("param").values())


def test_save_load_inference_model_round_trip(tmp_path):
    main, x, y, out, loss = _build()
    exe = pagaie.static.Executor()
    exe.run(main, feed=_feed(), fetch_list=[loss])
    prefix = str(tmp_path / "inf" / "model")
    pagaie.static.save_inference_model(prefix, [x], [out], exe, program=main)
    assert os.path.exists(prefix + ".json") and os.path.exists(prefix + ".pdiparams")
    want = exe.run(main.clone(for_test=True), feed=_feed(seed=3), fetch_list=[out.name])[0]
    prog, feeds, fetches = pagaie.static.load_inference_model(prefix, exe)
    assert feeds == ["x"] and len(fetches) == 1
    assert "y" not in prog.global_block().vars  # pruned to the feed -> fetch subgraph
    got = exe.run(prog, feed={"x": _feed(seed=3)["x"]}, fetch_list=fetches)[0]
    np.testing.assert_allclose(got, want, rtol=1e-6)
    arrays = read_pdiparams(prefix + ".pdiparams")
    names = sorted(v.name for v in prog.global_block().vars.values() if v.persistable)
    assert len(arrays) == len(names)
    blob = pagaie.static.serialize_persistables([x], [out], exe, program=main)
    p2 = pagaie.static.deserialize_program(pagaie.static.serialize_program([x], [out], program=main))
    pagaie.static.deserialize_persistables(p2, blob, exe)
    np.testing.assert_allclose(exe.run(p2, feed={"x": _feed(seed=3)["x"]}, fetch_list=[out.name])[0],
                               want, rtol=1e-6)


def test_pdiparams_reads_and_writes_paddle_files(tmp_path):
    paddle = paddle_ref()
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            out = paddle.static.nn.fc(x, 2, weight_attr=paddle.ParamAttr(name="pdip_w"),
                                      bias_attr=paddle.ParamAttr(name="pdip_b"))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        prefix = str(tmp_path / "pd")
        paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
        scope = paddle.static.global_scope()
        values = {n: np.array(scope.find_var(n).get_tensor()) for n in ("pdip_b", "pdip_w")}
    finally:
        paddle.disable_static()
    arrays = read_pdiparams(prefix + ".pdiparams")
    assert [a.shape for a in arrays] == [(2,), (3, 2)]
    for a, n in zip(arrays, sorted(values)):  # Paddle orders the tensors by name
        np.testing.assert_array_equal(a, values[n])
    write_pdiparams(str(tmp_path / "ours.pdiparams"), arrays)
    assert open(tmp_path / "ours.pdiparams", "rb").read() == open(prefix + ".pdiparams", "rb").read()


def _simple():
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [None, 2], "float32")
            y = x * 2
        return main, y
    finally:
        pagaie.disable_static()


def test_executor_run_semantics():
    main, y = _simple()
    exe = pagaie.static.Executor(pagaie.CPUPlace())
    assert exe.run(pagaie.static.default_startup_program()) == []  # startup: a no-op
    out = exe.run(main, feed={"x": np.ones([3, 2], "float32")}, fetch_list=[y.name])
    assert isinstance(out[0], np.ndarray) and out[0].dtype == np.float32
    t = exe.run(main, feed={"x": [[1.0, 2.0]]}, fetch_list=[y], return_numpy=False)[0]
    # Paddle's DenseTensor view, not a Tensor
    assert not isinstance(t, pagaie.Tensor) and t.shape() == [1, 2] and np.array(t).tolist() == [[2.0, 4.0]]
    with pytest.raises(ValueError):
        exe.run(main, feed={"x": np.ones([3, 2], "float64")}, fetch_list=[y])
    # as Paddle's executor, the fed shape is not checked against the declared one
    assert exe.run(main, feed={"x": np.ones([3], "float32")}, fetch_list=[y])[0].tolist() == [2.0] * 3
    with pytest.raises(KeyError):
        exe.run(main, feed={}, fetch_list=[y])
    with pytest.raises(TypeError):
        exe.run(main, feed={"x": np.ones([3, 2], "float32")}, fetch_list=[1])
    with pytest.raises(ValueError):
        exe.run(main, feed={"x": np.ones([3, 2], "float32")}, fetch_list=["nonexistent"])


def test_executor_feed_errors_match_paddle():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        fw.enable_static()
        try:
            main = fw.static.Program()
            with fw.static.program_guard(main, fw.static.Program()):
                x = fw.static.data("x", [None, 2], "float32")
                y = x * 2
            exe = fw.static.Executor(fw.CPUPlace())
            with pytest.raises(ValueError):
                exe.run(main, feed={"x": np.ones([3, 2], "int64")}, fetch_list=[y])
            with pytest.raises(KeyError):
                exe.run(main, feed={}, fetch_list=[y])
            with pytest.raises(TypeError):
                exe.run(main, feed={"x": np.ones([3, 2], "float32")}, fetch_list=[1])
        finally:
            fw.disable_static()


def test_scope_holds_persistables_after_run():
    main, x, y, out, loss = _build(with_opt=False)
    exe = pagaie.static.Executor()
    exe.run(main, feed=_feed(), fetch_list=[loss])
    scope = pagaie.static.global_scope()
    for p in main.global_block().all_parameters():
        v = scope.find_var(p.name)
        assert v is not None
        np.testing.assert_array_equal(np.array(v.get_tensor()), p.source.numpy())
    new = pagaie.static.Scope()
    with pagaie.static.scope_guard(new):
        exe.run(main, feed=_feed(), fetch_list=[loss])
        assert pagaie.static.global_scope() is new and new.find_var(p.name) is not None


def test_compiled_program_runs_like_program():
    main, x, y, out, loss = _build(with_opt=False, dropout=0.0)
    exe = pagaie.static.Executor()
    test = main.clone(for_test=True)
    a = exe.run(test, feed=_feed(), fetch_list=[out.name])[0]
    compiled = pagaie.static.CompiledProgram(test, pagaie.static.BuildStrategy())
    b = exe.run(compiled, feed=_feed(), fetch_list=[out.name])[0]
    np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_print_and_py_func(capsys):
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [2], "float32")
            x.stop_gradient = False
            p = pagaie.static.Print(x, message="hello", first_n=1)
            out = main.global_block().create_var(name="pf_out", shape=[2], dtype="float32")
            out = pagaie.static.py_func(lambda t: np.asarray(t) ** 2, p, out,
                                        backward_func=lambda t, o, g: 2 * np.asarray(t) * np.asarray(g))
            (g,) = pagaie.static.gradients([pagaie.sum(out)], [x])
    finally:
        pagaie.disable_static()
    exe = pagaie.static.Executor()
    for _ in range(2):
        o, gv = exe.run(main, feed={"x": np.array([1.0, 3.0], "float32")}, fetch_list=[out, g])
    np.testing.assert_allclose(o, [1.0, 9.0])
    np.testing.assert_allclose(gv, [2.0, 6.0])
    printed = capsys.readouterr().out
    assert printed.count("message: hello") == 1 and "shape: [2]" in printed


def test_global_var_and_auc_accumulate_over_runs():
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            p = pagaie.static.data("p", [None, 2], "float32")
            lab = pagaie.static.data("l", [None, 1], "int64")
            counter = pagaie.static.create_global_var([1], 0.0, "float32", persistable=True)
            c = counter.increment_()
            auc, batch_auc, stats = pagaie.static.auc(p, lab, num_thresholds=99)
    finally:
        pagaie.disable_static()
    exe = pagaie.static.Executor()
    probs = np.array([[0.9, 0.1], [0.2, 0.8]], "float32")
    for i in range(3):
        cv, a, b = exe.run(main, feed={"p": probs, "l": np.array([[0], [1]])}, fetch_list=[c, auc, batch_auc])
    assert cv.tolist() == [3.0] and float(a) == 1.0 and float(b) == 1.0
    assert int(exe.run(main, feed={"p": probs, "l": np.array([[0], [1]])}, fetch_list=[stats[2]])[0].sum()) == 4  # one positive per run


def test_program_set_state_dict_takes_a_partial_optimizer_state():
    main, x, y, out, loss = _build()
    exe = pagaie.static.Executor()
    for i in range(2):
        exe.run(main, feed=_feed(seed=i), fetch_list=[loss])
    opt_state = main.state_dict("opt")
    name = sorted(k for k in opt_state if k.endswith("_moment1_0"))[0]
    other = sorted(k for k in opt_state if k.endswith("_moment2_0"))[0]
    kept = np.array(opt_state[other])
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # every key is used
        main.set_state_dict({name: np.full(opt_state[name].shape(), 0.5, "float32")})
    now = main.state_dict("opt")
    assert np.all(np.array(now[name]) == 0.5)
    np.testing.assert_array_equal(np.array(now[other]), kept)


def test_amp_program_state_dict_lists_its_optimizer_state():
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [None, 4], "float32")
            loss = pagaie.mean(pagaie.static.nn.fc(x, 2))
            opt = pagaie.static.amp.decorate(pagaie.optimizer.Adam(0.01), dtype="bfloat16")
            opt.minimize(loss)
    finally:
        pagaie.disable_static()
    pagaie.static.Executor().run(main, feed={"x": np.ones([2, 4], "float32")}, fetch_list=[loss])
    assert any(k.endswith("_moment1_0") for k in main.state_dict("opt"))


def _printed(fw, capfd):
    import numpy as np
    fw.enable_static()
    try:
        main = fw.static.Program()
        with fw.static.program_guard(main):
            x = fw.static.data("x", [2, 3], "float32")
            i = fw.static.data("i", [3], "int64")
            outs = [fw.static.Print(x, message="hello"), fw.static.Print(i, summarize=2, print_tensor_lod=False)]
        exe = fw.static.Executor(fw.CPUPlace())
        capfd.readouterr()
        exe.run(main, feed={"x": np.array([[1.5, -1, 0], [1e-7, 123456.789, 2]], "float32"),
                            "i": np.array([1, 2, 3])}, fetch_list=outs)
        text = capfd.readouterr().out
    finally:
        fw.disable_static()
    # Paddle names every value "var" there (pagaie prints the value's own name), and its
    # executor may print the two in either order
    blocks = [b.split("\n", 1)[1] for b in text.split("Variable: ")[1:]]
    return sorted(ln for b in blocks for ln in [b.strip()])


def test_static_print_layout_matches_paddle(capfd):
    theirs = _printed(paddle_ref(), capfd)
    assert _printed(pagaie, capfd) == theirs


def test_a_failing_operator_is_named():
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [None, 3], "float32")
            out = pagaie.matmul(x, pagaie.ones([3, 2]))
    finally:
        pagaie.disable_static()
    with pytest.raises(ValueError, match=r"paddle\.matmul: .*x \(5\) must equal .* y \(3\)"):
        pagaie.static.Executor().run(main, feed={"x": np.ones([2, 5], "float32")}, fetch_list=[out])
