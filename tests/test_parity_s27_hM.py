"""Differential tests against real Paddle: vision.ops argument checks while a program is built
(``distribute_fpn_proposals`` without ``rois_num``, ``generate_proposals`` without
``return_rois_num``, ``decode_jpeg`` of a non-uint8 input or its unknown output sizes)."""
import pytest

paddle = pytest.importorskip("paddle")
import pagaie  # noqa: E402


def _build(m, fn):
    """Build ``fn(m)`` in a fresh static program; the exception type and message, or the result."""
    m.enable_static()
    try:
        with m.static.program_guard(m.static.Program(), m.static.Program()):
            try:
                return "ok", fn(m)
            except Exception as exc:  # noqa: BLE001 - the type is what is compared
                return type(exc), str(exc)
    finally:
        m.disable_static()


def _data(m, name, shape, dtype):
    return m.static.data(name, shape, dtype)


def _fpn(m, with_num):
    rois = _data(m, "rois", [4, 4], "float32")
    num = _data(m, "num", [1], "int32") if with_num else None
    out = m.vision.ops.distribute_fpn_proposals(rois, 2, 5, 4, 224, rois_num=num)
    return len(out[0])


def _proposals(m, with_num, dtype="float32"):
    args = [_data(m, "s", [1, 1, 2, 2], dtype), _data(m, "b", [1, 4, 2, 2], "float32"),
            _data(m, "i", [1, 2], "float32"), _data(m, "a", [2, 2, 1, 4], "float32"),
            _data(m, "v", [2, 2, 1, 4], "float32")]
    out = m.vision.ops.generate_proposals(*args, return_rois_num=with_num)
    return len(out)


def _jpeg(m, dtype):
    out = m.vision.ops.decode_jpeg(_data(m, "x", [10], dtype))
    return list(out.shape), str(out.dtype).split(".")[-1]


@pytest.mark.parametrize("case", [
    lambda m: _fpn(m, False), lambda m: _fpn(m, True),
    lambda m: _proposals(m, False), lambda m: _proposals(m, False, "int32"), lambda m: _proposals(m, True),
    lambda m: _jpeg(m, "float32"), lambda m: _jpeg(m, "uint8"),
], ids=["fpn_no_rois_num", "fpn_rois_num", "proposals_no_num", "proposals_no_num_int", "proposals_num",
        "jpeg_float32", "jpeg_uint8"])
def test_static_build_matches_paddle(case):
    want, got = _build(paddle, case), _build(pagaie, case)
    assert got[0] == want[0], (want, got)
    if want[0] is AssertionError or want[0] == "ok":
        assert got[1] == want[1]


def test_eager_decode_jpeg_float_is_runtime_error():
    x = paddle.zeros([10], "float32")
    with pytest.raises(RuntimeError):
        paddle.vision.ops.decode_jpeg(x)
    with pytest.raises(RuntimeError):
        pagaie.vision.ops.decode_jpeg(pagaie.zeros([10], "float32"))
