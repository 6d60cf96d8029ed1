"""Session 24 (h2): the nn.Layer machinery, ``nn.utils``, ``nn.initializer``, ``ParamAttr`` and
``create_parameter`` against real Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both, same_exception, same_static_exception

pytest.importorskip("paddle")


# -- Layer.create_tensor / create_variable: a placeholder that holds no values yet ----------------

@pytest.mark.parametrize("method", ["create_tensor", "create_variable"])
def test_layer_create_tensor_is_uninitialised(method):
    def run(P):
        with P.utils.unique_name.guard():
            t = getattr(P.nn.Linear(1, 1), method)(name="buf", persistable=True, dtype="int64")
        return t.name, t.persistable, str(t.dtype), t._is_initialized(), t.numpy().shape, repr(t)
    ours, theirs = both(run)
    assert ours == theirs


# -- initializer.Assign: Paddle's assign_value kernel has no uint8 version ---------------------------

@pytest.mark.parametrize("value", ["array", "list", "tensor"])
def test_assign_initializer_refuses_uint8_parameter(value):
    def run(P):
        v = {"array": np.arange(3), "list": [1, 2, 3], "tensor": P.to_tensor([1, 2, 3])}[value]
        P.create_parameter([3], "uint8", default_initializer=P.nn.initializer.Assign(v))
    assert isinstance(same_exception(run), RuntimeError)


# -- nn.utils.clip_grad_norm_: max_norm converted by float(), with its exception types -------------

@pytest.mark.parametrize("max_norm", [None, "x", [1.0], "tensor2"])
def test_clip_grad_norm_bad_max_norm(max_norm):
    def run(P):
        w = P.create_parameter([3], "float32")
        (w * w).sum().backward()
        m = P.to_tensor([0.5, 1.0]) if max_norm == "tensor2" else max_norm
        P.nn.utils.clip_grad_norm_([w], m)
    same_exception(run)


# -- the RNN layers' dropout-state buffer is such a placeholder too; register_buffer takes one ------

@pytest.mark.parametrize("layer", ["GRU", "LSTM", "SimpleRNN"])
def test_rnn_dropout_state_is_uninitialised(layer):
    def run(P):
        with P.utils.unique_name.guard():
            rnn = getattr(P.nn, layer)(2, 3)
        s = rnn._dropout_state
        return s.name, s._is_initialized(), repr(s), str(s.dtype), list(rnn.state_dict())
    ours, theirs = both(run)
    assert ours == theirs


def test_register_buffer_takes_a_placeholder():
    def run(P):
        layer = P.nn.Layer()
        layer.register_buffer("b", layer.create_tensor(), persistable=False)
        return [n for n, _ in layer.named_buffers()], repr(layer.b)
    ours, theirs = both(run)
    assert ours == theirs


# -- SpectralNorm's N(0, 1) is a default initializer: a global initializer wins ----------------------

def test_spectral_norm_layer_follows_global_initializer():
    def run(P):
        P.nn.initializer.set_global_initializer(P.nn.initializer.Constant(2.0))
        try:
            layer = P.nn.SpectralNorm([2, 3])
        finally:
            P.nn.initializer.set_global_initializer(None)
        return [(p.numpy().tolist(), p.stop_gradient, p.trainable) for p in layer.parameters()]
    ours, theirs = both(run)
    assert ours == theirs


# -- set_value / set_state_dict read a uint16 array as bfloat16 bit patterns -----------------------

_BF16_BITS = np.array([[16256, 16384], [1, 0]], "uint16")


@pytest.mark.parametrize("how", ["set_value", "set_state_dict"])
def test_uint16_array_loads_as_bfloat16_bits(how):
    def run(P):
        layer = P.nn.Linear(2, 2).to(dtype="bfloat16")
        if how == "set_value":
            layer.weight.set_value(_BF16_BITS)
        else:
            layer.set_state_dict({"weight": _BF16_BITS, "bias": _BF16_BITS[0]})
        return layer.weight.astype("float32").numpy().tolist(), str(layer.weight.dtype)
    ours, theirs = both(run)
    assert ours == theirs


def test_uint16_array_into_float32_is_a_dtype_mismatch():
    same_exception(lambda P: P.zeros([2], "float32").set_value(_BF16_BITS[0]))


# -- static programs: Paddle refuses these parameter dtypes while building, with TypeError ---------

@pytest.mark.parametrize("init,dtype,shape", [
    ("Normal", "int32", [4]), ("Uniform", "int64", [4]), ("TruncatedNormal", "float16", [4]),
    ("XavierNormal", "int32", [2, 2]), ("Assign", "uint8", [4]), ("Dirac", "int32", [1, 1, 3]),
])
def test_static_initializer_dtype_refused_at_build(init, dtype, shape):
    def run(P):
        make = getattr(P.nn.initializer, init)
        i = make(np.arange(4)) if init == "Assign" else make()
        P.create_parameter(shape, dtype, default_initializer=i)
    assert isinstance(same_static_exception(run), TypeError)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_static_create_parameter_refuses_complex(dtype):
    same_static_exception(lambda P: P.create_parameter(
        [2], dtype, default_initializer=P.nn.initializer.Constant(1.0)))


def test_layer_create_parameter_takes_complex_in_static_mode():
    def run(P):
        P.enable_static()
        try:
            with P.static.program_guard(P.static.Program(), P.static.Program()):
                w = P.nn.Layer().create_parameter(
                    [2], dtype="complex64", default_initializer=P.nn.initializer.Constant(1.0))
                return str(w.dtype), list(w.shape)
        finally:
            P.disable_static()
    ours, theirs = both(run)
    assert ours == theirs


# -- a user-defined initializer overrides Initializer.forward ---------------------------------------

def _sevens(P):
    class Sevens(P.nn.initializer.Initializer):
        def forward(self, var, block=None):
            return P.assign(P.full(var.shape, 7.0, var.dtype), var)
    return Sevens()


@pytest.mark.parametrize("where", ["default_initializer", "param_attr", "global"])
def test_user_initializer_forward_is_called(where):
    def run(P):
        if where == "default_initializer":
            return P.create_parameter([2, 2], "float32", default_initializer=_sevens(P)).numpy().tolist()
        if where == "param_attr":
            return P.nn.Linear(2, 2, weight_attr=P.ParamAttr(initializer=_sevens(P))).weight.numpy().tolist()
        P.nn.initializer.set_global_initializer(_sevens(P))
        try:
            layer = P.nn.Linear(2, 2)
        finally:
            P.nn.initializer.set_global_initializer(None)
        return layer.weight.numpy().tolist(), layer.bias.numpy().tolist()
    ours, theirs = both(run)
    assert ours == theirs


def test_user_initializer_forward_in_static_program_is_a_type_error():
    assert isinstance(same_static_exception(
        lambda P: P.create_parameter([2], "float32", default_initializer=_sevens(P))), TypeError)
