"""``paddle.hub`` (also ``paddle.hapi.hub``): entry points of a repository's ``hubconf.py``.

A hub repository is a folder (local, or a GitHub / Gitee archive downloaded once into
``<PADDLE_HOME>/hub``) holding a ``hubconf.py``: its public callables are the entry points,
its optional ``dependencies`` list names the modules they need.
"""
from __future__ import annotations

import builtins
import contextlib
import os
import shutil
import sys
import warnings
import zipfile
from typing import Any, Callable, Iterator
from urllib.parse import urlparse

from pagaie.utils.download import fetch

__all__ = ["list", "help", "load", "load_state_dict_from_url"]

_SOURCES = ("github", "gitee", "local")


def _get_paddle_home() -> str:
    default = os.path.join(os.getenv("XDG_CACHE_HOME", "~/.cache"), "paddle")
    return os.path.expanduser(os.getenv("PADDLE_HOME", default))


def get_dir() -> str:
    """The folder where downloaded hub repositories and checkpoints are kept."""
    if os.getenv("PADDLE_HUB"):
        warnings.warn("PADDLE_HUB is deprecated, please use env PADDLE_HOME instead")
    return os.path.join(_get_paddle_home(), "hub")


def _check_source(source: str) -> None:
    if source not in _SOURCES:
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "gitee" | "local".')


def _repo_dir(repo: str, source: str, force_reload: bool) -> str:
    """The local folder of ``repo`` ("owner/name[:branch]"), downloaded unless cached."""
    if source == "local":
        return repo
    branch = "main"
    if ":" in repo:
        repo, branch = repo.split(":", 1)
    owner, name = repo.split("/", 1)
    hub_dir = get_dir()
    os.makedirs(hub_dir, exist_ok=True)
    target = os.path.join(hub_dir, "_".join([owner, name, branch.replace("/", "_")]))
    if not force_reload and os.path.exists(target):
        sys.stderr.write(f"Using cache found in {target}\n")
        return target
    host = "github.com" if source == "github" else "gitee.com"
    url = f"https://{host}/{owner}/{name}/archive/{branch}.zip"
    archive = os.path.join(hub_dir, branch.replace("/", "_") + ".zip")
    fetch(url, archive)
    with zipfile.ZipFile(archive) as zf:
        top = os.path.join(hub_dir, zf.infolist()[0].filename)
        shutil.rmtree(top, ignore_errors=True)
        zf.extractall(hub_dir)
    os.remove(archive)
    shutil.rmtree(target, ignore_errors=True)
    shutil.move(top, target)
    return target


def _import_hubconf(repo_dir: str) -> Any:
    sys.path.insert(0, repo_dir)
    try:
        module = __import__("hubconf")
        sys.modules.pop("hubconf", None)
    except ImportError:
        raise RuntimeError("Please make sure config exists or repo error messages above fixed when importing") \
            from None
    finally:
        sys.path.remove(repo_dir)
    return module


def _entry(module: Any, name: Any) -> Callable:
    if not isinstance(name, str):
        raise ValueError("Invalid input: model should be a str of function name")
    fn = getattr(module, name, None)
    if fn is None or not callable(fn):
        raise RuntimeError(f"Cannot find callable {name} in hubconf")
    return fn


def _hubconf(repo_dir: str, source: str, force_reload: bool) -> Any:
    _check_source(source)
    return _import_hubconf(_repo_dir(repo_dir, source, force_reload))


def list(repo_dir: str, source: str = "github", force_reload: bool = False) -> builtins.list[str]:
    """The entry points (public callables) of a hub repository's ``hubconf.py``.

    Args:
        repo_dir (str): "owner/name[:branch]" for 'github' / 'gitee', or a local folder.
        source (str): 'github', 'gitee' or 'local'. Default: 'github'.
        force_reload (bool): download the repository again even if cached. Default: False.

    Returns:
        list[str]: the entry point names, sorted.

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> d = tempfile.mkdtemp()
        >>> with open(os.path.join(d, 'hubconf.py'), 'w') as f:
        ...     _ = f.write('def tiny(n=2):\\n    "A tiny model."\\n    return n\\n')
        >>> paddle.hub.list(d, source='local')
        ['tiny']
    """
    module = _hubconf(repo_dir, source, force_reload)
    return [n for n in dir(module) if callable(getattr(module, n)) and not n.startswith("_")]


def help(repo_dir: str, model: str, source: str = "github", force_reload: bool = False) -> str:
    """The docstring of entry point ``model`` of a hub repository.

    Args:
        repo_dir (str): "owner/name[:branch]" for 'github' / 'gitee', or a local folder.
        model (str): the entry point name.
        source (str): 'github', 'gitee' or 'local'. Default: 'github'.
        force_reload (bool): download the repository again even if cached. Default: False.

    Returns:
        str: the docstring (None when it has none).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> d = tempfile.mkdtemp()
        >>> with open(os.path.join(d, 'hubconf.py'), 'w') as f:
        ...     _ = f.write('def tiny(n=2):\\n    "A tiny model."\\n    return n\\n')
        >>> paddle.hub.help(d, 'tiny', source='local')
        'A tiny model.'
    """
    return _entry(_hubconf(repo_dir, source, force_reload), model).__doc__


def load(repo_dir: str, model: str, source: str = "github", force_reload: bool = False, **kwargs: Any) -> Any:
    """Call entry point ``model`` of a hub repository with ``kwargs`` and return its result.

    The modules listed in the hubconf's ``dependencies`` must be importable.

    Args:
        repo_dir (str): "owner/name[:branch]" for 'github' / 'gitee', or a local folder.
        model (str): the entry point name.
        source (str): 'github', 'gitee' or 'local'. Default: 'github'.
        force_reload (bool): download the repository again even if cached. Default: False.
        **kwargs: arguments of the entry point.

    Returns:
        What the entry point returns (usually a ``paddle.nn.Layer``).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> d = tempfile.mkdtemp()
        >>> with open(os.path.join(d, 'hubconf.py'), 'w') as f:
        ...     _ = f.write('dependencies = ["numpy"]\\ndef tiny(n=2):\\n    return n\\n')
        >>> paddle.hub.load(d, 'tiny', source='local', n=5)
        5
    """
    module = _hubconf(repo_dir, source, force_reload)
    missing = []
    for pkg in getattr(module, "dependencies", None) or []:
        try:
            __import__(pkg)
        except ImportError:
            missing.append(pkg)
    if missing:
        raise RuntimeError("Missing dependencies: {}".format(", ".join(missing)))
    return _entry(module, model)(**kwargs)


@contextlib.contextmanager
def _device_guard(device: str) -> Iterator[None]:
    import pagaie
    origin = pagaie.device.get_device()
    if device == "cpu":
        pagaie.set_device("cpu")
    elif device in ("gpu", "xpu", "npu"):
        pagaie.set_device(f"{device}:0")
    try:
        yield
    finally:
        pagaie.set_device(origin)


def _load_file(path: str, map_location: str | None) -> Any:
    import pagaie
    if map_location in ("numpy", "np"):
        return pagaie.load(path, return_numpy=True)
    if map_location:
        with _device_guard(map_location):
            return pagaie.load(path)
    return pagaie.load(path)


def load_state_dict_from_url(url: str, model_dir: str | None = None, check_hash: bool = False,
                             file_name: str | None = None, map_location: str | None = None) -> Any:
    """Download (once) a file saved with ``paddle.save`` and load it.

    A zip archive holding a single file is extracted first.

    Args:
        url (str): where the file is.
        model_dir (str, optional): the cache folder; default ``<hub dir>/checkpoints``.
        check_hash (bool): accepted for compatibility (no hash is checked).
        file_name (str, optional): the cached file's name; default the URL's base name.
        map_location (str, optional): 'cpu', 'gpu', 'xpu', 'npu' (the device to load to)
            or 'numpy' / 'np' (numpy arrays).

    Returns:
        The loaded object (usually a state dict).

    Examples:
        >>> import os, tempfile
        >>> import pagaie as paddle
        >>> d = tempfile.mkdtemp()
        >>> paddle.save({'w': paddle.ones([2])}, os.path.join(d, 'w.pdparams'))
        >>> sd = paddle.hub.load_state_dict_from_url('https://example.com/w.pdparams', model_dir=d)
        >>> sd['w'].shape
        paddle.Size([2])
    """
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached = os.path.join(model_dir, filename)
    if not os.path.exists(cached):
        sys.stderr.write(f'Downloading: "{url}" to {cached}\n')
        fetch(url, cached)
    if map_location:
        assert map_location in ["cpu", "gpu", "xpu", "npu", "numpy", "np"]
    if zipfile.is_zipfile(cached):
        with zipfile.ZipFile(cached) as zf:
            members = zf.infolist()
            if len(members) == 1 and not members[0].is_dir():
                zf.extractall(model_dir)
                cached = os.path.join(model_dir, members[0].filename)
    return _load_file(cached, map_location)
