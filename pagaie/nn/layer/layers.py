"""``paddle.nn.Layer``: the base class of every network building block.

A Layer owns three ordered tables: parameters (``Parameter``), buffers (plain
Tensors, persistable or not) and sublayers. Attribute assignment routes values
into the right table, and every traversal (``named_parameters``, ``state_dict``,
``to``...) walks them in Paddle's order: a layer's own entries first, then its
sublayers depth first. Layers never compute with raw torch in ``forward``; they
call the functional ops, so that recording a static graph later sees every op.
"""
from __future__ import annotations

import functools
import inspect
import re
import warnings
from collections import OrderedDict
from typing import Any, Callable, Iterator

from pagaie._core.dtype import get_default_dtype

from pagaie._core.parameter import Parameter
from pagaie._core.tensor import Tensor
from pagaie.nn.layer.layer_state import CastMixin, StateMixin, _IncompatibleKeys  # noqa: F401
from pagaie.utils import unique_name

__all__ = ["Layer", "HookRemoveHelper"]

# Paddle names the parameters of its tensor-parallel layers as those of the plain layers.
_DIST_SCOPES = {"row_parallel_linear": "linear", "column_parallel_linear": "linear",
                "vocab_parallel_embedding": "embedding"}

_FIRST_CAP = re.compile("(.)([A-Z][a-z]+)")
_ALL_CAP = re.compile("([a-z])([A-Z])")


def _is_program_value(value: Any) -> bool:
    """Whether ``value`` is a value of a program being built (static mode)."""
    from pagaie._static.ir import Value  # the static package imports this module
    return isinstance(value, Value)


def _camel_to_snake(name: str) -> str:
    return _ALL_CAP.sub(r"\1_\2", _FIRST_CAP.sub(r"\1_\2", name)).lower()


def kw_alias(name: str, alias: str) -> Callable[[Callable], Callable]:
    """Accept ``alias=`` (Paddle 3's PyTorch spelling) for keyword ``name`` of a method;
    the method's signature stays Paddle's.

    Examples:
        >>> import pagaie as paddle
        >>> len(paddle.nn.Sequential(paddle.nn.Linear(1, 1)).parameters(recurse=False))
        0
    """
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def method(*args: Any, **kwargs: Any) -> Any:
            if alias in kwargs and name not in kwargs:
                kwargs[name] = kwargs.pop(alias)
            return fn(*args, **kwargs)
        method.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
        return method
    return wrap


def attr_alias(attr: str) -> property:
    """A read-write property for attribute ``attr`` under another name (Paddle 3's PyTorch
    spelling of a Layer's option, ``CosineSimilarity().dim`` for ``_axis``).

    Examples:
        >>> import pagaie as paddle
        >>> m = paddle.nn.Softshrink(0.3)
        >>> m.lambd = 0.2
        >>> m.lambd
        0.2
    """
    return property(lambda self: getattr(self, attr), lambda self, v: setattr(self, attr, v),
                    doc=f"alias of ``{attr}``")


def _addindent(text: str, n: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * n + ln for ln in lines[1:])


class HookRemoveHelper:
    """The handle a hook registration returns: ``remove()`` unregisters the hook.

    Examples:
        >>> import pagaie as paddle
        >>> fc = paddle.nn.Linear(1, 1)
        >>> h = fc.register_forward_post_hook(lambda layer, inp, out: out * 0)
        >>> h.remove()
    """

    next_hook_id: int = 0

    def __init__(self, hooks: OrderedDict, *, extra_hook_dict: Any = None) -> None:
        import weakref
        self._hooks_ref = weakref.ref(hooks)
        self._hook_id = HookRemoveHelper.next_hook_id
        HookRemoveHelper.next_hook_id += 1
        extra = extra_hook_dict if isinstance(extra_hook_dict, list) else \
            ([] if extra_hook_dict is None else [extra_hook_dict])
        self._extra_hooks_ref = tuple(weakref.ref(d) for d in extra)

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        for ref in (self._hooks_ref,) + self._extra_hooks_ref:
            d = ref()
            if d is not None:
                d.pop(self._hook_id, None)


class Layer(StateMixin, CastMixin):
    """Base class of all layers: holds parameters, buffers and sublayers, and runs
    ``forward`` (with its hooks) when called.

    Args:
        name_scope (str, optional): prefix of the layer's unique name (``full_name()``)
            and of its parameters' names; the snake-cased class name when None.
        dtype (str, optional): default dtype of the parameters it creates. Default 'float32'.

    Examples:
        >>> import pagaie as paddle
        >>> class MyLayer(paddle.nn.Layer):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = paddle.nn.Linear(2, 3)
        ...     def forward(self, x):
        ...         return paddle.nn.functional.relu(self.fc(x))
        >>> net = MyLayer()
        >>> [n for n, _ in net.named_parameters()]
        ['fc.weight', 'fc.bias']
        >>> net(paddle.ones([4, 2])).shape
        paddle.Size([4, 3])
    """

    training: bool

    def __init__(self, name_scope: str | None = None, dtype: Any = "float32") -> None:
        d = self.__dict__
        d["training"] = True
        if name_scope is None:
            name_scope = _camel_to_snake(type(self).__name__)
            name_scope = _DIST_SCOPES.get(name_scope, name_scope)
        elif not isinstance(name_scope, str):
            raise TypeError("paddle.nn.Layer: 'name_scope' must be a str or None, but received "
                            f"{type(name_scope).__name__} ({name_scope!r})")
        d["_full_name"] = unique_name.generate(name_scope)
        d["_built"] = False
        d["_dtype"] = dtype
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistable_buffer_names_set"] = set()
        d["_sub_layers"] = OrderedDict()
        d["_loaddict_holder"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_post_hooks"] = OrderedDict()
        d["_forward_pre_hooks_with_kwargs_flag"] = OrderedDict()
        d["_forward_post_hooks_with_kwargs_flag"] = OrderedDict()
        d["_forward_post_hooks_always_called"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_casted_by_pure_fp16"] = False
        d["_cast_to_low_precision"] = True
        # paddle.jit.to_static converts only Layers built eagerly (their parameters hold values)
        from pagaie.static.framework import in_dynamic_mode
        d["_init_in_dynamic_mode"] = in_dynamic_mode()

    # ---- tables -------------------------------------------------------------------
    @property
    def _modules(self) -> OrderedDict:
        return self._sub_layers

    @property
    def _non_persistent_buffers_set(self) -> set:
        return self._non_persistable_buffer_names_set

    # ---- modes --------------------------------------------------------------------
    def train(self, mode: bool = True) -> "Layer":
        """Set this layer and all sublayers to training mode (``mode=False``: evaluation).

        Returns:
            Layer: self.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Dropout(0.5))
            >>> net.eval().training, net[0].training
            (False, False)
            >>> net.train().training
            True
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for layer in self.sublayers(include_self=True):
            layer.__dict__["training"] = mode
        return self

    def eval(self) -> "Layer":
        """Set this layer and all sublayers to evaluation mode; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).eval().training
            False
        """
        return self.train(False)

    def apply(self, fn: Callable[["Layer"], None]) -> "Layer":
        """Call ``fn`` on every sublayer (children first) and then on self; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 2))
            >>> seen = []
            >>> _ = net.apply(lambda layer: seen.append(type(layer).__name__))
            >>> seen
            ['Linear', 'Linear', 'Sequential']
        """
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    def full_name(self) -> str:
        """The layer's unique name, e.g. ``'linear_0'``.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).full_name().startswith('linear_')
            True
        """
        return self._full_name

    # ---- hooks --------------------------------------------------------------------
    def register_forward_post_hook(self, hook: Callable, *, prepend: bool = False,
                                   with_kwargs: bool = False, always_call: bool = False
                                   ) -> HookRemoveHelper:
        """Call ``hook(layer, inputs, output)`` after ``forward``; a non-None result
        replaces the output (with ``with_kwargs``: ``hook(layer, inputs, kwargs, output)``).

        Args:
            hook (callable): the hook.
            prepend (bool): run it before the already registered post-hooks.
            with_kwargs (bool): pass the forward's keyword arguments too.
            always_call (bool): also run it when forward raises.

        Returns:
            HookRemoveHelper: call ``remove()`` on it to unregister.

        Examples:
            >>> import pagaie as paddle
            >>> fc = paddle.nn.Linear(2, 2)
            >>> h = fc.register_forward_post_hook(lambda layer, inp, out: out * 0 + 1)
            >>> fc(paddle.ones([1, 2])).tolist()
            [[1.0, 1.0]]
            >>> h.remove()
        """
        helper = HookRemoveHelper(self._forward_post_hooks, extra_hook_dict=[
            self._forward_post_hooks_with_kwargs_flag, self._forward_post_hooks_always_called])
        self._forward_post_hooks[helper._hook_id] = hook
        if with_kwargs:
            self._forward_post_hooks_with_kwargs_flag[helper._hook_id] = True
        if always_call:
            self._forward_post_hooks_always_called[helper._hook_id] = True
        if prepend:
            self._forward_post_hooks.move_to_end(helper._hook_id, last=False)
        return helper

    register_forward_hook = register_forward_post_hook

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookRemoveHelper:
        """Call ``hook(layer, inputs)`` before ``forward``; a non-None result replaces
        the inputs (a non-tuple is wrapped in a tuple). With ``with_kwargs`` the hook is
        ``hook(layer, args, kwargs)`` and returns None or ``(args, kwargs)``.

        Args:
            hook (callable): the hook.
            prepend (bool): run it before the already registered pre-hooks.
            with_kwargs (bool): pass and allow replacing the keyword arguments.

        Returns:
            HookRemoveHelper: call ``remove()`` on it to unregister.

        Examples:
            >>> import pagaie as paddle
            >>> fc = paddle.nn.Linear(2, 1, weight_attr=paddle.nn.initializer.Constant(1.0))
            >>> h = fc.register_forward_pre_hook(lambda layer, inp: inp[0] * 2)
            >>> fc(paddle.ones([1, 2])).tolist()
            [[4.0]]
        """
        helper = HookRemoveHelper(self._forward_pre_hooks,
                                  extra_hook_dict=self._forward_pre_hooks_with_kwargs_flag)
        self._forward_pre_hooks[helper._hook_id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs_flag[helper._hook_id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(helper._hook_id, last=False)
        return helper

    def register_state_dict_hook(self, hook: Callable) -> HookRemoveHelper:
        """Call ``hook(state_dict)`` at the end of :meth:`state_dict`; a non-None result
        replaces it.

        Examples:
            >>> import pagaie as paddle
            >>> fc = paddle.nn.Linear(1, 1)
            >>> _ = fc.register_state_dict_hook(lambda sd: {k.upper(): v for k, v in sd.items()})
            >>> list(fc.state_dict())
            ['WEIGHT', 'BIAS']
        """
        helper = HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[helper._hook_id] = hook
        return helper

    # ---- creation -----------------------------------------------------------------
    def create_parameter(self, shape: Any, attr: Any = None, dtype: Any = None, is_bias: bool = False,
                         default_initializer: Any = None, device: Any = None) -> Parameter | None:
        """Create a parameter named ``<full_name>.w_<n>`` (``.b_<n>`` for a bias).

        Args:
            shape (list[int]): its shape.
            attr (ParamAttr|str|Initializer|bool, optional): its attributes; False creates nothing.
            dtype (str, optional): its dtype; the global default dtype when None (as Paddle).
            is_bias (bool): a bias (zero-initialised by default) rather than a weight
                (Xavier-uniform by default).
            default_initializer (Initializer, optional): used when ``attr`` names none.
            device (optional): where to place it.

        Returns:
            Parameter: the parameter (None when ``attr`` is False).

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Layer()
            >>> w = layer.create_parameter([2, 3])
            >>> w.shape, w.stop_gradient
            (paddle.Size([2, 3]), False)
        """
        from pagaie.nn.param import make_parameter
        if isinstance(attr, str) and attr == "":
            attr = None
        if isinstance(attr, (list, tuple)):
            # one parameter takes one attribute: an empty list is falsy like attr=False
            if not attr:
                return None
            from pagaie.framework.param_attr import ParamAttr
            ParamAttr._to_attr(attr)   # as Paddle: an element that is no attribute is a TypeError
            raise AssertionError("paddle.nn.Layer.create_parameter: 'attr' must be a ParamAttr, str, "
                                 f"Initializer, bool or None, but received a {type(attr).__name__} "
                                 f"of {len(attr)} attributes")
        return make_parameter(shape, attr, dtype if dtype else get_default_dtype(), is_bias,
                              default_initializer, self._full_name, device)

    def create_variable(self, name: str | None = None, persistable: bool | None = None,
                        dtype: Any = None) -> Tensor:
        """Deprecated alias of :meth:`create_tensor`.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).create_variable(dtype='float64').dtype
            <DataType.FLOAT64: 11>
        """
        return self.create_tensor(name, persistable, dtype)

    def create_tensor(self, name: str | None = None, persistable: bool | None = None,
                      dtype: Any = None) -> Tensor:
        """Create a placeholder Tensor named ``<full_name>.<name>`` that holds no values
        yet (it prints as ``Tensor(Not initialized)``), to be assigned later.

        Args:
            name (str, optional): the name's suffix; generated when None.
            persistable (bool, optional): its ``persistable`` flag.
            dtype (str, optional): its dtype; 'float32' when None (as Paddle, whatever the
                layer's dtype or the global default dtype).

        Returns:
            Tensor: the tensor.

        Examples:
            >>> import pagaie as paddle
            >>> t = paddle.nn.Linear(1, 1).create_tensor(name='buf', persistable=True)
            >>> t.name.endswith('.buf'), t.persistable
            (True, True)
        """
        if name is not None and not isinstance(name, str):   # Paddle joins it into the full name
            raise TypeError(f"paddle.nn.Layer.create_tensor: 'name' must be a str, but received "
                            f"{type(name).__name__} {name!r:.40}")
        full = f"{self._full_name}.{name}" if name is not None else \
            unique_name.generate(f"{self._full_name}._generated_var")
        from pagaie.framework.tensor_methods import create_tensor
        return create_tensor("float32" if dtype is None else dtype, name=full,
                             persistable=bool(persistable))

    # ---- traversal ----------------------------------------------------------------
    @kw_alias("include_sublayers", "recurse")
    def parameters(self, include_sublayers: bool = True) -> list[Parameter]:
        """All parameters of this layer (and of its sublayers), without duplicates.

        Examples:
            >>> import pagaie as paddle
            >>> len(paddle.nn.Linear(2, 2).parameters())
            2
        """
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    @kw_alias("include_sublayers", "recurse")
    def named_parameters(self, prefix: str = "", include_sublayers: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(dotted name, parameter)``: each layer's own parameters, then its sublayers'.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Linear(1, 1))
            >>> [n for n, _ in net.named_parameters()]
            ['0.weight', '0.bias']
        """
        seen: set[int] = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True,
                                      remove_duplicate=remove_duplicate) \
            if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for key, p in layer._parameters.items():
                if p is None or id(p) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(p))
                yield (lp + "." + key if lp else key), p

    def children(self) -> Iterator["Layer"]:
        """The direct sublayers.

        Examples:
            >>> import pagaie as paddle
            >>> len(list(paddle.nn.Sequential(paddle.nn.ReLU(), paddle.nn.ReLU()).children()))
            2
        """
        for _, layer in self.named_children():
            yield layer

    def named_children(self) -> Iterator[tuple[str, "Layer"]]:
        """``(name, layer)`` of the direct sublayers, each layer once.

        Examples:
            >>> import pagaie as paddle
            >>> [n for n, _ in paddle.nn.Sequential(paddle.nn.ReLU()).named_children()]
            ['0']
        """
        seen: set[int] = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def sublayers(self, include_self: bool = False) -> list["Layer"]:
        """All sublayers, depth first (and self first when ``include_self``).

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Linear(1, 1), paddle.nn.ReLU())
            >>> [type(m).__name__ for m in net.sublayers()]
            ['Linear', 'ReLU']
        """
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def named_sublayers(self, prefix: str = "", include_self: bool = False,
                        layers_set: set | None = None, remove_duplicate: bool = True
                        ) -> Iterator[tuple[str, "Layer"]]:
        """Yield ``(dotted name, layer)`` for every sublayer, depth first, each once.

        Args:
            prefix (str): prepended to the names.
            include_self (bool): also yield ``(prefix, self)`` first.
            layers_set (set, optional): layers already seen (skipped).
            remove_duplicate (bool): yield a layer reachable twice only once.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Sequential(paddle.nn.ReLU()))
            >>> [n for n, _ in net.named_sublayers()]
            ['0', '0.0']
        """
        if layers_set is None:
            layers_set = set()
        if include_self and self not in layers_set:
            if remove_duplicate:
                layers_set.add(self)
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            yield from layer.named_sublayers(prefix=prefix + ("." if prefix else "") + key,
                                             include_self=True, layers_set=layers_set,
                                             remove_duplicate=remove_duplicate)

    def modules(self) -> Iterator["Layer"]:
        """Self and every sublayer (torch-style name).

        Examples:
            >>> import pagaie as paddle
            >>> len(list(paddle.nn.Sequential(paddle.nn.ReLU()).modules()))
            2
        """
        for _, m in self.named_modules():
            yield m

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, "Layer"]]:
        """``named_sublayers(include_self=True)`` (torch-style name).

        Examples:
            >>> import pagaie as paddle
            >>> [n for n, _ in paddle.nn.Sequential(paddle.nn.ReLU()).named_modules()]
            ['', '0']
        """
        return self.named_sublayers(prefix=prefix, include_self=True, layers_set=memo,
                                    remove_duplicate=remove_duplicate)

    @kw_alias("persistable", "persistent")
    def register_buffer(self, name: str, tensor: Tensor | None, persistable: bool = True) -> None:
        """Register a non-trainable Tensor (e.g. running statistics); persistable buffers
        are saved in :meth:`state_dict`.

        Args:
            name (str): attribute name.
            tensor (Tensor|None): the buffer.
            persistable (bool): whether it belongs to the state dict. Default True.

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Layer()
            >>> layer.register_buffer('steps', paddle.zeros([1]))
            >>> list(layer.state_dict())
            ['steps']
        """
        if "_buffers" not in self.__dict__:
            raise ValueError("super().__init__() should be called first")
        if not isinstance(name, str):
            raise TypeError(f"The name of buffer should be a string, but received {type(name).__name__}.")
        if "." in name:
            raise KeyError("The name of buffer can not contain `.`, because when you access the newly "
                           "added buffer in the form of `self.**.**`, it will cause AttributeError.")
        if name == "":
            raise KeyError("The name of buffer can not be empty.")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists.")
        if tensor is not None and (not isinstance(tensor, Tensor) or isinstance(tensor, Parameter)):
            raise TypeError("The registered buffer should be a Paddle.Tensor, but received "
                            f"{'EagerParamBase' if isinstance(tensor, Parameter) else type(tensor).__name__}.")
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    @kw_alias("include_sublayers", "recurse")
    def buffers(self, include_sublayers: bool = True) -> list[Tensor]:
        """All buffers (persistable or not) of this layer and its sublayers.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).buffers()
            []
        """
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    @kw_alias("include_sublayers", "recurse")
    def named_buffers(self, prefix: str = "", include_sublayers: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """Yield ``(dotted name, buffer)``, each layer's own first.

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Layer()
            >>> layer.register_buffer('b', paddle.zeros([1]), persistable=False)
            >>> [n for n, _ in layer.named_buffers()]
            ['b']
        """
        seen: set[int] = set()
        layers = self.named_sublayers(prefix=prefix, include_self=True,
                                      remove_duplicate=remove_duplicate) \
            if include_sublayers else [(prefix, self)]
        for lp, layer in layers:
            for key, b in layer._buffers.items():
                if b is None or id(b) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(b))
                yield (lp + "." + key if lp else key), b

    def get_sublayer(self, target: str) -> "Layer":
        """The sublayer at dotted path ``target`` (``''`` is self).

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Sequential(paddle.nn.ReLU()))
            >>> type(net.get_sublayer('0.0')).__name__
            'ReLU'
        """
        if target == "":
            return self
        mod: Any = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{type(mod).__name__} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Layer):
                raise AttributeError(f"`{item}` is not an nn.Layer")
        return mod

    get_submodule = get_sublayer

    @kw_alias("layer", "module")
    def set_sublayer(self, target: str, layer: "Layer", strict: bool = False) -> None:
        """Replace (or, unless ``strict``, add) the sublayer at dotted path ``target``.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.ReLU())
            >>> net.set_sublayer('0', paddle.nn.Tanh())
            >>> type(net[0]).__name__
            'Tanh'
        """
        if target == "":
            raise ValueError("Cannot set the sublayer without a target name!")
        if not isinstance(layer, Layer):
            raise ValueError(f"`module` is not an nn.Layer, found {type(layer)}")
        atoms = target.split(".")
        parent = self if len(atoms) == 1 else self.get_sublayer(".".join(atoms[:-1]))
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(f"{type(parent).__name__} has no attribute `{atoms[-1]}`")
        if hasattr(parent, atoms[-1]) and not isinstance(getattr(parent, atoms[-1]), Layer):
            raise AttributeError(f"`{atoms[-1]}` is not an nn.Layer")
        setattr(parent, atoms[-1], layer)

    set_submodule = set_sublayer

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at dotted path ``target``.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Sequential(paddle.nn.Linear(2, 3)).get_parameter('0.weight').shape
            paddle.Size([2, 3])
        """
        path, _, pname = target.rpartition(".")
        mod = self.get_sublayer(path)
        if not hasattr(mod, pname):
            raise AttributeError(f"{type(mod).__name__} has no attribute `{pname}`")
        p = getattr(mod, pname)
        if not isinstance(p, Tensor):
            raise AttributeError(f"`{pname}` is not an nn.Parameter")
        return p

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at dotted path ``target``.

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Layer()
            >>> layer.register_buffer('b', paddle.ones([1]))
            >>> layer.get_buffer('b').tolist()
            [1.0]
        """
        path, _, bname = target.rpartition(".")
        mod = self.get_sublayer(path)
        if not hasattr(mod, bname):
            raise AttributeError(f"{type(mod).__name__} has no attribute `{bname}`")
        b = getattr(mod, bname)
        if bname not in mod._buffers:
            raise AttributeError(f"`{bname}` is not a buffer")
        return b

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        """Reset the gradients of all trainable parameters (to zeros, or to None).

        Examples:
            >>> import pagaie as paddle
            >>> fc = paddle.nn.Linear(2, 2)
            >>> fc(paddle.ones([1, 2])).sum().backward()
            >>> fc.clear_gradients()
            >>> fc.weight.grad.tolist()
            [[0.0, 0.0], [0.0, 0.0]]
        """
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters: to None (default) or to zeros.

        Examples:
            >>> import pagaie as paddle
            >>> fc = paddle.nn.Linear(2, 2)
            >>> fc(paddle.ones([1, 2])).sum().backward()
            >>> fc.zero_grad()
            >>> fc.weight.grad is None
            True
        """
        for p in self.parameters():
            if p.grad is not None:
                p.clear_gradient(not set_to_none)

    def requires_grad_(self, requires_grad: bool = True) -> "Layer":
        """Set ``stop_gradient = not requires_grad`` on every parameter; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).requires_grad_(False).weight.stop_gradient
            True
        """
        for p in self.parameters():
            p.stop_gradient = not requires_grad
        return self

    # ---- calling ------------------------------------------------------------------
    def _build_once(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        if not self._forward_pre_hooks and not self._forward_post_hooks and \
                (self._built or type(self)._build_once is Layer._build_once):
            return self.forward(*inputs, **kwargs)
        return self._call_with_hooks(inputs, kwargs)

    def _call_with_hooks(self, inputs: tuple, kwargs: dict) -> Any:
        outputs = None
        called: set[int] = set()
        try:
            for hid, hook in list(self._forward_pre_hooks.items()):
                if hid in self._forward_pre_hooks_with_kwargs_flag:
                    r = hook(self, inputs, kwargs)
                    if r is not None:
                        if not (isinstance(r, tuple) and len(r) == 2):
                            raise RuntimeError("forward pre-hook must return None or a tuple of "
                                               f"(new_args, new_kwargs), but got {r}.")
                        inputs, kwargs = r
                else:
                    r = hook(self, inputs)
                    if r is not None:
                        inputs = r if isinstance(r, tuple) else (r,)
            if not self._built:
                self._build_once(*inputs, **kwargs)
                self.__dict__["_built"] = True
            outputs = self.forward(*inputs, **kwargs)
            for hid, hook in list(self._forward_post_hooks.items()):
                if hid in self._forward_post_hooks_always_called:
                    called.add(hid)
                r = hook(self, inputs, kwargs, outputs) \
                    if hid in self._forward_post_hooks_with_kwargs_flag else hook(self, inputs, outputs)
                if r is not None:
                    outputs = r
            return outputs
        except Exception:
            for hid, hook in list(self._forward_post_hooks.items()):
                if hid in self._forward_post_hooks_always_called and hid not in called:
                    try:
                        r = hook(self, inputs, kwargs, outputs) \
                            if hid in self._forward_post_hooks_with_kwargs_flag \
                            else hook(self, inputs, outputs)
                        if r is not None:
                            outputs = r
                    except Exception as e:  # noqa: BLE001
                        warnings.warn("forward hook with ``always_call=True`` raised an exception "
                                      f"that was silenced as another error was raised in forward: {e!s}")
            raise

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        """The computation; subclasses override it.

        Examples:
            >>> import pagaie as paddle
            >>> try:
            ...     paddle.nn.Layer()(1)
            ... except NotImplementedError:
            ...     print('no forward')
            no forward
        """
        raise NotImplementedError

    def backward(self, *inputs: Any) -> Any:
        """Layers do not define their own backward; this raises ValueError.

        Examples:
            >>> import pagaie as paddle
            >>> try:
            ...     paddle.nn.Layer().backward()
            ... except ValueError as e:
            ...     print(e)
            Layer shouldn't implement backward
        """
        raise ValueError("Layer shouldn't implement backward")

    # ---- registration ---------------------------------------------------------------
    def add_sublayer(self, name: str, sublayer: "Layer") -> "Layer":
        """Add ``sublayer`` under ``name`` (reachable as ``self.<name>``); returns it.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Layer()
            >>> _ = net.add_sublayer('act', paddle.nn.ReLU())
            >>> type(net.act).__name__
            'ReLU'
        """
        if not (isinstance(sublayer, Layer) or sublayer is None):
            raise AssertionError(f"paddle.nn.Layer.add_sublayer: 'sublayer' must be a Layer, "
                                 f"but received {type(sublayer).__name__}")
        self._sub_layers[name] = sublayer
        return sublayer

    def add_module(self, name: str, module: "Layer | None") -> None:
        """Torch-style alias of :meth:`add_sublayer` (returns None).

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Layer()
            >>> net.add_module('act', paddle.nn.ReLU())
            >>> list(net.named_children())[0][0]
            'act'
        """
        self.add_sublayer(name, module)

    register_module = add_module

    def add_parameter(self, name: str, parameter: Parameter | None) -> Parameter | None:
        """Add ``parameter`` under ``name`` (reachable as ``self.<name>``); returns it.

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Layer()
            >>> w = layer.add_parameter('w', layer.create_parameter([1]))
            >>> [n for n, _ in layer.named_parameters()]
            ['w']
        """
        if "_parameters" not in self.__dict__:
            raise RuntimeError("super().__init__() should be called firstly.")
        if not isinstance(name, str):
            raise TypeError(f"The name of parameter should be a string, but received {type(name).__name__}.")
        if "." in name:
            raise KeyError("The name of parameter can not contain `.`, because when you access the newly "
                           "added parameter in the form of `self.**.**`, it will cause AttributeError.")
        if name == "":
            raise KeyError("The name of parameter can not be empty.")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"The parameter '{name}' already exists.")
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError("The parameter to be added should be a Parameter, but received "
                            f"{type(parameter).__name__}.")
        self._parameters[name] = parameter
        return parameter

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Torch-style alias of :meth:`add_parameter` (returns None).

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Layer()
            >>> layer.register_parameter('w', paddle.create_parameter([1], 'float32'))
            >>> layer.w.shape
            paddle.Size([1])
        """
        self.add_parameter(name, param)

    # ---- attribute routing ----------------------------------------------------------
    def __getstate__(self) -> dict:
        return self.__dict__

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for table in ("_parameters", "_sub_layers", "_buffers"):
            t = d.get(table)
            if t is not None and name in t:
                return t[name]
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__

        def drop(*tables: dict) -> None:
            for t in tables:
                t.pop(name, None)

        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            drop(d, self._buffers, self._sub_layers)
            params[name] = value
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"assignment to parameter '{name}' should be of type Parameter or None, "
                                f"but got '{type(value).__name__}'")
            params[name] = None
            return
        layers = d.get("_sub_layers")
        if isinstance(value, Layer):
            if layers is None:
                raise ValueError("super().__init__() should be called first")
            drop(d, self._parameters, self._buffers)
            layers[name] = value
            return
        if layers is not None and name in layers:
            if value is not None:
                raise TypeError(f"assignment to sublayer '{name}' should be of type Layer or None, "
                                f"but got '{type(value).__name__}'")
            layers[name] = None
            return
        buffers = d.get("_buffers")
        # A program's value (static mode) is a plain attribute unless it replaces a buffer, as
        # in Paddle: register_buffer then finds the name taken.
        if isinstance(value, Tensor) and not (_is_program_value(value) and name not in (buffers or {})):
            if buffers is None:
                raise ValueError("super().__init__() should be called first")
            drop(d, self._parameters, self._sub_layers)
            if name not in buffers:
                # only register_buffer makes a persistable buffer
                self._non_persistable_buffer_names_set.add(name)
            buffers[name] = value
            return
        if buffers is not None and name in buffers:
            if value is not None:
                raise TypeError(f"assignment to buffers '{name}' should be of type core.DenseTensor or "
                                f"None, but got '{type(value).__name__}'")
            buffers[name] = None
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._sub_layers:
            del self._sub_layers[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistable_buffer_names_set.discard(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        return (dir(type(self)) + list(self.__dict__) + list(self._parameters)
                + list(self._sub_layers) + list(self._buffers))

    # ---- printing -----------------------------------------------------------------
    def extra_repr(self) -> str:
        """The layer's own settings, shown inside its repr; override in subclasses.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(2, 3).extra_repr()
            'in_features=2, out_features=3, dtype=float32'
        """
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr().split("\n")
        subs = [f"({name}): {_addindent(repr(layer), 2)}" for name, layer in self._sub_layers.items()]
        s = type(self).__name__ + "("
        if len(extra) > 1:
            s += "\n  " + "\n  ".join(extra) + "\n"
        elif len(extra) == 1:
            s += extra[0]
        if subs:
            s += "\n  " + "\n  ".join(subs) + "\n"
        return s + ")"

    def _get_name(self) -> str:
        return type(self).__name__

# Python names a method by its defining class in errors ("half() got an unexpected
# keyword"): the mixins' methods are Layer's.
for _mixin in (StateMixin, CastMixin):
    for _name, _fn in vars(_mixin).items():
        if inspect.isfunction(_fn):
            _fn.__qualname__ = f"Layer.{_name}"
