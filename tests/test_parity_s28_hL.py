"""Parity of the ``paddle.static`` program API with real Paddle: cases from Paddle's own
unit tests (control flow, parameters and global variables, programs, executors)."""
import re

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


@pytest.fixture
def static_mode():
    paddle.enable_static()
    pagaie.enable_static()
    yield
    paddle.disable_static()
    pagaie.disable_static()


def _build(mod, fn):
    """Run ``fn(mod)`` while a fresh program of ``mod`` is built; the exception type or None."""
    with mod.static.program_guard(mod.static.Program(), mod.static.Program()):
        try:
            fn(mod)
        except Exception as e:  # noqa: BLE001 - the type is compared with Paddle's
            return type(e)
    return None


# cond / case / switch_case: outputs of different ranks in two branches are refused while
# the program is built (Paddle: "Does not support rank inconsistency")
_RANKS = {
    "cond_0d_1d": lambda m: m.static.nn.cond(
        m.full([1], 1.0) > 0, lambda: m.full([], 1.0), lambda: m.full([1], 1.0)),
    "cond_tuple": lambda m: m.static.nn.cond(
        m.full([1], 1.0) > 0, lambda: (m.full([1], 1.0), m.full([], 1.0)),
        lambda: (m.full([1], 2.0), m.full([2, 2], 1.0))),
    "case": lambda m: m.static.nn.case(
        [(m.full([1], 1.0) > 0, lambda: m.full([3, 2], 1.0))], lambda: m.full([2], 1.0)),
    "switch_case": lambda m: m.static.nn.switch_case(
        m.full([1], 1, "int32"), {1: lambda: m.full([3, 2], 1.0), 2: lambda: m.full([2], 1.0)}),
}


@pytest.mark.parametrize("case", sorted(_RANKS))
def test_branch_outputs_of_other_ranks_are_refused(static_mode, case):
    assert _build(paddle, _RANKS[case]) is not None
    assert _build(pagaie, _RANKS[case]) is ValueError


def test_branch_outputs_of_one_rank_still_merge(static_mode):
    def fn(m):
        out = m.static.nn.cond(m.full([1], 1.0) > 0, lambda: m.full([3], 1.0),
                               lambda: m.full([2], 1.0))
        assert list(out.shape) == [-1]
    assert _build(paddle, fn) is None
    assert _build(pagaie, fn) is None


# create_parameter: a name that is not a str; an attr that is not a ParamAttr in a program
_PARAM_ERRORS = {
    "name_int": lambda m: m.create_parameter([3, 2], "float32", name=3),
    "static_name_int": lambda m: m.static.create_parameter([3, 2], "float32", name=3),
    "attr_str": lambda m: m.static.create_parameter([3, 2], "float32", attr="w"),
    "attr_false": lambda m: m.static.create_parameter([3, 2], "float32", attr=False),
    "attr_dict": lambda m: m.create_parameter([3, 2], "float32", attr={}),
}


@pytest.mark.parametrize("case", sorted(_PARAM_ERRORS))
def test_create_parameter_argument_errors_in_programs(static_mode, case):
    assert _build(paddle, _PARAM_ERRORS[case]) is TypeError
    assert _build(pagaie, _PARAM_ERRORS[case]) is TypeError


def test_create_parameter_eager_name_error():
    for mod in (paddle, pagaie):
        with pytest.raises(TypeError):
            mod.create_parameter([3, 2], "float32", name=3)
    # (an eager call takes a str attr as the name, as Paddle's)
    assert pagaie.create_parameter([3, 2], "float32", attr="w_s28").name == "w_s28"


@pytest.mark.parametrize("dtype", ["complex64", np.complex128])
def test_create_global_var_refuses_complex(static_mode, dtype):
    def fn(m):
        m.static.create_global_var([1, 2, 3], 2.0, dtype)
    assert _build(paddle, fn) is TypeError
    assert _build(pagaie, fn) is TypeError


def test_create_global_var_values(static_mode):
    # (Paddle 3.3.1 fails on every valid call in its PIR mode: checked against numpy)
    main, startup = pagaie.static.Program(), pagaie.static.Program()
    with pagaie.static.program_guard(main, startup):
        v = pagaie.static.create_global_var([1, 2], 2.5, "int32", persistable=True, name="gv")
        b = pagaie.static.create_global_var([2], 1, "bfloat16")
    assert (v.name, v.persistable, str(b.dtype)) == ("gv", True, "paddle.bfloat16")
    exe = pagaie.static.Executor()
    exe.run(startup)
    np.testing.assert_array_equal(exe.run(main, fetch_list=[v])[0], [[2, 2]])


@pytest.mark.parametrize("flag", ["print_tensor_name", "print_tensor_type", "print_tensor_shape",
                                  "print_tensor_layout", "print_tensor_lod"])
@pytest.mark.parametrize("value", [3, "a", False])
def test_print_flags_must_be_bool(static_mode, flag, value):
    def fn(m):
        x = m.static.data("x", [-1, 3], "float32")
        m.static.Print(x, **{flag: value})
    want = None if value is False else TypeError
    assert _build(paddle, fn) is want
    assert _build(pagaie, fn) is want


_ATTR_ARGS = [{"name": 3}, {"learning_rate": "a"}, {"learning_rate": np.float32(1)},
              {"trainable": 3}, {"trainable": np.bool_(True)}, {"initializer": 3},
              {"regularizer": 3}, {"do_model_average": 3}, {"need_clip": 3}]


@pytest.mark.parametrize("cls", ["ParamAttr", "WeightNormParamAttr"])
@pytest.mark.parametrize("kwargs", _ATTR_ARGS, ids=lambda k: "-".join(map(str, k.items())))
def test_param_attr_types_checked_in_static_mode(cls, kwargs):
    def make(m):
        return getattr(m if cls == "ParamAttr" else m.static, cls)(**kwargs)
    for m in (paddle, pagaie):  # eager: anything goes
        make(m)
    paddle.enable_static()
    pagaie.enable_static()
    try:
        for m in (paddle, pagaie):
            with pytest.raises(TypeError):
                make(m)
    finally:
        paddle.disable_static()
        pagaie.disable_static()


def test_program_list_vars_is_a_list(static_mode):
    for m in (paddle, pagaie):
        main = m.static.Program()
        with m.static.program_guard(main, m.static.Program()):
            x = m.static.data("x", [-1, 3], "float32")
            m.static.nn.fc(x, 2)
        vs = main.list_vars()
        assert isinstance(vs, list)
        # the fc number depends on the layers earlier tests built (Paddle's counter ignores
        # unique_name.guard here): only the form of the names is compared
        names = sorted(re.sub(r"^fc_\d+", "fc_N", v.name) for v in vs if v.persistable)
        assert names == ["fc_N.b_0", "fc_N.w_0"]


def test_value_shape_can_not_be_set(static_mode):
    def fn(m):
        y = m.static.data("x", [-1, 3], "float32") + 1
        y.shape = [2, 3]
    assert _build(paddle, fn) is ValueError
    assert _build(pagaie, fn) is ValueError


def test_gradients_of_no_target(static_mode):
    for m in (paddle, pagaie):
        with m.static.program_guard(m.static.Program(), m.static.Program()):
            x = m.static.data("x", [2, 3], "float32")
            x.stop_gradient = False
            assert m.static.gradients([], [x, x]) == [None, None]


@pytest.mark.parametrize("runs", [0, 3])
def test_eager_while_loop_keeps_a_tuple(runs):
    for m in (paddle, pagaie):
        out = m.static.nn.while_loop(lambda i: i < runs, lambda i: [i + 1], (m.full([1], 0),))
        assert type(out) is tuple
        assert out[0].item() == runs


def test_eager_while_loop_condition_of_many_elements_later():
    # (the first condition is checked as in programs: TypeError; a later one: ValueError)
    for m in (paddle, pagaie):
        with pytest.raises(TypeError):
            m.static.nn.while_loop(lambda i: i < 3, lambda i: [i + 1], [m.full([2], 0)])
        with pytest.raises(ValueError):
            m.static.nn.while_loop(lambda i: i < 3, lambda i: [m.concat([i, i])], [m.full([1], 0)])


def test_scope_scalars_and_size():
    for m in (paddle, pagaie):
        scope = m.static.Scope()
        assert scope.size() == 0
        v = scope.var("t")
        scope.var("t")
        assert scope.size() == 1 and not v.is_int() and not v.is_float()
        with pytest.raises(RuntimeError):
            v.get_int()
        with pytest.raises(TypeError):
            v.set_int("a")
        v.set_int(10)
        assert (v.is_int(), v.get_int()) == (True, 10)
        with pytest.raises(ValueError):
            v.set_float(1.5)
        with pytest.raises(ValueError):
            v.get_float()
        f = scope.var("f")
        f.set_float(1.5)
        assert (f.is_int(), f.is_float(), f.get_float()) == (False, True, 1.5)
        kid = scope.new_scope()
        kid.var("b")
        assert (scope.size(), kid.size()) == (2, 1)
        # an uninitialised tensor reads as an empty float64 array
        a = np.array(scope.var("u").get_tensor())
        assert a.shape == (0,) and a.dtype == np.float64
