"""Paddle's ``paddle.hapi.dynamic_flops``: :func:`flops`, its engine :func:`dynamic_flops`, the
built-in counting rules (usable as ``custom_ops`` values) and ``register_hooks``, the table of
built-in rules by layer class. The code lives in :mod:`pagaie.hapi.flops`.

    >>> import pagaie as paddle
    >>> from pagaie.hapi.dynamic_flops import count_linear, register_hooks
    >>> register_hooks[paddle.nn.Linear] is count_linear
    True
"""
from pagaie.hapi.flops import (_default_rules, count_adap_avgpool, count_avgpool, count_bn,
                               count_convNd, count_io_info, count_leaky_relu, count_linear,
                               count_parameters, count_zero_ops, dynamic_flops, flops,
                               register_hooks)

_default_rules()

__all__: list[str] = []  # as in Paddle; the names above are importable from here
