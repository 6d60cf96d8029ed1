"""Session-19 T1: errors converted from the kernels name the public API path a user called
(``paddle.nn.functional.mse_loss``, not the op record) without a long argument dump, and
shape mismatches in the losses and elementwise ops raise Paddle's exception type."""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import both, same_exception

pytest.importorskip("paddle")


def _c(P, shape, dt="float32"):
    return P.to_tensor(np.ones(shape, dt))


_A, _B = [2, 3], [3, 2]
_F = "nn.functional."
# case -> (public path, call)
_MISMATCH = {
    "mse_loss": (_F + "mse_loss", lambda P: P.nn.functional.mse_loss(_c(P, _A), _c(P, _B))),
    "l1_loss": (_F + "l1_loss", lambda P: P.nn.functional.l1_loss(_c(P, _A), _c(P, _B), reduction="none")),
    "hinge": (_F + "hinge_embedding_loss",
              lambda P: P.nn.functional.hinge_embedding_loss(_c(P, _A), _c(P, _B))),
    "soft_margin": (_F + "soft_margin_loss",
                    lambda P: P.nn.functional.soft_margin_loss(_c(P, _A), _c(P, _B))),
    "triplet": (_F + "triplet_margin_loss", lambda P: P.nn.functional.triplet_margin_loss(
        _c(P, [2, 3]), _c(P, [2, 4]), _c(P, [2, 3]))),
    "gaussian_nll": (_F + "gaussian_nll_loss", lambda P: P.nn.functional.gaussian_nll_loss(
        _c(P, _A), _c(P, _B), _c(P, _A))),
    "poisson_nll": (_F + "poisson_nll_loss",
                    lambda P: P.nn.functional.poisson_nll_loss(_c(P, _A), _c(P, _B))),
    "margin_ranking": (_F + "margin_ranking_loss", lambda P: P.nn.functional.margin_ranking_loss(
        _c(P, _A), _c(P, _B), _c(P, _A))),
    "square_error_cost": (_F + "square_error_cost",
                          lambda P: P.nn.functional.square_error_cost(_c(P, _A), _c(P, _B))),
    "add": ("add", lambda P: P.add(_c(P, _A), _c(P, _B))),
    "dunder_mul": ("multiply", lambda P: _c(P, _A) * _c(P, _B)),
    "divide": ("divide", lambda P: P.divide(_c(P, _A), _c(P, _B))),
    "atan2": ("atan2", lambda P: P.atan2(_c(P, _A), _c(P, _B))),
    "logical_and": ("logical_and", lambda P: P.logical_and(_c(P, _A, "bool"), _c(P, _B, "bool"))),
    "where": ("where", lambda P: P.where(_c(P, _A, "bool"), _c(P, _A), _c(P, _B))),
    "lerp": ("lerp", lambda P: P.lerp(_c(P, _A), _c(P, _B), 0.5)),
    "add_": ("Tensor.add_", lambda P: _c(P, _A).add_(_c(P, _B))),
}


@pytest.mark.parametrize("case", sorted(_MISMATCH))
def test_shape_mismatch_type_and_public_name(case):
    path, fn = _MISMATCH[case]
    msg = str(same_exception(fn))
    assert msg.startswith(f"paddle.{path}:"), msg
    assert "(received" not in msg and "Tensor(shape" not in msg, msg


def test_converted_error_shows_only_arguments_not_left_at_default():
    from pagaie._core.registry import translate_error
    x = pagaie.ones([2, 3])
    err = translate_error("mse_loss", RuntimeError("some failure"), (x, x), {})
    assert isinstance(err, ValueError)
    assert str(err) == ("paddle.nn.functional.mse_loss: some failure (received "
                        "input=Tensor(shape=[2, 3], dtype=float32), label=Tensor(shape=[2, 3], "
                        "dtype=float32))"), str(err)
    err = translate_error("mse_loss", RuntimeError("some failure"), (x, x, "sum"), {})
    assert "reduction='sum'" in str(err) and "name=" not in str(err), str(err)


@pytest.mark.parametrize("api", ["binary_cross_entropy", "binary_cross_entropy_with_logits"])
def test_bce_label_shape_in_paddle_terms(api):
    msg = str(same_exception(lambda P: getattr(P.nn.functional, api)(_c(P, _A) * 0.5, _c(P, _B))))
    assert msg == (f"paddle.nn.functional.{api}: the label's shape [3, 2] must equal the "
                   "input's shape [2, 3]"), msg


def test_public_name_lookup():
    from pagaie._core.public_names import public_name
    assert public_name("mse_loss") == "paddle.nn.functional.mse_loss"
    assert public_name("inv") == "paddle.linalg.inv"
    assert public_name("divide") == "paddle.divide"
    assert public_name("add_") == "paddle.Tensor.add_"
    assert public_name("no_such_op") == "paddle.no_such_op"


@pytest.mark.parametrize("shapes", [([2, 3], [3]), ([2, 3], [1, 3])])
def test_broadcastable_shapes_still_broadcast_where_paddle_does(shapes):
    a, b = shapes
    for f in (lambda P: P.nn.functional.mse_loss(_c(P, a), _c(P, b)),
              lambda P: P.nn.functional.l1_loss(_c(P, a), _c(P, b)),
              lambda P: P.nn.functional.hinge_embedding_loss(_c(P, a), _c(P, b))):
        ours, theirs = both(f)
        assert float(ours) == pytest.approx(float(theirs))


@pytest.mark.parametrize("case", ["soft_margin", "soft_margin_f16", "soft_margin_0d", "triplet_pos",
                                  "triplet_neg", "triplet_margin"])
def test_losses_paddle_refuses_to_broadcast(case):
    """soft_margin_loss and triplet_margin_loss want equal shapes (no broadcasting)."""
    F = lambda P: P.nn.functional   # noqa: E731
    fn = {
        "soft_margin": lambda P: F(P).soft_margin_loss(_c(P, [2, 3]), _c(P, [3])),
        "soft_margin_f16": lambda P: F(P).soft_margin_loss(_c(P, [2, 3], "float16"), _c(P, [1, 3], "float16")),
        "soft_margin_0d": lambda P: F(P).soft_margin_loss(_c(P, []), _c(P, [1])),
        "triplet_pos": lambda P: F(P).triplet_margin_loss(_c(P, [2, 3]), _c(P, [1, 3]), _c(P, [2, 3])),
        "triplet_neg": lambda P: F(P).triplet_margin_loss(_c(P, [2, 3]), _c(P, [2, 3]), _c(P, [3])),
        "triplet_margin": lambda P: F(P).triplet_margin_loss(_c(P, [2, 3]), _c(P, [2, 3]), _c(P, [2, 3]),
                                                             margin=-1.0),
    }[case]
    msg = str(same_exception(fn))
    assert "paddle.nn.functional." in msg, msg


@pytest.mark.parametrize("case", ["mse_label_str", "inv_str", "add_grow"])
def test_argument_errors_name_the_public_path(case):
    path, fn = {
        "mse_label_str": ("nn.functional.mse_loss", lambda P: P.nn.functional.mse_loss(_c(P, _A), "a")),
        "inv_str": ("linalg.inv", lambda P: P.linalg.inv("a")),
        "add_grow": ("Tensor.add_", lambda P: _c(P, [3]).add_(_c(P, _A))),
    }[case]
    msg = str(same_exception(fn))
    assert msg.startswith(f"paddle.{path}:"), msg


@pytest.mark.parametrize("api,axis", [("softmax", "a"), ("log_softmax", None)])
def test_torch_argument_type_errors_in_paddle_terms(api, axis):
    msg = str(same_exception(lambda P: getattr(P.nn.functional, api)(_c(P, _A), axis=axis)))
    assert msg.startswith(f"paddle.nn.functional.{api}: 'axis' must be int"), msg
    assert "dim" not in msg, msg
