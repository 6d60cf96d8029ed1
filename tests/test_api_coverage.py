"""Paddle 3.3.1 public-API coverage, measured by the shared inventory's coverage.py.

Prints the figures; asserts the core target: at least 85% of the names in ``paddle``,
``paddle.Tensor``, ``paddle.linalg`` and ``paddle.fft`` present and signature-complete.
"""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
COVERAGE = ROOT.parent / "shared" / "paddle_api" / "coverage.py"
CORE_MODULES = ("paddle", "paddle.Tensor", "paddle.linalg", "paddle.fft")


def _coverage(modules: tuple[str, ...], tmp_path: pathlib.Path) -> dict:
    if not COVERAGE.exists():
        pytest.skip("the shared Paddle API inventory is not beside this checkout")
    out = tmp_path / "cov.json"
    args = [sys.executable, str(COVERAGE), "--target", "pagaie", "--path", str(ROOT), "--json", str(out)]
    for m in modules:
        args += ["--module", m]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=600)
    print(proc.stdout[-3000:])
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(out.read_text())


def _totals(report: dict) -> tuple[int, int, int]:
    t = report["totals"]
    return t["total"], t["present"], t["complete"]


def test_core_api_coverage(tmp_path):
    report = _coverage(CORE_MODULES, tmp_path)
    total, present, complete = _totals(report)
    assert total > 0
    print(f"core API: present {present}/{total}, signature-complete {complete}/{total} "
          f"({100 * complete / total:.1f}%)")
    assert complete / total >= 0.85
