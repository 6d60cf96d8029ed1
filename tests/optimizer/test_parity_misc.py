"""Optimizer and GradScaler argument checks that raise what real Paddle raises."""
import numpy as np
import pytest

from tests.reference import same_exception


def _linear(pd):
    layer = pd.nn.Linear(2, 2)
    layer.weight.set_value(np.ones([2, 2], dtype="float32"))
    return layer


@pytest.mark.parametrize("loss", [3, "loss", None, np.ones([1], dtype="float32")])
def test_minimize_rejects_non_tensor_loss(loss):
    def f(pd):
        opt = pd.optimizer.Adam(0.1, parameters=_linear(pd).parameters())
        opt.minimize(loss)
    same_exception(f)


@pytest.mark.parametrize("setter,value", [("set_incr_ratio", 0.5), ("set_decr_ratio", 2.0)])
def test_grad_scaler_setters_assert(setter, value):
    same_exception(lambda pd: getattr(pd.amp.GradScaler(), setter)(value))


def test_minimize_ignores_no_grad_set_in_dynamic_mode():
    from tests.reference import assert_same, both

    def f(pd):
        layer = _linear(pd)
        opt = pd.optimizer.SGD(0.1, parameters=layer.parameters())
        loss = (layer(pd.ones([3, 2])) ** 2).mean()
        loss.backward()
        _, pairs = opt.minimize(loss, no_grad_set={layer.bias})
        return layer.weight, layer.bias, len(pairs)
    assert_same(*both(f))


def test_parameter_group_without_params_asserts():
    def f(pd):
        layer = _linear(pd)
        pd.optimizer.SGD(0.1, parameters=[{"params": layer.parameters()}, {"learning_rate": 0.5}])
    same_exception(f)
    same_exception(lambda pd: pd.optimizer.Adam(0.1, parameters=[{"lr": 0.1}]))


_NAMES = ["SGD", "Momentum", "NAdam", "RAdam", "Rprop", "Adamax", "Lamb", "Adagrad", "Adadelta",
          "RMSProp", "ASGD", "Adam", "AdamW"]


def _outcome(pd, fn):
    try:
        fn(pd)
    except Exception as exc:  # noqa: BLE001
        return type(exc)
    return None


@pytest.mark.parametrize("name", _NAMES)
@pytest.mark.parametrize("lr", [None, -1, -1.0, "a"])
def test_bad_learning_rate_raises_like_paddle(name, lr):
    import pagaie
    from tests.reference import paddle_ref

    def make(pd):
        getattr(pd.optimizer, name)(lr, parameters=_linear(pd).parameters())
    theirs = _outcome(paddle_ref(), make)
    if theirs is None:  # Paddle accepts it (a negative float): so do we
        assert _outcome(pagaie, make) is None
    else:
        same_exception(make)


@pytest.mark.parametrize("name,kw", [("Adam", {"beta1": "a"}), ("Adam", {"beta2": None}),
                                     ("AdamW", {"epsilon": None}), ("Adamax", {"beta1": None}),
                                     ("Lamb", {"beta1": None})])
def test_bad_hyperparameters_raise_like_paddle(name, kw):
    same_exception(lambda pd: getattr(pd.optimizer, name)(0.1, parameters=_linear(pd).parameters(), **kw))
