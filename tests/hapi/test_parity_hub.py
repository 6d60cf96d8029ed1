"""paddle.hub with a local hubconf.py: pagaie vs real Paddle 3.3.1."""
import os

import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception

HUBCONF = '''
dependencies = ["numpy"]


def tiny(width=3):
    """A one-layer network."""
    import paddle
    return paddle.nn.Linear(2, width)


def _private():
    return 0


CONSTANT = 4
'''


@pytest.fixture()
def repo(tmp_path):
    return str(tmp_path)


def _hubconf_for(repo_dir, fw):
    """Write the hubconf for ``fw`` (the names differ in length, so no stale bytecode is reused)."""
    text = HUBCONF.replace("import paddle", f"import {fw.__name__} as paddle")
    with open(os.path.join(repo_dir, "hubconf.py"), "w") as f:
        f.write(text)
    return repo_dir


def test_list_help_load_local(repo):
    def fn(fw):
        d = _hubconf_for(repo, fw)
        net = fw.hub.load(d, "tiny", source="local", width=5)
        return (fw.hub.list(d, source="local"), fw.hub.help(d, "tiny", source="local"),
                type(net).__name__, list(net.weight.shape))
    ours, theirs = both(fn)
    assert ours == theirs
    assert pagaie.hapi.hub is pagaie.hub


@pytest.mark.parametrize("call", [
    lambda fw, d: fw.hub.list(d, source="svn"),
    lambda fw, d: fw.hub.load(d, "missing", source="local"),
    lambda fw, d: fw.hub.load(d, "CONSTANT", source="local"),
    lambda fw, d: fw.hub.help(d, 3, source="local"),
])
def test_errors(repo, call):
    same_exception(lambda fw: call(fw, _hubconf_for(repo, fw)))


def test_missing_dependency_and_hubconf(tmp_path):
    paddle_ref()
    (tmp_path / "hubconf.py").write_text('dependencies = ["no_such_module_xyz"]\ndef m():\n    return 1\n')
    same_exception(lambda fw: fw.hub.load(str(tmp_path), "m", source="local"))
    empty = tmp_path / "empty"
    empty.mkdir()
    same_exception(lambda fw: fw.hub.list(str(empty), source="local"))


def test_load_state_dict_from_cached_file(tmp_path):
    ref = paddle_ref()
    ref.save({"w": ref.ones([2, 3])}, str(tmp_path / "w.pdparams"))
    url = "https://example.invalid/models/w.pdparams"
    ours = pagaie.hub.load_state_dict_from_url(url, model_dir=str(tmp_path))
    theirs = ref.hub.load_state_dict_from_url(url, model_dir=str(tmp_path))
    assert list(ours) == list(theirs) and ours["w"].shape == theirs["w"].shape
    arrays = pagaie.hub.load_state_dict_from_url(url, model_dir=str(tmp_path), map_location="numpy")
    assert type(arrays["w"]).__name__ == "ndarray"
