"""Session-20 sweep of optimizers, LR schedulers, gradient clipping, regularizers and AMP
against real Paddle 3.3.1."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref

paddle = pytest.importorskip("paddle")


# ---- AMP while a static program is built ---------------------------------------------------
def _static_autocast(fw, level, dtype, ops):
    """Build ``ops(fw, x, y)`` under auto_cast in a static program and run it on the CPU:
    (the outputs' build-time dtypes, their fetched dtypes and float32 values)."""
    fw.enable_static()
    try:
        main, start = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, start):
            x = fw.static.data("x", [2, 3], "float32")
            y = fw.static.data("y", [3, 2], "float32")
            with fw.amp.auto_cast(level=level, dtype=dtype):
                outs = ops(fw, x, y)
            built = [str(o.dtype).replace("paddle.", "") for o in outs]
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        got = exe.run(main, feed={"x": np.arange(6, dtype="float32").reshape(2, 3) / 4,
                                  "y": np.ones([3, 2], "float32")}, fetch_list=outs)
        # (a bfloat16 result is fetched as its uint16 bit patterns, in both frameworks)
        return built, [str(np.asarray(v).dtype) for v in got], [np.asarray(v).astype("float32") for v in got]
    finally:
        fw.disable_static()


_STATIC_OPS = {
    "matmul": lambda fw, x, y: [fw.matmul(x, y)],
    "matmul_then_add": lambda fw, x, y: [fw.matmul(x, y) + 1, fw.exp(x)],
    "mixed": lambda fw, x, y: [fw.matmul(x, y), fw.nn.functional.relu(fw.matmul(x, y)), fw.tanh(fw.matmul(x, y)),
                               fw.sum(x), fw.nn.functional.softmax(x)],
}


@pytest.mark.parametrize("level", ["O1", "O2"])
@pytest.mark.parametrize("ops", sorted(_STATIC_OPS))
def test_static_bfloat16_autocast_records_its_casts(level, ops):
    """A static program built under auto_cast(dtype='bfloat16') casts its inputs with recorded
    cast ops: it runs and fetches bfloat16 results (the casts were once taken as constants
    without data and the run failed)."""
    fn = _STATIC_OPS[ops]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = _static_autocast(pagaie, level, "bfloat16", fn)
        theirs = _static_autocast(paddle_ref(), level, "bfloat16", fn)
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]
    for a, b in zip(ours[2], theirs[2]):
        np.testing.assert_allclose(a, b, rtol=1e-2)


# ---- float64 optimizer state ---------------------------------------------------------------
def _float64_run(fw, name, steps=3, **kw):
    """Parameters and state (by accumulator suffix) after ``steps`` float64 steps."""
    rng = np.random.RandomState(0)
    with fw.utils.unique_name.guard():
        p = fw.create_parameter([3, 2], "float64", default_initializer=fw.nn.initializer.Assign(
            np.arange(6, dtype="float64").reshape(3, 2) / 10 + 0.05))
        opt = getattr(fw.optimizer, name)(0.1, parameters=[p], **kw)
        for _ in range(steps):
            (p * fw.to_tensor(rng.randn(3, 2))).sum().backward()
            opt.step()
            opt.clear_grad()
        state = {k.replace(p.name, "P"): v.numpy() for k, v in opt.state_dict().items()}
        return p.numpy(), state


@pytest.mark.parametrize("kw", [{}, {"weight_decay": 0.1}, {"beta1": 0.7}])
def test_adamax_float64_beta1_power_is_exact(kw):
    """Paddle multiplies Adamax's beta1 power by the beta as a double: a float64 parameter's
    power is 0.9 ** t exactly (not 0.9 rounded to float32), and so are its steps."""
    ours = _float64_run(pagaie, "Adamax", **kw)
    theirs = _float64_run(paddle_ref(), "Adamax", **kw)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-13, atol=0)
    assert sorted(ours[1]) == sorted(theirs[1])
    for k in theirs[1]:
        np.testing.assert_allclose(ours[1][k], theirs[1][k], rtol=1e-13, atol=0, err_msg=k)


# ---- amp.debugging: the tensor checker -----------------------------------------------------
def _checker_steps(fw, steps, **cfg_kw):
    """Per enable_tensor_checker call: (FLAGS_check_nan_inf, what a NaN-making op does)."""
    import contextlib
    import io
    D = fw.amp.debugging
    D.TensorCheckerConfig.current_step_id = 0   # (a class-level counter in both frameworks)
    level = fw.get_flags("FLAGS_check_nan_inf_level")
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            # Paddle's checked-op list is process-wide and kept until a list is given again
            # (an earlier test may have left one): name the ops this test runs
            cfg = D.TensorCheckerConfig(checked_op_list=["log", "multiply"], **cfg_kw)
        out = []
        for _ in range(steps):
            D.enable_tensor_checker(cfg)
            flag = bool(fw.get_flags("FLAGS_check_nan_inf")["FLAGS_check_nan_inf"])
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    fw.log(fw.to_tensor([0.0, 1.0])) * 0   # -inf * 0: NaN
                what = "ok"
            except RuntimeError:
                what = "RuntimeError"
            out.append((flag, what))
        D.disable_tensor_checker()
        out.append(bool(fw.get_flags("FLAGS_check_nan_inf")["FLAGS_check_nan_inf"]))
        return out
    finally:
        fw.set_flags({"FLAGS_check_nan_inf": False, **level})


@pytest.mark.parametrize("kw", [
    {"enable": True},
    {"enable": True, "debug_step": [0, 2]},     # the checks stop after the window
    {"enable": True, "debug_step": (0, 1)},
    {"enable": False},
    {"enable": True, "debug_mode": "CHECK_NAN_INF"},   # reported, not raised
    {"enable": True, "debug_mode": "CHECK_ALL"},
], ids=str)
def test_tensor_checker_steps_and_flag_like_paddle(kw):
    def run(fw):
        k = dict(kw)
        if "debug_mode" in k:
            k["debug_mode"] = getattr(fw.amp.debugging.DebugMode, k["debug_mode"])
        return _checker_steps(fw, 4, **k)
    assert run(pagaie) == run(paddle_ref())


def test_disabled_checker_config_turns_the_flag_off_like_paddle():
    def run(fw):
        fw.set_flags({"FLAGS_check_nan_inf": True})
        try:
            fw.amp.debugging.enable_tensor_checker(fw.amp.debugging.TensorCheckerConfig(enable=False))
            return fw.get_flags("FLAGS_check_nan_inf")
        finally:
            fw.set_flags({"FLAGS_check_nan_inf": False})
    assert run(pagaie) == run(paddle_ref())


def test_tensor_checker_config_step_methods_like_paddle():
    def run(fw):
        import contextlib
        import io
        D = fw.amp.debugging
        D.TensorCheckerConfig.current_step_id = 0
        level = fw.get_flags("FLAGS_check_nan_inf_level")
        with contextlib.redirect_stdout(io.StringIO()):
            cfg = D.TensorCheckerConfig(enable=True, debug_mode=D.DebugMode.CHECK_ALL, debug_step=[0, 2])
        out = [cfg.update_and_check_step_id() for _ in range(3)]
        try:
            cfg.start_check_nan_inf()
            out.append(fw.get_flags(["FLAGS_check_nan_inf", "FLAGS_check_nan_inf_level"]))
            cfg.stop_check_nan_inf()
            out.append(fw.get_flags(["FLAGS_check_nan_inf", "FLAGS_check_nan_inf_level"]))
        finally:
            fw.set_flags({"FLAGS_check_nan_inf": False, **level})
        return out
    assert run(pagaie) == run(paddle_ref())


_LINEAR_CALLS = {
    "bias": lambda fw, x, w, b: fw.nn.functional.linear(x, w, b),
    "bias_kw": lambda fw, x, w, b: fw.nn.functional.linear(x=x, weight=w, bias=b),
    "no_bias": lambda fw, x, w, b: fw.nn.functional.linear(x, w),
    "relu_of": lambda fw, x, w, b: fw.nn.functional.relu(fw.nn.functional.linear(x, w, b)),
}


def _static_linear(fw, level, call, **kw):
    fw.enable_static()
    try:
        main, start = fw.static.Program(), fw.static.Program()
        with fw.static.program_guard(main, start):
            x = fw.static.data("x", [4, 3], "float32")
            w = fw.static.data("w", [3, 2], "float32")
            b = fw.static.data("b", [2], "float32")
            with fw.amp.auto_cast(level=level, dtype="bfloat16", **kw):
                out = _LINEAR_CALLS[call](fw, x, w, b)
            built = str(out.dtype)
        exe = fw.static.Executor(fw.CPUPlace())
        exe.run(start)
        rng = np.random.RandomState(0)
        got = np.asarray(exe.run(main, feed={"x": rng.randn(4, 3).astype("float32"), "w": rng.randn(3, 2).astype("float32"),
                                             "b": rng.randn(2).astype("float32")}, fetch_list=[out])[0])
        if got.dtype == np.uint16:   # bfloat16 bit patterns
            got = (got.astype(np.uint32) << 16).view(np.float32)
        return built, got
    finally:
        fw.disable_static()


@pytest.mark.skipif(pagaie.is_compiled_with_cuda(), reason="Paddle's CUDA builds keep one fused linear op")
@pytest.mark.parametrize("call", sorted(_LINEAR_CALLS))
@pytest.mark.parametrize("level,kw", [("O1", {}), ("O2", {}), ("OD", {}), ("O2", {"use_promote": False}),
                                      ("O1", {"custom_black_list": {"linear"}})], ids=str)
def test_static_linear_under_autocast_is_matmul_then_add(level, kw, call):
    """A program's linear (built without CUDA) is Paddle's matmul then add: the float32 bias
    promotes the bfloat16 product back to float32 (at O1, at O2 with use_promote, at OD), and
    black-listing 'linear' changes nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = _static_linear(pagaie, level, call, **kw)
        theirs = _static_linear(paddle_ref(), level, call, **kw)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-2, atol=1e-2)


# ---- set_state_dict checks the loaded values as Paddle's set_value does --------------------
def _reload(fw, name, dtype, change, step_first=True):
    """Train one step, change the numpy state with ``change``, load it into a fresh optimizer
    (after one step of its own, or before any) and step: (parameter, state) or the error."""
    with fw.utils.unique_name.guard():
        init = fw.nn.initializer.Constant(1.0)
        p = fw.create_parameter([2], dtype, default_initializer=init)
        opt = getattr(fw.optimizer, name)(0.1, parameters=[p])
        (p.astype("float32") * fw.to_tensor([2.0, -3.0])).sum().backward()
        opt.step()
        state = change({k: v.numpy() for k, v in opt.state_dict().items()})
    with fw.utils.unique_name.guard():
        q = fw.create_parameter([2], dtype, default_initializer=init)
        opt2 = getattr(fw.optimizer, name)(0.1, parameters=[q])
        try:
            if step_first:
                (q.astype("float32") * fw.to_tensor([2.0, -3.0])).sum().backward()
                opt2.step()
                opt2.clear_grad()
            opt2.set_state_dict(state)
            (q.astype("float32") * fw.to_tensor([2.0, -3.0])).sum().backward()
            opt2.step()
        except AssertionError:
            return "AssertionError"
        return q.astype("float32").numpy(), {k: v.numpy() for k, v in opt2.state_dict().items()}


def _first(sub, f):
    def change(state):
        k = sorted(x for x in state if sub in x)[0]
        state[k] = f(state[k])
        return state
    return change


@pytest.mark.parametrize("step_first", [True, False])
@pytest.mark.parametrize("name,sub,f", [
    ("Adam", "moment1", lambda v: v.astype("float64")),       # another dtype
    ("Adam", "beta1_pow", lambda v: v.astype("int64")),
    ("Momentum", "velocity", lambda v: v.tolist()),           # not a Tensor or an array
    ("Momentum", "velocity", lambda v: float(v[0])),
    ("Adam", "moment2", lambda v: v),                         # unchanged: loads
], ids=["float64", "int64", "list", "float", "same"])
def test_loaded_state_must_keep_its_dtype_and_type(name, sub, f, step_first):
    ours = _reload(pagaie, name, "float32", _first(sub, f), step_first)
    theirs = _reload(paddle_ref(), name, "float32", _first(sub, f), step_first)
    if isinstance(theirs, str):
        assert ours == theirs
        return
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert sorted(ours[1]) == sorted(theirs[1])


def test_bfloat16_state_loads_from_its_numpy_bit_patterns():
    """A bfloat16 state comes out of .numpy() as uint16 bit patterns; loading it back keeps
    the values (it was once converted as numbers: 0.1's bits became 15821.0)."""
    same = lambda state: state  # noqa: E731
    ours = _reload(pagaie, "Rprop", "bfloat16", same)
    theirs = _reload(paddle_ref(), "Rprop", "bfloat16", same)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert {k: v.tolist() for k, v in ours[1].items()} == {k: v.tolist() for k, v in theirs[1].items()}
