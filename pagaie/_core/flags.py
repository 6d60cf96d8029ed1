"""Paddle's global ``FLAGS_*``: :func:`set_flags`, :func:`get_flags` and fast lookups.

Every flag of Paddle 3.3.1 exists with its default value, so scripts that set any
of them keep working; a ``FLAGS_<name>`` environment variable present at import
overrides the default, as in Paddle. Flags that change pagaie's behaviour are
read with :func:`flag` (e.g. ``flag('check_nan_inf')``), and features that must
react to a change register a callback with :func:`on_change`.
"""
from __future__ import annotations

import numbers
import operator
import os
import re
from typing import Any, Callable, Sequence

import numpy as np

from pagaie._core._flag_defaults import DEFAULTS, GPU_ONLY, INT32, UINT64

__all__ = ["set_flags", "get_flags", "flag", "on_change"]

_PREFIX = "FLAGS_"
_values: dict[str, Any] = {**DEFAULTS, **GPU_ONLY}
_listeners: dict[str, list[Callable[[Any], None]]] = {}

_KIND_NAMES = {bool: "a bool", int: "an int", float: "a float", str: "a string"}


def _coerce(name: str, value: Any, from_env: bool = False) -> Any:
    """``value`` converted to the type of the flag's default (bool, int, float or str).

    ``set_flags`` converts as Paddle's C++ binding does: a bool flag takes any number or None,
    an int flag an integer (numpy's too) but not a float, a float flag any number, a string
    flag a str or bytes; anything else is a RuntimeError. Environment variables are strings,
    parsed by the flag's type."""
    kind = type(DEFAULTS.get(name, GPU_ONLY.get(name)))
    if from_env:
        return _parse_env(name, value, kind)
    where = f"paddle.set_flags: {_PREFIX}{name}"
    if kind is bool and (value is None or isinstance(value, (numbers.Number, np.bool_))):
        return bool(value)
    if kind is int and isinstance(value, (numbers.Integral, np.bool_)):
        value = operator.index(value)
        width, lo, hi = (("an int32", -2**31, 2**31 - 1) if name in INT32 else
                         ("a uint64", 0, 2**64 - 1) if name in UINT64 else
                         ("an int64", -2**63, 2**63 - 1))
        if not lo <= value <= hi:
            raise RuntimeError(f"{where} is {width} flag, so it takes values in [{lo}, {hi}], but "
                               f"received {value}")
        return value
    if kind is float and isinstance(value, (numbers.Real, np.bool_)):
        return float(value)
    if kind is str and isinstance(value, (str, bytes)):
        return value.decode() if isinstance(value, bytes) else value
    raise RuntimeError(f"{where} is {_KIND_NAMES[kind]} flag, but received "
                       f"{type(value).__name__} {value!r}")


# What Paddle's C++ flag parsing reads from an environment variable: a bool is exactly
# true/false/1/0 (any case, no spaces); an int or a float is the longest number at the start
# (after spaces), as C's stoi/stod read it ('2abc' is 2, '0x10' is 0 as an int, 16.0 as a float)
_BOOL_WORDS = {"true": True, "1": True, "false": False, "0": False}
_INT_PREFIX = re.compile(r"\s*[+-]?\d+")
_FLOAT_PREFIX = re.compile(r"\s*[+-]?(?:(?P<hex>0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                           r"(?:[pP][+-]?\d+)?)|inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)",
                           re.IGNORECASE)


def _parse_env(name: str, raw: str, kind: type) -> Any:
    """The value of environment variable ``FLAGS_<name>``; TypeError when malformed."""
    if kind is bool and raw.lower() in _BOOL_WORDS:
        return _BOOL_WORDS[raw.lower()]
    if kind is int and (m := _INT_PREFIX.match(raw)):
        return int(m.group())
    if kind is float and (m := _FLOAT_PREFIX.match(raw)):
        text = m.group().strip()
        return float.fromhex(text) if m.group("hex") else float(text)
    if kind is str:
        return raw
    raise TypeError(f"environment variable {_PREFIX}{name} is {_KIND_NAMES[kind]} flag, "
                    f"but holds {raw!r}")


def _load_environment() -> None:
    for name in _values:
        raw = os.environ.get(_PREFIX + name)
        if raw is not None:
            try:
                _values[name] = _coerce(name, raw, from_env=True)
            except TypeError:
                pass  # a malformed variable keeps the default, as gflags does


_load_environment()


def _key(name: Any, api: str, verb: str) -> str:
    if not isinstance(name, str):
        raise TypeError(f"paddle.{api}: a flag name must be a str, but received "
                        f"{type(name).__name__} {name!r}")
    if isinstance(name, str) and name.startswith(_PREFIX) and name[len(_PREFIX):] in _values:
        return name[len(_PREFIX):]
    raise ValueError(f"Flag {name} cannot {verb} its value through this function "
                     f"(paddle.{api}: unknown flag; flags are named like 'FLAGS_check_nan_inf')")


def get_flags(flags: str | Sequence[str]) -> dict[str, Any]:
    """Read global flags.

    Args:
        flags (str|list[str]|tuple[str]): one flag name (``'FLAGS_check_nan_inf'``) or several.

    Returns:
        dict: ``{flag_name: value}`` for every flag asked for.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.get_flags('FLAGS_check_nan_inf')
        {'FLAGS_check_nan_inf': False}
    """
    if isinstance(flags, str):
        names = [flags]
    elif isinstance(flags, (list, tuple)):
        names = list(flags)
    else:
        raise TypeError("Flags in get_flags should be a list, tuple or string "
                        f"(paddle.get_flags received {type(flags).__name__})")
    return {n: _values[_key(n, "get_flags", "get")] for n in names}


def set_flags(flags: dict[str, Any]) -> None:
    """Set global flags.

    Args:
        flags (dict): ``{flag_name: value}``; values are converted to the flag's type.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.set_flags({'FLAGS_check_nan_inf': True})
        >>> paddle.get_flags(['FLAGS_check_nan_inf'])
        {'FLAGS_check_nan_inf': True}
        >>> paddle.set_flags({'FLAGS_check_nan_inf': False})
    """
    if not isinstance(flags, dict):
        raise TypeError(f"flags in set_flags should be a dict (paddle.set_flags received "
                        f"{type(flags).__name__})")
    for name, value in flags.items():
        key = _key(name, "set_flags", "set")
        new = _coerce(key, value)
        _values[key] = new
        for cb in _listeners.get(key, ()):
            cb(new)


def flag(name: str) -> Any:
    """The current value of flag ``name`` (without the ``FLAGS_`` prefix); for pagaie's own use."""
    return _values[name]


def on_change(name: str, callback: Callable[[Any], None]) -> None:
    """Call ``callback(value)`` now and whenever flag ``name`` (no prefix) is set."""
    if name not in _values:
        raise KeyError(f"unknown flag {name!r}")
    _listeners.setdefault(name, []).append(callback)
    callback(_values[name])


def _cudnn(attr: str) -> Callable[[Any], None]:
    def apply(value: Any) -> None:
        import torch
        setattr(torch.backends.cudnn, attr, bool(value))
    return apply


on_change("cudnn_deterministic", _cudnn("deterministic"))
on_change("cudnn_exhaustive_search", _cudnn("benchmark"))
