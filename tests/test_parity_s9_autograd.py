"""Session-9 sweep of autograd corners against real Paddle 3.3.1: assigning ``Tensor.grad``,
``clear_gradient``'s argument, errors raised by user code during backward (hooks, a
PyLayer's backward) and a second backward over a released graph."""
import pytest

from tests.reference import assert_same, both, same_exception


def _leaf(pd, v=(1.0, 2.0, 3.0), dtype="float32"):
    t = pd.to_tensor(list(v), dtype=dtype)
    t.stop_gradient = False
    return t


# ---- Tensor.grad assignment ----------------------------------------------------------
def test_assigned_grad_is_a_copy_that_stops_gradient_and_accumulates():
    def run(pd):
        x = _leaf(pd)
        v = pd.to_tensor([5.0, 5.0, 5.0])
        x.grad = v
        v[0] = 9.0                    # not seen by x.grad (a copy) ...
        first = x.grad
        (x * 1).sum().backward()      # ... which the next backward accumulates into
        x2 = _leaf(pd)
        w = pd.to_tensor([1.0, 1.0, 1.0])
        w.stop_gradient = False       # the copy says stop_gradient=True all the same
        x2.grad = w
        return [v, x.grad, first.stop_gradient, x.grad.stop_gradient, x2.grad.stop_gradient]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_assigning_grad_over_an_existing_one_writes_into_it():
    def run(pd):
        x = _leaf(pd)
        (x * 2).sum().backward()
        old = x.grad
        x.grad = pd.to_tensor([7.0, 8.0, 9.0])
        return [old, x.grad, old.stop_gradient]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_assigned_grad_is_zeroed_by_clear_grad_in_place():
    def run(pd):
        x = _leaf(pd)
        v = pd.to_tensor([5.0, 5.0, 5.0])
        x.grad = v
        g = x.grad
        x.clear_grad()
        return [v, g, x.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_grad_of_a_tensor_that_stops_gradient_and_of_an_integer_leaf_can_be_assigned():
    def run(pd):
        x = pd.to_tensor([1.0, 2.0])
        x.grad = pd.to_tensor([3.0, 4.0])
        n = pd.to_tensor([1, 2])
        n.stop_gradient = False
        n.grad = pd.to_tensor([5, 6])
        return [x.grad, x.grad.stop_gradient, n.grad, n.grad.stop_gradient]
    ours, theirs = both(run)
    assert_same(ours, theirs)


@pytest.mark.parametrize("value", [3.0, [1.0, 1.0, 1.0]], ids=["float", "list"])
def test_assigning_a_non_tensor_grad_raises_like_paddle(value):
    def run(pd):
        x = _leaf(pd)
        x.grad = value
    same_exception(run)


def test_assigning_a_grad_of_another_shape_names_the_api():
    import pagaie
    x = _leaf(pagaie)
    with pytest.raises(RuntimeError, match=r"paddle\.Tensor\.grad: .*shape \[3\].*\[2\]"):
        x.grad = pagaie.to_tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"paddle\.Tensor\.grad: .*float64"):
        x.grad = pagaie.to_tensor([1.0, 2.0, 3.0], dtype="float64")


def test_grad_can_be_reset_to_none():
    def run(pd):
        x = _leaf(pd)
        (x * 2).sum().backward()
        x.grad = None
        r = [x.grad]
        (x * 3).sum().backward()
        return r + [x.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)


# ---- clear_gradient ------------------------------------------------------------------
@pytest.mark.parametrize("arg", [1, "a", 0.0])
def test_clear_gradient_takes_only_a_bool(arg):
    def run(pd):
        x = _leaf(pd)
        (x * 1).sum().backward()
        x.clear_gradient(arg)
    same_exception(run)


@pytest.mark.parametrize("arg", [True, False, None])
def test_clear_gradient_bool_or_none(arg):
    def run(pd):
        x = _leaf(pd)
        (x * 1).sum().backward()
        x.clear_gradient(arg)
        return x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)


# ---- errors raised by user code during backward --------------------------------------
def _raiser(exc_type):
    def f(*_):
        raise exc_type("boom")
    return f


@pytest.mark.parametrize("exc_type", [ValueError, KeyError, RuntimeError, NotImplementedError])
@pytest.mark.parametrize("where", ["leaf", "intermediate"])
def test_an_error_in_a_gradient_hook_comes_out_as_oserror(exc_type, where):
    def run(pd):
        x = _leaf(pd)
        y = x * 2
        (x if where == "leaf" else y).register_hook(_raiser(exc_type))
        y.sum().backward()
    err = same_exception(run)
    assert exc_type.__name__ in str(err) and "register_hook" in str(err)
    assert isinstance(err.__cause__, exc_type)


@pytest.mark.parametrize("exc_type", [ValueError, TypeError, RuntimeError])
def test_an_error_in_a_pylayer_backward_comes_out_as_oserror(exc_type):
    def run(pd):
        class P(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            backward = staticmethod(_raiser(exc_type))
        P.apply(_leaf(pd)).sum().backward()
    err = same_exception(run)
    assert "P.backward" in str(err) and exc_type.__name__ in str(err)


def test_a_pylayer_without_backward_fails_at_backward_with_oserror():
    def run(pd):
        class P(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                return a * 2
        y = P.apply(_leaf(pd))   # forward alone works
        y.sum().backward()
    err = same_exception(run)
    assert "NotImplementedError" in str(err)


def test_an_error_in_a_hook_during_paddle_grad_comes_out_as_oserror():
    def run(pd):
        x = _leaf(pd)
        y = x * 2
        y.register_hook(_raiser(ValueError))
        pd.grad(y.sum(), x)
    same_exception(run)


def test_pylayer_validation_errors_keep_their_type():
    # errors pagaie raises about what backward returned are not user errors: ValueError
    def run(pd):
        class P(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a, b):
                return a * b

            @staticmethod
            def backward(ctx, g):
                return g, g, g
        P.apply(_leaf(pd), _leaf(pd)).sum().backward()
    same_exception(run)


# ---- a second backward over a released graph -----------------------------------------
_ROOTS = {
    "sum": lambda pd, x: (x * 2).sum(),
    "scale": lambda pd, x: x + 1,
    "cast": lambda pd, x: x.astype("float64"),
    "clone": lambda pd, x: x.clone(),
    "reshape": lambda pd, x: x.reshape([3, 1]),
    "getitem": lambda pd, x: x[0],
    "mul": lambda pd, x: (x * x).sum(),
}


@pytest.mark.parametrize("root", sorted(_ROOTS))
def test_backward_twice_without_retain_graph_raises(root):
    def run(pd):
        x = _leaf(pd)
        y = _ROOTS[root](pd, x)
        y.backward()
        y.backward()
    err = same_exception(run)
    assert "retain_graph" in str(err)


def test_backward_with_grad_tensor_twice_and_through_the_api_raises():
    def run(pd):
        x = _leaf(pd)
        y = x * 2
        y.backward(pd.ones([3]))
        y.backward(pd.ones([3]))
    same_exception(run)

    def run_api(pd):
        x = _leaf(pd)
        y = (x * 2).sum()
        pd.autograd.backward([y])
        pd.autograd.backward([y])
    same_exception(run_api)


def test_retain_graph_allows_exactly_one_more_backward():
    def run(pd):
        x = _leaf(pd)
        y = (x * 2).sum()
        y.backward(retain_graph=True)
        y.backward()
        return x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)

    def run_third(pd):
        x = _leaf(pd)
        y = (x * 2).sum()
        y.backward(retain_graph=True)
        y.backward()
        y.backward()
    same_exception(run_third)


def test_paddle_grad_after_a_releasing_backward_raises_but_not_the_other_way():
    def run(pd):
        x = _leaf(pd)
        y = (x * 2).sum()
        y.backward()
        pd.grad(y, x)
    same_exception(run)

    def run_grad_first(pd):
        x = _leaf(pd)
        y = (x * 2).sum()
        g = pd.grad(y, x, retain_graph=False)   # paddle.grad keeps the graph
        y.backward()
        return [g, x.grad]
    ours, theirs = both(run_grad_first)
    assert_same(ours, theirs)


def test_pylayer_graph_backward_twice_raises():
    def run(pd):
        class P(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        y = P.apply(_leaf(pd)).sum()
        y.backward()
        y.backward()
    same_exception(run)


def test_leaf_backward_twice_accumulates():
    def run(pd):
        x = _leaf(pd)
        x.backward()
        x.backward()
        return x.grad
    ours, theirs = both(run)
    assert_same(ours, theirs)


# ---- hooks on integer tensors; stop_gradient on an intermediate ------------------------
def test_hook_on_an_integer_tensor_that_says_stop_gradient_false():
    def run(pd):
        x = pd.to_tensor([1, 2])
        x.stop_gradient = False
        h = x.register_hook(lambda g: g)
        (x * 2).sum()
        return [h.remove(), h.remove()]
    ours, theirs = both(run)
    assert ours == theirs == [True, False]


def test_stop_gradient_on_an_intermediate_keeps_it_a_non_leaf_in_the_graph():
    def run(pd):
        x = _leaf(pd)
        y = x * 2
        y.stop_gradient = True
        r = [y.is_leaf, y.detach().is_leaf, (y * 3).is_leaf]
        y.stop_gradient = False      # joins the graph again
        (y * y).sum().backward()
        return r + [y.is_leaf, y.grad, x.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)


def test_stop_gradient_on_an_intermediate_cuts_the_gradient():
    def run(pd):
        x = _leaf(pd)
        y = x * 2
        y.stop_gradient = True
        (y * x).sum().backward()
        return [x.grad, y.grad]
    ours, theirs = both(run)
    assert_same(ours, theirs)
