"""``paddle.base.unique_name``: the same name generator as :mod:`paddle.utils.unique_name`.

Examples:
    >>> import pagaie as paddle
    >>> with paddle.base.unique_name.guard():
    ...     paddle.base.unique_name.generate('fc')
    'fc_0'
"""
from pagaie.utils.unique_name import generate, generate_with_ignorable_key, guard, switch  # noqa: F401

__all__ = ["generate", "generate_with_ignorable_key", "guard", "switch"]
