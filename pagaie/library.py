"""``paddle.library``: define custom operators in Python (PyTorch's ``torch.library`` API).

``custom_op("ns::name", mutates_args=())`` registers a Python function under a qualified
name; it is then called as ``paddle.ops.ns.name(...)`` (or ``.default``), the module-like
:data:`ops` here. The function is written with public pagaie ops, so it is a composite:
it runs eagerly, is recorded op by op in static programs and under ``to_static``, and
exports like any other code, with no separate shape function. ``register_fake`` is
therefore accepted and not needed (it warns, as Paddle does).

Examples:
    >>> import pagaie as paddle
    >>> from pagaie import library
    >>> @library.custom_op("demo_lib::twice", mutates_args=())
    ... def twice(x):
    ...     return x * 2
    >>> library.ops.demo_lib.twice(paddle.to_tensor([1.0, 2.0])).tolist()
    [2.0, 4.0]
"""
from __future__ import annotations

import importlib
import types
import warnings
from typing import Any, Callable, Iterable, Sequence

__all__ = ["Tag", "CustomOpDef", "custom_op", "register_fake", "ops"]

_PYTHON_OPS: dict[str, Callable[..., Any]] = {}


def _warn_unused(feature: str, api: str) -> None:
    warnings.warn(f"The feature '{feature}' in function '{api}' is not implemented in "
                  "PaddlePaddle's custom operator interface (pagaie accepts and ignores it).",
                  UserWarning, stacklevel=3)


class Tag:
    """An operator tag (PyTorch's ``torch.Tag``); accepted by :func:`custom_op` and unused.

    Examples:
        >>> from pagaie.library import Tag
        >>> isinstance(Tag(), Tag)
        True
    """


class CustomOpDef:
    """The record of a Python custom operator, returned by :func:`custom_op`.

    It is not callable itself (as in Paddle): call the op through
    ``paddle.ops.<namespace>.<name>``.

    Args:
        namespace (str): the part of the name before ``::``.
        name (str): the op's name in its namespace.
        schema (str): the schema string given (unused).
        fn (Callable): the Python implementation.
        tags (Sequence[Tag], optional): tags given (unused).

    Examples:
        >>> from pagaie.library import CustomOpDef
        >>> CustomOpDef('ns', 'f', '', lambda x: x)
        <CustomOpDef(ns::f)>
    """

    def __init__(self, namespace: str, name: str, schema: str, fn: Callable[..., Any],
                 tags: Sequence[Tag] | None = None) -> None:
        self._namespace = namespace
        self._name = name
        self._schema = schema
        self._fn = fn
        self._tags = list(tags) if tags is not None else []

    @property
    def _qualname(self) -> str:
        return f"{self._namespace}::{self._name}"

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"

    def register_fake(self, fn: Callable[..., object], /) -> Callable[..., object]:
        """Register a shape-only implementation: not needed here (see the module notes);
        warns and returns ``fn``.

        Examples:
            >>> import warnings
            >>> from pagaie.library import CustomOpDef
            >>> op = CustomOpDef('ns', 'f', '', lambda x: x)
            >>> with warnings.catch_warnings():
            ...     warnings.simplefilter('ignore')
            ...     fake = op.register_fake(lambda x: x)
            >>> callable(fake)
            True
        """
        _warn_unused("register_fake", "paddle.library.CustomOpDef")
        return fn


def custom_op(name: str, fn: Callable[..., object] | None = None, /, *,
              mutates_args: str | Iterable[str], device_types: str | Sequence[str] | None = None,
              schema: str | None = None, tags: Sequence[Tag] | None = None) -> Any:
    """Register ``fn`` as the custom operator ``name`` (``"namespace::op"``).

    Usable as ``custom_op(name, fn, mutates_args=...)`` or as a decorator
    ``@custom_op(name, mutates_args=...)``. The op is then called as
    ``paddle.ops.<namespace>.<op>(...)``.

    Args:
        name (str): the qualified name, ``"namespace::op"``.
        fn (Callable, optional): the implementation; omitted when used as a decorator.
        mutates_args (str|Iterable[str]): the arguments ``fn`` writes to (keyword-only,
            required; recorded by PyTorch, unused here as in Paddle).
        device_types (str|Sequence[str], optional): unused (warns).
        schema (str, optional): unused (warns).
        tags (Sequence[Tag], optional): unused (warns).

    Returns:
        CustomOpDef|Callable: the op record, or a decorator that returns it.

    Raises:
        AssertionError: ``name`` has no ``::`` (as Paddle).
        ValueError: an op of that name is already registered.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie import library
        >>> op = library.custom_op("demo_lib::add_one", lambda x: x + 1, mutates_args=())
        >>> op
        <CustomOpDef(demo_lib::add_one)>
        >>> library.ops.demo_lib.add_one(paddle.to_tensor([1, 2])).tolist()
        [2, 3]
    """
    if device_types:
        _warn_unused("device_types", "paddle.library.custom_op")
    if schema:
        _warn_unused("schema", "paddle.library.custom_op")
    if tags:
        _warn_unused("tags", "paddle.library.custom_op")
    if not isinstance(name, str) or "::" not in name:
        raise AssertionError("paddle.library.custom_op: the custom operator name should be "
                             "qualified with a namespace, like 'my_namespace::my_op', but got "
                             f"{name!r}.")
    namespace, op_name = name.split("::", 1)

    def inner(func: Callable[..., object]) -> CustomOpDef:
        if name in _PYTHON_OPS:
            raise ValueError(f"paddle.library.custom_op: Operator '{name}' is already registered.")
        _PYTHON_OPS[name] = func
        return CustomOpDef(namespace, op_name, schema if schema is not None else "", func, tags)

    return inner if fn is None else inner(fn)


def register_fake(op: str | CustomOpDef, func: Callable[..., object] | None = None, /, *,
                  lib: None = None, _stacklevel: int = 1, allow_override: bool = False) -> Any:
    """Register a shape-only implementation for ``op``: not needed here (a Python custom op
    already runs on symbolic values); warns and returns ``func`` (or a decorator).

    Args:
        op (str|CustomOpDef): the op.
        func (Callable, optional): the fake implementation; omitted for a decorator.
        lib (None, optional): unused.
        allow_override (bool, optional): unused.

    Examples:
        >>> import warnings
        >>> from pagaie import library
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter('ignore')
        ...     f = library.register_fake("demo_lib::any", lambda x: x)
        >>> f(3)
        3
    """
    _warn_unused("register_fake", "paddle.library.register_fake")
    if func is None:
        return lambda f: f
    return func


class _OpHandle:
    """``paddle.ops.<ns>.<name>``: calls the registered Python function."""

    def __init__(self, namespace: str, name: str) -> None:
        self.namespace = namespace
        self.name = name

    def _fn(self) -> Callable[..., Any]:
        qual = f"{self.namespace}::{self.name}"
        fn = _PYTHON_OPS.get(qual)
        if fn is None:
            raise RuntimeError(f"paddle.ops: (NotFound) Operator '{qual}' not found in the "
                               "registry; register it with paddle.library.custom_op first")
        return fn

    def __getattr__(self, attr: str) -> Callable[..., Any]:
        if attr == "default":
            return self._fn()
        raise AttributeError(f"'{self.namespace}.{self.name}' has no attribute '{attr}'")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<paddle.ops.{self.namespace}.{self.name}>"


class _OpNamespace(types.ModuleType):
    """``paddle.ops.<ns>``: any attribute is an op handle of that namespace."""

    def __init__(self, name: str) -> None:
        super().__init__(f"paddle.ops.{name}")
        self.name = name

    def __getattr__(self, attr: str) -> _OpHandle:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _OpHandle(self.name, attr)


class _OpsModule(types.ModuleType):
    """``paddle.ops``: namespaces of custom operators."""

    def __init__(self) -> None:
        super().__init__("paddle.ops")

    def __getattr__(self, attr: str) -> _OpNamespace:
        if attr.startswith("__"):
            raise AttributeError(attr)
        space = _OpNamespace(attr)
        setattr(self, attr, space)
        return space

    def import_module(self, module: str) -> types.ModuleType:
        """Import a Python module that registers custom ops."""
        return importlib.import_module(module)

    def load_library(self, path: str) -> None:
        """Load a compiled Paddle custom-operator library: not available in pagaie."""
        raise NotImplementedError(
            f"paddle.ops.load_library: cannot load {path!r}: compiled custom-operator libraries "
            "are built against Paddle's C++ runtime, which pagaie does not have. Write the op in "
            "Python with paddle.library.custom_op, or as a torch extension.")


ops = _OpsModule()
"""``paddle.ops``: ``ops.<namespace>.<name>(...)`` calls a custom op."""
