"""Compare the doc-example runs of pagaie against real Paddle and write REPORT.md.

Usage::

    python tests/audit_docs/compare.py [--out-dir tests/audit_docs/out] [--report F]
                                       [--pin tests/audit_docs/pinned.json]

Inputs are the three files written by run_side.py (``results_paddle.pkl``,
``results_paddle2.pkl`` with shifted seeds, ``results_pagaie.pkl``).  A statement output or
namespace value that differs between the two Paddle runs is *random*.  A random example that
seeds Paddle's generator itself (``paddle.seed(...)``: *seeded*) is still compared by value,
since pagaie's CPU random streams are Paddle's (both runs also start every example from the same
seeds, see run_side.py); for the other random ones only shape / dtype (and, for printed output,
the text with numbers masked) are compared.  Otherwise values are compared with a tolerance.  Each example gets one status:

* ``agree``        - same stdout, same values, same exceptions (if any);
* ``pagaie-error`` - pagaie raised where Paddle did not (or a pagaie worker crashed);
* ``differ``       - anything else (output text, dtype, shape, value, exception type...).

``--pin`` writes the ids of examples that agree and are not random (fast ones first).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run_side import OUT_DIR, read_records  # noqa: E402

_NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?j?|\b(?:nan|inf)\b")
RTOL, ATOL = 1e-4, 1e-5
NEVER_PIN = {"paddle.nn.dynamic_decode#0"}  # random weights whose output shape rarely changes
UNSTABLE = {"paddle.empty", "paddle.empty_like", "paddle.Tensor.empty_like"}  # uninitialised memory
_SEEDS = re.compile(r"\bpaddle\.(?:framework\.)?seed\(|\bmanual_seed\(")


def seeds(ex: dict[str, Any]) -> bool:
    """The example seeds Paddle's generator itself: its random results are compared by value."""
    return any(_SEEDS.search(st["src"]) for st in ex["stmts"])


def load(path: str) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in read_records(path) if "stmts" in r}


# ----------------------------------------------------------------------------- text
def _nums(s: str) -> tuple[list[str], list[str]]:
    return _NUM.split(s), _NUM.findall(s)


def _close_num(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        x, y = complex(a.replace("j", "j")), complex(b)
    except ValueError:
        try:
            x, y = float(a), float(b)
        except ValueError:
            return False
    return bool(np.isclose(x, y, rtol=RTOL * 10, atol=ATOL * 10, equal_nan=True))


_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")
_TIMING = re.compile(r"\d+(?:\.\d+)?\s*(?:us|ms|s)/(?:step|sample)")


def _norm(s: str) -> str:
    # Paddle writes a complex number whose imaginary part is -0.0 as ``(1.+-0.j)``: the sign
    # of a zero is left to the number comparison (FFT libraries differ on signed zeros).
    return _TIMING.sub("T", _ADDR.sub(" at 0x?", s.replace("pagaie", "paddle"))).replace("+-", "-")


def _masked(s: str) -> str:
    return re.sub(r"\s+", "", _NUM.sub("#", s))


def same_text(ours: str, theirs: str, random: bool, theirs2: str | None = None) -> bool:
    """Printed outputs agree: exactly, or up to number tolerance; when ``random``, up to the
    numbers themselves (and not at all when even the layout changed between Paddle runs)."""
    ours, theirs = _norm(ours), _norm(theirs)
    if ours == theirs:
        return True
    (t1, n1), (t2, n2) = _nums(ours), _nums(theirs)
    if random:
        if theirs2 is not None and _masked(theirs2) != _masked(theirs):
            return True
        return _masked(ours) == _masked(theirs)
    norm_ws = lambda parts: [re.sub(r"\s+", "", p) for p in parts]  # noqa: E731
    return norm_ws(t1) == norm_ws(t2) and len(n1) == len(n2) and \
        all(_close_num(a, b) for a, b in zip(n1, n2))


# ----------------------------------------------------------------------------- values
def _same_value(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if b.dtype.kind in "fc" or a.dtype.kind in "fc":
        return bool(np.allclose(a.astype(np.complex128), b.astype(np.complex128), rtol=RTOL,
                                atol=ATOL, equal_nan=True))
    return bool(np.array_equal(a, b))


def _short(v: Any, n: int = 160) -> str:
    if isinstance(v, np.ndarray):
        s = np.array2string(v, threshold=12, precision=5, separator=",")
    else:
        s = repr(v)
    s = " ".join(s.split())
    return s if len(s) <= n else s[:n] + "..."


def compare_var(name: str, q: dict, p: dict, p2: dict | None, unstable: bool = False,
                by_value: bool = False) -> list[dict[str, Any]]:
    """Differences between pagaie's record q and Paddle's p of one namespace value
    (``by_value``: compare values even where the two Paddle runs differ - a seeded example)."""
    if p.get("items") is not None:
        if q.get("items") is None or len(q["items"]) != len(p["items"]):
            return [{"what": "structure", "var": name, "ours": q.get("kind"), "theirs":
                     f"{p['kind']} of {len(p['items'])}"}]
        out = []
        p2i = p2.get("items") if p2 and p2.get("items") and len(p2["items"]) == len(p["items"]) else None
        for i, (qi, pi) in enumerate(zip(q["items"], p["items"])):
            out += compare_var(f"{name}[{i}]", qi, pi, p2i[i] if p2i else None, unstable, by_value)
        return out
    diffs = []
    kp, kq = p["kind"], q["kind"]
    if kp != kq:
        return [{"what": "kind", "var": name, "ours": kq, "theirs": kp}]
    for key in ("dtype", "shape", "sg"):
        if key == "shape" and p2 is not None and p2.get("shape") != p.get("shape") and not by_value:
            continue                       # random shape (e.g. nms of random boxes)
        if key in p and p.get(key) != q.get(key):
            what = "stop_gradient" if key == "sg" else key
            diffs.append({"what": what, "var": name, "ours": q.get(key), "theirs": p.get(key)})
    if any(d["what"] == "shape" for d in diffs):
        return diffs
    if p.get("value") is None:
        return diffs
    random = unstable or (not by_value and p2 is not None
                          and not _same_value(p.get("value"), p2.get("value")))
    if not random and not _same_value(q.get("value"), p.get("value")):
        diffs.append({"what": "value", "var": name, "ours": _short(q.get("value")),
                      "theirs": _short(p.get("value"))})
    return diffs


# ----------------------------------------------------------------------------- example
def _first_exc(rec: dict) -> tuple[int, tuple[str, str]] | None:
    for i, st in enumerate(rec["stmts"]):
        if st["exc"]:
            return i, tuple(st["exc"])
    return None


def _differs(a: dict, b: dict) -> bool:
    """Two records of one value (from the two Paddle runs) differ: the value is random."""
    if a.get("items") is not None or b.get("items") is not None:
        ia, ib = a.get("items") or [], b.get("items") or []
        return len(ia) != len(ib) or any(_differs(x, y) for x, y in zip(ia, ib))
    return a.get("shape") != b.get("shape") or not _same_value(a.get("value"), b.get("value"))


def _same_exc_type(ours: tuple, theirs: tuple) -> bool:
    """pagaie's exception is of Paddle's type: the same class name, or one of its bases
    (``except AssertionError`` catches both)."""
    return ours[0] == theirs[0] or (len(ours) > 2 and theirs[0] in ours[2])


def _crashed(rec: dict) -> bool:
    e = _first_exc(rec)
    return e is not None and e[1][0] == "WorkerCrash"


def compare_example(ex: dict, q: dict | None, p: dict, p2: dict | None,
                    force_by_value: bool = False) -> dict[str, Any]:
    """{'status', 'random', 'seeded', 'diffs': [...]} for one example (``force_by_value``:
    compare random results by value even when the example does not seed)."""
    by_value = (force_by_value or seeds(ex)) and ex["api"] not in UNSTABLE
    res: dict[str, Any] = {"id": ex["id"], "module": ex["module"], "random": False,
                           "seeded": by_value, "diffs": []}
    if q is None:
        res.update(status="pagaie-error", diffs=[{"what": "missing", "line": "", "ours": "no record",
                                                 "theirs": ""}])
        return res
    if _crashed(p):
        if p2 is None or _crashed(p2):
            res.update(status="paddle-crash")
            return res
        p, p2 = p2, None
    srcs = [s["src"] for s in ex["stmts"]]
    eq, ep = _first_exc(q), _first_exc(p)
    n = min(len(q["stmts"]), len(p["stmts"]))
    for i in range(n):
        oq, op = q["stmts"][i]["out"], p["stmts"][i]["out"]
        op2 = p2["stmts"][i]["out"] if p2 is not None and i < len(p2["stmts"]) else None
        rnd = (op2 is not None and _ADDR.sub("", op2) != _ADDR.sub("", op)) or ex["api"] in UNSTABLE
        res["random"] |= rnd
        if not same_text(oq, op, rnd and not by_value, op2):
            res["diffs"].append({"what": "stdout", "line": srcs[i], "ours": oq.rstrip(),
                                 "theirs": op.rstrip(), "random": rnd and not by_value})
    if eq and (not ep or ep[0] > eq[0]):
        res["status"] = "pagaie-error"
        res["diffs"].insert(0, {"what": "exception", "line": srcs[eq[0]],
                                "ours": f"{eq[1][0]}: {eq[1][1]}", "theirs": "(no exception)"})
        return res
    if ep and (not eq or eq[0] > ep[0]):
        res["diffs"].insert(0, {"what": "no-exception", "line": srcs[ep[0]], "ours": "(no exception)",
                                "theirs": f"{ep[1][0]}: {ep[1][1]}"})
    elif ep and eq and not _same_exc_type(eq[1], ep[1]) and eq[1][0] != "WorkerCrash":
        res["diffs"].insert(0, {"what": "exception-type", "line": srcs[ep[0]],
                                "ours": f"{eq[1][0]}: {eq[1][1]}", "theirs": f"{ep[1][0]}: {ep[1][1]}"})
    for name, pv in p["vars"].items():
        qv = q["vars"].get(name)
        if qv is None:
            res["diffs"].append({"what": "missing-var", "var": name, "ours": "(absent)",
                                 "theirs": pv.get("kind")})
            continue
        p2v = p2["vars"].get(name) if p2 else None
        if p2v is not None and _differs(pv, p2v):
            res["random"] = True
        for d in compare_var(name, qv, pv, p2v, ex["api"] in UNSTABLE, by_value):
            d.setdefault("line", name)
            res["diffs"].append(d)
    if not res["diffs"]:
        res["status"] = "agree"
    elif all(d["what"] in ("no-exception", "missing-var") for d in res["diffs"]):
        res["status"] = "only-paddle-raises"
    else:
        res["status"] = "differ"
    return res


# ----------------------------------------------------------------------------- categories
def category(d: dict[str, Any]) -> str:
    """A coarse cause of one difference, for grouping."""
    w, ours, theirs = d["what"], str(d.get("ours")), str(d.get("theirs"))
    if w == "exception":
        t, _, msg = ours.partition(": ")
        m = re.search(r"No module named '([^']+)'", msg)
        if m:
            return f"missing module {m.group(1).replace('pagaie', 'paddle')}"
        m = re.search(r"module '([^']+)' has no attribute '([^']+)'", msg)
        if m:
            return f"missing attribute {m.group(1).replace('pagaie', 'paddle')}.{m.group(2)}"
        m = re.search(r"'(\w+)' object has no attribute '([^']+)'", msg)
        if m:
            return f"missing attribute {m.group(1)}.{m.group(2)}"
        m = re.search(r"(\S+)\(\) got an unexpected keyword argument '([^']+)'", msg)
        if m:
            return f"unexpected kwarg {m.group(2)!r} of {m.group(1)}"
        if t == "NotImplementedError":
            return "NotImplementedError: " + re.sub(r"\d+", "N", msg)[:70]
        return f"{t}: " + re.sub(r"\d+", "N", msg)[:70]
    if w == "stdout":
        return _stdout_category(ours, theirs, bool(d.get("random")))
    if w in ("dtype", "kind", "stop_gradient"):
        return f"{w}: pagaie {ours} vs paddle {theirs}"
    if w in ("no-exception", "exception-type"):
        return f"{w}: paddle raises {theirs.split(':')[0]}"
    return w


_HEADER = re.compile(r"Tensor\(shape=(\[[^\]]*\]), dtype=(\w+), place=[^,]*\), stop_gradient=(\w+)")


def _stdout_category(ours: str, theirs: str, random: bool) -> str:
    m = re.search(r"<([\w.]+) object at 0x", theirs)
    if m:
        return f"repr of {m.group(1)} object"
    if "<class 'paddle.Tensor'>" in theirs:
        return "type(tensor) prints <class 'pagaie._core.tensor.Tensor'>, not <class 'paddle.Tensor'>"
    if re.search(r"Operation\(|pd_op\.|Value\(define_op_name", theirs):
        return "static-graph object printing (PIR text format)"
    if re.search(r"<function [\w.<>]+ at 0x", theirs):
        return "repr of returned function"
    h1, h2 = _HEADER.findall(ours), _HEADER.findall(theirs)
    if h1 and h2:
        for (sq, dq, gq), (sp, dp, gp) in zip(h1, h2):
            if gq != gp:
                return f"Tensor print: stop_gradient={gq} vs paddle {gp}"
            if dq != dp:
                return f"Tensor print: dtype {dq} vs paddle {dp}"
            if sq != sp:
                return "Tensor print: shape differs"
        if len(h1) != len(h2):
            return "printed output: different number of Tensors"
        if random:
            return "printed output format (random values)"
        if "+-" in theirs and "+-" not in ours:
            return "complex print: paddle writes '+-0.' for negative-zero imaginary parts"
        return "Tensor print: values differ"
    if h2 and not h1:
        return "paddle prints a Tensor, pagaie prints something else"
    if random:
        return "printed output format (random values)"
    return "printed output differs (non-Tensor)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", default=OUT_DIR)
    ap.add_argument("--report", default=os.path.join(HERE, "REPORT.md"))
    ap.add_argument("--pin", default=None)
    ap.add_argument("--limit", type=int, default=150)
    a = ap.parse_args(argv)
    data = json.load(open(os.path.join(a.out_dir, "examples.json")))
    p = load(os.path.join(a.out_dir, "results_paddle.pkl"))
    p2 = load(os.path.join(a.out_dir, "results_paddle2.pkl"))
    q = load(os.path.join(a.out_dir, "results_pagaie.pkl"))
    results = [compare_example(ex, q.get(ex["id"]), p[ex["id"]], p2.get(ex["id"]))
               for ex in data["examples"] if ex["id"] in p]
    # Random examples that do not seed still start from the same seeds on both sides: how
    # many agree by value all the same (information only; their status stays shape-based).
    by_id = {ex["id"]: ex for ex in data["examples"]}
    for r in results:
        if r["random"] and not r["seeded"] and r["status"] == "agree":
            i = r["id"]
            r["start_seed_status"] = compare_example(by_id[i], q.get(i), p[i], p2.get(i),
                                                     force_by_value=True)["status"]
    with open(os.path.join(a.out_dir, "compare.json"), "w") as f:
        json.dump(results, f, indent=0, default=str)
    write_report(a.report, data, results, p, q, a.limit)
    if a.pin:
        pin = [r["id"] for r in results if r["status"] == "agree"
               and (not r["random"] or r.get("seeded"))
               and r["id"] not in NEVER_PIN
               and p[r["id"]]["time"] < 2.0 and q[r["id"]]["time"] < 2.0]
        pin.sort(key=lambda i: q[i]["time"] + p[i]["time"])
        fast, budget = [], 0.0
        for i in pin:                      # cheapest first, up to ~6 s of example time
            if budget + q[i]["time"] + p[i]["time"] > 6.0:
                break
            budget += q[i]["time"] + p[i]["time"]
            fast.append(i)
        with open(a.pin, "w") as f:
            json.dump({"fast": sorted(fast), "slow": sorted(set(pin) - set(fast))}, f, indent=0)
        print(f"pinned {len(pin)} agreeing examples -> {a.pin}")
    return 0


def write_report(path: str, data: dict, results: list[dict], p: dict, q: dict, limit: int) -> None:
    by_mod: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for r in results:
        c = by_mod[r["module"]]
        c["run"] += 1
        c[r["status"]] += 1
        c["random"] += r["random"]
        c["seeded"] += r["random"] and r.get("seeded", False)
        c["paddle-error"] += _first_exc(p[r["id"]]) is not None
    tot = collections.Counter()
    for c in by_mod.values():
        tot.update(c)
    L = ["# Paddle doc examples: pagaie vs real Paddle 3.3.1", "",
         f"{len(data['examples'])} example blocks harvested, {len(data['skipped'])} skipped "
         "(GPU/XPU/distributed/network). Generated by tests/audit_docs/compare.py; not committed.", "",
         "Columns: *agree* = same printed output, values, dtypes, shapes, stop_gradient and "
         "exception types; *only paddle raises* = Paddle's own example fails on this CPU build "
         "(or with this numpy) while pagaie runs it; *random* = seed-dependent (compared by "
         "shape/dtype/layout only, unless seeded); *seeded* = random examples that call "
         "``paddle.seed`` and are compared by value all the same (pagaie's CPU random streams are "
         "Paddle's); *paddle raises* = Paddle raised in any statement.", "",
         "| module | run | agree | differ | error only in pagaie | only paddle raises | paddle crash "
         "| random | seeded | paddle raises |",
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for mod, c in sorted(by_mod.items(), key=lambda kv: -kv[1]["run"]):
        L.append(_row(mod, c))
    L.append(_row("**total**", tot))
    cats: dict[str, list[str]] = collections.defaultdict(list)
    for r in results:
        if r["status"] in ("agree", "paddle-crash"):
            continue
        seen = set()
        for d in r["diffs"][:1] if r["status"] == "pagaie-error" else r["diffs"]:
            k = category(d)
            if k not in seen:
                seen.add(k)
                cats[k].append(r["id"])
    unseeded = [r for r in results if "start_seed_status" in r]
    off = [r["id"] for r in unseeded if r["start_seed_status"] != "agree"]
    L += ["", f"Random examples that do not call ``paddle.seed`` but agree by shape: "
          f"{len(unseeded) - len(off)} of {len(unseeded)} also agree by value (both sides start each "
          "example from the same seeds); the others: " + (", ".join(off) or "none") + "."]
    L += ["", "## Disagreement categories (examples per cause)", "",
          "| count | cause | examples |", "|---:|---|---|"]
    for k, ids in sorted(cats.items(), key=lambda kv: -len(kv[1])):
        eg = ", ".join(ids[:4]) + (" ..." if len(ids) > 4 else "")
        L.append(f"| {len(ids)} | {k.replace('|', '/')} | {eg} |")
    L += ["", f"## First {limit} disagreements (at most 5 per cause, the rest are in the table)", ""]
    n, shown = 0, collections.Counter()
    for r in results:
        if r["status"] in ("agree", "paddle-crash", "only-paddle-raises"):
            continue
        for d in r["diffs"][:3]:
            k = category(d)
            if n >= limit or shown[k] >= 5:
                continue
            shown[k] += 1
            n += 1
            line = str(d.get("line", "")).replace("\n", " ")[:160]
            L.append(f"{n}. **{r['id']}** ({r['status']}, {d['what']}{', random' if r['random'] else ''}) "
                     f"`{line}`")
            L.append(f"   - pagaie: `{_one(d.get('ours'))}`")
            L.append(f"   - paddle: `{_one(d.get('theirs'))}`")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"report -> {path}; totals {dict(tot)}")


def _row(mod: str, c: collections.Counter) -> str:
    keys = ("run", "agree", "differ", "pagaie-error", "only-paddle-raises", "paddle-crash", "random",
            "seeded", "paddle-error")
    return f"| {mod} | " + " | ".join(str(c[k]) for k in keys) + " |"


def _one(v: Any, n: int = 300) -> str:
    s = " ".join(str(v).split()).replace("`", "'")
    return s if len(s) <= n else s[:n] + "..."


if __name__ == "__main__":
    sys.exit(main())
