"""Step-wise decoding: the ``Decoder`` interface, ``BeamSearchDecoder`` and ``dynamic_decode``.

A decoder says how to start (``initialize``), advance one step (``step``) and tidy up
(``finalize``); ``dynamic_decode`` runs it until every sequence has finished or
``max_step_num`` is exceeded. Written over public tensor ops, so it runs in any mode that
supports Python loops over eager values.
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, NamedTuple

import pagaie as _pg
from pagaie._core import dtype as _dt
from pagaie._ops.nn_misc import gather_tree
from pagaie.nn.layer.rnn import _flatten, _map

__all__ = ["Decoder", "BeamSearchDecoder", "dynamic_decode"]


class Decoder:
    """Base class of decoders used by :func:`dynamic_decode`.

    Subclasses implement ``initialize(inits) -> (inputs, states, finished)``,
    ``step(time, inputs, states, **kwargs) -> (outputs, next_states, next_inputs, finished)``
    and optionally ``finalize(outputs, final_states, sequence_lengths)``.
    """

    def initialize(self, inits: Any) -> tuple:
        raise NotImplementedError

    def step(self, time: Any, inputs: Any, states: Any, **kwargs: Any) -> tuple:
        raise NotImplementedError

    def finalize(self, outputs: Any, final_states: Any, sequence_lengths: Any) -> tuple:
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        """Whether the decoder keeps its own finished flags and lengths (then dynamic_decode
        does not)."""
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over an RNN cell.

    Args:
        cell (RNNCellBase): the cell run at each step on ``[batch * beam, ...]`` inputs.
        start_token (int): id fed at the first step.
        end_token (int): id that finishes a beam.
        beam_size (int): beams per batch entry.
        embedding_fn (callable, optional): ids -> cell inputs.
        output_fn (callable, optional): cell outputs -> logits over the vocabulary.

    Examples:
        >>> import pagaie as paddle
        >>> emb = paddle.nn.Embedding(10, 8)
        >>> decoder = paddle.nn.BeamSearchDecoder(paddle.nn.GRUCell(8, 16), start_token=0, end_token=1,
        ...     beam_size=3, embedding_fn=emb, output_fn=paddle.nn.Linear(16, 10))
        >>> ids, states = paddle.nn.dynamic_decode(decoder, inits=paddle.zeros([2, 16]), max_step_num=4)
        >>> ids.shape[0], ids.shape[2]
        (2, 3)
    """

    class OutputWrapper(NamedTuple):
        """Per-step outputs: beam scores, chosen ids and the beams they extend."""
        scores: Any
        predicted_ids: Any
        parent_ids: Any

    class StateWrapper(NamedTuple):
        """Beam state: cell states, accumulated log-probabilities, finished flags, lengths."""
        cell_states: Any
        log_probs: Any
        finished: Any
        lengths: Any

    def __init__(self, cell: Any, start_token: int, end_token: int, beam_size: int,
                 embedding_fn: Callable | None = None, output_fn: Callable | None = None) -> None:
        self.cell = cell
        self.embedding_fn = embedding_fn
        self.output_fn = output_fn
        self.start_token = start_token
        self.end_token = end_token
        self.beam_size = beam_size

    @staticmethod
    def tile_beam_merge_with_batch(x: Any, beam_size: int) -> Any:
        """Repeat each batch entry ``beam_size`` times: ``[batch, ...]`` -> ``[batch * beam, ...]``.

        Examples:
            >>> import pagaie as paddle
            >>> x = paddle.to_tensor([[1.0], [2.0]])
            >>> paddle.nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 2).tolist()
            [[1.0], [1.0], [2.0], [2.0]]
        """
        x = _pg.unsqueeze(x, [1])                      # [batch, 1, ...]
        reps = [1] * len(x.shape)
        reps[1] = beam_size                            # a Tensor beam size works too
        x = _pg.tile(x, reps)                          # [batch, beam, ...]
        return _pg.reshape(x, [-1] + list(x.shape[2:]))

    def _split_batch_beams(self, x: Any) -> Any:
        return _pg.reshape(x, [-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x: Any) -> Any:
        return _pg.reshape(x, [-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x: Any) -> Any:
        x = _pg.unsqueeze(x, [1])
        reps = [1] * len(x.shape)
        reps[1] = self.beam_size
        return _pg.tile(x, reps)

    def _gather(self, x: Any, indices: Any, batch_size: int) -> Any:
        """``x[b, indices[b, k]]`` for every batch entry b and beam k."""
        offsets = _pg.arange(0, batch_size, dtype=indices.dtype).unsqueeze(1) * x.shape[1]
        flat = _pg.reshape(x, [-1] + list(x.shape[2:]))
        return _pg.reshape(_pg.gather(flat, _pg.reshape(indices + offsets, [-1])),
                           [batch_size, -1] + list(x.shape[2:]))

    def initialize(self, initial_cell_states: Any) -> tuple:
        """Start every batch entry with one live beam (the others at -1e9) fed ``start_token``."""
        self.kinf = 1e9
        state = _flatten(initial_cell_states)[0]
        if not isinstance(state, _pg.Tensor):   # Paddle reads its batch size with paddle.shape
            raise ValueError(f"paddle.nn.BeamSearchDecoder.initialize: the initial cell states must "
                             f"be Tensors, but received {type(state).__name__}")
        self.batch_size = int(state.shape[0])
        cell_states = _map(self._expand_to_beam_size, initial_cell_states)
        inputs = _pg.full([self.batch_size, self.beam_size], self.start_token, "int64")
        dt = "float64" if _dt.get_default_dtype() == "float64" else "float32"
        log_probs = _pg.tile(_pg.to_tensor([[0.0] + [-self.kinf] * (self.beam_size - 1)], dtype=dt),
                             [self.batch_size, 1])
        finished = _pg.full([self.batch_size, self.beam_size], False, "bool")
        lengths = _pg.zeros_like(inputs)
        inputs = self.embedding_fn(inputs) if self.embedding_fn else inputs
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _mask_probs(self, probs: Any, finished: Any) -> Any:
        """Log-probabilities ``[batch, beam, vocab]`` where a finished beam may only emit
        ``end_token`` (at no cost); live beams keep theirs. A hook subclasses may override."""
        fin = _pg.cast(finished, probs.dtype).unsqueeze([2])
        return fin * self.noend_mask_tensor - probs * (fin - 1)

    def _beam_search_step(self, time: Any, logits: Any, next_cell_states: Any, beam_state: Any) -> tuple:
        vocab = int(logits.shape[-1])
        self.vocab_size = vocab
        dt = "float64" if _dt.get_default_dtype() == "float64" else "float32"
        noend = [-self.kinf] * vocab
        noend[self.end_token] = 0.0
        self.noend_mask_tensor = _pg.to_tensor(noend, dtype=dt)
        step_log_probs = _pg.log(_pg.nn.functional.softmax(logits))
        step_log_probs = self._mask_probs(step_log_probs, beam_state.finished)
        log_probs = step_log_probs + beam_state.log_probs.unsqueeze(2)
        scores = _pg.reshape(log_probs, [-1, self.beam_size * vocab])
        topk_scores, topk_indices = _pg.topk(scores, k=self.beam_size)
        beam_indices = _pg.floor_divide(topk_indices, _pg.full([1], vocab, topk_indices.dtype))
        token_indices = _pg.remainder(topk_indices, _pg.full([1], vocab, topk_indices.dtype))
        b = self.batch_size
        next_log_probs = self._gather(scores.unsqueeze(2), topk_indices, b).squeeze(2)
        next_cell_states = _map(lambda x: self._gather(x, beam_indices, b), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices, b)
        next_lengths = self._gather(beam_state.lengths, beam_indices, b)
        next_lengths = next_lengths + _pg.cast(_pg.logical_not(next_finished), next_lengths.dtype)
        next_finished = _pg.logical_or(next_finished, _pg.equal(token_indices,
                                                                _pg.full([1], self.end_token, "int64")))
        return (self.OutputWrapper(topk_scores, token_indices, beam_indices),
                self.StateWrapper(next_cell_states, next_log_probs, next_finished, next_lengths))

    def step(self, time: Any, inputs: Any, states: Any, **kwargs: Any) -> tuple:
        """Advance every beam one step; returns ``(OutputWrapper, StateWrapper, next_inputs,
        finished)``."""
        inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map(self._split_batch_beams, cell_outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        out, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        ids = out.predicted_ids
        ids.stop_gradient = True
        next_inputs = self.embedding_fn(ids) if self.embedding_fn else ids
        return out, state, next_inputs, state.finished

    def finalize(self, outputs: Any, final_states: Any, sequence_lengths: Any) -> tuple:
        """Backtrack the per-step ids into whole sequences (:func:`gather_tree`)."""
        ids = gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return _pg.cast(ids, outputs.predicted_ids.dtype), final_states

    @property
    def tracks_own_finished(self) -> bool:
        return True


def _keep_finished(state: Any, new_state: Any, finished: Any) -> Any:
    """``state`` for finished entries, ``new_state`` for the others."""
    dt = state.dtype
    is_bool = dt == _pg.bool
    if is_bool:
        state, new_state = _pg.cast(state, "float32"), _pg.cast(new_state, "float32")
    m = _pg.cast(finished, state.dtype).unsqueeze([1])
    out = state * m - new_state * (m - 1)
    return _pg.cast(out, dt) if is_bool else out


def dynamic_decode(decoder: Decoder, inits: Any = None, max_step_num: int | None = None,
                   output_time_major: bool = False, impute_finished: bool = False, is_test: bool = False,
                   return_length: bool = False, **kwargs: Any) -> tuple:
    """Run ``decoder`` step by step until all sequences finish (or after ``max_step_num`` + 1 steps).

    Args:
        decoder (Decoder): e.g. a :class:`BeamSearchDecoder`.
        inits (optional): passed to ``decoder.initialize``.
        max_step_num (int, optional): step limit.
        output_time_major (bool): outputs ``[time, batch, ...]`` rather than ``[batch, time, ...]``.
        impute_finished (bool): keep the states of finished sequences unchanged (decoders that
            do not track their own finished flags).
        is_test (bool): unused (no memory is kept for a backward pass either way).
        return_length (bool): also return the sequence lengths.
        **kwargs: passed to ``decoder.step``.

    Returns:
        tuple: ``(final_outputs, final_states)`` or with ``sequence_lengths``.

    Examples:
        >>> import pagaie as paddle
        >>> _ = paddle.seed(0)   # no beam may end early: three steps
        >>> decoder = paddle.nn.BeamSearchDecoder(paddle.nn.GRUCell(8, 16), 0, 1, 2,
        ...     embedding_fn=paddle.nn.Embedding(10, 8), output_fn=paddle.nn.Linear(16, 10))
        >>> ids, _, lengths = paddle.nn.dynamic_decode(decoder, paddle.zeros([3, 16]), max_step_num=2,
        ...     return_length=True)
        >>> ids.shape, lengths.shape
        (paddle.Size([3, 3, 2]), paddle.Size([3, 2]))
    """
    inputs, states, finished = decoder.initialize(inits)
    lengths = _pg.cast(_pg.zeros_like(finished), "int64")
    steps: list = []
    t = _pg.full([1], 0, "int64")
    while not bool(_pg.all(finished)):
        out, next_states, next_inputs, next_finished = decoder.step(t, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            next_finished = _pg.logical_or(next_finished, finished)
            # as Paddle's eager loop: ``finished`` is overwritten in place with the new flags
            # before it counts the lengths and picks the states to keep, so the step at which
            # a sequence finishes is neither counted nor kept
            _pg.assign(next_finished, finished)
            next_lengths = lengths + _pg.cast(_pg.logical_not(finished), lengths.dtype)
            if impute_finished:
                next_states = _map(lambda x, y: _keep_finished(x, y, finished), states, next_states)
        else:
            if not hasattr(next_states, "lengths"):
                warnings.warn("`next_states` has no `lengths` attribute, the returned `sequence_lengths` "
                              "would be all zeros.")
            next_lengths = getattr(next_states, "lengths", lengths)
        steps.append(out)
        inputs, states, finished, lengths = next_inputs, next_states, next_finished, next_lengths
        t = t + 1
        if max_step_num is not None and len(steps) > max_step_num:
            break
    outputs = _map(lambda *xs: _pg.stack(list(xs), axis=0), *steps)
    final_states = states
    try:
        outputs, final_states = decoder.finalize(outputs, final_states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        outputs = _map(lambda x: _pg.transpose(x, [1, 0] + list(range(2, len(x.shape)))), outputs)
    return (outputs, final_states, lengths) if return_length else (outputs, final_states)
