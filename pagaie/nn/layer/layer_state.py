"""The state-dict and the device/dtype halves of ``paddle.nn.Layer`` (mixed into it).

``StateMixin``: ``state_dict`` / ``set_state_dict`` / ``load_state_dict`` with
Paddle's key names, persistable-buffer rules and reports. ``CastMixin``: ``to``,
``astype``, ``float``... which change parameters and buffers in place, so that
the objects an optimizer holds stay valid.
"""
from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple
from typing import Any

import numpy as np
import torch

from pagaie._core import dtype as _dt
from pagaie._core.parameter import Parameter, replace_data
from pagaie._core.place import Place, to_torch_device

__all__ = ["StateMixin", "CastMixin"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


_VALID_DTYPES = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
                 "uint8", "complex64", "complex128", "bool")


class StateMixin:
    """State dicts of a Layer (see :class:`paddle.nn.Layer`)."""

    # ---- state ----------------------------------------------------------------------
    def _state_dict_impl(self, destination: Any = None, include_sublayers: bool = True,
                         structured_name_prefix: str = "", include_non_persistable_buffer: bool = False,
                         use_hook: bool = True, keep_vars: bool = True) -> OrderedDict:
        if destination is None:
            destination = OrderedDict()
        for name, p in self._parameters.items():
            if p is not None:
                destination[structured_name_prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and (include_non_persistable_buffer
                                  or name not in self._non_persistable_buffer_names_set):
                destination[structured_name_prefix + name] = b if keep_vars else b.detach()
        if include_sublayers:
            for lname, layer in self._sub_layers.items():
                if layer is not None:
                    layer._state_dict_impl(destination, include_sublayers,
                                           structured_name_prefix + lname + ".",
                                           include_non_persistable_buffer, use_hook, keep_vars)
        if use_hook:
            for hook in self._state_dict_hooks.values():
                r = hook(destination)
                if r is not None:
                    destination = r
        return destination

    def state_dict(self, *args: Any, **kwargs: Any) -> OrderedDict:
        """Parameters and persistable buffers by structured name (``'fc.weight'``).

        Paddle's form ``state_dict(destination=None, include_sublayers=True,
        structured_name_prefix='', use_hook=True, keep_vars=True)``; the torch form
        ``state_dict(destination, prefix, keep_vars=False)`` is accepted too.

        Returns:
            OrderedDict: name -> Tensor (the parameter objects themselves with ``keep_vars``).

        Examples:
            >>> import pagaie as paddle
            >>> list(paddle.nn.Sequential(paddle.nn.Linear(1, 2)).state_dict())
            ['0.weight', '0.bias']
        """
        if (len(args) >= 2 and isinstance(args[1], str)) or "prefix" in kwargs:
            names = ("destination", "prefix", "keep_vars")
            for i, a in enumerate(args[:3]):
                if names[i] in kwargs:
                    raise TypeError(f"got multiple values for argument '{names[i]}'")
                kwargs[names[i]] = a
            return self._state_dict_impl(destination=kwargs.get("destination"),
                                         structured_name_prefix=kwargs.get("prefix", ""),
                                         keep_vars=kwargs.get("keep_vars", False))
        return self._state_dict_impl(*args, **kwargs)

    def to_static_state_dict(self, destination: Any = None, include_sublayers: bool = True,
                             structured_name_prefix: str = "", use_hook: bool = True,
                             keep_vars: bool = True) -> OrderedDict:
        """Like :meth:`state_dict` but with the non-persistable buffers too.

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Layer()
            >>> layer.register_buffer('b', paddle.ones([1]), persistable=False)
            >>> list(layer.state_dict()), list(layer.to_static_state_dict())
            ([], ['b'])
        """
        return self._state_dict_impl(destination, include_sublayers, structured_name_prefix,
                                     True, use_hook, keep_vars)

    def set_state_dict(self, state_dict: dict, use_structured_name: bool = True
                       ) -> tuple[list[str], list[str]]:
        """Load parameters and persistable buffers from ``state_dict`` (Tensors or numpy
        arrays). Entries that are absent or have the wrong shape are skipped with a
        warning and reported as missing.

        Args:
            state_dict (dict): name -> value.
            use_structured_name (bool): keys are structured names (``'fc.weight'``);
                False: keys are the parameters' own names (``'linear_0.w_0'``).

        Returns:
            tuple: ``(missing_keys, unexpected_keys)``, two lists of str.

        Examples:
            >>> import pagaie as paddle
            >>> a, b = paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 2)
            >>> b.set_state_dict(a.state_dict())
            ([], [])
            >>> bool((a.weight == b.weight).all())
            True
        """
        missing: list[str] = []
        matched: set[str] = set()
        pairs = []
        for key, target in self._state_dict_impl(use_hook=False).items():
            k = key if use_structured_name else target.name
            state = state_dict.get(k, None)
            try:
                if state is None:
                    missing.append(k)
                    raise ValueError(f"{k} is not found in the provided dict.")
                if isinstance(state, (dict, list)):
                    if len(state) != len(target):
                        missing.append(k)
                        raise ValueError(f"{k} receives the length of {len(state)}, but the expected "
                                         f"shape is {len(target)}")
                else:
                    shape = state.shape() if callable(state.shape) else state.shape
                    if list(shape) != list(target.shape):
                        missing.append(k)
                        raise ValueError(f"{k} receives a shape {list(shape)}, but the expected shape "
                                         f"is {list(target.shape)}.")
                matched.add(k)
                pairs.append((target, state))
            except ValueError as err:
                warnings.warn(f"Skip loading for {key}. " + str(err))
        unexpected = [k for k in state_dict.keys() if k not in matched]
        for target, state in pairs:
            target.set_value(state)
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    def load_state_dict(self, state_dict: dict, strict: bool = True, assign: bool = False
                        ) -> _IncompatibleKeys:
        """Torch-style loading: like :meth:`set_state_dict`, raising RuntimeError on
        missing or unexpected keys when ``strict``.

        Returns:
            IncompatibleKeys: a named tuple ``(missing_keys, unexpected_keys)``.

        Examples:
            >>> import pagaie as paddle
            >>> a, b = paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 2)
            >>> b.load_state_dict(a.state_dict())
            <All keys matched successfully>
        """
        missing, unexpected = self.set_state_dict(state_dict, use_structured_name=True)
        msgs = []
        if strict:
            if unexpected:
                msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(msgs)))
        return _IncompatibleKeys(missing, unexpected)

    def sharded_state_dict(self, structured_name_prefix: str = "") -> dict:
        """The state dict as ``ShardedWeight`` descriptions (for distributed checkpoints):
        on one process each entry is the whole tensor (offset 0, local shape = global shape).

        Args:
            structured_name_prefix (str, optional): prepended to every key. Default ''.

        Returns:
            dict: structured name -> ``paddle.distributed.ShardedWeight``.

        Examples:
            >>> import pagaie as paddle
            >>> sd = paddle.nn.Sequential(paddle.nn.Linear(2, 3)).sharded_state_dict()
            >>> list(sd), sd['0.weight'].global_shape
            (['0.weight', '0.bias'], (2, 3))
        """
        from pagaie.distributed.checkpoint import build_sharded_state_dict
        out = build_sharded_state_dict(self.state_dict(include_sublayers=False), None,
                                       structured_name_prefix)
        for lname, layer in self._sub_layers.items():
            if layer is not None:
                out.update(layer.sharded_state_dict(f"{structured_name_prefix}{lname}."))
        return out

    def full(self, aoa_config: Any = None, **kwargs: Any) -> Any:
        """Gather full parameters from sharded state (not available in pagaie)."""
        raise NotImplementedError("paddle.nn.Layer.full: sharded (distributed) checkpoints are not "
                                  "supported by pagaie")

    def get_extra_state(self) -> Any:
        """Never reached in Paddle; raises RuntimeError."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called. ")


class CastMixin:
    """Device and dtype moves of a Layer (see :class:`paddle.nn.Layer`)."""

    # ---- device and dtype -------------------------------------------------------------
    def _apply_transform(self, device: Any, dtype: Any, include_sublayers: bool,
                         floating_only: bool) -> None:
        tdev = None if device is None else to_torch_device(device, "paddle.nn.Layer.to")
        tdt = None if dtype is None else _dt.to_torch_dtype(dtype, "paddle.nn.Layer.to")
        layers = self.sublayers(include_self=True) if include_sublayers else [self]
        for layer in layers:
            for t in list(layer._parameters.values()) + list(layer._buffers.values()):
                if t is None:
                    continue
                if floating_only and not t._t.is_floating_point():
                    continue  # as paddle.is_floating_point: complex tensors are kept
                with torch.no_grad(), warnings.catch_warnings():
                    # a complex -> real cast drops the imaginary part, as Paddle's cast does
                    warnings.simplefilter("ignore", UserWarning)
                    new = t._t.to(device=tdev, dtype=tdt)
                    if new is t._t:
                        continue
                    g = t._t.grad if isinstance(t, Parameter) else None
                    # the flag survives a cast to an integer dtype and back (as in Paddle),
                    # although torch keeps no trainable integer leaf
                    stop = t.stop_gradient
                    differentiable = new.is_floating_point() or new.is_complex()
                    if not differentiable and t._t.requires_grad:
                        t._t = t._t.detach()
                    replace_data(t, new)
                    if t.stop_gradient != stop:
                        t.stop_gradient = stop
                    if g is not None and differentiable:
                        t._t.grad = g.to(device=tdev, dtype=tdt)

    def to(self, device: Any = None, dtype: Any = None, blocking: bool | None = None,
           non_blocking: bool | None = None) -> "Layer":
        """Move and/or cast every parameter and buffer in place; returns self.

        Args:
            device (str|Place, optional): 'cpu', 'gpu', 'gpu:0' or a Place.
            dtype (str|dtype, optional): the new dtype.
            blocking (bool, optional): unused beyond validation.
            non_blocking (bool, optional): unused beyond validation.

        Examples:
            >>> import pagaie as paddle
            >>> fc = paddle.nn.Linear(2, 2)
            >>> fc.to(dtype='float64').weight.dtype
            <DataType.FLOAT64: 11>
        """
        if device is None and dtype is None and blocking is None and non_blocking is None:
            return self
        if device is not None and not isinstance(device, (str, Place)):
            raise ValueError("device should be type of str, paddle.CPUPlace, paddle.CUDAPlace, "
                             "paddle.CUDAPinnedPlace, paddle.XPUPlace, or paddle.base.libpaddle.Place, "
                             f"but got {type(device).__name__}")
        for v, n in ((blocking, "blocking"), (non_blocking, "non_blocking")):
            if v is not None and not isinstance(v, bool):
                raise AssertionError(f"{n} value error, must be the True, False or None")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            self._apply_transform(device, dtype, True, False)
        # as Paddle: every layer records the dtype argument, None included (a device move),
        # which is what the reprs of Linear and friends show afterwards
        for layer in self.sublayers(include_self=True):
            layer.__dict__["_dtype"] = dtype
        return self

    def _cast_all(self, dtype: Any, api: str) -> "Layer":
        if not (isinstance(dtype, (_dt.DType, np.dtype)) or (type(dtype) is str and dtype in _VALID_DTYPES)):
            raise ValueError("dtype value error, must be 'bfloat16', 'float16', 'float32', 'float64', "
                             "'int8', 'int16', 'int32', 'int64', 'uint8', 'complex64', 'complex128', "
                             f"'bool', or paddle.dtype, numpy.dtype, but receive {dtype}")
        return _dt.to_dtype(dtype)

    def astype(self, dtype: Any = None) -> "Layer":
        """Cast every parameter and buffer to ``dtype`` in place; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> fc = paddle.nn.Linear(2, 2).astype('float64')
            >>> fc.weight.dtype, fc
            (<DataType.FLOAT64: 11>, Linear(in_features=2, out_features=2, dtype=paddle.float64))
        """
        d = self._cast_all(dtype, "astype")
        for layer in self.sublayers(include_self=True):
            layer.__dict__["_dtype"] = d
        self._apply_transform(None, d, True, False)
        return self

    def type(self, dst_type: Any) -> "Layer":
        """Cast every parameter and buffer (floating or not) to ``dst_type``; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).type('float64').weight.dtype
            <DataType.FLOAT64: 11>
        """
        d = self._cast_all(dst_type, "type")

        def trans(layer: Layer) -> None:
            layer._apply_transform(None, d, True, False)
            layer.__dict__["_dtype"] = d
        return self.apply(trans)

    def double(self) -> "Layer":
        """Cast every parameter and buffer to float64; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).double().weight.dtype
            <DataType.FLOAT64: 11>
        """
        return self.type(_dt.float64)

    def half(self) -> "Layer":
        """Cast every parameter and buffer to float16; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).half().weight.dtype
            <DataType.FLOAT16: 15>
        """
        return self.type(_dt.float16)

    def _float_cast(self, dtype: Any, excluded_layers: Any, default_excluded: list) -> "Layer":
        excl = default_excluded if excluded_layers is None else excluded_layers
        if isinstance(excl, type):
            excl = [excl]
        elif isinstance(excl, (list, tuple)):
            excl = list(excl)
        else:
            raise TypeError("excluded_layers should be type nn.Layer or list, but got "
                            f"{type(excl).__name__}.")

        def trans(layer: Layer) -> None:
            if type(layer) in excl:
                return
            layer._apply_transform(None, dtype, False, True)
            layer.__dict__["_dtype"] = dtype
        return self.apply(trans)

    def float(self, excluded_layers: Any = None) -> "Layer":
        """Cast floating-point parameters and buffers to float32, except in layers of the
        types in ``excluded_layers``; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).double().float().weight.dtype
            <DataType.FLOAT32: 10>
        """
        return self._float_cast(_dt.float32, excluded_layers, [])

    def float16(self, excluded_layers: Any = None) -> "Layer":
        """Cast floating-point parameters and buffers to float16 (BatchNorm layers are
        excluded by default); returns self. Like Paddle, where the current device does not
        support float16 (``paddle.amp.is_float16_supported()`` is False, e.g. the CPU) the
        layer keeps its dtype and a warning is issued.

        Examples:
            >>> import pagaie as paddle
            >>> layer = paddle.nn.Linear(1, 1).float16()
            >>> fp16 = paddle.amp.is_float16_supported()
            >>> layer.weight.dtype == (paddle.float16 if fp16 else paddle.float32)
            True
        """
        from pagaie.amp import is_float16_supported
        if not is_float16_supported():
            warnings.warn("paddle.nn.Layer.float16: the current device does not support float16, "
                          "so the original data type is kept.")
            return self
        return self._float_cast(_dt.float16, excluded_layers, _batchnorm_types())

    def bfloat16(self, excluded_layers: Any = None) -> "Layer":
        """Cast floating-point parameters and buffers to bfloat16 (BatchNorm layers are
        excluded by default); returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).bfloat16().weight.dtype
            <DataType.BFLOAT16: 16>
        """
        return self._float_cast(_dt.bfloat16, excluded_layers, _batchnorm_types())

    def cpu(self) -> "Layer":
        """Move every parameter and buffer to the CPU; returns self.

        Examples:
            >>> import pagaie as paddle
            >>> paddle.nn.Linear(1, 1).cpu().weight.place
            Place(cpu)
        """
        return self.to(device="cpu")

    def cuda(self, device: Any = None) -> "Layer":
        """Move every parameter and buffer to a GPU (``device``: index or CUDAPlace); returns self."""
        from pagaie._core.place import CUDAPlace
        if device is None:
            device = CUDAPlace(torch.cuda.current_device() if torch.cuda.is_available() else 0)
        elif isinstance(device, int):
            device = CUDAPlace(device)
        elif not isinstance(device, CUDAPlace):
            raise TypeError(f"device must be int, paddle.CUDAPlace or None, got {type(device)}")
        return self.to(device=device)

    def xpu(self, device: Any = None) -> "Layer":
        """Move to an XPU: pagaie runs on CPU and CUDA only, so this raises ValueError as a
        Paddle build without XPU does."""
        raise ValueError("(InvalidArgument) use wrong place, Please check: this build has no XPU "
                         "support (paddle.nn.Layer.xpu)")


def _batchnorm_types() -> list:
    import pagaie.nn as nn
    bn = getattr(nn, "BatchNorm", None)
    return [bn] if bn is not None else []

