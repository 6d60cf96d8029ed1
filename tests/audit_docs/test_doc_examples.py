"""Paddle's own documentation examples that pagaie already reproduces must keep agreeing.

The ids in pinned.json were produced by ``compare.py --pin`` from a full audit run (see
REPORT.md / the module docstrings of harvest.py, run_side.py and compare.py): examples whose
printed output, namespace values, dtypes, shapes and exceptions all matched real Paddle and did
not depend on random seeds.  Each test re-harvests the examples from the installed Paddle, runs
them in one subprocess per framework and compares.  The ``fast`` list runs by default; the
rest is marked slow (PAGAIE_SLOW=1).
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

PINNED = json.load(open(os.path.join(HERE, "pinned.json")))

pytestmark = pytest.mark.skipif(importlib.util.find_spec("paddle") is None,
                                reason="real paddlepaddle is not installed")


@pytest.fixture(scope="module")
def examples_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("docex") / "examples.json")
    subprocess.run([sys.executable, os.path.join(HERE, "harvest.py"), "--out", path], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return path


def _check(ids: list[str], examples_file: str, tmp: str) -> None:
    import compare
    import run_side

    data = json.load(open(examples_file))
    by_id = {e["id"]: e for e in data["examples"]}
    ids = [i for i in ids if i in by_id]
    assert ids, "no pinned example found in the harvested docstrings"
    outs = {}
    for side in ("paddle", "pagaie"):
        outs[side] = os.path.join(tmp, f"{side}.pkl")
        run_side.drive(side, examples_file, ids, outs[side], timeout=30)
    p, q = compare.load(outs["paddle"]), compare.load(outs["pagaie"])
    bad = []
    for i in ids:
        r = compare.compare_example(by_id[i], q.get(i), p[i], None)
        if r["status"] != "agree":
            d = r["diffs"][0]
            bad.append(f"{i}: {d['what']} at {str(d.get('line'))[:80]!r}: pagaie {str(d.get('ours'))[:150]!r}"
                       f" vs paddle {str(d.get('theirs'))[:150]!r}")
    assert not bad, f"{len(bad)} pinned doc examples no longer agree:\n" + "\n".join(bad[:30])


def test_doc_examples_fast(examples_file: str, tmp_path: pytest.TempPathFactory) -> None:
    _check(PINNED["fast"], examples_file, str(tmp_path))


@pytest.mark.slow
def test_doc_examples_slow(examples_file: str, tmp_path: pytest.TempPathFactory) -> None:
    if not PINNED["slow"]:
        pytest.skip("every pinned example fits in the fast list")
    _check(PINNED["slow"], examples_file, str(tmp_path))
