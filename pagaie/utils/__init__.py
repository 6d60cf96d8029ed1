"""``paddle.utils``: installation check, version requirements, optional imports, deprecation,
nested-structure helpers (:mod:`~pagaie.utils.layers_utils`), DLPack (:mod:`~pagaie.utils.dlpack`)
and downloads (:mod:`~pagaie.utils.download`)."""
from __future__ import annotations

import functools
import importlib
import inspect
import re
import sys
import warnings
from types import ModuleType
from typing import Any, Callable

from pagaie.utils import cpp_extension, dlpack, download, layers_utils, unique_name  # noqa: F401
from pagaie.utils.dlpack import from_dlpack, to_dlpack  # noqa: F401  (hoisted: paddle.from_dlpack)
from pagaie.utils.layers_utils import (  # noqa: F401
    assert_same_structure, check_shape, convert_shape_to_list, convert_to_list, copy_mutable_vars,
    flatten, hold_mutable_vars, is_same_shape, is_sequence, map_structure, pack_sequence_as,
    padding_to_same_structure, to_sequence)
from pagaie.utils.install_check import run_check
from pagaie.version import paddle_api_version

__all__ = ["deprecated", "require_version", "run_check", "try_import"]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = ["from_dlpack", "to_dlpack"]  # paddle.from_dlpack is this one

# The Paddle release whose API pagaie reproduces; version requirements are checked against it.
PADDLE_API_VERSION = paddle_api_version


def strtobool(val: str) -> bool:
    """Read a yes/no word (as in environment variables) as a bool.

    Args:
        val (str): ``y/yes/t/true/on/1`` or ``n/no/f/false/off/0``, any case.

    Returns:
        bool

    Raises:
        ValueError: any other text.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.strtobool('ON'), paddle.utils.strtobool('0')
        (True, False)
    """
    low = val.lower()
    if low in ("y", "yes", "t", "true", "on", "1"):
        return True
    if low in ("n", "no", "f", "false", "off", "0"):
        return False
    raise ValueError(f"Invalid truth value {val!r}")


class VisibleDeprecationWarning(UserWarning):
    """Warning for deprecated APIs, shown by default (unlike DeprecationWarning)."""


def _numeric_parts(v: str) -> list[int]:
    """The dot-separated all-digit parts of ``v``, padded to four (``'2.0rc1'`` -> [2, 0, 0, 0])."""
    parts = [int(p) for p in v.split(".") if p.isdigit()]
    return parts + [0] * (4 - len(parts))


def _version_parts(v: str, arg: str) -> list[int]:
    if not isinstance(v, str):
        allowed = "str or type(None)" if arg == "max_version" else "str"   # max_version may be None
        raise TypeError(f"The type of '{arg}' in require_version must be {allowed}, but received {type(v)}.")
    if not re.fullmatch(r"\d+(\.\d+){0,3}", v):
        raise ValueError(f"The value of '{arg}' in require_version must be in format "
                         f"'\\d+(\\.\\d+){{0,3}}', like '1.5.2.0', but received {v}")
    parts = [int(p) for p in v.split(".")]
    return parts + [0] * (4 - len(parts))


def require_version(min_version: str, max_version: str | None = None) -> None:
    """Raise if the Paddle API version pagaie provides (3.3.1) is outside
    ``[min_version, max_version]``.

    Args:
        min_version (str): the lowest acceptable version, like ``'2.0'``.
        max_version (str, optional): the highest acceptable version.

    Raises:
        Exception: when the version does not fit (Paddle raises a plain ``Exception``).

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.require_version('2.0')
        >>> paddle.utils.require_version('2.0', '3.3.1')
    """
    lo = _version_parts(min_version, "min_version")
    hi = None if max_version is None else _version_parts(max_version, "max_version")
    cur = _version_parts(PADDLE_API_VERSION, "version")
    if hi is None:
        if cur < lo:
            raise Exception(f"VersionError: PaddlePaddle version {min_version} or higher is required, "
                            f"but {PADDLE_API_VERSION} (the API pagaie provides) is installed.")
    elif cur < lo or cur > hi:
        raise Exception(f"VersionError: PaddlePaddle version in [{min_version}, {max_version}] "
                        f"required, but {PADDLE_API_VERSION} (the API pagaie provides) is installed.")


_PIP_NAMES = {"cv2": "opencv-python"}


def try_import(module_name: str, err_msg: str | None = None) -> ModuleType:
    """Import an optional dependency, or raise ImportError saying how to install it.

    Args:
        module_name (str): the module to import.
        err_msg (str, optional): the message of the ImportError instead of the default one.

    Returns:
        module: the imported module.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.try_import('json').__name__
        'json'
    """
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if err_msg is None:
            # the distribution to install: the top-level package (OpenCV's is opencv-python)
            package = _PIP_NAMES.get(module_name, module_name.split(".")[0])
            err_msg = (f"Failed importing {module_name}. This likely means that some modules "
                       f"require additional dependencies that have to be manually installed "
                       f"(usually with `pip install {package}`).")
        raise ImportError(err_msg) from None


def deprecated(update_to: str = "", since: str = "", reason: str = "",
               level: int = 0) -> Callable[[Callable], Callable]:
    """Mark a function or class as deprecated.

    Args:
        update_to (str, optional): the replacement API, starting with ``'paddle.'``.
        since (str, optional): the version the deprecation started.
        reason (str, optional): why.
        level (int, optional): 0 only notes it in the docstring; 1 also warns on every call;
            2 makes calls raise RuntimeError.

    Returns:
        the decorator.

    Examples:
        >>> import warnings
        >>> import pagaie as paddle
        >>> @paddle.utils.deprecated(update_to='paddle.add', level=1)
        ... def old_add(a, b):
        ...     return a + b
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter('always')
        ...     old_add(1, 2)
        3
        >>> len(w)
        1
    """

    def decorator(func: Callable) -> Callable:
        # Paddle checks the arguments when the decorator is applied, not when it is made
        for arg, value in (("update_to", update_to), ("since", since), ("reason", reason)):
            if not isinstance(value, str):
                raise AssertionError(f'type of "{arg}" must be str.')
        if not (isinstance(level, int) and 0 <= level < 3):
            raise AssertionError(f'type of "level" must be int and must be one of 0, 1, 2. But received: {level}.')
        if update_to.strip() and not update_to.strip().startswith("paddle."):
            raise AssertionError(f'Argument update_to must start with "paddle.", your value is "{update_to}"')
        return _mark_deprecated(func, f"{func.__module__}.{func.__name__}", update_to, since, reason,
                                level)

    return decorator


def _mark_deprecated(func: Callable, api: str, update_to: str = "", since: str = "", reason: str = "",
                     level: int = 1) -> Callable:
    """``func`` as :func:`deprecated` leaves it, its messages naming it ``api`` (Paddle's module
    path: ``paddle.nn.functional.loss.softmax_with_cross_entropy``). The arguments are
    :func:`deprecated`'s, already checked. Used directly for the APIs Paddle marks so; with a
    warning (``level`` 1 or 2) the returned wrapper carries the marked docstring and ``func``
    is left unchanged, so an op published elsewhere too can be marked in one namespace."""
    msg = f'API "{api}" is deprecated'
    if since.strip():
        msg += f" since {since.strip()}"
    msg += ", and will be removed in future versions."
    if update_to.strip():
        msg += f' Please use "{update_to.strip()}" instead.'
    if reason.strip():
        msg += f"\n    Reason: {reason.strip()}"
    doc = func.__doc__ and "\n\nWarning:\n    " + msg + "\n\n" + inspect.cleandoc(func.__doc__)
    if level == 0:
        func.__doc__ = doc
        return func
    # Paddle's text: a "Warning:" header, in yellow where the terminal shows ANSI colours
    shown = (f"\nWarning:\n{msg} " if sys.platform.lower() == "win32"
             else f"\033[93m\nWarning:\n{msg} \033[0m")
    # only the numeric parts of 'since' count ('2.0rc1' is 2.0; text alone is 0)
    fires = not since.strip() or _numeric_parts(PADDLE_API_VERSION) >= _numeric_parts(since)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if level == 2:
            raise RuntimeError(f'API "{api}" has been deprecated.')
        if fires:
            warnings.warn(shown, category=VisibleDeprecationWarning, stacklevel=2)
        return func(*args, **kwargs)

    wrapper.__doc__ = doc   # the wrapped function keeps its own
    return wrapper
