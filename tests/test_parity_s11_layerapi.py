"""Session-11 sweep of the ``paddle.nn.Layer`` object model and the containers against real
Paddle 3.3.1: structured names and traversal order, state-dict loading reports, buffer and
parameter registration rules, attribute routing, hooks, dtype moves, ``create_parameter``
attributes and the index/key rules of Sequential, LayerList, LayerDict and ParameterList/Dict.

Most cases return plain Python values (name lists, flags, shapes) that must be equal in both
frameworks; the bad-input cases must raise the same exception type.
"""
from __future__ import annotations

import warnings
from collections import OrderedDict

import numpy as np
import pytest

from tests.reference import assert_same, both, same_exception


def _plain(v):
    """Layers (returned by chained container calls) compare by their printed form."""
    if isinstance(v, (list, tuple)):
        return type(v)(_plain(e) for e in v)
    if hasattr(v, "named_sublayers"):
        return repr(v)
    return v


def _same_plain(fn):
    ours, theirs = both(fn)
    ours, theirs = _plain(ours), _plain(theirs)
    assert ours == theirs, f"pagaie {ours!r}\nPaddle {theirs!r}"


def _net(P):
    """Parameters, persistable and non-persistable buffers and nested sublayers."""
    class Net(P.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = P.nn.Linear(2, 3)
            self.bn = P.nn.BatchNorm1D(3)
            self.register_buffer("buf", P.ones([2]))
            self.register_buffer("np_buf", P.zeros([1]), persistable=False)
            self.seq = P.nn.Sequential(P.nn.Linear(3, 3), P.nn.ReLU())
    return Net()


def _names(pairs):
    return [n for n, _ in pairs]


def _kinds(layers):
    return [type(m).__name__ for m in layers]


def _param(P, shape=(1,)):
    return P.create_parameter(list(shape), "float32")


# -- traversal and structured names ----------------------------------------------------------

_TRAVERSALS = {
    "state_dict": lambda P: list(_net(P).state_dict()),
    "state_dict_own": lambda P: list(_net(P).state_dict(include_sublayers=False)),
    "state_dict_prefix": lambda P: list(_net(P).state_dict(structured_name_prefix="a.")),
    "to_static_state_dict": lambda P: list(_net(P).to_static_state_dict()),
    "named_parameters_prefix": lambda P: _names(_net(P).named_parameters(prefix="x")),
    "named_buffers": lambda P: _names(_net(P).named_buffers()),
    "named_buffers_own": lambda P: _names(_net(P).named_buffers(include_sublayers=False)),
    "named_sublayers_self": lambda P: _names(_net(P).named_sublayers(prefix="p", include_self=True)),
    "named_children": lambda P: _names(_net(P).named_children()),
    "layers_set": lambda P: (lambda n: _names(n.named_sublayers(layers_set={n.fc})))(_net(P)),
    "shared_layer": lambda P: (lambda fc: (lambda s: (_names(s.named_parameters()),
                                                      _names(s.named_sublayers()),
                                                      _names(s.named_children())))(
        P.nn.Sequential(fc, fc)))(P.nn.Linear(2, 2)),
    "shared_layer_kept": lambda P: (lambda fc: (lambda s: (
        _names(s.named_parameters(remove_duplicate=False)),
        _names(s.named_sublayers(remove_duplicate=False))))(P.nn.Sequential(fc, fc)))(P.nn.Linear(2, 2)),
    "apply_order": lambda P: (lambda seen: (P.nn.Sequential(P.nn.Linear(1, 1), P.nn.Sequential(
        P.nn.ReLU())).apply(lambda m: seen.append(type(m).__name__)), seen)[1])([]),
}


@pytest.mark.parametrize("case", list(_TRAVERSALS))
def test_traversal_names_and_order(case):
    """Paddle walks a layer's own parameters, then its buffers, then sublayers depth first."""
    _same_plain(_TRAVERSALS[case])


# -- set_state_dict / load_state_dict ----------------------------------------------------------

def _load(P, make_state):
    n = _net(P)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = n.set_state_dict(make_state(P))
    return out, [str(m.message)[:40] for m in w], bool((n.fc.weight.numpy() == 1).all())


@pytest.mark.parametrize("state", [
    lambda P: {"fc.weight": P.ones([2, 3]), "zzz": P.ones([3])},      # missing and unexpected
    lambda P: {"fc.weight": P.ones([3, 3])},                          # wrong shape: skipped
    lambda P: {"np_buf": P.ones([1])},                                # non-persistable: unexpected
    lambda P: {"fc.weight": np.ones([2, 3], "float32")},              # numpy values load
])
def test_set_state_dict_reports(state):
    """set_state_dict returns (missing, unexpected) and warns once per skipped entry."""
    _same_plain(lambda P: _load(P, state))


@pytest.mark.parametrize("state", [
    lambda P: {"fc.weight": P.ones([2, 3], "float64")},
    lambda P: {"fc.weight": [[1.0] * 3] * 2},
])
def test_set_state_dict_bad_values(state):
    """A value of another dtype, or a list, is refused (AssertionError)."""
    same_exception(lambda P: _net(P).set_state_dict(state(P)))


def test_load_state_dict_strict():
    """load_state_dict raises RuntimeError on missing keys unless strict=False."""
    same_exception(lambda P: P.nn.Linear(2, 2).load_state_dict({"weight": P.ones([2, 2])}))
    _same_plain(lambda P: repr(P.nn.Linear(2, 2).load_state_dict(
        {"weight": P.ones([2, 2]), "zz": P.ones([2])}, strict=False)))


# -- registration and attribute routing --------------------------------------------------------

_BAD_REGISTRATION = {
    "buffer_int_name": lambda P: P.nn.Layer().register_buffer(1, P.ones([1])),
    "buffer_dotted": lambda P: P.nn.Layer().register_buffer("a.b", P.ones([1])),
    "buffer_empty": lambda P: P.nn.Layer().register_buffer("", P.ones([1])),
    "buffer_numpy": lambda P: P.nn.Layer().register_buffer("a", np.ones(2)),
    "buffer_parameter": lambda P: P.nn.Layer().register_buffer("a", _param(P)),
    "buffer_over_param": lambda P: P.nn.Linear(1, 1).register_buffer("weight", P.ones([1])),
    "buffer_over_method": lambda P: P.nn.Layer().register_buffer("forward", P.ones([1])),
    "sublayer_int": lambda P: P.nn.Layer().add_sublayer("a", 3),
    "parameter_tensor": lambda P: P.nn.Layer().add_parameter("w", P.ones([1])),
    "parameter_dotted": lambda P: P.nn.Layer().add_parameter("a.b", _param(P)),
    "parameter_over_method": lambda P: P.nn.Layer().add_parameter("forward", _param(P)),
    "set_param_to_tensor": lambda P: setattr(P.nn.Linear(1, 1), "weight", P.ones([1, 1])),
    "set_param_to_layer": lambda P: setattr(P.nn.Linear(1, 1), "weight", P.nn.ReLU()),
    "set_sublayer_to_int": lambda P: setattr(P.nn.Sequential(P.nn.ReLU()), "0", 3),
    "param_before_init": lambda P: type("C", (P.nn.Layer,), {
        "__init__": lambda s: setattr(s, "w", _param(P))})(),
    "missing_attribute": lambda P: P.nn.Linear(1, 1).nope,
    "train_not_bool": lambda P: P.nn.Linear(1, 1).train(1),
}


@pytest.mark.parametrize("case", list(_BAD_REGISTRATION))
def test_bad_registration_exception_types(case):
    """Bad names, values and assignments raise Paddle's exception types."""
    same_exception(_BAD_REGISTRATION[case])


def _with_buffer(P):
    layer = P.nn.Layer()
    layer.register_buffer("b", P.ones([1]))
    return layer


_ROUTING = {
    "tensor_attr_is_non_persistable": lambda P: (lambda l: (
        setattr(l, "t", P.zeros([3])), _names(l.named_buffers()), list(l.state_dict())))(P.nn.Layer()),
    "buffer_to_none": lambda P: (lambda l: (setattr(l, "b", None), l.b, list(l.state_dict())))(
        _with_buffer(P)),
    "buffer_to_parameter": lambda P: (lambda l: (setattr(l, "b", _param(P)), _names(l.named_parameters()),
                                                 _names(l.named_buffers())))(_with_buffer(P)),
    "reassigned_param_keeps_place": lambda P: (lambda l: (setattr(l, "weight", _param(P, (1, 1))),
                                                          _names(l.named_parameters())))(P.nn.Linear(1, 1)),
    "delattr_buffer": lambda P: (lambda l: (delattr(l, "b"), list(l.state_dict()), hasattr(l, "b")))(
        _with_buffer(P)),
    "add_none_sublayer": lambda P: (lambda l: (l.add_sublayer("a", None), _names(l.named_children()), l.a))(
        P.nn.Layer()),
    "add_none_parameter": lambda P: (lambda l: (l.add_parameter("w", None), _names(l.named_parameters()),
                                                l.w))(P.nn.Layer()),
    "persistable_flag_change": lambda P: (lambda l: (
        l.register_buffer("a", P.ones([1]), persistable=False), l.register_buffer("a", P.ones([1])),
        list(l.state_dict()))[-1])(P.nn.Layer()),
    "eval_propagates": lambda P: (lambda s: (s.eval(), s.training, s[0].training))(
        P.nn.Sequential(P.nn.Dropout())),
}


@pytest.mark.parametrize("case", list(_ROUTING))
def test_attribute_routing(case):
    """Assignments move a value between the parameter, buffer and sublayer tables as Paddle."""
    _same_plain(_ROUTING[case])


# -- hooks -------------------------------------------------------------------------------------

def _hooked(P, register):
    fc = P.nn.Linear(2, 2)
    fc.weight.set_value(np.arange(4, dtype="float32").reshape(2, 2))
    register(fc)
    return fc(P.to_tensor([[1.0, 2.0]]))


@pytest.mark.parametrize("register", [
    lambda fc: fc.register_forward_pre_hook(lambda m, i: i[0] * 2),
    lambda fc: (fc.register_forward_post_hook(lambda m, i, o: o + 1),
                fc.register_forward_post_hook(lambda m, i, o: o * 2, prepend=True)),
    lambda fc: fc.register_forward_pre_hook(lambda m, a, k: ((a[0] * 3,), k), with_kwargs=True),
    lambda fc: fc.register_forward_post_hook(lambda m, a, k, o: o * 5, with_kwargs=True),
    lambda fc: fc.register_forward_post_hook(lambda m, i, o: o * 0).remove(),
])
def test_forward_hooks(register):
    """Hook results replace inputs/outputs, in registration order unless prepended."""
    assert_same(*both(lambda P: _hooked(P, register)))


def test_pre_hook_with_kwargs_must_return_pair():
    """A with_kwargs pre-hook returning something else than (args, kwargs) is a RuntimeError."""
    same_exception(lambda P: _hooked(P, lambda fc: fc.register_forward_pre_hook(
        lambda m, a, k: a, with_kwargs=True)))


# -- create_parameter --------------------------------------------------------------------------

@pytest.mark.parametrize("attr", [
    lambda P: [P.ParamAttr()], lambda P: (P.ParamAttr(),), lambda P: ["w"], lambda P: 3.0,
])
def test_create_parameter_attr_list_or_bad_type(attr):
    """A list or tuple of attributes is an AssertionError; other types a TypeError."""
    same_exception(lambda P: P.nn.Layer().create_parameter([2], attr=attr(P)))


def test_create_parameter_empty_attr_list_creates_nothing():
    """An empty attribute list is falsy, as attr=False: no parameter (None)."""
    _same_plain(lambda P: P.nn.Layer().create_parameter([2], attr=[]))


def test_create_parameter_attributes():
    """dtype, is_bias, ParamAttr flags and the layer's dtype decide the new parameter."""
    def f(P):
        layer = P.nn.Layer(dtype="float64")
        w = layer.create_parameter([2])
        b = layer.create_parameter([3], is_bias=True)
        frozen = layer.create_parameter([1], attr=P.ParamAttr(trainable=False, learning_rate=0.5))
        return (str(w.dtype), b.numpy().tolist(), frozen.stop_gradient, frozen.trainable,
                frozen.optimize_attr, _names(layer.named_parameters()))
    _same_plain(f)


# -- dtype moves -------------------------------------------------------------------------------

@pytest.mark.parametrize("move", [
    lambda n: n.to(dtype="float64"), lambda n: n.to("cpu", "float64"), lambda n: n.double(),
    lambda n: n.to(dtype="float64").float(), lambda n: n.bfloat16(), lambda n: n.type("float64"),
])
def test_dtype_moves(move):
    """to/float/double/bfloat16 cast floating parameters and buffers in place (BatchNorm kept
    by bfloat16); integer buffers stay integer except under a full cast."""
    def f(P):
        n = _net(P)
        n.register_buffer("ib", P.ones([2], "int64"))
        w = n.fc.weight
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = move(n)
        return (r is n, n.fc.weight is w, repr(n.fc),
                [(k, str(v.dtype)) for k, v in n.to_static_state_dict().items()])
    _same_plain(f)


@pytest.mark.parametrize("call", [
    lambda P: P.nn.Linear(1, 1).to(device=3),
    lambda P: P.nn.Linear(1, 1).to(blocking=1),
    lambda P: P.nn.Linear(1, 1).astype("xyz"),
    lambda P: P.nn.Linear(1, 1).bfloat16(excluded_layers=3),
])
def test_dtype_move_bad_arguments(call):
    """A bad device, blocking flag, dtype or excluded_layers raises Paddle's type."""
    same_exception(call)


# -- containers --------------------------------------------------------------------------------

def _seq(P):
    return P.nn.Sequential(P.nn.Linear(1, 1), P.nn.ReLU(), P.nn.Tanh())


def _ll(P):
    return P.nn.LayerList([P.nn.Linear(1, 1), P.nn.ReLU(), P.nn.Tanh()])


def _ld(P):
    return P.nn.LayerDict(OrderedDict([("a", P.nn.Linear(1, 1)), ("b", P.nn.ReLU())]))


_CONTAINERS = {
    "seq_negative": lambda P: type(_seq(P)[-1]).__name__,
    "seq_slice": lambda P: (lambda s: (type(s).__name__, _kinds(s), _names(s.named_children())))(_seq(P)[::-1]),
    "seq_ordered_dict": lambda P: _names(P.nn.Sequential(OrderedDict(
        [("a", P.nn.ReLU()), ("b", P.nn.Tanh())])).named_children()),
    "seq_pairs": lambda P: _names(P.nn.Sequential(("a", P.nn.ReLU()), ("b", P.nn.Tanh())).named_children()),
    "seq_del_then_append": lambda P: (lambda s: (s.__delitem__(1), s.append(P.nn.ReLU()),
                                                 _names(s.named_children())))(_seq(P)),
    "seq_insert": lambda P: (lambda s: (s.insert(-1, P.nn.Sigmoid()), _kinds(s),
                                        _names(s.named_children())))(_seq(P)),
    "ll_delete_slice": lambda P: (lambda s: (s.__delitem__(slice(None, None, 2)), _kinds(s),
                                             _names(s.named_children())))(_ll(P)),
    "ll_insert_negative": lambda P: (lambda s: (s.insert(-3, P.nn.Sigmoid()), _kinds(s)))(_ll(P)),
    "ll_str_index": lambda P: type(_ll(P)["1"]).__name__,
    "ll_pop_negative": lambda P: (lambda s: (type(s.pop(-1)).__name__, _kinds(s)))(_ll(P)),
    "ll_add": lambda P: (lambda s: (type(s).__name__, _kinds(s)))(_ll(P) + [P.nn.ReLU()]),
    "ld_keys": lambda P: (list(_ld(P).keys()), "a" in _ld(P), len(_ld(P))),
    "ld_overwrite_keeps_order": lambda P: (lambda d: (d.__setitem__("a", P.nn.Sigmoid()), list(d.keys()),
                                                      _kinds(d.values())))(_ld(P)),
    "ld_pop": lambda P: (lambda d: (type(d.pop("a")).__name__, list(d.keys())))(_ld(P)),
    "pl_setitem_tensor": lambda P: (lambda l: (l.__setitem__(0, P.ones([4])), [p.shape for p in l],
                                               l[0].stop_gradient))(P.nn.ParameterList([_param(P), _param(P)])),
    "pd_update_pairs": lambda P: (lambda d: (d.update([("z", _param(P))]), list(d),
                                             _names(d.named_parameters())))(P.nn.ParameterDict({"a": _param(P)})),
}


@pytest.mark.parametrize("case", list(_CONTAINERS))
def test_container_behaviour(case):
    """Indexing, slicing, insertion and key order of the containers follow Paddle."""
    _same_plain(_CONTAINERS[case])


_CONTAINER_ERRORS = {
    "seq_out_of_range": lambda P: _seq(P)[3],
    "seq_float_index": lambda P: _seq(P)[1.0],
    "seq_missing_key": lambda P: _seq(P)["9"],
    "seq_setitem_int": lambda P: _seq(P).__setitem__(0, 3),
    "seq_delitem_out_of_range": lambda P: _seq(P).__delitem__(5),
    "seq_insert_out_of_range": lambda P: _seq(P).insert(7, P.nn.ReLU()),
    "seq_not_a_layer": lambda P: P.nn.Sequential(3),
    "ll_out_of_range": lambda P: _ll(P)[-4],
    "ll_insert_float": lambda P: _ll(P).insert(1.0, P.nn.ReLU()),
    "ll_extend_not_iterable": lambda P: _ll(P).extend(3),
    "ll_pop_out_of_range": lambda P: _ll(P).pop(9),
    "ld_missing": lambda P: _ld(P)["zz"],
    "ld_not_iterable": lambda P: P.nn.LayerDict(3),
    "ld_bad_pair": lambda P: P.nn.LayerDict([("z", P.nn.ReLU(), 1)]),
    "pl_not_parameter": lambda P: P.nn.ParameterList([P.ones([1])]),
    "pl_out_of_range": lambda P: P.nn.ParameterList([_param(P)])[3],
    "pd_not_parameter": lambda P: P.nn.ParameterDict({"z": P.ones([1])}),
    "pd_bad_pair": lambda P: P.nn.ParameterDict([("z", _param(P), 1)]),
}


@pytest.mark.parametrize("case", list(_CONTAINER_ERRORS))
def test_container_errors(case):
    """Bad indices, keys and element types raise Paddle's exception types."""
    same_exception(_CONTAINER_ERRORS[case])


# -- writing into parameters -------------------------------------------------------------------

@pytest.mark.parametrize("value", [lambda P: P.ones([2, 2]), lambda P: np.ones([2, 2], "float32")])
def test_assign_into_parameter(value):
    """paddle.assign(value, layer.weight) writes the values into the parameter, which stays
    the same trainable leaf."""
    def f(P):
        fc = P.nn.Linear(2, 2)
        w = fc.weight
        P.assign(value(P), fc.weight)
        fc(P.ones([1, 2])).sum().backward()
        return [fc.weight is w, fc.weight.stop_gradient, fc.weight.numpy().tolist(),
                fc.weight.grad.numpy().tolist()]
    _same_plain(f)
