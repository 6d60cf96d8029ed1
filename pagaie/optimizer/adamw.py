"""AdamW: Adam with decoupled weight decay."""
from __future__ import annotations

from typing import Any, Callable, Sequence

import torch

from pagaie._core.tensor import Tensor
from pagaie.optimizer.adam import Adam
from pagaie.optimizer.optimizer import Optimizer, _f32, _scalar

__all__ = ["AdamW"]


class AdamW(Adam):
    r"""AdamW (Loshchilov & Hutter): the Adam update preceded by a decoupled decay of the
    parameter, :math:`\theta \leftarrow \theta (1 - lr \cdot coeff)`.

    Args:
        learning_rate (float|LRScheduler, optional): the learning rate. Default 0.001.
        beta1 (float|Tensor, optional): decay of the first moment. Default 0.9.
        beta2 (float|Tensor, optional): decay of the second moment. Default 0.999.
        epsilon (float, optional): numerical stabilizer. Default 1e-8.
        parameters (list|tuple|None): the Tensors to update, or parameter groups (dicts).
        weight_decay (float|Tensor, optional): the decay coefficient. Default 0.01.
        use_lowprecision_moment (bool, optional): keep the moments in the parameter's
            low precision. Default False.
        lr_ratio (callable|None, optional): ``lr_ratio(param)`` scales the learning rate of
            each parameter (layer-wise decay). Default None.
        apply_decay_param_fun (callable|None, optional): ``fun(param.name)``; decay only the
            parameters for which it returns True. Default None (decay all).
        grad_clip (ClipGradBase|None, optional): gradient clipping. Default None.
        lazy_mode (bool, optional): see :class:`Adam`. Default False.
        multi_precision (bool, optional): float32 master weights for low-precision parameters.
        amsgrad (bool, optional): use AMSGrad. Default False.
        name (str|None, optional): prefix of the accumulators' names. Default None.

    Examples:
        >>> import pagaie as paddle
        >>> w = paddle.Parameter(paddle.to_tensor([1.0]), name="doc_adamw_w")
        >>> opt = paddle.optimizer.AdamW(learning_rate=0.1, parameters=[w], weight_decay=0.5)
        >>> paddle.multiply(w, paddle.to_tensor([1.0])).backward(paddle.to_tensor([1.0]))
        >>> opt.step()
        >>> round(w.item(), 4)
        0.85
    """

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999, epsilon: Any = 1e-8,
                 parameters: Sequence | None = None, weight_decay: Any = 0.01,
                 use_lowprecision_moment: bool = False, lr_ratio: Callable | None = None,
                 apply_decay_param_fun: Callable | None = None, grad_clip: Any = None, lazy_mode: bool = False,
                 multi_precision: bool = False, amsgrad: bool = False, name: str | None = None) -> None:
        # unlike Adam, Paddle's AdamW checks one-element Tensor hyper-parameters too
        self._check_hparams("AdamW", learning_rate, beta1, beta2, epsilon, check_tensors=True)
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (int, float, Tensor)):
            raise TypeError("paddle.optimizer.AdamW: weight_decay should be int, float or Tensor, "
                            f"but received {type(weight_decay).__name__}")
        if lr_ratio is not None and not callable(lr_ratio):  # Paddle asserts here
            raise AssertionError("paddle.optimizer.AdamW: lr_ratio should be a callable taking a "
                                 f"parameter, but received {type(lr_ratio).__name__}")
        Optimizer.__init__(self, learning_rate, parameters, None, grad_clip, name)
        self.type = "adamw"
        self._apply_decay_param_fun = apply_decay_param_fun
        self._weight_decay = _scalar(weight_decay, "AdamW's weight_decay", many=AssertionError)
        self._use_lowprecision_moment = use_lowprecision_moment
        self._lr_ratio = lr_ratio
        self._init_hparams(beta1, beta2, epsilon, lazy_mode, multi_precision, amsgrad)
        self._default_dict = {"weight_decay": self._weight_decay, **self._default_dict, "grad_clip": grad_clip}
        # the groups were completed before AdamW's own defaults were known; as in Paddle,
        # each group carries all of them (beta1, beta2, epsilon, lazy_mode too)
        for group in self._param_groups if self._grouped else ():
            if group.get("weight_decay") is None:
                group["weight_decay"] = self._weight_decay
            for k, v in self._default_dict.items():
                group.setdefault(k, v)

    def __str__(self) -> str:
        """What ``print(optimizer)`` shows: Paddle's fixed heading of the decayed parameters'
        names, which Paddle never fills in.

        Returns:
            str: ``"Weight Decay, params: "``.

        Examples:
            >>> import pagaie as paddle
            >>> opt = paddle.optimizer.AdamW(parameters=paddle.nn.Linear(2, 2).parameters())
            >>> str(opt)
            'Weight Decay, params: '
        """
        return "Weight Decay, params: "

    def _bind_group_options(self, param_group: dict) -> None:
        # AdamW's groups scale the learning rate only; their weight decay is decoupled.
        for p in param_group["params"]:
            self._optimize_attr(p)["learning_rate"] = param_group.get("learning_rate", 1.0)

    def _acc_dtype(self, target: Tensor) -> torch.dtype:
        if self._use_lowprecision_moment:
            return target._t.dtype
        return super()._acc_dtype(target)

    def _decay_factors(self, params, lrs, hp, tensors):
        coeff = _f32(_scalar(hp["weight_decay"]))
        if self._lr_ratio is not None:
            lrs = [lr * _f32(self._lr_ratio(t)) for lr, t in zip(lrs, tensors)]
        fun = self._apply_decay_param_fun
        if coeff != 0.0:
            decays = [1.0 - lr * coeff if fun is None or fun(t.name) else 1.0 for lr, t in zip(lrs, tensors)]
            if len(set(decays)) == 1:
                if decays[0] != 1.0:
                    torch._foreach_mul_(params, decays[0])
            else:
                torch._foreach_mul_(params, decays)
        return lrs

    def sharded_state_dict(self, model_sharded_state_dict: dict) -> dict:
        """This optimizer's state as ``ShardedWeight`` entries laid out like the model's, for
        distributed checkpoints: a moment (or master weight) takes the position of its
        parameter's ``ShardedWeight``; a scalar state (``beta*_pow_acc``) is a whole ``(1,)``
        piece. Keys are ``<parameter key>.<state>`` (``0.weight.moment1_0``); a master weight's
        is ``<parameter key>.w_0``.

        Args:
            model_sharded_state_dict (dict): the model's sharded state dict
                (``layer.sharded_state_dict()``).

        Returns:
            dict: key -> ``paddle.distributed.ShardedWeight``.

        Examples:
            >>> import pagaie as paddle
            >>> net = paddle.nn.Sequential(paddle.nn.Linear(2, 3))
            >>> opt = paddle.optimizer.AdamW(0.1, parameters=net.parameters())
            >>> net(paddle.ones([1, 2])).sum().backward()
            >>> opt.step()
            >>> sd = opt.sharded_state_dict(net.sharded_state_dict())
            >>> sd['0.weight.moment1_0'].global_shape, sd['0.bias.beta1_pow_acc_0'].local_shape
            ((2, 3), (1,))
        """
        from pagaie.distributed.checkpoint import ShardedWeight

        def split_name(name: str) -> tuple[str, str]:
            # "<param>_fp32_master_0_<state>" or "<param>_<state>": the parameter's name and the state's
            if "fp32_master_0" in name:
                param, state = name.split("_fp32_master_0_", 1)
                return param, state
            for state in _SHARDED_STATES:
                if name.endswith(state):
                    return name[:-(len(state) + 1)], state
            raise ValueError(f"Cannot split variable name: {name}.")

        def like(key: str, tensor: Tensor, ref: Any) -> Any:
            # the state takes its parameter's place in the global tensor
            if tensor.is_dist():
                return ShardedWeight(key, tensor, tuple(tensor.shape), tuple(tensor.shape), ref.global_offset)
            if tuple(tensor.shape) != tuple(ref.local_shape):
                raise ValueError(f"Shape mismatch: new_local_tensor has shape {tensor.shape}, but expected "
                                 f"shape {ref.local_shape} (from reference_tensor.local_shape).")
            return ShardedWeight(key, tensor, tuple(ref.local_shape), tuple(ref.global_shape),
                                 tuple(ref.global_offset))

        state = self.state_dict()
        # parameter name -> structured key; with shared weights the first key (in sorted
        # order) holds the optimizer's state
        struct = {}
        for key, sw in sorted(model_sharded_state_dict.items()):
            struct.setdefault(sw.local_tensor.name, key)
        masters = state.pop("master_weights", None)
        state.pop("LR_Scheduler", None)
        out = {}
        for name, tensor in state.items():
            param, kind = split_name(name)
            key = struct[param]
            unified = f"{key}.{kind}"
            if "moment" in kind:
                out[unified] = like(unified, tensor, model_sharded_state_dict[key])
            else:
                out[unified] = ShardedWeight(unified, tensor, (1,), (1,), (0,))
        for param, tensor in (masters or {}).items():
            key = struct[param]
            out[f"{key}.w_0"] = like(f"{key}.w_0", tensor, model_sharded_state_dict[key])
        return out


# The state names AdamW's sharded state dict recognises (Paddle's list: its Momentum's
# velocity too).
_SHARDED_STATES = ("beta1_pow_acc_0", "beta2_pow_acc_0", "moment1_0", "moment2_0", "velocity_0")
