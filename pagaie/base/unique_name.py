"""``paddle.base.unique_name``: the same name generator as :mod:`paddle.utils.unique_name`.

Examples:
    >>> import pagaie as paddle
    >>> with paddle.base.unique_name.guard():
    ...     paddle.base.unique_name.generate('fc')
    'fc_0'
"""
from pagaie.utils.unique_name import (  # noqa: F401
    DygraphParameterNameChecker, UniqueNameGenerator, generate, generate_with_ignorable_key, guard,
    switch,
)

__all__ = ["generate", "generate_with_ignorable_key", "guard", "switch", "UniqueNameGenerator",
           "DygraphParameterNameChecker"]
