"""``paddle.utils.run_check`` and ``pagaie run-check``."""
import os
import subprocess
import sys

import torch

import pagaie
from pagaie.utils.install_check import check_installation

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_run_check_prints_paddles_report(capsys):
    assert pagaie.utils.run_check() is None
    out = capsys.readouterr().out
    kind = "GPU" if torch.cuda.is_available() else "CPU"
    assert out.startswith("Running verify PaddlePaddle program ... \n")
    assert f"PaddlePaddle works well on 1 {kind}.\n" in out
    assert out.endswith("PaddlePaddle is installed successfully! Let's start deep learning with "
                        "PaddlePaddle now.\n")


def test_run_check_raises_on_failure(monkeypatch, capsys):
    from pagaie.utils import install_check

    def broken(paddle, device):
        raise RuntimeError("simulated failure")
    monkeypatch.setattr(install_check, "_forward_backward", broken)
    try:
        pagaie.utils.run_check()
    except RuntimeError as exc:
        assert "simulated failure" in str(exc)
    else:
        raise AssertionError("run_check did not raise")


def test_check_installation_prints_versions_and_success(capsys):
    assert check_installation(verbose=True) is True
    out = capsys.readouterr().out
    assert f"pagaie {pagaie.__version__}" in out
    assert f"torch {torch.__version__}" in out
    assert "works well on" in out and "cpu" in out
    assert "installed successfully" in out
    if torch.cuda.is_available():
        assert "compute capability" in out and "gpu:0" in out
    else:
        assert "CUDA" in out


def test_check_installation_reports_failure(monkeypatch, capsys):
    from pagaie.utils import install_check

    def broken(paddle, device):
        raise RuntimeError("simulated failure")
    monkeypatch.setattr(install_check, "_forward_backward", broken)
    assert check_installation(verbose=True) is False
    out = capsys.readouterr().out
    assert "FAILED on cpu" in out and "simulated failure" in out


def test_cli_run_check():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "pagaie", "run-check"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "installed successfully" in r.stdout


def test_utils_names():
    pagaie.utils.require_version("2.0")
    pagaie.utils.require_version("3.0", "3.3.1")
    assert pagaie.utils.try_import("json").__name__ == "json"
    from tests.reference import same_exception
    same_exception(lambda pd: pd.utils.require_version("99.0"))
    same_exception(lambda pd: pd.utils.require_version("3.0", "3.3"))
    same_exception(lambda pd: pd.utils.require_version("abc"))
