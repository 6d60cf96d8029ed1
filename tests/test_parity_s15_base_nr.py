"""Session-15: cases from Paddle's legacy unit tests of the top-level APIs n..r (nan*, normal,
polygamma, ...) that pagaie answered differently from Paddle 3.3.1."""
from __future__ import annotations

import numpy as np
import pytest

from tests.reference import both_same, same_exception, same_static_exception


def _data(fw, dtype, shape=(3, 4), name="x"):
    return fw.static.data(name, list(shape), dtype)


@pytest.mark.parametrize("build", [
    lambda P: P.nanmedian(_data(P, "bool")),                          # no kernel: a build-time TypeError
    lambda P: P.normal(_data(P, "int32")),
    lambda P: P.normal(1.0, _data(P, "int64")),
    lambda P: P.nn.functional.avg_pool2d(_data(P, "int32", (1, 1, 4, 4)), 2),
    lambda P: P.nn.functional.relu6(_data(P, "int32")),
    lambda P: P.nanmean(_data(P, "int32")),                           # the static API's own check
    lambda P: P.normal(shape=_data(P, "float32", (2,))),
    lambda P: P.randint(0, 5, _data(P, "float32", (2,))),
])
def test_static_dtype_refusals_are_type_errors(build):
    same_static_exception(build)


def test_eager_calls_keep_their_dtype_rules():
    both_same(lambda P: P.nanmean(P.to_tensor([1, 2, 4])))
    both_same(lambda P: P.normal(shape=P.to_tensor([2.0, 3.0])).shape)
    same_exception(lambda P: P.nanmedian(P.to_tensor([True, False])))


@pytest.mark.parametrize("kwargs", [{}, {"shape": [2]}])
def test_normal_checks_a_complex_mean_before_the_shape(kwargs):
    assert same_exception(lambda P: P.normal(2 + 0.5j, **kwargs)).__class__ is ValueError


@pytest.mark.parametrize("n", [1.0, True, -1.0, 2.5])
def test_polygamma_order_of_another_type_is_a_type_error(n):
    same_exception(lambda P: P.polygamma(P.to_tensor([1.0, 2.0]), n))


def test_polygamma_order_false_is_digamma():
    both_same(lambda P: P.polygamma(P.to_tensor([1.0, 2.5]), False))
    same_exception(lambda P: P.polygamma(P.to_tensor([1.0, 2.0]), -2))
