"""paddle.utils.unique_name: the counters behind Paddle's generated names (``linear_0.w_0``)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

# generate_with_ignorable_key is public too but, as in Paddle, left out of __all__
__all__ = ["generate", "guard", "switch"]


class UniqueNameGenerator:
    """Hands out ``<prefix><key>_<n>`` with one counter per key."""

    def __init__(self, prefix: str | None = None) -> None:
        self.ids: dict[str, int] = {}
        self.prefix = prefix or ""

    def __call__(self, key: str) -> str:
        return self.generate(key)

    def generate(self, key: str) -> str:
        """The next name for ``key``: ``<prefix><key>_<n>``."""
        if not isinstance(key, str):
            raise TypeError(f"paddle.utils.unique_name.generate: 'key' must be a str, but received "
                            f"{type(key).__name__} ({key!r})")
        n = self.ids.get(key, 0)
        self.ids[key] = n + 1
        return f"{self.prefix}{key}_{n}"

    def generate_with_ignorable_key(self, key: str) -> str:
        """In dynamic mode a process-wide ``dygraph_tmp_<n>`` (``key`` ignored, as Paddle);
        otherwise :meth:`generate`."""
        if _in_dynamic_mode():
            return _dygraph_tmp_name()
        return self.generate(key)

    def clone(self) -> "UniqueNameGenerator":
        """A copy with the same prefix and counters."""
        ret = UniqueNameGenerator(self.prefix)
        ret.ids = dict(self.ids)
        return ret


class DygraphParameterNameChecker:
    """Remembers parameter names so that a name is used once per process (Paddle's rule)."""

    def __init__(self) -> None:
        self._names: set[str] = set()

    def __call__(self, name: str) -> bool:
        """True when ``name`` was already used; records it otherwise."""
        if name in self._names:
            return True
        self._names.add(name)
        return False


def _in_dynamic_mode() -> bool:
    from pagaie.static.framework import in_dynamic_mode
    return in_dynamic_mode()


def _dygraph_tmp_name() -> str:
    # Paddle's eager tracer numbers these with the same counter as ``generated_tensor_<n>``.
    from pagaie._core.tensor import next_data_number
    return f"dygraph_tmp_{next_data_number()}"


_generator = UniqueNameGenerator()
_param_checker = DygraphParameterNameChecker()


def generate(key: str) -> str:
    """A new unique name ``<key>_<n>``: the n-th name generated for this key.

    Args:
        key (str): the name's stem.

    Returns:
        str: the unique name.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.utils import unique_name
        >>> with unique_name.guard():
        ...     unique_name.generate('fc'), unique_name.generate('fc')
        ('fc_0', 'fc_1')
    """
    return _generator(key)


def generate_with_ignorable_key(key: str) -> str:
    """A name that may be dropped: in dynamic mode Paddle's tracer hands out ``dygraph_tmp_<n>``
    (``key`` is ignored, the counter is process-wide); in static mode the same as :func:`generate`.

    Examples:
        >>> from pagaie.utils import unique_name
        >>> unique_name.generate_with_ignorable_key('tmp').startswith('dygraph_tmp_')
        True
    """
    if _in_dynamic_mode():
        return _dygraph_tmp_name()
    return _generator(key)


def switch(new_generator: UniqueNameGenerator | None = None,
           new_para_name_checker: DygraphParameterNameChecker | None = None):
    """Replace the current name generator (and parameter-name checker); returns the old ones.

    Examples:
        >>> from pagaie.utils import unique_name
        >>> old = unique_name.switch()
        >>> unique_name.generate('x')
        'x_0'
        >>> _ = unique_name.switch(*old)
    """
    global _generator, _param_checker
    old = (_generator, _param_checker)
    _generator = new_generator if new_generator is not None else UniqueNameGenerator()
    _param_checker = new_para_name_checker if new_para_name_checker is not None \
        else DygraphParameterNameChecker()
    return old


@contextmanager
def guard(new_generator: str | UniqueNameGenerator | None = None) -> Iterator[None]:
    """Use a fresh generator inside the block (a str argument becomes the names' prefix).

    Examples:
        >>> from pagaie.utils import unique_name
        >>> with unique_name.guard('pre_'):
        ...     unique_name.generate('fc')
        'pre_fc_0'
    """
    if isinstance(new_generator, (str, bytes)):
        gen = UniqueNameGenerator(new_generator.decode() if isinstance(new_generator, bytes)
                                  else new_generator)
    else:
        gen = new_generator
    old = switch(gen)
    try:
        yield
    finally:
        switch(*old)


def _parameter_name_used(name: str) -> bool:
    """True when a parameter with ``name`` was already created in this process."""
    return _param_checker(name)
