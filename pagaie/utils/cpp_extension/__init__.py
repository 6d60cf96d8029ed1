"""``paddle.utils.cpp_extension``: building custom C++/CUDA operators.

Paddle compiles custom operators against its own C++ operator API (``PD_BUILD_OP``,
``paddle::Tensor``) and loads them into its runtime. pagaie has no C++ runtime of its own (its
kernels are PyTorch's), so an operator written for Paddle's C++ API cannot be built or loaded
here: :func:`load` and :func:`setup` raise ``NotImplementedError`` naming the alternatives
(an operator in Python with ``paddle.autograd.PyLayer``, or a torch C++ extension through
``torch.utils.cpp_extension``, whose results ``paddle.utils.dlpack.from_dlpack`` takes
without a copy). The helpers that do not compile anything behave as in Paddle:
:func:`CppExtension` and :func:`CUDAExtension` describe an extension as a
``setuptools.Extension``, and :func:`get_build_directory` names the build folder.

Examples:
    >>> from pagaie.utils.cpp_extension import CppExtension
    >>> CppExtension(['relu_op.cc', 'relu_op.h']).name
    'relu_op'
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

__all__ = ["CppExtension", "CUDAExtension", "load", "setup", "get_build_directory"]

_NO_CPP_OPS = ("pagaie runs on PyTorch kernels and has no C++ operator API (PD_BUILD_OP), so custom "
               "operators written for Paddle's C++ API cannot be compiled or loaded; write the operator "
               "in Python (paddle.autograd.PyLayer) or build it as a torch extension "
               "(torch.utils.cpp_extension) and exchange tensors with paddle.utils.dlpack")


def _extension_name(sources: Sequence[str]) -> str:
    """The default name: the distinct source file stems, in order, joined by '_'."""
    assert len(sources) > 0, "source files is empty"  # the message and type Paddle uses
    stems: list[str] = []
    for source in sources:
        stem = os.path.splitext(os.path.basename(source))[0]
        if stem not in stems:
            stems.append(stem)
    return "_".join(stems)


def _extension(api: str, sources: Sequence[str], args: tuple, kwargs: dict) -> Any:
    if isinstance(sources, str):
        raise TypeError(f"paddle.utils.cpp_extension.{api}: sources must be a list of file paths, "
                        f"but received the str {sources!r}")
    import setuptools
    name = kwargs.pop("name", None)
    if name is None:
        name = _extension_name(sources)
    return setuptools.Extension(name, list(sources), *args, **kwargs)


def CppExtension(sources: Sequence[str], *args: Any, **kwargs: Any) -> Any:
    """Describe a C++ extension (a ``setuptools.Extension``), named after its sources by default.

    Args:
        sources (list[str]): the C++ source files.
        *args, **kwargs: passed to ``setuptools.Extension`` (``name`` overrides the default name).

    Returns:
        setuptools.Extension

    Examples:
        >>> from pagaie.utils.cpp_extension import CppExtension
        >>> ext = CppExtension(['a.cc', 'b.cc'], name='custom_ops')
        >>> ext.name, ext.sources
        ('custom_ops', ['a.cc', 'b.cc'])
    """
    return _extension("CppExtension", sources, args, kwargs)


def CUDAExtension(sources: Sequence[str], *args: Any, **kwargs: Any) -> Any:
    """Describe a C++/CUDA extension (a ``setuptools.Extension``), named after its sources by default.

    Examples:
        >>> from pagaie.utils.cpp_extension import CUDAExtension
        >>> CUDAExtension(['relu_op.cc', 'relu_op.cu']).name
        'relu_op'
    """
    return _extension("CUDAExtension", sources, args, kwargs)


def get_build_directory(verbose: bool = False) -> str:
    """The folder extensions are built in: ``$PADDLE_EXTENSION_DIR``, else ``~/.cache/paddle_extensions``
    (created when missing).

    Examples:
        >>> import os
        >>> from pagaie.utils.cpp_extension import get_build_directory
        >>> os.path.isdir(get_build_directory())
        True
    """
    root = os.environ.get("PADDLE_EXTENSION_DIR")
    if root is None:
        root = os.path.join(os.path.expanduser("~/.cache"), "paddle_extensions")
    if verbose:
        print(f"$PADDLE_EXTENSION_DIR is {root}")
    os.makedirs(root, exist_ok=True)
    return root


def load(name: str, sources: Sequence[str], extra_cxx_cflags: Sequence[str] | None = None,
         extra_cuda_cflags: Sequence[str] | None = None, extra_ldflags: Sequence[str] | None = None,
         extra_include_paths: Sequence[str] | None = None, extra_library_paths: Sequence[str] | None = None,
         build_directory: str | None = None, verbose: bool = False) -> Any:
    """Compile and load custom operators just in time: not available in pagaie (raises NotImplementedError).

    Examples:
        >>> from pagaie.utils.cpp_extension import load
        >>> try:
        ...     load(name='custom_relu', sources=['relu_op.cc'])
        ... except NotImplementedError:
        ...     print('no C++ operators')
        no C++ operators
    """
    raise NotImplementedError(f"paddle.utils.cpp_extension.load(name={name!r}): {_NO_CPP_OPS}")


def setup(**attr: Any) -> None:
    """Build and install custom operators with setuptools: not available in pagaie (raises NotImplementedError).

    Examples:
        >>> from pagaie.utils.cpp_extension import setup
        >>> try:
        ...     setup(name='custom_ops')
        ... except NotImplementedError:
        ...     print('no C++ operators')
        no C++ operators
    """
    raise NotImplementedError(f"paddle.utils.cpp_extension.setup(name={attr.get('name')!r}): {_NO_CPP_OPS}")
