"""``Parameter``: a trainable Tensor owned by a Layer (Paddle's EagerParamBase)."""
from __future__ import annotations

import itertools
from typing import Any

import torch

from pagaie._core.dtype import default_float, to_torch_dtype
from pagaie._core.place import default_device
from pagaie._core.tensor import Tensor, flag_grad

__all__ = ["Parameter", "replace_data"]

_CREATED = itertools.count()  # creation order: static programs list parameters newest first


class Parameter(Tensor):
    """A Tensor that a Layer trains. ``stop_gradient`` is ``not trainable``.

    Args:
        data (torch.Tensor|Tensor): the initial value (copied into a leaf).
        trainable (bool): whether optimizers update it.
        name (str, optional): the parameter name (Paddle's e.g. ``linear_0.w_0``).
        optimize_attr (dict, optional): ``{'learning_rate': float}`` scale for this parameter.
        regularizer (optional): a weight-decay regularizer overriding the optimizer's.
        need_clip (bool): whether gradient clipping applies to it.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.create_parameter([2, 2], 'float32')
        >>> w.stop_gradient, w.trainable
        (False, True)
    """

    _paddle_class = "paddle.base.framework.EagerParamBase"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """``Parameter(data, requires_grad=True, *, trainable, name=None, optimize_attr=None,
        regularizer=None, need_clip=True, do_model_average=None, is_distributed=False)`` from a
        Tensor (``trainable`` is another name of ``requires_grad``), or Paddle's
        ``Parameter(shape, dtype, **attrs)`` (zero-filled, to be initialised), or
        ``Parameter()`` (an empty float32 parameter).
        """
        data, trainable, name, optimize_attr, regularizer, need_clip, do_model_average, \
            is_distributed = _parameter_args(args, kwargs)
        # torch tensors come from pagaie itself and are handed over, to the current device
        t = data._t if isinstance(data, Tensor) else data.to(default_device())
        self._t = t.detach().requires_grad_(bool(trainable) and (t.is_floating_point() or t.is_complex()))
        if trainable and not self._t.requires_grad:
            flag_grad(self._t)   # as Paddle: a trainable integer parameter has stop_gradient False
        if name is None:   # Paddle's generated name, which optimizer state keys carry
            from pagaie.utils import unique_name
            name = unique_name.generate("_eager_param_base")
        self._name = name
        self.persistable = True
        self.optimize_attr = dict(optimize_attr or {"learning_rate": 1.0})
        self.regularizer = regularizer
        self.need_clip = need_clip
        self.do_model_average = do_model_average
        self.is_distributed = is_distributed
        self._created = next(_CREATED)

    _init_func = None   # set by ``set_init_func``: run once by ``initialize``

    @classmethod
    def from_tensor(cls, tensor: Tensor, **kwargs: Any) -> "Parameter":
        """Make a Parameter over the storage of ``tensor`` (writes to one show in the other).

        Args:
            tensor (Tensor): the values, shape and dtype of the new parameter.
            **kwargs: the attributes of the parameter: ``trainable`` (default True), ``name``,
                ``optimize_attr``, ``regularizer``, ``need_clip``, ``do_model_average``,
                ``is_distributed``.

        Returns:
            Parameter: a leaf parameter sharing ``tensor``'s data.

        Examples:
            >>> import pagaie as paddle
            >>> t = paddle.to_tensor([1.0, 2.0])
            >>> w = paddle.base.framework.EagerParamBase.from_tensor(t, name="w_from_t")
            >>> w.name, w.stop_gradient, w.tolist()
            ('w_from_t', False, [1.0, 2.0])
        """
        if not isinstance(tensor, Tensor):
            raise TypeError(f"paddle.base.framework.EagerParamBase.from_tensor: tensor must be a "
                            f"paddle.Tensor, but received {type(tensor).__name__}")
        fields = {k: v for k, v in kwargs.items() if k in _VALUE_ORDER[1:]}
        return cls(tensor._t, **fields)

    def _copy_to(self, place: Any, blocking: bool) -> "Parameter":
        """A copy of this parameter on ``place``: a new Parameter (a leaf) with the same
        name, trainability and attributes, as Paddle's ``EagerParamBase._copy_to``.

        Args:
            place (Place): where the copy goes (``CPUPlace()``, ``CUDAPlace(0)``...).
            blocking (bool): whether the copy waits until it is done.

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.create_parameter([2], 'float32', attr=paddle.ParamAttr(name='w_copy_to'))
            >>> c = w._copy_to(paddle.CPUPlace(), True)
            >>> type(c) is type(w), c.name, c.stop_gradient
            (True, 'w_copy_to', False)
        """
        data = super()._copy_to(place, blocking)
        return type(self)(data, trainable=self.trainable, name=self.name,
                          optimize_attr=dict(self.optimize_attr), regularizer=self.regularizer,
                          need_clip=self.need_clip, do_model_average=self.do_model_average,
                          is_distributed=self.is_distributed)

    def set_init_func(self, obj: Any) -> None:
        """Keep ``obj`` as this parameter's initializer: :meth:`initialize` calls
        ``obj(self, None)`` once.

        Args:
            obj (Callable): called as ``obj(param, block)`` with ``block`` None (an
                ``Initializer`` instance fits).

        Examples:
            >>> import pagaie as paddle
            >>> w = paddle.base.framework.EagerParamBase([2], "float32")
            >>> w.set_init_func(paddle.nn.initializer.Constant(3.0))
            >>> w.initialize()
            >>> w.tolist()
            [3.0, 3.0]
        """
        self._init_func = obj

    def _defer_init(self, init: Any) -> None:
        """Keep ``init`` (an initializer) for :meth:`initialize`: the parameter was made under
        ``paddle.LazyGuard``, where Paddle draws nothing until then. Until something writes
        into it, it holds zeros and reads as not initialised. As in Paddle, ``init`` is the
        parameter's ``_init_func``."""
        self._init_func = init
        self.__dict__["_lazy_init"] = (self._t, self._t._version)

    def __deepcopy__(self, memo: dict) -> "Parameter":
        new = super().__deepcopy__(memo)
        lazy = self.__dict__.get("_lazy_init")
        if lazy is not None and not self._is_initialized():   # the copy is not initialised either
            new.__dict__["_lazy_init"] = (new._t, new._t._version)
        return new

    def _note_write(self) -> None:
        """A write that counts no version (``set_value``, ``copy_``) initialises it too."""
        lazy = self.__dict__.get("_lazy_init")
        if lazy is not None and lazy[0] is not None:
            self.__dict__["_lazy_init"] = (None, 0)

    def _is_initialized(self) -> bool:
        lazy = self.__dict__.get("_lazy_init")
        return lazy is None or lazy[0] is None or self._t is not lazy[0] or self._t._version != lazy[1]

    def numpy(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if self._is_initialized():
            return super().numpy(*args, **kwargs)
        import numpy as np   # as Paddle: an array of the shape with a last axis of 0
        return np.empty(list(self._t.shape) + [0], dtype=np.dtype(str(self._t.dtype).replace("torch.", "")))

    def tolist(self) -> Any:  # type: ignore[override]
        return super().tolist() if self._is_initialized() else self.numpy().tolist()

    def __repr__(self) -> str:
        if self._is_initialized():
            return super().__repr__()
        return "Parameter containing:\nTensor(Not initialized)"

    __str__ = __repr__

    def initialize(self) -> None:
        """Run the initializer of a parameter created inside ``paddle.LazyGuard`` (it draws
        its random values now, as Paddle does), or the one given to :meth:`set_init_func`.
        As in Paddle it runs once, even when values were loaded into the parameter since
        (they are overwritten), and only for a parameter that has one.

        Raises:
            AssertionError: the parameter has no initializer to run (not created under
                ``paddle.LazyGuard`` nor given one by ``set_init_func``), or ``initialize``
                was already called.

        Examples:
            >>> import pagaie as paddle
            >>> with paddle.LazyGuard():
            ...     net = paddle.nn.Linear(2, 3)
            >>> net.bias._is_initialized()
            False
            >>> for p in net.parameters():
            ...     p.initialize()
            >>> net.bias.tolist()
            [0.0, 0.0, 0.0]
        """
        if self._init_func is None:
            raise AssertionError("paddle.Tensor.initialize: the parameter has no initializer "
                                 "to run (not created under paddle.LazyGuard nor given one by "
                                 "set_init_func), or it is already initialized")
        init, self._init_func = self._init_func, None
        self._note_write()
        init(self, None)

    @property
    def trainable(self) -> bool:
        return not self.stop_gradient  # (an integer parameter may be trainable: torch cannot say)

    @trainable.setter
    def trainable(self, value: bool) -> None:
        if not isinstance(value, bool):   # Paddle takes no 0/1 nor None here
            raise ValueError(f"paddle.Tensor.trainable: the type of trainable MUST be bool, but "
                             f"the type is {type(value)}")
        self.stop_gradient = not value


_VALUE_ORDER = ("data", "trainable", "name", "optimize_attr", "regularizer", "need_clip",
                "do_model_average", "is_distributed")


def _parameter_args(args: tuple, kwargs: dict) -> tuple:
    """Normalise the constructor forms of :class:`Parameter` to the value form's fields."""
    first = args[0] if args else kwargs.get("data", kwargs.get("shape"))
    if isinstance(first, (list, tuple)) and "data" not in kwargs:
        if len(args) > 2:
            raise TypeError(f"paddle.nn.Parameter: takes shape and dtype by position and the "
                            f"attributes by keyword, but received {len(args)} positional arguments")
        shape = list(first)
        if len(args) < 2 and "dtype" not in kwargs:
            raise TypeError("paddle.nn.Parameter: missing 1 required positional argument: 'dtype'")
        dtype = args[1] if len(args) > 1 else kwargs["dtype"]
        if dtype is None:
            raise ValueError("paddle.nn.Parameter: the dtype of Parameter should not be None")
        if any(int(d) < 0 for d in shape):   # as Paddle, a 0-size dimension is allowed
            raise ValueError("Each dimension of shape for Parameter must be greater than 0, but "
                             f"received {shape}")
        data = torch.zeros([int(d) for d in shape], dtype=to_torch_dtype(dtype, "paddle.nn.Parameter"))
        fields = {k: v for k, v in kwargs.items() if k in _VALUE_ORDER[1:]}
    else:
        if len(args) > 2:   # as Paddle: Parameter(data, requires_grad=True, **attributes)
            raise TypeError(f"paddle.nn.Parameter: takes the data and requires_grad by position "
                            f"and the attributes by keyword, but received {len(args)} positional "
                            f"arguments")
        fields = dict(zip(_VALUE_ORDER, args))
        if "requires_grad" in kwargs:   # the name Paddle's ``Parameter(data, requires_grad)`` uses
            kwargs = dict(kwargs)
            kwargs["trainable"] = kwargs.pop("requires_grad")
        for k, v in kwargs.items():
            if k not in _VALUE_ORDER:
                raise TypeError(f"paddle.nn.Parameter: unexpected keyword argument {k!r}")
            if k in fields:
                raise TypeError(f"paddle.nn.Parameter: got multiple values for argument {k!r}")
            fields[k] = v
        data = fields.pop("data", None)
        if data is None:
            data = torch.empty(0, dtype=default_float())
        elif not isinstance(data, (Tensor, torch.Tensor)):
            raise ValueError(f"paddle.nn.Parameter: data must be a Tensor, but received "
                             f"{type(data).__name__}")
    return (data, fields.get("trainable", True), fields.get("name"), fields.get("optimize_attr"),
            fields.get("regularizer"), fields.get("need_clip", True),
            fields.get("do_model_average"), fields.get("is_distributed", False))


def replace_data(t: Tensor, new: torch.Tensor) -> None:
    """Give ``t`` new storage in place, keeping it the same object (a leaf for parameters)."""
    if isinstance(t, Parameter):
        trainable = not t.stop_gradient
        requires = trainable and (new.is_floating_point() or new.is_complex())
        t._t = new.detach().requires_grad_(requires)
        if trainable and not requires:
            flag_grad(t._t)
    else:
        t._t = new.detach().requires_grad_(t._t.requires_grad) if t._t.is_leaf else new
