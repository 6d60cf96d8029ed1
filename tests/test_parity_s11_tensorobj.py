"""Session-11 sweep of the tensor object against real Paddle 3.3.1: the ``paddle.Tensor``
constructor forms (Paddle 3's ``device=``/``data=``/list/shape forms, the value form's ignored
arguments and type checks), the ``name``/``persistable`` setters, ``paddle.Size``, iteration of
0-D tensors, ``get_tensor`` and Paddle's private accessors, ``pin_memory`` on a CPU-only
machine, and ``to_tensor``'s error type for data numpy can only hold as objects."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


@pytest.fixture(autouse=True)
def _restore_default_dtype():
    yield
    pagaie.set_default_dtype("float32")
    paddle_ref().set_default_dtype("float32")


def _np(v, dt="float64"):
    return np.array(v, dt)


# ---- paddle.Tensor(...) ------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda P: P.Tensor(device="cpu"), lambda P: P.Tensor([1, 2], device="cpu"),
    lambda P: P.Tensor(data=[1, 2], device="cpu"), lambda P: P.Tensor(data=_np([1, 2], "int64")),
    lambda P: P.Tensor(data=P.to_tensor([1, 2])), lambda P: P.Tensor(data=3),
    lambda P: P.Tensor(data=_np([1, 2], "uint32")), lambda P: P.Tensor(data=_np([1], "uint16")),
    lambda P: P.Tensor([P.to_tensor(1), P.to_tensor(2)]), lambda P: P.Tensor((1.5, 2)),
    lambda P: P.Tensor([1, 2], foo=3),
], ids=["device", "list_device", "data_device", "data_int64", "data_tensor", "data_scalar",
        "data_uint32", "data_uint16", "list_of_tensors", "tuple", "list_ignores_kwargs"])
def test_tensor_data_forms_give_float32(make):
    """Paddle 3: ``Tensor()``, ``Tensor(list)`` and ``Tensor(data=...)`` build float32 tensors
    (on ``device``, the CPU by default), ignoring the other arguments."""
    ours, theirs = both(make)
    assert_same(ours, theirs)
    assert ours.stop_gradient is theirs.stop_gradient is True


def test_tensor_data_forms_ignore_the_default_dtype():
    """Paddle: the list, shape and empty forms are float32 whatever the default dtype."""
    def run(P):
        P.set_default_dtype("float64")
        return [str(t.dtype) for t in (P.Tensor([1, 2]), P.Tensor(2, 3), P.Tensor(),
                                       P.Tensor(data=[1.5]), P.Tensor(2, 3, device="cpu"))]
    ours, theirs = both(run)
    assert ours == theirs


def test_tensor_data_form_ignores_stop_gradient():
    """Paddle: ``Tensor(data=..., stop_gradient=False)`` still stops gradient."""
    ours, theirs = both(lambda P: P.Tensor(data=[1.0, 2.0], stop_gradient=False).stop_gradient)
    assert ours is theirs is True


@pytest.mark.parametrize("make", [
    lambda P: P.Tensor(data=None), lambda P: P.Tensor(data="abc"), lambda P: P.Tensor([[1], [2, 3]]),
    lambda P: P.Tensor(["a"]), lambda P: P.Tensor([None]), lambda P: P.Tensor([1.0], device="foo"),
], ids=["none", "str", "ragged", "strings", "nones", "bad_device"])
def test_tensor_data_form_errors(make):
    """Paddle: TypeError for data that is not numbers, ValueError for irregular data or an
    unknown device."""
    same_exception(make)


def test_tensor_of_tensor_shares_data_and_stops_gradient():
    """Paddle: ``Tensor(t, ...)`` shares ``t``'s data, always stops gradient, is never
    persistable, and ignores ``dtype``; only ``name`` is taken."""
    def run(P):
        src = P.to_tensor([1.0, 2.0], stop_gradient=False)
        a = P.Tensor(src)
        b = P.Tensor(src, stop_gradient=False)
        c = P.Tensor(value=src, persistable=True, name="kept")
        d = P.Tensor(value=P.to_tensor([1, 2]), dtype="float64")
        with P.no_grad():
            a[0] = 5.0
        return ([t.stop_gradient for t in (a, b, c)], c.persistable, c.name, str(d.dtype),
                src.numpy().tolist(), a.is_leaf)
    ours, theirs = both(run)
    assert ours == theirs


def test_tensor_of_ndarray_ignores_dtype():
    """Paddle: the value form keeps the array's dtype whatever ``dtype`` says (so do the
    ``FloatTensor``-style factories given an array)."""
    for make in (lambda P: P.Tensor(_np([1.0, 2.0]), dtype="int32"),
                 lambda P: P.Tensor(_np([1.0]), dtype="bfloat16"),
                 lambda P: P.Tensor(value=_np([1.0, 2.0]), stop_gradient=False),
                 lambda P: P.Tensor(value=_np([1, 2], "int64"), stop_gradient=None),
                 lambda P: P.FloatTensor(_np([1, 2], "int64")),
                 lambda P: P.FloatTensor(_np([1.0, 2.0]))):
        ours, theirs = both(make)
        assert_same(ours, theirs)
        assert ours.stop_gradient == theirs.stop_gradient


@pytest.mark.parametrize("kw", [
    {"place": "cpu"}, {"place": None}, {"stop_gradient": 1}, {"name": 1}, {"persistable": 1},
    {"zero_copy": 1}, {"persistable": "yes"},
])
def test_tensor_value_form_argument_types(kw):
    """Paddle: a TypeError when the value form's ``place`` is not a Place (a string included)
    or a flag/name has the wrong type."""
    same_exception(lambda P: P.Tensor(_np([1.0]), **kw))


def test_tensor_value_form_positional_place_string():
    """Paddle: ``Tensor(value, 'cpu')`` is a TypeError (the place must be a Place object)."""
    same_exception(lambda P: P.Tensor(P.to_tensor([1.0]), "cpu"))
    same_exception(lambda P: P.Tensor(_np([1.0]), "cpu"))


def test_tensor_non_data_first_argument_before_place():
    """Paddle: ``Tensor(2.0, 3.0)`` fails on the value (ValueError), not on the place."""
    same_exception(lambda P: P.Tensor(2.0, 3.0))


def test_tensor_constructor_names():
    """Paddle: the list and ``data=`` forms use a temporary tensor name first."""
    script_names = []
    for P in (pagaie, paddle_ref()):
        P.to_tensor(0.0)
        names = []
        for make in (lambda: P.Tensor(data=[1, 2]), lambda: P.Tensor(data=_np([1.0])),
                     lambda: P.Tensor(data=P.to_tensor([1])), lambda: P.Tensor(device="cpu")):
            first = int(P.to_tensor(0.0).name.rsplit("_", 1)[1])
            t = make()
            names.append(int(t.name.rsplit("_", 1)[1]) - first)
        script_names.append(names)
    assert script_names[0] == script_names[1]


# ---- name / persistable setters -----------------------------------------------------------------

@pytest.mark.parametrize("attr,value", [
    ("name", 1), ("name", b"a"), ("persistable", 1), ("persistable", np.bool_(True)),
    ("persistable", 0.0),
])
def test_attribute_setters_check_types(attr, value):
    """Paddle: ``name`` must be a str and ``persistable`` a bool (TypeError)."""
    same_exception(lambda P: setattr(P.to_tensor([1.0]), attr, value))


def test_attribute_setters_accept_none_and_numpy_str():
    """Paddle: ``persistable = None`` reads as False; ``name = np.str_`` is taken as a str and
    ``name = None`` gives a generated name."""
    def run(P):
        x = P.to_tensor([1.0])
        x.persistable = True
        x.persistable = None
        x.name = np.str_("abc")
        shown = [x.persistable, type(x.name).__name__, x.name]
        x.name = None
        return shown + [x.name.startswith("eager_tmp_")]
    ours, theirs = both(run)
    assert ours == theirs


# ---- paddle.Size ---------------------------------------------------------------------------------

def test_size_equals_tuples_and_keeps_its_type():
    """Paddle: a Size equals the tuple of its ints; concatenation (either side, with a list or
    a tuple) and repetition give a Size."""
    def run(P):
        s = P.ones([2, 3]).shape
        return [s == (2, 3), s != (2, 3), (2, 3) == s, s == (2, 4), s == [2, 3],
                repr([4] + s), repr((4,) + s), repr(s + (4,)), repr(s * 2), repr(2 * s),
                repr(pickle.loads(pickle.dumps(s))), type(copy.copy(s)).__name__]
    ours, theirs = both(run)
    assert ours == theirs


def test_size_stays_unhashable_and_unordered_with_tuples():
    """Paddle: a Size is unhashable and doesn't compare in order with a tuple (TypeError)."""
    same_exception(lambda P: hash(P.ones([2]).shape))
    same_exception(lambda P: P.ones([2]).shape < (3,))


@pytest.mark.parametrize("items", [[2.5], [np.float64(2.0)], ["a"], [None], [np.array([3])]],
                         ids=["float", "np_float", "str", "none", "array"])
def test_size_rejects_non_int_items(items):
    """Paddle: ``paddle.Size`` takes only ints (TypeError)."""
    same_exception(lambda P: P.Size(items))


def test_size_converts_int_likes():
    """Paddle: numpy ints, 0-D arrays and 0-D Tensors (any dtype) become ints."""
    def run(P):
        s = P.Size([np.int64(3), np.array(4), P.to_tensor(2.0), P.to_tensor(5, dtype="int32")])
        return repr(s), [type(v).__name__ for v in s]
    ours, theirs = both(run)
    assert ours == theirs
    same_exception(lambda P: P.Size([P.to_tensor([2])]))


# ---- iteration of a 0-D tensor -------------------------------------------------------------------

def test_zero_d_tensor_iterates_over_nothing():
    """Paddle (iteration by indexing): ``for``/``in`` over a 0-D tensor see no element, while
    ``list()``/``tuple()`` fail on ``len()`` (AssertionError)."""
    ours, theirs = both(lambda P: (1.0 in P.to_tensor(1.0), [v for v in P.to_tensor(1.0)],
                                   list(zip(P.to_tensor(2.0), [1]))))
    assert ours == theirs == (False, [], [])
    for fn in (list, tuple, lambda v: [*v], sorted):
        err = same_exception(lambda P: fn(P.to_tensor(1.0)))
        assert type(err) is AssertionError


def test_iteration_of_n_d_tensors_unchanged():
    """Paddle: iterating a 1-D or N-D tensor gives its rows."""
    ours, theirs = both(lambda P: list(P.to_tensor([[1, 2], [3, 4]])) + list(P.to_tensor([5, 6])))
    assert_same(ours, theirs)
    assert 2.0 in pagaie.to_tensor([1.0, 2.0])


# ---- get_tensor and Paddle's private accessors ---------------------------------------------------

def test_get_tensor_is_a_dense_tensor_view():
    """Paddle: ``get_tensor()`` gives the DenseTensor behind the tensor: ``shape()``,
    ``_numel()``, ``np.array``, ``lod()``, printing, and ``set`` writing through."""
    def run(P):
        x = P.to_tensor([[1.0, 2.5]])
        d = x.get_tensor()
        out = [type(d).__name__, d.shape(), d._numel(), np.array(d).tolist(), d.lod(),
               d._is_initialized(), str(d._place()), str(d)]
        d.set(np.array([[7.0, 8.0]], "float32"), P.CPUPlace())
        return out + [x.numpy().tolist(), x.value() is x]
    ours, theirs = both(run)
    assert ours == theirs


def test_private_accessors():
    """Paddle's private accessors: ``_numel``, ``_offset`` (bytes), ``_place_str``,
    ``_grad_ivar``, ``_md5sum`` and ``_is_dense_tensor_hold_allocation``."""
    def run(P):
        x = P.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        before = x._grad_ivar()
        (x * x).sum().backward()
        cleared = P.ones([2])
        cleared._clear_data()
        return [x._numel(), x[1]._offset(), x._place_str, before, x._grad_ivar().numpy().tolist(),
                x._md5sum(), x._is_dense_tensor_hold_allocation(),
                P.zeros([0])._is_dense_tensor_hold_allocation(),
                cleared._is_dense_tensor_hold_allocation()]
    ours, theirs = both(run)
    assert ours == theirs


def test_use_gpudnn_is_another_handle_of_the_tensor():
    """Paddle: ``x._use_gpudnn(False)`` is a leaf with ``x``'s name whose gradient is ``x``'s."""
    def run(P):
        x = P.to_tensor([1.5], stop_gradient=False)
        y = x._use_gpudnn(False)
        (y * 2).sum().backward()
        return [y is x, y.name == x.name, y.stop_gradient, y.is_leaf, x.grad.numpy().tolist()]
    ours, theirs = both(run)
    assert ours == theirs


# ---- pin_memory on a machine without a GPU --------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda P: P.zeros([2], pin_memory=True), lambda P: P.ones([2], pin_memory=True),
    lambda P: P.full([2], 1.0, pin_memory=True), lambda P: P.empty([2], pin_memory=True),
    lambda P: P.zeros_like(P.ones([2]), pin_memory=True),
    lambda P: P.ones_like(P.ones([2]), pin_memory=True),
    lambda P: P.full_like(P.ones([2]), 2.0, pin_memory=True),
    lambda P: P.empty_like(P.ones([2]), pin_memory=True),
    lambda P: P.ones([2]).new_zeros([2], pin_memory=True),
    lambda P: P.ones([2]).new_ones([2], pin_memory=True),
    lambda P: P.ones([2]).new_full([2], 3.0, pin_memory=True),
    lambda P: P.ones([2]).new_empty([2], pin_memory=True),
    lambda P: P.as_tensor([1.0], pin_memory=True), lambda P: P.tensor([1.0], pin_memory=True),
    lambda P: P.as_tensor([1.0], device="cpu", pin_memory=True),
], ids=["zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
        "new_zeros", "new_ones", "new_full", "new_empty", "as_tensor", "tensor", "as_tensor_cpu"])
def test_pin_memory_of_a_cpu_place_raises(make):
    """Paddle: ``pin_memory=True`` for a tensor created on the CPU is a RuntimeError."""
    same_exception(make)


def test_pin_memory_false_is_fine():
    """Paddle: ``pin_memory=False`` changes nothing."""
    assert_same(*both(lambda P: P.zeros([2], pin_memory=False)))


def test_pin_memory_method_without_gpu():
    """Paddle's CPU build: ``x.pin_memory()`` is a RuntimeError (pinned memory needs CUDA)."""
    import torch
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    same_exception(lambda P: P.ones([2]).pin_memory())


# ---- to_tensor: data numpy holds only as objects ----------------------------------------------------

@pytest.mark.parametrize("data", [[None], [1, None], [2**70], [[1, 2], [None, 3]], (None,), 2**70,
                                  np.array([1, 2], object), ["a"]],
                         ids=["none", "int_none", "huge_int", "nested_none", "tuple_none",
                              "huge_scalar", "object_array", "strings"])
@pytest.mark.parametrize("dtype", [None, "float32"])
def test_to_tensor_object_data_error_type(data, dtype):
    """Paddle: ValueError for a list numpy could only hold as objects (with or without
    ``dtype``); TypeError when a ``dtype`` is given for other non-numeric data."""
    same_exception(lambda P: P.to_tensor(data, dtype=dtype))
