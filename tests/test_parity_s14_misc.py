"""Session-14: cases from PaddleTest's API suites outside the core tensor ops (incubate,
distribution, device, utils, vision, geometric, signal, sparse, io, metric) that pagaie got
wrong, checked against Paddle 3.3.1.
"""
from __future__ import annotations

import numpy as np
import pytest

import pagaie

from tests.reference import assert_same, both, both_same, both_static, paddle_ref, same_exception


_A24 = np.arange(24)


@pytest.mark.parametrize("fn", [
    lambda P: P.signal.frame(P.to_tensor(_A24[:10].astype("float32")), 4, 2),
    lambda P: P.signal.frame(P.to_tensor(_A24.reshape(2, 3, 4)), 2, 1),
    lambda P: P.signal.frame(P.to_tensor(_A24.reshape(4, 3, 2).astype("complex64")), 2, 2, axis=0),
    lambda P: P.signal.overlap_add(P.to_tensor(_A24.reshape(2, 4, 3).astype("float32")), 2),
    lambda P: P.signal.overlap_add(P.to_tensor(_A24.reshape(3, 4, 2)), hop_length=1, axis=0),
    lambda P: P.signal.overlap_add(P.zeros([4, 0]), 2),
], ids=["frame_1d", "frame_3d_int", "frame_axis0_complex", "overlap_add", "overlap_add_axis0", "overlap_add_no_frames"])
def test_signal_frame_and_overlap_add(fn):
    both_same(fn)


@pytest.mark.parametrize("fn", [
    lambda P: P.signal.frame(P.arange(10).astype("float32"), 11, 2),
    lambda P: P.signal.frame(P.arange(10).astype("float32"), 4, 2, axis=1),
    lambda P: P.signal.frame(P.arange(10).astype("float32"), 4.0, 2),
    lambda P: P.signal.frame(P.arange(10).astype("bool"), 4, 2),
    lambda P: P.signal.frame(np.arange(10.0), 4, 2),
    lambda P: P.signal.overlap_add(P.ones([4, 3]), 5),
    lambda P: P.signal.overlap_add(P.ones([4]), 2),
    lambda P: P.signal.overlap_add(P.ones([4, 3]), 0),
], ids=["too_long", "axis", "float_length", "bool", "ndarray", "hop_over_frame", "rank1", "hop0"])
def test_signal_frame_and_overlap_add_errors(fn):
    same_exception(fn)


def test_signal_frame_and_overlap_add_gradients():
    x = np.random.default_rng(0).standard_normal((11, 2))

    def f(P):
        t = P.to_tensor(x, stop_gradient=False)
        y = P.signal.overlap_add(P.signal.frame(t, 4, 3, axis=0) * 2.0, 2, axis=0)
        return [y, P.grad((y * y).sum(), t)[0]]
    both_same(f)


@pytest.mark.parametrize("pot_dt, len_dt", [("float32", "int32"), ("float32", "int16"), ("float64", "uint8"),
                                            ("int64", "int64"), ("float16", "int64")])
def test_viterbi_decode_dtypes(pot_dt, len_dt):
    """lengths must be int64 (even int32 is Paddle's ValueError); potentials float32/float64."""
    rng = np.random.default_rng(0)
    pot, trans = rng.standard_normal((2, 4, 3)), rng.standard_normal((3, 3))
    same_exception(lambda P: P.text.viterbi_decode(P.to_tensor(pot).astype(pot_dt), P.to_tensor(trans).astype(pot_dt),
                                                   P.to_tensor([4, 2]).astype(len_dt)))


@pytest.mark.parametrize("kw", [dict(update_to="foo.bar"), dict(level=3), dict(since=2.0)])
def test_utils_deprecated_checks_its_arguments_when_applied(kw):
    """Making the decorator never raises; applying it raises AssertionError."""
    both(lambda P: P.utils.deprecated(**kw))
    same_exception(lambda P: P.utils.deprecated(**kw)(lambda x: x))


def _image_model(P, which):
    F = P.vision.transforms.functional

    def hflip(t):
        return F.hflip(t)

    def normalize(t):
        return F.normalize(t, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4])

    def crop_resize(t):
        return F.resize(F.center_crop(t, 3), (2, 5)) * 2.0

    def erase(t):
        return F.erase(t, 1, 1, 2, 2, 0.5)
    return {"hflip": hflip, "normalize": normalize, "crop_resize": crop_resize, "erase": erase}[which]


@pytest.mark.parametrize("which", ["hflip", "normalize", "crop_resize", "erase"])
def test_tensor_image_transforms_in_to_static_and_static_mode(which):
    """The functional transforms of a Tensor image are recorded in a program (pagaie ran them
    on the placeholder and returned a tensor without data)."""
    img = np.random.default_rng(0).standard_normal((3, 4, 5)).astype("float32")

    def jit(P):
        return P.jit.to_static(_image_model(P, which), full_graph=True)(P.to_tensor(img))
    both_same(jit)

    def static(P):
        main = P.static.Program()
        with P.static.program_guard(main, P.static.Program()):
            out = _image_model(P, which)(P.static.data("img", [3, 4, 5], "float32"))
        return P.static.Executor().run(main, feed={"img": img}, fetch_list=[out])[0]
    ours, theirs = both_static(static)
    assert_same(ours, theirs)


def test_static_gradients_with_respect_to_an_op_result_made_differentiable():
    """``x = assign(a); x.stop_gradient = False``: Paddle differentiates with respect to x
    (pagaie's run gave zeros, x's producer having no input that needs gradients)."""
    a = np.array([0.5, 1.0, 2.0], "float32")

    def f(P):
        main = P.static.Program()
        with P.static.program_guard(main, P.static.Program()):
            x = P.assign(P.static.data("a", [3], "float32"))
            x.stop_gradient = False
            y = P.tanh(x) * x
            g, = P.static.gradients([y], [x])
        return P.static.Executor().run(main, feed={"a": a}, fetch_list=[g])[0]
    ours, theirs = both_static(f)
    assert_same(ours, theirs)


@pytest.mark.parametrize("api", ["vjp", "jvp"])
def test_incubate_autograd_in_static_mode_gives_the_dygraph_values(api):
    """In a program, vjp/jvp append backward ops (pagaie's gave zeros); Paddle 3.3.1's static
    path returns wrong values, so this compares with Paddle's dygraph results."""
    a = np.array([0.5, 1.0, 2.0], "float32")

    def func(P):
        return lambda t: P.tanh(t) * t

    pagaie.enable_static()
    try:
        main = pagaie.static.Program()
        with pagaie.static.program_guard(main, pagaie.static.Program()):
            ys, g = getattr(pagaie.incubate.autograd, api)(func(pagaie), pagaie.static.data("a", [3], "float32"))
        ours = pagaie.static.Executor().run(main, feed={"a": a}, fetch_list=[ys, g])
    finally:
        pagaie.disable_static()
    ref = paddle_ref()
    theirs = getattr(ref.incubate.autograd, api)(func(ref), ref.to_tensor(a))
    assert_same(ours, [t.numpy() for t in theirs])
