"""Containers: Sequential, LayerList, LayerDict, ParameterList, ParameterDict."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Any, Iterator

from pagaie._core.parameter import Parameter, replace_data
from pagaie._core.tensor import Tensor
from pagaie.nn.layer.layers import Layer, kw_alias

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict"]


class Sequential(Layer):
    """Run sublayers one after the other.

    Args:
        *layers: Layers (named '0', '1', ...), ``(name, layer)`` pairs, or one OrderedDict.

    Examples:
        >>> import pagaie as paddle
        >>> net = paddle.nn.Sequential(paddle.nn.Linear(2, 3), paddle.nn.ReLU())
        >>> net(paddle.ones([4, 2])).shape
        paddle.Size([4, 3])
        >>> len(net), type(net[-1]).__name__
        (2, 'ReLU')
    """

    def __init__(self, *layers: Any) -> None:
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], OrderedDict):
            for name, layer in layers[0].items():
                self.add_sublayer(name, layer)
        elif len(layers) > 0 and isinstance(layers[0], (list, tuple)):
            for pair in layers:
                if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                    # Python's unpacking error in Paddle: TypeError for an item that is no
                    # sequence, ValueError for a sequence of the wrong length
                    error = ValueError if isinstance(pair, (list, tuple)) else TypeError
                    raise error("paddle.nn.Sequential: each item must be a (name, layer) "
                                f"pair, but received {pair!r}")
                name, layer = pair
                if not isinstance(layer, Layer):
                    raise AssertionError("paddle.nn.Sequential: the layer of a (name, layer) pair must "
                                         f"be a Layer, but received {type(layer).__name__}")
                if not isinstance(name, str):
                    # Paddle accepts it and then fails when the layer is printed
                    raise TypeError("paddle.nn.Sequential: the name of a (name, layer) pair must be a "
                                    f"str, but received {type(name).__name__}")
                self.add_sublayer(name, layer)
        else:
            for i, layer in enumerate(layers):
                self.add_sublayer(str(i), layer)

    def __getitem__(self, name: Any) -> Any:
        if isinstance(name, slice):
            return type(self)(*list(self._sub_layers.values())[name])
        if isinstance(name, str):
            return self._sub_layers[name]
        n = len(self._sub_layers)
        if name >= n or name < -n:
            raise IndexError(f"index {name} is out of range")
        return list(self._sub_layers.values())[name]

    def __setitem__(self, name: Any, layer: Layer) -> None:
        if not isinstance(layer, Layer):
            raise AssertionError(f"paddle.nn.Sequential: the value must be a Layer, but received "
                                 f"{type(layer).__name__}")
        setattr(self, str(name), layer)

    def __delitem__(self, name: Any) -> None:
        name = str(name)
        if name not in self._sub_layers:
            raise AssertionError(f"paddle.nn.Sequential: no sublayer named {name!r}")
        del self._sub_layers[name]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def forward(self, input: Any) -> Any:
        for layer in self._sub_layers.values():
            input = layer(input)
        return input

    def append(self, module: Layer) -> "Sequential":
        """Add a layer at the end; returns self."""
        self.add_sublayer(str(len(self)), module)
        return self

    def insert(self, index: int, module: Layer) -> "Sequential":
        """Insert a layer before position ``index``; returns self."""
        if not isinstance(module, Layer):
            raise AssertionError(f"module should be of type: {Layer}")
        n = len(self._sub_layers)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._sub_layers[str(i)] = self._sub_layers[str(i - 1)]
        self._sub_layers[str(index)] = module
        return self

    def extend(self, sequential: Iterable) -> "Sequential":
        """Append every layer of ``sequential``; returns self."""
        for layer in sequential:
            self.append(layer)
        return self


class LayerList(Layer):
    """A list of sublayers, registered so that their parameters are found.

    Args:
        sublayers (iterable of Layer, optional): the initial layers.

    Examples:
        >>> import pagaie as paddle
        >>> layers = paddle.nn.LayerList([paddle.nn.Linear(2, 2) for _ in range(3)])
        >>> len(layers), len(layers.parameters())
        (3, 6)
        >>> layers.append(paddle.nn.ReLU())[3].__class__.__name__
        'ReLU'
    """

    @kw_alias("sublayers", "modules")
    def __init__(self, sublayers: Iterable | None = None) -> None:
        super().__init__()
        if sublayers is not None:
            for i, layer in enumerate(sublayers):
                self.add_sublayer(str(i), layer)

    def _abs(self, idx: int) -> int:
        if isinstance(idx, int):
            n = len(self)
            if not -n <= idx < n:
                raise IndexError(f"index {idx} is out of range, should be an integer in range [{-n}, {n})")
            if idx < 0:
                idx += n
        return idx

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(self._abs(idx))]

    def __setitem__(self, idx: int, sublayer: Layer) -> None:
        setattr(self, str(self._abs(idx)), sublayer)

    def __delitem__(self, idx: Any) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._sub_layers))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(self._abs(idx)))
        values = list(self._sub_layers.values())
        self._sub_layers.clear()
        for i, v in enumerate(values):
            self._sub_layers[str(i)] = v

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[Layer]:
        return iter(self._sub_layers.values())

    def __iadd__(self, modules: Iterable) -> "LayerList":
        return self.extend(modules)

    def __add__(self, other: Iterable) -> "LayerList":
        out = LayerList()
        for i, m in enumerate(chain(self, other)):
            out.add_module(str(i), m)
        return out

    def __dir__(self) -> list[str]:
        return [k for k in super().__dir__() if not k.isdigit()]

    @kw_alias("sublayer", "module")
    def append(self, sublayer: Layer) -> "LayerList":
        """Add a layer at the end; returns self."""
        self.add_sublayer(str(len(self)), sublayer)
        return self

    @kw_alias("sublayer", "module")
    def insert(self, index: int, sublayer: Layer) -> None:
        """Insert a layer before position ``index``."""
        n = len(self._sub_layers)
        if not (isinstance(index, int) and -n <= index <= n):
            raise AssertionError(f"index should be an integer in range [{-n}, {n}]")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._sub_layers[str(i)] = self._sub_layers[str(i - 1)]
        self._sub_layers[str(index)] = sublayer

    @kw_alias("sublayers", "modules")
    def extend(self, sublayers: Iterable) -> "LayerList":
        """Append every layer of ``sublayers``; returns self."""
        offset = len(self)
        for i, layer in enumerate(sublayers):
            self.add_sublayer(str(offset + i), layer)
        return self

    def pop(self, key: Any) -> Any:
        """Remove and return the layer at ``key``."""
        v = self[key]
        del self[key]
        return v


class LayerDict(Layer):
    """An ordered dict of sublayers, registered so that their parameters are found.

    Args:
        sublayers (Mapping|list of (str, Layer), optional): the initial entries.

    Examples:
        >>> import pagaie as paddle
        >>> d = paddle.nn.LayerDict({'fc': paddle.nn.Linear(2, 2), 'act': paddle.nn.ReLU()})
        >>> list(d.keys()), len(d.parameters())
        (['fc', 'act'], 2)
    """

    @kw_alias("sublayers", "modules")
    def __init__(self, sublayers: Any = None) -> None:
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key: str) -> Layer:
        return self._sub_layers[key]

    def __setitem__(self, key: str, sublayer: Layer) -> Layer:
        return self.add_sublayer(key, sublayer)

    def __delitem__(self, key: str) -> None:
        del self._sub_layers[key]

    def __len__(self) -> int:
        return len(self._sub_layers)

    def __iter__(self) -> Iterator[str]:
        return iter(self._sub_layers)

    def __contains__(self, key: str) -> bool:
        return key in self._sub_layers

    def clear(self) -> None:
        """Remove every entry."""
        self._sub_layers.clear()

    def pop(self, key: str) -> Layer:
        """Remove ``key`` and return its layer."""
        v = self[key]
        del self[key]
        return v

    def keys(self):
        """The keys."""
        return self._sub_layers.keys()

    def items(self):
        """The (key, layer) pairs."""
        return self._sub_layers.items()

    def values(self):
        """The layers."""
        return self._sub_layers.values()

    @kw_alias("sublayers", "modules")
    def update(self, sublayers: Any) -> None:
        """Add or overwrite entries from a mapping or a list of (key, layer) pairs."""
        if not isinstance(sublayers, Iterable):
            raise AssertionError("paddle.nn.LayerDict.update: sublayers must be an iterable of "
                                 f"key/value pairs, but received {type(sublayers).__name__}")
        if isinstance(sublayers, (Mapping, LayerDict)):
            for k, layer in sublayers.items():
                self.add_sublayer(k, layer)
        else:
            for i, kv in enumerate(sublayers):
                if len(kv) != 2:
                    raise ValueError(f"The length of the {i}'s element in sublayers is {len(kv)}, "
                                     "which must be 2.")
                self.add_sublayer(kv[0], kv[1])


class ParameterList(Layer):
    """A list of parameters, registered on the layer.

    Args:
        parameters (iterable of Parameter, optional): the initial parameters.

    Examples:
        >>> import pagaie as paddle
        >>> ps = paddle.nn.ParameterList([paddle.create_parameter([2], 'float32') for _ in range(2)])
        >>> len(ps), [n for n, _ in ps.named_parameters()]
        (2, ['0', '1'])
    """

    def __init__(self, parameters: Iterable | None = None) -> None:
        super().__init__()
        if parameters is not None:
            for i, p in enumerate(parameters):
                if not isinstance(p, Parameter):
                    raise AssertionError("paddle.nn.ParameterList: every element must be a Parameter, "
                                         f"but received {type(p).__name__}")
                self.add_parameter(str(i), p)

    def __getitem__(self, idx: int) -> Parameter:
        return self._parameters[str(idx)]

    def __setitem__(self, idx: int, param: Tensor) -> None:
        if not isinstance(param, Tensor):
            raise TypeError(f"param should be 'Parameter' or 'Tensor', but received {type(param)}")
        target = getattr(self, str(idx))
        # like paddle.assign(param, target): the parameter keeps its identity but takes
        # the new value, shape and dtype
        new = param._t.detach().clone().to(target._t.device)
        t = target._t
        if not (new.is_floating_point() or new.is_complex()):
            # an integer value: torch cannot keep a trainable leaf of it, so the
            # parameter gets new storage and keeps its stop_gradient flag (as Paddle)
            stop = target.stop_gradient
            replace_data(target, new)
            target.stop_gradient = stop
            return
        if t.grad is not None and (t.grad.shape != new.shape or t.grad.dtype != new.dtype):
            t.grad = None  # a stale gradient of the old shape could not accumulate
        t.data = new

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(self._parameters.values())

    def append(self, parameter: Parameter) -> "ParameterList":
        """Add a parameter at the end; returns self."""
        self.add_parameter(str(len(self._parameters)), parameter)
        return self


class ParameterDict(Layer):
    """An ordered dict of parameters, registered on the layer.

    Args:
        parameters (Mapping|list of (str, Parameter), optional): the initial entries.

    Examples:
        >>> import pagaie as paddle
        >>> pd = paddle.nn.ParameterDict({'a': paddle.create_parameter([2], 'float32')})
        >>> len(pd), pd['a'].shape
        (1, paddle.Size([2]))
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Parameter:
        return self._parameters[key]

    def __setitem__(self, key: str, param: Parameter) -> None:
        if not isinstance(param, Parameter):
            raise AssertionError(f"paddle.nn.ParameterDict: the value must be a Parameter, but "
                                 f"received {type(param).__name__}")
        setattr(self, key, param)

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[str]:
        return iter(self._parameters)

    def update(self, parameters: Any) -> None:
        """Add or overwrite entries from a mapping or a list of (key, parameter) pairs."""
        if not isinstance(parameters, Iterable):
            raise AssertionError("paddle.nn.ParameterDict.update: parameters must be an iterable "
                                 "of key/value pairs, but received "
                                 f"{type(parameters).__name__}")
        if isinstance(parameters, (Mapping, ParameterDict)):
            items = parameters.items() if isinstance(parameters, Mapping) else \
                parameters._parameters.items()
            for k, p in items:
                self.add_parameter(k, p)
        else:
            for i, kv in enumerate(parameters):
                if len(kv) != 2:
                    raise ValueError(f"The length of the {i}'s element in parameters is {len(kv)}, "
                                     "which must be 2.")
                self.add_parameter(kv[0], kv[1])
