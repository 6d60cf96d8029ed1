"""The Layer contract against real Paddle: names, traversal order, state dicts, hooks,
modes, printing, attribute routing, dtype moves and the containers."""
from __future__ import annotations

import copy
import re
import warnings

import numpy as np
import pytest

import pagaie
from tests.reference import both, paddle_ref, same_exception


def _model(fw):
    nn = fw.nn

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 4)
            self.act = nn.ReLU()
            self.register_buffer("steps", fw.zeros([1]))
            self.register_buffer("cache", fw.ones([2]), persistable=False)

        def forward(self, x):
            return self.act(self.fc(x))

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.scale = self.create_parameter([1], default_initializer=nn.initializer.Constant(2.0))
            self.block = Block()
            self.heads = nn.LayerList([nn.Linear(4, 2), nn.Linear(4, 2, bias_attr=False)])
            self.extra = nn.Sequential(("first", nn.Linear(2, 2)), ("second", nn.Tanh()))
            self.register_buffer("mean", fw.zeros([2]))

        def forward(self, x):
            h = self.block(x) * self.scale
            return self.extra(self.heads[0](h) + self.heads[1](h))

    return Net()


def _names(fw, fn):
    return fn(_model(fw))


@pytest.mark.parametrize("what", ["state_dict", "named_parameters", "named_buffers", "named_sublayers",
                                  "named_children", "parameters_shapes", "buffers", "sublayers"])
def test_traversal_matches_paddle(what):
    def get(fw):
        m = _model(fw)
        if what == "state_dict":
            return [(k, list(v.shape)) for k, v in m.state_dict().items()]
        if what == "named_parameters":
            return [n for n, _ in m.named_parameters()]
        if what == "named_buffers":
            return [n for n, _ in m.named_buffers()]
        if what == "named_sublayers":
            return [(n, type(l).__name__) for n, l in m.named_sublayers(include_self=True)]
        if what == "named_children":
            return [n for n, _ in m.named_children()]
        if what == "parameters_shapes":
            return [list(p.shape) for p in m.parameters(include_sublayers=False)] + \
                [list(p.shape) for p in m.parameters()]
        if what == "buffers":
            return [list(b.shape) for b in m.buffers()]
        return [type(l).__name__ for l in m.sublayers()]
    ours, theirs = both(get)
    assert ours == theirs


def test_prefix_and_duplicates():
    def get(fw):
        nn = fw.nn
        shared = nn.Linear(2, 2)
        seq = nn.Sequential(shared, shared, nn.Linear(2, 2))
        return ([n for n, _ in seq.named_parameters(prefix="model")],
                [n for n, _ in seq.named_sublayers(prefix="m", include_self=True)],
                [n for n, _ in seq.named_parameters(remove_duplicate=False)],
                list(seq.state_dict()))
    ours, theirs = both(get)
    assert ours == theirs


def test_parameter_and_layer_names_follow_paddle_pattern():
    m = _model(pagaie)
    assert re.fullmatch(r"net_\d+", m.full_name())
    assert re.fullmatch(r"net_\d+\.w_0", m.scale.name)
    w, b = m.block.fc.weight, m.block.fc.bias
    assert re.fullmatch(r"linear_(\d+)\.w_0", w.name) and b.name == w.name.replace(".w_0", ".b_0")
    assert re.fullmatch(r"p_re_lu_\d+", pagaie.nn.PReLU().full_name())
    assert re.fullmatch(r"batch_norm2d_\d+|my_layer2d_\d+", type("MyLayer2D", (pagaie.nn.Layer,), {})().full_name())


def test_forward_and_parameter_flags():
    paddle = paddle_ref()
    ours, theirs = _model(pagaie), _model(paddle)
    ours.set_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    x = np.random.rand(5, 3).astype("float32")
    np.testing.assert_allclose(ours(pagaie.to_tensor(x)).numpy(), theirs(paddle.to_tensor(x)).numpy(), rtol=1e-5)
    for (n1, p1), (n2, p2) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert (p1.stop_gradient, p1.trainable, p1.persistable) == (p2.stop_gradient, p2.trainable, p2.persistable)
    assert all(b.stop_gradient for b in ours.buffers())


def test_repr_tree():
    ours, theirs = both(lambda fw: repr(_model(fw)))
    assert ours == theirs

    def custom(fw):
        class WithExtra(fw.nn.Layer):
            def __init__(self):
                super().__init__()
                self.inner = fw.nn.Sequential(fw.nn.ReLU())

            def extra_repr(self):
                return "a=1,\nb=2"
        return repr(WithExtra()), repr(fw.nn.Layer())
    ours, theirs = both(custom)
    assert ours == theirs


def test_train_eval_propagates():
    def get(fw):
        m = _model(fw)
        m.eval()
        states = [l.training for l in m.sublayers(include_self=True)]
        m.block.train()
        return states, m.training, m.block.training, m.block.fc.training
    ours, theirs = both(get)
    assert ours == theirs


def test_hooks_match_paddle():
    def get(fw):
        fc = fw.nn.Linear(2, 2, weight_attr=fw.nn.initializer.Constant(1.0))
        log = []
        h1 = fc.register_forward_pre_hook(lambda layer, inp: (inp[0] * 2,))
        h2 = fc.register_forward_post_hook(lambda layer, inp, out: out + 1)
        h3 = fc.register_forward_post_hook(lambda layer, inp, out: log.append("first") or None, prepend=True)
        h4 = fc.register_forward_pre_hook(lambda layer, args, kwargs: (args, kwargs), with_kwargs=True)
        x = fw.ones([1, 2])
        a = fc(x).numpy().tolist()
        h1.remove()
        b = fc(x).numpy().tolist()
        h2.remove()
        h2.remove()  # a second remove does nothing
        h3.remove()
        h4.remove()
        c = fc(x).numpy().tolist()
        return a, b, c, log
    ours, theirs = both(get)
    assert ours == theirs


def test_post_hook_with_kwargs_and_pre_hook_single_value():
    def get(fw):
        fc = fw.nn.Linear(2, 1, weight_attr=fw.nn.initializer.Constant(1.0))
        fc.register_forward_pre_hook(lambda layer, inp: inp[0] * 3)
        fc.register_forward_post_hook(lambda layer, inp, kw, out: out * 10, with_kwargs=True)
        return fc(fw.ones([1, 2])).numpy().tolist()
    ours, theirs = both(get)
    assert ours == theirs


def test_set_state_dict_reports_and_warnings():
    def get(fw):
        fc = fw.nn.Linear(2, 3)
        sd = {"weight": np.ones([3, 3], "float32"), "extra": np.ones([1], "float32")}
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            res = fc.set_state_dict(sd)
        msgs = sorted(str(x.message) for x in w if "Skip loading" in str(x.message))
        ok = fc.set_state_dict({"weight": np.full([2, 3], 0.5, "float32"), "bias": np.zeros([3], "float32")})
        return res, msgs, ok, fc.weight.numpy().tolist()
    ours, theirs = both(get)
    assert ours == theirs


def test_set_state_dict_by_parameter_name_and_load_dict_alias():
    fc = pagaie.nn.Linear(2, 2)
    src = {fc.weight.name: np.ones([2, 2], "float32"), fc.bias.name: np.ones([2], "float32")}
    assert fc.set_state_dict(src, use_structured_name=False) == ([], [])
    assert fc.weight.numpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert pagaie.nn.Layer.load_dict is pagaie.nn.Layer.set_state_dict
    assert pagaie.nn.Layer.set_dict is pagaie.nn.Layer.set_state_dict


def test_set_state_dict_dtype_mismatch_raises_like_paddle():
    same_exception(lambda fw: fw.nn.Linear(2, 2).set_state_dict(
        {"weight": np.ones([2, 2], "float64"), "bias": np.ones([2], "float32")}))


def test_load_state_dict_strict():
    same_exception(lambda fw: fw.nn.Linear(2, 2).load_state_dict({"weight": np.ones([2, 2], "float32")}))
    ours, theirs = both(lambda fw: repr(fw.nn.Linear(2, 2).load_state_dict(
        {"weight": np.ones([2, 2], "float32"), "bias": np.ones([2], "float32")})))
    assert ours == theirs


def test_state_dict_options():
    def get(fw):
        m = _model(fw)
        sd = m.state_dict(include_sublayers=False)
        sd2 = m.state_dict(structured_name_prefix="pre.")
        sd3 = m.state_dict(keep_vars=False)
        torch_style = m.state_dict(None, "p.")
        full = m.to_static_state_dict()
        return (list(sd), list(sd2), [v.stop_gradient for v in sd3.values()], list(torch_style), list(full),
                type(m.state_dict()).__name__)
    ours, theirs = both(get)
    assert ours == theirs


def test_state_dict_values_are_the_parameters():
    m = _model(pagaie)
    assert m.state_dict()["block.fc.weight"] is m.block.fc.weight


def test_setattr_routing():
    def get(fw):
        nn = fw.nn
        layer = nn.Layer()
        layer.t = fw.ones([1])  # a plain tensor becomes a non-persistable buffer
        layer.p = fw.create_parameter([1], "float32")
        layer.sub = nn.ReLU()
        out = [list(layer.state_dict()), [n for n, _ in layer.named_buffers()],
               [n for n, _ in layer.named_parameters()], [n for n, _ in layer.named_children()]]
        layer.p = None
        layer.sub = None
        layer.t = None
        out.append(([n for n, _ in layer.named_parameters()], [n for n, _ in layer.named_children()],
                    list(layer._buffers)))
        del layer.t
        out.append(list(layer._buffers))
        return out
    ours, theirs = both(get)
    assert ours == theirs


@pytest.mark.parametrize("case", [
    lambda fw: setattr(_with_param(fw), "p", fw.ones([1])),
    lambda fw: setattr(_with_sub(fw), "s", fw.ones([1])),
    lambda fw: _with_param(fw).register_buffer("p", fw.ones([1])),
    lambda fw: fw.nn.Layer().register_buffer("a.b", fw.ones([1])),
    lambda fw: fw.nn.Layer().register_buffer("", fw.ones([1])),
    lambda fw: fw.nn.Layer().register_buffer(1, fw.ones([1])),
    lambda fw: fw.nn.Layer().register_buffer("q", fw.create_parameter([1], "float32")),
    lambda fw: fw.nn.Layer().add_parameter("w", fw.ones([1])),
    lambda fw: fw.nn.Layer().add_parameter("a.b", fw.create_parameter([1], "float32")),
    lambda fw: fw.nn.Layer().backward(),
    lambda fw: fw.nn.Layer()(1),
    lambda fw: fw.nn.Linear(1, 1).to(device=3),
    lambda fw: fw.nn.Linear(1, 1).astype("float8"),
    lambda fw: fw.nn.Linear(1, 1).float(excluded_layers=fw.nn.Linear(1, 1)),
    lambda fw: fw.nn.Linear(1, 1).get_sublayer("nope"),
    lambda fw: fw.nn.Linear(1, 1).train(1),
], ids=["param<-tensor", "sublayer<-tensor", "buffer-over-param", "buffer-dot", "buffer-empty",
        "buffer-nonstr", "buffer-parameter", "add_parameter-tensor", "add_parameter-dot", "backward",
        "no-forward", "to-bad-device", "astype-bad", "float-excluded-instance", "get_sublayer", "train-int"])
def test_errors_match_paddle(case):
    same_exception(case)


def _with_param(fw):
    layer = fw.nn.Layer()
    layer.p = fw.create_parameter([1], "float32")
    return layer


def _with_sub(fw):
    layer = fw.nn.Layer()
    layer.s = fw.nn.ReLU()
    return layer


def test_dtype_moves():
    def get(fw):
        m = _model(fw)
        m.to(dtype="float64")
        a = [str(p.dtype) for p in m.parameters()] + [str(b.dtype) for b in m.buffers()]
        m.float()
        b = [str(p.dtype) for p in m.parameters()]
        m.double()
        c = [str(p.dtype) for p in m.parameters()] + [str(b.dtype) for b in m.buffers()]
        fc = fw.nn.Linear(2, 2)
        fc.to(dtype="float64")
        r = repr(fc)
        return a, b, c, r
    ours, theirs = both(get)
    assert ours == theirs


def test_to_keeps_parameter_identity_and_grads():
    fc = pagaie.nn.Linear(2, 2)
    w = fc.weight
    fc(pagaie.ones([1, 2])).sum().backward()
    fc.to(dtype="float64")
    assert fc.weight is w and str(w.dtype) == "paddle.float64" and not w.stop_gradient
    assert str(w.grad.dtype) == "paddle.float64"
    assert fc.cpu() is fc


def test_clear_gradients_zero_grad_and_requires_grad():
    def get(fw):
        fc = fw.nn.Linear(2, 2)
        fc(fw.ones([1, 2])).sum().backward()
        fc.clear_gradients()
        a = fc.weight.grad.numpy().tolist()
        fc(fw.ones([1, 2])).sum().backward()
        fc.clear_gradients(set_to_zero=False)
        b = fc.weight.grad is None
        fc.requires_grad_(False)
        return a, b, fc.weight.stop_gradient, fc.bias.stop_gradient
    ours, theirs = both(get)
    assert ours == theirs


def test_apply_children_modules_get_helpers():
    def get(fw):
        m = _model(fw)
        seen = []
        m.apply(lambda l: seen.append(type(l).__name__))
        return (seen, [type(c).__name__ for c in m.children()], len(list(m.modules())),
                [n for n, _ in m.named_modules()][:3], list(m.get_parameter("block.fc.weight").shape),
                list(m.get_buffer("block.steps").shape), type(m.get_sublayer("extra.first")).__name__)
    ours, theirs = both(get)
    assert ours == theirs


def test_create_tensor_and_variable():
    def get(fw):
        fc = fw.nn.Linear(1, 1)
        t = fc.create_tensor(name="buf", persistable=True, dtype="float64")
        v = fc.create_variable()
        return (t.name.split(".", 1)[1], t.persistable, str(t.dtype), list(t.shape),
                v.name.split(".", 1)[1], v.persistable, str(v.dtype))
    ours, theirs = both(get)
    assert ours == theirs


def test_deepcopy_layer():
    m = _model(pagaie)
    c = copy.deepcopy(m)
    assert list(c.state_dict()) == list(m.state_dict())
    assert c.block.fc.weight is not m.block.fc.weight
    np.testing.assert_array_equal(c.block.fc.weight.numpy(), m.block.fc.weight.numpy())
    assert isinstance(c.block.fc.weight, pagaie.Parameter) and not c.block.fc.weight.stop_gradient


def test_containers_match_paddle():
    def get(fw):
        nn = fw.nn
        seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Tanh())
        sl = seq[1:]
        seq.insert(1, nn.Sigmoid())
        seq.append(nn.ReLU())
        del seq["0"]
        ll = nn.LayerList([nn.ReLU(), nn.Tanh()])
        ll.insert(0, nn.Sigmoid())
        ll.extend([nn.ReLU()])
        ll.append(nn.Tanh())
        del ll[1]
        popped = ll.pop(0)
        ld = nn.LayerDict({"a": nn.ReLU(), "b": nn.Tanh()})
        ld.update([("c", nn.Sigmoid())])
        ld.pop("a")
        pl = nn.ParameterList([fw.create_parameter([2], "float32") for _ in range(2)])
        pl.append(fw.create_parameter([3], "float32"))
        pdict = nn.ParameterDict({"x": fw.create_parameter([1], "float32")})
        return (repr(seq), repr(sl), len(seq), repr(ll), type(popped).__name__, list(ld.keys()), "c" in ld,
                [n for n, _ in pl.named_parameters()], len(pl), [n for n, _ in pdict.named_parameters()],
                repr(nn.LayerList([nn.ReLU()]) + nn.LayerList([nn.Tanh()])))
    ours, theirs = both(get)
    assert ours == theirs


def test_container_index_errors():
    same_exception(lambda fw: fw.nn.Sequential(fw.nn.ReLU())[3])
    same_exception(lambda fw: fw.nn.LayerList([fw.nn.ReLU()])[3])
    same_exception(lambda fw: fw.nn.LayerDict([("a", fw.nn.ReLU(), 1)]))


def test_sequential_forward_and_ordered_dict():
    from collections import OrderedDict
    paddle = paddle_ref()
    x = np.random.rand(2, 3).astype("float32")

    def build(nn):
        return nn.Sequential(OrderedDict([("l1", nn.Linear(3, 3)), ("act", nn.Sigmoid())]))
    from tests.nn.helpers import compare_layer
    compare_layer(build, [x])


def test_unique_names_generation_and_guard():
    with pagaie.utils.unique_name.guard():
        a, b = pagaie.nn.Linear(1, 1), pagaie.nn.Linear(1, 1)
        assert (a.full_name(), b.full_name()) == ("linear_0", "linear_1")
        assert a.weight.name == "linear_0.w_0"


def test_parameter_name_reuse_raises():
    paddle = paddle_ref()

    def make(fw, name):
        return fw.nn.Linear(1, 1, weight_attr=fw.ParamAttr(name=name))
    make(paddle, "dup_name_test_w")
    make(pagaie, "dup_name_test_w")
    same_exception(lambda fw: make(fw, "dup_name_test_w"))
