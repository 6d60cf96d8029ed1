"""``paddle.nn.modules.container``: ``ModuleList`` and ``ModuleDict``, PyTorch's names for
:class:`paddle.nn.LayerList` and :class:`paddle.nn.LayerDict`.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.nn.modules.container import ModuleList
    >>> len(ModuleList([paddle.nn.ReLU(), paddle.nn.Tanh()]))
    2
"""
from __future__ import annotations

from pagaie.nn.layer.container import LayerDict, LayerList

ModuleList = LayerList
ModuleDict = LayerDict

__all__ = ["ModuleList", "ModuleDict"]
