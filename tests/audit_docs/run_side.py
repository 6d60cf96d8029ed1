"""Run harvested doc examples under one framework and record what they produce.

Usage::

    python tests/audit_docs/run_side.py --side paddle|paddle2|pagaie [--examples F] [--out F]
                                        [--ids ID ...] [--timeout 20]

``paddle`` runs the examples with real Paddle; ``paddle2`` does the same but shifts every
``paddle.seed(s)`` to ``s + 7919`` (a second reference run that tells seed-dependent results
apart); every example starts from the same seeds on every side (``example_seed``: Paddle's
generator, numpy's and Python's; paddle2 shifts Paddle's by 7919 here too), so pagaie, whose CPU
random streams are Paddle's, can be compared by value on examples that seed.  ``pagaie``
aliases ``paddle`` and all of its submodules to pagaie first, so ``import paddle.nn.functional
as F`` yields ``pagaie.nn.functional``.

The driver starts one worker subprocess that runs examples one after another, each in a fresh
namespace and with a per-example alarm, and appends one pickled record per example to the output
file.  When a worker dies or hangs, the driver records a crash for the example in flight and
starts a new worker after it.  A record holds, per statement, the captured stdout and the
exception (type name, message, names of its base classes); and for the final namespace, every Tensor / ndarray / number
(or short list of them) as ``{'kind', 'dtype', 'shape', 'value', 'sg'}``.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import json
import os
import pickle
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
import zlib
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT_DIR = os.path.join(HERE, "out")


# ----------------------------------------------------------------------------- aliasing
class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: Any) -> Any:
        return importlib.import_module(self.target)

    def exec_module(self, module: Any) -> None:
        pass


class _PagaieAsPaddle(importlib.abc.MetaPathFinder):
    """Resolves ``paddle`` / ``paddle.x.y`` to the already existing ``pagaie`` / ``pagaie.x.y``."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "paddle" and not fullname.startswith("paddle."):
            return None
        real = "pagaie" + fullname[len("paddle"):]
        try:
            importlib.util.find_spec(real)
        except (ImportError, ValueError):
            return None
        if importlib.util.find_spec(real) is None:
            return None
        mod = importlib.import_module(real)
        sys.modules[fullname] = mod       # import machinery then keeps this object as is
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(real))


def install_pagaie_alias() -> Any:
    """Make ``import paddle...`` resolve to pagaie inside this process."""
    sys.path.insert(0, REPO)
    import pagaie
    for name in [n for n in sys.modules if n == "pagaie" or n.startswith("pagaie.")]:
        sys.modules["paddle" + name[len("pagaie"):]] = sys.modules[name]
    sys.meta_path.insert(0, _PagaieAsPaddle())
    return pagaie


# ----------------------------------------------------------------------------- capture
def _is_tensor(v: Any) -> bool:
    return hasattr(v, "numpy") and callable(getattr(v, "numpy", None)) and hasattr(v, "shape") \
        and hasattr(v, "dtype") and not isinstance(v, type)


MAX_ELEMS = 2048


def _cap(a: Any) -> Any:
    """Big arrays are kept as a strided sample of MAX_ELEMS elements (plus their sum)."""
    import numpy as np
    if a.size <= MAX_ELEMS:
        return a
    flat = a.reshape(-1)
    step = -(-flat.size // MAX_ELEMS)
    return np.concatenate([flat[::step], np.asarray([flat.sum()], dtype=flat.dtype)])


def _tensor_rec(v: Any) -> dict[str, Any]:
    import numpy as np
    rec: dict[str, Any] = {"kind": "tensor", "dtype": str(v.dtype).replace("paddle.", ""),
                           "shape": [int(s) for s in v.shape]}
    try:
        sg = getattr(v, "stop_gradient", None)
        rec["sg"] = bool(sg) if sg is not None else None
    except Exception:
        rec["sg"] = None
    try:
        if getattr(v, "is_sparse", lambda: False)():
            v = v.to_dense()
        a = v.numpy()
        a = np.asarray(a)
        if a.dtype.kind not in "biufc":
            a = a.astype(np.float32)
        rec["value"] = _cap(a)
    except Exception as e:                 # noqa: BLE001 - e.g. bf16 / static Variables
        try:
            rec["value"] = _cap(np.asarray(v.astype("float32").numpy()))
        except Exception:
            rec["value"] = None
            rec["err"] = type(e).__name__
    return rec


def capture_value(v: Any, depth: int = 0) -> dict[str, Any] | None:
    import numpy as np
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
        return {"kind": type(v).__name__, "value": v}
    if isinstance(v, np.ndarray):
        return {"kind": "ndarray", "dtype": str(v.dtype), "shape": list(v.shape),
                "value": _cap(v) if v.dtype.kind in "biufc" else None}
    if isinstance(v, np.generic):
        return {"kind": "npscalar", "dtype": str(v.dtype), "value": v.item()}
    if type(v).__module__.startswith(("paddle", "pagaie")) and _is_tensor(v):
        return _tensor_rec(v)
    if isinstance(v, (list, tuple)) and depth == 0 and 0 < len(v) <= 16:
        items = [capture_value(e, 1) for e in v]
        if all(i is not None for i in items):
            return {"kind": type(v).__name__, "items": items}
    return None


def _run_example(ex: dict[str, Any], timeout: int) -> dict[str, Any]:
    ns: dict[str, Any] = {"__name__": "__doc_example__"}
    stmts = []
    t0 = time.time()

    def _alarm(signum: int, frame: Any) -> None:
        raise TimeoutError(f"example exceeded {timeout}s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        for st in ex["stmts"]:
            buf = io.StringIO()
            exc = None
            old_out = sys.stdout
            sys.stdout = buf
            try:
                try:
                    code = compile(st["src"], "<doc>", "single")
                except SyntaxError:
                    code = compile(st["src"], "<doc>", "exec")
                exec(code, ns)
            except TimeoutError as e:
                exc = ("TimeoutError", str(e))
            except BaseException as e:  # noqa: BLE001 - SystemExit from examples too
                exc = (type(e).__name__, str(e).strip().splitlines()[0][:300] if str(e).strip() else "",
                       [c.__name__ for c in type(e).__mro__[1:-2]])  # its base classes
            finally:
                sys.stdout = old_out
            stmts.append({"out": buf.getvalue(), "exc": exc})
            if exc and ("Traceback" not in st["want"] or exc[0] == "TimeoutError"):
                break
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    vars_ = {}
    for k, v in list(ns.items()):
        if k.startswith("_"):
            continue
        try:
            rec = capture_value(v)
        except Exception:  # noqa: BLE001
            rec = None
        if rec is not None:
            vars_[k] = rec
    return {"id": ex["id"], "stmts": stmts, "vars": vars_, "time": time.time() - t0}


def _reset(paddle: Any) -> None:
    for fn in (lambda: paddle.disable_static(), lambda: paddle.set_default_dtype("float32"),
               lambda: paddle.set_grad_enabled(True),
               lambda: paddle.set_printoptions(precision=8, threshold=1000, edgeitems=3,
                                               linewidth=80, sci_mode=False)):
        try:
            fn()
        except Exception:  # noqa: BLE001
            pass


def _isolate(paddle: Any) -> list[Any]:
    """Fresh default static programs and name counters for one example (exited by the caller)."""
    guards: list[Any] = []
    try:
        paddle.enable_static()
        g = paddle.static.program_guard(paddle.static.Program(), paddle.static.Program())
        g.__enter__()
        guards.append(g)
    except Exception:  # noqa: BLE001
        pass
    finally:
        paddle.disable_static()
    try:
        u = paddle.utils.unique_name.guard()
        u.__enter__()
        guards.append(u)
    except Exception:  # noqa: BLE001
        pass
    return guards


def example_seed(ex_id: str) -> int:
    """The start seed of one example (paddle.seed, numpy, random), stable across runs."""
    return zlib.crc32(ex_id.encode()) % (2 ** 31 - 8000)


def worker(side: str, examples_file: str, ids: list[str], out: str, timeout: int,
           workdir: str) -> None:
    warnings.simplefilter("ignore")
    os.environ.setdefault("GLOG_minloglevel", "3")
    if side == "pagaie":
        install_pagaie_alias()
    import paddle
    if side == "pagaie":
        import paddle.nn.functional as F
        assert paddle.__name__ == "pagaie" and F.__name__ == "pagaie.nn.functional", paddle
    orig_seed = paddle.seed
    if side == "paddle2":

        def shifted(s: int) -> Any:
            return orig_seed(int(s) + 7919)
        paddle.seed = shifted
        import paddle.framework
        paddle.framework.seed = shifted
    import numpy as np
    from paddle import Tensor  # noqa: F401 - fail early if the side is broken
    by_id = {e["id"]: e for e in json.load(open(examples_file))["examples"]}
    os.chdir(workdir)                      # files the examples save land here
    me = os.getpid()
    with open(out, "ab") as f:
        for ex_id in ids:
            if os.getpid() != me:          # a fork made by an example must not go on
                os._exit(0)
            f.write(pickle.dumps({"id": ex_id, "started": True}))
            f.flush()
            # One start seed per example, the same on every side (numpy's and Python's too, so
            # an example's numpy inputs are identical); paddle2 shifts only Paddle's seed, which
            # tells Paddle-seed-dependent results apart.
            s = example_seed(ex_id)
            np.random.seed(s)
            random.seed(s)
            orig_seed(s + (7919 if side == "paddle2" else 0))
            guards = _isolate(paddle)
            env = dict(os.environ)
            rec = _run_example(by_id[ex_id], timeout)
            _reset(paddle)
            if dict(os.environ) != env:    # (PADDLE_TRAINERS_NUM=2 from a fleet example...)
                os.environ.clear()
                os.environ.update(env)
            os.chdir(workdir)
            for g in reversed(guards):
                try:
                    g.__exit__(None, None, None)
                except Exception:  # noqa: BLE001
                    pass
            if os.getpid() != me:
                os._exit(0)
            f.write(pickle.dumps(rec))
            f.flush()


# ----------------------------------------------------------------------------- driver
def read_records(path: str) -> list[dict[str, Any]]:
    recs = []
    if not os.path.exists(path):
        return recs
    with open(path, "rb") as f:
        while True:
            try:
                recs.append(pickle.load(f))
            except EOFError:
                break
            except Exception:  # noqa: BLE001 - a truncated last record
                break
    return recs


def drive(side: str, examples_file: str, ids: list[str], out: str, timeout: int) -> None:
    if os.path.exists(out):
        os.remove(out)
    todo = list(ids)
    workdir = tempfile.mkdtemp(prefix=f"docex_{side}_")
    try:
        _drive_loop(side, examples_file, todo, out, timeout, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _drive_loop(side: str, examples_file: str, todo: list[str], out: str, timeout: int,
                workdir: str) -> None:
    while todo:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tf:
            json.dump(todo, tf)
        cmd = [sys.executable, __file__, "--worker", "--side", side, "--examples", examples_file,
               "--ids-file", tf.name, "--out", out, "--timeout", str(timeout), "--workdir", workdir]
        env = dict(os.environ, GLOG_minloglevel="3", PYTHONWARNINGS="ignore")
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                                start_new_session=True)
        last_size, last_change = -1, time.time()
        while proc.poll() is None:
            time.sleep(0.5)
            size = os.path.getsize(out) if os.path.exists(out) else 0
            if size != last_size:
                last_size, last_change = size, time.time()
            elif time.time() - last_change > timeout + 30:
                proc.kill()
                proc.wait()
        try:                               # leftovers forked by examples (DataLoader workers...)
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        os.unlink(tf.name)
        recs = read_records(out)
        done = {r["id"] for r in recs if "stmts" in r}
        started = [r["id"] for r in recs if r.get("started")]
        todo = [i for i in todo if i not in done]
        if not todo:
            break
        crashed = started[-1] if started and started[-1] not in done else todo[0]
        with open(out, "ab") as f:
            f.write(pickle.dumps({"id": crashed, "stmts": [{"out": "", "exc": (
                "WorkerCrash", f"worker exited with code {proc.returncode}")}], "vars": {},
                "time": 0.0}))
        todo = [i for i in todo if i != crashed]
        print(f"[{side}] worker died on {crashed} (rc={proc.returncode}); {len(todo)} left",
              file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", choices=["paddle", "paddle2", "pagaie"], required=True)
    ap.add_argument("--examples", default=os.path.join(OUT_DIR, "examples.json"))
    ap.add_argument("--out")
    ap.add_argument("--ids", nargs="*")
    ap.add_argument("--ids-file")
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--workdir", default=None)
    a = ap.parse_args(argv)
    out = a.out or os.path.join(OUT_DIR, f"results_{a.side}.pkl")
    if a.ids_file:
        ids = json.load(open(a.ids_file))
    elif a.ids:
        ids = a.ids
    else:
        ids = [e["id"] for e in json.load(open(a.examples))["examples"]]
    if a.worker:
        worker(a.side, a.examples, ids, out, a.timeout, a.workdir or tempfile.mkdtemp(prefix="docex_"))
    else:
        t0 = time.time()
        drive(a.side, a.examples, ids, out, a.timeout)
        print(f"[{a.side}] {len(ids)} examples in {time.time() - t0:.0f}s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
