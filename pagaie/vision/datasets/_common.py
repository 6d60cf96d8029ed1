"""Shared by the vision and text datasets: the Dataset base class and the local file cache.

Datasets read Paddle's own file layouts. A file that is not given is looked for in Paddle's
cache (``~/.cache/paddle/dataset/<module>/<file name from the URL>``, the same place real
Paddle downloads to); when absent and ``download=True``, one short download attempt is made,
and failure raises a RuntimeError naming the file, where it was expected and its URL.
"""
from __future__ import annotations

import os
from typing import Any

import pagaie.io as _io
from pagaie.utils.download import fetch

__all__: list[str] = []

DATA_HOME = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")
DOWNLOAD_TIMEOUT_S = 10.0


try:
    from pagaie.io.dataset import Dataset
except ImportError:  # pragma: no cover - only while pagaie.io has no Dataset yet
    if hasattr(_io, "Dataset"):
        Dataset = _io.Dataset
    else:
        class Dataset:  # type: ignore[no-redef]
            """An abstract map-style dataset: subclasses define ``__getitem__`` and ``__len__``."""

            def __getitem__(self, idx: int) -> Any:
                raise NotImplementedError(f"'__getitem__' not implement in class {type(self).__name__}")

            def __len__(self) -> int:
                raise NotImplementedError(f"'__len__' not implement in class {type(self).__name__}")


def cached_file(url: str, md5: str, module_name: str, api: str, argname: str) -> str:
    """Path of ``url``'s file in Paddle's dataset cache, downloading it once if absent.

    Raises:
        RuntimeError: the file is not cached and cannot be downloaded; the message names the
            expected path, the URL and the argument that can point to a local copy instead.
    """
    path = os.path.join(DATA_HOME, module_name, url.split("/")[-1])
    if os.path.exists(path):
        return path
    try:
        fetch(url, path, md5, timeout=DOWNLOAD_TIMEOUT_S)
    except Exception as e:  # noqa: BLE001 - any network or disk failure ends the same way
        raise RuntimeError(
            f"{api}: the data file '{os.path.basename(path)}' is not in the local cache "
            f"(expected at '{path}') and downloading it from {url} failed ({type(e).__name__}: {e}). "
            f"Place the file there, or pass its local path as `{argname}`.") from None
    return path


def resolve(path: str | None, download: bool, url: str, md5: str, module_name: str, api: str,
            argname: str) -> str:
    """``path`` when given; otherwise the cached (or downloaded) file."""
    if path is not None:
        return path
    assert download, f"{argname} is not set and downloading automatically is disabled"
    return cached_file(url, md5, module_name, api, argname)


def check_backend(backend: str | None) -> str:
    from pagaie.vision.image import get_image_backend
    if backend is None:
        backend = get_image_backend()
    if backend not in ("pil", "cv2"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    return backend
