"""Callbacks run by ``paddle.Model.fit/evaluate/predict`` at each stage of the loop.

``config_callbacks`` assembles the list the loop uses: a ``ProgBarLogger`` first (when
``verbose``), the user's callbacks, then a ``ModelCheckpoint`` and an ``LRScheduler`` unless
the user gave their own.
"""
from __future__ import annotations

import numbers
import os
import time
import warnings
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import numpy as np

from pagaie.hapi.progressbar import ProgressBar

if TYPE_CHECKING:
    from pagaie.hapi.model import Model

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau", "WandbCallback"]

_MODES = ("train", "eval", "predict")


def _local_rank() -> int:
    """This process's rank among the trainers of a distributed job (0 when alone)."""
    return int(os.environ.get("PADDLE_TRAINER_ID", "0"))


def _scalar_of(value: Any) -> Any:
    """The number logged under a metric name (losses are lists), or None when not a number."""
    if isinstance(value, (list, tuple)):
        return value[0]
    if isinstance(value, numbers.Number):
        return value
    return None


def config_callbacks(callbacks: Any = None, model: Model | None = None, batch_size: int | None = None,
                     epochs: int | None = None, steps: int | None = None, log_freq: int = 2,
                     verbose: int = 2, save_freq: int = 1, save_dir: str | None = None,
                     metrics: list[str] | None = None, mode: str = "train") -> "CallbackList":
    """The callbacks of one fit/evaluate/predict run, with the default ones added."""
    cbks = list(callbacks if isinstance(callbacks, (list, tuple)) else
                ([callbacks] if callbacks else []))
    if verbose and not any(isinstance(k, ProgBarLogger) for k in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose)] + cbks
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = cbks + [ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = cbks + [LRScheduler()]
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    cbk_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps,
                         "verbose": verbose, "metrics": (metrics or []) if mode != "test" else []})
    return cbk_list


class CallbackList:
    """Calls each hook on every callback in order."""

    def __init__(self, callbacks: Sequence["Callback"]) -> None:
        self.callbacks = list(callbacks)
        self.params: dict = {}
        self.model: Model | None = None

    def append(self, callback: "Callback") -> None:
        self.callbacks.append(callback)

    def __iter__(self) -> Iterator["Callback"]:
        return iter(self.callbacks)

    def set_params(self, params: dict) -> None:
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model: Model | None) -> None:
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name: str, *args: Any) -> None:
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode: str) -> None:
        assert mode in _MODES, "mode should be train, eval or predict"

    def on_begin(self, mode: str, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode: str, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode: str, step: int | None = None, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode: str, step: int | None = None, logs: dict | None = None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class of callbacks: override the ``on_*`` hooks you need.

    ``self.model`` is the running ``paddle.Model`` and ``self.params`` holds ``batch_size``,
    ``epochs``, ``steps``, ``verbose`` and ``metrics`` (the logged names). Batch hooks get
    ``logs`` with the current loss/metrics, ``step`` and ``batch_size``; ``on_eval_end`` gets
    the evaluation results.

    Examples:
        >>> import pagaie as paddle
        >>> class CountEpochs(paddle.callbacks.Callback):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.seen = 0
        ...     def on_epoch_end(self, epoch, logs=None):
        ...         self.seen += 1
        >>> cb = CountEpochs()
        >>> cb.on_epoch_end(0)
        >>> cb.seen
        1
    """

    def __init__(self) -> None:
        self.model = None
        self.params: dict = {}

    def set_params(self, params: dict) -> None:
        """Receive the run's parameters (batch_size, epochs, steps, verbose, metrics)."""
        self.params = params

    def set_model(self, model: Any) -> None:
        """Receive the model being run."""
        self.model = model

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Called once before training."""

    def on_train_end(self, logs: dict | None = None) -> None:
        """Called once after training."""

    def on_eval_begin(self, logs: dict | None = None) -> None:
        """Called before an evaluation; ``logs`` has 'steps' and 'metrics'."""

    def on_eval_end(self, logs: dict | None = None) -> None:
        """Called after an evaluation with its results."""

    def on_predict_begin(self, logs: dict | None = None) -> None:
        """Called before prediction."""

    def on_predict_end(self, logs: dict | None = None) -> None:
        """Called after prediction."""

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        """Called at the start of each training epoch."""

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Called at the end of each training epoch with its last logs."""

    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None:
        """Called before each training batch."""

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        """Called after each training batch with its logs."""

    def on_eval_batch_begin(self, step: int, logs: dict | None = None) -> None:
        """Called before each evaluation batch."""

    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None:
        """Called after each evaluation batch with its logs."""

    def on_predict_batch_begin(self, step: int, logs: dict | None = None) -> None:
        """Called before each prediction batch."""

    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None:
        """Called after each prediction batch."""


class _Timer(dict):
    """Reader/batch time accumulators of one mode (shown with verbose=3)."""

    def __init__(self) -> None:
        super().__init__(data_time=0.0, batch_time=0.0, count=0, samples=0,
                         batch_start_time=time.time(), batch_data_end_time=time.time())


class ProgBarLogger(Callback):
    """Prints the progress of training, evaluation and prediction.

    Args:
        log_freq (int, optional): print every ``log_freq`` steps. Default 1.
        verbose (int, optional): 0 silent, 1 a progress bar redrawn in place, 2 one line per
            logged step, 3 as 2 plus reader/batch times and throughput. Default 2.

    Examples:
        >>> import pagaie as paddle
        >>> logger = paddle.callbacks.ProgBarLogger(log_freq=10, verbose=2)
        >>> logger.log_freq, logger.verbose
        (10, 2)
    """

    def __init__(self, log_freq: int = 1, verbose: int = 2) -> None:
        self.epochs: int | None = None
        self.steps: int | None = None
        self.progbar: ProgressBar | None = None
        self.verbose = verbose
        self.log_freq = log_freq

    def _is_print(self) -> bool:
        return bool(self.verbose) and _local_rank() == 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._train_timer = _Timer()
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is the "
                  "average value of previous steps.")

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def _updates(self, logs: dict, mode: str) -> None:
        names = getattr(self, f"{mode}_metrics")
        values = [(k, logs[k]) for k in names if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            cnt = timer["count"] if timer["count"] > 0 else 1.0
            samples = timer["samples"] if timer["samples"] > 0 else 1.0
            values.append(("avg_reader_cost", "%.5f sec" % (timer["data_time"] / cnt)))
            values.append(("avg_batch_cost", "%.5f sec" % (timer["batch_time"] / cnt)))
            spent = timer["data_time"] + timer["batch_time"]
            values.append(("ips", "%.5f samples/sec" % (samples / spent if spent else 0.0)))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, timer: dict) -> None:
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, timer: dict, logs: dict) -> None:
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += logs.get("batch_size", 1)

    def on_train_batch_begin(self, step: int, logs: dict | None = None) -> None:
        self._batch_begin(self._train_timer)

    def _step_end(self, mode: str, total: int | None, logs: dict, counter: str | None = None) -> None:
        """Count one batch of ``mode`` (and its samples in ``counter``) and log it when due."""
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        if counter is not None:
            setattr(self, counter, getattr(self, counter) + logs.get("batch_size", 1))
        timer = getattr(self, f"_{mode}_timer")
        self._batch_end(timer, logs)
        if self._is_print() and step % self.log_freq == 0 and (total is None or step < total):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()

    def _loop_begin(self, mode: str, counter: str, banner: str, logs: dict | None) -> None:
        """Reset the step, sample count, timer and progress bar of the eval/test loop."""
        logs = logs or {}
        steps = logs.get("steps", None)
        setattr(self, f"{mode}_steps", steps)
        setattr(self, f"{mode}_metrics", logs.get("metrics", []))
        setattr(self, f"{mode}_step", 0)
        setattr(self, counter, 0)
        setattr(self, f"_{mode}_timer", _Timer())
        setattr(self, f"{mode}_progbar", ProgressBar(num=steps, verbose=self.verbose))
        if self._is_print():
            print(banner)

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        self._step_end("train", self.steps, logs or {})

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self._is_print() and self.steps is not None:
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs: dict | None = None) -> None:
        self._loop_begin("eval", "evaled_samples", "Eval begin...", logs)

    def on_eval_batch_begin(self, step: int, logs: dict | None = None) -> None:
        self._batch_begin(self._eval_timer)

    def on_eval_batch_end(self, step: int, logs: dict | None = None) -> None:
        self._step_end("eval", self.eval_steps, logs or {}, "evaled_samples")

    def on_predict_begin(self, logs: dict | None = None) -> None:
        self._loop_begin("test", "tested_samples", "Predict begin...", logs)

    def on_predict_batch_begin(self, step: int, logs: dict | None = None) -> None:
        self._batch_begin(self._test_timer)

    def on_predict_batch_end(self, step: int, logs: dict | None = None) -> None:
        self._step_end("test", self.test_steps, logs or {}, "tested_samples")

    def on_eval_end(self, logs: dict | None = None) -> None:
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_end(self, logs: dict | None = None) -> None:
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves the model every ``save_freq`` epochs to ``save_dir/<epoch>`` and at the end of
    training to ``save_dir/final`` (``.pdparams`` and ``.pdopt`` files).

    Args:
        save_freq (int, optional): save every this many epochs. Default 1.
        save_dir (str, optional): the folder; nothing is saved when None.

    Examples:
        >>> import pagaie as paddle
        >>> ckpt = paddle.callbacks.ModelCheckpoint(save_freq=2, save_dir='./ckpt')
        >>> ckpt.save_freq, ckpt.save_dir
        (2, './ckpt')
    """

    def __init__(self, save_freq: int = 1, save_dir: str | None = None) -> None:
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.epoch = epoch

    def _is_save(self) -> bool:
        return bool(self.model and self.save_dir and _local_rank() == 0)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


def _step_scheduler(model: Any) -> None:
    from pagaie.optimizer.lr import LRScheduler as _Sched

    opt = getattr(model, "_optimizer", None)
    if opt and isinstance(getattr(opt, "_learning_rate", None), _Sched):
        opt._learning_rate.step()


class LRScheduler(Callback):
    """Steps the optimizer's learning-rate scheduler after every batch or every epoch.

    Args:
        by_step (bool, optional): step after each training batch. Default True.
        by_epoch (bool, optional): step after each epoch. Default False.

    Examples:
        >>> import pagaie as paddle
        >>> cb = paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)
        >>> cb.by_epoch
        True
    """

    def __init__(self, by_step: bool = True, by_epoch: bool = False) -> None:
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self.by_epoch:
            _step_scheduler(self.model)

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        if self.by_step:
            _step_scheduler(self.model)


class EarlyStopping(Callback):
    """Stops training when a monitored evaluation value stops improving.

    Args:
        monitor (str, optional): the evaluation log to watch ('loss' or a metric name).
        mode (str, optional): 'min', 'max', or 'auto' (max when the name contains 'acc').
        patience (int, optional): evaluations without improvement before stopping. Default 0.
        verbose (int, optional): print a message when stopping. Default 1.
        min_delta (float, optional): the smallest change that counts as an improvement.
        baseline (float, optional): the value to beat; None starts from +-inf.
        save_best_model (bool, optional): save the best model to ``save_dir/best_model``
            (``save_dir`` is the one given to ``fit``). Default True.

    Examples:
        >>> import pagaie as paddle
        >>> stop = paddle.callbacks.EarlyStopping(monitor='acc', patience=2)
        >>> stop.monitor_op.__name__
        'greater'
    """

    def __init__(self, monitor: str = "loss", mode: str = "auto", patience: int = 0,
                 verbose: int = 1, min_delta: float = 0, baseline: float | None = None,
                 save_best_model: bool = True) -> None:
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir: str | None = None
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        if mode == "min" or (mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = np.less
            self.min_delta *= -1
        else:
            self.monitor_op = np.greater

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op == np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs: dict | None = None) -> None:
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of EarlyStopping should be loss or metric name.")
            return
        current = _scalar_of(logs[self.monitor])
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by ``factor`` when a monitored evaluation value has not
    improved for ``patience`` evaluations (the optimizer's learning rate must be a float).

    Args:
        monitor (str, optional): the evaluation log to watch. Default 'loss'.
        factor (float, optional): the multiplier, below 1. Default 0.1.
        patience (int, optional): evaluations without improvement before reducing. Default 10.
        verbose (int, optional): print a message on each reduction. Default 1.
        mode (str, optional): 'min', 'max', or 'auto' (max when the name contains 'acc').
        min_delta (float, optional): the smallest change that counts as an improvement.
        cooldown (int, optional): evaluations to wait after a reduction. Default 0.
        min_lr (float, optional): the lower bound of the learning rate. Default 0.

    Examples:
        >>> import pagaie as paddle
        >>> cb = paddle.callbacks.ReduceLROnPlateau(monitor='loss', factor=0.5, patience=2)
        >>> cb.factor, cb.patience
        (0.5, 2)
    """

    def __init__(self, monitor: str = "loss", factor: float = 0.1, patience: int = 10,
                 verbose: int = 1, mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0,
                 min_lr: float = 0) -> None:
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self.epoch = 0
        self._reset()

    def _reset(self) -> None:
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, fallback to auto "
                          "mode.")
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._reset()

    def in_cooldown(self) -> bool:
        """Whether the cooldown after the last reduction is still running."""
        return self.cooldown_counter > 0

    def on_eval_end(self, logs: dict | None = None) -> None:
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        try:
            lr = self.model._optimizer._learning_rate
        except Exception as e:
            warnings.warn(f"There are something wrong when get learning_rate from optimizer: {e}.")
            return
        if not isinstance(lr, float):
            warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.")
            return
        current = _scalar_of(logs[self.monitor])
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = self.model._optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model._optimizer._learning_rate = new_lr
                    if self.verbose > 0 and _local_rank() == 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning "
                              f"rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


class _ScalarLogger(Callback):
    """What the callbacks sending scalars to a logging service share: the train/eval step
    bookkeeping, writing on the first local rank only, and picking the numeric logs."""

    def _is_write(self) -> bool:
        return _local_rank() == 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _scalars(self, logs: dict, mode: str) -> Iterator[tuple[str, Any]]:
        """``(tag, number)`` for each of ``mode``'s metrics found in ``logs`` as a number."""
        for k in getattr(self, f"{mode}_metrics"):
            if k in logs:
                value = _scalar_of(logs[k])
                if value is not None:
                    yield f"{mode}/{k}", value

    def _updates(self, logs: dict, mode: str) -> None:
        raise NotImplementedError

    def on_train_batch_end(self, step: int, logs: dict | None = None) -> None:
        self.train_step += 1
        if self._is_write():
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs: dict | None = None) -> None:
        logs = logs or {}
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0


class VisualDL(_ScalarLogger):
    """Logs training (per step) and evaluation (per epoch) losses and metrics as TensorBoard
    event files under ``log_dir`` (tags ``train/<name>`` and ``eval/<name>``), readable by
    TensorBoard and VisualDL.

    Args:
        log_dir (str): the folder for the event files.

    Examples:
        >>> import pagaie as paddle
        >>> cb = paddle.callbacks.VisualDL(log_dir='./logs')
        >>> cb.log_dir
        './logs'
    """

    def __init__(self, log_dir: str) -> None:
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0

    def _updates(self, logs: dict, mode: str) -> None:
        if not self._is_write():
            return
        if not hasattr(self, "writer"):
            from tensorboardX import SummaryWriter

            self.writer = SummaryWriter(self.log_dir)
        step = self.train_step if mode == "train" else self.epoch
        for tag, value in self._scalars(logs, mode):
            self.writer.add_scalar(tag, float(value), step)

    def _close(self) -> None:
        if hasattr(self, "writer"):
            self.writer.close()
            del self.writer

    def on_train_end(self, logs: dict | None = None) -> None:
        self._close()

    def on_eval_end(self, logs: dict | None = None) -> None:
        if self._is_write():
            self._updates(logs or {}, "eval")
            if not hasattr(self, "_is_fit"):
                self._close()


class WandbCallback(_ScalarLogger):
    """Logs losses and metrics to Weights & Biases (needs the ``wandb`` package).

    Args:
        project (str, optional): the wandb project.
        entity (str, optional): the wandb entity (user or team).
        name (str, optional): the run's display name.
        dir (str, optional): the local folder for wandb's files.
        mode (str, optional): 'online', 'offline' or 'disabled'.
        job_type (str, optional): the run's job type.
        **kwargs: further arguments of ``wandb.init``.

    Examples:
        >>> import pagaie as paddle
        >>> issubclass(paddle.callbacks.WandbCallback, paddle.callbacks.Callback)
        True
    """

    def __init__(self, project: str | None = None, entity: str | None = None,
                 name: str | None = None, dir: str | None = None, mode: str | None = None,
                 job_type: str | None = None, **kwargs: Any) -> None:
        from pagaie.utils import try_import

        self.wandb = try_import("wandb", "You want to use `wandb` which is not installed yet "
                                         "install it with `pip install wandb`")
        self.wandb_args = {"project": project, "name": name, "entity": entity, "dir": dir,
                           "mode": mode, "job_type": job_type, **kwargs}
        self._run = None
        _ = self.run

    @property
    def run(self) -> Any:
        """The wandb run (an existing one is reused)."""
        if self._is_write() and self._run is None:
            if self.wandb.run is not None:
                warnings.warn("There is a wandb run already in progress and newly created "
                              "instances of `WandbCallback` will reuse this run. If this is not "
                              "desired , call `wandb.finish()` before instantiating "
                              "`WandbCallback`.")
                self._run = self.wandb.run
            else:
                self._run = self.wandb.init(**self.wandb_args)
        return self._run

    def on_train_begin(self, logs: dict | None = None) -> None:
        super().on_train_begin(logs)
        if self._is_write():
            self.run.define_metric("train/step")
            self.run.define_metric("train/*", step_metric="train/step")
            self.run.define_metric("epoch")
            self.run.define_metric("eval/*", step_metric="epoch")

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs: dict, mode: str) -> None:
        if not self._is_write():
            return
        if mode == "train":
            record: dict = {"train/step": self.train_step}
        else:
            record = {"epoch": self.epoch}
        record.update(self._scalars(logs, mode))
        self.run.log(record)

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._is_write():
            self.run.finish()

    def on_eval_end(self, logs: dict | None = None) -> None:
        if self._is_write():
            self._updates(logs or {}, "eval")
            if not hasattr(self, "_is_fit") and self._run is not None:
                self.run.finish()
                self._run = None
