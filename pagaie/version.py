"""``paddle.version``: what this installation is and what it was built against.

What pagaie reports, and why:

- ``full_version`` / ``major`` / ``minor`` / ``patch`` / ``rc`` are **pagaie's own** version
  (``pagaie.__version__``), so that ``paddle.__version__ == paddle.version.full_version``
  holds as in Paddle. The Paddle API level pagaie reproduces is :data:`paddle_api_version`
  (``'3.3.1'``); :func:`paddle.utils.require_version` checks against that one.
- ``cuda`` / ``cudnn`` / ``nccl`` / ``hip`` / ``cuda_archs`` describe the **PyTorch build**
  pagaie runs on, since all kernels come from it (``torch.version.cuda``,
  ``torch.backends.cudnn.version()``, ``torch.cuda.nccl.version()``, ``torch.version.hip``,
  ``torch.cuda.get_arch_list()``), written in Paddle's formats. Where Paddle's CPU build
  says ``'False'`` (``cuda``, ``cudnn``), ``'0'`` (``nccl``), ``None`` (``hip``) or ``[]``
  (``cuda_archs``), a CPU-only torch gives the same.
- ``xpu*`` and ``cinn`` are ``'False'`` and ``tensorrt`` is ``'None'``: pagaie has no XPU,
  CINN or TensorRT backend. ``with_mkl`` is ``'ON'`` when torch was built with MKL.
- ``commit`` is ``'Unknown'`` (Paddle's own value when the build commit is unknown): pagaie
  does not record one; ``is_tagged`` is True, so :func:`show` prints the version numbers.

Examples:
    >>> import pagaie as paddle
    >>> paddle.version.full_version == paddle.__version__
    True
    >>> paddle.version.paddle_api_version
    '3.3.1'
    >>> paddle.version.xpu()
    'False'
"""
from __future__ import annotations

import inspect
import re
from typing import Any

import torch

from pagaie._version import __version__ as full_version

__all__ = ["cuda", "cudnn", "nccl", "show", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "tensorrt",
           "cuda_archs", "hip"]

# The PaddlePaddle release whose public API pagaie reproduces.
paddle_api_version = "3.3.1"


def _split_version(v: str) -> tuple[str, str, str, str]:
    m = re.match(r"(\d+)\.(\d+)\.(\d+)(?:[.-]?rc(\d+))?", v)
    if m is None:
        return "0", "0", "0", "0"
    return m.group(1), m.group(2), m.group(3), m.group(4) or "0"


major, minor, patch, rc = _split_version(full_version)
is_tagged = True
commit = "Unknown"
with_mkl = "ON" if torch.backends.mkl.is_available() else "OFF"
with_hml = ""
cuda_version = torch.version.cuda or "False"
hip_version = torch.version.hip or None
xpu_xre_version = "False"
xpu_xccl_version = "False"
xpu_xhpc_version = "False"
cinn_version = "False"
tensorrt_version = "None"
with_pip_cuda_libraries = "ON" if torch.version.cuda else "OFF"
with_pip_tensorrt = "OFF"

# Computed on first use (they load the CUDA libraries): cudnn_version, nccl_version,
# compiled_cuda_archs. See __getattr__.
_LAZY: dict[str, Any] = {}


def _cudnn_version() -> str:
    try:
        v = torch.backends.cudnn.version()
    except Exception:  # noqa: BLE001 (a broken CUDA install reads as "no cuDNN")
        v = None
    if not v:
        return "False"
    if v >= 90000:  # cuDNN 9 encodes major*10000 + minor*100 + patch
        return f"{v // 10000}.{v % 10000 // 100}.{v % 100}"
    return f"{v // 1000}.{v % 1000 // 100}.{v % 100}"


def _nccl_version() -> str:
    try:
        mj, mn, pt = torch.cuda.nccl.version()[:3]
    except Exception:  # noqa: BLE001 (no NCCL in this torch build)
        return "0"
    # NCCL_VERSION_CODE: major*1000 + minor*100 + patch before 2.9, major*10000 + ... since.
    return str(mj * 10000 + mn * 100 + pt if (mj, mn) >= (2, 9) else mj * 1000 + mn * 100 + pt)


def _cuda_archs() -> list[int]:
    try:
        archs = torch.cuda.get_arch_list()
    except Exception:  # noqa: BLE001
        return []
    return sorted({int(a[3:]) for a in archs if a.startswith("sm_") and a[3:].isdigit()})


_LAZY_MAKERS = {"cudnn_version": _cudnn_version, "nccl_version": _nccl_version,
                "compiled_cuda_archs": _cuda_archs}


def __getattr__(name: str) -> Any:
    maker = _LAZY_MAKERS.get(name)
    if maker is None:
        raise AttributeError(f"module 'paddle.version' has no attribute '{name}'")
    if name not in _LAZY:
        _LAZY[name] = maker()
    return _LAZY[name]


class CudaVersion(str):
    """A version string that can also be called (``paddle.version.cuda()`` and
    ``paddle.version.cuda`` both give it), as Paddle's ``paddle.version.cuda``.

    Args:
        version (str): the version text.

    Examples:
        >>> from pagaie.version import CudaVersion
        >>> v = CudaVersion('12.4')
        >>> v(), v == '12.4'
        ('12.4', True)
    """

    def __new__(cls, version: str) -> CudaVersion:
        return super().__new__(cls, version)

    def __call__(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}('{self}')"

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.Signature(parameters=[], return_annotation=str)


cuda = CudaVersion(cuda_version)

# Paddle's ``hip`` is the bare value: None on builds without ROCm. A ROCm torch gives a
# callable version string (Paddle's would be a plain, uncallable str there).
hip = None if hip_version is None else CudaVersion(hip_version)


def show() -> None:
    """Print the version of pagaie and of the libraries its torch build uses.

    Prints ``full_version``, ``major``, ``minor``, ``patch``, ``rc`` (or ``commit`` when the
    build is not tagged), then ``cuda``, ``cudnn``, ``hip``, ``nccl``, ``xpu_xre``,
    ``xpu_xccl``, ``xpu_xhpc``, ``cinn``, ``tensorrt_version`` and ``cuda_archs``, one
    ``name: value`` line each, as Paddle does.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.show()  # doctest: +ELLIPSIS
        full_version: ...
        major: ...
        minor: ...
        patch: ...
        rc: ...
        cuda: ...
        cudnn: ...
        hip: ...
        nccl: ...
        xpu_xre: False
        xpu_xccl: False
        xpu_xhpc: False
        cinn: False
        tensorrt_version: None
        cuda_archs: ...
    """
    if is_tagged:
        for key, value in (("full_version", full_version), ("major", major), ("minor", minor),
                           ("patch", patch), ("rc", rc)):
            print(f"{key}:", value)
    else:
        print("commit:", commit)
    print("cuda:", cuda_version)
    print("cudnn:", cudnn())
    print("hip:", hip_version)
    print("nccl:", nccl())
    print("xpu_xre:", xpu_xre_version)
    print("xpu_xccl:", xpu_xccl_version)
    print("xpu_xhpc:", xpu_xhpc_version)
    print("cinn:", cinn_version)
    print("tensorrt_version:", tensorrt_version)
    print("cuda_archs:", cuda_archs())


def mkl() -> str:
    """Whether the torch build pagaie runs on uses MKL: ``'ON'`` or ``'OFF'``.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.mkl() in ('ON', 'OFF')
        True
    """
    return with_mkl


def hml() -> str:
    """The HML (Hygon math library) setting: ``''``, as pagaie has no HML backend.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.hml()
        ''
    """
    return with_hml


def cudnn() -> str:
    """The cuDNN version of the torch build, like ``'9.1.0'``; ``'False'`` without CUDA.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.version.cudnn(), str)
        True
    """
    return __getattr__("cudnn_version")


def nccl() -> str:
    """The NCCL version code of the torch build, like ``'22105'`` for NCCL 2.21.5; ``'0'``
    without NCCL.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.nccl().isdigit()
        True
    """
    return __getattr__("nccl_version")


def cuda_archs() -> list[int]:
    """The CUDA architectures the torch build has kernels for, like ``[80, 90]``; ``[]``
    when CUDA is unavailable.

    Examples:
        >>> import pagaie as paddle
        >>> isinstance(paddle.version.cuda_archs(), list)
        True
    """
    return list(__getattr__("compiled_cuda_archs"))


def xpu() -> str:
    """The XPU version (deprecated in Paddle in favour of :func:`xpu_xhpc`): ``'False'``,
    as pagaie has no XPU backend.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.xpu()
        'False'
    """
    return xpu_xhpc_version


def xpu_xre() -> str:
    """The XPU XRE version: ``'False'`` (no XPU backend).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.xpu_xre()
        'False'
    """
    return xpu_xre_version


def xpu_xccl() -> str:
    """The XPU XCCL version: ``'False'`` (no XPU backend).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.xpu_xccl()
        'False'
    """
    return xpu_xccl_version


def xpu_xhpc() -> str:
    """The XPU XHPC version: ``'False'`` (no XPU backend).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.xpu_xhpc()
        'False'
    """
    return xpu_xhpc_version


def cinn() -> str:
    """The CINN compiler version: ``'False'``, as pagaie compiles with torch, not CINN.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.cinn()
        'False'
    """
    return cinn_version


def tensorrt() -> str:
    """The TensorRT version: ``'None'``, as pagaie has no TensorRT backend.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.version.tensorrt()
        'None'
    """
    return tensorrt_version
