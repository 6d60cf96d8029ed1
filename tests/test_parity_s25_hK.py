"""Differential tests against real Paddle: max_unpool argument checks."""
import numpy as np
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _unpool_error(mod, nd, indices_shape, fill):
    x = np.random.RandomState(0).rand(*([2, 3] + [4] * nd)).astype("float32")
    idx = np.full(indices_shape, fill, "int32")
    fn = getattr(mod.nn.functional, f"max_unpool{nd}d")
    with pytest.raises(Exception) as info:
        fn(mod.to_tensor(x), mod.to_tensor(idx), 2)
    return info


@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("case", ["shape", "range"])
def test_max_unpool_bad_indices(nd, case):
    shape = [2, 3] + [4] * nd
    if case == "shape":
        shape[-1] = 3
        fill = 0
    else:
        fill = 10 ** nd
    ref = _unpool_error(paddle, nd, shape, fill)
    got = _unpool_error(pagaie, nd, shape, fill)
    assert got.type is ref.type
    msg = str(got.value)
    assert msg.startswith(f"paddle.nn.functional.max_unpool{nd}d:")
    assert ("shape" if case == "shape" else str(fill)) in msg
    assert "Expected" not in msg and "volumes" not in msg


@pytest.mark.parametrize("api,wshape", [("conv1d", [2, 4]), ("conv1d_transpose", [4, 2]),
                                        ("conv2d", [2, 4, 3])])
def test_conv_weight_rank(api, wshape):
    x = np.ones([1, 4] + [6] * (2 if api == "conv2d" else 1), "float32")
    w = np.ones(wshape, "float32")
    errors = []
    for mod in (paddle, pagaie):
        with pytest.raises(Exception) as info:
            getattr(mod.nn.functional, api)(mod.to_tensor(x), mod.to_tensor(w))
        errors.append(info)
    assert errors[1].type is errors[0].type
    assert str(errors[1].value).startswith(f"paddle.nn.functional.{api}:")
    assert "min()" not in str(errors[1].value)
