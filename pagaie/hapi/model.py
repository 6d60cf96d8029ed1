"""``paddle.Model``: the high-level training loop (fit / evaluate / predict / save / load).

The loop runs eagerly: each batch goes through ``train_batch`` / ``eval_batch`` /
``predict_batch``; callbacks (``pagaie.hapi.callbacks``) do the printing, checkpointing and
learning-rate stepping. Checkpoints are Paddle's own ``.pdparams`` / ``.pdopt`` files.

A Model created in static mode (Paddle's static-graph adapter) runs the same eager loop: a
pagaie Layer built in static mode holds real parameters, so each public method switches
static recording off while it runs (:func:`_eager`) and gives Paddle's numbers; only the
files differ where Paddle's static adapter writes another layout (``.pdopt`` always, with
numpy values and the ``learning_rate_0`` variable).
"""
from __future__ import annotations

import functools
import inspect
import os
import pickle
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import numpy as np

import pagaie as paddle
from pagaie._core.tensor import Tensor
from pagaie.hapi.callbacks import EarlyStopping, config_callbacks
from pagaie.metric.metrics import Metric
from pagaie.static.input_spec import InputSpec as Input

__all__ = ["Model"]

_AMP_SCALER_KEYS = frozenset({"init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps",
                              "decr_every_n_nan_or_inf", "use_dynamic_loss_scaling",
                              "use_fp16_guard"})

# One logs dict for every epoch of every Model, as Paddle's ``_run_one_epoch`` (whose
# ``logs={}`` default is shared): the dict a callback kept from a training epoch shows the
# values of the evaluation after it (``on_train_end`` gets them), and keys stay in the order
# they were first written.
_EPOCH_LOGS: dict = {}

_AMP_LIST_KEYS = ("custom_white_list", "custom_black_list", "custom_black_varnames")


@contextmanager
def _eager() -> Iterator[None]:
    """Switch static recording off for the block (a no-op in dynamic mode). Unlike
    ``paddle.base.dygraph.guard`` it keeps the unique-name counters, so the optimizer's
    accumulators get the names Paddle's static adapter gives them."""
    from pagaie._core.registry import pop_handler, push_handler
    from pagaie.static import framework as fw
    state = fw._S
    if not state.enabled:
        yield
        return
    state.enabled = False
    recorder = state.recorder
    if recorder is not None:
        pop_handler(recorder.handler)
    try:
        yield
    finally:
        state.enabled = True
        if recorder is not None:
            push_handler(recorder.handler)


def _eagerly(method: Callable) -> Callable:
    """Run a Model method under :func:`_eager`."""
    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _eager():
            return method(self, *args, **kwargs)
    return wrapper


def _to_list(value: Any) -> list | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _to_numpy(t: Any) -> np.ndarray:
    assert isinstance(t, Tensor), "not a variable"
    return np.array(t.numpy())


def _flatten(data: Any) -> list:
    """The leaves of a nested batch (lists, tuples, dicts in key order)."""
    if isinstance(data, (list, tuple)):
        return [leaf for item in data for leaf in _flatten(item)]
    if isinstance(data, dict):
        return [leaf for k in sorted(data) for leaf in _flatten(data[k])]
    return [data]


def _input_info(inputs: Any) -> tuple[list, list] | None:
    """(shapes, dtypes) of the given inputs or input specs."""
    if isinstance(inputs, Input):
        return [list(inputs.shape)], [inputs.dtype]
    if isinstance(inputs, (list, tuple)):
        return [list(x.shape) for x in inputs], [x.dtype for x in inputs]
    if isinstance(inputs, dict):
        return [list(x.shape) for x in inputs.values()], [x.dtype for x in inputs.values()]
    return None


def _forward_arg_names(network: Any) -> list[str]:
    return inspect.getfullargspec(network.forward).args[1:]


def _pickled_dict_nonempty(path: str) -> bool:
    """Whether the pickle at ``path`` holds a non-empty object (entries ``paddle.load`` strips,
    such as the structured-name table, count)."""
    with open(path, "rb") as f:
        return bool(pickle.load(f, encoding="latin1"))


def _is_dataset(data: Any) -> bool:
    from pagaie import io

    ds = getattr(io, "Dataset", None)
    return ds is not None and isinstance(data, ds)


def _make_loader(data: Any, batch_size: int, shuffle: bool = False, drop_last: bool = False,
                 num_workers: int = 0) -> Any:
    """Wrap a Dataset in a DataLoader (what fit/evaluate/predict do with datasets)."""
    if not _is_dataset(data):
        return data
    from pagaie import io

    sampler_cls = getattr(io, "DistributedBatchSampler", None) or io.BatchSampler
    sampler = sampler_cls(data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
    return io.DataLoader(data, batch_sampler=sampler, num_workers=num_workers, return_list=True)


def _len_of(loader: Any) -> int | None:
    try:
        return len(loader)
    except Exception:
        return None


class Model:
    """Wraps a ``paddle.nn.Layer`` with a training loop: ``prepare`` it with an optimizer,
    a loss and metrics, then ``fit``, ``evaluate``, ``predict``, ``save`` and ``load``.

    Args:
        network (paddle.nn.Layer): the network.
        inputs (InputSpec|list[InputSpec]|dict, optional): the network's inputs; needed to
            export an inference model before any data has been seen. When None, the shapes
            are taken from the first batch.
        labels (InputSpec|list[InputSpec], optional): the labels.

    Examples:
        >>> import numpy as np
        >>> import pagaie as paddle
        >>> _ = paddle.seed(0)
        >>> net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
        >>> model = paddle.Model(net)
        >>> model.prepare(paddle.optimizer.Adam(0.01, parameters=model.parameters()),
        ...               paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
        >>> x = np.random.rand(8, 4).astype('float32'); y = (x.sum(1, keepdims=True) > 2).astype('int64')
        >>> loss, acc = model.train_batch([x], [y])
        >>> loss[0].shape, len(acc)
        ((), 1)
    """

    def __init__(self, network: Any, inputs: Any = None, labels: Any = None) -> None:
        self._static_graph = not paddle.in_dynamic_mode()
        if self._static_graph and not isinstance(inputs, (list, tuple, dict, Input)):
            raise TypeError("'inputs' must be list or tuple or dict, and couldn't be None.")
        self.mode = "train"
        self.network = network
        self._inputs = None
        self._labels = None
        self._loss = None
        self._loss_weights = None
        self._optimizer = None
        # no ``_metrics`` until prepare(): as in Paddle, fit / evaluate / predict / eval_batch
        # of a model that was never prepared raise AttributeError
        self._input_info = _input_info(inputs) if inputs else None
        self._is_shape_inferred = False
        self._test_dataloader = None
        self._scaler = None
        self._amp_level = "O0"
        self._amp_configs: dict = {}
        self._amp_custom_lists: dict = {}
        self._batch_input_info = None
        self._accumulate = 1
        self.stop_training = False
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)

    # ---- one batch ------------------------------------------------------------------
    def _compute_metrics(self, outputs: list, labels: list) -> list:
        results = []
        for metric in self._metrics:
            outs = metric.compute(*(outputs + labels))
            results.append(metric.update(*[_to_numpy(m) for m in _to_list(outs)]))
        return results

    def _after_batch(self) -> None:
        if self._input_info is None:
            self._update_inputs()

    @_eagerly
    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        """Run one optimisation step on a batch.

        Args:
            inputs (Tensor|numpy.ndarray|list): the network inputs.
            labels (Tensor|numpy.ndarray|list, optional): the labels, passed to the loss.
            update (bool, optional): apply the optimizer and clear gradients (False only
                accumulates gradients). Default True.

        Returns:
            list: the losses as numpy arrays, or ``(losses, metrics)`` with the batch value
            of each metric when metrics are set.
        """
        assert self._optimizer, "model not ready, please call `model.prepare()` first"
        if self._loss is None:
            raise TypeError("paddle.Model.train_batch: no loss is set; pass 'loss' to "
                            "model.prepare() before training")
        self.network.train()
        self.mode = "train"
        inputs = _to_list(inputs)
        self._batch_input_info = _input_info(inputs)
        # Paddle's ``labels or []``: a bare array or Tensor of several labels fails its truth
        # test (wrap it in a list), and a falsy one-element label is dropped
        labels = [paddle.to_tensor(lab) for lab in _to_list(labels or [])]
        if self._amp_level != "O0" and self._scaler is None:
            self._scaler = paddle.amp.GradScaler(**self._amp_configs)
        with paddle.amp.auto_cast(enable=self._amp_level != "O0", level=self._amp_level,
                                  **self._amp_custom_lists):
            outputs = self.network(*[paddle.to_tensor(x) for x in inputs])
        outputs = _to_list(outputs)
        losses = _to_list(self._loss(*(outputs + labels)))
        final_loss = paddle.add_n(losses)
        if self._amp_level != "O0":
            scaled = self._scaler.scale(final_loss)
            scaled.backward()
            if update:
                self._scaler.minimize(self._optimizer, scaled)
                self.network.clear_gradients()
        else:
            final_loss.backward()
            if update:
                self._optimizer.minimize(final_loss)
                self.network.clear_gradients()
        metrics = self._compute_metrics(outputs, labels)
        self._after_batch()
        loss_values = [_to_numpy(loss) for loss in losses]
        return (loss_values, metrics) if metrics else loss_values

    @_eagerly
    def eval_batch(self, inputs: Any, labels: Any = None) -> Any:
        """Evaluate one batch (no gradients).

        Args:
            inputs (Tensor|numpy.ndarray|list): the network inputs.
            labels (Tensor|numpy.ndarray|list, optional): the labels.

        Returns:
            list: the losses (numpy), ``(losses, metrics)`` when both are set, or only the
            metrics' batch values when there is no loss.
        """
        with paddle.no_grad():
            self.network.eval()
            self.mode = "eval"
            inputs = _to_list(inputs)
            self._batch_input_info = _input_info(inputs)
            labels = [paddle.to_tensor(lab) for lab in _to_list(labels or [])]  # as train_batch
            outputs = _to_list(self.network(*[paddle.to_tensor(x) for x in inputs]))
            losses = _to_list(self._loss(*(outputs + labels))) if self._loss else None
            metrics = self._compute_metrics(outputs, labels)
        self._after_batch()
        if self._loss and metrics:
            return [_to_numpy(loss) for loss in losses], metrics
        if self._loss:
            return [_to_numpy(loss) for loss in losses]
        return metrics

    @_eagerly
    def predict_batch(self, inputs: Any) -> list[np.ndarray]:
        """Run the network on one batch (no gradients).

        Args:
            inputs (Tensor|numpy.ndarray|list): the network inputs.

        Returns:
            list[numpy.ndarray]: the network outputs.
        """
        with paddle.no_grad():
            self.network.eval()
            self.mode = "test"
            inputs = [paddle.to_tensor(x) for x in _to_list(inputs)]
            self._batch_input_info = _input_info(inputs)
            outputs = self.network(*inputs)
        self._after_batch()
        return [_to_numpy(o) for o in _to_list(outputs)]

    # ---- save / load ----------------------------------------------------------------
    @_eagerly
    def save(self, path: str, training: bool = True) -> None:
        """Save the model.

        Args:
            path (str): the path prefix, e.g. ``'checkpoint/epoch_1'``.
            training (bool, optional): True writes ``path.pdparams`` (parameters) and
                ``path.pdopt`` (optimizer state, when it has any) to resume training; False
                exports an inference model with ``paddle.jit.save``. Default True.
        """
        if int(os.environ.get("PADDLE_TRAINER_ID", "0")) != 0:
            return
        if not training:
            self._save_inference_model(path)
            return
        if self._static_graph:
            self._static_save(path)
            return
        paddle.save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None:
            state = self._optimizer.state_dict()
            if state:
                paddle.save(state, path + ".pdopt")
        if self._scaler is not None:
            state = self._scaler.state_dict()
            if state:
                paddle.save(state, path + ".pdscaler")

    def _static_save(self, path: str) -> None:
        """Save as Paddle's static-graph adapter does: pickled dicts of numpy arrays, the
        parameters under their structured names, and the optimizer's persistable variables
        (its accumulators, newest first, and a fixed learning rate as ``learning_rate_0``)."""
        params = {k: _to_numpy(v) for k, v in self.network.state_dict().items()}
        if params:
            paddle.save(params, path + ".pdparams")
        if self._optimizer is None:
            return
        accumulators = [(k, v) for k, v in self._optimizer.state_dict().items() if isinstance(v, Tensor)]
        owner = {p.name: i for i, p in enumerate(self.network.parameters())}
        rank = {k: i for i, (k, _) in enumerate(accumulators)}

        def order(item: tuple) -> tuple:
            name = item[0]
            param = max((p for p in owner if name.startswith(p + "_")), key=len, default="")
            return (-owner.get(param, -1), -rank[name])
        state = {k: _to_numpy(v) for k, v in sorted(accumulators, key=order)}
        if not isinstance(self._optimizer._learning_rate, paddle.optimizer.lr.LRScheduler):
            state["learning_rate_0"] = np.array(self._optimizer.get_lr(), dtype="float32")
        paddle.save(state, path + ".pdopt")

    def _save_inference_model(self, path: str) -> None:
        from pagaie import jit
        if self._input_info is None:
            raise RuntimeError("Saving inference model needs 'inputs' or running before saving. "
                               "Please specify 'inputs' in Model initialization or input training "
                               "data and perform a training for shape derivation.")
        if self._is_shape_inferred:
            warnings.warn("'inputs' was not specified when Model initialization, so the input "
                          "shape to be saved will be the shape derived from the user's actual "
                          f"inputs. The input shape to be saved is {self._input_info[0]}. For "
                          "saving correct input shapes, please provide 'inputs' for Model "
                          "initialization.")
        jit.save(self.network, path, input_spec=self._inputs)

    @_eagerly
    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        """Load parameters (and optimizer state) saved by :meth:`save`, pagaie's or Paddle's.

        Args:
            path (str): the path prefix (a ``.pdparams`` / ``.pdopt`` suffix is also accepted).
            skip_mismatch (bool, optional): skip parameters that are missing or have another
                shape (with a warning) instead of raising ValueError. Default False.
            reset_optimizer (bool, optional): do not restore the optimizer state. Default False.
        """
        root, ext = os.path.splitext(path)
        assert ext in ("", ".pdparams", ".pdopt", ".pdmodel"), f"Unknown postfix {ext} from weights"
        path = root if ext else path

        def read(p: str) -> Any:
            return paddle.load(p, return_numpy=True) if os.path.exists(p) else None

        param_state = read(path + ".pdparams")
        # As Paddle, the test is on the pickled dict itself: the name table ``paddle.save``
        # adds makes the file of an empty state dict (a network without parameters) pass;
        # only a missing or really empty file fails.
        found = param_state or (param_state is not None
                                and _pickled_dict_nonempty(path + ".pdparams"))
        assert found, "Failed to load parameters, please check path."
        matched = []
        for key, param in self.network.state_dict().items():
            state = param_state.get(key)
            try:
                if state is None:
                    raise ValueError(f"{key} is not found in the providing file.")
                if list(np.shape(state)) != list(param.shape):
                    raise ValueError(f"{key} receives a shape {list(np.shape(state))}, but the "
                                     f"expected shape is {list(param.shape)}.")
            except ValueError as err:
                if not skip_mismatch:
                    raise
                warnings.warn(f"Skip loading for {key}. " + str(err))
                reset_optimizer = True
                continue
            matched.append((param, state))
        optim_state = None if reset_optimizer else read(path + ".pdopt")
        for param, state in matched:
            param.set_value(state)
        if self._scaler is not None and os.path.exists(path + ".pdscaler"):
            self._scaler.load_state_dict(paddle.load(path + ".pdscaler"))
        if self._optimizer and optim_state:
            self._optimizer.set_state_dict(self._convert_optim_state(optim_state))

    def _convert_optim_state(self, optim_state: dict) -> dict:
        """Also accept optimizer states saved under static-graph accumulator names."""
        converted = dict(optim_state)
        unique = self._optimizer._name or ""
        cls_name = self._optimizer.__class__.__name__
        opt_name = unique[:unique.rfind("_")]
        param_names = [p.name for p in self.network.parameters()]
        for var_name, value in sorted(optim_state.items(), key=lambda kv: len(kv[0]), reverse=True):
            if var_name == "@LR_DECAY_COUNTER@":
                converted["global_step"] = np.array(converted.pop(var_name)) + 1
                continue
            if var_name == "global_step":
                continue
            for pname in param_names:
                if var_name.startswith(pname + "_" + opt_name):
                    accum = var_name[len(pname + "_" + opt_name + "_"):]
                elif var_name.startswith(pname + "_") and opt_name == cls_name:
                    accum = var_name[len(pname + "_"):]
                else:
                    continue
                accum = accum[:accum.rfind("_")]
                converted[f"{pname}_{unique}_{accum}_0"] = value
        return converted

    def parameters(self, *args: Any, **kwargs: Any) -> list:
        """The network's parameters.

        Returns:
            list[Parameter]: all parameters of the network.
        """
        return self.network.parameters()

    # ---- prepare --------------------------------------------------------------------
    def _prepare_amp(self, amp_configs: Any) -> None:
        self._amp_custom_lists = {}
        self._amp_configs = {}
        if not amp_configs:
            self._amp_level = "O0"
            return
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("The level of amp_configs should be 'O0', 'O1' or 'O2'.")
            self._amp_level = amp_configs
            self._check_pure_fp16()
            return
        if not isinstance(amp_configs, dict):
            raise TypeError("paddle.Model.prepare: 'amp_configs' must be a str ('O0', 'O1', 'O2') "
                            f"or a dict, but received {type(amp_configs).__name__}: "
                            f"{amp_configs!r}")
        level = amp_configs.get("level", "O1")
        if level not in ("O0", "O1", "O2"):
            raise ValueError("amp_configs['level'] should be 'O0', 'O1' or 'O2'.")
        self._amp_level = level
        keys = set(amp_configs) - {"level"}
        if not keys or level == "O0":
            return
        if "use_pure_fp16" in amp_configs:
            raise ValueError("'use_pure_fp16' is an invalid parameter, the level of mixed precision "
                             "training only depends on 'O1' or 'O2'.")
        self._check_pure_fp16()
        for key in _AMP_LIST_KEYS:
            if key in keys:
                keys.discard(key)
                if key != "custom_black_varnames":  # a static-graph option, unused eagerly
                    self._amp_custom_lists[key] = amp_configs[key]
        unknown = keys - _AMP_SCALER_KEYS
        if unknown:
            raise ValueError("Except for 'level', the keys of 'amp_configs' must be accepted by "
                             "mixed precision APIs, but " + str(tuple(unknown)) +
                             " could not be recognized.")
        if "use_fp16_guard" in keys and not self._static_graph:
            raise ValueError("'use_fp16_guard' is supported in static graph mode only.")
        self._amp_configs = {k: amp_configs[k] for k in keys - {"use_fp16_guard"}}

    def _check_pure_fp16(self) -> None:
        clip = getattr(self._optimizer, "_grad_clip", None)
        if self._amp_level == "O2" and clip:
            assert isinstance(clip, (paddle.nn.ClipGradByGlobalNorm, paddle.nn.ClipGradByNorm)), \
                "Only ClipGradByNorm and ClipGradByGlobalNorm are supported in amp training with " \
                "level=O2 currently."

    @_eagerly
    def prepare(self, optimizer: Any = None, loss: Any = None, metrics: Any = None,
                amp_configs: Any = None) -> None:
        """Set the optimizer, loss, metrics and mixed-precision mode.

        Args:
            optimizer (paddle.optimizer.Optimizer, optional): needed to train.
            loss (paddle.nn.Layer|callable, optional): called as ``loss(*outputs, *labels)``;
                needed to train.
            metrics (Metric|list[Metric], optional): evaluated on every batch.
            amp_configs (str|dict, optional): 'O1' or 'O2' for mixed precision; or a dict with
                'level', 'custom_white_list', 'custom_black_list' and GradScaler options
                ('init_loss_scaling', 'incr_ratio', 'decr_ratio', 'incr_every_n_steps',
                'decr_every_n_nan_or_inf', 'use_dynamic_loss_scaling').
        """
        self._optimizer = optimizer
        if loss is not None and not isinstance(loss, paddle.nn.Layer) and not callable(loss):
            raise TypeError("'loss' must be sub classes of `paddle.nn.Layer` or any callable "
                            "function.")
        self._loss = loss
        metrics = _to_list(metrics) or []
        for metric in metrics:
            assert isinstance(metric, Metric), \
                f"{metric.__class__.__name__} is not sub class of Metric"
        self._metrics = metrics
        self._prepare_amp(amp_configs)
        if self._amp_level == "O2" and self.mode == "train" and \
                paddle.device.is_compiled_with_cuda():
            self.network, self._optimizer = paddle.amp.decorate(
                models=self.network, optimizers=self._optimizer, level="O2")
        if self._amp_level != "O0":
            self._scaler = None

    # ---- loops ----------------------------------------------------------------------
    @_eagerly
    def fit(self, train_data: Any = None, eval_data: Any = None, batch_size: int | list = 1,
            epochs: int = 1, eval_freq: int = 1, log_freq: int = 10, save_dir: str | None = None,
            save_freq: int = 1, verbose: int = 2, drop_last: bool = False, shuffle: bool = True,
            num_workers: int = 0, callbacks: Any = None, accumulate_grad_batches: int = 1,
            num_iters: int | None = None) -> None:
        """Train for ``epochs`` epochs, evaluating every ``eval_freq`` epochs.

        Args:
            train_data (Dataset|DataLoader): the training data; a Dataset is batched with
                ``batch_size``, ``shuffle`` and ``drop_last``.
            eval_data (Dataset|DataLoader, optional): the evaluation data.
            batch_size (int|list, optional): the batch size, or [train, eval] sizes. Default 1.
            epochs (int, optional): number of epochs. Default 1.
            eval_freq (int, optional): evaluate every this many epochs. Default 1.
            log_freq (int, optional): print every this many steps. Default 10.
            save_dir (str, optional): save a checkpoint there every ``save_freq`` epochs and
                at the end (``<epoch>`` and ``final``).
            save_freq (int, optional): checkpoint frequency in epochs. Default 1.
            verbose (int, optional): 0 silent, 1 progress bar, 2 one line per log. Default 2.
            drop_last (bool, optional): drop the last incomplete batch. Default False.
            shuffle (bool, optional): shuffle the training Dataset. Default True.
            num_workers (int, optional): data-loading worker processes. Default 0.
            callbacks (Callback|list[Callback], optional): extra callbacks.
            accumulate_grad_batches (int, optional): apply the optimizer every this many
                batches (gradients accumulate in between). Default 1.
            num_iters (int, optional): stop after this many training steps.
        """
        assert train_data is not None, "train_data must be given!"
        if isinstance(batch_size, (tuple, list)) and all(isinstance(x, int) for x in batch_size):
            assert len(batch_size) == 2, \
                "batch_size length error, expected train_batch_size and eval_batch_size."
            train_bs, eval_bs = batch_size
        else:
            train_bs = eval_bs = batch_size
        train_loader = _make_loader(train_data, train_bs, shuffle, drop_last, num_workers)
        eval_loader = _make_loader(eval_data, eval_bs, num_workers=num_workers) \
            if eval_data is not None else None
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = _len_of(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps,
                                log_freq=log_freq, save_freq=save_freq, save_dir=save_dir,
                                verbose=verbose, metrics=self._metrics_name())
        if any(isinstance(k, EarlyStopping) for k in cbks) and not do_eval:
            warnings.warn("EarlyStopping needs validation data.")
        logs: dict = {}
        cbks.on_begin("train")
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": _len_of(eval_loader),
                                       "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    @_eagerly
    def evaluate(self, eval_data: Any, batch_size: int = 1, log_freq: int = 10, verbose: int = 2,
                 num_workers: int = 0, callbacks: Any = None,
                 num_iters: int | None = None) -> dict[str, Any]:
        """Evaluate the loss and metrics over a dataset.

        Args:
            eval_data (Dataset|DataLoader): the data.
            batch_size (int, optional): batch size for a Dataset. Default 1.
            log_freq (int, optional): print every this many steps. Default 10.
            verbose (int, optional): 0 silent, 1 progress bar, 2 one line per log. Default 2.
            num_workers (int, optional): data-loading worker processes. Default 0.
            callbacks (Callback|list[Callback], optional): extra callbacks.
            num_iters (int, optional): evaluate at most this many batches.

        Returns:
            dict: ``{'loss': [value], <metric name>: value, ...}``.
        """
        eval_loader = _make_loader(eval_data, batch_size, num_workers=num_workers)
        self._test_dataloader = eval_loader
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        eval_steps = _len_of(eval_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(eval_steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            eval_steps = min(num_iters, eval_steps)
            self.num_iters = eval_steps
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(eval_loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name()}

    @_eagerly
    def predict(self, test_data: Any, batch_size: int = 1, num_workers: int = 0,
                stack_outputs: bool = False, verbose: int = 1, callbacks: Any = None) -> list:
        """Run the network over a dataset.

        Args:
            test_data (Dataset|DataLoader): the data (labels, if any, are ignored when the
                model knows its inputs).
            batch_size (int, optional): batch size for a Dataset. Default 1.
            num_workers (int, optional): data-loading worker processes. Default 0.
            stack_outputs (bool, optional): concatenate each output over batches (True), or
                keep one array per batch (False). Default False.
            verbose (int, optional): 0 silent, 1 progress bar, 2 one line per log. Default 1.
            callbacks (Callback|list[Callback], optional): extra callbacks.

        Returns:
            list: one entry per network output: a tuple of per-batch arrays, or one stacked
            array when ``stack_outputs``.
        """
        test_loader = _make_loader(test_data, batch_size, num_workers=num_workers)
        self._test_dataloader = test_loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": _len_of(test_loader)})
        logs, outputs = self._run_one_epoch(test_loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader: Any, callbacks: Any, mode: str) -> Any:
        logs = _EPOCH_LOGS
        outputs = []
        n_batches = _len_of(data_loader)
        n_inputs = len(self._inputs)
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            batch_size = data[0].shape()[0] if callable(data[0].shape) else data[0].shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                args = [data[:n_inputs], data[n_inputs:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == n_batches)
                outs = getattr(self, mode + "_batch")(*args)
                if self._metrics and self._loss:
                    values = [[float(v) for v in outs[0]]]
                elif self._loss:
                    values = [[float(v) for v in outs]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(_to_list(metric.accumulate()))
                names = self._metrics_name()
                assert len(names) == len(values)
                logs.update(zip(names, values))
            else:
                outs = self.predict_batch(data[:n_inputs] if self._inputs is not None else data)
                outputs.append(outs)
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if getattr(self, "num_iters", None) is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    del self.num_iters
                    break
        self._reset_metrics()
        return (logs, outputs) if mode == "predict" else logs

    # ---- introspection --------------------------------------------------------------
    @_eagerly
    def summary(self, input_size: Any = None, dtype: Any = None) -> dict[str, int]:
        """Print the network's layer table (see ``paddle.summary``).

        Args:
            input_size (tuple|InputSpec|list, optional): the input shape(s); the Model's
                ``inputs`` when None.
            dtype (str, optional): the input dtype. Default 'float32'.

        Returns:
            dict: ``{'total_params': ..., 'trainable_params': ...}``.
        """
        from pagaie.hapi.model_summary import summary

        assert input_size is not None or self._inputs is not None, \
            "'input_size' or 'self._input' must be set"
        return summary(self.network, input_size if input_size is not None else self._inputs,
                       dtypes=dtype)

    def _verify_spec(self, specs: Any, shapes: Any = None, dtypes: Any = None,
                     is_input: bool = False) -> list:
        if specs is None:
            if is_input:
                names = _forward_arg_names(self.network)
                if shapes is not None and dtypes is not None:
                    out = [Input(name=n, dtype=dtypes[i], shape=shapes[i])
                           for i, n in enumerate(names)]
                else:
                    out = [Input(name=n, shape=[None]) for n in names]
            else:
                out = []
        elif isinstance(specs, dict):
            assert is_input is False
            out = [specs[n] for n in inspect.getfullargspec(self.network.forward).args
                   if n != "self"]
        else:
            out = _to_list(specs)
        for i, spec in enumerate(out):
            assert isinstance(spec, Input)
            if spec.name is None:
                raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with {spec}.")
        return out

    def _reset_metrics(self) -> None:
        for metric in self._metrics:
            metric.reset()

    def _metrics_name(self) -> list[str]:
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    def _update_inputs(self) -> None:
        self._input_info = self._batch_input_info
        if self._input_info is not None and len(self._input_info) == 2:
            self._inputs = self._verify_spec(None, self._input_info[0], self._input_info[1], True)
            self._is_shape_inferred = True
