"""The rarer Tensor methods and top-level names, compared with real Paddle: ``set_``,
``set_tensor``, ``reconstruct_from_``, string/vocabulary holders, selected-rows and
distributed queries, the constructor forms of ``Tensor`` and ``nn.Parameter``,
``pstring``/``raw``, ``XPUPinnedPlace``, ``MmapStorage``, in-place signatures,
``grad(dump_backward_graph_path=)`` and the static ``Variable`` signature."""
from __future__ import annotations

import inspect
import os

import numpy as np
import pytest

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception


# ---- in-place variants: Paddle's signatures, no ``out`` -------------------------------------

@pytest.mark.parametrize("name", ["bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_",
                                  "bitwise_invert_", "cumprod_"])
def test_inplace_signature_matches_paddle(name):
    ref = paddle_ref()
    ours = list(inspect.signature(getattr(pagaie, name)).parameters)
    theirs = list(inspect.signature(getattr(ref, name)).parameters)
    assert ours == theirs
    assert "out" not in ours


def test_cumprod_inplace_positional_dtype():
    ours, theirs = both(lambda p: p.cumprod_(p.to_tensor([1.0, 2.0, 3.0]), 0, None))
    assert_same(ours, theirs)
    ours, theirs = both(lambda p: p.to_tensor([[1, 2], [3, 4]]).cumprod_(1))
    assert_same(ours, theirs)


def test_bitwise_inplace_values():
    ours, theirs = both(lambda p: p.bitwise_and_(p.to_tensor([12, 10]), p.to_tensor([10, 6])))
    assert_same(ours, theirs)
    ours, theirs = both(lambda p: p.to_tensor([5, 0]).bitwise_not_())
    assert_same(ours, theirs)


# ---- pstring / raw / XPUPinnedPlace --------------------------------------------------------

def test_opaque_dtypes():
    ref = paddle_ref()
    for n in ("pstring", "raw"):
        a, b = getattr(pagaie, n), getattr(ref, n)
        assert str(a) == str(b) and repr(a) == repr(b)
        assert a == a and a != pagaie.float32
        assert isinstance(a, pagaie.dtype)
    assert pagaie.pstring != pagaie.raw
    assert pagaie.to_tensor([1.0]).dtype != pagaie.pstring
    same_exception(lambda p: p.to_tensor([1.0], dtype=p.pstring))


def test_xpu_pinned_place_refused():
    same_exception(lambda p: p.XPUPinnedPlace())


# ---- MmapStorage ---------------------------------------------------------------------------

@pytest.fixture
def raw_file(tmp_path):
    path = str(tmp_path / "a.bin")
    np.arange(20, dtype="float32").tofile(path)
    return path


@pytest.mark.parametrize("args", [("float32", 0, 20), ("float32", 4, 8), ("float32", 0, 10, 2),
                                  ("int32", 0, 3), ("float64", 0, 3), ("uint8",), ("float32", 5, 2),
                                  ("float32", 8, 14, 3), ("float32", 2, 5)])
def test_mmap_storage_get_slice(raw_file, args):
    ours, theirs = both(lambda p: p.MmapStorage(raw_file, 80).get_slice(*args))
    assert_same(ours, theirs)
    assert ours.stop_gradient


def test_mmap_storage_errors(raw_file, tmp_path):
    same_exception(lambda p: p.MmapStorage(str(tmp_path / "missing.bin"), 8))
    same_exception(lambda p: p.MmapStorage(raw_file, 1000))
    with pytest.raises(ValueError):
        pagaie.MmapStorage(raw_file, 8).get_slice("float32", 0, 4)


# ---- set_, set_tensor, reconstruct_from_ ---------------------------------------------------

SET_CASES = [(), ("S",), ("S", [2, 3]), ("S", [2, 3], [1, 2]), ("S", [2, 2], [3, 1], 8),
             ("S", [3], [1], 4), ("S", [2, 2], None, 4), ("S", (5,), (2,)), ("S", [0]),
             ("S", [3, 3])]


@pytest.mark.parametrize("args", SET_CASES)
def test_set_matches_paddle(args):
    def run(p):
        src = p.arange(10, dtype="float32")
        x = p.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        r = x.set_(*[src if a == "S" else a for a in args])
        assert r is x
        return x, x.strides, x.offset

    (x, s, o), (y, s2, o2) = both(run)
    assert_same(x, y)
    assert s == list(s2) and o == o2


def test_set_shares_memory_and_keeps_dtype():
    src = pagaie.arange(6, dtype="float32")
    x = pagaie.to_tensor([0.0])
    x.set_(src, [2], [2])
    src[0] = 100.0
    assert x.tolist() == [100.0, 2.0]
    ours, theirs = both(lambda p: p.to_tensor([1.0, 2.0]).set_(p.to_tensor(3.0)))
    assert_same(ours, theirs)


def test_set_errors():
    same_exception(lambda p: p.to_tensor([1.0]).set_([1, 2]))
    same_exception(lambda p: p.to_tensor([1.0]).set_(p.arange(10, dtype="float32"), [2, -1]))
    same_exception(lambda p: p.to_tensor([1.0], stop_gradient=False).set_(p.to_tensor([2.0])))
    with pytest.raises(ValueError):  # Paddle reads past the buffer here; we refuse
        pagaie.to_tensor([1.0]).set_(pagaie.arange(4, dtype="float32"), [20])


def test_set_tensor_and_reconstruct_from():
    def run(p):
        a = p.to_tensor([1.0, 5.0], stop_gradient=False)
        c = p.to_tensor([[7, 8]], dtype="int32")
        assert a.set_tensor(c) is None
        b = p.to_tensor([1.0], stop_gradient=False)
        d = p.to_tensor([[2.0, 3.0]])
        assert b.reconstruct_from_(d) is None
        return a, a.stop_gradient, b, b.stop_gradient

    ours, theirs = both(run)
    assert_same(ours[0], theirs[0])
    assert_same(ours[2], theirs[2])
    assert ours[1] == theirs[1] and ours[3] == theirs[3]
    same_exception(lambda p: p.to_tensor([1.0]).set_tensor([1.0]))
    same_exception(lambda p: p.to_tensor([1.0]).reconstruct_from_([1.0]))


def test_reconstruct_from_shares_data():
    a, b = pagaie.to_tensor([1.0]), pagaie.to_tensor([2.0, 3.0])
    a.reconstruct_from_(b)
    b[0] = 9.0
    assert a.tolist() == [9.0, 3.0]


# ---- holders, selected rows, distributed attributes, block ---------------------------------

def test_vocab_and_string_list_holders():
    def run(p):
        v = p.to_tensor([1.0, 2.0])
        v.set_vocab({"a": 1, "b": 2})
        s = p.to_tensor([1.0])
        s.set_string_list(["x", "y", "z"])
        return (v.get_map_tensor(), list(v.shape), v.dtype.value, len(v), v.is_dense(),
                list(s.shape), s.dtype.value)

    ours, theirs = both(run)
    assert ours == theirs
    same_exception(lambda p: p.to_tensor([1.0]).get_map_tensor())
    same_exception(lambda p: p.to_tensor([1.0]).set_string_list("a"))
    v = pagaie.to_tensor([1.0])
    v.set_vocab({"a": 1})
    with pytest.raises(RuntimeError):
        v + 1
    v.set_tensor(pagaie.to_tensor([3, 4]))
    assert v.tolist() == [3, 4] and v.dtype == pagaie.int64


def test_dense_queries():
    def run(p):
        x = p.ones([2])
        return (x.is_selected_rows(), x.get_selected_rows(), x.placements, x.process_mesh,
                x.num_shard)

    ours, theirs = both(run)
    assert ours == theirs
    same_exception(lambda p: p.ones([2]).rows())
    assert "block_idx:0" in str(pagaie.ones([2]).block)


def test_create_tensor_and_parameter_on_class():
    def run(p):
        t = p.Tensor.create_tensor("int64", name="buf", persistable=True)
        w = p.Tensor.create_parameter([2, 3], "float32")
        return str(t.dtype), t.name, t.persistable, list(w.shape), w.stop_gradient, str(w.dtype)

    ours, theirs = both(run)
    assert ours[1:] == theirs[1:] and ours[0].endswith("int64") and "INT64" in theirs[0].upper()
    same_exception(lambda p: p.ones([1]).create_tensor("float32"))


# ---- constructors --------------------------------------------------------------------------

CTOR_CASES = [lambda p: p.Tensor(), lambda p: p.Tensor(np.array([1.0, 2.0])),
              lambda p: p.Tensor([1, 2]), lambda p: p.Tensor((2, 3)), lambda p: p.Tensor([]),
              lambda p: p.Tensor(np.array(3.0)), lambda p: p.Tensor(np.array([1, 2], dtype="int32")),
              lambda p: p.Tensor(np.array([1, 2]), p.CPUPlace()),
              lambda p: p.Tensor(p.to_tensor([1.0, 2.0]))]


@pytest.mark.parametrize("i", range(len(CTOR_CASES)))
def test_tensor_constructor_forms(i):
    ours, theirs = both(CTOR_CASES[i])
    assert_same(ours, theirs)
    assert ours.stop_gradient == theirs.stop_gradient


def test_tensor_constructor_keywords_and_errors():
    def run(p):
        a = p.Tensor(value=np.array([1.0, 2.0]), name="a", stop_gradient=False)
        b = p.Tensor(np.array([1, 2]), p.CPUPlace(), False, False, "nm")
        return a.name, a.stop_gradient, b.name, list(p.Tensor(2, 3).shape), str(p.Tensor(2, 3).dtype)

    ours, theirs = both(run)
    assert ours == theirs
    lod = pagaie.base.core.VarDesc.VarType.LOD_TENSOR
    assert pagaie.Tensor(pagaie.float32, [2, 3], "x", lod, True).persistable
    same_exception(lambda p: p.Tensor(1.5))
    same_exception(lambda p: p.Tensor("a"))
    same_exception(lambda p: p.Tensor(x=1))


def test_parameter_constructor_forms():
    def run(p):
        w = p.nn.Parameter([2, 3], "float32")
        e = p.nn.Parameter()
        v = p.nn.Parameter(p.to_tensor([1.0, 2.0]))
        return (list(w.shape), str(w.dtype), w.stop_gradient, w.trainable, list(e.shape),
                e.stop_gradient, v.numpy().tolist(), v.stop_gradient)

    ours, theirs = both(run)
    assert ours[0] == theirs[0] and ours[2:] == theirs[2:]
    same_exception(lambda p: p.nn.Parameter([2, 3]))
    same_exception(lambda p: p.nn.Parameter([-1], "float32"))


# ---- autograd and static signatures --------------------------------------------------------

def test_grad_dump_backward_graph(tmp_path):
    x = pagaie.to_tensor([2.0], stop_gradient=False)
    (g,) = pagaie.grad((x * x).sum(), x, dump_backward_graph_path=str(tmp_path))
    assert g.tolist() == [4.0]
    files = os.listdir(tmp_path)
    assert any(f.endswith("_backward_graph.dot") for f in files)


def test_static_variable_and_append_backward_signatures():
    ref = paddle_ref()
    ours = list(inspect.signature(pagaie.static.Variable.__init__).parameters)
    theirs = list(inspect.signature(ref.static.Variable.__init__).parameters)
    assert ours == theirs
    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main):
            x = pagaie.static.data("x", [None, 2], "float32")
            loss = pagaie.mean(pagaie.nn.Linear(2, 1)(x))
            assert len(pagaie.static.append_backward(loss, distop_context=None)) == 2
            v = pagaie.static.Variable(main.global_block(), name="v", shape=[3], dtype="float64")
            assert main.global_block().var("v") is v and not v.stop_gradient
    finally:
        pagaie.disable_static()


def test_deepcopy_names_follow_paddle():
    import copy
    from tests.reference import both

    def names(p):
        p.utils.unique_name.switch()  # fresh counters in both frameworks
        t = p.to_tensor([1.0])
        layer = p.nn.Linear(2, 2)
        # (generated_tensor_N numbering is process-wide in both: compare what follows it)
        names = [copy.deepcopy(t).name, copy.deepcopy(t).name, copy.deepcopy(layer).weight.name]
        return [n[len(t.name):] for n in names[:2]] + names[2:]

    ours, theirs = both(names)
    assert ours == theirs
