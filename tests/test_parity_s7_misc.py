"""Session-7 sweep against real Paddle 3.3.1: the typed-tensor aliases and dtype objects,
paddle.device helpers (random state, streams on the CPU, guards), the amp helpers,
PyLayer's backward contract, jacobian/hessian details, the jit helpers, the inference
helpers, the profiler's enums and callbacks, and io.Sampler."""
import numpy as np
import pytest
import torch

import pagaie
from tests.reference import assert_same, both, paddle_ref, same_exception

_NO_GPU = not torch.cuda.is_available()


def _x(pd, data=(1.0, 2.0), sg=False, dtype="float32"):
    return pd.to_tensor(list(data), dtype=dtype, stop_gradient=sg)


# ---- top-level aliases and dtype objects ---------------------------------------------------
@pytest.mark.parametrize("name,dtype", [
    ("BFloat16Tensor", "bfloat16"), ("BoolTensor", "bool"), ("ByteTensor", "uint8"),
    ("CharTensor", "int8"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"),
    ("IntTensor", "int32"), ("LongTensor", "int64"), ("ShortTensor", "int16")])
def test_typed_tensor_aliases(name, dtype):
    def f(pd):
        cls = getattr(pd, name)
        empty, data, shaped = cls(), cls([1, 2]), cls(2, 3)
        assert getattr(pd.device, name) is cls
        return empty, data, list(shaped.shape), str(shaped.dtype), shaped.stop_gradient
    ours, theirs = both(f)
    assert_same(ours[:2], theirs[:2])
    assert ours[2:] == theirs[2:] and theirs[3] == f"paddle.{dtype}"


def test_dtype_objects_and_constants():
    def f(pd):
        names = ("cdouble", "cfloat", "float8_e5m2", "float8_e4m3fn", "uint32", "uint64")
        return ([repr(getattr(pd, n)) for n in names] + [str(getattr(pd, n)) for n in names]
                + [pd.cfloat == pd.complex64, pd.cdouble == pd.complex128, pd.newaxis,
                   list(pd.ones([2])[pd.newaxis].shape),
                   str(pd.to_tensor([1 + 2j], dtype=pd.cdouble).dtype)])
    ours, theirs = both(f)
    assert ours == theirs


def test_autocast_dtype_getters_and_misc_toplevel():
    def f(pd):
        out = [pd.get_autocast_cpu_dtype(), pd.get_autocast_gpu_dtype(),
               pd.amp.get_autocast_cpu_dtype(), pd.amp.get_autocast_gpu_dtype(),
               pd.amp.get_autocast_dtype("cpu"), pd.amp.is_autocast_enabled("cpu"),
               pd.amp.is_bfloat16_supported("cpu"), pd.amp.is_float16_supported("cpu"),
               pd.amp.is_bfloat16_supported(pd.CPUPlace()), pd.device.is_bf16_supported(False),
               pd.disable_signal_handler()]
        with pd.amp.auto_cast(dtype="bfloat16"):
            out += [pd.get_autocast_cpu_dtype(), pd.amp.get_autocast_gpu_dtype()]
        return out
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda pd: pd.amp.is_float16_supported("foo"))


@pytest.mark.skipif(not _NO_GPU, reason="the CPU build's answer")
def test_cuda_rng_state_without_gpu():
    def f(pd):
        return pd.get_cuda_rng_state(), pd.set_cuda_rng_state([])
    assert both(f)[0] == both(f)[1] == ([], None)


# ---- paddle.device ----------------------------------------------------------------------
def test_device_rng_state_round_trip():
    def f(pd):
        pd.seed(11)
        st = pd.device.get_rng_state()
        a = pd.rand([3])
        pd.device.set_rng_state(st)
        b = pd.rand([3])
        st2 = pd.device.cuda.get_rng_state("cpu")
        c = pd.rand([2])
        pd.device.cuda.set_rng_state(st2, "cpu")
        d = pd.rand([2])
        return a, b, c, d, type(st).__name__
    ours, theirs = both(f)
    assert_same(ours[:4], theirs[:4])
    assert ours[4] == theirs[4] == "GeneratorState"
    assert np.array_equal(ours[0].numpy(), ours[1].numpy())
    same_exception(lambda pd: pd.device.set_rng_state(3))
    same_exception(lambda pd: pd.device.set_rng_state([pd.device.get_rng_state()]))


def test_device_cuda_manual_seed_seeds_current_device():
    def f(pd):
        with pd.device.device_guard("cpu"):
            pd.device.cuda.manual_seed(21)
            return pd.rand([4])
    assert_same(*both(f))


def test_stream_apis_reject_the_cpu():
    same_exception(lambda pd: pd.device.current_stream("cpu"))
    same_exception(lambda pd: pd.device.current_stream(pd.CPUPlace()))
    same_exception(lambda pd: pd.device.synchronize("cpu"))
    same_exception(lambda pd: pd.device.synchronize(pd.CPUPlace()))
    same_exception(lambda pd: pd.device.synchronize("foo"))

    def current(pd, fn):
        with pd.device.device_guard("cpu"):
            getattr(pd.device, fn)()
    assert same_exception(lambda pd: current(pd, "current_stream")).__class__ is TypeError
    same_exception(lambda pd: current(pd, "synchronize"))


@pytest.mark.skipif(not _NO_GPU, reason="the CPU build's answer")
def test_stream_apis_without_gpu():
    same_exception(lambda pd: pd.device.current_stream("gpu"))
    same_exception(lambda pd: pd.device.current_stream(0))
    same_exception(lambda pd: pd.cuda.synchronize())
    same_exception(lambda pd: pd.device.max_memory_allocated())
    same_exception(lambda pd: pd.device.reset_peak_memory_stats())
    same_exception(lambda pd: pd.device.ipc_collect())
    with pytest.raises(RuntimeError, match="paddle.cuda.cudart") as info:
        pagaie.cuda.cudart()
    assert "torch" not in str(info.value)


def test_device_guard_and_custom_device_arguments():
    same_exception(lambda pd: pd.device.device_guard(None))
    same_exception(lambda pd: pd.device.device_guard(0))
    same_exception(lambda pd: pd.device.is_compiled_with_custom_device(1))

    def f(pd):
        with pd.device.device_guard(pd.CPUPlace()):
            x = pd.ones([1])
        return (str(x.place), pd.device.is_compiled_with_custom_device("npu"),
                pd.device.get_all_custom_device_type(), pd.device.get_available_custom_device(),
                pd.device.is_current_stream_capturing())
    ours, theirs = both(f)
    assert ours == theirs


def test_get_device_module_by_name_and_int_devices():
    def f(pd):
        mod = pd.device.get_device_module
        name = lambda m: m.__name__.replace("pagaie", "paddle")  # noqa: E731
        with pd.device.device_guard("cpu"):
            pd.device.set_default_device(0)
            return (name(mod("gpu:0")), name(mod("cuda")), name(mod("xpu")), name(mod("cpu")),
                    name(mod(0)), name(mod(pd.CPUPlace())), name(mod()), pd.device.get_device())
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda pd: pd.device.get_device_module("foo"))
    if _NO_GPU:
        same_exception(lambda pd: pd.device.get_device_module(1))
        same_exception(lambda pd: pd.device.get_device_module(-1))
        same_exception(lambda pd: pd.device.set_default_device(1))


# ---- PyLayer ------------------------------------------------------------------------------
def test_saved_tensor_is_none_without_save():
    seen = {}

    def f(pd):
        class Twice(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, dy):
                seen[pd.__name__] = ctx.saved_tensor()
                return dy * 2
        x = _x(pd)
        Twice.apply(x).sum().backward()
        return x.grad
    assert_same(*both(f))
    assert seen["pagaie"] is None and seen["paddle"] is None


def test_backward_tuple_is_per_argument_list_is_one_gradient():
    def layer(pd, mode):
        class Mul(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, xs):
                return xs[0] * xs[1]

            @staticmethod
            def backward(ctx, dy):
                return [dy * 2, dy * 3] if mode == "list" else ([dy * 2, dy * 3],)
        a, b = _x(pd, (1.0,)), _x(pd, (2.0,))
        Mul.apply([a, b]).backward()
        return a.grad, b.grad
    for mode in ("list", "tuple"):
        assert_same(*both(lambda pd: layer(pd, mode)))

    def mixed(pd):
        class Mixed(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, ys):
                return x * ys[0] * ys[1]

            @staticmethod
            def backward(ctx, dy):
                return dy * 2, [dy * 3, dy * 4]
        x, a, b = _x(pd, (5.0,)), _x(pd, (1.0,)), _x(pd, (2.0,))
        Mixed.apply(x, [a, b]).backward()
        return x.grad, a.grad, b.grad
    assert_same(*both(mixed))


@pytest.mark.parametrize("bad", ["list_for_tensor", "list_of_two", "float", "ndarray", "str",
                                 "nested_list", "tensor_for_list"])
def test_backward_returns_only_tensors_or_none(bad):
    def f(pd):
        class Bad(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, y, zs):
                return x * y * zs[0]

            @staticmethod
            def backward(ctx, dy):
                return {"list_for_tensor": ([dy], dy, [dy]),
                        "list_of_two": [dy, dy],
                        "float": (dy, 2.0, [dy]),
                        "ndarray": (dy.numpy(), dy, [dy]),
                        "str": (dy, "a", [dy]),
                        "nested_list": (dy, dy, [[dy]]),
                        "tensor_for_list": (dy, dy, dy)}[bad]
        Bad.apply(_x(pd, (1.0,)), _x(pd, (2.0,)), [_x(pd, (3.0,))]).backward()
    same_exception(f)


def test_backward_gradient_for_stop_gradient_input():
    def f(pd, grad_for_y):
        class Mul(pd.autograd.PyLayer):
            @staticmethod
            def forward(ctx, x, y):
                return x * y

            @staticmethod
            def backward(ctx, dy):
                return (dy * 2, dy * 3) if grad_for_y else (dy * 2, None)
        x, y = _x(pd), _x(pd, (3.0, 4.0), sg=True)
        Mul.apply(x, y).sum().backward()
        return x.grad, y.grad
    assert_same(*both(lambda pd: f(pd, False)))
    same_exception(lambda pd: f(pd, True))


def test_backward_gradient_of_wrong_shape_is_a_clear_error():
    # Paddle stores the wrong-shaped gradient as is; pagaie says what is wrong instead.
    class Bad(pagaie.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, dy):
            return pagaie.ones([3])
    x = _x(pagaie)
    with pytest.raises(ValueError, match=r"Bad.backward returned a gradient of shape \[3\]"):
        Bad.apply(x).sum().backward()


# ---- jacobian / hessian ---------------------------------------------------------------------
def test_jacobian_checks_and_batch_size():
    def two_d(pd):
        x = pd.to_tensor(np.arange(6, dtype="float32").reshape(2, 3), stop_gradient=False)
        pd.autograd.jacobian(x * x, x)
    assert "xs.ndim" in str(same_exception(two_d))

    def mismatch(pd):
        x = pd.to_tensor(np.arange(6, dtype="float32").reshape(2, 3), stop_gradient=False)
        j = pd.autograd.jacobian((x * x)[:1], x, batch_axis=0)
        return j.shape, j[:]
    ours, theirs = both(mismatch)
    assert ours[0] == theirs[0] == [2, 3, 3]
    assert_same(ours[1], theirs[1])


def test_jacobian_of_stop_gradient_xs_and_hessian_blocks():
    def f(pd):
        x = _x(pd, sg=True)
        j = pd.autograd.jacobian(x * 3, x)[:]
        u = _x(pd)
        k = pd.autograd.jacobian(u * 3, _x(pd, (3.0,)))[:]
        return j, j.stop_gradient, k, k.stop_gradient
    ours, theirs = both(f)
    assert_same(ours, theirs)

    def h(pd):
        x, z = _x(pd, (1.0, 2.0, 3.0)), _x(pd, (2.0, 3.0, 4.0))
        blocks = pd.autograd.hessian((x * z * x).sum(), (x, z))
        return [type(b).__name__ for row in blocks for b in row], [b[:] for row in blocks for b in row]
    ours, theirs = both(h)
    assert ours[0] == theirs[0] == ["Hessian"] * 4
    assert_same(ours[1], theirs[1])


# ---- jit helpers ----------------------------------------------------------------------------
def test_jit_helpers():
    same_exception(lambda pd: pd.jit.ignore_module(pd))
    same_exception(lambda pd: pd.jit.ignore_module(None))
    same_exception(lambda pd: pd.jit.not_to_static(1))
    same_exception(lambda pd: pd.jit.set_code_level("a"))
    same_exception(lambda pd: pd.jit.set_verbosity(1.5))

    def f(pd):
        import json
        fn = pd.jit.not_to_static(lambda v: v + 1)
        return (pd.jit.ignore_module([json]), pd.jit.ignore_module([]), fn(2),
                callable(pd.jit.not_to_static()), pd.jit.set_code_level(), pd.jit.set_verbosity(0))
    ours, theirs = both(f)
    assert ours == theirs


# ---- inference helpers ------------------------------------------------------------------------
def test_inference_helpers():
    def f(pd):
        inf = pd.inference
        v = inf.get_version()
        cfg = inf.XpuConfig()
        return (v.startswith("version: ") and "\ncommit: " in v and v.endswith("branch: HEAD\n"),
                inf.get_trt_compile_version(), inf.get_trt_runtime_version(), cfg.device_id,
                sorted(a for a in dir(cfg) if not a.startswith("_")),
                inf.get_num_bytes_of_data_type(inf.DataType.FLOAT32),
                list(inf.DataType.__members__), list(inf.PlaceType.__members__),
                list(inf.PrecisionType.__members__))
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda pd: pd.inference.XpuConfig(1))
    same_exception(lambda pd: pd.inference.Predictor(3))
    same_exception(lambda pd: pd.inference.get_num_bytes_of_data_type(3))


# ---- profiler ---------------------------------------------------------------------------------
def test_profiler_enums_and_callbacks(tmp_path):
    def f(pd):
        P = pd.profiler
        return ([(m.name, m.value, repr(m), str(m)) for m in P.ProfilerState],
                repr(P.ProfilerState(2)), [(m.name, m.value) for m in P.ProfilerTarget],
                callable(P.export_protobuf(str(tmp_path / "pb"), worker_name="w")),
                callable(P.export_chrome_tracing(str(tmp_path / "js"))))
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda pd: pd.profiler.ProfilerState(9))
    same_exception(lambda pd: pd.profiler.export_chrome_tracing(None))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    same_exception(lambda pd: pd.profiler.export_protobuf(str(blocker / "sub")))


# ---- io.Sampler -------------------------------------------------------------------------------
def test_sampler_base_class():
    def f(pd):
        S = pd.io.Sampler

        class Evens(S[int]):
            def __iter__(self):
                return iter(range(0, len(self.data_source), 2))
        s = S([1, 2])
        return (S().data_source, s.data_source, list(Evens(range(5))), hasattr(S[int], "__origin__"),
                all(isinstance(o, S) for o in (pd.io.RandomSampler([1]), pd.io.SequenceSampler([1]),
                                               pd.io.BatchSampler([1], batch_size=1))))
    ours, theirs = both(f)
    assert ours == theirs
    same_exception(lambda pd: iter(pd.io.Sampler([1])))
    same_exception(lambda pd: len(pd.io.Sampler([1])))


@pytest.mark.parametrize("device", [0, 1, -1, 1.5])
def test_set_device_int_and_float_forms(device):
    """An int is an index on the current device type (the CPU has only 0); a float is invalid."""
    P = paddle_ref()
    P.set_device("cpu")
    pagaie.set_device("cpu")
    try:
        if device in (0,):
            ours, theirs = both(lambda fw: fw.set_device(device))
            assert repr(ours) == repr(theirs)
        else:
            same_exception(lambda fw: fw.set_device(device))
    finally:
        P.set_device("cpu")
        pagaie.set_device("cpu")


def test_pinned_place_str():
    assert str(pagaie.CUDAPinnedPlace()) == repr(pagaie.CUDAPinnedPlace()) == "Place(gpu_pinned)"
