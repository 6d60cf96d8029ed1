"""``pagaie.compat.install()`` and the ``pagaie`` command line."""
import os
import subprocess
import sys
import textwrap

import pytest

import pagaie
from pagaie import compat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def installed():
    compat.install()
    try:
        yield
    finally:
        compat.uninstall()


def test_import_paddle_gives_pagaie_modules(installed):
    import paddle
    import paddle.autograd
    import paddle.nn
    import paddle.nn.functional as F
    from paddle import device
    assert paddle is pagaie
    assert paddle.nn is pagaie.nn
    assert F is pagaie.nn.functional
    assert paddle.autograd is pagaie.autograd
    assert device is pagaie.device
    assert sys.modules["paddle.nn.functional"] is pagaie.nn.functional
    x = paddle.to_tensor([1.0, 2.0])
    assert isinstance(x, pagaie.Tensor)


def test_missing_submodule_names_paddle(installed):
    with pytest.raises(ModuleNotFoundError, match="paddle.no_such_submodule"):
        import paddle.no_such_submodule  # noqa: F401


def test_uninstall_restores_previous_modules():
    before = sys.modules.get("paddle")
    compat.install()
    assert compat.is_installed()
    compat.uninstall()
    assert not compat.is_installed()
    assert sys.modules.get("paddle") is before
    if before is not None:
        assert before is not pagaie


def test_install_is_idempotent():
    compat.install()
    compat.install()
    try:
        assert sys.meta_path.count(compat._finder) == 1
    finally:
        compat.uninstall()


def test_enable_compat_explains_and_disable_compat_warns():
    with pytest.raises(NotImplementedError, match="enable_compat"):
        pagaie.enable_compat()
    with pytest.warns(UserWarning, match="not installed"):
        pagaie.disable_compat()


def _run(args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "pagaie", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_cli_runs_an_unmodified_paddle_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import sys
        import paddle
        import paddle.nn
        import pagaie
        assert paddle is pagaie, paddle
        assert __name__ == "__main__"
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        (x * x).backward()
        print("ARGS", sys.argv[1:], x.grad.tolist())
        sys.exit(int(sys.argv[-1]) if sys.argv[-1].isdigit() else 0)
    """))
    r = _run(["run", str(script), "--lr", "0.1", "0"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ARGS ['--lr', '0.1', '0'] [2.0, 4.0]" in r.stdout
    r = _run(["run", str(script), "3"], tmp_path)
    assert r.returncode == 3


def test_cli_missing_script_and_version(tmp_path):
    r = _run(["run", str(tmp_path / "nope.py")], tmp_path)
    assert r.returncode == 2 and "no such script" in r.stderr
    r = _run(["--version"], tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("pagaie ")
