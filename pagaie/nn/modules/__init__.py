"""``paddle.nn.modules``: PyTorch's module names for Paddle's layers.

``Module`` is :class:`paddle.nn.Layer`; :mod:`.container` names ``ModuleList`` /
``ModuleDict`` for ``LayerList`` / ``LayerDict``.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.nn import modules
    >>> modules.Module is paddle.nn.Layer
    True
"""
from __future__ import annotations

from pagaie.nn.modules import container, module
from pagaie.nn.modules.module import Module

__all__ = ["Module", "container", "module"]
