"""``paddle.static.amp.decorate``: mixed-precision training of static programs.

``decorate(optimizer)`` returns an :class:`OptimizerWithMixedPrecision`. Its
``minimize(loss)``:

1. rewrites the forward ops of ``loss``'s program (:func:`fp16_utils.rewrite_program`);
2. multiplies the loss by the loss scale (a persistable float32 value) and appends the
   backward of the scaled loss;
3. appends one graph op, ``pagaie.static_amp_step``: it unscales the gradients, skips the
   update when one is not finite, else hands them to the optimizer, then updates the
   scale by Paddle's ``update_loss_scaling`` rule (``decr_ratio`` after
   ``decr_every_n_nan_or_inf`` bad steps, not below 1; ``incr_ratio`` after
   ``incr_every_n_steps`` good steps, kept while finite).

Parameters stay float32 and feed the ops through casts, so the optimizer updates
float32 master weights at every level.
"""
from __future__ import annotations

import math
from typing import Any

import torch

import pagaie
from pagaie._core.tensor import Tensor, wrap
from pagaie._static.interpreter import _run_optimizer_step, register_graph_op
from pagaie.static.amp.fp16_lists import AutoMixedPrecisionLists, check_amp_dtype
from pagaie.static.amp.fp16_utils import rewrite_program
from pagaie.static.backward import append_backward, check_scalar_loss
from pagaie.utils import unique_name

__all__ = ["decorate", "OptimizerWithMixedPrecision"]


@register_graph_op("pagaie.static_amp_step")
def _run_amp_step(op: Any, args: list, kwargs: dict, plan: Any) -> None:
    amp = op.attrs["amp"]
    grads = args[1]
    scale = float(amp._loss_scaling._t.reshape(-1)[0])
    unscaled = [None if g is None else g.detach() / scale for g in grads]
    found_inf = any(g is not None and not bool(torch.isfinite(g).all()) for g in unscaled)
    if not found_inf:
        _run_optimizer_step(op, [args[0], unscaled], {}, plan)
    amp._update(found_inf)
    return None


class OptimizerWithMixedPrecision:
    """An optimizer whose ``minimize`` builds a mixed-precision training program.

    Made by :func:`decorate`; see its arguments.

    Examples:
        >>> import pagaie as paddle
        >>> sgd = paddle.optimizer.SGD(0.1, parameters=paddle.nn.Linear(2, 2).parameters())
        >>> opt = paddle.static.amp.decorate(sgd, dtype='bfloat16')
        >>> opt.get_loss_scaling().tolist()
        [1.0]
    """

    def __init__(self, optimizer: Any, amp_lists: Any, level: str, dtype: str, init_loss_scaling: float,
                 use_dynamic_loss_scaling: bool, incr_every_n_steps: int, decr_every_n_nan_or_inf: int,
                 incr_ratio: float, decr_ratio: float, use_amp_guard: bool = False,
                 use_promote: bool = False, use_master_grad: bool = False) -> None:
        self._optimizer = optimizer
        self._amp_lists = amp_lists
        self._amp_level = level
        self._amp_dtype = dtype
        self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
        self._init_loss_scaling = init_loss_scaling
        if dtype == "bfloat16" and (use_dynamic_loss_scaling or init_loss_scaling != 1.0):
            # as in Paddle: bfloat16 needs no loss scaling
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
        self._incr_every_n_steps = incr_every_n_steps
        self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
        self._incr_ratio = incr_ratio
        self._decr_ratio = decr_ratio
        self._use_amp_guard = use_amp_guard
        self._use_promote = use_promote
        self._use_master_grad = use_master_grad
        self._use_pure_fp16 = level == "O2"
        # an eager tensor whatever the mode: the program reads it as a persistable value
        self._loss_scaling = wrap(torch.tensor([float(self._init_loss_scaling)], dtype=torch.float32))
        self._good_steps = 0
        self._bad_steps = 0
        self._scaled_loss = None
        self._train_program = None

    def __getattr__(self, name: str) -> Any:
        # set_lr, get_lr, state_dict... come from the wrapped optimizer
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._optimizer, name)

    def get_loss_scaling(self) -> Tensor:
        """The current loss scale (a float32 tensor of one value)."""
        return self._loss_scaling

    def get_scaled_loss(self) -> Any:
        """The scaled loss value of the program built by :meth:`minimize` (None before)."""
        return self._scaled_loss

    def _update(self, found_inf: bool) -> None:
        if not self._use_dynamic_loss_scaling:
            return
        t = self._loss_scaling._t
        cur = float(t.reshape(-1)[0])
        if found_inf:
            self._good_steps = 0
            self._bad_steps += 1
            if self._bad_steps == self._decr_every_n_nan_or_inf:
                t.fill_(max(cur * self._decr_ratio, 1.0))
                self._bad_steps = 0
        else:
            self._bad_steps = 0
            self._good_steps += 1
            if self._good_steps == self._incr_every_n_steps:
                new = cur * self._incr_ratio
                t.fill_(new if math.isfinite(new) else cur)
                self._good_steps = 0

    def backward(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None, callbacks: Any = None) -> list:
        """Rewrite the forward for mixed precision, scale the loss and append its backward.

        Returns:
            list: the (parameter, gradient) pairs (gradients of the scaled loss).
        """
        check_scalar_loss(loss, "paddle.static.amp.decorate(...).backward")
        program = loss.block.program
        if self._train_program is not program:
            rewrite_program(program, self._amp_lists, self._amp_level, self._amp_dtype,
                            self._use_promote, self._use_amp_guard)
            self._train_program = program
        with pagaie.static.program_guard(program):
            lf = loss if loss.dtype == pagaie.float32 else loss.astype("float32")
            self._scaled_loss = lf * self._loss_scaling if (
                self._use_dynamic_loss_scaling or self._init_loss_scaling != 1.0) else lf
        pairs = append_backward(self._scaled_loss, parameter_list, no_grad_set)
        return [(p, g) for p, g in pairs if g is not None]  # (as Paddle's optimizer.backward)

    def apply_gradients(self, params_grads: list) -> list:
        """Append the unscale / check / update / rescale step for ``params_grads``; returns
        the operators appended (that one step op)."""
        params = [p for p, _ in params_grads]
        grads = [g for _, g in params_grads]
        for g in grads:
            g.stop_gradient = True
        if not params:
            return []
        block = params[0].block.program.global_block()
        return [block.append_op("pagaie.static_amp_step", [params, grads], {}, None,
                                {"optimizer": self._optimizer, "amp": self,
                                 "lr_name": unique_name.generate("learning_rate")})]

    def apply_optimize(self, loss: Any, startup_program: Any, params_grads: list) -> list:
        """Same as :meth:`apply_gradients` (``loss`` and ``startup_program`` are unused)."""
        return self.apply_gradients(params_grads)

    def minimize(self, loss: Any, startup_program: Any = None, parameter_list: Any = None,
                 no_grad_set: Any = None) -> tuple:
        """Build the mixed-precision training step of ``loss``'s program.

        Returns:
            tuple: (the operators appended: the one mixed-precision step op; the (parameter,
            gradient) pairs).
        """
        pairs = self.backward(loss, startup_program, parameter_list, no_grad_set)
        return self.apply_gradients(pairs), pairs

    def amp_init(self, place: Any, scope: Any = None, test_program: Any = None,
                 use_fp16_test: bool = False) -> None:
        """Prepare parameters after the startup program ran (Paddle casts them to the low
        dtype at O2). pagaie's programs cast float32 master parameters inside the program,
        so only ``test_program`` is rewritten, when ``use_fp16_test``."""
        if test_program is not None and use_fp16_test:
            rewrite_program(test_program, self._amp_lists, self._amp_level, self._amp_dtype,
                            self._use_promote, self._use_amp_guard)


def decorate(optimizer: Any, amp_lists: Any = None, level: str = "O1", dtype: str = "float16",
             master_weight: bool | None = None, master_grad: bool = False,
             init_loss_scaling: float = 2 ** 16, incr_every_n_steps: int = 2000,
             decr_every_n_nan_or_inf: int = 1, incr_ratio: float = 2.0, decr_ratio: float = 0.5,
             use_dynamic_loss_scaling: bool | None = None, use_amp_guard: bool = False,
             use_promote: bool = False) -> OptimizerWithMixedPrecision:
    """Wrap ``optimizer`` so that ``minimize`` trains the static program in mixed precision.

    Args:
        optimizer (Optimizer): the optimizer.
        amp_lists (AutoMixedPrecisionLists, optional): op lists (defaults for ``dtype``).
        level (str): ``'O1'`` (white ops low), ``'O2'`` (all but black ops low), ``'OD'``
            (only white ops low, the rest float32) or ``'O0'``.
        dtype (str): ``'float16'`` or ``'bfloat16'``.
        master_weight (bool, optional): kept for Paddle compatibility (parameters are
            always float32 masters in pagaie).
        master_grad (bool): kept for compatibility (gradients are float32).
        init_loss_scaling (float): the initial loss scale (1.0 for bfloat16).
        incr_every_n_steps (int): grow the scale after this many finite steps.
        decr_every_n_nan_or_inf (int): shrink it after this many non-finite steps.
        incr_ratio (float): growth factor.
        decr_ratio (float): shrink factor.
        use_dynamic_loss_scaling (bool, optional): default True for float16 only.
        use_amp_guard (bool): only rewrite ops under ``fp16_guard``.
        use_promote (bool): at O2, compute ops with a float32 input in float32.

    Returns:
        OptimizerWithMixedPrecision: the wrapped optimizer.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> paddle.enable_static()
        >>> main, startup = paddle.static.Program(), paddle.static.Program()
        >>> with paddle.static.program_guard(main, startup):
        ...     x = paddle.static.data('x', [4, 3], 'float32')
        ...     loss = paddle.mean(paddle.nn.Linear(3, 1)(x) ** 2)
        ...     opt = paddle.static.amp.decorate(paddle.optimizer.SGD(0.1), dtype='bfloat16')
        ...     _ = opt.minimize(loss)
        >>> exe = paddle.static.Executor(paddle.CPUPlace())
        >>> _ = exe.run(startup)
        >>> out = exe.run(main, feed={'x': np.ones((4, 3), 'float32')}, fetch_list=[loss])
        >>> out[0].dtype
        dtype('float32')
        >>> paddle.disable_static()
    """
    level = level.upper()
    if level not in ("O0", "OD", "O1", "O2"):
        raise ValueError("level should be O0, OD, O1 or O2.")
    dtype = check_amp_dtype(dtype)
    if amp_lists is None or level == "OD":
        amp_lists = AutoMixedPrecisionLists(dtype=dtype)
    if level == "OD":
        amp_lists.black_list = amp_lists.all_list - amp_lists.white_list
        level = "O1"
    if level == "O0":
        amp_lists = AutoMixedPrecisionLists(dtype=dtype)
        amp_lists.white_list = set()
        amp_lists.black_list = set(amp_lists.all_list)
    if use_dynamic_loss_scaling is None:
        use_dynamic_loss_scaling = dtype == "float16"
    return OptimizerWithMixedPrecision(
        optimizer, amp_lists, level=level, dtype=dtype, init_loss_scaling=init_loss_scaling,
        use_dynamic_loss_scaling=use_dynamic_loss_scaling, incr_every_n_steps=incr_every_n_steps,
        decr_every_n_nan_or_inf=decr_every_n_nan_or_inf, incr_ratio=incr_ratio,
        decr_ratio=decr_ratio, use_amp_guard=use_amp_guard, use_promote=use_promote,
        use_master_grad=master_grad)
