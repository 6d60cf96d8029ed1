"""Session-23 sweep of paddle.autograd and paddle.amp against real Paddle 3.3.1: grad-mode
decorators as Paddle runs them (a generator keeps the mode across its yields, a decorating
``set_grad_enabled`` sets the mode when made and restores it after the first call)."""
from __future__ import annotations

import pytest

from tests.reference import both

pytest.importorskip("paddle")


def _leaf(P, values=(1.0, 2.0, 3.0)):
    return P.to_tensor(list(values), stop_gradient=False)


# -- grad-mode decorators ------------------------------------------------------------------------

@pytest.mark.parametrize("deco, outer", [("no_grad", True), ("enable_grad", False)])
def test_decorated_generator_keeps_the_mode_between_its_yields(deco, outer):
    def f(P):
        @getattr(P, deco)()
        def gen():
            yield P.is_grad_enabled()
            yield P.is_grad_enabled()
        seen = []
        with P.set_grad_enabled(outer):
            for v in gen():
                seen += [v, P.is_grad_enabled(), (_leaf(P) * 2).stop_gradient]
            seen.append(P.is_grad_enabled())
        return seen, P.is_grad_enabled()
    ours, theirs = both(f)
    assert ours == theirs


def test_decorated_generator_left_early_and_its_return_value():
    def f(P):
        @P.no_grad()
        def gen():
            got = yield 1
            yield got
            return 7
        seen = []
        for v in gen():
            seen.append(P.is_grad_enabled())
            break
        seen.append(P.is_grad_enabled())
        it = gen()
        seen += [next(it), it.send(5)]
        try:
            next(it)
        except StopIteration as stop:
            seen.append(stop.value)
        return seen, P.is_grad_enabled()
    ours, theirs = both(f)
    assert ours == theirs


def test_set_grad_enabled_as_a_decorator():
    def f(P):
        seen = [P.is_grad_enabled()]

        @P.set_grad_enabled(False)
        def double(x):
            return x * 2
        seen.append(P.is_grad_enabled())
        seen.append((_leaf(P) * 2).stop_gradient)
        seen.append(double(_leaf(P)).stop_gradient)
        seen.append(P.is_grad_enabled())
        seen.append(double(_leaf(P)).stop_gradient)

        @P.set_grad_enabled(False)
        def gen():
            yield P.is_grad_enabled()
        seen += [(v, P.is_grad_enabled()) for v in gen()]
        seen.append(P.is_grad_enabled())
        P.set_grad_enabled(True)
        return seen
    ours, theirs = both(f)
    assert ours == theirs
