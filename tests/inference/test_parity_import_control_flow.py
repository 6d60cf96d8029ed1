"""Control flow in programs saved by real Paddle 3.3.1 (``paddle.jit.save`` of ``to_static`` code
with tensor conditions: ``pd_op.if``, ``pd_op.while``, tensor arrays) and legacy ``.pdmodel``
op forms, loaded by pagaie: outputs match Paddle's ``jit.load`` (or its eager run, for the
legacy files, which Paddle cannot load back).
"""
import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import pagaie
from tests.inference.test_parity_import_sweep import _flat, _perturb
from tests.reference import paddle_ref


def _cases(paddle):
    nn = paddle.nn

    class IfElse(nn.Layer):
        def forward(self, x):
            if x.mean() > 0:
                y = x * 2 + 1
            else:
                y = x - 3
            return y

    class IfTuple(nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            if x.sum() > 3.0:
                a, b = self.lin(x), x.max(1)
            else:
                a, b = -x, x.min(1)
            return a, b

    class WhileN(nn.Layer):
        def forward(self, x, n):
            i = paddle.zeros([1], "int64")
            s = x
            while i < n:
                s = s * 0.5 + 1
                i = i + 1
            return s, i

    class Break(nn.Layer):
        def forward(self, x):
            i = paddle.zeros([1], "int64")
            s = x
            while i < 10:
                s = s + 1
                if s.sum() > 20:
                    break
                i += 1
            return s, i

    class ListAppend(nn.Layer):
        def forward(self, x, n):
            outs = []
            i = paddle.zeros([1], "int64")
            while i < n:
                outs.append(x * i.astype("float32"))
                i = i + 1
            return paddle.stack(outs)

    class LSTMRNN(nn.Layer):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(nn.LSTMCell(4, 5))

        def forward(self, x):
            y, (h, c) = self.rnn(x)
            return y, h, c

    class BiLSTM(nn.Layer):
        def __init__(self):
            super().__init__()
            self.rnn = nn.BiRNN(nn.LSTMCell(4, 5), nn.LSTMCell(4, 5))

        def forward(self, x):
            y, ((h1, c1), (h2, c2)) = self.rnn(x)
            return y, h1, c2

    class BiGRU(nn.Layer):
        def __init__(self):
            super().__init__()
            self.rnn = nn.BiRNN(nn.GRUCell(4, 5), nn.GRUCell(4, 5))

        def forward(self, x):
            return self.rnn(x)[0]

    class Greedy(nn.Layer):
        """A decoding loop: pick the best token, feed it back, stop at the end token."""

        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(7, 4)
            self.cell = nn.GRUCell(4, 4)
            self.out = nn.Linear(4, 7)

        def forward(self, h):
            tok = paddle.zeros([h.shape[0]], "int64")
            toks = []
            i = paddle.zeros([1], "int64")
            while i < 6:
                y, h = self.cell(self.emb(tok), h)
                tok = paddle.argmax(self.out(y), axis=-1)
                toks.append(tok)
                i = i + 1
                if (tok == 6).all():
                    break
            return paddle.stack(toks, 1), h

    class BeamLike(nn.Layer):
        """A beam-search-like loop: top-k over beams x tokens, re-gather the beams' states."""

        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(8, 4)
            self.out = nn.Linear(4, 8)

        def forward(self, h):
            h = h.unsqueeze(1).tile([1, 2, 1])
            scores = paddle.zeros_like(h[:, :, 0])
            ids = []
            i = paddle.zeros([1], "int64")
            while i < 4:
                total = scores.unsqueeze(-1) + paddle.nn.functional.log_softmax(self.out(h), -1)
                top, idx = paddle.topk(paddle.reshape(total, [-1, 16]), 2)
                beam, tok = idx // 8, idx % 8
                h = paddle.take_along_axis(h, beam.unsqueeze(-1).tile([1, 1, 4]), 1)
                h = paddle.tanh(h + self.emb(tok))
                scores = top
                ids.append(tok)
                i = i + 1
            return paddle.stack(ids, 1), scores  # (axis=-1 crashes Paddle 3.3.1 on arrays)

    class NestedIf(nn.Layer):
        def forward(self, x):
            if x.mean() > 0:
                if x.max() > 1.0:
                    y = x * 3
                else:
                    y = x * 2
            else:
                y = -x
            return y

    class IfCounter(nn.Layer):
        """An in-place update (``i += 2``) inside a branch."""

        def forward(self, x):
            i = paddle.zeros([1], "int64")
            if x.mean() > 0:
                i += 2
                x = x + 1
            return x, i

    class Grow(nn.Layer):
        """A loop variable whose shape changes between iterations."""

        def forward(self, x, n):
            s = x
            i = paddle.zeros([1], "int64")
            while i < n:
                s = paddle.concat([s, x * 2], axis=0)
                i = i + 1
            return s

    class ListEnds(nn.Layer):
        """Reading a list built in a loop by (negative) index: ``slice_array_dense``."""

        def forward(self, x, n):
            outs = []
            i = paddle.zeros([1], "int64")
            while i < n:
                outs.append(x + i.astype("float32"))
                i = i + 1
            return outs[-1], outs[0], len(outs)

    class IterRows(nn.Layer):
        def forward(self, x):
            acc = paddle.zeros([x.shape[1]])
            for k in range(x.shape[0]):
                acc = acc + x[k] * k
            return acc

    class GRUSeqLen(nn.Layer):
        def __init__(self):
            super().__init__()
            self.rnn = nn.RNN(nn.GRUCell(4, 5))

        def forward(self, x, lengths):
            return self.rnn(x, sequence_length=lengths)

    S = paddle.static.InputSpec
    x2 = [(S([None, 3], "float32", "x"), (2, 3))]
    n = (S([1], "int64", "n"), (1,))
    seq = [(S([None, 6, 4], "float32", "x"), (2, 6, 4))]
    return {
        "if_else": (IfElse(), x2),
        "if_tuple": (IfTuple(), x2),
        "while_n": (WhileN(), x2 + [n]),
        "while_break": (Break(), x2),
        "list_append": (ListAppend(), x2 + [n]),
        "rnn_lstm": (LSTMRNN(), seq),
        "birnn_lstm": (BiLSTM(), seq),
        "birnn_gru": (BiGRU(), seq),
        "greedy": (Greedy(), [(S([None, 4], "float32", "h"), (3, 4))]),
        "beam_like": (BeamLike(), [(S([None, 4], "float32", "h"), (3, 4))]),
        "nested_if": (NestedIf(), x2),
        "if_inplace": (IfCounter(), x2),
        "while_grow": (Grow(), x2 + [n]),
        "list_ends": (ListEnds(), x2 + [n]),
        "for_range": (IterRows(), [(S([None, 3], "float32", "x"), (4, 3))]),
        "rnn_seq_len": (GRUSeqLen(), seq + [(S([None], "int64", "lengths"), (2,))]),
    }


CASES = ["if_else", "if_tuple", "while_n", "while_break", "list_append", "rnn_lstm", "birnn_lstm",
         "birnn_gru", "greedy", "beam_like", "nested_if", "if_inplace", "while_grow", "list_ends",
         "for_range", "rnn_seq_len"]



def _inputs(paddle, specs, rng):
    return [(np.array([6, 3]) if s.name == "lengths" else np.array([3], "int64"))
            if s.dtype == paddle.int64 else (rng.rand(*shape).astype("float32") - 0.3) for s, shape in specs]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Export every case with real Paddle; {name: (prefix, inputs, {tag: (inputs, outputs)})}."""
    paddle = paddle_ref()
    d = tmp_path_factory.mktemp("paddle_cf")
    paddle.seed(7)
    rng = np.random.RandomState(0)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (layer, specs) in _cases(paddle).items():
            _perturb(paddle, layer, rng)
            layer.eval()
            prefix = str(d / name)
            paddle.jit.save(paddle.jit.to_static(layer, input_spec=[s for s, _ in specs]), prefix)
            loaded = paddle.jit.load(prefix)
            runs = []
            for k in range(2):  # two inputs: both branches / different trip counts
                ins = _inputs(paddle, specs, rng)
                if k == 1:
                    ins = [-a * 3 if a.dtype == np.float32 else np.minimum(a + 2, 6) for a in ins]
                res = _flat(loaded(*[paddle.to_tensor(a) for a in ins]))
                runs.append((ins, [r.numpy() for r in res]))
            out[name] = (prefix, runs)
    return out


def _check(got, want, name):
    assert len(got) == len(want), f"{name}: {len(got)} outputs vs Paddle's {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape, f"{name}[{i}]: shape {g.shape} vs {w.shape}"
        assert g.dtype == w.dtype, f"{name}[{i}]: dtype {g.dtype} vs {w.dtype}"
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5, err_msg=f"{name}[{i}]")


@pytest.mark.parametrize("name", CASES)
def test_jit_load_matches_paddle(exported, name):
    prefix, runs = exported[name]
    layer = pagaie.jit.load(prefix)
    for ins, want in runs:
        got = _flat(layer(*[pagaie.to_tensor(a) for a in ins]))
        _check([g.numpy() for g in got], want, name)


@pytest.mark.parametrize("name", ["while_break", "rnn_lstm", "greedy"])
def test_predictor_matches_paddle(exported, name):
    prefix, runs = exported[name]
    params = prefix + ".pdiparams"
    config = pagaie.inference.Config(prefix + ".json", params if os.path.exists(params) else "")
    pred = pagaie.inference.create_predictor(config)
    for ins, want in runs:
        for n, a in zip(pred.get_input_names(), ins):
            pred.get_input_handle(n).copy_from_cpu(a)
        pred.run()
        _check([pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()], want, name)


def test_gradients_flow_through_loaded_rnn(exported):
    prefix, runs = exported["rnn_lstm"]
    layer = pagaie.jit.load(prefix)
    layer.train()
    x = pagaie.to_tensor(runs[0][0][0], stop_gradient=False)
    y = layer(x)[0]
    y.sum().backward()
    assert x.grad is not None and float(x.grad.abs().sum()) > 0
    assert all(p.grad is not None for p in layer.parameters())


# ---- legacy .pdmodel op forms ---------------------------------------------------------------
_LEGACY = textwrap.dedent("""
    import os, sys, warnings
    os.environ["FLAGS_enable_pir_api"] = "0"
    warnings.simplefilter("ignore")
    import numpy as np, paddle
    F = paddle.nn.functional

    class Fn(paddle.nn.Layer):
        def __init__(self, f):
            super().__init__()
            self.f = f

        def forward(self, x):
            return self.f(x)

    ops = {
        "atan2": lambda x: paddle.atan2(x, x * 0.5 - 0.2),
        "masked_fill": lambda x: (paddle.masked_fill(x, x > 0.5, 2.0),
                                  paddle.masked_fill(x, x < 0.3, paddle.to_tensor(-1.0))),
        "full_dynamic": lambda x: paddle.full([paddle.shape(x)[0], 2], 3.0),
        "linspace": lambda x: x + paddle.linspace(0, 1, 4),
        "shape": lambda x: (paddle.shape(x), paddle.cast(paddle.shape(x), "float32")),
        "repeat": lambda x: (paddle.repeat_interleave(x, 2, 1),
                             paddle.repeat_interleave(x, paddle.to_tensor([1, 2, 0]), 1)),
        "pad_constant": lambda x: (F.pad(x, [1, 2], value=1.5, data_format="NCL"),
                                   F.pad(x.unsqueeze(1), [1, 0, 2, 1], value=-2.0)),
        # shapes, bounds and repeats computed at run time (lists of one-element tensors)
        "dynamic_lists": lambda x: (paddle.reshape(x, [paddle.shape(x)[0], -1]),
                                    x[:, :paddle.shape(x)[2] - 1],
                                    paddle.expand(x[:, :1], [paddle.shape(x)[0], 3, 4]),
                                    paddle.tile(x, [paddle.shape(x)[0], 1, 1])),
    }
    for name, f in ops.items():
        net = Fn(f)
        net.eval()
        p = os.path.join(sys.argv[1], name)
        paddle.jit.save(net, p, [paddle.static.InputSpec([None, 3, 4], "float32", "x")])
        x = np.random.RandomState(0).rand(2, 3, 4).astype("float32")
        res = net(paddle.to_tensor(x))  # (Paddle cannot jit.load its own legacy files)
        res = [res] if isinstance(res, paddle.Tensor) else list(res)
        np.savez(p + ".npz", x=x, **{f"out{i}": r.numpy() for i, r in enumerate(res)})
""")

LEGACY_CASES = ["atan2", "masked_fill", "full_dynamic", "linspace", "shape", "repeat", "pad_constant",
                "dynamic_lists"]


@pytest.fixture(scope="module")
def legacy_dir(tmp_path_factory):
    paddle_ref()
    d = tmp_path_factory.mktemp("paddle_legacy")
    script = d / "export.py"
    script.write_text(_LEGACY)
    env = dict(os.environ, GLOG_minloglevel="3")
    subprocess.run([sys.executable, str(script), str(d)], check=True, env=env, timeout=300,
                   capture_output=True)
    return d


@pytest.mark.parametrize("name", LEGACY_CASES)
def test_legacy_pdmodel_ops(legacy_dir, name):
    prefix = str(legacy_dir / name)
    z = np.load(prefix + ".npz")
    want = [z[f"out{i}"] for i in range(10) if f"out{i}" in z]
    got = _flat(pagaie.jit.load(prefix)(pagaie.to_tensor(z["x"])))
    _check([g.numpy() for g in got], want, name)


def _edit_json(prefix, tmp_path, edit):
    with open(prefix + ".json") as f:
        data = json.load(f)
    edit(data["program"]["regions"][0]["blocks"][0]["ops"])
    path = str(tmp_path / "edited")
    with open(path + ".json", "w") as f:
        json.dump(data, f)
    return path


def test_unknown_op_in_a_loop_body_names_the_op(exported, tmp_path):
    def edit(ops):
        body = next(o for o in ops if o["#"] == "1.while")["regions"][0]["blocks"][0]["ops"]
        next(o for o in body if o["#"] == "1.scale")["#"] = "1.no_such_op"

    path = _edit_json(exported["while_n"][0], tmp_path, edit)
    with pytest.raises(NotImplementedError, match="pd_op.no_such_op"):
        pagaie.jit.load(path)


def test_corrupt_loop_yield_is_a_runtime_error(exported, tmp_path):
    def edit(ops):
        body = next(o for o in ops if o["#"] == "1.while")["regions"][0]["blocks"][0]["ops"]
        body[-1]["I"] = body[-1]["I"][:1]  # the yield loses its loop variables

    path = _edit_json(exported["while_n"][0], tmp_path, edit)
    with pytest.raises(RuntimeError, match="pd_op.while"):   # as Paddle's reader
        pagaie.jit.load(path)


def test_mixed_precision_of_control_flow_says_not_supported(exported, tmp_path):
    prefix = exported["while_n"][0]
    with pytest.raises(NotImplementedError, match="control flow"):
        pagaie.inference.convert_to_mixed_precision(
            prefix + ".json", "", str(tmp_path / "m.json"), str(tmp_path / "m.pdiparams"),
            pagaie.inference.PrecisionType.Half, pagaie.inference.PlaceType.CPU)
