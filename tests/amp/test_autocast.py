"""auto_cast: op records' AMP policies agree with Paddle's lists; dtypes under O1/O2."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from pagaie._core.registry import REGISTRY
from pagaie.amp.lists import op_names
from tests.reference import paddle_ref


def test_record_policies_agree_with_paddle_lists():
    paddle = paddle_ref()
    white = paddle.amp.white_list()["float16"]["O1"]
    black = paddle.amp.black_list()["float16"]["O1"]
    wrong = []
    for rec in REGISTRY.values():
        if rec.inplace_of is not None:
            continue
        names = op_names(rec)
        if names & white and rec.amp != "white":
            wrong.append((rec.name, rec.amp, "white"))
        if names & black and rec.amp != "black":
            wrong.append((rec.name, rec.amp, "black"))
    assert not wrong, f"records whose amp policy disagrees with Paddle's lists: {wrong}"


def test_lists_contain_paddle_defaults():
    paddle = paddle_ref()
    for dt in ("float16", "bfloat16"):
        for lvl in ("O1", "O2"):
            assert paddle.amp.white_list()[dt][lvl] <= pagaie.amp.white_list()[dt][lvl]
            assert paddle.amp.black_list()[dt][lvl] <= pagaie.amp.black_list()[dt][lvl]


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_o1_dtypes(dtype):
    x = pagaie.rand([2, 4])
    w = pagaie.rand([4, 3])
    with pagaie.amp.auto_cast(dtype=dtype):
        a = pagaie.matmul(x, w)          # white: low precision
        b = a + 1                        # gray, low inputs only: stays low
        c = pagaie.exp(a)                # black: float32
        d = x * 2                        # gray with float32 input: float32
        e = a + pagaie.ones([2, 3])      # promote to the widest: float32
        s = a.sum()                      # reduce_sum is black
    assert a.dtype.name == dtype and b.dtype.name == dtype
    assert c.dtype == d.dtype == e.dtype == s.dtype == pagaie.float32
    np.testing.assert_allclose(a.astype("float32").numpy(), (x.numpy() @ w.numpy()), rtol=2e-2, atol=2e-2)


def test_o2_and_custom_lists():
    x = pagaie.rand([2, 4])
    with pagaie.amp.auto_cast(level="O2", dtype="bfloat16", use_promote=False):
        assert (x * 2).dtype == pagaie.bfloat16            # O2 casts gray ops
        assert pagaie.exp(x).dtype == pagaie.bfloat16      # exp is only O1-black
    with pagaie.amp.auto_cast(dtype="bfloat16", custom_black_list={"matmul_v2"}):
        assert pagaie.matmul(x, x.T).dtype == pagaie.float32
    with pagaie.amp.auto_cast(dtype="bfloat16", custom_white_list={"elementwise_add"}):
        assert (x + x).dtype == pagaie.bfloat16
    with pytest.raises(ValueError):   # checked on entry, as Paddle does
        with pagaie.amp.auto_cast(custom_white_list={"exp"}, custom_black_list={"exp"}):
            pass
    with pytest.raises(ValueError):
        with pagaie.amp.auto_cast(level="O3"):
            pass


def test_nesting_decorator_and_state():
    x = pagaie.rand([2, 2])
    assert not pagaie.amp.is_autocast_enabled()
    with pagaie.amp.auto_cast(dtype="bfloat16"):
        assert pagaie.amp.is_autocast_enabled()
        with pagaie.amp.auto_cast(enable=False):
            assert pagaie.matmul(x, x).dtype == pagaie.float32
        assert pagaie.matmul(x, x).dtype == pagaie.bfloat16
    assert pagaie.matmul(x, x).dtype == pagaie.float32

    @pagaie.amp.auto_cast(dtype="bfloat16")
    def f(a):
        return pagaie.matmul(a, a)

    assert f(x).dtype == pagaie.bfloat16


def test_gradients_flow_to_float32_parameters():
    lin = pagaie.nn.Linear(4, 3)
    with pagaie.amp.auto_cast(dtype="bfloat16"):
        loss = lin(pagaie.rand([5, 4])).mean()
    loss.backward()
    assert lin.weight.grad is not None and lin.weight.grad.dtype == pagaie.float32


def test_decorate_o2_master_weights():
    model = pagaie.nn.Sequential(pagaie.nn.Linear(4, 4), pagaie.nn.BatchNorm1D(4), pagaie.nn.Linear(4, 2))
    opt = pagaie.optimizer.SGD(0.5, parameters=model.parameters())
    model, opt = pagaie.amp.decorate(model, opt, level="O2", dtype="bfloat16", save_dtype="float32")
    assert model[0].weight.dtype == pagaie.bfloat16
    assert model[1].weight.dtype == pagaie.float32      # batch norm stays float32
    before = model[0].weight.astype("float32").numpy().copy()
    with pagaie.amp.auto_cast(level="O2", dtype="bfloat16"):
        loss = (model(pagaie.rand([3, 4])).astype("float32") ** 2).mean()
    loss.backward()
    opt.step()
    assert model[0].weight.dtype == pagaie.bfloat16
    assert not np.allclose(before, model[0].weight.astype("float32").numpy())
    masters = opt._master_weights
    assert opt._multi_precision and masters and all(m.dtype == pagaie.float32 for m in masters.values())
    # the float32 master copy keeps an update too small for bfloat16's 8 bits of precision
    w = model[0].weight
    master = masters[w.name].numpy().copy()
    opt.set_lr(1e-6)
    with pagaie.amp.auto_cast(level="O2", dtype="bfloat16"):
        loss = (model(pagaie.rand([3, 4])).astype("float32") ** 2).mean()
    loss.backward()
    opt.step()
    assert not np.array_equal(masters[w.name].numpy(), master)
    assert all(v.dtype == pagaie.float32 for v in model.state_dict().values())


def _op_dtypes(fn, capsys) -> dict:
    from pagaie.amp import debugging
    with debugging.collect_operator_stats():
        fn()
    out = capsys.readouterr().out
    cols = ("float16", "bfloat16", "float32", "other")
    table = {}
    for line in out.splitlines():
        if line.startswith("  ") and "|" in line:
            name, *counts = [c.strip() for c in line.split("|")]
            table[name] = {c for c, n in zip(cols, counts) if int(n)}
    return table


@pytest.mark.parametrize("level", ["O1", "O2"])
def test_dtypes_per_op_in_a_cnn_and_a_transformer_layer(level, capsys):
    pagaie.seed(0)
    cnn = pagaie.nn.Sequential(pagaie.nn.Conv2D(3, 4, 3), pagaie.nn.BatchNorm2D(4), pagaie.nn.ReLU(),
                               pagaie.nn.Flatten(), pagaie.nn.Linear(4 * 6 * 6, 5))
    enc = pagaie.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0)
    if level == "O2":
        cnn = pagaie.amp.decorate(cnn, level="O2", dtype="bfloat16")
        enc = pagaie.amp.decorate(enc, level="O2", dtype="bfloat16")
    x = pagaie.rand([2, 3, 8, 8])
    s = pagaie.rand([2, 5, 16])

    def run():
        with pagaie.amp.auto_cast(level=level, dtype="bfloat16"):
            loss = pagaie.nn.functional.cross_entropy(cnn(x), pagaie.to_tensor([1, 2]))
            y = enc(s)
        return loss, y

    table = _op_dtypes(run, capsys)
    assert table["conv2d"] == {"bfloat16"}
    assert table["matmul_v2"] == {"bfloat16"}              # linear: matmul (white), then add
    # black at O1; Paddle's short O2 black list leaves it to follow its (low) input
    assert table["cross_entropy_with_softmax"] == ({"float32"} if level == "O1" else {"bfloat16"})
    assert table["layer_norm"] == {"float32"}              # black at O1; float32 params at O2
    # only x counts (statistics stay float32); at O1 the conv's float32 bias add gives a float32 x
    assert table["batch_norm"] == ({"float32"} if level == "O1" else {"bfloat16"})
