"""Regressions from Paddle's doc examples (helper F1): stop_gradient of gradients, integer
tensors and Jacobians; in-place increment/silu; 0-D formatting; hook handles; generator and
device queries; run_check; make_scheduler; generated tensor names."""
import warnings

import pytest
import torch

import pagaie
from tests.reference import assert_same, both, same_exception


def _x(pd, data=(1.0, 2.0, 3.0), sg=False):
    return pd.to_tensor(list(data), dtype="float32", stop_gradient=sg)


# ---- stop_gradient flags ----------------------------------------------------------------
def test_grad_tensors_say_stop_gradient_false():
    def f(pd):
        x = _x(pd)
        y = x * 3.0
        y.retain_grads()
        (y * x).sum().backward()
        g = x.grad
        out = [g.stop_gradient, y.grad.stop_gradient, x.grad.stop_gradient]
        g.stop_gradient = True  # shared by every wrapper of the gradient, as in Paddle
        out.append(x.grad.stop_gradient)
        g.stop_gradient = False
        out.append(x.grad.stop_gradient)
        return out
    ours, theirs = both(f)
    assert ours == theirs == [False, False, False, True, False]


def test_parameter_grad_and_hook_grad_stop_gradient():
    def f(pd):
        seen = []
        lin = pd.nn.Linear(2, 2)
        x = _x(pd, (1.0, 2.0))
        x.register_hook(lambda g: seen.append(g.stop_gradient))
        lin(x).sum().backward()
        return [lin.weight.grad.stop_gradient, seen]
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("data", [1, [1, 2], [[0], [1]], [True, False]])
def test_to_tensor_int_stop_gradient_false(data):
    def f(pd):
        t = pd.to_tensor(data, stop_gradient=False)
        return [t.stop_gradient, str(t.dtype)]
    ours, theirs = both(f)
    assert ours == theirs


@pytest.mark.parametrize("api", ["asarray", "as_tensor"])
def test_requires_grad_keyword_on_int_data(api):
    def f(pd):
        t = getattr(pd, api)([1, 2], requires_grad=True)
        return [t.stop_gradient, str(t.dtype)]
    ours, theirs = both(f)
    assert ours == theirs


def test_zeros_int_requires_grad_and_stop_gradient_toggle():
    def f(pd):
        t = pd.zeros([2], dtype="int64", requires_grad=True)
        out = [t.stop_gradient]
        t.stop_gradient = True
        out.append(t.stop_gradient)
        t.stop_gradient = False
        out.append(t.stop_gradient)
        return out
    ours, theirs = both(f)
    assert ours == theirs


def test_deepcopy_keeps_int_stop_gradient():
    import copy

    def f(pd):
        return copy.deepcopy(pd.to_tensor([1, 2], stop_gradient=False)).stop_gradient
    ours, theirs = both(f)
    assert ours == theirs is False


def test_grad_with_create_graph_never_stops_gradient():
    def f(pd):
        x = _x(pd)
        lin = pd.grad((x * 2.0).sum(), x, create_graph=True)[0]
        sq = pd.grad((x * x).sum(), x, create_graph=True)[0]
        plain = pd.grad((x * x).sum(), x)[0]
        return [lin.stop_gradient, sq.stop_gradient, plain.stop_gradient], lin, sq
    ours, theirs = both(f)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_jacobian_hessian_results():
    def f(pd):
        x1 = _x(pd)
        x2 = _x(pd, (0.5, -1.0, 2.0))
        J = pd.autograd.jacobian(x1 + x2, (x1, x2))
        a, b = J[0][:], J[1][:]
        H = pd.autograd.hessian((x1 * x1 * x1).sum(), [x1, x2])
        h = H[0][0][:]
        z = H[0][1][:]
        flags = [a.stop_gradient, b.stop_gradient, h.stop_gradient, z.stop_gradient,
                 J[0].stop_gradient, str(J[0].dtype)]
        return flags, a, (J[0] + J[1]), (J[0] @ J[1]), J[0].numpy(), h, z
    ours, theirs = both(f)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_jacobian_is_unhashable_and_keeps_private_attributes_private():
    J = pagaie.autograd.jacobian(_x(pagaie) * 2.0, _x(pagaie))
    with pytest.raises(TypeError):
        hash(J)
    with pytest.raises(AttributeError):
        J._missing  # noqa: B018


# ---- in-place ops -------------------------------------------------------------------------
def test_increment_updates_in_place():
    def f(pd):
        d = pd.zeros([1])
        c = pd.increment(d)
        i = pd.zeros([1], dtype="int32")
        pd.increment(i, 2.5)
        m = pd.zeros([1])
        r = m.increment(3.0)
        return [c is d, r is m], d, i, m
    ours, theirs = both(f)
    assert ours[0] == theirs[0] == [True, True]
    assert_same(ours[1:], theirs[1:])


def test_increment_with_gradients():
    def f(pd):
        x = _x(pd, (1.0,))
        c = pd.increment(x)  # a leaf that needs gradients may be incremented
        (x * 3.0).sum().backward()
        g1 = x.grad
        x2 = _x(pd, (1.0,))
        y = x2 * 2.0
        c2 = pd.increment(y)
        c2.sum().backward()
        return [c is x, c2 is y, x.stop_gradient, c2.stop_gradient], x, g1, y, x2.grad
    ours, theirs = both(f)
    assert ours[0] == theirs[0]
    assert_same(ours[1:], theirs[1:])


def test_increment_errors():
    same_exception(lambda pd: pd.increment(pd.zeros([2])))


def test_silu_inplace():
    def f(pd):
        x = _x(pd, (1.0, 2.0, -3.0), sg=True)
        o = pd.nn.functional.silu(x, inplace=True)
        y = _x(pd, (1.0, 2.0, -3.0), sg=True)
        o2 = pd.nn.functional.silu(y)
        z = _x(pd, (1.0, 2.0), sg=True)
        o3 = pd.nn.Silu(True)(z)
        return [o is x, o2 is y, o3 is z], x, y, z, o2
    ours, theirs = both(f)
    assert ours[0] == theirs[0] == [True, False, True]
    assert_same(ours[1:], theirs[1:])


def test_silu_inplace_autograd():
    def f(pd):
        x = _x(pd, (1.0, 2.0, -3.0))
        y = x * 1.0
        o = pd.nn.functional.silu(y, inplace=True)
        o.sum().backward()
        return o is y, x.grad
    ours, theirs = both(f)
    assert ours[0] == theirs[0] is True
    assert_same(ours[1], theirs[1])


def test_silu_inplace_errors():
    same_exception(lambda pd: pd.nn.functional.silu(_x(pd), inplace=True))  # leaf, needs grad

    def modified_saved(pd):
        x = _x(pd)
        y = x * 2.0
        z = y * y
        o = pd.nn.functional.silu(y, inplace=True)
        (z.sum() + o.sum()).backward()
    same_exception(modified_saved)


# ---- printing and small behaviour ---------------------------------------------------------
def test_format_of_tensors():
    def f(pd):
        z = pd.to_tensor(2.5)
        out = ["{}".format(z), f"{z:.3f}", f"{pd.to_tensor(3):5d}", f"{pd.to_tensor(True)}",
               f"{pd.to_tensor(0.1)}", f"{pd.to_tensor(1 + 2j)}", f"{pd.to_tensor([2.5])}"]
        try:
            f"{pd.to_tensor([2.5]):.2f}"
        except TypeError:
            out.append("TypeError")
        return out
    ours, theirs = both(f)
    assert ours == theirs


def test_hook_handle_remove():
    def f(pd):
        x = _x(pd)
        h = x.register_hook(lambda g: g * 2.0)
        first = h.remove()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            second = h.remove()
        (x * 1.0).sum().backward()
        return [first, second, [type(m.message).__name__ for m in w], type(h).__name__], x.grad
    ours, theirs = both(f)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])


def test_seed_returns_generator_with_paddles_repr():
    g = pagaie.seed(3)
    assert repr(g) == f"<paddle.base.libpaddle.Generator object at {id(g):#x}>"
    assert pagaie.seed(4) is g


@pytest.mark.skipif(torch.cuda.is_available(), reason="compares with Paddle's CPU build")
def test_device_lists_without_gpu():
    ours, theirs = both(lambda pd: [pd.device.get_all_device_type(),
                                    pd.device.get_available_device()])
    assert ours == theirs == [[], []]


def test_make_scheduler_function_name():
    def f(pd):
        s = pd.profiler.make_scheduler(closed=1, ready=1, record=4, repeat=1)
        return s.__qualname__, [str(s(i)) for i in range(8)]
    ours, theirs = both(f)
    assert ours == theirs


def test_generated_names_restart_after_static_mode():
    def f(pd):
        a = pd.to_tensor(1.0)
        b = pd.to_tensor(2.0)
        names = [a.name, b.name]
        pd.disable_static()  # no static mode left: numbering goes on
        names.append(pd.to_tensor(3.0).name == "generated_tensor_0")
        pd.enable_static()
        pd.disable_static()
        names.append(pd.to_tensor(3.0).name)
        return names[2:]
    ours, theirs = both(f)
    assert ours == theirs == [False, "generated_tensor_0"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="Paddle's CPU build report")
def test_run_check_report(capsys):
    pagaie.utils.run_check()
    ours = capsys.readouterr().out
    assert ours == ("Running verify PaddlePaddle program ... \n"
                    "PaddlePaddle works well on 1 CPU.\n"
                    "PaddlePaddle is installed successfully! Let's start deep learning with "
                    "PaddlePaddle now.\n")
