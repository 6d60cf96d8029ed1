"""Differential sweep of the ``paddle.nn.Layer`` base-class API and the containers against
real Paddle 3.3.1: keyword aliases, naming, creation defaults, attribute routing, casting
rules (which parameters and buffers are cast), state-dict loading and container edits.

Each test runs the same small program with ``pagaie`` and with real ``paddle`` and compares
plain Python summaries (names, dtypes as strings, shapes, values)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception


def _guarded(fn):
    """``fn(fw)`` inside a fresh unique-name scope, so that names compare across frameworks."""
    def run(fw):
        with fw.utils.unique_name.guard():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return fn(fw)
    return run


def _same(fn):
    ours, theirs = both(_guarded(fn))
    assert ours == theirs, f"\nours:   {ours}\npaddle: {theirs}"
    return ours


def _dt(t) -> str:
    return str(t.dtype).replace("paddle.", "")


def _sub_names(layer) -> list:
    return [(n, type(v).__name__) for n, v in layer._sub_layers.items()]


# ---- keyword aliases Paddle 3 accepts (PyTorch spellings) ---------------------------------------
def test_recurse_alias_of_include_sublayers():
    def get(fw):
        net = fw.nn.Sequential(fw.nn.Linear(1, 1))
        net.register_buffer("own", fw.ones([1]))
        net[0].register_buffer("inner", fw.ones([1]))
        return [len(net.parameters(recurse=False)), len(net.parameters(recurse=True)),
                [n for n, _ in net.named_parameters(recurse=False)],
                [n for n, _ in net.named_parameters(prefix="p", recurse=True)],
                len(net.buffers(recurse=False)), [n for n, _ in net.named_buffers(recurse=False)],
                [n for n, _ in net.named_buffers(recurse=True)]]
    assert _same(get)[0] == 0


def test_persistent_alias_of_register_buffer():
    def get(fw):
        layer = fw.nn.Layer()
        layer.register_buffer("a", fw.ones([1]), persistent=False)
        layer.register_buffer("b", fw.ones([1]), persistent=True)
        return list(layer.state_dict()), [n for n, _ in layer.named_buffers()]
    assert _same(get)[0] == ["b"]


def test_module_aliases_of_containers_and_set_sublayer():
    def get(fw):
        nn = fw.nn
        ll = nn.LayerList(modules=[nn.ReLU()])
        ll.append(module=nn.Tanh())
        ll.insert(0, module=nn.Sigmoid())
        ll.extend(modules=[nn.ELU()])
        ld = nn.LayerDict(modules={"a": nn.ReLU()})
        ld.update(modules={"b": nn.Tanh()})
        seq = nn.Sequential(nn.ReLU())
        seq.set_sublayer("0", module=nn.Tanh())
        return _sub_names(ll), _sub_names(ld), _sub_names(seq)
    assert _same(get)[0] == [("0", "Sigmoid"), ("1", "ReLU"), ("2", "Tanh"), ("3", "ELU")]


def test_aliased_methods_keep_paddle_signatures():
    import inspect
    ref = paddle_ref()
    for name in ("parameters", "named_parameters", "buffers", "named_buffers", "register_buffer",
                 "set_sublayer"):
        ours = list(inspect.signature(getattr(pagaie.nn.Layer, name)).parameters)
        theirs = list(inspect.signature(getattr(ref.nn.Layer, name)).parameters)
        assert ours == theirs, name
    for cls, name in (("LayerList", "append"), ("LayerList", "insert"), ("LayerList", "extend"),
                      ("LayerDict", "update")):
        ours = list(inspect.signature(getattr(getattr(pagaie.nn, cls), name)).parameters)
        theirs = list(inspect.signature(getattr(getattr(ref.nn, cls), name)).parameters)
        assert ours == theirs, (cls, name)


# ---- naming and creation --------------------------------------------------------------------
def test_full_names_of_custom_and_tensor_parallel_named_layers():
    def get(fw):
        class RowParallelLinear(fw.nn.Layer):
            pass

        class VocabParallelEmbedding(fw.nn.Layer):
            pass

        class My2DConv(fw.nn.Layer):
            pass

        row = RowParallelLinear()
        return [row.full_name(), row.create_parameter([1]).name, VocabParallelEmbedding().full_name(),
                My2DConv().full_name(), fw.nn.Layer("MyScope").full_name(), fw.nn.Linear(1, 1).full_name()]
    assert _same(get)[0] == "linear_0"


def test_name_scope_must_be_a_string():
    err = same_exception(lambda fw: fw.nn.Layer(name_scope=3))
    assert "name_scope" in str(err) and "int" in str(err)


def test_create_tensor_dtype_defaults_to_float32():
    def get(fw):
        fw.set_default_dtype("float64")
        try:
            return [_dt(fw.nn.Layer().create_tensor()), _dt(fw.nn.Layer(dtype="float16").create_tensor()),
                    _dt(fw.nn.Layer(dtype="float64").create_variable()),
                    _dt(fw.nn.Layer().create_tensor(dtype="int64"))]
        finally:
            fw.set_default_dtype("float32")
    assert _same(get) == ["float32", "float32", "float32", "int64"]


def test_create_parameter_and_tensor_names_and_flags():
    def get(fw):
        layer = fw.nn.Layer()
        w = layer.create_parameter([2, 3])
        b = layer.create_parameter([3], is_bias=True)
        c = layer.create_parameter([2], attr=fw.ParamAttr(name="mine", trainable=False),
                                   default_initializer=fw.nn.initializer.Constant(2.0))
        t1, t2 = layer.create_tensor(), layer.create_variable(name="x", persistable=True)
        return [w.name, b.name, b.numpy().tolist(), c.name, c.numpy().tolist(), c.trainable,
                c.stop_gradient, t1.name, t2.name, t2.persistable, t1.persistable,
                layer.create_parameter([1], attr=False)]
    _same(get)


# ---- attribute routing ------------------------------------------------------------------------
def _tables(layer) -> list:
    return [list(layer._parameters), list(layer._sub_layers), list(layer._buffers),
            sorted(layer._non_persistable_buffer_names_set), list(layer.state_dict())]


@pytest.mark.parametrize("steps", [
    ["param", "None", "tensor"],
    ["param", "layer", "param"],
    ["layer", "None", "layer", "tensor"],
    ["tensor", "None", "tensor"],
    ["register", "tensor", "None", "tensor", "param"],
    ["register_np", "tensor", "layer"],
    ["plain", "tensor"],
], ids=lambda s: "-".join(s))
def test_setattr_routing_sequences(steps):
    def get(fw):
        layer = fw.nn.Layer()
        make = {"param": lambda: layer.create_parameter([1]), "None": lambda: None,
                "tensor": lambda: fw.ones([1]), "layer": lambda: fw.nn.ReLU(), "plain": lambda: 3}
        out = []
        for step in steps:
            try:
                if step == "register":
                    layer.register_buffer("v", fw.ones([1]))
                elif step == "register_np":
                    layer.register_buffer("v", fw.ones([1]), persistable=False)
                else:
                    setattr(layer, "v", make[step]())
            except Exception as exc:  # noqa: BLE001
                out.append(type(exc).__name__)
            out.append(_tables(layer))
        return out
    _same(get)


@pytest.mark.parametrize("case", [
    lambda fw: setattr(_registered(fw, "param"), "v", fw.ones([1])),
    lambda fw: setattr(_registered(fw, "param"), "v", 3),
    lambda fw: setattr(_registered(fw, "layer"), "v", 3),
    lambda fw: setattr(_registered(fw, "buffer"), "v", np.ones([1])),
    lambda fw: delattr(fw.nn.Layer(), "missing"),
    lambda fw: fw.nn.Layer().missing,
], ids=["param<-tensor", "param<-int", "layer<-int", "buffer<-numpy", "del-missing", "get-missing"])
def test_setattr_errors(case):
    same_exception(case)


def _registered(fw, kind):
    layer = fw.nn.Layer()
    if kind == "param":
        layer.v = layer.create_parameter([1])
    elif kind == "layer":
        layer.v = fw.nn.ReLU()
    else:
        layer.register_buffer("v", fw.ones([1]))
    return layer


# ---- casting rules ----------------------------------------------------------------------------
def _cast_model(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(2, 2)
            self.bn = fw.nn.BatchNorm(2)
            self.bn1d = fw.nn.BatchNorm1D(2)
            self.register_buffer("rb", fw.ones([2]))
            self.register_buffer("nb", fw.ones([2]), persistable=False)
            self.register_buffer("ib", fw.to_tensor([1, 2]))
            self.register_buffer("cb", fw.to_tensor([1 + 2j]))
            self.ip = fw.create_parameter([1], "int32", default_initializer=fw.nn.initializer.Constant(1))
    return Net()


@pytest.mark.parametrize("call", [
    "to(dtype='float16')", "to(dtype='int64')", "to('cpu')", "to(dtype=P.float64)", "type('float64')",
    "double()", "half()", "float()", "bfloat16()", "bfloat16(excluded_layers=[])",
    "bfloat16(excluded_layers=P.nn.Linear)", "double().float(excluded_layers=[P.nn.BatchNorm1D])",
])
def test_which_parameters_and_buffers_are_cast(call):
    def get(fw):
        net = _cast_model(fw)
        out = eval("net." + call, {"net": net, "P": fw})
        return (out is net,
                [(k, _dt(v)) for k, v in list(net.named_parameters()) + list(net.named_buffers())],
                [str(layer._dtype).replace("paddle.", "") for layer in net.sublayers(include_self=True)],
                repr(net.fc))
    _same(get)


@pytest.mark.parametrize("call", ["to(dtype='int64')", "type('int32')", "to(dtype='int32').to(dtype='float64')"])
def test_integer_casts_keep_stop_gradient(call):
    def get(fw):
        net = fw.nn.Sequential(fw.nn.Linear(2, 2), fw.nn.BatchNorm1D(2))
        net[0].bias.stop_gradient = True
        eval("net." + call, {"net": net})
        return [(k, v.stop_gradient, _dt(v)) for k, v in list(net.named_parameters()) + list(net.named_buffers())]
    assert _same(get)[0][1] is False


def test_gradients_follow_float_casts_and_training_resumes_after_an_integer_round_trip():
    fc = pagaie.nn.Linear(2, 2)
    fc(pagaie.ones([1, 2])).sum().backward()
    fc.to(dtype="float64")
    assert _dt(fc.weight.grad) == "float64"
    fc.to(dtype="int32").to(dtype="float32")
    assert fc.weight.grad is None and not fc.weight.stop_gradient
    fc(pagaie.ones([1, 2])).sum().backward()
    assert fc.weight.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_astype_casts_every_parameter_and_buffer():
    # Paddle 3.3.1's Layer.astype only records the dtype and leaves the tensors as they are
    # (Tensor._to/Tensor.to return new tensors there), contrary to its documentation; pagaie
    # casts in place, as documented.
    net = _cast_model(pagaie)
    assert net.astype("float64") is net
    dtypes = {k: _dt(v) for k, v in list(net.named_parameters()) + list(net.named_buffers())}
    assert set(dtypes.values()) == {"float64"}, dtypes
    assert repr(net.fc) == "Linear(in_features=2, out_features=2, dtype=paddle.float64)"


def test_float_keeps_complex_buffers_without_torch_warnings():
    net = _cast_model(pagaie)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        net.double().float()
        net.astype("float32")  # complex -> real drops the imaginary part silently
    assert _dt(net.cb) == "float32" and _dt(net.ip) == "float32"
    net = _cast_model(pagaie).float()
    assert _dt(net.cb) == "complex64" and _dt(net.ib) == "int64" and _dt(net.ip) == "int32"


# ---- state dicts ------------------------------------------------------------------------------
def _loadable(fw):
    class Net(fw.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = fw.nn.Linear(2, 2)
            self.register_buffer("rb", fw.ones([2]))
            self.register_buffer("nb", fw.ones([2]), persistable=False)
    return Net()


@pytest.mark.parametrize("value", ["[1.0, 2.0]", "(1.0, 2.0)", "np.float32(1.0)", "1.0"])
def test_set_state_dict_rejects_non_array_values_like_set_value(value):
    def load(fw):
        net = _loadable(fw)
        state = eval(value, {"np": np})
        full = {"fc.weight": np.ones([2, 2], "float32"), "rb": np.zeros([2], "float32"),
                "fc.bias": state}
        if np.ndim(state) == 0:
            # (only the value is checked: Paddle cannot load even a 0-D array into a 0-D
            # parameter, so the 0-D parameter is the only entry)
            net = fw.nn.Layer()
            net.scalar = net.create_parameter([])
            full = {"scalar": state}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return net.set_state_dict(full)
    err = same_exception(load)
    if value.startswith("["):
        assert "only support" in str(err)


def test_set_state_dict_loads_zero_dim_arrays_into_zero_dim_parameters():
    # Paddle 3.3.1 turns the 0-D array into shape [1] and refuses it; pagaie loads it.
    layer = pagaie.nn.Layer()
    layer.s = layer.create_parameter([])
    assert layer.set_state_dict({"s": np.array(2.5, "float32")}) == ([], [])
    assert layer.s.shape == [] and float(layer.s) == 2.5


def test_set_state_dict_report_and_values():
    def get(fw):
        net = _loadable(fw)
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            report = net.set_state_dict({"fc.weight": np.full([2, 2], 3, "float32"),
                                         "fc.bias": fw.full([3], 4.0), "nb": np.zeros([2], "float32"),
                                         "zz": 1})
        return (report, net.fc.weight.numpy().tolist(), net.rb.numpy().tolist(),
                sorted(str(w.message) for w in rec))
    _same(get)


# ---- containers -------------------------------------------------------------------------------
def test_sequential_pairs_need_string_names():
    err = same_exception(lambda fw: repr(fw.nn.Sequential((1, fw.nn.ReLU()))))
    assert "Sequential" in str(err)


def test_sequential_and_layerlist_edits():
    def get(fw):
        nn = fw.nn
        seq = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
        out = [type(seq[-1]).__name__, _sub_names(seq[::-1]), _sub_names(seq[1:])]
        seq.insert(-1, nn.ELU())
        del seq[0]
        seq.append(nn.Hardtanh())
        out.append(_sub_names(seq))
        ll = nn.LayerList([nn.ReLU(), nn.Tanh(), nn.ELU()])
        del ll[::2]
        ll.insert(-1, nn.Sigmoid())
        out += [_sub_names(ll), type(ll.pop(-1)).__name__, _sub_names(ll + [nn.ReLU()])]
        return out
    _same(get)


@pytest.mark.parametrize("case", [
    lambda fw: fw.nn.Sequential(fw.nn.ReLU())[1],
    lambda fw: fw.nn.Sequential(fw.nn.ReLU())[-2],
    lambda fw: fw.nn.Sequential(fw.nn.ReLU()).insert(3, fw.nn.ReLU()),
    lambda fw: fw.nn.Sequential(fw.nn.ReLU()).__delitem__(-1),
    lambda fw: fw.nn.LayerList([fw.nn.ReLU()])[1],
    lambda fw: fw.nn.LayerList([fw.nn.ReLU()]).insert(5, fw.nn.ReLU()),
    lambda fw: fw.nn.LayerList([3]),
    lambda fw: fw.nn.LayerDict({"a": fw.nn.ReLU()})["b"],
    lambda fw: fw.nn.LayerDict([("a", fw.nn.ReLU(), 1)]),
    lambda fw: fw.nn.LayerDict(3),
    lambda fw: fw.nn.ParameterList([fw.ones([1])]),
    lambda fw: fw.nn.ParameterDict({"a": fw.ones([1])}),
], ids=["seq-index", "seq-neg-index", "seq-insert", "seq-del-neg", "ll-index", "ll-insert", "ll-nonlayer",
        "ld-key", "ld-triple", "ld-int", "pl-tensor", "pd-tensor"])
def test_container_errors(case):
    same_exception(case)


def test_parameter_list_setitem_with_an_integer_tensor_changes_the_dtype():
    def get(fw):
        ps = fw.nn.ParameterList([fw.create_parameter([2], "float32")])
        w = ps[0]
        ps[0] = fw.to_tensor([3, 4], dtype="int32")
        return [ps[0] is w, _dt(w), list(w.shape), w.numpy().tolist(), w.stop_gradient]
    assert _same(get) == [True, "int32", [2], [3, 4], False]


def test_parameter_list_setitem_float_keeps_identity():
    def get(fw):
        ps = fw.nn.ParameterList([fw.create_parameter([2], "float32")])
        w = ps[0]
        ps[0] = fw.ones([3], "float64")
        return [ps[0] is w, _dt(w), list(w.shape), w.stop_gradient, w.name == ps._parameters["0"].name]
    _same(get)


def test_rnn_layers_hold_paddles_dropout_state_buffer():
    from tests.reference import both

    def buffers(p):
        p.utils.unique_name.switch()
        return [([(n, list(b.shape), str(b.dtype), b.name) for n, b in cls(4, 8).named_buffers()])
                for cls in (p.nn.LSTM, p.nn.GRU, p.nn.SimpleRNN)]

    ours, theirs = both(buffers)
    assert ours == theirs
