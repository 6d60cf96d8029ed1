"""paddle.static leftovers and ``Program.random_seed``, pagaie vs real Paddle 3.3.1 (PIR mode).

Dropout reads the default main program's ``random_seed`` when it is recorded: a non-zero seed
gives the op a fresh mt19937_64 seeded with it on every run (the same mask each run, and
Paddle's mask). Places, IPU names, LoD sequence layers and ``nce`` raise as in a CPU build of
Paddle; ``static_pylayer``, ``normalize_program`` and ``save_inference_model`` check their
arguments as Paddle does. Several APIs are broken in Paddle's PIR mode (``serialize_program``,
``create_global_var``, ``ExponentialMovingAverage``, ``ctr_metric_bundle``): pagaie keeps
them working and they are pinned here on their own (round trips, hand-computed values).
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, paddle_ref, same_exception


def _static(fw, build, feeds=None, runs=1, seed=None):
    """Build a program in static mode with ``build(fw) -> fetch list`` and run it ``runs``
    times; returns the fetched numpy arrays of every run. ``seed`` re-seeds before each run."""
    fw.enable_static()
    try:
        main, startup = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, startup):
            fetch = build(fw, main)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(startup)
        out = []
        for _ in range(runs):
            if seed is not None:
                fw.seed(seed)
            out.append([np.asarray(v) for v in exe.run(main, feed=feeds or {}, fetch_list=fetch)])
        return out
    finally:
        fw.disable_static()


def _both_static(build, feeds=None, runs=1, seed=None):
    paddle = paddle_ref()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _static(paddle, build, feeds, runs, seed)
    return _static(pagaie, build, feeds, runs, seed), theirs


# ---- Program.random_seed ------------------------------------------------------------------

@pytest.mark.parametrize("value", [7, -5, True, np.int64(3), (1 << 63) - 1, -(1 << 63)])
def test_random_seed_accepts_int64_values(value):
    paddle = paddle_ref()
    got = []
    for fw in (pagaie, paddle):
        prog = fw.static.Program()
        prog.random_seed = value
        got.append(prog.random_seed)
    assert got[0] == got[1] and type(got[0]) is int


@pytest.mark.parametrize("value", [1.5, "3", None, 1 << 63, -(1 << 63) - 1, [1]])
def test_random_seed_rejects_non_int64(value):
    def set_seed(fw):
        fw.static.Program().random_seed = value
    same_exception(set_seed)


def test_clone_starts_with_random_seed_zero():
    paddle = paddle_ref()

    def run(fw):
        fw.enable_static()
        try:
            prog = fw.static.Program()
            prog.random_seed = 11
            return prog.clone().random_seed, prog.random_seed
        finally:
            fw.disable_static()
    assert run(pagaie) == run(paddle) == (0, 11)


def test_global_seed_seeds_new_programs():
    paddle = paddle_ref()
    res = []
    for fw in (pagaie, paddle):
        fw.enable_static()
        prog = fw.static.Program()
        try:
            prog.global_seed(102)
            res.append((prog.random_seed, fw.static.Program().random_seed))
        finally:
            prog.global_seed(0)
            fw.disable_static()
    assert res[0] == res[1] == (102, 102)
    same_exception(lambda fw: fw.static.Program().global_seed(1.5))


X40 = np.random.RandomState(0).rand(40, 30)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p, mode", [(0.3, "upscale_in_train"), (0.6, "downscale_in_infer"),
                                     (0.5, "upscale_in_train")])
def test_seeded_dropout_repeats_paddles_mask(dtype, p, mode):
    def build(fw, main):
        main.random_seed = 123
        x = fw.static.data("x", [40, 30], dtype)
        a = fw.nn.functional.dropout(x, p, mode=mode)
        b = fw.nn.Dropout(p, mode=mode)(x)
        main.random_seed = 0
        c = fw.nn.functional.dropout(x, p, mode=mode)       # recorded unseeded
        return [a, b, c]
    ours, theirs = _both_static(build, {"x": X40.astype(dtype)}, runs=2, seed=5)
    for run in range(2):
        assert_same(ours[run], theirs[run], what=f"run {run}")
    np.testing.assert_array_equal(ours[0][0], ours[1][0])   # the seeded mask repeats
    np.testing.assert_array_equal(ours[0][0], ours[0][1])   # a fresh engine per op


@pytest.mark.parametrize("seed", [-3, (1 << 31) - 1])
def test_seeded_dropout_large_and_negative_seeds(seed):
    # more than one twist of the engine (312 words), a negative and the largest int32 seed
    def build(fw, main):
        main.random_seed = seed
        x = fw.static.data("x", [50, 41], "float32")
        return [fw.nn.functional.dropout(x, 0.25)]
    ours, theirs = _both_static(build, {"x": np.ones((50, 41), "float32")})
    assert_same(ours[0], theirs[0])


def test_dropout_seed_beyond_int32_raises():
    def build(fw):
        fw.enable_static()
        try:
            main = fw.static.Program()
            main.random_seed = (1 << 40) + 17
            with fw.static.program_guard(main, fw.static.Program()):
                fw.nn.functional.dropout(fw.static.data("x", [2, 3], "float32"), 0.5)
        finally:
            fw.disable_static()
    same_exception(build)


def test_random_seed_set_after_recording_does_not_seed():
    def build(fw, main):
        x = fw.static.data("x", [6, 7], "float32")
        y = fw.nn.functional.dropout(x, 0.5)
        main.random_seed = 99
        return [y]
    ours, theirs = _both_static(build, {"x": np.ones((6, 7), "float32")}, runs=2, seed=8)
    assert_same(ours, theirs)


def test_dropout_with_axis_ignores_random_seed():
    def build(fw, main):
        main.random_seed = 42
        x = fw.static.data("x", [5, 6], "float32")
        return [fw.nn.functional.dropout(x, 0.4, axis=1), fw.nn.functional.dropout2d(
            fw.reshape(x, [1, 5, 2, 3]), 0.5)]
    ours, theirs = _both_static(build, {"x": np.ones((5, 6), "float32")}, runs=2, seed=4)
    assert_same(ours, theirs)


def test_seeded_dropout_gradient_and_cond_block():
    def build(fw, main):
        main.random_seed = 31
        x = fw.static.data("x", [4, 9], "float32")
        x.stop_gradient = False
        y = fw.nn.functional.dropout(x, 0.3)
        z = fw.static.nn.cond(fw.full([1], True), lambda: fw.nn.functional.dropout(x, 0.5),
                              lambda: x)
        g = fw.static.gradients([fw.sum(y * 3.0)], [x])[0]
        return [y, z, g]
    ours, theirs = _both_static(build, {"x": np.arange(36, dtype="float32").reshape(4, 9)}, runs=2)
    assert_same(ours, theirs)


def test_to_static_dropout_follows_random_seed_of_each_call():
    paddle = paddle_ref()
    res = []
    for fw in (pagaie, paddle):
        f = fw.jit.to_static(lambda x, fw=fw: fw.nn.functional.dropout(x, 0.4) * 3)
        x = fw.ones([5, 6])
        outs = []
        try:
            for s in (7, 9, 7):
                fw.static.default_main_program().random_seed = s
                outs.append(f(x).numpy())
        finally:
            fw.static.default_main_program().random_seed = 0
        res.append(outs)
    assert_same(res[0], res[1])
    np.testing.assert_array_equal(res[0][0], res[0][2])


def test_seeded_dropout_after_json_round_trip_and_compiled_plan():
    # the seed is kept in the program file; the compiled executor pins it too
    from pagaie._static.compiled import CompiledPlan

    def build(fw, main):
        main.random_seed = 77
        x = fw.static.data("x", [8, 40], "float32")
        return [fw.nn.functional.dropout(x, 0.25) * 2]
    feed = {"x": np.ones((8, 40), "float32")}
    _, theirs = _both_static(build, feed)
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [8, 40], "float32")
            (y,) = build(pagaie, main)
        exe = pagaie.static.Executor()
        prog = type(main).from_json(main.to_json())         # the training program's JSON
        fetch = prog.global_block().var(y.name)
        for _ in range(2):
            assert_same(exe.run(prog, feed=feed, fetch_list=[fetch])[0], theirs[0][0])
        plan = CompiledPlan(main, ["x"], [y], backend=None)
        import torch
        for _ in range(2):
            assert_same(plan.run({"x": torch.ones(8, 40)})[0].numpy(), theirs[0][0])
    finally:
        pagaie.disable_static()


# ---- places, IPU, LoD layers, nce ---------------------------------------------------------

def test_cpu_places_counts():
    paddle = paddle_ref()
    for n in (None, 0, 2, -1):
        ours = pagaie.static.cpu_places(n) if n is not None else pagaie.static.cpu_places()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = paddle.static.cpu_places(n) if n is not None else paddle.static.cpu_places()
        assert len(ours) == len(theirs)


@pytest.mark.skipif(pagaie.is_compiled_with_cuda(), reason="a CUDA device is usable")
@pytest.mark.parametrize("call", [lambda fw: fw.static.cuda_places(),
                                  lambda fw: fw.static.cuda_places([0]),
                                  lambda fw: fw.static.xpu_places()],
                         ids=["cuda", "cuda-ids", "xpu"])
def test_places_without_device_raise_assertion(call):
    same_exception(call)


def _enter(cm):
    with cm:
        pass


@pytest.mark.parametrize("call", [
    lambda fw: fw.static.IpuStrategy(),
    lambda fw: fw.static.IpuCompiledProgram(),
    lambda fw: _enter(fw.static.ipu_shard_guard(index=0, stage=0)),
    lambda fw: fw.static.set_ipu_shard(lambda x: x)(1),
    lambda fw: fw.static.set_ipu_shard(fw.nn.ReLU())(fw.ones([2])),
    lambda fw: fw.static.set_ipu_shard(3),
], ids=["strategy", "compiled", "guard", "shard-fn", "shard-layer", "shard-bad"])
def test_ipu_names_raise_as_a_cpu_build(call):
    same_exception(call)


def test_set_ipu_shard_returns_the_layer():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        layer = fw.nn.ReLU()
        assert fw.static.set_ipu_shard(layer) is layer
        assert isinstance(layer, fw.nn.ReLU) and type(layer).__name__ == "ReLU"


@pytest.mark.parametrize("api, args", [
    ("sequence_softmax", ()), ("sequence_first_step", ()), ("sequence_last_step", ()),
    ("sequence_pool", ("sum",)), ("sequence_conv", (3,)), ("sequence_expand", ("x",)),
    ("nce", ("label", 10)),
])
def test_lod_layers_and_nce_raise_as_in_pir(api, args):
    def call(fw):
        fw.enable_static()
        try:
            with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
                x = fw.static.data("x", [4, 6], "float32")
                label = fw.static.data("label", [4, 1], "int64")
                real = [x if a == "x" else label if a == "label" else a for a in args]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    getattr(fw.static.nn, api)(x, *real)
        finally:
            fw.disable_static()
    err = same_exception(call)
    assert isinstance(err, NotImplementedError)


# ---- static_pylayer -----------------------------------------------------------------------

def test_static_pylayer_values_and_custom_gradient():
    def build(fw, main):
        x = fw.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        xs = fw.static.data("xs", [2, 3], "float32")
        y = fw.static.nn.static_pylayer(lambda a: fw.exp(a), [x], backward_fn=lambda g: g * 2)
        y2 = fw.static.nn.static_pylayer(lambda a: (a * 2, a + 1), [xs])
        gx = fw.static.gradients([fw.mean(y)], [x])[0]
        return [y, gx, *y2]
    xv = np.arange(6, dtype="float32").reshape(2, 3) / 10
    ours, theirs = _both_static(build, {"x": xv, "xs": xv})
    assert_same(ours, theirs)


def _pylayer_case(fw, make):
    fw.enable_static()
    try:
        with fw.static.program_guard(fw.static.Program(), fw.static.Program()):
            x = fw.static.data("x", [2, 3], "float32")
            x.stop_gradient = False
            xs = fw.static.data("xs", [2, 3], "float32")
            return make(fw, x, xs)
    finally:
        fw.disable_static()


@pytest.mark.parametrize("make", [
    lambda fw, x, xs: fw.static.nn.static_pylayer(fw.exp, [x]),             # needs grad, no bwd
    lambda fw, x, xs: fw.static.nn.static_pylayer(3, [xs]),
    lambda fw, x, xs: fw.static.nn.static_pylayer(fw.exp, xs),
    lambda fw, x, xs: fw.static.nn.static_pylayer(fw.exp, (xs,)),
    lambda fw, x, xs: fw.static.nn.static_pylayer(fw.exp, [x], backward_fn=3),
], ids=["grad-input-no-backward", "forward-not-callable", "value-inputs", "tuple-inputs",
        "backward-not-callable"])
def test_static_pylayer_argument_errors(make):
    same_exception(lambda fw: _pylayer_case(fw, make))


def test_static_pylayer_forward_without_outputs_gives_none():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        assert _pylayer_case(fw, lambda fw, x, xs: fw.static.nn.static_pylayer(lambda a: None, [xs])) is None


# ---- inference programs --------------------------------------------------------------------

def _io_case(fw, act, tmp):
    fw.enable_static()
    try:
        main = fw.static.Program()
        with fw.static.program_guard(main, fw.static.Program()):
            x = fw.static.data("x", [-1, 4], "float32")
            z = fw.static.data("z", [-1, 4], "float32")
            w = fw.static.data("w", [-1, 4], "float32")
            y = x * 2 + z
        exe = fw.static.Executor(fw.CPUPlace())
        return act(fw, main, exe, x, z, w, y, os.path.join(tmp, fw.__name__))
    finally:
        fw.disable_static()


@pytest.mark.parametrize("act", [
    lambda fw, m, exe, x, z, w, y, p: fw.static.normalize_program(m, (x, z), [y]),
    lambda fw, m, exe, x, z, w, y, p: fw.static.normalize_program(m, "x", [y]),
    lambda fw, m, exe, x, z, w, y, p: fw.static.normalize_program(m, [x, z], 3),
    lambda fw, m, exe, x, z, w, y, p: fw.static.normalize_program("main", [x], [y]),
    lambda fw, m, exe, x, z, w, y, p: fw.static.normalize_program(fw.static.Program(), [x], [y]),
    lambda fw, m, exe, x, z, w, y, p: fw.static.normalize_program(m, [w, x, z], [y]),
    lambda fw, m, exe, x, z, w, y, p: fw.static.save_inference_model(p, (x, z), [y], exe, program=m),
    lambda fw, m, exe, x, z, w, y, p: fw.static.save_inference_model(p, [x, z], "y", exe, program=m),
    lambda fw, m, exe, x, z, w, y, p: fw.static.save_inference_model(p, [w, x, z], [y], exe, program=m),
], ids=["norm-tuple", "norm-str", "norm-int-fetch", "norm-not-program", "norm-empty",
        "norm-unused-feed", "sim-tuple", "sim-str-fetch", "sim-unused-feed"])
def test_inference_program_argument_errors(act, tmp_path):
    same_exception(lambda fw: _io_case(fw, act, str(tmp_path)))


@pytest.mark.parametrize("order", ["xz", "zx", "x", "z"])
def test_save_inference_model_feeds_in_program_order(order, tmp_path):
    paddle = paddle_ref()
    xv, zv = np.ones((2, 4), "float32"), np.full((2, 4), 3.0, "float32")

    def act(fw, m, exe, x, z, w, y, p):
        fw.static.save_inference_model(p, [{"x": x, "z": z}[c] for c in order], [y], exe, program=m)
        prog, feeds, fetch = fw.static.load_inference_model(p, exe)
        vals = {"x": xv, "z": zv}
        return feeds, exe.run(prog, feed={n: vals[n] for n in feeds}, fetch_list=fetch)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _io_case(paddle, act, str(tmp_path))
    ours = _io_case(pagaie, act, str(tmp_path))
    assert ours[0] == theirs[0] == ["x", "z"]
    assert_same(np.asarray(ours[1]), np.asarray(theirs[1]))


# ---- other paddle.static APIs ---------------------------------------------------------------

def test_py_func_runs_numpy_functions():
    # (Paddle 3.3.1's py_func rejects PIR values with TypeError; legacy-IR behaviour)
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            a = pagaie.static.data("a", [2, 3], "float32")
            out = main.global_block().create_var(name="pyout", dtype="float32", shape=[2, 3])
            got = pagaie.static.py_func(func=lambda t: np.tanh(np.asarray(t)), x=a, out=out)
            assert got is out
            assert pagaie.static.py_func(func=lambda t: None, x=a, out=None) is None
        av = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
        res = pagaie.static.Executor().run(main, feed={"a": av}, fetch_list=[out])[0]
        np.testing.assert_allclose(res, np.tanh(av), rtol=1e-6)
    finally:
        pagaie.disable_static()


def test_save_to_file_round_trip_and_errors(tmp_path):
    path = str(tmp_path / "blob.bin")
    pagaie.static.save_to_file(path, b"\x00abc")
    assert pagaie.static.load_from_file(path) == b"\x00abc"
    same_exception(lambda fw: fw.static.save_to_file(str(tmp_path / "s.bin"), "abc"))
    same_exception(lambda fw: fw.static.load_from_file(str(tmp_path / "missing.bin")))


def test_serialize_round_trip_runs_the_same():
    # Paddle 3.3.1's PIR serialize_program / serialize_persistables fail (no .desc)
    pagaie.enable_static()
    try:
        main, startup = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, startup):
            x = pagaie.static.data("x", [-1, 4], "float32")
            y = pagaie.nn.Linear(4, 3)(x)
        exe = pagaie.static.Executor()
        exe.run(startup)
        feed = {"x": np.arange(8, dtype="float32").reshape(2, 4)}
        want = exe.run(main, feed=feed, fetch_list=[y])[0]
        prog = pagaie.static.deserialize_program(pagaie.static.serialize_program([x], [y], program=main))
        pagaie.static.deserialize_persistables(
            prog, pagaie.static.serialize_persistables([x], [y], exe, program=main), exe)
        got = exe.run(prog, feed=feed, fetch_list=[prog.global_block().var(y.name)])[0]
        np.testing.assert_array_equal(got, want)
        with pytest.raises(ValueError):
            pagaie.static.deserialize_program(b"garbage")
    finally:
        pagaie.disable_static()


def test_create_global_var_checks_as_legacy_paddle():
    # (Paddle 3.3.1's create_global_var fails in PIR mode; these are its legacy-IR errors)
    pagaie.enable_static()
    try:
        with pagaie.static.program_guard(pagaie.static.Program(), pagaie.static.Program()):
            g = pagaie.static.create_global_var([2], 2, "int64")
            assert g.name.startswith("_generated_var_") and not g.persistable and g.stop_gradient
            for bad, err in [(dict(shape="ab"), TypeError), (dict(shape=2), TypeError),
                             (dict(shape=[2.5]), TypeError), (dict(value="x"), ValueError),
                             (dict(dtype="foo"), TypeError), (dict(shape=[-1, 2]), ValueError)]:
                kw = dict(shape=[2], value=1.0, dtype="float32")
                kw.update(bad)
                with pytest.raises(err):
                    pagaie.static.create_global_var(**kw)
    finally:
        pagaie.disable_static()


def test_exponential_moving_average_bias_corrected_values():
    # (Paddle 3.3.1's ExponentialMovingAverage fails in PIR and legacy mode: hand-computed)
    pagaie.enable_static()
    try:
        main, startup = pagaie.static.Program(), pagaie.static.Program()
        with pagaie.static.program_guard(main, startup):
            x = pagaie.static.data("x", [-1, 3], "float32")
            lin = pagaie.nn.Linear(3, 2, weight_attr=pagaie.ParamAttr(
                name="ema_w", initializer=pagaie.nn.initializer.Constant(0.5)), bias_attr=False)
            y = lin(x)
            test_prog = main.clone(for_test=True)
            pagaie.optimizer.SGD(0.1).minimize(pagaie.mean(y))
            ema = pagaie.static.ExponentialMovingAverage(0.9)
            ema.update()
        exe = pagaie.static.Executor()
        exe.run(startup)
        xv = np.arange(6, dtype="float32").reshape(2, 3)
        ws, e = [], np.zeros((3, 2))
        for _ in range(3):
            exe.run(main, feed={"x": xv})
            w = np.array(pagaie.static.global_scope().find_var("ema_w").get_tensor(), dtype="float64")
            e = 0.9 * e + 0.1 * w
            ws.append(w)
        with ema.apply(exe):
            got = exe.run(test_prog, feed={"x": xv}, fetch_list=[y])[0]
        np.testing.assert_allclose(got, xv @ (e / (1 - 0.9 ** 3)), rtol=1e-5)
        after = exe.run(test_prog, feed={"x": xv}, fetch_list=[y])[0]
        np.testing.assert_allclose(after, xv @ ws[-1], rtol=1e-5)
    finally:
        pagaie.disable_static()


@pytest.mark.parametrize("weighted", [False, True])
def test_ctr_metric_bundle_matches_legacy_paddle(weighted):
    # (Paddle 3.3.1's ctr_metric_bundle fails in PIR mode: compared with its legacy IR)
    paddle = paddle_ref()
    from paddle.pir_utils import OldIrGuard
    import contextlib
    feed = {"p": np.array([[0.1], [0.7], [0.4], [0.9]], "float32"),
            "lb": np.array([[0], [1], [1], [0]], "float32"),
            "w": np.array([[0.0]] if weighted else [[1.0]], "float32")}   # (Paddle's slice op
    # overwrites the weight variable with its first row, so only one row can be fed)
    res = []
    for fw, ctx in ((pagaie, contextlib.nullcontext()), (paddle, OldIrGuard())):
        fw.enable_static()
        try:
            with ctx, warnings.catch_warnings():
                warnings.simplefilter("ignore")
                main, startup = fw.static.Program(), fw.static.Program()
                with fw.static.program_guard(main, startup):
                    p = fw.static.data("p", [4, 1], "float32")
                    lb = fw.static.data("lb", [4, 1], "float32")
                    w = fw.static.data("w", [-1, 1], "float32")
                    r = fw.static.ctr_metric_bundle(p, lb, ins_tag_weight=w if weighted else None)
                exe = fw.static.Executor(fw.CPUPlace())
                exe.run(startup)
                res.append([[np.asarray(v) for v in exe.run(main, feed=feed, fetch_list=list(r))]
                            for _ in range(2)])
        finally:
            fw.disable_static()
    assert_same(res[0], res[1])


def test_scope_guard_switches_the_global_scope():
    paddle = paddle_ref()
    for fw in (pagaie, paddle):
        sc = fw.static.Scope() if hasattr(fw.static, "Scope") else fw.base.core.Scope()
        before = fw.static.global_scope()
        with fw.static.scope_guard(sc):
            assert fw.static.global_scope() is sc
        assert fw.static.global_scope() is before
