"""Paddle's .pdiparams layout: files written by real Paddle read here, ours read by Paddle."""
import numpy as np
import pytest

import pagaie
from pagaie._formats.pdiparams import (deserialize_tensors, load_tensors, read_pdiparams,
                                       serialize_tensor, write_pdiparams)
from pagaie.static import InputSpec
from tests.reference import paddle_ref


def _arrays():
    rng = np.random.default_rng(0)
    return {"a_f32": rng.random((2, 3)).astype("float32"), "b_i64": np.arange(5, dtype="int64"),
            "c_f16": rng.random(4).astype("float16"), "d_bool": np.array([True, False]),
            "e_f64_0d": np.array(3.5), "f_i32": np.arange(6, dtype="int32").reshape(1, 2, 3),
            "g_u8": np.arange(3, dtype="uint8"), "h_i8": np.arange(-2, 2, dtype="int8"),
            "i_c64": np.array([1 + 2j], dtype="complex64"), "j_i16": np.arange(3, dtype="int16"),
            "k_empty": np.zeros((0, 3), "float32")}


def test_read_file_written_by_real_paddle(tmp_path):
    paddle = paddle_ref()
    from paddle.base import core
    arrays = _arrays()
    ts = [paddle.to_tensor(v) for v in arrays.values()]
    bf = paddle.to_tensor(np.random.rand(3).astype("float32")).astype("bfloat16")
    path = str(tmp_path / "real.pdiparams")
    core.save_combine_func([t.get_tensor() for t in ts + [bf]], list(arrays) + ["l_bf16"], path,
                           True, False, False)
    ours = read_pdiparams(path)
    for a, ref in zip(ours, arrays.values()):
        assert a.dtype == ref.dtype and a.shape == ref.shape
        np.testing.assert_array_equal(a, ref)
    t = load_tensors(path)[-1]
    assert str(t.dtype) == "torch.bfloat16"
    np.testing.assert_array_equal(t.float().numpy(), bf.astype("float32").numpy())
    # Our writer reproduces Paddle's bytes exactly.
    assert b"".join(serialize_tensor(x) for x in load_tensors(path)) == open(path, "rb").read()


def test_real_paddle_reads_our_file(tmp_path):
    paddle = paddle_ref()
    from paddle.base import core
    arrays = _arrays()
    path = str(tmp_path / "ours.pdiparams")
    write_pdiparams(path, list(arrays.values()))
    holders = [core.eager.Tensor(dtype=paddle.to_tensor(v).dtype, dims=list(v.shape), name=n,
                                 type=core.VarDesc.VarType.DENSE_TENSOR, place=paddle.CPUPlace(),
                                 persistable=True) for n, v in arrays.items()]
    core.load_combine_func(path, list(arrays), [h.get_tensor() for h in holders], False, paddle.CPUPlace())
    for h, v in zip(holders, arrays.values()):
        np.testing.assert_array_equal(h.numpy(), v)


def test_real_jit_save_params_match_state_dict(tmp_path):
    paddle = paddle_ref()

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = paddle.nn.Linear(3, 2)
            self.bn = paddle.nn.BatchNorm1D(2)

        def forward(self, x):
            return self.bn(self.fc(x))

    net = Net()
    net.eval()
    path = str(tmp_path / "real")
    paddle.jit.save(net, path, input_spec=[paddle.static.InputSpec([None, 3], "float32", "x")])
    by_name = {p.name: p.numpy() for p in net.state_dict().values()}
    arrays = read_pdiparams(path + ".pdiparams")
    assert len(arrays) == len(by_name)
    for name, a in zip(sorted(by_name), arrays):  # Paddle sorts by parameter name
        np.testing.assert_array_equal(a, by_name[name])


def test_real_paddle_reads_params_of_pagaie_jit_save(tmp_path):
    paddle = paddle_ref()
    from paddle.base import core
    net = pagaie.nn.Sequential(pagaie.nn.Linear(3, 4), pagaie.nn.BatchNorm1D(4))
    path = str(tmp_path / "m")
    pagaie.jit.save(net, path, [InputSpec([None, 3], "float32", "x")])
    state = {p.name: p.numpy() for p in net.state_dict().values()}
    names = sorted(state)
    holders = [core.eager.Tensor(dtype=paddle.float32, dims=list(state[n].shape), name=n,
                                 type=core.VarDesc.VarType.DENSE_TENSOR, place=paddle.CPUPlace(),
                                 persistable=True) for n in names]
    core.load_combine_func(path + ".pdiparams", names, [h.get_tensor() for h in holders], False,
                           paddle.CPUPlace())
    for n, h in zip(names, holders):
        np.testing.assert_array_equal(h.numpy(), state[n])


@pytest.mark.parametrize("mutate,match", [
    (lambda b: b[:7], "truncated"),
    (lambda b: b[:-1], "truncated"),
    (lambda b: b"\x01" + b[1:], "version 1"),
    (lambda b: b[:12] + b"\x05" + b[13:], "tensor version 5"),
    (lambda b: b[:21] + b"\x63" + b[22:], "data type code 99"),
    (lambda b: b[:4] + b"\xff" * 8 + b[12:], "LoD"),
])
def test_corrupt_bytes_raise_value_error(mutate, match):
    good = serialize_tensor(np.arange(6, dtype="float32").reshape(2, 3))
    assert deserialize_tensors(good)[0].shape == (2, 3)
    with pytest.raises(ValueError, match=match):
        deserialize_tensors(mutate(good))
