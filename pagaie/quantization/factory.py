"""Quanter factories: a quanter's class plus the arguments to build one per layer.

A configuration (:class:`~pagaie.quantization.QuantConfig`) holds factories, not quanter
layers: each layer that gets quantized receives its own quanter instance, made by
``factory._instance(layer)`` as ``QuanterLayerClass(*args, layer, **kwargs)``.
"""
from __future__ import annotations

import abc
import sys
from functools import partial
from typing import Any, Callable

__all__ = ["ClassWithArguments", "QuanterFactory", "ObserverFactory", "quanter"]


class ClassWithArguments(metaclass=abc.ABCMeta):
    """Remembers the positional and keyword arguments it was created with.

    Its string form is ``Name(arg,...,key=value,...)``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self) -> tuple:
        """The positional arguments."""
        return self._args

    @property
    def kwargs(self) -> dict:
        """The keyword arguments."""
        return self._kwargs

    @abc.abstractmethod
    def _get_class(self) -> type:
        """The class this object describes."""

    def __str__(self) -> str:
        parts = [str(a) for a in self._args] + [f"{k}={v}" for k, v in self._kwargs.items()]
        return f"{type(self).__name__}({','.join(parts)})"

    __repr__ = __str__


class QuanterFactory(ClassWithArguments):
    """Creates one quanter (or observer) layer per quantized layer.

    Subclasses implement ``_get_class`` returning a :class:`BaseQuanter` subclass whose
    constructor takes the stored arguments and the target layer.

    Examples:
        >>> from pagaie.quantization.quanters import FakeQuanterWithAbsMaxObserver
        >>> factory = FakeQuanterWithAbsMaxObserver(moving_rate=0.5)
        >>> factory
        FakeQuanterWithAbsMaxObserver(name=None,moving_rate=0.5,bit_length=8,dtype=float32)
        >>> type(factory._instance(None)).__name__
        'FakeQuanterWithAbsMaxObserverLayer'
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.partial_class = None

    def _instance(self, layer: Any) -> Any:
        """A new quanter instance for ``layer``."""
        if self.partial_class is None:
            self.partial_class = partial(self._get_class(), *self._args, **self._kwargs)
        return self.partial_class(layer)


ObserverFactory = QuanterFactory


def quanter(class_name: str) -> Callable[[type], type]:
    """Class decorator declaring a factory named ``class_name`` for a quanter layer class.

    The factory class is created in the module where the decorator is applied (and
    appended to that module's ``__all__`` if it has one). Calling it stores its
    arguments; a configuration later builds the quanter for each layer as
    ``QuanterLayer(*args, layer, **kwargs)``. The decorated class itself is returned
    unchanged.

    Args:
        class_name (str): the name of the factory class to declare.

    Returns:
        Callable: the class decorator.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.quantization import BaseQuanter, QuantConfig, quanter
        >>> @quanter("HalfQuanter")
        ... class HalfQuanterLayer(BaseQuanter):
        ...     def __init__(self, layer, bits=8):
        ...         super().__init__()
        ...         self.bits = bits
        ...     def forward(self, x):
        ...         return x * 0.5
        ...     def scales(self):
        ...         return None
        ...     def zero_points(self):
        ...         return None
        ...     def quant_axis(self):
        ...         return -1
        ...     def bit_length(self):
        ...         return self.bits
        >>> factory = HalfQuanter(bits=4)
        >>> factory
        HalfQuanter(bits=4)
        >>> factory._instance(None).bit_length()
        4
        >>> print(QuantConfig(activation=factory, weight=None))
        Global config:
        activation: HalfQuanter(bits=4)
        weight: None
        <BLANKLINE>
    """

    def wrapper(target_class: type) -> type:
        caller = sys._getframe(1).f_globals

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            QuanterFactory.__init__(self, *args, **kwargs)

        def _get_class(self) -> type:
            return target_class

        factory = type(class_name, (QuanterFactory,),
                       {"__init__": __init__, "_get_class": _get_class,
                        "__module__": caller.get("__name__", __name__),
                        "__doc__": f"Factory of :class:`{target_class.__name__}` quanters."})
        caller[class_name] = factory
        names = caller.get("__all__")
        if isinstance(names, list):
            names.append(class_name)
        return target_class

    return wrapper
