"""Differential tests against real Paddle: Tensor._register_backward_hook (a void hook run
after a leaf's gradient is accumulated), amp.debugging.check_layer_numerics (every op of the
forward checked at the flag's level; errors for a non-Tensor first input or output) and the
NaN/Inf checker (to_tensor unchecked, reports name Paddle's eager kernels)."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _both(fn):
    return fn(paddle), fn(pagaie)


def _outcome(fn, lib):
    try:
        return fn(lib)
    except Exception as exc:  # noqa: BLE001
        return type(exc)


# ---- Tensor._register_backward_hook ---------------------------------------------------

def _hook_events(lib, how):
    x = lib.to_tensor([5.0], stop_gradient=False)
    ev = []
    x._register_backward_hook(lambda: ev.append(("b1", x.grad.tolist())))
    x._register_backward_hook(lambda: ev.append(("b2",)))
    x.register_hook(lambda g: ev.append(("h", g.tolist())))
    if how == "backward_twice":
        (x * 3 + x * 4).sum().backward()
        (x * 2).sum().backward()
    elif how == "autograd_backward":
        lib.autograd.backward([(x * 3).sum()])
    elif how == "grad":
        lib.grad((x * 3).sum(), x)
    elif how == "unreached":
        y = lib.to_tensor([1.0], stop_gradient=False)
        (y * 2).sum().backward()
    return ev


@pytest.mark.parametrize("how", ["backward_twice", "autograd_backward", "grad", "unreached"])
def test_register_backward_hook_calls(how):
    ref, got = _both(lambda lib: _hook_events(lib, how))
    assert got == ref


def test_register_backward_hook_on_parameter_returns_none():
    def run(lib):
        lin = lib.nn.Linear(2, 2)
        ev = []
        r = lin.weight._register_backward_hook(lambda: ev.append(1))
        lin(lib.ones([1, 2])).sum().backward()
        return r, ev
    ref, got = _both(run)
    assert got == ref


@pytest.mark.parametrize("case", ["non_leaf", "stop_gradient", "non_leaf_stop_gradient"])
def test_register_backward_hook_errors(case):
    def run(lib):
        x = lib.to_tensor([5.0], stop_gradient=(case == "stop_gradient"))
        t = x if case == "stop_gradient" else lib.pow(x, 4.0)
        return t._register_backward_hook(lambda: None)
    ref = _outcome(run, paddle)
    assert ref is ValueError
    assert _outcome(run, pagaie) is ref


# ---- amp.debugging.check_layer_numerics ----------------------------------------------

def _layer(lib, fwd):
    class L(lib.nn.Layer):
        @lib.amp.debugging.check_layer_numerics
        def forward(self, *a, **k):
            return fwd(lib, *a, **k)
    return L()


_CASES = {
    # name: (forward, call)
    "fine": (lambda lib, x: x * 2, lambda lib, m: m(lib.to_tensor([1.0, 2.0])).tolist()),
    "kw_only": (lambda lib, x: x * 2, lambda lib, m: m(x=lib.to_tensor([1.0]))),
    "no_args": (lambda lib: lib.ones([1]), lambda lib, m: m()),
    "int_first": (lambda lib, x: lib.ones([1]), lambda lib, m: m(1)),
    "tuple_out": (lambda lib, x: (x, x), lambda lib, m: m(lib.to_tensor([1.0]))),
    "none_out": (lambda lib, x: None, lambda lib, m: m(lib.to_tensor([1.0]))),
    # only the first input is checked
    "nan_second_unused": (lambda lib, x, y: x + 1,
                          lambda lib, m: m(lib.to_tensor([1.0]),
                                           lib.to_tensor([float("nan")])).tolist()),
    "int_input": (lambda lib, x: x * 2, lambda lib, m: m(lib.to_tensor([1, 2])).tolist()),
}


_FLAGS = ["FLAGS_check_nan_inf", "FLAGS_check_nan_inf_level"]


@pytest.fixture
def nan_flags_restored():
    """Paddle's check_layer_numerics leaves FLAGS_check_nan_inf on after an error: put both
    frameworks' flags back, so that later tests do not run under the check."""
    saved = {lib: lib.get_flags(_FLAGS) for lib in (paddle, pagaie)}
    yield
    for lib, flags in saved.items():
        lib.set_flags(flags)


@pytest.mark.parametrize("name", sorted(_CASES))
def test_check_layer_numerics(name, nan_flags_restored):
    fwd, call = _CASES[name]
    ref = _outcome(lambda lib: call(lib, _layer(lib, fwd)), paddle)
    got = _outcome(lambda lib: call(lib, _layer(lib, fwd)), pagaie)
    assert got == ref


# The NaN/Inf checks follow process-wide op lists that other tests fill, so the cases that
# depend on them run in a fresh process.
_CHECKS = textwrap.dedent("""
    import json, re, sys
    import numpy as np
    lib = __import__(sys.argv[1])

    def layer(fwd):
        class L(lib.nn.Layer):
            @lib.amp.debugging.check_layer_numerics
            def forward(self, x):
                return fwd(x)
        return L()

    def outcome(f):
        try:
            r = f()
            return r.tolist() if hasattr(r, "tolist") else r
        except Exception as exc:
            m = re.search(r"op=([^,]*)", str(exc))
            return [type(exc).__name__, m.group(1) if m else None]

    res = {
        # an op inside the forward makes an inf, though the output is finite
        "inner_inf": outcome(lambda: layer(lambda x: lib.exp(x * 100).clip(0, 1))(
            lib.to_tensor([1.0]))),
        "nan_first": outcome(lambda: layer(lambda x: x)(lib.to_tensor([float("nan")]))[0]),
    }
    lib.set_flags({"FLAGS_check_nan_inf_level": 1})
    res["level1"] = outcome(lambda: layer(lambda x: 1.0 / x)(lib.to_tensor([0.0])))
    lib.set_flags({"FLAGS_check_nan_inf_level": 0})
    res["flag_after"] = lib.get_flags(["FLAGS_check_nan_inf"])["FLAGS_check_nan_inf"]
    lib.set_flags({"FLAGS_check_nan_inf": True})
    i = lib.to_tensor([float("inf"), 1.0])
    x = lib.to_tensor([0.0, 1.0])
    res["to_tensor"] = outcome(lambda: lib.to_tensor(np.array([np.nan])))
    res["full"] = outcome(lambda: lib.full([1], float("inf")))
    res["divide"] = outcome(lambda: x / x)
    res["multiply"] = outcome(lambda: i * x)
    res["matmul"] = outcome(lambda: lib.matmul(i.reshape([1, 2]), x.reshape([2, 1])))
    res["pow"] = outcome(lambda: lib.pow(x, -1.0))
    res["sum"] = outcome(lambda: lib.sum(i))
    lib.set_flags({"FLAGS_check_nan_inf": False})
    print("RESULT" + json.dumps(res))
""")


def _run_checks(lib: str) -> dict:
    # the child imports the pagaie under test, wherever this process found it
    root = os.path.dirname(os.path.dirname(pagaie.__file__))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    p = subprocess.run([sys.executable, "-c", _CHECKS, lib], capture_output=True, text=True,
                       timeout=120, env=env)
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT")]
    assert line, p.stderr[-2000:]
    return json.loads(line[0][len("RESULT"):])


def test_nan_inf_checks_in_a_fresh_process():
    ref, got = _run_checks("paddle"), _run_checks("pagaie")
    assert got == ref
