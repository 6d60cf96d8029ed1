"""``paddle.incubate.autotune``: switch auto-tuning on or off.

What each switch does in pagaie:

- ``kernel``: sets ``FLAGS_use_autotune`` and torch's cuDNN autotuner
  (``torch.backends.cudnn.benchmark``), which times the convolution algorithms on the first
  call of each input shape and caches the fastest, as Paddle's kernel tuning does. Turning
  it off restores ``benchmark`` to ``FLAGS_cudnn_exhaustive_search``. ``tuning_range`` is
  recorded: cuDNN's autotuner has no step window, it tunes each new shape once.
- ``layout``: recorded only. Paddle's layout tuning transposes NCHW convolutions to NHWC for
  float16 on GPUs; pagaie's convolutions keep the layout they are given and leave the choice
  of memory format to cuDNN.
- ``dataloader``: recorded only (``enable`` and ``tuning_steps``); pagaie's ``DataLoader``
  keeps the ``num_workers`` it was given.

:func:`state` returns what was recorded.
"""
from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import torch

from pagaie._core import flags as _flags

__all__ = ["set_config"]

_STATE: dict[str, Any] = {
    "kernel": {"enable": False, "tuning_range": [1, 10]},
    "layout": {"enable": False},
    "dataloader": {"enable": False, "tuning_steps": 500},
}


def state() -> dict[str, Any]:
    """A copy of the auto-tuning settings in effect (``kernel``, ``layout``, ``dataloader``).

    Examples:
        >>> import pagaie as paddle
        >>> sorted(paddle.incubate.autotune.state())
        ['dataloader', 'kernel', 'layout']
    """
    return copy.deepcopy(_STATE)


def _kernel(enable: bool) -> None:
    _STATE["kernel"]["enable"] = enable
    _flags.set_flags({"FLAGS_use_autotune": enable})
    torch.backends.cudnn.benchmark = enable or bool(_flags.flag("cudnn_exhaustive_search"))


def _warn(what: str, field: str, kind: str) -> None:
    warnings.warn(f"The auto-tuning configuration of the {what} is incorrect. The `{field}` "
                  f"should be {kind}. Use default parameter instead.")


def _load(config: Any) -> dict:
    if isinstance(config, dict):
        return config
    if isinstance(config, str):
        try:
            with open(config) as fh:
                return json.load(fh)
        except Exception as exc:  # noqa: BLE001 - Paddle falls back on any failure
            print(f"Load config error: {exc}")
            warnings.warn("Use default configuration for auto-tuning.")
    return {}


def set_config(config: dict | str | None = None) -> None:
    """Configure kernel, layout and dataloader auto-tuning.

    Args:
        config (dict|str|None, optional): ``{'kernel': {'enable': bool, 'tuning_range':
            [start, end]}, 'layout': {'enable': bool}, 'dataloader': {'enable': bool,
            'tuning_steps': int}}`` (each part optional), or the path of a JSON file holding
            it. None enables all three. A value of the wrong type is ignored with a warning;
            an unreadable file prints the error and changes nothing.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.incubate.autotune.set_config({"kernel": {"enable": True, "tuning_range": [1, 5]}})
        >>> paddle.get_flags(["FLAGS_use_autotune"])
        {'FLAGS_use_autotune': True}
        >>> paddle.incubate.autotune.set_config({"kernel": {"enable": False}})
    """
    if config is None:
        _kernel(True)
        _STATE["layout"]["enable"] = True
        _STATE["dataloader"].update(enable=True, tuning_steps=500)
        return
    cfg = _load(config)
    kernel = cfg.get("kernel")
    if kernel is not None:
        if "enable" in kernel:
            if isinstance(kernel["enable"], bool):
                _kernel(kernel["enable"])
            else:
                _warn("kernel", "enable", "bool")
        if "tuning_range" in kernel:
            rng = kernel["tuning_range"]
            if isinstance(rng, list):
                if len(rng) != 2:
                    raise AssertionError("paddle.incubate.autotune.set_config: 'tuning_range' "
                                         f"should be [start, end], but got {rng}")
                _STATE["kernel"]["tuning_range"] = list(rng)
            else:
                _warn("kernel", "tuning_range", "list")
    layout = cfg.get("layout")
    if layout is not None and "enable" in layout:
        if isinstance(layout["enable"], bool):
            _STATE["layout"]["enable"] = layout["enable"]
        else:
            _warn("layout", "enable", "bool")
    loader = cfg.get("dataloader")
    if loader is not None:
        enable = False
        if "enable" in loader:
            if isinstance(loader["enable"], bool):
                enable = loader["enable"]
            else:
                _warn("dataloader", "enable", "bool")
        if "tuning_steps" in loader:
            steps = loader["tuning_steps"]
            if isinstance(steps, int):
                _STATE["dataloader"].update(enable=enable, tuning_steps=steps)
            else:
                _warn("dataloader", "tuning_steps", "int")
                _STATE["dataloader"].update(enable=enable, tuning_steps=500)
